//! Shared loader for the transcribed reference cases (tests/data/reference-cases.json).
#![allow(dead_code)]
use serde_json::Value;
use tunefit_core::{evaluate, Query, Report};

pub struct Row {
    pub config: String,
    pub source: String,
    pub unit: String,
    pub value: f64,
    pub report: Report,
    pub expressible: bool,
    pub id: String,
    pub query: String,
    pub metric: String,
    pub measured: f64,
    pub predicted: f64,
    pub tol: f64,
}

pub fn rows() -> Vec<Row> {
    let text = include_str!("../data/reference-cases.json");
    let v: Value = serde_json::from_str(text).unwrap();
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let q = Query::parse(c["query"].as_str().unwrap()).unwrap_or_else(|e| panic!("{}: {e}", c["id"]));
            let r = evaluate(&q).unwrap();
            let metric = c["metric"].as_str().unwrap().to_string();
            let predicted = match metric.as_str() {
                "allocated" => r.memory.allocated,
                "reserved" => r.memory.reserved,
                "device" => r.memory.device,
                m => panic!("unknown metric {m}"),
            } as f64;
            // nvidia-smi figures include the CUDA context. Where the source measured its own
            // context (an environment property: CUDA version, module loading, GPU), that figure
            // replaces the profile's default; the memory model itself is unchanged.
            let predicted = match c["cuda_context_mib_measured"].as_f64() {
                Some(mib) if metric == "device" => {
                    predicted - tunefit_core::framework::profile(q.framework).cuda_context as f64 + mib * 1048576.0
                }
                _ => predicted,
            };
            Row {
                config: c["note"].as_str().unwrap_or("").into(),
                source: c["source"].as_str().unwrap_or("").into(),
                unit: c["measured_unit"].as_str().unwrap().into(),
                value: c["measured_value"].as_f64().unwrap(),
                report: r.clone(),
                expressible: c["expressible"].as_bool().unwrap_or(true),
                id: c["id"].as_str().unwrap().into(),
                query: c["query"].as_str().unwrap().into(),
                metric,
                measured: c["measured_bytes"].as_f64().unwrap(),
                predicted,
                tol: c["tolerance"].as_f64().unwrap(),
            }
        })
        .collect()
}

/// A link the test writes, parsed (a bad one fails the test, naming it).
pub fn query(s: &str) -> Query {
    Query::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The report of a link that must evaluate.
pub fn report(s: &str) -> Report {
    evaluate(&query(s)).unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

/// The key a refused link names.
pub fn refused_key(s: &str) -> &'static str {
    match evaluate(&query(s)) {
        Err(tunefit_core::Error::Refused(r)) => r.key(),
        other => panic!("{s}: expected a refusal, got {:?}", other.map(|r| r.memory.allocated)),
    }
}

/// A calibration file's records (data/calibration/`file`, written by tools/calibrate): each
/// record's link and its `field`, at least `min` of them.
pub fn calibration(file: &str, field: &str, min: usize) -> Vec<(String, f64)> {
    let path = format!("{}/../../data/calibration/{file}", env!("CARGO_MANIFEST_DIR"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let recs: Vec<(String, f64)> = data["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["query"].as_str().unwrap().to_string(), r[field].as_f64().unwrap()))
        .collect();
    assert!(recs.len() >= min, "{file}: {} records", recs.len());
    recs
}

/// Every file of `query`'s export for `fw`, one text.
pub fn exported(query_text: &str, fw: tunefit_core::query::Framework) -> Result<String, tunefit_core::Error> {
    tunefit_core::export::export(&query(query_text), fw)
        .map(|e| e.files.into_iter().map(|f| f.content).collect::<Vec<_>>().join("\n"))
}
