//! Reading a run's log: each framework's own lines (copied from real logs and the code that
//! prints them), the estimate beside them, and a clear error for a log with none of them.
use tunefit_core::calibrate::{calibrate, parse_log};
use tunefit_core::Query;

const GIB: f64 = 1073741824.0;

#[test]
fn torchtune_memory_stats_and_tokens_per_second() {
    // torchtune lora_single_device output (docs, torchtune/training/memory.py log_memory_stats).
    let log = "Memory stats after model init:\n\tGPU peak memory allocation: 6.21 GiB\n\tGPU peak memory reserved: 6.27 GiB\n\tGPU peak memory active: 6.21 GiB\nStep 10 | loss:1.23 lr:3e-4 tokens_per_second_per_gpu:2345.67 peak_memory_alloc:7.1";
    let m = parse_log(log).unwrap();
    assert_eq!(m.memory[0].0, "allocated");
    assert!((m.memory[0].1 as f64 / GIB - 6.21).abs() < 1e-6);
    assert_eq!(m.memory[1].0, "reserved");
    assert_eq!(m.tokens_per_s_per_gpu, Some(2345.67));
    // Older torchtune printed GB (1e9 bytes).
    let old = parse_log("\tGPU peak memory reserved: 9.29 GB").unwrap();
    assert_eq!(old.memory[0].1, 9_290_000_000);
}

#[test]
fn hf_trainer_unsloth_litgpt_and_nvidia_smi() {
    // HF Trainer's final dict (Liger-Kernel examples/huggingface/results/qwen2_use_liger_False_patching_type_None.log).
    let hf = parse_log("{'train_runtime': 12.8923, 'train_samples_per_second': 37.231, 'train_steps_per_second': 0.388, 'train_loss': 1.5579456329345702, 'epoch': 0.01}").unwrap();
    assert_eq!(hf.samples_per_s, Some(37.231));
    assert!((hf.step_s.unwrap() - 1.0 / 0.388).abs() < 1e-9);
    // Unsloth notebooks: max_memory_reserved / 1024**3 printed as "GB".
    let u = parse_log("9.549 GB of memory reserved.\nPeak reserved memory = 9.549 GB.").unwrap();
    assert_eq!(u.memory[0].0, "reserved");
    assert!((u.memory[0].1 as f64 / GIB - 9.549).abs() < 1e-6);
    // litgpt finetune scripts: max_memory_allocated / 1e9.
    assert_eq!(
        parse_log("Memory used: 19.73 GB").unwrap().memory[0],
        ("allocated".into(), 19_730_000_000, "litgpt memory used (max_memory_allocated)".into())
    );
    // nvidia-smi's table row.
    let smi = parse_log("| N/A   34C    P0    70W / 700W |  21000MiB / 81559MiB |      0%      Default |").unwrap();
    assert_eq!(smi.memory[0], ("device".into(), 21000 * 1048576, "nvidia-smi memory used".into()));
}

#[test]
fn the_estimate_beside_the_log_and_foreign_logs_refused() {
    let q = Query::parse("model=llama-3.2-3b&method=lora&framework=torchtune&gpu=a100-80gb").unwrap();
    let c = calibrate(&q, "\tGPU peak memory reserved: 12.00 GiB\ntokens_per_second_per_gpu:4000").unwrap();
    assert_eq!(c.memory.len(), 1);
    let (_, measured, predicted, err) = &c.memory[0];
    assert!((*predicted as f64 / *measured as f64 - 1.0 - err).abs() < 1e-12);
    let ratio = c.speed_ratio.unwrap();
    assert!(ratio > 0.0 && ratio.is_finite() && c.speed_basis.to_string() == "tokens/s per GPU");
    // The JSON keeps the English words; the page says them in its language.
    assert_eq!(serde_json::to_value(&c).unwrap()["speed_basis"], "tokens/s per GPU");
    assert_eq!(c.speed_basis.text(tunefit_core::diag::Lang::Ru), "токенов/с на GPU");
    let e = calibrate(&q, "hello world\nnothing to see").unwrap_err().to_string();
    assert!(e.contains("no recognised figure"), "{e}");
}

#[test]
fn a_run_becomes_a_case_of_the_measured_set() {
    let q = Query::parse("model=llama-3.2-3b&method=lora&framework=torchtune&gpu=a100-80gb").unwrap();
    let v = tunefit_core::calibrate::measured_cases(&q, "\tGPU peak memory reserved: 12.00 GiB", "my run").unwrap();
    let c = &v["cases"][0];
    assert_eq!(c["metric"], "reserved");
    assert_eq!(c["measured_unit"], "GiB");
    assert!((c["measured_value"].as_f64().unwrap() - 12.0).abs() < 1e-9);
    // The query parses back to the same configuration: the measured-set test can evaluate it.
    assert_eq!(Query::parse(c["query"].as_str().unwrap()).unwrap(), q);
    for k in ["id", "source", "framework", "gpu", "config", "per_gpu", "trust"] {
        assert!(!c[k].is_null(), "{k}");
    }
}

#[test]
fn the_measured_speed_as_mfu_reproduces_the_run_and_a_case_downloads() {
    use tunefit_core::calibrate::measured_cases_json;
    let query = "model=llama-3.1-8b&method=lora&gpu=a100-80gb&batch=2&seq=2048";
    let q = Query::parse(query).unwrap();
    let c = calibrate(&q, "\tGPU peak memory reserved: 21.00 GiB\ntokens_per_second_per_gpu:1500").unwrap();
    assert_eq!(c.memory[0].2, tunefit_core::evaluate(&q).unwrap().memory.reserved);
    // The page's "use my speed" sets mfu = the estimate's MFU × the measured/estimated ratio
    // (crates/tunefit-export/src/plan_panel.rs): the time model then runs at the measured speed.
    let mfu = c.measured_mfu.unwrap();
    assert!((mfu - tunefit_core::evaluate(&q).unwrap().time.unwrap().mfu * c.speed_ratio.unwrap()).abs() < 1e-12);
    let t = tunefit_core::evaluate(&Query::parse(&format!("{query}&mfu={mfu:.3}")).unwrap()).unwrap().time.unwrap();
    let per_gpu = t.tokens_per_s / t.gpus as f64;
    assert!((per_gpu / 1500.0 - 1.0).abs() < 0.1, "{per_gpu} tokens/s per GPU with mfu={mfu}");
    // The page's "scale the memory" sets mem_scale = measured/estimated: the figure then matches.
    let scale = c.memory[0].1 as f64 / c.memory[0].2 as f64;
    let scaled = tunefit_core::evaluate(&Query::parse(&format!("{query}&mem_scale={scale:.3}")).unwrap())
        .unwrap()
        .memory
        .reserved as f64;
    assert!((scaled / (21.0 * 1073741824.0) - 1.0).abs() < 0.002, "{scaled}");
    let case: serde_json::Value = serde_json::from_str(&measured_cases_json(query, "Memory used: 19.73 GB")).unwrap();
    assert_eq!(case["cases"][0]["metric"], "allocated");
    assert!(
        serde_json::from_str::<serde_json::Value>(&measured_cases_json(query, "nothing")).unwrap()["error"].is_string()
    );
}
