//! Transformer architectures: the config fields that decide parameter counts and activations.
//!
//! An `Architecture` is what a Hugging Face `config.json` says about a model, reduced to what
//! memory depends on. `param_count` is exact (it reproduces published counts, tests in
//! `tests/catalog.rs`), and `modules` gives the per-module counts the memory model needs
//! (linear shapes for LoRA, the largest single module for DeepSpeed's ZeRO-3 estimator).

use crate::query::ArchOverrides;
use serde::Serialize;

/// Feed-forward block shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MlpKind {
    /// gate, up and down projections with an elementwise product (SwiGLU / GeGLU).
    Gated,
    /// fc1, activation, fc2 (GPT-2, BERT, phi-1.5).
    Plain,
}

/// Normalisation layer kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum NormKind {
    /// RMSNorm: one weight vector.
    Rms,
    /// LayerNorm: weight and bias.
    Layer,
}

/// One transformer model, as its config describes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Architecture {
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    /// Intermediate (FFN) width of one expert.
    pub ffn: u64,
    pub vocab: u64,
    /// Input embedding and LM head share one matrix.
    pub tied: bool,
    pub mlp: MlpKind,
    pub norm: NormKind,
    /// Norms per block: 2 (pre-attention, pre-MLP), 4 in Gemma 2 (pre and post), 1 when
    /// attention and MLP run in parallel (phi-1.5).
    pub norms_per_layer: u64,
    /// Per-head RMSNorm on q and k (Qwen3-style); adds 2·head_dim per layer.
    pub qk_norm: bool,
    pub qkv_bias: bool,
    pub o_bias: bool,
    pub mlp_bias: bool,
    pub lm_head_bias: bool,
    /// Learned absolute position embeddings (GPT-2, BERT): rows of the table; 0 for RoPE/ALiBi.
    pub positions: u64,
    /// Routed experts per MoE layer (1 = dense).
    pub experts: u64,
    pub experts_per_token: u64,
    /// Encoder-only (BERT): no LM head over the vocabulary; token-type embeddings, an
    /// embedding LayerNorm and a pooler instead.
    pub encoder_only: bool,
    /// Token-type embeddings rows (BERT: 2).
    pub type_vocab: u64,
    /// Hidden dropout in the block (GPT-2/BERT train with p = 0.1; Llama-family has none).
    pub dropout: bool,
    /// Guessed from a parameter count alone.
    pub inferred: bool,
    /// Activation-level behaviour that changes which tensors are kept (not parameters).
    pub quirks: Quirks,
    /// What a uniform Llama-style stack cannot say: dense blocks among MoE ones, shared
    /// experts, latent attention, sinks, a frozen vision tower.
    pub layout: Layout,
}

/// Parts of 2025–26 architectures beyond the uniform stack. `Layout::UNIFORM` (all zero) is
/// a stack of identical blocks, dense or MoE as `experts` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Blocks whose MLP is dense although the model is MoE: DeepSeek-V3's first three
    /// (`first_k_dense_replace`), every other block of Llama 4 Maverick
    /// (`interleave_moe_layer_step` 2). Their width is `dense_ffn`.
    pub dense_layers: u64,
    pub dense_ffn: u64,
    /// Width of the always-active shared expert of each MoE block (DeepSeek-V3
    /// `n_shared_experts · moe_intermediate_size`; Llama 4 `intermediate_size`); 0: none.
    pub shared_ffn: u64,
    /// The router has a bias per expert (gpt-oss `router.bias`; DeepSeek-V3's
    /// `e_score_correction_bias`, a buffer saved with the weights).
    pub router_bias: bool,
    /// One learned attention sink per head (gpt-oss `self_attn.sinks`).
    pub attn_sinks: bool,
    /// q and k norms span every head (OLMo 2: `RMSNorm(heads·head_dim)`,
    /// `RMSNorm(kv_heads·head_dim)`), not one head_dim as in Qwen3 and Gemma 3.
    pub qk_norm_full: bool,
    /// Multi-head latent attention (DeepSeek-V2/V3); `kv_rank` 0 is standard attention.
    pub mla: Mla,
    /// Parameters of a vision tower and projector that a multimodal checkpoint loads beside
    /// the language model: in memory, frozen unless `tower` says otherwise (never quantized here).
    pub vision_params: u64,
    /// How that tower runs on an image (`layers` 0: not described, so images cannot be priced);
    /// a reference, so that the presets without one carry a pointer, not a zeroed table.
    pub tower: &'static Tower,
    /// The attention's q projection also yields a sigmoid output gate (Qwen3-Next
    /// `q_proj`: hidden → heads·head_dim·2).
    pub attn_gate: bool,
    /// The shared expert has a scalar sigmoid gate (Qwen2-MoE/Qwen3-Next
    /// `shared_expert_gate`: hidden → 1).
    pub shared_gate: bool,
    /// Blocks whose token mixer is linear attention instead (Qwen3-Next's Gated DeltaNet).
    pub linear_attn: LinearAttn,
    /// An image encoder's input (ViT, CLIP's and SigLIP's vision models): its sequence is the
    /// image's patches, so `image_res` decides it; `None` for a model that reads tokens.
    pub image: Option<&'static ImageInput>,
    /// The model's own forward computes its loss, `CrossEntropyLoss` on the head's output as
    /// it comes, with no `.float()` (Qwen v1's remote code `QWenLMHeadModel.forward`, Whisper):
    /// a 16-bit model without autocast keeps 16-bit log-probabilities (memory/logits.rs).
    pub own_loss: bool,
    /// An encoder-decoder speech model's audio encoder (Whisper): the architecture's blocks
    /// are the decoder's, each with a cross-attention over the encoder's frames; `None` for a
    /// model without one.
    pub speech: Option<&'static SpeechEncoder>,
}

/// Whisper's audio encoder and the decoder's cross-attention (transformers
/// `modeling_whisper.py`: `WhisperEncoder`, `WhisperDecoderLayer.encoder_attn`): two
/// convolutions over a clip's log-mel frames (`conv1` k 3, `conv2` k 3 stride 2, GELU after
/// each), sinusoidal positions the encoder never trains (`embed_positions.requires_grad_(False)`),
/// `layers` pre-norm blocks of the decoder's width, heads and MLP with bidirectional attention,
/// a final LayerNorm. Every attention (the encoder's, the decoder's self- and cross-attention)
/// has q, v and out biases and an unbiased k. The feature extractor pads or cuts every clip to
/// 30 s, so the encoder always sees `frames` mel frames and `frames / 2` positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SpeechEncoder {
    pub layers: u64,
    /// Log-mel bins (`num_mel_bins`: 80, large-v3's 128).
    pub mels: u64,
    /// Mel frames of one clip (`max_source_positions` × 2: 3000, 30 s at a 10 ms hop).
    pub frames: u64,
}

impl SpeechEncoder {
    /// Encoder positions per clip: `conv2`'s stride halves the frames.
    pub fn positions(&self) -> u64 {
        self.frames / 2
    }
    /// One attention of width `h` (q, k, v, out; k unbiased).
    pub fn attention_params(h: u64) -> u64 {
        4 * h * h + 3 * h
    }
    /// The encoder at width `h` and MLP width `f`: its convolutions, its (frozen) positions, its
    /// blocks (an attention, fc1 and fc2 with biases, two LayerNorms) and its final LayerNorm.
    pub fn params(&self, h: u64, f: u64) -> u64 {
        let convs = self.mels * h * 3 + h + h * h * 3 + h;
        let block = Self::attention_params(h) + 2 * h * f + f + h + 4 * h;
        convs + self.positions() * h + self.layers * block + 2 * h
    }
    /// The encoder trains under `q`: every weight in a full fine-tune, or adapters on its
    /// linears (PEFT's module names match its blocks as the decoder's); `freeze` trains decoder
    /// blocks only. The memory model (its pass), the peak's moment and the time model ask this.
    pub fn trains(q: &crate::query::Query) -> bool {
        use crate::query::{Method, TargetModule as T};
        q.method == Method::Full
            || q.method.is_lora() && [T::Q, T::K, T::V, T::O, T::Up, T::Down].iter().any(|t| q.targets.contains(*t))
    }
    /// The encoder's block linears' weights and biases (what an 8-bit or 4-bit load converts).
    pub fn linear_params(&self, h: u64, f: u64) -> u64 {
        self.layers * (Self::attention_params(h) + 2 * h * f + f + h)
    }
}

/// What an image encoder trained on its own reads (transformers `ViTEmbeddings`,
/// `CLIPVisionEmbeddings`, `SiglipVisionEmbeddings`; torchvision `VisionTransformer`): the
/// image cut by one convolution into `patch`-pixel squares, a token each, behind a learned
/// class token where the family has one, plus learned positions for the side it was trained
/// at (interpolated for other sides: transformers' `interpolate_pos_encoding`). The encoder's
/// blocks are the architecture's layers (`encoder_only`); `vocab` is the classifier's labels
/// (`ViTForImageClassification.classifier`, `nn.Linear(hidden, num_labels)`), 0 for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ImageInput {
    /// Pixels per patch side.
    pub patch: u64,
    /// The side the checkpoint was trained at: its position table and the default image.
    pub side: u64,
    /// A learned class token ahead of the patches (ViT, CLIP); SigLIP pools without one.
    pub cls: bool,
    /// The patch convolution has a bias (ViT, SigLIP); CLIP's has none.
    pub conv_bias: bool,
    /// LayerNorms outside the blocks: ViT's and SigLIP's final one, CLIP's pre- and post-norm.
    pub norms: u64,
    /// SigLIP's attention-pooling head (`SiglipMultiheadAttentionPoolingHead`: a probe, an
    /// `nn.MultiheadAttention`, a LayerNorm and an MLP of the blocks' width), which
    /// `SiglipForImageClassification` builds (`vision_use_head` defaults to True) but its
    /// forward never calls: it mean-pools the last hidden state. Counted, never trained.
    pub pool_head: bool,
    /// Segment Anything's parts around the blocks (windowed attention, the neck, the prompt
    /// encoder and the mask decoder); `None` for a classifier or backbone.
    pub sam: Option<&'static Sam>,
}

/// Segment Anything (transformers `modeling_sam.py`, `SamModel`): a ViT image encoder
/// (`SamVisionEncoder`) over a 1024² image (64×64 patches of 16; `SamPatchEmbeddings` refuses
/// any other size) whose blocks attend within `window`² windows of the zero-padded grid, but
/// for `global` blocks that attend over the whole image; each attention adds decomposed
/// relative positions (`rel_pos_h`, `rel_pos_w`: 2·span − 1 rows of one head's width) as a
/// float bias of one score per query and key. A neck (`SamVisionNeck`: a 1×1 and a 3×3
/// convolution to `channels`, two channels-first LayerNorms), then the prompt encoder and the
/// mask decoder, the same in every checkpoint. The blocks are the architecture's layers;
/// `vocab` is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sam {
    /// Side of a window, in patches (`window_size` 14).
    pub window: u64,
    /// Blocks with global attention (`global_attn_indexes`: 4 in base, large and huge).
    pub global: u64,
    /// The neck's and the decoder's width (`output_channels` 256).
    pub channels: u64,
}

impl Sam {
    /// `SamPromptEncoder`: the mask embedding's three convolutions (1→4→16 with 2×2 kernels,
    /// 16→256 1×1, biases) and two LayerNorms (4, 16), the no-mask, four point and
    /// not-a-point embeddings of 256; and `SamModel.shared_image_embedding`, a 2×128 random
    /// Fourier table.
    pub const PROMPT_ENCODER: u64 =
        (4 * 4 + 4) + (16 * 4 * 4 + 16) + (256 * 16 + 256) + 2 * 4 + 2 * 16 + 6 * 256 + 2 * 128;
    /// `SamMaskDecoder` at width 256: the IoU token and 4 mask tokens; a two-way transformer of
    /// 2 layers (a self-attention of 256, two cross-attentions down-sampled to 128, an MLP of
    /// 2048, four LayerNorms) and a final token-to-image attention with its norm; two
    /// transposed 2×2 convolutions (256→64→32) and a LayerNorm; four hypernetwork MLPs
    /// (256→256→256→32) and the IoU head (256→256→256→4).
    pub const MASK_DECODER: u64 = {
        let c = 256;
        let self_attn = 4 * (c * c + c);
        let cross = 3 * (c * 128 + 128) + (128 * c + c);
        let mlp = c * 2048 + 2048 + 2048 * c + c;
        let layer = self_attn + 2 * cross + 4 * 2 * c + mlp;
        let upscale = (c * 64 * 4 + 64) + (64 * 32 * 4 + 32) + 2 * 64;
        let hyper = 2 * (c * c + c) + (c * 32 + 32);
        let iou = 2 * (c * c + c) + (c * 4 + 4);
        5 * c + 2 * layer + cross + 2 * c + upscale + 4 * hyper + iou
    };

    /// Windows per image side and the padded side, for an image of `side` patches.
    pub fn windows_per_side(&self, side: u64) -> u64 {
        side.div_ceil(self.window.max(1))
    }

    /// The parameters outside the blocks' ViT linears and norms: every block's relative
    /// position tables (a windowed block's span is its window, a global one's the image), the
    /// neck at encoder width `h`, the prompt encoder and the shared embedding. The mask decoder
    /// is the model's head (`Architecture::classifier_params`).
    pub fn extra_params(&self, layers: u64, h: u64, head_dim: u64, side: u64) -> u64 {
        let global = self.global.min(layers);
        let rel = (layers - global) * 2 * (2 * self.window - 1) * head_dim + global * 2 * (2 * side - 1) * head_dim;
        let c = self.channels;
        let neck = h * c + 2 * c + c * c * 9 + 2 * c;
        rel + neck + Self::PROMPT_ENCODER
    }

    /// The mask decoder's work per image patch, as parameters applied once per patch (2 FLOPs
    /// each): in each of its 2 layers, the token-to-image attention's k and v and the
    /// image-to-token attention's q and out over the image's positions (256 → 128 and back),
    /// the final attention's k and v, and the two transposed 2×2 convolutions (256 → 64 over
    /// the 64² grid, 64 → 32 over the 128² one, four outputs per input). Its MLPs and
    /// self-attention run on its 7 tokens only.
    pub fn decoder_work_per_patch(&self) -> u64 {
        let c = self.channels;
        let attention = c * 128;
        2 * 4 * attention + 2 * attention + c * 64 * 4 + 4 * (64 * 32 * 4)
    }

    /// Attention work of the encoder per image, in score units (a query, a key and one head's
    /// dimension; 4·width FLOPs each counting both matmuls): a window's q·k and p·v over its
    /// `window`² positions, plus the two einsums with the relative position tables (`span` keys
    /// each, per axis), over the padded grid in windowed blocks and the image in global ones.
    pub fn attention_work(&self, layers: u64, side: u64) -> f64 {
        let global = self.global.min(layers) as f64;
        let (w, side_f) = (self.window as f64, side as f64);
        let padded = (self.windows_per_side(side) * self.window) as f64;
        let windowed = padded * padded * (w * w + w);
        let whole = side_f * side_f * (side_f * side_f + side_f);
        (layers as f64 - global) * windowed + global * whole
    }

    /// Tokens a windowed block's linears run over beyond the image's: the padding to whole
    /// windows (70² against 64² for 14-patch windows).
    pub fn padding(&self, side: u64) -> u64 {
        let padded = self.windows_per_side(side) * self.window;
        padded * padded - side * side
    }

    /// Global blocks among the top `n` of `layers` (the last block is global in every
    /// checkpoint: `global_attn_indexes` ends at `layers − 1`, one in every `layers / global`).
    pub fn global_in_top(&self, n: u64, layers: u64) -> u64 {
        let every = (layers / self.global.max(1)).max(1);
        n.min(layers).div_ceil(every).min(self.global)
    }

    /// The relative position tables of the top `n` blocks.
    pub fn top_rel_params(&self, n: u64, layers: u64, head_dim: u64, side: u64) -> u64 {
        let n = n.min(layers);
        let global = self.global_in_top(n, layers);
        (n - global) * 2 * (2 * self.window - 1) * head_dim + global * 2 * (2 * side - 1) * head_dim
    }
}

impl ImageInput {
    /// Tokens one image becomes at `res` (the trained side when unset): the convolution's
    /// output, each side's pixels over the patch rounded down, plus the class token.
    pub fn tokens(&self, res: Option<crate::query::ImageSize>) -> u64 {
        let (w, h) = res.map_or((self.side, self.side), |r| (u64::from(r.w), u64::from(r.h)));
        (w / self.patch) * (h / self.patch) + u64::from(self.cls)
    }
    /// The image's shorter side at `res` (the trained side when unset) and the patch: a side
    /// shorter than one patch leaves the convolution nothing to cut.
    pub fn smallest_side(&self, res: Option<crate::query::ImageSize>) -> (u64, u64) {
        let side = res.map_or(self.side, |r| u64::from(r.w.min(r.h)));
        (side, self.patch)
    }
    /// The pooling head's parameters at width `hidden` and MLP width `ffn` (0 without one).
    pub fn pool_head_params(&self, hidden: u64, ffn: u64) -> u64 {
        if !self.pool_head {
            return 0;
        }
        let (h, f) = (hidden, ffn);
        h + (4 * h * h + 4 * h) + 2 * h + (h * f + f) + (f * h + h)
    }
    /// Parameters ahead of the blocks at width `hidden`: the patch convolution over three
    /// channels, the class token and the position table of the trained side.
    pub fn embedding_params(&self, hidden: u64) -> u64 {
        let conv = 3 * self.patch * self.patch * hidden + if self.conv_bias { hidden } else { 0 };
        let side = self.side / self.patch;
        conv + u64::from(self.cls) * hidden + (side * side + u64::from(self.cls)) * hidden
    }
}

/// A multimodal checkpoint's vision encoder as its blocks run: a ViT over the image's patches
/// whose output is merged into visual tokens the language model reads in its sequence. The
/// parameters stay in `Layout::vision_params`; this is what an image costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Tower {
    /// ViT blocks; 0: the tower is not described (Llama 4's tiles, Pixtral's row breaks).
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub ffn: u64,
    /// q, k and v are one linear (Qwen's `qkv`); SigLIP has three.
    pub fused_qkv: bool,
    /// 2-D rotary positions (Qwen: fp32 cos and sin tables per patch, and two frames per patch,
    /// `temporal_patch_size`); SigLIP learns its positions and sees one frame.
    pub rotary: bool,
    /// A learned position table is added to the patches (SigLIP; Qwen3-VL's `pos_embed`,
    /// interpolated to the image, beside its rotary positions): fp32 under `*-mixed`, so the
    /// tower's stream is fp32 there.
    pub learned_positions: bool,
    /// Mergers besides the main one that take intermediate blocks' outputs to the language
    /// model (Qwen3-VL's DeepStack: 3).
    pub deepstack: u64,
    /// SwiGLU MLP (Qwen2.5-VL: gate, up, down) instead of fc1/fc2.
    pub gated: bool,
    /// FFN-wide tensors the activation keeps beyond its input, written as elementwise ops
    /// (Qwen2-VL's QuickGELU `x * sigmoid(1.702 x)` keeps the sigmoid: 1).
    pub act_extra_saves: u64,
    pub norm: NormKind,
    /// Pixels per patch side.
    pub patch: u64,
    /// Patches per side that become one visual token (Qwen's PatchMerger 2×2, Gemma 3's
    /// 4×4 average pool).
    pub merge: u64,
    /// The side every image is resized to (SigLIP's 896); 0: the image's own size, each
    /// side rounded to a whole number of merged patches (Qwen's `smart_resize`).
    pub fixed: u64,
    /// Blocks that attend over the whole image; the others over windows of `window`
    /// patches (Qwen2.5-VL: 4 of 32, 8×8-patch windows).
    pub full_attn_layers: u64,
    pub window: u64,
    /// The side of the default image when `fixed` is 0.
    pub default_side: u64,
    /// Pixels the processor scales a native-resolution image up or down to fit between (Qwen's
    /// `smart_resize` `min_pixels`/`max_pixels`: 3,136 and 12,845,056 for Qwen2/2.5-VL;
    /// Qwen3-VL's `shortest_edge` 65,536 and `longest_edge` 16,777,216); 0: no bound.
    pub min_pixels: u64,
    pub max_pixels: u64,
    /// Parameters of the projector's `nn.Linear`s (Qwen's merger MLP), which a 4-bit load
    /// converts with the blocks' linears; Gemma 3's projector is a bare matrix, 0.
    pub projector_linears: u64,
}

/// One image through a tower (`Tower::per_image`): its sides as the tower sees them, its
/// patches and its visual tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerImage {
    pub w: u64,
    pub h: u64,
    pub patches: u64,
    pub tokens: u64,
}

/// Qwen2-VL's and Qwen2.5-VL's image processors' pixel bounds (`min_pixels` 56², `max_pixels`
/// 16,384·28²: transformers qwen2_vl/image_processing_qwen2_vl.py), and Qwen3-VL's
/// (`size: {shortest_edge: 65,536, longest_edge: 16,777,216}`, its preprocessor_config.json).
pub const QWEN2_VL_PIXELS: (u64, u64) = (3_136, 12_845_056);
pub const QWEN3_VL_PIXELS: (u64, u64) = (65_536, 16_777_216);

/// Which Qwen-VL generation a tower is (its blocks' MLP, norms and processor bounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QwenGeneration {
    /// Qwen2-VL: LayerNorms, fc1/fc2 with QuickGELU.
    Qwen2,
    /// Qwen2.5-VL: RMSNorms, SwiGLU, windowed attention in most blocks.
    Qwen25,
    /// Qwen3-VL: LayerNorms, fc1/fc2 with GELU (tanh), DeepStack mergers, 65,536-pixel minimum.
    Qwen3,
}

/// A Qwen-VL tower as its `vision_config` gives it (catalog.rs cites each class): every block a
/// fused `qkv` with 2-D rotary positions, a 2×2 merger to the text width `out`, and `deepstack`
/// more mergers of intermediate blocks.
#[derive(Debug, Clone, Copy)]
pub struct QwenVision {
    pub generation: QwenGeneration,
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub ffn: u64,
    pub patch: u64,
    pub merge: u64,
    pub out: u64,
    pub deepstack: u64,
    /// Blocks over the whole image; the rest over windows of `window` patches.
    pub full_attn_layers: u64,
    pub window: u64,
}

impl QwenVision {
    pub const fn tower(self) -> Tower {
        let g = self.generation;
        let wide = self.hidden * self.merge * self.merge;
        let merger = (wide * wide + wide) + (wide * self.out + self.out);
        let pixels = if matches!(g, QwenGeneration::Qwen3) { QWEN3_VL_PIXELS } else { QWEN2_VL_PIXELS };
        Tower {
            layers: self.layers,
            hidden: self.hidden,
            heads: self.heads,
            ffn: self.ffn,
            fused_qkv: true,
            rotary: true,
            learned_positions: matches!(g, QwenGeneration::Qwen3),
            deepstack: self.deepstack,
            gated: matches!(g, QwenGeneration::Qwen25),
            act_extra_saves: if matches!(g, QwenGeneration::Qwen2) { 1 } else { 0 },
            norm: if matches!(g, QwenGeneration::Qwen25) { NormKind::Rms } else { NormKind::Layer },
            patch: self.patch,
            merge: self.merge,
            fixed: 0,
            full_attn_layers: self.full_attn_layers,
            window: self.window,
            default_side: 768,
            min_pixels: pixels.0,
            max_pixels: pixels.1,
            projector_linears: (1 + self.deepstack) * merger,
        }
    }
}

impl Tower {
    /// SigLIP as Gemma 3 runs it: every image resized to `side`, separate q, k, v, learned
    /// positions, `merge`×`merge` patches average-pooled into a visual token, no projector
    /// linears (Gemma 3's is a bare matrix).
    pub const fn siglip(layers: u64, hidden: u64, heads: u64, ffn: u64, patch: u64, merge: u64, side: u64) -> Tower {
        Tower {
            layers,
            hidden,
            heads,
            ffn,
            fused_qkv: false,
            rotary: false,
            learned_positions: true,
            deepstack: 0,
            gated: false,
            act_extra_saves: 0,
            norm: NormKind::Layer,
            patch,
            merge,
            fixed: side,
            full_attn_layers: layers,
            window: 0,
            default_side: side,
            min_pixels: 0,
            max_pixels: 0,
            projector_linears: 0,
        }
    }

    pub const NONE: Tower = Tower {
        layers: 0,
        hidden: 0,
        heads: 0,
        ffn: 0,
        fused_qkv: false,
        rotary: false,
        learned_positions: false,
        deepstack: 0,
        gated: false,
        act_extra_saves: 0,
        norm: NormKind::Layer,
        patch: 0,
        merge: 1,
        fixed: 0,
        full_attn_layers: 0,
        window: 0,
        default_side: 0,
        min_pixels: 0,
        max_pixels: 0,
        projector_linears: 0,
    };

    /// LoRA parameters at `rank` on the block linears `targets` names, r·(in + out) each:
    /// q, k or v adapt the fused `qkv` (or each its own), o the `proj`, gate, up and down the MLP's (fc1 takes
    /// up or gate, fc2 down). The merger is not adapted (Unsloth's `get_peft_regex` takes
    /// only the blocks' linears, unsloth_zoo/peft_utils.py @ce232d6c).
    pub fn lora_params(&self, rank: u64, targets: crate::query::Targets) -> u64 {
        use crate::query::TargetModule as M;
        let (h, f) = (self.hidden, self.ffn);
        let has = |t: M| targets.contains(t);
        let mut per = 0;
        if self.fused_qkv {
            if has(M::Q) || has(M::K) || has(M::V) {
                per += rank * (h + 3 * h);
            }
        } else {
            per += [M::Q, M::K, M::V].iter().filter(|t| has(**t)).count() as u64 * rank * 2 * h;
        }
        if has(M::O) {
            per += rank * 2 * h;
        }
        if self.gated {
            per += [M::Gate, M::Up, M::Down].iter().filter(|t| has(**t)).count() as u64 * rank * (h + f);
        } else {
            per += u64::from(has(M::Up) || has(M::Gate)) * rank * (h + f) + u64::from(has(M::Down)) * rank * (f + h);
        }
        self.layers * per
    }

    /// The tower's blocks as an encoder the activation model counts: bidirectional
    /// attention over one image's patches, biases on every linear. Its fused `qkv` is the
    /// activation model's `Block::fused_qkv_linear` (one input, v a view of the whole
    /// projection's output), not the checkpoint quirk, which would fuse gate and up too.
    pub fn blocks(&self) -> Architecture {
        let heads = self.heads.max(1);
        Architecture {
            layers: self.layers,
            hidden: self.hidden,
            heads,
            kv_heads: heads,
            head_dim: self.hidden / heads,
            ffn: self.ffn,
            vocab: 0,
            tied: true,
            mlp: if self.gated { MlpKind::Gated } else { MlpKind::Plain },
            norm: self.norm,
            norms_per_layer: 2,
            qk_norm: false,
            qkv_bias: true,
            o_bias: true,
            mlp_bias: true,
            lm_head_bias: false,
            positions: 0,
            experts: 1,
            experts_per_token: 1,
            encoder_only: true,
            type_vocab: 0,
            dropout: false,
            inferred: false,
            quirks: Quirks {
                act_extra_saves: self.act_extra_saves,
                fused_qkv: false,
                softcap: false,
                norm_fp32_scale: false,
                softmax_fp32: true,
            },
            layout: Layout::UNIFORM,
        }
    }

    /// One image as the tower sees it: the query's `image_res` (or the tower's default) resized
    /// as its processor does, its patches and the visual tokens it adds to the sequence.
    pub fn per_image(&self, res: Option<crate::query::ImageSize>) -> PerImage {
        let (w, h) = match res {
            Some(r) => (r.w as u64, r.h as u64),
            None => {
                let s = if self.fixed > 0 { self.fixed } else { self.default_side };
                (s, s)
            }
        };
        let (w, h) = self.sides(w, h);
        let p = self.patch.max(1);
        let patches = (w / p) * (h / p);
        PerImage { w, h, patches, tokens: patches / (self.merge * self.merge).max(1) }
    }

    /// The image's sides as the tower sees them: `fixed` when it resizes every image, else
    /// Qwen's `smart_resize` (transformers qwen2_vl/image_processing_qwen2_vl.py): each side to
    /// the nearest multiple of patch·merge, then, outside the pixel bounds, both sides scaled by
    /// one factor (down with floor, up with ceil) to multiples again.
    fn sides(&self, w: u64, h: u64) -> (u64, u64) {
        if self.fixed > 0 {
            return (self.fixed, self.fixed);
        }
        let f = (self.patch * self.merge).max(1);
        let round = |x: u64| (((x + f / 2) / f).max(1)) * f;
        let (mut rw, mut rh) = (round(w), round(h));
        let (wf, hf, ff) = (w as f64, h as f64, f as f64);
        if self.max_pixels > 0 && rw * rh > self.max_pixels {
            let beta = (wf * hf / self.max_pixels as f64).sqrt();
            rw = ((wf / beta / ff).floor() as u64).max(1) * f;
            rh = ((hf / beta / ff).floor() as u64).max(1) * f;
        } else if self.min_pixels > 0 && rw * rh < self.min_pixels {
            let beta = (self.min_pixels as f64 / (wf * hf)).sqrt();
            rw = (wf * beta / ff).ceil() as u64 * f;
            rh = (hf * beta / ff).ceil() as u64 * f;
        }
        (rw, rh)
    }

    /// The linears of one block as (input, output) widths with a bias each: q, k and v (one
    /// fused projection or three), the output projection, then the MLP's (gate, up, down or
    /// fc1, fc2).
    pub fn block_linears(&self) -> Vec<(u64, u64)> {
        let (h, f) = (self.hidden, self.ffn);
        let mut v = if self.fused_qkv { vec![(h, 3 * h), (h, h)] } else { vec![(h, h); 4] };
        if self.gated {
            v.extend([(h, f), (h, f), (f, h)]);
        } else {
            v.extend([(h, f), (f, h)]);
        }
        v
    }

    /// Parameters of the blocks' linears (weights and biases).
    pub fn linear_params(&self) -> u64 {
        self.layers * self.block_linears().iter().map(|(i, o)| i * o + o).sum::<u64>()
    }
}

/// Qwen3-Next's Gated DeltaNet (transformers `qwen3_next/modular_qwen3_next.py`
/// `Qwen3NextGatedDeltaNet`): `in_proj_qkvz` hidden → 2·key + 2·value widths, `in_proj_ba`
/// hidden → 2·value heads, a depthwise causal conv over q, k, v of `conv` taps, `dt_bias` and
/// `A_log` per value head, a gated RMSNorm of one value head's width, `out_proj` value width →
/// hidden. `layers` 0: none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct LinearAttn {
    pub layers: u64,
    pub key_heads: u64,
    pub key_dim: u64,
    pub value_heads: u64,
    pub value_dim: u64,
    pub conv: u64,
}

impl LinearAttn {
    /// Parameters of one such block's mixer.
    pub fn params(&self, hidden: u64) -> u64 {
        let (kd, vd) = (self.key_heads * self.key_dim, self.value_heads * self.value_dim);
        hidden * (2 * kd + 2 * vd)
            + hidden * 2 * self.value_heads
            + (2 * kd + vd) * self.conv
            + 2 * self.value_heads
            + self.value_dim
            + vd * hidden
    }
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::UNIFORM
    }
}

impl Layout {
    /// SAM's image input and parts (`ImageInput::sam`); `None` for any other model.
    pub fn sam(&self) -> Option<(&'static ImageInput, &'static Sam)> {
        self.image.and_then(|img| img.sam.map(|s| (img, s)))
    }

    /// The vision tower whose images can be priced: loaded (`vision_params`) and described
    /// block by block. The one answer the memory, time and notes read.
    pub fn described_tower(&self) -> Option<&'static Tower> {
        (self.vision_params > 0 && self.tower.layers > 0).then_some(self.tower)
    }

    /// The tower's trainable parameters under `training`: LoRA at `rank` on its blocks'
    /// linears `targets` names, or the whole tower and projector (the memory's trainable
    /// count and the time model's both read it).
    pub fn tower_trainable(
        &self,
        training: crate::query::TowerTraining,
        rank: u64,
        targets: crate::query::Targets,
    ) -> u64 {
        use crate::query::TowerTraining as T;
        match (training, self.described_tower()) {
            (T::Lora, Some(tw)) => tw.lora_params(rank, targets),
            (T::Full, Some(_)) => self.vision_params,
            _ => 0,
        }
    }

    pub const UNIFORM: Layout = Layout {
        dense_layers: 0,
        dense_ffn: 0,
        shared_ffn: 0,
        router_bias: false,
        attn_sinks: false,
        qk_norm_full: false,
        mla: Mla { q_rank: 0, kv_rank: 0, rope_dim: 0, v_dim: 0 },
        vision_params: 0,
        tower: &Tower::NONE,
        attn_gate: false,
        shared_gate: false,
        linear_attn: LinearAttn { layers: 0, key_heads: 0, key_dim: 0, value_heads: 0, value_dim: 0, conv: 0 },
        image: None,
        own_loss: false,
        speech: None,
    };
}

/// DeepSeek-V3's attention (transformers `DeepseekV3Attention`): q through a rank-`q_rank`
/// bottleneck with its own RMSNorm (`q_a_proj`, `q_a_layernorm`, `q_b_proj`), k and v from
/// one `kv_rank` latent plus a shared `rope_dim` rotary key (`kv_a_proj_with_mqa`,
/// `kv_a_layernorm`, `kv_b_proj`). Per head, q and k are `head_dim` = nope + rope wide and
/// v is `v_dim`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Mla {
    pub q_rank: u64,
    pub kv_rank: u64,
    pub rope_dim: u64,
    pub v_dim: u64,
}

/// Implementation details of a model family that change its saved tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Quirks {
    /// Extra FFN-width tensors the activation keeps: GPT-2/phi's `gelu_new` is written as
    /// elementwise ops (0.5·x, tanh, 1 + tanh kept besides the input): 3.
    pub act_extra_saves: u64,
    /// The checkpoint fuses its projections: q, k and v come from one linear (GPT-2 c_attn,
    /// Phi-3 qkv_proj), and in a gated MLP gate and up too (Phi-3 gate_up_proj, the only
    /// gated family with fused qkv). v is a view that keeps the whole output alive, and PEFT
    /// wraps each fused linear as one module: one adapter, one input.
    pub fused_qkv: bool,
    /// Gemma 2: tanh soft-capping of attention scores (one more s² tensor per head) and of
    /// the final logits (one more V-wide tensor per token).
    pub softcap: bool,
    /// Gemma: the norm multiplies by (1 + weight) in fp32, so the fp32 normalised input is
    /// kept when the weight trains.
    pub norm_fp32_scale: bool,
    /// Eager attention runs softmax in fp32 and casts back, keeping both (transformers'
    /// shared `eager_attention_forward`); GPT-2 and BERT keep one softmax in the model dtype.
    pub softmax_fp32: bool,
}

/// Parameter counts of the parts of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ModuleCounts {
    /// Token (+ position, + token-type) embeddings and the embedding norm.
    pub embedding: u64,
    /// LM head (0 when tied or encoder-only).
    pub lm_head: u64,
    /// One block's attention projections (with biases).
    pub attention: u64,
    /// A linear-attention block's mixer (`Layout::linear_attn`), else 0.
    pub linear_attention: u64,
    /// One block's MLP (all experts, shared expert, router) — an MoE block where the model
    /// has both kinds.
    pub mlp: u64,
    /// A dense block's MLP in a model that mixes them (`Layout::dense_layers`), else 0.
    pub dense_mlp: u64,
    /// One block's norms.
    pub norms: u64,
    /// Final norm (+ BERT pooler).
    pub head_extra: u64,
    /// Largest single module's own parameters (DeepSpeed's `largest_layer`).
    pub largest_module: u64,
}

/// A linear projection of one block: input and output widths, and how many per block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearShape {
    pub input: u64,
    pub output: u64,
    /// Instances per block (experts for MoE MLP projections).
    pub count: u64,
}

impl Architecture {
    pub fn q_dim(&self) -> u64 {
        self.heads * self.head_dim
    }
    pub fn kv_dim(&self) -> u64 {
        self.kv_heads * self.head_dim
    }
    fn norm_params(&self) -> u64 {
        match self.norm {
            NormKind::Rms => self.hidden,
            NormKind::Layer => 2 * self.hidden,
        }
    }

    /// Shape of one of the seven block linears (GQA-aware: k and v map hidden to kv_dim).
    pub fn linear(&self, t: crate::query::TargetModule) -> Option<LinearShape> {
        use crate::query::TargetModule as T;
        let (h, f) = (self.hidden, self.ffn);
        // A shared expert as wide as a routed one is one more instance of the same shape.
        let e = self.experts + u64::from(self.layout.shared_ffn > 0 && self.layout.shared_ffn == f);
        let mla = self.layout.mla;
        if mla.kv_rank > 0 {
            // PEFT's names: q_a_proj + q_b_proj are "q" (one shape with their summed widths,
            // so r·(in + out) and DoRA's magnitude stay exact), kv_a_proj_with_mqa is "k",
            // kv_b_proj is "v".
            let qd = self.q_dim();
            match t {
                T::Q if mla.q_rank > 0 => {
                    return Some(LinearShape { input: h + mla.q_rank, output: mla.q_rank + qd, count: 1 })
                }
                T::Q => return Some(LinearShape { input: h, output: qd, count: 1 }),
                T::K => return Some(LinearShape { input: h, output: mla.kv_rank + mla.rope_dim, count: 1 }),
                T::V => {
                    return Some(LinearShape {
                        input: mla.kv_rank,
                        output: self.heads * (self.head_dim - mla.rope_dim + mla.v_dim),
                        count: 1,
                    })
                }
                T::O => return Some(LinearShape { input: self.heads * mla.v_dim, output: h, count: 1 }),
                _ => {}
            }
        }
        Some(match t {
            T::Q => {
                LinearShape { input: h, output: self.q_dim() * if self.layout.attn_gate { 2 } else { 1 }, count: 1 }
            }
            T::K | T::V => LinearShape { input: h, output: self.kv_dim(), count: 1 },
            T::O => LinearShape { input: self.q_dim(), output: h, count: 1 },
            T::Gate => match self.mlp {
                MlpKind::Gated => LinearShape { input: h, output: f, count: e },
                MlpKind::Plain => return None,
            },
            T::Up => LinearShape { input: h, output: f, count: e },
            T::Down => LinearShape { input: f, output: h, count: e },
            T::Embed | T::LmHead => return None,
        })
    }

    /// Every instance of one block linear over the whole stack, grouped by shape (`count`
    /// is instances over all blocks): where MoE blocks, their shared expert and dense blocks
    /// differ, each is its own group.
    pub fn linear_stack(&self, t: crate::query::TargetModule) -> Vec<LinearShape> {
        use crate::query::TargetModule as T;
        let Some(s) = self.linear(t) else { return vec![] };
        if !t.is_mlp() || self.experts <= 1 {
            // q, k, v and o exist in the softmax-attention blocks only (Gated DeltaNet blocks
            // have their own in_proj_qkvz / out_proj, which these names do not match).
            let blocks = if t.is_attention() { self.layers - self.linear_attn_blocks() } else { self.layers };
            // Whisper: PEFT's names (`q_proj`, `fc1`, ...) match the decoder's self- and
            // cross-attention and the encoder's blocks alike, all of one width.
            let blocks = match self.layout.speech {
                Some(sp) if t.is_attention() => 2 * blocks + sp.layers,
                Some(sp) => blocks + sp.layers,
                None => blocks,
            };
            return vec![LinearShape { count: s.count * blocks, ..s }];
        }
        let lay = &self.layout;
        let moe = self.moe_layers();
        let mut out = vec![LinearShape { count: s.count * moe, ..s }];
        let h = self.hidden;
        let shape = |f: u64, n: u64| {
            if t == T::Down {
                LinearShape { input: f, output: h, count: n }
            } else {
                LinearShape { input: h, output: f, count: n }
            }
        };
        if lay.shared_ffn > 0 && lay.shared_ffn != self.ffn {
            out.push(shape(lay.shared_ffn, moe));
        }
        if self.dense_blocks() > 0 {
            out.push(shape(lay.dense_ffn, self.dense_blocks()));
        }
        out
    }

    /// One FFN of width `f` (an expert, the shared expert or a dense block's MLP), with
    /// its biases.
    fn ffn_params(&self, f: u64) -> u64 {
        let h = self.hidden;
        match self.mlp {
            MlpKind::Gated => 3 * h * f + if self.mlp_bias { 2 * f + h } else { 0 },
            MlpKind::Plain => 2 * h * f + if self.mlp_bias { f + h } else { 0 },
        }
    }

    /// One MoE block's router (and its bias); 0 when dense.
    pub fn router_params(&self) -> u64 {
        if self.experts > 1 {
            self.hidden * self.experts + if self.layout.router_bias { self.experts } else { 0 }
        } else {
            0
        }
    }

    /// Blocks with a dense MLP in an MoE model (they come first); 0 when dense.
    pub fn dense_blocks(&self) -> u64 {
        if self.experts > 1 {
            self.layout.dense_layers.min(self.layers)
        } else {
            0
        }
    }

    /// Blocks whose token mixer is linear attention (Gated DeltaNet).
    pub fn linear_attn_blocks(&self) -> u64 {
        self.layout.linear_attn.layers.min(self.layers)
    }

    pub fn modules(&self) -> ModuleCounts {
        let (h, v) = (self.hidden, self.vocab);
        let lay = &self.layout;
        let qk_norm = match (self.qk_norm, lay.qk_norm_full) {
            (false, _) => 0,
            (true, false) => 2 * self.head_dim,
            (true, true) => self.q_dim() + self.kv_dim(),
        };
        let attention = if lay.mla.kv_rank > 0 {
            let m = lay.mla;
            let q = match m.q_rank {
                0 => h * self.q_dim(),
                r => h * r + r + r * self.q_dim(),
            };
            let kv = h * (m.kv_rank + m.rope_dim)
                + m.kv_rank
                + m.kv_rank * self.heads * (self.head_dim - m.rope_dim + m.v_dim);
            q + kv + self.heads * m.v_dim * h
        } else if lay.speech.is_some() {
            // Whisper's decoder block: its self-attention and its cross-attention.
            2 * SpeechEncoder::attention_params(h)
        } else {
            let qkv_bias = if self.qkv_bias { self.q_dim() + 2 * self.kv_dim() } else { 0 };
            let gate = if lay.attn_gate { h * self.q_dim() } else { 0 };
            h * (self.q_dim() + 2 * self.kv_dim())
                + gate
                + qkv_bias
                + self.q_dim() * h
                + if self.o_bias { h } else { 0 }
        } + qk_norm
            + if lay.attn_sinks { self.heads } else { 0 };
        let shared =
            if lay.shared_ffn > 0 { self.ffn_params(lay.shared_ffn) + if lay.shared_gate { h } else { 0 } } else { 0 };
        let mlp = self.experts * self.ffn_params(self.ffn) + shared + self.router_params();
        let dense_mlp = if lay.dense_layers > 0 { self.ffn_params(lay.dense_ffn) } else { 0 };
        let norms = self.norms_per_layer * self.norm_params();
        let mut embedding = v * h + self.positions * h + self.type_vocab * h;
        if self.encoder_only {
            embedding += self.norm_params();
        }
        let lm_head = if self.tied || self.encoder_only { 0 } else { v * h + if self.lm_head_bias { v } else { 0 } };
        let pooler = if self.encoder_only { h * h + h } else { 0 };
        let mut head_extra = if self.encoder_only { pooler } else { self.norm_params() };
        if let Some(img) = lay.image {
            // No token table: the patch convolution, class token and positions; after the
            // blocks, the family's norms and the classifier (with its bias), no pooler.
            embedding = img.embedding_params(h);
            head_extra = img.norms * self.norm_params() + img.pool_head_params(h, self.ffn) + self.classifier_params();
            if let Some(sam) = img.sam {
                head_extra += sam.extra_params(self.layers, h, self.head_dim, img.side / img.patch);
            }
        }
        // Largest module with its own parameters (recurse=False): the token embedding or LM
        // head in every LLM; a single expert projection could only win for absurd shapes.
        let linear_max = [h * self.q_dim(), h * self.ffn, h * lay.dense_ffn].into_iter().max().unwrap_or(0);
        // SAM's 64×64 position table is one parameter wider than any of its linears.
        let pos_table = lay.sam().map_or(0, |(img, _)| (img.side / img.patch).pow(2) * h);
        let largest_module = (v * h).max(lm_head).max(linear_max).max(pos_table);
        let linear_attention = if lay.linear_attn.layers > 0 { lay.linear_attn.params(h) } else { 0 };
        ModuleCounts {
            embedding,
            lm_head,
            attention,
            linear_attention,
            mlp,
            dense_mlp,
            norms,
            head_extra,
            largest_module,
        }
    }

    /// Blocks with an MoE MLP (all of them in a uniform MoE stack; 0 when dense).
    pub fn moe_layers(&self) -> u64 {
        if self.experts > 1 {
            self.layers - self.dense_blocks()
        } else {
            0
        }
    }

    /// FFN width one token passes through, averaged over the blocks: routed experts plus
    /// the shared one in MoE blocks, `dense_ffn` (or `ffn`) in dense ones. The activation
    /// and FLOP models use it as one block's width.
    pub fn active_ffn(&self) -> f64 {
        if self.experts <= 1 {
            return self.ffn as f64;
        }
        let moe = self.moe_layers() as f64;
        let per_moe = (self.ffn * self.experts_per_token + self.layout.shared_ffn) as f64;
        (moe * per_moe + self.dense_blocks() as f64 * self.layout.dense_ffn as f64) / self.layers.max(1) as f64
    }

    /// An image classifier's head (`nn.Linear(hidden, labels)` with its bias), or SAM's mask
    /// decoder: what trains beside the blocks; 0 for a backbone and for a language model,
    /// whose `vocab` is its token table.
    pub fn classifier_params(&self) -> u64 {
        match self.layout.image {
            Some(img) => self.vocab * self.hidden + self.vocab + img.sam.map_or(0, |_| Sam::MASK_DECODER),
            None => 0,
        }
    }

    /// The language model's parameters (without a multimodal checkpoint's vision tower).
    pub fn text_params(&self) -> u64 {
        let m = self.modules();
        let (dense, lin) = (self.dense_blocks(), self.linear_attn_blocks());
        m.embedding
            + m.lm_head
            + m.head_extra
            + (self.layers - lin) * m.attention
            + lin * m.linear_attention
            + self.layers * m.norms
            + (self.layers - dense) * m.mlp
            + dense * m.dense_mlp
    }

    /// Parameters of one block (an MoE block where the model has both kinds).
    pub fn layer_params(&self) -> u64 {
        let m = self.modules();
        m.attention + m.mlp + m.norms
    }

    /// Exact total parameter count as the checkpoint stores it (tied weights counted once;
    /// a multimodal checkpoint's vision tower included).
    pub fn param_count(&self) -> u64 {
        self.text_params() + self.layout.vision_params + self.speech_encoder_params()
    }

    /// A speech model's audio encoder (0 without one); its cross-attentions are the decoder's.
    pub fn speech_encoder_params(&self) -> u64 {
        self.layout.speech.map_or(0, |sp| sp.params(self.hidden, self.ffn))
    }

    /// Parameters that a token actually passes through (MoE: only the routed experts' MLPs;
    /// the vision tower does not run on text).
    pub fn active_params(&self) -> u64 {
        if self.experts <= 1 {
            return self.text_params();
        }
        self.text_params() - self.moe_layers() * self.ffn_params(self.ffn) * (self.experts - self.experts_per_token)
    }

    /// Parameters stored in the block linears (what QLoRA quantizes): everything in the
    /// blocks but the router.
    pub fn block_linear_params(&self) -> u64 {
        let m = self.modules();
        let (dense, lin) = (self.dense_blocks(), self.linear_attn_blocks());
        (self.layers - lin) * m.attention
            + lin * m.linear_attention
            + (self.layers - dense) * (m.mlp - self.router_params())
            + dense * m.dense_mlp
    }

    /// A plausible Llama-style architecture for a bare parameter count: hidden grows as the
    /// Llama family's (h ≈ 128·L), MHA with head_dim 128, vocab 32000, untied; the FFN width
    /// absorbs the remainder so the total matches the requested count within one FFN column.
    pub fn infer(params: u64) -> Architecture {
        let v = 32_000u64;
        // Llama family: 12·L·h² + 2·V·h ≈ P with L = h/128 → solve for h, round to 256.
        let p = params as f64;
        let mut best_h = 256u64;
        let mut h = 256u64;
        while h <= 65_536 {
            let l = (h / 128).max(2) as f64;
            let est = 12.0 * l * (h * h) as f64 + 2.0 * v as f64 * h as f64;
            if est <= p {
                best_h = h;
            } else {
                break;
            }
            h += 256;
        }
        let h = best_h;
        let layers = (h / 128).max(2);
        let heads = (h / 128).max(1);
        let mut a = Architecture {
            layers,
            hidden: h,
            heads,
            kv_heads: heads,
            head_dim: h / heads,
            ffn: 1,
            vocab: v,
            tied: false,
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
            inferred: true,
            quirks: Quirks::default(),
            layout: Layout::UNIFORM,
        };
        let fixed = a.param_count() - layers * 3 * h; // everything but ffn columns (ffn = 1)
        let per_col = layers * 3 * h;
        a.ffn = (params.saturating_sub(fixed) as f64 / per_col as f64).round().max(1.0) as u64;
        a
    }

    /// Applies explicit query fields on top of this architecture.
    pub fn apply(&mut self, o: &ArchOverrides) {
        if let Some(x) = o.layers {
            self.layers = x as u64;
        }
        if let Some(x) = o.hidden {
            self.hidden = x as u64;
            if o.head_dim.is_none() && self.heads > 0 && self.hidden.is_multiple_of(self.heads) {
                self.head_dim = self.hidden / self.heads;
            }
        }
        if let Some(x) = o.heads {
            // Multi-head attention stays multi-head: an inferred architecture (or an MHA
            // preset) given a new head count keeps one k/v head per query head.
            let mha = self.kv_heads == self.heads;
            self.heads = x as u64;
            if o.head_dim.is_none() && self.hidden.is_multiple_of(self.heads) {
                self.head_dim = self.hidden / self.heads;
            }
            if o.kv_heads.is_none() && (mha || self.kv_heads > self.heads) {
                self.kv_heads = self.heads;
            }
        }
        if let Some(x) = o.kv_heads {
            self.kv_heads = x as u64;
        }
        if let Some(x) = o.head_dim {
            self.head_dim = x as u64;
        }
        if let Some(x) = o.ffn {
            self.ffn = x as u64;
        }
        if let Some(x) = o.vocab {
            self.vocab = x as u64;
        }
        if let Some(x) = o.tied {
            self.tied = x;
        }
        if let Some(x) = o.experts {
            self.experts = x as u64;
        }
        if let Some(x) = o.experts_per_token {
            self.experts_per_token = x as u64;
        }
        if self.experts_per_token > self.experts {
            self.experts_per_token = self.experts;
        }
        if let Some(x) = o.norms {
            self.norms_per_layer = x as u64;
        }
        if let Some(x) = o.qk_norm {
            self.qk_norm = x > 0;
            self.layout.qk_norm_full = x == 2;
        }
        let l = &mut self.layout;
        if let Some(x) = o.dense_layers {
            l.dense_layers = x as u64;
        }
        if let Some(x) = o.dense_ffn {
            l.dense_ffn = x as u64;
        }
        if let Some(x) = o.shared_ffn {
            l.shared_ffn = x as u64;
        }
        if let Some(x) = o.q_rank {
            l.mla.q_rank = x as u64;
        }
        if let Some(x) = o.kv_rank {
            l.mla.kv_rank = x as u64;
        }
        if let Some(x) = o.rope_dim {
            l.mla.rope_dim = x as u64;
        }
        if let Some(x) = o.v_dim {
            l.mla.v_dim = x as u64;
        }
        if let Some(x) = o.vision_params {
            l.vision_params = x;
        }
    }

    /// Query keys that reproduce this architecture on top of an inferred one (for links
    /// made from a pasted config.json).
    pub fn to_overrides(&self) -> ArchOverrides {
        let c = |x: u64| Some(x.min(u32::MAX as u64) as u32);
        let nz = |x: u64| if x > 0 { c(x) } else { None };
        ArchOverrides {
            layers: c(self.layers),
            hidden: c(self.hidden),
            heads: c(self.heads),
            kv_heads: c(self.kv_heads),
            head_dim: c(self.head_dim),
            ffn: c(self.ffn),
            vocab: c(self.vocab),
            tied: Some(self.tied),
            experts: if self.experts > 1 { c(self.experts) } else { None },
            experts_per_token: if self.experts > 1 { c(self.experts_per_token) } else { None },
            norms: if self.norms_per_layer != 2 { c(self.norms_per_layer) } else { None },
            qk_norm: match (self.qk_norm, self.layout.qk_norm_full) {
                (false, _) => None,
                (true, false) => Some(1),
                (true, true) => Some(2),
            },
            dense_layers: nz(self.layout.dense_layers),
            dense_ffn: nz(self.layout.dense_ffn),
            shared_ffn: nz(self.layout.shared_ffn),
            q_rank: nz(self.layout.mla.q_rank),
            kv_rank: nz(self.layout.mla.kv_rank),
            rope_dim: nz(self.layout.mla.rope_dim),
            v_dim: nz(self.layout.mla.v_dim),
            vision_params: Some(self.layout.vision_params).filter(|v| *v > 0),
        }
    }

    /// Checks that the fields describe a buildable model; names the offending key.
    pub fn validate(&self) -> Result<(), crate::diag::Error> {
        if self.heads == 0
            || self.hidden == 0
            || self.layers == 0
            || self.head_dim == 0
            || self.ffn == 0
            || (self.vocab == 0 && self.layout.image.is_none())
        {
            return Err(crate::diag::Error::Refused(crate::diag::Refusal::ArchZero));
        }
        if self.kv_heads == 0 || self.kv_heads > self.heads || !self.heads.is_multiple_of(self.kv_heads) {
            return Err(crate::diag::Error::Refused(crate::diag::Refusal::KvHeadsDivideHeads {
                kv_heads: self.kv_heads,
                heads: self.heads,
            }));
        }
        let (lay, m) = (&self.layout, &self.layout.mla);
        if lay.dense_layers > self.layers || (lay.dense_layers > 0 && lay.dense_ffn == 0) {
            return Err(crate::diag::Error::Refused(crate::diag::Refusal::DenseLayers {
                dense_layers: lay.dense_layers,
                dense_ffn: lay.dense_ffn,
                layers: self.layers,
            }));
        }
        if m.kv_rank > 0 && (m.rope_dim >= self.head_dim || m.v_dim == 0 || self.kv_heads != self.heads) {
            return Err(crate::diag::Error::Refused(crate::diag::Refusal::LatentAttention { head_dim: self.head_dim }));
        }
        if self.experts_per_token == 0 || self.experts_per_token > self.experts {
            return Err(crate::diag::Error::Refused(crate::diag::Refusal::ExpertsPerToken { experts: self.experts }));
        }
        // Keep every product far from u64 overflow: 10^15 parameters is 1000x the largest model.
        let p = (self.layers as f64)
            * (self.hidden as f64)
            * ((self.ffn * self.experts) as f64 * 3.0 + 4.0 * (self.q_dim() as f64))
            + 2.0 * (self.vocab as f64) * (self.hidden as f64);
        // NaN (an overflowed product) is refused too.
        if p.is_nan() || p >= 1e15 {
            return Err(crate::diag::Error::Refused(crate::diag::Refusal::TooManyParams { params: p }));
        }
        Ok(())
    }
}
