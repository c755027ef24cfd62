//! The core's modules form layers: each may use only modules of lower layers, so there is no
//! import circle and the function that assembles the report sits on top (ARCHITECTURE.md
//! draws the same table). A module's uses are every `crate::name` path outside its tests.
use std::collections::BTreeMap;
use std::path::Path;

/// Bottom to top. Modules of one layer do not use each other.
const LAYERS: &[&[&str]] = &[
    // Text and numbers, no domain.
    &["num", "choice", "markup"],
    &["json", "query"],
    // What goes wrong, and the domain's data.
    &["diag"],
    &["arch", "dataset"],
    &["catalog", "activation"],
    &["hfconfig", "framework"],
    // The query resolved once.
    &["settings"],
    // The models.
    &["memory", "time", "cost", "prices"],
    &["solve"],
    &["fix", "advice"],
    // Diffusion models: their own presets and jobs, the language models' replay, verdict and fix.
    &["diffusion"],
    // The report, and what is built on it.
    &["report"],
    &["markdown", "calibrate", "plan", "export", "share"],
];

fn source_of(dir: &Path, module: &str) -> String {
    let file = dir.join(format!("{module}.rs"));
    let mut text = String::new();
    let files: Vec<_> = if file.exists() {
        vec![file]
    } else {
        let mut v: Vec<_> = std::fs::read_dir(dir.join(module)).expect(module).map(|e| e.unwrap().path()).collect();
        v.sort();
        v
    };
    for f in files {
        let s = std::fs::read_to_string(&f).unwrap();
        // Unit tests may reach anywhere.
        text.push_str(s.split("#[cfg(test)]").next().unwrap());
    }
    text
}

/// The modules `src` names as `crate::name`, `crate::{name, ...}` included.
fn uses(src: &str, known: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in src.match_indices("crate::") {
        let rest = &src[i + "crate::".len()..];
        let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            group[..group.find('}').unwrap_or(0)].split(',').map(|p| p.trim().split("::").next().unwrap()).collect()
        } else {
            vec![rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap()]
        };
        for n in names {
            if known.contains(&n) && !out.iter().any(|o| o == n) {
                out.push(n.to_string());
            }
        }
    }
    out
}

#[test]
fn every_module_uses_only_lower_layers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layer: BTreeMap<&str, usize> =
        LAYERS.iter().enumerate().flat_map(|(i, l)| l.iter().map(move |m| (*m, i))).collect();
    let known: Vec<&str> = layer.keys().copied().collect();
    // Every module of lib.rs is in the table.
    let lib = std::fs::read_to_string(dir.join("lib.rs")).unwrap();
    for line in lib.lines() {
        let line = line.trim();
        if let Some(m) = line.strip_prefix("pub mod ").or_else(|| line.strip_prefix("mod ")) {
            let m = m.trim_end_matches(';');
            assert!(layer.contains_key(m), "module {m} is not in the layer table of tests/layers.rs");
        }
    }
    let mut wrong = Vec::new();
    for (m, &l) in &layer {
        for u in uses(&source_of(&dir, m), &known) {
            if u != *m && layer[u.as_str()] >= l {
                wrong.push(format!("{m} (layer {l}) uses {u} (layer {})", layer[u.as_str()]));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
}

#[test]
fn the_checker_sees_grouped_and_plain_paths() {
    let known = ["query", "memory", "diag"];
    let src = "use crate::query::Query;\nuse crate::{memory::Estimate, diag};\nlet x = crate::memorize;";
    assert_eq!(uses(src, &known), ["query", "memory", "diag"]);
}

#[test]
fn only_settings_resolves_the_framework_profile() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (m, _) in LAYERS.iter().flat_map(|l| l.iter()).map(|m| (m, ())) {
        if *m == "settings" || *m == "framework" {
            continue;
        }
        assert!(
            !source_of(&dir, m).contains("framework::resolve("),
            "{m} resolves the framework profile itself; read `Settings::resolved`"
        );
    }
}
