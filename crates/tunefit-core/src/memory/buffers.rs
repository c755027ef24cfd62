//! Transient buffers beside the model states and activations: float8 casts, QLoRA's
//! dequantized weight, gradient buckets (DDP, ZeRO, FSDP), the optimizer step's temporaries,
//! and the optimizer stepping inside backward.

use super::parallel::PerGpu;
use super::run::Run;
use super::states::States;
use crate::query::{Compute, Method, Optimizer, OptimizerImpl, ShardingStrategy};

/// Buffers on one GPU, bytes.
pub(super) struct Buffers {
    /// Everything live beside the states and activations (gathered blocks included).
    pub total: f64,
    pub dequant: f64,
    pub bucket: f64,
    /// `total` less what lives in the backward only (ZeRO-1/2's bucket): the optimizer step's.
    pub after_backward: f64,
    /// The optimizer step's temporaries.
    pub step_temp: f64,
    /// Gradients alive at once (one tensor's when the optimizer steps inside backward).
    pub g: f64,
}

/// DeepSpeed's `reduce_bucket_size` default, elements (deepspeed/runtime/zero/config.py
/// @edaa72212 `reduce_bucket_size: int = Field(pp_int(5e8))`).
const DEEPSPEED_REDUCE_BUCKET: f64 = 5e8;

/// ZeRO-1/2's gradient bucket lives through each backward only; DDP's and ZeRO-3's through the
/// run; FSDP's reduce-scatter input is one unit's, per block (see `buffers`).
pub(super) fn bucket_in_backward_only(shard: ShardingStrategy) -> bool {
    matches!(shard, ShardingStrategy::Zero1 | ShardingStrategy::Zero2)
}

pub(super) fn buffers(r: &Run, st: &States, pg: &PerGpu) -> Buffers {
    let (q, a, tr, res, tp, pp, dp) = (r.q, &r.a, r.tr, r.res, r.tp, r.pp, r.dp);
    let (grads_full, head_params, galore) = (st.grads_full, st.head_params, &st.galore);
    let (state_bytes_base, state_bytes_ad, base_train_bytes) =
        (st.state_bytes_base, st.state_bytes_ad, r.base_train_bytes);
    let (o, g, gathered, adapter_bytes, tokens) = (pg.o, pg.g, pg.gathered, r.adapter_bytes, r.tokens);
    let mut buffers = 0.0;
    if q.compute != Compute::Native {
        // torchao Float8Linear (torchao/float8/float8_linear.py @7ca1bfb) saves its
        // high-precision input and weight for backward and casts per use: the largest
        // linear's float8 weight and its input's float8 copy live during its matmul.
        let largest = a.hidden as f64 * a.ffn.max(a.q_dim()) as f64 / tp;
        buffers += largest + tokens * a.ffn.max(a.hidden) as f64 / tp;
    }
    let dequant_buf = if q.method == Method::Qlora {
        // One dequantized 16-bit copy of the largest quantized weight during its matmul (a
        // quantized LM head is the largest: vocab × hidden). Weights quantized from a float16
        // copy dequantize to float16 and are cast to the compute dtype beside it
        // (`Profile::quantizes_from_fp16`: Lightning + bitsandbytes, bf16 or fp32 compute).
        let cast = if r.res.profile.quantizes_from_fp16 && !q.precision.is_fp16() { r.act_bytes } else { 0.0 };
        (a.hidden as f64 * a.ffn.max(a.q_dim()) as f64).max(head_params) * (2.0 + cast) / tp
    } else {
        0.0
    };
    buffers += dequant_buf;
    let multi = q.gpus > 1 && dp > 1.0;
    let bucket_buf = match q.shard {
        // DeepSpeed copies each gradient into a contiguous "ipg" bucket of `reduce_bucket_size`
        // elements in the optimizer's dtype, allocated whole whatever the gradients' size and
        // the number of ranks. ZeRO-1/2 make it at each backward's first gradient and release
        // it at its end, before the step (deepspeed/runtime/zero/stage_1_and_2.py @edaa72212
        // `setup_buckets`, `_release_ipg_buffers`); ZeRO-3 holds one from initialisation
        // (stage3.py). One each: a second comes only with `overlap_comm`, which DeepSpeed turns
        // on for ZeRO-3 alone (zero/config.py `overlap_comm_valid`) and tunefit's export sets
        // for ZeRO-3 alone (export/trainer.rs). The size is DeepSpeed's default, 5e8 elements,
        // which the export leaves; HF's "auto" would make it hidden², Qwen's zero2 config 2e8.
        ShardingStrategy::Zero1 | ShardingStrategy::Zero2 | ShardingStrategy::Zero3 => {
            DEEPSPEED_REDUCE_BUCKET * if r.fp32 { 4.0 } else { 2.0 }
        }
        // DDP reducer buckets hold a second copy of every gradient.
        ShardingStrategy::None if multi => grads_full / tp / pp,
        // FSDP reduce-scatters one unit's gradients at a time. With a PEFT model the
        // Trainer wraps every module holding trainable weights in its own unit (transformers
        // `_fsdp_qlora_plugin_updates` → peft `fsdp_auto_wrap_policy`), so frozen units
        // carry no gradient and a unit's gradients are one layer's adapters.
        ShardingStrategy::Fsdp if multi && q.method.is_peft() => {
            tr.adapter as f64 / a.layers.max(1) as f64 * adapter_bytes / tp
        }
        // The unit's unsharded gradients in the dtype its units compute in (`Run::gather_bytes`):
        // 16-bit under accelerate's mixed precision, fp32 in an fp32 run and under Lightning's,
        // whose fp32 gradients are cast to 16 bits for the reduce.
        ShardingStrategy::Fsdp if multi => a.layer_params() as f64 * r.gather_bytes() / tp,
        ShardingStrategy::None | ShardingStrategy::Fsdp => 0.0,
    };
    buffers += bucket_buf;
    buffers += gathered + pg.root;
    let step_temp = match q.optim {
        // torch AdamW foreach: one second-moment-sized list (`_foreach_sqrt`) for the whole
        // group, this GPU's shard of it; for-loop: per tensor, `sqrt` and its quotient live
        // together (two of the largest tensor, in its state's dtype: the adapters' only where
        // no base tensor trains — torch/optim/adam.py @d0f2af8b `_single_tensor_adam`, which AdamW runs,
        // `exp_avg_sq.sqrt() / bias_correction2_sqrt` in the state's dtype); fused: none.
        Optimizer::AdamW if o > 0.0 => match res.optimizer_impl {
            OptimizerImpl::Foreach => {
                (tr.base as f64 * state_bytes_base + tr.adapter as f64 * state_bytes_ad)
                    / tp
                    / if q.shard.is_sharded() { dp } else { 1.0 }
            }
            OptimizerImpl::ForLoop => {
                let per = match (tr.base > 0, tr.adapter > 0) {
                    (true, true) => state_bytes_base.max(state_bytes_ad),
                    (true, false) => state_bytes_base,
                    _ => state_bytes_ad,
                };
                2.0 * tr.largest_tensor as f64 * per / tp
            }
            OptimizerImpl::Fused => 0.0,
        },
        Optimizer::Adafactor => tr.largest_tensor as f64 * 4.0 * 2.0 / tp,
        // GaLore: the fp32 SVD of the largest projected gradient at each projection update
        // (its fp32 copy, U and Vh), and the full-size update projected back plus its scaled
        // copy (gradient dtype).
        Optimizer::GaloreAdamW => {
            let (m, n) = galore.as_ref().map_or((0.0, 0.0), |g| g.largest);
            let k = m.min(n);
            ((m * n + m * k + k * n) * 4.0 + 2.0 * m * n * base_train_bytes) / tp
        }
        _ => 0.0,
    };

    // Optimizer in backward (torchtune `OptimizerInBackwardWrapper`,
    // torchtune/training/memory.py: a post-accumulate-grad hook steps the parameter and sets
    // its gradient to None): one tensor's gradient and that tensor's step temporaries live at
    // a time, and the step happens inside backward.
    let (g, step_temp) = if q.optim_in_bwd && g > 0.0 {
        let per = (grads_full / tr.total.max(1) as f64).max(2.0);
        let one = tr.largest_tensor as f64 * per / tp / if q.shard.shards_params() { dp } else { 1.0 };
        (one.min(g), step_temp.min(one * 2.0))
    } else {
        (g, step_temp)
    };
    let after_backward = buffers - if bucket_in_backward_only(q.shard) { bucket_buf } else { 0.0 };
    Buffers { total: buffers, dequant: dequant_buf, bucket: bucket_buf, after_backward, step_temp, g }
}
