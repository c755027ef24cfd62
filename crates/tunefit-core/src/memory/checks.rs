//! Configurations no framework can run, refused with the key to change.

use crate::arch::Architecture;
use crate::diag::{Error, Refusal};
use crate::query::{ExpertFormat, Query, TargetModule};

pub(super) fn check(q: &Query, a: &Architecture) -> Result<(), Error> {
    if !q.gpus.is_multiple_of(q.tp) {
        return Err(Error::Refused(Refusal::TpDividesGpus { tp: q.tp, gpus: q.gpus }));
    }
    if q.expert_format == ExpertFormat::Mxfp4 && a.experts > 1 {
        let adapts_experts = q.method.is_lora()
            && [TargetModule::Gate, TargetModule::Up, TargetModule::Down].iter().any(|t| q.targets.contains(*t));
        if q.method.trains_base() || adapts_experts {
            return Err(Error::Refused(Refusal::Mxfp4Trains));
        }
    }
    if q.optim_in_bwd && q.ga > 1 {
        // torchtune's recipes refuse it: each gradient is gone once its parameter has stepped.
        return Err(Error::Refused(Refusal::OptimInBwdAccumulates { ga: q.ga }));
    }
    let model_parallel = q.tp as u64 * q.pp as u64 * q.cp as u64;
    if !(q.gpus as u64).is_multiple_of(model_parallel) {
        return Err(Error::Refused(Refusal::ModelParallelDividesGpus { degree: model_parallel, gpus: q.gpus }));
    }
    if q.pp as u64 > a.layers {
        return Err(Error::Refused(Refusal::StagesOverLayers { pp: q.pp, layers: a.layers }));
    }
    if a.layout.speech.is_some() {
        use crate::query::{Framework, Method};
        let refuse = |key, value: String| Err(Error::Refused(Refusal::SpeechRecipe { key, value }));
        if matches!(q.method, Method::Adapter | Method::Prefix | Method::Prompt) {
            return refuse("method", q.method.to_string());
        }
        if !matches!(q.framework, Framework::Hf | Framework::Unsloth) {
            return refuse("framework", q.framework.as_str().to_string());
        }
        // Whisper's forward computes its own CrossEntropyLoss, which no kernel library patches,
        // and its collator pads clips and labels: no packing.
        if let Some(l) = q.loss.filter(|l| *l != crate::query::Loss::Standard) {
            return refuse("loss", l.to_string());
        }
        if q.packing == Some(true) {
            return refuse("packing", "1".into());
        }
        for (key, v) in [("tp", q.tp), ("pp", q.pp), ("cp", q.cp)] {
            if v > 1 {
                return refuse(key, v.to_string());
            }
        }
    }
    if let Some((img, _)) = a.layout.sam() {
        use crate::query::{Attention, Method};
        let refuse = |key, value: String| Err(Error::Refused(Refusal::SamRecipe { key, value }));
        if !matches!(q.method, Method::Full | Method::Freeze | Method::Lora | Method::Qlora | Method::Dora) {
            return refuse("method", q.method.to_string());
        }
        if let Some(r) = q.image_res.filter(|r| u64::from(r.w) != img.side || u64::from(r.h) != img.side) {
            return refuse("image_res", format!("{}x{}", r.w, r.h));
        }
        if q.attn == Some(Attention::Flash) {
            return refuse("attn", "flash".into());
        }
        for (key, v) in [("tp", q.tp), ("pp", q.pp)] {
            if v > 1 {
                return refuse(key, v.to_string());
            }
        }
    }
    if a.layout.image.is_some() && q.cp > 1 {
        // Ring attention splits a long text sequence; an image's few hundred tokens are not
        // split by any trainer (its `seq` is the image's tokens, Settings::resolve).
        return Err(Error::Refused(Refusal::ImageEncoderContextParallel { cp: q.cp, tokens: q.seq }));
    }
    if !q.seq.is_multiple_of(q.cp) {
        return Err(Error::Refused(Refusal::CpDividesSeq { cp: q.cp, seq: q.seq }));
    }
    if q.nodes > q.gpus {
        return Err(Error::Refused(Refusal::NodesOverGpus { nodes: q.nodes, gpus: q.gpus }));
    }
    if !a.heads.is_multiple_of(q.tp as u64) {
        return Err(Error::Refused(Refusal::TpDividesHeads { tp: q.tp, heads: a.heads }));
    }
    if q.images > 0 {
        // The processor writes each image's visual tokens into the sequence (Qwen2-VL's
        // `<|image_pad|>` repeated, Gemma 3's 256 soft tokens), which `seq` caps.
        let per_image = a.layout.tower.per_image(q.image_res).tokens;
        if per_image * q.images as u64 > q.seq as u64 {
            return Err(Error::Refused(Refusal::VisualTokensOverSeq { images: q.images, per_image, seq: q.seq }));
        }
    }
    if a.positions > 0 && q.seq as u64 > a.positions {
        return Err(Error::Refused(Refusal::SeqOverPositions { seq: q.seq, positions: a.positions }));
    }
    Ok(())
}
