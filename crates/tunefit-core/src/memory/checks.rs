//! Configurations no framework can run, refused with the key to change.

use crate::arch::Architecture;
use crate::diag::Error;
use crate::query::{ExpertFormat, Query, TargetModule};

pub(super) fn check(q: &Query, a: &Architecture) -> Result<(), Error> {
    if !q.gpus.is_multiple_of(q.tp) {
        return Err(Error::invalid("tp", format!("tp {} must divide gpus {}", q.tp, q.gpus)));
    }
    if q.expert_format == ExpertFormat::Mxfp4 && a.experts > 1 {
        let adapts_experts = q.method.is_lora()
            && [TargetModule::Gate, TargetModule::Up, TargetModule::Down].iter().any(|t| q.targets.contains(*t));
        if q.method.trains_base() || adapts_experts {
            return Err(Error::invalid("expert_format", "MXFP4 experts are frozen storage: they cannot train in full or carry LoRA adapters (PEFT wraps nn.Linear only); use expert_format=native (dequantized to 16 bits) or targets without gate, up and down"));
        }
    }
    if q.optim_in_bwd && q.ga > 1 {
        // torchtune's recipes refuse it: each gradient is gone once its parameter has stepped.
        return Err(Error::invalid("optim_in_bwd", format!("the optimizer steps inside backward and frees each gradient, so gradients cannot accumulate over ga={} micro-batches; set ga=1 or optim_in_bwd=0", q.ga)));
    }
    let model_parallel = q.tp as u64 * q.pp as u64 * q.cp as u64;
    if !(q.gpus as u64).is_multiple_of(model_parallel) {
        return Err(Error::invalid("pp", format!("tp × pp × cp = {model_parallel} must divide gpus {}", q.gpus)));
    }
    if q.pp as u64 > a.layers {
        return Err(Error::invalid("pp", format!("{} pipeline stages for {} layers", q.pp, a.layers)));
    }
    if !q.seq.is_multiple_of(q.cp) {
        return Err(Error::invalid("cp", format!("cp {} must divide seq {}", q.cp, q.seq)));
    }
    if q.nodes > q.gpus {
        return Err(Error::invalid("nodes", format!("{} nodes for {} GPUs", q.nodes, q.gpus)));
    }
    if !a.heads.is_multiple_of(q.tp as u64) {
        return Err(Error::invalid("tp", format!("tp {} must divide the {} attention heads", q.tp, a.heads)));
    }
    if a.positions > 0 && q.seq as u64 > a.positions {
        return Err(Error::invalid(
            "seq",
            format!("{} tokens exceed the model's {} learned positions", q.seq, a.positions),
        ));
    }
    Ok(())
}
