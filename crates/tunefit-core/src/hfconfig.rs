//! Hugging Face `config.json` → `Architecture`.
//!
//! Reads the fields transformers' own config classes define (LlamaConfig, MistralConfig,
//! MixtralConfig, Qwen2Config, GemmaConfig, Gemma2Config, Phi3Config, PhiConfig, GPT2Config,
//! BertConfig) with the same defaults those classes apply when a field is absent. Unknown
//! fields are ignored; a missing required field is an error naming it.

use crate::arch::{Architecture, MlpKind, NormKind};
use crate::json::Json as Value;
use std::fmt;

/// Why a config could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// Not a JSON object.
    NotJson(String),
    /// A field the family needs is absent or not a positive whole number / boolean.
    Missing { field: String },
    Invalid { field: String, message: String },
    /// `model_type` is not one this module reads.
    UnsupportedFamily(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::NotJson(e) => write!(f, "config.json is not a JSON object: {e}"),
            ConfigError::Missing { field } => write!(f, "config.json: required field '{field}' is missing"),
            ConfigError::Invalid { field, message } => write!(f, "config.json: '{field}' {message}"),
            ConfigError::UnsupportedFamily(t) => write!(f, "config.json: model_type '{t}' is not supported; supported: {}", FAMILIES.join(", ")),
        }
    }
}

impl std::error::Error for ConfigError {}

/// `model_type` values read here.
pub const FAMILIES: &[&str] = &["llama", "mistral", "mixtral", "qwen2", "gemma", "gemma2", "phi3", "phi", "gpt2", "bert"];

struct Fields<'a>(&'a Value);

impl Fields<'_> {
    fn opt_u64(&self, k: &str) -> Result<Option<u64>, ConfigError> {
        match self.0.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if (1..=100_000_000).contains(&n) => Ok(Some(n)),
                _ => Err(ConfigError::Invalid { field: k.into(), message: format!("must be a whole number from 1 to 1e8, got {v}") }),
            },
        }
    }
    fn u64(&self, k: &str) -> Result<u64, ConfigError> {
        self.opt_u64(k)?.ok_or_else(|| ConfigError::Missing { field: k.into() })
    }
    fn bool_or(&self, k: &str, d: bool) -> Result<bool, ConfigError> {
        match self.0.get(k) {
            None | Some(Value::Null) => Ok(d),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(ConfigError::Invalid { field: k.into(), message: format!("must be true or false, got {v}") }),
        }
    }
}

/// Parses a config.json text.
pub fn parse(text: &str) -> Result<Architecture, ConfigError> {
    let v: Value = crate::json::parse(text).map_err(|e| ConfigError::NotJson(e.to_string()))?;
    from_value(&v)
}

/// Reads a parsed config.json.
pub fn from_value(v: &Value) -> Result<Architecture, ConfigError> {
    if !v.is_object() { return Err(ConfigError::NotJson("top level is not an object".into())); }
    let (obj, f) = (v, Fields(v));
    let ty = obj.get("model_type").and_then(Value::as_str).ok_or(ConfigError::Missing { field: "model_type".into() })?;
    let mut a = match ty {
        "llama" | "mistral" | "mixtral" | "qwen2" | "gemma" | "gemma2" | "phi3" => {
            let hidden = f.u64("hidden_size")?;
            let heads = f.u64("num_attention_heads")?;
            let kv = f.opt_u64("num_key_value_heads")?.unwrap_or(heads);
            let head_dim = f.opt_u64("head_dim")?.unwrap_or(hidden / heads);
            // Defaults of tie_word_embeddings per config class: Gemma/Gemma2 True, others False.
            let tied_default = matches!(ty, "gemma" | "gemma2");
            let attn_bias = f.bool_or("attention_bias", false)?;
            let mut a = Architecture {
                layers: f.u64("num_hidden_layers")?, hidden, heads, kv_heads: kv, head_dim,
                ffn: f.u64("intermediate_size")?, vocab: f.u64("vocab_size")?,
                tied: f.bool_or("tie_word_embeddings", tied_default)?,
                mlp: MlpKind::Gated, norm: NormKind::Rms,
                norms_per_layer: if ty == "gemma2" { 4 } else { 2 }, qk_norm: false,
                // Qwen2 always has q/k/v biases (Qwen2Attention: bias=True).
                qkv_bias: ty == "qwen2" || attn_bias, o_bias: attn_bias,
                mlp_bias: f.bool_or("mlp_bias", false)?, lm_head_bias: false, positions: 0,
                experts: 1, experts_per_token: 1, encoder_only: false, type_vocab: 0, dropout: false,
                inferred: false,
                quirks: crate::arch::Quirks {
                    act_extra_saves: 0, fused_qkv: ty == "phi3",
                    softcap: ty == "gemma2", norm_fp32_scale: matches!(ty, "gemma" | "gemma2"),
                    softmax_fp32: true,
                },
            };
            if ty == "mixtral" {
                a.experts = f.u64("num_local_experts")?;
                a.experts_per_token = f.u64("num_experts_per_tok")?;
            }
            a
        }
        "phi" => {
            // PhiConfig (phi-1, phi-1.5, phi-2): parallel block, one LayerNorm, biased linears
            // and LM head; intermediate_size defaults to 8192 in PhiConfig.
            let hidden = f.u64("hidden_size")?;
            let heads = f.u64("num_attention_heads")?;
            let mut a = crate::catalog::preset("phi-1.5").expect("phi-1.5 preset").arch.clone();
            a.layers = f.u64("num_hidden_layers")?; a.hidden = hidden; a.heads = heads;
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
            a.layers = f.u64("n_layer")?; a.hidden = hidden; a.heads = heads; a.kv_heads = heads;
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
            a.layers = f.u64("num_hidden_layers")?; a.hidden = hidden; a.heads = heads; a.kv_heads = heads;
            a.head_dim = hidden / heads;
            a.ffn = f.u64("intermediate_size")?;
            a.vocab = f.u64("vocab_size")?;
            a.positions = f.u64("max_position_embeddings")?;
            a.type_vocab = f.opt_u64("type_vocab_size")?.unwrap_or(2);
            a
        }
        other => return Err(ConfigError::UnsupportedFamily(other.to_string())),
    };
    a.inferred = false;
    if a.heads % a.kv_heads != 0 {
        return Err(ConfigError::Invalid { field: "num_key_value_heads".into(), message: format!("{} does not divide num_attention_heads {}", a.kv_heads, a.heads) });
    }
    if a.experts_per_token > a.experts {
        return Err(ConfigError::Invalid { field: "num_experts_per_tok".into(), message: "exceeds num_local_experts".into() });
    }
    Ok(a)
}

/// The query string fragment (`layers=..&hidden=..`) that puts a pasted config into a link.
pub fn to_query_fragment(a: &Architecture) -> String {
    let o = a.to_overrides();
    let mut q = crate::Query { model: None, arch: o, ..Default::default() };
    q.params = None;
    q.to_query_string().replace("model=custom&", "")
}
