//! Parallelism: what each GPU holds of the model states (tensor and pipeline parallel splits,
//! ZeRO/FSDP sharding, offload to the host), and which pipeline stage holds the most.

use super::run::Run;
use super::states::{quant_bits, States};
use crate::diag::Warning;
use crate::query::{Framework, Method, Offload, ShardingStrategy};

/// Model states on one GPU, bytes.
pub(super) struct PerGpu {
    pub w: f64,
    pub g: f64,
    pub o: f64,
    /// ZeRO-3/FSDP: the gathered blocks in flight.
    pub gathered: f64,
    /// ZeRO-3/FSDP: one block as gathered; FSDP: its root unit (embedding, final norm, head),
    /// gathered from forward through backward. The replay allocates these (shape.rs).
    pub block_unit: f64,
    pub root: f64,
    /// Offloaded states in host memory, per GPU.
    pub host: f64,
}

pub(super) fn per_gpu(r: &Run, st: &States, warn: &mut Vec<Warning>) -> PerGpu {
    let (q, a, tp, pp, dp) = (r.q, &r.a, r.tp, r.pp, r.dp);
    let sharded = r.sharded;
    let (weights_full, grads_full, opt_full) = (st.weights_full, st.grads_full, st.opt_full);
    // ---------- parallelism ----------
    let (mut w, mut g, mut o) = (weights_full / tp / pp, grads_full / tp / pp, opt_full / tp / pp);
    let (mut gathered, mut block_unit, mut root) = (0.0, 0.0, 0.0);
    match q.shard {
        ShardingStrategy::None => {}
        ShardingStrategy::Zero1 => {
            o /= dp;
        }
        ShardingStrategy::Zero2 => {
            o /= dp;
            g /= dp;
        }
        ShardingStrategy::Zero3 | ShardingStrategy::Fsdp => {
            o /= dp;
            g /= dp;
            w /= dp;
            // The block being computed and the prefetched next one are gathered in their
            // compute dtype: 16-bit (FSDP's mixed precision casts each fp32 shard first), or under QLoRA the packed 4-bit storage of the block
            // linears (FSDP/ZeRO-3 QLoRA stores NF4 in a 16-bit `quant_storage` tensor and
            // dequantizes one linear at a time, counted in the buffers below). The embedding
            // and LM head are gathered alone at the ends.
            let compute_bytes = r.gather_bytes();
            let layer = a.layer_params() as f64;
            let layer_bytes = if q.method == Method::Qlora {
                let lin = a.block_linear_params() as f64 / a.layers.max(1) as f64;
                lin * quant_bits(q.quant, q.double_quant, a.hidden) / 8.0 + (layer - lin).max(0.0) * compute_bytes
            } else {
                layer * compute_bytes
            };
            block_unit = layer_bytes / tp;
            gathered = (2.0 * layer_bytes).max(a.modules().largest_module as f64 * compute_bytes) / tp;
            // Under pipeline parallelism FSDP keeps each stage's blocks unsharded from their
            // forward to their backward, so that every micro-batch does not gather them again
            // (torchtitan `apply_fsdp`: `reshard_after_forward = not pp_enabled`,
            // torchtitan/models/llama3/infra/parallelize.py @018740b7): the whole stage is
            // gathered. DeepSpeed pipelines only with ZeRO-1, so ZeRO-3 has no such case.
            if q.pp > 1 && q.shard == ShardingStrategy::Fsdp {
                gathered = gathered.max(layer_bytes * (a.layers as f64 / pp).ceil() / tp);
            }
            // FSDP does not reshard the root unit after forward (FSDP2 `fully_shard`: "the root
            // FSDP state has its value specially set to False"; FSDP1 `_post_forward_reshard`
            // skips the root): what no block unit holds (embedding, final norm, head) stays
            // gathered in its compute dtype from the forward through the backward. torchtune's full
            // fine-tuning configs shard the embedding and output as units of their own
            // (`custom_sharded_layers`, recipes/configs/llama3_1/8B_full.yaml @bd2a0fc7; commented
            // out in its LoRA configs), which leaves the root the final norm.
            if q.shard == ShardingStrategy::Fsdp && dp > 1.0 {
                let m = a.modules();
                let apart = r.res.profile.framework == Framework::Torchtune && q.method == Method::Full;
                root = if apart { 0.0 } else { (m.embedding + m.lm_head + m.head_extra) as f64 * compute_bytes / tp };
            }
        }
    }
    if sharded && dp == 1.0 {
        warn.push(Warning::ShardOneGpu);
    }
    let mut host = 0.0;
    // ZeRO-Offload keeps fp32 gradients on the host beside the optimizer (twice the 16-bit
    // ones); FSDP's sharded gradients are already the fp32 ones its offload moves (below).
    let ds_fp32_grads = r.sixteen_bit_engine;
    match q.offload {
        Offload::None => {}
        Offload::Optimizer => {
            if !sharded {
                warn.push(Warning::OffloadNeedsSharding);
            }
            host += o + if ds_fp32_grads { g * 2.0 } else { 0.0 };
            o = 0.0;
        }
        Offload::All => {
            if !q.shard.shards_params() {
                warn.push(Warning::OffloadNeedsZero3);
            }
            host += o + w + if ds_fp32_grads { g * 2.0 } else { 0.0 };
            o = 0.0;
            w = 0.0;
            // FSDP's parameter offload moves the sharded gradients to the host too, where the
            // optimizer steps ("this offloads gradients to CPU as well", `CPUOffload`,
            // torch/distributed/fsdp/api.py @0aafd810; FSDP2's `CPUOffloadPolicy` likewise).
            if q.shard == ShardingStrategy::Fsdp {
                host += g;
                g = 0.0;
            }
        }
    }
    PerGpu { w, g, o, gathered, block_unit, root, host }
}

/// Activations and logits on the stage that holds the most: `(act, logits)`.
pub(super) fn pipeline(r: &Run, act: f64, logits: f64) -> (f64, f64) {
    let (q, pp) = (r.q, r.pp);
    // 1F1B: the first stage runs min(pp, ga) micro-batches' forwards before its first
    // backward, each holding its 1/pp of the blocks' activations; interleaving with v chunks
    // holds (1 + (pp−1)/(pp·v)) times that (Narayanan et al. 2021, §2.2). The last stage
    // holds one micro-batch and the logits. The per-GPU figure is the larger stage.
    if q.pp > 1 {
        let chunks = q.pp_chunks as f64;
        let in_flight = (q.ga as f64).min(pp) * if chunks > 1.0 { 1.0 + (pp - 1.0) / (pp * chunks) } else { 1.0 };
        let first = act / pp * in_flight;
        let last = act / pp + logits;
        if first >= last {
            (first, 0.0)
        } else {
            (act / pp, logits)
        }
    } else {
        (act, logits)
    }
}
