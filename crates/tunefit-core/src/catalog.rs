//! Preset models: exact config fields of published checkpoints, grouped by family.
//!
//! Fields are transcribed from each model's Hugging Face `config.json` (via torchtune
//! `_model_builders.py` @bd2a0fc7 and litgpt `config.py` @26857050, as collected in the
//! reference notes, 2026-12). Each preset's `published` count is the number its model card or
//! a machine log reports; `tests/catalog.rs` checks that the fields reproduce it exactly.

use crate::arch::{Architecture, MlpKind, NormKind, Quirks};

/// One preset model.
#[derive(Debug, Clone)]
pub struct Preset {
    pub id: &'static str,
    pub name: &'static str,
    /// Picker group on the page.
    pub family: &'static str,
    /// Published total parameter count (source in the comment beside each preset).
    pub published: u64,
    pub arch: Architecture,
}

/// Llama-style decoder: RMSNorm, gated MLP, no biases, RoPE.
#[allow(clippy::too_many_arguments)]
const fn llama(layers: u64, hidden: u64, heads: u64, kv: u64, hd: u64, ffn: u64, vocab: u64, tied: bool) -> Architecture {
    Architecture {
        layers, hidden, heads, kv_heads: kv, head_dim: hd, ffn, vocab, tied,
        mlp: MlpKind::Gated, norm: NormKind::Rms, norms_per_layer: 2, qk_norm: false,
        qkv_bias: false, o_bias: false, mlp_bias: false, lm_head_bias: false, positions: 0,
        experts: 1, experts_per_token: 1, encoder_only: false, type_vocab: 0, dropout: false,
        inferred: false, quirks: Quirks { act_extra_saves: 0, fused_qkv: false, softcap: false, norm_fp32_scale: false, softmax_fp32: true },
    }
}

const fn with_qkv_bias(mut a: Architecture) -> Architecture { a.qkv_bias = true; a }
const fn with_norms(mut a: Architecture, n: u64) -> Architecture { a.norms_per_layer = n; a }
/// Gemma: fp32 (1 + weight) scaling in the norm; Gemma 2 also soft-caps scores and logits.
const fn gemma(mut a: Architecture, softcap: bool) -> Architecture { a.quirks.norm_fp32_scale = true; a.quirks.softcap = softcap; a }
const fn fused_qkv(mut a: Architecture) -> Architecture { a.quirks.fused_qkv = true; a }
const fn moe(mut a: Architecture, e: u64, k: u64) -> Architecture { a.experts = e; a.experts_per_token = k; a }

/// GPT-2: LayerNorm, plain 4h MLP with biases everywhere, learned positions, tied, dropout 0.1.
const fn gpt2(layers: u64, hidden: u64, heads: u64) -> Architecture {
    Architecture {
        layers, hidden, heads, kv_heads: heads, head_dim: hidden / heads, ffn: 4 * hidden, vocab: 50257,
        tied: true, mlp: MlpKind::Plain, norm: NormKind::Layer, norms_per_layer: 2, qk_norm: false,
        qkv_bias: true, o_bias: true, mlp_bias: true, lm_head_bias: false, positions: 1024,
        experts: 1, experts_per_token: 1, encoder_only: false, type_vocab: 0, dropout: true,
        inferred: false, quirks: Quirks { act_extra_saves: 3, fused_qkv: true, softcap: false, norm_fp32_scale: false, softmax_fp32: false },
    }
}

/// BERT encoder: like GPT-2's block plus token types, an embedding LayerNorm and a pooler.
const fn bert(layers: u64, hidden: u64, heads: u64) -> Architecture {
    let mut a = gpt2(layers, hidden, heads);
    a.vocab = 30522; a.positions = 512; a.type_vocab = 2; a.encoder_only = true;
    // BERT: exact GELU (one saved input) and separate query/key/value linears.
    a.quirks = Quirks { act_extra_saves: 0, fused_qkv: false, softcap: false, norm_fp32_scale: false, softmax_fp32: false };
    a
}

macro_rules! p {
    ($id:literal, $name:literal, $fam:literal, $pub:expr, $a:expr) => {
        Preset { id: $id, name: $name, family: $fam, published: $pub, arch: $a }
    };
}

/// Every preset, in picker order.
pub fn presets() -> &'static [Preset] {
    use std::sync::OnceLock;
    static ALL: OnceLock<Vec<Preset>> = OnceLock::new();
    ALL.get_or_init(|| {
        let phi15 = {
            // microsoft/phi-1_5 config: parallel attention+MLP with one LayerNorm, partial
            // rotary, biases on every linear including the untied LM head.
            let mut a = gpt2(24, 2048, 32);
            a.vocab = 51200; a.positions = 0; a.tied = false; a.lm_head_bias = true;
            a.norms_per_layer = 1; a.dropout = false;
            a.quirks.fused_qkv = false; // HF PhiAttention: separate q_proj, k_proj, v_proj
            a.quirks.softmax_fp32 = true; // and the shared eager path upcasts softmax
            a
        };
        let qwen3_8b = { let mut a = llama(36, 4096, 32, 8, 128, 12288, 151936, false); a.qk_norm = true; a };
        let _ = qwen3_8b; // fields known, published count not confirmed here: not a preset yet.
        vec![
            // Llama 2 (meta-llama/Llama-2-*-hf model cards / reference §5).
            p!("llama-2-7b", "Llama 2 7B", "Llama", 6_738_415_616, llama(32, 4096, 32, 32, 128, 11008, 32000, false)),
            p!("llama-2-13b", "Llama 2 13B", "Llama", 13_015_864_320, llama(40, 5120, 40, 40, 128, 13824, 32000, false)),
            p!("llama-2-70b", "Llama 2 70B", "Llama", 68_976_648_192, llama(80, 8192, 64, 8, 128, 28672, 32000, false)),
            p!("codellama-7b", "Code Llama 7B", "Llama", 6_738_546_688, llama(32, 4096, 32, 32, 128, 11008, 32016, false)),
            // Llama 3 / 3.1 / 3.2 / 3.3.
            p!("llama-3-8b", "Llama 3 8B", "Llama", 8_030_261_248, llama(32, 4096, 32, 8, 128, 14336, 128256, false)),
            p!("llama-3.1-8b", "Llama 3.1 8B", "Llama", 8_030_261_248, llama(32, 4096, 32, 8, 128, 14336, 128256, false)),
            p!("llama-3-70b", "Llama 3 70B", "Llama", 70_553_706_496, llama(80, 8192, 64, 8, 128, 28672, 128256, false)),
            p!("llama-3.1-70b", "Llama 3.1 70B", "Llama", 70_553_706_496, llama(80, 8192, 64, 8, 128, 28672, 128256, false)),
            p!("llama-3.3-70b", "Llama 3.3 70B", "Llama", 70_553_706_496, llama(80, 8192, 64, 8, 128, 28672, 128256, false)),
            p!("llama-3.1-405b", "Llama 3.1 405B", "Llama", 405_853_388_800, llama(126, 16384, 128, 8, 128, 53248, 128256, false)),
            p!("llama-3.2-1b", "Llama 3.2 1B", "Llama", 1_235_814_400, llama(16, 2048, 32, 8, 64, 8192, 128256, true)),
            // 3,212,749,824 is also PEFT MetaMathQA's logged num_total_params.
            p!("llama-3.2-3b", "Llama 3.2 3B", "Llama", 3_212_749_824, llama(28, 3072, 24, 8, 128, 8192, 128256, true)),
            p!("tinyllama-1.1b", "TinyLlama 1.1B", "Llama", 1_100_048_384, llama(22, 2048, 32, 4, 64, 5632, 32000, false)),
            // Mistral.
            p!("mistral-7b", "Mistral 7B v0.1", "Mistral", 7_241_732_096, llama(32, 4096, 32, 8, 128, 14336, 32000, false)),
            p!("mistral-7b-v0.3", "Mistral 7B v0.3", "Mistral", 7_248_023_552, llama(32, 4096, 32, 8, 128, 14336, 32768, false)),
            p!("mixtral-8x7b", "Mixtral 8x7B", "Mistral", 46_702_792_704, moe(llama(32, 4096, 32, 8, 128, 14336, 32000, false), 8, 2)),
            // Qwen (q, k, v biases).
            p!("qwen-7b", "Qwen 7B (v1)", "Qwen", 7_721_324_544, with_qkv_bias(llama(32, 4096, 32, 32, 128, 11008, 151936, false))),
            p!("qwen2-7b", "Qwen2 7B", "Qwen", 7_615_616_512, with_qkv_bias(llama(28, 3584, 28, 4, 128, 18944, 152064, false))),
            p!("qwen2.5-0.5b", "Qwen2.5 0.5B", "Qwen", 494_032_768, with_qkv_bias(llama(24, 896, 14, 2, 64, 4864, 151936, true))),
            p!("qwen2.5-1.5b", "Qwen2.5 1.5B", "Qwen", 1_543_714_304, with_qkv_bias(llama(28, 1536, 12, 2, 128, 8960, 151936, true))),
            p!("qwen2.5-3b", "Qwen2.5 3B", "Qwen", 3_085_938_688, with_qkv_bias(llama(36, 2048, 16, 2, 128, 11008, 151936, true))),
            p!("qwen2.5-7b", "Qwen2.5 7B", "Qwen", 7_615_616_512, with_qkv_bias(llama(28, 3584, 28, 4, 128, 18944, 152064, false))),
            p!("qwen2.5-14b", "Qwen2.5 14B", "Qwen", 14_770_033_664, with_qkv_bias(llama(48, 5120, 40, 8, 128, 13824, 152064, false))),
            p!("qwen2.5-32b", "Qwen2.5 32B", "Qwen", 32_763_876_352, with_qkv_bias(llama(64, 5120, 40, 8, 128, 27648, 152064, false))),
            p!("qwen2.5-72b", "Qwen2.5 72B", "Qwen", 72_706_203_648, with_qkv_bias(llama(80, 8192, 64, 8, 128, 29568, 152064, false))),
            // Gemma (GeGLU, head_dim 256; Gemma 2 has four norms per block).
            p!("gemma-2b", "Gemma 2B", "Gemma", 2_506_172_416, gemma(llama(18, 2048, 8, 1, 256, 16384, 256000, true), false)),
            p!("gemma-7b", "Gemma 7B", "Gemma", 8_537_680_896, gemma(llama(28, 3072, 16, 16, 256, 24576, 256000, true), false)),
            p!("gemma-2-2b", "Gemma 2 2B", "Gemma", 2_614_341_888, gemma(with_norms(llama(26, 2304, 8, 4, 256, 9216, 256000, true), 4), true)),
            p!("gemma-2-9b", "Gemma 2 9B", "Gemma", 9_241_705_984, gemma(with_norms(llama(42, 3584, 16, 8, 256, 14336, 256000, true), 4), true)),
            p!("gemma-2-27b", "Gemma 2 27B", "Gemma", 27_227_128_320, gemma(with_norms(llama(46, 4608, 32, 16, 128, 36864, 256000, true), 4), true)),
            // Phi.
            p!("phi-1.5", "phi-1.5", "Phi", 1_418_270_720, phi15),
            p!("phi-3-mini", "Phi-3 mini 4k", "Phi", 3_821_079_552, fused_qkv(llama(32, 3072, 32, 32, 96, 8192, 32064, false))),
            // GPT-2 (openai-community/gpt2*, HF model cards).
            p!("gpt2", "GPT-2 (124M)", "GPT-2", 124_439_808, gpt2(12, 768, 12)),
            p!("gpt2-medium", "GPT-2 Medium", "GPT-2", 354_823_168, gpt2(24, 1024, 16)),
            p!("gpt2-large", "GPT-2 Large", "GPT-2", 774_030_080, gpt2(36, 1280, 20)),
            p!("gpt2-xl", "GPT-2 XL", "GPT-2", 1_557_611_200, gpt2(48, 1600, 25)),
            // BERT (BertModel with pooler; a 2-label classifier adds 2,050).
            p!("bert-base-uncased", "BERT base uncased", "BERT", 109_482_240, bert(12, 768, 12)),
            p!("bert-large-uncased", "BERT large uncased", "BERT", 335_141_888, bert(24, 1024, 16)),
        ]
    })
}

/// Finds a preset by id.
pub fn preset(id: &str) -> Option<&'static Preset> {
    presets().iter().find(|p| p.id == id)
}

/// Preset families in picker order, each with its presets.
pub fn families() -> Vec<(&'static str, Vec<&'static Preset>)> {
    let mut out: Vec<(&'static str, Vec<&'static Preset>)> = Vec::new();
    for p in presets() {
        match out.iter_mut().find(|(f, _)| *f == p.family) {
            Some((_, v)) => v.push(p),
            None => out.push((p.family, vec![p])),
        }
    }
    out
}

/// Every preset id, "a|b|c", for error messages.
pub fn accepted_ids() -> String {
    presets().iter().map(|p| p.id).collect::<Vec<_>>().join("|")
}
