//! The figures every phase of the estimate reads: the query, the architecture as the
//! framework holds it, the resolved behaviour, trainable counts, bytes per element of each
//! kind of tensor, and the parallel layout.

use super::trainable::{trainable, Trainable};
use crate::arch::Architecture;
use crate::diag::{Error, Warning};
use crate::framework::{self, Resolved};
use crate::query::{AdapterDtype, Method, Precision, Query, ShardingStrategy};
use crate::settings::Settings;

/// One configuration on one GPU, before any memory is counted.
pub(super) struct Run<'a> {
    pub q: &'a Query,
    pub res: Resolved,
    /// The architecture as the framework holds it (a tied head untied where it builds its own).
    pub a: Architecture,
    pub tr: Trainable,
    pub p_total: u64,
    /// Tokens of one sequence on this GPU (prompt tuning's virtual tokens in, 1/cp of it).
    pub seq: f64,
    /// Tokens of one micro-batch on this GPU.
    pub tokens: f64,
    /// A 16-bit precision with fp32 master weights (`*-mixed`).
    pub mixed: bool,
    /// `*-mixed` as torch autocast over an fp32 model (the Trainer, Fabric, FSDP): false under
    /// DeepSpeed, whose engine holds the model in 16 bits and runs no autocast.
    pub autocast: bool,
    /// DeepSpeed with fp16 or bf16: every floating parameter, adapters included, in 16 bits.
    pub sixteen_bit_engine: bool,
    pub true16: bool,
    pub fp32: bool,
    /// Bytes of an activation element.
    pub act_bytes: f64,
    /// Bytes of a frozen base parameter.
    pub frozen_bytes: f64,
    /// Bytes of an adapter parameter, and of a base parameter that trains.
    pub adapter_bytes: f64,
    pub base_train_bytes: f64,
    /// ZeRO or FSDP shards something.
    pub sharded: bool,
    /// A sharded `*-mixed` run: DeepSpeed's 16-bit params and grads with an fp32 master in K,
    /// or FSDP's fp32 shards and gradients (memory/states.rs).
    pub zero_mixed: bool,
    pub tp: f64,
    /// Pipeline stages hold 1/pp of the blocks each (balanced stages assumed).
    pub pp: f64,
    /// ZeRO/FSDP shard over the data-parallel and context-parallel ranks (torchtitan's
    /// `dp_shard_cp` mesh): every rank of both holds the same weights.
    pub dp: f64,
    pub gpus_per_node: f64,
    /// The replay's cache share carried by a variant (`Settings::cache_excess`).
    pub cache_excess: Option<f64>,
}

impl<'a> Run<'a> {
    pub fn new(s: &'a Settings<'_>, warnings: &mut Vec<Warning>) -> Result<Run<'a>, Error> {
        let (q, res) = (&*s.query, s.resolved);
        let mut a = s.arch.clone();
        // A framework that builds its own output projection holds a tied checkpoint untied.
        if res.profile.unties_embeddings && a.tied && !a.encoder_only {
            a.tied = false;
        }
        // A checkpoint's fused q/k/v (and Phi-3's gate/up) is transformers' module layout;
        // litgpt, torchtune and Unsloth convert it to their own (litgpt's `attn` with
        // `LLaMAMLP`, torchtune's and Unsloth's llama-fied Phi: q, k, v, gate and up apart),
        // whose fusion, where there is one, the profile says (`fused_qkv_linear`).
        if !q.framework.runs_hf_trainer() && a.layout.sam().is_none() {
            a.quirks.fused_qkv = false;
        }
        let tr = trainable(&a, q)?;
        warnings.extend(framework::unsupported(q));
        super::checks::check(q, &a)?;
        let p_total = a.param_count();
        // Prompt tuning prepends its virtual tokens to every sequence (logits included).
        // Context parallelism gives each GPU 1/cp of every sequence (ring attention passes K/V).
        let seq = (q.seq as f64 + if q.method == Method::Prompt { q.virtual_tokens as f64 } else { 0.0 }) / q.cp as f64;
        let tokens = q.batch as f64 * seq;
        // Eager attention keeps s² scores per head: refuse before the product leaves f64's exact range.
        if !(tokens * seq * a.heads as f64 * 6.0 * a.layers as f64).is_finite()
            || tokens * a.hidden as f64 * a.layers as f64 > 1e17
        {
            return Err(Error::invalid("seq", "batch × seq is too large to hold on any GPU"));
        }
        let mixed = q.precision.keeps_fp32_master();
        let true16 = q.precision.is_true16();
        let fp32 = q.precision == Precision::Fp32;
        let act_bytes = q.precision.compute_bytes();
        // DeepSpeed's engine casts every floating parameter, frozen ones included, to its
        // fp16/bf16 dtype (deepspeed/runtime/engine.py @edaa72212 `_configure_distributed_model`
        // -> `_cast_module_mixed_precision`; before 2026-06 `self.module.half()`/`.bfloat16()`),
        // keeping the fp32 master in the optimizer, and accelerate runs no autocast under it
        // (src/accelerate/accelerator.py @16cb6eb8: `native_amp` only outside DEEPSPEED).
        let deepspeed = q.shard.is_deepspeed();
        let autocast = mixed && !deepspeed;
        let sixteen_bit_engine = q.deepspeed_16bit_engine();
        // Frozen base: 16-bit under `*-true`, fp32 otherwise. Mixed precision means an fp32 model under autocast (the Trainer's `bf16=True` on a
        // model loaded in fp32): frozen weights are fp32 too; DeepSpeed's are 16-bit. A 16-bit-loaded model is `*-true`.
        let frozen_bytes = if fp32 || autocast { 4.0 } else { 2.0 };
        // accelerate under FSDP with its mixed precision on (the Trainer's 16-bit flag over a
        // 16-bit load, `autocast=1`) upcasts every trainable flat parameter that is not fp32 to
        // fp32 (src/accelerate/accelerator.py @16cb6eb8 `prepare_model`, `upcasted_log`; from
        // v0.30.0, 9557598c): what trains is held as `*-mixed` holds it, fp32 shards.
        let fsdp_upcast = res.autocast_16bit && q.shard == ShardingStrategy::Fsdp && q.framework.runs_hf_trainer();
        let adapter_bytes = match res.adapter_dtype {
            AdapterDtype::Fp32 => 4.0,
            AdapterDtype::Bf16 => {
                if fp32 || fsdp_upcast {
                    4.0
                } else {
                    2.0
                }
            }
        };
        // Under PEFT the base parameters that train are a fully trained embedding or LM head.
        let fp32_full =
            res.profile.full_modules_fp32_under_fp16 && q.method.is_peft() && q.precision == Precision::Fp16True;
        let base_train_bytes = if true16 && !fp32_full && !fsdp_upcast { 2.0 } else { 4.0 };
        let sharded = matches!(
            q.shard,
            ShardingStrategy::Zero1 | ShardingStrategy::Zero2 | ShardingStrategy::Zero3 | ShardingStrategy::Fsdp
        );
        // A sharded mixed run. DeepSpeed's bookkeeping: 16-bit params and grads, fp32 master in K
        // (FSDP's fp32 shards instead: states.rs). DeepSpeed keeps the fp32
        // master whatever the model was loaded in, `*-true` too (`master_weights_and_grads_dtype`
        // is fp32 unless fp16/bf16 master weights are asked for: deepspeed/runtime/base_optimizer.py
        // @edaa72212 `_configure_master_weights`, called by ZeRO-1/2 and ZeRO-3).
        let zero_mixed = sharded && (mixed || sixteen_bit_engine || fsdp_upcast);
        Ok(Run {
            q,
            res,
            tr,
            p_total,
            seq,
            tokens,
            mixed,
            autocast,
            sixteen_bit_engine,
            true16,
            fp32,
            act_bytes,
            frozen_bytes,
            adapter_bytes,
            base_train_bytes,
            sharded,
            zero_mixed,
            tp: q.tp as f64,
            pp: q.pp as f64,
            dp: (q.gpus / (q.tp * q.pp * q.cp).max(1)).max(1) as f64 * q.cp as f64,
            gpus_per_node: (q.gpus as f64 / q.nodes as f64).ceil(),
            cache_excess: s.cache_excess,
            a,
        })
    }
}

impl Run<'_> {
    /// FSDP computes every unit with 16-bit copies of its parameters, adapters included, where
    /// its mixed precision is on (`*-mixed`, or the Trainer's 16-bit flag over a 16-bit model)
    /// with a 16-bit `param_dtype`: accelerate's, not Lightning's
    /// (`framework::fsdp_param_dtype_fp32`), whose units compute as fp32 weights under autocast.
    pub fn fsdp_computes_16bit(&self) -> bool {
        (self.autocast || self.res.autocast_16bit)
            && self.q.shard == ShardingStrategy::Fsdp
            && !framework::fsdp_param_dtype_fp32(self.q)
    }

    /// Bytes per parameter of a unit FSDP or ZeRO-3 gathers: the dtype it computes in, fp32
    /// for an fp32 run and under Lightning's mixed precision, 16-bit otherwise (FSDP's mixed
    /// precision casts each fp32 shard before the all-gather; DeepSpeed holds 16-bit ones).
    pub fn gather_bytes(&self) -> f64 {
        if self.fp32 || framework::fsdp_param_dtype_fp32(self.q) {
            4.0
        } else {
            2.0
        }
    }

    /// Autocast finds fp32 tensors to cast in a block with this norm: fp32 weights (`*-mixed`
    /// outside DeepSpeed) that FSDP's 16-bit compute copies do not replace, or a LayerNorm,
    /// which autocast runs in fp32 whatever its weight's dtype (`layer_norm`,
    /// aten/src/ATen/autocast_mode.h `AT_FORALL_FP32`): it keeps an fp32 input and output
    /// that each linear casts. transformers' RMSNorm scales by FSDP's 16-bit copy of its
    /// weight (`weight * x.to(input_dtype)`, no autocast op), so q, k and v share its 16-bit
    /// output as a 16-bit model's do.
    pub fn autocast_casts(&self, norm: crate::arch::NormKind) -> bool {
        self.autocast && (norm == crate::arch::NormKind::Layer || !self.fsdp_computes_16bit())
    }
}

/// Gradients stay allocated across steps, so they exist during the forward pass: they
/// accumulate over micro-batches, `zero_grad` leaves them allocated as zeros
/// (`set_to_none=0`: torch < 2.0), or DeepSpeed keeps them in buffers of its own: ZeRO-3's
/// gradient partitions in one flat buffer made at initialisation (stage3.py
/// `grad_partitions_flat_buffer`), ZeRO-2's in `grads_in_partition`, made by the first backward
/// and kept (stage_1_and_2.py; both DeepSpeed @38327e07).
pub(super) fn grads_kept(q: &Query) -> bool {
    q.ga > 1 || !q.set_to_none || matches!(q.shard, ShardingStrategy::Zero2 | ShardingStrategy::Zero3)
}
