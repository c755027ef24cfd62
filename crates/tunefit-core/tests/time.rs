//! The time model: formulas behave physically and land near published throughput.
use tunefit_core::dataset::gpu;
use tunefit_core::query::{Method, Query};
use tunefit_core::time::{default_mfu, flops_per_token, timing, FlopShape};

fn q(s: &str) -> Query { Query::parse(s).unwrap() }

fn shape(q: &Query, params: f64, trainable: f64) -> FlopShape { FlopShape::of(q, params as u64, trainable as u64) }

#[test]
fn full_fine_tune_is_about_six_flops_per_param_per_token() {
    let q = q("method=full&ckpt=none&seq=2048");
    let s = shape(&q, 8.03e9, 8.03e9);
    let f = flops_per_token(&q, &s);
    // 6·P plus the attention term 12·L·d·s (Llama-3.1-8B: 32 layers, width 4096).
    let expect = 6.0 * 8.03e9 + 12.0 * 32.0 * 4096.0 * 2048.0;
    assert!((f / expect - 1.0).abs() < 0.01, "{f} vs {expect}");
}

#[test]
fn lora_backward_is_cheaper_and_checkpointing_adds_a_forward() {
    let full = q("method=full&ckpt=none");
    let lora = q("method=lora&ckpt=none");
    let lora_ck = q("method=lora&ckpt=full");
    let s = shape(&full, 8e9, 8e9);
    let sl = shape(&lora, 8e9, 4e7);
    let (ff, fl, flc) = (flops_per_token(&full, &s), flops_per_token(&lora, &sl), flops_per_token(&lora_ck, &sl));
    assert!(fl < 0.75 * ff && fl > 0.6 * ff, "lora {fl} full {ff}");
    assert!((flc - fl) > 1.9 * 8e9 && (flc - fl) < 2.3 * 8e9, "recompute {}", flc - fl);
}

#[test]
fn t4_and_v100_run_fp16_and_say_so() {
    let q = q("method=lora&ckpt=none");
    let s = shape(&q, 1e9, 1e7);
    let t4 = timing(&q, &s, gpu("t4").unwrap(), 1, 1, None);
    assert!(t4.precision_flagged);
    assert_eq!(t4.peak_flops, 65e12);
    assert!(!timing(&q, &s, gpu("a100-80gb").unwrap(), 1, 1, None).precision_flagged);
}

#[test]
fn pcie_node_is_visibly_slower_for_sharded_full_fine_tuning() {
    // Same compute peak (A100 SXM vs PCIe: 312 TFLOPS BF16); only the fabric differs.
    let q = q("method=full&shard=fsdp&gpus=8&batch=1&seq=2048&ckpt=full");
    let s = shape(&q, 8.03e9, 8.03e9);
    let sxm = timing(&q, &s, gpu("a100-80gb").unwrap(), 8, 1, None);
    let pcie = timing(&q, &s, gpu("a100-pcie-80gb").unwrap(), 8, 1, None);
    assert!(pcie.step_s > 1.5 * sxm.step_s, "pcie {} vs nvlink {}", pcie.step_s, sxm.step_s);
    let l40s = timing(&q, &s, gpu("l40s").unwrap(), 8, 1, None);
    assert!(l40s.exposed_comm_s > 10.0 * sxm.exposed_comm_s.max(1e-3));
}

#[test]
fn more_gpus_are_faster_and_mfu_is_user_adjustable() {
    let q1 = q("method=lora&ckpt=none");
    let s = shape(&q1, 8e9, 4e7);
    let h = gpu("h100-sxm").unwrap();
    let one = timing(&q1, &s, h, 1, 1, None);
    let eight = timing(&q1, &s, h, 8, 1, None);
    assert!(eight.hours < one.hours / 6.0, "{} vs {}", eight.hours, one.hours);
    let q2 = q("method=lora&ckpt=none&mfu=0.2");
    let slow = timing(&q2, &s, h, 1, 1, None);
    assert_eq!(slow.mfu, 0.2);
    assert!(slow.hours > one.hours);
    assert_eq!(one.mfu, default_mfu(h, Method::Lora));
}

#[test]
fn hours_are_tokens_times_epochs_over_throughput() {
    let q = q("method=lora&tokens=100m&epochs=2");
    let s = shape(&q, 8e9, 4e7);
    let t = timing(&q, &s, gpu("a100-80gb").unwrap(), 1, 1, None);
    assert!((t.hours * 3600.0 * t.tokens_per_s / 2e8 - 1.0).abs() < 1e-9);
}

/// Published figures (docs/accuracy.md). Each must land within ±35 % (tokens/s per GPU), except
/// llm-foundry's A100 30B run: a tuned pretraining stack at 74 % hardware utilisation, well above
/// what fine-tuning stacks reach, so the default (0.45) is knowingly conservative there.
#[test]
fn matches_published_throughput_within_tolerance() {
    struct Case { lo: f64, name: &'static str, query: &'static str, params: f64, trainable: f64, gpu: &'static str, n: u32, tps_per_gpu: f64 }
    let cases = [
        // llm-foundry benchmarks README, MPT-7B, 8×H100-80GB, seq 2048, FSDP, no act. ckpt: 10643 T/s/GPU.
        Case { lo: 0.65, name: "foundry 7b h100", query: "method=full&shard=fsdp&gpus=8&batch=6&seq=2048&ckpt=none&layers=32&hidden=4096&heads=32&params=6658859008", params: 6.66e9, trainable: 6.66e9, gpu: "h100-sxm", n: 8, tps_per_gpu: 10643.0 },
        // Same table, MPT-13B, 8×H100, seq 2048, no ckpt: 4792 T/s/GPU.
        Case { lo: 0.65, name: "foundry 13b h100", query: "method=full&shard=fsdp&gpus=8&batch=2&seq=2048&ckpt=none&layers=40&hidden=5120&heads=40&params=12853954560", params: 12.85e9, trainable: 12.85e9, gpu: "h100-sxm", n: 8, tps_per_gpu: 4792.0 },
        // Same README, A100-80GB, MPT-30B, seq 2048, 8 GPUs, act. ckpt on: 916 T/s/GPU.
        Case { lo: 0.55, name: "foundry 30b a100", query: "method=full&shard=fsdp&gpus=8&batch=3&ga=21&seq=2048&ckpt=full&layers=48&hidden=7168&heads=64&params=29975214080", params: 29.98e9, trainable: 29.98e9, gpu: "a100-80gb", n: 8, tps_per_gpu: 916.0 },
        // PEFT maintainers' torchtune-vs-PEFT notes: Llama-3-8B QLoRA (bnb nf4), one RTX 4090: 1410 tokens/s.
        Case { lo: 0.65, name: "peft qlora 4090", query: "model=llama-3.1-8b&method=qlora&ckpt=none&batch=2&seq=512", params: 8.03e9, trainable: 2.1e7, gpu: "rtx-4090", n: 1, tps_per_gpu: 1410.0 },
    ];
    let mut failures = vec![];
    for c in cases {
        let q = q(c.query);
        let s = FlopShape::of(&q, c.params as u64, c.trainable as u64);
        let t = timing(&q, &s, gpu(c.gpu).unwrap(), c.n, 1, None);
        let per_gpu = t.tokens_per_s / c.n as f64;
        let ratio = per_gpu / c.tps_per_gpu;
        println!("{}: predicted {per_gpu:.0} vs published {} tokens/s/GPU (ratio {ratio:.2})", c.name, c.tps_per_gpu);
        if !(c.lo..=1.35).contains(&ratio) { failures.push(format!("{}: ratio {ratio:.2}", c.name)); }
    }
    assert!(failures.is_empty(), "{failures:?}");
}
