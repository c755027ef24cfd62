//! Framework profiles: what each training framework's code allocates, as defaults.
//!
//! A profile is read from the framework's source (file and function per field in
//! docs/frameworks.md); it never holds a fitted multiplier. An explicitly set query key
//! (`adapter_dtype`, `ckpt`, `attn`, `loss`, `packing`, `compile`, `lora_dropout`,
//! `act_offload`) always
//! wins over the profile's default: `resolve` applies the profile only to `None` fields.

use crate::activation::NormImpl;
use crate::diag::Warning;
use crate::query::{
    AdapterDtype, AllocatorMode, Attention, Checkpointing, Format, Framework, Loss, Method, OptimizerImpl, Query,
    ShardingStrategy,
};

/// How the loss turns hidden states into a scalar, and what it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogitsImpl {
    /// Full logits in the model dtype, `.float()` copy in the loss, fp32 log-softmax saved
    /// (transformers `ForCausalLMLoss`).
    Fp32Upcast,
    /// Full logits in the model dtype; cross-entropy in that dtype (litgpt 2023:
    /// lm_head chunked along the sequence, chunked CE, no upcast).
    ModelDtype,
    /// Output projection and CE in chunks, each chunk upcast to fp32 and freed
    /// (torchtune `CEWithChunkedOutputLoss`, 8 chunks).
    ChunkedFp32 { chunks: u32 },
    /// Unsloth's fused cross-entropy: full logits in the model dtype, the gradient written
    /// into them in place, an fp32 log-sum-exp per token.
    Fused,
    /// The LM head fused into the loss (Liger's FusedLinearCrossEntropy, Apple's Cut
    /// Cross-Entropy, `loss=fused-linear`): one chunk of logits at a time, the input's
    /// gradient computed in forward and kept for backward.
    FusedLinear,
}

/// One framework's allocation behaviour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub framework: Framework,
    pub adapter_dtype: AdapterDtype,
    /// The adapter casts its input to the adapter dtype (PEFT `_cast_input_dtype`).
    pub lora_casts_input: bool,
    pub norm: NormImpl,
    /// NF4 implementation: bitsandbytes or torchao.
    pub nf4_bnb: bool,
    /// bitsandbytes' `MatMul4Bit.forward` keeps the quantized linear's input `A` for backward
    /// (`ctx.tensors = (A, B)`), although the frozen 4-bit weight never needs it. True up to
    /// bitsandbytes 0.43.1; PR #1270 (merged 2024-07-16, released in 0.43.2) changed it to
    /// `ctx.tensors = (None, B)`. A version property: the profile carries the version its
    /// framework's reference runs used.
    pub quant_saves_input: bool,
    /// One dequantized 16-bit weight lives during each quantized matmul (torchao's
    /// `linear_nf4` dequantizes to a full tensor; bnb's kernel also materialises it for the
    /// backward `grad @ W`).
    pub dequant_buffer: bool,
    pub logits: LogitsImpl,
    pub loss_default: Loss,
    pub ckpt_default: Checkpointing,
    /// Saved activations are moved to host memory by default (Unsloth's "unsloth" gradient
    /// checkpointing offloads the checkpointed layer inputs). torchtune ships offloading off
    /// (`enable_activation_offloading: False` in its configs); the `act_offload` key sets it.
    pub act_offload_default: bool,
    pub attn_default: Attention,
    /// How AdamW runs its step by default (`optim_impl` overrides).
    pub optimizer_impl: OptimizerImpl,
    /// SDPA path expands GQA k/v to all heads before the kernel.
    pub expand_kv: bool,
    pub packing_default: bool,
    pub compile_default: bool,
    /// LoRA dropout default (PEFT LoraConfig 0.0; litgpt 0.05; Axolotl/LLaMA-Factory 0.0/0.05).
    pub lora_dropout_default: f64,
    /// CUDA context, bytes (nvidia-smi minus torch reserved after the first kernel).
    pub cuda_context: u64,
    /// An embedding or LM head trained in full beside adapters (PEFT `modules_to_save`) is
    /// held in fp32 when the model is fp16: Unsloth's `_offload_frozen_module_for_training`
    /// promotes float16 to float32 ("Tesla T4 must use float32", unsloth/models/llama.py
    /// @015bdef0, PR #1200), and with its offloaded checkpointing the frozen original went to
    /// disk before the copy was made (`offload_input_embeddings`, `offload_output_embeddings`).
    pub full_modules_fp32_under_fp16: bool,
    /// The model code fuses q/k/v into one linear (litgpt `CausalSelfAttention.attn`): its
    /// adapter has a single lora_A, so the adapter input (and its dropout) is kept once for q,
    /// k and v (litgpt LoRAQKVLinear), and for MHA the v that SDPA saves is a view that keeps
    /// the whole q+k+v output alive (`qkv.view(...).permute(...).split(...)`, no copy).
    pub fused_qkv_linear: bool,
    /// Padded batches hand SDPA a mask that every layer keeps, with k/v repeated to all
    /// heads (transformers' sdpa_attention_forward: `use_gqa_in_sdpa` is false with a mask).
    pub mask_per_layer: bool,
    /// Norms, RoPE, the gated activation and the loss run as fused Triton kernels (Unsloth's
    /// `unsloth/kernels/`: rms_layernorm, rope_embedding, swiglu, cross_entropy_loss), so the
    /// elementwise chains read and write each tensor once (time model only).
    pub fused_kernels: bool,
    /// The model keeps its own output projection even where the checkpoint ties it to the
    /// embedding: litgpt's `GPT` builds `lm_head` as a separate `nn.Linear` (litgpt/model.py
    /// @00af8b0d, line 25) and its converter copies `transformer.wte.weight` into
    /// `lm_head.weight` when a checkpoint has none (scripts/convert_hf_checkpoint.py @00af8b0d,
    /// lines 206–207, Llama 3.2 and Gemma), so a tied model holds two vocab × hidden matrices.
    pub unties_embeddings: bool,
    /// A 4-bit load converts a multimodal checkpoint's vision tower too: transformers'
    /// bitsandbytes integration replaces every `nn.Linear` but the output embedding
    /// (`get_keys_to_not_convert`), the tower's and projector's included. Unsloth maps a 4-bit
    /// load to its dynamic `-unsloth-bnb-4bit` checkpoint, whose skip list keeps the vision
    /// layers in 16 bits; its plain `-bnb-4bit` ones quantize them (`tower_quant=1`).
    pub quantizes_tower: bool,
    /// 4-bit quantization replaces every `nn.Linear`, the output projection included
    /// (Lightning's `BitsandbytesPrecision` class replacement, which litgpt's finetune scripts
    /// use, litgpt/finetune/lora.py @00af8b0d lines 129–138); transformers keeps `lm_head` in
    /// 16 bits (`get_keys_to_not_convert`).
    pub quantizes_lm_head: bool,
    /// The training loop binds each micro-batch's output to a variable that is reassigned only
    /// when the next forward returns (litgpt `logits = model(input_ids, lm_head_chunk_size=128)`,
    /// finetune/lora.py @8641822 lines 216–220 and litgpt/finetune/lora.py @00af8b0d lines
    /// 304–308; nothing deletes it), so the previous micro-batch's logits and its autograd
    /// graph live through the next forward. Backward freed the graph's saved variables, but
    /// not what a custom autograd Function stored as a plain attribute of its context
    /// (torch/csrc/autograd/python_function.cpp @001141491b `PyNode::release_variables`
    /// clears only `saved_variables`): bitsandbytes ≤ 0.43.1 keeps each 4-bit linear's input
    /// as `ctx.tensors = (A, B)`, so those inputs live on too (memory/retained.rs).
    pub keeps_previous_output: bool,
    /// 4-bit weights are quantized from a float16 copy, so bitsandbytes records float16 as
    /// their dtype and every dequantization makes a float16 weight, then a cast to the compute
    /// dtype when that is not float16: two 16-bit copies of the weight during its matmul.
    /// Lightning's `_Linear4bit.quantize` (src/lightning/fabric/plugins/precision/
    /// bitsandbytes.py @d9ff9f3b and @003e3070: `weight.contiguous().to(device=device,
    /// dtype=torch.half)`), which litgpt's `--quantize bnb.*` uses; bitsandbytes 0.42.0
    /// (@4870580f) `quantize_4bit` stores `dtype=A.dtype` in its `QuantState`,
    /// `dequantize_4bit` allocates `out` in `quant_state.dtype`, and `MatMul4Bit.forward`
    /// computes `F.dequantize_4bit(B, quant_state).to(A.dtype)`.
    pub quantizes_from_fp16: bool,
    /// The framework sets `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` when the person
    /// has not set it: Unsloth since 2024-03 (unsloth/__init__.py @c599ae0f, now
    /// unsloth_zoo/__init__.py @ce232d6c, torch ≥ 2.2), Axolotl (src/axolotl/utils/__init__.py
    /// @03246abb `set_pytorch_cuda_alloc_conf`, torch ≥ 2.2). The others leave the default.
    pub expandable_segments: bool,
}

const MIB: u64 = 1 << 20;

/// CUDA context: 1343 MiB measured by transformers' guide on a V100 (CUDA 11, eager
/// module loading); CUDA 12 with lazy loading measures ≈ 300–600 MiB. 1 GiB is the middle of
/// the 0.3–1.3 GiB range the reference notes record (memory-cases.md §6.5).
pub const CUDA_CONTEXT: u64 = 1024 * MIB;

pub fn profile(fw: Framework) -> Profile {
    let base = Profile {
        framework: fw,
        adapter_dtype: AdapterDtype::Fp32,
        lora_casts_input: true,
        norm: NormImpl::Upcast,
        nf4_bnb: true,
        // Current bitsandbytes (0.50.2 in the calibration probe: QLoRA saves byte for byte
        // what LoRA saves, data/calibration/saved-tensors.json).
        quant_saves_input: false,
        dequant_buffer: true,
        logits: LogitsImpl::Fp32Upcast,
        loss_default: Loss::Standard,
        ckpt_default: Checkpointing::None,
        act_offload_default: false,
        quantizes_tower: true,
        attn_default: Attention::Sdpa,
        // transformers' TrainingArguments default optim is adamw_torch_fused on torch >= 2.8
        // (training_args.py `default_optim`): no foreach temporaries. Earlier releases
        // defaulted to `adamw_torch`, torch's foreach path (`optim_impl=foreach`).
        optimizer_impl: OptimizerImpl::Fused,
        // transformers 5 passes GQA k/v to SDPA unexpanded (enable_gqa); the calibration
        // probe (data/calibration/saved-tensors.json) sees k and v saved at kv heads.
        expand_kv: false,
        packing_default: false,
        compile_default: false,
        lora_dropout_default: 0.0,
        cuda_context: CUDA_CONTEXT,
        full_modules_fp32_under_fp16: false,
        fused_qkv_linear: false,
        mask_per_layer: true,
        fused_kernels: false,
        unties_embeddings: false,
        quantizes_lm_head: false,
        keeps_previous_output: false,
        // transformers' Params4bit quantizes the checkpoint's own dtype (bf16 stays bf16).
        quantizes_from_fp16: false,
        expandable_segments: false,
    };
    match fw {
        // transformers Trainer + PEFT: autocast_adapter_dtype=True keeps LoRA fp32 and
        // casts inputs; LlamaRMSNorm upcasts; ForCausalLMLoss upcasts logits; bnb NF4;
        // torch AdamW fused. Checkpointing on: TRL's SFTConfig, through which most people run
        // the Trainer on a language model, defaults `gradient_checkpointing=True`
        // (trl/trainer/base_config.py @f2cd5771, "Defaults to True instead of False"); v=1
        // links keep the bare TrainingArguments' False (`resolve`).
        Framework::Hf => Profile { ckpt_default: Checkpointing::Full, ..base },
        // torchtune: LoRA in bf16, torchao NF4 (linear_nf4 saves no input), RMSNorm
        // upcast, CEWithChunkedOutputLoss in the shipped LoRA/QLoRA configs, fused AdamW,
        // activation checkpointing on in the shipped configs.
        Framework::Torchtune => Profile {
            adapter_dtype: AdapterDtype::Bf16,
            lora_casts_input: false,
            nf4_bnb: false,
            quant_saves_input: false,
            logits: LogitsImpl::ChunkedFp32 { chunks: 8 },
            loss_default: Loss::Chunked,
            ckpt_default: Checkpointing::Full,
            optimizer_impl: OptimizerImpl::Fused,
            expand_kv: true,
            mask_per_layer: false,
            ..base
        },
        // litgpt: bf16-true, LoRA weights in the param dtype, bnb NF4, lm_head chunked and
        // chunked CE without upcast, LoRA dropout 0.05, no AC on one GPU.
        Framework::Litgpt => Profile {
            adapter_dtype: AdapterDtype::Bf16,
            lora_casts_input: false,
            logits: LogitsImpl::ModelDtype,
            loss_default: Loss::Chunked,
            lora_dropout_default: 0.05,
            // litgpt builds torch.optim.AdamW with default arguments: foreach on CUDA.
            optimizer_impl: OptimizerImpl::Foreach,
            expand_kv: true,
            fused_qkv_linear: true,
            mask_per_layer: false,
            // The profile is lit-gpt of Oct 2023 (resource tables @8641822, bitsandbytes
            // 0.41.1), whose MatMul4Bit still saved its input A.
            quant_saves_input: true,
            unties_embeddings: true,
            quantizes_lm_head: true,
            keeps_previous_output: true,
            quantizes_from_fp16: true,
            ..base
        },
        // Unsloth: Triton fused RMSNorm (saves input + rstd), fused CE, "unsloth" offloaded
        // gradient checkpointing by default, LoRA through PEFT but bf16 adapters.
        Framework::Unsloth => Profile {
            adapter_dtype: AdapterDtype::Bf16,
            lora_casts_input: false,
            norm: NormImpl::Fused,
            logits: LogitsImpl::Fused,
            loss_default: Loss::Chunked,
            ckpt_default: Checkpointing::Full,
            act_offload_default: true,
            quantizes_tower: false,
            fused_kernels: true,
            expandable_segments: true,
            full_modules_fp32_under_fp16: true,
            ..base
        },
        // Axolotl: Trainer + PEFT underneath; its example configs turn on gradient
        // checkpointing, sample packing and flash attention.
        Framework::Axolotl => Profile {
            ckpt_default: Checkpointing::Full,
            attn_default: Attention::Flash,
            packing_default: true,
            expandable_segments: true,
            ..base
        },
        // LLaMA-Factory: Trainer + PEFT, upcasts trainable params to fp32, gradient
        // checkpointing on by default (model_args.disable_gradient_checkpointing=False).
        Framework::LlamaFactory => Profile { ckpt_default: Checkpointing::Full, ..base },
    }
}

/// Settings after applying the profile to the keys the person left unset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resolved {
    pub profile: Profile,
    pub adapter_dtype: AdapterDtype,
    pub ckpt: Checkpointing,
    pub attn: Attention,
    pub loss: Loss,
    pub packing: bool,
    pub compile: bool,
    pub lora_dropout: f64,
    /// Saved activations live in host memory between forward and backward.
    pub act_offload: bool,
    pub optimizer_impl: OptimizerImpl,
    pub alloc: AllocatorMode,
    /// Under QLoRA, the vision tower's linears are 4-bit (`tower_quant`, else the profile's).
    pub tower_quant: bool,
    /// `torch.autocast` wraps the forward of a 16-bit (`*-true`) model (`autocast`).
    pub autocast_16bit: bool,
}

pub fn resolve(q: &Query) -> Resolved {
    let p = profile(q.framework);
    // PEFT's prepare_model_for_kbit_training (peft/utils/other.py), which every
    // Trainer-based QLoRA recipe calls, turns gradient checkpointing on by default.
    let peft_qlora = q.method.quantized_base() && q.framework.runs_hf_trainer();
    // A v=1 link predates the hf profile's checkpointing default: it keeps the bare
    // TrainingArguments' `gradient_checkpointing=False`.
    let ckpt_default =
        if q.format == Format::V1 && q.framework == Framework::Hf { Checkpointing::None } else { p.ckpt_default };
    let ckpt = q.ckpt.unwrap_or(if peft_qlora { Checkpointing::Full } else { ckpt_default });
    Resolved {
        profile: p,
        adapter_dtype: q.adapter_dtype.unwrap_or(p.adapter_dtype),
        ckpt,
        attn: q.attn.unwrap_or(p.attn_default),
        loss: q.loss.unwrap_or(p.loss_default),
        packing: q.packing.unwrap_or(p.packing_default),
        compile: q.compile.unwrap_or(p.compile_default),
        lora_dropout: q.lora_dropout.unwrap_or(p.lora_dropout_default),
        // Unsloth offloads only through its checkpointing.
        act_offload: q.act_offload.unwrap_or(p.act_offload_default && ckpt == Checkpointing::Full),
        optimizer_impl: q.optim_impl.unwrap_or(p.optimizer_impl),
        tower_quant: q.tower_quant.unwrap_or(p.quantizes_tower),
        // The Trainer's `bf16`/`fp16` flag makes accelerate wrap `model.forward` in autocast
        // whatever dtype the model was loaded in (src/accelerate/accelerator.py @16cb6eb8
        // `prepare_model`: `native_amp`), and the exports of a bf16 run set `bf16=True`. DeepSpeed
        // runs none (`native_amp` is off under it); under FSDP the exports clear the flag, since
        // accelerate would upcast the trained weights to fp32 (export/context.rs `trainer_amp`).
        // The fp16 flag over an fp16 model fails to unscale fp16 gradients (GradScaler), so the
        // exports leave it off where the base trains; over a frozen base with fp32 adapters (the
        // T4 LoRA recipe) only the adapters' gradients are unscaled, and Unsloth sets it always
        // (its adapters are 16-bit).
        autocast_16bit: q.precision.is_true16()
            && !q.shard.is_deepspeed()
            && q.autocast.unwrap_or(
                q.framework.uses_transformers()
                    && q.shard != ShardingStrategy::Fsdp
                    && (q.precision.is_bf16() || q.framework == Framework::Unsloth || fp16_amp_trains(q, &p)),
            ),
        alloc: q.alloc.unwrap_or(if p.expandable_segments {
            AllocatorMode::Expandable
        } else {
            AllocatorMode::Default
        }),
    }
}

/// FSDP's units compute with fp32 parameters: an fp32 run, or Lightning's mixed precision
/// (litgpt), whose `bf16-mixed`/`16-mixed` keep `param_dtype=torch.float32` and reduce in 16
/// bits beside autocast (Lightning-AI/pytorch-lightning
/// src/lightning/fabric/plugins/precision/fsdp.py `FSDPPrecision.mixed_precision_config`).
/// accelerate's mixed precision sets `param_dtype` to the 16-bit type
/// (src/accelerate/utils/dataclasses.py @16cb6eb8 `set_mixed_precision`). The memory replay's
/// gathers and the time model's all-gather traffic both follow it.
pub fn fsdp_param_dtype_fp32(q: &Query) -> bool {
    q.shard == ShardingStrategy::Fsdp
        && (q.precision == crate::query::Precision::Fp32
            || (q.framework == Framework::Litgpt && q.precision.keeps_fp32_master()))
}

/// The hf export's fp16 flag over an fp16 model trains: only fp32 LoRA adapters over a frozen
/// base, whose fp32 gradients the gradient scaler unscales (torch/amp/grad_scaler.py
/// `_unscale_grads_` refuses fp16 ones). A trained token table or head, an image
/// classifier's head, SAM's mask decoder or a fully trained vision tower is fp16; axolotl's
/// and LLaMA-Factory's exports leave their fp16 flag off over an fp16 model.
pub(crate) fn fp16_amp_trains(q: &Query, p: &Profile) -> bool {
    use crate::query::TargetModule as T;
    q.framework == Framework::Hf
        && q.method.is_lora()
        && q.adapter_dtype.unwrap_or(p.adapter_dtype) == AdapterDtype::Fp32
        && !q.targets.contains(T::Embed)
        && !q.targets.contains(T::LmHead)
        && !crate::catalog::is_image_encoder(q)
        && q.tower != crate::query::TowerTraining::Full
}

/// Combinations a framework cannot run.
pub fn unsupported(q: &Query) -> Vec<Warning> {
    use crate::query::{Offload, ShardingStrategy as S};
    let mut out = Vec::new();
    let fw = q.framework;
    if q.method.is_peft() && !q.method.is_lora() && !fw.runs_hf_trainer() {
        // litgpt has its own adapter (LLaMA-Adapter) recipe, not PEFT prefix/prompt/Houlsby.
        out.push(Warning::FrameworkMethod { framework: fw, method: q.method });
    }
    if fw == Framework::Unsloth && (q.gpus > 1 || q.shard != S::None) {
        out.push(Warning::FrameworkMultiGpu);
    }
    // `*-mixed` counts an fp32 model under autocast (memory/run.rs `frozen_bytes`). Under
    // DeepSpeed the engine holds a 16-bit model with an fp32 master whatever was loaded, as
    // the estimate counts it there.
    let mixed_outside_deepspeed = q.precision.keeps_fp32_master() && !q.shard.is_deepspeed();
    let loads_16_bit = match fw {
        // FastLanguageModel.from_pretrained loads in 16-bit (dtype=None: bf16, or fp16 without
        // bf16 support) and never upcasts the frozen weights.
        Framework::Unsloth => !q.precision.is_true16(),
        // axolotl's `bf16`/`fp16` set the load dtype (`cfg.torch_dtype`,
        // src/axolotl/utils/config/__init__.py @067b021c8) and nothing upcasts the trained
        // weights: weights and optimizer states stay 16-bit, PEFT's adapters aside.
        Framework::Axolotl => mixed_outside_deepspeed,
        // LLaMA-Factory loads the checkpoint's dtype (`torch_dtype="auto"`,
        // src/llamafactory/model/loader.py @ff6d4d12e) and casts only the trained parameters to
        // fp32 (`cast_trainable_params_to_fp32`, model/adapter.py): a full fine-tune is the
        // fp32 model the estimate counts, a PEFT or freeze base is not.
        Framework::LlamaFactory => mixed_outside_deepspeed && q.method != Method::Full,
        _ => false,
    };
    if loads_16_bit {
        out.push(Warning::FrameworkPrecision { framework: fw, precision: q.precision });
    }
    // axolotl's `_configure_embedding_dtypes` (src/axolotl/loaders/model.py @067b021c8): outside
    // FSDP it casts the embedding modules (token table, head) and every `norm` to fp32, and
    // casts them back only with an adapter, FSDP, or an attention other than sdpa/eager
    // (`attn_needs_dtype_cast`, utils/schemas/enums.py ATTN_IMPLS_WITHOUT_DTYPE_CAST);
    // DeepSpeed's engine casts the module to 16 bits itself.
    if fw == Framework::Axolotl
        && matches!(q.method, Method::Full | Method::Freeze)
        && q.shard == S::None
        && q.precision.is_true16()
        && matches!(resolve(q).attn, crate::query::Attention::Sdpa | crate::query::Attention::Eager)
    {
        out.push(Warning::AxolotlFp32Modules);
    }
    if q.method == Method::Qlora && q.shard == S::Zero3 && q.offload == Offload::All {
        out.push(Warning::QloraZero3Offload);
    }
    if fw == Framework::Torchtune && q.method == Method::Qlora && q.quant != crate::query::Quant::Nf4 {
        out.push(Warning::FrameworkQuant { quant: q.quant });
    }
    if fw != Framework::Hf && crate::catalog::is_image_encoder(q) {
        out.push(Warning::FrameworkImageEncoder { framework: fw });
    }
    out
}
