//! Memory model: per-GPU bytes of one fine-tuning configuration.
//!
//! Terms (docs/memory-model.md): weights (frozen base in its storage format, trainable
//! parameters in theirs, autocast's 16-bit working copies), gradients, optimizer states,
//! activations saved for backward (crate::activation), logits and loss transients, and
//! named overheads. Three peaks: `allocated` (live tensors at the worst moment of a step),
//! `reserved` (allocated plus what the caching allocator holds beside them, from the replay of
//! the run's allocations: cache.rs, timeline.rs, allocator.rs) and `device` (reserved
//! plus the CUDA context and memory outside PyTorch: NCCL buffers, bitsandbytes paged states).
//! All arithmetic is f64 over validated inputs and checked before it becomes bytes.

pub mod allocator;
pub mod shape;
pub mod timeline;

mod buffers;
mod cache;
mod checks;
mod explain;
mod logits;
mod parallel;
mod peaks;
mod retained;
mod run;
mod sam;
mod saved;
mod speech;
mod states;
mod trainable;
mod vision;
pub(crate) mod workspace;

pub use explain::Phrase;
pub use logits::logits_impl;
pub use states::quant_bits;
pub use trainable::{trainable, Trainable};
pub use workspace::step_workspaces;

use crate::diag::{Error, Warning};
use crate::settings::Settings;
use serde::Serialize;

/// Which model was evaluated and how much of it trains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelInfo {
    /// Preset id, or None for a custom / inferred architecture.
    pub id: Option<String>,
    pub name: String,
    pub params: u64,
    pub trainable_params: u64,
    /// Parameters one token passes through, for a mixture of experts (None when dense).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_params: Option<u64>,
    /// A multimodal checkpoint's vision tower and projector: loaded, in the weights, frozen.
    #[serde(skip_serializing_if = "is_zero")]
    pub frozen_vision_params: u64,
    /// True when the architecture was guessed from a parameter count alone.
    pub inferred: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Per-GPU memory, in bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct MemoryBreakdown {
    pub weights: u64,
    pub gradients: u64,
    pub optimizer: u64,
    pub activations: u64,
    pub logits: u64,
    pub overhead: u64,
    /// Peak of live tensors: what torch.cuda.max_memory_allocated reports.
    pub allocated: u64,
    /// Peak held by the caching allocator: torch.cuda.max_memory_reserved.
    pub reserved: u64,
    /// What nvidia-smi shows: reserved plus the CUDA context and non-PyTorch buffers.
    pub device: u64,
    /// Host RAM each node needs (offloaded states, pinned buffers).
    pub host_ram: u64,
    /// Bytes autograd holds for backward at the end of the forward pass.
    pub saved_for_backward: u64,
    /// The run replayed allocation by allocation through PyTorch's caching allocator
    /// (memory/timeline.rs), at most a few hundred points: filled by `evaluate_with_timeline`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Vec<crate::memory::timeline::Point>>,
    /// Where the replay's allocated peak falls, in words ("backward of block 0", ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_phase: Option<String>,
    /// The same moment, for the page to say in its language (`Moment::text`); not in the JSON.
    #[serde(skip)]
    pub peak_moment: Option<crate::memory::timeline::Moment>,
    /// `reserved` when it came from the run's own replay (None for a solver's variant, which
    /// takes the replay's share): kept in the JSON, whose field names are a contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay_reserved: Option<u64>,
}

impl MemoryBreakdown {
    /// The six terms a person reads, in the order every front end shows them, by the names
    /// `Explanation::term` uses.
    pub fn terms(&self) -> [(&'static str, u64); 6] {
        [
            ("weights", self.weights),
            ("gradients", self.gradients),
            ("optimizer", self.optimizer),
            ("activations", self.activations),
            ("logits", self.logits),
            ("overhead", self.overhead),
        ]
    }
}

/// A figure's formula and assumptions, for the page's explanations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// Which figure: "weights", "gradients", "optimizer", "activations", "logits", "overhead", ...
    pub term: String,
    pub formula: Phrase,
    pub assumptions: Vec<Phrase>,
    /// Why the figure is large, in one sentence shown beside it: set when the term is at least
    /// `explain::LARGE_SHARE` of the per-GPU terms and comes from a setting a person can
    /// change (fp32 weights, a large vocabulary's logits, no checkpointing, optimizer states).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<Phrase>,
}

/// Everything `estimate` worked out, for solvers, the validation table and the page.
#[derive(Debug, Clone)]
pub struct Estimate {
    pub model: ModelInfo,
    pub memory: MemoryBreakdown,
    pub warnings: Vec<Warning>,
    pub explanations: Vec<Explanation>,
    pub detail: Detail,
    /// What `replay` builds the run's tensors from.
    pub timeline_input: Box<shape::Input>,
    /// The replay `reserved` came from; None for a variant that took `Settings::cache_excess`.
    pub replay: Option<Box<timeline::Replay>>,
    /// Bytes the allocator caches beyond the live tensors, per byte of the per-step tensors
    /// (activations, logits, optimizer temporaries): what `Settings::cache_excess` carries to
    /// the variants of this query.
    pub cache_excess: f64,
}

impl Estimate {
    /// The run replayed allocation by allocation through PyTorch's caching allocator: where
    /// the peak falls and how allocated and reserved move over load, the first step and a
    /// steady step (the one `reserved` came from, or a new one for a variant).
    pub fn replay(&self) -> timeline::Replay {
        match &self.replay {
            Some(r) => (**r).clone(),
            None => timeline::replay(&shape::timeline_shape(&self.timeline_input), self.timeline_input.alloc),
        }
    }
}

/// Intermediate figures (bytes per GPU) behind the breakdown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Detail {
    /// Peak of live tensors during forward/backward.
    pub peak_forward_backward: f64,
    /// Peak of live tensors during optimizer.step.
    pub peak_step: f64,
    /// Model states as ZeRO counts them: params + grads + optimizer (incl. fp32 master).
    pub model_states: f64,
    /// Saved-for-backward bytes of one block.
    pub per_layer_activation: f64,
    /// Largest module's own parameters (DeepSpeed's largest_layer).
    pub largest_module: u64,
    /// Optimizer states held in bitsandbytes paged (managed) memory: outside torch's counters.
    pub paged_optimizer: f64,
    pub cuda_context: f64,
    pub fragmentation: f64,
    pub framework_buffers: f64,
    pub non_torch: f64,
}

/// `estimate`, leaving the replay's cache share in the settings (`Settings::cache_excess`), so
/// that every variant of the query evaluated through them (the solvers' probes, the offers'
/// GPU counts) takes it instead of replaying.
pub fn estimate_replayed(s: &mut Settings) -> Result<Estimate, Error> {
    let e = estimate(s)?;
    s.cache_excess = Some(e.cache_excess);
    Ok(e)
}

/// Per-GPU memory of the settings: the terms, their peaks, and the run's tensors for the
/// allocator replay (`Estimate::replay`). One phase per file: the run's figures (run.rs) and
/// refusals (checks.rs), the model states (states.rs) and what each GPU holds of them
/// (parallel.rs), saved activations (saved.rs), the loss path (logits.rs), transient buffers
/// (buffers.rs), the peaks (peaks.rs) and the words beside them (explain.rs).
pub fn estimate(s: &Settings) -> Result<Estimate, Error> {
    let mut warnings = Vec::new();
    let r = run::Run::new(s, &mut warnings)?;
    let st = states::states(&r, &mut warnings)?;
    let pg = parallel::per_gpu(&r, &st, &mut warnings);
    let sv = saved::saved(&r, st.autocast_copies, st.autocast_head);
    let lp = logits::loss_path(&r, sv.head_trains);
    let staged = parallel::pipeline(&r, sv.act, lp.logits);
    let bf = buffers::buffers(&r, &st, &pg);
    let p = peaks::peaks(&r, &st, &pg, &sv, &lp, staged, &bf)?;
    explain::notes(&r, &mut warnings);
    let explanations = explain::explain(&r, &p.memory, p.saving, (p.tower_excess, sv.tower.backward));
    Ok(Estimate {
        model: explain::model_info(&r, s.preset),
        memory: p.memory,
        warnings,
        explanations,
        detail: p.detail,
        timeline_input: p.timeline_input,
        replay: p.replay,
        cache_excess: p.cache_excess,
    })
}
