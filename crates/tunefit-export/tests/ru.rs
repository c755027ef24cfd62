//! The exporter's notes in Russian: every code crates/tunefit-core/src/export/ can emit has a
//! Russian row, a spread of queries over all six frameworks comes out in Russian with its
//! figures, every row matches a real sentence (no dead or mistyped template), and
//! `export_json` changes nothing but the warnings' messages.

use std::collections::BTreeSet;
use tunefit_core::export::{export, export_json as core_json, read_export_json};
use tunefit_core::framework::unsupported;
use tunefit_core::query::{Framework, Query};
use tunefit_export::{export_json, ru::EXPORT_RU, translated};

/// The exporter's sources, every file of crates/tunefit-core/src/export/ (read when the test
/// runs, so a file added there is scanned too).
fn export_sources() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tunefit-core/src/export");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no sources in {}", dir.display());
    files.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
}

/// Every `"export-…"` code literal in the exporter's sources (the codes it can emit).
fn export_codes() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let sources = export_sources();
    let mut rest = sources.as_str();
    while let Some(i) = rest.find("\"export-") {
        let tail = &rest[i + 1..];
        let end = tail.find('"').unwrap();
        out.insert(tail[..end].to_string());
        rest = &tail[end..];
    }
    out
}

/// Queries chosen to reach every note of every framework (models, methods, precisions,
/// sharding, offload, targets…); each runs against all six frameworks.
const QUERIES: &[&str] = &[
    "v=1&model=llama-3.1-8b&method=qlora&gpus=2&tp=2",
    "v=1&model=llama-3.1-8b&method=lora&ckpt=selective&attn=eager&packing=1&compile=1",
    "v=1&model=llama-3.1-8b&method=lora&targets=q,v,gate,embed&gpus=4&shard=zero2&offload=optimizer",
    "v=1&model=llama-3.1-8b&method=full&gpus=4&shard=zero3&offload=all&precision=bf16-true",
    "v=1&model=llama-3.1-8b&method=full&gpus=4&shard=fsdp&offload=optimizer&precision=fp32",
    "v=1&model=llama-3.1-8b&method=full&gpus=4&shard=zero1&offload=all",
    "v=1&model=llama-3.1-8b&method=lora&offload=optimizer&precision=fp16-true&epochs=1.5",
    "v=1&model=llama-3.1-8b&method=lora&gpus=2&ckpt=none&precision=bf16-mixed",
    "v=1&model=llama-3.1-8b&method=qlora&quant=fp4&dq=0&optim=adamw-8bit&precision=bf16-mixed",
    "v=1&model=llama-3.1-8b&method=qlora&gpus=2&optim=adamw-8bit",
    "v=1&model=llama-3.1-8b&method=dora",
    "v=1&model=llama-3.1-8b&method=freeze",
    "v=1&model=llama-3.1-8b&method=prefix&rank=16",
    "v=1&model=llama-3.1-8b&method=prompt",
    "v=1&model=llama-3.1-8b&method=adapter&bottleneck=48",
    "v=1&model=phi-3-mini&method=lora&targets=q,v,gate",
    "v=1&model=gpt2&method=lora&targets=q,v&seq=512",
    "v=1&model=bert-base-uncased&method=lora&targets=q,v,down&seq=512",
    "v=1&model=gemma-2b&method=lora&targets=q,v,lm_head&lora_dropout=0.1",
    "v=1&model=gemma-2b&method=full&gpus=2",
    "v=1&model=qwen2.5-14b&method=full",
    "v=1&model=qwen2.5-72b&method=qlora",
    "v=1&params=3e9&method=lora",
    "v=1&layers=8&hidden=1024&heads=8&ffn=4096&vocab=32000&method=lora",
    "v=1&model=qwen3-8b&method=full&ckpt=op&ckpt_every=2&optim_in_bwd=1&optim=adamw-fp8-ao&loss=fused-linear",
    "v=1&model=qwen3-8b&method=full&optim=galore-adamw&galore_rank=256",
];

fn exports() -> Vec<(String, Framework, tunefit_core::export::ConfigExport)> {
    let mut out = Vec::new();
    for qs in QUERIES {
        let q = Query::parse(qs).unwrap_or_else(|e| panic!("{qs}: {e}"));
        for &fw in Framework::ALL {
            match export(&q, fw) {
                Ok(x) => out.push((qs.to_string(), fw, x)),
                Err(e) => panic!("{fw} {qs}: {e}"),
            }
        }
    }
    out
}

fn cyrillic(s: &str) -> bool {
    s.chars().any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap()))
}

/// The runs of digits in `s` (the figures that must survive translation).
fn numbers(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty()).collect()
}

#[test]
fn every_export_code_has_a_russian_row() {
    let codes = export_codes();
    assert!(codes.len() >= 25, "the source scan found too few codes: {codes:?}");
    let missing: Vec<_> = codes.iter().filter(|c| !EXPORT_RU.iter().any(|(r, _, _)| r == c)).collect();
    assert!(missing.is_empty(), "export codes without a Russian row: {missing:?}");
    for (code, en, ru) in EXPORT_RU {
        assert!(cyrillic(ru), "{code}: the Russian template has no Russian: {ru}");
        let slots = en.matches("{}").count();
        for i in 0..slots {
            assert!(ru.contains(&format!("{{{i}}}")), "{code}: figure {i} is not placed in: {ru}");
        }
        assert!(!ru.contains(&format!("{{{slots}}}")), "{code}: a figure the English does not have: {ru}");
    }
}

#[test]
fn a_spread_of_queries_comes_out_in_russian_with_its_figures() {
    let mut hit = vec![false; EXPORT_RU.len()];
    let mut seen = BTreeSet::new();
    for (qs, fw, x) in exports() {
        let mut q = Query::parse(&qs).unwrap();
        q.framework = fw;
        let profile = unsupported(&q);
        let ru = translated(x.clone());
        assert_eq!(ru.files, x.files, "{fw} {qs}: only the warnings change");
        assert_eq!(ru.warnings.len(), x.warnings.len());
        for (en, ru) in x.warnings.iter().zip(&ru.warnings) {
            assert_eq!(en.code, ru.code);
            if profile.iter().any(|w| w.code() == en.code && w.message() == en.message) {
                // The framework profile's own warning: the page translates it (src/i18n.rs).
                assert_eq!(ru.message, en.message);
                continue;
            }
            seen.insert(en.code.clone());
            assert!(cyrillic(&ru.message), "{fw} {qs}: {} stayed English: {}", en.code, en.message);
            assert_ne!(ru.message, en.message);
            for n in numbers(&en.message) {
                assert!(ru.message.contains(n), "{fw} {qs}: figure {n} lost: {} -> {}", en.message, ru.message);
            }
            let row = EXPORT_RU
                .iter()
                .position(|(c, t, _)| *c == en.code && tunefit_core::i18n_template::figures(t, &en.message).is_some())
                .unwrap();
            hit[row] = true;
        }
    }
    let unhit: Vec<_> = EXPORT_RU.iter().zip(&hit).filter(|(_, h)| !**h).map(|(r, _)| (r.0, r.1)).collect();
    assert!(unhit.is_empty(), "rows no query reached (dead or mistyped templates): {unhit:#?}");
    let unseen: Vec<_> = export_codes().into_iter().filter(|c| !seen.contains(c)).collect();
    assert!(unseen.is_empty(), "codes the spread never produced: {unseen:?}");
}

#[test]
fn figures_land_in_their_places() {
    let tr = |code: &str, m: &str| tunefit_export::ru::message(code, m).unwrap();
    let q = Query::parse("v=1&model=llama-3.1-8b&method=qlora&gpus=2&tp=2").unwrap();
    let x = translated(export(&q, Framework::Torchtune).unwrap());
    let tp = x.warnings.iter().find(|w| w.code == "export-tp").unwrap();
    assert_eq!(
        tp.message,
        "tp=2: тензорного параллелизма в этом экспорте нет; здесь torchtune обучает только с параллелизмом по данным"
    );
    assert_eq!(
        tr("export-method", "method=prefix: litgpt has no prefix tuning; the command runs LoRA at rank 16"),
        "method=prefix: в litgpt нет prefix-тюнинга; команда запускает LoRA ранга 16"
    );
    assert_eq!(tr("export-targets-fused", "targets: this model fuses q, k and v into one c_attn linear; LoRA on c_attn adapts all of them (more trainable parameters than estimated)"),
        "targets: эта модель объединяет q, k и v в один линейный слой c_attn; LoRA на c_attn адаптирует их все (обучаемых параметров больше, чем в оценке)");
    assert!(tr("export-torchtune-model", "this custom model: torchtune ships no builder tunefit knows; the export names the Llama 3.1 8B builder as a template — replace model._component_ and the checkpointer").starts_with("эта своя модель: "));
    // A sentence the core changed, or a code with no row, stays English (None).
    assert_eq!(tunefit_export::ru::message("export-tp", "tp=2: something else entirely"), None);
    assert_eq!(
        tunefit_export::ru::message("export-nope", "packing=1: litgpt has no sequence packing; batches are padded"),
        None
    );
}

#[test]
fn export_json_in_russian_changes_only_the_warnings() {
    for qs in ["v=1&model=llama-3.1-8b&method=dora&gpus=2&tp=2&offload=optimizer", "v=1&params=3e9&method=prefix"] {
        for &fw in Framework::ALL {
            let en = core_json(qs, fw.as_str());
            assert_eq!(export_json(qs, fw.as_str(), "en"), en);
            assert_eq!(export_json(qs, fw.as_str(), "xx"), en, "an unknown language is English");
            let (e, r) =
                (read_export_json(&en).unwrap(), read_export_json(&export_json(qs, fw.as_str(), "ru")).unwrap());
            assert_eq!((e.framework, &e.files), (r.framework, &r.files));
            assert_eq!(
                e.warnings.iter().map(|w| &w.code).collect::<Vec<_>>(),
                r.warnings.iter().map(|w| &w.code).collect::<Vec<_>>()
            );
            assert!(r.warnings.iter().any(|w| cyrillic(&w.message)), "{fw} {qs}: no Russian warning");
        }
    }
    // Errors are the core's, in any language.
    for (q, fw) in [("v=1&tp=3", "hf"), ("v=1&nope=1", "hf"), ("v=1", "nope")] {
        assert_eq!(export_json(q, fw, "ru"), core_json(q, fw));
        assert!(read_export_json(&export_json(q, fw, "ru")).is_err());
    }
}
