//! Time and cost of a diffusion fine-tune on one GPU: one micro-step kernel class by kernel
//! class, from the same GPU facts and efficiencies as the language models (time/kernels.rs:
//! the measured matmul ceiling, flash attention's share of the peak, streaming bandwidth, the
//! CPU's cost per eager op), and the cheapest listed on-demand price of that GPU.
//!
//! - GEMMs: every linear of every block at the tokens it sees (image, text, the joint
//!   sequence, or one timestep vector for the adaLN modulation), forward, the backward's input
//!   gradients (and weight gradients when the weights train), the forward again under
//!   checkpointing; LoRA's own small matmuls beside them.
//! - Attention: self-attention over the sequence (image tokens, plus the text in an MMDiT)
//!   and cross-attention to the text, 4·S·S'·hidden FLOPs a forward, the backward 2.5 times
//!   that (FlashAttention-2's backward, Dao 2023), at `flash_efficiency` of the 16-bit peak.
//! - Elementwise work (norms, modulation, GELU, RoPE, residuals): each block's saved tensors
//!   written and read in the forward and read again with their gradients in the backward, at
//!   streaming bandwidth.
//! - A quantized base dequantizes each weight every pass (its stored bytes read, 16-bit
//!   written); swapped blocks cross PCIe every pass, overlapped with the compute.
//! - The CPU issues every kernel (dit_probe.py counted the aten ops of one block's forward and
//!   backward) at the language models' `CPU_S_PER_OP`; the GPU waits when that is longer.
//!
//! Not counted: the trainer's own work per step (data loading, timestep and noise sampling,
//! logging, the optimizer's step over the adapters), which SimpleTuner's measured sweep shows
//! to be most of a small model's step (docs/diffusion.md): the time is the model's work, a
//! lower bound.

use super::job::{Ckpt, Job, Method, Storage};
use super::models::Tokens;
use crate::dataset::Gpu;
use crate::time::kernels::{flash_efficiency, gemm_ceiling, BANDWIDTH_EFFICIENCY, CPU_S_PER_OP};
use serde::Serialize;

/// One micro-step's time on one GPU, seconds, by kernel class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffusionTime {
    pub gemm_s: f64,
    pub attn_s: f64,
    pub elementwise_s: f64,
    pub dequant_s: f64,
    /// Host traffic over PCIe (swapped blocks' weights, offloaded checkpoints), overlapped
    /// with the compute.
    pub swap_s: f64,
    /// Collectives between the GPUs (DDP's gradient all-reduce; FSDP's weight all-gathers and
    /// gradient reduce-scatters), overlapped with the compute.
    pub comm_s: f64,
    pub cpu_s: f64,
    /// max(GPU work, PCIe copies, CPU): what one micro-step takes.
    pub step_s: f64,
    /// Executed FLOPs of one micro-step (recomputation included).
    pub flops: f64,
    /// Steps of the run (`steps`) and their hours.
    pub steps: u64,
    pub hours: f64,
    /// GPUs the run rents; each step trains `gpus` × `batch` samples.
    pub gpus: u64,
    /// The cheapest listed on-demand price of one such GPU, USD per hour, and the run's cost
    /// on all of them.
    pub usd_per_gpu_h: Option<f64>,
    pub usd: Option<f64>,
}

/// The forward passes a micro-step runs: the forward, and its recomputation in the
/// checkpointed blocks (all of them, or every `ckpt_every`th).
fn forwards(j: &Job) -> f64 {
    1.0 + j.checkpointed_share()
}

/// One sample's work in a micro-step, by where it runs: forward FLOPs of the blocks'
/// linears, their LoRA, the layers between a UNet's blocks and their LoRA, and attention;
/// the kernels the CPU issues; the bytes the blocks save (and a UNet's ops between them).
#[derive(Default)]
struct Work {
    linear_fwd: f64,
    lora_fwd: f64,
    outer_fwd: f64,
    outer_lora_fwd: f64,
    attn_fwd: f64,
    ops: f64,
    saved: f64,
    outside: f64,
}

fn work(j: &Job) -> Work {
    let m = j.model;
    let (n, t) = (j.image_tokens() as f64, j.text_tokens as f64);
    let full = j.method == Method::Full;
    let fw = forwards(j);
    let h = m.hidden as f64;
    // Attention over the sequence a transformer's block attends to, and the text it
    // cross-attends to; a UNet block's over its level's pixels, with the text beside.
    let dit_attention = match m.text {
        super::models::TextPath::Joint => 4.0 * (n + t) * (n + t) * h,
        super::models::TextPath::Cross => 4.0 * n * n * h + 4.0 * n * t * h,
        // K^T·V and Q against it, each 2·n·head_dim·h FLOPs, beside the cross-attention.
        super::models::TextPath::LinearCross { head_dim } => 4.0 * n * head_dim as f64 * h + 4.0 * n * t * h,
    };
    let mut w = Work::default();
    for k in m.blocks {
        let c = k.count as f64;
        for l in k.linears {
            w.linear_fwd += c * 2.0 * (l.inp * l.out * l.count) as f64 * j.rows(l);
            if !full && j.targets.on(l.role) {
                w.lora_fwd += c * 2.0 * (j.rank * (l.inp + l.out) * l.count) as f64 * j.rows(l);
            }
        }
        // The block's kernels as dit_probe.py counted them: each forward (the recomputation
        // replays it) and the backward.
        let p = super::memory::probed(j, k);
        w.ops += c * (fw * p.ops_forward as f64 + p.ops_backward as f64);
        w.saved += c * super::memory::saved_per_sample(j, k);
        w.attn_fwd += c * match k.level_attention() {
            Some((level, width)) => {
                let pixels = n * Tokens::Level(level).image_share();
                4.0 * pixels * (pixels + t) * width as f64
            }
            None if k.has_attention() => dit_attention,
            None => 0.0,
        };
    }
    // A UNet's layers between the blocks run once a pass (not recomputed), and its ops there
    // with the whole backward's as unet_probe.py counted them.
    for l in m.outer {
        w.outer_fwd += 2.0 * (l.inp * l.out * l.count) as f64 * j.rows(l);
        if !full && j.targets.on(l.role) {
            w.outer_lora_fwd += 2.0 * (j.rank * (l.inp + l.out) * l.count) as f64 * j.rows(l);
        }
    }
    if let Some(bt) = m.between {
        let p = super::memory::probed_between(j, &bt.outside);
        w.ops += p.ops_forward as f64 + p.ops_backward as f64;
        w.outside = p.image * n + p.text * t;
    }
    w
}

/// Bytes each GPU sends between the GPUs in a step: DDP all-reduces the trained parameters'
/// gradients; FSDP all-gathers the transformer's weights each pass (the forward, its
/// recomputation, the backward) and reduce-scatters the gradients (ring collectives,
/// time/comm.rs).
fn comm_bytes(j: &Job, passes: f64) -> f64 {
    use crate::time::comm::all_reduce_bytes;
    let n = j.gpus as f64;
    if n < 2.0 {
        return 0.0;
    }
    let m = super::memory::moved(j);
    match j.shard {
        super::job::Shard::Ddp => all_reduce_bytes(m.trained_bytes, n),
        super::job::Shard::Fsdp => {
            passes * all_reduce_bytes(m.transformer_bytes, n) / 2.0 + all_reduce_bytes(m.trained_bytes, n) / 2.0
        }
    }
}

/// Bytes one micro-step moves to host memory and back for offloaded checkpoints.
fn offloaded_bytes(j: &Job) -> f64 {
    let (m, b) = (j.model, j.samples() as f64);
    let (n, t) = (j.image_tokens() as f64, j.text_tokens as f64);
    match (j.ckpt, m.between) {
        (Ckpt::Offload, None) => {
            let ck: u64 = m.blocks.iter().map(|k| j.checkpointed(k.count)).sum();
            2.0 * b * (n + t) * m.hidden as f64 * 2.0 * ck as f64
        }
        // A UNet's offloaded inputs: what checkpointing holds beyond the ops' own saved tensors.
        (Ckpt::Offload, Some(bt)) => {
            let (held, out) =
                (super::memory::probed_between(j, &bt.held_ckpt), super::memory::probed_between(j, &bt.outside));
            2.0 * b * ((held.image - out.image) * n + (held.text - out.text) * t).max(0.0)
        }
        _ => 0.0,
    }
}

/// One micro-step on `g`; with several aspect buckets, their mean (a run that draws each
/// bucket equally often), each kernel class averaged the same way.
pub fn time(j: &Job, g: &Gpu) -> DiffusionTime {
    if j.buckets.len() < 2 {
        return one_bucket(j, g);
    }
    let each: Vec<DiffusionTime> = j.buckets.iter().map(|&b| one_bucket(&j.at_bucket(b), g)).collect();
    let mean = |f: fn(&DiffusionTime) -> f64| each.iter().map(f).sum::<f64>() / each.len() as f64;
    let step_s = mean(|t| t.step_s);
    let hours = step_s * j.steps as f64 / 3600.0;
    let usd_per_gpu_h = each[0].usd_per_gpu_h;
    DiffusionTime {
        gemm_s: mean(|t| t.gemm_s),
        attn_s: mean(|t| t.attn_s),
        elementwise_s: mean(|t| t.elementwise_s),
        dequant_s: mean(|t| t.dequant_s),
        swap_s: mean(|t| t.swap_s),
        comm_s: mean(|t| t.comm_s),
        cpu_s: mean(|t| t.cpu_s),
        step_s,
        flops: mean(|t| t.flops),
        steps: j.steps,
        hours,
        gpus: j.gpus,
        usd_per_gpu_h,
        usd: usd_per_gpu_h.map(|p| p * hours * j.gpus as f64),
    }
}

fn one_bucket(j: &Job, g: &Gpu) -> DiffusionTime {
    let m = j.model;
    let b = j.samples() as f64;
    let t = j.text_tokens as f64;
    // Each encoder reads one stream's tokens (HiDream's 384 are three of 128).
    let t_enc = t / m.text_streams.max(1) as f64;
    let fw = forwards(j);
    // Backward: input gradients always (the blocks below train or pass the gradient on),
    // weight gradients only when the weights train.
    let bw = if j.method == Method::Full { 2.0 } else { 1.0 };
    let Work { linear_fwd, lora_fwd, outer_fwd, outer_lora_fwd, attn_fwd, ops, saved, outside } = work(j);
    // Text encoders on the GPU encode each batch's prompts (a forward, no gradient).
    // Trained ones run a backward too: input gradients, and weight gradients when every
    // weight trains (LoRA's own matmuls are a few percent of it, left out).
    let encoders = match j.text_encoders {
        super::job::TextEncoders::Gpu => m.text_encoders.iter().map(|c| 2.0 * c.params as f64 * t_enc).sum(),
        super::job::TextEncoders::Train => m
            .text_encoders
            .iter()
            .map(|c| 2.0 * c.params as f64 * t_enc * if c.tower.is_some() { 1.0 + bw } else { 1.0 })
            .sum(),
        super::job::TextEncoders::Cached => 0.0,
    };
    let gemm_flops =
        b * (linear_fwd * (fw + bw) + outer_fwd * (1.0 + bw) + lora_fwd * (fw + 2.0) + outer_lora_fwd * 3.0 + encoders);
    let (_, peak, _) = crate::time::compute_peak(crate::query::Precision::Bf16True, g);
    let gemm_s = gemm_flops / (peak * gemm_ceiling(g));
    let attn_flops = b * attn_fwd * (fw + 2.5);
    let attn_s = attn_flops / (peak * flash_efficiency(g));
    let bandwidth = g.mem_bandwidth_gb_s * 1e9 * BANDWIDTH_EFFICIENCY;
    let elementwise_s = b * (saved * (2.0 * fw + 2.0) + outside * 4.0) / bandwidth;
    let linear_params: f64 = m.blocks.iter().map(|k| (k.count * k.linear_params()) as f64).sum::<f64>()
        + m.outer.iter().map(|l| (l.inp * l.out * l.count) as f64).sum::<f64>();
    let passes = fw + 1.0;
    let dequant_s =
        if j.weights == Storage::Bf16 { 0.0 } else { passes * linear_params * (j.weights.bytes() + 2.0) / bandwidth };
    // Host traffic: swapped blocks' weights each pass; offloaded checkpoints' inputs out in
    // the forward and back for the backward.
    let offloaded = offloaded_bytes(j);
    let pcie = g.pcie_gb_s / 2.0 * 1e9 * BANDWIDTH_EFFICIENCY;
    let swap_s = if pcie > 0.0 { (passes * j.swapped_bytes() + offloaded) / pcie } else { 0.0 };
    let cpu_s = ops * CPU_S_PER_OP;
    let comm_s = comm_bytes(j, passes) / crate::time::comm::intra_bandwidth(g, j.gpus as u32);
    let gpu_s = gemm_s + attn_s + elementwise_s + dequant_s;
    let step_s = gpu_s.max(swap_s).max(cpu_s).max(comm_s);
    let hours = step_s * j.steps as f64 / 3600.0;
    let usd_per_gpu_h = cheapest(g.id, j.gpus);
    DiffusionTime {
        gemm_s,
        attn_s,
        elementwise_s,
        dequant_s,
        swap_s,
        comm_s,
        cpu_s,
        step_s,
        flops: gemm_flops + attn_flops,
        steps: j.steps,
        hours,
        gpus: j.gpus,
        usd_per_gpu_h,
        usd: usd_per_gpu_h.map(|p| p * hours * j.gpus as f64),
    }
}

/// The lowest on-demand price per GPU-hour listed for `gpu` among instances with at least
/// `gpus` of them (a run on four GPUs is not priced from offers of one), in US dollars (each
/// offer's own currency converted at the dataset's dated rate).
pub(super) fn cheapest(gpu: &str, gpus: u64) -> Option<f64> {
    crate::dataset::offers()
        .iter()
        .filter(|o| o.gpu == gpu && u64::from(o.count) >= gpus)
        .filter_map(|o| Some(o.usd_per_gpu_hour()? / crate::dataset::per_usd(o.currency)?))
        .min_by(f64::total_cmp)
}
