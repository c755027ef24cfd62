//! Whisper (#21, speech): exact counts, PEFT's trainable count, the saved tensors of real
//! training forwards (data/calibration/whisper-saved.json, tools/calibrate/whisper_probe.py),
//! the community fine-tuning event's batch sizes that fit, and what a Whisper query refuses.
mod common;
use common::{query as q, refused_key};
use tunefit_core::evaluate;

#[test]
fn counts_are_the_checkpoints() {
    // WhisperForConditionalGeneration with proj_out tied: keras-hub's whisper_presets.py
    // counts for small, medium and large-v2; large-v3 with 128 mel bins and 51,866 tokens;
    // large-v3-turbo with 4 decoder blocks (data/families/param_counts.py whisper()).
    for (id, params) in [
        ("whisper-small", 241_734_912u64),
        ("whisper-medium", 763_857_920),
        ("whisper-large-v2", 1_543_304_960),
        ("whisper-large-v3", 1_543_490_560),
        ("whisper-large-v3-turbo", 808_878_080),
    ] {
        let r = evaluate(&q(&format!("model={id}&seq=128"))).unwrap();
        assert_eq!(r.model.params, params, "{id}");
    }
}

#[test]
fn peft_whisper_example_trainable_count() {
    // PEFT's int8 Whisper notebook (huggingface/peft@5d602fdb
    // examples/int8_training/peft_bnb_whisper_large_v2_training.ipynb): LoRA r=32 on q_proj
    // and v_proj of the encoder's and the decoder's self- and cross-attentions prints
    // "trainable params: 15728640 || all params: 1559033600".
    let r = evaluate(&q("model=whisper-large-v2&method=lora&rank=32&targets=q,v&seq=128")).unwrap();
    assert_eq!(r.model.trainable_params, 15_728_640);
    assert_eq!(r.model.params + r.model.trainable_params, 1_559_033_600);
    // A full fine-tune trains everything but the encoder's sinusoidal positions (1500 × 768).
    let r = evaluate(&q("model=whisper-small&method=full&seq=128")).unwrap();
    assert_eq!(r.model.trainable_params, 241_734_912 - 1500 * 768);
}

#[test]
fn saved_tensors_match_the_probe_within_2_percent() {
    for (qs, measured) in common::calibration("whisper-saved.json", "saved_bytes", 32) {
        let qs = qs.as_str();
        let predicted = evaluate(&q(qs)).unwrap().memory.saved_for_backward as f64;
        let e = predicted / measured - 1.0;
        println!("{:+6.2}%  measured {measured:>13} predicted {predicted:>13}  {qs}", e * 100.0);
        assert!(e.abs() <= 0.02, "{qs}: {:+.2}%", e * 100.0);
    }
}

#[test]
fn the_fine_tuning_events_batch_sizes_fit() {
    // huggingface/community-events@a2d9115 whisper-fine-tuning-event/README.md L951-966: the
    // batch sizes that fit one GPU with gradient checkpointing, fp16 (an fp32 model under
    // autocast) and AdamW, on transformers of late 2022 (eager attention). Label length is not
    // stated: 128 tokens assumed (the collator pads to the batch's longest). Each is an upper
    // bound, and a table of the largest batch that ran: the device peak stays under the GPU's
    // memory and above 70% of it (a table of what fits lists about the largest that does).
    for (case, gpu_gib) in [
        ("model=whisper-small&batch=16&gpu=v100-16gb", 16.0),
        ("model=whisper-medium&batch=2&gpu=v100-16gb", 16.0),
        ("model=whisper-small&batch=64&gpu=a100-40gb", 40.0),
        ("model=whisper-medium&batch=32&gpu=a100-40gb", 40.0),
    ] {
        let s = format!("{case}&seq=128&method=full&precision=fp16-mixed&ckpt=full&attn=eager&optim=adamw");
        let r = evaluate(&q(&s)).unwrap();
        let device = r.memory.device as f64 / (1u64 << 30) as f64;
        println!("{device:6.2} GiB of {gpu_gib}  {s}");
        assert!(device <= gpu_gib && device > 0.7 * gpu_gib, "{s}: {device:.2} GiB");
    }
}

#[test]
fn eager_attention_over_the_clips_is_the_encoders_backward() {
    let r = tunefit_core::evaluate_with_timeline(&q(
        "model=whisper-small&batch=16&seq=128&method=full&precision=fp16-mixed&ckpt=full&attn=eager",
    ))
    .unwrap();
    assert_eq!(r.memory.peak_phase.as_deref(), Some("backward of the audio encoder"));
    // Each clip adds the eager softmax over 12 heads × 1500² positions at the softmax's
    // backward in the rebuilt block: the fp32 probabilities, their fp32 gradient and the
    // softmax's fp32 result (the 16-bit cast and gradient freed by then): 12 B a score.
    let b17 =
        evaluate(&q("model=whisper-small&batch=17&seq=128&method=full&precision=fp16-mixed&ckpt=full&attn=eager"))
            .unwrap();
    let per_clip = (b17.memory.allocated - r.memory.allocated) as f64;
    let scores = 12.0 * 1500.0 * 1500.0 * 12.0;
    // Beside them the clip's other tensors (its labels' logits, the blocks' inputs): at most half as much.
    assert!(per_clip > scores && per_clip < scores * 1.5, "{per_clip}");
}

#[test]
fn a_dataset_is_counted_in_clips() {
    // 6,000 clips at a micro-batch of 16: 375 steps, whatever the labels' length.
    for seq in [64, 200] {
        let r = evaluate(&q(&format!("model=whisper-small&batch=16&seq={seq}&tokens=6000&epochs=1&gpu=a100-80gb")))
            .unwrap();
        let t = r.time.as_ref().expect("time");
        let steps = t.train_hours * 3600.0 / t.step_s;
        assert!((steps - 375.0).abs() < 0.5, "seq {seq}: {steps} steps");
    }
}

#[test]
fn what_no_whisper_trainer_runs_is_refused_by_key() {
    assert_eq!(refused_key("model=whisper-small&seq=449"), "seq");
    assert_eq!(refused_key("model=whisper-small&seq=128&method=prefix"), "method");
    assert_eq!(refused_key("model=whisper-small&seq=128&framework=torchtune"), "framework");
    assert_eq!(refused_key("model=whisper-small&seq=128&gpus=2&tp=2"), "tp");
    // What they do run: LoRA under Unsloth, FSDP over two GPUs, 8-bit LoRA.
    for ok in [
        "model=whisper-large-v3&seq=128&method=lora&framework=unsloth",
        "model=whisper-medium&seq=128&method=full&gpus=2&shard=fsdp",
        "model=whisper-large-v2&seq=128&method=qlora&quant=int8",
    ] {
        evaluate(&q(ok)).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
}

#[test]
fn model_flops_per_clip_are_the_encoders_and_the_decoders_counted_by_hand() {
    // whisper-small in full at 64 labels, forward FLOPs of one clip (2 a multiply-add):
    let (d, positions, labels) = (768.0f64, 1500.0, 64.0);
    let encoder_linears = 12.0 * (4.0 * d * d + 3.0 * d + 2.0 * d * 3072.0 + 3072.0 + d);
    let cross_kv = 12.0 * 2.0 * d * d;
    let convs = 2.0 * 3.0 * d * (3000.0 * 80.0 + positions * d);
    let encoder = 2.0 * (encoder_linears + cross_kv) * positions + convs + 4.0 * d * positions * positions * 12.0;
    // The decoder's 153,580,800 parameters on every label, less its cross k/v (run on the
    // positions above), its self-attention (the non-causal count) and each label's
    // cross-attention over the positions.
    let decoder = 2.0 * (153_580_800.0 - cross_kv) * labels
        + 4.0 * 12.0 * d * labels * labels
        + 4.0 * d * positions * 12.0 * labels;
    // A full fine-tune's backward is twice its forward.
    let want = 3.0 * (encoder + decoder);
    let r = evaluate(&q("model=whisper-small&method=full&seq=64&batch=1&gpu=a100-80gb")).unwrap();
    let got = r.time.as_ref().unwrap().model_flops_per_token * labels;
    assert!((got / want - 1.0).abs() < 0.005, "{got:e} vs {want:e}");
    // The encoder is most of a clip's work at 64 labels: twice the labels is far from twice it.
    let r = evaluate(&q("model=whisper-small&method=full&seq=128&batch=1&gpu=a100-80gb")).unwrap();
    let per_clip_128 = r.time.as_ref().unwrap().model_flops_per_token * 128.0;
    assert!(per_clip_128 < 1.3 * got, "{per_clip_128:e} vs {got:e}");
}

#[test]
fn choosing_whisper_after_a_language_model_keeps_the_datasets_samples() {
    // 10M tokens of 2048-token sequences are 4882 samples: 4882 clips, and back again.
    let lm = q("v=2&model=llama-3.1-8b&seq=2048&tokens=10m");
    let mut w = lm.clone();
    w.model = Some("whisper-small".into());
    tunefit_core::catalog::adapt_to_model(&lm, &mut w);
    assert_eq!((w.tokens, w.seq), (4882, 448));
    let mut back = w.clone();
    back.model = Some("llama-3.1-8b".into());
    tunefit_core::catalog::adapt_to_model(&w, &mut back);
    assert_eq!(back.tokens, 4882 * 448);
    // Between two models of one unit nothing changes.
    let mut medium = w.clone();
    medium.model = Some("whisper-medium".into());
    tunefit_core::catalog::adapt_to_model(&w, &mut medium);
    assert_eq!(medium.tokens, 4882);
}

#[test]
fn whisper_under_fsdp_mixed_precision_keeps_fp32_layernorms_over_a_16_bit_stream() {
    let act = |p: &str, shard: &str| {
        let q = q(&format!(
            "v=2&model=whisper-small&method=full&precision={p}&gpus=2&shard={shard}&batch=8&seq=448&ckpt=none"
        ));
        evaluate(&q).unwrap().memory.activations as f64
    };
    // FSDP's 16-bit compute copies make the stream fp16 under fp16-mixed, as DeepSpeed's engine
    // does: the encoder's clamp keeps its input in both, by the same bytes.
    let fsdp_fp16 = act("fp16-mixed", "fsdp") - act("bf16-mixed", "fsdp");
    let ds_fp16 = act("fp16-mixed", "zero3") - act("bf16-mixed", "zero3");
    assert!(fsdp_fp16 > 0.0 && (fsdp_fp16 - ds_fp16).abs() < 1e6, "{fsdp_fp16} {ds_fp16}");
    // Autocast still runs the LayerNorms in fp32 under FSDP (DeepSpeed runs none).
    assert!(act("bf16-mixed", "fsdp") > act("bf16-mixed", "zero3"));
}
