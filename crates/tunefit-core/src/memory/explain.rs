//! What a person reads beside the figures: the model's identity, notes on the architecture,
//! and each term's formula with its assumptions.

use super::run::Run;
use super::{Explanation, ModelInfo};
use crate::catalog::Preset;
use crate::diag::Warning;

pub(super) fn model_info(r: &Run, preset: Option<&'static Preset>) -> ModelInfo {
    let (a, tr, p_total) = (&r.a, r.tr, r.p_total);
    ModelInfo {
        id: preset.map(|p| p.id.to_string()),
        name: preset.map(|p| p.name.to_string()).unwrap_or_else(|| {
            if a.inferred {
                format!("inferred ({} params)", crate::query::format_count(p_total))
            } else {
                "custom".into()
            }
        }),
        params: p_total,
        trainable_params: tr.total,
        active_params: (a.experts > 1).then(|| a.active_params()),
        frozen_vision_params: a.layout.vision_params,
        inferred: a.inferred,
    }
}

/// Notes on the architecture itself: a frozen vision tower, a guessed shape.
pub(super) fn notes(r: &Run, warnings: &mut Vec<Warning>) {
    let a = &r.a;
    if a.layout.vision_params > 0 {
        warnings.push(Warning { code: "frozen-vision-tower".into(), message: format!(
            "the checkpoint loads a vision tower and projector ({} parameters) beside the language model: they are in the weights, stored like the frozen base, and never trained or quantized here",
            crate::query::format_count(a.layout.vision_params)) });
    }
    if a.inferred {
        warnings.push(Warning { code: "inferred-architecture".into(), message: format!("architecture guessed from the parameter count: {} layers, hidden {}, ffn {}, vocab {}; give model= or the arch keys for exact figures", a.layers, a.hidden, a.ffn, a.vocab) });
    }
}

pub(super) fn explain(run: &Run) -> Vec<Explanation> {
    let (q, r, a, t) = (run.q, &run.res, &run.a, &run.tr);
    let fw = q.framework.as_str();
    vec![
        Explanation { term: "weights".into(), formula: "frozen params × storage bytes (NF4 4.5 / DQ 4.127 bits for QLoRA block linears) + trainable × their dtype".into(),
            assumptions: vec![format!("{} params, {} trainable", a.param_count(), t.total), format!("adapter dtype {} ({fw} profile unless set)", r.adapter_dtype)] },
        Explanation { term: "optimizer".into(), formula: format!("{} states per trainable parameter", q.optim),
            assumptions: vec!["true-16-bit precision keeps states in the parameter dtype; mixed keeps fp32 master weights and states".into()] },
        Explanation { term: "activations".into(), formula: "Σ layers of the tensors each op saves for backward (activation.rs)".into(),
            assumptions: vec![
                format!("attention {}, checkpointing {}, compile {}, packing {}", r.attn, r.ckpt, r.compile, r.packing),
                if r.act_offload { "activation offloading: two blocks stay on the GPU, the rest in host RAM".into() } else { "no activation offloading".into() },
                if q.set_to_none || q.ga > 1 { "gradients live only from the backward pass to the optimizer step (ga > 1: through every micro-batch)".into() }
                else { "set_to_none=0: zero-filled gradients stay allocated through the forward pass".into() },
            ] },
        Explanation { term: "logits".into(), formula: "tokens × vocab × bytes of the loss path".into(),
            assumptions: vec![format!("loss {} as {fw} implements it", r.loss)] },
        Explanation { term: "overhead".into(), formula: "allocator fragmentation (5% of per-step tensors) + CUDA context + framework buffers".into(),
            assumptions: vec![format!("CUDA context {} MiB", r.profile.cuda_context >> 20)] },
    ]
}
