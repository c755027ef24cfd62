//! What the training loop still holds of the previous micro-batch while the next forward runs
//! (`Profile::keeps_previous_output`): its output, and what custom autograd Functions of its
//! graph stored outside `save_for_backward`.

use super::run::Run;
use super::saved::Saved;
use crate::query::{Checkpointing, Loss, Method, TargetModule};

/// Bytes of one GPU that live on from the previous micro-batch.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Retained {
    /// The output the forward returns (logits in the model dtype), for one micro-batch: the
    /// previous one's is alive beside the new one until the assignment.
    pub output: f64,
    /// The previous micro-batch's output and the tensors its graph still holds.
    pub previous: f64,
}

pub(super) fn retained(r: &Run, sv: &Saved) -> Retained {
    let (a, res, tp) = (&r.a, r.res, r.tp);
    if !res.profile.keeps_previous_output || a.encoder_only || res.loss == Loss::FusedLinear {
        return Retained::default();
    }
    let e = r.act_bytes;
    let tokens = r.tokens;
    // litgpt's GPT returns the lm_head's chunks in the model dtype, never upcast.
    let output = tokens * a.vocab as f64 / tp * e;
    Retained { output, previous: output + quant_inputs(r, sv) }
}

/// bitsandbytes ≤ 0.43.1 stores each 4-bit linear's input as `ctx.tensors = (A, B)` when the
/// input needs a gradient (bitsandbytes 0.42.0 @4870580f, `MatMul4Bit.forward`), a plain
/// attribute that backward's `release_variables` does not free: per block the attention input
/// (norm output), the o-projection input, the MLP input (one tensor for fc_1 and fc_2) and the
/// down projection's input; and the final norm output when the LM head is quantized. Without
/// checkpointing only: under it the forward's inputs are recomputed, which is not modelled here.
fn quant_inputs(r: &Run, sv: &Saved) -> f64 {
    let (q, a, res, tp) = (r.q, &r.a, r.res, r.tp);
    let keeps = q.method == Method::Qlora && res.profile.nf4_bnb && res.profile.quant_saves_input;
    if !keeps || res.ckpt != Checkpointing::None {
        return 0.0;
    }
    let (e, h, tokens) = (r.act_bytes, a.hidden as f64, r.tokens);
    let per_block = e * (2.0 * h + (a.q_dim() as f64 + a.active_ffn()) / tp) * tokens;
    // The first block's attention input comes from the frozen embedding: no gradient, not kept
    // (unless the embedding trains).
    let first = if q.targets.contains(TargetModule::Embed) { 0.0 } else { e * h * tokens };
    let head = if res.profile.quantizes_lm_head { e * h * tokens } else { 0.0 };
    (sv.layers_with_grad / r.pp * per_block - first / r.pp + head).max(0.0)
}
