//! Writes the data files the core compiles in (`OUT_DIR/{gpus,providers,offers}.csv`) from
//! data/, emptying the columns the page never shows (src/dataset.rs reads them either way):
//! `source`, `note`, the offers' `url` and their derivable `id` without the `provenance` feature; the GPUs'
//! `int8_tops`, `tdp_w`, `memory_type` and `interconnect`, the GPUs' and providers' `confidence`
//! and `date`, and the offers' per-instance facts (`gpu_link`, `internode_network`,
//! `internode_gbit_s`, `local_disk_gb`) without `datasheet`; the offers' `region` without
//! `places`. The CLI turns all three on; the page's lazily loaded module `places` alone (its
//! cost table shows where each offer is), its first load none. `currency.csv` keeps its short `source` (the page names the
//! rate's source beside the figures) and drops its `note` and `url` without `provenance`.
use std::{env, fs, path::PathBuf};

fn main() {
    for name in ["gpus.csv", "providers.csv", "offers.csv", "currency.csv"] {
        let src = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../data").join(name);
        println!("cargo:rerun-if-changed={}", src.display());
        let text = fs::read_to_string(&src).expect("data file");
        let mut drop: Vec<&str> = Vec::new();
        if env::var_os("CARGO_FEATURE_PROVENANCE").is_none() {
            drop.extend(if name == "currency.csv" { &["note", "url"][..] } else { &["source", "note", "url"][..] });
            // An offer's id is its provider, tier, aggregator, GPU and count (data/pipeline.py),
            // which src/dataset.rs derives again from those columns.
            if name == "offers.csv" {
                drop.push("id");
            }
        }
        // Where an offer is (`region`): the lazily loaded cost table shows it, the first load
        // does not.
        if env::var_os("CARGO_FEATURE_PLACES").is_none() && name == "offers.csv" {
            drop.push("region");
        }
        if env::var_os("CARGO_FEATURE_DATASHEET").is_none() {
            drop.extend([
                "int8_tops",
                "tdp_w",
                "memory_type",
                "interconnect",
                "gpu_link",
                "internode_network",
                "internode_gbit_s",
                "local_disk_gb",
            ]);
            // What the GPUs' and providers' rows say of their own sourcing (the offers' confidence
            // and date the page shows).
            if name == "gpus.csv" || name == "providers.csv" {
                drop.extend(["confidence", "date"]);
            }
        }
        let out = if drop.is_empty() { text } else { strip(&text, &drop) };
        fs::write(PathBuf::from(env::var("OUT_DIR").unwrap()).join(name), out).expect("OUT_DIR");
    }
}

/// The CSV with the named columns' values emptied (the data holds no quoted fields:
/// data/pipeline.py refuses commas and quotes in values).
fn strip(text: &str, columns: &[&str]) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let drop: Vec<usize> = header.split(',').enumerate().filter(|(_, h)| columns.contains(h)).map(|(i, _)| i).collect();
    let mut out = format!("{header}\n");
    for l in lines {
        let row: Vec<&str> = l.split(',').enumerate().map(|(i, v)| if drop.contains(&i) { "" } else { v }).collect();
        out += &row.join(",");
        out.push('\n');
    }
    out
}
