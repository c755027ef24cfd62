//! The query format: every setting of a calculation as one URL query string.
//!
//! This is a public contract (docs/query.md). The page's URL, share links and the CLI all use
//! it, so a link made today must decode to the same `Query` for good (golden tests in
//! `tests/query_golden.rs`). Missing keys take the defaults of the link's format version
//! (`Query::defaults`; `Query::default()` is the current one's); an unknown
//! key or a bad value is a `QueryError` naming the key and what it accepts.
//!
//! Every key is one line of the `query_keys!` registry below (its name, field, default and
//! codec, with its doc): the struct, the decoder, the canonical encoder and `KEYS` all come
//! from it, and `tests/query_doc.rs` holds docs/query.md to it.
//!
//! Settings that a framework profile may choose (adapter dtype, checkpointing, loss, ...) are
//! `Option`s here: `None` means "not set by the person", so the profile's default applies, and
//! an explicit value always wins.

use crate::choice::{choice, query_keys, Choice};
use serde::{Deserialize, Serialize};
use std::fmt;
use Problem as P;

choice!(
    /// Version of the query format, written first in every link (`v=2`). A version fixes
    /// what each omitted key means: v=1 links keep v=1's defaults for good.
    Format { V1 = "1", V2 = "2" }
);
/// The version this build writes.
pub const FORMAT_VERSION: Format = Format::V2;

choice!(
    /// What is trained.
    Method {
        Full = "full", Freeze = "freeze", Lora = "lora", Qlora = "qlora", Dora = "dora",
        Adapter = "adapter", Prefix = "prefix", Prompt = "prompt",
    }
);
impl Method {
    /// The base model's own weights train (all of them, or the last blocks under `freeze`);
    /// nothing is added to the model.
    pub fn trains_base(self) -> bool {
        matches!(self, Method::Full | Method::Freeze)
    }
    /// Parameter-efficient: the base stays frozen and small added weights train (LoRA's
    /// low-rank deltas, adapters, prefix or prompt tokens).
    pub fn is_peft(self) -> bool {
        !self.trains_base()
    }
    /// Low-rank deltas on the `targets` linears (LoRA, QLoRA, DoRA): `rank` and
    /// `lora_dropout` apply.
    pub fn is_lora(self) -> bool {
        matches!(self, Method::Lora | Method::Qlora | Method::Dora)
    }
    /// The frozen base weights are stored quantized (`quant`, `dq`, `quant_skip`): QLoRA.
    pub fn quantized_base(self) -> bool {
        self == Method::Qlora
    }
    /// Trains `virtual_tokens` put in front of the sequence (prefix and prompt tuning): the
    /// block linears carry no adapter and their matmuls no extra work.
    pub fn uses_virtual_tokens(self) -> bool {
        matches!(self, Method::Prefix | Method::Prompt)
    }
}
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
    /// An fp32 model under 16-bit autocast (`*-mixed`): fp32 master weights, gradients and
    /// optimizer states, with 16-bit copies of the weights for compute.
    pub fn keeps_fp32_master(self) -> bool {
        matches!(self, Precision::Fp16Mixed | Precision::Bf16Mixed)
    }
    /// A 16-bit model (`*-true`): weights, gradients and optimizer states all in the 16-bit
    /// type, no fp32 copy anywhere.
    pub fn is_true16(self) -> bool {
        matches!(self, Precision::Fp16True | Precision::Bf16True)
    }
    /// The same compute type without the fp32 weights: `bf16-true` for bf16, `fp16-true` for
    /// fp16 and fp32 (a GPU without bf16 computes in fp16).
    pub fn sixteen_bit(self) -> Precision {
        if self.is_bf16() {
            Precision::Bf16True
        } else {
            Precision::Fp16True
        }
    }
    /// Computes in bfloat16 (mixed or true): needs a GPU with native bf16.
    pub fn is_bf16(self) -> bool {
        matches!(self, Precision::Bf16Mixed | Precision::Bf16True)
    }
    /// Computes in float16 (mixed or true): needs loss scaling.
    pub fn is_fp16(self) -> bool {
        matches!(self, Precision::Fp16Mixed | Precision::Fp16True)
    }
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
    /// bitsandbytes' 8-bit AdamW, paged or not: one byte per state plus block scales.
    pub fn is_bnb_8bit(self) -> bool {
        matches!(self, Optimizer::AdamW8bit | Optimizer::PagedAdamW8bit)
    }
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
impl Checkpointing {
    /// Recomputes part of each checkpointed block and keeps the rest (`selective`, `op`),
    /// between keeping everything (`none`) and only the block's input (`full`).
    pub fn is_partial(self) -> bool {
        matches!(self, Checkpointing::Selective | Checkpointing::Op)
    }
}
choice!(
    /// PyTorch's caching allocator mode (`PYTORCH_CUDA_ALLOC_CONF`): `default` caches fixed
    /// segments; `expandable` (`expandable_segments:True`) grows one segment per stream and
    /// pool, so freed blocks of any size merge and reserved stays near allocated.
    AllocatorMode { Default = "default", Expandable = "expandable" }
);
choice!(
    /// Where a checkpoint's full state dict is gathered while it is written: `host` moves each
    /// gathered tensor to CPU memory (`get_model_state_dict` with
    /// `StateDictOptions(full_state_dict=True, cpu_offload=True)`, FSDP1 under
    /// `FullStateDictConfig(offload_to_cpu=True)`, DeepSpeed's 16-bit save);
    /// `device` keeps every gathered parameter on the GPU until the dict is written (FSDP1's
    /// `model.state_dict()` under the default `FullStateDictConfig()`; FSDP2's
    /// `get_model_state_dict(..., full_state_dict=True)` without `cpu_offload`).
    StateDictPlacement { Host = "host", Device = "device" }
);
choice!(
    /// What a multimodal checkpoint's vision tower does in training: `frozen` (no gradient:
    /// nothing of its forward is kept), `lora` (adapters on its blocks' linears at `rank`, the
    /// modules `targets` names: Unsloth's `finetune_vision_layers`), `full` (the tower and its
    /// projector train: LLaMA-Factory's `freeze_vision_tower: false`).
    TowerTraining { Frozen = "frozen", Lora = "lora", Full = "full" }
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
impl Loss {
    /// The full-vocabulary logits never exist at once: they are made a chunk at a time
    /// (`chunked`, `fused-linear`).
    pub fn chunks_logits(self) -> bool {
        matches!(self, Loss::Chunked | Loss::FusedLinear)
    }
}
choice!(
    /// Data-parallel sharding strategy. `fsdp` is FSDP FULL_SHARD (= ZeRO-3).
    ShardingStrategy {
        None = "none", Zero1 = "zero1", Zero2 = "zero2", Zero3 = "zero3", Fsdp = "fsdp",
    }
);
impl ShardingStrategy {
    /// Something is split over the data-parallel group, at least the optimizer states (every
    /// ZeRO stage and FSDP); `none` replicates everything (DDP).
    pub fn is_sharded(self) -> bool {
        self != ShardingStrategy::None
    }
    /// Each rank keeps 1/dp of the gradients, reduce-scattered (ZeRO-2, ZeRO-3, FSDP).
    pub fn shards_grads(self) -> bool {
        matches!(self, ShardingStrategy::Zero2 | ShardingStrategy::Zero3 | ShardingStrategy::Fsdp)
    }
    /// Each rank keeps 1/dp of the parameters and gathers each block's for its compute
    /// (ZeRO-3, FSDP FULL_SHARD).
    pub fn shards_params(self) -> bool {
        matches!(self, ShardingStrategy::Zero3 | ShardingStrategy::Fsdp)
    }
    /// DeepSpeed's ZeRO (its engine holds a 16-bit model: memory/run.rs).
    pub fn is_deepspeed(self) -> bool {
        matches!(self, ShardingStrategy::Zero1 | ShardingStrategy::Zero2 | ShardingStrategy::Zero3)
    }
}
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
    /// The currency every money figure of the report is given in; offers priced in another
    /// currency are converted at the dataset's dated rates (data/currency.csv).
    Currency { Usd = "usd", Eur = "eur", Rub = "rub" }
);
impl Currency {
    /// ISO 4217 code, as offers carry it (`Offer::currency`).
    pub fn code(self) -> &'static str {
        match self {
            Currency::Usd => "USD",
            Currency::Eur => "EUR",
            Currency::Rub => "RUB",
        }
    }

    /// `x` with the currency's sign ([`with_sign`]); whole units from 100 up, else two decimals.
    /// `comma`: the decimal comma of Russian text.
    pub fn money(self, x: f64, comma: bool) -> String {
        let n = if x.abs() >= 100.0 { format!("{x:.0}") } else { format!("{x:.2}") };
        let n = if comma { n.replace('.', ",") } else { n };
        with_sign(self.code(), &n)
    }
}

/// A figure already written out (`n`) with the sign of the currency `code` (ISO 4217): "$n",
/// "€n", "n ₽" (the ruble sign follows the figure, after a no-break space, as Russian prices
/// write it). The core's sentences, the page and the lazily loaded panels all place it here.
pub fn with_sign(code: &str, n: &str) -> String {
    match code {
        "RUB" => format!("{n}\u{a0}₽"),
        "EUR" => format!("€{n}"),
        _ => format!("${n}"),
    }
}
impl Pricing {
    /// Spot offers are ranked (`spot`, `both`).
    pub fn includes_spot(self) -> bool {
        matches!(self, Pricing::Spot | Pricing::Both)
    }
}
choice!(
    /// Training framework whose allocation behaviour is modelled (docs/frameworks.md).
    Framework {
        Hf = "hf", Torchtune = "torchtune", Litgpt = "litgpt", Unsloth = "unsloth",
        Axolotl = "axolotl", LlamaFactory = "llama-factory",
    }
);
impl Framework {
    /// Trains with transformers' Trainer and PEFT as they ship (hf, axolotl, llama-factory):
    /// PEFT's every method, `prepare_model_for_kbit_training` for QLoRA, the Trainer's
    /// optimizer names. Unsloth patches both and is not one.
    pub fn runs_hf_trainer(self) -> bool {
        matches!(self, Framework::Hf | Framework::Axolotl | Framework::LlamaFactory)
    }
    /// The model is transformers' modeling code with PEFT's adapter modules (the Trainer-based
    /// ones and Unsloth, which patches them); torchtune and litgpt build their own modules.
    pub fn uses_transformers(self) -> bool {
        self.runs_hf_trainer() || self == Framework::Unsloth
    }
}

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
    /// One of the seven linears of a transformer block (not the embedding or the LM head).
    pub fn is_block_linear(self) -> bool {
        !matches!(self, TargetModule::Embed | TargetModule::LmHead)
    }
    /// An attention projection (q, k, v, o): present in the softmax-attention blocks only.
    pub fn is_attention(self) -> bool {
        matches!(self, TargetModule::Q | TargetModule::K | TargetModule::V | TargetModule::O)
    }
    /// An MLP projection (gate, up, down): one per expert in a mixture of experts.
    pub fn is_mlp(self) -> bool {
        matches!(self, TargetModule::Gate | TargetModule::Up | TargetModule::Down)
    }
    /// Megatron tensor parallelism splits its output over the group (q, k, v, gate, up).
    pub fn is_column_parallel(self) -> bool {
        self.is_block_linear() && !self.is_row_parallel()
    }
    /// Megatron tensor parallelism splits its input over the group and all-reduces its
    /// output (o, down).
    pub fn is_row_parallel(self) -> bool {
        matches!(self, TargetModule::O | TargetModule::Down)
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

/// An image's size in pixels (`image_res`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageSize {
    pub w: u32,
    pub h: u32,
}

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

// The registry: one line per key, in canonical order (`choice::query_keys!` says what is
// generated from it). Ranges are wide enough for any real job and narrow enough that nothing
// overflows or turns into NaN downstream.
query_keys! {
    /// Every setting of one calculation. `Default` is the page's starting configuration:
    /// Llama 3.1 8B, QLoRA r16 on all linear layers, bf16, batch 4, sequence 2048.
    ///
    /// Settings that a framework profile may choose (adapter dtype, checkpointing, loss, ...)
    /// are `Option`s: `None` means "not set by the person", so the profile's default applies.
    pub struct Query {
        model {
            /// Format version: which defaults the omitted keys take (`Query::defaults`).
            "v" format: Format = FORMAT_VERSION, Pick, if always_written;
            /// Preset id from the catalog (e.g. "llama-3.1-8b"). Ignored when `params` is set;
            /// `None` (written `custom`) when the architecture is given field by field.
            "model" model: Option<String> = Some("llama-3.1-8b".into()), Preset, if model_written;
            /// Total parameter count, for a model given only by size; the architecture is inferred.
            "params" params: Option<u64> = None,
                Count(1_000_000, 100_000_000_000_000, Counted::Parameters, "8b, 350m, 6738415616");
        }
        /// Architecture fields given explicitly in the query; each overrides the preset or the
        /// architecture inferred from `params`.
        arch: pub struct ArchOverrides {
            /// Transformer blocks.
            "layers" layers: Option<u32> = None, Whole(1, 1000);
            /// Hidden size.
            "hidden" hidden: Option<u32> = None, Whole(1, 1_000_000);
            /// Attention (query) heads.
            "heads" heads: Option<u32> = None, Whole(1, 10_000);
            /// Key/value heads (grouped-query attention).
            "kv_heads" kv_heads: Option<u32> = None, Whole(1, 10_000);
            /// Width of one attention head.
            "head_dim" head_dim: Option<u32> = None, Whole(1, 10_000);
            /// FFN (MLP) width; an expert's width in a mixture of experts.
            "ffn" ffn: Option<u32> = None, Whole(1, 10_000_000);
            /// Vocabulary size.
            "vocab" vocab: Option<u32> = None, Whole(1, 10_000_000);
            /// The embedding and the LM head share one matrix.
            "tied" tied: Option<bool> = None, Flag;
            /// Experts per MoE block.
            "experts" experts: Option<u32> = None, Whole(1, 10_000);
            /// Experts each token is routed to.
            "experts_per_token" experts_per_token: Option<u32> = None, Whole(1, 10_000);
            // `arch::Layout`'s fields, for models a pasted config describes beyond the uniform
            // stack: dense blocks among MoE ones, a shared expert, latent attention, a vision tower.
            /// Norms per block (2; Gemma 2/3: 4; phi-1.5: 1).
            "norms" norms: Option<u32> = None, Whole(0, 8);
            /// q/k RMSNorm: 0 none, 1 per head (Qwen3, Gemma 3), 2 over all heads (OLMo 2).
            "qk_norm" qk_norm: Option<u32> = None, Whole(0, 2);
            /// Dense blocks among the MoE ones (DeepSeek-V3 `first_k_dense_replace`).
            "dense_layers" dense_layers: Option<u32> = None, Whole(0, 1000);
            /// FFN width of those dense blocks.
            "dense_ffn" dense_ffn: Option<u32> = None, Whole(0, 1_000_000);
            /// FFN width of the always-active shared expert of each MoE block.
            "shared_ffn" shared_ffn: Option<u32> = None, Whole(0, 1_000_000);
            /// Latent attention's query rank (DeepSeek-V3 `q_lora_rank`).
            "q_rank" q_rank: Option<u32> = None, Whole(0, 100_000);
            /// Latent attention's key/value rank (`kv_lora_rank`).
            "kv_rank" kv_rank: Option<u32> = None, Whole(0, 100_000);
            /// Rotary part of a latent-attention head (`qk_rope_head_dim`).
            "rope_dim" rope_dim: Option<u32> = None, Whole(0, 10_000);
            /// Value head width of latent attention (`v_head_dim`).
            "v_dim" v_dim: Option<u32> = None, Whole(0, 10_000);
            /// Parameters of a multimodal checkpoint's vision tower and projector (frozen, 16-bit).
            "vision_params" vision_params: Option<u64> = None,
                Count(0, 100_000_000_000, Counted::Parameters, "417m");
        }
        settings {
            // --- method ---
            /// What trains.
            "method" method: Method = Method::Qlora, Pick;
            /// LoRA/DoRA/QLoRA rank.
            "rank" rank: u32 = 16, Whole(1, 4096);
            /// The modules adapters are put on.
            "targets" targets: Targets = Targets::all_linear(), List;
            /// QLoRA's storage format of the frozen base weights.
            "quant" quant: Quant = Quant::Nf4, Pick;
            /// Double quantization of the NF4/FP4 block constants.
            "dq" double_quant: bool = true, Flag;
            /// Block modules a pre-quantized QLoRA checkpoint keeps in 16 bits.
            "quant_skip" quant_skip: QuantSkip = QuantSkip::default(), List;
            /// Freeze tuning: the last N blocks train.
            "train_layers" train_layers: u32 = 2, Whole(0, 1_000);
            /// Houlsby adapter bottleneck width.
            "bottleneck" bottleneck: u32 = 64, Whole(1, 65_536);
            /// Virtual tokens of prefix and prompt tuning.
            "virtual_tokens" virtual_tokens: u32 = 20, Whole(1, 100_000);
            /// LoRA dropout probability; `None`: the framework profile's.
            "lora_dropout" lora_dropout: Option<f64> = None, Decimal(0.0, 0.99);
            // --- numerics ---
            /// Numeric precision of weights, gradients and optimizer states. v=2: `bf16-true`, the
            /// checkpoint's own 16-bit type, which `from_pretrained` loads by default since
            /// transformers 5 (`dtype="auto"`, huggingface/transformers PR #42805); v=1:
            /// `bf16-mixed` (fp32 weights, transformers 4's default).
            "precision" precision: Precision = Precision::Bf16True, Pick;
            /// `torch.autocast` around the forward of a 16-bit model (`*-true`): what the
            /// Trainer's `bf16`/`fp16` flag does over a model loaded in 16 bits. `None`: where the
            /// framework's export sets that flag (framework.rs `resolve`; docs/query.md).
            /// `*-mixed` is always under autocast, fp32 never.
            "autocast" autocast: Option<bool> = None, Flag;
            /// Storage type of trainable adapter weights; `None`: the framework profile's.
            "adapter_dtype" adapter_dtype: Option<AdapterDtype> = None, Pick;
            /// Optimizer and its state layout.
            "optim" optim: Optimizer = Optimizer::AdamW, Pick;
            /// AdamW's implementation; `None`: the framework profile's (the framework's
            /// current default).
            "optim_impl" optim_impl: Option<OptimizerImpl> = None, Pick;
            // --- batch and activations ---
            /// Micro-batch per data-parallel replica.
            "batch" batch: u32 = 4, Whole(1, 65_536);
            /// Tokens per sample.
            "seq" seq: u32 = 2048, Whole(1, 10_000_000);
            /// Gradient accumulation steps.
            "ga" ga: u32 = 1, Whole(1, 65_536);
            /// Images in each sample of a multimodal model; their visual tokens are part of
            /// `seq`, and the vision tower runs on their patches.
            "images" images: u32 = 0, Whole(0, 256);
            /// The images' size in pixels, `W` or `WxH`, as the processor hands them to the tower
            /// (after any resize of the framework's, e.g. LLaMA-Factory's `image_max_pixels`);
            /// `None`: the tower's own (896 for Gemma 3, which resizes every image; 768² otherwise).
            "image_res" image_res: Option<ImageSize> = None, Size(1, 16_384);
            /// What the vision tower does in training.
            "tower" tower: TowerTraining = TowerTraining::Frozen, Pick;
            /// Under QLoRA, the vision tower's linears are stored 4-bit like the language model's
            /// (transformers' bitsandbytes integration converts every `nn.Linear` but the head);
            /// `None`: the framework profile's (Unsloth's dynamic checkpoints keep them 16-bit).
            "tower_quant" tower_quant: Option<bool> = None, Flag;
            /// Activation checkpointing; `None`: the framework profile's.
            "ckpt" ckpt: Option<Checkpointing> = None, Pick;
            /// Attention kernel; `None`: the framework profile's.
            "attn" attn: Option<Attention> = None, Pick;
            /// Loss computation; `None`: the framework profile's.
            "loss" loss: Option<Loss> = None, Pick;
            /// Packed (not padded) batches; `None`: the framework profile's.
            "packing" packing: Option<bool> = None, Flag;
            /// torch.compile; `None`: the framework profile's.
            "compile" compile: Option<bool> = None, Flag;
            /// `zero_grad(set_to_none=True)`: gradients are freed after each optimizer step (the
            /// default of torch ≥ 2.0). `false` keeps them allocated as zeros between steps
            /// (torch 1.x's `Module.zero_grad()`/`Optimizer.zero_grad()` default), so they sit
            /// beside the next step's activations.
            "set_to_none" set_to_none: bool = true, Flag;
            /// The caching allocator's mode the run sets (`PYTORCH_CUDA_ALLOC_CONF`); `None`: the
            /// framework profile's (Unsloth and Axolotl set `expandable_segments:True`).
            "alloc" alloc: Option<AllocatorMode> = None, Pick;
            /// Where an FSDP run's checkpoint gathers its full state dict: `device` clones every
            /// gathered parameter on the GPU until the dict is written (FSDP1's default), on top of
            /// what the run holds.
            "state_dict" state_dict: StateDictPlacement = StateDictPlacement::Host, Pick;
            /// Saved activations move to host memory during the forward pass and come back for
            /// the backward (torchtune `enable_activation_offloading`, Unsloth's "unsloth"
            /// checkpointing). `None`: the framework profile's default.
            "act_offload" act_offload: Option<bool> = None, Flag;
            /// Checkpoint only every n-th block (torchtitan `selective_ac_option: "n"`): the
            /// others keep all their activations. 1: every block, as `ckpt` says.
            "ckpt_every" ckpt_every: u32 = 1, Whole(1, 1000);
            /// The optimizer steps each parameter inside the backward pass as soon as its
            /// gradient is complete and frees that gradient (torchtune `optimizer_in_bwd`): no
            /// whole-model gradients, no gradient accumulation.
            "optim_in_bwd" optim_in_bwd: bool = false, Flag;
            /// How a mixture of experts' expert weights sit in memory.
            "expert_format" expert_format: ExpertFormat = ExpertFormat::Native, Pick;
            /// GaLore's projection rank (`optim=galore-adamw`); 128 is GaLore's own default
            /// (galore_torch's README examples, transformers' `optim_args` handling).
            "galore_rank" galore_rank: u32 = 128, Whole(1, 65_536);
            /// Training framework whose allocation behaviour is modelled.
            "framework" framework: Framework = Framework::Hf, Pick;
            // --- parallelism ---
            /// Total GPUs of the run, all nodes together.
            "gpus" gpus: u32 = 1, Whole(1, 65_536);
            /// Nodes (instances) the GPUs are spread over.
            "nodes" nodes: u32 = 1, Whole(1, 8_192);
            /// Data-parallel sharding strategy.
            "shard" shard: ShardingStrategy = ShardingStrategy::None, Pick;
            /// What is moved to host memory.
            "offload" offload: Offload = Offload::None, Pick;
            /// Tensor-parallel degree.
            "tp" tp: u32 = 1, Whole(1, 64);
            /// Megatron sequence parallelism inside the tensor-parallel group (norm and dropout
            /// activations split too; all-reduces become reduce-scatter + all-gather).
            "sp" sp: bool = false, Flag;
            /// Pipeline-parallel stages.
            "pp" pp: u32 = 1, Whole(1, 256);
            /// Model chunks per pipeline stage: 1 = 1F1B, more = interleaved 1F1B.
            "pp_chunks" pp_chunks: u32 = 1, Whole(1, 64);
            /// Context-parallel degree: each sequence split over `cp` GPUs (ring attention).
            "cp" cp: u32 = 1, Whole(1, 256);
            /// GPU id of the dataset: fit, headroom and the inverse solvers.
            "gpu" gpu: Option<String> = None, Id;
            // --- job, time and cost ---
            /// Training tokens per epoch.
            "tokens" tokens: u64 = 10_000_000,
                Count(1, 1_000_000_000_000_000, Counted::Tokens, "10m, 2.5b");
            /// Epochs.
            "epochs" epochs: f64 = 3.0, Decimal(0.01, 1000.0);
            /// Repeated runs (sweeps).
            "runs" runs: u32 = 1, Whole(1, 10_000);
            /// Which prices the cost ranking uses.
            "pricing" pricing: Pricing = Pricing::Both, Pick;
            /// Minutes between checkpoint saves.
            "ckpt_interval_min" ckpt_interval_min: f64 = 30.0, Decimal(1.0, 10_000.0);
            /// Interruptions per hour on spot; `None` takes each provider's default.
            "interrupt_rate" interrupt_rate: Option<f64> = None, Decimal(0.0, 10.0);
            /// Model-FLOPs utilisation; `None` takes the default per GPU class and method.
            "mfu" mfu: Option<f64> = None, Decimal(0.01, 1.0);
            /// Measured over estimated per-GPU memory from a person's own run of this setup
            /// (`calibrate`): the memory peaks are scaled by it. `None`: the model as it is.
            "mem_scale" mem_scale: Option<f64> = None, Decimal(0.1, 10.0);
            /// Provider id: only its offers are ranked.
            "provider" provider: Option<String> = None, Id;
            /// Persistent storage, GB.
            "storage_gb" storage_gb: f64 = 100.0, Decimal(0.0, 1_000_000.0);
            /// Days the project keeps its persistent storage (dataset, checkpoints between
            /// iterations); 0: only while the runs go.
            "storage_days" storage_days: f64 = 0.0, Decimal(0.0, 3650.0);
            /// Minutes the instance stays up after each run (reading results, editing the
            /// config), billed with the run as one session.
            "idle_min" idle_min: f64 = 0.0, Decimal(0.0, 10_080.0);
            /// GB downloaded from the provider per run besides the trained result
            /// (intermediate checkpoints, logs): egress.
            "download_gb" download_gb: f64 = 0.0, Decimal(0.0, 1_000_000.0);
            /// Provider features every ranked offer must have.
            "need" need: Needs = Needs::default(), List;
            /// Matmul number format of the linear layers.
            "compute" compute: Compute = Compute::Native, Pick;
            /// Minutes from asking for the instance to a shell with the image pulled.
            /// Hyperscaler VMs boot in 1–5 min and a CUDA+PyTorch image of ~10 GB pulls in
            /// 1–3 min; container clouds start faster. An assumption, shown and settable.
            "startup_min" startup_min: f64 = 5.0, Decimal(0.0, 1440.0);
            /// GB/s at which the checkpoint downloads to the instance (Hub downloads with
            /// hf_transfer/hf_xet reach 0.1–1 GB/s from cloud regions).
            "download_gb_s" download_gb_s: f64 = 0.5, Decimal(0.001, 1000.0);
            /// GB/s at which one node writes its part of a training checkpoint. Network volumes
            /// write 0.125–1.2 GB/s (AWS gp3 125 MiB/s baseline to 1,000 MiB/s provisioned; GCP
            /// pd-balanced up to 1.2 GB/s), local NVMe more: the middle of that range.
            "save_gb_s" save_gb_s: f64 = 0.5, Decimal(0.001, 1000.0);
            /// Evaluation tokens as a fraction of the training tokens (forward only).
            "eval_frac" eval_frac: f64 = 0.0, Decimal(0.0, 10.0);
            /// Planning limit: total USD for all runs (`tunefit plan`).
            "budget_usd" budget_usd: Option<f64> = None, Decimal(0.01, 1e9);
            /// Planning limit: hours of one run.
            "deadline_h" deadline_h: Option<f64> = None, Decimal(0.01, 1e6);
            /// What `tunefit plan` optimises.
            "goal" goal: Goal = Goal::Cheapest, Pick;
            /// The currency of every money figure: offers in other currencies are converted
            /// at the dataset's dated rates (data/currency.csv).
            "currency" currency: Currency = Currency::Usd, Pick;
        }
    }
}

impl ArchOverrides {
    pub fn is_empty(&self) -> bool {
        *self == ArchOverrides::default()
    }
}

/// `params` replaces `model`; with architecture fields an omitted model would decode as
/// "custom", so the default preset is written out.
fn always_written(_: &Query, _: &Query) -> bool {
    true
}

fn model_written(q: &Query, d: &Query) -> bool {
    q.params.is_none() && (q.model != d.model || !q.arch.is_empty())
}

/// One problem with one key of a query string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QueryError {
    /// The offending key, as written in the query.
    pub key: String,
    /// What was wrong and what is accepted, in one English sentence (the CLI's and the JSON's).
    pub message: String,
    /// The same, with its figures as fields: `diag::query_problem` renders it per language.
    #[serde(skip)]
    pub problem: Box<Problem>,
}

/// What is wrong with one value, with its figures (the value as written, the range or the
/// accepted values): the English sentence is its `Display`, other languages are rendered from
/// the fields (diag/text.rs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Not a number at all; `whole` when the key takes whole numbers.
    NotANumber {
        value: String,
        lo: String,
        hi: String,
        whole: bool,
    },
    /// A fraction where a whole number is needed.
    NotWhole {
        value: String,
        lo: String,
        hi: String,
    },
    OutOfRange {
        value: String,
        lo: String,
        hi: String,
    },
    /// Below the smallest magnitude a decimal key accepts.
    TooSmall {
        value: String,
        min: String,
    },
    NotAFlag {
        value: String,
    },
    /// Not an id of letters, digits, '-', '_' or '.'.
    BadId,
    /// Not a count of `of` from `lo` to `hi`; `examples` as a link spells such counts.
    NotACount {
        value: String,
        lo: u64,
        hi: u64,
        of: Counted,
        examples: &'static str,
    },
    NotOneOf {
        value: String,
        accepted: String,
    },
    /// Not a comma list of `items`.
    NotAList {
        value: String,
        items: String,
    },
    Version {
        value: String,
        known: String,
    },
    UnknownKey,
    ParamsAndModel,
}

/// What a count key counts, for its error message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    Parameters,
    Tokens,
}

impl Problem {
    /// The value as the link wrote it, where the problem quotes one.
    fn value_mut(&mut self) -> Option<&mut String> {
        use Problem as P;
        match self {
            P::NotANumber { value, .. }
            | P::NotWhole { value, .. }
            | P::OutOfRange { value, .. }
            | P::TooSmall { value, .. }
            | P::NotAFlag { value }
            | P::NotACount { value, .. }
            | P::NotOneOf { value, .. }
            | P::NotAList { value, .. }
            | P::Version { value, .. } => Some(value),
            P::BadId | P::UnknownKey | P::ParamsAndModel => None,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Problem as P;
        match self {
            P::NotANumber { value, lo, hi, whole: true } => {
                write!(f, "'{value}' is not a number; expected a whole number from {lo} to {hi}")
            }
            P::NotANumber { value, lo, hi, whole: false } => {
                write!(f, "'{value}' is not a number; expected {lo} to {hi}")
            }
            P::NotWhole { value, lo, hi } => write!(f, "'{value}' is not a whole number; expected {lo} to {hi}"),
            P::OutOfRange { value, lo, hi } => write!(f, "{value} is out of range; expected {lo} to {hi}"),
            P::TooSmall { value, min } => write!(f, "{value} is too small to mean anything; use 0 or at least {min}"),
            P::NotAFlag { value } => write!(f, "'{value}' is not 0 or 1"),
            P::BadId => f.write_str("expected an id of letters, digits, '-', '_' or '.' (at most 64 characters)"),
            P::NotACount { value, lo, hi, of, examples } => {
                let of = match of {
                    Counted::Parameters => "parameter",
                    Counted::Tokens => "token",
                };
                write!(
                    f,
                    "'{value}' is not a {of} count from {} to {} (e.g. {examples})",
                    format_count(*lo),
                    format_count(*hi)
                )
            }
            P::NotOneOf { value, accepted } => write!(f, "'{value}' is not one of {accepted}"),
            P::NotAList { value, items } => write!(f, "'{value}' is not a comma list of {items}"),
            P::Version { value, known } => {
                write!(f, "format version '{value}' is not supported; this build reads {known}")
            }
            P::UnknownKey => f.write_str("unknown key; see docs/query.md for the accepted keys"),
            P::ParamsAndModel => f.write_str("both model and params are given; params wins and model is ignored"),
        }
    }
}

impl QueryError {
    /// The error for `key`, its English message written from the problem.
    pub fn new(key: &str, problem: Problem) -> QueryError {
        QueryError { key: key.to_string(), message: problem.to_string(), problem: Box::new(problem) }
    }
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

fn err(key: &str, problem: Problem) -> QueryError {
    QueryError::new(key, problem)
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

pub(crate) fn parse_u32(key: &str, v: &str, (lo, hi): (u32, u32)) -> Result<u32, QueryError> {
    let n: f64 = crate::num::parse_f64(v.trim()).ok_or(()).map_err(|_| {
        err(key, P::NotANumber { value: v.into(), lo: lo.to_string(), hi: hi.to_string(), whole: true })
    })?;
    if !n.is_finite() || n.fract() != 0.0 {
        return Err(err(key, P::NotWhole { value: v.into(), lo: lo.to_string(), hi: hi.to_string() }));
    }
    if n < lo as f64 || n > hi as f64 {
        return Err(err(key, P::OutOfRange { value: v.into(), lo: lo.to_string(), hi: hi.to_string() }));
    }
    Ok(n as u32)
}

/// The smallest non-zero magnitude a decimal key accepts.
const MIN_MAGNITUDE: f64 = 1e-9;

fn parse_f64(key: &str, v: &str, lo: f64, hi: f64) -> Result<f64, QueryError> {
    let n: f64 = crate::num::parse_f64(v.trim()).ok_or(()).map_err(|_| {
        err(key, P::NotANumber { value: v.into(), lo: lo.to_string(), hi: hi.to_string(), whole: false })
    })?;
    if !n.is_finite() || n < lo || n > hi {
        return Err(err(key, P::OutOfRange { value: v.into(), lo: lo.to_string(), hi: hi.to_string() }));
    }
    // No setting means anything below a billionth, and below it a value's canonical spelling
    // (up to 17 significant digits) would leave the range num.rs decodes exactly, so a link
    // would not decode to itself: 0, or at least 1e-9.
    if n != 0.0 && n.abs() < MIN_MAGNITUDE {
        return Err(err(key, P::TooSmall { value: v.into(), min: MIN_MAGNITUDE.to_string() }));
    }
    Ok(n)
}

fn parse_bool(key: &str, v: &str) -> Result<bool, QueryError> {
    match v {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(err(key, P::NotAFlag { value: v.into() })),
    }
}

fn parse_id(key: &str, v: &str) -> Result<String, QueryError> {
    let ok = !v.is_empty()
        && v.len() <= 64
        && v.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(v.to_ascii_lowercase())
    } else {
        Err(err(key, P::BadId))
    }
}

/// How one key's value is read from and spelled in the query string (the last part of each
/// registry line).
trait Codec<T> {
    /// Reads `v`; the error names `key` and what it accepts.
    fn parse(&self, key: &str, v: &str) -> Result<T, QueryError>;
    /// The canonical spelling; `None` for an unset optional setting.
    fn encode(&self, v: &T) -> Option<String>;
    /// The accepted values when they are a closed set ("a|b|c").
    fn choices(&self) -> Option<String> {
        None
    }
}

/// A whole number from `.0` to `.1`.
struct Whole(u32, u32);
/// An image size, `W` (square) or `WxH`, each side from `.0` to `.1` pixels.
struct Size(u32, u32);
/// A decimal number from `.0` to `.1`.
struct Decimal(f64, f64);
/// A count with unit suffixes (`8b`, `350m`) from `.0` to `.1`; `.2` says what it counts and
/// `.3` gives examples, for the error message.
struct Count(u64, u64, Counted, &'static str);
/// A switch: 0 or 1.
struct Flag;
/// One value of a `choice!` enum.
struct Pick;
/// An id of the catalog or the dataset: letters, digits, '-', '_', '.'.
struct Id;
/// The model's preset id; unset (an architecture given field by field) is spelled `custom`.
struct Preset;
/// A comma list (`List` types).
struct List;

/// An optional setting takes its value's codec; `None` is never written.
impl<T, C: Codec<T>> Codec<Option<T>> for C {
    fn parse(&self, key: &str, v: &str) -> Result<Option<T>, QueryError> {
        <C as Codec<T>>::parse(self, key, v).map(Some)
    }
    fn encode(&self, v: &Option<T>) -> Option<String> {
        v.as_ref().and_then(|v| <C as Codec<T>>::encode(self, v))
    }
    fn choices(&self) -> Option<String> {
        <C as Codec<T>>::choices(self)
    }
}

impl Codec<u32> for Whole {
    fn parse(&self, key: &str, v: &str) -> Result<u32, QueryError> {
        parse_u32(key, v, (self.0, self.1))
    }
    fn encode(&self, v: &u32) -> Option<String> {
        Some(v.to_string())
    }
}

impl Codec<ImageSize> for Size {
    fn parse(&self, key: &str, v: &str) -> Result<ImageSize, QueryError> {
        let range = (self.0, self.1);
        match v.split_once(['x', 'X']) {
            Some((w, h)) => Ok(ImageSize { w: parse_u32(key, w, range)?, h: parse_u32(key, h, range)? }),
            None => parse_u32(key, v, range).map(|s| ImageSize { w: s, h: s }),
        }
    }
    fn encode(&self, v: &ImageSize) -> Option<String> {
        Some(if v.w == v.h { v.w.to_string() } else { format!("{}x{}", v.w, v.h) })
    }
}

impl Codec<f64> for Decimal {
    fn parse(&self, key: &str, v: &str) -> Result<f64, QueryError> {
        parse_f64(key, v, self.0, self.1)
    }
    fn encode(&self, v: &f64) -> Option<String> {
        Some(fmt_f64(*v))
    }
}

impl Codec<u64> for Count {
    fn parse(&self, key: &str, v: &str) -> Result<u64, QueryError> {
        let Count(lo, hi, of, examples) = *self;
        parse_count(v)
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| err(key, P::NotACount { value: v.into(), lo, hi, of, examples }))
    }
    fn encode(&self, v: &u64) -> Option<String> {
        Some(format_count(*v))
    }
}

impl Codec<bool> for Flag {
    fn parse(&self, key: &str, v: &str) -> Result<bool, QueryError> {
        parse_bool(key, v)
    }
    fn encode(&self, v: &bool) -> Option<String> {
        Some(u8::from(*v).to_string())
    }
    fn choices(&self) -> Option<String> {
        Some("0|1".into())
    }
}

impl<T: Choice> Codec<T> for Pick {
    fn parse(&self, key: &str, v: &str) -> Result<T, QueryError> {
        T::parse(v).ok_or_else(|| err(key, P::NotOneOf { value: v.into(), accepted: T::accepted() }))
    }
    fn encode(&self, v: &T) -> Option<String> {
        Some(T::as_str(*v).to_string())
    }
    fn choices(&self) -> Option<String> {
        Some(T::accepted())
    }
}

impl Codec<String> for Id {
    fn parse(&self, key: &str, v: &str) -> Result<String, QueryError> {
        parse_id(key, v)
    }
    fn encode(&self, v: &String) -> Option<String> {
        Some(v.clone())
    }
}

impl Codec<Option<String>> for Preset {
    fn parse(&self, key: &str, v: &str) -> Result<Option<String>, QueryError> {
        parse_id(key, v).map(Some)
    }
    fn encode(&self, v: &Option<String>) -> Option<String> {
        Some(v.clone().unwrap_or_else(|| "custom".into()))
    }
}

/// A value written as a comma list.
trait ListValue: Sized {
    fn parse(s: &str) -> Option<Self>;
    fn to_query_value(&self) -> String;
    /// What the list may hold, for the error message ("a comma list of <items>").
    fn items() -> String;
}

impl ListValue for Targets {
    fn parse(s: &str) -> Option<Self> {
        Targets::parse(s)
    }
    fn to_query_value(&self) -> String {
        Targets::to_query_value(*self)
    }
    fn items() -> String {
        "q,k,v,o,gate,up,down, all, embed, lm_head".into()
    }
}

impl ListValue for QuantSkip {
    fn parse(s: &str) -> Option<Self> {
        QuantSkip::parse(s)
    }
    fn to_query_value(&self) -> String {
        QuantSkip::to_query_value(self)
    }
    fn items() -> String {
        format!("N.part with part one of {}", QuantSkip::PARTS.join("|"))
    }
}

impl ListValue for Needs {
    fn parse(s: &str) -> Option<Self> {
        Needs::parse(s)
    }
    fn to_query_value(&self) -> String {
        Needs::to_query_value(*self)
    }
    fn items() -> String {
        Need::accepted()
    }
}

impl<T: ListValue> Codec<T> for List {
    fn parse(&self, key: &str, v: &str) -> Result<T, QueryError> {
        T::parse(v).ok_or_else(|| err(key, P::NotAList { value: v.into(), items: T::items() }))
    }
    fn encode(&self, v: &T) -> Option<String> {
        Some(v.to_query_value())
    }
}

impl Query {
    /// DeepSpeed holds the model in 16 bits with an fp32 master of what trains, whatever the
    /// load dtype, at any precision but fp32 (its engine casts every floating parameter;
    /// `master_weights_and_grads_dtype` is fp32 unless asked otherwise: memory/run.rs). The
    /// memory and time models both ask this.
    pub fn deepspeed_16bit_engine(&self) -> bool {
        self.shard.is_deepspeed() && self.precision != Precision::Fp32
    }

    /// The checkpoint save gathers a full state dict on every GPU: `state_dict=device` under
    /// FSDP with more than one rank to shard over (the memory model, the fixes and the exports
    /// all ask this).
    pub fn gathers_state_dict_on_device(&self) -> bool {
        self.state_dict == StateDictPlacement::Device
            && self.shard == ShardingStrategy::Fsdp
            && self.gpus / self.tp.saturating_mul(self.pp).max(1) > 1
    }

    /// Applies one `key=value` pair.
    pub fn set(&mut self, key: &str, v: &str) -> Result<(), QueryError> {
        if key == "v" && Format::parse(v).is_none() {
            let known = Format::ALL.iter().map(|f| format!("v={f}")).collect::<Vec<_>>().join(" and ");
            return Err(err(key, P::Version { value: v.into(), known }));
        }
        if self.set_registered(key, v)? {
            return Ok(());
        }
        let shown: String = key.chars().take(40).collect();
        Err(err(&shown, P::UnknownKey))
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
        let s = s.strip_prefix('?').unwrap_or(s);
        let format = Query::format_of(s);
        let mut q = Query::defaults(format);
        let mut errors = Vec::new();
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
                    if let Some(value) = e.problem.value_mut() {
                        *value = clip(value);
                    }
                    e.message = e.problem.to_string();
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
            errors.push(err("params", P::ParamsAndModel));
            q.model = None;
        }
        if !q.arch.is_empty() && !saw_model && q.params.is_none() {
            // Architecture fields alone describe a custom model.
            q.model = None;
        }
        // The version is decided once, before the keys (a bad or repeated `v` cannot leave
        // the state in one version and its defaults in another).
        q.format = format;
        (q, errors)
    }

    /// Decodes what a page address or a command line gives: nothing at all (no query, or an
    /// empty one) is a fresh start with the current defaults, anything else is read as
    /// `parse_lenient` reads it (in its own version, `v=1` when it names none).
    pub fn parse_given_lenient(s: &str) -> (Query, Vec<QueryError>) {
        if s.strip_prefix('?').unwrap_or(s).is_empty() {
            (Query::default(), Vec::new())
        } else {
            Query::parse_lenient(s)
        }
    }

    /// `parse_given_lenient`, strictly: any bad key is an error.
    pub fn parse_given(s: &str) -> Result<Query, QueryErrors> {
        match Query::parse_given_lenient(s) {
            (q, errors) if errors.is_empty() => Ok(q),
            (_, errors) => Err(QueryErrors(errors)),
        }
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

    /// The defaults of one format version: what every key a link of that version omits
    /// means. `Query::default()` is the current version's.
    pub fn defaults(format: Format) -> Query {
        let current = Query::default();
        match format {
            Format::V2 => current,
            // Pinned by tests/query_golden.rs: v=1 differs only here (and in the hf profile's
            // checkpointing, `framework::resolve`).
            Format::V1 => Query { format, precision: Precision::Bf16Mixed, ..current },
        }
    }

    /// The version a query string is read in: its `v` (the last one; a bad one is reported
    /// by `set` and the current version's defaults apply). Without a `v` it is v=1: every
    /// link written before v=2 carried `v=1`, and one typed by hand then meant v=1's defaults.
    /// Where there is no query at all (a bare page, the CLI without one), callers start from
    /// `Query::default()` instead.
    fn format_of(s: &str) -> Format {
        let vs: Vec<&str> = s
            .split('&')
            .filter_map(|p| p.split_once('='))
            .filter(|(k, _)| percent_decode(k) == "v")
            .map(|(_, v)| v)
            .collect();
        if vs.is_empty() {
            return Format::V1;
        }
        vs.iter().rev().find_map(|v| Format::parse(&percent_decode(v))).unwrap_or(FORMAT_VERSION)
    }

    /// Canonical query string: `v` first, then the keys in `KEYS` order that differ from
    /// their version's defaults.
    pub fn to_query_string(&self) -> String {
        let mut out: Vec<(&str, String)> = Vec::new();
        self.write_changed(&Query::defaults(self.format), &mut out);
        out.iter().map(|(k, v)| format!("{k}={}", percent_encode(v))).collect::<Vec<_>>().join("&")
    }
}

/// The first 40 characters of a long value, for error messages.
fn clip(v: &str) -> String {
    let head: String = v.chars().take(40).collect();
    format!("{head}… ({} bytes)", v.len())
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
        assert_eq!(Query::default().to_query_string(), "v=2");
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
