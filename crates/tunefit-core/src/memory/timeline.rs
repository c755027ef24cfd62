//! One training run as a sequence of allocations and frees on one GPU — load, the first
//! step, a steady step — replayed through the caching allocator (allocator.rs).
//!
//! The events carry the same bytes as the memory terms (mod.rs): the weights tensor by
//! tensor, each block's saved activations as the forward reaches it and freed as the
//! backward leaves it, the recomputed block under full checkpointing, the loss path, the
//! gradients (created by the first backward, freed by `zero_grad(set_to_none=True)`), the
//! optimizer states (created lazily by the first `step()`, torch/optim/adamw.py `_init_group`),
//! and the framework buffers. What the replay adds is what the terms cannot say: how the
//! allocator's segments, pools and streams turn those tensors into `max_memory_reserved`, and
//! at which moment the peak falls.
//!
//! Streams: FSDP and ZeRO-3 gather each unit's weights on their own stream and hand them to
//! the compute stream with `record_stream` (torch/distributed/fsdp/_flat_param.py, FSDP2's
//! `_fsdp_param_group.py` all-gather stream); the gradients reduce-scatter on a third. Blocks
//! freed there are cached for that stream only. FSDP allocates the sharded gradients themselves
//! on that third stream (FSDP1 `_post_backward_hook`: `new_sharded_grad = torch.empty_like(..)`
//! inside `with ...stream(state._streams["post_backward"])`, kept as `_saved_grad_shard` and
//! handed to the optimizer as `.grad`, torch/distributed/fsdp/_runtime_utils.py @3ade90a6;
//! FSDP2 `foreach_reduce`: "the GPU sharded gradient is allocated in the RS stream",
//! torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py @8fc2039d). When `zero_grad` frees
//! them their blocks stay in that stream's pool, so the next forward's activations and logits
//! cannot use them: from the second step `reserved` holds the gradients beside the forward.

use super::allocator::{Allocation, CachingAllocator, Config, Stream};
pub use super::logits::{LossEvent, LossProgram};
use crate::diag::Lang;
use serde::Serialize;

const COMPUTE: Stream = 0;
const GATHER: Stream = 1;
const REDUCE: Stream = 2;
/// The block number of a moment at the token embedding (−1 is the loss).
const EMBEDDING: i32 = -2;
/// The block number of a moment at the final norm, after the last block.
const FINAL_NORM: i32 = -1;
/// The block number of a moment in a multimodal model's vision tower (memory/vision.rs), which
/// the replay does not run: its own pass, first in the forward and last in the backward.
const VISION_TOWER: i32 = -3;
/// The block number of a moment in Whisper's audio encoder (memory/speech.rs), which the
/// replay does not run either.
const AUDIO_ENCODER: i32 = -4;
/// The block number of a moment in a global-attention block of SAM's image encoder
/// (memory/sam.rs): its whole-image bias, which the replay does not build.
const GLOBAL_ATTENTION: i32 = -5;

/// Where in the run an event happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Load,
    Forward,
    Loss,
    Backward,
    OptimizerStep,
    /// A checkpoint save after the steady step: the state dict written to host memory.
    Save,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Load => "load",
            Phase::Forward => "forward",
            Phase::Loss => "loss",
            Phase::Backward => "backward",
            Phase::OptimizerStep => "optimizer step",
            Phase::Save => "save",
        }
    }

    /// The phase's name in `lang` (the chart's labels).
    pub fn label(self, lang: Lang) -> &'static str {
        match (lang.built(), self) {
            (Lang::En, p) => p.as_str(),
            (Lang::Ru, Phase::Load) => "загрузка",
            (Lang::Ru, Phase::Forward) => "прямой проход",
            (Lang::Ru, Phase::Loss) => "потери",
            (Lang::Ru, Phase::Backward) => "обратный проход",
            (Lang::Ru, Phase::OptimizerStep) => "шаг оптимизатора",
            (Lang::Ru, Phase::Save) => "сохранение",
        }
    }
}

/// The sizes the events are built from, bytes per GPU (mod.rs computes them).
#[derive(Debug, Clone, Default)]
pub struct Shape {
    pub layers: usize,
    /// Weight tensors of one block (this GPU's share), and the embedding/head/other tensors.
    pub block_weights: Vec<f64>,
    pub other_weights: Vec<f64>,
    /// Gradient tensors of one trained block, and of the trained embedding/head.
    pub block_grads: Vec<f64>,
    pub other_grads: Vec<f64>,
    /// Gradient of an untied, trained embedding: created when the backward reaches it.
    pub embed_grads: Vec<f64>,
    /// Optimizer states and master weights, per block and for the rest.
    pub block_states: Vec<f64>,
    pub other_states: Vec<f64>,
    /// The fp32 master copy a sharded mixed-precision run keeps from initialisation: per block,
    /// and the rest.
    pub master: (f64, f64),
    /// The gradients live in a buffer made at initialisation (ZeRO-3's flat partitions).
    pub grads_at_load: bool,
    /// Blocks that keep activations (freeze-tuning: the trained ones).
    pub layers_with_grad: usize,
    /// Saved tensors one block keeps for backward.
    pub saved: Vec<f64>,
    /// The block's full saved set, rebuilt during backward under full checkpointing.
    pub recompute: Vec<f64>,
    /// A transient the forward of a block makes and drops (its largest intermediate).
    pub workspace: f64,
    /// A transient the backward of a block holds at its peak beyond the gradients flowing
    /// between blocks (0 where the terms already count it).
    pub backward_workspace: f64,
    /// Saved outside the blocks by the forward (head input, final norm, masks, ids); what
    /// the head itself keeps is in `loss_saved`.
    pub head_saved: f64,
    /// Autocast's 16-bit copy of the head's weight, made as the head runs and kept for its
    /// backward.
    pub head_copy: f64,
    /// Autocast's cached 16-bit copies of one checkpointed block's trained fp32 weights: made
    /// as its forward casts them, dropped when the autocast region (the forward and the loss
    /// inside it) exits, before the backward.
    pub forward_cache: f64,
    /// The loss path tensor by tensor: the forward after the head, the backward of the loss.
    pub loss: LossProgram,
    /// Gradient of one block's output flowing backward (two live at a time).
    pub act_grad: f64,
    /// Per-step temporary of the optimizer (foreach lists).
    pub step_temp: f64,
    /// Persistent framework buffers on the compute stream (DDP's buckets, ZeRO-3's gradient
    /// bucket).
    pub persistent: f64,
    /// A buffer made at the backward's first gradient and released at its end (ZeRO-1/2's
    /// contiguous gradient bucket).
    pub backward_bucket: f64,
    /// One unit gathered by FSDP/ZeRO-3 (16-bit or packed), 0 without parameter sharding.
    pub gathered_unit: f64,
    /// FSDP's root unit (what no block unit holds: embedding, final norm, head) gathered in
    /// full from the forward's start to the end of the backward: the root is not resharded
    /// after forward. 0 without FSDP over more than one rank.
    pub root_unit: f64,
    /// One unit's unsharded gradient before its reduce-scatter, 0 without sharding.
    pub reduce_unit: f64,
    /// FSDP (FSDP1's post-backward stream, FSDP2's reduce-scatter stream): the sharded
    /// gradients are allocated on the reduce-scatter stream and the unsharded gradient that
    /// feeds it is autograd's, on the compute stream. Without it (ZeRO) the reduce buffer is on
    /// the reduce stream and the gradients on the compute stream.
    pub grads_on_reduce: bool,
    /// QLoRA: one dequantized weight during its matmul.
    pub dequant: f64,
    /// QLoRA load: the 16-bit tensor each 4-bit weight is quantized from.
    pub load_transient: f64,
    /// DDP's start: the flat buckets rank 0's weights are broadcast through.
    pub load_broadcast: f64,
    /// A checkpoint save: the largest tensor gathered in full at a time (FSDP's full state
    /// dict), 0 where the state dict hands out references to tensors already held.
    pub save_gather: f64,
    /// A full state dict cloned on the device at save, tensor by tensor (empty: none).
    pub save_clones: Vec<f64>,
    /// Gradients stay allocated across steps (ga > 1 accumulates; set_to_none=0 keeps zeros).
    pub grads_persist: bool,
    pub micro_steps: usize,
    /// One cuBLAS handle's workspace (memory/workspace.rs): the forward's thread takes one at
    /// its first GEMM, the autograd engine's thread another at the first backward, and both
    /// stay. Allocated, not requested: no tensor asks for it, and the CPU has none.
    pub blas_workspace: f64,
}

/// One point of the timeline: after an event, the allocator's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    pub event: String,
    pub phase: Phase,
    pub allocated: u64,
    pub reserved: u64,
}

/// The replay's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    pub peak_allocated: u64,
    pub peak_reserved: u64,
    pub peak_phase: Phase,
    /// That event, to be put in words in any language (`Moment::text`).
    pub peak_moment: Moment,
    /// Every noted point, without words (`points` writes them).
    raw: Vec<Raw>,
}

impl Replay {
    /// The event at which allocated peaked, in English words (the JSON's `peak_phase`).
    pub fn peak_event(&self) -> String {
        self.peak_moment.words()
    }
    /// At most `MAX_POINTS` points, evenly spread, the first at the peak among them.
    pub fn points(&self) -> Vec<Point> {
        thin(&self.raw, self.peak_allocated)
    }

    /// Each phase as the run passes through it, in order (load; the first step's forward,
    /// loss, backward and optimizer step; the steady step's; save), with the most bytes
    /// allocated at its noted events: what a recorded timeline is checked against.
    pub fn phase_peaks(&self) -> Vec<PhasePeak> {
        let mut out: Vec<PhasePeak> = Vec::new();
        for p in &self.raw {
            let first = p.event.first && p.event.phase != Phase::Load;
            match out.last_mut() {
                Some(last) if last.phase == p.event.phase && last.first == first => {
                    last.peak = last.peak.max(p.allocated);
                    last.requested = last.requested.max(p.requested);
                }
                _ => out.push(PhasePeak { phase: p.event.phase, first, peak: p.allocated, requested: p.requested }),
            }
        }
        out
    }
}

/// One phase's stretch of the run and the most bytes allocated in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PhasePeak {
    pub phase: Phase,
    /// The first step's (the optimizer creates its states there), not the steady step's.
    pub first: bool,
    /// `max_memory_allocated` over the phase: whole blocks, as the caching allocator counts.
    pub peak: u64,
    /// The most bytes the live tensors themselves asked for: what an allocator without
    /// rounding (the CPU's) reports.
    pub requested: u64,
}

/// Points kept for the chart and the JSON.
pub const MAX_POINTS: usize = 240;

/// An event without its words: the phase, the block (−1 for none) and whether it belongs
/// to the first step. Words are written only for the points that are kept, and for the peak
/// in the page's language.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moment {
    phase: Phase,
    block: i32,
    first: bool,
}

impl Moment {
    /// The vision tower's own pass (memory/vision.rs): its forward when frozen, its backward
    /// when it trains.
    pub fn vision_tower(backward: bool) -> Moment {
        Moment { phase: if backward { Phase::Backward } else { Phase::Forward }, block: VISION_TOWER, first: false }
    }

    /// Whisper's audio encoder's own pass (memory/speech.rs): its forward when frozen, its
    /// backward when it trains.
    pub fn audio_encoder(backward: bool) -> Moment {
        Moment { phase: if backward { Phase::Backward } else { Phase::Forward }, block: AUDIO_ENCODER, first: false }
    }

    /// SAM's global attention over the whole image (memory/sam.rs): a frozen block's forward,
    /// or the last block's backward when the encoder trains.
    pub fn global_attention(backward: bool) -> Moment {
        Moment { phase: if backward { Phase::Backward } else { Phase::Forward }, block: GLOBAL_ATTENTION, first: false }
    }

    /// The moment is in a backward pass.
    pub fn is_backward(self) -> bool {
        self.phase == Phase::Backward
    }

    /// An encoder's own pass (a vision tower's, Whisper's audio encoder's, SAM's global
    /// attention), not an event of the replay.
    pub fn is_encoder_pass(self) -> bool {
        self.block == VISION_TOWER || self.block == AUDIO_ENCODER || self.block == GLOBAL_ATTENTION
    }

    fn words(self) -> String {
        self.text(Lang::En)
    }

    /// The moment in `lang`: "first step: backward of block 3", «первый шаг: обратный проход
    /// блока 3».
    pub fn text(self, lang: Lang) -> String {
        let first = self.first && !matches!(self.phase, Phase::Load | Phase::Save);
        match lang.built() {
            Lang::En => {
                let what = match (self.phase, self.block) {
                    (Phase::Load, _) => "load".to_string(),
                    (Phase::Forward, FINAL_NORM) => "forward of the final norm".to_string(),
                    (Phase::Forward, VISION_TOWER) => "forward of the vision tower".to_string(),
                    (Phase::Backward, VISION_TOWER) => "backward of the vision tower".to_string(),
                    (Phase::Forward, AUDIO_ENCODER) => "forward of the audio encoder".to_string(),
                    (Phase::Backward, AUDIO_ENCODER) => "backward of the audio encoder".to_string(),
                    (Phase::Forward, GLOBAL_ATTENTION) => "forward of a frozen global-attention block".to_string(),
                    (Phase::Backward, GLOBAL_ATTENTION) => "backward of the last global-attention block".to_string(),
                    (Phase::Forward, b) => format!("forward of block {b}"),
                    (Phase::Loss, _) => "loss (logits and their fp32 path)".to_string(),
                    (Phase::Backward, -1) => "backward of the loss".to_string(),
                    (Phase::Backward, EMBEDDING) => "backward of the embedding".to_string(),
                    (Phase::Backward, b) => format!("backward of block {b}"),
                    (Phase::OptimizerStep, _) if self.first => "optimizer step (states created)".to_string(),
                    (Phase::OptimizerStep, _) => "optimizer step".to_string(),
                    (Phase::Save, _) => "checkpoint save".to_string(),
                };
                if first {
                    format!("first step: {what}")
                } else {
                    what
                }
            }
            Lang::Ru => {
                let what = match (self.phase, self.block) {
                    (Phase::Load, _) => "загрузка".to_string(),
                    (Phase::Forward, FINAL_NORM) => "прямой проход финальной нормализации".to_string(),
                    (Phase::Forward, VISION_TOWER) => "прямой проход энкодера изображений".to_string(),
                    (Phase::Backward, VISION_TOWER) => "обратный проход энкодера изображений".to_string(),
                    (Phase::Forward, AUDIO_ENCODER) => "прямой проход энкодера звука".to_string(),
                    (Phase::Backward, AUDIO_ENCODER) => "обратный проход энкодера звука".to_string(),
                    (Phase::Forward, GLOBAL_ATTENTION) => {
                        "прямой проход замороженного блока с глобальным вниманием".to_string()
                    }
                    (Phase::Backward, GLOBAL_ATTENTION) => {
                        "обратный проход последнего блока с глобальным вниманием".to_string()
                    }
                    (Phase::Forward, b) => format!("прямой проход блока {b}"),
                    (Phase::Loss, _) => "потери (логиты и их путь в fp32)".to_string(),
                    (Phase::Backward, -1) => "обратный проход через потери".to_string(),
                    (Phase::Backward, EMBEDDING) => "обратный проход через эмбеддинги".to_string(),
                    (Phase::Backward, b) => format!("обратный проход блока {b}"),
                    (Phase::OptimizerStep, _) if self.first => "шаг оптимизатора (создаются его состояния)".to_string(),
                    (Phase::OptimizerStep, _) => "шаг оптимизатора".to_string(),
                    (Phase::Save, _) => "сохранение чекпойнта".to_string(),
                };
                if first {
                    format!("первый шаг: {what}")
                } else {
                    what
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Raw {
    event: Moment,
    allocated: u64,
    /// The bytes the live tensors asked for, before the allocator's rounding and unsplit
    /// blocks (`torch.cuda.memory_stats()["requested_bytes.all.current"]`).
    requested: u64,
    reserved: u64,
}

struct Run {
    a: CachingAllocator,
    /// cuBLAS workspaces taken so far (the forward's thread, the autograd engine's).
    blas: [bool; 2],
    requested: u64,
    /// Requested bytes of each live allocation, by its block (a block holds one at a time).
    sizes: Vec<u64>,
    points: Vec<Raw>,
    peak: (u64, Moment),
    now: Moment,
}

impl Run {
    fn note(&mut self) {
        if self.a.allocated > self.peak.0 {
            self.peak = (self.a.allocated, self.now);
        }
        self.points.push(Raw {
            event: self.now,
            allocated: self.a.allocated,
            requested: self.requested,
            reserved: self.a.reserved,
        });
    }
    /// Thread `t`'s cuBLAS workspace at its first GEMM (0 the forward's, 1 the backward's):
    /// allocated and kept, and outside `requested`.
    #[inline(never)]
    fn blas(&mut self, t: usize, bytes: f64) {
        if !std::mem::replace(&mut self.blas[t], true) {
            let _kept = self.alloc(bytes, COMPUTE);
            self.requested = self.requested.saturating_sub(bytes as u64);
        }
    }
    fn at(&mut self, phase: Phase, block: i32, first: bool) {
        self.now = Moment { phase, block, first };
    }
    fn alloc(&mut self, bytes: f64, stream: Stream) -> Option<Allocation> {
        if bytes < 1.0 {
            return None;
        }
        let h = self.a.malloc(bytes as u64, stream);
        self.requested = self.requested.saturating_add(bytes as u64);
        let i = h.index();
        if i >= self.sizes.len() {
            self.sizes.resize(i + 1, 0);
        }
        self.sizes[i] = bytes as u64;
        Some(h)
    }
    fn alloc_all(&mut self, sizes: &[f64], stream: Stream) -> Vec<Allocation> {
        let mut out = Vec::with_capacity(sizes.len());
        self.alloc_into(sizes, stream, &mut out);
        out
    }
    fn alloc_into(&mut self, sizes: &[f64], stream: Stream, out: &mut Vec<Allocation>) {
        for &b in sizes {
            if let Some(h) = self.alloc(b, stream) {
                out.push(h);
            }
        }
    }
    fn free(&mut self, h: Option<Allocation>) {
        if let Some(h) = h {
            self.a.free(h);
            self.requested = self.requested.saturating_sub(std::mem::take(&mut self.sizes[h.index()]));
        }
    }
    fn free_all(&mut self, hs: Vec<Allocation>) {
        for h in hs {
            self.free(Some(h));
        }
    }
    fn free_drain(&mut self, hs: &mut Vec<Allocation>) {
        for h in hs.drain(..) {
            self.free(Some(h));
        }
    }
}

/// Loading: weights tensor by tensor (a QLoRA weight passes through its 16-bit form).
fn load_weights(r: &mut Run, s: &Shape) -> Vec<Allocation> {
    let mut weights = Vec::new();
    for _ in 0..s.layers {
        for &w in &s.block_weights {
            let t = r.alloc(s.load_transient.min(w * 4.0), COMPUTE);
            weights.extend(r.alloc(w, COMPUTE));
            r.free(t);
        }
    }
    weights.extend(r.alloc_all(&s.other_weights, COMPUTE));
    let b = r.alloc(s.load_broadcast, COMPUTE);
    r.note();
    r.free(b);
    let _persistent = r.alloc(s.persistent, COMPUTE);
    r.note();
    weights
}

/// One micro-batch: forward block by block, the loss, backward block by block; the first
/// backward of a step creates the gradients (`grads`).
fn micro_step(r: &mut Run, s: &Shape, first: bool, grads: &mut Vec<Allocation>) {
    // ---- forward ----
    r.at(Phase::Forward, 0, first);
    let root = r.alloc(s.root_unit, GATHER);
    // Each block's saved tensors, `s.saved.len()` slots a block (None: not kept, or empty).
    let stride = s.saved.len();
    let mut saved: Vec<Option<Allocation>> = Vec::with_capacity(s.layers * stride);
    let mut gathered: Vec<Allocation> = Vec::new();
    let mut cached: Vec<Allocation> = Vec::new();
    for l in 0..s.layers {
        r.at(Phase::Forward, l as i32, first);
        if s.gathered_unit > 0.0 {
            // The unit and its prefetched successor are gathered; the one before is freed.
            gathered.extend(r.alloc(s.gathered_unit, GATHER));
            if gathered.len() > 2 {
                let g = gathered.remove(0);
                r.free(Some(g));
            }
        }
        let keeps = l >= s.layers - s.layers_with_grad.min(s.layers);
        r.blas(0, s.blas_workspace);
        let d = r.alloc(s.dequant, COMPUTE);
        let ws = r.alloc(s.workspace, COMPUTE);
        for &b in &s.saved {
            let h = if keeps { r.alloc(b, COMPUTE) } else { None };
            saved.push(h);
        }
        if keeps {
            cached.extend(r.alloc(s.forward_cache, COMPUTE));
        }
        r.note();
        r.free(ws);
        r.free(d);
    }
    for g in gathered.drain(..) {
        r.free(Some(g));
    }
    // The final norm still belongs to the forward: what it keeps is live before the head runs.
    r.at(Phase::Forward, FINAL_NORM, first);
    let head = r.alloc(s.head_saved, COMPUTE);
    r.note();
    // ---- loss ----
    r.at(Phase::Loss, -1, first);
    let head_copy = r.alloc(s.head_copy, COMPUTE);
    let mut loss = Vec::with_capacity(8);
    loss_events(r, &s.loss.forward, &mut loss);
    // The forward returns: autocast's cache goes (accelerate and Fabric wrap the model's
    // forward in the autocast region; transformers' loss runs inside it).
    r.free_all(cached);
    // ---- backward ----
    let (grad_stream, unsharded_stream) = if s.grads_on_reduce { (REDUCE, COMPUTE) } else { (COMPUTE, REDUCE) };
    r.at(Phase::Backward, -1, first);
    // The loss's own backward runs first, before the head's gradients exist.
    loss_events(r, &s.loss.backward, &mut loss);
    let mut other_grads = Vec::new();
    if grads.is_empty() {
        other_grads = r.alloc_all(&s.other_grads, grad_stream);
    }
    let bucket = r.alloc(s.backward_bucket, COMPUTE);
    // The head's backward GEMM, the autograd engine's first.
    r.blas(1, s.blas_workspace);
    let mut ag = r.alloc(s.act_grad, COMPUTE);
    r.note();
    for h in loss {
        r.free(h);
    }
    r.free(head_copy);
    r.free(head);
    let mut new_grads = Vec::new();
    let mut rc = Vec::with_capacity(s.recompute.len());
    for l in (0..s.layers).rev() {
        r.at(Phase::Backward, l as i32, first);
        if l < s.layers - s.layers_with_grad.min(s.layers) {
            break;
        }
        let g_unit = if s.gathered_unit > 0.0 { r.alloc(s.gathered_unit, GATHER) } else { None };
        r.alloc_into(&s.recompute, COMPUTE, &mut rc);
        let d = r.alloc(s.dequant, COMPUTE);
        let next_ag = r.alloc(s.act_grad, COMPUTE);
        if grads.is_empty() {
            new_grads.extend(r.alloc_all(&s.block_grads, grad_stream));
        }
        let rs = if s.reduce_unit > 0.0 { r.alloc(s.reduce_unit, unsharded_stream) } else { None };
        let bw = r.alloc(s.backward_workspace, COMPUTE);
        r.note();
        r.free(bw);
        r.free(rs);
        r.free(d);
        r.free_drain(&mut rc);
        r.free(g_unit);
        r.free(ag);
        ag = next_ag;
        for h in &mut saved[l * stride..(l + 1) * stride] {
            r.free(h.take());
        }
    }
    if grads.is_empty() && !s.embed_grads.is_empty() {
        r.at(Phase::Backward, EMBEDDING, first);
        other_grads.extend(r.alloc_all(&s.embed_grads, grad_stream));
        r.note();
    }
    r.free(ag);
    r.free(bucket);
    r.free(root);
    for h in saved {
        r.free(h);
    }
    if grads.is_empty() {
        *grads = new_grads;
        grads.extend(other_grads);
    }
}

/// The loss path's events (logits.rs `LossProgram`): the figures are noted after each tensor
/// it makes; `live` holds its tensors in the order they were made.
fn loss_events(r: &mut Run, events: &[LossEvent], live: &mut Vec<Option<Allocation>>) {
    for e in events {
        match *e {
            LossEvent::Alloc(b) => {
                live.push(r.alloc(b, COMPUTE));
                r.note();
            }
            LossEvent::Free(k) => {
                let h = live.get_mut(k).and_then(Option::take);
                r.free(h);
            }
        }
    }
}

/// Replays load, the first step and one steady step.
pub fn replay(s: &Shape, cfg: Config) -> Replay {
    let load = Moment { phase: Phase::Load, block: -1, first: false };
    let mut r = Run {
        a: CachingAllocator::new(cfg),
        blas: [false; 2],
        requested: 0,
        sizes: Vec::with_capacity(256),
        points: Vec::with_capacity(8 * s.layers + 16),
        peak: (0, load),
        now: load,
    };
    let weights = load_weights(&mut r, s);
    for _ in 0..s.layers {
        r.alloc(s.master.0, COMPUTE);
    }
    r.alloc(s.master.1, COMPUTE);
    let mut grads: Vec<Allocation> = Vec::new();
    if s.grads_at_load {
        for _ in 0..s.layers {
            grads.extend(r.alloc_all(&s.block_grads, COMPUTE));
        }
        grads.extend(r.alloc_all(&s.other_grads, COMPUTE));
        grads.extend(r.alloc_all(&s.embed_grads, COMPUTE));
        r.note();
    }
    let mut states: Vec<Allocation> = Vec::new();
    for step in 0..2 {
        let first = step == 0;
        for _ in 0..s.micro_steps.max(1) {
            micro_step(&mut r, s, first, &mut grads);
        }
        // ---- optimizer step: states are created lazily by the first step() ----
        r.at(Phase::OptimizerStep, -1, first);
        if states.is_empty() {
            for _ in 0..s.layers {
                states.extend(r.alloc_all(&s.block_states, COMPUTE));
            }
            states.extend(r.alloc_all(&s.other_states, COMPUTE));
        }
        let tmp = r.alloc(s.step_temp, COMPUTE);
        r.note();
        r.free(tmp);
        // zero_grad(set_to_none=True) frees the gradients.
        if !s.grads_persist {
            let g = std::mem::take(&mut grads);
            r.free_all(g);
        }
    }
    // ---- save: the state dict is written to host memory tensor by tensor ----
    r.at(Phase::Save, -1, false);
    let gathered = r.alloc(s.save_gather, COMPUTE);
    let clones = r.alloc_all(&s.save_clones, COMPUTE);
    r.note();
    r.free(gathered);
    r.free_all(clones);
    let _ = weights;
    let (peak_allocated, peak) = r.peak;
    Replay {
        peak_allocated,
        peak_reserved: r.a.peak_reserved,
        peak_phase: peak.phase,
        peak_moment: peak,
        raw: r.points,
    }
}

/// At most MAX_POINTS points, evenly spread, keeping the first at the peak.
fn thin(points: &[Raw], peak: u64) -> Vec<Point> {
    let stride = points.len().div_ceil(MAX_POINTS - 1).max(1);
    let at_peak = points.iter().position(|p| p.allocated == peak);
    points
        .iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0 || Some(*i) == at_peak)
        .map(|(_, p)| Point {
            event: p.event.words(),
            phase: p.event.phase,
            allocated: p.allocated,
            reserved: p.reserved,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    const GIB: f64 = 1073741824.0;

    fn shape() -> Shape {
        Shape {
            layers: 4,
            block_weights: vec![64e6; 7],
            other_weights: vec![500e6, 500e6],
            block_grads: vec![64e6; 7],
            other_grads: vec![],
            embed_grads: vec![],
            block_states: vec![128e6; 7],
            other_states: vec![],
            master: (0.0, 0.0),
            grads_at_load: false,
            layers_with_grad: 4,
            saved: vec![100e6, 50e6, 200e6],
            recompute: vec![],
            workspace: 300e6,
            backward_workspace: 0.0,
            head_saved: 20e6,
            head_copy: 0.0,
            forward_cache: 0.0,
            backward_bucket: 0.0,
            loss: LossProgram {
                forward: vec![LossEvent::Alloc(400e6), LossEvent::Alloc(800e6), LossEvent::Free(1)],
                backward: vec![],
            },
            act_grad: 60e6,
            step_temp: 0.0,
            persistent: 0.0,
            gathered_unit: 0.0,
            root_unit: 0.0,
            reduce_unit: 0.0,
            grads_on_reduce: false,
            dequant: 0.0,
            load_transient: 0.0,
            load_broadcast: 0.0,
            save_gather: 0.0,
            save_clones: vec![],
            grads_persist: false,
            micro_steps: 1,
            blas_workspace: 0.0,
        }
    }

    /// cuBLAS's workspaces: one from the first forward GEMM, a second from the first backward
    /// GEMM, kept; in `allocated` (the caching allocator's), never in `requested` (tensors').
    #[test]
    fn blas_workspaces_are_allocated_twice_and_kept_but_not_requested() {
        let ws = 8519680.0;
        let without = replay(&shape(), Config::default());
        let with = replay(&Shape { blas_workspace: ws, ..shape() }, Config::default());
        let (a, b) = (without.phase_peaks(), with.phase_peaks());
        assert_eq!(a.len(), b.len());
        let rounded = |x: f64| (x / 512.0).ceil() as u64 * 512;
        for (p, q) in a.iter().zip(&b) {
            assert_eq!(p.requested, q.requested, "{:?}", q.phase);
            let kept = match (q.phase, q.first) {
                (Phase::Load, _) => 0,
                (Phase::Forward | Phase::Loss, true) => rounded(ws),
                _ => 2 * rounded(ws),
            };
            assert_eq!(q.peak - p.peak, kept, "{:?} first={}", q.phase, q.first);
        }
        assert_eq!(with.peak_allocated - without.peak_allocated, 2 * rounded(ws));
    }

    #[test]
    fn the_peak_is_named_and_reserved_is_at_least_allocated() {
        let r = replay(&shape(), Config::default());
        assert!(r.peak_reserved >= r.peak_allocated);
        assert!(!r.peak_event().is_empty());
        assert!(r.points().len() <= MAX_POINTS);
        // In the steady step the states (3.6 GB) created by the first step sit beside the
        // weights (2.8), four blocks' activations (1.4) and the loss path (1.2): 9.0 GB at the
        // loss, above the first step's 8.2 GB (weights, gradients, new states).
        assert_eq!(r.peak_phase, Phase::Loss, "{}", r.peak_event());
        assert!(!r.peak_event().starts_with("first step"));
        assert_eq!(r.peak_moment.text(Lang::En), r.peak_event());
        assert_eq!(r.peak_moment.text(Lang::Ru), "потери (логиты и их путь в fp32)");
        assert!(
            r.peak_allocated as f64 > 8.9e9 && (r.peak_allocated as f64) < 9.4e9,
            "{}",
            r.peak_allocated as f64 / GIB
        );
    }

    /// What a change to the test shape adds to each phase's most requested bytes.
    fn added_per_phase(change: impl Fn(&mut Shape)) -> impl Fn(Phase) -> f64 {
        let mut s = shape();
        change(&mut s);
        let (with, without) =
            (replay(&s, Config::default()).phase_peaks(), replay(&shape(), Config::default()).phase_peaks());
        let at = |pts: &[PhasePeak], phase: Phase| {
            pts.iter().filter(|p| p.phase == phase).map(|p| p.requested).max().unwrap()
        };
        move |phase| at(&with, phase) as f64 - at(&without, phase) as f64
    }

    #[test]
    fn autocast_s_cache_lives_through_the_forward_and_the_loss_and_goes_before_the_backward() {
        // 250 MB of cached weight copies per checkpointed trained block: all four at the loss,
        // none once the backward starts.
        let diff = added_per_phase(|s| s.forward_cache = 250e6);
        assert!((diff(Phase::Loss) - 1e9).abs() < 2e6, "{}", diff(Phase::Loss));
        assert!(diff(Phase::Backward).abs() < 2e6, "{}", diff(Phase::Backward));
    }

    #[test]
    fn zero_1_2_s_gradient_bucket_lives_through_the_backward_only() {
        let diff = added_per_phase(|s| s.backward_bucket = 500e6);
        assert!((diff(Phase::Backward) - 500e6).abs() < 2e6, "{}", diff(Phase::Backward));
        assert!(diff(Phase::OptimizerStep).abs() < 2e6, "{}", diff(Phase::OptimizerStep));
        assert!(diff(Phase::Forward).abs() < 2e6, "{}", diff(Phase::Forward));
    }

    #[test]
    fn optimizer_states_appear_at_the_first_step_not_at_load() {
        let r = replay(&shape(), Config::default());
        let points = r.points();
        let load = points.iter().find(|p| p.phase == Phase::Load).unwrap();
        let step = points.iter().find(|p| p.phase == Phase::OptimizerStep).unwrap();
        assert!(step.allocated > load.allocated + (4.0 * 7.0 * 128e6) as u64);
    }

    #[test]
    fn a_gathering_stream_holds_memory_of_its_own() {
        let mut s = shape();
        s.gathered_unit = 300e6;
        s.reduce_unit = 200e6;
        let with = replay(&s, Config::default());
        let without = replay(&shape(), Config::default());
        assert!(
            with.peak_reserved > without.peak_reserved + 600_000_000,
            "two gathered units and a reduce buffer on their own streams"
        );
    }

    #[test]
    fn fsdp_sharded_gradients_stay_reserved_on_the_reduce_stream_through_the_next_forward() {
        // One 400 MB sharded gradient per block: large enough that the next forward's saved
        // tensors (100, 50, 200 MB) would be carved out of its freed block on the compute stream.
        let mut s = shape();
        s.block_grads = vec![400e6];
        let grads = 4.0 * 400e6;
        let gap_at_steady_loss = |r: &Replay| {
            let p = r.points().into_iter().rfind(|p| p.phase == Phase::Loss && !p.event.starts_with("first")).unwrap();
            (p.reserved - p.allocated) as f64
        };
        s.grads_on_reduce = true;
        let fsdp = replay(&s, Config::default());
        assert!(
            gap_at_steady_loss(&fsdp) >= grads,
            "the freed gradients stay cached for the reduce-scatter stream: {} MB",
            gap_at_steady_loss(&fsdp) / 1e6
        );
        s.grads_on_reduce = false;
        let one_stream = replay(&s, Config::default());
        assert!(gap_at_steady_loss(&one_stream) < grads, "on one stream the next forward reuses them");
    }

    #[test]
    fn phases_come_in_the_run_order_and_requested_bytes_stay_within_the_blocks() {
        let r = replay(&shape(), Config::default());
        let order: Vec<(Phase, bool)> = r.phase_peaks().iter().map(|p| (p.phase, p.first)).collect();
        let step = [Phase::Forward, Phase::Loss, Phase::Backward, Phase::OptimizerStep];
        let mut want = vec![(Phase::Load, false)];
        want.extend(step.iter().map(|&p| (p, true)));
        want.extend(step.iter().map(|&p| (p, false)));
        want.push((Phase::Save, false));
        assert_eq!(order, want);
        assert!(r.phase_peaks().iter().all(|p| p.requested <= p.peak && p.requested > 0));
    }

    #[test]
    fn the_log_softmax_backward_peaks_after_the_loss_not_in_it() {
        let mut s = shape();
        s.loss.forward[1] = LossEvent::Alloc(200e6);
        s.loss.backward = vec![LossEvent::Alloc(800e6), LossEvent::Free(2)];
        let peaks = replay(&s, Config::default()).phase_peaks();
        let of = |ph: Phase| peaks.iter().find(|p| p.phase == ph && !p.first).unwrap().requested;
        assert!(of(Phase::Backward) > of(Phase::Loss) + 500_000_000);
    }

    #[test]
    fn zero3_gradient_partitions_and_master_copies_exist_from_the_load() {
        let mut s = shape();
        s.grads_at_load = true;
        s.grads_persist = true;
        s.master = (50e6, 0.0);
        let r = replay(&s, Config::default());
        let load = r.phase_peaks().into_iter().find(|p| p.phase == Phase::Load).unwrap();
        // Weights 7 × 64 MB × 4 blocks + 1 GB, gradients as much again, masters 4 × 50 MB.
        let want = 2.0 * (7.0 * 64e6 * 4.0) + 1e9 + 200e6;
        assert!((load.requested as f64 - want).abs() < 1e6, "{} vs {want}", load.requested);
    }

    #[test]
    fn many_events_thin_to_the_chart_limit_and_keep_the_peak() {
        let mut s = shape();
        s.layers = 200;
        s.layers_with_grad = 200;
        let r = replay(&s, Config::default());
        assert!(r.points().len() <= MAX_POINTS);
        assert!(r.points().iter().any(|p| p.allocated == r.peak_allocated));
    }
}
