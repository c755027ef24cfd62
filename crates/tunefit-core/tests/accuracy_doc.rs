//! Keeps the accuracy table in docs/accuracy.md true: regenerates it from the model and the
//! transcribed cases and fails if the committed table differs. Rewrite it with
//! `TUNEFIT_WRITE_DOCS=1 cargo test -p tunefit-core --test accuracy_doc`.
mod common;
use common::{rows, Row};
use tunefit_core::{evaluate, Query};

const START: &str = "<!-- memory-table:start -->";
const END: &str = "<!-- memory-table:end -->";

/// What the existing calculators (shared notes, anchors.md) would print, in bytes.
fn anchors(r: &Row) -> [Option<f64>; 3] {
    let q = Query::parse(&r.query).unwrap();
    let Ok((a, _)) = tunefit_core::settings::architecture(&q) else { return [None; 3] };
    let p = a.param_count() as f64;
    let fp32 = q.precision == tunefit_core::query::Precision::Fp32;
    let dtype = if fp32 { 4.0 } else { 2.0 };
    let size = p * dtype;
    let full = q.method == tunefit_core::query::Method::Full;
    // accelerate estimate-memory: training with Adam = 4 × model size (full fine-tune only).
    let accelerate = full.then_some(4.0 * size);
    // can-it-run-llm: full Adam 4 × size; LoRA 1.2·(size + trainable·8 B); QLoRA size at 4 bits.
    let trainable = r.report.model.trainable_params as f64;
    let canrun = match q.method {
        tunefit_core::query::Method::Full => Some(4.0 * size),
        tunefit_core::query::Method::Lora => Some(1.2 * (size + trainable * 8.0)),
        tunefit_core::query::Method::Qlora => Some(1.2 * (p * 0.5 + trainable * 8.0)),
        _ => None,
    };
    // furiousteabag/vram-calculator: full fine-tune, Adam; 18 B/param mixed (16 fp32);
    // activations per layer 2bs(6h+2kd+2I) + 2bsh + 5abs²; logits 4·b·s·V·2; 1000 MiB CUDA.
    let asmirnov = full.then(|| {
        let (b, s) = (q.batch as f64, q.seq as f64);
        let (h, kd, i, heads, l, v) =
            (a.hidden as f64, a.kv_dim() as f64, a.ffn as f64, a.heads as f64, a.layers as f64, a.vocab as f64);
        let states = p * if fp32 { 16.0 } else { 18.0 };
        let act = l * (2.0 * b * s * (6.0 * h + 2.0 * kd + 2.0 * i) + 2.0 * b * s * h + 5.0 * heads * b * s * s);
        states + act + 4.0 * b * s * v * 2.0 + 1000.0 * 1048576.0
    });
    [accelerate, canrun, asmirnov]
}

fn gib(x: f64) -> String {
    format!("{:.2}", x / 1073741824.0)
}
fn pct(pred: f64, meas: f64) -> String {
    format!("{:+.1}%", (pred / meas - 1.0) * 100.0)
}

fn table() -> String {
    let mut out = String::new();
    out += "| case | configuration (query) | metric | measured (GiB) | tunefit (GiB) | error | with `framework=hf` instead | accelerate | can-it-run | vram-calculator |\n";
    out += "|---|---|---|---|---|---|---|---|---|---|\n";
    let mut errs = Vec::new();
    let mut signed = Vec::new();
    for r in rows() {
        let hf = if r.query.contains("framework=") && !r.query.contains("framework=hf") {
            let q = r.query.split('&').filter(|kv| !kv.starts_with("framework=")).collect::<Vec<_>>().join("&");
            let rep = evaluate(&Query::parse(&q).unwrap()).unwrap();
            let v = match r.metric.as_str() {
                "allocated" => rep.memory.allocated,
                "reserved" => rep.memory.reserved,
                _ => rep.memory.device,
            } as f64;
            pct(v, r.measured)
        } else {
            "(is hf)".into()
        };
        let an = anchors(&r).map(|x| x.map_or("—".into(), |v| format!("{} ({})", gib(v), pct(v, r.measured))));
        let note = if r.expressible { String::new() } else { " (not counted: see \"Where the model misses\")".into() };
        out += &format!(
            "| {}{note} | `{}` | {} | {} ({} {}) | {} | {} | {} | {} | {} | {} |\n",
            r.id,
            r.query,
            r.metric,
            gib(r.measured),
            r.value,
            r.unit,
            gib(r.predicted),
            pct(r.predicted, r.measured),
            hf,
            an[0],
            an[1],
            an[2]
        );
        if r.expressible {
            errs.push((r.predicted / r.measured - 1.0).abs());
            signed.push(r.predicted / r.measured - 1.0);
        }
    }
    errs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mean_signed = signed.iter().sum::<f64>() / signed.len().max(1) as f64 * 100.0;
    let under = signed.iter().filter(|e| **e < 0.0).count();
    out += &format!("\nCounted cases: {}. Median |error| {:.1}%, largest {:.1}%, cases above 20%: {}; mean signed error {:+.1}%, {} of {} under-predicted.\n",
        errs.len(), errs[errs.len() / 2] * 100.0, errs.last().unwrap() * 100.0, errs.iter().filter(|e| **e > 0.2).count(), mean_signed, under, signed.len());
    out
}

#[test]
fn accuracy_table_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/accuracy.md");
    let doc = std::fs::read_to_string(path).expect("docs/accuracy.md");
    let t = table();
    let (Some(a), Some(b)) = (doc.find(START), doc.find(END)) else {
        panic!("docs/accuracy.md lacks the table markers")
    };
    let current = &doc[a + START.len()..b];
    let want = format!("\n{t}");
    if std::env::var("TUNEFIT_WRITE_DOCS").is_ok() {
        let new = format!("{}{START}{want}{}", &doc[..a], &doc[b..]);
        std::fs::write(path, new).unwrap();
    } else {
        assert_eq!(current, want, "docs/accuracy.md is stale: rerun with TUNEFIT_WRITE_DOCS=1");
    }
}
