//! Config export: every snippet parses in its own language (Python via `ast`, YAML via PyYAML,
//! JSON via serde_json, shell via `bash -n`) and carries the configuration's values: rank,
//! targets, batch, sequence, precision, checkpointing, sharding. Settings a framework cannot
//! express come back as warnings that name them.
//!
//! The checkers are required (scripts/setup.sh installs python3 and PyYAML): a missing one
//! fails the test, unless TUNEFIT_ALLOW_MISSING_TOOLS=1, which skips its checks with a
//! "SKIPPED:" line on stderr.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use tunefit_core::export::{export, ConfigExport, ExportFile, PLACEHOLDER};
use tunefit_core::query::Framework;
use tunefit_core::Query;

fn ex(fw: Framework, qs: &str) -> ConfigExport {
    export(&Query::parse(qs).unwrap(), fw).unwrap_or_else(|e| panic!("{fw} {qs}: {e}"))
}

fn get<'a>(e: &'a ConfigExport, name: &str) -> &'a ExportFile {
    e.files.iter().find(|f| f.name == name).unwrap_or_else(|| {
        panic!("{} export has no {name}; files: {:?}", e.framework, e.files.iter().map(|f| &f.name).collect::<Vec<_>>())
    })
}

fn has_warning(e: &ConfigExport, needle: &str) -> bool {
    e.warnings.iter().any(|w| w.code.contains(needle) || w.message.contains(needle))
}

/// Runs a checker program with `input` on stdin; None when the program is absent.
fn run(program: &str, args: &[&str], input: &str) -> Option<Result<String, String>> {
    let mut child = match Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(_) => return None,
    };
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Some(if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

/// A checker these tests need is missing. scripts/setup.sh installs python3 and PyYAML (and
/// every script here runs under bash), so a missing one is a broken setup and fails the test.
/// With TUNEFIT_ALLOW_MISSING_TOOLS=1 the check is skipped instead, and says so with a
/// "SKIPPED:" line (once per reason) written straight to stderr, which the test harness does
/// not capture.
fn missing_tool(what: &str) {
    static SAID: std::sync::Mutex<std::collections::BTreeSet<String>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    if std::env::var("TUNEFIT_ALLOW_MISSING_TOOLS").is_ok_and(|v| v == "1") {
        if SAID.lock().unwrap().insert(what.to_string()) {
            // Not eprintln!: the harness captures that, and a passing test's output is hidden.
            std::io::stderr().write_all(format!("SKIPPED: {what}\n").as_bytes()).unwrap();
        }
    } else {
        panic!("{what}; scripts/setup.sh installs python3 and PyYAML (TUNEFIT_ALLOW_MISSING_TOOLS=1 skips the check instead)");
    }
}

fn python_has_yaml() -> bool {
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| matches!(run("python3", &["-c", "import yaml"], ""), Some(Ok(_))))
}

/// Parses many Python and YAML files in one python3 process (one start per file would take
/// most of the test's time): returns one error string per file that fails.
fn python_check_all(files: &[(String, &ExportFile)]) -> Option<Vec<String>> {
    let items: Vec<Value> = files
        .iter()
        .map(|(ctx, f)| serde_json::json!({"ctx": ctx, "name": f.name, "lang": f.language, "content": f.content}))
        .collect();
    let script = "import ast, json, sys\ntry:\n    import yaml\nexcept ImportError:\n    yaml = None\nerrs = []\nfor it in json.load(sys.stdin):\n    try:\n        if it['lang'] == 'python': ast.parse(it['content'])\n        elif yaml is not None: yaml.safe_load(it['content'])\n    except Exception as e:\n        errs.append(it['ctx'] + ' ' + it['name'] + ': ' + str(e))\nprint(json.dumps(errs))\n";
    let out = run("python3", &["-c", script], &serde_json::to_string(&items).unwrap())?;
    Some(serde_json::from_str(&out.unwrap_or_else(|e| panic!("checker failed: {e}"))).unwrap())
}

/// YAML as JSON (through PyYAML). Without python3 and PyYAML the test fails, or, where
/// missing tools are allowed, this YAML check is skipped (None) and the rest of the test runs.
fn yaml_value(content: &str) -> Option<Value> {
    if !python_has_yaml() {
        missing_tool("python3 with PyYAML not found: YAML structure not checked");
        return None;
    }
    let out = run("python3", &["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"], content)
        .unwrap()
        .unwrap_or_else(|e| panic!("YAML does not parse: {e}\n{content}"));
    Some(serde_json::from_str(&out).unwrap())
}

/// Checks that a file parses in its language. Python and YAML need python3; shell needs bash.
fn check_parses(f: &ExportFile, ctx: &str) {
    match f.language.as_str() {
        "json" => {
            serde_json::from_str::<Value>(&f.content).unwrap_or_else(|e| panic!("{ctx} {}: JSON: {e}", f.name));
        }
        "yaml" => {
            yaml_value(&f.content);
        }
        "python" => match run("python3", &["-c", "import ast, sys; ast.parse(sys.stdin.read())"], &f.content) {
            None => missing_tool("python3 not found: Python files not syntax-checked"),
            Some(r) => {
                r.unwrap_or_else(|e| panic!("{ctx} {}: Python syntax: {e}\n{}", f.name, f.content));
            }
        },
        "shell" => match run("bash", &["-n"], &f.content) {
            None => missing_tool("bash not found: shell scripts not syntax-checked (bash -n)"),
            Some(r) => {
                r.unwrap_or_else(|e| panic!("{ctx} {}: shell syntax: {e}\n{}", f.name, f.content));
            }
        },
        other => panic!("{ctx} {}: unknown language {other}", f.name),
    }
}

/// A spread of configurations: defaults (QLoRA), LoRA subsets with the LM head, full FSDP,
/// ZeRO-3 with full offload, DoRA, ZeRO-2 optimizer offload in fp16, other families, a custom
/// model, prefix tuning and freeze.
const QUERIES: &[&str] = &[
    "",
    "method=lora&rank=64&targets=q,v,lm_head&batch=2&seq=4096",
    "method=full&precision=bf16-mixed&gpus=8&shard=fsdp&ckpt=full",
    "method=lora&gpus=8&shard=zero3&offload=all&precision=bf16-true",
    "method=qlora&gpus=4&shard=zero3&offload=all",
    "method=dora&rank=8&targets=q,k,v,o",
    "method=lora&precision=fp16-mixed&gpus=2&shard=zero2&offload=optimizer&optim=paged-adamw-8bit",
    "model=gpt2&method=lora&rank=8&seq=1024&precision=fp32",
    "model=phi-3-mini&method=lora&targets=q,gate",
    "model=qwen2.5-7b&method=qlora&quant=fp4&dq=0&packing=1&compile=1",
    "params=7b&method=lora",
    "method=prefix&virtual_tokens=30",
    "model=llama-3.2-1b&method=freeze&train_layers=4&optim=sgd-momentum",
    "model=mixtral-8x7b&method=qlora&quant=int8&gpus=2&nodes=2&shard=fsdp",
    // loss=chunked writes use_liger_kernel, where a trailing comment would swallow the comma.
    "method=lora&loss=chunked",
    "model=gemma-2b&method=lora&targets=q,v,lm_head&lora_dropout=0.1",
];

#[test]
fn every_snippet_parses_for_every_framework() {
    let exports: Vec<(String, ConfigExport)> = QUERIES
        .iter()
        .flat_map(|qs| Framework::ALL.iter().map(move |fw| (format!("{fw} ?{qs}"), ex(*fw, qs))))
        .collect();
    let mut for_python = Vec::new();
    for (ctx, e) in &exports {
        assert!(!e.files.is_empty(), "{ctx}: no files");
        for f in &e.files {
            assert!(!f.content.trim().is_empty(), "{ctx}: {} is empty", f.name);
            match f.language.as_str() {
                "python" | "yaml" => for_python.push((ctx.clone(), f)),
                _ => check_parses(f, ctx),
            }
        }
    }
    match python_check_all(&for_python) {
        None => missing_tool("python3 not found: Python and YAML files not syntax-checked"),
        Some(errs) => {
            if !python_has_yaml() {
                missing_tool("PyYAML not found: YAML files not parsed");
            }
            assert!(errs.is_empty(), "{} files do not parse:\n{}", errs.len(), errs.join("\n"));
        }
    }
}

/// LoRA r48 on q,v; micro-batch 3, GA 5, seq 3072, bf16-true, full checkpointing, 4 GPUs
/// with ZeRO-3 and everything offloaded.
const Z3: &str = "method=lora&rank=48&targets=q,v&batch=3&seq=3072&ga=5&precision=bf16-true&ckpt=full&gpus=4&shard=zero3&offload=all";

fn check_ds_zero3_offload(e: &ConfigExport) {
    let ds: Value = serde_json::from_str(&get(e, "ds_config.json").content).unwrap();
    assert_eq!(ds["zero_optimization"]["stage"], 3);
    assert_eq!(ds["zero_optimization"]["offload_optimizer"]["device"], "cpu");
    assert_eq!(ds["zero_optimization"]["offload_param"]["device"], "cpu");
}

#[test]
fn hf_carries_values_and_deepspeed() {
    let e = ex(Framework::Hf, Z3);
    let py = &get(&e, "train.py").content;
    for needle in [
        "r=48,",
        "lora_alpha=96,",
        "target_modules=[\"q_proj\", \"v_proj\"]",
        "per_device_train_batch_size=3,",
        "gradient_accumulation_steps=5,",
        "MAX_SEQ_LENGTH = 3072",
        "bf16=True,",
        "    dtype=torch.bfloat16,",
        "gradient_checkpointing=True,",
        "deepspeed=\"ds_config.json\"",
        "optim=\"adamw_torch_fused\"",
    ] {
        assert!(py.contains(needle), "train.py lacks {needle}:\n{py}");
    }
    check_ds_zero3_offload(&e);
    assert!(get(&e, "launch.sh").content.contains("--num_processes 4"));

    // ZeRO-2 with optimizer offload: no parameter offload; fp16 AMP; paged 8-bit optimizer.
    let e = ex(
        Framework::Hf,
        "method=lora&precision=fp16-mixed&gpus=2&shard=zero2&offload=optimizer&optim=paged-adamw-8bit&ckpt=none",
    );
    let ds: Value = serde_json::from_str(&get(&e, "ds_config.json").content).unwrap();
    assert_eq!(ds["zero_optimization"]["stage"], 2);
    assert_eq!(ds["zero_optimization"]["offload_optimizer"]["device"], "cpu");
    assert!(ds["zero_optimization"].get("offload_param").is_none());
    let py = &get(&e, "train.py").content;
    assert!(
        py.contains("fp16=True,") && py.contains("bf16=False,") && py.contains("optim=\"paged_adamw_8bit\""),
        "{py}"
    );
    assert!(py.contains("gradient_checkpointing=False,"), "{py}");
}

#[test]
fn hf_qlora_bits_and_fsdp() {
    let py = get(&ex(Framework::Hf, ""), "train.py").content.clone();
    assert!(
        py.contains("load_in_4bit=True")
            && py.contains("bnb_4bit_quant_type=\"nf4\"")
            && py.contains("bnb_4bit_use_double_quant=True"),
        "{py}"
    );
    assert!(py.contains("prepare_model_for_kbit_training"));
    let py = get(&ex(Framework::Hf, "quant=fp4&dq=0"), "train.py").content.clone();
    assert!(py.contains("bnb_4bit_quant_type=\"fp4\"") && py.contains("bnb_4bit_use_double_quant=False"), "{py}");
    let py = get(&ex(Framework::Hf, "quant=int8"), "train.py").content.clone();
    assert!(py.contains("load_in_8bit=True") && !py.contains("load_in_4bit"), "{py}");

    let e = ex(Framework::Hf, "method=full&gpus=8&shard=fsdp&offload=all");
    let acc = yaml_value(&get(&e, "accelerate_fsdp.yaml").content);
    if let Some(acc) = acc {
        assert_eq!(acc["distributed_type"], "FSDP");
        assert_eq!(acc["num_processes"], 8);
        assert_eq!(acc["fsdp_config"]["fsdp_sharding_strategy"], "FULL_SHARD");
        assert_eq!(acc["fsdp_config"]["fsdp_offload_params"], true);
        assert_eq!(acc["fsdp_config"]["fsdp_transformer_layer_cls_to_wrap"], "LlamaDecoderLayer");
    }
    assert!(get(&e, "launch.sh").content.contains("--config_file accelerate_fsdp.yaml"));
    // Full fine-tuning under AMP loads fp32 weights (autocast casts from fp32 masters).
    assert!(get(&e, "train.py").content.contains("    dtype=torch.float32,"));
}

/// What the estimate counts and the framework cannot be told is said, and what it can be told
/// is written: activation offloading, AdamW's implementation, a chunked loss, and QLoRA's
/// 16-bit non-quantized modules.
#[test]
fn estimate_settings_are_written_or_named() {
    let off = "v=2&model=llama-3.1-8b&method=lora&ckpt=full&act_offload=1";
    for fw in [Framework::Hf, Framework::LlamaFactory, Framework::Litgpt] {
        assert!(has_warning(&ex(fw, off), "export-act-offload"), "{fw}");
    }
    let e = ex(Framework::Axolotl, off);
    assert!(
        !has_warning(&e, "export-act-offload")
            && get(&e, "axolotl.yaml").content.contains("activation_offloading: true")
    );
    assert!(get(&ex(Framework::Axolotl, "v=2&method=lora&act_offload=0"), "axolotl.yaml")
        .content
        .contains("activation_offloading: false"));
    let e = ex(Framework::Torchtune, off);
    assert!(
        !has_warning(&e, "export-act-offload")
            && get(&e, "launch.sh").content.contains("enable_activation_offloading=True")
    );
    assert!(!has_warning(&ex(Framework::Unsloth, off), "export-act-offload"));
    // Without checkpointing torchtune's recipes and axolotl's validation reject offloading:
    // nothing is written, and the note says so.
    let bare = "v=2&model=llama-3.1-8b&method=lora&ckpt=none&act_offload=1";
    let e = ex(Framework::Axolotl, bare);
    assert!(
        has_warning(&e, "export-act-offload")
            && get(&e, "axolotl.yaml").content.contains("activation_offloading: false")
    );
    let e = ex(Framework::Torchtune, bare);
    assert!(
        has_warning(&e, "export-act-offload")
            && get(&e, "launch.sh").content.contains("enable_activation_offloading=False")
    );
    assert!(has_warning(&ex(Framework::Unsloth, "v=2&method=lora&ckpt=none&act_offload=1"), "export-act-offload"));
    assert!(!has_warning(&ex(Framework::Hf, "v=2&method=lora&ckpt=full"), "export-act-offload"));

    // AdamW's implementation: torchtune and litgpt write it; the Trainer's names cannot say for-loop.
    let tt = |i: &str| {
        get(&ex(Framework::Torchtune, &format!("v=2&method=lora&optim=adamw&optim_impl={i}")), "launch.sh")
            .content
            .clone()
    };
    assert!(tt("fused").contains("optimizer.fused=True") && !tt("fused").contains("optimizer.foreach"));
    assert!(tt("foreach").contains("optimizer.fused=False") && !tt("foreach").contains("optimizer.foreach"));
    assert!(tt("for-loop").contains("optimizer.fused=False") && tt("for-loop").contains("optimizer.foreach=False"));
    let lit = |i: &str| {
        get(&ex(Framework::Litgpt, &format!("v=2&method=lora&optim=adamw&optim_impl={i}")), "finetune.sh")
            .content
            .clone()
    };
    assert!(
        lit("fused").contains(r#"--optimizer '{"class_path": "torch.optim.AdamW", "init_args": {"fused": true}}'"#),
        "{}",
        lit("fused")
    );
    assert!(lit("for-loop").contains(r#""init_args": {"foreach": false}"#));
    assert!(lit("foreach").contains("--optimizer AdamW") && !lit("foreach").contains("init_args"));
    for fw in [Framework::Hf, Framework::Axolotl, Framework::LlamaFactory, Framework::Unsloth] {
        assert!(has_warning(&ex(fw, "v=2&method=lora&optim=adamw&optim_impl=for-loop"), "export-optim-impl"), "{fw}");
        assert!(!has_warning(&ex(fw, "v=2&method=lora&optim=adamw&optim_impl=fused"), "export-optim-impl"), "{fw}");
    }

    // An optimizer without `fused` over a shipped config whose optimizer has it: the key goes
    // (torchtune's `~key`), or bitsandbytes' AdamW8bit is built with fused=True and raises.
    let sh = get(&ex(Framework::Torchtune, "v=2&model=llama-3.1-8b&method=lora&optim=adamw-8bit"), "launch.sh")
        .content
        .clone();
    assert!(sh.contains("'~optimizer.fused'") && sh.contains("--config llama3_1/8B_lora_single_device"), "{sh}");
    // The single-device full config ships PagedAdamW8bit without it: removing it would raise.
    let sh = get(&ex(Framework::Torchtune, "v=2&model=llama-3.1-8b&method=full&optim=adamw-8bit"), "launch.sh")
        .content
        .clone();
    assert!(!sh.contains("~optimizer.fused") && sh.contains("--config llama3_1/8B_full_single_device"), "{sh}");
    assert!(!tt("foreach").contains("~optimizer.fused"));

    // 16-bit adapters: axolotl turns PEFT's fp32 upcast off; LLaMA-Factory cannot, and says so.
    let y = get(&ex(Framework::Axolotl, "v=2&method=lora&adapter_dtype=bf16"), "axolotl.yaml").content.clone();
    assert!(y.contains("peft_autocast_adapter_dtype: false"), "{y}");
    assert!(!get(&ex(Framework::Axolotl, "v=2&method=lora"), "axolotl.yaml")
        .content
        .contains("peft_autocast_adapter_dtype"));
    assert!(has_warning(&ex(Framework::LlamaFactory, "v=2&method=lora&adapter_dtype=bf16"), "export-adapter-dtype"));
    assert!(!has_warning(&ex(Framework::LlamaFactory, "v=2&method=lora"), "export-adapter-dtype"));

    // Packed samples under SDPA get transformers' block-causal mask; flash-attn packs without.
    assert!(has_warning(&ex(Framework::Hf, "v=2&method=lora&packing=1&attn=sdpa"), "export-packing-sdpa"));
    assert!(!has_warning(&ex(Framework::Hf, "v=2&method=lora&packing=1&attn=flash"), "export-packing-sdpa"));
    assert!(!has_warning(&ex(Framework::Hf, "v=2&method=lora&packing=0&attn=sdpa"), "export-packing-sdpa"));

    // TRL's SFTConfig checkpoints by default: Unsloth's script turns it off where the estimate does.
    let py = get(&ex(Framework::Unsloth, "v=2&method=lora&ckpt=none"), "train_unsloth.py").content.clone();
    assert!(py.contains("gradient_checkpointing=False"), "{py}");
    let py = get(&ex(Framework::Unsloth, "v=2&method=lora&ckpt=full"), "train_unsloth.py").content.clone();
    assert!(!py.contains("gradient_checkpointing=False"), "{py}");

    // transformers has no chunked loss: Liger's fused linear one is written, and said.
    for fw in [Framework::Hf, Framework::Axolotl, Framework::LlamaFactory] {
        assert!(has_warning(&ex(fw, "v=2&method=lora&loss=chunked"), "export-loss-chunked"), "{fw}");
        assert!(!has_warning(&ex(fw, "v=2&method=lora&loss=fused-linear"), "export-loss-chunked"), "{fw}");
    }

    // QLoRA: prepare_model_for_kbit_training casts the 16-bit non-quantized modules to fp32.
    let py = get(&ex(Framework::Hf, "v=2&method=qlora&precision=bf16-true&ckpt=full"), "train.py").content.clone();
    assert!(
        !py.contains("model = prepare_model_for_kbit_training(") && py.contains("gradient_checkpointing_enable("),
        "{py}"
    );
    assert_eq!(py.matches("model.enable_input_require_grads()").count(), 1, "{py}");
    // The encoders' scripts share the preparation: their inputs still need a gradient.
    for qs in [
        "v=2&model=whisper-small&method=qlora&precision=bf16-true&ckpt=full&seq=448",
        "v=2&model=vit-b&method=qlora&precision=bf16-true&ckpt=full",
    ] {
        let py = get(&ex(Framework::Hf, qs), "train.py").content.clone();
        assert!(
            py.contains("model.enable_input_require_grads()")
                && !py.contains("model = prepare_model_for_kbit_training("),
            "?{qs}:\n{py}"
        );
    }
    let py = get(&ex(Framework::Hf, "v=2&method=qlora&precision=bf16-mixed"), "train.py").content.clone();
    assert!(py.contains("model = prepare_model_for_kbit_training("), "{py}");
}

/// The exported script loads the weights in the dtype the estimate stores the frozen base in:
/// `*-mixed` is an fp32 model under autocast (memory/run.rs `frozen_bytes`), for a PEFT
/// method as for full fine-tuning, so the exported run holds the weights the estimate counts.
#[test]
fn hf_loads_the_weights_in_the_dtype_the_estimate_counts() {
    for (p, dtype, bytes) in [
        ("bf16-mixed", "torch.float32", 4.0),
        ("fp16-mixed", "torch.float32", 4.0),
        ("bf16-true", "torch.bfloat16", 2.0),
        ("fp32", "torch.float32", 4.0),
    ] {
        for m in ["lora", "full"] {
            let qs = format!("v=2&model=llama-3.2-1b&method={m}&precision={p}");
            let py = get(&ex(Framework::Hf, &qs), "train.py").content.clone();
            assert!(py.contains(&format!("    dtype={dtype},")), "?{qs}:\n{py}");
            if m == "lora" {
                let q = Query::parse(&qs).unwrap();
                let est = tunefit_core::evaluate(&q).unwrap();
                let base = est.model.params as f64 * bytes;
                let w = est.memory.weights as f64;
                // The adapters (fp32, a few percent) ride on top.
                assert!((w - base).abs() / base < 0.03, "?{qs}: weights {w} against {base}");
            }
        }
    }
}

/// A 16-bit `*-true` run under FSDP: accelerate's mixed precision would upcast every trained
/// parameter to fp32 before sharding (src/accelerate/accelerator.py @16cb6eb8, "FSDP upcast of
/// low precision parameters"), doubling the weights, gradients and optimizer states the
/// estimate counts, so the Trainer-based exports turn it off there and only there.
#[test]
fn true_16_bit_under_fsdp_turns_accelerates_mixed_precision_off() {
    let mixed = |fw: Framework, qs: &str| {
        let e = ex(fw, qs);
        let acc = get(&e, "accelerate_fsdp.yaml").content.clone();
        let line = acc.lines().find(|l| l.starts_with("mixed_precision:")).unwrap_or_else(|| panic!("{acc}"));
        line.trim_start_matches("mixed_precision:").trim().trim_matches('"').to_string()
    };
    for p in ["bf16-true", "fp16-true"] {
        let qs = format!("method=full&precision={p}&gpus=4&shard=fsdp");
        assert_eq!(mixed(Framework::Hf, &qs), "no", "hf ?{qs}");
        assert_eq!(mixed(Framework::LlamaFactory, &qs), "no", "llama-factory ?{qs}");
        let py = get(&ex(Framework::Hf, &qs), "train.py").content.clone();
        assert!(py.contains("bf16=False") && py.contains("fp16=False"), "?{qs}:\n{py}");
    }
    let qs = "method=full&precision=bf16-true&gpus=4&shard=fsdp";
    let lf = get(&ex(Framework::LlamaFactory, qs), "llamafactory.yaml").content.clone();
    assert!(lf.contains("pure_bf16: true") && lf.contains("bf16: false"), "{lf}");
    // Mixed precision keeps its AMP flag and accelerate's bf16 under FSDP.
    let qs = "method=full&precision=bf16-mixed&gpus=4&shard=fsdp";
    assert_eq!(mixed(Framework::Hf, qs), "bf16");
    assert_eq!(mixed(Framework::LlamaFactory, qs), "bf16");
    assert!(get(&ex(Framework::Hf, qs), "train.py").content.contains("bf16=True"));
    // autocast=0: the 16-bit model runs without the Trainer's flag, and says why.
    let qs = "method=lora&precision=bf16-true&autocast=0";
    let py = get(&ex(Framework::Hf, qs), "train.py").content.clone();
    assert!(py.contains("bf16=False") && py.contains("# bf16/fp16=False (autocast=0)"), "?{qs}:\n{py}");
    // fp16: the T4 recipe (fp32 adapters over a frozen fp16 base) runs the scaler; a trained
    // fp16 base cannot; DeepSpeed's "auto" fp16 reads the flag.
    let fp16 = |qs: &str| get(&ex(Framework::Hf, qs), "train.py").content.contains("fp16=True");
    assert!(fp16("method=lora&precision=fp16-true"));
    assert!(!fp16("method=full&precision=fp16-true"));
    assert!(!fp16("method=lora&precision=fp16-true&autocast=0"));
    assert!(fp16("method=full&precision=fp16-true&gpus=2&shard=zero2"));
    // An image classifier's head and SAM's mask decoder train in fp16: no scaler.
    assert!(!fp16("model=vit-l&method=lora&precision=fp16-true"));
    assert!(!fp16("method=full&precision=fp16-true&autocast=1"));
    // The note on a run without a loss scaler fires only where none runs.
    let noted = |qs: &str| ex(Framework::Hf, qs).warnings.iter().any(|n| n.code == "export-fp16-true");
    assert!(noted("method=full&precision=fp16-true") && !noted("method=lora&precision=fp16-true"));
    // Without FSDP nothing is upcast: a bf16-true run keeps the Trainer's bf16 flag.
    for qs in ["method=full&precision=bf16-true", "method=full&precision=bf16-true&gpus=2&shard=zero2"] {
        assert!(get(&ex(Framework::Hf, qs), "train.py").content.contains("bf16=True"), "?{qs}");
        let lf = get(&ex(Framework::LlamaFactory, qs), "llamafactory.yaml").content.clone();
        assert!(lf.contains("bf16: true"), "?{qs}:\n{lf}");
    }
}

#[test]
fn torchtune_carries_values() {
    let e = ex(Framework::Torchtune, Z3);
    let text = &get(&e, "torchtune_overrides.yaml").content;
    assert!(
        text.contains("lora_rank: 48") && text.contains("batch_size: 3") && text.contains("max_seq_len: 3072"),
        "{text}"
    );
    if let Some(y) = yaml_value(text) {
        assert_eq!(y["model"]["_component_"], "torchtune.models.llama3_1.lora_llama3_1_8b");
        assert_eq!(y["model"]["lora_rank"], 48);
        assert_eq!(y["model"]["lora_alpha"], 96);
        assert_eq!(y["model"]["lora_attn_modules"], serde_json::json!(["q_proj", "v_proj"]));
        assert_eq!(y["model"]["apply_lora_to_mlp"], false);
        assert_eq!(y["batch_size"], 3);
        assert_eq!(y["gradient_accumulation_steps"], 5);
        assert_eq!(y["tokenizer"]["max_seq_len"], 3072);
        assert_eq!(y["dtype"], "bf16");
        assert_eq!(y["enable_activation_checkpointing"], true);
        assert_eq!(y["fsdp_cpu_offload"], true);
    }
    let sh = &get(&e, "launch.sh").content;
    assert!(
        sh.contains("--nproc_per_node 4")
            && sh.contains("lora_finetune_distributed")
            && sh.contains("--config llama3_1/8B_lora"),
        "{sh}"
    );
    assert!(sh.contains("model.lora_rank=48") && sh.contains("fsdp_cpu_offload=True"), "{sh}");

    // Single-device QLoRA: the qlora config, quantize_base, profile defaults (chunked loss, AC on).
    let e = ex(Framework::Torchtune, "");
    let text = &get(&e, "torchtune_overrides.yaml").content;
    if let Some(y) = yaml_value(text) {
        assert_eq!(y["model"]["quantize_base"], true);
        assert_eq!(y["loss"]["_component_"], "torchtune.modules.loss.CEWithChunkedOutputLoss");
        assert_eq!(y["enable_activation_checkpointing"], true);
        assert!(y.get("fsdp_cpu_offload").is_none());
    }
    assert!(get(&e, "launch.sh")
        .content
        .contains("lora_finetune_single_device --config llama3_1/8B_qlora_single_device"));
    // An explicit key beats the profile.
    let text = get(&ex(Framework::Torchtune, "ckpt=none&loss=standard"), "torchtune_overrides.yaml").content.clone();
    assert!(
        text.contains("enable_activation_checkpointing: false") && text.contains("torch.nn.CrossEntropyLoss"),
        "{text}"
    );
}

#[test]
fn litgpt_carries_values() {
    let e = ex(Framework::Litgpt, Z3);
    let sh = &get(&e, "finetune.sh").content;
    for needle in [
        "litgpt finetune_lora meta-llama/Meta-Llama-3.1-8B",
        "--lora_r 48",
        "--lora_alpha 96",
        "--lora_query true",
        "--lora_key false",
        "--lora_value true",
        "--lora_mlp false",
        "--train.micro_batch_size 3",
        "--train.global_batch_size 60",
        "--train.max_seq_length 3072",
        "--precision bf16-true",
        "--devices 4",
    ] {
        assert!(sh.contains(needle), "finetune.sh lacks {needle}:\n{sh}");
    }
    assert!(has_warning(&e, "offload=all"), "{:?}", e.warnings);
    let e = ex(Framework::Litgpt, "");
    let sh = &get(&e, "finetune.sh").content;
    assert!(sh.contains("--quantize bnb.nf4-dq") && sh.contains("--precision bf16-true"), "{sh}");
    assert!(has_warning(&e, "mixed precision"), "{:?}", e.warnings);
    assert!(get(&ex(Framework::Litgpt, "quant=fp4&dq=0"), "finetune.sh").content.contains("--quantize bnb.fp4 "));
    assert!(get(&ex(Framework::Litgpt, "method=full"), "finetune.sh").content.contains("litgpt finetune_full "));
}

#[test]
fn axolotl_carries_values() {
    let e = ex(Framework::Axolotl, Z3);
    let text = &get(&e, "axolotl.yaml").content;
    assert!(
        text.contains("lora_r: 48") && text.contains("micro_batch_size: 3") && text.contains("sequence_len: 3072"),
        "{text}"
    );
    if let Some(y) = yaml_value(text) {
        assert_eq!(y["adapter"], "lora");
        assert_eq!(y["lora_r"], 48);
        assert_eq!(y["lora_target_modules"], serde_json::json!(["q_proj", "v_proj"]));
        assert_eq!(y["micro_batch_size"], 3);
        assert_eq!(y["gradient_accumulation_steps"], 5);
        assert_eq!(y["sequence_len"], 3072);
        assert_eq!(y["bf16"], true);
        assert_eq!(y["gradient_checkpointing"], true);
        assert_eq!(y["deepspeed"], "ds_config.json");
    }
    check_ds_zero3_offload(&e);
    // QLoRA: 4-bit load with its bnb settings; the profile's packing and flash attention.
    let text = get(&ex(Framework::Axolotl, "quant=fp4"), "axolotl.yaml").content.clone();
    if let Some(y) = yaml_value(&text) {
        assert_eq!(y["adapter"], "qlora");
        assert_eq!(y["load_in_4bit"], true);
        assert_eq!(y["bnb_config_kwargs"]["bnb_4bit_quant_type"], "fp4");
        assert_eq!(y["sample_packing"], true);
        assert_eq!(y["attn_implementation"], "flash_attention_2");
    }
    let text = get(&ex(Framework::Axolotl, "packing=0&ckpt=none"), "axolotl.yaml").content.clone();
    assert!(text.contains("sample_packing: false") && text.contains("gradient_checkpointing: false"), "{text}");
}

#[test]
fn llama_factory_carries_values() {
    let e = ex(Framework::LlamaFactory, Z3);
    let text = &get(&e, "llamafactory.yaml").content;
    assert!(text.contains("lora_rank: 48") && text.contains("cutoff_len: 3072"), "{text}");
    if let Some(y) = yaml_value(text) {
        assert_eq!(y["finetuning_type"], "lora");
        assert_eq!(y["lora_target"], "q_proj,v_proj");
        assert_eq!(y["per_device_train_batch_size"], 3);
        assert_eq!(y["gradient_accumulation_steps"], 5);
        // LLaMA-Factory's parser raises "`pure_bf16` is incompatible with DeepSpeed ZeRO-3"
        // (hparams/parser.py): under ZeRO-3 the export leaves it off and says so.
        assert_eq!(y["pure_bf16"], false);
        assert_eq!(y["disable_gradient_checkpointing"], false);
        assert_eq!(y["deepspeed"], "ds_config.json");
    }
    check_ds_zero3_offload(&e);
    assert!(get(&e, "launch.sh").content.contains("NPROC_PER_NODE=4"));
    let text = get(&ex(Framework::LlamaFactory, "quant=int8"), "llamafactory.yaml").content.clone();
    assert!(text.contains("quantization_bit: 8") && !text.contains("quantization_type"), "{text}");
    let text =
        get(&ex(Framework::LlamaFactory, "model=llama-3.2-1b&method=freeze&train_layers=3"), "llamafactory.yaml")
            .content
            .clone();
    assert!(text.contains("finetuning_type: \"freeze\"") && text.contains("freeze_trainable_layers: 3"), "{text}");
}

#[test]
fn unsloth_carries_values() {
    let e = ex(Framework::Unsloth, "method=qlora&rank=48&targets=q,v&batch=3&seq=3072&ga=5");
    let py = &get(&e, "train_unsloth.py").content;
    for needle in [
        "load_in_4bit=True",
        "r=48,",
        "lora_alpha=96,",
        "target_modules=[\"q_proj\", \"v_proj\"]",
        "per_device_train_batch_size=3,",
        "gradient_accumulation_steps=5,",
        "MAX_SEQ_LENGTH = 3072",
        "use_gradient_checkpointing=\"unsloth\"",
        "bf16=True,",
    ] {
        assert!(py.contains(needle), "train_unsloth.py lacks {needle}:\n{py}");
    }
    assert!(get(&ex(Framework::Unsloth, "ckpt=none"), "train_unsloth.py")
        .content
        .contains("use_gradient_checkpointing=False"));
    let e = ex(Framework::Unsloth, Z3);
    assert!(has_warning(&e, "framework-multi-gpu") && has_warning(&e, "offload=all"), "{:?}", e.warnings);
}

#[test]
fn family_module_names() {
    let py = get(&ex(Framework::Hf, "model=gpt2&method=lora&targets=all&seq=1024"), "train.py").content.clone();
    assert!(
        py.contains("\"c_attn\", \"attn.c_proj\", \"mlp.c_fc\", \"mlp.c_proj\"") && py.contains("fan_in_fan_out=True"),
        "{py}"
    );
    let py = get(&ex(Framework::Hf, "model=bert-base-uncased&method=lora&targets=q,k,v&seq=512"), "train.py")
        .content
        .clone();
    assert!(py.contains("[\"query\", \"key\", \"value\"]"), "{py}");
    let e = ex(Framework::Hf, "model=phi-3-mini&method=lora&targets=q,o,gate,up,down");
    let py = &get(&e, "train.py").content;
    assert!(py.contains("[\"qkv_proj\", \"o_proj\", \"gate_up_proj\", \"down_proj\"]"), "{py}");
    assert!(has_warning(&e, "qkv_proj"), "fused q-only target must warn: {:?}", e.warnings);
    let py = get(&ex(Framework::Hf, "model=mixtral-8x7b&method=lora&targets=gate,up,down"), "train.py").content.clone();
    assert!(py.contains("[\"w1\", \"w3\", \"w2\"]"), "{py}");
    let text = get(&ex(Framework::Axolotl, "method=lora&targets=all,embed,lm_head"), "axolotl.yaml").content.clone();
    assert!(text.contains("lora_modules_to_save: [\"embed_tokens\", \"lm_head\"]"), "{text}");
}

#[test]
fn model_ids_and_placeholder() {
    let py = get(&ex(Framework::Hf, "model=qwen2.5-7b"), "train.py").content.clone();
    assert!(py.contains("MODEL_ID = \"Qwen/Qwen2.5-7B\""), "{py}");
    for fw in Framework::ALL {
        let e = ex(*fw, "params=13b&method=lora");
        assert!(e.files.iter().any(|f| f.content.contains(PLACEHOLDER)), "{fw}: no placeholder");
        assert!(has_warning(&e, "export-model-placeholder"), "{fw}: {:?}", e.warnings);
    }
    assert!(!has_warning(&ex(Framework::Hf, ""), "export-model-placeholder"));
}

#[test]
fn unsupported_settings_are_named_warnings() {
    for fw in [Framework::Torchtune, Framework::Litgpt, Framework::Unsloth] {
        let e = ex(fw, "method=prefix");
        assert!(has_warning(&e, "prefix"), "{fw}: {:?}", e.warnings);
        assert!(has_warning(&e, "export-method"), "{fw}: the export must say what it runs instead: {:?}", e.warnings);
    }
    assert!(get(&ex(Framework::Litgpt, "method=prefix&rank=12"), "finetune.sh").content.contains("--lora_r 12"));
    assert!(get(&ex(Framework::Unsloth, "method=prompt&rank=12"), "train_unsloth.py").content.contains("r=12,"));
    for fw in [Framework::Litgpt, Framework::Unsloth] {
        let e = ex(fw, "method=dora");
        assert!(has_warning(&e, "dora"), "{fw}: {:?}", e.warnings);
    }
    assert!(!has_warning(&ex(Framework::Torchtune, "method=dora"), "dora"), "torchtune has use_dora");
    assert!(get(&ex(Framework::Torchtune, "method=dora"), "torchtune_overrides.yaml")
        .content
        .contains("use_dora: true"));
    let e = ex(Framework::Hf, "method=qlora&gpus=4&shard=zero3&offload=all");
    assert!(has_warning(&e, "qlora-zero3-offload"), "{:?}", e.warnings);
    check_ds_zero3_offload(&e);
    assert!(has_warning(&ex(Framework::Torchtune, "precision=fp16-mixed"), "precision=fp16-mixed"));
    assert!(has_warning(&ex(Framework::Hf, "method=lora&ckpt=selective"), "ckpt=selective"));
    assert!(has_warning(&ex(Framework::Hf, "method=lora&offload=optimizer"), "offload=optimizer"));
    // A plain supported configuration exports without warnings.
    let e = ex(Framework::Hf, "method=lora");
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
}

#[test]
fn bad_configuration_is_an_error_naming_the_key() {
    let q = Query::parse("model=gpt2&method=lora&rank=4000").unwrap();
    let err = export(&q, Framework::Hf).unwrap_err().to_string();
    assert!(err.starts_with("rank:"), "{err}");
    let q = Query::parse("model=gpt2&seq=5000").unwrap();
    assert!(export(&q, Framework::Torchtune).unwrap_err().to_string().starts_with("seq:"));
}

#[test]
fn export_serialises_with_stable_names() {
    let v = serde_json::to_value(ex(Framework::Axolotl, "")).unwrap();
    assert_eq!(v["framework"], "axolotl");
    assert_eq!(v["files"][0]["name"], "axolotl.yaml");
    assert_eq!(v["files"][0]["language"], "yaml");
    assert!(v["warnings"].is_array());
}

/// The torchtune config named in `tune run --config` is one torchtune ships
/// (recipes/configs/<folder>/ at the commits docs/frameworks.md names): QLoRA is mostly
/// single-device only, full single-device configs of some families are `full_low_memory`,
/// and the larger Qwen2.5 sizes ship LoRA only.
#[test]
fn torchtune_names_a_shipped_config() {
    let config = |qs: &str| -> (String, ConfigExport) {
        let e = ex(Framework::Torchtune, qs);
        let sh = get(&e, "launch.sh").content.clone();
        let name = sh
            .split("--config ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("{sh}"))
            .to_string();
        (name, e)
    };
    // Exact matches: no substitution warning.
    for (qs, want) in [
        ("", "llama3_1/8B_qlora_single_device"),
        ("method=lora&gpus=4", "llama3_1/8B_lora"),
        ("model=mistral-7b&method=full", "mistral/7B_full_low_memory"),
        ("model=llama-3.2-1b&method=full", "llama3_2/1B_full_single_device"),
        ("model=phi-3-mini&method=qlora", "phi3/mini_qlora_single_device"),
        ("model=llama-3.3-70b&method=qlora&gpus=8", "llama3_3/70B_qlora"),
    ] {
        let (name, e) = config(qs);
        assert_eq!(name, want, "?{qs}");
        assert!(!has_warning(&e, "export-torchtune-config"), "?{qs}: {:?}", e.warnings);
    }
    // No such config: the nearest shipped one, with a warning naming both.
    for (qs, want, bad) in [
        // Was gemma/2B_qlora (does not exist): the distributed LoRA config with quantize_base.
        ("model=gemma-2b&method=qlora&gpus=2", "gemma/2B_lora", "gemma/2B_qlora"),
        // Was qwen2_5/72B_lora_single_device.
        ("model=qwen2.5-72b&method=lora", "qwen2_5/72B_lora", "qwen2_5/72B_lora_single_device"),
        // Was code_llama2/7B_full: codellama ships only a single-device full config.
        ("model=codellama-7b&method=full&gpus=2", "code_llama2/7B_full_low_memory", "code_llama2/7B_full "),
    ] {
        let (name, e) = config(qs);
        assert_eq!(name, want, "?{qs}");
        assert!(has_warning(&e, "export-torchtune-config") && has_warning(&e, bad.trim()), "?{qs}: {:?}", e.warnings);
    }
    let (name, e) = config("model=gemma-2b&method=qlora&gpus=2");
    assert_eq!(name, "gemma/2B_lora");
    assert!(get(&e, "torchtune_overrides.yaml").content.contains("quantize_base: true"));
    // No config of the kind at all for this model: the Llama 3.1 8B one, and a warning.
    let (name, e) = config("model=qwen2.5-72b&method=full&gpus=8&shard=fsdp");
    assert_eq!(name, "llama3_1/8B_full");
    assert!(has_warning(&e, "checkpointer"), "{:?}", e.warnings);
}

/// Keys as each framework's source spells them (docs/frameworks.md, "Export keys checked
/// against the framework's source"): another spelling fails here.
#[test]
fn keys_checked_against_framework_source() {
    // LLaMA-Factory renamed QuantizationMethod "bitsandbytes" to "bnb"; the default works in both.
    let text = get(&ex(Framework::LlamaFactory, ""), "llamafactory.yaml").content.clone();
    if let Some(y) = yaml_value(&text) {
        assert_eq!(y["quantization_bit"], 4);
        assert!(y.get("quantization_method").is_none(), "{text}");
    }
    assert!(!text.contains("quantization_method: \"bitsandbytes\""), "{text}");

    // Axolotl: learning_rate is required; FSDP via fsdp_version + unprefixed fsdp_config keys.
    let text =
        get(&ex(Framework::Axolotl, "method=full&gpus=8&shard=fsdp&offload=all"), "axolotl.yaml").content.clone();
    if let Some(y) = yaml_value(&text) {
        assert!(y["learning_rate"].as_f64().is_some_and(|lr| lr > 0.0), "{text}");
        assert_eq!(y["fsdp_version"], 2);
        assert!(y.get("fsdp").is_none(), "the fsdp list is deprecated: {text}");
        let cfg = y["fsdp_config"].as_object().unwrap_or_else(|| panic!("{text}"));
        assert!(cfg.keys().all(|k| !k.starts_with("fsdp_")), "prefixed fsdp_config keys: {text}");
        assert_eq!(cfg["offload_params"], true);
        assert_eq!(cfg["transformer_layer_cls_to_wrap"], "LlamaDecoderLayer");
    }
    assert!(get(&ex(Framework::Axolotl, ""), "axolotl.yaml").content.contains("learning_rate: "));

    // Unsloth: SFTTrainer takes processing_class; from_pretrained gets the checkpointing choice
    // (its default "unsloth" would otherwise apply to a full fine-tune).
    let py = get(&ex(Framework::Unsloth, ""), "train_unsloth.py").content.clone();
    assert!(py.contains("processing_class=tokenizer") && !py.contains("    tokenizer=tokenizer"), "{py}");
    let py = get(&ex(Framework::Unsloth, "method=full&ckpt=none"), "train_unsloth.py").content.clone();
    let load = py
        .split("FastLanguageModel.from_pretrained(")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap_or_else(|| panic!("{py}"));
    assert!(load.contains("full_finetuning=True") && load.contains("use_gradient_checkpointing=False"), "{py}");
    assert!(!py.contains("gradient_checkpointing_enable"), "{py}");

    // litgpt: a string optimizer names the class only; arguments go through class_path/init_args,
    // as JSON (the dotted form parses to strings without `init_args`).
    let e = ex(Framework::Litgpt, "method=lora&optim=sgd-momentum");
    let sh = &get(&e, "finetune.sh").content;
    assert!(sh.contains(r#"--optimizer '{"class_path": "torch.optim.SGD", "init_args": {"momentum": 0.9}}'"#), "{sh}");
    assert!(!sh.contains("--optimizer.momentum"), "{sh}");
    // With --quantize litgpt builds bitsandbytes PagedAdamW and rejects other names.
    let e = ex(Framework::Litgpt, "method=qlora&optim=adamw-8bit");
    let sh = &get(&e, "finetune.sh").content;
    assert!(sh.contains("--optimizer AdamW") && !sh.contains("bitsandbytes.optim.AdamW8bit"), "{sh}");
    assert!(has_warning(&e, "export-optimizer"), "{:?}", e.warnings);
    assert!(!has_warning(&ex(Framework::Litgpt, "method=qlora&optim=paged-adamw"), "export-optimizer"));
}

/// Keyword names of the first `call(` in a Python snippet, at the call's own nesting level
/// (comments stripped). Panics when the call is absent.
fn py_kwargs(py: &str, call: &str) -> Vec<String> {
    let start = py.find(&format!("{call}(")).unwrap_or_else(|| panic!("no {call}( in:\n{py}")) + call.len() + 1;
    let body: String = py[start..].lines().map(|l| l.split(" #").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let (mut depth, mut parts, mut cur) = (0i32, Vec::new(), String::new());
    for c in body.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    parts.push(cur);
    parts
        .iter()
        .filter_map(|p| p.split_once('=').map(|(k, _)| k.trim().to_string()))
        .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect()
}

fn assert_known(what: &str, keys: &[String], known: &[&str]) {
    assert!(!keys.is_empty(), "{what}: no keys found (the snippet's shape changed?)");
    let unknown: Vec<&String> = keys.iter().filter(|k| !known.contains(&k.as_str())).collect();
    assert!(unknown.is_empty(), "{what}: {unknown:?} not among the names read in the framework's source {known:?}");
}

// Every key the exporters write is one the framework's own source defines (docs/frameworks.md,
// "Export keys checked against the framework's source"): the name lists are what was read
// there (file and commit in the doc), and a key outside them fails.

/// DeepSpeed config keys and "auto" values.
#[test]
fn deepspeed_keys_are_deepspeeds_own() {
    // DeepSpeed: DeepSpeedZeroConfig fields/aliases (runtime/zero/config.py), offload configs
    // (runtime/zero/offload_config.py), top-level keys (runtime/constants.py); "auto" only
    // where transformers' HfTrainerDeepSpeedConfig fills it in (integrations/deepspeed.py).
    const ZERO: &[&str] =
        &["stage", "offload_optimizer", "offload_param", "overlap_comm", "stage3_gather_16bit_weights_on_model_save"];
    const OFFLOAD: &[&str] = &["device", "pin_memory"];
    const TOP: &[&str] = &[
        "zero_optimization",
        "bf16",
        "fp16",
        "train_micro_batch_size_per_gpu",
        "gradient_accumulation_steps",
        "train_batch_size",
        "gradient_clipping",
    ];
    const AUTO: &[&str] =
        &["train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "train_batch_size", "gradient_clipping"];
    for qs in
        [Z3, "method=lora&precision=fp16-mixed&gpus=2&shard=zero2&offload=optimizer", "method=full&gpus=8&shard=zero1"]
    {
        for fw in [Framework::Hf, Framework::Axolotl, Framework::LlamaFactory] {
            let e = ex(fw, qs);
            let ds: Value = serde_json::from_str(&get(&e, "ds_config.json").content).unwrap();
            let top: Vec<String> = ds.as_object().unwrap().keys().cloned().collect();
            assert_known("DeepSpeed top-level", &top, TOP);
            let zero = ds["zero_optimization"].as_object().unwrap();
            assert_known("zero_optimization", &zero.keys().cloned().collect::<Vec<_>>(), ZERO);
            assert!(matches!(zero["stage"].as_u64(), Some(1..=3)), "{ds}");
            for off in ["offload_optimizer", "offload_param"] {
                if let Some(o) = zero.get(off) {
                    assert_known(off, &o.as_object().unwrap().keys().cloned().collect::<Vec<_>>(), OFFLOAD);
                    assert!(matches!(o["device"].as_str(), Some("cpu" | "nvme" | "none")), "{ds}");
                }
            }
            for k in AUTO {
                assert_eq!(ds[k], "auto", "{fw} ?{qs}: {k}");
            }
            for k in ["bf16", "fp16"] {
                assert_eq!(ds[k]["enabled"], "auto", "{fw} ?{qs}: {k}.enabled");
            }
        }
    }
}

/// accelerate config keys, FSDP1 values and `accelerate launch` options.
#[test]
fn accelerate_keys_and_launch_flags_are_accelerates_own() {
    // accelerate: ClusterConfig/BaseConfig fields (commands/config/config_args.py), FSDP1 keys
    // (commands/to_fsdp2.py ARGUMENT_KEY_MAPPING), values (utils/constants.py FSDP_* lists),
    // and `accelerate launch` options (commands/launch.py).
    const CLUSTER: &[&str] = &[
        "compute_environment",
        "distributed_type",
        "mixed_precision",
        "num_machines",
        "num_processes",
        "machine_rank",
        "fsdp_config",
    ];
    const FSDP1: &[&str] = &[
        "fsdp_sharding_strategy",
        "fsdp_offload_params",
        "fsdp_auto_wrap_policy",
        "fsdp_transformer_layer_cls_to_wrap",
        "fsdp_backward_prefetch",
        "fsdp_state_dict_type",
        "fsdp_use_orig_params",
        "fsdp_cpu_ram_efficient_loading",
        "fsdp_sync_module_states",
        "fsdp_activation_checkpointing",
    ];
    const LAUNCH: &[&str] =
        &["--config_file", "--num_processes", "--num_machines", "--machine_rank", "--main_process_ip", "-m"];
    for fw in [Framework::Hf, Framework::LlamaFactory] {
        let e = ex(fw, "method=full&gpus=8&nodes=2&shard=fsdp&offload=all");
        if let Some(acc) = yaml_value(&get(&e, "accelerate_fsdp.yaml").content) {
            assert_known("accelerate config", &acc.as_object().unwrap().keys().cloned().collect::<Vec<_>>(), CLUSTER);
            let f = acc["fsdp_config"].as_object().unwrap();
            assert_known("fsdp_config", &f.keys().cloned().collect::<Vec<_>>(), FSDP1);
            assert!(f.get("fsdp_version").is_none(), "FSDP1 key names need fsdp_version 1 (the default)");
            assert!(["FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD", "HYBRID_SHARD_ZERO2"]
                .contains(&f["fsdp_sharding_strategy"].as_str().unwrap()));
            assert!(["TRANSFORMER_BASED_WRAP", "SIZE_BASED_WRAP", "NO_WRAP"]
                .contains(&f["fsdp_auto_wrap_policy"].as_str().unwrap()));
            assert!(["BACKWARD_PRE", "BACKWARD_POST", "NO_PREFETCH"]
                .contains(&f["fsdp_backward_prefetch"].as_str().unwrap()));
            assert!(["FULL_STATE_DICT", "LOCAL_STATE_DICT", "SHARDED_STATE_DICT"]
                .contains(&f["fsdp_state_dict_type"].as_str().unwrap()));
            assert!(["no", "fp16", "bf16", "fp8"].contains(&acc["mixed_precision"].as_str().unwrap()));
        }
    }
    for (fw, qs) in [
        (Framework::Hf, "method=full&gpus=8&nodes=2&shard=fsdp"),
        (Framework::Hf, "method=lora&gpus=8&nodes=2&shard=zero3"),
        (Framework::Hf, "method=lora&gpus=2"),
        (Framework::LlamaFactory, "method=full&gpus=8&shard=fsdp"),
    ] {
        let sh = get(&ex(fw, qs), "launch.sh").content.clone();
        let line =
            sh.lines().find(|l| l.starts_with("accelerate launch")).unwrap_or_else(|| panic!("{fw} ?{qs}:\n{sh}"));
        let flags: Vec<String> = line.split_whitespace().filter(|w| w.starts_with('-')).map(String::from).collect();
        assert_known("accelerate launch", &flags, LAUNCH);
    }
}

/// LoraConfig, get_peft_model, BitsAndBytesConfig and TrainingArguments keywords.
#[test]
fn transformers_and_peft_keywords_are_their_own() {
    // Transformers + PEFT: LoraConfig fields (peft tuners/lora/config.py), get_peft_model's
    // parameters (peft mapping_func.py), BitsAndBytesConfig.__init__ (transformers
    // utils/quantization_config.py), TrainingArguments fields (transformers training_args.py).
    const LORA: &[&str] = &[
        "r",
        "lora_alpha",
        "lora_dropout",
        "target_modules",
        "bias",
        "task_type",
        "modules_to_save",
        "use_dora",
        "fan_in_fan_out",
    ];
    const BNB: &[&str] = &[
        "load_in_8bit",
        "load_in_4bit",
        "bnb_4bit_quant_type",
        "bnb_4bit_use_double_quant",
        "bnb_4bit_compute_dtype",
        "bnb_4bit_quant_storage",
    ];
    const TA: &[&str] = &[
        "output_dir",
        "per_device_train_batch_size",
        "gradient_accumulation_steps",
        "num_train_epochs",
        "bf16",
        "fp16",
        "gradient_checkpointing",
        "gradient_checkpointing_kwargs",
        "optim",
        "optim_args",
        "torch_compile",
        "use_liger_kernel",
        "deepspeed",
        "logging_steps",
        "save_strategy",
        "report_to",
    ];
    for qs in [
        "",
        Z3,
        "method=dora&targets=all,embed,lm_head&compile=1&packing=1",
        "model=gpt2&method=lora&seq=1024",
        "quant=int8&optim=sgd-momentum",
    ] {
        let py = get(&ex(Framework::Hf, qs), "train.py").content.clone();
        let lora = py_kwargs(&py, "LoraConfig");
        assert!(lora.iter().any(|k| k == "r") && lora.iter().any(|k| k == "target_modules"), "{lora:?}");
        assert_known("LoraConfig", &lora, LORA);
        assert_known("get_peft_model", &py_kwargs(&py, "get_peft_model"), &["autocast_adapter_dtype"]);
        assert_known("TrainingArguments", &py_kwargs(&py, "TrainingArguments"), TA);
        if py.contains("BitsAndBytesConfig(") {
            assert_known("BitsAndBytesConfig", &py_kwargs(&py, "BitsAndBytesConfig"), BNB);
        }
    }
    // bnb_4bit_quant_storage takes a torch dtype (or one of its names) and defaults to uint8;
    // the export stores the packed weights in the load dtype, so FSDP flattens one dtype.
    let py = get(&ex(Framework::Hf, "gpus=4&shard=fsdp&precision=bf16-true"), "train.py").content.clone();
    assert!(py.contains("bnb_4bit_quant_storage=torch.bfloat16") && py.contains("dtype=torch.bfloat16,"), "{py}");
    let py = get(&ex(Framework::Hf, "gpus=4&shard=fsdp&precision=bf16-mixed"), "train.py").content.clone();
    assert!(py.contains("bnb_4bit_quant_storage=torch.float32") && py.contains("dtype=torch.float32,"), "{py}");
    let py = get(&ex(Framework::Hf, "method=lora&packing=1"), "train.py").content.clone();
    assert!(py.contains("data_collator = DataCollatorWithFlattening()"), "{py}");
    assert!(
        py.lines().any(|l| l.starts_with("from transformers import") && l.contains("DataCollatorWithFlattening")),
        "{py}"
    );
}

/// torchtune model builders and the keys the shipped configs use.
#[test]
fn torchtune_builders_are_torchtunes_own() {
    // torchtune: model builders exported by torchtune/models/<family>/__init__.py (the
    // distributed and single-device recipes read the same names); dataset.packed,
    // tokenizer.max_seq_len and compile as in the shipped configs.
    const BUILDERS: &[&str] = &[
        "llama2_7b",
        "llama2_13b",
        "llama2_70b",
        "code_llama2_7b",
        "llama3_8b",
        "llama3_70b",
        "llama3_1_8b",
        "llama3_1_70b",
        "llama3_1_405b",
        "llama3_3_70b",
        "llama3_2_1b",
        "llama3_2_3b",
        "mistral_7b",
        "qwen2_7b",
        "qwen2_5_0_5b",
        "qwen2_5_1_5b_base",
        "qwen2_5_3b",
        "qwen2_5_7b_base",
        "qwen2_5_14b_base",
        "qwen2_5_32b_base",
        "qwen2_5_72b_base",
        "gemma_2b",
        "gemma_7b",
        "gemma2_2b",
        "gemma2_9b",
        "gemma2_27b",
        "phi3_mini",
    ];
    for model in [
        "llama-2-13b",
        "codellama-7b",
        "llama-3-70b",
        "llama-3.1-405b",
        "llama-3.3-70b",
        "llama-3.2-3b",
        "mistral-7b",
        "qwen2-7b",
        "gemma-7b",
        "gemma-2-27b",
        "phi-3-mini",
    ] {
        for method in ["lora", "full"] {
            let qs = format!("model={model}&method={method}&gpus=8");
            let text = get(&ex(Framework::Torchtune, &qs), "torchtune_overrides.yaml").content.clone();
            if let Some(y) = yaml_value(&text) {
                let comp = y["model"]["_component_"].as_str().unwrap_or_else(|| panic!("{text}"));
                let (module, name) = comp
                    .strip_prefix("torchtune.models.")
                    .and_then(|r| r.split_once('.'))
                    .unwrap_or_else(|| panic!("{comp}"));
                let builder = if method == "lora" {
                    name.strip_prefix("lora_").unwrap_or_else(|| panic!("{comp}"))
                } else {
                    name
                };
                assert!(BUILDERS.contains(&builder) && builder.starts_with(module), "?{qs}: {comp}");
                assert!(
                    y["dataset"]["packed"].is_boolean()
                        && y["tokenizer"]["max_seq_len"].is_u64()
                        && y["compile"].is_boolean(),
                    "{text}"
                );
            }
        }
    }
}

/// litgpt finetune_full and finetune_adapter flags.
#[test]
fn litgpt_flags_are_setup_parameters() {
    // litgpt: finetune_full's and finetune_adapter's setup() parameters (litgpt/finetune/full.py,
    // adapter.py): no --quantize or --lora_* flags there.
    for (qs, cmd) in [
        ("method=full&gpus=4&nodes=2", "finetune_full"),
        ("method=adapter&gpus=2", "finetune_adapter"),
        ("method=freeze", "finetune_full"),
    ] {
        let sh = get(&ex(Framework::Litgpt, qs), "finetune.sh").content.clone();
        assert!(sh.contains(&format!("litgpt {cmd} ")), "{sh}");
        for flag in sh.split_whitespace().filter(|w| w.starts_with("--")) {
            let ok = ["--devices", "--num_nodes", "--precision", "--optimizer"].contains(&flag)
                || flag.starts_with("--train.")
                || flag.starts_with("--optimizer.");
            assert!(ok, "{cmd}: {flag} is not a setup() parameter:\n{sh}");
        }
    }
}

/// Unsloth get_peft_model keywords.
#[test]
fn unsloth_get_peft_model_keywords_are_its_own() {
    // Unsloth: FastLlamaModel.get_peft_model's parameters (unsloth/models/llama.py).
    for qs in ["", "method=lora&targets=all,embed,lm_head", "method=dora&ckpt=none"] {
        let py = get(&ex(Framework::Unsloth, qs), "train_unsloth.py").content.clone();
        assert_known(
            "FastLanguageModel.get_peft_model",
            &py_kwargs(&py, "FastLanguageModel.get_peft_model"),
            &[
                "r",
                "target_modules",
                "lora_alpha",
                "lora_dropout",
                "bias",
                "use_gradient_checkpointing",
                "random_state",
            ],
        );
    }
}

/// LLaMA-Factory data keys; Axolotl base_model and output_dir.
#[test]
fn llama_factory_and_axolotl_data_and_output_keys() {
    // LLaMA-Factory DataArguments (hparams/data_args.py); Axolotl ModelInputConfig.base_model
    // and ModelOutputConfig.output_dir (utils/schemas/model.py).
    if let Some(y) = yaml_value(&get(&ex(Framework::LlamaFactory, "seq=3072&packing=1"), "llamafactory.yaml").content) {
        assert_eq!(y["cutoff_len"], 3072);
        assert_eq!(y["packing"], true);
        assert!(y["template"].is_string() && y["dataset"].is_string(), "{y}");
    }
    if let Some(y) = yaml_value(&get(&ex(Framework::Axolotl, "model=qwen2.5-7b"), "axolotl.yaml").content) {
        assert_eq!(y["base_model"], "Qwen/Qwen2.5-7B");
        assert!(y["output_dir"].is_string(), "{y}");
    }
}

#[test]
fn exports_follow_each_frameworks_exceptions() {
    // LLaMA-Factory: pure_bf16 only without ZeRO-3, with a warning when it is dropped.
    let e = ex(Framework::LlamaFactory, Z3);
    assert!(e.warnings.iter().any(|w| w.code == "export-precision"));
    // torchtune Gemma: no apply_lora_to_output (the builders lack it), Gemma 1 no lora_dropout.
    let g = export(
        &Query::parse("model=gemma-2b&method=lora&targets=q,v,lm_head&lora_dropout=0.1").unwrap(),
        Framework::Torchtune,
    )
    .unwrap();
    let all: String = g.files.iter().map(|f| f.content.clone()).collect();
    // (The header comment repeats the query, lora_dropout=0.1 included: look for the keys.)
    assert!(
        !all.contains("apply_lora_to_output") && !all.contains("lora_dropout:") && !all.contains("model.lora_dropout"),
        "{all}"
    );
    assert!(g.warnings.iter().any(|w| w.code == "export-targets-lm-head"));
    assert!(g.warnings.iter().any(|w| w.code == "export-lora-dropout"));
    let l = export(&Query::parse("model=llama-3.1-8b&method=lora&targets=q,v,lm_head").unwrap(), Framework::Torchtune)
        .unwrap();
    assert!(l.files.iter().any(|f| f.content.contains("apply_lora_to_output: true")));
    // HF with loss=chunked: the Liger flag is a plain argument.
    let h = export(&Query::parse("method=lora&loss=chunked").unwrap(), Framework::Hf).unwrap();
    assert!(
        h.files.iter().any(|f| f.content.contains("    use_liger_kernel=True,\n")),
        "{:?}",
        h.files.iter().map(|f| &f.content).collect::<Vec<_>>()
    );
}

/// The lazily loaded exporter's wire format (export_json in the second wasm, read_export_json
/// in the page): what the page reads back equals `export` for the same query, warnings and
/// all, for every framework; errors arrive as the message, never as an empty export.
#[test]
fn export_json_round_trips_to_the_same_export() {
    use tunefit_core::export::{export_json, read_export_json};
    let queries = [
        "v=1&method=lora&gpus=2&shard=zero3",
        "v=1&model=llama-3.1-8b&method=qlora&tp=2&gpus=4&ckpt=selective",
        "v=1&model=custom&layers=4&hidden=512&heads=8&ffn=1024&vocab=1000",
    ];
    for qs in queries {
        for &fw in Framework::ALL {
            let direct = ex(fw, qs);
            let read = read_export_json(&export_json(qs, fw.as_str())).unwrap_or_else(|e| panic!("{fw} {qs}: {e}"));
            assert_eq!(read, direct, "{fw} {qs}");
        }
    }
    // At least one case above carries warnings, so their transport is exercised.
    assert!(queries.iter().any(|qs| !ex(Framework::Hf, qs).warnings.is_empty()));
    // An impossible configuration, a bad query, a bad framework: each is the message.
    let bad_query = read_export_json(&export_json("v=1&batch=banana", "hf")).unwrap_err();
    assert!(bad_query.contains("batch"), "{bad_query}");
    let bad_fw = read_export_json(&export_json("v=1", "keras")).unwrap_err();
    assert!(bad_fw.contains("keras") && bad_fw.contains("torchtune"), "{bad_fw}");
    let impossible = export(&Query::parse("v=1&tp=3").unwrap(), Framework::Hf).unwrap_err();
    assert_eq!(read_export_json(&export_json("v=1&tp=3", "hf")).unwrap_err(), impossible.to_string());
    // Not an answer at all: said, not a panic.
    assert!(read_export_json("{}").is_err());
    assert!(read_export_json("not json").unwrap_err().contains("config exporter"));
}

/// The `--output-dir` of launch.sh's `tune download` line, and its dotted overrides as a map.
fn torchtune_launch(e: &ConfigExport) -> (String, std::collections::BTreeMap<String, String>) {
    let sh = get(e, "launch.sh").content.clone();
    let dl = sh
        .lines()
        .find(|l| l.starts_with("# tune download "))
        .unwrap_or_else(|| panic!("no tune download line:\n{sh}"));
    let dir = dl
        .split("--output-dir ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{dl}"))
        .to_string();
    let overrides = sh
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| l.trim().trim_end_matches(" \\").trim_matches('\''))
        .filter_map(|l| l.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    (dir, overrides)
}

/// Export check of 2026-12-02 (docs/frameworks.md, "Export check against the frameworks"),
/// D1: the shipped torchtune configs read /tmp/<Instruct-name>/, launch.sh downloads the base
/// repo to /tmp/<name>. The overrides must point the checkpointer and tokenizer at the
/// download, with each family's tokenizer files (Llama 3: original/tokenizer.model; Qwen2.5:
/// vocab.json + merges.txt), and name the shards, model_type and tokenizer builder when the
/// config is another model's.
#[test]
fn export_check_d1_torchtune_reads_the_downloaded_checkpoint() {
    /// Tokenizer keys and their files below the download dir.
    type Tok = &'static [(&'static str, &'static str)];
    // (query, checkpoint_dir below the download dir, tokenizer overrides)
    let cases: &[(&str, &str, Tok)] = &[
        (
            "model=llama-3.1-8b&method=lora&rank=16&targets=all&batch=2&seq=512",
            "",
            &[("path", "/original/tokenizer.model")],
        ),
        ("model=llama-3.1-8b&method=qlora&rank=16&batch=2&seq=512", "", &[("path", "/original/tokenizer.model")]),
        (
            "model=llama-3.1-8b&method=full&batch=1&seq=512&gpus=2&shard=fsdp",
            "",
            &[("path", "/original/tokenizer.model")],
        ),
        ("model=llama-3.2-1b&method=lora", "", &[("path", "/original/tokenizer.model")]),
        // llama3/8B_* use FullModelMetaCheckpointer on original/consolidated.00.pth.
        ("model=llama-3-8b&method=lora", "/original", &[("path", "/original/tokenizer.model")]),
        ("model=qwen2.5-7b&method=lora", "", &[("path", "/vocab.json"), ("merges_file", "/merges.txt")]),
        ("model=mistral-7b&method=full", "", &[("path", "/tokenizer.model")]),
        ("model=gemma-2-9b&method=qlora", "", &[("path", "/tokenizer.model")]),
        ("model=phi-3-mini&method=lora&gpus=2", "", &[("path", "/tokenizer.model")]),
    ];
    for (qs, sub, tok) in cases {
        let e = ex(Framework::Torchtune, qs);
        let (dir, o) = torchtune_launch(&e);
        let name = dir.strip_prefix("/tmp/").unwrap_or_else(|| panic!("?{qs}: {dir}"));
        assert!(!name.contains("Instruct"), "?{qs}: downloads {dir}");
        assert_eq!(
            o.get("checkpointer.checkpoint_dir").map(String::as_str),
            Some(format!("{dir}{sub}").as_str()),
            "?{qs}: {o:?}"
        );
        for (k, file) in *tok {
            assert_eq!(o.get(&format!("tokenizer.{k}")), Some(&format!("{dir}{file}")), "?{qs}: {o:?}");
        }
        // Nothing still reads a config's Instruct folder, and the config is the model's own:
        // its shard names hold, so none are written.
        assert!(o.values().all(|v| !v.contains("-Instruct")), "?{qs}: {o:?}");
        assert!(
            !o.contains_key("checkpointer.checkpoint_files") && !o.contains_key("tokenizer._component_"),
            "?{qs}: {o:?}"
        );
        // The YAML carries the same values.
        if let Some(y) = yaml_value(&get(&e, "torchtune_overrides.yaml").content) {
            assert_eq!(y["checkpointer"]["checkpoint_dir"], format!("{dir}{sub}"), "?{qs}");
            for (k, file) in *tok {
                assert_eq!(y["tokenizer"][*k], format!("{dir}{file}"), "?{qs}");
            }
        }
    }
    // Llama 3.x with the HF checkpointer: Meta's consolidated weights are not downloaded.
    assert!(get(&ex(Framework::Torchtune, ""), "launch.sh")
        .content
        .contains("--ignore-patterns 'original/consolidated*'"));
    // Another model's config (no full config for qwen2_5 72B): its tokenizer builder, shards and
    // model_type are overridden too.
    let e = ex(Framework::Torchtune, "model=qwen2.5-72b&method=full&gpus=8&shard=fsdp");
    let (dir, o) = torchtune_launch(&e);
    assert_eq!(dir, "/tmp/Qwen2.5-72B");
    assert_eq!(o["tokenizer._component_"], "torchtune.models.qwen2_5.qwen2_5_tokenizer");
    assert_eq!(o["checkpointer.model_type"], "QWEN2");
    let files =
        o["checkpointer.checkpoint_files"].trim_matches(|c| c == '[' || c == ']').split(',').collect::<Vec<_>>();
    assert_eq!(files.len(), 37, "{files:?}");
    assert_eq!((files[0], files[36]), ("model-00001-of-00037.safetensors", "model-00037-of-00037.safetensors"));
    if let Some(y) = yaml_value(&get(&e, "torchtune_overrides.yaml").content) {
        assert_eq!(y["checkpointer"]["checkpoint_files"].as_array().map(Vec::len), Some(37));
    }
    // torchtune 0.6.1 imports only with torchao 0.13: both files say so.
    for f in &e.files {
        assert!(f.content.contains("torchtune==0.6.1 torchao==0.13.0"), "{}: no torchao pin:\n{}", f.name, f.content);
    }
}

/// D2: `dtype=` (transformers >= 4.56) instead of `torch_dtype=`; checkpointing keeps the
/// `gradient_checkpointing` names, which transformers 4.5x requires and 5.x accepts as
/// aliases (`activation_checkpointing` would be a TypeError on 4.5x).
#[test]
fn export_check_d2_hf_dtype_and_checkpointing_names() {
    for qs in ["", Z3, "method=full&gpus=8&shard=fsdp", "method=lora&ckpt=none&precision=fp16-mixed"] {
        let py = get(&ex(Framework::Hf, qs), "train.py").content.clone();
        let load = py_kwargs(&py, "AutoModelForCausalLM.from_pretrained");
        assert!(load.iter().any(|k| k == "dtype") && !load.iter().any(|k| k == "torch_dtype"), "?{qs}: {load:?}");
        assert!(py.contains("transformers >= 4.56"), "?{qs}: the dtype= comment names the version:\n{py}");
        let ta = py_kwargs(&py, "TrainingArguments");
        assert!(ta.iter().any(|k| k == "gradient_checkpointing"), "?{qs}: {ta:?}");
        assert!(!ta.iter().any(|k| k.starts_with("activation_checkpointing")), "?{qs}: not a 4.5x field: {ta:?}");
        assert!(!py.contains("activation_checkpointing_enable("), "{py}");
    }
}

/// D3–D5: Axolotl's `datasets` is a non-empty block list (its schema has MinLen(1)); LoRA
/// kernels are off for lora/qlora/dora; attention is `attn_implementation`, never the
/// deprecated flags (combining both is an error in axolotl 0.21).
#[test]
fn export_check_d3_d5_axolotl() {
    for qs in [
        "",
        "method=lora&targets=all",
        "method=dora",
        "method=full&gpus=2&shard=fsdp",
        "model=llama-3.2-1b&method=freeze&train_layers=2",
    ] {
        let text = get(&ex(Framework::Axolotl, qs), "axolotl.yaml").content.clone();
        assert!(!text.contains("datasets: []"), "?{qs}:\n{text}");
        assert!(text.contains("datasets:\n  - path: \"your/dataset\"\n    type: \"alpaca\"\n"), "?{qs}:\n{text}");
        for legacy in ["flash_attention:", "sdp_attention:"] {
            assert!(!text.lines().any(|l| l.starts_with(legacy)), "?{qs}: {legacy}\n{text}");
        }
        let lora = !qs.contains("full") && !qs.contains("freeze");
        for k in ["lora_mlp_kernel", "lora_qkv_kernel", "lora_o_kernel", "lora_embedding_kernel"] {
            assert_eq!(text.contains(&format!("\n{k}: false\n")), lora, "?{qs}: {k}\n{text}");
        }
        if let Some(y) = yaml_value(&text) {
            let ds = y["datasets"].as_array().unwrap_or_else(|| panic!("?{qs}: {text}"));
            assert!(
                !ds.is_empty() && ds.iter().all(|d| d["path"].is_string() && d["type"].is_string()),
                "?{qs}: {ds:?}"
            );
            assert!(y.get("flash_attention").is_none() && y.get("sdp_attention").is_none(), "?{qs}");
            if lora {
                for k in ["lora_mlp_kernel", "lora_qkv_kernel", "lora_o_kernel", "lora_embedding_kernel"] {
                    assert_eq!(y[k], false, "?{qs}: {k}");
                }
            }
        }
    }
    for (qs, want) in
        [("", "flash_attention_2"), ("attn=sdpa", "sdpa"), ("attn=eager", "eager"), ("attn=flash", "flash_attention_2")]
    {
        let text = get(&ex(Framework::Axolotl, qs), "axolotl.yaml").content.clone();
        assert!(text.contains(&format!("\nattn_implementation: \"{want}\"\n")), "?{qs}:\n{text}");
    }
}

/// D6: LLaMA-Factory looks `dataset` up in `<dataset_dir>/dataset_info.json`: the export
/// writes `dataset_dir` and says to fill both in.
#[test]
fn export_check_d6_llama_factory_dataset_dir() {
    for qs in ["", "method=lora&targets=all", "method=full&gpus=2&shard=fsdp"] {
        let text = get(&ex(Framework::LlamaFactory, qs), "llamafactory.yaml").content.clone();
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("dataset_dir:"))
            .unwrap_or_else(|| panic!("?{qs}: no dataset_dir\n{text}"));
        assert!(
            lines[..at].iter().rev().take(3).any(|l| l.starts_with("# Fill in") && l.contains("dataset_info.json")),
            "?{qs}:\n{text}"
        );
        assert!(lines.iter().any(|l| l.starts_with("dataset:")), "{text}");
        if let Some(y) = yaml_value(&text) {
            assert!(y["dataset_dir"].as_str().is_some_and(|d| !d.is_empty()) && y["dataset"].is_string(), "?{qs}: {y}");
        }
    }
}

#[test]
fn galore_and_the_2026_recipe_keys_reach_each_framework() {
    let q = "model=qwen3-8b&method=full&optim=galore-adamw&galore_rank=256";
    let hf = ex(Framework::Hf, q);
    let py = &get(&hf, "train.py").content;
    assert!(
        py.contains("optim=\"galore_adamw\"")
            && py.contains("optim_args=\"rank=256\"")
            && py.contains("optim_target_modules=["),
        "{py}"
    );
    let lf = ex(Framework::LlamaFactory, q);
    let y = &get(&lf, "llamafactory.yaml").content;
    assert!(
        y.contains("use_galore: true") && y.contains("galore_rank: 256") && y.contains("optim: \"adamw_torch\""),
        "{y}"
    );
    // Frameworks without GaLore say so rather than silently using AdamW.
    assert!(has_warning(&ex(Framework::Torchtune, q), "galore"));
    assert!(has_warning(&ex(Framework::Litgpt, q), "galore"));
    // torchtune's optimizer in backward is written; torchao optimizers by their class paths.
    let tt = ex(
        Framework::Torchtune,
        "model=llama-3.1-8b&method=full&optim_in_bwd=1&optim=adamw-4bit-ao&framework=torchtune",
    );
    let all: String = tt.files.iter().map(|f| f.content.as_str()).collect();
    assert!(all.contains("optimizer_in_bwd") && all.contains("torchao.optim.AdamW4bit"), "{all}");
}

#[test]
fn a_device_state_dict_is_said_to_be_heavier_than_the_exported_save() {
    let q = "model=llama-2-7b&method=full&gpus=2&shard=fsdp&state_dict=device";
    for fw in [Framework::Hf, Framework::Torchtune, Framework::Axolotl] {
        assert!(has_warning(&ex(fw, q), "state_dict=device"), "{fw}");
        // The default, or one GPU, estimates no such save.
        assert!(!has_warning(&ex(fw, &q.replace("&state_dict=device", "")), "state_dict=device"), "{fw}");
        assert!(!has_warning(&ex(fw, &q.replace("gpus=2", "gpus=1")), "state_dict=device"), "{fw}");
    }
}

#[test]
fn images_and_a_trained_tower_are_said_to_be_outside_the_exported_config() {
    let q = "model=qwen2.5-vl-7b&method=qlora&images=1&tower=lora";
    for fw in [Framework::Hf, Framework::Unsloth, Framework::LlamaFactory, Framework::Axolotl] {
        assert!(has_warning(&ex(fw, q), "images=1, tower=lora"), "{fw}");
        // A text-only run of the same checkpoint says nothing of images.
        assert!(!has_warning(&ex(fw, "model=qwen2.5-vl-7b&method=qlora"), "images="), "{fw}");
    }
    // Each names its own knob where it has one.
    assert!(has_warning(&ex(Framework::Unsloth, q), "finetune_vision_layers"));
    assert!(has_warning(&ex(Framework::LlamaFactory, q), "freeze_vision_tower"));
}
