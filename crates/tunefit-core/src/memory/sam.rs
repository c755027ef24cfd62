//! Segment Anything (`ImageInput::sam`): what its image encoder's blocks keep, windowed and
//! global, what the neck and the mask decoder keep, and the working set of the attention over
//! the whole image, whose relative-position bias is one score per head, query and key.
//!
//! transformers `modeling_sam.py` (5.23.0): `SamVisionLayer.forward` pads the 64×64 grid to
//! whole windows (`window_partition`: `F.pad`, 70×70 for 14×14 windows, 25 windows) before
//! `layer_norm1`'s output reaches `qkv`, and crops after `proj`; `SamVisionSdpaAttention`
//! copies q, k and v head-major (`reshape(3, b·heads, n, d)` of a permuted view), builds the
//! bias `rel_h[..., None] + rel_w[..., None, :]` from two einsums of q with the relative
//! position tables (`get_decomposed_rel_pos`) and hands it to SDPA as a float mask; a CUDA GPU
//! runs that through the memory-efficient kernel, which keeps q, k, v, the bias (rows padded
//! to 16 elements: aten `preprocess_mask`), its output and an fp32 log-sum-exp per 32 rows,
//! and writes the bias's gradient whole in backward. Checked against
//! tools/calibrate/sam_probe.py (data/calibration/sam-saved.json, tests/sam.rs): per block the
//! counts below are the probe's listing, byte for byte.

use super::run::Run;
use super::vision::TowerPass;
use crate::activation::{Block, BlockSaved};
use crate::arch::{ImageInput, Sam};
use crate::query::{Attention, Checkpointing, Method, TargetModule as T};

/// One attention pattern: the tokens its linears run over (padded to whole windows), the
/// windows per image and each window's side in patches.
#[derive(Debug, Clone, Copy)]
struct Span {
    tokens: f64,
    windows: f64,
    side: f64,
}

impl Span {
    fn of(r: &Run, img: &ImageInput, sam: &Sam, global: bool) -> Span {
        let grid = img.side / img.patch;
        let images = r.tokens / r.seq.max(1.0);
        if global {
            return Span { tokens: r.tokens, windows: 1.0, side: grid as f64 };
        }
        let per_side = sam.windows_per_side(grid) as f64;
        let w = sam.window as f64;
        Span { tokens: images * per_side * per_side * w * w, windows: per_side * per_side, side: w }
    }
    /// Scores of one head over one image: a query and a key per position of every window.
    fn scores(&self, images: f64) -> f64 {
        let n = self.side * self.side;
        images * self.windows * n * n
    }
    /// The bias as the memory-efficient kernel keeps it: each row padded to 16 elements.
    fn padded_scores(&self, images: f64) -> f64 {
        let n = self.side * self.side;
        images * self.windows * n * (n / 16.0).ceil() * 16.0
    }
}

/// Whether a LoRA on `t` keeps the uncast input it shares with the base linear.
fn shares_input(b: &Block, t: T) -> bool {
    b.lora.contains(t) && b.lora_input_cast_bytes == 0.0 && !b.lora_dropout
}

/// The adapted member of q, k and v (SAM's one `qkv` linear carries one adapter).
fn qkv_target(b: &Block) -> Option<T> {
    [T::Q, T::K, T::V].into_iter().find(|t| b.lora.contains(*t))
}

/// One trained-path block (its weights train, or a gradient flows through it to an adapter),
/// unchecked, bytes. Under checkpointing the block keeps its input alone.
fn block(r: &Run, b: &Block, img: &ImageInput, sam: &Sam, global: bool, ckpt: Checkpointing) -> BlockSaved {
    let a = &r.a;
    let (e, h, f) = (r.act_bytes, a.hidden as f64, a.ffn as f64);
    let (heads, hd) = (a.heads as f64, a.head_dim as f64);
    let n = r.tokens;
    let images = n / r.seq.max(1.0);
    // Under autocast over fp32 weights the residual stream is fp32: the fp32 position table is
    // added to the patch embedding's 16-bit output (adapters' 16-bit base keeps it 16-bit).
    // QLoRA's `prepare_model_for_kbit_training` casts every parameter that is not 4-bit to fp32,
    // the position table with them, and the fp32 norms keep the stream fp32.
    let table = if r.q.method == Method::Full { r.base_train_bytes } else { r.frozen_bytes };
    let resid = if (r.autocast && table >= 4.0) || r.q.method == Method::Qlora { 4.0 } else { e };
    if ckpt != Checkpointing::None {
        return BlockSaved { attention: resid * h * n, ..BlockSaved::default() };
    }
    let s = Span::of(r, img, sam, global);
    let p = s.tokens;
    // Two LayerNorms keep their input and fp32 mean and rstd.
    let norms = 2.0 * resid * h * n;
    let norm_stats = 2.0 * 8.0 * n;
    let mut attention = 0.0;
    let mut adapters = 0.0;
    // qkv reads the padded windows: kept for its weight, or by its adapter (uncast, or its
    // own cast copy and rank-r intermediate).
    let qkv = qkv_target(b);
    // A 4-bit base linear (bitsandbytes' MatMul4Bit) keeps its input too.
    let quant = b.quant_saves_input && !b.full;
    if b.full || quant || qkv.is_some_and(|t| shares_input(b, t)) {
        attention += e * h * p;
    }
    if let Some(t) = qkv {
        adapters += p * b.adapter_row(t, h, 3.0 * h);
    }
    // The head-major copy of q, k and v, which SDPA and the bias's einsums read.
    attention += 3.0 * e * h * p;
    // The relative position tables gathered for this span (`get_rel_pos`), shared by images.
    attention += 2.0 * s.side * s.side * hd * e;
    if b.full {
        // The tables train: the einsums keep q rearranged for their gradient (torch 2.15's
        // einsum copies it once for a window's span and twice for the image's, as the probe
        // lists), and the gather its two index grids.
        attention += if global { 2.0 } else { 1.0 } * e * h * p + 2.0 * 8.0 * s.side * s.side;
    }
    let mut attention_scores = 0.0;
    match b.attn {
        Attention::Eager => {
            // `(query * scale) @ key.T`: the scaled q; the fp32 softmax and its cast that
            // probs @ v reads (the same tensor when the model is fp32); proj's input, a
            // contiguous copy of the heads' outputs.
            attention += e * h * p;
            attention_scores = heads * s.scores(images) * (4.0 + if e < 4.0 { e } else { 0.0 });
            if b.full || quant || b.lora.contains(T::O) {
                attention += e * h * p;
            }
        }
        _ => {
            // The bias (it needs a gradient: q does), the output proj reads as a view, and
            // the log-sum-exp.
            attention += heads * s.padded_scores(images) * e + e * h * p;
            attention += 4.0 * heads * images * s.windows * (s.side * s.side / 32.0).ceil() * 32.0;
        }
    }
    adapters += p * b.adapter_row(T::O, h, h);
    // The MLP over the image's tokens: lin1's input for its weight or adapter, GELU's input,
    // lin2's input (GELU's output).
    let mut mlp = f * e * n;
    if b.full || quant || shares_input(b, T::Up) {
        mlp += h * e * n;
    }
    if b.full || quant || shares_input(b, T::Down) {
        mlp += f * e * n;
    }
    adapters += n * (b.adapter_row(T::Up, h, f) + b.adapter_row(T::Down, f, h));
    BlockSaved { norms, norm_stats, attention, attention_scores, mlp, adapters, dropout_masks: 0.0 }
}

/// The encoder's blocks: (the average block under the run's checkpointing, the largest block
/// unchecked — a global one, which backward rebuilds —, the average block unchecked).
pub(super) fn blocks(r: &Run, b: &Block, ckpt: Checkpointing) -> Option<(BlockSaved, BlockSaved, BlockSaved)> {
    let (img, sam) = r.a.layout.sam()?;
    // The trained blocks are the top ones under freeze.
    let trained = trained_blocks(r);
    let global = sam.global_in_top(trained, r.a.layers) as f64;
    let trained = trained as f64;
    let mix = |c: Checkpointing| {
        let (w, g) = (block(r, b, img, sam, false, c), block(r, b, img, sam, true, c));
        let share = if trained > 0.0 { global / trained } else { 0.0 };
        let avg = |x: f64, y: f64| x * (1.0 - share) + y * share;
        BlockSaved {
            norms: avg(w.norms, g.norms),
            norm_stats: avg(w.norm_stats, g.norm_stats),
            attention: avg(w.attention, g.attention),
            attention_scores: avg(w.attention_scores, g.attention_scores),
            mlp: avg(w.mlp, g.mlp),
            adapters: avg(w.adapters, g.adapters),
            dropout_masks: 0.0,
        }
    };
    let largest = block(r, b, img, sam, true, Checkpointing::None);
    Some((mix(ckpt), largest, mix(Checkpointing::None)))
}

/// The encoder's blocks that train: the top `train_layers` under freeze, all otherwise.
fn trained_blocks(r: &Run) -> u64 {
    if r.q.method == Method::Freeze {
        u64::from(r.q.train_layers).min(r.a.layers)
    } else {
        r.a.layers
    }
}

/// Whether any gradient reaches the encoder (its weights or adapters train).
pub(super) fn encoder_trains(r: &Run) -> bool {
    match r.q.method {
        Method::Freeze => r.q.train_layers > 0,
        _ => true,
    }
}

/// What the model keeps outside the blocks, bytes: the pixels (the patch convolution's input,
/// when its weight trains); the neck's, once a gradient reaches the encoder (autograd's
/// convolution node keeps its input and weight whichever gradient it computes): conv1's input
/// at the encoder's width, the two LayerNorms' inputs and conv2's input at 256 channels; and
/// the mask decoder's, which trains in every recipe: per image 22.5 tensors of the image
/// embedding's size (64·64·256) in the activation dtype, as the probe lists them — the two-way transformer's
/// 256-wide keys and query inputs (8) and residual sums (2), its 128-wide cross-attentions'
/// q, k, v and outputs over the positions (5), the upscaler's 128² and 256² maps (7) and the
/// positional table's product (0.5) —, and the loss's three fp32 256² maps.
pub(super) fn outside(r: &Run) -> f64 {
    let Some((img, sam)) = r.a.layout.sam() else { return 0.0 };
    let e = r.act_bytes;
    let n = r.tokens;
    let images = n / r.seq.max(1.0);
    let (h, c) = (r.a.hidden as f64, sam.channels as f64);
    let mut bytes = 0.0;
    if r.q.method == Method::Full {
        bytes += images * 3.0 * (img.side * img.side) as f64 * e;
    }
    if encoder_trains(r) {
        // conv1's and conv2's inputs, and the two LayerNorms' (fp32 under autocast, whose
        // fp32 list LayerNorm is on) with their statistics.
        let norm_in = if r.autocast { 4.0 } else { e };
        bytes += n * (h * e + c * e + 2.0 * c * norm_in + 2.0 * 8.0);
    }
    // Under autocast the neck's last LayerNorm runs in fp32, so the decoder's two residual sums
    // with the image's positional encoding are fp32 (two tensors count twice) and its upscaler
    // reads a 16-bit copy of the embedding (one more); each of its linears keeps autocast's
    // 16-bit copy of its fp32 weight.
    let (units, copies) = if r.autocast { (25.5, Sam::MASK_DECODER as f64 * e) } else { (22.5, 0.0) };
    bytes + images * (units * r.seq * c * e + 3.0 * 256.0 * 256.0 * 4.0) + copies
}

/// The encoder's own moments beyond what the step keeps, as a tower's pass (vision.rs): a
/// frozen global block's forward holds the bias of every head over the whole image (twice
/// while it is made contiguous) with the block's working tensors (the residual, the norm's output, qkv's output and its head-major
/// copy, the attention's output: 9 hidden-wide tensors); a trained encoder's backward reaches
/// the last block, global, with everything kept (`kept`), that block rebuilt under
/// checkpointing (`rebuilt`), and the kernel's gradient of the bias (eager: the
/// probabilities' gradient, 16-bit then fp32, and the softmax's fp32 input gradient).
pub(super) fn pass(r: &Run, b: &Block, kept: f64, rebuilt: f64) -> TowerPass {
    let Some((img, sam)) = r.a.layout.sam() else { return TowerPass::default() };
    let (e, h, heads) = (r.act_bytes, r.a.hidden as f64, r.a.heads as f64);
    let images = r.tokens / r.seq.max(1.0);
    let global = Span::of(r, img, sam, true);
    let scores = heads * global.scores(images);
    let working = 9.0 * h * e * r.tokens;
    // A global block is frozen when the trained top blocks do not hold all of them.
    let frozen_global = sam.global_in_top(trained_blocks(r), r.a.layers) < sam.global.min(r.a.layers);
    let forward = if frozen_global {
        // The bias is built twice: torch's einsum returns `rel_h` and `rel_w` as permuted views
        // of its bmm, their broadcast sum takes that layout, and `.reshape` to (b, heads, n, n)
        // copies it (2e a score). Eager: the same copy beside the scores (3e), then the scores'
        // sum with the bias beside both (3e), then the sum, the bias and the fp32 softmax with
        // its cast.
        let per_score = match b.attn {
            Attention::Eager => (3.0 * e).max(2.0 * e + 4.0 + if e < 4.0 { e } else { 0.0 }),
            _ => 2.0 * e,
        };
        scores * per_score + working
    } else {
        0.0
    };
    let backward = if encoder_trains(r) {
        let grad = match b.attn {
            Attention::Eager => scores * (e + 8.0),
            _ => scores * e,
        };
        kept + rebuilt + grad + 4.0 * h * e * r.tokens
    } else {
        0.0
    };
    TowerPass { saved: 0.0, working: forward.max(backward), backward: backward > forward }
}

/// The share of the gradients that exist when backward reaches the last block (the encoder's
/// first in backward order): the mask decoder's, the prompt encoder's, the neck's and that
/// block's own; not yet the other blocks' nor the patch embedding's and position table's.
/// 1 without SAM.
pub(super) fn grads_alive(r: &Run) -> f64 {
    let Some((img, sam)) = r.a.layout.sam() else { return 1.0 };
    let total = r.tr.total as f64;
    if total <= 0.0 {
        return 1.0;
    }
    let (l, side) = (r.a.layers, img.side / img.patch);
    let blocks = |n: u64| (n * r.a.layer_params() + sam.top_rel_params(n, l, r.a.head_dim, side)) as f64;
    let trained = trained_blocks(r);
    let in_blocks = match r.q.method {
        Method::Full | Method::Freeze => blocks(trained),
        // Adapters sit in the blocks; the decoder trains beside them.
        _ => r.tr.adapter as f64,
    };
    let embedding = if r.q.method == Method::Full { img.embedding_params(r.a.hidden) as f64 } else { 0.0 };
    let later = in_blocks * (1.0 - 1.0 / trained.max(1) as f64) + embedding;
    ((total - later) / total).clamp(0.0, 1.0)
}
