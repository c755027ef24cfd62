//! A query resolved once: the architecture it describes and the framework profile's defaults
//! for every key the person left unset. Memory, time, cost, the solvers and the exporter read
//! these settings, so they agree on what runs (checkpointing, attention, loss, packing, ...);
//! only this file calls `framework::resolve`.

use std::borrow::Cow;

use crate::arch::Architecture;
use crate::catalog::Preset;
use crate::diag::Error;
use crate::framework::{self, Resolved};
use crate::query::Query;

/// The query with its architecture and the framework's resolved behaviour.
#[derive(Clone)]
pub struct Settings<'q> {
    /// The query as the models read it: the person's, except that an image encoder's sequence
    /// is its image's tokens (`image_res` decides it; `seq` has no meaning of its own there)
    /// and its `tokens` (images per epoch there) those images' tokens; Whisper's `tokens` (clips)
    /// are its clips' label sequences.
    pub query: Cow<'q, Query>,
    /// The query as the person wrote it: what candidate changes (plans, fixes) start from.
    pub given: &'q Query,
    /// The architecture as the checkpoint describes it (preset, inferred or overridden).
    pub arch: Architecture,
    /// The preset, when the architecture is one unchanged.
    pub preset: Option<&'static Preset>,
    /// The framework profile applied to the keys the query leaves unset.
    pub resolved: Resolved,
    /// What the caching allocator holds beyond the live tensors, per byte of the per-step
    /// tensors, as the allocator replay of the query these settings were resolved for found it
    /// (`memory::Estimate::cache_excess`). None: `memory::estimate` replays the run. A variant
    /// in batch, sequence or GPU count (the solvers' probes, the offers' GPU counts) carries it,
    /// so that a search costs one replay.
    pub cache_excess: Option<f64>,
}

impl<'q> Settings<'q> {
    /// Resolves `q`; an unknown model or an impossible architecture is an error naming its key.
    pub fn resolve(q: &'q Query) -> Result<Settings<'q>, Error> {
        let (arch, preset) = architecture(q)?;
        let query = match arch.layout.image {
            Some(img) => {
                let (side, patch) = img.smallest_side(q.image_res);
                if side < patch {
                    return Err(Error::Refused(crate::diag::Refusal::ImageUnderPatch { side, patch }));
                }
                let tokens = img.tokens(q.image_res).min(u64::from(u32::MAX));
                let mut own = q.clone();
                own.seq = tokens as u32;
                // Its dataset is counted in images: each is `tokens` of the sequence.
                own.tokens = q.tokens.saturating_mul(tokens);
                Cow::Owned(own)
            }
            // Whisper's dataset is counted in clips, each one sequence of labels.
            None if arch.layout.speech.is_some() => {
                let mut own = q.clone();
                own.tokens = q.tokens.saturating_mul(u64::from(q.seq));
                Cow::Owned(own)
            }
            None => Cow::Borrowed(q),
        };
        Ok(Settings { query, given: q, arch, preset, resolved: framework::resolve(q), cache_excess: None })
    }

    /// The same settings for `q`, a variant of this query in micro-batch, sequence length or
    /// GPU and node count (what the solvers and the offer ranking vary): none of those changes
    /// the architecture or the framework's resolved behaviour, so nothing is resolved again;
    /// the replay's cache share carries over unless the variant crosses from one GPU to several.
    pub fn variant<'v>(&self, q: &'v Query) -> Settings<'v> {
        Settings {
            query: Cow::Borrowed(q),
            given: q,
            arch: self.arch.clone(),
            preset: self.preset,
            resolved: self.resolved,
            // One GPU against several changes what the allocator caches (FSDP's gradients on
            // the reduce-scatter stream, DDP's buckets): a variant across that line replays.
            cache_excess: self.cache_excess.filter(|_| several(&self.query) == several(q)),
        }
    }
}

/// Several GPUs, and several data-parallel ranks among them: variants on one side of these
/// lines share what the allocator caches (`Settings::variant`).
pub fn several(q: &Query) -> (bool, bool) {
    (q.gpus > 1, q.gpus / (q.tp * q.pp).max(1) > 1)
}

/// The architecture a query describes: preset, or inferred from `params`, plus overrides.
pub fn architecture(q: &Query) -> Result<(Architecture, Option<&'static Preset>), Error> {
    let (mut a, preset) = match (&q.params, &q.model) {
        (Some(p), _) => (Architecture::infer(*p), None),
        (None, Some(id)) => {
            let p = crate::catalog::preset(id).ok_or_else(|| {
                Error::Refused(crate::diag::Refusal::UnknownModel {
                    id: id.clone(),
                    accepted: crate::catalog::accepted_ids(),
                })
            })?;
            (p.arch.clone(), Some(p))
        }
        (None, None) => (crate::catalog::preset("llama-3.1-8b").expect("default preset").arch.clone(), None),
    };
    a.apply(&q.arch);
    a.validate()?;
    // An image encoder's `vocab` is the head a fine-tune replaces (`num_labels`), not another
    // checkpoint: the preset stays named.
    let head_only = a.layout.image.is_some() && {
        let mut others = q.arch;
        others.vocab = None;
        others.is_empty()
    };
    Ok((a, if q.arch.is_empty() || head_only { preset } else { None }))
}
