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
/// cross norm's output) and out_proj's when they read it for a gradient; under autocast each
/// trained k_proj's and v_proj's own 16-bit copy of the encoder's fp32 output (an adapter's
/// copy is its own, `adapter_row`; the output itself is shared by every block: `encoder`); the
/// attention kernel's q, k and v (`.contiguous()` copies over the positions for k and v), its
/// output and log-sum-exp (SDPA, flash) or, eager, the softmax's probabilities over the
/// positions (model dtype; fp32 and its cast under autocast); adapters. Also the decoder's
/// self-attention's out_proj copy (`out_copy`), which the activation model's block shares with
/// the kernel. The cross norm is the block's third (`norms_per_layer` 3).
pub(super) fn cross(r: &Run, block: &Block) -> f64 {
    let Some(sp) = r.a.layout.speech else { return 0.0 };
    let (e, d, heads) = (r.act_bytes, r.a.hidden as f64, r.a.heads as f64);
    let (rows, frames) = (r.tokens, frames(r, sp));
    let mut bytes = if reads_input(block, T::Q) { rows * d * e } else { 0.0 };
    if block.autocast && block.full {
        bytes += 2.0 * frames * d * e;
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
    bytes + 2.0 * out_copy(block, rows, d)
}

/// A linear keeps its input itself (not a copy of its own) for its gradient: its weight trains,
/// or an adapter reads the input uncast and undropped.
fn reads_input(block: &Block, t: T) -> bool {
    block.full || block.lora.contains(t) && block.lora_input_cast_bytes == 0.0 && !block.lora_dropout
}

/// out_proj's own input in a Whisper attention under SDPA or flash, beyond the activation
/// model's block: `WhisperAttention` makes q contiguous head-major (`.transpose(1, 2)
/// .contiguous()`), the kernel's output follows q's layout, and `transpose(1, 2).contiguous()`
/// then copies it, which out_proj keeps when its weight trains or an uncast, undropped adapter
/// reads it (eager attention's copy is the model's already). Per attention over `rows`.
fn out_copy(block: &Block, rows: f64, d: f64) -> f64 {
    if reads_input(block, T::O) && block.attn != Attention::Eager {
        rows * d * block.act_bytes
    } else {
        0.0
    }
}

/// The encoder's pass over the micro-batch's clips: `saved`, what it keeps from its forward
/// until its backward, the last of the step (its blocks under the run's checkpointing, as
/// `GradientCheckpointingLayer`s; the convolutions' and the final norm's inputs; the output
/// every cross-attention reads); `working`, the most its own pass holds beyond the run's
/// states: its backward with everything kept, its output's gradient (which the decoder's
/// blocks added to), one block rebuilt and what that block's backward adds, or a frozen
/// encoder's forward, one block at a time.
pub(super) fn encoder(r: &Run, block: &Block) -> TowerPass {
    let Some(sp) = r.a.layout.speech else { return TowerPass::default() };
    let (e, d, f) = (r.act_bytes, r.a.hidden as f64, r.a.ffn as f64);
    let frames = frames(r, sp);
    let ea = encoder_blocks(&r.a, sp);
    let positions = sp.positions() as f64;
    let trains = SpeechEncoder::trains(r.q);
    // The output: fp32 under autocast (its final LayerNorm runs in fp32). Every checkpointed
    // decoder block takes it as an input, which non-reentrant checkpointing keeps until that
    // block's backward; unchecked, k_proj and v_proj keep it where a trained base weight or an
    // uncast, undropped adapter reads it (autocast's copies are per block, `cross`). Its
    // gradient accumulates from the last decoder block's backward to the encoder's.
    let out_bytes = if block.autocast { 4.0 } else { e };
    let kept_output =
        r.res.ckpt != Checkpointing::None || !block.autocast && (reads_input(block, T::K) || reads_input(block, T::V));
    let output = if kept_output { frames * d * out_bytes } else { 0.0 };
    // (The gradient exists from the decoder's last block's backward on: counted with the
    // encoder's own backward, not among the tensors the forward keeps.)
    let output_grad = if trains { frames * d * out_bytes } else { 0.0 };
    // Eager attention's scores over the clip's positions, per block: the 16-bit scores, under
    // autocast their fp32 cast and the fp32 softmax (else the 16-bit softmax).
    let probs = if block.attn == Attention::Eager { r.a.heads as f64 * frames * positions } else { 0.0 };
    let scores = probs * if block.eager_softmax_fp32 { e + 8.0 } else { 2.0 * e };
    if !trains {
        // No graph: one block's tensors at a time, its MLP's hidden states or its scores.
        let mlp = frames * f * e * 2.0;
        return TowerPass { saved: output, working: output + 2.0 * frames * d * e + mlp.max(scores), backward: false };
    }
    let eb = Block { masked: false, ..*block };
    // Autocast's 16-bit copies of the encoder's weights, saved by each matmul whose input needs
    // a gradient (memory/saved.rs `AutocastCopies`; a 4-bit or 8-bit load dequantizes instead);
    // an fp16 residual stream's clamp keeps its input (`WhisperEncoderLayer`: `torch.clamp`
    // when the hidden states are float16). FSDP's 16-bit compute copies leave autocast nothing
    // to cast, though its LayerNorms still run in fp32 (`block.autocast`).
    let copies = if block.autocast && !r.fsdp_computes_16bit() && r.q.method != Method::Qlora {
        2.0 * sp.linear_params(r.a.hidden, r.a.ffn) as f64 / sp.layers.max(1) as f64
    } else {
        0.0
    };
    let fp16_stream = !block.residual_fp32 && e < 4.0 && r.q.precision.is_fp16();
    let per_block = |ckpt: Checkpointing| {
        let b = eb.saved(&ea, frames, positions, ckpt);
        b.total()
            + if ckpt == Checkpointing::None {
                out_copy(&eb, frames, d) + copies + if fp16_stream { frames * d * e } else { 0.0 }
            } else {
                0.0
            }
    };
    let kept = sp.layers as f64 * per_block(r.res.ckpt);
    // In full: the features (conv1's input), conv1's GELU input and output (conv2's input) and
    // conv2's GELU input. Under adapters the convolutions are frozen and the clip needs no
    // gradient, so they keep nothing, nor does the first block's first norm (its input needs
    // none either), unless the model is checkpointed: then PEFT makes the input embeddings'
    // output require grad (PeftModel's `_prepare_model_for_gradient_checkpointing` and
    // `prepare_model_for_kbit_training` call `enable_input_require_grads`, peft 0.21.2
    // peft_model.py, utils/other.py), which in transformers 5 hooks the encoder's conv1
    // (`WhisperEncoder._input_embed_layer`, modeling_utils.py `enable_input_require_grads`):
    // both GELUs' inputs and conv2's are kept.
    let conv_outputs = 2.0 * 2.0 * frames * d * e + frames * d * e;
    let hooked = r.q.method.is_peft() && r.res.ckpt != Checkpointing::None && r.q.framework.uses_transformers();
    let front = if block.full {
        r.q.batch as f64 * sp.frames as f64 * sp.mels as f64 * e + conv_outputs
    } else if hooked {
        conv_outputs
    } else if r.res.ckpt == Checkpointing::None {
        -eb.one_norm(&ea, frames)
    } else {
        0.0
    };
    let final_norm = eb.one_norm(&ea, frames);
    let saved = kept + front + final_norm + output;
    let rebuilt = if r.res.ckpt == Checkpointing::None { 0.0 } else { per_block(Checkpointing::None) };
    // The most the rebuilt block's backward adds to what it kept: its MLP's gradient, or
    // eager attention's through the softmax over the clip's positions. Under autocast the
    // kept probabilities are fp32 (softmax's output) and their 16-bit cast (probs·V's input);
    // autograd frees the cast with probs·V's backward, so at the softmax's backward the fp32
    // probabilities, their fp32 gradient and the softmax's fp32 result coexist: 12 B a score,
    // 8 − e beyond what was kept. Without autocast: the 16-bit probabilities, their gradient
    // and the softmax's: 2e beyond.
    let softmax_backward = probs * if block.eager_softmax_fp32 { 8.0 - e } else { 2.0 * e };
    let grad = softmax_backward.max(frames * f * e);
    TowerPass { saved, working: saved + output_grad + rebuilt + grad, backward: true }
}
