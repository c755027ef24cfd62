//! Training time: the work of a micro-step on one GPU (kernels.rs), the communication of
//! tensor, pipeline, context and data parallelism (comm.rs), the pipeline's bubble, the
//! optimizer update, and the run around the steps (run.rs).
//!
//! - FLOPs per token (flops.rs): the model-FLOPs count published MFU figures use, plus
//!   recomputation; the checkpointing in force is the framework profile's, as in memory.
//! - micro-step = max(GPU time, CPU time to launch its kernels); GPU time = GEMMs at the
//!   GPU's measured matmul ceiling (or its bandwidth) + flash attention + elementwise traffic
//!   + QLoRA's dequantization.
//! - stage time = micro-step + tensor-parallel all-reduces (not overlapped) + context-parallel
//!   K/V exchange beyond the attention it hides behind + pipeline sends + data-parallel
//!   collectives beyond the compute they hide behind.
//! - step = (ga + (pp − 1)/chunks) × stage time (1F1B; interleaved with `pp_chunks`) + the
//!   once-per-step reduction + the optimizer update (memory-bound, ~32 B per trainable
//!   parameter of this GPU's shard).
//! - run = start-up + steps + evaluation + checkpoint saves.

pub mod comm;
pub mod flops;
pub mod kernels;
pub mod run;

use crate::settings::Settings;

pub use flops::{flops_per_token, model_flops_per_token, FlopShape};
pub use kernels::MicroStep;

use crate::dataset::Gpu;
use crate::query::{Method, Precision, Query, ShardingStrategy};
use comm::{all_reduce_bytes, exposed, group_bandwidth};
use serde::Serialize;

/// How the run's GPUs are arranged: `per_instance` × `instances` = tp · pp · cp · dp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    pub per_instance: u32,
    pub instances: u32,
    pub tp: u32,
    pub pp: u32,
    pub cp: u32,
    /// Data-parallel replicas: what remains after tensor, pipeline and context parallelism.
    pub dp: u32,
}

impl Layout {
    pub fn new(q: &Query, per_instance: u32, instances: u32) -> Layout {
        let total = per_instance.max(1) * instances.max(1);
        let model = (q.tp * q.pp * q.cp).max(1);
        Layout {
            per_instance: per_instance.max(1),
            instances: instances.max(1),
            tp: q.tp.max(1),
            pp: q.pp.max(1),
            cp: q.cp.max(1),
            dp: (total / model).max(1),
        }
    }
    pub fn total(&self) -> u32 {
        self.per_instance * self.instances
    }
    /// Model chunks per pipeline stage (1 without pipelining).
    fn pp_chunks_of(&self, q: &Query) -> f64 {
        if self.pp > 1 {
            q.pp_chunks.max(1) as f64
        } else {
            1.0
        }
    }
    /// Members of one data-parallel group inside one instance.
    fn dp_per_node(&self) -> u32 {
        let inner = self.tp * self.cp;
        if inner * self.pp <= self.per_instance {
            self.per_instance / (inner * self.pp)
        } else {
            (self.per_instance / inner.min(self.per_instance)).max(1)
        }
    }
}

/// Which number format the 16-bit work runs in on this GPU, and its dense peak in FLOP/s.
/// `flagged` is true when the requested format is not native (T4/V100 have no BF16: fp16 rates).
pub fn compute_peak(p: Precision, g: &Gpu) -> (&'static str, f64, bool) {
    let tf = |x: Option<f64>| x.unwrap_or(0.0) * 1e12;
    match p {
        // PyTorch leaves TF32 matmuls off by default (since 1.12), so fp32 runs at the FP32 rate.
        Precision::Fp32 => ("fp32", tf(g.fp32_tflops.or(g.tf32_tflops)), false),
        Precision::Fp16Mixed | Precision::Fp16True => ("fp16", tf(g.fp16_tflops.or(g.bf16_tflops)), false),
        Precision::Bf16Mixed | Precision::Bf16True => {
            if g.bf16_native && g.bf16_tflops.is_some() {
                ("bf16", tf(g.bf16_tflops), false)
            } else {
                ("fp16", tf(g.fp16_tflops), true)
            }
        }
    }
}

/// Numbers of one step on one hardware configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// Dense peak of the linear layers' format, FLOP/s.
    pub peak_flops: f64,
    /// Model-FLOPs utilisation against the 16-bit (or fp32) peak, as published MFU figures.
    pub mfu: f64,
    /// Executed FLOPs per token (recomputation included).
    pub flops_per_token: f64,
    pub model_flops_per_token: f64,
    pub micro: MicroStep,
    pub compute_s: f64,
    pub comm_s: f64,
    pub exposed_comm_s: f64,
    /// Pipeline bubble per step.
    pub bubble_s: f64,
    pub step_s: f64,
    pub tokens_per_s: f64,
    /// Hours of training steps alone.
    pub train_hours: f64,
    pub startup_s: f64,
    pub eval_s: f64,
    pub saves: u32,
    pub save_s: f64,
    /// Wall-clock hours of one run: start-up, steps, evaluation and saves.
    pub hours: f64,
    pub precision_flagged: bool,
    pub layout: Layout,
}

/// Time for the job on `count` GPUs per instance × `instances` of GPU `g`; `internode_gb_s`
/// is the network between instances per GPU, one way.
pub fn timing(
    settings: &Settings,
    s: &FlopShape,
    g: &Gpu,
    count: u32,
    instances: u32,
    internode_gb_s: Option<f64>,
) -> Timing {
    let (q, r) = (&*settings.query, settings.resolved);
    let lay = Layout::new(q, count, instances);
    let (_, peak_lin, flagged) = kernels::linear_peak(q, g);
    let (_, peak16, _) = compute_peak(q.precision, g);
    let fpt = flops::flops_per_token_with(q, s, r.ckpt);
    let model_fpt = model_flops_per_token(q, s);
    let mut micro = kernels::micro_step(q, &r, s, g, &lay);
    let tokens_micro = q.batch as f64 * q.seq as f64 / lay.cp as f64;
    let split = (lay.tp * lay.pp) as f64;
    if let Some(mfu) = q.mfu {
        // A person's own utilisation replaces the kernel model: model FLOPs at that fraction
        // of the 16-bit peak.
        let t = tokens_micro * model_fpt / split / (peak16 * mfu).max(1.0);
        micro =
            MicroStep { gemm_s: t, attn_s: 0.0, elementwise_s: 0.0, dequant_s: 0.0, cpu_s: 0.0, gpu_s: t, total_s: t };
    }
    let act_bytes = q.precision.compute_bytes();
    let p = flops::passes_executed(q, &r, s);

    let (tp_s, cp_s, pp_s) = model_parallel_s(q, s, g, &lay, &p, tokens_micro, act_bytes, micro.attn_s, internode_gb_s);

    let compute_micro = micro.total_s;
    let dp = data_parallel_s(q, s, g, &lay, compute_micro, internode_gb_s);
    let optim_s = optimizer_step_s(q, s, g, &lay);

    let stage = compute_micro + tp_s + cp_s + pp_s + dp.exposed_micro_s;
    let ga = q.ga as f64;
    let chunks = lay.pp_chunks_of(q);
    let bubble = if lay.pp > 1 { (lay.pp - 1) as f64 / chunks * stage } else { 0.0 };
    let step_s = ga * stage + bubble + dp.exposed_step_s + optim_s;
    let tokens_per_step = q.batch as f64 * q.seq as f64 * ga * lay.dp as f64;
    let tokens_per_s = tokens_per_step / step_s.max(1e-12);
    let total_tokens = q.tokens as f64 * q.epochs;
    let train_s = total_tokens / tokens_per_s;
    let mfu = tokens_per_s / lay.total() as f64 * model_fpt / peak16.max(1.0);

    let startup_s = run::startup_s(q, s.total);
    // Evaluation runs the forward only: its share of a micro-step's work.
    let fwd_share = (model_fpt / 3.0 / fpt.max(1.0)).clamp(0.0, 1.0) * if q.method == Method::Full { 1.0 } else { 1.5 };
    let eval_s = q.eval_frac * train_s * fwd_share.min(1.0);
    let (saves, save_s) = run::saves(q, s.trainable, train_s, lay.instances);
    Timing {
        peak_flops: peak_lin,
        mfu,
        flops_per_token: fpt,
        model_flops_per_token: model_fpt,
        micro,
        compute_s: ga * compute_micro,
        comm_s: ga * (tp_s + dp.micro_s + pp_s) + dp.step_s,
        exposed_comm_s: ga * (tp_s + cp_s + pp_s + dp.exposed_micro_s) + dp.exposed_step_s,
        bubble_s: bubble,
        step_s,
        tokens_per_s,
        train_hours: train_s / 3600.0,
        startup_s,
        eval_s,
        saves,
        save_s,
        hours: (startup_s + train_s + eval_s + save_s) / 3600.0,
        precision_flagged: flagged,
        layout: lay,
    }
}

/// Data-parallel traffic on one GPU: per micro-step (ZeRO-2 reduce-scatters, ZeRO-3/FSDP
/// gathers) and per optimizer step (DDP's all-reduce), and what of each the compute hides.
struct DataParallel {
    micro_s: f64,
    step_s: f64,
    exposed_micro_s: f64,
    exposed_step_s: f64,
}

fn data_parallel_s(
    q: &Query,
    s: &FlopShape,
    g: &Gpu,
    lay: &Layout,
    compute_micro: f64,
    internode_gb_s: Option<f64>,
) -> DataParallel {
    // Data parallelism over dp × cp ranks (the context-parallel ranks hold the same weights).
    let n = (lay.dp * lay.cp) as f64;
    let split = (lay.tp * lay.pp) as f64;
    // DDP all-reduces the gradients in the parameters' dtype: fp32 under mixed precision (an
    // fp32 model under autocast); FSDP and DeepSpeed reduce in 16 bits.
    let grad_bytes = if q.shard == ShardingStrategy::None && q.precision.keeps_fp32_master() {
        4.0
    } else {
        q.precision.compute_bytes()
    };
    // What FSDP/ZeRO gather: fp32 for an fp32 run and under Lightning's FSDP mixed precision
    // (`framework::fsdp_param_dtype_fp32`, as the memory replay's gathers); 16-bit otherwise.
    let stored_bytes = match q.method {
        Method::Qlora => 0.5,
        _ if q.precision == Precision::Fp32 || crate::framework::fsdp_param_dtype_fp32(q) => 4.0,
        _ => 2.0,
    };
    let grads = s.trainable * grad_bytes / split;
    let params_all = s.active.max(s.trainable) * stored_bytes / split;
    let f = if n > 1.0 { (n - 1.0) / n } else { 0.0 };
    let (dp_micro, dp_step, window_share) = match q.shard {
        // DDP and ZeRO-1 all-reduce gradients once per optimizer step (no_sync while
        // accumulating), overlapped with the backward pass only (≈ 2/3 of compute).
        ShardingStrategy::None | ShardingStrategy::Zero1 => (0.0, 2.0 * f * grads, 2.0 / 3.0),
        // ZeRO-2 reduce-scatters gradients every micro-step and all-gathers the updated shards.
        ShardingStrategy::Zero2 => (f * grads, f * s.trainable * stored_bytes / split, 2.0 / 3.0),
        // ZeRO-3/FSDP all-gather every weight in forward and again in backward, and
        // reduce-scatter gradients, every micro-step; prefetching overlaps the whole step.
        ShardingStrategy::Zero3 | ShardingStrategy::Fsdp => (2.0 * f * params_all + f * grads, 0.0, 1.0),
    };
    let dp_per_node = lay.dp_per_node();
    let dp_nodes = (n as u32).div_ceil(dp_per_node.max(1)).max(1).min(lay.instances);
    let dp_bw = group_bandwidth(g, dp_per_node.min(n as u32).max(1), dp_nodes, internode_gb_s);
    let micro_s = dp_micro / dp_bw;
    let step_s = dp_step / dp_bw;
    DataParallel {
        micro_s,
        step_s,
        exposed_micro_s: exposed(micro_s, window_share * compute_micro),
        // The once-per-step reduction overlaps only the last micro-step's backward.
        exposed_step_s: exposed(step_s, window_share * compute_micro),
    }
}

/// The optimizer update on one GPU: memory-bound, on this GPU's shard. With optimizer offload
/// the gradients cross PCIe to the host, the update runs at host memory bandwidth, and the
/// updated weights come back (DeepSpeed ZeRO-Offload: 16-bit; FSDP CPU offload: the shards,
/// fp32 under mixed precision, as its gradients).
fn optimizer_step_s(q: &Query, s: &FlopShape, g: &Gpu, lay: &Layout) -> f64 {
    let n = (lay.dp * lay.cp) as f64;
    let split = (lay.tp * lay.pp) as f64;
    // FSDP's sharded gradients and parameters are fp32 under mixed precision (memory/states.rs).
    let fsdp_fp32 = q.shard == crate::query::ShardingStrategy::Fsdp && q.precision.keeps_fp32_master();
    let (grad_bytes, weight_bytes) =
        if fsdp_fp32 || q.precision == Precision::Fp32 { (4.0, 4.0) } else { (q.precision.compute_bytes(), 2.0) };
    let shard_div = if q.shard.is_sharded() { n } else { 1.0 };
    let shard_params = s.trainable / split / shard_div;
    match q.offload {
        crate::query::Offload::None => shard_params * optimizer_bytes(q) / (g.mem_bandwidth_gb_s * 1e9),
        _ => {
            let pcie = g.pcie_gb_s / 2.0 * 1e9 * comm::LINK_EFFICIENCY;
            let gpus_per_node = lay.per_instance as f64;
            // Every GPU of a node updates its shard on the same host: they share its memory.
            shard_params * (grad_bytes + weight_bytes) / pcie
                + shard_params * gpus_per_node * optimizer_bytes(q) / HOST_MEMORY_BYTES_S
        }
    }
}

/// Seconds per micro-step that tensor, context and pipeline parallelism add on one GPU: the
/// TP all-reduces (on the critical path), the CP K/V exchange beyond the attention it hides
/// behind, and the PP sends.
#[allow(clippy::too_many_arguments)]
fn model_parallel_s(
    q: &Query,
    s: &FlopShape,
    g: &Gpu,
    lay: &Layout,
    p: &flops::Passes,
    tokens_micro: f64,
    act_bytes: f64,
    attn_s: f64,
    internode_gb_s: Option<f64>,
) -> (f64, f64, f64) {
    let layers_stage = s.layers / lay.pp as f64;
    // Tensor parallelism (Megatron): two all-reduces of the block's activations per forward
    // and two per backward (sequence parallelism turns each into a reduce-scatter and an
    // all-gather: the same bytes), on the critical path.
    let tp_group_nodes = lay.tp.div_ceil(lay.per_instance).max(1);
    let tp_bw = group_bandwidth(g, lay.tp.min(lay.per_instance), tp_group_nodes, internode_gb_s);
    let tp_bytes = layers_stage
        * 2.0
        * (p.forwards + p.backwards)
        * all_reduce_bytes(tokens_micro * s.hidden * act_bytes, lay.tp as f64);
    let tp_s = tp_bytes / tp_bw;

    // Context parallelism (ring attention): each rank passes its K/V chunk around the ring,
    // forward and (with the K/V gradients) backward, hidden behind the attention kernels.
    let cp_s = if lay.cp > 1 {
        let per_node = lay.cp.min((lay.per_instance / lay.tp).max(1));
        let bw = group_bandwidth(g, per_node, lay.cp.div_ceil(per_node), internode_gb_s);
        let kv = 2.0 * tokens_micro * s.kv_width * act_bytes / lay.tp as f64;
        let bytes = layers_stage * (lay.cp - 1) as f64 * kv * (p.forwards + 2.0 * p.backwards);
        exposed(bytes / bw, attn_s)
    } else {
        0.0
    };

    // Pipeline parallelism: each stage sends its output forward and its input gradient back
    // once per micro-batch and chunk.
    let pp_s = if lay.pp > 1 {
        let spans = lay.tp * lay.cp * lay.pp > lay.per_instance;
        let bw = if spans { group_bandwidth(g, 1, 2, internode_gb_s) } else { comm::intra_bandwidth(g, 2) };
        2.0 * lay.pp_chunks_of(q) * tokens_micro * s.hidden * act_bytes / lay.tp as f64 / bw
    } else {
        0.0
    };

    (tp_s, cp_s, pp_s)
}

/// Bytes the optimizer step reads and writes per trainable parameter: the weight (fp32 under
/// mixed precision; DeepSpeed's fp32 master and the 16-bit copy it writes back, whatever the
/// load dtype, memory/run.rs), its gradient, and the states (AdamW: m and v; 8-bit: one byte
/// each plus block scales; Adafactor: factored rows and columns; SGD: none).
fn optimizer_bytes(q: &Query) -> f64 {
    let ds_master = q.deepspeed_16bit_engine();
    let true16 = q.precision.is_true16() && !ds_master;
    let state = if true16 { 2.0 } else { 4.0 };
    let param = if ds_master {
        4.0 + 2.0
    } else if true16 {
        2.0
    } else {
        4.0
    };
    let grad = if q.precision == Precision::Fp32 || !true16 { 4.0 } else { 2.0 };
    let states = q.optim.state_bytes_per_param(state);
    // Each state and the weight are read and written; the gradient is read.
    2.0 * (states + param) + grad
}

/// Host memory bandwidth one node's optimizer step streams at: a dual-socket server's
/// DDR4/DDR5 channels give 200–600 GB/s of theoretical bandwidth and ~100 GB/s to a
/// multi-threaded update in practice (DeepSpeed's CPU Adam is memory-bound the same way).
const HOST_MEMORY_BYTES_S: f64 = 100e9;

/// The time estimate shown for one configuration (`time` in the JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimeEstimate {
    pub gpu: String,
    /// GPUs in total (per instance × instances).
    pub gpus: u32,
    pub instances: u32,
    /// Data-parallel replicas (GPUs / (tp · pp · cp)).
    pub dp: u32,
    /// Number format the linear layers' matmuls run in ("bf16", "fp16", "fp32", "fp8", …).
    pub compute_dtype: String,
    /// True when the GPU lacks the requested format and a slower one is assumed.
    pub compute_flagged: bool,
    pub peak_tflops: f64,
    /// Model-FLOPs utilisation (published definition: 6N + attention, no recomputation,
    /// against the 16-bit peak).
    pub mfu: f64,
    /// Executed FLOPs per token (recomputation included).
    pub flops_per_token: f64,
    pub model_flops_per_token: f64,
    pub tokens_per_s: f64,
    /// Samples per second: sequences of `seq` tokens, or an image encoder's images.
    pub samples_per_s: f64,
    /// Seconds per optimizer step (ga micro-batches on every GPU).
    pub step_s: f64,
    /// One micro-step on one GPU, by kind of work (seconds).
    pub micro_step: MicroStepJson,
    /// Of the step: communication not hidden behind compute, and the pipeline bubble.
    pub exposed_comm_s: f64,
    pub bubble_s: f64,
    /// Hours of training steps alone (tokens × epochs / throughput).
    pub train_hours: f64,
    /// Provisioning, image pull and checkpoint download before the first step.
    pub startup_s: f64,
    pub eval_s: f64,
    /// Checkpoint saves in one run and the seconds they take.
    pub saves: u32,
    pub save_s: f64,
    /// Wall-clock hours of one run: start-up + training + evaluation + saves.
    pub hours: f64,
    /// The same run on spot capacity: each interruption loses half a checkpoint interval and a
    /// restart (`cost::wall_hours`), at the provider's (or the query's) interruption rate.
    pub spot_hours: f64,
    pub training_tokens: f64,
}

/// `time.micro_step` in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MicroStepJson {
    pub gemm_s: f64,
    pub attention_s: f64,
    pub elementwise_s: f64,
    pub dequant_s: f64,
    /// CPU time to launch the kernels; when above the GPU's time, the step waits on the CPU.
    pub cpu_s: f64,
    pub cpu_bound: bool,
}

impl TimeEstimate {
    pub fn new(q: &Query, g: &Gpu, count: u32, instances: u32, t: &Timing) -> TimeEstimate {
        let m = &t.micro;
        TimeEstimate {
            gpu: g.id.to_string(),
            gpus: count * instances,
            instances,
            dp: t.layout.dp,
            compute_dtype: kernels::linear_peak(q, g).0.to_string(),
            compute_flagged: t.precision_flagged,
            peak_tflops: t.peak_flops / 1e12,
            mfu: t.mfu,
            flops_per_token: t.flops_per_token,
            model_flops_per_token: t.model_flops_per_token,
            tokens_per_s: t.tokens_per_s,
            // `q` is the query the models read: an image encoder's `seq` is its image's tokens.
            samples_per_s: t.tokens_per_s / f64::from(q.seq.max(1)),
            step_s: t.step_s,
            micro_step: MicroStepJson {
                gemm_s: m.gemm_s,
                attention_s: m.attn_s,
                elementwise_s: m.elementwise_s,
                dequant_s: m.dequant_s,
                cpu_s: m.cpu_s,
                cpu_bound: m.cpu_s > m.gpu_s,
            },
            exposed_comm_s: t.exposed_comm_s,
            bubble_s: t.bubble_s,
            train_hours: t.train_hours,
            startup_s: t.startup_s,
            eval_s: t.eval_s,
            saves: t.saves,
            save_s: t.save_s,
            hours: t.hours,
            spot_hours: t.hours,
            training_tokens: q.tokens as f64 * q.epochs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::optimizer_bytes;
    use crate::query::Query;

    #[test]
    fn the_optimizer_step_streams_the_fp32_weight_where_it_lives() {
        let bytes = |q: &str| optimizer_bytes(&Query::parse(&format!("v=2&method=full&optim=adamw&{q}")).unwrap());
        // m, v and the weight read and written, the gradient read.
        assert_eq!(bytes("precision=bf16-true"), 2.0 * (4.0 + 2.0) + 2.0);
        assert_eq!(bytes("precision=bf16-mixed"), 2.0 * (8.0 + 4.0) + 4.0);
        assert_eq!(bytes("precision=bf16-mixed&gpus=8&shard=fsdp"), 2.0 * (8.0 + 4.0) + 4.0);
        // DeepSpeed also writes the 16-bit copy of its fp32 master, whatever the load dtype.
        assert_eq!(bytes("precision=bf16-mixed&gpus=8&shard=zero2"), 2.0 * (8.0 + 6.0) + 4.0);
        assert_eq!(bytes("precision=bf16-true&gpus=8&shard=zero2"), 2.0 * (8.0 + 6.0) + 4.0);
    }
}
