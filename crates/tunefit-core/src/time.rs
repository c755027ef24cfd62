//! Training time: FLOPs per token, the GPU's real peak at the compute precision, an efficiency
//! (MFU), and the communication a sharding strategy puts on the interconnect.
//!
//! Formulas (A = active params, T = trainable params, L = layers, d = attention width
//! heads·head_dim, s = sequence length; 2 FLOPs per multiply-add):
//! - forward            F = 2·(A + T_adapter) + 4·L·d·s   (attention scores and values, the
//!   non-causal count that published MFU figures use, so the cited efficiencies apply as-is)
//! - backward, trained weights: 2× their forward (activation and weight gradients);
//!   frozen weights: 1× (LoRA/QLoRA still propagate activation gradients through them);
//!   attention: 2× its forward. Freeze-tuning stops the backward below the first trained layer.
//! - full checkpointing adds one forward; selective adds the attention forward.
//! - QLoRA: each use of a frozen weight first dequantizes it (read 0.5 B NF4, write 2 B bf16),
//!   a memory-bound cost per micro-step of uses·P_q·2.5 B / bandwidth.
//! - step = ga·(compute + dequant + exposed comm per micro-step) + exposed comm per optimizer
//!   step + optimizer update (memory-bound, ~32 B per trainable parameter per shard).

use crate::dataset::{Fabric, Gpu, GpuClass};
use crate::query::{Checkpointing, Method, Precision, Query, ShardingStrategy};
use serde::Serialize;

/// The model numbers the FLOP count needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlopShape {
    /// Parameters a token passes through (MoE: routed experts only).
    pub active: f64,
    /// Trainable parameters (adapters for PEFT methods).
    pub trainable: f64,
    pub layers: f64,
    /// Attention width heads·head_dim.
    pub attn_width: f64,
}

impl FlopShape {
    /// From the query's preset or inferred architecture, scaled to the memory model's counts.
    pub fn of(q: &Query, params: u64, trainable: u64) -> FlopShape {
        let mut arch = match q.model.as_deref().and_then(crate::catalog::preset) {
            Some(p) => p.arch.clone(),
            None => crate::arch::Architecture::infer(params.max(1)),
        };
        arch.apply(&q.arch);
        let total = arch.param_count().max(1) as f64;
        let active_ratio = (arch.active_params() as f64 / total).clamp(0.0, 1.0);
        FlopShape {
            active: params as f64 * active_ratio,
            trainable: trainable as f64,
            layers: arch.layers as f64,
            attn_width: (arch.heads * arch.head_dim) as f64,
        }
    }
}

/// Checkpointing actually in force: an explicit choice wins; otherwise QLoRA recipes turn full
/// checkpointing on (PEFT's `prepare_model_for_kbit_training` defaults to it) and the others
/// leave it off (HF Trainer's default).
pub fn checkpointing(q: &Query) -> Checkpointing {
    q.ckpt.unwrap_or(if q.method == Method::Qlora { Checkpointing::Full } else { Checkpointing::None })
}

/// FLOPs executed per trained token (forward, backward and recomputation).
pub fn flops_per_token(q: &Query, s: &FlopShape) -> f64 {
    let seq = q.seq as f64;
    let attn = 4.0 * s.layers * s.attn_width * seq;
    let (fwd_lin, bwd) = match q.method {
        Method::Full => (2.0 * s.active, 4.0 * s.active + 2.0 * attn),
        Method::Freeze => {
            // Backward runs only through the trained top layers.
            let frac = (s.trainable / s.active.max(1.0)).clamp(0.0, 1.0);
            (2.0 * s.active, 4.0 * s.trainable + 2.0 * attn * frac)
        }
        _ => {
            let t = s.trainable;
            (2.0 * (s.active + t), 2.0 * s.active + 4.0 * t + 2.0 * attn)
        }
    };
    let fwd = fwd_lin + attn;
    let recompute = match checkpointing(q) {
        Checkpointing::Full => fwd,
        Checkpointing::Selective => attn,
        Checkpointing::None => 0.0,
    };
    fwd + bwd + recompute
}

/// Which number format the matmuls run in on this GPU, and its dense peak in FLOP/s.
/// `flagged` is true when the requested format is not native (T4/V100 have no BF16: fp16 rates).
pub fn compute_peak(p: Precision, g: &Gpu) -> (&'static str, f64, bool) {
    let tf = |x: Option<f64>| x.unwrap_or(0.0) * 1e12;
    match p {
        // PyTorch leaves TF32 matmuls off by default (since 1.12), so fp32 runs at the FP32 rate.
        Precision::Fp32 => ("fp32", tf(g.fp32_tflops.or(g.tf32_tflops)), false),
        Precision::Fp16Mixed | Precision::Fp16True => ("fp16", tf(g.fp16_tflops.or(g.bf16_tflops)), false),
        Precision::Bf16Mixed | Precision::Bf16True => {
            if g.bf16_native && g.bf16_tflops.is_some() { ("bf16", tf(g.bf16_tflops), false) }
            else { ("fp16", tf(g.fp16_tflops), true) }
        }
    }
}

/// Default efficiency (FLOPs executed / peak) for a GPU class and method.
///
/// - Hopper/Blackwell-class datacenter parts (≥ 700 dense BF16 TFLOPS) reach 38–46 % in
///   MosaicML llm-foundry's FSDP benchmarks (H100, 1B–30B, seq 2048–8192): 0.40.
/// - Older datacenter parts saturate more easily: llm-foundry A100-80GB 51–56 % for 13B–30B;
///   fine-tuning stacks (HF Trainer, variable-length batches) run below those tuned
///   pretraining figures: 0.45.
/// - Pro and consumer GDDR cards are bandwidth-starved at the same FLOPs: 0.35 (PEFT
///   maintainers' Llama-3-8B QLoRA on one RTX 4090: 1410 tokens/s = 28–41 % depending on
///   checkpointing; docs/accuracy.md).
/// Method factors: adapters add small, bandwidth-bound matmuls per layer (×0.85); QLoRA's
/// unfused dequantize-then-matmul kernels on top of the modelled dequant traffic (×0.75);
/// DoRA recomputes the weight norm ‖W + BA‖ every step (×0.55).
pub fn default_mfu(g: &Gpu, m: Method) -> f64 {
    let base = match g.class {
        GpuClass::Datacenter if g.bf16_tflops.unwrap_or(0.0) >= 700.0 => 0.40,
        GpuClass::Datacenter => 0.45,
        GpuClass::Pro | GpuClass::Consumer => 0.35,
    };
    let method = match m {
        Method::Full | Method::Freeze => 1.0,
        Method::Qlora => 0.75,
        Method::Dora => 0.55,
        _ => 0.85,
    };
    base * method
}

/// Fraction of link peak NCCL collectives reach (nccl-tests bus bandwidth is typically 70–80 %
/// of the one-way link rate on NVLink and PCIe).
const LINK_EFFICIENCY: f64 = 0.75;
/// Communication overlapped with compute still slows it a little: NCCL kernels take SMs and
/// memory bandwidth from the matmuls.
const OVERLAP_PENALTY: f64 = 0.1;

/// One-way collective bandwidth per GPU, bytes/s, for `count` GPUs per instance and
/// `instances` instances (ring bottleneck = slowest link).
pub fn ring_bandwidth(g: &Gpu, count: u32, instances: u32, internode_gb_s: Option<f64>) -> f64 {
    let one_way = |bidir: f64| bidir / 2.0;
    let intra = match g.fabric {
        Fabric::Nvlink | Fabric::InfinityFabric | Fabric::Roce => one_way(g.fabric_gb_s),
        // A bridge joins pairs (or quads); a ring over more GPUs crosses PCIe.
        Fabric::Bridge if count <= g.fabric_group => one_way(g.fabric_gb_s),
        Fabric::Bridge | Fabric::Pcie => one_way(g.pcie_gb_s),
    };
    let bw = if instances > 1 { intra.min(internode_gb_s.unwrap_or(intra)) } else { intra };
    bw * 1e9 * LINK_EFFICIENCY
}

/// Numbers of one step on one hardware configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub peak_flops: f64,
    pub mfu: f64,
    pub flops_per_token: f64,
    pub compute_s: f64,
    pub comm_s: f64,
    pub exposed_comm_s: f64,
    pub step_s: f64,
    pub tokens_per_s: f64,
    pub hours: f64,
    pub precision_flagged: bool,
}

/// Time for the job on `count` GPUs per instance × `instances` of GPU `g`.
pub fn timing(q: &Query, s: &FlopShape, g: &Gpu, count: u32, instances: u32, internode_gb_s: Option<f64>) -> Timing {
    let n = (count as f64) * (instances as f64);
    let (_, peak, flagged) = compute_peak(q.precision, g);
    let mfu = q.mfu.unwrap_or_else(|| default_mfu(g, q.method));
    let fpt = flops_per_token(q, s);
    let micro_tokens = q.batch as f64 * q.seq as f64;
    let ga = q.ga as f64;
    let compute_micro = micro_tokens * fpt / (peak * mfu).max(1.0);

    let bw_mem = g.mem_bandwidth_gb_s * 1e9;
    let dequant_micro = if q.method == Method::Qlora {
        let uses = 2.0 + if checkpointing(q) == Checkpointing::Full { 1.0 } else { 0.0 };
        // Under FSDP each GPU still dequantizes every gathered weight, so no division by N.
        uses * s.active * 2.5 / bw_mem
    } else { 0.0 };

    // Communication volumes (bytes each GPU sends), ring collectives: all-reduce 2(N−1)/N·V,
    // reduce-scatter and all-gather (N−1)/N·V each.
    let grad_bytes = if q.precision == Precision::Fp32 { 4.0 } else { 2.0 };
    let stored_bytes = match q.method {
        Method::Qlora => 0.5,
        _ if q.precision == Precision::Fp32 => 4.0,
        _ => 2.0,
    };
    let grads = s.trainable * grad_bytes;
    let params_all = s.active.max(s.trainable) * stored_bytes;
    let f = if n > 1.0 { (n - 1.0) / n } else { 0.0 };
    let (comm_micro, comm_step, window_share) = match q.shard {
        // DDP and ZeRO-1 all-reduce gradients once per optimizer step (no_sync while
        // accumulating), overlapped with the backward pass only (≈ 2/3 of compute).
        ShardingStrategy::None | ShardingStrategy::Zero1 => (0.0, 2.0 * f * grads, 2.0 / 3.0),
        // ZeRO-2 reduce-scatters gradients every micro-step and all-gathers the updated shards.
        ShardingStrategy::Zero2 => (f * grads, f * s.trainable * stored_bytes, 2.0 / 3.0),
        // ZeRO-3/FSDP all-gather every weight in forward and again in backward, and
        // reduce-scatter gradients, every micro-step; prefetching overlaps the whole step.
        ShardingStrategy::Zero3 | ShardingStrategy::Fsdp => (2.0 * f * params_all + f * grads, 0.0, 1.0),
    };
    let bw = ring_bandwidth(g, count, instances, internode_gb_s);
    let comm_micro_s = comm_micro / bw;
    let comm_step_s = comm_step / bw;
    let exposed = |comm: f64, window: f64| (comm - window).max(0.0) + OVERLAP_PENALTY * comm.min(window);
    let exposed_micro = exposed(comm_micro_s, window_share * compute_micro);
    // The once-per-step reduction overlaps only the last micro-step's backward.
    let exposed_step = exposed(comm_step_s, window_share * compute_micro);

    // Optimizer update: AdamW reads and writes fp32 master, m, v and the gradient
    // (~32 B per parameter), memory-bound, on this GPU's shard.
    let shard_div = if matches!(q.shard, ShardingStrategy::None) { 1.0 } else { n };
    let optim_s = s.trainable * 32.0 / shard_div / bw_mem;

    let step_s = ga * (compute_micro + dequant_micro + exposed_micro) + exposed_step + optim_s;
    let tokens_per_step = micro_tokens * ga * n;
    let tokens_per_s = tokens_per_step / step_s.max(1e-12);
    let total_tokens = q.tokens as f64 * q.epochs;
    Timing {
        peak_flops: peak,
        mfu,
        flops_per_token: fpt,
        compute_s: ga * compute_micro,
        comm_s: ga * comm_micro_s + comm_step_s,
        exposed_comm_s: ga * exposed_micro + exposed_step,
        step_s,
        tokens_per_s,
        hours: total_tokens / tokens_per_s / 3600.0,
        precision_flagged: flagged,
    }
}

/// The time estimate shown for one configuration (`time` in the JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimeEstimate {
    pub gpu: String,
    /// GPUs in total (per instance × instances).
    pub gpus: u32,
    pub instances: u32,
    /// Number format the matmuls run in ("bf16", "fp16", "fp32").
    pub compute_dtype: String,
    pub peak_tflops: f64,
    pub mfu: f64,
    pub flops_per_token: f64,
    pub tokens_per_s: f64,
    /// Seconds per optimizer step (ga micro-batches on every GPU).
    pub step_s: f64,
    /// Of which: communication not hidden behind compute.
    pub exposed_comm_s: f64,
    /// Hours for one run of tokens × epochs.
    pub hours: f64,
    pub training_tokens: f64,
}

impl TimeEstimate {
    pub fn new(q: &Query, g: &Gpu, count: u32, instances: u32, t: &Timing) -> TimeEstimate {
        TimeEstimate {
            gpu: g.id.to_string(),
            gpus: count * instances,
            instances,
            compute_dtype: compute_peak(q.precision, g).0.to_string(),
            peak_tflops: t.peak_flops / 1e12,
            mfu: t.mfu,
            flops_per_token: t.flops_per_token,
            tokens_per_s: t.tokens_per_s,
            step_s: t.step_s,
            exposed_comm_s: t.exposed_comm_s,
            hours: t.hours,
            training_tokens: q.tokens as f64 * q.epochs,
        }
    }
}
