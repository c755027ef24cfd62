//! Every preset's computed parameter count equals its published count.
use tunefit_core::arch::Architecture;
use tunefit_core::catalog::{families, preset, presets};

#[test]
fn every_preset_matches_its_published_count() {
    let mut wrong = Vec::new();
    for p in presets() {
        let n = p.arch.param_count();
        if n != p.published {
            wrong.push(format!("{}: computed {n}, published {}", p.id, p.published));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn catalog_has_the_required_presets() {
    assert!(presets().len() >= 30);
    for id in [
        "llama-2-7b",
        "llama-2-13b",
        "llama-2-70b",
        "llama-3.1-8b",
        "llama-3.1-70b",
        "llama-3.1-405b",
        "llama-3.2-1b",
        "llama-3.2-3b",
        "mistral-7b",
        "mixtral-8x7b",
        "qwen2.5-0.5b",
        "qwen2.5-72b",
        "gemma-2-2b",
        "gemma-2-9b",
        "gemma-2-27b",
        "phi-3-mini",
        "tinyllama-1.1b",
        "gpt2",
        "phi-1.5",
        "bert-large-uncased",
    ] {
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

#[test]
fn late_2026_families_are_presets() {
    for id in [
        "qwen3-0.6b",
        "qwen3-8b",
        "qwen3-32b",
        "qwen3-30b-a3b",
        "qwen3-235b-a22b",
        "gemma-3-1b",
        "gemma-3-4b",
        "gemma-3-12b",
        "gemma-3-27b",
        "llama-4-scout",
        "llama-4-maverick",
        "deepseek-v3",
        "deepseek-r1-distill-qwen-7b",
        "gpt-oss-20b",
        "gpt-oss-120b",
        "phi-4",
        "mistral-small-3.1-24b",
        "olmo-2-7b",
        "olmo-2-13b",
        "smollm3-3b",
    ] {
        assert!(preset(id).is_some(), "missing preset {id}");
    }
}

#[test]
fn moe_presets_report_total_and_active_parameters() {
    // Active = what one token passes through, with the input embedding. The model cards'
    // figures: Qwen3 "3.3B activated", Llama 4 "17B active", DeepSeek-V3 "37B activated",
    // gpt-oss 3.61B / 5.13B (OpenAI counts them without the input embedding).
    let act = |id: &str| preset(id).unwrap().arch.active_params();
    assert_eq!(act("qwen3-30b-a3b"), 3_353_032_704);
    // Qwen3-Next: top-10 of 512 experts plus the gated shared expert, both embeddings.
    assert_eq!(act("qwen3-next-80b-a3b"), 3_874_929_408);
    assert_eq!(act("qwen3-235b-a22b"), 22_190_763_520);
    assert_eq!(act("llama-4-scout"), 17_172_894_720);
    assert_eq!(act("llama-4-maverick"), 17_184_691_200);
    assert_eq!(act("deepseek-v3"), 37_552_282_624);
    let oss = |id: &str| {
        let a = &preset(id).unwrap().arch;
        a.active_params() - a.vocab * a.hidden
    };
    assert_eq!(oss("gpt-oss-20b"), 3_608_307_264);
    assert_eq!(oss("gpt-oss-120b"), 5_132_849_472);
    // Dense models: active = total (language model).
    assert_eq!(act("qwen3-8b"), 8_190_735_360);
}

#[test]
fn multimodal_presets_count_their_frozen_vision_tower_apart() {
    let a = &preset("gemma-3-4b").unwrap().arch;
    assert_eq!(a.text_params(), 3_880_263_168);
    assert_eq!(a.layout.vision_params, 416_866_032 + 2_950_272);
    assert_eq!(preset("mistral-small-3.1-24b").unwrap().arch.text_params(), 23_572_403_200);
    assert_eq!(preset("llama-4-scout").unwrap().arch.text_params(), 107_769_861_120);
    assert_eq!(preset("gemma-3-1b").unwrap().arch.layout.vision_params, 0);
}

#[test]
fn tied_checkpoint_that_stores_its_head_twice() {
    // Qwen3-0.6B's safetensors total (751,632,384) holds a copy of the tied embedding as
    // lm_head.weight; loaded, the matrix is one.
    let a = &preset("qwen3-0.6b").unwrap().arch;
    assert!(a.tied);
    assert_eq!(a.param_count() + a.vocab * a.hidden, 751_632_384);
}

#[test]
fn deepseek_latent_attention_shapes() {
    use tunefit_core::query::TargetModule as T;
    let a = &preset("deepseek-v3").unwrap().arch;
    // Per block: q_a 7168·1536 + norm 1536 + q_b 1536·(128·192); kv_a 7168·576 + norm 512 +
    // kv_b 512·(128·256); o 128·128·7168 = 187,107,328.
    assert_eq!(a.modules().attention, 187_107_328);
    // LoRA on "q" covers q_a_proj and q_b_proj: r·(7168 + 1536) + r·(1536 + 24576).
    let s = a.linear(T::Q).unwrap();
    assert_eq!(s.input + s.output, 7168 + 1536 + 1536 + 24576);
    let k = a.linear(T::K).unwrap();
    assert_eq!((k.input, k.output), (7168, 576));
    // The first three blocks are dense: their MLP LoRA is one 18,432-wide linear each.
    let up = a.linear_stack(T::Up);
    assert!(up.iter().any(|g| g.output == 18432 && g.count == 3), "{up:?}");
    assert!(up.iter().any(|g| g.output == 2048 && g.count == 58 * 257), "{up:?}");
}

#[test]
fn every_preset_names_its_repository_and_repository_ids_find_it() {
    use tunefit_core::catalog::by_repo;
    for p in presets() {
        assert!(p.repo.contains('/'), "{} has no repository", p.id);
    }
    assert_eq!(by_repo("Qwen/Qwen3-8B").unwrap().id, "qwen3-8b");
    assert_eq!(by_repo("qwen/qwen3-8b").unwrap().id, "qwen3-8b");
    assert_eq!(by_repo("https://huggingface.co/google/gemma-3-4b-it").unwrap().id, "gemma-3-4b");
    assert_eq!(by_repo("meta-llama/Llama-3.1-8B-Instruct").unwrap().id, "llama-3.1-8b");
    assert!(by_repo("Qwen3-8B").is_none());
    assert!(by_repo("someone/unknown-model").is_none());
}

#[test]
fn qwen3_next_hybrid_blocks() {
    use tunefit_core::query::TargetModule as T;
    let a = &preset("qwen3-next-80b-a3b").unwrap().arch;
    let m = a.modules();
    // Per block (research notes' arithmetic from the modular file): softmax attention
    // 27,263,488; Gated DeltaNet 33,718,464; MoE 1,614,809,088.
    assert_eq!((m.attention, m.linear_attention, m.mlp), (27_263_488, 33_718_464, 1_614_809_088));
    // q, k, v, o adapters exist in the 12 softmax-attention blocks only; q is doubled (gate).
    let q = a.linear_stack(T::Q);
    assert_eq!((q[0].count, q[0].output), (12, 16 * 256 * 2));
}
