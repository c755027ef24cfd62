//! Vision encoders trained on their own (ViT, CLIP's and SigLIP's vision models): the image's
//! patches are the sequence (`image_res`), `vocab` is the classifier's labels
//! (docs/memory-model.md "Vision encoders").
use tunefit_core::diag::{Error, Refusal};
use tunefit_core::settings::Settings;
use tunefit_core::time::FlopShape;
use tunefit_core::{evaluate, Query};

mod common;
use common::exported;

fn q(s: &str) -> Query {
    Query::parse(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

fn report(s: &str) -> tunefit_core::Report {
    evaluate(&q(s)).unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

fn seq_of(s: &str) -> u32 {
    let query = q(s);
    Settings::resolve(&query).unwrap().query.seq
}

#[test]
fn an_images_tokens_are_its_patches_and_the_class_token() {
    // ViT-L/16 at its trained 224: 14² patches and the class token.
    assert_eq!(seq_of("model=vit-l"), 197);
    // 384: 24² + 1; a side that is no multiple of 16 is cut as the convolution cuts it.
    assert_eq!(seq_of("model=vit-l&image_res=384"), 577);
    assert_eq!(seq_of("model=vit-l&image_res=250"), 15 * 15 + 1);
    assert_eq!(seq_of("model=vit-l&image_res=320x160"), 20 * 10 + 1);
    // ViT-H/14 and CLIP ViT-L/14 at 224: 16² + 1; SigLIP has no class token: 27² at 384.
    assert_eq!(seq_of("model=vit-h"), 257);
    assert_eq!(seq_of("model=clip-vit-l"), 257);
    assert_eq!(seq_of("model=siglip-so400m"), 729);
    // A language model keeps the person's sequence.
    assert_eq!(seq_of("model=llama-3.1-8b&seq=4096&image_res=384"), 4096);
}

#[test]
fn seq_means_nothing_to_an_image_encoder_and_the_link_keeps_what_was_written() {
    let plain = report("model=vit-l&method=full&batch=32");
    let with_seq = report("model=vit-l&method=full&batch=32&seq=8192");
    assert_eq!(plain.memory.device, with_seq.memory.device);
    assert_eq!(with_seq.query, q("model=vit-l&method=full&batch=32&seq=8192").to_query_string());
}

#[test]
fn the_counts_are_transformers_and_peft_s() {
    // PEFT's image-classification guide: google/vit-base-patch16-224-in21k with 101 labels,
    // LoRA r=16 on query and value, modules_to_save=["classifier"]:
    // "trainable params: 667493 || all params: 86466149" (85,876,325 before the adapters).
    let r = report("model=vit-b&vocab=101&method=lora&rank=16&targets=q,v");
    assert_eq!(r.model.params, 85_876_325);
    assert_eq!(r.model.trainable_params, 667_493);
    // A backbone without a classifier (CLIP's vision model) trains only its adapters.
    let clip = report("model=clip-vit-l&method=lora&rank=16&targets=q,v");
    assert_eq!(clip.model.trainable_params, 24 * 2 * 16 * (1024 + 1024));
}

#[test]
fn memory_grows_with_the_image_and_the_batch() {
    let at = |s: &str| report(&format!("model=vit-l&method=full&precision=bf16-true&{s}")).memory;
    let (small, large) = (at("batch=16&image_res=224"), at("batch=16&image_res=384"));
    // 577 tokens against 197: activations about three times as large (attention through SDPA
    // keeps no s² scores).
    let ratio = large.activations as f64 / small.activations as f64;
    assert!((2.8..3.1).contains(&ratio), "{ratio}");
    let double = at("batch=32&image_res=224");
    let r = double.activations as f64 / small.activations as f64;
    assert!((1.95..2.05).contains(&r), "{r}");
}

#[test]
fn images_and_a_tower_belong_to_vision_language_models() {
    for s in ["model=vit-l&images=1", "model=vit-l&tower=lora&images=1"] {
        match evaluate(&q(s)) {
            // An image encoder is no multimodal model: the keys that need one are refused so.
            Err(Error::Refused(Refusal::NoVisionTower { vision: false })) => {}
            other => panic!("{s}: {:?}", other.map(|r| r.memory.device)),
        }
    }
}

#[test]
fn an_encoder_attends_to_the_whole_image() {
    // The time model's kernels skip the masked half of a decoder's scores, not an encoder's.
    let vit = q("model=vit-l");
    let llm = q("model=llama-3.1-8b");
    let shape = |query: &Query| FlopShape::of(&Settings::resolve(query).unwrap(), 1, 1);
    assert!(!shape(&vit).causal);
    assert!(shape(&llm).causal);
    // A ViT-L/16 step at 384 px costs more than three times one at 224 (tokens ×2.9 and
    // attention ×8.6): the longer images' attention is counted in full.
    let step = |res: u32| {
        report(&format!("model=vit-l&method=full&batch=64&image_res={res}&gpu=h100-sxm")).time.unwrap().step_s
    };
    let r = step(384) / step(224);
    assert!(r > 2.9 && r < 4.0, "{r}");
}

#[test]
fn no_sequence_to_solve_for_and_the_fix_is_the_trained_side() {
    // ViT-H at 518 px does not fit a 24 GB card in fp32 at batch 64.
    let r = tunefit_core::report::with_fixes(
        report("model=vit-h&method=full&precision=fp32&batch=64&image_res=518&gpu=rtx-4090"),
        &q("model=vit-h&method=full&precision=fp32&batch=64&image_res=518&gpu=rtx-4090"),
    );
    let fit = r.fit.as_ref().unwrap();
    assert_eq!(fit.max_seq, None);
    assert!(
        r.fixes.iter().any(|f| f.set == "image_res=224"),
        "{:?}",
        r.fixes.iter().map(|f| &f.set).collect::<Vec<_>>()
    );
    assert!(!r.fixes.iter().any(|f| f.set.starts_with("seq=") || f.set.contains("framework=unsloth")));
}

#[test]
fn a_model_change_starts_an_encoder_at_its_trained_side() {
    let mut query = q("model=qwen2.5-vl-7b&images=2&image_res=1024&tower=lora");
    let before = query.clone();
    query.model = Some("vit-l".into());
    tunefit_core::catalog::adapt_to_model(&before, &mut query);
    assert_eq!((query.images, query.image_res), (0, None));
    assert_eq!(query.tower, tunefit_core::query::TowerTraining::Frozen);
    assert!(tunefit_core::catalog::is_image_encoder(&query));
    assert!(evaluate(&query).is_ok());
}

#[test]
fn an_image_encoder_exports_as_transformers_image_classification() {
    use tunefit_core::query::Framework;
    let vit = exported("v=2&model=vit-l&vocab=10&method=lora&targets=q,v,o,up,down", Framework::Hf).unwrap();
    assert!(vit.contains("AutoModelForImageClassification.from_pretrained("), "{vit}");
    assert!(vit.contains("MODEL_ID = \"google/vit-large-patch16-224\""));
    assert!(vit.contains("NUM_LABELS = 10") && vit.contains("ignore_mismatched_sizes=True"));
    // transformers 5's ViT names (tools/calibrate/image_export_check.py runs the script).
    assert!(vit.contains(r#"target_modules=["q_proj", "v_proj", "o_proj", "fc1", "fc2"]"#), "{vit}");
    assert!(vit.contains(r#"modules_to_save=["classifier"]"#) && vit.contains("remove_unused_columns=False"));
    // At the trained side the positions need no interpolation; at another they do.
    assert!(!vit.contains("interpolate_pos_encoding"));
    let clip = exported("v=2&model=clip-vit-l&method=lora&targets=q,v,o&image_res=336", Framework::Hf).unwrap();
    assert!(clip.contains(r#"target_modules=["q_proj", "v_proj", "out_proj"]"#), "{clip}");
    assert!(clip.contains("\"interpolate_pos_encoding\": True") && clip.contains("crop_size=IMAGE_SIZE"));
    assert!(clip.contains("IMAGE_SIZE = {\"height\": 336, \"width\": 336}"));
    let fsdp = exported("v=2&model=siglip-so400m&method=full&gpus=2&shard=fsdp", Framework::Hf).unwrap();
    assert!(fsdp.contains("fsdp_transformer_layer_cls_to_wrap: \"SiglipEncoderLayer\""), "{fsdp}");
    // The language-model frameworks refuse, naming the one that exports it.
    for fw in [Framework::Torchtune, Framework::Litgpt, Framework::Unsloth, Framework::Axolotl, Framework::LlamaFactory]
    {
        match exported("v=2&model=vit-b", fw) {
            Err(Error::Invalid { key, message }) => {
                assert_eq!(key, "framework");
                assert!(message.starts_with(&format!("{} trains language models", fw.as_str())), "{message}");
            }
            other => panic!("{fw:?}: {:?}", other.map(|s| s.len())),
        }
    }
}

#[test]
fn a_new_head_keeps_the_checkpoint_named() {
    let r = report("model=vit-l&vocab=10");
    assert_eq!(r.model.id.as_deref(), Some("vit-l"));
    assert_eq!(r.model.params, 303_311_882);
    // Any other change is another architecture.
    assert_eq!(report("model=vit-l&vocab=10&layers=12").model.id, None);
}

#[test]
fn siglip_counts_its_unused_pooling_head_and_never_trains_it() {
    // SiglipForImageClassification builds the head (`vision_use_head` True) and mean-pools.
    let r = report("model=siglip-so400m&method=full");
    assert_eq!(r.model.params, 428_225_600);
    let (h, f) = (1152u64, 4304u64);
    let head = h + 4 * h * h + 4 * h + 2 * h + h * f + f + f * h + h;
    assert_eq!(head, 15_238_352);
    assert_eq!(r.model.trainable_params, 428_225_600 - head);
    let lora =
        exported("v=2&model=siglip-so400m&method=lora&targets=q,v,o,up,down", tunefit_core::query::Framework::Hf)
            .unwrap();
    assert!(
        lora.contains(
            r#"target_modules=r".*\.encoder\.layers\.\d+\.(self_attn|mlp)\.(q_proj|v_proj|out_proj|fc1|fc2)""#
        ),
        "{lora}"
    );
}

#[test]
fn what_an_image_encoder_cannot_train_is_refused_by_name() {
    let refused = |s: &str| match evaluate(&q(s)) {
        Err(Error::Refused(r)) => r,
        other => panic!("{s}: {:?}", other.map(|r| r.memory.device)),
    };
    assert_eq!(refused("model=siglip-so400m&image_res=8"), Refusal::ImageUnderPatch { side: 8, patch: 14 });
    assert_eq!(refused("model=vit-l&image_res=13x1000"), Refusal::ImageUnderPatch { side: 13, patch: 16 });
    assert_eq!(refused("model=clip-vit-l&method=lora&targets=embed"), Refusal::NoTargetExists);
    // No trainer splits an image's tokens over GPUs (ring attention is for long text).
    assert_eq!(refused("model=vit-l&cp=2&gpus=2"), Refusal::ImageEncoderContextParallel { cp: 2, tokens: 197 });
    for m in ["prefix", "prompt", "adapter"] {
        assert!(matches!(refused(&format!("model=vit-b&method={m}")), Refusal::ImageEncoderMethod { .. }), "{m}");
    }
    // Freeze trains the last blocks and the new head, as the export does.
    let blocks = report("model=vit-l&vocab=10&method=freeze&train_layers=2");
    assert_eq!(blocks.model.trainable_params, 2 * 12_596_224 + 10 * 1024 + 10);
}

#[test]
fn the_dataset_is_counted_in_images_and_a_larger_image_takes_longer() {
    let hours = |res: u32| {
        report(&format!("v=2&model=vit-l&method=full&batch=16&image_res={res}&tokens=1m&gpu=h100-sxm")).time.unwrap()
    };
    let (small, large) = (hours(224), hours(384));
    assert!(large.hours > 2.0 * small.hours, "{} vs {}", large.hours, small.hours);
    // One million images of 197 tokens a epoch, three epochs.
    assert_eq!(small.training_tokens, 3.0 * 1e6 * 197.0);
}

#[test]
fn the_plot_the_calibration_and_the_markdown_read_the_images_tokens() {
    let s = "v=2&model=vit-l&method=full&precision=bf16-true&batch=4&gpu=rtx-4090";
    let r = report(s);
    let along = tunefit_core::solve::device_by_batch(&q(s), &[4], Some(r.cache_excess));
    assert_eq!(along, vec![(4, r.memory.device)]);
    let md = tunefit_core::markdown::report_markdown(&r);
    assert!(md.contains("micro-batch 4 × one image (197 tokens)"), "{md}");
    let plans =
        tunefit_core::plan::plan(&q("v=2&model=vit-l&method=full&batch=16&gpu=rtx-4090&budget_usd=100")).unwrap();
    assert!(!plans.is_empty());
    for p in &plans {
        assert!(!p.query.contains("seq=") && !p.query.contains("loss="), "{}", p.query);
    }
}

#[test]
fn a_language_model_framework_says_it_prices_an_image_encoder_as_a_plain_loop() {
    let code = |s: &str| report(s).warnings.iter().any(|w| w.code() == "framework-image-encoder");
    assert!(code("model=vit-l&framework=unsloth"));
    assert!(code("model=vit-l&framework=litgpt"));
    assert!(!code("model=vit-l&framework=hf"));
    assert!(!code("model=llama-3.1-8b&framework=unsloth"));
}

#[test]
fn a_pasted_encoder_config_is_its_preset_with_its_labels_or_refused_by_name() {
    use tunefit_core::hfconfig::{config_link, ConfigError, ConfigProblem};
    // google/vit-large-patch16-224's fields with three labels: the preset and `vocab=3`.
    let vit = r#"{"model_type":"vit","hidden_size":1024,"intermediate_size":4096,"num_attention_heads":16,
        "num_hidden_layers":24,"patch_size":16,"image_size":224,"id2label":{"0":"a","1":"b","2":"c"}}"#;
    assert_eq!(config_link(vit).unwrap().1, "v=1&model=vit-l&vocab=3");
    // A whole CLIP checkpoint's config: its vision_config, CLIPVisionConfig's defaults for the rest.
    let clip = r#"{"model_type":"clip","text_config":{},"vision_config":{"hidden_size":1024,
        "intermediate_size":4096,"num_attention_heads":16,"num_hidden_layers":24,"patch_size":14}}"#;
    assert_eq!(config_link(clip).unwrap().1, "v=1&model=clip-vit-l");
    let siglip = r#"{"model_type":"siglip_vision_model","hidden_size":1152,"image_size":384,
        "intermediate_size":4304,"num_attention_heads":16,"num_hidden_layers":27,"patch_size":14}"#;
    assert_eq!(config_link(siglip).unwrap().1, "v=1&model=siglip-so400m");
    // Labels from num_labels without id2label; transformers' placeholders are none; a CLIP
    // classifier's too; SigLIP's heads default to 12.
    let five = vit.replace(r#""id2label":{"0":"a","1":"b","2":"c"}"#, r#""num_labels":5"#);
    assert_eq!(config_link(&five).unwrap().1, "v=1&model=vit-l&vocab=5");
    let placeholders = vit.replace(r#"{"0":"a","1":"b","2":"c"}"#, r#"{"0":"LABEL_0","1":"LABEL_1"}"#);
    assert_eq!(config_link(&placeholders).unwrap().1, "v=1&model=vit-l");
    let two = vit.replace(r#"{"0":"a","1":"b","2":"c"}"#, r#"{"0":"cat","1":"dog"}"#);
    assert_eq!(config_link(&two).unwrap().1, "v=1&model=vit-l&vocab=2");
    let clip_labels = clip.replace(r#""text_config":{}"#, r#""text_config":{},"id2label":{"0":"a","1":"b","2":"c"}"#);
    assert_eq!(config_link(&clip_labels).unwrap().1, "v=1&model=clip-vit-l&vocab=3");
    let old_clip = clip.replace("vision_config", "vision_config_dict");
    assert_eq!(config_link(&old_clip).unwrap().1, "v=1&model=clip-vit-l");
    let no_heads = r#"{"model_type":"siglip_vision_model","hidden_size":768,"num_hidden_layers":12,"patch_size":16}"#;
    match config_link(no_heads) {
        Err(ConfigError::Invalid {
            problem: ConfigProblem::ImageEncoderShape { layers: 12, hidden: 768, .. }, ..
        }) => {}
        other => panic!("{other:?}"),
    }
    // ViT-B/16 at 384 has a larger position table than the preset: refused, naming its shape.
    let vit384 = r#"{"model_type":"vit","hidden_size":768,"num_hidden_layers":12,"num_attention_heads":12,
        "intermediate_size":3072,"patch_size":16,"image_size":384}"#;
    match config_link(vit384) {
        Err(ConfigError::Invalid {
            problem: ConfigProblem::ImageEncoderShape { layers: 12, side: 384, .. }, ..
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn allocated_memory_follows_real_vit_steps_on_the_cpu() {
    // tools/calibrate/vit_peak.py: transformers' ViTForImageClassification at ViT-L/16's width,
    // 4 or 8 blocks, batch 16 or 48, bf16 or fp32, two AdamW steps; peak allocated bytes.
    let path = format!("{}/../../data/calibration/vit-allocated.json", env!("CARGO_MANIFEST_DIR"));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let records = doc["records"].as_array().unwrap();
    assert_eq!(records.len(), 4);
    let mut slopes = Vec::new();
    for rec in records {
        let query = rec["query"].as_str().unwrap();
        let measured = rec["allocated_bytes"].as_f64().unwrap();
        let predicted = report(query).memory.allocated as f64;
        let err = predicted / measured - 1.0;
        // Within 6% low and 3% high: the blocks agree (the slope below); what lies outside them
        // is 1.5–2 MB a sample short (docs/memory-model.md "Vision encoders").
        assert!((-0.06..0.03).contains(&err), "{query}: predicted {predicted}, measured {measured} ({err:+.3})");
        slopes.push((measured, predicted));
    }
    // Four more blocks at batch 16 (records 0 and 1): what one block costs, within 0.3% (with
    // an attention mask per layer it would be 0.7% over).
    let (m, p) = ((slopes[1].0 - slopes[0].0) / 4.0, (slopes[1].1 - slopes[0].1) / 4.0);
    assert!((p / m - 1.0).abs() < 0.003, "a block: predicted {p}, measured {m}");
}
