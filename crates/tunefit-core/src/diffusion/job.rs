//! A diffusion fine-tuning run as a link describes it: every key declared once in `KEYS`,
//! parsed into `Job` with a named error per bad value (the language models' `Problem`s).

use super::models::{self, DitModel, Kind, Role};
use crate::query::{percent_decode, Problem, QueryError, QueryErrors};

/// What is trained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Lora,
    Full,
}

/// Which linears of each block carry LoRA.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Targets {
    /// Attention projections only (`to_q,to_k,to_v,to_out.0` and the text stream's).
    Attn,
    /// Attention and feed-forward (`ff.*`): diffusers' default target list for Flux
    /// (train_dreambooth_lora_flux.py @58eb52c0 L1257-1270), which reaches a single-stream
    /// block only through its q, k and v.
    AttnMlp,
    /// Every linear of the blocks, adaLN modulation included (musubi-tuner's and
    /// sd-scripts' networks target all block linears); in a UNet every Linear and 1×1 conv of
    /// its transformers, `proj_in`/`proj_out` included, never the ResNets' convolutions.
    All,
}

impl Targets {
    pub fn on(self, r: Role) -> bool {
        match self {
            Targets::Attn => r == Role::Attn,
            Targets::AttnMlp => r == Role::Attn || r == Role::Mlp,
            Targets::All => r != Role::Other,
        }
    }
}

/// How the frozen transformer's linears are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    Bf16,
    /// fp8 e4m3 (sd-scripts/musubi `--fp8_base`, ai-toolkit `qfloat8`): one byte a weight.
    Fp8,
    /// int8 weight-only (quanto `qint8`, torchao): one byte a weight.
    Int8,
    /// bitsandbytes NF4 without double quantization: 4 bits plus an fp32 absmax per 64
    /// weights (bitsandbytes `quantize_4bit`, blocksize 64).
    Nf4,
}

impl Storage {
    pub fn bytes(self) -> f64 {
        match self {
            Storage::Bf16 => 2.0,
            Storage::Fp8 | Storage::Int8 => 1.0,
            Storage::Nf4 => 0.5 + 4.0 / 64.0,
        }
    }
    pub fn quantized(self) -> bool {
        self != Storage::Bf16
    }
}

/// The optimizer and the bytes of state it keeps per trained parameter of `param_bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Optim {
    /// torch AdamW: two moments in the parameter's dtype.
    Adamw,
    /// bitsandbytes AdamW8bit: two 8-bit moments (plus a block-wise scale, < 1 %).
    Adamw8bit,
    /// Adafactor with factored second moments and no first moment (sd-scripts' recipe):
    /// a row and a column vector per matrix, ≈ 0 per parameter.
    Adafactor,
    /// Prodigy: exp_avg, exp_avg_sq, s and the initial copy p0, in the parameter's dtype.
    Prodigy,
    /// Lion: one momentum in the parameter's dtype (optimi `Lion`, lion-pytorch).
    Lion,
}

impl Optim {
    pub fn state_bytes(self, param_bytes: f64) -> f64 {
        match self {
            Optim::Adamw => 2.0 * param_bytes,
            Optim::Adamw8bit => 2.0,
            Optim::Adafactor => 0.0,
            Optim::Prodigy => 4.0 * param_bytes,
            Optim::Lion => param_bytes,
        }
    }
}

/// Gradient checkpointing of the blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ckpt {
    /// Every block checkpointed: its inputs kept on the GPU until its backward rebuilds it.
    Full,
    /// Every block checkpointed and its inputs moved to host memory, brought back for its
    /// backward (diffusion-pipe's `activation_checkpointing = 'unsloth'`, SimpleTuner's
    /// activation offload).
    Offload,
    None,
}

/// Where the frozen text encoders are during training.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextEncoders {
    /// Their outputs computed once before training, the encoders unloaded (musubi-tuner,
    /// sd-scripts `--cache_text_encoder_outputs`, SimpleTuner, diffusion-pipe).
    Cached,
    /// Loaded on the GPU in bf16 and run every step (diffusers' scripts with per-image captions).
    Gpu,
    /// On the GPU and the CLIP encoders trained with the transformer, as the method says
    /// (LoRA on each layer's q, k, v and out projections at `rank`, or every weight):
    /// diffusers' `--train_text_encoder`. T5 and other encoders stay frozen beside them.
    Train,
}

/// How the GPUs of a multi-GPU run share the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shard {
    /// DistributedDataParallel: every GPU holds the whole run; the reducer's buckets hold a
    /// second copy of the gradients (accelerate's default for the diffusers scripts).
    Ddp,
    /// FSDP full sharding: the transformer's weights, gradients and optimizer states split
    /// over the GPUs, each block gathered in full while it runs.
    Fsdp,
}

/// Where the latents come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Latents {
    /// Encoded once before training, the VAE unloaded.
    Cached,
    /// The VAE on the GPU encodes each batch.
    Encode,
}

/// One diffusion fine-tuning run.
#[derive(Debug, Clone)]
pub struct Job {
    pub model: &'static DitModel,
    pub method: Method,
    pub rank: u64,
    pub targets: Targets,
    /// LoRA weights, their gradients and AdamW moments in fp32 (4) or bf16 (2) bytes.
    pub adapter_bytes: f64,
    pub weights: Storage,
    pub width: u64,
    pub height: u64,
    pub frames: u64,
    pub batch: u64,
    pub text_tokens: u64,
    pub ckpt: Ckpt,
    /// Checkpoint every Nth block of each kind, the first included (SimpleTuner's
    /// `--gradient_checkpointing_interval`); the others keep their saved sets. 1: every block.
    pub ckpt_every: u64,
    pub optim: Optim,
    pub text_encoders: TextEncoders,
    /// How the text encoders on the GPU are stored (ai-toolkit quantizes T5 to qfloat8).
    pub text_weights: Storage,
    pub latents: Latents,
    /// Blocks whose weights live in host memory and are copied in as the pass reaches them
    /// (musubi-tuner/sd-scripts `--blocks_to_swap`).
    pub swap: u64,
    /// Optimizer steps of the run (the time and cost); one micro-step each.
    pub steps: u64,
    /// An exponential moving average of the trained parameters kept on the GPU in their
    /// dtype (diffusers `EMAModel`'s shadow copies, `--use_ema`; ai-toolkit `use_ema`).
    pub ema: bool,
    /// DreamBooth's prior preservation: each batch carries as many class images as instance
    /// images (`--with_prior_preservation` concatenates them), so the forward runs twice the batch.
    pub prior: bool,
    pub gpu: Option<String>,
    /// GPUs of one instance training together (data parallel), and how they share the model.
    pub gpus: u64,
    pub shard: Shard,
    /// The aspect buckets a trainer sorts the images into (`res` lists them; one by default):
    /// `width` × `height` is the one with the most tokens, where the memory peaks.
    pub buckets: Vec<(u64, u64)>,
}

impl Job {
    /// Sets the buckets and the largest of them as the run's size.
    pub fn set_buckets(&mut self, b: Vec<(u64, u64)>) {
        self.buckets = b;
        let tokens = |&(w, h): &(u64, u64)| {
            let mut one = self.clone();
            (one.width, one.height) = (w, h);
            one.image_tokens()
        };
        // The first of the largest, so a link's order decides ties.
        let largest = self.buckets.iter().rev().max_by_key(|b| tokens(b)).copied();
        if let Some((w, h)) = largest {
            (self.width, self.height) = (w, h);
        }
    }
    /// This run at one bucket's size.
    pub fn at_bucket(&self, (w, h): (u64, u64)) -> Job {
        let mut one = self.clone();
        (one.width, one.height, one.buckets) = (w, h, vec![(w, h)]);
        one
    }
    /// Tokens of one sample's latent (image or video), before text.
    pub fn image_tokens(&self) -> u64 {
        let t = self.model.tokens;
        // The pipelines floor (`height // vae_scale_factor // patch_size`); at least one.
        let side = |px: u64| (px / t.spatial).max(1);
        let f = (self.frames.max(1) - 1).checked_div(t.temporal).map_or(1, |n| n + 1);
        let own = f * side(self.width) * side(self.height);
        if self.padded() {
            own.max(self.model.padded_tokens)
        } else {
            own
        }
    }
    /// The model pads this image's tokens (`DitModel::pads`).
    pub fn padded(&self) -> bool {
        self.model.pads(self.width, self.height)
    }
    /// The rows one sample's pass runs a linear on: its stream's tokens (a UNet level's pixels,
    /// one timestep vector), times the share routed to it (a MoE expert's).
    pub fn rows(&self, l: &models::Linear) -> f64 {
        use models::Tokens;
        let (n, t) = (self.image_tokens() as f64, self.text_tokens as f64);
        let rows = match l.on {
            Tokens::Image | Tokens::Level(_) => n * l.on.image_share(),
            Tokens::Text => t,
            Tokens::Joint => n + t,
            Tokens::Timestep => 1.0,
        };
        rows * l.share
    }
    /// Samples through the transformer each micro-step.
    pub fn samples(&self) -> u64 {
        if self.prior {
            2 * self.batch
        } else {
            self.batch
        }
    }
    /// Bytes of one block's weights as stored (linears in `weights`, the rest in bf16).
    pub fn block_bytes(&self, k: &models::BlockKind) -> f64 {
        k.linear_params() as f64 * self.weights.bytes() + (k.params - k.linear_params()) as f64 * 2.0
    }
    /// Blocks of `k`'s kind that are checkpointed: indices 0, N, 2N … of its loop (every one
    /// with `ckpt_every=1`; none without checkpointing).
    pub fn checkpointed(&self, count: u64) -> u64 {
        if self.ckpt == Ckpt::None {
            0
        } else {
            count.div_ceil(self.ckpt_every)
        }
    }

    /// The share of all blocks that are checkpointed (and run their forward again).
    pub fn checkpointed_share(&self) -> f64 {
        let all = self.model.block_count();
        let ck: u64 = self.model.blocks.iter().map(|k| self.checkpointed(k.count)).sum();
        if all == 0 {
            0.0
        } else {
            ck as f64 / all as f64
        }
    }

    /// Bytes of the swapped blocks' weights: the last `swap` blocks of the stack, as
    /// musubi-tuner's and sd-scripts' offloaders swap from the end (the memory and the time
    /// both read this one choice).
    pub fn swapped_bytes(&self) -> f64 {
        let mut left = self.swap;
        let mut bytes = 0.0;
        for k in self.model.blocks.iter().rev() {
            let n = left.min(k.count);
            left -= n;
            bytes += n as f64 * self.block_bytes(k);
        }
        bytes
    }
    /// Tokens in one block's attention sequence: the text joins it in an MMDiT.
    pub fn seq_tokens(&self) -> u64 {
        match self.model.text {
            models::TextPath::Joint => self.image_tokens() + self.text_tokens,
            models::TextPath::Cross | models::TextPath::LinearCross { .. } => self.image_tokens(),
        }
    }
}

impl Job {
    /// The value of `key` as a link spells it (the page's fields show it).
    pub fn value(&self, key: &str) -> String {
        match key {
            "model" => self.model.id.into(),
            "method" => spell(METHODS, &self.method),
            "rank" => self.rank.to_string(),
            "targets" => spell(TARGETS, &self.targets),
            "adapter_dtype" => spell(ADAPTER_DTYPES, &self.adapter_bytes),
            "weights" => spell(STORAGES, &self.weights),
            "text_weights" => spell(STORAGES, &self.text_weights),
            "res" => self.buckets.iter().map(|(w, h)| format!("{w}x{h}")).collect::<Vec<_>>().join(","),
            "frames" => self.frames.to_string(),
            "batch" => self.batch.to_string(),
            "text_tokens" => self.text_tokens.to_string(),
            "ckpt" => spell(CKPTS, &self.ckpt),
            "ckpt_every" => self.ckpt_every.to_string(),
            "optim" => spell(OPTIMS, &self.optim),
            "text_enc" => spell(ENCODERS, &self.text_encoders),
            "latents" => spell(LATENTS, &self.latents),
            "swap" => self.swap.to_string(),
            "steps" => self.steps.to_string(),
            "ema" => spell(FLAGS, &self.ema),
            "prior" => spell(FLAGS, &self.prior),
            "gpus" => self.gpus.to_string(),
            "shard" => spell(SHARDS, &self.shard),
            "gpu" => self.gpu.clone().unwrap_or_default(),
            _ => String::new(),
        }
    }
}

/// A run of the preset `id` with every key at its default (the page's fields before a value).
pub fn default_job(id: &str) -> Option<Job> {
    models::model(id).map(defaults)
}

/// Every key a diffusion link takes, with what it accepts (the CLI's help and the errors).
pub const KEYS: &[(&str, &str)] = &[
    ("model", "a diffusion preset id"),
    ("v", "1 or 2 (the language models' format version; nothing changes here)"),
    ("method", "lora or full"),
    ("rank", "LoRA rank, 1 to 1024"),
    ("targets", "attn, attn+mlp or all"),
    ("adapter_dtype", "fp32 or bf16"),
    ("weights", "bf16, fp8, int8 or nf4"),
    ("res", "W or WxH in pixels, 64 to 8192; aspect buckets comma-separated (the memory at the largest)"),
    ("frames", "1 to 1024 (video models)"),
    ("batch", "1 to 256"),
    ("text_tokens", "0 to 4096"),
    ("ckpt", "full, offload or none"),
    ("ckpt_every", "checkpoint every Nth block of each kind, 1 to 64 (the others keep their saved tensors)"),
    ("optim", "adamw, adamw-8bit, adafactor, prodigy or lion"),
    ("text_enc", "cached, gpu or train (the CLIP encoders trained as the method says)"),
    ("text_weights", "bf16, fp8, int8 or nf4 (text encoders on the GPU)"),
    ("latents", "cached or encode"),
    ("swap", "blocks swapped to host memory, 0 to the model's blocks"),
    ("steps", "training steps, 1 to 10^7 (the time and cost)"),
    ("ema", "0 or 1: an EMA copy of the trained parameters on the GPU"),
    ("prior", "0 or 1: DreamBooth prior preservation (class images double each batch)"),
    ("gpus", "GPUs of one instance, 1 to 8, each with `batch` samples"),
    ("shard", "ddp or fsdp (with gpus > 1)"),
    ("gpu", "a GPU id"),
];

/// Is this link about a diffusion model (its `model` is one of the presets)?
pub fn is_diffusion(query: &str) -> bool {
    pairs(query).any(|(k, v)| k == "model" && models::IDS.contains(&v.as_str()))
}

/// The link's keys and values, decoded, in order.
pub fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()).map(|p| {
        let (k, v) = p.split_once('=').unwrap_or((p, ""));
        (percent_decode(k), percent_decode(v))
    })
}

// Each value's spelling, declared once: `apply` reads a link through these tables and
// `Job::value` writes the run back through them (the first spelling of a value is its own).
const METHODS: &[(&str, Method)] = &[("lora", Method::Lora), ("full", Method::Full)];
// '+' in a link is a space once decoded: "attn mlp" reads as "attn+mlp".
const TARGETS: &[(&str, Targets)] =
    &[("attn", Targets::Attn), ("attn+mlp", Targets::AttnMlp), ("attn mlp", Targets::AttnMlp), ("all", Targets::All)];
const ADAPTER_DTYPES: &[(&str, f64)] = &[("fp32", 4.0), ("bf16", 2.0)];
const STORAGES: &[(&str, Storage)] =
    &[("bf16", Storage::Bf16), ("fp8", Storage::Fp8), ("int8", Storage::Int8), ("nf4", Storage::Nf4)];
const CKPTS: &[(&str, Ckpt)] = &[("full", Ckpt::Full), ("offload", Ckpt::Offload), ("none", Ckpt::None)];
const OPTIMS: &[(&str, Optim)] = &[
    ("adamw", Optim::Adamw),
    ("adamw-8bit", Optim::Adamw8bit),
    ("adafactor", Optim::Adafactor),
    ("prodigy", Optim::Prodigy),
    ("lion", Optim::Lion),
];
const ENCODERS: &[(&str, TextEncoders)] =
    &[("cached", TextEncoders::Cached), ("gpu", TextEncoders::Gpu), ("train", TextEncoders::Train)];
const LATENTS: &[(&str, Latents)] = &[("cached", Latents::Cached), ("encode", Latents::Encode)];
const FLAGS: &[(&str, bool)] = &[("0", false), ("1", true)];
const SHARDS: &[(&str, Shard)] = &[("ddp", Shard::Ddp), ("fsdp", Shard::Fsdp)];

/// The spelling of `x` in `table`.
fn spell<T: PartialEq>(table: &[(&'static str, T)], x: &T) -> String {
    table.iter().find(|(_, t)| t == x).map_or("", |(n, _)| n).to_string()
}

fn one_of<T: Copy>(key: &str, v: &str, table: &[(&str, T)]) -> Result<T, QueryError> {
    table.iter().find(|(n, _)| *n == v).map(|(_, t)| *t).ok_or_else(|| {
        QueryError::new(
            key,
            Problem::NotOneOf {
                value: v.into(),
                accepted: table.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "),
            },
        )
    })
}

/// A whole number from `lo` to `hi`, read and refused as the language models' keys are
/// (`query::parse_u32`).
fn whole(key: &str, v: &str, lo: u32, hi: u32) -> Result<u64, QueryError> {
    crate::query::parse_u32(key, v, (lo, hi)).map(u64::from)
}

/// `1024` or `1024x768` (width × height); a side may be written `2k` (2048 px, as a "2K"
/// image is).
fn resolution(v: &str) -> Result<(u64, u64), QueryError> {
    let side = |s: &str| match s.trim().strip_suffix(['k', 'K']) {
        Some(n) => whole("res", n, 1, 8).map(|n| n * 1024),
        None => whole("res", s, 64, 8192),
    };
    let (w, h) = v.split_once(['x', 'X', '*']).unwrap_or((v, v));
    Ok((side(w)?, side(h)?))
}

/// Aspect buckets, comma-separated (`1024x1024,832x1216,1216x832`): at most 64, each a
/// `resolution`.
fn buckets(v: &str) -> Result<Vec<(u64, u64)>, QueryError> {
    let all = v.split(',').map(resolution).collect::<Result<Vec<_>, _>>()?;
    if all.len() > 64 {
        return Err(QueryError::new(
            "res",
            Problem::OutOfRange { value: format!("{} buckets", all.len()), lo: "1".into(), hi: "64".into() },
        ));
    }
    Ok(all)
}

/// Parses a diffusion link; every bad key is reported, none is silently defaulted.
pub fn parse(query: &str) -> Result<Job, QueryErrors> {
    let mut errors = Vec::new();
    let mut model = None;
    for (k, v) in pairs(query) {
        if k == "model" {
            match models::model(&v) {
                Some(m) => model = Some(m),
                None => errors.push(QueryError::new("model", Problem::NotOneOf { value: v.clone(), accepted: ids() })),
            }
        }
    }
    let Some(m) = model else {
        if errors.is_empty() {
            errors.push(QueryError::new("model", Problem::NotOneOf { value: String::new(), accepted: ids() }));
        }
        return Err(QueryErrors(errors));
    };
    let mut j = defaults(m);
    for (k, v) in pairs(query) {
        if let Err(e) = apply(&mut j, &k, &v) {
            errors.push(e);
        }
    }
    errors.extend(consistency(&j));
    if errors.is_empty() {
        Ok(j)
    } else {
        Err(QueryErrors(errors))
    }
}

/// A run of `m` with every key at its default.
fn defaults(m: &'static DitModel) -> Job {
    Job {
        model: m,
        method: Method::Lora,
        rank: 16,
        targets: Targets::AttnMlp,
        adapter_bytes: 4.0,
        weights: Storage::Bf16,
        width: m.default_res.0,
        height: m.default_res.1,
        buckets: vec![m.default_res],
        frames: m.default_frames,
        batch: 1,
        text_tokens: m.text_tokens,
        ckpt: Ckpt::Full,
        ckpt_every: 1,
        optim: Optim::Adamw,
        text_encoders: TextEncoders::Cached,
        text_weights: Storage::Bf16,
        latents: Latents::Cached,
        swap: 0,
        steps: 1000,
        ema: false,
        prior: false,
        gpus: 1,
        shard: Shard::Ddp,
        gpu: None,
    }
}

/// Sets one key of `j` from the link's value.
fn apply(j: &mut Job, k: &str, v: &str) -> Result<(), QueryError> {
    let m = j.model;
    match k {
        "model" => {}
        // The language models' format version: a diffusion link's keys have one meaning.
        "v" => {
            one_of(k, v, &[("1", ()), ("2", ())])?;
        }
        "method" => j.method = one_of(k, v, METHODS)?,
        "rank" => j.rank = whole(k, v, 1, 1024)?,
        "targets" => j.targets = one_of(k, v, TARGETS)?,
        "adapter_dtype" => j.adapter_bytes = one_of(k, v, ADAPTER_DTYPES)?,
        "weights" => j.weights = one_of(k, v, STORAGES)?,
        "res" => j.set_buckets(buckets(v)?),
        "frames" => j.frames = whole(k, v, 1, 1024)?,
        "batch" => j.batch = whole(k, v, 1, 256)?,
        "text_tokens" => j.text_tokens = whole(k, v, 0, 4096)?,
        "ckpt" => j.ckpt = one_of(k, v, CKPTS)?,
        "ckpt_every" => j.ckpt_every = whole(k, v, 1, 64)?,
        "optim" => j.optim = one_of(k, v, OPTIMS)?,
        "text_enc" => j.text_encoders = one_of(k, v, ENCODERS)?,
        "text_weights" => j.text_weights = one_of(k, v, STORAGES)?,
        "latents" => j.latents = one_of(k, v, LATENTS)?,
        "swap" => j.swap = whole(k, v, 0, m.block_count() as u32)?,
        "steps" => j.steps = whole(k, v, 1, 10_000_000)?,
        "ema" => j.ema = one_of(k, v, FLAGS)?,
        "prior" => j.prior = one_of(k, v, FLAGS)?,
        "gpus" => j.gpus = whole(k, v, 1, 8)?,
        "shard" => j.shard = one_of(k, v, SHARDS)?,
        "gpu" => {
            if crate::dataset::gpu(v).is_none() {
                return Err(QueryError::new(
                    "gpu",
                    Problem::NotOneOf { value: v.to_string(), accepted: crate::dataset::gpu_ids() },
                ));
            }
            j.gpu = Some(v.to_string());
        }
        _ => return Err(QueryError::new(k, Problem::UnknownKey)),
    }
    Ok(())
}

/// The link's run as far as it reads: the model's defaults with every key that parses
/// applied (the page shows the fields of this run while it names the keys that do not).
pub fn lenient(query: &str) -> Option<Job> {
    let id = pairs(query).filter(|(k, _)| k == "model").last()?.1;
    let mut j = defaults(models::model(&id)?);
    for (k, v) in pairs(query) {
        let mut trial = j.clone();
        if apply(&mut trial, &k, &v).is_ok() {
            j = trial;
        }
    }
    Some(j)
}

fn ids() -> String {
    models::MODELS.iter().map(|m| m.id).collect::<Vec<_>>().join(", ")
}

/// Combinations no trainer runs, each named by the key to change.
fn consistency(j: &Job) -> Vec<QueryError> {
    let mut e = Vec::new();
    let m = j.model;
    if j.method == Method::Full && j.weights != Storage::Bf16 {
        e.push(QueryError::new(
            "weights",
            Problem::NotOneOf { value: "a quantized base with method=full".into(), accepted: "bf16".into() },
        ));
    }
    if j.text_encoders == TextEncoders::Train && !m.text_encoders.iter().any(|c| c.tower.is_some()) {
        e.push(QueryError::new(
            "text_enc",
            Problem::NotOneOf {
                value: format!("train (no trainer of {} trains its text encoders)", m.id),
                accepted: if m.text_encoders.is_empty() { "cached" } else { "cached or gpu" }.into(),
            },
        ));
    }
    if j.text_encoders == TextEncoders::Gpu && m.text_encoders.is_empty() {
        e.push(QueryError::new(
            "text_enc",
            Problem::NotOneOf {
                value: format!("gpu (no cited size of {}'s text encoder)", m.id),
                accepted: "cached".into(),
            },
        ));
    }
    if j.latents == Latents::Encode && m.vae.is_none() {
        e.push(QueryError::new(
            "latents",
            Problem::NotOneOf { value: format!("encode (no cited size of {}'s VAE)", m.id), accepted: "cached".into() },
        ));
    }
    if j.shard == Shard::Fsdp && j.gpus > 1 && j.swap > 0 {
        // Swapping moves whole blocks to the host; FSDP holds a shard of each.
        e.push(QueryError::new(
            "swap",
            Problem::OutOfRange { value: format!("{} with shard=fsdp", j.swap), lo: "0".into(), hi: "0".into() },
        ));
    }
    if j.ckpt_every > 1 && (j.ckpt == Ckpt::None || m.between.is_some()) {
        // Without checkpointing there is nothing to space out; SimpleTuner's interval is in
        // its transformers' loops, not in diffusers' UNet.
        let why = if j.ckpt == Ckpt::None { "with ckpt=none" } else { "on a UNet" };
        e.push(QueryError::new(
            "ckpt_every",
            Problem::OutOfRange { value: format!("{} {why}", j.ckpt_every), lo: "1".into(), hi: "1".into() },
        ));
    }
    if m.between.is_some() && j.swap > 0 {
        // sd-scripts and musubi-tuner swap the blocks of the transformers only; a UNet's blocks
        // differ in size and feed each other across the skip connections.
        e.push(QueryError::new(
            "swap",
            Problem::OutOfRange { value: j.swap.to_string(), lo: "0".into(), hi: "0".into() },
        ));
    }
    if m.padded_tokens > 0 {
        // Each bucket: diffusers' HiDream writes a non-square latent's tokens into a buffer of
        // `max_seq` (4,096) and fails on more.
        let side = |px: u64| px / m.tokens.spatial;
        if let Some(&(w, h)) = j.buckets.iter().find(|&&(w, h)| m.pads(w, h) && side(w) * side(h) > m.padded_tokens) {
            e.push(QueryError::new(
                "res",
                Problem::OutOfRange {
                    value: format!(
                        "{w}x{h}: {} tokens, not square ({} pads a non-square image to {} tokens and fails beyond)",
                        side(w) * side(h),
                        m.name,
                        m.padded_tokens
                    ),
                    lo: "1".into(),
                    hi: format!("{} tokens", m.padded_tokens),
                },
            ));
        }
    }
    if m.kind == Kind::Image && j.frames != 1 {
        e.push(QueryError::new(
            "frames",
            Problem::OutOfRange { value: j.frames.to_string(), lo: "1".into(), hi: "1".into() },
        ));
    }
    e
}
