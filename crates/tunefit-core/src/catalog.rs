//! Preset models: exact config fields of published checkpoints, grouped by family.
//!
//! Fields are transcribed from each model's Hugging Face `config.json` (via torchtune
//! `_model_builders.py` @bd2a0fc7 and litgpt `config.py` @26857050, as collected in the
//! reference notes, 2026-12). Each preset's `published` count is the number its model card or
//! a machine log reports; `tests/catalog.rs` checks that the fields reproduce it exactly.

use crate::arch::{
    Architecture, ImageInput, Layout, MlpKind, NormKind, Quirks, QwenGeneration, QwenVision, Sam, SpeechEncoder, Tower,
};

/// One preset model.
#[derive(Debug, Clone)]
pub struct Preset {
    pub id: &'static str,
    pub name: &'static str,
    /// Picker group on the page.
    pub family: &'static str,
    /// Published total parameter count (source in the comment beside each preset).
    pub published: u64,
    /// The Hugging Face repository people load it from (`Qwen/Qwen3-8B`), for search.
    pub repo: &'static str,
    pub arch: Architecture,
}

/// Llama-style decoder: RMSNorm, gated MLP, no biases, RoPE.
#[allow(clippy::too_many_arguments)]
const fn llama(
    layers: u64,
    hidden: u64,
    heads: u64,
    kv: u64,
    hd: u64,
    ffn: u64,
    vocab: u64,
    tied: bool,
) -> Architecture {
    Architecture {
        layers,
        hidden,
        heads,
        kv_heads: kv,
        head_dim: hd,
        ffn,
        vocab,
        tied,
        mlp: MlpKind::Gated,
        norm: NormKind::Rms,
        norms_per_layer: 2,
        qk_norm: false,
        qkv_bias: false,
        o_bias: false,
        mlp_bias: false,
        lm_head_bias: false,
        positions: 0,
        experts: 1,
        experts_per_token: 1,
        encoder_only: false,
        type_vocab: 0,
        dropout: false,
        inferred: false,
        quirks: Quirks {
            act_extra_saves: 0,
            fused_qkv: false,
            softcap: false,
            norm_fp32_scale: false,
            softmax_fp32: true,
        },
        layout: Layout::UNIFORM,
    }
}

const fn with_qkv_bias(mut a: Architecture) -> Architecture {
    a.qkv_bias = true;
    a
}
const fn with_norms(mut a: Architecture, n: u64) -> Architecture {
    a.norms_per_layer = n;
    a
}
/// Gemma: fp32 (1 + weight) scaling in the norm; Gemma 2 also soft-caps scores and logits.
const fn gemma(mut a: Architecture, softcap: bool) -> Architecture {
    a.quirks.norm_fp32_scale = true;
    a.quirks.softcap = softcap;
    a
}
const fn fused_qkv(mut a: Architecture) -> Architecture {
    a.quirks.fused_qkv = true;
    a
}
const fn moe(mut a: Architecture, e: u64, k: u64) -> Architecture {
    a.experts = e;
    a.experts_per_token = k;
    a
}
/// Per-head RMSNorm on q and k (Qwen3, Gemma 3); OLMo 2's spans all heads (`full`).
const fn qk_norm(mut a: Architecture, full: bool) -> Architecture {
    a.qk_norm = true;
    a.layout.qk_norm_full = full;
    a
}
/// Qwen v1's remote code (Qwen/Qwen-7B `modeling_qwen.py`, vendored at alibaba/MNN@4b3d1f81
/// transformers/llm/export/llm_models/Qwen-7B-Chat/modeling_qwen.py): `QWenLMHeadModel.forward`
/// takes `CrossEntropyLoss` of `lm_logits[..., :-1, :].contiguous()` in the head's dtype.
const fn own_loss(mut a: Architecture) -> Architecture {
    a.layout.own_loss = true;
    a
}
/// A multimodal checkpoint's frozen vision tower and projector.
const fn vision(mut a: Architecture, params: u64) -> Architecture {
    a.layout.vision_params = params;
    a
}
/// A multimodal checkpoint's tower as it runs on images, beside its parameters.
const fn with_tower(mut a: Architecture, params: u64, tower: &'static Tower) -> Architecture {
    a.layout.vision_params = params;
    a.layout.tower = tower;
    a
}
/// Qwen2-VL's vision tower (transformers `qwen2_vl/modeling_qwen2_vl.py` @00b676f8,
/// `Qwen2VisionTransformerPretrainedModel`): a Conv3d patch embedding without bias
/// (3·2·14·14·1280), 32 `Qwen2VLVisionBlock`s (two LayerNorms, a fused `qkv` and `proj` with
/// biases, an fc1/fc2 MLP of 5120 with biases and QuickGELU), then the `PatchMerger`:
/// LayerNorm(1280), Linear(5120, 5120), GELU, Linear(5120, text hidden), with biases. Every
/// image at its own size, each side a multiple of 28 (`smart_resize`), 2×2 patches per
/// visual token; every block attends over the whole image.
const fn qwen2_vl_tower(text_hidden: u64) -> Tower {
    QwenVision {
        generation: QwenGeneration::Qwen2,
        layers: 32,
        hidden: 1280,
        heads: 16,
        ffn: 5120,
        patch: 14,
        merge: 2,
        out: text_hidden,
        deepstack: 0,
        full_attn_layers: 32,
        window: 0,
    }
    .tower()
}
const fn qwen2_vl_params(text_hidden: u64) -> u64 {
    1_505_280 + 32 * 19_677_440 + 2 * 1280 + (5120 * 5120 + 5120) + (5120 * text_hidden + text_hidden)
}
/// Qwen2.5-VL's tower (`qwen2_5_vl/modular_qwen2_5_vl.py` @00d01082): Qwen2-VL's patch
/// embedding and merger with RMSNorms, blocks of two RMSNorms, the fused `qkv` and `proj`
/// with biases and a SwiGLU MLP (gate, up, down, with biases) of `ffn` (3420 in 3B/7B, 3456
/// in 32B: the published totals); blocks 7, 15, 23 and 31 attend over the whole image, the
/// others over windows of 112 px (8×8 patches).
const fn qwen2_5_vl_tower(ffn: u64, text_hidden: u64) -> Tower {
    QwenVision {
        generation: QwenGeneration::Qwen25,
        layers: 32,
        hidden: 1280,
        heads: 16,
        ffn,
        patch: 14,
        merge: 2,
        out: text_hidden,
        deepstack: 0,
        full_attn_layers: 4,
        window: 64,
    }
    .tower()
}
const QWEN2_VL_2B_TOWER: Tower = qwen2_vl_tower(1536);
const QWEN2_VL_7B_TOWER: Tower = qwen2_vl_tower(3584);
const QWEN2_5_VL_3B_TOWER: Tower = qwen2_5_vl_tower(3420, 2048);
const QWEN2_5_VL_7B_TOWER: Tower = qwen2_5_vl_tower(3420, 3584);
const QWEN2_5_VL_32B_TOWER: Tower = qwen2_5_vl_tower(3456, 5120);
/// Qwen3-VL's tower (transformers `qwen3_vl/modeling_qwen3_vl.py` @68a7b7e2,
/// `Qwen3VLVisionModel`): a Conv3d patch embedding with bias (3·2·16·16·1152 + 1152), learned
/// positions (2,304 × 1152, interpolated to the image), 27 blocks of LayerNorms, a fused `qkv`
/// and `proj` with biases and a GELU (tanh) MLP of 4304, every block over the whole image with
/// 2-D rotary positions, then the merger (LayerNorm(1152), 4608 → 4608 → text width) and three
/// DeepStack mergers (LayerNorm(4608) after the 2×2 shuffle, the same linears) whose outputs
/// join the language model's first three blocks. 16-px patches, 2×2 per visual token: each
/// side a multiple of 32.
const fn qwen3_vl_tower(text_hidden: u64) -> Tower {
    QwenVision {
        generation: QwenGeneration::Qwen3,
        layers: 27,
        hidden: 1152,
        heads: 16,
        ffn: 4304,
        patch: 16,
        merge: 2,
        out: text_hidden,
        deepstack: 3,
        full_attn_layers: 27,
        window: 0,
    }
    .tower()
}
const fn qwen3_vl_params(text_hidden: u64) -> u64 {
    let block = 4 * 1152 + (1152 * 3456 + 3456) + (1152 * 1152 + 1152) + (1152 * 4304 + 4304) + (4304 * 1152 + 1152);
    let linears = (4608 * 4608 + 4608) + (4608 * text_hidden + text_hidden);
    (3 * 2 * 16 * 16 * 1152 + 1152) + 2304 * 1152 + 27 * block + (2 * 1152 + linears) + 3 * (2 * 4608 + linears)
}
const QWEN3_VL_8B_TOWER: Tower = qwen3_vl_tower(4096);
const fn qwen2_5_vl_params(ffn: u64, text_hidden: u64) -> u64 {
    let block = 2 * 1280 + (1280 * 3840 + 3840) + (1280 * 1280 + 1280) + 2 * (1280 * ffn + ffn) + (ffn * 1280 + 1280);
    1_505_280 + 32 * block + 1280 + (5120 * 5120 + 5120) + (5120 * text_hidden + text_hidden)
}
/// Gemma 3's SigLIP tower as it runs (transformers `siglip/modeling_siglip.py`): every image
/// resized to 896², 14-px patches (4,096), 27 blocks of LayerNorms, q/k/v/o and a GELU MLP of
/// 4304, all attending over the whole image; `Gemma3MultiModalProjector` average-pools 4×4
/// patches into each of the 256 visual tokens.
const GEMMA3_TOWER: Tower = Tower::siglip(27, 1152, 16, 4304, 14, 4, 896);
/// Gemma 3 (transformers `Gemma3DecoderLayer`): four norms and per-head q/k norms; soft-capping
/// is gone (attn_logit_softcapping and final_logit_softcapping are None).
const fn gemma3(layers: u64, hidden: u64, heads: u64, kv: u64, hd: u64, ffn: u64, vocab: u64) -> Architecture {
    qk_norm(gemma(with_norms(llama(layers, hidden, heads, kv, hd, ffn, vocab, true), 4), false), false)
}
/// SigLIP-So400m tower of Gemma 3 (hidden 1152, ffn 4304, 27 layers, 14-px patches of an
/// 896-px image, no pooling head) = 416,866,032, plus the projector's
/// `mm_input_projection_weight` [1152, h] and `mm_soft_emb_norm` (1152).
const fn gemma3_vision(text_hidden: u64) -> u64 {
    416_866_032 + 1152 * text_hidden + 1152
}
/// Qwen3-Next-80B-A3B (transformers `qwen3_next/modular_qwen3_next.py`): 48 blocks, every
/// fourth softmax attention (16 heads of 256, 2 kv heads, q_proj doubled for the output
/// gate, per-head (1 + w) q/k norms), the other 36 Gated DeltaNet (16 key heads and 32 value
/// heads of 128, conv 4); every block MoE: 512 experts of 512, top-10, plus a gated shared
/// expert of 512. The checkpoint's 81,324,862,720 adds the multi-token-prediction block
/// (`mtp.*`, 1,650,471,424), which transformers does not load.
const fn qwen3_next() -> Architecture {
    let mut a = moe(qk_norm(llama(48, 2048, 16, 2, 256, 512, 151_936, false), false), 512, 10);
    a.quirks.norm_fp32_scale = true;
    a.layout.shared_ffn = 512;
    a.layout.shared_gate = true;
    a.layout.attn_gate = true;
    a.layout.linear_attn =
        crate::arch::LinearAttn { layers: 36, key_heads: 16, key_dim: 128, value_heads: 32, value_dim: 128, conv: 4 };
    a
}

/// Llama 4 (transformers `Llama4TextDecoderLayer`): MoE blocks of `experts` routed experts
/// (top-1) plus a shared expert as wide; `dense` blocks of width 16,384 between them in Maverick.
const fn llama4(experts: u64, dense: u64, vision_params: u64) -> Architecture {
    let mut a = moe(llama(48, 5120, 40, 8, 128, 8192, 202_048, false), experts, 1);
    a.layout.shared_ffn = 8192;
    a.layout.dense_layers = dense;
    a.layout.dense_ffn = 16384;
    a.layout.vision_params = vision_params;
    a
}
/// gpt-oss (transformers `modeling_gpt_oss.py`): biases on q, k, v, o, the router and both
/// expert projections; one attention sink per head; head_dim 64 (64 heads · 64 ≠ 2880).
const fn gpt_oss(layers: u64, experts: u64) -> Architecture {
    let mut a = moe(llama(layers, 2880, 64, 8, 64, 2880, 201_088, false), experts, 4);
    a.qkv_bias = true;
    a.o_bias = true;
    a.mlp_bias = true;
    a.layout.router_bias = true;
    a.layout.attn_sinks = true;
    a
}

/// GPT-2: LayerNorm, plain 4h MLP with biases everywhere, learned positions, tied, dropout 0.1.
const fn gpt2(layers: u64, hidden: u64, heads: u64) -> Architecture {
    Architecture {
        layers,
        hidden,
        heads,
        kv_heads: heads,
        head_dim: hidden / heads,
        ffn: 4 * hidden,
        vocab: 50257,
        tied: true,
        mlp: MlpKind::Plain,
        norm: NormKind::Layer,
        norms_per_layer: 2,
        qk_norm: false,
        qkv_bias: true,
        o_bias: true,
        mlp_bias: true,
        lm_head_bias: false,
        positions: 1024,
        experts: 1,
        experts_per_token: 1,
        encoder_only: false,
        type_vocab: 0,
        dropout: true,
        inferred: false,
        quirks: Quirks {
            act_extra_saves: 3,
            fused_qkv: true,
            softcap: false,
            norm_fp32_scale: false,
            softmax_fp32: false,
        },
        layout: Layout::UNIFORM,
    }
}

/// BERT encoder: like GPT-2's block plus token types, an embedding LayerNorm and a pooler.
const fn bert(layers: u64, hidden: u64, heads: u64) -> Architecture {
    let mut a = gpt2(layers, hidden, heads);
    a.vocab = 30522;
    a.positions = 512;
    a.type_vocab = 2;
    a.encoder_only = true;
    // BERT: exact GELU (one saved input) and separate query/key/value linears.
    a.quirks =
        Quirks { act_extra_saves: 0, fused_qkv: false, softcap: false, norm_fp32_scale: false, softmax_fp32: false };
    a
}

/// Llama 4's vision path (transformers `modeling_llama4.py`: Llama4VisionModel 850,960,896 —
/// 34 layers of width 1408 with biases, 577 positions, the pixel-shuffle adapter 5632→4096→4096
/// — plus the projector 4096×5120, 20,971,520), the same in Scout and Maverick.
const LLAMA4_VISION: u64 = 871_932_416;

/// A vision transformer trained on its own (`encoder_only`, sequence = the image's patches):
/// GPT-2's pre-norm block with biases everywhere and separate q, k, v (transformers
/// `ViTLayer`, `CLIPEncoderLayer`, `SiglipEncoderLayer`), exact GELU (one saved input), no
/// dropout (every checkpoint here has p = 0, which PyTorch's `dropout` returns unmasked),
/// `labels` classifier outputs, and `image` for what comes before and after the blocks.
const fn vit(layers: u64, hidden: u64, heads: u64, ffn: u64, labels: u64, image: &'static ImageInput) -> Architecture {
    let mut a = gpt2(layers, hidden, heads);
    a.ffn = ffn;
    a.vocab = labels;
    a.tied = false;
    a.positions = 0;
    a.dropout = false;
    a.encoder_only = true;
    a.quirks =
        Quirks { act_extra_saves: 0, fused_qkv: false, softcap: false, norm_fp32_scale: false, softmax_fp32: false };
    a.layout.image = Some(image);
    a
}
/// CLIP's `quick_gelu` (`x * sigmoid(1.702 x)` in elementwise ops) keeps the sigmoid's
/// output beside its input.
const fn quick_gelu(mut a: Architecture) -> Architecture {
    a.quirks.act_extra_saves = 1;
    a
}
/// transformers `ViTConfig` (patch 16 or 14, class token, conv bias, a final LayerNorm).
const VIT_16_224: ImageInput =
    ImageInput { patch: 16, side: 224, cls: true, conv_bias: true, norms: 1, pool_head: false, sam: None };
const VIT_14_224: ImageInput =
    ImageInput { patch: 14, side: 224, cls: true, conv_bias: true, norms: 1, pool_head: false, sam: None };
/// `CLIPVisionEmbeddings`: a bias-free patch convolution; `pre_layrnorm` and `post_layernorm`.
const CLIP_14_224: ImageInput =
    ImageInput { patch: 14, side: 224, cls: true, conv_bias: false, norms: 2, pool_head: false, sam: None };
/// `SiglipVisionEmbeddings`: no class token; `post_layernorm`; the attention-pooling head.
const SIGLIP_14_384: ImageInput =
    ImageInput { patch: 14, side: 384, cls: false, conv_bias: true, norms: 1, pool_head: true, sam: None };

/// Segment Anything (transformers `SamModel`, arch::Sam): a ViT of `layers` blocks with MLP
/// 4·hidden (`mlp_dim`), exact GELU, one fused `qkv` linear with biases, learned absolute
/// positions over the 64×64 patch grid, no class token, no final norm; dropout 0.
const fn sam(layers: u64, hidden: u64, heads: u64) -> Architecture {
    let mut a = vit(layers, hidden, heads, 4 * hidden, 0, &SAM_1024);
    a.quirks.fused_qkv = true;
    a
}
/// `SamVisionConfig` of facebook/sam-vit-{base,large,huge}: 1024² images in 16-pixel patches,
/// 14×14 windows, four global blocks, a 256-channel neck.
const SAM_1024: ImageInput = ImageInput {
    patch: 16,
    side: 1024,
    cls: false,
    conv_bias: true,
    norms: 0,
    pool_head: false,
    sam: Some(&Sam { window: 14, global: 4, channels: 256 }),
};

/// Whisper (transformers `WhisperForConditionalGeneration`): the architecture's blocks are
/// the decoder's (`decoder_layers` of a pre-norm self-attention, a cross-attention over the
/// encoder's frames and a GELU MLP of 4·d with biases, three LayerNorms, 448 learned
/// positions), `proj_out` tied to the token table; `speech` is the audio encoder. Exact GELU,
/// softmax in the model dtype (`eager_attention_forward`), dropout 0 in every checkpoint.
const fn whisper(decoder: u64, hidden: u64, heads: u64, vocab: u64, speech: &'static SpeechEncoder) -> Architecture {
    let mut a = gpt2(decoder, hidden, heads);
    a.vocab = vocab;
    a.positions = 448;
    a.norms_per_layer = 3;
    a.dropout = false;
    a.quirks =
        Quirks { act_extra_saves: 0, fused_qkv: false, softcap: false, norm_fp32_scale: false, softmax_fp32: false };
    a.layout.speech = Some(speech);
    a.layout.own_loss = true;
    a
}
const WHISPER_SMALL: SpeechEncoder = SpeechEncoder { layers: 12, mels: 80, frames: 3000 };
const WHISPER_MEDIUM: SpeechEncoder = SpeechEncoder { layers: 24, mels: 80, frames: 3000 };
const WHISPER_LARGE: SpeechEncoder = SpeechEncoder { layers: 32, mels: 80, frames: 3000 };
/// large-v3 (and its turbo): 128 mel bins.
const WHISPER_LARGE_V3: SpeechEncoder = SpeechEncoder { layers: 32, mels: 128, frames: 3000 };

macro_rules! p {
    ($id:literal, $name:literal, $fam:literal, $pub:expr, $repo:literal, $a:expr) => {
        Preset { id: $id, name: $name, family: $fam, published: $pub, repo: $repo, arch: $a }
    };
}

/// Every preset, in picker order: families by how often people fine-tune them, newest
/// release first within each.
pub fn presets() -> &'static [Preset] {
    &PRESETS
}

/// microsoft/phi-1_5 config: parallel attention+MLP with one LayerNorm, partial rotary,
/// biases on every linear including the untied LM head.
const fn phi15() -> Architecture {
    let mut a = gpt2(24, 2048, 32);
    a.vocab = 51200;
    a.positions = 0;
    a.tied = false;
    a.lm_head_bias = true;
    a.norms_per_layer = 1;
    a.dropout = false;
    a.quirks.fused_qkv = false; // HF PhiAttention: separate q_proj, k_proj, v_proj
    a.quirks.softmax_fp32 = true; // and the shared eager path upcasts softmax
    a
}

/// DeepSeek-V3 (config.json; transformers `modeling_deepseek_v3.py`): 61 blocks, the first 3
/// dense (18,432 wide), then 256 routed experts (top-8) of 2,048 and one shared one;
/// multi-head latent attention (q rank 1536, kv rank 512, rope 64, nope 128, v 128). The
/// checkpoint's 685B adds the multi-token-prediction block (layer 61), which transformers
/// does not load; 671,026,404,352 is the model that trains. The router's
/// `e_score_correction_bias` is a buffer (58 × 256 floats), not a parameter.
const fn deepseek_v3() -> Architecture {
    let mut a = moe(llama(61, 7168, 128, 128, 192, 2048, 129_280, false), 256, 8);
    a.layout.dense_layers = 3;
    a.layout.dense_ffn = 18432;
    a.layout.shared_ffn = 2048;
    a.layout.mla = crate::arch::Mla { q_rank: 1536, kv_rank: 512, rope_dim: 64, v_dim: 128 };
    a
}

// The table is data (built at compile time by the const fns above), not start-up code: the
// page's wasm carries it as bytes. Published totals are the checkpoints' safetensors totals
// (Hugging Face API `safetensors.total`, as copied in public files, read 2026-12); model
// cards round them.
/// transformers 5.23.0 built on the meta device from the checkpoint's config:
/// `ViTModel(config, add_pooling_layer=False)` (632,404,480 with the pooler the in21k
/// checkpoint stores).
const VIT_H_PARAMS: u64 = 630_764_800;
const N_PRESETS: usize = 78;
static PRESETS: [Preset; N_PRESETS] = [
    // Qwen3 (model_type qwen3 / qwen3_moe; per-head q/k RMSNorm, no biases, head_dim 128
    // whatever hidden/heads is). 0.6B: the checkpoint stores a copy of the tied
    // embedding as lm_head.weight, so its safetensors total is 751,632,384
    // (= 596,049,920 + 151,936·1,024); loaded, the matrix is one.
    p!(
        "qwen3-0.6b",
        "Qwen3 0.6B",
        "Qwen",
        596_049_920,
        "Qwen/Qwen3-0.6B",
        qk_norm(llama(28, 1024, 16, 8, 128, 3072, 151_936, true), false)
    ),
    p!(
        "qwen3-8b",
        "Qwen3 8B",
        "Qwen",
        8_190_735_360,
        "Qwen/Qwen3-8B",
        qk_norm(llama(36, 4096, 32, 8, 128, 12288, 151_936, false), false)
    ),
    p!(
        "qwen3-32b",
        "Qwen3 32B",
        "Qwen",
        32_762_123_264,
        "Qwen/Qwen3-32B",
        qk_norm(llama(64, 5120, 64, 8, 128, 25600, 151_936, false), false)
    ),
    p!(
        "qwen3-next-80b-a3b",
        "Qwen3-Next 80B-A3B (hybrid MoE)",
        "Qwen",
        79_674_391_296,
        "Qwen/Qwen3-Next-80B-A3B-Instruct",
        qwen3_next()
    ),
    // MoE: 128 experts of moe_intermediate_size, top-8, no shared expert, router without bias.
    p!(
        "qwen3-30b-a3b",
        "Qwen3 30B-A3B (MoE)",
        "Qwen",
        30_532_122_624,
        "Qwen/Qwen3-30B-A3B",
        moe(qk_norm(llama(48, 2048, 32, 4, 128, 768, 151_936, false), false), 128, 8)
    ),
    p!(
        "qwen3-235b-a22b",
        "Qwen3 235B-A22B (MoE)",
        "Qwen",
        235_093_634_560,
        "Qwen/Qwen3-235B-A22B",
        moe(qk_norm(llama(94, 4096, 64, 4, 128, 1536, 151_936, false), false), 128, 8)
    ),
    // Qwen2.5-VL and Qwen2-VL (Qwen2_5_VLForConditionalGeneration, Qwen2VLForConditionalGeneration):
    // the Qwen2.5 / Qwen2 language model of the same size plus the vision tower. Totals: the
    // safetensors metadata as copied in public files (read 2026-12): 3,754,622,976 and
    // 8,292,166,656 (a printout of 676,550,144 for the 7B's `visual`, 19,702,200 per block),
    // 33,452,718,336 (32B), 2,208,985,600 and 8,291,375,616 (Qwen2-VL).
    // Qwen3-VL 8B (Qwen3VLForConditionalGeneration): the Qwen3 8B language model plus its
    // tower. 8,767,123,696 = the 8,818,470,640 that Unsloth's notebook prints as the model's
    // total with its 51,346,944 LoRA parameters (unslothai/notebooks nb/Qwen3_VL_(8B)-Vision.ipynb
    // @8081c7e4), less them.
    p!(
        "qwen3-vl-8b",
        "Qwen3-VL 8B",
        "Qwen",
        8_767_123_696,
        "Qwen/Qwen3-VL-8B-Instruct",
        with_tower(
            qk_norm(llama(36, 4096, 32, 8, 128, 12288, 151_936, false), false),
            qwen3_vl_params(4096),
            &QWEN3_VL_8B_TOWER
        )
    ),
    p!(
        "qwen2.5-vl-3b",
        "Qwen2.5-VL 3B",
        "Qwen",
        3_754_622_976,
        "Qwen/Qwen2.5-VL-3B-Instruct",
        with_tower(
            with_qkv_bias(llama(36, 2048, 16, 2, 128, 11008, 151936, true)),
            qwen2_5_vl_params(3420, 2048),
            &QWEN2_5_VL_3B_TOWER
        )
    ),
    p!(
        "qwen2.5-vl-7b",
        "Qwen2.5-VL 7B",
        "Qwen",
        8_292_166_656,
        "Qwen/Qwen2.5-VL-7B-Instruct",
        with_tower(
            with_qkv_bias(llama(28, 3584, 28, 4, 128, 18944, 152064, false)),
            qwen2_5_vl_params(3420, 3584),
            &QWEN2_5_VL_7B_TOWER
        )
    ),
    p!(
        "qwen2.5-vl-32b",
        "Qwen2.5-VL 32B",
        "Qwen",
        33_452_718_336,
        "Qwen/Qwen2.5-VL-32B-Instruct",
        with_tower(
            with_qkv_bias(llama(64, 5120, 40, 8, 128, 27648, 152064, false)),
            qwen2_5_vl_params(3456, 5120),
            &QWEN2_5_VL_32B_TOWER
        )
    ),
    p!(
        "qwen2-vl-2b",
        "Qwen2-VL 2B",
        "Qwen",
        2_208_985_600,
        "Qwen/Qwen2-VL-2B-Instruct",
        with_tower(
            with_qkv_bias(llama(28, 1536, 12, 2, 128, 8960, 151936, true)),
            qwen2_vl_params(1536),
            &QWEN2_VL_2B_TOWER
        )
    ),
    p!(
        "qwen2-vl-7b",
        "Qwen2-VL 7B",
        "Qwen",
        8_291_375_616,
        "Qwen/Qwen2-VL-7B-Instruct",
        with_tower(
            with_qkv_bias(llama(28, 3584, 28, 4, 128, 18944, 152064, false)),
            qwen2_vl_params(3584),
            &QWEN2_VL_7B_TOWER
        )
    ),
    // Qwen2 / Qwen2.5 / Qwen v1: q, k, v biases.
    p!(
        "qwen2.5-0.5b",
        "Qwen2.5 0.5B",
        "Qwen",
        494_032_768,
        "Qwen/Qwen2.5-0.5B",
        with_qkv_bias(llama(24, 896, 14, 2, 64, 4864, 151936, true))
    ),
    p!(
        "qwen2.5-1.5b",
        "Qwen2.5 1.5B",
        "Qwen",
        1_543_714_304,
        "Qwen/Qwen2.5-1.5B",
        with_qkv_bias(llama(28, 1536, 12, 2, 128, 8960, 151936, true))
    ),
    p!(
        "qwen2.5-3b",
        "Qwen2.5 3B",
        "Qwen",
        3_085_938_688,
        "Qwen/Qwen2.5-3B",
        with_qkv_bias(llama(36, 2048, 16, 2, 128, 11008, 151936, true))
    ),
    p!(
        "qwen2.5-7b",
        "Qwen2.5 7B",
        "Qwen",
        7_615_616_512,
        "Qwen/Qwen2.5-7B",
        with_qkv_bias(llama(28, 3584, 28, 4, 128, 18944, 152064, false))
    ),
    p!(
        "qwen2.5-14b",
        "Qwen2.5 14B",
        "Qwen",
        14_770_033_664,
        "Qwen/Qwen2.5-14B",
        with_qkv_bias(llama(48, 5120, 40, 8, 128, 13824, 152064, false))
    ),
    p!(
        "qwen2.5-32b",
        "Qwen2.5 32B",
        "Qwen",
        32_763_876_352,
        "Qwen/Qwen2.5-32B",
        with_qkv_bias(llama(64, 5120, 40, 8, 128, 27648, 152064, false))
    ),
    p!(
        "qwen2.5-72b",
        "Qwen2.5 72B",
        "Qwen",
        72_706_203_648,
        "Qwen/Qwen2.5-72B",
        with_qkv_bias(llama(80, 8192, 64, 8, 128, 29568, 152064, false))
    ),
    p!(
        "qwen2-7b",
        "Qwen2 7B",
        "Qwen",
        7_615_616_512,
        "Qwen/Qwen2-7B",
        with_qkv_bias(llama(28, 3584, 28, 4, 128, 18944, 152064, false))
    ),
    p!(
        "qwen-7b",
        "Qwen 7B (v1)",
        "Qwen",
        7_721_324_544,
        "Qwen/Qwen-7B",
        own_loss(with_qkv_bias(llama(32, 4096, 32, 32, 128, 11008, 151936, false)))
    ),
    // Llama 4 (Llama4ForConditionalGeneration: the text model plus a frozen vision tower).
    p!(
        "llama-4-scout",
        "Llama 4 Scout 17B-16E",
        "Llama",
        108_641_793_536,
        "meta-llama/Llama-4-Scout-17B-16E",
        llama4(16, 0, LLAMA4_VISION)
    ),
    p!(
        "llama-4-maverick",
        "Llama 4 Maverick 17B-128E",
        "Llama",
        401_583_781_376,
        "meta-llama/Llama-4-Maverick-17B-128E",
        llama4(128, 24, LLAMA4_VISION)
    ),
    p!(
        "llama-3.3-70b",
        "Llama 3.3 70B",
        "Llama",
        70_553_706_496,
        "meta-llama/Llama-3.3-70B-Instruct",
        llama(80, 8192, 64, 8, 128, 28672, 128256, false)
    ),
    p!(
        "llama-3.2-1b",
        "Llama 3.2 1B",
        "Llama",
        1_235_814_400,
        "meta-llama/Llama-3.2-1B",
        llama(16, 2048, 32, 8, 64, 8192, 128256, true)
    ),
    // 3,212,749,824 is also PEFT MetaMathQA's logged num_total_params.
    p!(
        "llama-3.2-3b",
        "Llama 3.2 3B",
        "Llama",
        3_212_749_824,
        "meta-llama/Llama-3.2-3B",
        llama(28, 3072, 24, 8, 128, 8192, 128256, true)
    ),
    p!(
        "llama-3.1-8b",
        "Llama 3.1 8B",
        "Llama",
        8_030_261_248,
        "meta-llama/Llama-3.1-8B",
        llama(32, 4096, 32, 8, 128, 14336, 128256, false)
    ),
    p!(
        "llama-3.1-70b",
        "Llama 3.1 70B",
        "Llama",
        70_553_706_496,
        "meta-llama/Llama-3.1-70B",
        llama(80, 8192, 64, 8, 128, 28672, 128256, false)
    ),
    p!(
        "llama-3.1-405b",
        "Llama 3.1 405B",
        "Llama",
        405_853_388_800,
        "meta-llama/Llama-3.1-405B",
        llama(126, 16384, 128, 8, 128, 53248, 128256, false)
    ),
    p!(
        "llama-3-8b",
        "Llama 3 8B",
        "Llama",
        8_030_261_248,
        "meta-llama/Meta-Llama-3-8B",
        llama(32, 4096, 32, 8, 128, 14336, 128256, false)
    ),
    p!(
        "llama-3-70b",
        "Llama 3 70B",
        "Llama",
        70_553_706_496,
        "meta-llama/Meta-Llama-3-70B",
        llama(80, 8192, 64, 8, 128, 28672, 128256, false)
    ),
    // Llama 2 (meta-llama/Llama-2-*-hf model cards / reference §5).
    p!(
        "llama-2-7b",
        "Llama 2 7B",
        "Llama",
        6_738_415_616,
        "meta-llama/Llama-2-7b-hf",
        llama(32, 4096, 32, 32, 128, 11008, 32000, false)
    ),
    p!(
        "llama-2-13b",
        "Llama 2 13B",
        "Llama",
        13_015_864_320,
        "meta-llama/Llama-2-13b-hf",
        llama(40, 5120, 40, 40, 128, 13824, 32000, false)
    ),
    p!(
        "llama-2-70b",
        "Llama 2 70B",
        "Llama",
        68_976_648_192,
        "meta-llama/Llama-2-70b-hf",
        llama(80, 8192, 64, 8, 128, 28672, 32000, false)
    ),
    p!(
        "codellama-7b",
        "Code Llama 7B",
        "Llama",
        6_738_546_688,
        "codellama/CodeLlama-7b-hf",
        llama(32, 4096, 32, 32, 128, 11008, 32016, false)
    ),
    p!(
        "tinyllama-1.1b",
        "TinyLlama 1.1B",
        "Llama",
        1_100_048_384,
        "TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T",
        llama(22, 2048, 32, 4, 64, 5632, 32000, false)
    ),
    // Gemma 3: 1B is text only with vocab 262,144; 4B/12B/27B are multimodal
    // (Gemma3ForConditionalGeneration) with vocab 262,208 and the SigLIP tower.
    p!(
        "gemma-3-1b",
        "Gemma 3 1B",
        "Gemma",
        999_885_952,
        "google/gemma-3-1b-pt",
        gemma3(26, 1152, 4, 1, 256, 6912, 262_144)
    ),
    p!(
        "gemma-3-4b",
        "Gemma 3 4B",
        "Gemma",
        4_300_079_472,
        "google/gemma-3-4b-pt",
        with_tower(gemma3(34, 2560, 8, 4, 256, 10240, 262_208), gemma3_vision(2560), &GEMMA3_TOWER)
    ),
    p!(
        "gemma-3-12b",
        "Gemma 3 12B",
        "Gemma",
        12_187_325_040,
        "google/gemma-3-12b-pt",
        with_tower(gemma3(48, 3840, 16, 8, 256, 15360, 262_208), gemma3_vision(3840), &GEMMA3_TOWER)
    ),
    p!(
        "gemma-3-27b",
        "Gemma 3 27B",
        "Gemma",
        27_432_406_640,
        "google/gemma-3-27b-pt",
        with_tower(gemma3(62, 5376, 32, 16, 128, 21504, 262_208), gemma3_vision(5376), &GEMMA3_TOWER)
    ),
    // Gemma 2: four norms per block, soft-capped scores and logits.
    p!(
        "gemma-2-2b",
        "Gemma 2 2B",
        "Gemma",
        2_614_341_888,
        "google/gemma-2-2b",
        gemma(with_norms(llama(26, 2304, 8, 4, 256, 9216, 256000, true), 4), true)
    ),
    p!(
        "gemma-2-9b",
        "Gemma 2 9B",
        "Gemma",
        9_241_705_984,
        "google/gemma-2-9b",
        gemma(with_norms(llama(42, 3584, 16, 8, 256, 14336, 256000, true), 4), true)
    ),
    p!(
        "gemma-2-27b",
        "Gemma 2 27B",
        "Gemma",
        27_227_128_320,
        "google/gemma-2-27b",
        gemma(with_norms(llama(46, 4608, 32, 16, 128, 36864, 256000, true), 4), true)
    ),
    // Gemma 1 (GeGLU, head_dim 256).
    p!(
        "gemma-2b",
        "Gemma 2B",
        "Gemma",
        2_506_172_416,
        "google/gemma-2b",
        gemma(llama(18, 2048, 8, 1, 256, 16384, 256000, true), false)
    ),
    p!(
        "gemma-7b",
        "Gemma 7B",
        "Gemma",
        8_537_680_896,
        "google/gemma-7b",
        gemma(llama(28, 3072, 16, 16, 256, 24576, 256000, true), false)
    ),
    // DeepSeek.
    p!(
        "deepseek-v3",
        "DeepSeek-V3 / R1 (671B MoE)",
        "DeepSeek",
        671_026_404_352,
        "deepseek-ai/DeepSeek-V3",
        deepseek_v3()
    ),
    // R1's distillation into Qwen2.5-Math-7B: Qwen2 architecture with q/k/v biases.
    p!(
        "deepseek-r1-distill-qwen-7b",
        "DeepSeek-R1-Distill-Qwen 7B",
        "DeepSeek",
        7_615_616_512,
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
        with_qkv_bias(llama(28, 3584, 28, 4, 128, 18944, 152_064, false))
    ),
    // gpt-oss (openai/gpt-oss-*: 20.91B and 116.83B in OpenAI's model card).
    p!("gpt-oss-20b", "gpt-oss 20B (MoE)", "gpt-oss", 20_914_757_184, "openai/gpt-oss-20b", gpt_oss(24, 32)),
    p!("gpt-oss-120b", "gpt-oss 120B (MoE)", "gpt-oss", 116_829_156_672, "openai/gpt-oss-120b", gpt_oss(36, 128)),
    // Mistral Small 3.1 (Mistral3ForConditionalGeneration): Mistral text model with
    // head_dim 128 (32·128 ≠ 5120) plus the Pixtral tower (403,305,472) and projector
    // (35,652,608), frozen.
    p!(
        "mistral-small-3.1-24b",
        "Mistral Small 3.1 24B",
        "Mistral",
        24_011_361_280,
        "mistralai/Mistral-Small-3.1-24B-Base-2503",
        vision(llama(40, 5120, 32, 8, 128, 32768, 131_072, false), 403_305_472 + 35_652_608)
    ),
    p!(
        "mixtral-8x7b",
        "Mixtral 8x7B",
        "Mistral",
        46_702_792_704,
        "mistralai/Mixtral-8x7B-v0.1",
        moe(llama(32, 4096, 32, 8, 128, 14336, 32000, false), 8, 2)
    ),
    p!(
        "mistral-7b-v0.3",
        "Mistral 7B v0.3",
        "Mistral",
        7_248_023_552,
        "mistralai/Mistral-7B-v0.3",
        llama(32, 4096, 32, 8, 128, 14336, 32768, false)
    ),
    p!(
        "mistral-7b",
        "Mistral 7B v0.1",
        "Mistral",
        7_241_732_096,
        "mistralai/Mistral-7B-v0.1",
        llama(32, 4096, 32, 8, 128, 14336, 32000, false)
    ),
    // Phi-4 (Phi3 architecture: fused qkv_proj and gate_up_proj).
    p!(
        "phi-4",
        "Phi-4 14B",
        "Phi",
        14_659_507_200,
        "microsoft/phi-4",
        fused_qkv(llama(40, 5120, 40, 10, 128, 17920, 100_352, false))
    ),
    p!(
        "phi-3-mini",
        "Phi-3 mini 4k",
        "Phi",
        3_821_079_552,
        "microsoft/Phi-3-mini-4k-instruct",
        fused_qkv(llama(32, 3072, 32, 32, 96, 8192, 32064, false))
    ),
    p!("phi-1.5", "phi-1.5", "Phi", 1_418_270_720, "microsoft/phi-1_5", phi15()),
    // OLMo 2 (allenai/OLMo-2-1124-*): norms after attention and MLP, q/k norms over all heads.
    p!(
        "olmo-2-7b",
        "OLMo 2 7B",
        "OLMo",
        7_298_617_344,
        "allenai/OLMo-2-1124-7B",
        qk_norm(llama(32, 4096, 32, 32, 128, 11008, 100_352, false), true)
    ),
    p!(
        "olmo-2-13b",
        "OLMo 2 13B",
        "OLMo",
        13_716_198_400,
        "allenai/OLMo-2-1124-13B",
        qk_norm(llama(40, 5120, 40, 40, 128, 13824, 100_352, false), true)
    ),
    // SmolLM3 (HuggingFaceTB/SmolLM3-3B): Llama-style, tied; NoPE layers have no parameters.
    p!(
        "smollm3-3b",
        "SmolLM3 3B",
        "SmolLM",
        3_075_098_624,
        "HuggingFaceTB/SmolLM3-3B",
        llama(36, 2048, 16, 4, 128, 11008, 128_256, true)
    ),
    // GPT-2 (openai-community/gpt2*, HF model cards).
    p!("gpt2", "GPT-2 (124M)", "GPT-2", 124_439_808, "openai-community/gpt2", gpt2(12, 768, 12)),
    p!("gpt2-medium", "GPT-2 Medium", "GPT-2", 354_823_168, "openai-community/gpt2-medium", gpt2(24, 1024, 16)),
    p!("gpt2-large", "GPT-2 Large", "GPT-2", 774_030_080, "openai-community/gpt2-large", gpt2(36, 1280, 20)),
    p!("gpt2-xl", "GPT-2 XL", "GPT-2", 1_557_611_200, "openai-community/gpt2-xl", gpt2(48, 1600, 25)),
    // Vision encoders (#21): the ImageNet-1k classifiers count their 1000-label head, which
    // `vocab` sets (vocab=10 for a 10-class fine-tune); the others are the backbone alone.
    // ViTForImageClassification google/vit-{base,large}-patch16-224, equal to torchvision's
    // published vit_b_16 / vit_l_16 `num_params` (torchvision/models/vision_transformer.py
    // @0d80848b _COMMON_META/ViT_B_16_Weights, ViT_L_16_Weights).
    p!(
        "vit-b",
        "ViT-B/16 (224)",
        "Vision encoders",
        86_567_656,
        "google/vit-base-patch16-224",
        vit(12, 768, 12, 3072, 1000, &VIT_16_224)
    ),
    p!(
        "vit-l",
        "ViT-L/16 (224)",
        "Vision encoders",
        304_326_632,
        "google/vit-large-patch16-224",
        vit(24, 1024, 16, 4096, 1000, &VIT_16_224)
    ),
    // ViTModel(add_pooling_layer=False) of google/vit-huge-patch14-224-in21k's config: what
    // ViTForImageClassification keeps of the checkpoint (its pooler is dropped).
    p!(
        "vit-h",
        "ViT-H/14 (224, in21k)",
        "Vision encoders",
        VIT_H_PARAMS,
        "google/vit-huge-patch14-224-in21k",
        vit(32, 1280, 16, 5120, 0, &VIT_14_224)
    ),
    // CLIPVisionModel of openai/clip-vit-large-patch14 (303,179,776, the checkpoint's vision
    // tower without its projection).
    p!(
        "clip-vit-l",
        "CLIP ViT-L/14 vision (224)",
        "Vision encoders",
        303_179_776,
        "openai/clip-vit-large-patch14",
        quick_gelu(vit(24, 1024, 16, 4096, 0, &CLIP_14_224))
    ),
    // SiglipVisionModel of google/siglip-so400m-patch14-384, its attention-pooling head
    // included (the checkpoint's vision tower; SiglipForImageClassification builds it too).
    p!(
        "siglip-so400m",
        "SigLIP So400m/14 vision (384)",
        "Vision encoders",
        428_225_600,
        "google/siglip-so400m-patch14-384",
        vit(27, 1152, 16, 4304, 0, &SIGLIP_14_384)
    ),
    // Segment Anything (#21): SamModel of facebook/sam-vit-{base,large,huge} (configs:
    // 768/12/12, 1024/24/16, 1280/32/16 with global blocks 2,5,8,11 / 5,11,17,23 / 7,15,23,31).
    // The totals equal keras-hub's sam_presets.py (93,735,728; 312,343,088; 641,090,864, its
    // large and huge labels swapped); tools/calibrate builds the same from transformers 5.23.
    p!("sam-vit-base", "SAM ViT-B (1024)", "Segment Anything", 93_735_728, "facebook/sam-vit-base", sam(12, 768, 12)),
    p!(
        "sam-vit-large",
        "SAM ViT-L (1024)",
        "Segment Anything",
        312_343_088,
        "facebook/sam-vit-large",
        sam(24, 1024, 16)
    ),
    p!("sam-vit-huge", "SAM ViT-H (1024)", "Segment Anything", 641_090_864, "facebook/sam-vit-huge", sam(32, 1280, 16)),
    // Whisper (#21): encoder + decoder as WhisperForConditionalGeneration counts them (proj_out
    // tied). small, medium and large-v2 equal keras-hub's whisper_presets.py counts
    // (data/families/README.md); large-v3 has 128 mel bins and one more token (51866,
    // openai/whisper-large-v3 config.json), its turbo 4 decoder blocks (openai/whisper-large-v3-turbo).
    p!(
        "whisper-large-v3",
        "Whisper large-v3",
        "Whisper",
        1_543_490_560,
        "openai/whisper-large-v3",
        whisper(32, 1280, 20, 51866, &WHISPER_LARGE_V3)
    ),
    p!(
        "whisper-large-v3-turbo",
        "Whisper large-v3 turbo",
        "Whisper",
        808_878_080,
        "openai/whisper-large-v3-turbo",
        whisper(4, 1280, 20, 51866, &WHISPER_LARGE_V3)
    ),
    p!(
        "whisper-large-v2",
        "Whisper large-v2",
        "Whisper",
        1_543_304_960,
        "openai/whisper-large-v2",
        whisper(32, 1280, 20, 51865, &WHISPER_LARGE)
    ),
    p!(
        "whisper-medium",
        "Whisper medium",
        "Whisper",
        763_857_920,
        "openai/whisper-medium",
        whisper(24, 1024, 16, 51865, &WHISPER_MEDIUM)
    ),
    p!(
        "whisper-small",
        "Whisper small",
        "Whisper",
        241_734_912,
        "openai/whisper-small",
        whisper(12, 768, 12, 51865, &WHISPER_SMALL)
    ),
    // BERT (BertModel with pooler; a 2-label classifier adds 2,050).
    p!(
        "bert-base-uncased",
        "BERT base uncased",
        "BERT",
        109_482_240,
        "google-bert/bert-base-uncased",
        bert(12, 768, 12)
    ),
    p!(
        "bert-large-uncased",
        "BERT large uncased",
        "BERT",
        335_141_888,
        "google-bert/bert-large-uncased",
        bert(24, 1024, 16)
    ),
];

/// The preset a Hugging Face repository id names (case-insensitive; an `-Instruct`/`-it`
/// variant finds its base): `Qwen/Qwen3-8B` → qwen3-8b.
pub fn by_repo(repo: &str) -> Option<&'static Preset> {
    let r = repo.trim().trim_start_matches("https://huggingface.co/").trim_end_matches('/').to_ascii_lowercase();
    if !r.contains('/') {
        return None;
    }
    let found = |r: &str| presets().iter().find(|p| p.repo.eq_ignore_ascii_case(r));
    found(&r)
        .or_else(|| ["-instruct", "-it", "-base"].iter().find_map(|s| r.strip_suffix(s).and_then(found)))
        .or_else(|| found(&r.replace("-it", "-pt")))
}

/// Finds a preset by id.
/// The query's model has a vision tower whose images this calculator prices (`images`,
/// `image_res`, `tower`): a preset with a described tower whose parameters the query keeps.
pub fn describes_tower(q: &crate::query::Query) -> bool {
    q.params.is_none()
        && q.arch.vision_params != Some(0)
        && q.model.as_deref().and_then(preset).is_some_and(|p| p.arch.layout.described_tower().is_some())
}

/// The query's model is an image encoder (a `vit-l`, `clip-vit-l`, ...): its sequence is the
/// image's patches, so `image_res` applies and `seq`, `images` and the tower's keys do not.
pub fn is_image_encoder(q: &crate::query::Query) -> bool {
    q.params.is_none() && q.model.as_deref().and_then(preset).is_some_and(|p| p.arch.layout.image.is_some())
}

/// Whether the page offers `value` for `key` with the query's model: not the methods written
/// for language models (prefix, prompt, bottleneck adapters) to an image encoder or Whisper,
/// nor flash attention to SAM, which has no flash path. Each would be refused by its key.
pub fn offers(q: &crate::query::Query, key: &str, value: &str) -> bool {
    match (key, value) {
        ("method", "adapter" | "prefix" | "prompt") => !is_image_encoder(q) && !is_speech(q),
        ("attn", "flash") => !fixed_image(q),
        _ => true,
    }
}

/// The query's model family as the page's controls see it (what `offers` and the fields'
/// visibility read): 0 a language model, 1 an image encoder, 2 SAM, 3 Whisper.
pub fn control_family(q: &crate::query::Query) -> u8 {
    if fixed_image(q) {
        2
    } else if is_image_encoder(q) {
        1
    } else if is_speech(q) {
        3
    } else {
        0
    }
}

/// The query's model reads one image size only (SAM's 1024²: `SamPatchEmbeddings` refuses any
/// other), so `image_res` does not apply.
pub fn fixed_image(q: &crate::query::Query) -> bool {
    q.params.is_none() && q.model.as_deref().and_then(preset).is_some_and(|p| p.arch.layout.sam().is_some())
}

/// The query's model is Whisper (encoder-decoder speech): its samples are clips, its `seq`
/// their labels, at most its decoder's 448 positions.
pub fn is_speech(q: &crate::query::Query) -> bool {
    q.params.is_none() && q.model.as_deref().and_then(preset).is_some_and(|p| p.arch.layout.speech.is_some())
}

/// After the model changed from `before`'s: the images and the tower's keys go back to their
/// defaults unless the new model prices them, so that no key the page no longer shows can
/// refuse the query. An image encoder prices no tower, so it starts from the side it was
/// trained at. A sequence longer than a preset's learned positions (Whisper's 448 labels,
/// GPT-2's 1024) becomes that many, the longest the checkpoint reads. The dataset keeps its
/// samples where its unit changes: a language model's `tokens` are sequences of `seq`, an
/// image encoder's images and Whisper's clips are samples themselves. SAM, which has no flash
/// path, attends through SDPA instead of a chosen `attn=flash`.
pub fn adapt_to_model(before: &crate::query::Query, q: &mut crate::query::Query) {
    let per_sample =
        |x: &crate::query::Query| (!is_image_encoder(x) && !is_speech(x)).then_some(u64::from(x.seq.max(1)));
    match (per_sample(before), per_sample(q)) {
        (Some(seq), None) => q.tokens = (before.tokens / seq).max(1),
        (None, Some(seq)) => q.tokens = before.tokens.saturating_mul(seq),
        _ => {}
    }
    if let Some(p) = q.model.as_deref().and_then(preset).filter(|_| q.params.is_none()) {
        let positions = p.arch.positions;
        if positions > 0 && p.arch.layout.image.is_none() && u64::from(q.seq) > positions {
            q.seq = positions as u32;
        }
    }
    // SAM has no flash-attention path: SDPA is its default.
    if fixed_image(q) && q.attn == Some(crate::query::Attention::Flash) {
        q.attn = None;
    }
    if !describes_tower(q) {
        q.images = 0;
        q.image_res = None;
        q.tower = crate::query::TowerTraining::Frozen;
        q.tower_quant = None;
    }
}

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
