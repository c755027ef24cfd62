//! The loss path against tools/calibrate/loss_compile_probe.py: the peak's V-wide part of a
//! real training step, eager and under torch.compile, as bytes per token and vocabulary entry
//! (data/calibration/loss-compile.json).

mod common;

use common::report;
use serde_json::Value;
use tunefit_core::memory::Phrase;

/// The model's loss path per token·vocab entry for `query`, by the same two vocabularies the
/// probe takes apart (its batch 4 × 1024 tokens).
fn per_token_vocab(query: &str) -> f64 {
    let at = |v: u64| report(&format!("{query}&model=llama-3.2-1b&batch=4&seq=1024&packing=1&vocab={v}")).memory.logits;
    (at(32768) - at(16384)) as f64 / (4.0 * 1024.0 * 16384.0)
}

#[test]
fn the_loss_path_holds_what_the_probe_measured_eager_and_compiled() {
    let path = format!("{}/../../data/calibration/loss-compile.json", env!("CARGO_MANIFEST_DIR"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for r in data["records"].as_array().unwrap() {
        // torchtitan's separately compiled loss has no framework profile to run it.
        let Some(query) = r["query"].as_str() else { continue };
        let measured =
            r["forward_per_token_vocab"].as_f64().unwrap().max(r["backward_per_token_vocab"].as_f64().unwrap());
        let predicted = per_token_vocab(query);
        println!("{query}: measured {measured} B, predicted {predicted:.3} B per token·vocab");
        assert!((predicted - measured).abs() < 0.05, "{query}: measured {measured}, predicted {predicted}");
        checked += 1;
    }
    assert!(checked >= 8, "{checked} records");
}

#[test]
fn compiled_with_the_model_the_loss_keeps_no_fp32_copy() {
    // The Trainer's torch_compile compiles the model's forward with its loss: the logits in
    // bf16 three times at most, where eager holds 12 bytes and torchtune's fp32 logits 8.
    let hf = per_token_vocab("framework=hf&precision=bf16-true&compile=1");
    let eager = per_token_vocab("framework=hf&precision=bf16-true&compile=0");
    let tune = per_token_vocab("framework=torchtune&loss=standard&precision=bf16-true&compile=1");
    assert!((hf - 6.0).abs() < 0.05 && (eager - 12.0).abs() < 0.05 && (tune - 8.0).abs() < 0.05, "{hf} {eager} {tune}");
    // Axolotl and LLaMA-Factory run the same Trainer.
    for fw in ["axolotl", "llama-factory"] {
        let x = per_token_vocab(&format!("framework={fw}&precision=bf16-true&compile=1&loss=standard"));
        assert!((x - hf).abs() < 0.05, "{fw}: {x}");
    }
    // Nor does the page say the logits carry an fp32 copy; eager, it does.
    let copy = |compile: u8| {
        let r = report(&format!("framework=hf&precision=bf16-true&compile={compile}&batch=8&seq=4096&ckpt=full"));
        match r.explanations.iter().find(|e| e.term == "logits").and_then(|e| e.why.as_ref()) {
            Some(Phrase::WhyLogits { fp32_copy, .. }) => *fp32_copy,
            other => panic!("compile={compile}: {other:?}"),
        }
    };
    assert!(!copy(1) && copy(0));
}
