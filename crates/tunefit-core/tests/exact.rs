//! Exact reference cases (memory-cases.md §1): ZeRO Table 1, DeepSpeed's estimators,
//! QLoRA storage bits, Korthikanti's activation formulas. Each within 0.5% or equal to the
//! printed digits.
mod oracles;

use oracles::korthikanti;
use oracles::sharding::{deepspeed, zero_paper, ZeroStage};
use tunefit_core::arch::Architecture;
use tunefit_core::catalog::preset;
use tunefit_core::memory::quant_bits;
use tunefit_core::query::{Checkpointing, Quant};
use tunefit_core::{evaluate, Query};

/// `x` rounded to the printed value's decimals equals the printed value.
fn same_digits(x: f64, printed: &str) {
    let decimals = printed.split('.').nth(1).map_or(0, str::len) as i32;
    let p: f64 = printed.parse().unwrap();
    let m = 10f64.powi(decimals);
    let r = (x * m).round() / m;
    assert!((r - p).abs() < 1e-9 || ((x - p) / p).abs() < 0.005, "computed {x}, printed {printed}");
}

#[test]
fn zero_paper_table_1() {
    // Rows: N_d; columns: 7.5B (Os, Os+g, Os+g+p), 128B (...), 1T (...). GB = 1e9.
    let table: [(f64, [&str; 9]); 6] = [
        (1.0, ["120", "120", "120", "2048", "2048", "2048", "16000", "16000", "16000"]),
        (4.0, ["52.5", "41.3", "30.0", "896", "704", "512", "7000", "5500", "4000"]),
        (16.0, ["35.6", "21.6", "7.5", "608", "368", "128", "4750", "2875", "1000"]),
        (64.0, ["31.4", "16.6", "1.88", "536", "284", "32", "4187.5", "2218.8", "250"]),
        (256.0, ["30.4", "15.4", "0.47", "518", "263", "8", "4046.9", "2054.7", "62.5"]),
        (1024.0, ["30.1", "15.1", "0.12", "513.5", "257.8", "2", "4011.7", "2013.7", "15.6"]),
    ];
    for (nd, row) in table {
        for (i, psi) in [7.5e9, 128e9, 1e12].into_iter().enumerate() {
            for (j, st) in [ZeroStage::Os, ZeroStage::OsG, ZeroStage::OsGP].into_iter().enumerate() {
                same_digits(zero_paper(psi, 12.0, nd, st) / 1e9, row[i * 3 + j]);
            }
        }
    }
    // Fig. 1 headline: 120 / 31.4 / 16.6 / 1.9 GB.
    assert_eq!(zero_paper(7.5e9, 12.0, 64.0, ZeroStage::Baseline) / 1e9, 120.0);
}

#[test]
fn evaluate_uses_zero_bookkeeping() {
    for (shard, st) in [("zero1", ZeroStage::Os), ("zero2", ZeroStage::OsG), ("zero3", ZeroStage::OsGP)] {
        for n in [1u32, 4, 64] {
            let q = Query::parse(&format!(
                "params=7.5b&method=full&precision=fp16-mixed&optim=adamw&shard={shard}&gpus={n}&nodes={}",
                n.div_ceil(8)
            ))
            .unwrap();
            let r = evaluate(&q).unwrap();
            let p = r.model.params as f64;
            let states = (r.memory.weights + r.memory.gradients + r.memory.optimizer) as f64;
            let want = zero_paper(p, 12.0, n as f64, st);
            assert!((states - want).abs() <= 3.0, "{shard} N={n}: {states} vs {want}");
        }
    }
}

#[test]
fn deepspeed_tutorial_gpt2_zero1() {
    // 1.5B params, Adam states 12 B/param = 18 GB; ZeRO-1 over 8 ranks = 2.25 GB each, beside
    // the 16-bit parameters and gradients every rank keeps (4 B/param).
    let q = Query::parse("params=1.5b&method=full&precision=fp16-mixed&optim=adamw&shard=zero1&gpus=8").unwrap();
    let r = evaluate(&q).unwrap();
    let p = r.model.params as f64;
    assert!((p / 1.5e9 - 1.0).abs() < 0.01, "{p}");
    let optimizer = r.memory.optimizer as f64 / 1e9 * 1.5e9 / p;
    assert!((optimizer - 2.25).abs() < 1e-6, "{optimizer} GB per rank");
    let kept = (r.memory.weights + r.memory.gradients) as f64;
    assert!((kept - 4.0 * p).abs() <= 2.0, "{kept} vs {}", 4.0 * p);
}

const GIB: f64 = 1073741824.0;

#[test]
fn deepspeed_estimators_t5_3b_doc_outputs() {
    // memory.rst: t5-3b, "2851M total params, 32M largest layer params", 1 node x 8 GPUs.
    let (p, l) = (2_851_000_000u64, 32_000_000u64);
    let g = |b: u64| b as f64 / GIB;
    let (gpu, cpu) = deepspeed::zero2(p, 8, 1, true);
    same_digits(g(gpu), "5.31");
    same_digits(g(cpu), "127.45");
    let (gpu, cpu) = deepspeed::zero2(p, 8, 1, false);
    same_digits(g(gpu), "11.28");
    same_digits(g(cpu), "127.45");
    same_digits(g(deepspeed::zero2_legacy(p, 8)), "15.93");
    let (gpu, cpu1) = deepspeed::zero3(p, l, 8, 1, true, true, true);
    let (_, cpu0) = deepspeed::zero3(p, l, 8, 1, true, true, false);
    same_digits(g(gpu), "0.12");
    same_digits(g(cpu1), "71.69");
    same_digits(g(cpu0), "127.45");
    let (gpu, cpu1) = deepspeed::zero3(p, l, 8, 1, false, true, true);
    let (_, cpu0) = deepspeed::zero3(p, l, 8, 1, false, true, false);
    same_digits(g(gpu), "0.78");
    same_digits(g(cpu1), "63.72");
    same_digits(g(cpu0), "127.45");
    let (gpu, cpu1) = deepspeed::zero3(p, l, 8, 1, false, false, true);
    let (_, cpu0) = deepspeed::zero3(p, l, 8, 1, false, false, false);
    same_digits(g(gpu), "6.09");
    same_digits(g(cpu1), "1.43");
    same_digits(g(cpu0), "127.45");
}

#[test]
fn deepspeed_zero3_t5_large_mib() {
    // memory.rst hand-computed cases: 737.67M params, largest layer 32.90M, 4 GPUs; MB = >>20.
    let (p, l) = (737_670_000u64, 32_900_000u64);
    assert_eq!(deepspeed::zero3(p, l, 4, 1, false, false, true).0 >> 20, 3291);
    assert_eq!(deepspeed::zero3(p, l, 4, 1, true, true, true).0 >> 20, 125);
    assert_eq!(deepspeed::zero3(p, l, 4, 1, false, true, true).0 >> 20, 477);
}

#[test]
fn qlora_storage_bits() {
    assert_eq!(quant_bits(Quant::Nf4, false, 4096), 4.5);
    let dq = quant_bits(Quant::Nf4, true, 4096);
    assert!((dq - 4.127).abs() < 0.001, "{dq}");
    assert!((4.5 - dq - 0.373).abs() < 0.001);
    // litgpt nf4 → nf4-dq on Llama 2 7B: 0.373/8 × 6.48e9 linear params ≈ 0.30 GB.
    let a = &preset("llama-2-7b").unwrap().arch;
    let lin = a.block_linear_params() as f64;
    assert!((lin / 1e9 - 6.48).abs() < 0.01);
    let q =
        |dq: u8| Query::parse(&format!("model=llama-2-7b&method=qlora&quant=nf4&dq={dq}&precision=bf16-true")).unwrap();
    let w0 = evaluate(&q(0)).unwrap().memory.weights as f64;
    let w1 = evaluate(&q(1)).unwrap().memory.weights as f64;
    assert!(((w0 - w1) / 1e9 - 0.30).abs() < 0.01, "{}", (w0 - w1) / 1e9);
    // Weights = 16-bit non-linear parameters + linear parameters at 4.127 bits + fp32 adapters (hf).
    let r = evaluate(&q(1)).unwrap();
    let frozen_other = (a.param_count() as f64 - lin) * 2.0;
    let adapters = r.model.trainable_params as f64 * 4.0;
    let want = frozen_other + lin * dq / 8.0 + adapters;
    assert!((r.memory.weights as f64 - want).abs() < 2.0);
}

fn gpt(layers: u64, h: u64, a: u64) -> Architecture {
    let mut x = preset("gpt2").unwrap().arch.clone();
    x.layers = layers;
    x.hidden = h;
    x.heads = a;
    x.kv_heads = a;
    x.head_dim = h / a;
    x.ffn = 4 * h;
    // Megatron's block: fused GELU kernel, no HF-specific tensor quirks.
    x.quirks = Default::default();
    x
}

#[test]
fn korthikanti_table_2_exactly() {
    let (s, b) = (2048.0, 1.0);
    for (a, h) in [(64u64, 6144u64), (96, 12288), (128, 20480), (160, 25600), (12, 768)] {
        let arch = gpt(24, h, a);
        let (hf, af) = (h as f64, a as f64);
        let none = korthikanti::gpt_block(1.0).saved(&arch, s * b, s, Checkpointing::None).tensors();
        assert!(
            (none / korthikanti::no_parallelism(s, b, hf, af) - 1.0).abs() < 1e-12,
            "{none} vs {}",
            korthikanti::no_parallelism(s, b, hf, af)
        );
        for t in [2.0, 4.0, 8.0] {
            let tp = korthikanti::gpt_block(t).saved(&arch, s * b, s, Checkpointing::None).tensors();
            assert!((tp / korthikanti::tensor_parallel(s, b, hf, af, t) - 1.0).abs() < 1e-12);
            let sel = korthikanti::gpt_block(t).saved(&arch, s * b, s, Checkpointing::Selective).tensors();
            assert!((sel / korthikanti::tp_selective(s, b, hf, t) - 1.0).abs() < 1e-12);
        }
        let full = korthikanti::gpt_block(1.0).saved(&arch, s * b, s, Checkpointing::Full).tensors();
        assert_eq!(full, korthikanti::full_recompute(s, b, hf));
    }
    // Worked numbers (GB = 1e9): 22B no-parallel 1.770, TP8 0.331, TP8+selective 0.164.
    let arch = gpt(48, 6144, 64);
    let gb = |c, t| korthikanti::gpt_block(t).saved(&arch, 2048.0, 2048.0, c).tensors() / 1e9;
    same_digits(gb(Checkpointing::None, 1.0), "1.770");
    same_digits(gb(Checkpointing::None, 8.0), "0.331");
    same_digits(gb(Checkpointing::Selective, 8.0), "0.164");
    same_digits(gb(Checkpointing::Full, 1.0), "0.025");
}
