//! The tensors of one run on one GPU, from the memory terms: what `timeline::replay` allocates
//! and frees. Sizes follow the architecture (each linear its own weight, as `nn.Linear` holds
//! it; ZeRO-3/FSDP one flat shard per block), so the allocator sees the sizes the run asks for.

use super::timeline::Shape;
use super::Trainable;
use crate::activation::BlockSaved;
use crate::arch::{Architecture, MlpKind};
use crate::query::{Checkpointing, Method, Query, ShardingStrategy};

/// The figures of an estimate the run's tensors are built from (kept by `Estimate`, so the
/// tensors are listed only when a replay asks: the page never does).
#[derive(Debug, Clone)]
pub struct Input {
    pub q: Query,
    pub a: Architecture,
    pub tr: Trainable,
    pub tp: f64,
    pub pp: f64,
    pub tokens: f64,
    pub act_bytes: f64,
    /// Per-GPU weights, gradients and torch-allocated optimizer states (terms of mod.rs).
    pub w: f64,
    pub g: f64,
    pub o: f64,
    /// One block's saved tensors by kind, and the same block without checkpointing (what a
    /// recomputation rebuilds).
    pub per_layer: (BlockSaved, BlockSaved),
    pub layers_with_grad: f64,
    pub layer_bytes: f64,
    /// The block rebuilt during backward under full checkpointing (0 otherwise).
    pub recompute: f64,
    /// Activations before and after the pipeline's per-stage accounting.
    pub act_pre_pp: f64,
    /// Autocast's 16-bit weight copies (this GPU's): saved by a block, cached through the
    /// forward, rebuilt with a recomputed block, the head's.
    pub autocast: super::saved::AutocastCopies,
    pub act: f64,
    /// The loss path's tensors, scaled by the pipeline's staging as `logits` is (the last
    /// stage's).
    pub loss: super::logits::LossProgram,
    pub step_temp: f64,
    pub dequant: f64,
    pub bucket: f64,
    /// What ZeRO-3/FSDP gather, as parallel.rs counts it: the blocks in flight, one block, and
    /// FSDP's root unit.
    pub gathered: (f64, f64, f64),
    pub adapter_bytes: f64,
    /// FSDP over more than one rank: sharded gradients live on the reduce-scatter stream.
    pub grads_on_reduce: bool,
    /// The share of `o` that is the fp32 master copy (ZeRO's and FSDP's under mixed precision).
    pub master_share: f64,
    /// The allocator's settings the run sets (`alloc`, the framework profile's).
    pub alloc: super::allocator::Config,
    /// A full state dict gathered on the device at save (`state_dict=device`), bytes; 0 when
    /// it goes to the host tensor by tensor.
    pub state_dict: f64,
    /// One cuBLAS handle's workspace on the run's GPU (workspace.rs).
    pub blas_workspace: f64,
}

/// Tensors under the small pool's limit (1 MiB, `kSmallSize`) that one block makes and frees
/// together, packed into requests of at most that size, in order: the allocator carves them
/// from the same 2 MiB segments either way, and a block of LoRA holds dozens of them (an
/// adapter's A and B, their gradients and states), which the replay then walks as a few.
pub(crate) fn pack_small(tensors: Vec<f64>) -> Vec<f64> {
    const SMALL: f64 = 1048576.0;
    let mut out: Vec<f64> = Vec::with_capacity(tensors.len());
    let mut open = false;
    for t in tensors {
        if t > SMALL {
            out.push(t);
            open = false;
        } else if let Some(last) = out.last_mut().filter(|l| open && **l + t <= SMALL) {
            *last += t;
        } else {
            out.push(t);
            open = true;
        }
    }
    out
}

/// Splits `total` bytes over tensors in proportion to `parts`.
fn split(total: f64, parts: &[f64]) -> Vec<f64> {
    let sum: f64 = parts.iter().sum();
    if total <= 0.0 || sum <= 0.0 {
        return vec![];
    }
    parts.iter().map(|p| total * p / sum).collect()
}

pub(super) fn timeline_shape(i: &Input) -> Shape {
    let (q, a) = (&i.q, &i.a);
    let layers = ((a.layers as f64 / i.pp).round() as usize).max(1);
    let (h, qd, kv, f) = (a.hidden as f64, a.q_dim() as f64, a.kv_dim() as f64, a.ffn as f64);
    let experts = a.experts.max(1) as f64;
    // One block's linears, as their weights are shaped (MoE: every expert its own).
    let mut linears = vec![h * qd, h * kv, h * kv, qd * h];
    let mlp_mats = if a.mlp == MlpKind::Gated { 3 } else { 2 };
    for _ in 0..(experts as usize).min(256) {
        for _ in 0..mlp_mats {
            linears.push(h * f);
        }
    }
    linears.push(h); // the norms
    let embed = (a.vocab * a.hidden) as f64;
    let head = if a.tied || a.encoder_only { 0.0 } else { embed };
    let params_block = a.layer_params() as f64;
    let params_other = embed + head;
    let sharded = q.shard.shards_params();
    // This GPU's weights: blocks and the rest in proportion to their parameters.
    let block_share = params_block * layers as f64 / (params_block * layers as f64 + params_other / i.pp).max(1.0);
    let w_blocks = i.w * block_share;
    let block_weights =
        if sharded { vec![w_blocks / layers as f64] } else { split(w_blocks / layers as f64, &linears) };
    let other_weights = split(i.w - w_blocks, &[embed, head]);
    // Gradients and states: adapters per adapted linear; full training per linear.
    let peft = q.method.is_peft();
    let adapter_tensors: Vec<f64> = if peft && i.tr.adapter > 0 {
        let targets = q.targets.iter().count().max(1) as f64;
        let per = i.tr.adapter as f64 / a.layers.max(1) as f64 / targets / 2.0 * i.adapter_bytes / i.tp;
        vec![per; 2 * targets as usize]
    } else {
        vec![]
    };
    let per_block = |total: f64| -> Vec<f64> {
        let t = total * if peft { 1.0 } else { block_share } / layers as f64;
        if peft {
            split(t, &adapter_tensors)
        } else if sharded {
            vec![t]
        } else {
            split(t, &linears)
        }
    };
    let block_grads = pack_small(per_block(i.g));
    // The head's gradient appears as the backward starts (a tied head's is the shared weight's),
    // an untied embedding's only when the backward reaches it, after block 0.
    let rest_grads = if peft { vec![] } else { split(i.g * (1.0 - block_share), &[embed, head]) };
    let (other_grads, embed_grads) = match rest_grads.as_slice() {
        [e, h] if *h > 0.0 => (vec![*h], vec![*e]),
        _ => (rest_grads, vec![]),
    };
    // ZeRO's and FSDP's fp32 master partitions exist from initialisation (DeepSpeed
    // stage3.py `_create_fp32_partitions`, stage_1_and_2.py `single_partition_of_fp32_groups`
    // @38327e07; FSDP's sharded parameters): loaded with the weights. The optimizer's own
    // states come at its first step.
    let (master, states) = (i.o * i.master_share, i.o * (1.0 - i.master_share));
    let block_states = pack_small(per_block(states));
    let other_states = if peft { vec![] } else { split(states * (1.0 - block_share), &[embed, head]) };
    let Activations { saved, recompute, head_saved, head_copy, forward_cache } = activations(i);
    let layers_with_grad =
        ((i.layers_with_grad / i.pp).round() as usize).clamp(usize::from(i.layers_with_grad > 0.0), layers);
    let workspace = workspace(i);
    let dp = data_parallel(i, other_weights.first().copied().unwrap_or(0.0));
    Shape {
        layers,
        block_weights,
        other_weights,
        block_grads,
        other_grads,
        embed_grads,
        block_states,
        other_states,
        master: (master * block_share / layers as f64, master * (1.0 - block_share)),
        grads_at_load: q.shard == ShardingStrategy::Zero3,
        layers_with_grad,
        saved,
        recompute,
        workspace,
        backward_workspace: 0.0,
        head_saved,
        head_copy,
        forward_cache,
        loss: i.loss.clone(),
        act_grad: i.tokens * h * i.act_bytes / i.tp,
        step_temp: i.step_temp,
        persistent: buckets(i).0,
        backward_bucket: buckets(i).1,
        gathered_unit: dp.gathered_unit,
        root_unit: dp.root_unit,
        reduce_unit: if q.shard == ShardingStrategy::Fsdp { i.bucket } else { 0.0 },
        grads_on_reduce: i.grads_on_reduce,
        dequant: i.dequant,
        // bitsandbytes quantizes on the GPU: each 16-bit weight is moved there first
        // (transformers' `create_quantized_param` → `Params4bit.to(device)`).
        load_transient: if q.method == Method::Qlora { h * f.max(qd) * 2.0 / i.tp } else { 0.0 },
        load_broadcast: dp.load_broadcast,
        save_gather: dp.save_gather,
        // Unit by unit, each parameter's clone (peaks.rs): the blocks' linears, then the rest.
        save_clones: if i.state_dict > 0.0 {
            let per_block = i.state_dict * block_share / layers as f64;
            let mut v: Vec<f64> = (0..layers).flat_map(|_| split(per_block, &linears)).collect();
            v.extend(split(i.state_dict * (1.0 - block_share), &[embed, head]));
            v
        } else {
            vec![]
        },
        grads_persist: super::run::grads_kept(q),
        micro_steps: (q.ga as usize).min(2),
        blas_workspace: i.blas_workspace,
    }
}

/// The gradient bucket (buffers.rs) as (through the run, through each backward); FSDP's
/// reduce-scatter input is one unit's, per block (`reduce_unit`).
fn buckets(i: &Input) -> (f64, f64) {
    match i.q.shard {
        ShardingStrategy::Fsdp => (0.0, 0.0),
        s if super::buffers::bucket_in_backward_only(s) => (0.0, i.bucket),
        _ => (i.bucket, 0.0),
    }
}

/// A block's saved tensors as the forward makes them, the block rebuilt under full
/// checkpointing, what the forward saves outside the blocks, and autocast's copy of the head.
struct Activations {
    saved: Vec<f64>,
    recompute: Vec<f64>,
    head_saved: f64,
    head_copy: f64,
    forward_cache: f64,
}

fn activations(i: &Input) -> Activations {
    let a = &i.a;
    // Activations: each kept block's saved tensors (the pipeline's first stage holds several
    // micro-batches: scaled as the terms are), the rest outside the blocks.
    let scale = if i.act_pre_pp > 0.0 { i.act / i.act_pre_pp } else { 1.0 };
    let in_flight = scale * i.pp;
    let (p, full) = &i.per_layer;
    let gated = a.mlp == MlpKind::Gated;
    // The forward asks for each block's saved tensors in the same sizes every step, so one
    // request per kind reuses the previous step's blocks as the tensors would; the
    // recomputation below is made at once inside the backward, where the blocks it can reuse
    // are the loss path's: there each tensor's own size decides.
    let kinds = [p.norms, p.attention, p.attention_scores, p.mlp, p.adapters, p.dropout_masks, p.norm_stats];
    let mut saved = split(i.layer_bytes * in_flight, &kinds);
    // Autocast's 16-bit weight copies (saved.rs `AutocastCopies`): an unchecked block's matmuls
    // save them, so they go with the block; the cached ones of a checkpointed trained block
    // live until the forward returns (one micro-batch's forward: not scaled by the pipeline's
    // micro-batches in flight); the head's is made when the head runs, in the loss phase.
    let c = i.autocast;
    if c.saved > 0.0 {
        saved.push(c.saved * in_flight);
    }
    let saved = pack_small(saved);
    let blocks = i.layers_with_grad * i.layer_bytes;
    // The terms hold the larger of the cache and the rebuilt block (saved.rs), never both.
    let on_top = i.recompute.max(c.cached * i.layers_with_grad);
    let outside = i.act_pre_pp - blocks - on_top - c.saved * i.layers_with_grad - c.head;
    let head_saved = (outside * scale).max(0.0);
    // The recomputation rebuilds what the checkpointed block did not keep, by kind.
    let rebuilt = BlockSaved {
        norms: (full.norms - p.norms).max(0.0),
        norm_stats: (full.norm_stats - p.norm_stats).max(0.0),
        attention: (full.attention - p.attention).max(0.0),
        attention_scores: (full.attention_scores - p.attention_scores).max(0.0),
        mlp: (full.mlp - p.mlp).max(0.0),
        adapters: (full.adapters - p.adapters).max(0.0),
        dropout_masks: (full.dropout_masks - p.dropout_masks).max(0.0),
    };
    let mut recompute =
        if i.recompute > c.rebuilt { split(i.recompute - c.rebuilt, &tensors(&rebuilt, gated)) } else { vec![] };
    if c.rebuilt > 0.0 {
        recompute.push(c.rebuilt);
    }
    let recompute = pack_small(recompute);
    Activations { saved, recompute, head_saved, head_copy: c.head * scale, forward_cache: c.cached }
}

/// A block's recomputed bytes as the tensors autograd keeps, by kind (docs/saved-tensors.md): the
/// two norms' outputs; the attention's linear inputs and kernel outputs (q, k, v, the output
/// and the o-projection's input: four of similar size); the MLP's hidden states (a gated MLP's
/// gate, up, activation and product; a plain one's fc1 output and activation); then the
/// scores, adapters, masks and norm statistics, each one request. The allocator sees each
/// tensor's size, not the kind's sum: a kind split into its tensors reuses blocks that one
/// block-sized request could not.
fn tensors(p: &BlockSaved, gated: bool) -> Vec<f64> {
    let mlp_parts = if gated { 4 } else { 2 };
    let mut t = vec![p.norms / 2.0; 2];
    t.extend([p.attention / 4.0; 4]);
    t.push(p.attention_scores);
    t.extend(std::iter::repeat_n(p.mlp / mlp_parts as f64, mlp_parts));
    t.extend([p.adapters, p.dropout_masks, p.norm_stats]);
    t
}

/// What a block's forward makes and drops. Checkpointed, the MLP's hidden states: a dense
/// gated MLP forms its product while both operands live (transformers LlamaMLP.forward:
/// `down_proj(act_fn(gate_proj(x)) * up_proj(x))`: the activation, up and their product), a
/// plain one its activation beside fc1's output. Otherwise those are saved, and only an
/// activation written as elementwise ops leaves temporaries: `gelu_new`
/// (transformers/activations.py NewGELUActivation) makes `pow(x, 3)` and each scaled or shifted
/// copy of it from the one before, two FFN-wide tensors alive at a time, none saved.
fn workspace(i: &Input) -> f64 {
    let (q, a) = (&i.q, &i.a);
    let mlp_live = match (a.mlp, a.experts > 1) {
        (MlpKind::Gated, false) => 3.0,
        (_, false) => 2.0,
        (_, true) => 1.0,
    };
    let ffn_wide = i.tokens * (a.ffn.max(a.hidden) as f64) * i.act_bytes / i.tp;
    if q.ckpt == Some(Checkpointing::Full) || i.recompute > 0.0 {
        mlp_live * ffn_wide
    } else if a.quirks.act_extra_saves > 0 && a.experts <= 1 {
        2.0 * ffn_wide
    } else {
        0.0
    }
}

/// The data-parallel wrappers' own tensors: DDP's broadcast at start, the units FSDP/ZeRO-3
/// gather, and a full state dict's gather at save.
struct DataParallel {
    load_broadcast: f64,
    gathered_unit: f64,
    root_unit: f64,
    save_gather: f64,
}

/// `embed`: this GPU's share of the embedding.
fn data_parallel(i: &Input, embed: f64) -> DataParallel {
    let q = &i.q;
    let sharded = q.shard.shards_params();
    let ranks = (f64::from(q.gpus) / (i.tp * i.pp)).max(1.0);
    // DDP's constructor broadcasts rank 0's parameters and buffers, frozen ones too, before it
    // builds its gradient buckets (torch/nn/parallel/distributed.py @d0f2af8b
    // `_sync_module_states`, `broadcast_bucket_size` 250 MiB): torch/csrc/distributed/c10d/
    // comm.cpp `broadcast_coalesced` flattens them into buckets of that size, two in flight.
    let load_broadcast =
        if q.shard == ShardingStrategy::None && ranks > 1.0 { i.w.min(2.0 * 250.0 * 1048576.0) } else { 0.0 };
    // FSDP's root unit is not resharded after forward, so it is gathered from its pre-forward
    // to its post-backward, and FSDP's block units are one block each (parallel.rs).
    let (in_flight, block_unit, root) = i.gathered;
    let fsdp = q.shard == ShardingStrategy::Fsdp && ranks > 1.0;
    let root_unit = if fsdp { root } else { 0.0 };
    let gathered_unit = if fsdp {
        block_unit
    } else if sharded {
        in_flight / 2.0
    } else {
        0.0
    };
    // A full state dict under FSDP2 gathers one tensor at a time and moves it to the host
    // (torch/distributed/_state_dict_utils.py @d0f2af8b `_gather_state_dict`: `full_tensor()`,
    // then `.to(cpu)` under `cpu_offload`): the largest, the embedding, in full on the device.
    let save_gather = if sharded && ranks > 1.0 { embed * ranks } else { 0.0 };
    DataParallel { load_broadcast, gathered_unit, root_unit, save_gather }
}

#[cfg(test)]
mod tests {
    use super::super::estimate;
    use crate::query::Query;
    use crate::settings::Settings;

    fn shape_of(q: &str) -> super::Shape {
        let e = estimate(&Settings::resolve(&Query::parse(q).unwrap()).unwrap()).unwrap();
        super::timeline_shape(&e.timeline_input)
    }

    #[test]
    fn fsdp_over_ranks_puts_the_sharded_gradients_on_the_reduce_scatter_stream() {
        let base = "model=llama-2-7b&method=full&precision=bf16-true&batch=2&seq=512&ckpt=full";
        assert!(shape_of(&format!("{base}&gpus=4&shard=fsdp")).grads_on_reduce);
        // One rank: FSDP1 runs NO_SHARD (gradients all-reduced in place on the compute stream).
        assert!(!shape_of(&format!("{base}&gpus=1&shard=fsdp")).grads_on_reduce);
        // DeepSpeed ZeRO-3 keeps its own gradient partitions: not this rule.
        assert!(!shape_of(&format!("{base}&gpus=4&shard=zero3")).grads_on_reduce);
    }
}
