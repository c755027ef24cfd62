//! Every preset's computed parameter count equals its published count.
use tunefit_core::arch::Architecture;
use tunefit_core::catalog::{families, preset, presets};

#[test]
fn every_preset_matches_its_published_count() {
    let mut wrong = Vec::new();
    for p in presets() {
        let n = p.arch.param_count();
        if n != p.published { wrong.push(format!("{}: computed {n}, published {}", p.id, p.published)); }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn catalog_has_the_required_presets() {
    assert!(presets().len() >= 30);
    for id in ["llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
        "llama-3.2-1b", "llama-3.2-3b", "mistral-7b", "mixtral-8x7b", "qwen2.5-0.5b", "qwen2.5-72b",
        "gemma-2-2b", "gemma-2-9b", "gemma-2-27b", "phi-3-mini", "tinyllama-1.1b", "gpt2", "phi-1.5",
        "bert-large-uncased"] {
        assert!(preset(id).is_some(), "missing preset {id}");
    }
    let fams: Vec<&str> = families().iter().map(|f| f.0).collect();
    assert!(fams.contains(&"Llama") && fams.contains(&"Gemma"));
}

#[test]
fn gemma2_counts_from_the_brief() {
    assert_eq!(preset("gemma-2-2b").unwrap().arch.param_count(), 2_614_341_888);
    assert_eq!(preset("gemma-2-9b").unwrap().arch.param_count(), 9_241_705_984);
    assert_eq!(preset("gemma-2-27b").unwrap().arch.param_count(), 27_227_128_320);
}

#[test]
fn mixtral_active_parameters_are_about_12_9b() {
    let a = &preset("mixtral-8x7b").unwrap().arch;
    let act = a.active_params() as f64;
    assert!((act - 12.9e9).abs() < 0.1e9, "{act}");
}

#[test]
fn inferred_architecture_is_plausible_and_flagged() {
    for p in [350_000_000u64, 1_000_000_000, 8_000_000_000, 70_000_000_000, 400_000_000_000] {
        let a = Architecture::infer(p);
        assert!(a.inferred);
        let n = a.param_count() as f64;
        assert!((n / p as f64 - 1.0).abs() < 0.01, "{p}: {n}");
        assert!(a.ffn > a.hidden && a.ffn < 6 * a.hidden, "{p}: ffn {} hidden {}", a.ffn, a.hidden);
    }
}
