//! Hugging Face `config.json` → `Architecture`.
//!
//! Reads the fields transformers' own config classes define (LlamaConfig, MistralConfig,
//! MixtralConfig, Qwen2Config, GemmaConfig, Gemma2Config, Phi3Config, PhiConfig, GPT2Config,
//! BertConfig) with the same defaults those classes apply when a field is absent. Unknown
//! fields are ignored; a missing required field is an error naming it.

use crate::arch::{Architecture, MlpKind, NormKind, QwenGeneration, QwenVision, Tower};
use crate::diag::Lang;
use crate::json::{Json as Value, JsonError};
use std::fmt;

/// Why a config could not be read, with the values it names: the English (`Display`) and
/// Russian (`text`) sentences are rendered from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// Not a JSON object: the text's syntax error, or none when the text is JSON but its top
    /// level is not an object.
    NotJson(Option<JsonError>),
    /// A field the family needs is absent or not a positive whole number / boolean.
    Missing {
        field: String,
    },
    Invalid {
        field: String,
        problem: ConfigProblem,
    },
    /// `model_type` is not one this module reads.
    UnsupportedFamily(String),
}

/// What is wrong with a field that is there (`ConfigError::Invalid`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigProblem {
    /// Not a whole number from 1 to 1e8 (the value as JSON writes it).
    NotPositive {
        got: String,
    },
    /// Not a whole number (a count that may be 0).
    NotCount {
        got: String,
    },
    NotBool {
        got: String,
    },
    /// `num_key_value_heads` does not divide `num_attention_heads`.
    KvHeadsDivide {
        kv_heads: u64,
        heads: u64,
    },
    OverExperts,
    OverLayers,
    /// Qwen3-Next-style blocks that link keys cannot say.
    LinearAttention,
    /// An image encoder whose blocks, patch or side are no preset's: its input is not a key.
    ImageEncoderShape {
        layers: u64,
        hidden: u64,
        patch: u64,
        side: u64,
    },
}

impl ConfigProblem {
    fn en(&self) -> String {
        match self {
            ConfigProblem::NotPositive { got } => format!("must be a whole number from 1 to 1e8, got {got}"),
            ConfigProblem::NotCount { got } => format!("must be a whole number, got {got}"),
            ConfigProblem::NotBool { got } => format!("must be true or false, got {got}"),
            ConfigProblem::KvHeadsDivide { kv_heads, heads } => {
                format!("{kv_heads} does not divide num_attention_heads {heads}")
            }
            ConfigProblem::OverExperts => "exceeds the number of experts".into(),
            ConfigProblem::OverLayers => "exceeds num_hidden_layers".into(),
            ConfigProblem::LinearAttention => "describes linear-attention blocks or gated attention (Qwen3-Next style) that link keys cannot express unless it is a preset's exact shape (qwen3-next-80b-a3b)".into(),
            ConfigProblem::ImageEncoderShape { layers, hidden, patch, side } => format!("describes an image encoder of {layers} blocks × {hidden}, {patch}-px patches at {side} px, which is no preset's (vit-b, vit-l, vit-h, clip-vit-l, siglip-so400m): pick the nearest preset and set image_res"),
        }
    }

    fn ru(&self) -> String {
        match self {
            ConfigProblem::NotPositive { got } => format!("должно быть целым числом от 1 до 1e8, а не {got}"),
            ConfigProblem::NotCount { got } => format!("должно быть целым числом, а не {got}"),
            ConfigProblem::NotBool { got } => format!("должно быть true или false, а не {got}"),
            ConfigProblem::KvHeadsDivide { kv_heads, heads } => {
                format!("({kv_heads}) не делит нацело num_attention_heads ({heads})")
            }
            ConfigProblem::OverExperts => "больше числа экспертов".into(),
            ConfigProblem::OverLayers => "больше num_hidden_layers".into(),
            ConfigProblem::LinearAttention => "описывает блоки с линейным вниманием или вниманием с затвором (как в Qwen3-Next), которые ключи ссылки не выражают, если это не точная форма пресета (qwen3-next-80b-a3b)".into(),
            ConfigProblem::ImageEncoderShape { layers, hidden, patch, side } => format!("описывает энкодер изображений из {layers} блоков × {hidden}, патчи {patch} px при {side} px, и это не форма ни одного пресета (vit-b, vit-l, vit-h, clip-vit-l, siglip-so400m): выберите ближайший пресет и задайте image_res"),
        }
    }
}

impl ConfigError {
    /// The error in `lang` (the English is its `Display`).
    pub fn text(&self, lang: Lang) -> String {
        match lang.built() {
            Lang::En => self.to_string(),
            Lang::Ru => match self {
                ConfigError::NotJson(Some(e)) => {
                    format!("config.json — не объект JSON: {}", crate::diag::json_error(e, lang))
                }
                ConfigError::NotJson(None) => "config.json — не объект JSON: на верхнем уровне не объект".into(),
                ConfigError::Missing { field } => format!("config.json: нет обязательного поля «{field}»"),
                ConfigError::Invalid { field, problem } => format!("config.json: поле «{field}» {}", problem.ru()),
                ConfigError::UnsupportedFamily(t) => {
                    format!("config.json: model_type «{t}» не поддерживается; поддерживаются: {}", FAMILIES.join(", "))
                }
            },
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::NotJson(Some(e)) => write!(f, "config.json is not a JSON object: {e}"),
            ConfigError::NotJson(None) => write!(f, "config.json is not a JSON object: top level is not an object"),
            ConfigError::Missing { field } => write!(f, "config.json: required field '{field}' is missing"),
            ConfigError::Invalid { field, problem } => write!(f, "config.json: '{field}' {}", problem.en()),
            ConfigError::UnsupportedFamily(t) => {
                write!(f, "config.json: model_type '{t}' is not supported; supported: {}", FAMILIES.join(", "))
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// `model_type` values read here (a multimodal config's own type, or its `text_config`'s).
pub const FAMILIES: &[&str] = &[
    "llama",
    "mistral",
    "mixtral",
    "qwen2",
    "qwen3",
    "qwen3_moe",
    "qwen3_next",
    "gemma",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "qwen2_vl",
    "qwen2_5_vl",
    "qwen3_vl",
    "llama4",
    "llama4_text",
    "deepseek_v3",
    "gpt_oss",
    "phi3",
    "mistral3",
    "olmo2",
    "smollm3",
    "phi",
    "gpt2",
    "bert",
    "vit",
    "clip",
    "clip_vision_model",
    "siglip",
    "siglip_vision_model",
];

/// A config object and the defaults its transformers config class applies to absent fields
/// (multimodal checkpoints write only what differs from them).
struct Fields<'a> {
    v: &'a Value,
    defaults: &'static [(&'static str, u64)],
}

impl Fields<'_> {
    fn opt_u64(&self, k: &str) -> Result<Option<u64>, ConfigError> {
        match self.v.get(k) {
            None | Some(Value::Null) => Ok(self.defaults.iter().find(|d| d.0 == k).map(|d| d.1)),
            Some(v) => match v.as_u64() {
                Some(n) if (1..=100_000_000).contains(&n) => Ok(Some(n)),
                _ => Err(ConfigError::Invalid {
                    field: k.into(),
                    problem: ConfigProblem::NotPositive { got: v.to_string() },
                }),
            },
        }
    }
    fn u64(&self, k: &str) -> Result<u64, ConfigError> {
        self.opt_u64(k)?.ok_or_else(|| ConfigError::Missing { field: k.into() })
    }
    /// A count that may be 0 (`first_k_dense_replace`, `n_shared_experts`).
    fn count_or(&self, k: &str, d: u64) -> Result<u64, ConfigError> {
        match self.v.get(k) {
            None | Some(Value::Null) => Ok(d),
            Some(v) => v.as_u64().filter(|n| *n <= 100_000_000).ok_or_else(|| ConfigError::Invalid {
                field: k.into(),
                problem: ConfigProblem::NotCount { got: v.to_string() },
            }),
        }
    }
    fn bool_or(&self, k: &str, d: bool) -> Result<bool, ConfigError> {
        match self.v.get(k) {
            None | Some(Value::Null) => Ok(d),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => {
                Err(ConfigError::Invalid { field: k.into(), problem: ConfigProblem::NotBool { got: v.to_string() } })
            }
        }
    }
}

// Config-class defaults for the fields multimodal configs leave out (transformers
// `configuration_gemma3.py` Gemma3TextConfig, `configuration_llama4.py` Llama4TextConfig,
// `configuration_siglip.py` SiglipVisionConfig, `configuration_pixtral.py`,
// `configuration_gpt_oss.py`, `configuration_smollm3.py`, as of transformers 4.51–4.56).
const GEMMA3_TEXT: &[(&str, u64)] = &[
    ("vocab_size", 262_208),
    ("hidden_size", 2304),
    ("intermediate_size", 9216),
    ("num_hidden_layers", 26),
    ("num_attention_heads", 8),
    ("num_key_value_heads", 4),
    ("head_dim", 256),
];
const LLAMA4_TEXT: &[(&str, u64)] = &[
    ("vocab_size", 202_048),
    ("hidden_size", 5120),
    ("intermediate_size", 8192),
    ("intermediate_size_mlp", 16384),
    ("num_hidden_layers", 48),
    ("num_attention_heads", 40),
    ("num_key_value_heads", 8),
    ("head_dim", 128),
    ("num_local_experts", 16),
    ("num_experts_per_tok", 1),
    ("interleave_moe_layer_step", 1),
];
const GPT_OSS: &[(&str, u64)] = &[
    ("vocab_size", 201_088),
    ("hidden_size", 2880),
    ("intermediate_size", 2880),
    ("num_hidden_layers", 36),
    ("num_attention_heads", 64),
    ("num_key_value_heads", 8),
    ("head_dim", 64),
    ("num_local_experts", 128),
    ("num_experts_per_tok", 4),
];
const SMOLLM3: &[(&str, u64)] = &[("vocab_size", 128_256)];
const SIGLIP: &[(&str, u64)] = &[
    ("hidden_size", 768),
    ("intermediate_size", 3072),
    ("num_hidden_layers", 12),
    ("num_attention_heads", 12),
    ("patch_size", 16),
    ("image_size", 224),
    ("num_channels", 3),
];
const PIXTRAL: &[(&str, u64)] = &[
    ("hidden_size", 1024),
    ("intermediate_size", 4096),
    ("num_hidden_layers", 24),
    ("patch_size", 16),
    ("num_channels", 3),
];
// Qwen2VLVisionConfig and Qwen2_5_VLVisionConfig (transformers qwen2_vl @00b676f8, qwen2_5_vl
// @00d01082); Qwen2-VL's `hidden_size` is the language model's width, its tower's `embed_dim`.
const QWEN2_VL_VISION: &[(&str, u64)] = &[
    ("depth", 32),
    ("embed_dim", 1280),
    ("mlp_ratio", 4),
    ("num_heads", 16),
    ("in_chans", 3),
    ("patch_size", 14),
    ("spatial_merge_size", 2),
    ("temporal_patch_size", 2),
];
const QWEN2_5_VL_VISION: &[(&str, u64)] = &[
    ("depth", 32),
    ("hidden_size", 1280),
    ("intermediate_size", 3420),
    ("num_heads", 16),
    ("in_chans", 3),
    ("patch_size", 14),
    ("spatial_merge_size", 2),
    ("temporal_patch_size", 2),
    ("window_size", 112),
];
const LLAMA4_VISION: &[(&str, u64)] = &[
    ("hidden_size", 768),
    ("intermediate_size", 5632),
    ("num_hidden_layers", 34),
    ("patch_size", 14),
    ("image_size", 448),
    ("num_channels", 3),
    ("projector_input_dim", 4096),
    ("projector_output_dim", 4096),
    ("vision_output_dim", 7680),
];

/// Parses a config.json text.
pub fn parse(text: &str) -> Result<Architecture, ConfigError> {
    let v: Value = crate::json::parse(text).map_err(|e| ConfigError::NotJson(Some(e)))?;
    from_value(&v)
}

fn model_type(v: &Value) -> Result<&str, ConfigError> {
    v.get("model_type").and_then(Value::as_str).ok_or(ConfigError::Missing { field: "model_type".into() })
}

/// Reads a parsed config.json: a language model's, or a multimodal one whose `text_config`
/// describes the language model and whose vision tower is counted as frozen parameters.
pub fn from_value(v: &Value) -> Result<Architecture, ConfigError> {
    if !v.is_object() {
        return Err(ConfigError::NotJson(None));
    }
    let ty = model_type(v)?;
    if let Some(a) = image_encoder(v, ty)? {
        return Ok(a);
    }
    let text_type = match ty {
        "gemma3" => Some("gemma3_text"),
        "llama4" => Some("llama4_text"),
        "mistral3" => Some("mistral"),
        "qwen2_vl" | "qwen2_5_vl" => Some("qwen2"),
        "qwen3_vl" => Some("qwen3"),
        _ => None,
    };
    let qwen_vl = matches!(ty, "qwen2_vl" | "qwen2_5_vl" | "qwen3_vl");
    let mut a = match text_type {
        Some(tt) => {
            let empty = Value::Obj(Vec::new());
            // Qwen-VL checkpoints written by transformers 4 keep the language model's fields at
            // the top level; transformers 5 nests them in `text_config` (`qwen2_5_vl_text`).
            let tc = v.get("text_config").unwrap_or(if qwen_vl { v } else { &empty });
            let tt = if qwen_vl { tt } else { tc.get("model_type").and_then(Value::as_str).unwrap_or(tt) };
            let mut a = language_model(tc, tt)?;
            // A nested text_config may leave the tie to the top level (Qwen-VL checkpoints).
            if qwen_vl && tc.get("tie_word_embeddings").is_none() {
                a.tied = Fields { v, defaults: &[] }.bool_or("tie_word_embeddings", a.tied)?;
            }
            let vc = v.get("vision_config").unwrap_or(&empty);
            a.layout.vision_params = match ty {
                "gemma3" => {
                    let (params, tower) = gemma3_tower(v, vc, a.hidden)?;
                    a.layout.tower = known_tower(tower);
                    params
                }
                "qwen2_vl" | "qwen2_5_vl" => {
                    let (params, tower) = qwen_vl_tower(vc, ty == "qwen2_5_vl", a.hidden)?;
                    a.layout.tower = known_tower(tower);
                    params
                }
                "qwen3_vl" => {
                    let (params, tower) = qwen3_vl_tower(vc, a.hidden)?;
                    a.layout.tower = known_tower(tower);
                    params
                }
                "mistral3" => {
                    let hv = Fields { v: vc, defaults: PIXTRAL }.u64("hidden_size")?;
                    let merge = Fields { v, defaults: &[("spatial_merge_size", 2)] }.u64("spatial_merge_size")?;
                    let bias = Fields { v, defaults: &[] }.bool_or("multimodal_projector_bias", false)?;
                    // Mistral3MultiModalProjector: RMSNorm(hv), patch_merger (hv·m² → hv, no
                    // bias), linear_1 (hv → h), linear_2 (h → h).
                    pixtral_params(vc)?
                        + hv
                        + hv * merge * merge * hv
                        + hv * a.hidden
                        + a.hidden * a.hidden
                        + if bias { 2 * a.hidden } else { 0 }
                }
                _ => llama4_vision_params(vc, a.hidden)?,
            };
            a
        }
        None => language_model(v, ty)?,
    };
    a.inferred = false;
    if a.heads % a.kv_heads != 0 {
        return Err(ConfigError::Invalid {
            field: "num_key_value_heads".into(),
            problem: ConfigProblem::KvHeadsDivide { kv_heads: a.kv_heads, heads: a.heads },
        });
    }
    if a.experts_per_token > a.experts {
        return Err(ConfigError::Invalid { field: "num_experts_per_tok".into(), problem: ConfigProblem::OverExperts });
    }
    if a.layout.dense_layers > a.layers {
        return Err(ConfigError::Invalid { field: "first_k_dense_replace".into(), problem: ConfigProblem::OverLayers });
    }
    Ok(a)
}

/// The preset tower equal to `t` (every published checkpoint of a family shares its
/// presets' towers), or none: a tower this calculator does not know block by block, whose
/// images it refuses to price, naming why.
fn known_tower(t: Tower) -> &'static Tower {
    crate::catalog::presets().iter().map(|p| p.arch.layout.tower).find(|k| **k == t).unwrap_or(&Tower::NONE)
}

/// Gemma 3's SigLIP tower from its `vision_config`: its parameters and how it runs.
/// SiglipVisionModel without its pooling head (`vision_use_head` false in Gemma 3): a patch
/// conv with bias, learned positions, per layer q/k/v/o and fc1/fc2 with biases and two
/// LayerNorms, a post LayerNorm; then Gemma3MultiModalProjector's `mm_input_projection_weight`
/// [hv, h] and `mm_soft_emb_norm` RMSNorm(hv). Every image at `image_size`,
/// `mm_tokens_per_image` visual tokens (default 256) pooled from its patches.
fn gemma3_tower(v: &Value, vc: &Value, text_hidden: u64) -> Result<(u64, Tower), ConfigError> {
    let f = Fields { v: vc, defaults: SIGLIP };
    let (hidden, ffn, layers, patch, side, channels) = (
        f.u64("hidden_size")?,
        f.u64("intermediate_size")?,
        f.u64("num_hidden_layers")?,
        f.u64("patch_size")?,
        f.u64("image_size")?,
        f.u64("num_channels")?,
    );
    let heads = Fields { v: vc, defaults: &[("num_attention_heads", 12)] }.u64("num_attention_heads")?;
    let tokens = Fields { v, defaults: &[("mm_tokens_per_image", 256)] }.u64("mm_tokens_per_image")?;
    let per_side = (1..=side / patch.max(1)).find(|k| k * k >= tokens).unwrap_or(1);
    let positions = (side / patch) * (side / patch);
    let siglip =
        channels * patch * patch * hidden + hidden + positions * hidden + layers * vit_layer(hidden, ffn) + 2 * hidden;
    let params = siglip + hidden * text_hidden + hidden;
    let tower = Tower::siglip(layers, hidden, heads, ffn, patch, (side / patch.max(1) / per_side).max(1), side);
    Ok((params, tower))
}

/// Qwen2-VL's or Qwen2.5-VL's vision tower from its `vision_config`: its parameters (the
/// patch embedding, the blocks and the merger, as transformers builds them) and how it runs.
fn qwen_vl_tower(vc: &Value, v25: bool, text_hidden: u64) -> Result<(u64, Tower), ConfigError> {
    let f = Fields { v: vc, defaults: if v25 { QWEN2_5_VL_VISION } else { QWEN2_VL_VISION } };
    let (layers, heads, patch, merge, temporal) = (
        f.u64("depth")?,
        f.u64("num_heads")?,
        f.u64("patch_size")?,
        f.u64("spatial_merge_size")?,
        f.u64("temporal_patch_size")?,
    );
    let channels = match vc.get("in_channels") {
        Some(_) => f.u64("in_channels")?,
        None => f.u64("in_chans")?,
    };
    let (e, ffn, out) = if v25 {
        let out = Fields { v: vc, defaults: &[] }.opt_u64("out_hidden_size")?.unwrap_or(text_hidden);
        (f.u64("hidden_size")?, f.u64("intermediate_size")?, out)
    } else {
        let e = f.u64("embed_dim")?;
        (e, e * f.u64("mlp_ratio")?, text_hidden)
    };
    let full_attn_layers = if v25 {
        vc.get("fullatt_block_indexes").and_then(Value::as_array).map_or(4, |l| l.len() as u64).min(layers)
    } else {
        layers
    };
    let window = if v25 { (f.u64("window_size")? / patch.max(1)).pow(2) } else { 0 };
    let wide = e * merge * merge;
    let projector_linears = (wide * wide + wide) + (wide * out + out);
    // RMSNorms (one weight) in Qwen2.5-VL, LayerNorms (weight and bias) in Qwen2-VL.
    let (norms, mlp) =
        if v25 { (2 * e, 2 * (e * ffn + ffn) + (ffn * e + e)) } else { (4 * e, (e * ffn + ffn) + (ffn * e + e)) };
    let block = norms + (e * 3 * e + 3 * e) + (e * e + e) + mlp;
    let merger_norm = if v25 { e } else { 2 * e };
    let params = channels * temporal * patch * patch * e + layers * block + merger_norm + projector_linears;
    let tower = QwenVision {
        generation: if v25 { QwenGeneration::Qwen25 } else { QwenGeneration::Qwen2 },
        layers,
        hidden: e,
        heads,
        ffn,
        patch,
        merge,
        out,
        deepstack: 0,
        full_attn_layers,
        window,
    }
    .tower();
    Ok((params, tower))
}

// Qwen3VLVisionConfig (transformers qwen3_vl @68a7b7e2).
const QWEN3_VL_VISION: &[(&str, u64)] = &[
    ("depth", 27),
    ("hidden_size", 1152),
    ("intermediate_size", 4304),
    ("num_heads", 16),
    ("in_channels", 3),
    ("patch_size", 16),
    ("spatial_merge_size", 2),
    ("temporal_patch_size", 2),
    ("num_position_embeddings", 2304),
];

/// Qwen3-VL's tower from its `vision_config`: a Conv3d patch embedding with bias, learned
/// positions, blocks of LayerNorms, fused `qkv`, `proj` and a GELU MLP with biases, the merger
/// and one DeepStack merger per `deepstack_visual_indexes` entry (LayerNorm after the shuffle).
fn qwen3_vl_tower(vc: &Value, text_hidden: u64) -> Result<(u64, Tower), ConfigError> {
    let f = Fields { v: vc, defaults: QWEN3_VL_VISION };
    let (layers, e, ffn, heads) =
        (f.u64("depth")?, f.u64("hidden_size")?, f.u64("intermediate_size")?, f.u64("num_heads")?);
    let (patch, merge, temporal, channels, positions) = (
        f.u64("patch_size")?,
        f.u64("spatial_merge_size")?,
        f.u64("temporal_patch_size")?,
        f.u64("in_channels")?,
        f.u64("num_position_embeddings")?,
    );
    let out = Fields { v: vc, defaults: &[] }.opt_u64("out_hidden_size")?.unwrap_or(text_hidden);
    let deepstack = vc.get("deepstack_visual_indexes").and_then(Value::as_array).map_or(3, |l| l.len() as u64);
    let wide = e * merge * merge;
    let linears = (wide * wide + wide) + (wide * out + out);
    let block = 4 * e + (e * 3 * e + 3 * e) + (e * e + e) + (e * ffn + ffn) + (ffn * e + e);
    let params = (channels * temporal * patch * patch * e + e)
        + positions * e
        + layers * block
        + (2 * e + linears)
        + deepstack * (2 * wide + linears);
    let tower = QwenVision {
        generation: QwenGeneration::Qwen3,
        layers,
        hidden: e,
        heads,
        ffn,
        patch,
        merge,
        out,
        deepstack,
        full_attn_layers: layers,
        window: 0,
    }
    .tower();
    Ok((params, tower))
}

/// One ViT encoder layer as SigLIP and Llama 4's vision model build it: q, k, v, o and
/// fc1, fc2 with biases, two LayerNorms.
fn vit_layer(h: u64, i: u64) -> u64 {
    4 * (h * h + h) + 2 * 2 * h + (h * i + i) + (i * h + h)
}

/// PixtralVisionModel: patch conv without bias, `ln_pre` RMSNorm, per layer two RMSNorms,
/// q/k/v/o and a gated MLP without biases; 2-D RoPE has no parameters.
fn pixtral_params(vc: &Value) -> Result<u64, ConfigError> {
    let f = Fields { v: vc, defaults: PIXTRAL };
    let (h, i, l, p, c) = (
        f.u64("hidden_size")?,
        f.u64("intermediate_size")?,
        f.u64("num_hidden_layers")?,
        f.u64("patch_size")?,
        f.u64("num_channels")?,
    );
    Ok(c * p * p * h + h + l * (2 * h + 4 * h * h + 3 * h * i))
}

/// Llama4VisionModel plus Llama4MultiModalProjector (transformers `modeling_llama4.py`): an
/// unfold patch embedding (linear without bias), class embedding, learned positions,
/// pre/post LayerNorms, per layer q/k/v/o and fc1/fc2 with biases and two LayerNorms, the
/// pixel-shuffle adapter MLP (fc1 without bias, fc2 without bias), and the projector
/// (`linear_1`, no bias) to the text width.
fn llama4_vision_params(vc: &Value, text_hidden: u64) -> Result<u64, ConfigError> {
    let f = Fields { v: vc, defaults: LLAMA4_VISION };
    let (h, i, l, p, img, c) = (
        f.u64("hidden_size")?,
        f.u64("intermediate_size")?,
        f.u64("num_hidden_layers")?,
        f.u64("patch_size")?,
        f.u64("image_size")?,
        f.u64("num_channels")?,
    );
    let (pin, pout, vout) =
        (f.u64("projector_input_dim")?, f.u64("projector_output_dim")?, f.u64("vision_output_dim")?);
    let positions = (img / p) * (img / p) + 1;
    let layer = vit_layer(h, i);
    let adapter = i * pin + pout * pout;
    Ok(c * p * p * h + h + positions * h + 2 * 2 * h + l * layer + adapter + vout * text_hidden)
}

/// A language model's fields, by its `model_type`.
fn language_model(v: &Value, ty: &str) -> Result<Architecture, ConfigError> {
    let defaults: &'static [(&'static str, u64)] = match ty {
        "gemma3_text" => GEMMA3_TEXT,
        "llama4_text" => LLAMA4_TEXT,
        "gpt_oss" => GPT_OSS,
        "smollm3" => SMOLLM3,
        _ => &[],
    };
    let f = Fields { v, defaults };
    let a = match ty {
        "llama" | "mistral" | "mixtral" | "qwen2" | "qwen3" | "qwen3_moe" | "qwen3_next" | "gemma" | "gemma2"
        | "gemma3_text" | "phi3" | "olmo2" | "smollm3" | "llama4_text" | "gpt_oss" | "deepseek_v3" => {
            decoder(&f, v, ty)?
        }
        "phi" => {
            // PhiConfig (phi-1, phi-1.5, phi-2): parallel block, one LayerNorm, biased linears
            // and LM head; intermediate_size defaults to 8192 in PhiConfig.
            let hidden = f.u64("hidden_size")?;
            let heads = f.u64("num_attention_heads")?;
            let mut a = crate::catalog::preset("phi-1.5").expect("phi-1.5 preset").arch.clone();
            a.layers = f.u64("num_hidden_layers")?;
            a.hidden = hidden;
            a.heads = heads;
            a.kv_heads = f.opt_u64("num_key_value_heads")?.unwrap_or(heads);
            a.head_dim = hidden / heads;
            a.ffn = f.opt_u64("intermediate_size")?.unwrap_or(8192);
            a.vocab = f.u64("vocab_size")?;
            a.tied = f.bool_or("tie_word_embeddings", false)?;
            a
        }
        "gpt2" => {
            let hidden = f.u64("n_embd")?;
            let heads = f.u64("n_head")?;
            let mut a = crate::catalog::preset("gpt2").expect("gpt2 preset").arch.clone();
            a.layers = f.u64("n_layer")?;
            a.hidden = hidden;
            a.heads = heads;
            a.kv_heads = heads;
            a.head_dim = hidden / heads;
            a.ffn = f.opt_u64("n_inner")?.unwrap_or(4 * hidden);
            a.vocab = f.u64("vocab_size")?;
            a.positions = f.u64("n_positions")?;
            a.tied = f.bool_or("tie_word_embeddings", true)?;
            a
        }
        "bert" => {
            let hidden = f.u64("hidden_size")?;
            let heads = f.u64("num_attention_heads")?;
            let mut a = crate::catalog::preset("bert-large-uncased").expect("bert preset").arch.clone();
            a.layers = f.u64("num_hidden_layers")?;
            a.hidden = hidden;
            a.heads = heads;
            a.kv_heads = heads;
            a.head_dim = hidden / heads;
            a.ffn = f.u64("intermediate_size")?;
            a.vocab = f.u64("vocab_size")?;
            a.positions = f.u64("max_position_embeddings")?;
            a.type_vocab = f.opt_u64("type_vocab_size")?.unwrap_or(2);
            a
        }
        other => return Err(ConfigError::UnsupportedFamily(other.to_string())),
    };
    Ok(a)
}

/// The decoder families transformers builds from `LlamaConfig`-like fields (Llama, Mistral,
/// Mixtral, Qwen 2/3 and their MoE, Gemma 1–3, Phi-3, OLMo 2, SmolLM3, Llama 4 text,
/// gpt-oss, DeepSeek-V3).
fn decoder(f: &Fields, v: &Value, ty: &str) -> Result<Architecture, ConfigError> {
    let hidden = f.u64("hidden_size")?;
    let heads = f.u64("num_attention_heads")?;
    let mut kv = f.opt_u64("num_key_value_heads")?.unwrap_or(heads);
    let mut head_dim = f.opt_u64("head_dim")?.unwrap_or(hidden / heads);
    // Defaults of tie_word_embeddings per config class: the Gemmas and SmolLM3 True,
    // the others False.
    let tied_default = matches!(ty, "gemma" | "gemma2" | "gemma3_text" | "smollm3");
    // gpt-oss: biases on q, k, v and o (GptOssConfig attention_bias True).
    let attn_bias = f.bool_or("attention_bias", ty == "gpt_oss")?;
    let mut layout = crate::arch::Layout::UNIFORM;
    let mut ffn = f.u64("intermediate_size")?;
    let layers = f.u64("num_hidden_layers")?;
    let (experts, k) = mixture(
        f,
        v,
        ty,
        layers,
        heads,
        &mut Shape { ffn: &mut ffn, head_dim: &mut head_dim, kv: &mut kv, layout: &mut layout },
    )?;
    if ty == "gpt_oss" {
        layout.router_bias = true;
        layout.attn_sinks = true;
    }
    layout.qk_norm_full = ty == "olmo2";
    Ok(Architecture {
        layers,
        hidden,
        heads,
        kv_heads: kv,
        head_dim,
        ffn,
        vocab: f.u64("vocab_size")?,
        tied: f.bool_or("tie_word_embeddings", tied_default)?,
        mlp: MlpKind::Gated,
        norm: NormKind::Rms,
        norms_per_layer: if matches!(ty, "gemma2" | "gemma3_text") { 4 } else { 2 },
        qk_norm: matches!(ty, "qwen3" | "qwen3_moe" | "qwen3_next" | "gemma3_text" | "olmo2"),
        // Qwen2 always has q/k/v biases (Qwen2Attention: bias=True).
        qkv_bias: ty == "qwen2" || attn_bias,
        o_bias: attn_bias,
        // gpt-oss experts carry gate_up_proj_bias and down_proj_bias.
        mlp_bias: ty == "gpt_oss" || f.bool_or("mlp_bias", false)?,
        lm_head_bias: false,
        positions: 0,
        experts,
        experts_per_token: k,
        encoder_only: false,
        type_vocab: 0,
        dropout: false,
        inferred: false,
        quirks: crate::arch::Quirks {
            act_extra_saves: 0,
            fused_qkv: ty == "phi3",
            softcap: ty == "gemma2",
            norm_fp32_scale: matches!(ty, "gemma" | "gemma2" | "gemma3_text" | "qwen3_next"),
            softmax_fp32: true,
        },
        layout,
    })
}

/// The parts of a decoder its mixture of experts (or latent attention) reshapes.
struct Shape<'a> {
    ffn: &'a mut u64,
    head_dim: &'a mut u64,
    kv: &'a mut u64,
    layout: &'a mut crate::arch::Layout,
}

/// Experts and experts per token of a MoE family, with the block layout its config class
/// builds; `(1, 1)` for a dense one.
fn mixture(
    f: &Fields,
    v: &Value,
    ty: &str,
    layers: u64,
    heads: u64,
    sh: &mut Shape,
) -> Result<(u64, u64), ConfigError> {
    let (mut experts, mut k) = (1, 1);
    let (mut ffn, mut head_dim, mut kv) = (*sh.ffn, *sh.head_dim, *sh.kv);
    let layout = &mut *sh.layout;
    match ty {
        "mixtral" | "gpt_oss" => {
            experts = f.u64("num_local_experts")?;
            k = f.u64("num_experts_per_tok")?;
        }
        "qwen3_moe" | "qwen3_next" => {
            experts = f.u64("num_experts")?;
            k = f.u64("num_experts_per_tok")?;
            // Qwen3MoeDecoderLayer: layer i is sparse unless listed in mlp_only_layers
            // or off the decoder_sparse_step grid; dense ones are intermediate_size wide.
            let step = f.count_or("decoder_sparse_step", 1)?.max(1);
            let only: Vec<u64> = v
                .get("mlp_only_layers")
                .and_then(Value::as_array)
                .map(|x| x.iter().filter_map(Value::as_u64).collect())
                .unwrap_or_default();
            layout.dense_layers = (0..layers).filter(|i| only.contains(i) || (i + 1) % step != 0).count() as u64;
            layout.dense_ffn = if layout.dense_layers > 0 { ffn } else { 0 };
            ffn = f.u64("moe_intermediate_size")?;
            if ty == "qwen3_next" {
                // Qwen3NextSparseMoeBlock: a gated shared expert beside the routed ones;
                // attention q_proj doubled for its output gate; the blocks that are not
                // every `full_attention_interval`-th (or `layer_types` says so) mix
                // tokens with Gated DeltaNet.
                layout.shared_ffn = f.count_or("shared_expert_intermediate_size", 0)?;
                layout.shared_gate = layout.shared_ffn > 0;
                layout.attn_gate = true;
                let lin = match v.get("layer_types").and_then(Value::as_array) {
                    Some(t) => t.iter().filter(|x| x.as_str() == Some("linear_attention")).count() as u64,
                    None => {
                        let every = f.count_or("full_attention_interval", 4)?.max(1);
                        (0..layers).filter(|i| (i + 1) % every != 0).count() as u64
                    }
                };
                layout.linear_attn = crate::arch::LinearAttn {
                    layers: lin,
                    key_heads: f.u64("linear_num_key_heads")?,
                    key_dim: f.u64("linear_key_head_dim")?,
                    value_heads: f.u64("linear_num_value_heads")?,
                    value_dim: f.u64("linear_value_head_dim")?,
                    conv: f.count_or("linear_conv_kernel_dim", 4)?,
                };
            }
        }
        "llama4_text" => {
            experts = f.u64("num_local_experts")?;
            k = f.u64("num_experts_per_tok")?;
            // Llama4TextDecoderLayer: MoE where the index is in `moe_layers` (default every
            // interleave_moe_layer_step-th); MoE blocks add a shared expert of
            // intermediate_size, dense blocks are intermediate_size_mlp wide.
            let step = f.u64("interleave_moe_layer_step")?;
            let moe = match v.get("moe_layers").and_then(Value::as_array) {
                Some(x) => x.len() as u64,
                None => (0..layers).filter(|i| (i + 1) % step == 0).count() as u64,
            };
            layout.dense_layers = layers - moe.min(layers);
            layout.dense_ffn = f.u64("intermediate_size_mlp")?;
            layout.shared_ffn = ffn;
        }
        "deepseek_v3" => {
            experts = f.u64("n_routed_experts")?;
            k = f.u64("num_experts_per_tok")?;
            layout.dense_layers = f.count_or("first_k_dense_replace", 0)?;
            layout.dense_ffn = ffn;
            ffn = f.u64("moe_intermediate_size")?;
            layout.shared_ffn = f.count_or("n_shared_experts", 0)? * ffn;
            // DeepseekV3TopkRouter's e_score_correction_bias is a buffer, not a parameter.
            let rope = f.u64("qk_rope_head_dim")?;
            layout.mla = crate::arch::Mla {
                q_rank: f.count_or("q_lora_rank", 0)?,
                kv_rank: f.u64("kv_lora_rank")?,
                rope_dim: rope,
                v_dim: f.u64("v_head_dim")?,
            };
            head_dim = f.u64("qk_nope_head_dim")? + rope;
            kv = heads;
        }
        _ => {}
    }
    (*sh.ffn, *sh.head_dim, *sh.kv) = (ffn, head_dim, kv);
    Ok((experts, k))
}

/// `CLIPVisionConfig`'s defaults for what a config leaves out (a CLIP checkpoint's
/// `vision_config` writes only what differs). `ViTConfig`'s are `SiglipVisionConfig`'s
/// (`SIGLIP`): 768 wide, 3072, 12 blocks of 12 heads, 16-px patches at 224 px.
const CLIP_VISION: &[(&str, u64)] = &[
    ("hidden_size", 768),
    ("intermediate_size", 3072),
    ("num_hidden_layers", 12),
    ("num_attention_heads", 12),
    ("patch_size", 32),
    ("image_size", 224),
];

/// An image encoder's config (`vit`; CLIP's and SigLIP's vision models, alone or as a whole
/// checkpoint's `vision_config`) as the preset of its shape, its classifier's labels from
/// `id2label`: its input (patch, side, class token) is no link key, so a shape that is no
/// preset's is refused by name. `None` for any other model type.
fn image_encoder(v: &Value, ty: &str) -> Result<Option<Architecture>, ConfigError> {
    let empty = Value::Obj(Vec::new());
    let (vc, defaults, family) = match ty {
        "vit" => (v, SIGLIP, "vit"),
        "clip_vision_model" => (v, CLIP_VISION, "clip"),
        // CLIPConfig still takes the older `vision_config_dict`.
        "clip" => {
            (v.get("vision_config").or_else(|| v.get("vision_config_dict")).unwrap_or(&empty), CLIP_VISION, "clip")
        }
        "siglip_vision_model" => (v, SIGLIP, "siglip"),
        "siglip" => (v.get("vision_config").unwrap_or(&empty), SIGLIP, "siglip"),
        _ => return Ok(None),
    };
    let f = Fields { v: vc, defaults };
    let (layers, hidden, heads, ffn) = (
        f.u64("num_hidden_layers")?,
        f.u64("hidden_size")?,
        f.u64("num_attention_heads")?,
        f.u64("intermediate_size")?,
    );
    let (patch, side) = (f.u64("patch_size")?, f.u64("image_size")?);
    let found = crate::catalog::presets().iter().find(|p| {
        let a = &p.arch;
        a.layout.image.is_some_and(|img| {
            img.patch == patch
                && img.side == side
                && img.cls == (family != "siglip")
                && img.conv_bias == (family != "clip")
        }) && (a.layers, a.hidden, a.heads, a.ffn) == (layers, hidden, heads, ffn)
    });
    let Some(p) = found else {
        return Err(ConfigError::Invalid {
            field: "model_type".into(),
            problem: ConfigProblem::ImageEncoderShape { layers, hidden, patch, side },
        });
    };
    let mut a = p.arch.clone();
    // A classifier's labels: `id2label`, else `num_labels` (as PretrainedConfig reads them);
    // a backbone's config has none, or transformers' placeholders `LABEL_0`, `LABEL_1`, which
    // a fine-tune replaces.
    let placeholder = |m: &[(String, Value, usize)]| {
        m.iter().enumerate().all(|(i, (_, l, _))| l.as_str() == Some(format!("LABEL_{i}").as_str()))
    };
    let labels = match v.get("id2label") {
        Some(Value::Obj(m)) if !placeholder(m) => m.len() as u64,
        Some(Value::Obj(_)) => 0,
        _ => Fields { v, defaults: &[] }.opt_u64("num_labels")?.unwrap_or(0),
    };
    if labels > 0 {
        a.vocab = labels;
    }
    Ok(Some(a))
}

/// The query string fragment (`layers=..&hidden=..`) that puts a pasted config into a link.
pub fn to_query_fragment(a: &Architecture) -> String {
    let o = a.to_overrides();
    let mut q = crate::Query { model: None, arch: o, ..Default::default() };
    q.params = None;
    q.to_query_string().replace("model=custom&", "")
}

/// What the page needs of a pasted config, as one line of tab-separated fields: `ok`, the
/// query fragment, layers, hidden, total parameters, vision parameters; or `err` and the
/// message. The page's lazily loaded module answers with it (crates/tunefit-export), so the
/// config reader is not in the page's first load.
pub fn read_for_page(text: &str) -> String {
    read_for_page_in(text, Lang::En)
}

/// `read_for_page` with the message in `lang` (the page's language).
pub fn read_for_page_in(text: &str, lang: Lang) -> String {
    match config_link(text) {
        Ok((a, link)) => {
            format!("ok\t{}\t{}\t{}\t{}\t{}", link, a.layers, a.hidden, a.param_count(), a.layout.vision_params)
        }
        Err(e) => format!("err\t{}", e.text(lang).replace(['\t', '\n'], " ")),
    }
}

/// `&quant_skip=…` when the config is a pre-quantized checkpoint's whose
/// `quantization_config.llm_int8_skip_modules` keeps block modules in 16 bits (Unsloth's
/// dynamic 4-bit checkpoints), else nothing.
pub fn skip_keys(text: &str) -> String {
    let Ok(v) = crate::json::parse(text) else { return String::new() };
    let list = v.get("quantization_config").and_then(|q| q.get("llm_int8_skip_modules")).and_then(Value::as_array);
    let names: Vec<&str> = list.map(|l| l.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let skip = crate::query::QuantSkip::parse_lenient(&names.join(","));
    if skip.is_empty() {
        String::new()
    } else {
        format!("&quant_skip={}", skip.to_query_value())
    }
}

/// A config.json text as its architecture and the link that reproduces it: the model's
/// keys (`link_for`) and a pre-quantized checkpoint's 16-bit modules (`skip_keys`).
pub fn config_link(text: &str) -> Result<(Architecture, String), ConfigError> {
    let a = parse(text)?;
    let link = link_for(&a)? + &skip_keys(text);
    Ok((a, link))
}

/// Puts a read config's link (`read_for_page`, `link_for` + `skip_keys`) into `q`: the
/// model is the link's (a preset, or architecture keys on an inferred base), every other
/// setting stays the query's. The page and the CLI's `--config` both apply configs so.
pub fn apply_link(q: &mut crate::Query, link: &str) -> Result<(), crate::QueryError> {
    let before = q.clone();
    q.model = None;
    q.params = None;
    q.arch = Default::default();
    q.quant_skip = Default::default();
    // The config's link is a link of its own (`v=1&model=...`); applied over a person's query,
    // its keys name the model only, and the query keeps its version and with it the defaults
    // of every key it leaves out (a `v=2` page stays on v=2's defaults).
    for (k, v) in link.split('&').filter_map(|kv| kv.split_once('=')).filter(|(k, _)| *k != "v") {
        q.set(k, v)?;
    }
    crate::catalog::adapt_to_model(&before, q);
    Ok(())
}

/// The link for a read config: the preset's id when the config is exactly a preset's
/// architecture, otherwise the architecture keys; refused when the model has parts the keys
/// cannot say (linear-attention blocks, gated attention, a gated shared expert) rather than
/// linking a different model.
pub fn link_for(a: &Architecture) -> Result<String, ConfigError> {
    if let Some(p) = crate::catalog::presets().iter().find(|p| p.arch == *a) {
        return Ok(format!("v=1&model={}", p.id));
    }
    // An image encoder with its own head: the preset and the labels (`vocab`).
    if a.layout.image.is_some() {
        if let Some(p) =
            crate::catalog::presets().iter().find(|p| Architecture { vocab: p.arch.vocab, ..a.clone() } == p.arch)
        {
            return Ok(format!("v=1&model={}&vocab={}", p.id, a.vocab));
        }
    }
    let l = &a.layout;
    if l.linear_attn.layers > 0 || l.attn_gate || l.shared_gate {
        return Err(ConfigError::Invalid { field: "model_type".into(), problem: ConfigProblem::LinearAttention });
    }
    Ok(to_query_fragment(a))
}

/// `read_for_page`'s line back: Ok((fragment, layers, hidden, params)) or Err(message).
pub fn read_page_line(line: &str) -> Result<(String, u64, u64, u64), String> {
    let f: Vec<&str> = line.split('\t').collect();
    let n = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    match f.first() {
        Some(&"ok") if f.len() >= 5 => Ok((f[1].to_string(), n(2), n(3), n(4))),
        Some(&"err") => Err(f.get(1).unwrap_or(&"").to_string()),
        _ => Err(format!("unexpected answer from the config reader: {line}")),
    }
}
