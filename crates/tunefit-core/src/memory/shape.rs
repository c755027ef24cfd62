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
    pub per_layer: BlockSaved,
    pub layers_with_grad: f64,
    pub layer_bytes: f64,
    /// The block rebuilt during backward under full checkpointing (0 otherwise).
    pub recompute: f64,
    /// Activations before and after the pipeline's per-stage accounting.
    pub act_pre_pp: f64,
    pub act: f64,
    pub loss_saved: f64,
    pub logits: f64,
    pub step_temp: f64,
    pub dequant: f64,
    pub bucket: f64,
    pub gathered: f64,
    pub adapter_bytes: f64,
    /// FSDP over more than one rank: sharded gradients live on the reduce-scatter stream.
    pub grads_on_reduce: bool,
    /// The allocator's settings the run sets (`alloc`, the framework profile's).
    pub alloc: super::allocator::Config,
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
    let grad_block_share = if peft { 1.0 } else { block_share };
    let per_block = |total: f64| -> Vec<f64> {
        let t = total * grad_block_share / layers as f64;
        if peft {
            split(t, &adapter_tensors)
        } else if sharded {
            vec![t]
        } else {
            split(t, &linears)
        }
    };
    let block_grads = per_block(i.g);
    let other_grads = if peft { vec![] } else { split(i.g * (1.0 - block_share), &[embed, head]) };
    let block_states = per_block(i.o);
    let other_states = if peft { vec![] } else { split(i.o * (1.0 - block_share), &[embed, head]) };
    // Activations: each kept block's saved tensors (the pipeline's first stage holds several
    // micro-batches: scaled as the terms are), the rest outside the blocks.
    let scale = if i.act_pre_pp > 0.0 { i.act / i.act_pre_pp } else { 1.0 };
    let in_flight = scale * i.pp;
    let p = &i.per_layer;
    let fields = [p.norms, p.attention, p.attention_scores, p.mlp, p.adapters, p.dropout_masks, p.norm_stats];
    let saved = split(i.layer_bytes * in_flight, &fields);
    let blocks = i.layers_with_grad * i.layer_bytes;
    let head_saved = ((i.act_pre_pp - blocks - i.recompute) * scale).max(0.0);
    let recompute = if i.recompute > 0.0 { split(i.recompute, &fields) } else { vec![] };
    let layers_with_grad =
        ((i.layers_with_grad / i.pp).round() as usize).clamp(usize::from(i.layers_with_grad > 0.0), layers);
    // The largest intermediate a block's forward makes and drops: the MLP's hidden state.
    let workspace = if q.ckpt == Some(Checkpointing::Full) || i.recompute > 0.0 {
        i.tokens * f.max(h) * i.act_bytes / i.tp
    } else {
        0.0
    };
    Shape {
        layers,
        block_weights,
        other_weights,
        block_grads,
        other_grads,
        block_states,
        other_states,
        layers_with_grad,
        saved,
        recompute,
        workspace,
        head_saved,
        loss_saved: i.loss_saved,
        loss_transient: (i.logits - i.loss_saved).max(0.0),
        act_grad: i.tokens * h * i.act_bytes / i.tp,
        step_temp: i.step_temp,
        persistent: if q.shard == ShardingStrategy::None { i.bucket } else { 0.0 },
        gathered_unit: if sharded { i.gathered / 2.0 } else { 0.0 },
        reduce_unit: if q.shard.shards_grads() { i.bucket } else { 0.0 },
        grads_on_reduce: i.grads_on_reduce,
        dequant: i.dequant,
        // bitsandbytes quantizes on the GPU: each 16-bit weight is moved there first
        // (transformers' `create_quantized_param` → `Params4bit.to(device)`).
        load_transient: if q.method == Method::Qlora { h * f.max(qd) * 2.0 / i.tp } else { 0.0 },
        grads_persist: q.ga > 1 || !q.set_to_none,
        micro_steps: (q.ga as usize).min(2),
    }
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
