//! Every measured reference case the query format can express, against its own metric.
//! Data: tests/data/reference-cases.json (a transcription; the repo stays self-contained).
mod common;
use common::rows;

#[test]
fn measured_cases_within_tolerance_and_targets() {
    let rows = rows();
    let mut errs: Vec<f64> = Vec::new();
    let mut bad = Vec::new();
    for r in &rows {
        let e = r.predicted / r.measured - 1.0;
        println!(
            "{:45} {:9} measured {:7.2} GiB predicted {:7.2} GiB  {:+6.1}%",
            r.id,
            r.metric,
            r.measured / 1073741824.0,
            r.predicted / 1073741824.0,
            e * 100.0
        );
        if !r.expressible {
            println!("    (not counted: the source used a setting the query cannot express)");
            continue;
        }
        errs.push(e.abs());
        if e.abs() > r.tol {
            bad.push(format!("{}: {:+.1}% (tolerance {:.0}%)", r.id, e * 100.0, r.tol * 100.0));
        }
    }
    errs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = errs[errs.len() / 2];
    println!("median |error| {:.1}%, max {:.1}%", median * 100.0, errs.last().unwrap() * 100.0);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The targets: median at most 8%, none above 20% (measured now: 5.4%, largest 13.8%).
    assert!(median <= 0.08, "median {median}");
    let over: Vec<&f64> = errs.iter().filter(|e| **e > 0.20).collect();
    assert!(over.is_empty(), "{} cases above 20%: {over:?}", over.len());
}
