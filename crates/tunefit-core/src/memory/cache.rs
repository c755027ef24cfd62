//! What the caching allocator holds beyond the live tensors: `reserved` − `allocated`.

use super::shape;
use super::timeline::{self, Replay};

/// The allocator's cache at the reserved peak, in bytes, and the replay it came from.
pub(super) struct Cache {
    pub bytes: f64,
    pub replay: Option<Box<Replay>>,
    /// `bytes` per byte of the per-step tensors (`Estimate::cache_excess`).
    pub share: f64,
}

/// The replay of the run's allocations decides it (its reserved peak over its allocated
/// peak); a variant of a replayed query in batch, sequence or GPU count (`share`: the solvers'
/// probes, the offers' GPU counts) takes the same share of its per-step tensors (`dynamic`:
/// activations, logits, optimizer temporaries), so that a search costs one replay.
pub(super) fn cache(input: &shape::Input, dynamic: f64, share: Option<f64>) -> Cache {
    match share {
        Some(k) => Cache { bytes: k * dynamic, replay: None, share: k },
        None => {
            let rp = timeline::replay(&shape::timeline_shape(input), input.alloc);
            let bytes = rp.peak_reserved.saturating_sub(rp.peak_allocated) as f64;
            Cache { bytes, replay: Some(Box::new(rp)), share: if dynamic > 0.0 { bytes / dynamic } else { 0.0 } }
        }
    }
}
