//! The exporter's notes in Russian, as the page asks for them: a spread of queries over all six
//! frameworks comes out with every notice in Russian and every figure of its English sentence,
//! the framework profile's warnings included, and `export_json` changes nothing but the
//! notices' sentences.

use std::collections::BTreeSet;
use tunefit_core::diag::Lang;
use tunefit_core::export::{export, export_in, export_json as core_json, read_export_json};
use tunefit_core::framework::unsupported;
use tunefit_core::query::{Framework, Query};
use tunefit_export::export_json;

/// Queries chosen to reach every note of every framework (models, methods, precisions,
/// sharding, offload, targets…); each runs against all six frameworks.
const QUERIES: &[&str] = &[
    "v=1&model=llama-3.1-8b&method=qlora&gpus=2&tp=2",
    "v=1&model=llama-3.1-8b&method=lora&ckpt=selective&attn=eager&packing=1&compile=1",
    "v=1&model=llama-3.1-8b&method=lora&targets=q,v,gate,embed&gpus=4&shard=zero2&offload=optimizer",
    "v=1&model=llama-3.1-8b&method=full&gpus=4&shard=zero3&offload=all&precision=bf16-true",
    "v=1&model=llama-3.1-8b&method=full&gpus=4&shard=fsdp&offload=optimizer&precision=fp32",
    "v=1&model=llama-3.1-8b&method=full&gpus=4&shard=zero1&offload=all",
    "v=1&model=llama-3.1-8b&method=lora&offload=optimizer&precision=fp16-true&autocast=0&epochs=1.5",
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

fn cyrillic(s: &str) -> bool {
    s.chars().any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap()))
}

/// The runs of digits in `s` (the figures a translation must keep; a decimal point may become
/// a comma, so each side of it is checked on its own).
fn numbers(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty()).collect()
}

#[test]
fn a_spread_of_queries_comes_out_in_russian_with_its_figures() {
    let mut codes = BTreeSet::new();
    let mut sentences = BTreeSet::new();
    for qs in QUERIES {
        let q = Query::parse(qs).unwrap_or_else(|e| panic!("{qs}: {e}"));
        for &fw in Framework::ALL {
            let en = export(&q, fw).unwrap_or_else(|e| panic!("{fw} {qs}: {e}"));
            let ru = export_in(&q, fw, Lang::Ru).unwrap();
            assert_eq!(export_in(&q, fw, Lang::En).unwrap(), en, "{fw} {qs}: English is `export`");
            assert_eq!((ru.framework, &ru.files), (en.framework, &en.files), "{fw} {qs}: only the notices change");
            assert_eq!(
                ru.warnings.iter().map(|w| &w.code).collect::<Vec<_>>(),
                en.warnings.iter().map(|w| &w.code).collect::<Vec<_>>(),
                "{fw} {qs}"
            );
            for (e, r) in en.warnings.iter().zip(&ru.warnings) {
                assert!(cyrillic(&r.message), "{fw} {qs}: {} stayed English: {}", e.code, r.message);
                assert!(!cyrillic(&e.message), "{fw} {qs}: {} has Russian in English: {}", e.code, e.message);
                assert_ne!(r.message, e.message);
                for n in numbers(&e.message) {
                    assert!(r.message.contains(n), "{fw} {qs}: figure {n} lost: {} -> {}", e.message, r.message);
                }
                codes.insert(e.code.clone());
                sentences.insert(e.message.clone());
            }
        }
    }
    // The spread reaches every code of the exporter's notes (35 `export-…` and
    // framework-method) and three more of the profile's, not a handful.
    assert!(codes.len() >= 39, "{} codes: {codes:?}", codes.len());
    assert!(sentences.len() >= 100, "{} distinct sentences", sentences.len());
}

#[test]
fn the_framework_profiles_warnings_come_out_in_russian_too() {
    for (qs, fw) in [
        ("v=1&method=lora&gpus=2", Framework::Unsloth),
        ("v=1&method=prefix", Framework::Torchtune),
        ("v=1&method=qlora&quant=fp4", Framework::Torchtune),
        ("v=1&method=lora&precision=fp32", Framework::Unsloth),
    ] {
        let mut q = Query::parse(qs).unwrap();
        let ru = export_in(&q, fw, Lang::Ru).unwrap();
        q.framework = fw;
        let profile = unsupported(&q);
        assert!(!profile.is_empty(), "{fw} {qs}: the profile warns");
        for w in profile {
            let n =
                ru.warnings.iter().find(|n| n.code == w.code()).unwrap_or_else(|| panic!("{fw} {qs}: {}", w.code()));
            assert_eq!(n.message, w.text(Lang::Ru));
        }
    }
}

#[test]
fn figures_land_in_their_places() {
    let q = Query::parse("v=1&model=llama-3.1-8b&method=qlora&gpus=2&tp=2").unwrap();
    let x = export_in(&q, Framework::Torchtune, Lang::Ru).unwrap();
    let tp = x.warnings.iter().find(|w| w.code == "export-tp").unwrap();
    assert_eq!(
        tp.message,
        "tp=2: тензорного параллелизма в этом экспорте нет; здесь torchtune обучает только с параллелизмом по данным"
    );
    let q = Query::parse("v=1&params=3e9&method=lora").unwrap();
    let x = export_in(&q, Framework::Torchtune, Lang::Ru).unwrap();
    let model = x.warnings.iter().find(|w| w.code == "export-torchtune-model").unwrap();
    assert!(model.message.starts_with("эта своя модель: "), "{}", model.message);
    let placeholder = x.warnings.iter().find(|w| w.code == "export-model-placeholder").unwrap();
    assert!(placeholder.message.contains(tunefit_core::export::PLACEHOLDER), "{}", placeholder.message);
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
            assert!(!r.warnings.is_empty() && r.warnings.iter().all(|w| cyrillic(&w.message)), "{fw} {qs}");
        }
    }
    // Errors are the core's: English as `tunefit export` prints them, a refusal and a bad
    // value in Russian when asked (the same key first), an unknown framework in English.
    for (q, fw) in [("v=1&tp=3", "hf"), ("v=1&nope=1", "hf"), ("v=1", "nope")] {
        assert_eq!(export_json(q, fw, "en"), core_json(q, fw));
        let (en, ru) = (
            read_export_json(&export_json(q, fw, "en")).unwrap_err(),
            read_export_json(&export_json(q, fw, "ru")).unwrap_err(),
        );
        assert_eq!(en.split(':').next(), ru.split(':').next(), "{q}");
        assert_eq!(cyrillic(&ru), fw == "hf", "{q}: {ru}");
    }
}
