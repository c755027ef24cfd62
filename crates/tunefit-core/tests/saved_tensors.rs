//! `memory.saved_for_backward` against the bytes autograd really holds after a forward pass,
//! measured by tools/calibrate: **every** record of data/calibration/saved-tensors.json must
//! be within 2%. A record the model cannot reach yet is listed, with the tensor it gets wrong
//! and why, in data/calibration/known-misses.json. The list may only shrink: an unlisted
//! record outside 2% fails, and so does a listed record that now matches (remove it).
use serde_json::Value;
use std::collections::BTreeMap;
use tunefit_core::{evaluate, Query};

const TOLERANCE: f64 = 0.02;

fn load(name: &str) -> Value {
    let path = format!("{}/../../data/calibration/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_probe_record_within_2_percent_or_a_listed_miss() {
    let data = load("saved-tensors.json");
    let misses = load("known-misses.json");
    let mut listed: BTreeMap<String, (String, String)> = BTreeMap::new();
    for m in misses["misses"].as_array().expect("misses array") {
        let q = m["query"].as_str().expect("miss query").to_string();
        let tensor = m["tensor"].as_str().expect("miss names the tensor").to_string();
        let why = m["why"].as_str().expect("miss says why").to_string();
        assert!(!tensor.is_empty() && !why.is_empty(), "{q}: a listed miss names its tensor and reason");
        assert!(listed.insert(q.clone(), (tensor, why)).is_none(), "{q} listed twice");
    }
    let recs = data["records"].as_array().expect("records array");
    assert!(recs.len() >= 222, "the file holds every measurement ({} records)", recs.len());
    let mut failures = Vec::new();
    let mut seen = 0;
    let mut within = 0;
    for r in recs {
        let qs = r["query"].as_str().expect("query");
        let measured = r["saved_bytes"].as_f64().expect("saved_bytes");
        let q = Query::parse(qs).unwrap_or_else(|e| panic!("{qs}: query error {e}"));
        let predicted = evaluate(&q).unwrap_or_else(|e| panic!("{qs}: {e}")).memory.saved_for_backward as f64;
        let e = predicted / measured - 1.0;
        let miss = e.abs() > TOLERANCE;
        println!("{:+7.2}%  measured {:>13} predicted {:>13}  {qs}", e * 100.0, measured, predicted);
        match (miss, listed.get(qs)) {
            (false, None) => within += 1,
            (true, Some(_)) => seen += 1,
            (true, None) => failures.push(format!("{qs}: {:+.2}% and not in known-misses.json", e * 100.0)),
            (false, Some(_)) => {
                failures.push(format!("{qs}: now within 2% ({:+.2}%): remove it from known-misses.json", e * 100.0))
            }
        }
    }
    let queries: Vec<&str> = recs.iter().map(|r| r["query"].as_str().unwrap()).collect();
    for q in listed.keys() {
        if !queries.contains(&q.as_str()) {
            failures.push(format!("{q}: listed as a miss but not a record"));
        }
    }
    println!("within 2%: {within} of {}; listed misses: {seen}", recs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One block's saved bytes, three blocks less two, against a probe of a framework's own model
/// code (`file`'s records, at least `min`): the worst relative error.
fn per_block_worst(file: &str, min: usize, known: impl Fn(&str) -> f64) -> f64 {
    let data = load(file);
    let records = data["records"].as_array().unwrap();
    assert!(records.len() >= min, "{file}: {} records", records.len());
    let saved = |q: &str| evaluate(&Query::parse(q).unwrap()).unwrap().memory.saved_for_backward as f64;
    let mut worst: f64 = 0.0;
    for r in records {
        let q = r["query"].as_str().unwrap();
        let measured = r["saved_per_block"].as_f64().unwrap();
        let predicted = saved(&format!("{q}&layers=3")) - saved(&format!("{q}&layers=2")) + known(q);
        let e = predicted / measured - 1.0;
        println!("{:+6.2}%  measured {measured:>11} predicted {predicted:>11}  {q}", e * 100.0);
        worst = worst.max(e.abs());
    }
    worst
}

/// litgpt's own model code (tools/calibrate/litgpt_probe.py, data/calibration/litgpt-saved.json),
/// each record within 2%. Among them the lora_B output that `LoRAQKVLinear.zero_pad`'s
/// `index_copy_` keeps when only some of q, k, v are adapted.
#[test]
fn a_litgpt_lora_block_keeps_what_litgpt_keeps() {
    let worst = per_block_worst("litgpt-saved.json", 7, |_| 0.0);
    assert!(worst <= TOLERANCE, "worst {:+.2}%", worst * 100.0);
}

/// torchtune's own model code (tools/calibrate/torchtune_probe.py,
/// data/calibration/torchtune-saved.json): LoRA, QLoRA over torchao's NF4 and full fine-tuning,
/// MHA and GQA, each record within 2%.
///
/// One release difference is named, not modelled: torchtune 0.5–0.6.1 (the probe's, PyPI's last)
/// normalizes with `F.rms_norm(x.float(), weight=self.scale)`, whose composite keeps the
/// normalized output in fp32 for a trainable scale (pytorch/torchtune 1450d612, 2024-11-25);
/// main before it and again since c5c160b4 (2025-03-26), and every measured torchtune run,
/// keep it in the input dtype (`x_normed.type_as(x) * self.scale`), as the profile counts. A
/// full fine-tune's two norms per block hold (4 − 2)·h bytes per token each more under 0.6.1.
#[test]
fn a_torchtune_block_keeps_what_torchtune_keeps() {
    let worst = per_block_worst("torchtune-saved.json", 7, |q| {
        let h = if q.contains("llama-2-7b") { 4096.0 } else { 2048.0 };
        if q.contains("method=full") {
            2.0 * 2.0 * h * 512.0
        } else {
            0.0
        }
    });
    assert!(worst <= TOLERANCE, "worst {:+.2}%", worst * 100.0);
}
