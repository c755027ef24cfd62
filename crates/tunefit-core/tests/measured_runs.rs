//! The memory model against measured runs it was not built from: `tests/data/measured-runs.json`
//! (published per-GPU figures with their configurations: Unsloth notebooks, litgpt, torchtune,
//! fms-acceleration, Qwen, PEFT, Liger, torchao). The table in docs/accuracy.md is regenerated
//! from here (`TUNEFIT_WRITE_DOCS=1 cargo test -p tunefit-core --test measured_runs`), and the
//! fit verdict's error band (`report::BAND_UNDER`, `BAND_OVER`) must cover at least 80 % of
//! every measured case, these and tests/data/reference-cases.json together.
mod common;
use serde_json::Value;
use tunefit_core::report::{BAND_OVER, BAND_UNDER};
use tunefit_core::{evaluate, Query};

const START: &str = "<!-- measured-runs:start -->";
const END: &str = "<!-- measured-runs:end -->";

struct Case {
    id: String,
    metric: String,
    framework: String,
    trust: String,
    measured: f64,
    predicted: f64,
    query: String,
}

fn unit(u: &str) -> f64 {
    match u {
        "GiB" => 1073741824.0,
        "GB" => 1e9,
        "MiB" => 1048576.0,
        "MB" => 1e6,
        _ => f64::NAN,
    }
}

/// The measured set: measured-runs.json and every contributed file in tests/data/measured/
/// (`tunefit calibrate --case` writes that format).
fn sets() -> Vec<Value> {
    let mut out = vec![serde_json::from_str(include_str!("data/measured-runs.json")).unwrap()];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/measured");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect()
        })
        .unwrap_or_default();
    files.sort();
    for f in files {
        out.push(
            serde_json::from_str(&std::fs::read_to_string(&f).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display())),
        );
    }
    out
}

fn cases() -> (Vec<Case>, Vec<(String, String)>) {
    let (mut ok, mut skipped) = (Vec::new(), Vec::new());
    for v in sets() {
        for c in v["cases"].as_array().unwrap() {
            let id = c["id"].as_str().unwrap().to_string();
            if c["per_gpu"].as_bool() == Some(false) {
                skipped.push((id, "a total over all GPUs, not a per-GPU figure".into()));
                continue;
            }
            // A run whose memory depends on something no query can say (its `excluded` names it).
            if let Some(why) = c["excluded"].as_str() {
                skipped.push((id, why.into()));
                continue;
            }
            let query = c["query"].as_str().unwrap().to_string();
            let q = match Query::parse(&query) {
                Ok(q) => q,
                Err(e) => {
                    skipped.push((id, e.to_string()));
                    continue;
                }
            };
            let r = match evaluate(&q) {
                Ok(r) => r,
                Err(e) => {
                    skipped.push((id, e.to_string()));
                    continue;
                }
            };
            let metric = c["metric"].as_str().unwrap().to_string();
            let m = &r.memory;
            let predicted = match metric.as_str() {
                "allocated" => m.allocated as f64,
                "reserved" => m.reserved as f64,
                _ => m.device as f64,
            };
            let measured = c["measured_value"].as_f64().unwrap() * unit(c["measured_unit"].as_str().unwrap());
            ok.push(Case {
                id,
                metric,
                framework: c["framework"].as_str().unwrap_or("").into(),
                trust: c["trust"].as_str().unwrap_or("").split(' ').next().unwrap_or("").into(),
                measured,
                predicted,
                query,
            });
        }
    }
    (ok, skipped)
}

fn stats(errs: &[f64]) -> String {
    let mut abs: Vec<f64> = errs.iter().map(|e| e.abs()).collect();
    abs.sort_by(f64::total_cmp);
    format!(
        "median |error| {:.1}%, largest {:.1}%, mean signed {:+.1}%, {} of {} under-predicted",
        abs[abs.len() / 2] * 100.0,
        abs.last().unwrap() * 100.0,
        errs.iter().sum::<f64>() / errs.len() as f64 * 100.0,
        errs.iter().filter(|e| **e < 0.0).count(),
        errs.len()
    )
}

#[test]
fn measured_runs_table_and_the_verdict_band() {
    let (rows, skipped) = cases();
    assert!(rows.len() >= 90, "{} cases", rows.len());
    let rule: Vec<f64> = rows.iter().map(|c| c.predicted / c.measured - 1.0).collect();
    let mut t =
        format!("{} measured runs ({} left out, below). The model: {}.\n\n", rows.len(), skipped.len(), stats(&rule));
    t += "| case | framework | trust | metric | measured (GiB) | tunefit (GiB) | error | query |\n|---|---|---|---|---:|---:|---:|---|\n";
    for c in &rows {
        t += &format!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {:+.1}% | `{}` |\n",
            c.id,
            c.framework,
            c.trust,
            c.metric,
            c.measured / 1073741824.0,
            c.predicted / 1073741824.0,
            (c.predicted / c.measured - 1.0) * 100.0,
            c.query
        );
    }
    if !skipped.is_empty() {
        t += "\nLeft out:\n\n";
        for (id, why) in &skipped {
            t += &format!("- {id}: {why}\n");
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/accuracy.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let (a, b) = (doc.find(START).expect("start marker"), doc.find(END).expect("end marker"));
    let fresh = format!("{}{START}\n{t}{}", &doc[..a], &doc[b..]);
    if std::env::var("TUNEFIT_WRITE_DOCS").is_ok() {
        std::fs::write(path, &fresh).unwrap();
    } else {
        assert!(fresh == doc, "docs/accuracy.md's measured-runs table is stale: rerun with TUNEFIT_WRITE_DOCS=1");
    }

    // The band: the measured figure lies within [−BAND_OVER, +BAND_UNDER] of the prediction
    // for at least 80 % of all measured cases (these and the reference cases).
    let mut all: Vec<f64> = rows.iter().map(|c| c.measured / c.predicted - 1.0).collect();
    all.extend(common::rows().iter().filter(|r| r.expressible).map(|r| r.measured / r.predicted - 1.0));
    let inside = all.iter().filter(|e| (-BAND_OVER..=BAND_UNDER).contains(*e)).count() as f64 / all.len() as f64;
    println!("band covers {:.0} % of {} cases", inside * 100.0, all.len());
    let mut sorted = all.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pct = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
    println!("10th / 90th percentile of measured/predicted - 1: {:+.3} / {:+.3}", pct(0.1), pct(0.9));
    assert!(inside >= 0.8, "the band covers {:.0} %", inside * 100.0);
}
