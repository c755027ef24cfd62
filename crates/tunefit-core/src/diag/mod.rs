//! What goes wrong or needs a person's attention: `Error` (a query that cannot be evaluated)
//! and `Warning` (a caution beside a result). The bottom of the core: every module may use
//! these, and this folder uses nothing of the core but the query's types and the JSON
//! reader's errors.

use crate::query::{Currency, Framework, Method, Precision, Quant, TowerTraining};
use serde::Serialize;
use std::fmt;

/// Why a query could not be evaluated.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The query string itself is malformed.
    Query(crate::query::QueryErrors),
    /// The query is well-formed but describes something impossible (named key, reason).
    Invalid { key: String, message: String },
    /// A layout or setting no framework can run, with its figures (rendered per language).
    Refused(Refusal),
}

/// A configuration `memory::estimate` refuses (memory/checks.rs), with the figures that make
/// it impossible; the key to change is `key()`.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    TpDividesGpus {
        tp: u32,
        gpus: u32,
    },
    Mxfp4Trains,
    OptimInBwdAccumulates {
        ga: u32,
    },
    ModelParallelDividesGpus {
        degree: u64,
        gpus: u32,
    },
    StagesOverLayers {
        pp: u32,
        layers: u64,
    },
    CpDividesSeq {
        cp: u32,
        seq: u32,
    },
    NodesOverGpus {
        nodes: u32,
        gpus: u32,
    },
    TpDividesHeads {
        tp: u32,
        heads: u64,
    },
    SeqOverPositions {
        seq: u32,
        positions: u64,
    },
    /// Images, or a trained tower, for a model without a vision tower this calculator runs
    /// (`vision` false: a text model; true: a tower whose blocks are not described).
    NoVisionTower {
        vision: bool,
    },
    /// An image encoder's image smaller than one patch: its convolution cuts nothing.
    ImageUnderPatch {
        side: u64,
        patch: u64,
    },
    /// Context parallelism on an image encoder: no trainer splits an image's tokens over GPUs.
    ImageEncoderContextParallel {
        cp: u32,
        tokens: u32,
    },
    /// A method an image encoder has no recipe for (prefix, prompt, bottleneck adapters).
    ImageEncoderMethod {
        method: crate::query::Method,
    },
    /// What no Whisper trainer runs, by its key and value: prefix, prompt or bottleneck
    /// adapters (`method`), a framework other than transformers' Seq2SeqTrainer and Unsloth
    /// (`framework`), tensor, pipeline or context parallelism (`tp`, `pp`, `cp`).
    SpeechRecipe {
        key: &'static str,
        value: String,
    },
    /// A trained tower with no images to train on, or under freeze tuning (whose backward
    /// through the frozen blocks to the visual tokens is not modelled).
    TowerTrainsWithout {
        images: u32,
    },
    /// Images under tensor, pipeline or context parallelism: where the tower runs is not modelled.
    ImagesModelParallel {
        tp: u32,
        pp: u32,
        cp: u32,
    },
    /// The images' visual tokens do not fit in the sequence that holds them.
    VisualTokensOverSeq {
        images: u32,
        per_image: u64,
        seq: u32,
    },
    TrainLayersOverLayers {
        train_layers: u32,
        layers: u64,
    },
    /// Freeze tuning of no block on a model with no head that trains beside them (a language
    /// model, a backbone): nothing would train.
    FreezeTrainsNothing,
    /// What SAM's recipes do not run, by key and value: prefix, prompt or bottleneck adapters;
    /// an image other than its 1024² (`SamPatchEmbeddings` refuses any other); flash
    /// attention (`SamPreTrainedModel` has no flash path); tensor or pipeline parallelism.
    SamRecipe {
        key: &'static str,
        value: String,
    },
    BottleneckOverHidden {
        bottleneck: u32,
        hidden: u64,
    },
    RankOverHidden {
        rank: u32,
        hidden: u64,
    },
    NoTargetExists,
    BeyondAddressable,
    ArchZero,
    KvHeadsDivideHeads {
        kv_heads: u64,
        heads: u64,
    },
    ExpertsPerToken {
        experts: u64,
    },
    TooManyParams {
        params: f64,
    },
    /// Dense blocks beyond the model's blocks, or without a width.
    DenseLayers {
        dense_layers: u64,
        dense_ffn: u64,
        layers: u64,
    },
    /// Latent attention whose rotary part, value width or heads do not fit.
    LatentAttention {
        head_dim: u64,
    },
    /// An id the catalog or the dataset does not have, with the ids it has.
    UnknownModel {
        id: String,
        accepted: String,
    },
    UnknownProvider {
        id: String,
        accepted: String,
    },
    UnknownGpu {
        id: String,
        accepted: String,
    },
}

impl Refusal {
    /// The key a person changes.
    pub fn key(&self) -> &'static str {
        use Refusal as R;
        match self {
            R::TpDividesGpus { .. } | R::TpDividesHeads { .. } => "tp",
            R::Mxfp4Trains => "expert_format",
            R::OptimInBwdAccumulates { .. } => "optim_in_bwd",
            R::ModelParallelDividesGpus { .. } | R::StagesOverLayers { .. } => "pp",
            R::CpDividesSeq { .. } => "cp",
            R::NodesOverGpus { .. } => "nodes",
            R::SeqOverPositions { .. } | R::BeyondAddressable => "seq",
            R::TrainLayersOverLayers { .. } | R::FreezeTrainsNothing => "train_layers",
            R::SamRecipe { key, .. } => key,
            R::NoVisionTower { .. } | R::ImagesModelParallel { .. } => "images",
            R::ImageUnderPatch { .. } => "image_res",
            R::ImageEncoderMethod { .. } => "method",
            R::SpeechRecipe { key, .. } => key,
            R::ImageEncoderContextParallel { .. } => "cp",
            R::TowerTrainsWithout { .. } => "tower",
            R::VisualTokensOverSeq { .. } => "seq",
            R::BottleneckOverHidden { .. } => "bottleneck",
            R::RankOverHidden { .. } => "rank",
            R::NoTargetExists => "targets",
            R::ArchZero | R::TooManyParams { .. } => "hidden",
            R::KvHeadsDivideHeads { .. } => "kv_heads",
            R::ExpertsPerToken { .. } => "experts_per_token",
            R::DenseLayers { .. } => "dense_layers",
            R::LatentAttention { .. } => "kv_rank",
            R::UnknownModel { .. } => "model",
            R::UnknownProvider { .. } => "provider",
            R::UnknownGpu { .. } => "gpu",
        }
    }
}

impl Error {
    /// A well-formed query that describes something impossible: the key to change and why.
    pub fn invalid(key: &str, message: impl Into<String>) -> Error {
        Error::Invalid { key: key.into(), message: message.into() }
    }

    /// The key to change, where one is named.
    pub fn key(&self) -> Option<&str> {
        match self {
            Error::Query(e) => e.0.first().map(|e| e.key.as_str()),
            Error::Invalid { key, .. } => Some(key),
            Error::Refused(r) => Some(r.key()),
        }
    }

    /// The error in `lang`: a refusal and the link's bad values are said in it; the other
    /// reasons are English (their `Display`).
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang.built()) {
            (Error::Refused(r), Lang::Ru) => format!("{}: {}", r.key(), text::refusal_ru(r)),
            (Error::Query(e), Lang::Ru) => {
                e.0.iter().map(|e| format!("{}: {}", e.key, query_problem(e, lang))).collect::<Vec<_>>().join("; ")
            }
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Query(e) => write!(f, "{e}"),
            Error::Invalid { key, message } => write!(f, "{key}: {message}"),
            Error::Refused(r) => write!(f, "{}: {}", r.key(), text::refusal_en(r)),
        }
    }
}

/// `{"Query": [...]}` or `{"Invalid": {"key", "message"}}`: a refusal is written as the
/// `Invalid` it replaced, so the JSON keeps its shape.
impl Serialize for Error {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        enum Json<'a> {
            Query(&'a crate::query::QueryErrors),
            Invalid { key: &'a str, message: String },
        }
        match self {
            Error::Query(e) => Json::Query(e).serialize(s),
            Error::Invalid { key, message } => Json::Invalid { key, message: message.clone() }.serialize(s),
            Error::Refused(r) => Json::Invalid { key: r.key(), message: text::refusal_en(r) }.serialize(s),
        }
    }
}

impl std::error::Error for Error {}

impl From<crate::query::QueryErrors> for Error {
    fn from(e: crate::query::QueryErrors) -> Self {
        Error::Query(e)
    }
}

// Without `ru`, `Lang::built` is the constant English, so the Russian half is never called
// (and not linked).
mod text;

/// The language a diagnostic is rendered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Ru,
}

/// A query key's problem in `lang` (the English is the error's own message).
pub fn query_problem(e: &crate::query::QueryError, lang: Lang) -> String {
    match lang.built() {
        Lang::En => e.message.clone(),
        Lang::Ru => text::query_problem_ru(&e.problem),
    }
}

/// A JSON text's syntax error in `lang`: what is wrong and where (the English is its own
/// `Display`, serde_json's words).
pub fn json_error(e: &crate::json::JsonError, lang: Lang) -> String {
    match lang.built() {
        Lang::En => e.to_string(),
        Lang::Ru => format!("{} (строка {}, столбец {})", text::json_problem_ru(e.problem), e.line, e.column),
    }
}

impl Lang {
    /// The language of a page's `lang` code: "ru" is Russian, anything else English.
    pub fn from_code(code: &str) -> Lang {
        if code == "ru" {
            Lang::Ru
        } else {
            Lang::En
        }
    }

    /// The language this build renders `self` in: itself with the `ru` feature, English
    /// without it (the page's first load), as a constant there, so that no Russian text is
    /// linked into that build.
    /// The page's Russian build (`ru-only`) renders everything in Russian: it reloads into the
    /// English build when English is chosen, so no English sentence is linked into it.
    pub fn built(self) -> Lang {
        if cfg!(feature = "ru-only") {
            Lang::Ru
        } else if cfg!(feature = "ru") {
            self
        } else {
            Lang::En
        }
    }
}

/// The Russian form of a noun after the count `n`: `one` after 1, 21, 31, ... (1 час),
/// `few` after 2–4, 22–24, ... (2 часа), `many` after 0, 5–20, 25–30, ... (5 часов); 11–14
/// take `many`. The one plural rule of the core, the page and the lazy module.
pub fn plural_ru<'a>(n: u64, one: &'a str, few: &'a str, many: &'a str) -> &'a str {
    match (n % 10, n % 100) {
        (_, 11..=14) => many,
        (1, _) => one,
        (2..=4, _) => few,
        _ => many,
    }
}

/// A caution beside a result, with its figures as fields (ruff's violations are the model):
/// the English and Russian sentences are rendered from them (text.rs), never parsed back.
/// `code` is stable, for tests, links to docs and the page's `data-code`.
#[derive(Debug, Clone, PartialEq)]
pub enum Warning {
    /// The framework has no recipe for the method; a PEFT-style one is assumed.
    FrameworkMethod { framework: Framework, method: Method },
    /// Unsloth's open-source release trains on one GPU.
    FrameworkMultiGpu,
    /// The framework loads the model in 16 bits where the precision counts fp32 weights:
    /// Unsloth always, axolotl under `*-mixed`, LLaMA-Factory's frozen base under `*-mixed`.
    FrameworkPrecision { framework: Framework, precision: Precision },
    /// bitsandbytes' 4-bit weights cannot be offloaded by DeepSpeed ZeRO-3.
    QloraZero3Offload,
    /// axolotl keeps the token table, the head and the norms in fp32 for a full or freeze
    /// fine-tune with SDPA or eager attention outside FSDP and DeepSpeed; the estimate counts
    /// them in 16 bits.
    AxolotlFp32Modules,
    /// torchtune's QLoRA quantizes to NF4 only.
    FrameworkQuant { quant: Quant },
    /// The framework trains language models; an image encoder is priced with its profile's
    /// kernels and defaults all the same.
    FrameworkImageEncoder { framework: Framework },
    /// Paged optimizer states live in CUDA managed memory, outside torch's counters.
    PagedOptimizer,
    /// Sharding over one data-parallel rank.
    ShardOneGpu,
    /// Optimizer offload without ZeRO or FSDP.
    OffloadNeedsSharding,
    /// Parameter offload without ZeRO-3 or FSDP.
    OffloadNeedsZero3,
    /// The architecture was guessed from a parameter count.
    InferredArchitecture { layers: u64, hidden: u64, ffn: u64, vocab: u64 },
    /// A multimodal checkpoint loads a frozen vision tower (its linears 4-bit under QLoRA where
    /// the framework converts them); no images in the samples.
    FrozenVisionTower { params: u64, quantized: bool },
    /// What the images of each sample cost: the tower's patches and the visual tokens inside
    /// `seq` (`side` as the tower sees the image), and how the tower trains and is stored.
    VisionImages { images: u32, w: u64, h: u64, patches: u64, tokens: u64, training: TowerTraining, quantized: bool },
    /// The cheapest offer shards a full fine-tune over PCIe-connected GPUs.
    PcieShardedCheapest { gpus: u32, gpu: String },
    /// Some of the cheapest offers shard a full fine-tune over PCIe-connected GPUs.
    PcieShardedSome,
    /// The cheapest offer needs several consumer cards.
    ConsumerMultiGpu { gpus: u32 },
    /// Per-hour billing on a short run.
    HourlyBilling { provider: String, hours: f64, billed_hours: f64, idle_percent: f64, runs: u32 },
    /// The provider's billing rule is not verified; hourly rounding is assumed.
    BillingAssumed { provider: String },
    /// The cheapest price is low confidence in the dataset.
    LowConfidencePrice { offer: String, snapshot: String },
    /// The GPU has no BF16; the time assumes fp16 mixed precision.
    NoBf16 { gpu: String },
    /// Billing rounding, idle time, storage or egress make another offer the cheapest than
    /// price × time alone would.
    /// The figures are in `currency` (the query's display currency; the field names predate it).
    ExtrasChangeWinner {
        by_price: OfferName,
        by_price_usd: f64,
        winner: OfferName,
        winner_usd: f64,
        currency: Currency,
    },
    /// A person's price matches no offer of the dataset.
    PriceOverrideUnmatched { gpus: u32, gpu: String, provider: String },
    /// Recommendation: nothing fits as it is.
    RecNoneFits,
    /// Recommendation: the cheapest offer.
    RecCheapest {
        gpus: u32,
        gpu: String,
        provider: String,
        pricing: String,
        usd_total: f64,
        usd_per_run: f64,
        hours: f64,
        /// The currency of both figures (the query's display currency).
        currency: Currency,
    },
    /// Recommendation: the fastest offer, when it is not the cheapest.
    RecFastest { gpus: u32, gpu: String, provider: String, hours: f64, usd_total: f64, currency: Currency },
    /// Recommendation: one GPU is best for adapters.
    RecSingleGpu,
    /// Recommendation: a single large GPU also fits this adapter job.
    RecSingleGpuFits,
    /// Recommendation: an older card with plenty of memory is the best value.
    RecOlderCard { gpu: String, year: u32 },
    /// Recommendation: full fine-tuning of large models needs NVLink.
    RecNvlink,
    /// Recommendation: spot pays off at this checkpoint interval.
    RecSpotPays { interval_min: f64 },
    /// Recommendation: spot does not pay off at this checkpoint interval.
    RecSpotNo { interval_min: f64 },
}

/// An offer as a sentence names it: GPUs × the GPU's name at a provider, with its pricing
/// (`on-demand` or `spot`); each language writes the words around the figures.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferName {
    pub gpus: u32,
    pub gpu: String,
    pub provider: String,
    pub pricing: String,
}

impl Warning {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Warning::FrameworkMethod { .. } => "framework-method",
            Warning::FrameworkMultiGpu => "framework-multi-gpu",
            Warning::FrameworkPrecision { .. } => "framework-precision",
            Warning::QloraZero3Offload => "qlora-zero3-offload",
            Warning::AxolotlFp32Modules => "axolotl-fp32-modules",
            Warning::FrameworkQuant { .. } => "framework-quant",
            Warning::FrameworkImageEncoder { .. } => "framework-image-encoder",
            Warning::PagedOptimizer => "paged-optimizer",
            Warning::ShardOneGpu => "shard-one-gpu",
            Warning::OffloadNeedsSharding => "offload-needs-sharding",
            Warning::OffloadNeedsZero3 => "offload-needs-zero3",
            Warning::InferredArchitecture { .. } => "inferred-architecture",
            Warning::FrozenVisionTower { .. } => "frozen-vision-tower",
            Warning::VisionImages { .. } => "vision-images",
            Warning::PcieShardedCheapest { .. } | Warning::PcieShardedSome => "pcie_sharded",
            Warning::ConsumerMultiGpu { .. } => "consumer_multi_gpu",
            Warning::HourlyBilling { .. } => "hourly_billing",
            Warning::BillingAssumed { .. } => "billing_assumed",
            Warning::LowConfidencePrice { .. } => "low_confidence_price",
            Warning::NoBf16 { .. } => "no_bf16",
            Warning::PriceOverrideUnmatched { .. } => "price_override_unmatched",
            Warning::ExtrasChangeWinner { .. } => "extras_change_winner",
            Warning::RecNoneFits => "rec-none-fits",
            Warning::RecCheapest { .. } => "rec-cheapest",
            Warning::RecFastest { .. } => "rec-fastest",
            Warning::RecSingleGpu => "rec-single-gpu",
            Warning::RecSingleGpuFits => "rec-single-gpu-fits",
            Warning::RecOlderCard { .. } => "rec-older-card",
            Warning::RecNvlink => "rec-nvlink",
            Warning::RecSpotPays { .. } => "rec-spot-pays",
            Warning::RecSpotNo { .. } => "rec-spot-no",
        }
    }

    /// The sentence in English (the CLI's and the JSON's `message`).
    pub fn message(&self) -> String {
        self.text(Lang::En)
    }

    /// The sentence in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match lang.built() {
            Lang::En => text::english(self),
            Lang::Ru => text::russian(self),
        }
    }
}

/// `{"code": ..., "message": ...}`: the CLI's JSON contract.
impl Serialize for Warning {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Warning", 2)?;
        st.serialize_field("code", self.code())?;
        st.serialize_field("message", &self.message())?;
        st.end()
    }
}
