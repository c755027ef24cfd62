//! Whisper (#21, speech): exact counts, PEFT's trainable count, the saved tensors of real
//! training forwards (data/calibration/whisper-saved.json, tools/calibrate/whisper_probe.py),
//! the community fine-tuning event's batch sizes that fit, and what a Whisper query refuses.
use serde_json::Value;
use tunefit_core::{evaluate, Error, Query};

fn q(s: &str) -> Query {
    Query::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn refused_key(s: &str) -> &'static str {
    match evaluate(&q(s)) {
        Err(Error::Refused(r)) => r.key(),
        other => panic!("{s}: expected a refusal, got {:?}", other.map(|r| r.memory.allocated)),
    }
}

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
    let path = format!("{}/../../data/calibration/whisper-saved.json", env!("CARGO_MANIFEST_DIR"));
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let recs = data["records"].as_array().unwrap();
    assert!(recs.len() >= 12, "{} records", recs.len());
    for r in recs {
        let qs = r["query"].as_str().unwrap();
        let measured = r["saved_bytes"].as_f64().unwrap();
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
    // memory and above half of it.
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
        assert!(device <= gpu_gib && device > gpu_gib / 2.0, "{s}: {device:.2} GiB");
    }
}

#[test]
fn eager_attention_over_the_clips_is_the_encoders_backward() {
    let r = tunefit_core::evaluate_with_timeline(&q(
        "model=whisper-small&batch=16&seq=128&method=full&precision=fp16-mixed&ckpt=full&attn=eager",
    ))
    .unwrap();
    assert_eq!(r.memory.peak_phase.as_deref(), Some("backward of the audio encoder"));
    // Each clip adds the eager softmax over 12 heads × 1500² positions in the rebuilt block
    // (fp32 and its 16-bit cast) and its gradients (16-bit, fp32 cast, fp32): 16 B a score.
    let b17 =
        evaluate(&q("model=whisper-small&batch=17&seq=128&method=full&precision=fp16-mixed&ckpt=full&attn=eager"))
            .unwrap();
    let per_clip = (b17.memory.allocated - r.memory.allocated) as f64;
    let scores = 12.0 * 1500.0 * 1500.0 * 16.0;
    assert!(per_clip > scores && per_clip < scores * 1.3, "{per_clip}");
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
