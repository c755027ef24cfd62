//! Diffusion transformers as diffusers builds them: blocks by kind, each with its linears,
//! the parameters outside the blocks, the token rule, and the frozen companions (text
//! encoders, VAE) with their cited counts (data/families/components.csv).
//!
//! Block parameters and linear shapes are read from diffusers 0.42.1's model classes built
//! from each checkpoint's `transformer/config.json` on the meta device
//! (tools/calibrate/dit_probe.py's `MODELS`); the totals they add up to equal the counts in
//! data/families/components.csv exactly (`tests/diffusion.rs`). `saved` is what one block
//! keeps for backward per token of its sequence, recorded by tools/calibrate/dit_probe.py
//! into data/calibration/dit-saved.json.

/// What a linear of a block does: LoRA target groups are named after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Attention projections (`to_q`, `to_k`, `to_v`, `to_out.0`, the `add_*` of joint blocks).
    Attn,
    /// Feed-forward (`ff.net.*`, `ff_context.net.*`, Flux single blocks' `proj_mlp`/`proj_out`).
    Mlp,
    /// adaLN modulation (`norm1.linear`, `img_mod.1`): timestep to shift/scale/gate.
    Modulation,
    /// A single-stream block's MLP and the projection that fuses it with the attention
    /// (FLUX.1's `proj_mlp`, `proj_out`): no `ff.*` name, so diffusers' default list leaves
    /// them out.
    Fused,
    /// A UNet's `Transformer2DModel` `proj_in`/`proj_out` around its blocks: sd-scripts'
    /// networks/lora.py targets every Linear and 1×1 Conv2d of that module, diffusers' list
    /// only the attention's.
    Proj,
    /// A UNet's ResNet and sampler convolutions, its timestep and added-condition embeddings:
    /// full fine-tuning trains them, no LoRA target list here reaches them (LoCon's `conv_dim`
    /// would).
    Other,
}

/// The tokens a linear runs on: the time model's GEMMs (time.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokens {
    /// The image (or video) tokens: the image stream of a two-stream block, a cross-attention
    /// block's self-attention, MLP and queries.
    Image,
    /// The text tokens: the text stream of a two-stream block, a cross-attention's keys and values.
    Text,
    /// Image and text together (a single-stream block's one sequence).
    Joint,
    /// One vector per sample: adaLN modulation from the timestep embedding.
    Timestep,
    /// The pixels of a UNet's feature map at level `n`: the latent's pixels over 4^n (each
    /// level halves both sides).
    Level(u8),
}

impl Tokens {
    /// The share of the image tokens this layer's feature map has (1 outside a UNet).
    pub fn image_share(self) -> f64 {
        match self {
            Tokens::Level(n) => 0.25f64.powi(i32::from(n)),
            _ => 1.0,
        }
    }
}

/// One linear: in and out features, how many of it a block has, its role and its tokens.
#[derive(Debug, Clone, Copy)]
pub struct Linear {
    pub inp: u64,
    pub out: u64,
    pub count: u64,
    pub role: Role,
    pub on: Tokens,
    /// The share of `on`'s tokens each of these linears runs on: 1, or a routed expert's
    /// (HiDream's MoE sends every token to 2 of its 4 experts: 0.5).
    pub share: f64,
}

pub(super) const fn lin(inp: u64, out: u64, count: u64, role: Role, on: Tokens) -> Linear {
    Linear { inp, out, count, role, on, share: 1.0 }
}

/// Routed experts' linears: `count` of them in the block, each on `active`/`experts` of the
/// tokens (a token goes to `active` of the `experts`).
const fn routed(inp: u64, out: u64, count: u64, on: Tokens, active: u64, experts: u64) -> Linear {
    Linear { inp, out, count, role: Role::Mlp, on, share: active as f64 / experts as f64 }
}

/// Bytes one block saves for backward per image (or video) token and per text token, bf16
/// (dit_probe.py's `bytes_per_image_token`, and `bytes_per_block_at_text_tokens` over its 64
/// text tokens), and the aten ops one block dispatches in a forward and in its backward
/// (`ops_forward`, `ops_backward`: the kernels a GPU launches, one eager call each).
#[derive(Debug, Clone, Copy)]
pub struct Coef {
    pub image: f64,
    pub text: f64,
    pub ops_forward: u32,
    pub ops_backward: u32,
}

const fn coef(image: f64, at_text: f64, ops: (u32, u32)) -> Coef {
    coef_at(image, at_text, 64.0, ops)
}

/// A record made at `text` text tokens (CogVideoX's positions cover exactly its 226).
pub(super) const fn coef_at(image: f64, at_text: f64, text: f64, ops: (u32, u32)) -> Coef {
    Coef { image, text: at_text / text, ops_forward: ops.0, ops_backward: ops.1 }
}

/// `Coef` by what is trained (dit_probe.py: `full`, `lora_attn`, `lora_all`).
#[derive(Debug, Clone, Copy)]
pub struct Saved {
    pub full: Coef,
    pub lora_attn: Coef,
    pub lora_all: Coef,
}

/// Blocks of one kind.
#[derive(Debug, Clone, Copy)]
pub struct BlockKind {
    /// diffusers' attribute (`transformer_blocks`, `single_transformer_blocks`, `blocks`).
    pub name: &'static str,
    pub count: u64,
    /// All parameters of one block (linears, norms, modulation tables).
    pub params: u64,
    pub linears: &'static [Linear],
    pub saved: Saved,
}

impl BlockKind {
    pub fn linear_params(&self) -> u64 {
        self.linears.iter().map(|l| l.inp * l.out * l.count).sum()
    }
    /// LoRA parameters of one block at rank `r` on the linears `on` selects.
    pub fn lora_params(&self, r: u64, on: impl Fn(Role) -> bool) -> u64 {
        self.linears.iter().filter(|l| on(l.role)).map(|l| r * (l.inp + l.out) * l.count).sum()
    }
    /// The largest linear's weight, elements (a dequantized weight during its matmul).
    pub fn largest_linear(&self) -> u64 {
        self.linears.iter().map(|l| l.inp * l.out).max().unwrap_or(0)
    }
    /// A UNet block's self-attention: its feature map's level and width (`to_q`'s outputs);
    /// `None` for a ResNet block and for a transformer's blocks, which attend over the
    /// model's sequence.
    pub fn level_attention(&self) -> Option<(u8, u64)> {
        self.linears.iter().find_map(|l| match (l.role, l.on) {
            (Role::Attn, Tokens::Level(n)) => Some((n, l.out)),
            _ => None,
        })
    }
    pub fn has_attention(&self) -> bool {
        self.linears.iter().any(|l| l.role == Role::Attn)
    }
}

/// What a UNet holds for backward outside its checkpointed blocks (unet_probe.py): `outside`,
/// what the ops between the blocks save (norms and projections around each transformer, the
/// samplers, `conv_in`/`conv_out`, the mid block's first ResNet), held either way;
/// `held_ckpt`, under checkpointing, those and every checkpointed block's inputs, the skip
/// connections among them (storages counted once). `outside`'s ops are those ops' forward
/// kernels and the whole backward's.
#[derive(Debug, Clone, Copy)]
pub struct Between {
    pub outside: Saved,
    pub held_ckpt: Saved,
}

/// How the text reaches the blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextPath {
    /// Text tokens join the image tokens in one attention sequence (MMDiT: Flux, SD3, Qwen-Image).
    Joint,
    /// Text is only the keys and values of a cross-attention (Wan, LTX-Video).
    Cross,
    /// A cross-attention to the text, and a self-attention linear in the image tokens
    /// (Sana's ReLU linear attention: K^T·V per head, then Q against it) with heads of
    /// `head_dim`.
    LinearCross { head_dim: u64 },
}

/// How latents become tokens: `spatial` pixels per token side, `temporal` frames per latent
/// frame (0 for images).
#[derive(Debug, Clone, Copy)]
pub struct TokenRule {
    pub spatial: u64,
    pub temporal: u64,
}

/// A companion model (text encoder, VAE) with its cited parameter count.
#[derive(Debug, Clone, Copy)]
pub struct Companion {
    pub name: &'static str,
    pub params: u64,
    /// A CLIP text encoder's layers and width: what diffusers' `--train_text_encoder` trains
    /// (the CLIP encoders; T5 and the VAE stay frozen); `None` for the frozen ones.
    pub tower: Option<Tower>,
}

/// The transformer layers of a trainable text encoder: LoRA goes on each layer's q, k, v and
/// out projections (diffusers' `text_lora_config` target_modules).
#[derive(Debug, Clone, Copy)]
pub struct Tower {
    pub layers: u64,
    pub hidden: u64,
}

const fn frozen(name: &'static str, params: u64) -> Companion {
    Companion { name, params, tower: None }
}
const fn clip(name: &'static str, params: u64, layers: u64, hidden: u64) -> Companion {
    Companion { name, params, tower: Some(Tower { layers, hidden }) }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Image,
    Video,
}

/// One diffusion transformer preset.
#[derive(Debug, Clone, Copy)]
pub struct DitModel {
    pub id: &'static str,
    pub name: &'static str,
    pub kind: Kind,
    /// The Hugging Face repository.
    pub repo: &'static str,
    /// Transformer parameters outside the blocks (patch and text embedders, timestep MLPs,
    /// final norm and projection).
    pub non_block: u64,
    pub blocks: &'static [BlockKind],
    pub hidden: u64,
    pub text: TextPath,
    pub tokens: TokenRule,
    /// Text tokens the trainers pad or cut prompts to by default.
    pub text_tokens: u64,
    /// (width, height) and frames a run defaults to.
    pub default_res: (u64, u64),
    /// Image tokens a non-square image is padded to, 0: none. HiDream's transformer pads a
    /// latent whose sides differ to `max_resolution`'s 128 × 128 latent, 4,096 tokens
    /// (`HiDreamImageTransformer2DModel.forward`: `out = torch.zeros((B, C, self.max_seq,
    /// p * p))`, diffusers 0.42.1), so a 832×1216 bucket costs what 1024² does, and a
    /// non-square one of more tokens fails there.
    pub padded_tokens: u64,
    /// Streams `text_tokens` is made of, each an encoder's prompt of the same length (HiDream:
    /// T5's and Llama's, and each block's own Llama layer: 3); 1 elsewhere. An encoder reads
    /// one stream's tokens.
    pub text_streams: u64,
    pub default_frames: u64,
    /// Frozen text encoders, empty where no cited count exists (then they can only be cached).
    pub text_encoders: &'static [Companion],
    /// The VAE, `None` where no cited count exists (then latents can only be cached).
    pub vae: Option<Companion>,
    /// Latent elements one token carries (channels × the patch's area: 16 × 2 × 2 for the
    /// 16-channel VAEs with 2×2 patches, 128 for LTX's 1×1): the MSE loss's tensors.
    pub latent_channels: u64,
    /// Linears and convolutions outside the blocks that the time model counts (a UNet's;
    /// a transformer's embedders are left out, a fraction of a percent of its work).
    pub outer: &'static [Linear],
    /// A UNet's tensors held outside its blocks; `None` for a transformer, whose blocks hold
    /// the sequence between them.
    pub between: Option<Between>,
}

impl DitModel {
    /// The transformer's parameters: what the published count is checked against.
    pub fn params(&self) -> u64 {
        self.non_block + self.blocks.iter().map(|b| b.count * b.params).sum::<u64>()
    }
    pub fn block_count(&self) -> u64 {
        self.blocks.iter().map(|b| b.count).sum()
    }
    /// A `w`×`h` px image is padded to `padded_tokens`: HiDream compares its latent's sides
    /// (the VAE's 8× fewer than the pixels) and pads a non-square one.
    pub fn pads(&self, w: u64, h: u64) -> bool {
        self.padded_tokens > 0 && w / 8 != h / 8
    }
}

use Role::{Attn, Fused, Mlp, Modulation as Mod};
use Tokens::{Image as I, Joint as J, Text as T, Timestep as Ts};

const H_FLUX: u64 = 3072;
/// diffusers `FluxTransformerBlock`: two adaLN-Zero modulations (6·h each), q/k/v/out for
/// the image stream and add_q/k/v + to_add_out for the text stream, a GELU MLP of 4·h per
/// stream. Qwen-Image's `QwenImageTransformerBlock` has the same linears (img_mod/txt_mod,
/// img_mlp/txt_mlp).
const FLUX_DOUBLE: &[Linear] = &[
    lin(H_FLUX, 6 * H_FLUX, 2, Mod, Ts),
    lin(H_FLUX, H_FLUX, 4, Attn, I),
    lin(H_FLUX, H_FLUX, 4, Attn, T),
    lin(H_FLUX, 4 * H_FLUX, 1, Mlp, I),
    lin(H_FLUX, 4 * H_FLUX, 1, Mlp, T),
    lin(4 * H_FLUX, H_FLUX, 1, Mlp, I),
    lin(4 * H_FLUX, H_FLUX, 1, Mlp, T),
];
/// diffusers `FluxSingleTransformerBlock`: modulation 3·h, q/k/v, `proj_mlp` h → 4h and
/// `proj_out` (h + 4h) → h over the concatenated attention and MLP outputs. `proj_mlp`'s
/// width counts as the block's MLP width below (`Role::Fused` marks them for LoRA only).
const FLUX_SINGLE: &[Linear] = &[
    lin(H_FLUX, 3 * H_FLUX, 1, Mod, Ts),
    lin(H_FLUX, H_FLUX, 3, Attn, J),
    lin(H_FLUX, 4 * H_FLUX, 1, Fused, J),
    lin(5 * H_FLUX, H_FLUX, 1, Fused, J),
];

const H_SD35L: u64 = 2432;
const H_SD35M: u64 = 1536;
/// diffusers `JointTransformerBlock` (`context_pre_only` false): two 6·h modulations, eight
/// attention projections, a GELU MLP of 4·h per stream.
const fn sd3_joint(h: u64) -> [Linear; 7] {
    [
        lin(h, 6 * h, 2, Mod, Ts),
        lin(h, h, 4, Attn, I),
        lin(h, h, 4, Attn, T),
        lin(h, 4 * h, 1, Mlp, I),
        lin(h, 4 * h, 1, Mlp, T),
        lin(4 * h, h, 1, Mlp, I),
        lin(4 * h, h, 1, Mlp, T),
    ]
}
/// The last joint block (`context_pre_only`): the text stream stops after attention
/// (`norm1_context` 2·h, no `to_add_out`, no `ff_context`).
const fn sd3_last(h: u64) -> [Linear; 6] {
    [
        lin(h, 6 * h, 1, Mod, Ts),
        lin(h, 2 * h, 1, Mod, Ts),
        lin(h, h, 4, Attn, I),
        lin(h, h, 3, Attn, T),
        lin(h, 4 * h, 1, Mlp, I),
        lin(4 * h, h, 1, Mlp, I),
    ]
}
const SD35L_JOINT: &[Linear] = &sd3_joint(H_SD35L);
const SD35L_LAST: &[Linear] = &sd3_last(H_SD35L);
/// SD3.5 Medium's first 13 blocks (`dual_attention_layers`): `SD35AdaLayerNormZeroX`'s 9·h
/// modulation (shift, scale and gate for a second attention), the joint attention's eight
/// projections and `attn2`'s four, a self-attention of the image stream alone.
const SD35M_DUAL: &[Linear] = &[
    lin(H_SD35M, 9 * H_SD35M, 1, Mod, Ts),
    lin(H_SD35M, 6 * H_SD35M, 1, Mod, Ts),
    lin(H_SD35M, H_SD35M, 8, Attn, I),
    lin(H_SD35M, H_SD35M, 4, Attn, T),
    lin(H_SD35M, 4 * H_SD35M, 1, Mlp, I),
    lin(H_SD35M, 4 * H_SD35M, 1, Mlp, T),
    lin(4 * H_SD35M, H_SD35M, 1, Mlp, I),
    lin(4 * H_SD35M, H_SD35M, 1, Mlp, T),
];
const SD35M_JOINT: &[Linear] = &sd3_joint(H_SD35M);
const SD35M_LAST: &[Linear] = &sd3_last(H_SD35M);

/// diffusers `WanTransformerBlock`: self-attention and cross-attention (q/k/v/out each), a
/// GELU MLP of `ffn_dim`; modulation is a learned table plus the shared timestep projection.
/// The cross-attention's keys and values run on the text, everything else on the video tokens.
const fn wan_linears(h: u64, ffn: u64) -> [Linear; 4] {
    [lin(h, h, 6, Attn, I), lin(h, h, 2, Attn, T), lin(h, ffn, 1, Mlp, I), lin(ffn, h, 1, Mlp, I)]
}
const WAN_1_3B: &[Linear] = &wan_linears(1536, 8960);
const WAN_14B: &[Linear] = &wan_linears(5120, 13824);
/// diffusers `CogVideoXBlock`: one stream over text and video together; its expert adaLN
/// (`CogVideoXLayerNormZero`, twice) projects the 512-wide timestep embedding to 6·h.
const fn cogvideox_linears(h: u64) -> [Linear; 4] {
    [lin(512, 6 * h, 2, Mod, Ts), lin(h, h, 4, Attn, J), lin(h, 4 * h, 1, Mlp, J), lin(4 * h, h, 1, Mlp, J)]
}
const COGVIDEOX_2B: &[Linear] = &cogvideox_linears(1920);
const COGVIDEOX_5B: &[Linear] = &cogvideox_linears(3072);
/// diffusers `BasicTransformerBlock` as PixArt-Σ configures it (`ada_norm_single`): self- and
/// cross-attention over the 1152-wide projected T5 states, a tanh-GELU MLP of 4·h; the
/// modulation is a learned table per block plus one shared timestep projection outside.
const PIXART: &[Linear] = &wan_linears(1152, 4608);
/// diffusers `LTXVideoTransformerBlock`: self- and cross-attention (cross_attention_dim
/// 2048), GELU MLP 4·h.
const LTX: &[Linear] = &wan_linears(2048, 8192);

const H_HIDREAM: u64 = 2560;
/// HiDream's feed-forward widths: `HiDreamImageFeedForwardSwiGLU(dim, hidden)` keeps
/// int(2·hidden/3) rounded up to a multiple of 256, so a routed expert (hidden 4·2560) is 6912
/// wide and the shared expert (hidden 2·2560) 3584.
const HIDREAM_EXPERT: u64 = 6912;
const HIDREAM_SHARED: u64 = 3584;
/// diffusers `HiDreamImageTransformerBlock`: a 12·h adaLN modulation, q/k/v/out for the image
/// stream and `to_*_t` for the text stream (each with a bias; q and k RMS-normed), the image
/// stream's MoE SwiGLU (`MOEFeedForwardSwiGLU`: a shared expert, 4 routed experts with 2 per
/// token, a 4 × h gate) and the text stream's SwiGLU of 6912.
const HIDREAM_DOUBLE: &[Linear] = &[
    lin(H_HIDREAM, 12 * H_HIDREAM, 1, Mod, Ts),
    lin(H_HIDREAM, H_HIDREAM, 4, Attn, I),
    lin(H_HIDREAM, H_HIDREAM, 4, Attn, T),
    lin(H_HIDREAM, HIDREAM_SHARED, 2, Mlp, I),
    lin(HIDREAM_SHARED, H_HIDREAM, 1, Mlp, I),
    routed(H_HIDREAM, HIDREAM_EXPERT, 8, I, 2, 4),
    routed(HIDREAM_EXPERT, H_HIDREAM, 4, I, 2, 4),
    lin(H_HIDREAM, HIDREAM_EXPERT, 2, Mlp, T),
    lin(HIDREAM_EXPERT, H_HIDREAM, 1, Mlp, T),
];
/// diffusers `HiDreamImageSingleTransformerBlock`: a 6·h modulation, q/k/v/out and the MoE
/// SwiGLU over the one sequence (the image tokens, the text streams behind them).
const HIDREAM_SINGLE: &[Linear] = &[
    lin(H_HIDREAM, 6 * H_HIDREAM, 1, Mod, Ts),
    lin(H_HIDREAM, H_HIDREAM, 4, Attn, J),
    lin(H_HIDREAM, HIDREAM_SHARED, 2, Mlp, J),
    lin(HIDREAM_SHARED, H_HIDREAM, 1, Mlp, J),
    routed(H_HIDREAM, HIDREAM_EXPERT, 8, J, 2, 4),
    routed(HIDREAM_EXPERT, H_HIDREAM, 4, J, 2, 4),
];
/// Llama 3.1 8B Instruct as diffusers' HiDream pipeline and training script load it
/// (`LlamaForCausalLM`, its `lm_head` included): the language-model catalog's exact count.
const LLAMA31_8B: Companion = frozen("Llama 3.1 8B Instruct", 8_030_261_248);

// components.csv: CLIP-L 12 layers × 768, OpenCLIP bigG 32 × 1280.
pub(super) const CLIP_L_TEXT: Companion = clip("CLIP ViT-L/14 text", 123_060_480, 12, 768);
const CLIP_L_TEXT_PROJ: Companion = clip("CLIP ViT-L/14 text + projection", 123_650_304, 12, 768);
pub(super) const CLIP_G_TEXT_PROJ: Companion = clip("OpenCLIP bigG/14 text + projection", 694_659_840, 32, 1280);
const T5_XXL: Companion = frozen("T5-v1.1-XXL encoder", 4_762_310_656);
/// AutoencoderKL with 4 latent channels (SD 1.x, SDXL, PixArt-Σ's SDXL VAE): components.csv,
/// param_counts.py `vae_kl(4, quant_conv=True)`.
pub(super) const VAE_Z4: Companion = frozen("AutoencoderKL (4 channels)", 83_653_863);
const VAE_Z16: Companion = frozen("AutoencoderKL (16 channels)", 83_819_683);
/// Qwen-Image's prompt encoder, the Qwen2.5-VL-7B language model: components.csv records
/// only its stated size; the count is the Qwen2.5-7B preset's (catalog.rs), the vision tower
/// left out (text prompts never run it, but diffusers loads it: 0.68B more).
const QWEN25_VL_7B_TEXT: Companion = frozen("Qwen2.5-VL-7B language model", 7_615_616_512);

/// HunyuanVideo's prompt encoder, the language model of llava-llama-3-8b: diffusers loads it
/// as `LlamaModel` (pipeline_hunyuan_video.py, components.csv), Llama 3 8B's 8,030,261,248
/// (the llama-3.1-8b preset) less its 128,256 × 4,096 `lm_head`.
const LLAVA_LLAMA3_8B_TEXT: Companion = frozen("llava-llama-3-8b language model", 7_504_924_672);

/// HunyuanVideo's blocks: diffusers' `HunyuanVideoTransformerBlock` and
/// `HunyuanVideoSingleTransformerBlock` have FLUX.1's linears exactly (hidden 3072, 24 heads,
/// MLP 4·h; built by dit_probe.py: 339,831,296 and 141,591,808 parameters); what they save
/// differs (an attention mask over the text, the probe's own record).
const HUNYUAN_BLOCKS: &[BlockKind] = &[
    BlockKind {
        name: "transformer_blocks",
        count: 20,
        params: 339_831_296,
        linears: FLUX_DOUBLE,
        saved: SAVED_HUNYUAN_DOUBLE,
    },
    BlockKind {
        name: "single_transformer_blocks",
        count: 40,
        params: 141_591_808,
        linears: FLUX_SINGLE,
        saved: SAVED_HUNYUAN_SINGLE,
    },
];

/// Sana's prompt encoder, Gemma 2 2B (its embedding tied to the head): the gemma-2-2b
/// preset's count (catalog.rs); components.csv names it (SimpleTuner QUICKSTART).
const GEMMA2_2B: Companion = frozen("Gemma 2 2B", 2_614_341_888);

const H_SANA: u64 = 2240;
/// diffusers `SanaTransformerBlock`: linear self-attention (q/k/v/out on the image tokens),
/// cross-attention (q and out on the image, k and v on the projected caption), and
/// `GLUMBConv`: a 1×1 convolution to 2 × 2.5·h (a GEMM per pixel), a depthwise 3×3 (no
/// GEMM, among the block's other parameters) and a 1×1 back from 2.5·h. Modulation is a
/// table per block (adaLN-single). The convolutions are `Role::Other`: LoRA targets the
/// `nn.Linear`s (PEFT's list and dit_probe.py's `lora_all` alike), which are all attention.
const SANA: &[Linear] = &[
    lin(H_SANA, H_SANA, 4, Attn, I),
    lin(H_SANA, H_SANA, 2, Attn, I),
    lin(H_SANA, H_SANA, 2, Attn, T),
    lin(H_SANA, 5 * H_SANA, 1, Role::Other, I),
    lin(5 * H_SANA / 2, H_SANA, 1, Role::Other, I),
];

const H_FLUX2: u64 = 6144;
/// diffusers `Flux2TransformerBlock`: q/k/v/out for the image stream and add_q/k/v +
/// to_add_out for the text, a SwiGLU MLP per stream (`linear_in` h → 2·3h, `linear_out`
/// 3h → h). The adaLN modulations are computed once for every block, outside them
/// (`double_stream_modulation_img/txt`, `single_stream_modulation`).
const FLUX2_DOUBLE: &[Linear] = &[
    lin(H_FLUX2, H_FLUX2, 4, Attn, I),
    lin(H_FLUX2, H_FLUX2, 4, Attn, T),
    lin(H_FLUX2, 6 * H_FLUX2, 1, Mlp, I),
    lin(H_FLUX2, 6 * H_FLUX2, 1, Mlp, T),
    lin(3 * H_FLUX2, H_FLUX2, 1, Mlp, I),
    lin(3 * H_FLUX2, H_FLUX2, 1, Mlp, T),
];
/// diffusers `Flux2SingleTransformerBlock`: one fused projection to q, k, v and the SwiGLU's
/// input (h → 3h + 6h), one from the attention and MLP outputs back (h + 3h → h); LoRA on
/// "attention" alone never reaches it (no separate q/k/v to target).
const FLUX2_SINGLE: &[Linear] = &[lin(H_FLUX2, 9 * H_FLUX2, 1, Fused, J), lin(4 * H_FLUX2, H_FLUX2, 1, Fused, J)];
/// FLUX.2 [dev]'s prompt encoder: Mistral Small 3.1 24B as `Mistral3ForConditionalGeneration`
/// (pipeline_flux2.py), the mistral-small-3.1-24b preset's count with its Pixtral tower.
const MISTRAL_SMALL_31: Companion = frozen("Mistral Small 3.1 24B", 24_011_361_280);

const FLUX_BLOCKS_DEV: &[BlockKind] = &[
    BlockKind {
        name: "transformer_blocks",
        count: 19,
        params: 339_831_296,
        linears: FLUX_DOUBLE,
        saved: SAVED_FLUX_DOUBLE,
    },
    BlockKind {
        name: "single_transformer_blocks",
        count: 38,
        params: 141_591_808,
        linears: FLUX_SINGLE,
        saved: SAVED_FLUX_SINGLE,
    },
];

// dit_probe.py records (data/calibration/dit-saved.json): bytes per image token, bytes per
// block at the record's 64 text tokens, and the ops of one block's forward and backward.
const SAVED_FLUX_DOUBLE: Saved = Saved {
    full: coef(172_328.0, 11_139_584.0, (177, 352)),
    lora_attn: coef(135_720.0, 8_784_384.0, (273, 362)),
    lora_all: coef(221_864.0, 14_322_304.0, (337, 516)),
};
const SAVED_FLUX_SINGLE: Saved = Saved {
    full: coef(153_892.0, 9_879_808.0, (96, 172)),
    lora_attn: coef(117_220.0, 7_526_656.0, (132, 170)),
    lora_all: coef(203_364.0, 13_052_224.0, (164, 239)),
};
const SAVED_QWEN_DUAL: Saved = Saved {
    full: coef(172_328.0, 11_139_584.0, (184, 370)),
    lora_attn: coef(148_008.0, 9_570_816.0, (280, 379)),
    lora_all: coef(234_152.0, 15_108_736.0, (344, 537)),
};
const SAVED_SD35L: Saved = Saved {
    full: coef(141_520.0, 9_144_832.0, (152, 333)),
    lora_attn: coef(117_456.0, 7_595_008.0, (248, 346)),
    lora_all: coef(185_680.0, 11_980_928.0, (312, 500)),
};
const SAVED_SD35M_DUAL: Saved = Saved {
    full: coef(132680.0, 5788160.0, (204, 446)),
    lora_attn: coef(130120.0, 4815360.0, (348, 504)),
    lora_all: coef(176328.0, 7588480.0, (412, 666)),
};
const SAVED_SD35M_JOINT: Saved = Saved {
    full: coef(89384.0, 5775872.0, (152, 333)),
    lora_attn: coef(74280.0, 4803072.0, (248, 347)),
    lora_all: coef(117416.0, 7576192.0, (312, 501)),
};
const SAVED_PIXART: Saved = Saved {
    full: coef(53128.0, 313344.0, (80, 171)),
    lora_attn: coef(55816.0, 911360.0, (176, 238)),
    lora_all: coef(78984.0, 911360.0, (200, 284)),
};
const SAVED_WAN_1_3B: Saved = Saved {
    full: coef(140_420.0, 1_241_344.0, (157, 308)),
    lora_attn: coef(110_596.0, 1_642_752.0, (253, 351)),
    lora_all: coef(152_708.0, 1_642_752.0, (277, 397)),
};
const SAVED_WAN_14B: Saved = Saved {
    full: coef(403_812.0, 4_137_216.0, (157, 308)),
    lora_attn: coef(335_588.0, 5_456_128.0, (253, 351)),
    lora_all: coef(411_492.0, 5_456_128.0, (277, 397)),
};
const SAVED_COGVIDEOX_2B: Saved = Saved {
    full: coef_at(88_688.0, 20_106_976.0, 226.0, (87, 183)),
    lora_attn: coef_at(77_424.0, 17_559_264.0, 226.0, (135, 157)),
    lora_all: coef_at(131_312.0, 29_742_176.0, 226.0, (175, 265)),
};
const SAVED_COGVIDEOX_5B: Saved = Saved {
    full: coef_at(141_896.0, 32_168_848.0, 226.0, (87, 183)),
    lora_attn: coef_at(123_720.0, 28_059_024.0, 226.0, (135, 157)),
    lora_all: coef_at(209_864.0, 47_531_792.0, 226.0, (175, 265)),
};
const SAVED_HUNYUAN_DOUBLE: Saved = Saved {
    full: coef(172_330.0, 11_139_712.0, (181, 354)),
    lora_attn: coef(148_010.0, 9_570_944.0, (277, 368)),
    lora_all: coef(234_154.0, 15_108_864.0, (341, 522)),
};
const SAVED_HUNYUAN_SINGLE: Saved = Saved {
    full: coef(160_038.0, 10_273_152.0, (111, 192)),
    lora_attn: coef(129_510.0, 8_313_216.0, (147, 192)),
    lora_all: coef(215_654.0, 13_838_784.0, (179, 261)),
};
// FLUX.2 [dev]: probed at 12 and 24 heads and carried to its 48 (dit_probe.py `widened`).
const SAVED_FLUX2_DOUBLE: Saved = Saved {
    full: coef(393_800.0, 25_252_352.0, (167, 294)),
    lora_attn: coef(332_616.0, 21_336_576.0, (263, 372)),
    lora_all: coef(431_048.0, 27_636_224.0, (311, 464)),
};
const SAVED_FLUX2_SINGLE: Saved = Saved {
    full: coef(381_508.0, 24_428_800.0, (81, 116)),
    lora_attn: coef(246_340.0, 15_778_048.0, (81, 88)),
    lora_all: coef(369_348.0, 23_650_560.0, (105, 134)),
};
const SAVED_SANA: Saved = Saved {
    full: coef(189_088.0, 904_960.0, (106, 185)),
    lora_attn: coef(211_872.0, 2_060_032.0, (202, 273)),
    lora_all: coef(211_872.0, 2_060_032.0, (202, 273)),
};
/// HiDream's records are made at 192 text tokens: three streams of the probe's 64 (T5's, the
/// last Llama layer's, the block's own Llama layer). A routed expert's tokens follow the gate,
/// so the per-token figures are not whole bytes.
const SAVED_HIDREAM_DOUBLE: Saved = Saved {
    full: coef_at(262_283.2, 30_383_132.8, 192.0, (254, 495)),
    lora_attn: coef_at(207_244.8, 25_806_835.2, 192.0, (350, 459)),
    lora_all: coef_at(359_372.0, 39_026_768.0, 192.0, (526, 861)),
};
const SAVED_HIDREAM_SINGLE: Saved = Saved {
    full: coef_at(262_284.0, 50_404_624.0, 192.0, (187, 344)),
    lora_attn: coef_at(207_244.0, 39_831_824.0, 192.0, (235, 283)),
    lora_all: coef_at(359_372.0, 69_050_704.0, 192.0, (375, 606)),
};
const SAVED_LTX: Saved = Saved {
    full: coef(160_020.0, 1_605_888.0, (151, 308)),
    lora_attn: coef(139_924.0, 2_138_368.0, (247, 354)),
    lora_all: coef(181_012.0, 2_138_368.0, (271, 400)),
};

/// A Wan 2.1 model: video tokens cross-attend to 512 umT5 tokens, 832×480 × 81 frames by
/// default; its text encoder's and VAE's sizes are not cited, so they can only be cached.
const fn wan(
    id: &'static str,
    name: &'static str,
    repo: &'static str,
    non_block: u64,
    blocks: &'static [BlockKind],
    hidden: u64,
) -> DitModel {
    DitModel {
        id,
        name,
        kind: Kind::Video,
        repo,
        non_block,
        blocks,
        hidden,
        text: TextPath::Cross,
        tokens: TokenRule { spatial: 16, temporal: 4 },
        text_tokens: 512,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (832, 480),
        default_frames: 81,
        text_encoders: &[],
        vae: None,
        latent_channels: 64,
        outer: &[],
        between: None,
    }
}

/// A CogVideoX model: one stream over the text and video together, T5 prompts padded to 226
/// tokens (`max_text_seq_length`), 720×480 × 49 frames by default.
const fn cogvideox(
    id: &'static str,
    name: &'static str,
    repo: &'static str,
    non_block: u64,
    blocks: &'static [BlockKind],
    hidden: u64,
) -> DitModel {
    DitModel {
        id,
        name,
        kind: Kind::Video,
        repo,
        non_block,
        blocks,
        hidden,
        text: TextPath::Joint,
        tokens: TokenRule { spatial: 16, temporal: 4 },
        text_tokens: 226,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (720, 480),
        default_frames: 49,
        text_encoders: &[T5_XXL],
        vae: None,
        latent_channels: 64,
        outer: &[],
        between: None,
    }
}

pub static MODELS: &[DitModel] = &[
    super::unets::SD15,
    super::unets::SDXL,
    DitModel {
        id: "flux.1-dev",
        name: "FLUX.1 [dev]",
        kind: Kind::Image,
        repo: "black-forest-labs/FLUX.1-dev",
        non_block: 64_124_992,
        blocks: FLUX_BLOCKS_DEV,
        hidden: H_FLUX,
        text: TextPath::Joint,
        tokens: TokenRule { spatial: 16, temporal: 0 },
        // diffusers train_dreambooth_lora_flux.py `--max_sequence_length` default 512.
        text_tokens: 512,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[CLIP_L_TEXT, T5_XXL],
        vae: Some(VAE_Z16),
        latent_channels: 64,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "flux.1-schnell",
        name: "FLUX.1 [schnell]",
        kind: Kind::Image,
        repo: "black-forest-labs/FLUX.1-schnell",
        // No guidance embedder: 10,229,760 fewer than dev (components.csv 11,891,178,560).
        non_block: 64_124_992 - 10_229_760,
        blocks: FLUX_BLOCKS_DEV,
        hidden: H_FLUX,
        text: TextPath::Joint,
        tokens: TokenRule { spatial: 16, temporal: 0 },
        // FluxPipeline: schnell's T5 max_sequence_length is 256.
        text_tokens: 256,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[CLIP_L_TEXT, T5_XXL],
        vae: Some(VAE_Z16),
        latent_channels: 64,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "flux.2-dev",
        name: "FLUX.2 [dev]",
        kind: Kind::Image,
        repo: "black-forest-labs/FLUX.2-dev",
        // The shared modulations (two of 6·h, one of 3·h, from h), the embedders of the
        // latents, the text (3 × 5120 → h), the timestep and guidance, and the final layer
        // (dit_probe.py builds it: 32,223,281,152 in all).
        non_block: 816_316_416,
        blocks: &[
            BlockKind {
                name: "transformer_blocks",
                count: 8,
                params: 981_467_648,
                linears: FLUX2_DOUBLE,
                saved: SAVED_FLUX2_DOUBLE,
            },
            BlockKind {
                name: "single_transformer_blocks",
                count: 48,
                params: 490_733_824,
                linears: FLUX2_SINGLE,
                saved: SAVED_FLUX2_SINGLE,
            },
        ],
        hidden: H_FLUX2,
        text: TextPath::Joint,
        // 32 latent channels at 8×, packed 2 × 2: 128 per token, a token per 16 × 16 px.
        tokens: TokenRule { spatial: 16, temporal: 0 },
        // pipeline_flux2.py `max_sequence_length` 512.
        text_tokens: 512,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[MISTRAL_SMALL_31],
        vae: None,
        latent_channels: 128,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "sd3.5-large",
        name: "Stable Diffusion 3.5 Large",
        kind: Kind::Image,
        repo: "stabilityai/stable-diffusion-3.5-large",
        non_block: 39_554_112,
        blocks: &[
            BlockKind {
                name: "transformer_blocks",
                count: 37,
                params: 212_999_680,
                linears: SD35L_JOINT,
                saved: SAVED_SD35L,
            },
            BlockKind {
                name: "transformer_blocks[-1]",
                count: 1,
                params: 136_085_248,
                linears: SD35L_LAST,
                saved: SAVED_SD35L,
            },
        ],
        hidden: H_SD35L,
        text: TextPath::Joint,
        tokens: TokenRule { spatial: 16, temporal: 0 },
        // 77 CLIP tokens concatenated with T5's (diffusers' SD3 DreamBooth script: 77).
        text_tokens: 77 + 77,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[CLIP_L_TEXT_PROJ, CLIP_G_TEXT_PROJ, T5_XXL],
        vae: Some(VAE_Z16),
        latent_channels: 64,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "sd3.5-medium",
        name: "Stable Diffusion 3.5 Medium",
        kind: Kind::Image,
        repo: "stabilityai/stable-diffusion-3.5-medium",
        non_block: 19_476_544,
        blocks: &[
            BlockKind {
                name: "transformer_blocks[:13]",
                count: 13,
                params: 101_506_944,
                linears: SD35M_DUAL,
                saved: SAVED_SD35M_DUAL,
            },
            BlockKind {
                name: "transformer_blocks[13:23]",
                count: 10,
                params: 84_980_992,
                linears: SD35M_JOINT,
                saved: SAVED_SD35M_JOINT,
            },
            BlockKind {
                name: "transformer_blocks[-1]",
                count: 1,
                params: 54_294_784,
                linears: SD35M_LAST,
                saved: SAVED_SD35M_JOINT,
            },
        ],
        hidden: H_SD35M,
        text: TextPath::Joint,
        tokens: TokenRule { spatial: 16, temporal: 0 },
        text_tokens: 77 + 77,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[CLIP_L_TEXT_PROJ, CLIP_G_TEXT_PROJ, T5_XXL],
        vae: Some(VAE_Z16),
        latent_channels: 64,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "pixart-sigma",
        name: "PixArt-Σ XL 1024",
        kind: Kind::Image,
        repo: "PixArt-alpha/PixArt-Sigma-XL-2-1024-MS",
        non_block: 15_700_640,
        blocks: &[BlockKind {
            name: "transformer_blocks",
            count: 28,
            params: 21_255_552,
            linears: PIXART,
            saved: SAVED_PIXART,
        }],
        hidden: 1152,
        text: TextPath::Cross,
        tokens: TokenRule { spatial: 16, temporal: 0 },
        // T5 prompts padded to 300 tokens (pipeline_pixart_sigma.py `max_sequence_length`).
        text_tokens: 300,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[T5_XXL],
        vae: Some(VAE_Z4),
        // 4 latent channels in 2×2 patches.
        latent_channels: 16,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "sana-1.6b",
        name: "Sana 1.6B",
        kind: Kind::Image,
        repo: "Efficient-Large-Model/Sana_1600M_1024px_diffusers",
        // Patch embedding, timestep and caption embedders, the final table and projection
        // (dit_probe.py builds it; components.csv's 1,604,462,752 in all).
        non_block: 46_049_952,
        blocks: &[BlockKind {
            name: "transformer_blocks",
            count: 20,
            params: 77_920_640,
            linears: SANA,
            saved: SAVED_SANA,
        }],
        hidden: H_SANA,
        text: TextPath::LinearCross { head_dim: 32 },
        // DC-AE compresses 32× and the patch is 1 (pipeline_sana.py vae_scale_factor 32).
        tokens: TokenRule { spatial: 32, temporal: 0 },
        // pipeline_sana.py `max_sequence_length` 300 (components.csv).
        text_tokens: 300,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[GEMMA2_2B],
        vae: None,
        latent_channels: 32,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "qwen-image",
        name: "Qwen-Image",
        kind: Kind::Image,
        repo: "Qwen/Qwen-Image",
        non_block: 40_523_328,
        blocks: &[BlockKind {
            name: "transformer_blocks",
            count: 60,
            params: 339_831_296,
            linears: FLUX_DOUBLE,
            saved: SAVED_QWEN_DUAL,
        }],
        hidden: H_FLUX,
        text: TextPath::Joint,
        tokens: TokenRule { spatial: 16, temporal: 0 },
        // The prompt's own length after the template is dropped (no padding): a long caption.
        text_tokens: 256,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (1024, 1024),
        default_frames: 1,
        text_encoders: &[QWEN25_VL_7B_TEXT],
        vae: None,
        latent_channels: 64,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "hidream-i1-full",
        name: "HiDream-I1",
        kind: Kind::Image,
        repo: "HiDream-ai/HiDream-I1-Full",
        // The timestep and pooled-text embedders, the patch embedder, the final layer, and
        // 49 caption projections (4096 → h, no bias): one per block for its Llama layer and
        // one for T5 (dit_probe.py builds it: 17,105,733,184 in all, the stated "17B").
        non_block: 546_260_544,
        blocks: &[
            BlockKind {
                name: "double_stream_blocks",
                count: 16,
                params: 424_089_600,
                linears: HIDREAM_DOUBLE,
                saved: SAVED_HIDREAM_DOUBLE,
            },
            BlockKind {
                name: "single_stream_blocks",
                count: 32,
                params: 305_438_720,
                linears: HIDREAM_SINGLE,
                saved: SAVED_HIDREAM_SINGLE,
            },
        ],
        hidden: H_HIDREAM,
        text: TextPath::Joint,
        // FLUX.1's VAE (16 channels, 8×) and 2 × 2 patches.
        tokens: TokenRule { spatial: 16, temporal: 0 },
        // Three text streams of the pipeline's `max_sequence_length` 128 each: T5's and the
        // last Llama layer's (the double blocks' text stream), and each block's own Llama
        // layer appended to its input (`HiDreamImageTransformer2DModel.forward`).
        text_tokens: 384,
        padded_tokens: 4096,
        text_streams: 3,
        default_res: (1024, 1024),
        default_frames: 1,
        // No HiDream trainer trains a text encoder (diffusers' script has no
        // --train_text_encoder; ai-toolkit's config: "wont work with hidream"), so its CLIPs
        // are frozen companions here.
        text_encoders: &[
            frozen("CLIP ViT-L/14 text + projection", 123_650_304),
            frozen("OpenCLIP bigG/14 text + projection", 694_659_840),
            T5_XXL,
            LLAMA31_8B,
        ],
        vae: Some(VAE_Z16),
        latent_channels: 64,
        outer: &[],
        between: None,
    },
    wan(
        "wan2.1-1.3b",
        "Wan 2.1 T2V 1.3B",
        "Wan-AI/Wan2.1-T2V-1.3B-Diffusers",
        25_775_680,
        &[BlockKind { name: "blocks", count: 30, params: 46_440_704, linears: WAN_1_3B, saved: SAVED_WAN_1_3B }],
        1536,
    ),
    wan(
        "wan2.1-14b",
        "Wan 2.1 T2V 14B",
        "Wan-AI/Wan2.1-T2V-14B-Diffusers",
        232_719_424,
        &[BlockKind { name: "blocks", count: 40, params: 351_394_304, linears: WAN_14B, saved: SAVED_WAN_14B }],
        5120,
    ),
    cogvideox(
        "cogvideox-2b",
        "CogVideoX 2B",
        "THUDM/CogVideoX-2b",
        11_337_792,
        &[BlockKind {
            name: "transformer_blocks",
            count: 30,
            params: 56_081_536,
            linears: COGVIDEOX_2B,
            saved: SAVED_COGVIDEOX_2B,
        }],
        1920,
    ),
    cogvideox(
        "cogvideox-5b",
        "CogVideoX 5B",
        "THUDM/CogVideoX-5b",
        17_982_528,
        &[BlockKind {
            name: "transformer_blocks",
            count: 42,
            params: 132_197_632,
            linears: COGVIDEOX_5B,
            saved: SAVED_COGVIDEOX_5B,
        }],
        3072,
    ),
    DitModel {
        id: "hunyuanvideo",
        name: "HunyuanVideo 13B",
        kind: Kind::Video,
        repo: "hunyuanvideo-community/HunyuanVideo",
        // x_embedder, the 2-layer token refiner, the time, guidance and pooled-text
        // embedders, norm_out and proj_out (dit_probe.py, components.csv).
        non_block: 360_714_304,
        blocks: HUNYUAN_BLOCKS,
        hidden: H_FLUX,
        text: TextPath::Joint,
        tokens: TokenRule { spatial: 16, temporal: 4 },
        // hyvideo/config.py `--text-len 256` (components.csv).
        text_tokens: 256,
        // musubi-tuner's dataset example: 960×544, target_frames [1, 25, 45]; the memory is
        // the longest clip's (kohya-ss/musubi-tuner dataset/dataset_config.md @484cf9ae).
        padded_tokens: 0,
        text_streams: 1,
        default_res: (960, 544),
        default_frames: 45,
        text_encoders: &[CLIP_L_TEXT, LLAVA_LLAMA3_8B_TEXT],
        vae: None,
        // 16 latent channels in 1 × 2 × 2 patches.
        latent_channels: 64,
        outer: &[],
        between: None,
    },
    DitModel {
        id: "ltx-video",
        name: "LTX-Video 2B",
        kind: Kind::Video,
        repo: "Lightricks/LTX-Video",
        non_block: 43_018_368,
        blocks: &[BlockKind {
            name: "transformer_blocks",
            count: 28,
            params: 67_155_968,
            linears: LTX,
            saved: SAVED_LTX,
        }],
        hidden: 2048,
        text: TextPath::Cross,
        tokens: TokenRule { spatial: 32, temporal: 8 },
        text_tokens: 128,
        padded_tokens: 0,
        text_streams: 1,
        default_res: (768, 512),
        default_frames: 49,
        text_encoders: &[T5_XXL],
        vae: None,
        latent_channels: 128,
        outer: &[],
        between: None,
    },
];

/// The presets' ids, apart from their data: what the page's first load needs to recognize a
/// diffusion link and list the models (the data loads with the lazy module).
pub const IDS: [&str; 17] = [
    "sd1.5",
    "sdxl",
    "flux.1-dev",
    "flux.1-schnell",
    "flux.2-dev",
    "sd3.5-large",
    "sd3.5-medium",
    "pixart-sigma",
    "sana-1.6b",
    "qwen-image",
    "hidream-i1-full",
    "wan2.1-1.3b",
    "wan2.1-14b",
    "cogvideox-2b",
    "cogvideox-5b",
    "hunyuanvideo",
    "ltx-video",
];

/// The preset with this id.
pub fn model(id: &str) -> Option<&'static DitModel> {
    MODELS.iter().find(|m| m.id == id)
}
