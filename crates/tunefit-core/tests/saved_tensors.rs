//! `memory.saved_for_backward` against the bytes autograd really holds after a forward pass,
//! measured by tools/calibrate (data/calibration/saved-tensors.json). Each record within 2%.
//! Without the file the test says so and passes; with it, any disagreement fails.
use serde_json::Value;
use tunefit_core::{evaluate, Query};

#[test]
fn saved_for_backward_matches_the_probe() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/calibration/saved-tensors.json");
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("data/calibration/saved-tensors.json is absent: nothing to check yet");
        return;
    };
    let v: Value = serde_json::from_str(&text).expect("saved-tensors.json parses");
    let recs = v["records"].as_array().expect("records array");
    let mut bad = Vec::new();
    for r in recs {
        let qs = r["query"].as_str().unwrap();
        let measured = r["saved_bytes"].as_f64().unwrap();
        let q = match Query::parse(qs) { Ok(q) => q, Err(e) => { bad.push(format!("{qs}: query error {e}")); continue } };
        let got = evaluate(&q).map(|r| r.memory.saved_for_backward as f64);
        match got {
            Ok(p) => {
                let e = p / measured - 1.0;
                println!("{:+6.2}%  measured {:>12} predicted {:>12}  {qs}", e * 100.0, measured, p);
                if e.abs() > 0.02 { bad.push(format!("{qs}: {:+.2}%", e * 100.0)); }
            }
            Err(e) => bad.push(format!("{qs}: {e}")),
        }
    }
    assert!(bad.is_empty(), "{} of {} records outside 2%:\n{}", bad.len(), recs.len(), bad.join("\n"));
}

/// Reports (without failing) how the model does on every probe record, including those not yet
/// moved into the canonical file (data/calibration/saved-tensors-all.json).
#[test]
fn report_on_all_probe_records() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/calibration/saved-tensors-all.json");
    let Ok(text) = std::fs::read_to_string(path) else { println!("saved-tensors-all.json absent"); return };
    let v: Value = serde_json::from_str(&text).expect("parses");
    let (mut ok, mut n) = (0, 0);
    for r in v["records"].as_array().expect("records") {
        let qs = r["query"].as_str().unwrap();
        let measured = r["saved_bytes"].as_f64().unwrap();
        let Ok(q) = Query::parse(qs) else { continue };
        let Ok(rep) = evaluate(&q) else { continue };
        n += 1;
        let e = rep.memory.saved_for_backward as f64 / measured - 1.0;
        if e.abs() <= 0.02 { ok += 1; }
        println!("ALL {:+7.2}%  {qs}", e * 100.0);
    }
    println!("ALL within 2%: {ok} of {n}");
}
