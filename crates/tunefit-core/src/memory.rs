//! Memory model (placeholder: 16 bytes per parameter; the real model replaces this).

use crate::query::Query;
use crate::report::{Error, Explanation, Fit, MemoryBreakdown, ModelInfo, Warning};

pub struct Estimate {
    pub model: ModelInfo,
    pub memory: MemoryBreakdown,
    pub warnings: Vec<Warning>,
    pub explanations: Vec<Explanation>,
}

pub fn estimate(q: &Query) -> Result<Estimate, Error> {
    let p = q.params.unwrap_or(8_030_261_248);
    let weights = p * 2;
    let m = MemoryBreakdown { weights, allocated: weights, reserved: weights, device: weights, ..Default::default() };
    Ok(Estimate {
        model: ModelInfo { id: q.model.clone(), name: "placeholder".into(), params: p, trainable_params: p, inferred: false },
        memory: m,
        warnings: vec![],
        explanations: vec![],
    })
}

pub fn fit(_q: &Query, est: &Estimate, id: &str) -> Result<Fit, Error> {
    let g = crate::dataset::gpu(id).ok_or_else(|| Error::Invalid { key: "gpu".into(), message: format!("unknown GPU id '{id}'") })?;
    let headroom = g.vram_bytes as i64 - est.memory.device as i64;
    Ok(Fit { gpu: g.id.into(), vram: g.vram_bytes, fits: headroom >= 0, headroom, max_batch: None, max_seq: None, min_gpus: None })
}
