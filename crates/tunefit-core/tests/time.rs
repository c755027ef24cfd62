//! The time model: formulas behave physically and land near published throughput.
use tunefit_core::dataset::gpu;
use tunefit_core::query::Query;
use tunefit_core::settings::Settings;
use tunefit_core::time::{flops_per_token, timing, FlopShape};

fn st(q: &Query) -> Settings<'_> {
    Settings::resolve(q).unwrap()
}

fn q(s: &str) -> Query {
    Query::parse(s).unwrap()
}

fn shape(q: &Query, params: f64, trainable: f64) -> FlopShape {
    FlopShape::of(&st(q), params as u64, trainable as u64)
}

#[test]
fn full_fine_tune_is_about_six_flops_per_param_per_token() {
    let q = q("method=full&ckpt=none&seq=2048");
    let s = shape(&q, 8.03e9, 8.03e9);
    let f = flops_per_token(&st(&q), &s);
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
    let (ff, fl, flc) =
        (flops_per_token(&st(&full), &s), flops_per_token(&st(&lora), &sl), flops_per_token(&st(&lora_ck), &sl));
    assert!(fl < 0.75 * ff && fl > 0.6 * ff, "lora {fl} full {ff}");
    assert!((flc - fl) > 1.9 * 8e9 && (flc - fl) < 2.3 * 8e9, "recompute {}", flc - fl);
}

#[test]
fn t4_and_v100_run_fp16_and_say_so() {
    let q = q("method=lora&ckpt=none");
    let s = shape(&q, 1e9, 1e7);
    let t4 = timing(&st(&q), &s, gpu("t4").unwrap(), 1, 1, None);
    assert!(t4.precision_flagged);
    assert_eq!(t4.peak_flops, 65e12);
    assert!(!timing(&st(&q), &s, gpu("a100-80gb").unwrap(), 1, 1, None).precision_flagged);
}

#[test]
fn pcie_node_is_visibly_slower_for_sharded_full_fine_tuning() {
    // Same compute peak (A100 SXM vs PCIe: 312 TFLOPS BF16); only the fabric differs.
    let q = q("method=full&shard=fsdp&gpus=8&batch=1&seq=2048&ckpt=full");
    let s = shape(&q, 8.03e9, 8.03e9);
    let sxm = timing(&st(&q), &s, gpu("a100-80gb").unwrap(), 8, 1, None);
    let pcie = timing(&st(&q), &s, gpu("a100-pcie-80gb").unwrap(), 8, 1, None);
    assert!(pcie.step_s > 1.5 * sxm.step_s, "pcie {} vs nvlink {}", pcie.step_s, sxm.step_s);
    let l40s = timing(&st(&q), &s, gpu("l40s").unwrap(), 8, 1, None);
    assert!(l40s.exposed_comm_s > 10.0 * sxm.exposed_comm_s.max(1e-3));
}

#[test]
fn more_gpus_are_faster_and_mfu_is_user_adjustable() {
    let q1 = q("method=lora&ckpt=none");
    let s = shape(&q1, 8e9, 4e7);
    let h = gpu("h100-sxm").unwrap();
    let one = timing(&st(&q1), &s, h, 1, 1, None);
    let eight = timing(&st(&q1), &s, h, 8, 1, None);
    assert!(eight.train_hours < one.train_hours / 6.0, "{} vs {}", eight.train_hours, one.train_hours);
    let q2 = q("method=lora&ckpt=none&mfu=0.2");
    let slow = timing(&st(&q2), &s, h, 1, 1, None);
    assert!((slow.mfu - 0.2).abs() < 0.01, "{}", slow.mfu);
    assert!(slow.hours > one.hours);
    assert!(one.mfu > 0.2 && one.mfu < 0.8, "{}", one.mfu);
}

#[test]
fn hours_are_tokens_times_epochs_over_throughput() {
    let q = q("method=lora&tokens=100m&epochs=2");
    let s = shape(&q, 8e9, 4e7);
    let t = timing(&st(&q), &s, gpu("a100-80gb").unwrap(), 1, 1, None);
    assert!((t.train_hours * 3600.0 * t.tokens_per_s / 2e8 - 1.0).abs() < 1e-9);
    // The run adds start-up and saves to the steps.
    assert!((t.hours - t.train_hours - (t.startup_s + t.eval_s + t.save_s) / 3600.0).abs() < 1e-9);
    assert!(t.startup_s >= 300.0);
}
