//! Settings that 2025–26 recipes use by default: each key's memory effect,
//! against the implementing source's arithmetic.
use tunefit_core::{evaluate, Query};

fn mem(q: &str) -> tunefit_core::report::MemoryBreakdown {
    evaluate(&Query::parse(q).unwrap()).unwrap().memory
}

#[test]
fn fused_linear_loss_holds_one_chunk_of_logits() {
    // Liger's FusedLinearCrossEntropy on Llama 3.1 8B, 4 × 2048 tokens, bf16: the input's
    // gradient (8192 × 4096 × 2 B), one chunk of next_power_of_2(⌈8192 / ⌈128256/4096⌉⌉) = 256
    // rows of logits and their input gradient (256 × (128256 + 4096) × 2 B) and an fp32 loss
    // per token.
    let base = "model=llama-3.1-8b&method=lora&precision=bf16-true&batch=4&seq=2048";
    let fused = mem(&format!("{base}&loss=fused-linear"));
    let expected = 8192.0 * 4096.0 * 2.0 + 256.0 * (128_256.0 + 4096.0) * 2.0 + 8192.0 * 4.0;
    assert!((fused.logits as f64 - expected).abs() < 1e3, "{} vs {expected}", fused.logits);
    // Far below torchtune's chunked loss (every chunk's fp32 log-probs) and the full fp32 path.
    let chunked = mem(&format!("{base}&loss=chunked"));
    let standard = mem(&format!("{base}&loss=standard"));
    assert!(
        fused.logits * 20 < chunked.logits && chunked.logits < standard.logits,
        "{} {} {}",
        fused.logits,
        chunked.logits,
        standard.logits
    );
    assert!(fused.allocated < chunked.allocated);
}

#[test]
fn optimizer_in_backward_keeps_one_gradient_at_a_time() {
    // Short sequences: the whole model's gradients outweigh the activations, so they decide
    // the peak unless they are freed as they are made.
    let base =
        "model=llama-3.1-8b&method=full&precision=bf16-true&framework=torchtune&batch=1&seq=256&loss=fused-linear";
    let plain = mem(base);
    let inbwd = mem(&format!("{base}&optim_in_bwd=1"));
    // The largest tensor is the embedding (or the untied head): 128256 × 4096 bf16.
    assert_eq!(inbwd.gradients, 128_256 * 4096 * 2);
    assert!(plain.gradients > 16_000_000_000, "{}", plain.gradients);
    assert!(inbwd.allocated + 8_000_000_000 < plain.allocated, "{} vs {}", inbwd.allocated, plain.allocated);
    // No gradient accumulation: the key is named in the refusal.
    let e = evaluate(&Query::parse(&format!("{base}&optim_in_bwd=1&ga=4")).unwrap()).unwrap_err();
    assert!(e.to_string().contains("optim_in_bwd") && e.to_string().contains("ga=4"), "{e}");
}

#[test]
fn torchao_low_bit_adamw_states() {
    let base = "model=llama-3.2-1b&method=full&precision=bf16-true";
    let p = 1_235_814_400f64;
    let four = mem(&format!("{base}&optim=adamw-4bit-ao"));
    assert!((four.optimizer as f64 - p * 2.0 * (0.5 + 4.0 / 128.0)).abs() < 16.0, "{}", four.optimizer);
    let eight = mem(&format!("{base}&optim=adamw-8bit-ao"));
    let fp8 = mem(&format!("{base}&optim=adamw-fp8-ao"));
    assert_eq!(eight.optimizer, fp8.optimizer);
    assert!((eight.optimizer as f64 - p * 2.0 * (1.0 + 4.0 / 256.0)).abs() < 16.0, "{}", eight.optimizer);
    assert!(four.optimizer < eight.optimizer && eight.optimizer < mem(base).optimizer);
}

#[test]
fn per_op_and_every_nth_block_checkpointing_sit_between_none_and_full() {
    let base =
        "model=llama-3.1-8b&method=full&precision=bf16-true&batch=1&seq=4096&gpus=8&shard=fsdp&loss=fused-linear";
    let act = |ck: &str| mem(&format!("{base}&{ck}")).activations;
    let (none, full, op) = (act("ckpt=none"), act("ckpt=full"), act("ckpt=op"));
    assert!(full < op && op < none, "full {full} op {op} none {none}");
    // torchtitan's per-op policy keeps, per block, its input, q, v, the attention output and
    // its log-sum-exp, w1's and w2's outputs: (4096 + 4096 + 1024 + 4096 + 14336 + 4096) × 2 B
    // per token, about 70 % of the block input plus a third of the unsaved block.
    let every2 = act("ckpt=full&ckpt_every=2");
    assert!(every2 > full && every2 < none, "{every2}");
    // Half the blocks keep everything: about the mean of the two.
    let mean = (none + full) as f64 / 2.0;
    assert!((every2 as f64 / mean - 1.0).abs() < 0.1, "{every2} vs {mean}");
    // ckpt_every with no checkpointing changes nothing.
    assert_eq!(act("ckpt=none&ckpt_every=3"), none);
}

#[test]
fn per_op_checkpointing_recomputes_less_than_full() {
    let t = |ck: &str| {
        let r = evaluate(
            &Query::parse(&format!("model=llama-3.1-8b&method=full&gpus=8&shard=fsdp&gpu=h100-sxm&tokens=100m&{ck}"))
                .unwrap(),
        )
        .unwrap();
        r.time.unwrap().hours
    };
    let (none, op, full) = (t("ckpt=none"), t("ckpt=op"), t("ckpt=full"));
    assert!(none < op && op < full, "{none} {op} {full}");
    assert!(t("ckpt=full&ckpt_every=2") < full);
}

#[test]
fn gpt_oss_experts_stay_in_mxfp4_or_load_dequantized() {
    // gpt-oss-20b: 24 blocks × 32 experts × 3 × 2880 × 2880 expert weights, 4.25 bits in MXFP4
    // against 16 bits dequantized; LoRA on attention only.
    let base = "model=gpt-oss-20b&method=lora&targets=q,k,v,o&precision=bf16-true";
    let native = mem(base);
    let mx = mem(&format!("{base}&expert_format=mxfp4"));
    let experts = 24.0 * 32.0 * 3.0 * 2880.0 * 2880.0;
    let saved = native.weights as f64 - mx.weights as f64;
    assert!((saved - experts * (2.0 - 4.25 / 8.0)).abs() < 1e3, "{saved}");
    // ≈ 12.8 GiB of checkpoint (OpenAI: fits in 16 GB).
    assert!((mx.weights as f64 / 1073741824.0 - 12.8).abs() < 0.3, "{}", mx.weights as f64 / 1073741824.0);
    // Experts in MXFP4 cannot train or carry adapters: the refusal names the key.
    for bad in
        ["model=gpt-oss-20b&method=full&expert_format=mxfp4", "model=gpt-oss-20b&method=lora&expert_format=mxfp4"]
    {
        let e = evaluate(&Query::parse(bad).unwrap()).unwrap_err();
        assert!(e.to_string().contains("expert_format"), "{bad}: {e}");
    }
}

#[test]
fn galore_keeps_low_rank_states_for_the_block_linears() {
    // Llama 3.2 1B full fine-tune in bf16, rank 128: each m × n block linear keeps
    // 2·max(m, n)·128 + 128·min(m, n) state elements instead of 2·m·n; embeddings and norms
    // keep AdamW's two.
    let base = "model=llama-3.2-1b&method=full&precision=bf16-true";
    let adam = mem(&format!("{base}&optim=adamw"));
    let galore = mem(&format!("{base}&optim=galore-adamw"));
    let a = &tunefit_core::catalog::preset("llama-3.2-1b").unwrap().arch;
    let (h, kv, f, l) = (2048.0, 512.0, 8192.0, 16.0);
    let r = 128.0;
    let mats = [(h, h), (h, kv), (h, kv), (h, h), (h, f), (h, f), (f, h)];
    let states: f64 = mats.iter().map(|(m, n): &(f64, f64)| 2.0 * m.max(*n) * r + r * m.min(*n)).sum::<f64>() * l;
    let projected: f64 = mats.iter().map(|(m, n)| m * n).sum::<f64>() * l;
    let rest = a.param_count() as f64 - projected;
    let expected = (states + rest * 2.0) * 2.0;
    assert!((galore.optimizer as f64 - expected).abs() < 1e3, "{} vs {expected}", galore.optimizer);
    assert!(galore.optimizer * 3 < adam.optimizer);
    // A larger rank keeps more.
    assert!(mem(&format!("{base}&optim=galore-adamw&galore_rank=512")).optimizer > galore.optimizer);
}

#[test]
fn unsloth_in_fp16_casts_its_logits_to_the_checkpoints_bf16() {
    // Unsloth's forward casts logits to config.torch_dtype (bf16 for current checkpoints): in
    // fp16 (a T4) a second 16-bit V-wide copy lives while the gradient is cast back.
    let q = |p: &str| mem(&format!("model=llama-3.1-8b&framework=unsloth&method=qlora&batch=2&seq=2048&precision={p}"));
    let (fp16, bf16) = (q("fp16-true"), q("bf16-true"));
    let v = 4096.0 * 128_256.0;
    assert!((fp16.logits as f64 - bf16.logits as f64 - v * 2.0).abs() < 1e3, "{} vs {}", fp16.logits, bf16.logits);
}

#[test]
fn autocast_never_copies_mxfp4_experts() {
    // Under bf16-mixed, autocast saves a 16-bit copy of each fp32 matmul weight; MXFP4 experts
    // are dequantized by their own kernel instead, so their copies are not saved.
    let q =
        |f: &str| mem(&format!("model=gpt-oss-20b&method=lora&targets=q,k,v,o&precision=bf16-mixed&expert_format={f}"));
    let (native, mx) = (q("native"), q("mxfp4"));
    let experts = 24.0 * 32.0 * 3.0 * 2880.0 * 2880.0;
    assert!(
        (native.saved_for_backward as f64 - mx.saved_for_backward as f64 - experts * 2.0).abs() < 1e3,
        "{} vs {}",
        native.saved_for_backward,
        mx.saved_for_backward
    );
}

#[test]
fn a_dynamic_4bit_checkpoint_keeps_its_listed_modules_in_16_bits() {
    // Unsloth's dynamic 4-bit checkpoints list block modules in llm_int8_skip_modules: those
    // stay 16-bit. Llama 3.1 8B: block 0's MLP (3·4096·14336) and block 1's attention.
    let base = "model=llama-3.1-8b&method=qlora&precision=bf16-true&dq=1";
    let plain = mem(base);
    let skip = mem(&format!("{base}&quant_skip=0.mlp,1.self_attn,2.mlp.down_proj"));
    let params = 3.0 * 4096.0 * 14336.0 + (4096.0 * (4096.0 + 2.0 * 1024.0) + 4096.0 * 4096.0) + 14336.0 * 4096.0;
    let bits = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);
    let extra = skip.weights as f64 - plain.weights as f64;
    assert!((extra - params * (2.0 - bits / 8.0)).abs() < 1e3, "{extra}");
    // A block that does not exist names the key; an unknown part is refused at parse.
    let e = tunefit_core::evaluate(&Query::parse(&format!("{base}&quant_skip=40.mlp")).unwrap()).unwrap_err();
    assert!(e.to_string().contains("quant_skip"), "{e}");
    assert!(Query::parse("quant_skip=3.mlp.experts").is_err());
    // A pasted config's list becomes the key (other entries passed over).
    let cfg = r#"{"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256,
      "quantization_config":{"quant_method":"bitsandbytes","load_in_4bit":true,"llm_int8_skip_modules":["lm_head","model.layers.1.self_attn","model.layers.0.mlp","model.layers.2.mlp.down_proj","model.layers.3.input_layernorm"]}}"#;
    let line = tunefit_core::hfconfig::read_for_page(cfg);
    assert!(line.contains("&quant_skip=0.mlp,1.self_attn,2.mlp.down_proj"), "{line}");
}
