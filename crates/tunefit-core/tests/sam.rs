//! Segment Anything (#21, arch::Sam): exact counts, what trains in each recipe, the saved
//! tensors of real training forwards (data/calibration/sam-saved.json,
//! tools/calibrate/sam_probe.py), the attention over the whole image, its FLOPs, and what SAM
//! refuses.
mod common;
use common::{exported, query as q, refused_key, report};
use tunefit_core::{evaluate, Error};

#[test]
fn counts_are_the_checkpoints() {
    // SamModel of facebook/sam-vit-{base,large,huge}'s configs: keras-hub's sam_presets.py
    // counts (93,735,728; 312,343,088; 641,090,864), which transformers 5.23 builds too.
    for (id, params) in [("sam-vit-base", 93_735_728u64), ("sam-vit-large", 312_343_088), ("sam-vit-huge", 641_090_864)]
    {
        assert_eq!(report(&format!("model={id}")).model.params, params, "{id}");
    }
}

#[test]
fn what_each_recipe_trains_is_peft_s_count() {
    // The fine-tuning notebook trains the mask decoder alone (its 4,058,340 parameters, the
    // same in every SAM); PEFT's LoRA r 16 on `qkv` with modules_to_save=["mask_decoder"]
    // prints "trainable params: 4,648,164" for sam-vit-base (peft 0.21.2): one adapter per
    // fused qkv, r·(768 + 2304) in each of 12 blocks, whichever of q, k and v is named.
    assert_eq!(report("model=sam-vit-base&method=freeze&train_layers=0").model.trainable_params, 4_058_340);
    for targets in ["q,k,v", "q,v", "k"] {
        let r = report(&format!("model=sam-vit-base&method=lora&rank=16&targets={targets}"));
        assert_eq!(r.model.trainable_params, 4_648_164, "{targets}");
    }
    // With `proj` too: 4,943,076.
    assert_eq!(report("model=sam-vit-base&method=lora&rank=16&targets=q,k,v,o").model.trainable_params, 4_943_076);
    // In full, everything trains.
    let full = report("model=sam-vit-huge&method=full");
    assert_eq!(full.model.trainable_params, full.model.params);
    // The last block (global) and the decoder: the block's linears and norms and its two
    // 127-row relative position tables of one head's width (80 in huge).
    let h = 1280u64;
    let block = 4 * h * h + 4 * h + 2 * h * 4 * h + 5 * h + 4 * h + 2 * 127 * 80;
    assert_eq!(report("model=sam-vit-huge&method=freeze&train_layers=1").model.trainable_params, block + 4_058_340);
}

#[test]
fn a_fused_qkv_is_one_peft_module_under_the_trainer() {
    // Phi-3's qkv_proj: r·(3072 + 9216) in each of 32 blocks whichever of q, k, v is named;
    // Unsloth loads Phi "llama-fied" (q, k and v apart) and litgpt's LoRAQKVLinear has r rows
    // per enabled projection: r·(3072 + 3072) per projection.
    let count = |s: &str| report(&format!("model=phi-3-mini&method=lora&rank=16&{s}")).model.trainable_params;
    assert_eq!(count("targets=q,k,v&framework=hf"), 6_291_456);
    assert_eq!(count("targets=q&framework=hf"), 6_291_456);
    assert_eq!(count("targets=q,k,v&framework=unsloth"), 9_437_184);
    assert_eq!(count("targets=q,k,v&framework=litgpt"), 9_437_184);
}

#[test]
fn freezing_every_block_of_a_model_without_a_head_trains_nothing() {
    assert_eq!(refused_key("model=llama-3.1-8b&method=freeze&train_layers=0"), "train_layers");
    assert_eq!(refused_key("model=clip-vit-l&method=freeze&train_layers=0"), "train_layers");
    // A classifier's head trains alone (a linear probe).
    assert_eq!(report("model=vit-b&vocab=10&method=freeze&train_layers=0").model.trainable_params, 7690);
}

#[test]
fn saved_tensors_match_the_probe_within_2_percent() {
    let mut worst: f64 = 0.0;
    for (qs, measured) in common::calibration("sam-saved.json", "saved_bytes", 10) {
        let qs = qs.as_str();
        let predicted = report(qs).memory.saved_for_backward as f64;
        let e = predicted / measured - 1.0;
        println!("{:+6.2}%  measured {measured:>13} predicted {predicted:>13}  {qs}", e * 100.0);
        worst = worst.max(e.abs());
    }
    assert!(worst <= 0.02, "worst {:+.2}%", worst * 100.0);
}

#[test]
fn the_whole_image_bias_is_the_frozen_encoder_s_peak() {
    // The notebook's recipe (fp32, batch 2): a frozen global block's forward holds 12 heads ×
    // 4096² fp32 scores per image, 1.5 GiB for two, twice while `.reshape` makes it
    // contiguous, above everything the step keeps (sam_peak.py measures the same).
    let r = report("model=sam-vit-base&method=freeze&train_layers=0&precision=fp32&batch=2&attn=sdpa");
    let bias = 2.0 * 12.0 * 4096.0 * 4096.0 * 4.0;
    let m = &r.memory;
    assert!(m.allocated as f64 > m.weights as f64 + 2.0 * bias, "{} vs {}", m.allocated, m.weights as f64 + bias);
    assert!((m.allocated as f64) < m.weights as f64 + 2.3 * bias, "{}", m.allocated);
    let moment = m.peak_moment.expect("a peak moment");
    assert!(moment.is_encoder_pass() && !moment.is_backward(), "{moment:?}");
    // Eager attention's fp32 softmax beside the bias costs more.
    let eager = report("model=sam-vit-base&method=freeze&train_layers=0&precision=fp32&batch=2&attn=eager");
    assert!(eager.memory.allocated > m.allocated + (bias as u64) / 2);
    // Twice the images, twice the biases.
    let four = report("model=sam-vit-base&method=freeze&train_layers=0&precision=fp32&batch=4&attn=sdpa");
    let grown = (four.memory.allocated - m.allocated) as f64;
    assert!((1.95 * bias..2.3 * bias).contains(&grown), "{grown}");
}

#[test]
fn a_trained_encoder_peaks_in_the_last_global_block_s_backward() {
    let none = report("model=sam-vit-huge&method=full&precision=bf16-true&batch=2&ckpt=none");
    let ckpt = report("model=sam-vit-huge&method=full&precision=bf16-true&batch=2&ckpt=full");
    for r in [&none, &ckpt] {
        let moment = r.memory.peak_moment.expect("a peak moment");
        assert!(moment.is_encoder_pass() && moment.is_backward(), "{moment:?}");
    }
    // Checkpointing keeps one input per block: the activations shrink several times.
    assert!(ckpt.memory.activations * 4 < none.memory.activations);
}

#[test]
fn flops_per_image_are_a_hand_count() {
    // sam-vit-base in full: 3 × the forward. Per image: 12 blocks' qkv and proj (4·768²) over
    // their tokens (70² padded in the 8 windowed blocks, 64² in the 4 global ones), the MLPs
    // (2·768·3072) over 64²; the patch convolution (3·16²·768) and the neck (768·256 +
    // 256·256·9) over 64²; attention 4·768 per score over 14² windows' and the image's
    // pairs, with the relative-position einsums (4·768 per query and table row); the mask
    // decoder's image-side linears and upscaler (425,984 per patch).
    let (h, n, p) = (768.0, 4096.0, 4900.0);
    let linears = 8.0 * 4.0 * h * h * p + 4.0 * 4.0 * h * h * n + 12.0 * 2.0 * h * 3072.0 * n;
    let outside = (3.0 * 256.0 * h + h * 256.0 + 256.0 * 256.0 * 9.0 + 425_984.0) * n;
    let attention = 4.0 * h * (8.0 * p * (196.0 + 14.0) + 4.0 * n * (n + 64.0)) / 2.0;
    let forward = 2.0 * (linears + outside) + 2.0 * attention;
    let r = report("model=sam-vit-base&method=full&precision=bf16-true&batch=1&ckpt=none&gpu=h100-sxm");
    let per_image = r.time.as_ref().unwrap().model_flops_per_token * n;
    let e = per_image / (3.0 * forward) - 1.0;
    assert!(e.abs() < 0.01, "{per_image} against {} ({:+.2}%)", 3.0 * forward, e * 100.0);
    // The decoder alone: the same forward, and a backward through the decoder only (its
    // image-side work twice; its MLPs and self-attention run on 7 tokens).
    let r =
        report("model=sam-vit-base&method=freeze&train_layers=0&precision=bf16-true&batch=1&ckpt=none&gpu=h100-sxm");
    let per_image = r.time.as_ref().unwrap().model_flops_per_token * n;
    let want = forward + 2.0 * 2.0 * 425_984.0 * n;
    let e = per_image / want - 1.0;
    assert!(e.abs() < 0.01, "{per_image} against {want} ({:+.2}%)", e * 100.0);
}

#[test]
fn what_sam_refuses_names_its_key() {
    assert_eq!(refused_key("model=sam-vit-base&image_res=512"), "image_res");
    assert_eq!(refused_key("model=sam-vit-base&method=prefix"), "method");
    assert_eq!(refused_key("model=sam-vit-base&method=adapter"), "method");
    assert_eq!(refused_key("model=sam-vit-base&attn=flash"), "attn");
    assert_eq!(refused_key("model=sam-vit-base&gpus=2&tp=2"), "tp");
    // Its own side is accepted.
    assert!(evaluate(&q("model=sam-vit-base&image_res=1024")).is_ok());
}

#[test]
fn sam_exports_as_its_fine_tuning_notebook() {
    use tunefit_core::query::Framework;
    // tools/calibrate/sam_export_check.py runs these scripts against transformers and PEFT.
    let lora = exported("v=2&model=sam-vit-huge&method=lora&targets=q,v,o&rank=16", Framework::Hf).unwrap();
    assert!(lora.contains("SamModel.from_pretrained(") && lora.contains("MODEL_ID = \"facebook/sam-vit-huge\""));
    // One fused qkv whichever of q, k and v is named; the pattern keeps the adapters off the
    // mask decoder's own linears, which trains beside them.
    assert!(lora.contains(r#"target_modules=r".*vision_encoder\.layers\.\d+\.(attn|mlp)\.(qkv|proj)""#), "{lora}");
    assert!(lora.contains(r#"modules_to_save=["mask_decoder"]"#));
    assert!(lora.contains("compute_loss_func=sam_loss") && lora.contains("\"multimask_output\": False"));
    let decoder = exported("v=2&model=sam-vit-base&method=freeze&train_layers=0", Framework::Hf).unwrap();
    assert!(decoder.contains("p.requires_grad_(name.startswith(\"mask_decoder.\"))"), "{decoder}");
    assert!(!decoder.contains("vision_encoder.layers[-"));
    let top = exported("v=2&model=sam-vit-base&method=freeze&train_layers=2", Framework::Hf).unwrap();
    assert!(top.contains("model.vision_encoder.layers[-2:]"));
    let fsdp = exported("v=2&model=sam-vit-huge&method=full&gpus=2&shard=fsdp", Framework::Hf).unwrap();
    assert!(fsdp.contains("fsdp_transformer_layer_cls_to_wrap: \"SamVisionLayer\""), "{fsdp}");
    // One mask per prompt leaves the IoU head without a gradient: DDP must look for it.
    assert!(fsdp.contains("ddp_find_unused_parameters=True"));
    assert!(!lora.contains("ddp_find_unused_parameters"));
    // The Trainer does not divide a compute_loss_func's loss by the accumulation steps.
    assert!(lora.contains("loss = loss * labels.numel() / num_items_in_batch"));
    // fp16 AMP: the decoder's copy is made fp32 for the GradScaler.
    let fp16 = exported("v=2&model=sam-vit-base&method=lora&precision=fp16-mixed", Framework::Hf).unwrap();
    assert!(fp16.contains("p.data = p.data.float()"));
    // A ViT's linear probe trains its head alone: `[-0:]` would be every block.
    let probe = exported("v=2&model=vit-b&vocab=10&method=freeze&train_layers=0", Framework::Hf).unwrap();
    assert!(!probe.contains("[-0:]") && probe.contains("model.classifier.parameters()"), "{probe}");
    // The language-model frameworks refuse, naming the one that exports it.
    assert!(matches!(exported("v=2&model=sam-vit-base", Framework::Axolotl), Err(Error::Invalid { .. })));
}

#[test]
fn choosing_sam_keeps_nothing_it_would_refuse() {
    // From a ViT at 384 with flash attention: SAM's one side and SDPA; the dataset keeps its
    // images.
    let vit = q("model=vit-l&image_res=384&attn=flash&tokens=5000");
    let mut sam = vit.clone();
    sam.model = Some("sam-vit-base".into());
    tunefit_core::catalog::adapt_to_model(&vit, &mut sam);
    assert_eq!((sam.image_res, sam.attn, sam.tokens), (None, None, 5000));
    assert!(tunefit_core::catalog::fixed_image(&sam) && !tunefit_core::catalog::fixed_image(&vit));
    assert!(evaluate(&sam).is_ok());
}

#[test]
fn a_sam_that_does_not_fit_is_offered_its_decoder_alone() {
    use tunefit_core::solve::Verdict;
    // ViT-H in full, fp32 AdamW, 8 images on a 24 GB card: far over.
    let query = q("model=sam-vit-huge&method=full&precision=fp32&batch=8&optim=adamw&gpu=rtx-4090");
    let r = tunefit_core::report::with_fixes(evaluate(&query).unwrap(), &query);
    assert_eq!(r.fit.as_ref().unwrap().verdict, Verdict::DoesNotFit);
    let decoder = r.fixes.iter().find(|f| f.set == "method=freeze&train_layers=0").expect("the decoder-alone fix");
    assert!(decoder.device < r.memory.device);
    // No fix offers another image side.
    assert!(!r.fixes.iter().any(|f| f.set.contains("image_res")));
}

#[test]
fn the_step_s_peak_matches_a_real_first_step_within_3_percent() {
    // tools/calibrate/sam_peak.py: the most live at once in a first training step, above the
    // weights (no optimizer states yet: AdamW makes them at its first step). The estimate's is
    // a steady step's, its optimizer states included: they are taken off here.
    let forward = common::calibration("sam-peaks.json", "forward_peak_bytes", 6);
    let backward = common::calibration("sam-peaks.json", "backward_peak_bytes", 6);
    let mut worst: f64 = 0.0;
    for ((qs, f), (_, b)) in forward.into_iter().zip(backward) {
        let qs = qs.as_str();
        let measured = f.max(b);
        let m = report(qs).memory;
        // cuBLAS's two workspaces are the GPU's, not the recorded CPU step's.
        let predicted = (m.allocated - m.weights - m.optimizer) as f64 - tunefit_core::memory::step_workspaces(None);
        let e = predicted / measured - 1.0;
        println!("{:+6.2}%  measured {measured:>13} predicted {predicted:>13}  {qs}", e * 100.0);
        worst = worst.max(e.abs());
        // The moment is SAM's own, forward when the encoder is frozen.
        let moment = m.peak_moment.expect("a moment");
        assert!(moment.is_encoder_pass() && moment.is_backward() != qs.contains("train_layers=0"), "{qs}: {moment:?}");
    }
    assert!(worst <= 0.03, "worst {:+.2}%", worst * 100.0);
}

#[test]
fn the_page_offers_no_choice_the_family_is_refused() {
    use tunefit_core::catalog::offers;
    let (sam, vit, whisper, lm) =
        (q("model=sam-vit-base"), q("model=vit-l"), q("model=whisper-small"), q("model=llama-3.1-8b"));
    assert!(!offers(&sam, "attn", "flash") && offers(&vit, "attn", "flash") && offers(&lm, "attn", "flash"));
    for m in ["adapter", "prefix", "prompt"] {
        assert!(
            !offers(&sam, "method", m)
                && !offers(&vit, "method", m)
                && !offers(&whisper, "method", m)
                && offers(&lm, "method", m)
        );
    }
    // What is not offered is what the core refuses, by that key.
    assert_eq!(refused_key("model=sam-vit-base&attn=flash"), "attn");
    assert_eq!(refused_key("model=whisper-small&method=prompt"), "method");
    assert!(offers(&sam, "method", "lora") && offers(&sam, "attn", "eager"));
}
