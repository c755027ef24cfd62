//! A multimodal model's vision tower over the samples' images (`images`, `tower`): what it
//! keeps for backward through the language model's whole pass, and the working set of its
//! own forward or backward, which happens while none of the language model's activations
//! exist (first in the forward, last in the backward).

use super::run::Run;
use crate::activation::{Block, NormImpl};
use crate::query::{Attention, Checkpointing, Method, Targets, TowerTraining};

/// Bytes on this GPU.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct TowerPass {
    /// What a trained tower keeps from its forward until its backward (nothing when frozen).
    pub saved: f64,
    /// The most the tower's own pass holds at once beyond the run's states: a frozen tower's
    /// forward (one block's tensors), a trained one's backward (everything it kept, one block
    /// rebuilt and that block's largest gradient).
    pub working: f64,
    /// The working set is a backward's (SAM's global attention, memory/sam.rs, which says so;
    /// the vision tower and Whisper's encoder are read from the query).
    pub backward: bool,
}

/// The tower's pass: each block over every patch of the micro-batch's images (attention
/// within one image: Qwen's `cu_seqlens`, SigLIP's batch of images), under the run's
/// checkpointing (its blocks are `GradientCheckpointingLayer`s, so
/// `gradient_checkpointing_enable` reaches them), with the language model's kernels.
pub(super) fn tower(r: &Run, block: &Block) -> TowerPass {
    let q = r.q;
    let Some(tw) = r.a.layout.described_tower().filter(|_| q.images > 0) else {
        return TowerPass::default();
    };
    let patches = tw.per_image(q.image_res).patches as f64;
    let images = q.batch as f64 * q.images as f64;
    let tokens = images * patches;
    let b = Block {
        full: q.tower == TowerTraining::Full,
        lora: if q.tower == TowerTraining::Lora { q.targets } else { Targets::NONE },
        quant_saves_input: false,
        bottleneck: 0.0,
        tp: 1.0,
        dora: false,
        masked: false,
        prefix_tokens: 0.0,
        fused_qkv_linear: tw.fused_qkv,
        // An unquantized tower's LoRA layers are plain ones, which cast their input.
        lora_input_cast_bytes: super::saved::lora_input_cast(r, q.method == Method::Qlora && r.res.tower_quant),
        // A learned position table (fp32 under bf16-mixed) added to the patches makes the
        // stream fp32; without one the stream is the 16-bit patch convolution's output.
        residual_fp32: block.residual_fp32 && tw.learned_positions,
        // nn.LayerNorm is PyTorch's native kernel (input and statistics); Qwen2.5-VL's
        // RMSNorm is transformers' upcasting one, as the language model's.
        norm: if tw.norm == crate::arch::NormKind::Layer && !r.autocast { NormImpl::Fused } else { block.norm },
        // The tower's own norm decides, as the language model's does (`Run::autocast_casts`).
        autocast: r.autocast_casts(tw.norm),
        ..*block
    };
    let ta = tw.blocks();
    let hd = tw.hidden as f64;
    let e = r.act_bytes;
    // Eager attention's scores of one block: an fp32 softmax and its 16-bit copy per head
    // over each image's patches (Qwen's non-flash path runs image by image).
    let scores = if block.attn == Attention::Eager {
        tw.heads as f64 * patches * patches * (4.0 + e) * if tw.fused_qkv { 1.0 } else { images }
    } else {
        0.0
    };
    if q.tower == TowerTraining::Frozen {
        // No graph: one block's tensors at a time, its MLP's hidden states or its scores.
        let mlp = tokens * tw.ffn as f64 * e * if tw.gated { 3.0 } else { 2.0 };
        return TowerPass { saved: 0.0, working: 2.0 * tokens * hd * e + mlp.max(scores), backward: false };
    }
    // Blocks attending over the whole image, and windowed ones (Qwen2.5-VL: 28 of 32 over
    // 8×8-patch windows), whose eager scores are per window.
    let layers = tw.layers as f64;
    let full_layers = (tw.full_attn_layers as f64).min(layers);
    let window = if tw.window > 0 { (tw.window as f64).min(patches) } else { patches };
    let kept = full_layers * b.saved(&ta, tokens, patches, r.res.ckpt).total()
        + (layers - full_layers) * b.saved(&ta, tokens, window, r.res.ckpt).total();
    let unchecked = b.saved(&ta, tokens, patches, Checkpointing::None);
    // Outside the blocks, per patch (tools/calibrate/vision_probe.py,
    // data/calibration/vision-saved.json). Qwen: its 2-D rotary tables (fp32 cos and sin of one
    // head's width) and each merger's GELU input (a quarter of the patches, four times as wide:
    // one patch-wide tensor); trained in full, also the pixels (3 channels × 2 frames × p²) and
    // the main merger's norm, fc1 and fc2 inputs (the RMSNorm's fp32 copy too), and each
    // DeepStack merger's three. SigLIP: nothing under LoRA; in full its pixels and its
    // post-norm's input.
    let full = q.tower == TowerTraining::Full;
    let p2 = (tw.patch * tw.patch) as f64;
    let outside = if tw.rotary {
        let rotary = 2.0 * 4.0 * (hd / tw.heads.max(1) as f64);
        let mergers = 1.0 + tw.deepstack as f64;
        if full {
            let norm_copy = if tw.norm == crate::arch::NormKind::Rms { 4.0 * hd } else { 0.0 };
            rotary + 3.0 * 2.0 * p2 * e + 4.0 * hd * e + norm_copy + 3.0 * tw.deepstack as f64 * hd * e
        } else {
            rotary + mergers * hd * e
        }
    } else if full {
        3.0 * p2 * e + hd * e
    } else {
        0.0
    };
    let saved = kept + outside * tokens;
    // Its backward starts at the last block with everything kept; checkpointed, that block is
    // rebuilt first. The largest gradient of the block: the scores' (eager) or the MLP's.
    let rebuilt = if r.res.ckpt == Checkpointing::None { 0.0 } else { unchecked.total() };
    let grad = (unchecked.attention_scores).max(tokens * tw.ffn as f64 * e);
    TowerPass { saved, working: saved + rebuilt + grad, backward: true }
}
