//! The three peaks (allocated, reserved, device) and host RAM from the terms, and the run's
//! tensors for the allocator replay.

use super::buffers::Buffers;
use super::logits::LossPath;
use super::parallel::PerGpu;
use super::run::Run;
use super::saved::Saved;
use super::states::States;
use super::{shape, Detail, MemoryBreakdown};
use crate::diag::Error;
use crate::query::{Method, ShardingStrategy};

const MIB: f64 = 1048576.0;

pub(super) struct Peaks {
    pub memory: MemoryBreakdown,
    pub detail: Detail,
    pub timeline_input: Box<shape::Input>,
    pub replay: Option<Box<super::timeline::Replay>>,
    pub cache_excess: f64,
    /// What the save's device state dict adds above the run's other peaks (in the overhead).
    pub saving: f64,
    /// What the vision tower's own pass adds above the step's and the save's peaks (in the
    /// overhead).
    pub tower_excess: f64,
}

/// `staged`: activations and logits of the pipeline stage that holds the most.
pub(super) fn peaks(
    r: &Run,
    st: &States,
    pg: &PerGpu,
    sv: &Saved,
    lp: &LossPath,
    staged: (f64, f64),
    bf: &Buffers,
) -> Result<Peaks, Error> {
    let (q, a, tr, res, tp, pp) = (r.q, &r.a, r.tr, r.res, r.tp, r.pp);
    let (act_bytes, tokens, zero_mixed, base_train_bytes, adapter_bytes) =
        (r.act_bytes, r.tokens, r.zero_mixed, r.base_train_bytes, r.adapter_bytes);
    let (paged, w, o, gathered, host, gpus_per_node) = (st.paged, pg.w, pg.o, pg.gathered, pg.host, r.gpus_per_node);
    let (layers_with_grad, layer_bytes, recompute) = (sv.layers_with_grad, sv.layer_bytes, sv.recompute);
    let (act_pre_pp, head_trains, host_act, blocks_saved, misc_saved) =
        (sv.act, sv.head_trains, sv.host_act, sv.blocks_saved, sv.misc_saved);
    let (loss_saved, (act, logits)) = (lp.loss_saved, staged);
    let (buffers, step_temp, g, dequant_buf, bucket_buf) = (bf.total, bf.step_temp, bf.g, bf.dequant, bf.bucket);
    let (paged_bytes, o_torch) = if paged { (o, 0.0) } else { (0.0, o) };
    let g_first = if head_trains || q.method == Method::Full {
        (a.vocab * a.hidden) as f64 * if zero_mixed { 2.0 } else { base_train_bytes } / tp
    } else {
        0.0
    };
    let grads_kept = super::run::grads_kept(q);
    let fb =
        if grads_kept { w + o_torch + g + act + logits } else { w + o_torch + (act + logits + g_first.min(g)).max(g) };
    // A loop that keeps the previous micro-batch's output until the next forward returns
    // (retained.rs): at that forward's end both outputs, everything it saved and what the old
    // graph still holds are live; shown as overhead when it is the larger moment.
    let ret = super::retained::retained(r, sv);
    let g_fwd = if grads_kept { g } else { 0.0 };
    let held = (w + o_torch + g_fwd + act + ret.output + ret.previous - fb).max(0.0);
    let peak_fb = fb + held + buffers;
    // With the step inside backward, its temporaries sit on top of the activations still
    // held there; otherwise ZeRO-1/2's gradient bucket is gone by the step (buffers.rs).
    let peak_step = if q.optim_in_bwd { peak_fb + step_temp } else { w + o_torch + g + step_temp + bf.after_backward };
    // The save and the vision tower's own pass (overhead when the larger moment).
    let m = moments(r, st, sv, peak_fb.max(peak_step), w + o_torch + bf.after_backward, g);
    let (state_dict, allocated, saving, tower_excess) = (m.state_dict, m.allocated, m.saving, m.tower);
    // The run's tensors, for the event-by-event replay through the allocator (timeline.rs).
    let timeline_input = Box::new(shape::Input {
        q: q.clone(),
        a: a.clone(),
        tr,
        tp,
        pp,
        act_bytes,
        tokens,
        w,
        g,
        o: o_torch,
        per_layer: (sv.per_layer, sv.unchecked),
        layers_with_grad,
        layer_bytes,
        recompute,
        act_pre_pp,
        autocast: sv.autocast,
        act,
        loss: lp.program.scaled(if lp.logits > 0.0 { logits / lp.logits } else { 0.0 }),
        step_temp,
        dequant: dequant_buf,
        bucket: bucket_buf,
        gathered: (gathered, pg.block_unit, pg.root),
        master_share: st.master_share(),
        state_dict,
        adapter_bytes,
        // FSDP1 switches to NO_SHARD on one rank (gradients all-reduced in place).
        grads_on_reduce: q.shard == ShardingStrategy::Fsdp && r.dp > 1.0,
        alloc: super::allocator::Config::of(res.alloc),
        blas_workspace: m.libraries / 2.0,
    });
    let cache = super::cache::cache(&timeline_input, act + logits + step_temp, r.cache_excess);
    let (fragmentation, replay) = (cache.bytes, cache.replay);
    let reserved = allocated + fragmentation;
    let nccl = if q.gpus > 1 { 512.0 * MIB } else { 0.0 };
    let context = res.profile.cuda_context as f64;
    let device = reserved + context + nccl + paged_bytes;
    // A person's own measurement of this setup (`mem_scale`, from `calibrate`) scales the
    // peaks; the breakdown keeps the model's terms and the difference shows as overhead.
    let k = q.mem_scale.unwrap_or(1.0);
    let (allocated, reserved, calibrated) = (allocated * k, reserved * k, device * (k - 1.0));
    let device = device * k;
    // Host RAM per node: offloaded states with DeepSpeed's 1.5× pinned staging factor, plus a
    // ~2 GiB Python/torch/CUDA process per GPU.
    // Offloaded activations sit in pinned buffers of their own size (no staging factor).
    let host_ram = host * gpus_per_node * 1.5 + host_act * gpus_per_node + gpus_per_node * 2048.0 * MIB;

    let vals = [w, g, o, act, logits, allocated, reserved, device, host_ram];
    if vals.iter().any(|x| !x.is_finite() || *x < 0.0 || *x > 1.8e19) {
        return Err(Error::Refused(crate::diag::Refusal::BeyondAddressable));
    }
    let memory = MemoryBreakdown {
        weights: w as u64,
        gradients: g as u64,
        optimizer: o as u64,
        activations: act as u64,
        logits: logits as u64,
        overhead: (fragmentation + context + nccl + buffers + m.libraries + held + saving + tower_excess + calibrated)
            .max(0.0) as u64,
        allocated: allocated as u64,
        reserved: reserved as u64,
        device: device as u64,
        host_ram: host_ram as u64,
        saved_for_backward: (blocks_saved + loss_saved + misc_saved) as u64,
        timeline: None,
        // In words only where a report is written out (`report::with_peak_phase`).
        peak_phase: None,
        peak_moment: peak_moment(r, tower_excess, sv.tower.backward, replay.as_deref()),
        replay_reserved: replay.as_ref().map(|_| reserved as u64),
    };
    let detail = Detail {
        peak_forward_backward: peak_fb,
        peak_step,
        model_states: w + g + o,
        per_layer_activation: layer_bytes,
        largest_module: a.modules().largest_module,
        paged_optimizer: paged_bytes,
        cuda_context: context,
        fragmentation,
        framework_buffers: buffers,
        non_torch: nccl,
    };
    Ok(Peaks { memory, detail, timeline_input, replay, cache_excess: cache.share, saving, tower_excess })
}

/// Where the allocated peak falls: the replay's moment, or the vision tower's own pass when
/// that is the run's peak (a moment the replay does not run).
fn peak_moment(
    r: &Run,
    tower_excess: f64,
    backward: bool,
    replay: Option<&super::timeline::Replay>,
) -> Option<super::timeline::Moment> {
    if tower_excess > 0.0 && r.a.layout.speech.is_some() {
        Some(super::timeline::Moment::audio_encoder(crate::arch::SpeechEncoder::trains(r.q)))
    } else if tower_excess > 0.0 && r.a.layout.sam().is_some() {
        Some(super::timeline::Moment::global_attention(backward))
    } else if tower_excess > 0.0 {
        Some(super::timeline::Moment::vision_tower(r.q.tower != crate::query::TowerTraining::Frozen))
    } else {
        replay.map(|x| x.peak_moment)
    }
}

/// The moments of a run besides its step: the checkpoint save and the vision tower's own pass.
struct Moments {
    /// The device state dict, bytes (0 without one).
    state_dict: f64,
    /// The run's allocated peak: the step's, the save's or the tower's.
    allocated: f64,
    /// What the save adds above the step's peak.
    saving: f64,
    /// What the tower's pass adds above both.
    tower: f64,
    /// cuBLAS's two workspaces (workspace.rs), in `allocated`.
    libraries: f64,
}

/// `step`: the step's allocated peak; `states`: weights, torch-held optimizer states and
/// buffers; `g`: the gradients.
fn moments(r: &Run, st: &States, sv: &Saved, step: f64, states: f64, g: f64) -> Moments {
    // The save, gradients freed by `zero_grad(set_to_none=True)`.
    let (state_dict, peak_save) = save_peak(r, st, states + g * f64::from(!r.q.set_to_none));
    let peak_tower = tower_peak(r, sv, states, g);
    // cuBLAS's workspaces are live from the first backward on: at each of these moments.
    let libraries = super::workspace::step_workspaces(r.q.gpu.as_deref().and_then(crate::dataset::gpu));
    Moments {
        state_dict,
        libraries,
        allocated: step.max(peak_save).max(peak_tower) + libraries,
        saving: (peak_save - step).max(0.0),
        tower: (peak_tower - step.max(peak_save)).max(0.0),
    }
}

/// The vision tower's own pass (vision.rs) on top of `states` (weights, optimizer states,
/// buffers): a frozen tower's forward comes first in the step, with the gradients only where
/// they stay allocated across steps; a trained tower's backward comes last, after every
/// gradient of the language model exists. 0 without images.
fn tower_peak(r: &Run, sv: &Saved, states: f64, g: f64) -> f64 {
    if sv.tower.working <= 0.0 {
        return 0.0;
    }
    let trains = if r.a.layout.speech.is_some() {
        crate::arch::SpeechEncoder::trains(r.q)
    } else if r.a.layout.sam().is_some() {
        sv.tower.backward
    } else {
        r.q.tower != crate::query::TowerTraining::Frozen
    };
    let grads = if super::run::grads_kept(r.q) {
        g
    } else if trains {
        // SAM's peak is its last block's backward, the encoder's first: only the gradients of
        // what comes after the encoder's other blocks exist yet.
        g * super::sam::grads_alive(r)
    } else {
        0.0
    };
    states + grads + sv.tower.working
}

/// The device state dict and the save's peak with it on top of `held` (0 without one).
fn save_peak(r: &Run, st: &States, held: f64) -> (f64, f64) {
    let sd = device_state_dict(r, st);
    (sd, if sd > 0.0 { held + sd } else { 0.0 })
}

/// A checkpoint whose full state dict is gathered on the device (`state_dict=device`), bytes:
/// FSDP1's `_full_post_state_dict_hook` clones every gathered parameter on the GPU unless
/// `offload_to_cpu` (torch/distributed/fsdp/_state_dict_utils.py @00c0db4e), which
/// `FullStateDictConfig()` leaves False (torch/distributed/fsdp/api.py @0aafd810), and the
/// clones live until the dict is written. Every parameter in its stored dtype: the frozen ones
/// as loaded, the trained ones in fp32 under mixed precision (FSDP's shards are the fp32
/// parameters, counted in the weights; DeepSpeed's fp32 master is twice the 16-bit copy
/// counted there). The whole model on each rank, tensor-parallel shards gathered too (`full_tensor()`),
/// before any parameter offload; a pipeline stage saves its own layers.
fn device_state_dict(r: &Run, st: &States) -> f64 {
    if r.q.gathers_state_dict_on_device() {
        (st.weights_full + st.master_full / 2.0) / r.pp
    } else {
        0.0
    }
}
