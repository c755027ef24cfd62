//! Vision-language models: what their images cost (`images`, `image_res`, `tower`,
//! `tower_quant`; docs/memory-model.md "Vision-language models").
//!
//! The tower's saved activations are held to the bytes autograd really keeps, measured by
//! tools/calibrate/vision_probe.py (data/calibration/vision-saved.json): each record's tower,
//! every block plus what lies outside them, within 2%. Trainable counts are the ones Unsloth's
//! notebooks print for `finetune_vision_layers=True`.
use serde_json::Value;
use tunefit_core::diag::{Error, Refusal, Warning};
use tunefit_core::{evaluate, Query};

fn report(q: &str) -> tunefit_core::Report {
    evaluate(&Query::parse(q).unwrap()).unwrap_or_else(|e| panic!("{q}: {e:?}"))
}

fn refusal(q: &str) -> Refusal {
    match evaluate(&Query::parse(q).unwrap()) {
        Err(Error::Refused(r)) => r,
        other => panic!("{q}: expected a refusal, got {:?}", other.map(|r| r.memory.device)),
    }
}

fn tower_of(model: &str) -> &'static tunefit_core::arch::Tower {
    tunefit_core::catalog::presets().iter().find(|p| p.id == model).unwrap().arch.layout.tower
}

fn tower_block_layers(model: &str) -> f64 {
    let p = tunefit_core::catalog::presets().iter().find(|p| p.id == model).unwrap();
    p.arch.layout.tower.layers as f64
}

#[test]
fn a_trained_towers_saved_activations_match_the_probe_within_2_percent() {
    let path = format!("{}/../../data/calibration/vision-saved.json", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let records = doc["records"].as_array().unwrap();
    assert_eq!(records.len(), 12, "four towers × full, lora, frozen");
    for rec in records {
        let (model, training, side) =
            (rec["model"].as_str().unwrap(), rec["training"].as_str().unwrap(), rec["side"].as_u64().unwrap());
        // Qwen3-VL's DeepStack mergers, measured one apart, times the preset's.
        let deepstack = rec["per_deepstack"].as_f64().unwrap_or(0.0) * tower_of(model).deepstack as f64;
        let measured = tower_block_layers(model) * rec["per_block"].as_f64().unwrap()
            + rec["outside"].as_f64().unwrap()
            + deepstack;
        // The probe's PEFT adapters are fp32 (PEFT's default `autocast_adapter_dtype`), its
        // model bf16 without autocast (`autocast=0`).
        let q = |tower: &str| {
            format!(
                "model={model}&method=lora&precision=bf16-true&autocast=0&images=1&image_res={side}&tower={tower}&ckpt=none&batch=1&seq=2048&framework=hf"
            )
        };
        let saved = |q: &str| report(q).memory.saved_for_backward as f64;
        // Against the same run without images: a frozen tower must add exactly nothing.
        let text = saved(&q("frozen").replace("&images=1", "&images=0"));
        let tower = saved(&q(training)) - text;
        if measured == 0.0 {
            assert_eq!(tower, 0.0, "{model} {training}: a frozen tower keeps nothing");
        } else {
            let err = tower / measured - 1.0;
            assert!(err.abs() <= 0.02, "{model} {training}: {tower} vs probe {measured} ({:+.2}%)", 100.0 * err);
        }
    }
}

#[test]
fn tower_lora_trains_the_counts_unsloth_prints() {
    // unslothai/notebooks nb/Qwen2.5_VL_(7B)-Vision.ipynb, Qwen2_VL_(7B)-Vision.ipynb,
    // Qwen3_VL_(8B)-Vision.ipynb and Gemma3_(4B)-Vision.ipynb @8081c7e4: r=16, vision and
    // language layers, attention and MLP.
    for (model, printed) in [
        ("qwen2.5-vl-7b", 51_521_536),
        ("qwen2-vl-7b", 50_855_936),
        ("qwen3-vl-8b", 51_346_944),
        ("gemma-3-4b", 38_497_792),
    ] {
        let r =
            report(&format!("model={model}&method=qlora&rank=16&targets=all&images=1&tower=lora&framework=unsloth"));
        assert_eq!(r.model.trainable_params, printed, "{model}");
    }
    // Language layers only (the GRPO notebooks print these): the tower adds nothing.
    let r = report("model=qwen2.5-vl-7b&method=qlora&rank=16&targets=all");
    assert_eq!(r.model.trainable_params, 40_370_176);
}

#[test]
fn a_fully_trained_tower_trains_its_parameters_in_full() {
    let text = report("model=qwen2.5-vl-7b&method=full&precision=bf16-true&optim=adamw&images=1");
    let both = report("model=qwen2.5-vl-7b&method=full&precision=bf16-true&optim=adamw&images=1&tower=full");
    // The page shows it as trained, not as a frozen tower beside the count.
    assert_eq!(both.model.frozen_vision_params, 0);
    assert_eq!(text.model.frozen_vision_params, 676_550_144);
    assert_eq!(both.model.trainable_params - text.model.trainable_params, 676_550_144);
    // AdamW's two states per tower parameter, bf16 under bf16-true.
    assert!(both.memory.optimizer - text.memory.optimizer >= 676_550_144 * 4);
    assert!(both.memory.gradients - text.memory.gradients >= 676_550_144 * 2);
}

#[test]
fn images_add_tower_activations_only_when_the_tower_trains() {
    let base = "model=qwen2.5-vl-7b&method=lora&precision=bf16-true&batch=2&seq=8192&ckpt=full&gpu=h100-sxm";
    let text = report(base).memory.activations;
    let frozen = report(&format!("{base}&images=2&image_res=1024")).memory.activations;
    let lora = report(&format!("{base}&images=2&image_res=1024&tower=lora")).memory.activations;
    let bigger = report(&format!("{base}&images=2&image_res=1400&tower=lora")).memory.activations;
    assert_eq!(frozen, text, "a frozen tower keeps nothing for backward");
    assert!(lora > frozen, "a trained tower's checkpointed blocks keep their inputs");
    assert!(bigger > lora, "more patches, more kept");
}

#[test]
fn the_tower_adds_time_in_proportion_to_its_patches() {
    let base = "model=qwen2.5-vl-7b&method=lora&precision=bf16-true&batch=2&seq=4096&gpu=h100-sxm";
    let step = |q: &str| report(q).time.as_ref().expect("time").step_s;
    let text = step(base);
    let frozen = step(&format!("{base}&images=2&image_res=1024"));
    let trained = step(&format!("{base}&images=2&image_res=1024&tower=lora"));
    assert!(frozen > text, "the tower's forward runs on every image");
    assert!(trained > frozen, "a trained tower runs its backward too");
    // Two 1024² images: 2·5,476 patches through a 0.63B-parameter tower's forward, about 2.3%
    // of the language model's 6·7.6B·8192 for a LoRA step: the step grows by less than 10%.
    assert!(frozen < text * 1.10, "{frozen} vs {text}");
}

#[test]
fn qlora_quantizes_the_towers_linears_where_the_framework_does() {
    let q = "model=qwen2.5-vl-7b&method=qlora&precision=bf16-true";
    let hf = report(q).memory.weights;
    let kept = report(&format!("{q}&tower_quant=0")).memory.weights;
    let unsloth = report(&format!("{q}&framework=unsloth")).memory.weights;
    let unsloth_plain = report(&format!("{q}&framework=unsloth&tower_quant=1")).memory.weights;
    // The tower's and merger's linears: 630.5M + 44.6M parameters from 2 bytes to ~0.53.
    let moved = (kept - hf) as f64;
    assert!((0.9e9..1.1e9).contains(&moved), "{moved}");
    assert!(unsloth > unsloth_plain, "Unsloth's dynamic checkpoints keep the tower in 16 bits");
    // Not a QLoRA run: nothing quantized.
    assert_eq!(
        report("model=qwen2.5-vl-7b&method=lora").memory.weights,
        report("model=qwen2.5-vl-7b&method=lora&tower_quant=1").memory.weights
    );
}

#[test]
fn visual_tokens_are_counted_per_tower_and_must_fit_in_seq() {
    let tokens = |q: &str| {
        report(q)
            .warnings
            .iter()
            .find_map(|w| match w {
                Warning::VisionImages { tokens, patches, .. } => Some((*patches, *tokens)),
                _ => None,
            })
            .expect("the images are said")
    };
    // Qwen: each side to a multiple of 28 (smart_resize), 14-px patches, 2×2 per token.
    assert_eq!(tokens("model=qwen2.5-vl-7b&images=1&image_res=1024x768"), (74 * 54, 999));
    assert_eq!(tokens("model=qwen2.5-vl-7b&images=1&image_res=308x56"), (22 * 4, 22));
    // The default: LLaMA-Factory's 768² cap → 756² (27·28).
    assert_eq!(tokens("model=qwen2-vl-7b&images=1"), (54 * 54, 729));
    // Gemma 3: every image at 896², 4,096 patches pooled to 256 tokens.
    assert_eq!(tokens("model=gemma-3-4b&images=1&image_res=4000x3000"), (4096, 256));
    match refusal("model=qwen2.5-vl-7b&images=3&seq=2048") {
        Refusal::VisualTokensOverSeq { images: 3, per_image: 729, seq: 2048 } => {}
        r => panic!("{r:?}"),
    }
    assert_eq!(refusal("model=qwen2.5-vl-7b&images=3&seq=2048").key(), "seq");
}

#[test]
fn images_need_a_tower_this_calculator_describes() {
    assert!(matches!(refusal("model=llama-3.1-8b&images=1"), Refusal::NoVisionTower { vision: false }));
    assert!(matches!(refusal("model=llama-3.1-8b&tower=lora"), Refusal::NoVisionTower { vision: false }));
    // Llama 4's tower is known by its size only.
    assert!(matches!(refusal("model=llama-4-scout&images=1"), Refusal::NoVisionTower { vision: true }));
    // vision_params=0: the language model of a multimodal preset alone.
    assert!(matches!(
        refusal("model=qwen2.5-vl-7b&vision_params=0&images=1"),
        Refusal::NoVisionTower { vision: false }
    ));
    assert_eq!(refusal("model=llama-3.1-8b&images=1").key(), "images");
}

#[test]
fn the_towers_own_pass_can_be_the_peak_and_is_said() {
    // Gemma 3's SigLIP over 4,096 patches with eager attention: 16 heads × 4096² scores, an
    // fp32 softmax and its bf16 copy per block (1.6 GB), while the language model's
    // activations do not exist yet (frozen: its forward) or any more (trained: its backward).
    let base =
        "model=gemma-3-4b&method=lora&precision=bf16-true&batch=1&seq=768&images=3&ckpt=full&loss=chunked&gpu=l4";
    let sdpa = report(&format!("{base}&attn=sdpa"));
    let eager = report(&format!("{base}&attn=eager"));
    // SigLIP attends over the batch of images at once: three images' scores (their 3 × 256
    // soft tokens fill the 768-token sequence).
    let scores = 3.0 * 16.0 * 4096.0 * 4096.0 * 6.0;
    assert!(eager.memory.allocated as f64 >= eager.memory.weights as f64 + scores, "{:?}", eager.memory);
    // SDPA keeps no scores: its peak is the language model's loss, well below eager's.
    assert!(!sdpa.memory.peak_moment.expect("a moment").is_encoder_pass(), "{:?}", sdpa.memory);
    assert!((eager.memory.allocated - sdpa.memory.allocated) as f64 >= 0.4 * scores, "{:?}", sdpa.memory);
    let why =
        |r: &tunefit_core::Report| r.explanations.iter().find(|e| e.term == "overhead").and_then(|e| e.why.clone());
    assert!(
        matches!(
            why(&eager),
            Some(tunefit_core::memory::Phrase::WhyVisionTower {
                images: 3,
                patches: 4096,
                resized: true,
                eager: true,
                trains: false
            })
        ),
        "{:?}",
        why(&eager)
    );
    assert_eq!(why(&sdpa), None);
    // The peak's moment is the tower's, in words.
    let named = tunefit_core::report::with_peak_phase(eager.clone());
    assert_eq!(named.memory.peak_phase.as_deref(), Some("forward of the vision tower"));
    // Trained, its backward holds a rebuilt block and that block's gradients on top.
    let trained = report(&format!("{base}&attn=eager&tower=lora"));
    assert!(trained.memory.allocated > eager.memory.allocated);
}

#[test]
fn the_solvers_and_fixes_keep_the_sequence_above_the_visual_tokens() {
    let q = Query::parse("v=2&model=qwen2.5-vl-7b&method=lora&seq=4096&batch=1&images=2&gpu=l4").unwrap();
    let s = tunefit_core::settings::Settings::resolve(&q).unwrap();
    let vram = tunefit_core::dataset::gpu("l4").unwrap().vram_bytes;
    let n = tunefit_core::solve::max_seq(&s, vram).expect("a longest sequence with two images");
    assert!((1458..4096).contains(&n), "{n}");
    // The fix for the chosen GPU offers a sequence that still holds the images.
    let long = "v=2&model=qwen2.5-vl-7b&method=qlora&framework=unsloth&seq=32768&batch=1&images=12&gpu=t4";
    let with_fixes = tunefit_core::report::with_fixes(report(long), &q_of(long));
    let seq_fix = with_fixes.fixes.iter().find_map(|f| f.set.strip_prefix("seq=").map(|v| v.parse::<u32>().unwrap()));
    assert!(
        seq_fix.is_some_and(|v| v >= 12 * 729),
        "{:?}",
        with_fixes.fixes.iter().map(|f| &f.set).collect::<Vec<_>>()
    );
}

fn q_of(s: &str) -> Query {
    Query::parse(s).unwrap()
}

#[test]
fn what_is_not_modelled_is_refused_by_name() {
    // A trained tower needs images, and freeze tuning's backward to them is not modelled.
    assert!(matches!(refusal("model=qwen2.5-vl-7b&tower=lora"), Refusal::TowerTrainsWithout { images: 0 }));
    assert_eq!(refusal("model=qwen2.5-vl-7b&tower=full").key(), "tower");
    assert!(matches!(
        refusal("model=qwen2.5-vl-7b&method=freeze&images=1&tower=lora"),
        Refusal::TowerTrainsWithout { images: 1 }
    ));
    // Where the tower runs under tp, pp or cp is not modelled.
    for layout in ["gpus=2&tp=2", "gpus=2&pp=2", "gpus=2&cp=2&seq=4096"] {
        assert!(
            matches!(refusal(&format!("model=qwen2.5-vl-7b&images=1&{layout}")), Refusal::ImagesModelParallel { .. }),
            "{layout}"
        );
    }
    // Data parallel and sharding are fine: every GPU runs its own images through its tower.
    let one = report("model=qwen2.5-vl-7b&method=lora&images=2&tower=lora&batch=2&seq=4096");
    let fsdp = report("model=qwen2.5-vl-7b&method=lora&images=2&tower=lora&batch=2&seq=4096&gpus=4&shard=fsdp");
    assert!(fsdp.memory.device > 0 && one.memory.device > 0);
}

#[test]
fn the_warnings_say_4_bit_only_for_qlora() {
    let quantized = |q: &str| {
        report(q).warnings.iter().any(|w| {
            matches!(
                w,
                Warning::VisionImages { quantized: true, .. } | Warning::FrozenVisionTower { quantized: true, .. }
            )
        })
    };
    assert!(quantized("model=qwen2.5-vl-7b&method=qlora&images=1"));
    assert!(quantized("model=qwen2.5-vl-7b&method=qlora"));
    assert!(!quantized("model=qwen2.5-vl-7b&method=lora&images=1"));
    assert!(!quantized("v=2&model=gemma-3-4b&method=full"));
    assert!(!quantized("model=qwen2.5-vl-7b&method=qlora&framework=unsloth"));
}

#[test]
fn qwen2_5_vl_windows_its_eager_attention() {
    // Eager scores over whole images in 4 blocks and over 8×8-patch windows in 28: far less
    // than Qwen2-VL's 32 whole-image blocks at the same image.
    let q = |m: &str| {
        format!("v=2&model={m}&method=lora&seq=4096&batch=1&images=1&tower=lora&ckpt=none&precision=bf16-true&attn=eager&gpu=h200")
    };
    let text = |m: &str| report(&q(m).replace("&images=1&tower=lora", "")).memory.activations as f64;
    let tower = |m: &str| report(&q(m)).memory.activations as f64 - text(m);
    let scores_per_block = 16.0 * 2916.0f64.powi(2) * 6.0;
    let (q2, q25) = (tower("qwen2-vl-7b"), tower("qwen2.5-vl-7b"));
    assert!(q2 > 32.0 * scores_per_block, "{}", q2 / scores_per_block);
    // 4 blocks of scores, plus every block's other tensors (about a third of a block's scores).
    assert!(q25 < 0.4 * q2 && q25 > 4.0 * scores_per_block, "{} vs {}", q25 / scores_per_block, q2 / scores_per_block);
}

#[test]
fn a_model_change_drops_image_keys_the_new_model_cannot_price() {
    let mut q = q_of("v=2&model=qwen2.5-vl-7b&images=2&image_res=1024&tower=lora&tower_quant=1");
    let before = q.clone();
    q.model = Some("qwen2-vl-7b".into());
    tunefit_core::catalog::adapt_to_model(&before, &mut q);
    assert_eq!((q.images, q.tower), (2, tunefit_core::query::TowerTraining::Lora), "another VLM keeps them");
    let before = q.clone();
    q.model = Some("llama-3.1-8b".into());
    tunefit_core::catalog::adapt_to_model(&before, &mut q);
    assert_eq!(q.to_query_string(), q_of("v=2&model=llama-3.1-8b").to_query_string());
    assert!(evaluate(&q).is_ok());
    // A pasted text config applied over a VLM link: the same.
    let mut q = q_of("v=2&model=qwen2.5-vl-7b&images=2");
    tunefit_core::hfconfig::apply_link(&mut q, "v=1&model=qwen3-8b").unwrap();
    assert_eq!(q.images, 0);
}

#[test]
fn the_processors_pixel_bounds_scale_small_and_huge_images() {
    let said = |q: &str| {
        report(q)
            .warnings
            .iter()
            .find_map(|w| match w {
                Warning::VisionImages { w, h, patches, tokens, .. } => Some((*w, *h, *patches, *tokens)),
                _ => None,
            })
            .unwrap()
    };
    // Qwen3-VL scales every image up to 65,536 pixels (its processor's shortest_edge): a
    // 320×50 formula becomes 672×128, 336 patches, 84 tokens.
    assert_eq!(said("model=qwen3-vl-8b&images=1&image_res=320x50"), (672, 128, 336, 84));
    // Qwen2.5-VL's bound is 3,136: the same image stays 308×56.
    assert_eq!(said("model=qwen2.5-vl-7b&images=1&image_res=320x50"), (308, 56, 88, 22));
    // And 12,845,056 pixels at most: a 16k² image is scaled down to 3,584² (16,384 tokens).
    let (w, h, _, tokens) = said("model=qwen2.5-vl-7b&images=1&image_res=16384&seq=20000");
    assert!(w * h <= 12_845_056 && w % 28 == 0 && h % 28 == 0, "{w}×{h}");
    assert_eq!(tokens, w * h / 784);
}

#[test]
fn the_towers_peak_is_named_before_a_device_state_dict() {
    // Both the save and the tower's eager pass above the step: the tower is the peak, and the
    // overhead's sentence names it, not the save.
    let q = "v=2&model=gemma-3-4b&method=full&batch=1&seq=2048&images=6&ckpt=full&loss=chunked&attn=eager&gpus=2&shard=fsdp&state_dict=device&gpu=h100-sxm";
    let r = tunefit_core::report::with_peak_phase(report(q));
    assert_eq!(r.memory.peak_phase.as_deref(), Some("forward of the vision tower"));
    let why = r.explanations.iter().find(|e| e.term == "overhead").and_then(|e| e.why.clone());
    assert!(matches!(why, Some(tunefit_core::memory::Phrase::WhyVisionTower { .. })), "{why:?}");
}
