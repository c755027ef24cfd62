//! Trainable-parameter counts per method (exact, GQA-aware) and framework-profile rules.
use tunefit_core::{evaluate, Query};

fn trainable(q: &str) -> u64 {
    evaluate(&Query::parse(q).unwrap()).unwrap().model.trainable_params
}
fn mem(q: &str) -> tunefit_core::report::MemoryBreakdown {
    evaluate(&Query::parse(q).unwrap()).unwrap().memory
}

#[test]
fn lora_counts_match_logged_runs() {
    // PEFT MetaMathQA: Llama-3.2-3B r32 q,v → 9,175,040 (logged num_trainable_params).
    assert_eq!(trainable("model=llama-3.2-3b&method=lora&rank=32&targets=q,v"), 9_175_040);
    // litgpt resource tables: r8 query+value.
    assert_eq!(trainable("model=llama-2-7b&method=lora&rank=8&targets=q,v"), 4_194_304);
    assert_eq!(trainable("model=phi-1.5&method=lora&rank=8&targets=q,v"), 1_572_864);
    // GQA: k and v map 4096 → 1024 on Llama 3.1 8B: r·(4096 + 1024) each.
    assert_eq!(trainable("model=llama-3.1-8b&method=lora&rank=16&targets=k"), 32 * 16 * (4096 + 1024));
    // All seven linears, r16, Llama 3.1 8B: the widely quoted 41,943,040.
    assert_eq!(trainable("model=llama-3.1-8b&method=lora&rank=16&targets=all"), 41_943_040);
    // MoE: one adapter per expert projection.
    let one = trainable("model=mixtral-8x7b&method=lora&rank=8&targets=up");
    assert_eq!(one, 32 * 8 * 8 * (4096 + 14336));
}

#[test]
fn other_methods() {
    let l = trainable("model=llama-3.1-8b&method=lora&rank=16&targets=q,v");
    // DoRA adds a magnitude vector of `out` per adapted linear.
    assert_eq!(trainable("model=llama-3.1-8b&method=dora&rank=16&targets=q,v"), l + 32 * (4096 + 1024));
    assert_eq!(trainable("model=llama-3.1-8b&method=qlora&rank=16&targets=q,v"), l);
    // Embedding and LM head trained in full on top of the adapters.
    assert_eq!(trainable("model=llama-3.1-8b&method=lora&rank=16&targets=q,v,embed,lm_head"), l + 2 * 128_256 * 4096);
    // Tied model: embed and lm_head are one matrix.
    assert_eq!(
        trainable("model=llama-3.2-1b&method=lora&rank=16&targets=q,embed,lm_head"),
        trainable("model=llama-3.2-1b&method=lora&rank=16&targets=q,embed")
    );
    // Freeze: last N blocks.
    let a = tunefit_core::catalog::preset("llama-3.1-8b").unwrap().arch.clone();
    assert_eq!(trainable("model=llama-3.1-8b&method=freeze&train_layers=2"), 2 * a.layer_params());
    // Houlsby bottleneck adapters: two per block, down and up with biases.
    assert_eq!(trainable("model=llama-3.1-8b&method=adapter&bottleneck=64"), 32 * 2 * (2 * 4096 * 64 + 64 + 4096));
    // Prefix: virtual_tokens · layers · 2 · kv_dim; prompt: virtual_tokens · hidden.
    assert_eq!(trainable("model=llama-3.1-8b&method=prefix&virtual_tokens=20"), 20 * 32 * 2 * 1024);
    assert_eq!(trainable("model=llama-3.1-8b&method=prompt&virtual_tokens=20"), 20 * 4096);
    assert_eq!(trainable("model=llama-3.1-8b&method=full"), 8_030_261_248);
}

#[test]
fn precision_and_optimizer_bytes() {
    let p = 8_030_261_248u64;
    // bf16-true full AdamW: 2 B weights, 2 B grads, 4 B states.
    let m = mem("model=llama-3.1-8b&method=full&precision=bf16-true");
    assert_eq!((m.weights, m.gradients, m.optimizer), (2 * p, 2 * p, 4 * p));
    // Mixed without sharding (torch AMP): fp32 weights and grads, fp32 states.
    let m = mem("model=llama-3.1-8b&method=full&precision=bf16-mixed");
    assert_eq!((m.weights, m.gradients, m.optimizer), (4 * p, 4 * p, 8 * p));
    assert_eq!(mem("model=llama-3.1-8b&method=full&precision=bf16-true&optim=sgd").optimizer, 0);
    assert_eq!(mem("model=llama-3.1-8b&method=full&precision=bf16-true&optim=lion").optimizer, 2 * p);
    let eight = mem("model=llama-3.1-8b&method=full&precision=bf16-true&optim=adamw-8bit").optimizer as f64;
    assert!((eight / p as f64 - 2.03).abs() < 0.01);
    let fac = mem("model=llama-3.1-8b&method=full&precision=fp32&optim=adafactor").optimizer as f64;
    assert!(fac < 0.05 * p as f64 * 4.0, "factored second moment is tiny: {fac}");
}

#[test]
fn paged_states_leave_torch_counters_but_not_device() {
    let a = mem("model=llama-3.1-8b&method=full&precision=bf16-true&optim=adamw&ckpt=full&batch=1");
    let b = mem("model=llama-3.1-8b&method=full&precision=bf16-true&optim=paged-adamw&ckpt=full&batch=1");
    assert!(b.allocated < a.allocated);
    // Device memory still holds them (paged memory is on the GPU until evicted); the two runs'
    // allocator caches differ by what each replay leaves between the live tensors.
    assert!(b.device as f64 > 0.95 * a.device as f64, "{} vs {}", b.device, a.device);
    let r = evaluate(&Query::parse("optim=paged-adamw").unwrap()).unwrap();
    assert!(r.warnings.iter().any(|w| w.code() == "paged-optimizer"));
}

#[test]
fn offload_moves_states_to_host() {
    let a = mem("model=llama-3.1-8b&method=full&precision=bf16-mixed&shard=zero3&gpus=8");
    let b = mem("model=llama-3.1-8b&method=full&precision=bf16-mixed&shard=zero3&gpus=8&offload=optimizer");
    let c = mem("model=llama-3.1-8b&method=full&precision=bf16-mixed&shard=zero3&gpus=8&offload=all");
    assert_eq!(b.optimizer, 0);
    assert!(b.host_ram > a.host_ram + a.optimizer * 8);
    assert!(c.weights == 0 && c.host_ram > b.host_ram);
}

#[test]
fn explicit_keys_override_the_profile() {
    // torchtune defaults to chunked loss and full checkpointing; explicit keys win.
    let prof = mem("framework=torchtune&method=lora&model=llama-3.2-3b");
    let expl = mem("framework=torchtune&method=lora&model=llama-3.2-3b&loss=standard&ckpt=none");
    assert!(expl.logits > prof.logits && expl.activations > prof.activations);
    let hf = mem("framework=hf&method=lora&model=llama-3.2-3b&loss=chunked&ckpt=full");
    assert!(hf.logits < mem("framework=hf&method=lora&model=llama-3.2-3b").logits);
    // Adapter dtype: explicit bf16 under hf halves adapter weights.
    let f = mem("model=llama-3.2-3b&method=lora&targets=all&rank=64&precision=bf16-true");
    let b = mem("model=llama-3.2-3b&method=lora&targets=all&rank=64&precision=bf16-true&adapter_dtype=bf16");
    assert!(b.weights < f.weights);
}

#[test]
fn physical_effects_of_new_keys() {
    let base = "model=llama-3.1-8b&method=lora&targets=all&ckpt=none&batch=2&seq=1024";
    assert!(mem(&format!("{base}&lora_dropout=0.1")).activations > mem(&format!("{base}&lora_dropout=0")).activations);
    assert!(mem(&format!("{base}&compile=1")).activations < mem(&format!("{base}&compile=0")).activations);
    // Padded batches carry a mask; packed (padding-free) ones do not, in transformers.
    assert!(mem(&format!("{base}&packing=0")).activations > mem(&format!("{base}&packing=1")).activations);
    // Eager attention keeps s² scores; flash does not.
    assert!(mem(&format!("{base}&attn=eager")).activations > mem(&format!("{base}&attn=flash")).activations);
}

#[test]
fn unsupported_combinations_warn_by_name() {
    let w = |q: &str| {
        evaluate(&Query::parse(q).unwrap()).unwrap().warnings.into_iter().map(|w| w.code()).collect::<Vec<_>>()
    };
    assert!(w("framework=torchtune&method=prefix").contains(&"framework-method"));
    assert!(w("framework=unsloth&gpus=2&shard=zero2").contains(&"framework-multi-gpu"));
    assert!(w("method=qlora&shard=zero3&offload=all&gpus=2").contains(&"qlora-zero3-offload"));
    assert!(w("framework=unsloth").contains(&"framework-precision"));
    assert!(!w("framework=unsloth&precision=bf16-true").contains(&"framework-precision"));
    // axolotl loads in 16-bit under bf16 and never upcasts; LLaMA-Factory upcasts only what
    // trains, so its full fine-tune is the fp32 model `*-mixed` counts. DeepSpeed's engine
    // holds a 16-bit model with an fp32 master whatever was loaded.
    let precision = |q: &str| w(q).contains(&"framework-precision");
    assert!(precision("framework=axolotl&method=lora&precision=bf16-mixed"));
    assert!(precision("framework=axolotl&method=full&precision=fp16-mixed"));
    assert!(!precision("framework=axolotl&method=lora&precision=bf16-true"));
    assert!(!precision("framework=axolotl&method=full&precision=bf16-mixed&gpus=2&shard=zero2"));
    assert!(precision("framework=llama-factory&method=lora&precision=bf16-mixed"));
    assert!(precision("framework=llama-factory&method=freeze&precision=bf16-mixed"));
    assert!(!precision("framework=llama-factory&method=full&precision=bf16-mixed"));
    assert!(!precision("framework=hf&method=lora&precision=bf16-mixed"));
    let text = |q: &str| {
        let r = evaluate(&Query::parse(q).unwrap()).unwrap();
        r.warnings
            .iter()
            .find(|w| w.code() == "framework-precision")
            .map(|w| w.text(tunefit_core::report::Lang::En))
            .unwrap()
    };
    assert!(text("framework=axolotl&precision=bf16-mixed").starts_with("axolotl loads the model in 16-bit"));
    assert!(text("framework=llama-factory&method=lora&precision=bf16-mixed").contains("fp32 frozen base"));
    assert!(text("framework=unsloth").starts_with("unsloth loads the model in 16-bit"));
    // axolotl's fp32 token table, head and norms: full or freeze, sdpa or eager, no sharding.
    let fp32_modules = |q: &str| w(q).contains(&"axolotl-fp32-modules");
    assert!(fp32_modules("framework=axolotl&method=full&precision=bf16-true&attn=sdpa"));
    assert!(fp32_modules("framework=axolotl&method=freeze&precision=bf16-true&attn=eager"));
    assert!(!fp32_modules("framework=axolotl&method=full&precision=bf16-true"), "flash by default: cast back");
    assert!(!fp32_modules("framework=axolotl&method=lora&precision=bf16-true&attn=sdpa"));
    assert!(!fp32_modules("framework=axolotl&method=full&precision=bf16-true&attn=sdpa&gpus=2&shard=fsdp"));
    assert!(!fp32_modules("framework=hf&method=full&precision=bf16-true&attn=sdpa"));
    let e = Query::parse("framework=megatron").unwrap_err();
    assert!(e.0[0].message.contains("hf|torchtune|litgpt|unsloth|axolotl|llama-factory"));
}

#[test]
fn zero_filled_gradients_sit_beside_activations() {
    // set_to_none=0 (torch 1.x zero_grad): at ga=1 the gradients now coexist with the
    // activations of the next step; with ga>1 they already did, so nothing changes.
    let base = "model=bert-large-uncased&method=full&precision=fp32&seq=512&attn=eager&batch=4&ckpt=none";
    let freed = mem(base);
    let kept = mem(&format!("{base}&set_to_none=0"));
    assert_eq!(kept.gradients, freed.gradients);
    // The forward/backward peak grows by the gradients the set_to_none=1 peak left out
    // (all but the first-produced gradient, the embedding's).
    assert!(kept.allocated > freed.allocated + freed.gradients / 2, "{} vs {}", kept.allocated, freed.allocated);
    assert!(kept.allocated <= freed.allocated + freed.gradients);
    let ga = format!("{base}&batch=1&ga=4");
    assert_eq!(mem(&ga).allocated, mem(&format!("{ga}&set_to_none=0")).allocated);
    // Both spellings decode; a bad value names the key.
    assert!(Query::parse("set_to_none=2").unwrap_err().to_string().contains("set_to_none"));
}

#[test]
fn litgpt_mha_v_view_keeps_the_fused_qkv_output() {
    // lit-gpt's fused `attn` linear: for MHA, SDPA's saved v is a view of the whole q+k+v
    // output, 2·h more 16-bit elements per token per layer than a separate v would keep.
    let q = |fw: &str, model: &str| {
        format!("framework={fw}&model={model}&precision=bf16-true&method=lora&rank=8&targets=q,v&batch=1&seq=1024&ckpt=none&attn=sdpa&lora_dropout=0&adapter_dtype=bf16&loss=chunked&packing=1")
    };
    let act = |s: String| mem(&s).activations as f64;
    // Llama 2 7B is MHA: 32 layers × 1024 tokens × 2·4096 elements × 2 B = 512 MiB more
    // than torchtune (separate q/k/v projections; same settings otherwise where it matters).
    let lit = act(q("litgpt", "llama-2-7b"));
    let fused_extra = 32.0 * 1024.0 * 2.0 * 4096.0 * 2.0;
    // With GQA (Llama 3.1 8B) lit-gpt's expand + reshape copies k and v: no whole-qkv view.
    let lit_gqa = act(q("litgpt", "llama-3.1-8b"));
    let tt_gqa = act(q("torchtune", "llama-3.1-8b"));
    let tt = act(q("torchtune", "llama-2-7b"));
    // Both keep lora_B's output of the adapted q and v besides: `LoRAQKVLinear.zero_pad`'s
    // `index_copy_` keeps its source (q + v wide: 2·4096 for Llama 2, 4096 + 1024 for GQA).
    let zero_pad = |width: f64| 32.0 * 1024.0 * width * 2.0;
    assert_eq!(lit - tt, fused_extra + zero_pad(8192.0), "litgpt {lit} torchtune {tt}");
    assert_eq!(lit_gqa - tt_gqa, zero_pad(5120.0), "GQA litgpt {lit_gqa} torchtune {tt_gqa}");
}

#[test]
fn activation_offloading_moves_blocks_to_host() {
    let base = "framework=torchtune&model=llama-3.2-3b&precision=bf16-true&method=lora&rank=16&batch=2&seq=4096&ckpt=full&packing=1";
    let on_gpu = mem(base);
    let off = mem(&format!("{base}&act_offload=1"));
    // 28 checkpointed block inputs (bf16, 8192 × 3072) → 2 stay on the GPU, 26 go to host.
    let block = 8192.0 * 3072.0 * 2.0;
    let moved = on_gpu.activations as f64 - off.activations as f64;
    assert!((moved - 26.0 * block).abs() < 0.01 * block * 26.0, "moved {moved}");
    assert!((off.host_ram as f64 - on_gpu.host_ram as f64 - 26.0 * block).abs() < 0.01 * block * 26.0);
    // Without checkpointing every saved tensor of a block is offloaded: a far bigger saving.
    let nockpt = base.replace("ckpt=full", "ckpt=none");
    assert!(mem(&nockpt).activations > 5 * mem(&format!("{nockpt}&act_offload=1")).activations);
    // Unsloth offloads through its checkpointing only; torchtune ships it off.
    let u = "framework=unsloth&model=llama-3.2-3b&method=lora&batch=2&seq=4096";
    assert!(mem(&format!("{u}&ckpt=full")).host_ram > mem(&format!("{u}&ckpt=full&act_offload=0")).host_ram);
    assert_eq!(mem(&format!("{u}&ckpt=none")).activations, mem(&format!("{u}&ckpt=none&act_offload=0")).activations);
    assert_eq!(mem(base).activations, mem(&format!("{base}&act_offload=0")).activations);
}

#[test]
fn fsdp_buffers_follow_storage_and_trainability() {
    // Two gathered blocks + one unit's gradients, per GPU, beyond the sharded states, and the
    // root unit (embedding, final norm, head), which FSDP does not reshard after forward.
    let over = |q: &str| {
        let q = Query::parse(q).unwrap();
        let s = tunefit_core::settings::Settings::resolve(&q).unwrap();
        tunefit_core::memory::estimate(&s).unwrap().detail.framework_buffers
    };
    let base = "model=llama-2-70b&gpus=8&shard=fsdp&batch=1&seq=2048&ckpt=full&precision=bf16-true";
    let layer = 855_654_400.0; // Llama 2 70B: one block's parameters
    let root = 2.0 * (2.0 * 32_000.0 * 8192.0 + 8192.0); // embedding + head + final norm, 16-bit
    let full = over(&format!("{base}&method=full"));
    let lora = over(&format!("{base}&method=lora"));
    let qlora = over(&format!("{base}&method=qlora"));
    // Full: two 16-bit blocks gathered + one block's 16-bit gradients.
    assert!((full - 3.0 * 2.0 * layer - root).abs() < 0.05 * full, "full {full}");
    // LoRA: the same gathers, but units of frozen weights carry no gradient.
    assert!((lora - 2.0 * 2.0 * layer - root).abs() < 0.05 * lora, "lora {lora}");
    // torchtune's full fine-tuning shards the embedding and output as their own units.
    let tt = over(&format!("{base}&method=full&framework=torchtune"));
    assert!((tt - 3.0 * 2.0 * layer).abs() < 0.05 * tt, "torchtune full {tt}");
    // QLoRA: packed 4-bit blocks (≈ 4.127 bits) gathered, plus one dequantized 16-bit weight.
    assert!(qlora - root < 0.5 * (lora - root), "qlora {qlora} lora {lora}");
}

#[test]
fn litgpt_keeps_the_previous_micro_batch_through_the_next_forward() {
    // litgpt's loop reassigns `logits` only when the next forward returns, and bitsandbytes
    // 0.42's MatMul4Bit keeps each 4-bit input on its ctx (not freed by backward): at the end
    // of a forward, both micro-batches' logits and the previous one's 4-bit inputs are live.
    let q = "model=llama-2-7b&method=qlora&dq=0&rank=32&targets=q,v&optim=paged-adamw&batch=2&ga=4&ckpt=none&gpus=1&framework=litgpt&precision=bf16-true&seq=512&packing=0&loss=chunked";
    let m = mem(q);
    let (h, qd, f, v, layers, t) = (4096.0, 4096.0, 11008.0, 32000.0, 32.0, 1024.0);
    let inputs = 2.0 * (2.0 * h + qd + f) * t * layers - 2.0 * h * t + 2.0 * h * t;
    let outputs = 2.0 * 2.0 * v * t;
    let states = (m.weights + m.gradients + m.optimizer + m.activations) as f64;
    assert!(m.allocated as f64 >= states + outputs + inputs, "{} < {}", m.allocated, states + outputs + inputs);
    // The same loop under current bitsandbytes semantics (hf profile) keeps nothing extra.
    let hf = mem(&q.replace("framework=litgpt", "framework=hf"));
    assert!((hf.allocated as f64) < (hf.weights + hf.gradients + hf.optimizer + hf.activations) as f64 + inputs);
}

#[test]
fn lightning_dequantizes_to_fp16_then_casts_to_bf16() {
    // Lightning quantizes from `.to(dtype=torch.half)`, so bnb dequantizes to fp16 and
    // MatMul4Bit casts to the bf16 compute dtype beside it: one more copy of the largest
    // 4-bit weight (litgpt quantizes the LM head: 32000 × 4096) than under fp16.
    let q = "model=llama-2-7b&method=qlora&rank=8&targets=q,v&optim=paged-adamw&batch=1&ckpt=full&gpus=1&framework=litgpt&seq=512";
    let bf16 = mem(&format!("{q}&precision=bf16-true"));
    let fp16 = mem(&format!("{q}&precision=fp16-true"));
    let diff = bf16.allocated as f64 - fp16.allocated as f64;
    assert!((diff - 32000.0 * 4096.0 * 2.0).abs() < 1048576.0, "{diff}");
}

#[test]
fn unsloth_and_axolotl_replay_with_expandable_segments() {
    use tunefit_core::framework::resolve;
    use tunefit_core::query::AllocatorMode;
    let alloc = |q: &str| resolve(&Query::parse(q).unwrap()).alloc;
    assert_eq!(alloc("framework=unsloth"), AllocatorMode::Expandable);
    assert_eq!(alloc("framework=axolotl"), AllocatorMode::Expandable);
    assert_eq!(alloc("framework=hf"), AllocatorMode::Default);
    assert_eq!(alloc("framework=torchtune"), AllocatorMode::Default);
    assert_eq!(alloc("framework=unsloth&alloc=default"), AllocatorMode::Default);
    // Expandable segments merge what fixed segments keep apart: the replay's reserved is lower,
    // for a checkpointed run as these profiles train (an unchecked 113 GiB LoRA run of the
    // same model is placement-sensitive: where the kept cuBLAS workspace lands decides it).
    let replayed = |q: &str| {
        let r = tunefit_core::report::evaluate_with_timeline(&Query::parse(q).unwrap()).unwrap();
        r.memory.replay_reserved.unwrap()
    };
    let base = "model=llama-3.1-8b&method=lora&batch=4&seq=2048&ckpt=full";
    let (fixed, grown) = (replayed(&format!("{base}&alloc=default")), replayed(&format!("{base}&alloc=expandable")));
    assert!(grown < fixed, "{grown} vs {fixed}");
}

#[test]
fn unsloth_trains_embeddings_of_an_fp16_model_in_fp32() {
    // Continued pretraining on a T4: the embedding and the LM head train in full as fp32 copies
    // (4 B weights and gradients), where a bf16 model keeps them in bf16; adapters are bf16
    // either way.
    let base =
        "framework=unsloth&model=mistral-7b-v0.3&method=qlora&rank=128&targets=all,embed,lm_head&optim=adamw-8bit";
    let (fp16, bf16) = (mem(&format!("{base}&precision=fp16-true")), mem(&format!("{base}&precision=bf16-true")));
    let full = 2.0 * 32768.0 * 4096.0;
    assert!(((fp16.weights - bf16.weights) as f64 - 2.0 * full).abs() < 1e6, "{} {}", fp16.weights, bf16.weights);
    assert!(((fp16.gradients - bf16.gradients) as f64 - 2.0 * full).abs() < 1e6);
    // The hf profile keeps them in the training precision.
    let hf = base.replace("framework=unsloth", "framework=hf");
    let (h16, hb) = (mem(&format!("{hf}&precision=fp16-true")), mem(&format!("{hf}&precision=bf16-true")));
    assert_eq!(h16.weights, hb.weights);
}

#[test]
fn deepspeed_holds_a_mixed_run_in_16_bits_and_fsdp_keeps_fp32_shards() {
    // DeepSpeed's engine casts every floating parameter to bf16 and runs no autocast; FSDP's
    // shards stay fp32. LoRA on Llama 2 7B, bf16-mixed, two GPUs: the frozen base sharded over
    // both, 2 B a weight against 4.
    let base = "v=2&model=llama-2-7b&method=lora&rank=8&targets=q,v&precision=bf16-mixed&gpus=2&framework=hf&ckpt=none";
    let ds = mem(&format!("{base}&shard=zero3"));
    let fsdp = mem(&format!("{base}&shard=fsdp"));
    let ratio = fsdp.weights as f64 / ds.weights as f64;
    assert!((ratio - 2.0).abs() < 0.02, "{ratio}");
    // Without autocast nothing casts the norms' fp32 outputs or the weights for the matmuls:
    // the same run under DeepSpeed keeps what a bf16-true run keeps.
    let true16 = mem(&format!("{}&shard=zero3", base.replace("bf16-mixed", "bf16-true")));
    assert_eq!(ds.activations, true16.activations);
    // FSDP's mixed precision computes each unit with 16-bit copies of its fp32 shards, the
    // adapters' too (accelerate's MixedPrecision `param_dtype`): no input of theirs is cast.
    assert_eq!(fsdp.activations, ds.activations);
    // A full fine-tune too: FSDP's 16-bit copies of the norms' weights give 16-bit norm
    // outputs, which q, k and v (and gate and up) share, as under DeepSpeed; autocast has no
    // fp32 weight to cast.
    let full_ft = "v=2&model=llama-3.1-8b&method=full&precision=bf16-mixed&gpus=8&framework=hf&ckpt=none";
    let act = |shard: &str| mem(&format!("{full_ft}&shard={shard}")).activations;
    assert_eq!(act("fsdp"), act("zero3"));
    // DeepSpeed keeps the fp32 master of what trains whatever the model was loaded in: a full
    // fine-tune's optimizer holds the same under bf16-true as under bf16-mixed.
    let full = "v=2&model=llama-3.1-8b&method=full&gpus=8&shard=zero3&framework=hf";
    let opt = |p: &str| mem(&format!("{full}&precision={p}")).optimizer;
    assert_eq!(opt("bf16-true"), opt("bf16-mixed"));
    // FSDP's shards are the fp32 parameters themselves, and each reduce-scattered gradient is
    // cast back to fp32 (tools/calibrate/timeline.py's bf16-mixed FSDP records: 4 bytes a
    // parameter at load, 4 more after the backward): no 16-bit shard beside an fp32 master.
    let mixed = |shard: &str| {
        mem(&format!("v=2&model=llama-3.1-8b&method=full&precision=bf16-mixed&gpus=8&framework=hf&shard={shard}"))
    };
    let (f, z) = (mixed("fsdp"), mixed("zero3"));
    let per_rank = |bytes_per_param: f64| 8.03e9 * bytes_per_param / 8.0;
    let near = |got: u64, want: f64| (got as f64 / want - 1.0).abs() < 0.01;
    assert!(near(f.weights, per_rank(4.0)) && near(f.gradients, per_rank(4.0)), "{} {}", f.weights, f.gradients);
    assert!(near(f.optimizer, per_rank(8.0)), "{}", f.optimizer);
    // DeepSpeed: 16-bit partitions and an fp32 master inside the optimizer; the same 16 bytes.
    assert!(near(z.weights, per_rank(2.0)) && near(z.optimizer, per_rank(12.0)), "{} {}", z.weights, z.optimizer);
    assert_eq!(f.weights + f.gradients + f.optimizer, z.weights + z.gradients + z.optimizer);
    // Offloaded, FSDP moves those same fp32 shards, gradients and states to the host (16 B a
    // parameter); ZeRO-Offload holds its 16-bit partitions, fp32 gradients and master with the
    // states (18 B). Host RAM counts them with the 1.5x pinned staging factor, per node.
    let offloaded = |shard: &str| {
        let host = |o: &str| {
            mem(&format!(
                "v=2&model=llama-3.1-8b&method=full&precision=bf16-mixed&gpus=8&framework=hf&shard={shard}&offload={o}"
            ))
            .host_ram as f64
        };
        host("all") - host("none")
    };
    assert!((offloaded("fsdp") / (1.5 * 16.0 * 8.03e9) - 1.0).abs() < 0.01, "{}", offloaded("fsdp"));
    assert!((offloaded("zero3") / (1.5 * 18.0 * 8.03e9) - 1.0).abs() < 0.01, "{}", offloaded("zero3"));
}

#[test]
fn fsdp_mixed_precision_computes_as_its_framework_configures_it() {
    let act = |q: &str| mem(q).activations;
    // LayerNorm is on autocast's fp32 list whatever its weight's dtype: under accelerate's
    // FSDP mixed precision GPT-2 still keeps fp32 norm inputs and outputs that each linear
    // casts, which DeepSpeed (no autocast) does not; the 16-bit stream keeps it below a
    // single GPU's fp32 model under autocast.
    let gpt2 = |shard: &str, gpus: u32| {
        act(&format!(
            "v=2&model=gpt2-xl&method=full&precision=bf16-mixed&framework=hf&ckpt=none&batch=8&seq=1024&gpus={gpus}&shard={shard}"
        ))
    };
    let (fsdp, ds, single) = (gpt2("fsdp", 8), gpt2("zero3", 8), gpt2("none", 1));
    assert!(ds < fsdp && fsdp < single, "{ds} {fsdp} {single}");
    // Lightning's FSDP mixed precision keeps param_dtype fp32 beside autocast (litgpt): its
    // blocks compute as one GPU's fp32 model under autocast does, unlike accelerate's.
    let llama = |fw: &str, gpus: u32, shard: &str| {
        act(&format!(
            "v=2&model=llama-3.1-8b&method=full&precision=bf16-mixed&ckpt=none&batch=4&seq=2048&framework={fw}&gpus={gpus}&shard={shard}"
        ))
    };
    assert_eq!(llama("litgpt", 8, "fsdp"), llama("litgpt", 1, "none"));
    assert!(llama("hf", 8, "fsdp") < llama("hf", 1, "none"));
    // The Trainer's bf16 flag over a bf16 load under FSDP (Liger-Kernel's examples): accelerate
    // upcasts what trains to fp32, so the states are bf16-mixed's, not a 16-bit model's.
    let states = |p: &str| {
        let m = mem(&format!("v=2&model=llama-3.1-8b&method=full&framework=hf&gpus=8&shard=fsdp&precision={p}"));
        (m.weights, m.gradients, m.optimizer)
    };
    assert_eq!(states("bf16-true&autocast=1"), states("bf16-mixed"));
    assert!(states("bf16-true&autocast=0").0 * 2 == states("bf16-mixed").0);
}

#[test]
fn deepspeed_allocates_its_gradient_buckets_whole_on_any_number_of_gpus() {
    // ZeRO-2 copies each gradient into a contiguous bucket of reduce_bucket_size (5e8 elements,
    // bf16; one: DeepSpeed turns overlap_comm on for ZeRO-3 only): about 1 GB beside a LoRA
    // whose own gradients are a few MB, on one GPU as on four.
    for gpus in [1, 4] {
        let at = |shard: &str| {
            mem(&format!(
                "v=2&model=llama-3.2-1b&method=lora&rank=8&precision=bf16-true&gpus={gpus}&shard={shard}&framework=hf"
            ))
            .overhead as f64
        };
        let extra = at("zero2") - at("none");
        assert!(extra > 0.85e9 && extra < 1.1e9, "{gpus} GPU(s): {extra:e}");
    }
}
