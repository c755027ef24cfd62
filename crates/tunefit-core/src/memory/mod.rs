//! Memory model: per-GPU bytes of one fine-tuning configuration.
//!
//! Terms (docs/memory-model.md): weights (frozen base in its storage format, trainable
//! parameters in theirs, autocast's 16-bit working copies), gradients, optimizer states,
//! activations saved for backward (crate::activation), logits and loss transients, and
//! named overheads. Three peaks: `allocated` (live tensors at the worst moment of a step),
//! `reserved` (allocated plus the caching allocator's fragmentation) and `device` (reserved
//! plus the CUDA context and memory outside PyTorch: NCCL buffers, bitsandbytes paged states).
//! All arithmetic is f64 over validated inputs and checked before it becomes bytes.

pub mod allocator;
pub mod shape;
pub mod timeline;

use crate::activation::{Block, NormImpl};
use crate::arch::Architecture;
use crate::diag::{Error, Warning};
use crate::framework::{self, LogitsImpl, Resolved};
use crate::query::{
    AdapterDtype, Attention, Checkpointing, ExpertFormat, Framework, Loss, Method, Offload, Optimizer, OptimizerImpl,
    Precision, Quant, Query, ShardingStrategy, TargetModule, Targets,
};
use crate::settings::Settings;
use serde::Serialize;

const MIB: f64 = 1048576.0;

/// Which model was evaluated and how much of it trains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelInfo {
    /// Preset id, or None for a custom / inferred architecture.
    pub id: Option<String>,
    pub name: String,
    pub params: u64,
    pub trainable_params: u64,
    /// Parameters one token passes through, for a mixture of experts (None when dense).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_params: Option<u64>,
    /// A multimodal checkpoint's vision tower and projector: loaded, in the weights, frozen.
    #[serde(skip_serializing_if = "is_zero")]
    pub frozen_vision_params: u64,
    /// True when the architecture was guessed from a parameter count alone.
    pub inferred: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Per-GPU memory, in bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct MemoryBreakdown {
    pub weights: u64,
    pub gradients: u64,
    pub optimizer: u64,
    pub activations: u64,
    pub logits: u64,
    pub overhead: u64,
    /// Peak of live tensors: what torch.cuda.max_memory_allocated reports.
    pub allocated: u64,
    /// Peak held by the caching allocator: torch.cuda.max_memory_reserved.
    pub reserved: u64,
    /// What nvidia-smi shows: reserved plus the CUDA context and non-PyTorch buffers.
    pub device: u64,
    /// Host RAM each node needs (offloaded states, pinned buffers).
    pub host_ram: u64,
    /// Bytes autograd holds for backward at the end of the forward pass.
    pub saved_for_backward: u64,
    /// The run replayed allocation by allocation through PyTorch's caching allocator
    /// (memory/timeline.rs), at most a few hundred points: filled by `evaluate_with_timeline`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Vec<crate::memory::timeline::Point>>,
    /// Where the replay's allocated peak falls, in words ("backward of block 0", ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_phase: Option<String>,
    /// The replay's own `max_memory_reserved` (segments, size classes and streams of the
    /// allocator), beside `reserved`'s rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_reserved: Option<u64>,
}

/// A figure's formula and assumptions, for the page's explanations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// Which figure: "weights", "gradients", "optimizer", "activations", "logits", "overhead", ...
    pub term: String,
    pub formula: String,
    pub assumptions: Vec<String>,
}

/// Everything `estimate` worked out, for solvers, the validation table and the page.
#[derive(Debug, Clone)]
pub struct Estimate {
    pub model: ModelInfo,
    pub memory: MemoryBreakdown,
    pub warnings: Vec<Warning>,
    pub explanations: Vec<Explanation>,
    pub detail: Detail,
    /// What `replay` builds the run's tensors from.
    pub timeline_input: Box<shape::Input>,
}

impl Estimate {
    /// The run replayed allocation by allocation through PyTorch's caching allocator: where
    /// the peak falls and how allocated and reserved move over load, the first step and a
    /// steady step (~0.2 ms; the page and the solvers do without it).
    pub fn replay(&self) -> timeline::Replay {
        timeline::replay(&shape::timeline_shape(&self.timeline_input), allocator::Config::default())
    }
}

/// Intermediate figures (bytes per GPU) behind the breakdown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Detail {
    /// Peak of live tensors during forward/backward.
    pub peak_forward_backward: f64,
    /// Peak of live tensors during optimizer.step.
    pub peak_step: f64,
    /// Model states as ZeRO counts them: params + grads + optimizer (incl. fp32 master).
    pub model_states: f64,
    /// Saved-for-backward bytes of one block.
    pub per_layer_activation: f64,
    /// Largest module's own parameters (DeepSpeed's largest_layer).
    pub largest_module: u64,
    /// Optimizer states held in bitsandbytes paged (managed) memory: outside torch's counters.
    pub paged_optimizer: f64,
    pub cuda_context: f64,
    pub fragmentation: f64,
    pub framework_buffers: f64,
    pub non_torch: f64,
}

fn invalid(key: &str, message: impl Into<String>) -> Error {
    Error::Invalid { key: key.into(), message: message.into() }
}

/// Trainable parameter counts of a method.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Trainable {
    /// All trainable parameters.
    pub total: u64,
    /// Of which adapter parameters (LoRA/DoRA/bottleneck/prefix/prompt): stored in the adapter dtype.
    pub adapter: u64,
    /// Of which base-model parameters trained in full (full, freeze, embed/lm_head targets).
    pub base: u64,
    /// Adafactor's factored second moment: Σ(rows + cols) over trainable matrices + vectors.
    pub adafactor_elems: u64,
    /// Largest single trainable tensor (step temporaries of per-parameter optimizers).
    pub largest_tensor: u64,
}

/// Exact trainable counts (GQA-aware LoRA: r·(in + out) per adapted linear).
pub fn trainable(a: &Architecture, q: &Query) -> Result<Trainable, Error> {
    let m = a.modules();
    let l = a.layers;
    let r = q.rank as u64;
    let mut t = Trainable::default();
    let embed_rows = a.vocab * a.hidden;
    match q.method {
        Method::Full => {
            // A multimodal checkpoint's vision tower stays frozen.
            t.base = a.text_params();
            // Factored second moment: each block matrix (rows + cols), vectors in full.
            let mut fac = 0u64;
            for tm in TargetModule::LINEAR {
                if let Some(s) = a.linear(tm) {
                    fac += s.count * (s.input + s.output);
                }
            }
            let vectors = m.norms + (m.attention + m.mlp).saturating_sub(a.block_linear_params() / l.max(1));
            t.adafactor_elems =
                l * (fac + vectors) + (a.vocab + a.hidden) * if a.tied || a.encoder_only { 1 } else { 2 } + a.hidden;
            t.largest_tensor = m.largest_module;
        }
        Method::Freeze => {
            if q.train_layers as u64 > l {
                return Err(invalid("train_layers", format!("{} exceeds the model's {} layers", q.train_layers, l)));
            }
            t.base = q.train_layers as u64 * a.layer_params();
            let mut fac = 0u64;
            for tm in TargetModule::LINEAR {
                if let Some(s) = a.linear(tm) {
                    fac += s.count * (s.input + s.output);
                }
            }
            t.adafactor_elems = q.train_layers as u64 * (fac + m.norms);
            t.largest_tensor = a.hidden * a.ffn.max(a.q_dim());
        }
        Method::Lora | Method::Qlora | Method::Dora => {
            if q.rank as u64 > a.hidden {
                return Err(invalid("rank", format!("rank {} is larger than the hidden size {}", q.rank, a.hidden)));
            }
            let mut adapter = 0u64;
            let mut fac = 0u64;
            for tm in q.targets.iter() {
                for s in a.linear_stack(tm) {
                    adapter += s.count * r * (s.input + s.output);
                    fac += s.count * (r + s.input + s.output + r);
                    if q.method == Method::Dora {
                        adapter += s.count * s.output;
                        fac += s.count * s.output;
                    }
                    t.largest_tensor = t.largest_tensor.max(r * s.input.max(s.output));
                }
            }
            if adapter == 0 && !q.targets.contains(TargetModule::Embed) && !q.targets.contains(TargetModule::LmHead) {
                return Err(invalid(
                    "targets",
                    "none of the targets exists in this architecture (a plain MLP has no gate)",
                ));
            }
            t.adapter = adapter;
            t.adafactor_elems = fac;
            let mut full = 0;
            if q.targets.contains(TargetModule::Embed) {
                full += embed_rows;
            }
            if q.targets.contains(TargetModule::LmHead) && !(a.tied && q.targets.contains(TargetModule::Embed)) {
                full += if a.encoder_only { 0 } else { embed_rows };
            }
            if full > 0 {
                t.largest_tensor = t.largest_tensor.max(embed_rows);
                t.adafactor_elems += a.vocab + a.hidden;
            }
            t.base = full;
        }
        Method::Adapter => {
            if q.bottleneck as u64 > a.hidden {
                return Err(invalid(
                    "bottleneck",
                    format!("bottleneck {} is larger than the hidden size {}", q.bottleneck, a.hidden),
                ));
            }
            // Houlsby et al. 2019: two adapters per block (after attention and after the
            // MLP), each down (h·m + m) and up (m·h + h) with biases.
            let b = q.bottleneck as u64;
            t.adapter = l * 2 * (2 * a.hidden * b + b + a.hidden);
            t.adafactor_elems = l * 2 * (2 * (a.hidden + b) + b + a.hidden);
            t.largest_tensor = a.hidden * b;
        }
        Method::Prefix => {
            // PEFT prefix tuning without projection: one embedding of
            // virtual_tokens × (layers · 2 · kv_dim) (a key and a value per layer).
            t.adapter = q.virtual_tokens as u64 * l * 2 * a.kv_dim();
            t.adafactor_elems = q.virtual_tokens as u64 + l * 2 * a.kv_dim();
            t.largest_tensor = t.adapter;
        }
        Method::Prompt => {
            t.adapter = q.virtual_tokens as u64 * a.hidden;
            t.adafactor_elems = q.virtual_tokens as u64 + a.hidden;
            t.largest_tensor = t.adapter;
        }
    }
    t.total = t.adapter + t.base;
    Ok(t)
}

/// Storage bits per parameter of a quantized linear (QLoRA §3; LLM.int8 for int8).
pub fn quant_bits(quant: Quant, double_quant: bool, in_features: u64) -> f64 {
    match quant {
        // 4-bit codes + fp32 absmax per 64-block; DQ: 8-bit absmax + fp32 per 256 of them.
        Quant::Nf4 | Quant::Fp4 => {
            if double_quant {
                4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)
            } else {
                4.0 + 32.0 / 64.0
            }
        }
        // int8 codes + one fp32 scale per output row (bnb Int8Params SCB).
        Quant::Int8 => 8.0 + 32.0 / in_features.max(1) as f64,
    }
}

fn is_peft(m: Method) -> bool {
    !matches!(m, Method::Full | Method::Freeze)
}

/// Parameters of the block modules `quant_skip` keeps in 16 bits (a pre-quantized
/// checkpoint's `llm_int8_skip_modules`, e.g. Unsloth's dynamic 4-bit ones).
fn quant_skipped(a: &Architecture, q: &Query) -> Result<f64, Error> {
    let m = a.modules();
    let mut total = 0.0;
    for (layer, part) in &q.quant_skip.0 {
        let l = *layer as u64;
        if l >= a.layers {
            return Err(invalid("quant_skip", format!("block {l} does not exist: the model has {} blocks", a.layers)));
        }
        // Dense blocks come first (DeepSeek-V3's first_k_dense_replace); MoE otherwise.
        let dense = a.experts <= 1 || l < a.dense_blocks();
        let mlp = if a.experts <= 1 {
            m.mlp
        } else if dense {
            m.dense_mlp
        } else {
            m.mlp - a.router_params()
        };
        let lin = |t: TargetModule| {
            a.linear(t)
                .map(|s| {
                    (s.input
                        * s.output
                        * if matches!(t, TargetModule::Gate | TargetModule::Up | TargetModule::Down) && !dense {
                            s.count
                        } else {
                            1
                        }) as f64
                })
                .unwrap_or(0.0)
        };
        total += match part.as_str() {
            "self_attn" => m.attention as f64,
            "mlp" => mlp as f64,
            "self_attn.q_proj" => lin(TargetModule::Q),
            "self_attn.k_proj" => lin(TargetModule::K),
            "self_attn.v_proj" => lin(TargetModule::V),
            "self_attn.o_proj" => lin(TargetModule::O),
            "mlp.gate_proj" => lin(TargetModule::Gate),
            "mlp.up_proj" => lin(TargetModule::Up),
            _ => lin(TargetModule::Down),
        };
    }
    Ok(total)
}

/// What GaLore projects: the trained block linears (galore_torch's examples and
/// transformers' `optim_target_modules=["attn", "mlp"]`).
struct Galore {
    /// Parameters of the projected matrices.
    projected_params: f64,
    /// Elements of their states and projectors: Σ 2·max(m, n)·r + r·min(m, n).
    projected_states: f64,
    /// The largest projected matrix (m, n).
    largest: (f64, f64),
}

fn galore(a: &Architecture, q: &Query, tr: &Trainable) -> Galore {
    let mut g = Galore { projected_params: 0.0, projected_states: 0.0, largest: (0.0, 0.0) };
    if tr.base == 0 {
        return g;
    }
    // Freeze trains the last `train_layers` blocks: that share of each stack.
    let share = if q.method == Method::Freeze { q.train_layers as f64 / a.layers.max(1) as f64 } else { 1.0 };
    for t in TargetModule::LINEAR {
        for s in a.linear_stack(t) {
            let (m, n) = (s.input as f64, s.output as f64);
            let r = (q.galore_rank as f64).min(m.min(n));
            let count = s.count as f64 * share;
            g.projected_params += count * m * n;
            g.projected_states += count * (2.0 * m.max(n) * r + r * m.min(n));
            if m * n > g.largest.0 * g.largest.1 {
                g.largest = (m, n);
            }
        }
    }
    g
}

/// Per-GPU memory of the query: the terms, their peaks, and the run's tensors for the
/// allocator replay (`Estimate::replay`).
pub fn estimate(s: &Settings) -> Result<Estimate, Error> {
    let (q, res, preset) = (s.query, s.resolved, s.preset);
    let mut a = s.arch.clone();
    // A framework that builds its own output projection holds a tied checkpoint untied.
    if res.profile.unties_embeddings && a.tied && !a.encoder_only {
        a.tied = false;
    }
    let tr = trainable(&a, q)?;
    let mut warnings: Vec<Warning> = Vec::new();
    let mut warn = |code: &str, message: String| warnings.push(Warning { code: code.into(), message });
    for (c, m) in framework::unsupported(q) {
        warn(c, m);
    }

    if !q.gpus.is_multiple_of(q.tp) {
        return Err(invalid("tp", format!("tp {} must divide gpus {}", q.tp, q.gpus)));
    }
    if q.expert_format == ExpertFormat::Mxfp4 && a.experts > 1 {
        let adapts_experts = matches!(q.method, Method::Lora | Method::Qlora | Method::Dora)
            && [TargetModule::Gate, TargetModule::Up, TargetModule::Down].iter().any(|t| q.targets.contains(*t));
        if matches!(q.method, Method::Full | Method::Freeze) || adapts_experts {
            return Err(invalid("expert_format", "MXFP4 experts are frozen storage: they cannot train in full or carry LoRA adapters (PEFT wraps nn.Linear only); use expert_format=native (dequantized to 16 bits) or targets without gate, up and down"));
        }
    }
    if q.optim_in_bwd && q.ga > 1 {
        // torchtune's recipes refuse it: each gradient is gone once its parameter has stepped.
        return Err(invalid("optim_in_bwd", format!("the optimizer steps inside backward and frees each gradient, so gradients cannot accumulate over ga={} micro-batches; set ga=1 or optim_in_bwd=0", q.ga)));
    }
    let model_parallel = q.tp as u64 * q.pp as u64 * q.cp as u64;
    if !(q.gpus as u64).is_multiple_of(model_parallel) {
        return Err(invalid("pp", format!("tp × pp × cp = {model_parallel} must divide gpus {}", q.gpus)));
    }
    if q.pp as u64 > a.layers {
        return Err(invalid("pp", format!("{} pipeline stages for {} layers", q.pp, a.layers)));
    }
    if !q.seq.is_multiple_of(q.cp) {
        return Err(invalid("cp", format!("cp {} must divide seq {}", q.cp, q.seq)));
    }
    if q.nodes > q.gpus {
        return Err(invalid("nodes", format!("{} nodes for {} GPUs", q.nodes, q.gpus)));
    }
    if !a.heads.is_multiple_of(q.tp as u64) {
        return Err(invalid("tp", format!("tp {} must divide the {} attention heads", q.tp, a.heads)));
    }
    if a.positions > 0 && q.seq as u64 > a.positions {
        return Err(invalid("seq", format!("{} tokens exceed the model's {} learned positions", q.seq, a.positions)));
    }
    let p_total = a.param_count();
    // Prompt tuning prepends its virtual tokens to every sequence (logits included).
    // Context parallelism gives each GPU 1/cp of every sequence (ring attention passes K/V).
    let seq = (q.seq as f64 + if q.method == Method::Prompt { q.virtual_tokens as f64 } else { 0.0 }) / q.cp as f64;
    let tokens = q.batch as f64 * seq;
    // Eager attention keeps s² scores per head: refuse before the product leaves f64's exact range.
    if !(tokens * seq * a.heads as f64 * 6.0 * a.layers as f64).is_finite()
        || tokens * a.hidden as f64 * a.layers as f64 > 1e17
    {
        return Err(invalid("seq", "batch × seq is too large to hold on any GPU"));
    }

    // ---------- storage bytes per parameter ----------
    let mixed = matches!(q.precision, Precision::Fp16Mixed | Precision::Bf16Mixed);
    let true16 = matches!(q.precision, Precision::Fp16True | Precision::Bf16True);
    let fp32 = q.precision == Precision::Fp32;
    let act_bytes = q.precision.compute_bytes();
    // Frozen base: 16-bit under `*-true`, fp32 otherwise. Mixed precision means an fp32 model under autocast (the Trainer's `bf16=True` on a
    // model loaded in fp32): frozen weights are fp32 too. A 16-bit-loaded model is `*-true`.
    let frozen_bytes = if fp32 || mixed { 4.0 } else { 2.0 };
    let adapter_bytes = match res.adapter_dtype {
        AdapterDtype::Fp32 => 4.0,
        AdapterDtype::Bf16 => {
            if fp32 {
                4.0
            } else {
                2.0
            }
        }
    };
    let base_train_bytes = if true16 { 2.0 } else { 4.0 };
    let sharded = matches!(
        q.shard,
        ShardingStrategy::Zero1 | ShardingStrategy::Zero2 | ShardingStrategy::Zero3 | ShardingStrategy::Fsdp
    );
    let zero_mixed = sharded && mixed; // ZeRO bookkeeping: 16-bit params and grads, fp32 master in K.

    // Frozen parameters, possibly quantized.
    let frozen = p_total - tr.base;
    let mut frozen_weight = frozen as f64 * frozen_bytes;
    // The LM head is quantized with the block linears where the framework replaces every
    // linear and the head is frozen.
    let head_quantized = q.method == Method::Qlora
        && res.profile.quantizes_lm_head
        && !a.tied
        && !a.encoder_only
        && !q.targets.contains(TargetModule::LmHead);
    let head_params = if head_quantized { (a.vocab * a.hidden) as f64 } else { 0.0 };
    if q.method == Method::Qlora {
        // Modules the checkpoint keeps in 16 bits (`quant_skip`) are not quantized.
        let lin = a.block_linear_params() as f64 + head_params - quant_skipped(&a, q)?;
        let bits = quant_bits(q.quant, q.double_quant, a.hidden);
        frozen_weight = (frozen as f64 - lin) * frozen_bytes + lin * bits / 8.0;
    }
    // Experts kept in MXFP4 (gpt-oss's checkpoint format): 4-bit values plus an 8-bit scale
    // per 32 (transformers integrations/mxfp4.py: `_blocks` uint8 pairs, `_scales` uint8).
    // The routed experts' weight matrices (gate_up_proj [E, h, 2f], down_proj [E, f, h]);
    // their biases stay 16-bit.
    let mxfp4_experts = if q.expert_format == ExpertFormat::Mxfp4 && a.experts > 1 {
        let mats = if a.mlp == crate::arch::MlpKind::Gated { 3.0 } else { 2.0 };
        a.moe_layers() as f64 * a.experts as f64 * mats * a.hidden as f64 * a.ffn as f64
    } else {
        0.0
    };
    if mxfp4_experts > 0.0 {
        let was =
            if q.method == Method::Qlora { quant_bits(q.quant, q.double_quant, a.hidden) / 8.0 } else { frozen_bytes };
        frozen_weight -= mxfp4_experts * (was - 4.25 / 8.0);
    }
    let adapter_weight = tr.adapter as f64 * adapter_bytes;
    let (base_w, base_g, base_master) = if zero_mixed {
        (tr.base as f64 * 2.0, tr.base as f64 * 2.0, tr.base as f64 * 4.0)
    } else {
        (tr.base as f64 * base_train_bytes, tr.base as f64 * base_train_bytes, 0.0)
    };
    // Autocast's 16-bit copies of fp32 trainable weights, saved by each matmul for backward.
    // Autocast casts every fp32 matmul weight (linears and the LM head; embeddings run in
    // fp32) to 16 bits per forward; each matmul whose input needs a gradient keeps its copy.
    // Quantized linears are dequantized by their own kernel instead.
    let matmul_params = {
        let m = a.modules();
        let lin = a.block_linear_params() as f64;
        let head = if a.encoder_only { 0.0 } else { (a.vocab * a.hidden) as f64 };
        let quantized = if q.method == Method::Qlora { lin + head_params } else { 0.0 };
        // MXFP4 experts are dequantized by their own kernel, never cast by autocast.
        let mx = if q.method != Method::Qlora { mxfp4_experts } else { 0.0 };
        let _ = m;
        lin - quantized - mx + head
    };
    let autocast_copies = if mixed && !zero_mixed { matmul_params * 2.0 } else { 0.0 };
    let weights_full = frozen_weight + adapter_weight + base_w;
    let grads_full = base_g + tr.adapter as f64 * adapter_bytes;

    // Optimizer states.
    let state_bytes_base = if true16 { 2.0 } else { 4.0 };
    let state_bytes_ad = adapter_bytes;
    let states =
        |per: f64| tr.base as f64 * per * state_bytes_base / 4.0 + tr.adapter as f64 * per * state_bytes_ad / 4.0;
    // What GaLore projects, once for its states and its step temporaries.
    let galore = (q.optim == Optimizer::GaloreAdamW).then(|| galore(&a, q, &tr));
    let (mut opt_full, paged) = match q.optim {
        Optimizer::AdamW => (states(8.0), false),
        Optimizer::PagedAdamW => (states(8.0), true),
        // bnb 8-bit blockwise, and torchao's 8-bit and fp8 AdamW
        // (torchao/optim/subclass_{8bit,fp8}.py): 1 B per state + one fp32 scale per
        // 256-element block; torchao's 4-bit (subclass_4bit.py): 4 bits + one per 128.
        Optimizer::AdamW8bit | Optimizer::PagedAdamW8bit | Optimizer::AdamW8bitAo | Optimizer::AdamWFp8Ao => {
            (tr.total as f64 * 2.0 * (1.0 + 4.0 / 256.0), q.optim == Optimizer::PagedAdamW8bit)
        }
        Optimizer::AdamW4bitAo => (tr.total as f64 * 2.0 * (0.5 + 4.0 / 128.0), false),
        // GaLore (galore_torch/galore_projector.py @2cc66f88): an m × n block linear keeps
        // exp_avg and exp_avg_sq of max(m, n) × r and a projector of r × min(m, n), in the
        // gradient's dtype; everything else (embeddings, head, norms) and adapters keep AdamW's.
        Optimizer::GaloreAdamW => {
            let (projected_states, projected_params) =
                galore.as_ref().map_or((0.0, 0.0), |g| (g.projected_states, g.projected_params));
            (
                projected_states * state_bytes_base
                    + (tr.base as f64 - projected_params).max(0.0) * 2.0 * state_bytes_base
                    + tr.adapter as f64 * 2.0 * state_bytes_ad,
                false,
            )
        }
        // Factored second moment (row and column means), no first moment (HF default beta1=None).
        Optimizer::Adafactor => (tr.adafactor_elems as f64 * 4.0, false),
        Optimizer::Sgd => (0.0, false),
        Optimizer::SgdMomentum | Optimizer::Lion => (states(4.0), false),
    };
    opt_full += base_master;
    if paged {
        warn("paged-optimizer", "paged optimizer states live in CUDA managed memory: they are not in torch's allocated/reserved figures, count in nvidia-smi, and may be evicted to host RAM under pressure".into());
    }

    // ---------- parallelism ----------
    let tp = q.tp as f64;
    // Pipeline stages hold 1/pp of the blocks each (balanced stages assumed).
    let pp = q.pp as f64;
    // ZeRO/FSDP shard over the data-parallel and context-parallel ranks (torchtitan's
    // `dp_shard_cp` mesh): every rank of both holds the same weights.
    let dp = (q.gpus / (q.tp * q.pp * q.cp).max(1)).max(1) as f64 * q.cp as f64;
    let gpus_per_node = (q.gpus as f64 / q.nodes as f64).ceil();
    let (mut w, mut g, mut o) = (weights_full / tp / pp, grads_full / tp / pp, opt_full / tp / pp);
    let mut gathered = 0.0;
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
            // storage dtype: 16-bit, or under QLoRA the packed 4-bit storage of the block
            // linears (FSDP/ZeRO-3 QLoRA stores NF4 in a 16-bit `quant_storage` tensor and
            // dequantizes one linear at a time, counted in the buffers below). The embedding
            // and LM head are gathered alone at the ends.
            let layer = a.layer_params() as f64;
            let layer_bytes = if q.method == Method::Qlora {
                let lin = a.block_linear_params() as f64 / a.layers.max(1) as f64;
                lin * quant_bits(q.quant, q.double_quant, a.hidden) / 8.0 + (layer - lin).max(0.0) * 2.0
            } else {
                layer * 2.0
            };
            gathered = (2.0 * layer_bytes).max(a.modules().largest_module as f64 * 2.0) / tp;
        }
    }
    if sharded && dp == 1.0 {
        warn("shard-one-gpu", "sharding over one data-parallel rank saves nothing".into());
    }
    let mut host = 0.0;
    match q.offload {
        Offload::None => {}
        Offload::Optimizer => {
            if !sharded {
                warn(
                    "offload-needs-sharding",
                    "optimizer offload needs DeepSpeed ZeRO or FSDP (shard=zero1..3/fsdp); assumed anyway".into(),
                );
            }
            host += o + if zero_mixed { g * 2.0 } else { 0.0 };
            o = 0.0;
        }
        Offload::All => {
            if !matches!(q.shard, ShardingStrategy::Zero3 | ShardingStrategy::Fsdp) {
                warn(
                    "offload-needs-zero3",
                    "parameter offload needs ZeRO-3 or FSDP full shard (shard=zero3|fsdp)".into(),
                );
            }
            host += o + w + if zero_mixed { g * 2.0 } else { 0.0 };
            o = 0.0;
            w = 0.0;
        }
    }
    if q.gpus > 1 && q.shard == ShardingStrategy::None && q.tp == 1 {
        // DDP's reducer keeps gradient buckets equal in size to all gradients.
        if grads_full > 0.0 { /* counted in buffers below */ }
    }

    // ---------- activations ----------
    let quant_saves = q.method == Method::Qlora && res.profile.nf4_bnb && res.profile.quant_saves_input;
    let block = Block {
        act_bytes,
        full: matches!(q.method, Method::Full | Method::Freeze),
        lora: if matches!(q.method, Method::Lora | Method::Qlora | Method::Dora) { q.targets } else { Targets::NONE },
        rank: q.rank as f64,
        // PEFT casts the adapter input to the adapter dtype; under autocast the fp32 adapter's
        // matmul then casts it back to 16 bits, and that cast is the copy lora_A keeps (its
        // rank-r output is 16-bit too: the probe's bf16-mixed LoRA records).
        lora_input_cast_bytes: if res.profile.lora_casts_input && adapter_bytes > act_bytes {
            if mixed {
                act_bytes
            } else {
                adapter_bytes
            }
        } else {
            0.0
        },
        lora_dropout: res.lora_dropout > 0.0 && matches!(q.method, Method::Lora | Method::Qlora | Method::Dora),
        quant_saves_input: quant_saves,
        norm: if mixed && res.profile.norm == NormImpl::Fused && a.norm == crate::arch::NormKind::Layer {
            NormImpl::Upcast
        } else {
            res.profile.norm
        },
        attn: res.attn,
        // Autocast runs softmax in fp32; transformers' shared eager path upcasts too.
        eager_softmax_fp32: mixed || (!fp32 && a.quirks.softmax_fp32),
        expand_kv: res.profile.expand_kv,
        dropout: a.dropout,
        bottleneck: if q.method == Method::Adapter { q.bottleneck as f64 } else { 0.0 },
        compiled: res.compile,
        tp,
        dora: q.method == Method::Dora,
        fused_qkv_linear: res.profile.fused_qkv_linear,
        masked: res.profile.mask_per_layer
            && res.attn == Attention::Sdpa
            && ((!res.packing && q.batch > 1) || q.method == Method::Prefix),
        prefix_tokens: if q.method == Method::Prefix { q.virtual_tokens as f64 } else { 0.0 },
        native_gelu: matches!(q.framework, crate::query::Framework::Litgpt | crate::query::Framework::Torchtune),
        autocast: mixed,
    };
    // LayerNorm (GPT-2/BERT) runs PyTorch's native kernel: input + stats, no fp32 copy
    // unless autocast runs it in fp32 on a 16-bit input.
    let block =
        if a.norm == crate::arch::NormKind::Layer && !mixed { Block { norm: NormImpl::Fused, ..block } } else { block };
    // Sequence parallelism splits the norms', dropouts' and residuals' activations over the
    // tensor-parallel group too (Korthikanti et al. 2022, §4.2.2): the whole block divides by t.
    let sp = q.sp && q.tp > 1;
    let block = if sp { Block { tp: 1.0, ..block } } else { block };
    let sp_div = if sp { tp } else { 1.0 };
    let per_layer = block.saved(&a, tokens, seq, res.ckpt);
    let layer_bytes = per_layer.total() / sp_div;
    let layers_with_grad = match q.method {
        Method::Freeze => q.train_layers as f64,
        _ => a.layers as f64,
    };
    // What the blocks keep at the end of the forward pass, and (full checkpointing) the one
    // block recomputed during backward on top of it.
    let none_bytes = if res.ckpt == Checkpointing::None {
        layer_bytes
    } else {
        block.saved(&a, tokens, seq, Checkpointing::None).total() / sp_div
    };
    // Checkpointing every n-th block only (torchtitan's `selective_ac_option: "n"`): the
    // other blocks keep everything.
    let checkpointed =
        if res.ckpt == Checkpointing::None { 0.0 } else { (layers_with_grad / q.ckpt_every.max(1) as f64).floor() };
    let mut act = checkpointed * layer_bytes + (layers_with_grad - checkpointed) * none_bytes;
    let mut recompute = 0.0;
    if checkpointed > 0.0 {
        // Backward recomputes one block at a time: all of it (full), or what the per-op
        // policy did not keep.
        match res.ckpt {
            Checkpointing::Full => recompute = none_bytes,
            Checkpointing::Op => recompute = (none_bytes - layer_bytes).max(0.0),
            _ => {}
        }
    }
    // Activation offloading (torchtune OffloadActivations, Unsloth's offloaded checkpointing):
    // each block's saved tensors are copied to pinned host memory on a side stream as the
    // forward moves on, and prefetched one block ahead in backward, so about two blocks' worth
    // stay on the GPU (the one in flight and the next); the rest lives in host RAM.
    let mut host_act = 0.0;
    if res.act_offload && layers_with_grad > 2.0 {
        host_act = (layers_with_grad - 2.0) * layer_bytes;
        act = 2.0 * layer_bytes;
    }
    // The first block of a PEFT model: its input (frozen embeddings) needs no gradient, so
    // its first norm keeps nothing.
    let h = a.hidden as f64;
    let first_norm = if block.norm == NormImpl::Upcast {
        if res.compile {
            act_bytes
        } else {
            4.0
        }
    } else {
        act_bytes
    };
    let frozen_input = matches!(
        q.method,
        Method::Lora | Method::Qlora | Method::Dora | Method::Adapter | Method::Freeze | Method::Prefix
    ) && !q.targets.contains(TargetModule::Embed)
        && res.ckpt != Checkpointing::Full;
    if frozen_input {
        act -= first_norm * h * tokens;
    }
    // Final norm (fp32 copy; its 16-bit input copy when its weight trains) and the LM-head
    // input when the head trains.
    let head_trains = q.method == Method::Full || q.targets.contains(TargetModule::LmHead) && is_peft(q.method);
    let final_norm_trains = q.method == Method::Full;
    let normed = if a.quirks.norm_fp32_scale { 4.0 } else { act_bytes };
    let head_saved = tokens
        * h
        * (first_norm
            + if final_norm_trains && block.norm == NormImpl::Upcast { normed } else { 0.0 }
            + if head_trains { act_bytes } else { 0.0 });
    // Encoder-only models: the embedding LayerNorm keeps its input, and with dropout the
    // embedding dropout keeps its mask.
    let head_saved = head_saved + if a.dropout { tokens * h } else { 0.0 };
    // PEFT with gradient checkpointing calls `enable_input_require_grads`: the frozen token
    // embedding's output becomes a leaf that requires grad, held by the graph's AccumulateGrad
    // node until backward. With learned positions (GPT-2, BERT) something is added to it
    // before block 0, so it is a tensor of its own; otherwise it is block 0's input, counted.
    let peft_trainer =
        matches!(q.framework, Framework::Hf | Framework::Axolotl | Framework::LlamaFactory | Framework::Unsloth);
    let embed_leaf = peft_trainer
        && is_peft(q.method)
        && res.ckpt == Checkpointing::Full
        && a.positions > 0
        && !q.targets.contains(TargetModule::Embed);
    let head_saved = head_saved + if embed_leaf { tokens * h * act_bytes } else { 0.0 };
    act += head_saved;
    // Token ids and labels (int64) and the RoPE cos/sin tables.
    let misc_saved = 16.0 * tokens + 4.0 * seq * a.head_dim as f64;
    // Autocast's 16-bit weight copies are saved by the matmuls that need them for backward.
    act += autocast_copies / tp;
    let blocks_saved = act;
    act += recompute;
    // Padded batches carry a 4D additive mask (model dtype) shared by all layers; packed
    // batches a block-causal boolean mask; flash-attn uses neither.
    // Masks: transformers keeps one per layer (inside the block, above); torchtune's
    // packed samples use one block-causal boolean mask (b, s, s) for SDPA; eager attention
    // in transformers builds one additive mask shared by all layers.
    if !res.profile.mask_per_layer && res.attn != Attention::Flash {
        if res.packing {
            act += q.batch as f64 * seq * seq;
        } else if q.batch > 1 {
            act += q.batch as f64 * seq * seq * act_bytes;
        }
    }

    // ---------- logits and loss ----------
    let v = a.vocab as f64 / tp;
    let logits_impl = match (res.loss, res.profile.logits) {
        (Loss::FusedLinear, _) => LogitsImpl::FusedLinear,
        (_, LogitsImpl::Fused) => LogitsImpl::Fused,
        (Loss::Chunked, LogitsImpl::Fp32Upcast) => LogitsImpl::ChunkedFp32 { chunks: 8 },
        (Loss::Standard, LogitsImpl::ChunkedFp32 { .. }) => LogitsImpl::Fp32Upcast,
        (_, x) => x,
    };
    // What the loss keeps for backward (part of `logits`, and of saved_for_backward).
    let loss_saved = if a.encoder_only {
        0.0
    } else {
        match logits_impl {
            LogitsImpl::Fp32Upcast => tokens * v * if a.quirks.softcap { 4.0 + act_bytes } else { 4.0 },
            LogitsImpl::ModelDtype => tokens * v * act_bytes,
            LogitsImpl::ChunkedFp32 { .. } => tokens * v * if res.compile { act_bytes } else { 4.0 },
            LogitsImpl::Fused => tokens * v * act_bytes + tokens * 4.0,
            // The input's gradient, computed in forward, waits for backward.
            LogitsImpl::FusedLinear => tokens * h * act_bytes,
        }
    };
    let logits = if a.encoder_only {
        0.0
    } else {
        match logits_impl {
            // Backward of log-softmax: saved fp32 output, incoming grad and result, 4 B each;
            // Inductor fuses nll and log-softmax backward, dropping one.
            // Gemma 2's logit soft-cap keeps a tanh output of the same width.
            LogitsImpl::Fp32Upcast => {
                tokens * v * (if res.compile { 8.0 } else { 12.0 } + if a.quirks.softcap { act_bytes } else { 0.0 })
            }
            // litgpt: logits and log-probs in the model dtype, plus their two gradients.
            LogitsImpl::ModelDtype => tokens * v * 4.0 * act_bytes,
            // fp32 log-probs of every chunk are saved; one chunk's fp32 copy and grads live.
            // Compiled, the loss saves its 16-bit input chunks instead and recomputes the
            // softmax in backward (one chunk's fp32 grad and its 16-bit cast live).
            LogitsImpl::ChunkedFp32 { chunks } => {
                if res.compile {
                    tokens * v * act_bytes + tokens * v * (4.0 + act_bytes) / chunks as f64
                } else {
                    tokens * v * 4.0 + tokens * v * 8.0 / chunks as f64
                }
            }
            // Unsloth: logits in the model dtype, gradient written in place; fp32 logsumexp.
            // Its CausalLM forward casts the logits to `config.torch_dtype`, the checkpoint's
            // dtype (unsloth/models/llama.py @b140367a: `logits.to(self.config.torch_dtype)`),
            // which is bfloat16 for every current checkpoint: a model loaded in fp16 (GPUs
            // without bf16) gets a bf16 copy, and backward casts the gradient back, so two
            // 16-bit V-wide tensors live at once.
            LogitsImpl::Fused => {
                tokens * v * act_bytes * if q.precision == Precision::Fp16True { 2.0 } else { 1.0 } + tokens * 4.0
            }
            // Liger (src/liger_kernel/ops/fused_linear_cross_entropy.py @ead96b61): the input's
            // gradient (tokens × h), one chunk of logits in the input dtype whose gradient the
            // kernel writes in place, chunk = next_power_of_2(⌈tokens / ⌈V/h⌉⌉) rows, that
            // chunk's input gradient, and an fp32 loss per token. A trained head whose
            // gradient is 16-bit takes the slow path, `grad_weight += mm(...).float()`: a
            // 16-bit and an fp32 V × h product per chunk (6·V·h bytes).
            LogitsImpl::FusedLinear => {
                let chunk =
                    (tokens / (v / h).ceil().max(1.0)).ceil().max(1.0).log2().ceil().exp2().min(tokens.max(1.0));
                let slow_path = if head_trains && true16 { 6.0 * v * h } else { 0.0 };
                tokens * h * act_bytes + chunk * (v + h) * act_bytes + tokens * 4.0 + slow_path
            }
        }
    };

    // ---------- pipeline stages ----------
    // 1F1B: the first stage runs min(pp, ga) micro-batches' forwards before its first
    // backward, each holding its 1/pp of the blocks' activations; interleaving with v chunks
    // holds (1 + (pp−1)/(pp·v)) times that (Narayanan et al. 2021, §2.2). The last stage
    // holds one micro-batch and the logits. The per-GPU figure is the larger stage.
    let act_pre_pp = act;
    let (act, logits) = if q.pp > 1 {
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
    };

    // ---------- buffers ----------
    let mut buffers = 0.0;
    if q.compute != crate::query::Compute::Native {
        // torchao Float8Linear (torchao/float8/float8_linear.py @7ca1bfb) saves its
        // high-precision input and weight for backward and casts per use: the largest
        // linear's float8 weight and its input's float8 copy live during its matmul.
        let largest = a.hidden as f64 * a.ffn.max(a.q_dim()) as f64 / tp;
        buffers += largest + tokens * a.ffn.max(a.hidden) as f64 / tp;
    }
    let dequant_buf = if q.method == Method::Qlora {
        // One dequantized 16-bit copy of the largest quantized weight during its matmul (a
        // quantized LM head is the largest: vocab × hidden).
        (a.hidden as f64 * a.ffn.max(a.q_dim()) as f64).max(head_params) * 2.0 / tp
    } else {
        0.0
    };
    buffers += dequant_buf;
    let mut bucket_buf = 0.0;
    if q.gpus > 1 && dp > 1.0 {
        bucket_buf = match q.shard {
            // DDP reducer buckets hold a second copy of every gradient.
            ShardingStrategy::None => grads_full / tp / pp,
            // DeepSpeed's contiguous reduce bucket: reduce_bucket_size = 5e8 elements, 16-bit.
            ShardingStrategy::Zero1 | ShardingStrategy::Zero2 | ShardingStrategy::Zero3 => {
                (5e8 * 2.0f64).min(grads_full / tp / pp)
            }
            // FSDP reduce-scatters one unit's gradients at a time. With a PEFT model the
            // Trainer wraps every module holding trainable weights in its own unit (transformers
            // `_fsdp_qlora_plugin_updates` → peft `fsdp_auto_wrap_policy`), so frozen units
            // carry no gradient and a unit's gradients are one layer's adapters.
            ShardingStrategy::Fsdp => {
                if is_peft(q.method) {
                    tr.adapter as f64 / a.layers.max(1) as f64 * adapter_bytes / tp
                } else {
                    a.layer_params() as f64 * 2.0 / tp
                }
            }
        };
        buffers += bucket_buf;
    }
    buffers += gathered;
    let step_temp = match q.optim {
        // torch AdamW foreach: one second-moment-sized list (`_foreach_sqrt`) for the whole
        // group, this GPU's shard of it; for-loop: per tensor, `sqrt` and its quotient live
        // together (two of the largest tensor); fused: none.
        Optimizer::AdamW if o > 0.0 => match res.optimizer_impl {
            OptimizerImpl::Foreach => {
                (tr.base as f64 * state_bytes_base + tr.adapter as f64 * state_bytes_ad)
                    / tp
                    / if matches!(q.shard, ShardingStrategy::None) { 1.0 } else { dp }
            }
            OptimizerImpl::ForLoop => 2.0 * tr.largest_tensor as f64 * state_bytes_base.max(state_bytes_ad) / tp,
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
        let one = tr.largest_tensor as f64 * per
            / tp
            / if matches!(q.shard, ShardingStrategy::Zero3 | ShardingStrategy::Fsdp) { dp } else { 1.0 };
        (one.min(g), step_temp.min(one * 2.0))
    } else {
        (g, step_temp)
    };

    // ---------- peaks ----------
    let paged_bytes = if paged { o } else { 0.0 };
    let o_torch = o - paged_bytes;
    let g_first = if head_trains || q.method == Method::Full {
        (a.vocab * a.hidden) as f64 * if zero_mixed { 2.0 } else { base_train_bytes } / tp
    } else {
        0.0
    };
    // Gradients already exist during the forward pass when they accumulate over micro-batches,
    // or when zero_grad leaves them allocated as zeros (set_to_none=0: torch < 2.0).
    let fb = if q.ga > 1 || !q.set_to_none {
        w + o_torch + g + act + logits
    } else {
        w + o_torch + (act + logits + g_first.min(g)).max(g)
    };
    let peak_fb = fb + buffers;
    // With the step inside backward, its temporaries sit on top of the activations still
    // held there.
    let peak_step = if q.optim_in_bwd { peak_fb + step_temp } else { w + o_torch + g + step_temp + buffers };
    let allocated = peak_fb.max(peak_step);
    // Caching allocator: tensors created and freed every step (activations, logits, step
    // temporaries) come in many sizes; freed blocks of one size serve later requests of
    // another only after splitting, so a few percent stays cached but unused. 5% is the
    // middle of PyTorch's documented behaviour (2 MiB rounding of large blocks, 20 MiB
    // segments for 1–10 MiB requests) seen as 1–5 GiB on 20–60 GiB peaks (§6.5).
    // Caching allocator: tensors created and freed every step (activations, logits, step
    // temporaries) come in many sizes; freed blocks of one size serve later requests of
    // another only after splitting, so a few percent stays cached but unused. 5% is the
    // middle of PyTorch's documented behaviour (2 MiB rounding of large blocks, 20 MiB
    // segments for 1–10 MiB requests) seen as 1–5 GiB on 20–60 GiB peaks (§6.5).
    let dynamic = act + logits + step_temp;
    let fragmentation = 0.05 * dynamic;
    let reserved = allocated + fragmentation;
    // The run's tensors, for the event-by-event replay through the allocator (timeline.rs).
    let timeline_input = Box::new(shape::Input {
        q: q.clone(),
        a: a.clone(),
        tr,
        tp,
        pp,
        act_bytes,
        tokens,
        w,
        g,
        o: o_torch,
        per_layer,
        layers_with_grad,
        layer_bytes,
        recompute,
        act_pre_pp,
        act,
        loss_saved,
        logits,
        step_temp,
        dequant: dequant_buf,
        bucket: bucket_buf,
        gathered,
        adapter_bytes,
    });
    let nccl = if q.gpus > 1 { 512.0 * MIB } else { 0.0 };
    let context = res.profile.cuda_context as f64;
    let device = reserved + context + nccl + paged_bytes;
    // A person's own measurement of this setup (`mem_scale`, from `calibrate`) scales the
    // peaks; the breakdown keeps the model's terms and the difference shows as overhead.
    let k = q.mem_scale.unwrap_or(1.0);
    let (allocated, reserved, calibrated) = (allocated * k, reserved * k, device * (k - 1.0));
    let device = device * k;
    // Host RAM per node: offloaded states with DeepSpeed's 1.5× pinned staging factor, plus a
    // ~2 GiB Python/torch/CUDA process per GPU.
    // Offloaded activations sit in pinned buffers of their own size (no staging factor).
    let host_ram = host * gpus_per_node * 1.5 + host_act * gpus_per_node + gpus_per_node * 2048.0 * MIB;

    let vals = [w, g, o, act, logits, allocated, reserved, device, host_ram];
    if vals.iter().any(|x| !x.is_finite() || *x < 0.0 || *x > 1.8e19) {
        return Err(invalid("seq", "the configuration's memory is beyond 2^64 bytes"));
    }
    let memory = MemoryBreakdown {
        weights: w as u64,
        gradients: g as u64,
        optimizer: o as u64,
        activations: act as u64,
        logits: logits as u64,
        overhead: (fragmentation + context + nccl + buffers + calibrated).max(0.0) as u64,
        allocated: allocated as u64,
        reserved: reserved as u64,
        device: device as u64,
        host_ram: host_ram as u64,
        saved_for_backward: (blocks_saved + loss_saved + misc_saved) as u64,
        timeline: None,
        peak_phase: None,
        replay_reserved: None,
    };
    let model = ModelInfo {
        id: preset.map(|p| p.id.to_string()),
        name: preset.map(|p| p.name.to_string()).unwrap_or_else(|| {
            if a.inferred {
                format!("inferred ({} params)", crate::query::format_count(p_total))
            } else {
                "custom".into()
            }
        }),
        params: p_total,
        trainable_params: tr.total,
        active_params: (a.experts > 1).then(|| a.active_params()),
        frozen_vision_params: a.layout.vision_params,
        inferred: a.inferred,
    };
    if a.layout.vision_params > 0 {
        warnings.push(Warning { code: "frozen-vision-tower".into(), message: format!(
            "the checkpoint loads a vision tower and projector ({} parameters) beside the language model: they are in the weights, stored like the frozen base, and never trained or quantized here",
            crate::query::format_count(a.layout.vision_params)) });
    }
    if a.inferred {
        warnings.push(Warning { code: "inferred-architecture".into(), message: format!("architecture guessed from the parameter count: {} layers, hidden {}, ffn {}, vocab {}; give model= or the arch keys for exact figures", a.layers, a.hidden, a.ffn, a.vocab) });
    }
    let explanations = explain(q, &res, &a, &tr);
    let detail = Detail {
        peak_forward_backward: peak_fb,
        peak_step,
        model_states: w + g + o,
        per_layer_activation: layer_bytes,
        largest_module: a.modules().largest_module,
        paged_optimizer: paged_bytes,
        cuda_context: context,
        fragmentation,
        framework_buffers: buffers,
        non_torch: nccl,
    };
    Ok(Estimate { model, memory, warnings, explanations, detail, timeline_input })
}

fn explain(q: &Query, r: &Resolved, a: &Architecture, t: &Trainable) -> Vec<Explanation> {
    let fw = q.framework.as_str();
    vec![
        Explanation { term: "weights".into(), formula: "frozen params × storage bytes (NF4 4.5 / DQ 4.127 bits for QLoRA block linears) + trainable × their dtype".into(),
            assumptions: vec![format!("{} params, {} trainable", a.param_count(), t.total), format!("adapter dtype {} ({fw} profile unless set)", r.adapter_dtype)] },
        Explanation { term: "optimizer".into(), formula: format!("{} states per trainable parameter", q.optim),
            assumptions: vec!["true-16-bit precision keeps states in the parameter dtype; mixed keeps fp32 master weights and states".into()] },
        Explanation { term: "activations".into(), formula: "Σ layers of the tensors each op saves for backward (activation.rs)".into(),
            assumptions: vec![
                format!("attention {}, checkpointing {}, compile {}, packing {}", r.attn, r.ckpt, r.compile, r.packing),
                if r.act_offload { "activation offloading: two blocks stay on the GPU, the rest in host RAM".into() } else { "no activation offloading".into() },
                if q.set_to_none || q.ga > 1 { "gradients live only from the backward pass to the optimizer step (ga > 1: through every micro-batch)".into() }
                else { "set_to_none=0: zero-filled gradients stay allocated through the forward pass".into() },
            ] },
        Explanation { term: "logits".into(), formula: "tokens × vocab × bytes of the loss path".into(),
            assumptions: vec![format!("loss {} as {fw} implements it", r.loss)] },
        Explanation { term: "overhead".into(), formula: "allocator fragmentation (5% of per-step tensors) + CUDA context + framework buffers".into(),
            assumptions: vec![format!("CUDA context {} MiB", r.profile.cuda_context >> 20)] },
    ]
}
