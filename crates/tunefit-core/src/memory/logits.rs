//! The loss path: the logits and what each loss implementation keeps for backward.

use super::run::Run;
use crate::framework::LogitsImpl;
use crate::query::{Loss, Precision};

/// The loss path on one GPU, bytes.
pub(super) struct LossPath {
    /// What the loss keeps for backward (part of `logits`, and of saved_for_backward).
    pub loss_saved: f64,
    /// Everything the loss path holds at its peak.
    pub logits: f64,
    /// The same path tensor by tensor, in the order the allocator sees it (the replay's):
    /// its forward peak may be below `logits`, the rest coming in the loss's backward.
    pub program: LossProgram,
}

/// One allocator event of the loss path: a tensor of so many bytes, or the release of the
/// path's `k`-th tensor (counted over the forward and the backward together).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LossEvent {
    Alloc(f64),
    Free(usize),
}

/// The loss path's tensors: `forward` runs after the head, `backward` when the backward
/// starts; what neither frees lives until the head's own backward has made its input's
/// gradient (the saved log-probs of a path that keeps them to the end, the gradient the head
/// consumes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LossProgram {
    pub forward: Vec<LossEvent>,
    pub backward: Vec<LossEvent>,
}

impl LossProgram {
    /// Every tensor's bytes times `k` (a pipeline stage's share of the path).
    pub fn scaled(&self, k: f64) -> LossProgram {
        let f = |v: &Vec<LossEvent>| {
            v.iter()
                .map(|e| match *e {
                    LossEvent::Alloc(b) => LossEvent::Alloc(b * k),
                    x => x,
                })
                .collect()
        };
        LossProgram { forward: f(&self.forward), backward: f(&self.backward) }
    }

    /// The most this path holds at once, over its forward and its backward: the `logits` term
    /// of every path the program spells out tensor by tensor.
    fn peak(&self) -> f64 {
        let mut live: Vec<f64> = Vec::new();
        let mut peak: f64 = 0.0;
        for e in self.forward.iter().chain(&self.backward) {
            match *e {
                LossEvent::Alloc(b) => live.push(b),
                LossEvent::Free(i) => live[i] = 0.0,
            }
            peak = peak.max(live.iter().sum());
        }
        peak
    }

    /// A path known only by its totals: what it keeps, its forward peak and its backward peak,
    /// each one block.
    fn lumped(saved: f64, forward: f64, peak: f64) -> LossProgram {
        use LossEvent::{Alloc, Free};
        let back = if forward < peak { (peak - saved).max(0.0) } else { 0.0 };
        LossProgram {
            forward: vec![Alloc(saved), Alloc((forward - saved).max(0.0)), Free(1)],
            backward: vec![Alloc(back), Free(2)],
        }
    }

    /// HF's upcast loss tensor by tensor (transformers loss/loss_utils.py `ForCausalLMLoss`,
    /// then torch's `cross_entropy` = `log_softmax` + `nll_loss`; `tv` = tokens × vocab):
    /// forward: the head's 16-bit logits, their fp32 copy (`logits.float()`), the fp32
    /// log-probs `log_softmax` saves; the copy goes when the loss returns, the 16-bit logits
    /// with the model's output before backward. Backward: `nll_loss_backward`'s fp32 gradient,
    /// `_log_softmax_backward_data`'s fp32 result, then the first two go and `.float()`'s
    /// backward casts the result to the head's dtype, the gradient the head consumes.
    /// `extra`: what a logit soft-cap keeps beside the log-probs (its tanh output).
    /// A model's own `CrossEntropyLoss` on its 16-bit head output (`Layout::own_loss`), tensor by
    /// tensor: forward, the logits, Qwen v1's `lm_logits[..., :-1, :].contiguous()` copy
    /// (`shift`; freed as the loss returns), the 16-bit log-probs `log_softmax` saves, the
    /// logits gone with the model's output before backward. Backward: `nll_loss_backward`'s
    /// gradient and `_log_softmax_backward_data`'s result, then the first two go; after a shift
    /// the slice's backward writes the result into a zero-filled gradient of the whole logits,
    /// the one the head consumes. Three V-wide 16-bit tensors at most.
    fn own(tv: f64, e: f64, shift: bool) -> LossProgram {
        use LossEvent::{Alloc, Free};
        if shift {
            LossProgram {
                forward: vec![Alloc(tv * e), Alloc(tv * e), Alloc(tv * e), Free(1), Free(0)],
                backward: vec![Alloc(tv * e), Alloc(tv * e), Free(3), Free(2), Alloc(tv * e), Free(4)],
            }
        } else {
            LossProgram {
                forward: vec![Alloc(tv * e), Alloc(tv * e), Free(0)],
                backward: vec![Alloc(tv * e), Alloc(tv * e), Free(2), Free(1)],
            }
        }
    }

    /// `in_model`: torchtune's model upcasts its own output (`self.output(h).float()`), so the
    /// 16-bit logits go as it returns and the recipe's fp32 logits go after the loss (`del`):
    /// 8 bytes per token·vocab entry at the forward's end, not 10 (data/calibration/
    /// loss-compile.json, place `tune`).
    fn upcast(tv: f64, act_bytes: f64, extra: f64, in_model: bool) -> LossProgram {
        use LossEvent::{Alloc, Free};
        if act_bytes >= 4.0 {
            // `.float()` of an fp32 tensor is the tensor itself: no copy and no cast back.
            return LossProgram {
                forward: vec![Alloc(tv * 4.0), Alloc(tv * 4.0 + extra), Free(0)],
                backward: vec![Alloc(tv * 4.0), Alloc(tv * 4.0), Free(2), Free(1)],
            };
        }
        let forward = if in_model {
            vec![Alloc(tv * act_bytes), Alloc(tv * 4.0), Free(0), Alloc(tv * 4.0 + extra), Free(1)]
        } else {
            vec![Alloc(tv * act_bytes), Alloc(tv * 4.0), Alloc(tv * 4.0 + extra), Free(1), Free(0)]
        };
        LossProgram {
            forward,
            backward: vec![Alloc(tv * 4.0), Alloc(tv * 4.0), Free(3), Free(2), Alloc(tv * act_bytes), Free(4)],
        }
    }
}

/// How the loss runs: the `loss` key over the framework's own implementation.
pub fn logits_impl(res: &crate::framework::Resolved) -> LogitsImpl {
    match (res.loss, res.profile.logits) {
        (Loss::FusedLinear, _) => LogitsImpl::FusedLinear,
        (_, LogitsImpl::Fused) => LogitsImpl::Fused,
        (Loss::Chunked, LogitsImpl::Fp32Upcast) => LogitsImpl::ChunkedFp32 { chunks: 8 },
        (Loss::Standard, LogitsImpl::ChunkedFp32 { .. }) => LogitsImpl::Fp32Upcast,
        (_, x) => x,
    }
}

/// A model computing its own loss in 16 bits: no autocast upcasts its log-softmax. Where the
/// Trainer's (or Unsloth's) bf16/fp16 flag is set over the 16-bit model (`autocast`),
/// accelerate wraps the model's forward, the loss inside it, in autocast (accelerator.py
/// `prepare_model`: `get_mixed_precision_context_manager` around `model.forward`), where
/// `log_softmax` runs in fp32; DeepSpeed's 16-bit engine runs none (`native_amp` is off under
/// it), nor does a run with the flag off (`autocast=0`, FSDP's default).
fn own_16bit(r: &Run) -> bool {
    r.a.layout.own_loss && !r.autocast && !r.res.autocast_16bit && r.act_bytes < 4.0
}

/// How this run's loss runs: the framework's (`logits_impl`), or the model's own.
pub(super) fn run_impl(r: &Run) -> LogitsImpl {
    // A model computing its own loss (`Layout::own_loss`: Qwen v1's remote code, Whisper's
    // `WhisperForConditionalGeneration.forward`) takes `CrossEntropyLoss` of the head's output
    // as it comes: no `.float()`, so a 16-bit model's log-softmax stays 16-bit, three 16-bit
    // V-wide tensors at most (`LossProgram::own`); under autocast log-softmax runs in fp32, as
    // the upcast path counts.
    // Whisper's loss no framework replaces (Liger and Unsloth patch causal LMs' losses), and
    // its `loss` other than standard is refused (checks.rs); Qwen v1's follows the `loss` key.
    match logits_impl(&r.res) {
        LogitsImpl::Fp32Upcast | LogitsImpl::ModelDtype if own_16bit(r) => LogitsImpl::ModelDtype,
        _ if r.a.layout.speech.is_some() && own_16bit(r) => LogitsImpl::ModelDtype,
        _ if r.a.layout.speech.is_some() => LogitsImpl::Fp32Upcast,
        x => x,
    }
}

pub(super) fn loss_path(r: &Run, head_trains: bool) -> LossPath {
    let (q, a, res, tp) = (r.q, &r.a, r.res, r.tp);
    let (tokens, act_bytes, true16) = (r.tokens, r.act_bytes, r.true16);
    let h = a.hidden as f64;
    let v = a.vocab as f64 / tp;
    let logits_impl = run_impl(r);
    if own_16bit(r) && logits_impl == LogitsImpl::ModelDtype && !a.encoder_only {
        let tv = tokens * v;
        let program = LossProgram::own(tv, act_bytes, a.layout.speech.is_none());
        return LossPath { loss_saved: tv * act_bytes, logits: program.peak(), program };
    }
    if let Some(path) = compiled_upcast(r, logits_impl, tokens * v) {
        return path;
    }
    let loss_saved = if a.encoder_only {
        0.0
    } else {
        match logits_impl {
            LogitsImpl::Fp32Upcast => tokens * v * if a.quirks.softcap { 4.0 + act_bytes } else { 4.0 },
            LogitsImpl::ModelDtype => tokens * v * act_bytes,
            LogitsImpl::ChunkedFp32 { .. } => tokens * v * if res.compile { act_bytes } else { 4.0 },
            LogitsImpl::Fused => tokens * v * act_bytes + tokens * 4.0,
            // The input's gradient, computed in forward, waits for backward.
            LogitsImpl::FusedLinear => tokens * h * act_bytes,
        }
    };
    let tv = tokens * v;
    // The paths spelled out tensor by tensor: their peak is the program's (`LossProgram::peak`).
    let spelled = match logits_impl {
        _ if a.encoder_only => None,
        LogitsImpl::Fp32Upcast => {
            let extra = if a.quirks.softcap { tv * act_bytes } else { 0.0 };
            Some(LossProgram::upcast(tv, act_bytes, extra, q.framework == crate::query::Framework::Torchtune))
        }
        LogitsImpl::ChunkedFp32 { chunks } if !res.compile => {
            Some(LossProgram::chunked_upcast(tv, act_bytes, chunks as f64))
        }
        LogitsImpl::ModelDtype if !litgpt_chunks_head(r) => {
            Some(LossProgram::lumped(tv * act_bytes, tv * 3.0 * act_bytes, tv * 3.0 * act_bytes))
        }
        LogitsImpl::ModelDtype => Some(LossProgram::chunked_model_dtype(tv, act_bytes, litgpt_chunks(r))),
        _ => None,
    };
    if let Some(program) = spelled {
        return LossPath { loss_saved, logits: program.peak(), program };
    }
    let logits = if a.encoder_only {
        0.0
    } else {
        match logits_impl {
            // Compiled per chunk, the loss saves its 16-bit input chunks and writes one chunk's
            // 16-bit gradient at a time.
            LogitsImpl::ChunkedFp32 { chunks } => tv * act_bytes * (1.0 + 1.0 / chunks as f64),
            // Spelled out above.
            LogitsImpl::Fp32Upcast | LogitsImpl::ModelDtype => 0.0,
            // Unsloth: logits in the model dtype, gradient written in place; fp32 logsumexp.
            // Its CausalLM forward casts the logits to `config.torch_dtype`, the checkpoint's
            // dtype (unsloth/models/llama.py @b140367a: `logits.to(self.config.torch_dtype)`),
            // which is bfloat16 for every current checkpoint: a model loaded in fp16 (GPUs
            // without bf16) gets a bf16 copy, and backward casts the gradient back, so two
            // 16-bit V-wide tensors live at once.
            LogitsImpl::Fused => {
                tokens * v * act_bytes * if q.precision == Precision::Fp16True { 2.0 } else { 1.0 } + tokens * 4.0
            }
            // Liger (src/liger_kernel/ops/fused_linear_cross_entropy.py @ead96b61): the input's
            // gradient (tokens × h), one chunk of logits in the input dtype whose gradient the
            // kernel writes in place, chunk = next_power_of_2(⌈tokens / ⌈V/h⌉⌉) rows, that
            // chunk's input gradient, and an fp32 loss per token. A trained head whose
            // gradient is 16-bit takes the slow path, `grad_weight += mm(...).float()`: a
            // 16-bit and an fp32 V × h product per chunk (6·V·h bytes).
            LogitsImpl::FusedLinear => {
                let chunk =
                    (tokens / (v / h).ceil().max(1.0)).ceil().max(1.0).log2().ceil().exp2().min(tokens.max(1.0));
                let slow_path = if head_trains && true16 { 6.0 * v * h } else { 0.0 };
                tokens * h * act_bytes + chunk * (v + h) * act_bytes + tokens * 4.0 + slow_path
            }
        }
    };
    // These paths keep their peak in the forward.
    let program = LossProgram::lumped(loss_saved, logits, logits);
    LossPath { loss_saved, logits, program }
}

/// The upcast loss under torch.compile, where Inductor fuses the upcast, the log-softmax and
/// their backward, so what lives depends on where the `.float()` sits
/// (`tools/calibrate/loss_compile_probe.py`, `data/calibration/loss-compile.json`: the peak's
/// V-wide part measured on the CPU allocator, eager 12 B per token·vocab entry in every place):
/// - inside the compiled forward: transformers' models compute their loss in their own forward
///   (`ForCausalLMLoss`: `logits = logits.float()`, then `cross_entropy`), and the Trainer's
///   `torch_compile` compiles that forward whole. The forward keeps the head's 16-bit logits
///   (its output and the loss's saved input); the backward adds two tensors of the model's dtype,
///   AOTAutograd's zero-filled tangent for the `logits` output the step never used
///   (torch/_functorch/_aot_autograd/runtime_wrappers.py, the compiled function's backward
///   materialises `None` gradients of its outputs) and the logits' gradient: 3·e bytes, 6 in
///   bf16 and 12 in fp32.
/// - outside it: torchtune's model returns fp32 logits (`TransformerDecoder.unembed`:
///   `self.output(h).float()`) and `training.compile_loss` compiles the loss alone, which keeps
///   its fp32 input and writes an fp32 gradient that `.float()`'s backward casts back: 8 bytes.
///
/// None where the run is not compiled or does not upcast.
/// The Trainer-based frameworks compile the loss inside the model's forward, upcast included
/// (`compiled_upcast`): no fp32 copy of the logits lives.
pub(super) fn upcast_compiled_with_model(r: &Run) -> bool {
    r.res.compile && r.q.framework.uses_transformers()
}

fn compiled_upcast(r: &Run, how: LogitsImpl, tv: f64) -> Option<LossPath> {
    if how != LogitsImpl::Fp32Upcast || !r.res.compile || r.a.encoder_only {
        return None;
    }
    let e = r.act_bytes;
    // Gemma 2's soft-cap (a tanh output of the logits' width) is not in the probe: counted once
    // beside what the loss keeps, as in the eager path.
    let extra = if r.a.quirks.softcap { tv * e } else { 0.0 };
    let (loss_saved, program) = if upcast_compiled_with_model(r) {
        (tv * e + extra, LossProgram::compiled_with_model(tv, e, extra))
    } else {
        (tv * 4.0 + extra, LossProgram::compiled_alone(tv, e, extra))
    };
    Some(LossPath { loss_saved, logits: program.peak(), program })
}

/// litgpt's head runs in 128-token chunks along the sequence (`lm_head_chunk_size=128`,
/// litgpt/finetune/lora.py), so one chunk is 128 / seq of the logits.
fn litgpt_chunks(r: &Run) -> f64 {
    (r.seq / 128.0).ceil().max(1.0)
}

/// litgpt's LoRA and adapter scripts chunk the head (`model(input_ids, lm_head_chunk_size=128)`);
/// finetune/full.py, which full and freeze runs use, calls `model(input_ids)` and hands
/// `chunked_cross_entropy` the whole logits' `[..., :-1, :]` slice, whose `reshape` copies it:
/// the logits, that copy and the log-probs, 3·e bytes per token·vocab entry in the forward and
/// again in backward (measured with loss_compile_probe.py's method, place `litgpt-full`).
fn litgpt_chunks_head(r: &Run) -> bool {
    !matches!(r.q.method, crate::query::Method::Full | crate::query::Method::Freeze)
}

impl LossProgram {
    /// torchtune's chunked loss tensor by tensor (`CEWithChunkedOutputLoss`, data/calibration/
    /// loss-compile.json, place `tune-chunked`): forward, the model's 16-bit chunks, every
    /// chunk's saved fp32 log-probs, the last chunk's fp32 copy (freed as the loss returns),
    /// then the chunks (`del outputs` in the recipes' `_loss_step`); backward, one chunk's fp32
    /// gradient and result. 6.5 then 5 bytes per token·vocab entry in bf16 with 8 chunks.
    fn chunked_upcast(tv: f64, e: f64, c: f64) -> LossProgram {
        use LossEvent::{Alloc, Free};
        LossProgram {
            forward: vec![Alloc(tv * e), Alloc(tv * 4.0), Alloc(tv * 4.0 / c), Free(2), Free(0)],
            // Each chunk's backward frees its log-probs; the chunks' 16-bit gradients wait for
            // the head.
            backward: vec![Alloc(tv * 8.0 / c), Free(3), Free(1), Alloc(tv * e)],
        }
    }

    /// litgpt's chunked head and loss (`chunked_cross_entropy` in the model dtype, place
    /// `litgpt`): forward, the head's chunks (which the loop keeps), every chunk's saved
    /// log-probs and one chunk's working copy; backward, one chunk's gradient and result.
    fn chunked_model_dtype(tv: f64, e: f64, c: f64) -> LossProgram {
        use LossEvent::{Alloc, Free};
        LossProgram {
            forward: vec![Alloc(tv * e), Alloc(tv * e), Alloc(tv * e / c), Free(2)],
            backward: vec![Alloc(tv * 2.0 * e / c), Free(3)],
        }
    }

    /// The upcast loss compiled with the model's forward (`compiled_upcast`): the 16-bit
    /// logits, then the unused output's zero tangent and the logits' gradient.
    fn compiled_with_model(tv: f64, e: f64, extra: f64) -> LossProgram {
        use LossEvent::{Alloc, Free};
        LossProgram {
            forward: vec![Alloc(tv * e + extra)],
            backward: vec![Alloc(tv * e), Alloc(tv * e), Free(0), Free(1)],
        }
    }

    /// The loss compiled alone on the model's fp32 logits (`compiled_upcast`): the head's
    /// 16-bit output and its fp32 copy, the copy kept; backward's fp32 gradient, then its
    /// 16-bit cast. An fp32 model has no copy and no cast.
    fn compiled_alone(tv: f64, e: f64, extra: f64) -> LossProgram {
        use LossEvent::{Alloc, Free};
        if e >= 4.0 {
            return LossProgram { forward: vec![Alloc(tv * 4.0 + extra)], backward: vec![Alloc(tv * 4.0), Free(0)] };
        }
        LossProgram {
            forward: vec![Alloc(tv * e), Alloc(tv * 4.0 + extra), Free(0)],
            backward: vec![Alloc(tv * 4.0), Free(1), Alloc(tv * e), Free(2)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LossEvent, LossProgram};

    /// Live bytes at the forward's and the backward's peaks, and what stays live after both.
    fn walk(p: &LossProgram) -> (f64, f64, f64) {
        let mut live: Vec<Option<f64>> = Vec::new();
        let sum = |l: &Vec<Option<f64>>| l.iter().flatten().sum::<f64>();
        let mut peaks = [0.0f64; 2];
        for (k, events) in [&p.forward, &p.backward].into_iter().enumerate() {
            for e in events {
                match *e {
                    LossEvent::Alloc(b) => live.push(Some(b)),
                    LossEvent::Free(i) => live[i] = None,
                }
                peaks[k] = peaks[k].max(sum(&live));
            }
        }
        (peaks[0], peaks[1], sum(&live))
    }

    #[test]
    fn hf_upcast_path_holds_the_totals_the_terms_count() {
        // bf16: forward 2 + 4 + 4 bytes per token·vocab, backward 4 saved + 4 + 4, and the
        // 16-bit gradient the head consumes stays.
        let (f, b, rest) = walk(&LossProgram::upcast(1.0, 2.0, 0.0, false));
        assert_eq!((f, b, rest), (10.0, 12.0, 2.0));
        // fp32: no copy, and the log-softmax result is the head's gradient.
        let (f, b, rest) = walk(&LossProgram::upcast(1.0, 4.0, 0.0, false));
        assert_eq!((f, b, rest), (8.0, 12.0, 4.0));
    }

    #[test]
    fn a_models_own_16bit_loss_holds_three_vocabulary_wide_tensors_at_most() {
        // Qwen v1: logits, their shifted copy and the log-probs; then the log-probs, their
        // gradient and the result; the logits' whole gradient stays for the head.
        let (f, b, rest) = walk(&LossProgram::own(1.0, 2.0, true));
        assert_eq!((f, b, rest), (6.0, 6.0, 2.0));
        // Whisper: no shift, the log-softmax's result is the head's gradient.
        let (f, b, rest) = walk(&LossProgram::own(1.0, 2.0, false));
        assert_eq!((f, b, rest), (4.0, 6.0, 2.0));
    }

    #[test]
    fn compiled_upcast_paths_hold_what_the_probe_measured() {
        // data/calibration/loss-compile.json: forward and backward peaks per token·vocab.
        // With the model (hf): 2 then 6 in bf16, 4 then 12 in fp32; the gradient stays.
        assert_eq!(walk(&LossProgram::compiled_with_model(1.0, 2.0, 0.0)), (2.0, 6.0, 2.0));
        assert_eq!(walk(&LossProgram::compiled_with_model(1.0, 4.0, 0.0)), (4.0, 12.0, 4.0));
        // Alone on fp32 logits (torchtune): 6 then 8 in bf16, 4 then 8 in fp32.
        assert_eq!(walk(&LossProgram::compiled_alone(1.0, 2.0, 0.0)), (6.0, 8.0, 2.0));
        assert_eq!(walk(&LossProgram::compiled_alone(1.0, 4.0, 0.0)), (4.0, 8.0, 4.0));
    }

    #[test]
    fn torchtune_s_model_side_upcast_ends_its_forward_at_8_bytes() {
        // loss-compile.json, place `tune`, eager: forward 8, backward 12 in bf16.
        assert_eq!(walk(&LossProgram::upcast(1.0, 2.0, 0.0, true)), (8.0, 12.0, 2.0));
    }

    #[test]
    fn chunked_paths_hold_what_the_probe_measured() {
        // torchtune's 8 chunks in bf16: 6.5 at the end of the forward, 5 in backward; the
        // chunks' 16-bit gradients stay for the head's backward.
        assert_eq!(walk(&LossProgram::chunked_upcast(1.0, 2.0, 8.0)), (6.5, 5.0, 2.0));
        // litgpt's 128-token chunks of a 1024-token sequence: 4.25, then 4.5.
        assert_eq!(walk(&LossProgram::chunked_model_dtype(1.0, 2.0, 8.0)), (4.25, 4.5, 4.0));
    }

    #[test]
    fn a_path_known_by_its_totals_keeps_its_saved_part_to_the_end() {
        let (f, b, rest) = walk(&LossProgram::lumped(4.0, 10.0, 12.0));
        assert_eq!((f, b, rest), (10.0, 12.0, 4.0));
        let (f, _, rest) = walk(&LossProgram::lumped(3.0, 5.0, 5.0).scaled(2.0));
        assert_eq!((f, rest), (10.0, 6.0));
    }
}
