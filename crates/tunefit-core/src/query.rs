//! The query format: every setting of a calculation as one URL query string.
//!
//! This is a public contract (docs/query.md). The page's URL, share links and the CLI all use
//! it, so a link made today must decode to the same `Query` for good (golden tests in
//! `tests/query_golden.rs`). Missing keys take the defaults of `Query::default()`; an unknown
//! key or a bad value is a `QueryError` naming the key and what it accepts.
//!
//! Settings that a framework profile may choose (adapter dtype, checkpointing, loss, ...) are
//! `Option`s here: `None` means "not set by the person", so the profile's default applies, and
//! an explicit value always wins.

use crate::choice::choice;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Version of the query format written into every link as `v=1`.
pub const FORMAT_VERSION: u32 = 1;

choice!(
    /// What is trained.
    Method {
        Full = "full", Freeze = "freeze", Lora = "lora", Qlora = "qlora", Dora = "dora",
        Adapter = "adapter", Prefix = "prefix", Prompt = "prompt",
    }
);
choice!(
    /// Storage format of the frozen base weights under QLoRA.
    Quant { Nf4 = "nf4", Fp4 = "fp4", Int8 = "int8" }
);
choice!(
    /// Numeric precision of weights and compute. `*-mixed` keep fp32 master weights;
    /// `*-true` keep everything (optimizer states included) in the 16-bit type.
    Precision {
        Fp32 = "fp32", Fp16Mixed = "fp16-mixed", Bf16Mixed = "bf16-mixed",
        Fp16True = "fp16-true", Bf16True = "bf16-true",
    }
);
impl Precision {
    /// Bytes of an activation, and of a gradient as it is communicated: the compute type
    /// (autocast computes in 16 bits; only fp32 training computes in 32).
    pub fn compute_bytes(self) -> f64 {
        if self == Precision::Fp32 {
            4.0
        } else {
            2.0
        }
    }
}
choice!(
    /// Storage type of trainable adapter weights.
    AdapterDtype { Fp32 = "fp32", Bf16 = "bf16" }
);
choice!(
    /// Optimizer and its state layout.
    /// `adamw-8bit` is bitsandbytes'; `adamw-8bit-ao`, `adamw-4bit-ao` and `adamw-fp8-ao` are
    /// torchao's low-bit AdamW (torchao/optim), whose block scales and small-tensor rule differ.
    /// `galore-adamw` is GaLore's AdamW (jiaweizzhao/GaLore galore_torch/adamw.py): the block
    /// linears' gradients are projected to rank `galore_rank` and their states kept there.
    Optimizer {
        AdamW = "adamw", AdamW8bit = "adamw-8bit", PagedAdamW = "paged-adamw",
        PagedAdamW8bit = "paged-adamw-8bit", AdamW8bitAo = "adamw-8bit-ao", AdamW4bitAo = "adamw-4bit-ao",
        AdamWFp8Ao = "adamw-fp8-ao", GaloreAdamW = "galore-adamw", Adafactor = "adafactor", Sgd = "sgd",
        SgdMomentum = "sgd-momentum", Lion = "lion",
    }
);
impl Optimizer {
    /// Bytes of optimizer state per trainable parameter, with `state` bytes for a
    /// full-precision state (2 in true-16-bit training, 4 otherwise): what a checkpoint writes
    /// and a step reads and writes. Adafactor's factored moment is about a tenth; GaLore's
    /// projected states are 2r·max(m, n) of an m × n matrix's m·n, a few percent at the ranks
    /// used (its full-size update is the parameter's own traffic).
    pub fn state_bytes_per_param(self, state: f64) -> f64 {
        use Optimizer as O;
        match self {
            O::AdamW | O::PagedAdamW => 2.0 * state,
            O::AdamW8bit | O::PagedAdamW8bit | O::AdamW8bitAo | O::AdamWFp8Ao => 2.0,
            O::AdamW4bitAo => 1.0,
            O::GaloreAdamW | O::Sgd => 0.0,
            O::Adafactor => 0.1 * state,
            O::SgdMomentum | O::Lion => state,
        }
    }
}
choice!(
    /// How torch's AdamW runs its step, which decides its temporaries (torch/optim/adamw.py):
    /// `fused` (`_fused_adamw`, one CUDA kernel over all tensors: none), `foreach`
    /// (`_multi_tensor_adamw`: `torch._foreach_sqrt(exp_avg_sqs)` makes one second-moment-sized
    /// list for the whole group), `for-loop` (`_single_tensor_adamw`: `exp_avg_sq.sqrt() /
    /// bias_correction2_sqrt` per tensor, two of the largest tensor's size at once).
    OptimizerImpl { Fused = "fused", Foreach = "foreach", ForLoop = "for-loop" }
);
choice!(
    /// Activation checkpointing (recomputation). `selective` recomputes the attention scores
    /// (Korthikanti et al.); `op` is torchtitan's per-op policy: each block keeps the
    /// attention kernel's output and every other matmul's output, and recomputes the rest.
    Checkpointing { None = "none", Selective = "selective", Op = "op", Full = "full" }
);
choice!(
    /// Attention kernel: flash and sdpa never materialise the s x s scores; eager does.
    Attention { Flash = "flash", Sdpa = "sdpa", Eager = "eager" }
);
choice!(
    /// Loss computation: `standard` materialises full-vocabulary logits; `chunked` projects
    /// and upcasts them a chunk at a time (torchtune's CEWithChunkedOutputLoss); `fused-linear`
    /// fuses the LM head into the loss so that only one chunk of logits ever exists and the
    /// gradient is computed in forward (Liger's FusedLinearCrossEntropy, Apple's Cut
    /// Cross-Entropy).
    Loss { Standard = "standard", Chunked = "chunked", FusedLinear = "fused-linear" }
);
choice!(
    /// Data-parallel sharding strategy. `fsdp` is FSDP FULL_SHARD (= ZeRO-3).
    ShardingStrategy {
        None = "none", Zero1 = "zero1", Zero2 = "zero2", Zero3 = "zero3", Fsdp = "fsdp",
    }
);
choice!(
    /// What is moved to host memory.
    Offload { None = "none", Optimizer = "optimizer", All = "all" }
);
choice!(
    /// Number format the matmuls of the linear layers run in. `native`: the precision's own
    /// (bf16/fp16, or fp32); `fp8`: per-tensor scaled float8 (torchao `Float8Linear`
    /// tensorwise, Transformer Engine delayed scaling); `fp8-block`: block/row-wise scaled
    /// float8 (torchao rowwise, DeepSeek-V3's 1×128 tiles, MXFP8 on Blackwell); `fp4`: NVFP4
    /// (Blackwell only). Attention, norms and the optimizer stay in the precision's format.
    Compute { Native = "native", Fp8 = "fp8", Fp8Block = "fp8-block", Fp4 = "fp4" }
);
choice!(
    /// What `tunefit plan` optimises: total cost, wall-clock hours, or the least quality risk
    /// (full over LoRA over QLoRA, no 8-bit optimizer), then cost.
    Goal { Cheapest = "cheapest", Fastest = "fastest", Quality = "quality" }
);
choice!(
    /// How a mixture of experts' expert weights sit in memory: `native` in the model's own
    /// type (gpt-oss dequantized on load, `Mxfp4Config(dequantize=True)` as OpenAI's
    /// fine-tuning recipe does), or `mxfp4` as the checkpoint stores them (4-bit E2M1 values
    /// with one 8-bit scale per 32: 4.25 bits), frozen.
    ExpertFormat { Native = "native", Mxfp4 = "mxfp4" }
);
choice!(
    /// Which prices the cost ranking uses.
    Pricing { OnDemand = "on-demand", Spot = "spot", Both = "both" }
);
choice!(
    /// Training framework whose allocation behaviour is modelled (docs/frameworks.md).
    Framework {
        Hf = "hf", Torchtune = "torchtune", Litgpt = "litgpt", Unsloth = "unsloth",
        Axolotl = "axolotl", LlamaFactory = "llama-factory",
    }
);

/// One linear module family an adapter can target, in PEFT's vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TargetModule {
    Q,
    K,
    V,
    O,
    Gate,
    Up,
    Down,
    Embed,
    LmHead,
}

impl TargetModule {
    pub const ALL: [TargetModule; 9] = [
        TargetModule::Q,
        TargetModule::K,
        TargetModule::V,
        TargetModule::O,
        TargetModule::Gate,
        TargetModule::Up,
        TargetModule::Down,
        TargetModule::Embed,
        TargetModule::LmHead,
    ];
    /// The seven linear projections of a transformer block ("all" in the query format).
    pub const LINEAR: [TargetModule; 7] = [
        TargetModule::Q,
        TargetModule::K,
        TargetModule::V,
        TargetModule::O,
        TargetModule::Gate,
        TargetModule::Up,
        TargetModule::Down,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            TargetModule::Q => "q",
            TargetModule::K => "k",
            TargetModule::V => "v",
            TargetModule::O => "o",
            TargetModule::Gate => "gate",
            TargetModule::Up => "up",
            TargetModule::Down => "down",
            TargetModule::Embed => "embed",
            TargetModule::LmHead => "lm_head",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        TargetModule::ALL.into_iter().find(|t| t.as_str() == s)
    }
    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

choice!(
    /// A provider feature a run must have (`need=`): billing granularity, persistent storage,
    /// spot capacity, access, and a network between instances.
    Need {
        PerSecond = "per-second", PerMinute = "per-minute", Storage = "storage", Spot = "spot",
        Ssh = "ssh", Docker = "docker", Jupyter = "jupyter", MultiNode = "multi-node",
    }
);

/// The provider features a run must have; offers of providers without one are not ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Needs(u16);

impl Needs {
    fn bit(n: Need) -> u16 {
        1 << Need::ALL.iter().position(|x| *x == n).unwrap_or(0)
    }
    pub fn contains(self, n: Need) -> bool {
        self.0 & Self::bit(n) != 0
    }
    pub fn with(self, n: Need) -> Self {
        Needs(self.0 | Self::bit(n))
    }
    pub fn without(self, n: Need) -> Self {
        Needs(self.0 & !Self::bit(n))
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Need> {
        Need::ALL.iter().copied().filter(move |n| self.contains(*n))
    }
    /// Canonical spelling: the declaration order, comma-separated.
    pub fn to_query_value(self) -> String {
        self.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(",")
    }
    pub fn parse(s: &str) -> Option<Self> {
        let mut out = Needs::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            out = out.with(Need::parse(part)?);
        }
        Some(out)
    }
}

/// Block modules a pre-quantized checkpoint keeps in 16 bits (bitsandbytes'
/// `llm_int8_skip_modules`, as Unsloth's dynamic 4-bit checkpoints list them:
/// `model.layers.3.mlp`, `model.layers.1.self_attn`, `model.layers.0.mlp.down_proj`).
/// Canonical spelling: `3.mlp,1.self_attn,0.mlp.down_proj`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct QuantSkip(pub Vec<(u32, String)>);

impl QuantSkip {
    pub const PARTS: &'static [&'static str] = &[
        "self_attn",
        "mlp",
        "self_attn.q_proj",
        "self_attn.k_proj",
        "self_attn.v_proj",
        "self_attn.o_proj",
        "mlp.gate_proj",
        "mlp.up_proj",
        "mlp.down_proj",
    ];
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Reads a comma list of `N.part` or `model.layers.N.part` (other entries such as
    /// `lm_head` or a vision tower are 16-bit here anyway and are skipped).
    pub fn parse(s: &str) -> Option<Self> {
        Self::parse_with(s, true)
    }
    /// As a config's list reads: entries of other kinds (norms, experts' 3-D weights) are
    /// passed over instead of refused.
    pub fn parse_lenient(s: &str) -> Self {
        Self::parse_with(s, false).unwrap_or_default()
    }
    fn parse_with(s: &str, strict: bool) -> Option<Self> {
        let mut out: Vec<(u32, String)> = Vec::new();
        for e in s.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let rest = e.strip_prefix("model.").unwrap_or(e);
            let rest = rest.strip_prefix("language_model.").unwrap_or(rest);
            let Some(rest) = rest.strip_prefix("layers.").or(if rest.starts_with(|c: char| c.is_ascii_digit()) {
                Some(rest)
            } else {
                None
            }) else {
                continue;
            };
            let Some((n, part)) = rest.split_once('.') else {
                if strict {
                    return None;
                } else {
                    continue;
                }
            };
            let Ok(n) = n.parse::<u32>() else {
                if strict {
                    return None;
                } else {
                    continue;
                }
            };
            if !Self::PARTS.contains(&part) {
                if strict {
                    return None;
                } else {
                    continue;
                }
            }
            if !out.iter().any(|(m, p)| *m == n && p == part) {
                out.push((n, part.to_string()));
            }
        }
        out.sort();
        Some(QuantSkip(out))
    }
    pub fn to_query_value(&self) -> String {
        self.0.iter().map(|(n, p)| format!("{n}.{p}")).collect::<Vec<_>>().join(",")
    }
}

/// A set of target modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Targets(u16);

impl Targets {
    pub const NONE: Targets = Targets(0);
    pub fn all_linear() -> Self {
        Self::from_iter(TargetModule::LINEAR)
    }
    pub fn contains(self, t: TargetModule) -> bool {
        self.0 & t.bit() != 0
    }
    pub fn with(self, t: TargetModule) -> Self {
        Targets(self.0 | t.bit())
    }
    pub fn without(self, t: TargetModule) -> Self {
        Targets(self.0 & !t.bit())
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = TargetModule> {
        TargetModule::ALL.into_iter().filter(move |t| self.contains(*t))
    }
    /// Canonical spelling: "all" for the seven linears, then extras, comma-separated.
    pub fn to_query_value(self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        let lin = Self::all_linear();
        if self.0 & lin.0 == lin.0 {
            parts.push("all");
        } else {
            parts.extend(TargetModule::LINEAR.iter().filter(|t| self.contains(**t)).map(|t| t.as_str()));
        }
        for t in [TargetModule::Embed, TargetModule::LmHead] {
            if self.contains(t) {
                parts.push(t.as_str());
            }
        }
        parts.join(",")
    }
    pub fn parse(s: &str) -> Option<Self> {
        let mut out = Targets::NONE;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "all" {
                out = Targets(out.0 | Self::all_linear().0);
            } else {
                out = out.with(TargetModule::parse(part)?);
            }
        }
        if out.is_empty() {
            None
        } else {
            Some(out)
        }
    }
}

impl FromIterator<TargetModule> for Targets {
    fn from_iter<I: IntoIterator<Item = TargetModule>>(it: I) -> Self {
        it.into_iter().fold(Targets::NONE, Targets::with)
    }
}

/// Architecture fields given explicitly in the query; each overrides the preset or the
/// architecture inferred from `params`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ArchOverrides {
    pub layers: Option<u32>,
    pub hidden: Option<u32>,
    pub heads: Option<u32>,
    pub kv_heads: Option<u32>,
    pub head_dim: Option<u32>,
    pub ffn: Option<u32>,
    pub vocab: Option<u32>,
    pub tied: Option<bool>,
    pub experts: Option<u32>,
    pub experts_per_token: Option<u32>,
    /// `arch::Layout`'s fields, for models a pasted config describes beyond the uniform
    /// stack: dense blocks among MoE ones, a shared expert, latent attention, a vision tower.
    /// Norms per block (2; Gemma 2/3: 4; phi-1.5: 1).
    #[serde(default)]
    pub norms: Option<u32>,
    /// q/k RMSNorm: 0 none, 1 per head (Qwen3, Gemma 3), 2 over all heads (OLMo 2).
    #[serde(default)]
    pub qk_norm: Option<u32>,
    #[serde(default)]
    pub dense_layers: Option<u32>,
    #[serde(default)]
    pub dense_ffn: Option<u32>,
    #[serde(default)]
    pub shared_ffn: Option<u32>,
    #[serde(default)]
    pub q_rank: Option<u32>,
    #[serde(default)]
    pub kv_rank: Option<u32>,
    #[serde(default)]
    pub rope_dim: Option<u32>,
    #[serde(default)]
    pub v_dim: Option<u32>,
    #[serde(default)]
    pub vision_params: Option<u64>,
}

impl ArchOverrides {
    pub fn is_empty(&self) -> bool {
        *self == ArchOverrides::default()
    }
}

/// Every setting of one calculation. `Default` is the page's starting configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Query {
    // --- model ---
    /// Preset id from the catalog (e.g. "llama-3.1-8b"). Ignored when `params` is set.
    pub model: Option<String>,
    /// Total parameter count, for a model given only by size; the architecture is inferred.
    pub params: Option<u64>,
    pub arch: ArchOverrides,
    // --- method ---
    pub method: Method,
    pub rank: u32,
    pub targets: Targets,
    pub quant: Quant,
    pub double_quant: bool,
    pub train_layers: u32,
    pub bottleneck: u32,
    pub virtual_tokens: u32,
    pub lora_dropout: Option<f64>,
    // --- numerics ---
    pub precision: Precision,
    pub adapter_dtype: Option<AdapterDtype>,
    pub optim: Optimizer,
    /// AdamW's implementation; `None`: the framework profile's (the framework's current
    /// default).
    #[serde(default)]
    pub optim_impl: Option<OptimizerImpl>,
    // --- batch and activations ---
    pub batch: u32,
    pub seq: u32,
    pub ga: u32,
    pub ckpt: Option<Checkpointing>,
    pub attn: Option<Attention>,
    pub loss: Option<Loss>,
    pub packing: Option<bool>,
    pub compile: Option<bool>,
    /// `zero_grad(set_to_none=True)`: gradients are freed after each optimizer step (the
    /// default since torch 2.0). `false` keeps them allocated as zeros between steps
    /// (torch 1.x's `Module.zero_grad()`/`Optimizer.zero_grad()` default), so they sit beside
    /// the next step's activations.
    #[serde(default = "yes")]
    pub set_to_none: bool,
    /// Saved activations move to host memory during the forward pass and come back for the
    /// backward (torchtune `enable_activation_offloading`, Unsloth's "unsloth" checkpointing).
    /// `None`: the framework profile's default.
    #[serde(default)]
    pub act_offload: Option<bool>,
    /// Checkpoint only every n-th block (torchtitan `selective_ac_option: "n"`): the others
    /// keep all their activations. 1: every block, as `ckpt` says.
    #[serde(default = "one")]
    pub ckpt_every: u32,
    /// The optimizer steps each parameter inside the backward pass as soon as its gradient
    /// is complete and frees that gradient (torchtune `optimizer_in_bwd`): no whole-model
    /// gradients, no gradient accumulation.
    #[serde(default)]
    pub optim_in_bwd: bool,
    #[serde(default)]
    pub expert_format: ExpertFormat,
    /// Provider features every ranked offer must have.
    #[serde(default)]
    pub need: Needs,
    /// Block modules a pre-quantized QLoRA checkpoint keeps in 16 bits.
    #[serde(default)]
    pub quant_skip: QuantSkip,
    /// GaLore's projection rank (`optim=galore-adamw`).
    #[serde(default = "galore_rank_default")]
    pub galore_rank: u32,
    pub framework: Framework,
    // --- parallelism ---
    pub gpus: u32,
    pub nodes: u32,
    pub shard: ShardingStrategy,
    pub offload: Offload,
    pub tp: u32,
    /// Megatron sequence parallelism inside the tensor-parallel group (norm and dropout
    /// activations split too; all-reduces become reduce-scatter + all-gather).
    #[serde(default)]
    pub sp: bool,
    /// Pipeline-parallel stages.
    #[serde(default = "one")]
    pub pp: u32,
    /// Model chunks per pipeline stage: 1 = 1F1B, more = interleaved 1F1B.
    #[serde(default = "one")]
    pub pp_chunks: u32,
    /// Context-parallel degree: each sequence split over `cp` GPUs (ring attention).
    #[serde(default = "one")]
    pub cp: u32,
    pub gpu: Option<String>,
    // --- job, time and cost ---
    pub tokens: u64,
    pub epochs: f64,
    pub runs: u32,
    pub pricing: Pricing,
    pub ckpt_interval_min: f64,
    /// Interruptions per hour on spot; `None` takes each provider's default.
    pub interrupt_rate: Option<f64>,
    /// Model-FLOPs utilisation; `None` takes the default per GPU class and method.
    pub mfu: Option<f64>,
    /// Measured over estimated per-GPU memory from a person's own run of this setup
    /// (`calibrate`): the memory peaks are scaled by it. `None`: the model as it is.
    #[serde(default)]
    pub mem_scale: Option<f64>,
    pub provider: Option<String>,
    pub storage_gb: f64,
    /// Matmul number format of the linear layers.
    #[serde(default)]
    pub compute: Compute,
    /// Minutes from asking for the instance to a shell with the image pulled.
    #[serde(default = "startup_default")]
    pub startup_min: f64,
    /// GB/s at which the checkpoint downloads to the instance.
    #[serde(default = "download_default")]
    pub download_gb_s: f64,
    /// GB/s at which one node writes its part of a training checkpoint.
    #[serde(default = "save_default")]
    pub save_gb_s: f64,
    /// Evaluation tokens as a fraction of the training tokens (forward only).
    #[serde(default)]
    pub eval_frac: f64,
    /// Planning limits: total USD for all runs, and hours of one run (`tunefit plan`).
    #[serde(default)]
    pub budget_usd: Option<f64>,
    #[serde(default)]
    pub deadline_h: Option<f64>,
    #[serde(default)]
    pub goal: Goal,
}

// `choice!` writes these enums; a `#[default]` variant would need the macro to take attributes.
#[allow(clippy::derivable_impls)]
impl Default for Goal {
    fn default() -> Self {
        Goal::Cheapest
    }
}

fn one() -> u32 {
    1
}
fn galore_rank_default() -> u32 {
    128
}
fn startup_default() -> f64 {
    Query::default().startup_min
}
fn download_default() -> f64 {
    Query::default().download_gb_s
}
fn save_default() -> f64 {
    Query::default().save_gb_s
}

#[allow(clippy::derivable_impls)]
impl Default for Compute {
    fn default() -> Self {
        Compute::Native
    }
}

// `choice!` declares the enum; its default is stated here beside the others.
#[allow(clippy::derivable_impls)]
impl Default for ExpertFormat {
    fn default() -> Self {
        ExpertFormat::Native
    }
}

impl Default for Query {
    /// Llama 3.1 8B, QLoRA r16 on all linear layers, bf16, batch 4, sequence 2048.
    fn default() -> Self {
        Query {
            model: Some("llama-3.1-8b".into()),
            params: None,
            arch: ArchOverrides::default(),
            method: Method::Qlora,
            rank: 16,
            targets: Targets::all_linear(),
            quant: Quant::Nf4,
            double_quant: true,
            train_layers: 2,
            bottleneck: 64,
            virtual_tokens: 20,
            lora_dropout: None,
            precision: Precision::Bf16Mixed,
            adapter_dtype: None,
            optim: Optimizer::AdamW,
            optim_impl: None,
            batch: 4,
            seq: 2048,
            ga: 1,
            ckpt: None,
            attn: None,
            loss: None,
            packing: None,
            compile: None,
            set_to_none: true,
            act_offload: None,
            ckpt_every: 1,
            optim_in_bwd: false,
            expert_format: ExpertFormat::Native,
            need: Needs::default(),
            quant_skip: QuantSkip::default(),
            // GaLore's own default (galore_torch: rank 128 in its README's examples and in
            // transformers' `optim_args` handling).
            galore_rank: 128,
            framework: Framework::Hf,
            gpus: 1,
            nodes: 1,
            shard: ShardingStrategy::None,
            offload: Offload::None,
            tp: 1,
            sp: false,
            pp: 1,
            pp_chunks: 1,
            cp: 1,
            gpu: None,
            tokens: 10_000_000,
            epochs: 3.0,
            runs: 1,
            pricing: Pricing::Both,
            ckpt_interval_min: 30.0,
            interrupt_rate: None,
            mfu: None,
            mem_scale: None,
            provider: None,
            storage_gb: 100.0,
            compute: Compute::Native,
            // Provisioning and image pull: hyperscaler VMs boot in 1–5 min, a CUDA+PyTorch
            // image of ~10 GB pulls in 1–3 min; container clouds start faster. An
            // assumption, shown and settable.
            startup_min: 5.0,
            // Hub downloads with hf_transfer/hf_xet reach 0.1–1 GB/s from cloud regions.
            download_gb_s: 0.5,
            // One node's checkpoint write: network volumes 0.125–1.2 GB/s (AWS gp3 125 MiB/s
            // baseline to 1,000 MiB/s provisioned; GCP pd-balanced up to 1.2 GB/s), local NVMe
            // more. The middle of that range.
            save_gb_s: 0.5,
            eval_frac: 0.0,
            budget_usd: None,
            deadline_h: None,
            goal: Goal::Cheapest,
        }
    }
}

/// One problem with one key of a query string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueryError {
    /// The offending key, as written in the query.
    pub key: String,
    /// What was wrong and what is accepted, in one sentence.
    pub message: String,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl std::error::Error for QueryError {}

/// All problems found in one query string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueryErrors(pub Vec<QueryError>);

impl fmt::Display for QueryErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|e| e.to_string()).collect();
        f.write_str(&parts.join("; "))
    }
}

impl std::error::Error for QueryErrors {}

fn err(key: &str, message: impl Into<String>) -> QueryError {
    QueryError { key: key.to_string(), message: message.into() }
}

/// Decodes `%XX` and `+` in one query component. Invalid escapes are kept literally.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' if i + 2 < bytes.len() => {
                // Two hex digits exactly: from_str_radix alone would also take "+1".
                let (h, l) = (bytes[i + 1], bytes[i + 2]);
                let hex = (h.is_ascii_hexdigit() && l.is_ascii_hexdigit())
                    .then(|| {
                        std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok())
                    })
                    .flatten();
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encodes one query component: unreserved characters and ',' stay readable.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b',') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Parses a parameter count: "8b", "350m", "1.5t", "6738415616".
pub fn parse_count(s: &str) -> Option<u64> {
    let s = s.trim().to_ascii_lowercase();
    let (num, mult) = match s.chars().last()? {
        'k' => (&s[..s.len() - 1], 1e3),
        'm' => (&s[..s.len() - 1], 1e6),
        'b' | 'g' => (&s[..s.len() - 1], 1e9),
        't' => (&s[..s.len() - 1], 1e12),
        _ => (&s[..], 1.0),
    };
    if mult == 1.0 {
        if let Ok(v) = num.parse::<u64>() {
            return Some(v);
        }
    }
    let v: f64 = crate::num::parse_f64(num)?;
    let total = v * mult;
    if !total.is_finite() || !(1.0..=1e15).contains(&total) {
        return None;
    }
    Some(total.round() as u64)
}

/// Formats a parameter count the short way when exact ("8b"), else as digits.
pub fn format_count(n: u64) -> String {
    // Largest unit whose short decimal parses back exactly: 1.5b, 350m, 8b; else digits.
    for (suffix, m) in [("t", 1e12), ("b", 1e9), ("m", 1e6), ("k", 1e3)] {
        let v = n as f64 / m;
        if v >= 1.0 {
            let s = format!("{v}");
            if s.len() <= 5 && parse_count(&format!("{s}{suffix}")) == Some(n) {
                return format!("{s}{suffix}");
            }
        }
    }
    n.to_string()
}

/// Numeric limits per key: wide enough for any real job, narrow enough that nothing
/// overflows or turns into NaN downstream.
mod limits {
    pub const RANK: (u32, u32) = (1, 4096);
    pub const BATCH: (u32, u32) = (1, 65_536);
    pub const SEQ: (u32, u32) = (1, 10_000_000);
    pub const GA: (u32, u32) = (1, 65_536);
    pub const GPUS: (u32, u32) = (1, 65_536);
    pub const NODES: (u32, u32) = (1, 8_192);
    pub const TP: (u32, u32) = (1, 64);
    pub const PP: (u32, u32) = (1, 256);
    pub const PP_CHUNKS: (u32, u32) = (1, 64);
    pub const CP: (u32, u32) = (1, 256);
    pub const TRAIN_LAYERS: (u32, u32) = (1, 1_000);
    pub const BOTTLENECK: (u32, u32) = (1, 65_536);
    pub const VIRTUAL_TOKENS: (u32, u32) = (1, 100_000);
    pub const RUNS: (u32, u32) = (1, 10_000);
    pub const ARCH: (u32, u32) = (1, 10_000_000);
}

fn parse_u32(key: &str, v: &str, (lo, hi): (u32, u32)) -> Result<u32, QueryError> {
    let n: f64 = crate::num::parse_f64(v.trim())
        .ok_or(())
        .map_err(|_| err(key, format!("'{v}' is not a number; expected a whole number from {lo} to {hi}")))?;
    if !n.is_finite() || n.fract() != 0.0 {
        return Err(err(key, format!("'{v}' is not a whole number; expected {lo} to {hi}")));
    }
    if n < lo as f64 || n > hi as f64 {
        return Err(err(key, format!("{v} is out of range; expected {lo} to {hi}")));
    }
    Ok(n as u32)
}

/// The smallest non-zero magnitude a decimal key accepts.
const MIN_MAGNITUDE: f64 = 1e-9;

fn parse_f64(key: &str, v: &str, lo: f64, hi: f64) -> Result<f64, QueryError> {
    let n: f64 = crate::num::parse_f64(v.trim())
        .ok_or(())
        .map_err(|_| err(key, format!("'{v}' is not a number; expected {lo} to {hi}")))?;
    if !n.is_finite() || n < lo || n > hi {
        return Err(err(key, format!("{v} is out of range; expected {lo} to {hi}")));
    }
    // No setting means anything below a billionth, and below it a value's canonical spelling
    // (up to 17 significant digits) would leave the range num.rs decodes exactly, so a link
    // would not decode to itself: 0, or at least 1e-9.
    if n != 0.0 && n.abs() < MIN_MAGNITUDE {
        return Err(err(key, format!("{v} is too small to mean anything; use 0 or at least {MIN_MAGNITUDE}")));
    }
    Ok(n)
}

fn parse_bool(key: &str, v: &str) -> Result<bool, QueryError> {
    match v {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(err(key, format!("'{v}' is not 0 or 1"))),
    }
}

fn parse_id(key: &str, v: &str) -> Result<String, QueryError> {
    let ok = !v.is_empty()
        && v.len() <= 64
        && v.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(v.to_ascii_lowercase())
    } else {
        Err(err(key, "expected an id of letters, digits, '-', '_' or '.' (at most 64 characters)"))
    }
}

macro_rules! parse_choice {
    ($ty:ty, $key:expr, $v:expr) => {
        <$ty>::parse($v).ok_or_else(|| err($key, format!("'{}' is not one of {}", $v, <$ty>::accepted())))
    };
}

/// Every key the format knows, in canonical order.
pub const KEYS: &[&str] = &[
    "v",
    "model",
    "params",
    "layers",
    "hidden",
    "heads",
    "kv_heads",
    "head_dim",
    "ffn",
    "vocab",
    "tied",
    "experts",
    "experts_per_token",
    "norms",
    "qk_norm",
    "dense_layers",
    "dense_ffn",
    "shared_ffn",
    "q_rank",
    "kv_rank",
    "rope_dim",
    "v_dim",
    "vision_params",
    "method",
    "rank",
    "targets",
    "quant",
    "dq",
    "quant_skip",
    "train_layers",
    "bottleneck",
    "virtual_tokens",
    "lora_dropout",
    "precision",
    "adapter_dtype",
    "optim",
    "optim_impl",
    "batch",
    "seq",
    "ga",
    "ckpt",
    "attn",
    "loss",
    "packing",
    "compile",
    "set_to_none",
    "act_offload",
    "ckpt_every",
    "optim_in_bwd",
    "expert_format",
    "galore_rank",
    "framework",
    "gpus",
    "nodes",
    "shard",
    "offload",
    "tp",
    "sp",
    "pp",
    "pp_chunks",
    "cp",
    "gpu",
    "tokens",
    "epochs",
    "runs",
    "pricing",
    "ckpt_interval_min",
    "interrupt_rate",
    "mfu",
    "mem_scale",
    "provider",
    "storage_gb",
    "need",
    "compute",
    "startup_min",
    "download_gb_s",
    "save_gb_s",
    "eval_frac",
    "budget_usd",
    "deadline_h",
    "goal",
];

impl Query {
    /// Applies one `key=value` pair.
    pub fn set(&mut self, key: &str, v: &str) -> Result<(), QueryError> {
        let a = &mut self.arch;
        match key {
            "v" => {
                if v != "1" {
                    return Err(err(key, format!("format version '{v}' is not supported; this build reads v=1")));
                }
            }
            "model" => {
                self.model = Some(parse_id(key, v)?);
            }
            "params" => {
                self.params = Some(
                    parse_count(v).filter(|n| (1_000_000..=100_000_000_000_000).contains(n)).ok_or_else(|| {
                        err(key, format!("'{v}' is not a parameter count from 1m to 100t (e.g. 8b, 350m, 6738415616)"))
                    })?,
                );
            }
            "layers" => a.layers = Some(parse_u32(key, v, (1, 1000))?),
            "hidden" => a.hidden = Some(parse_u32(key, v, (1, 1_000_000))?),
            "heads" => a.heads = Some(parse_u32(key, v, (1, 10_000))?),
            "kv_heads" => a.kv_heads = Some(parse_u32(key, v, (1, 10_000))?),
            "head_dim" => a.head_dim = Some(parse_u32(key, v, (1, 10_000))?),
            "ffn" => a.ffn = Some(parse_u32(key, v, limits::ARCH)?),
            "vocab" => a.vocab = Some(parse_u32(key, v, limits::ARCH)?),
            "tied" => a.tied = Some(parse_bool(key, v)?),
            "experts" => a.experts = Some(parse_u32(key, v, (1, 10_000))?),
            "experts_per_token" => a.experts_per_token = Some(parse_u32(key, v, (1, 10_000))?),
            "norms" => a.norms = Some(parse_u32(key, v, (0, 8))?),
            "qk_norm" => a.qk_norm = Some(parse_u32(key, v, (0, 2))?),
            "dense_layers" => a.dense_layers = Some(parse_u32(key, v, (0, 1000))?),
            "dense_ffn" => a.dense_ffn = Some(parse_u32(key, v, (0, 1_000_000))?),
            "shared_ffn" => a.shared_ffn = Some(parse_u32(key, v, (0, 1_000_000))?),
            "q_rank" => a.q_rank = Some(parse_u32(key, v, (0, 100_000))?),
            "kv_rank" => a.kv_rank = Some(parse_u32(key, v, (0, 100_000))?),
            "rope_dim" => a.rope_dim = Some(parse_u32(key, v, (0, 10_000))?),
            "v_dim" => a.v_dim = Some(parse_u32(key, v, (0, 10_000))?),
            "vision_params" => {
                a.vision_params =
                    Some(parse_count(v).filter(|n| *n <= 100_000_000_000).ok_or_else(|| {
                        err(key, format!("'{v}' is not a parameter count from 0 to 100b (e.g. 417m)"))
                    })?);
            }
            "method" => self.method = parse_choice!(Method, key, v)?,
            "rank" => self.rank = parse_u32(key, v, limits::RANK)?,
            "targets" => {
                self.targets = Targets::parse(v).ok_or_else(|| {
                    err(key, format!("'{v}' is not a comma list of q,k,v,o,gate,up,down, all, embed, lm_head"))
                })?;
            }
            "quant" => self.quant = parse_choice!(Quant, key, v)?,
            "dq" => self.double_quant = parse_bool(key, v)?,
            "quant_skip" => {
                self.quant_skip = QuantSkip::parse(v).ok_or_else(|| {
                    err(
                        key,
                        format!("'{v}' is not a comma list of N.part with part one of {}", QuantSkip::PARTS.join("|")),
                    )
                })?;
            }
            "train_layers" => self.train_layers = parse_u32(key, v, limits::TRAIN_LAYERS)?,
            "bottleneck" => self.bottleneck = parse_u32(key, v, limits::BOTTLENECK)?,
            "virtual_tokens" => self.virtual_tokens = parse_u32(key, v, limits::VIRTUAL_TOKENS)?,
            "lora_dropout" => self.lora_dropout = Some(parse_f64(key, v, 0.0, 0.99)?),
            "precision" => self.precision = parse_choice!(Precision, key, v)?,
            "adapter_dtype" => self.adapter_dtype = Some(parse_choice!(AdapterDtype, key, v)?),
            "optim" => self.optim = parse_choice!(Optimizer, key, v)?,
            "optim_impl" => self.optim_impl = Some(parse_choice!(OptimizerImpl, key, v)?),
            "batch" => self.batch = parse_u32(key, v, limits::BATCH)?,
            "seq" => self.seq = parse_u32(key, v, limits::SEQ)?,
            "ga" => self.ga = parse_u32(key, v, limits::GA)?,
            "ckpt" => self.ckpt = Some(parse_choice!(Checkpointing, key, v)?),
            "attn" => self.attn = Some(parse_choice!(Attention, key, v)?),
            "loss" => self.loss = Some(parse_choice!(Loss, key, v)?),
            "packing" => self.packing = Some(parse_bool(key, v)?),
            "compile" => self.compile = Some(parse_bool(key, v)?),
            "set_to_none" => self.set_to_none = parse_bool(key, v)?,
            "act_offload" => self.act_offload = Some(parse_bool(key, v)?),
            "ckpt_every" => self.ckpt_every = parse_u32(key, v, (1, 1000))?,
            "optim_in_bwd" => self.optim_in_bwd = parse_bool(key, v)?,
            "expert_format" => self.expert_format = parse_choice!(ExpertFormat, key, v)?,
            "galore_rank" => self.galore_rank = parse_u32(key, v, (1, 65_536))?,
            "framework" => self.framework = parse_choice!(Framework, key, v)?,
            "gpus" => self.gpus = parse_u32(key, v, limits::GPUS)?,
            "nodes" => self.nodes = parse_u32(key, v, limits::NODES)?,
            "shard" => self.shard = parse_choice!(ShardingStrategy, key, v)?,
            "offload" => self.offload = parse_choice!(Offload, key, v)?,
            "tp" => self.tp = parse_u32(key, v, limits::TP)?,
            "sp" => self.sp = parse_bool(key, v)?,
            "pp" => self.pp = parse_u32(key, v, limits::PP)?,
            "pp_chunks" => self.pp_chunks = parse_u32(key, v, limits::PP_CHUNKS)?,
            "cp" => self.cp = parse_u32(key, v, limits::CP)?,
            "gpu" => self.gpu = Some(parse_id(key, v)?),
            "tokens" => {
                self.tokens = parse_count(v)
                    .filter(|n| (1..=1_000_000_000_000_000).contains(n))
                    .ok_or_else(|| err(key, format!("'{v}' is not a token count from 1 to 1e15 (e.g. 10m, 2.5b)")))?;
            }
            "epochs" => self.epochs = parse_f64(key, v, 0.01, 1000.0)?,
            "runs" => self.runs = parse_u32(key, v, limits::RUNS)?,
            "pricing" => self.pricing = parse_choice!(Pricing, key, v)?,
            "ckpt_interval_min" => self.ckpt_interval_min = parse_f64(key, v, 1.0, 10_000.0)?,
            "interrupt_rate" => self.interrupt_rate = Some(parse_f64(key, v, 0.0, 10.0)?),
            "mfu" => self.mfu = Some(parse_f64(key, v, 0.01, 1.0)?),
            "mem_scale" => self.mem_scale = Some(parse_f64(key, v, 0.1, 10.0)?),
            "provider" => self.provider = Some(parse_id(key, v)?),
            "storage_gb" => self.storage_gb = parse_f64(key, v, 0.0, 1_000_000.0)?,
            "need" => {
                self.need = Needs::parse(v)
                    .ok_or_else(|| err(key, format!("'{v}' is not a comma list of {}", Need::accepted())))?;
            }
            "compute" => self.compute = parse_choice!(Compute, key, v)?,
            "startup_min" => self.startup_min = parse_f64(key, v, 0.0, 1440.0)?,
            "download_gb_s" => self.download_gb_s = parse_f64(key, v, 0.001, 1000.0)?,
            "save_gb_s" => self.save_gb_s = parse_f64(key, v, 0.001, 1000.0)?,
            "eval_frac" => self.eval_frac = parse_f64(key, v, 0.0, 10.0)?,
            "budget_usd" => self.budget_usd = Some(parse_f64(key, v, 0.01, 1e9)?),
            "deadline_h" => self.deadline_h = Some(parse_f64(key, v, 0.01, 1e6)?),
            "goal" => self.goal = parse_choice!(Goal, key, v)?,
            _ => {
                let shown: String = key.chars().take(40).collect();
                return Err(err(&shown, "unknown key; see docs/query.md for the accepted keys"));
            }
        }
        Ok(())
    }

    /// Applies `key=value` pairs joined by `&`, in order (a fix's `set`: the core's own keys,
    /// not percent-encoded); stops at the first bad pair.
    pub fn apply(&mut self, pairs: &str) -> Result<(), QueryError> {
        for pair in pairs.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            self.set(k, v)?;
        }
        Ok(())
    }

    /// Decodes a query string leniently: every good key applies, every bad one is reported.
    /// A leading '?' is ignored. Repeated keys: the last one wins.
    pub fn parse_lenient(s: &str) -> (Query, Vec<QueryError>) {
        let mut q = Query::default();
        let mut errors = Vec::new();
        let s = s.strip_prefix('?').unwrap_or(s);
        // `params` replaces `model`: a link carrying only params must not keep the default preset.
        let mut saw_model = false;
        for pair in s.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (k, v) = (percent_decode(k), percent_decode(v));
            if k == "model" {
                saw_model = true;
            }
            if let Err(mut e) = q.set(&k, &v) {
                // A hostile link can carry megabytes in one value; the notice quotes a prefix.
                if v.len() > 60 {
                    e.message = e.message.replace(v.as_str(), &clip(&v));
                }
                errors.push(e);
            }
        }
        // `model=custom` is how the encoder writes "no preset" (an architecture given field by
        // field); it is not a preset id.
        if q.model.as_deref() == Some("custom") {
            q.model = None;
        }
        if q.params.is_some() && !saw_model {
            q.model = None;
        }
        if q.params.is_some() && saw_model && q.model.is_some() {
            errors.push(err("params", "both model and params are given; params wins and model is ignored"));
            q.model = None;
        }
        if !q.arch.is_empty() && !saw_model && q.params.is_none() {
            // Architecture fields alone describe a custom model.
            q.model = None;
        }
        (q, errors)
    }

    /// Decodes a query string strictly: any bad key is an error.
    pub fn parse(s: &str) -> Result<Query, QueryErrors> {
        let (q, errors) = Query::parse_lenient(s);
        if errors.is_empty() {
            Ok(q)
        } else {
            Err(QueryErrors(errors))
        }
    }

    /// Canonical query string: keys in `KEYS` order, defaults left out, `v=1` first.
    pub fn to_query_string(&self) -> String {
        let d = Query::default();
        let mut out: Vec<(String, String)> = vec![("v".into(), FORMAT_VERSION.to_string())];
        let mut push = |k: &str, v: String| out.push((k.to_string(), v));
        let arch_empty = self.arch.is_empty();
        match (&self.model, self.params) {
            (_, Some(p)) => push("params", format_count(p)),
            // With architecture fields, an omitted model would decode as "custom": say it.
            (Some(m), None) if Some(m) != d.model.as_ref() || !arch_empty => push("model", m.clone()),
            (None, None) => push("model", "custom".into()),
            _ => {}
        }
        let a = &self.arch;
        let fields = [
            ("layers", a.layers),
            ("hidden", a.hidden),
            ("heads", a.heads),
            ("kv_heads", a.kv_heads),
            ("head_dim", a.head_dim),
            ("ffn", a.ffn),
            ("vocab", a.vocab),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                push(k, v.to_string());
            }
        }
        if let Some(t) = a.tied {
            push("tied", (t as u8).to_string());
        }
        if let Some(v) = a.experts {
            push("experts", v.to_string());
        }
        if let Some(v) = a.experts_per_token {
            push("experts_per_token", v.to_string());
        }
        let layout = [
            ("norms", a.norms),
            ("qk_norm", a.qk_norm),
            ("dense_layers", a.dense_layers),
            ("dense_ffn", a.dense_ffn),
            ("shared_ffn", a.shared_ffn),
            ("q_rank", a.q_rank),
            ("kv_rank", a.kv_rank),
            ("rope_dim", a.rope_dim),
            ("v_dim", a.v_dim),
        ];
        for (k, v) in layout {
            if let Some(v) = v {
                push(k, v.to_string());
            }
        }
        if let Some(v) = a.vision_params {
            push("vision_params", format_count(v));
        }
        macro_rules! diff {
            ($k:literal, $f:ident, $fmt:expr) => {
                if self.$f != d.$f {
                    push($k, $fmt(&self.$f));
                }
            };
        }
        let s = |x: &dyn fmt::Display| x.to_string();
        diff!("method", method, |x: &Method| s(x));
        diff!("rank", rank, |x: &u32| s(x));
        diff!("targets", targets, |x: &Targets| x.to_query_value());
        diff!("quant", quant, |x: &Quant| s(x));
        diff!("dq", double_quant, |x: &bool| (*x as u8).to_string());
        if !self.quant_skip.is_empty() {
            push("quant_skip", self.quant_skip.to_query_value());
        }
        diff!("train_layers", train_layers, |x: &u32| s(x));
        diff!("bottleneck", bottleneck, |x: &u32| s(x));
        diff!("virtual_tokens", virtual_tokens, |x: &u32| s(x));
        if let Some(x) = self.lora_dropout {
            push("lora_dropout", fmt_f64(x));
        }
        diff!("precision", precision, |x: &Precision| s(x));
        if let Some(x) = self.adapter_dtype {
            push("adapter_dtype", s(&x));
        }
        diff!("optim", optim, |x: &Optimizer| s(x));
        if let Some(x) = self.optim_impl {
            push("optim_impl", s(&x));
        }
        diff!("batch", batch, |x: &u32| s(x));
        diff!("seq", seq, |x: &u32| s(x));
        diff!("ga", ga, |x: &u32| s(x));
        if let Some(x) = self.ckpt {
            push("ckpt", s(&x));
        }
        if let Some(x) = self.attn {
            push("attn", s(&x));
        }
        if let Some(x) = self.loss {
            push("loss", s(&x));
        }
        if let Some(x) = self.packing {
            push("packing", (x as u8).to_string());
        }
        if let Some(x) = self.compile {
            push("compile", (x as u8).to_string());
        }
        diff!("set_to_none", set_to_none, |x: &bool| (*x as u8).to_string());
        if let Some(x) = self.act_offload {
            push("act_offload", (x as u8).to_string());
        }
        diff!("ckpt_every", ckpt_every, |x: &u32| s(x));
        diff!("optim_in_bwd", optim_in_bwd, |x: &bool| (*x as u8).to_string());
        diff!("expert_format", expert_format, |x: &ExpertFormat| s(x));
        diff!("galore_rank", galore_rank, |x: &u32| s(x));
        diff!("framework", framework, |x: &Framework| s(x));
        diff!("gpus", gpus, |x: &u32| s(x));
        diff!("nodes", nodes, |x: &u32| s(x));
        diff!("shard", shard, |x: &ShardingStrategy| s(x));
        diff!("offload", offload, |x: &Offload| s(x));
        diff!("tp", tp, |x: &u32| s(x));
        diff!("sp", sp, |x: &bool| (*x as u8).to_string());
        diff!("pp", pp, |x: &u32| s(x));
        diff!("pp_chunks", pp_chunks, |x: &u32| s(x));
        diff!("cp", cp, |x: &u32| s(x));
        if let Some(x) = &self.gpu {
            push("gpu", x.clone());
        }
        diff!("tokens", tokens, |x: &u64| format_count(*x));
        diff!("epochs", epochs, |x: &f64| fmt_f64(*x));
        diff!("runs", runs, |x: &u32| s(x));
        diff!("pricing", pricing, |x: &Pricing| s(x));
        diff!("ckpt_interval_min", ckpt_interval_min, |x: &f64| fmt_f64(*x));
        if let Some(x) = self.interrupt_rate {
            push("interrupt_rate", fmt_f64(x));
        }
        if let Some(x) = self.mfu {
            push("mfu", fmt_f64(x));
        }
        if let Some(x) = self.mem_scale {
            push("mem_scale", fmt_f64(x));
        }
        if let Some(x) = &self.provider {
            push("provider", x.clone());
        }
        diff!("storage_gb", storage_gb, |x: &f64| fmt_f64(*x));
        if !self.need.is_empty() {
            push("need", self.need.to_query_value());
        }
        diff!("compute", compute, |x: &Compute| s(x));
        diff!("startup_min", startup_min, |x: &f64| fmt_f64(*x));
        diff!("download_gb_s", download_gb_s, |x: &f64| fmt_f64(*x));
        diff!("save_gb_s", save_gb_s, |x: &f64| fmt_f64(*x));
        diff!("eval_frac", eval_frac, |x: &f64| fmt_f64(*x));
        if let Some(x) = self.budget_usd {
            push("budget_usd", fmt_f64(x));
        }
        if let Some(x) = self.deadline_h {
            push("deadline_h", fmt_f64(x));
        }
        diff!("goal", goal, |x: &Goal| s(x));
        out.iter().map(|(k, v)| format!("{k}={}", percent_encode(v))).collect::<Vec<_>>().join("&")
    }
}

/// The first 40 characters of a long value, for error messages.
fn clip(v: &str) -> String {
    let head: String = v.chars().take(40).collect();
    format!("{head}… ({} bytes)", v.len())
}

fn yes() -> bool {
    true
}

/// Shortest decimal that parses back to the same f64.
fn fmt_f64(x: f64) -> String {
    crate::num::shortest(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_encodes_to_version_only() {
        assert_eq!(Query::default().to_query_string(), "v=1");
    }

    #[test]
    fn round_trip_of_a_busy_query() {
        let s = "v=1&params=70b&method=lora&rank=64&targets=q,v,lm_head&precision=bf16-true&batch=8&seq=4096&ckpt=full&gpus=8&shard=zero3&gpu=h100-sxm&epochs=1.5";
        let q = Query::parse(s).unwrap();
        assert_eq!(q.params, Some(70_000_000_000));
        assert_eq!(q.model, None);
        assert!(q.targets.contains(TargetModule::LmHead));
        assert!(!q.targets.contains(TargetModule::K));
        assert_eq!(Query::parse(&q.to_query_string()).unwrap(), q);
    }

    #[test]
    fn bad_values_name_their_key() {
        let e = Query::parse("batch=0&method=magic&zzz=1").unwrap_err();
        let keys: Vec<&str> = e.0.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["batch", "method", "zzz"]);
        assert!(e.0[1].message.contains("full|freeze|lora"));
    }

    #[test]
    fn lenient_keeps_the_good_keys() {
        let (q, errs) = Query::parse_lenient("batch=-3&seq=4096&rank=1e12");
        assert_eq!(q.seq, 4096);
        assert_eq!(q.batch, Query::default().batch);
        assert_eq!(errs.len(), 2);
    }

    #[test]
    fn counts_parse_and_format() {
        assert_eq!(parse_count("8b"), Some(8_000_000_000));
        assert_eq!(parse_count("350m"), Some(350_000_000));
        assert_eq!(parse_count("1.5b"), Some(1_500_000_000));
        assert_eq!(parse_count("6738415616"), Some(6_738_415_616));
        assert_eq!(format_count(1_500_000_000), "1.5b");
        assert_eq!(format_count(6_738_415_616), "6738415616");
        assert_eq!(parse_count("nan"), None);
        assert_eq!(parse_count("-5b"), None);
    }

    #[test]
    fn percent_coding_survives_hostile_input() {
        assert_eq!(percent_decode("%3Cscript%3E"), "<script>");
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%e2%82%ac"), "€");
        let (_, errs) = Query::parse_lenient("model=%3Cscript%3E&batch=99999999999999999999");
        assert_eq!(errs.len(), 2);
    }
}
