//! The defaults a person recognises (format v=2) and the meaning v=1 links keep, with the one
//! sentence beside a figure that is large for a reason a setting decides.
use tunefit_core::memory::Phrase;
use tunefit_core::query::{Checkpointing, Format, Framework, Precision};
use tunefit_core::settings::Settings;
use tunefit_core::{evaluate, Query, Report};

const GIB: f64 = (1u64 << 30) as f64;

fn report(s: &str) -> Report {
    evaluate(&Query::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn ckpt(s: &str) -> Checkpointing {
    Settings::resolve(&Query::parse(s).unwrap()).unwrap().resolved.ckpt
}

fn why<'a>(r: &'a Report, term: &str) -> Option<&'a Phrase> {
    r.explanations.iter().find(|e| e.term == term).and_then(|e| e.why.as_ref())
}

#[test]
fn v2_loads_the_checkpoint_in_16_bits_and_checkpoints_under_trl() {
    let q = Query::default();
    assert_eq!((q.format, q.precision), (Format::V2, Precision::Bf16True));
    // TRL's SFTConfig turns checkpointing on for every method, not only QLoRA.
    for m in ["lora", "full", "dora", "qlora"] {
        assert_eq!(ckpt(&format!("v=2&method={m}")), Checkpointing::Full, "{m}");
    }
    // Other profiles keep what their own code defaults to.
    assert_eq!(ckpt("v=2&framework=litgpt&method=lora"), Checkpointing::None);
    assert_eq!(ckpt("v=2&method=lora&ckpt=none"), Checkpointing::None);
}

#[test]
fn v1_links_keep_their_defaults() {
    let q = Query::parse("v=1&method=lora").unwrap();
    assert_eq!(q.precision, Precision::Bf16Mixed);
    assert_eq!(ckpt("v=1&method=lora"), Checkpointing::None);
    assert_eq!(ckpt("v=1"), Checkpointing::Full, "PEFT's QLoRA recipe checkpoints in v=1 too");
    assert_eq!(ckpt("v=1&framework=torchtune&method=lora"), Checkpointing::Full);
    assert_eq!(q.framework, Framework::Hf);
    // The example: Llama 2 7B LoRA was 95.7 GiB by v=1's defaults (fp32 weights under
    // autocast, no checkpointing) and stays that large in a v=1 link; v=2's defaults give what a
    // bf16 checkpoint under TRL's SFT needs.
    let old = report("v=1&model=llama-2-7b&method=lora").memory.device as f64 / GIB;
    let new = report("v=2&model=llama-2-7b&method=lora").memory.device as f64 / GIB;
    assert!(old > 85.0 && old < 100.0, "{old}");
    assert!(new > 15.0 && new < 30.0, "{new}");
    // A v=1 state written by the page stays a v=1 link, so it keeps meaning the same run.
    assert_eq!(report("v=1&model=llama-2-7b&method=lora").query, "v=1&model=llama-2-7b&method=lora");
}

#[test]
fn a_large_figure_says_why_and_the_sentence_goes_when_the_cause_does() {
    let r = report("v=1&method=lora");
    assert!(matches!(why(&r, "weights"), Some(Phrase::WhyFp32Weights { precision: Precision::Bf16Mixed, .. })));
    assert!(matches!(why(&r, "activations"), Some(Phrase::WhyNoCheckpointing { layers: 32 })));
    let text = why(&r, "weights").unwrap().text(tunefit_core::diag::Lang::En);
    assert!(text.contains("8.03 billion") && text.contains("precision=bf16-true"), "{text}");
    // 16-bit weights and checkpointing: neither sentence.
    let r = report("v=2&method=lora");
    assert_eq!((why(&r, "weights"), why(&r, "activations")), (None, None));
    // Llama 3.1's 128,256-token vocabulary at 8,192 tokens a micro-batch.
    assert!(matches!(
        why(&r, "logits"),
        Some(Phrase::WhyLogits { vocab: 128_256, tokens: 8192, standard_loss: true, .. })
    ));
    // Chunked loss makes the logits small: no sentence.
    assert_eq!(why(&report("v=2&method=lora&loss=chunked"), "logits"), None);
    // Full fine-tuning's AdamW states.
    let r = report("v=2&method=full");
    let Some(Phrase::WhyOptimizerStates { trainable, trains_base: true, full_width_states: true, .. }) =
        why(&r, "optimizer")
    else {
        panic!("{:?}", why(&r, "optimizer"))
    };
    assert_eq!(*trainable, r.model.trainable_params);
    // 8-bit states: the sentence, where there is one, never suggests what is already set.
    let r = report("v=2&method=full&optim=adamw-8bit&batch=1&seq=512");
    let p = why(&r, "optimizer").expect("8-bit states of a full fine-tune at batch 1 are still a quarter");
    assert!(matches!(p, Phrase::WhyOptimizerStates { full_width_states: false, trains_base: true, .. }), "{p:?}");
    assert!(!p.text(tunefit_core::diag::Lang::En).contains("optim=adamw-8bit"));
}

#[test]
fn the_why_sentences_claim_only_what_the_settings_do() {
    // ZeRO and FSDP keep 16-bit parameters under a mixed precision: no fp32-weights sentence.
    let r = report("v=2&method=full&precision=bf16-mixed&gpus=8&shard=zero2&batch=1&seq=512");
    assert_eq!(why(&r, "weights"), None);
    // fp16-mixed is told of fp16-true, not bf16-true (a GPU without bf16).
    let r = report("v=1&method=lora&precision=fp16-mixed");
    let w = why(&r, "weights").expect("fp32 frozen weights").text(tunefit_core::diag::Lang::En);
    assert!(w.contains("precision=fp16-true") && !w.contains("bf16-true"), "{w}");
    // Unsloth's fused loss and litgpt's model-dtype logits do not change with loss=chunked.
    for fw in ["unsloth", "litgpt"] {
        let r = report(&format!("v=2&model=qwen3-0.6b&method=lora&framework={fw}&loss=standard&batch=8&seq=4096"));
        if let Some(Phrase::WhyLogits { standard_loss, fp32_copy, .. }) = why(&r, "logits") {
            assert!(!standard_loss && !fp32_copy, "{fw}");
        }
    }
    // Chunked and compiled: the chunks are saved in 16 bits.
    let r = report("v=2&model=qwen3-0.6b&method=lora&framework=torchtune&compile=1&batch=16&seq=4096");
    if let Some(Phrase::WhyLogits { fp32_copy, standard_loss, .. }) = why(&r, "logits") {
        assert!(!fp32_copy && !standard_loss);
    }
}

fn autocast(s: &str) -> bool {
    Settings::resolve(&Query::parse(s).unwrap()).unwrap().resolved.autocast_16bit
}

#[test]
fn the_trainers_bf16_flag_runs_autocast_over_a_bf16_model_where_its_exports_set_it() {
    // The Trainer's bf16=True wraps the forward in autocast (accelerate's native_amp).
    for fw in ["hf", "axolotl", "llama-factory", "unsloth"] {
        assert!(autocast(&format!("v=2&method=lora&framework={fw}")), "{fw}");
    }
    // fp16: the T4 recipe, fp32 adapters over a frozen fp16 base, whose gradients the scaler
    // unscales.
    assert!(autocast("v=2&method=lora&precision=fp16-true"));
    // Not in torchtune or litgpt, not under DeepSpeed (no native_amp, even when asked) or FSDP
    // (the exports clear the flag), not where the Trainer's fp16 scaler would meet fp16
    // gradients, and never outside `*-true`.
    for q in [
        "v=2&method=lora&framework=torchtune",
        "v=2&method=lora&framework=litgpt",
        "v=2&method=lora&gpus=2&shard=zero3",
        "v=2&method=lora&gpus=2&shard=zero3&autocast=1",
        "v=2&method=lora&gpus=2&shard=fsdp",
        "v=2&method=full&precision=fp16-true",
        "v=2&method=lora&precision=fp16-true&adapter_dtype=bf16",
        "v=2&method=lora&precision=fp16-true&targets=all,embed",
        "v=2&method=lora&precision=fp16-true&framework=axolotl",
        "v=2&method=lora&precision=fp16-true&framework=llama-factory",
        "v=2&model=vit-l&method=lora&precision=fp16-true",
        "v=2&model=sam-vit-base&method=lora&precision=fp16-true",
        "v=2&method=lora&precision=bf16-mixed&autocast=1",
        "v=2&method=lora&precision=fp32&autocast=1",
        "v=2&method=lora&autocast=0",
    ] {
        assert!(!autocast(q), "{q}");
    }
    assert!(autocast("v=2&method=lora&precision=fp16-true&framework=unsloth"));
    assert!(autocast("v=2&method=lora&framework=litgpt&autocast=1"));
    assert!(autocast("v=2&method=lora&gpus=2&shard=fsdp&autocast=1"));
}

#[test]
fn autocast_over_a_bf16_model_shrinks_what_peft_adapters_keep_and_nothing_else() {
    let saved = |s: &str| report(s).memory.saved_for_backward as f64;
    // Llama 3.1 8B, LoRA on every linear, no checkpointing: each adapted linear keeps a 16-bit
    // cast of its input instead of PEFT's fp32 copy, plus its adapters' 16-bit weights.
    let base = "v=2&model=llama-3.1-8b&method=lora&batch=4&seq=2048&ckpt=none";
    let (on, off) = (saved(&format!("{base}&autocast=1")), saved(&format!("{base}&autocast=0")));
    assert!(off - on > 15.0 * GIB && off - on < 22.0 * GIB, "{} GiB", (off - on) / GIB);
    // Nothing to cast in a full fine-tune of a bf16 model, nor under bf16-mixed, where
    // autocast always runs, nor for torchtune's bf16 adapters.
    // Under FSDP the flag makes the units compute with 16-bit copies of every parameter, the
    // adapters' too: their activations are 16-bit adapters' (no cast, no weight copies).
    let fsdp = "v=2&model=llama-3.1-8b&method=lora&gpus=2&shard=fsdp&batch=4&seq=2048&ckpt=none";
    assert_eq!(saved(&format!("{fsdp}&autocast=1")), saved(&format!("{fsdp}&adapter_dtype=bf16")));
    assert!(saved(&format!("{fsdp}&autocast=1")) < saved(&format!("{base}&autocast=1")));
    for q in [
        "v=2&model=llama-3.1-8b&method=full&batch=4&seq=2048&ckpt=none",
        "v=2&model=llama-3.1-8b&method=lora&precision=bf16-mixed&batch=4&seq=2048&ckpt=none",
        "v=2&model=llama-3.1-8b&method=lora&framework=torchtune&batch=4&seq=2048&ckpt=none",
    ] {
        assert_eq!(saved(&format!("{q}&autocast=1")), saved(&format!("{q}&autocast=0")), "{q}");
    }
}
