//! Whisper (`Layout::speech`): what its audio encoder keeps through the decoder's pass and
//! holds in its own backward, and what each decoder block's cross-attention keeps. The
//! decoder's blocks are the architecture's, counted by crate::activation like any language
//! model's; transformers' `WhisperAttention` (modeling_whisper.py) reads the encoder's last
//! hidden state through every decoder block's `encoder_attn.k_proj` and `v_proj`.
//! Checked against tools/calibrate/whisper_probe.py's records (data/calibration/whisper-saved.json,
//! tests/speech.rs).

use super::run::Run;
use super::vision::TowerPass;
use crate::activation::Block;
use crate::arch::{Architecture, SpeechEncoder};
use crate::query::{Attention, Checkpointing, Method, TargetModule as T};

/// The encoder trains: every weight in a full fine-tune, its linears' adapters under LoRA
/// (PEFT's module names match its blocks as the decoder's); `freeze` trains decoder blocks only.
fn encoder_trains(r: &Run, block: &Block) -> bool {
    r.q.method != Method::Freeze
        && (block.full || [T::Q, T::K, T::V, T::O, T::Up, T::Down].iter().any(|t| block.lora.contains(*t)))
}

/// The encoder's blocks as crate::activation counts them: the decoder's width, heads and MLP,
/// bidirectional attention over one clip's positions, no mask.
fn encoder_blocks(a: &Architecture, sp: &SpeechEncoder) -> Architecture {
    let mut e = a.clone();
    e.layers = sp.layers;
    e.norms_per_layer = 2;
    e.encoder_only = true;
    e.positions = 0;
    e.layout.speech = None;
    e
}

/// Frames of the micro-batch's clips on this GPU: each clip is the encoder's positions.
fn frames(r: &Run, sp: &SpeechEncoder) -> f64 {
    r.q.batch as f64 * sp.positions() as f64
}

/// What one decoder block's cross-attention keeps, unchecked, bytes: q_proj's input (the
/// cross norm's output) and out_proj's when they train; autocast's 16-bit copy of the
/// encoder's output for each trained k_proj and v_proj (the fp32 output itself is shared by
/// every block: `encoder`); the attention kernel's q, k and v (`.contiguous()` copies over the
/// frames for k and v), its output and log-sum-exp (SDPA, flash) or, eager, the softmax's
/// probabilities over the frames (model dtype; fp32 and its cast under autocast); adapters.
/// The cross norm is the block's third (`norms_per_layer` 3).
pub(super) fn cross(r: &Run, block: &Block) -> f64 {
    let Some(sp) = r.a.layout.speech else { return 0.0 };
    let (e, d, heads) = (r.act_bytes, r.a.hidden as f64, r.a.heads as f64);
    let (rows, frames) = (r.tokens, frames(r, sp));
    let keeps = |t: T| if block.trains_linear(t) { 1.0 } else { 0.0 };
    // The decoder's self-attention's out_proj copy, and the cross-attention's own.
    let mut bytes = out_copy(block, rows, d) + keeps(T::Q) * rows * d * e;
    if block.autocast {
        bytes += (keeps(T::K) + keeps(T::V)) * frames * d * e;
    }
    bytes += rows * d * e + 2.0 * frames * d * e;
    bytes += match block.attn {
        Attention::Eager => {
            let probs = heads * rows * sp.positions() as f64;
            probs * (e + if block.eager_softmax_fp32 { 4.0 } else { 0.0 })
        }
        _ => rows * d * e + rows * heads * 4.0,
    };
    bytes += rows * (block.adapter_row(T::Q, d, d) + block.adapter_row(T::O, d, d));
    bytes += frames * (block.adapter_row(T::K, d, d) + block.adapter_row(T::V, d, d));
    bytes + out_copy(block, rows, d)
}

/// out_proj's own input in a Whisper attention under SDPA or flash, beyond the activation
/// model's block: `WhisperAttention` makes q contiguous head-major (`.transpose(1, 2)
/// .contiguous()`), the kernel's output follows q's layout, and `transpose(1, 2).contiguous()`
/// then copies it, which out_proj keeps when its weight trains or an uncast, undropped adapter
/// reads it (eager attention's copy is the model's already). Per attention over `rows`.
fn out_copy(block: &Block, rows: f64, d: f64) -> f64 {
    let reads = block.full || block.lora.contains(T::O) && block.lora_input_cast_bytes == 0.0 && !block.lora_dropout;
    if reads && block.attn != Attention::Eager {
        rows * d * block.act_bytes
    } else {
        0.0
    }
}

/// The encoder's pass over the micro-batch's clips: `saved`, what it keeps from its forward
/// until its backward, the last of the step (its blocks under the run's checkpointing, as
/// `GradientCheckpointingLayer`s; the convolutions' and the final norm's inputs; the output
/// every cross-attention reads); `working`, the most its own pass holds beyond the run's
/// states: its backward with everything kept, one block rebuilt and that block's largest
/// gradient, or a frozen encoder's forward, one block at a time.
pub(super) fn encoder(r: &Run, block: &Block) -> TowerPass {
    let Some(sp) = r.a.layout.speech else { return TowerPass::default() };
    let (e, d, f) = (r.act_bytes, r.a.hidden as f64, r.a.ffn as f64);
    let frames = frames(r, sp);
    let ea = encoder_blocks(&r.a, sp);
    let positions = sp.positions() as f64;
    // k_proj's and v_proj's shared input: the 16-bit output itself where a trained base
    // weight or an uncast, undropped adapter reads it (autocast's copies are per block).
    let reads_output = block.full
        || [T::K, T::V].iter().any(|t| block.lora.contains(*t))
            && block.lora_input_cast_bytes == 0.0
            && !block.lora_dropout;
    let output = if reads_output && !block.autocast { frames * d * e } else { 0.0 };
    if !encoder_trains(r, block) {
        let mlp = frames * f * e * 2.0;
        return TowerPass { saved: output, working: output + 2.0 * frames * d * e + mlp };
    }
    let eb = Block { masked: false, ..*block };
    let per_block = |ckpt: Checkpointing| {
        let b = eb.saved(&ea, frames, positions, ckpt);
        b.total() + if ckpt == Checkpointing::None { out_copy(&eb, frames, d) } else { 0.0 }
    };
    let kept = sp.layers as f64 * per_block(r.res.ckpt);
    // Under adapters the convolutions are frozen and the clip needs no gradient: they keep
    // nothing, nor does the first block's first norm (its input needs none either) unless the
    // block is checkpointed. In full: the features (conv1's input), conv1's GELU input and
    // output (conv2's input) and conv2's GELU input.
    let front = if block.full {
        r.q.batch as f64 * sp.frames as f64 * sp.mels as f64 * e + 2.0 * 2.0 * frames * d * e + frames * d * e
    } else if r.res.ckpt == Checkpointing::None {
        -eb.one_norm(&ea, frames)
    } else {
        0.0
    };
    let final_norm = eb.one_norm(&ea, frames);
    let saved = kept + front + final_norm + output;
    let rebuilt = if r.res.ckpt == Checkpointing::None { 0.0 } else { per_block(Checkpointing::None) };
    // The largest gradient of the rebuilt block: its MLP's, or eager attention's through the
    // softmax over the clip's positions: the probabilities' 16-bit gradient, under autocast
    // its fp32 cast and the fp32 softmax gradient (both fp32 on autocast's list), else the
    // 16-bit softmax gradient.
    let probs = if block.attn == Attention::Eager { r.a.heads as f64 * frames * positions } else { 0.0 };
    let grad = (probs * if block.eager_softmax_fp32 { e + 8.0 } else { 2.0 * e }).max(frames * f * e);
    TowerPass { saved, working: saved + rebuilt + grad }
}
