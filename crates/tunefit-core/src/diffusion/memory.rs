//! The memory of one diffusion fine-tuning run on one GPU: the terms a person reads, and the
//! same tensors replayed through the caching allocator (memory/timeline.rs) for `allocated`,
//! `reserved` and the moment of the peak.
//!
//! What a step holds, as diffusers' training scripts run it (train_dreambooth_lora_flux.py
//! @58eb52c0): the transformer's weights in their storage dtype (bitsandbytes/quanto/fp8
//! layers dequantize one weight to bf16 for its matmul); the trained parameters, their
//! gradients and optimizer states; under gradient checkpointing
//! (`torch.utils.checkpoint.checkpoint(block, ..., use_reentrant=False)` per block, diffusers
//! `_gradient_checkpointing_func`) each block's inputs — the image and text hidden states —
//! until its backward, and during the backward one block rebuilt with everything it saves
//! (dit_probe.py's bytes per token); without checkpointing every block's saved set. The loss
//! is an MSE on the latents in fp32 (`F.mse_loss(model_pred.float(), target.float())`).

use super::job::{Ckpt, Job, Latents, Method, Shard, TextEncoders};
use super::models::{BlockKind, Coef, DitModel, Role, Saved};
use crate::memory::allocator::Config;
use crate::memory::shape::pack_small;
use crate::memory::timeline::{self, Phase, Shape};
use serde::Serialize;

/// Bytes of each term at the step's peak, and the replay's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffusionMemory {
    /// The transformer's weights on the GPU (swapped blocks excluded).
    pub weights: u64,
    pub text_encoders: u64,
    pub vae: u64,
    /// Trained parameters kept apart from the weights (LoRA; 0 for full fine-tuning, whose
    /// trained parameters are the weights).
    pub adapters: u64,
    pub gradients: u64,
    /// Optimizer states, and the EMA copy of the trained parameters when there is one.
    pub optimizer: u64,
    /// Held for backward at the peak: checkpointed blocks' inputs (or every block's saved
    /// set), the rebuilt block, the gradients flowing between blocks, the loss's tensors.
    pub activations: u64,
    /// Transients at the step's peak: a dequantized weight, a swapped block in flight, the
    /// MLP's backward.
    pub workspace: u64,
    /// The VAE encoder's feature maps at the step's start (latents encoded each step), apart:
    /// they are freed before the forward, so they are alive at the peak only when they set it.
    pub vae_encode: u64,
    /// `torch.cuda.max_memory_allocated` and `max_memory_reserved` from the replay.
    pub allocated: u64,
    pub reserved: u64,
    /// `reserved` plus the CUDA context: what nvidia-smi shows.
    pub device: u64,
    pub peak_phase: Phase,
    /// The VAE's encoding at the step's start sets the peak, before the replay's events
    /// (`latents=encode`; the page's chart says so beside the curve).
    pub vae_sets_peak: bool,
    /// The step's tokens: image (or video) tokens per sample and the attention sequence.
    pub image_tokens: u64,
    pub seq_tokens: u64,
    /// Trained parameters.
    pub trainable: u64,
}

/// The record of `saved` for this job's training, where `beyond_attention` says whether
/// the job's LoRA reaches linears other than the attention's among those the record covers.
fn pick(j: &Job, saved: &Saved, beyond_attention: bool) -> Coef {
    match j.method {
        Method::Full => saved.full,
        Method::Lora if beyond_attention => saved.lora_all,
        Method::Lora => saved.lora_attn,
    }
}

/// What dit_probe.py (unet_probe.py) recorded of one block of `kind` for this job's training.
pub(super) fn probed(j: &Job, k: &BlockKind) -> Coef {
    // A block whose only LoRA'd linears are its attention's saves what attention LoRA saves.
    pick(j, &k.saved, k.linears.iter().any(|l| l.role != Role::Attn && j.targets.on(l.role)))
}

/// What a UNet's ops between its blocks record for this job: `outside` or `held_ckpt`
/// (unet_probe.py's `lora_all` LoRA'd `proj_in`/`proj_out` there, the only linears outside).
pub(super) fn probed_between(j: &Job, saved: &Saved) -> Coef {
    pick(j, saved, j.targets.on(Role::Proj))
}

/// Bytes per sample held outside the blocks of a UNet at the step's peak (0 for a
/// transformer): under checkpointing the blocks' inputs with the ops' saved tensors between
/// them; without, those ops' saved tensors; offloaded, the latter (the inputs in host memory).
pub(super) fn between_per_sample(j: &Job) -> f64 {
    let Some(bt) = j.model.between else { return 0.0 };
    let c = match j.ckpt {
        Ckpt::Full => probed_between(j, &bt.held_ckpt),
        Ckpt::None | Ckpt::Offload => probed_between(j, &bt.outside),
    };
    c.image * j.image_tokens() as f64 + c.text * j.text_tokens as f64
}

/// Bytes one block of `kind` saves for backward for one sample of this job.
pub(super) fn saved_per_sample(j: &Job, k: &BlockKind) -> f64 {
    let c = probed(j, k);
    c.image * j.image_tokens() as f64 + c.text * j.text_tokens as f64
}

/// Sizes every event of the replay is built from, per block averaged over the kinds so that
/// the totals over the blocks are exact.
struct Sizes {
    blocks: u64,
    /// The share of the blocks' weight bytes on the GPU (the rest swapped to host memory).
    resident: f64,
    block_weights: Vec<f64>,
    block_trained: Vec<f64>,
    /// Bytes of a trained parameter, and of its gradient (the same dtype).
    param_bytes: f64,
    state_bytes: f64,
    /// Per block: held inputs under checkpointing, else its saved set.
    held: f64,
    /// The rebuilt block's saved set (checkpointing), as its tensors.
    rebuilt: Vec<f64>,
    act_grad: f64,
    mlp_hidden: f64,
    /// The MLP's backward: the gradients of its hidden state before and after the GELU,
    /// both alive while the GELU's backward runs.
    mlp_backward: f64,
    dequant: f64,
    swap_in_flight: f64,
    loss: f64,
    companions: f64,
    vae: f64,
    vae_encode: f64,
    trainable: u64,
    /// LoRA parameters outside the blocks (a UNet's `proj_in`/`proj_out`).
    outer_trained: f64,
    /// Trained text-encoder parameters (`text_enc=train`).
    text_trained: f64,
}

/// The widest MLP hidden state of one sample, elements: a linear's width over the rows it runs
/// on (a stream's tokens, a UNet level's pixels, a routed expert's share of the tokens).
fn mlp_hidden(j: &Job) -> f64 {
    let mlps = j.model.blocks.iter().flat_map(|k| k.linears).filter(|l| matches!(l.role, Role::Mlp | Role::Fused));
    mlps.map(|l| l.out.max(l.inp) as f64 * j.rows(l)).fold(0.0, f64::max)
}

fn sizes(j: &Job) -> Sizes {
    let m: &DitModel = j.model;
    let blocks = m.block_count();
    let all: f64 = m.blocks.iter().map(|k| k.count as f64 * j.block_bytes(k)).sum();
    let resident = if all > 0.0 { 1.0 - j.swapped_bytes() / all } else { 1.0 };
    let (b, seq, h) = (j.samples() as f64, j.seq_tokens() as f64, m.hidden as f64);
    let wbytes = j.weights.bytes();
    let lora = j.method == Method::Lora;
    // The trained parameters' dtype: LoRA as the job says; full fine-tuning in bf16
    // (sd-scripts `--full_bf16`, the recipe that fits one GPU).
    let pbytes = if lora { j.adapter_bytes } else { 2.0 };
    let mut block_weights = Vec::new();
    let mut block_trained = Vec::new();
    let mut trainable = 0u64;
    let mut saved = 0.0;
    // What the blocks keep under checkpointing beyond the held inputs: the saved sets of
    // those `ckpt_every` leaves unchecked.
    let mut unchecked = 0.0;
    let mut largest = 0u64;
    let mut rebuilt_per_sample: f64 = 0.0;
    for k in m.blocks {
        let share = k.count as f64 / blocks as f64;
        for l in k.linears {
            for _ in 0..l.count {
                block_weights.push(share * (l.inp * l.out) as f64 * wbytes);
                if lora && j.targets.on(l.role) {
                    block_trained.push(share * (j.rank * (l.inp + l.out)) as f64);
                } else if !lora {
                    block_trained.push(share * (l.inp * l.out) as f64);
                }
            }
        }
        let other = (k.params - k.linear_params()) as f64;
        block_weights.push(share * other * 2.0);
        if !lora {
            block_trained.push(share * other);
        }
        trainable += if lora { k.count * k.lora_params(j.rank, |r| j.targets.on(r)) } else { k.count * k.params };
        saved += k.count as f64 * saved_per_sample(j, k);
        unchecked += (k.count - j.checkpointed(k.count)) as f64 * saved_per_sample(j, k);
        rebuilt_per_sample = rebuilt_per_sample.max(saved_per_sample(j, k));
        largest = largest.max(k.largest_linear());
    }
    // LoRA on a UNet's `proj_in`/`proj_out`, outside the blocks.
    let outer_trained: f64 = if lora {
        m.outer.iter().filter(|l| j.targets.on(l.role)).map(|l| (j.rank * (l.inp + l.out) * l.count) as f64).sum()
    } else {
        0.0
    };
    trainable += if lora { outer_trained as u64 } else { m.non_block };
    let text = text_training(j);
    trainable += text.params as u64;
    let stream = seq * h * 2.0 * b;
    let mlp = mlp_hidden(j) * 2.0 * b;
    // Offloaded checkpoints leave one block's inputs on the GPU, the one being rebuilt (its
    // copy back counts with the rebuilt block). A UNet's tensors between the blocks are
    // spread over them, so that the replay holds them as the forward makes them.
    // The trained text encoders' saved tensors live from the step's start to its end: spread
    // over the blocks as a UNet's held tensors are.
    let between = (between_per_sample(j) + text.saved_per_sample) * b / blocks as f64;
    let ck = j.checkpointed_share();
    let held = between
        + match (j.ckpt, m.between.is_some()) {
            (Ckpt::Full, false) => ck * stream + unchecked / blocks as f64 * b,
            (Ckpt::Offload, false) => unchecked / blocks as f64 * b,
            (Ckpt::Full | Ckpt::Offload, true) => 0.0,
            (Ckpt::None, _) => saved / blocks as f64 * b,
        };
    // The rebuilt block as the tensors it keeps: about one (sequence × hidden) bf16 tensor each.
    let rebuilt = if j.ckpt != Ckpt::None {
        let total = rebuilt_per_sample * b + if j.ckpt == Ckpt::Offload { stream } else { 0.0 };
        let n = (total / stream).round().max(1.0) as usize;
        vec![total / n as f64; n]
    } else {
        Vec::new()
    };
    let companions = companions(j);
    let vae = match (j.latents, m.vae) {
        (Latents::Encode, Some(v)) => v.params as f64 * 2.0,
        _ => 0.0,
    };
    // AutoencoderKL's encoder at full resolution: 128 channels; a ResNet block holds its
    // input, the normed tensor and the conv output at once (no grad).
    let vae_encode = if vae > 0.0 { 3.0 * 128.0 * (j.width * j.height) as f64 * 2.0 * b } else { 0.0 };
    let latent = (j.image_tokens() * m.latent_channels) as f64 * b;
    Sizes {
        blocks,
        resident,
        block_weights,
        block_trained,
        param_bytes: pbytes,
        state_bytes: j.optim.state_bytes(pbytes),
        held,
        rebuilt,
        act_grad: stream,
        mlp_hidden: mlp,
        mlp_backward: 2.0 * mlp,
        dequant: if j.weights.quantized() { largest as f64 * 2.0 } else { 0.0 },
        // The block being copied in: the last kind's, where swapping starts.
        swap_in_flight: if j.swap > 0 { m.blocks.last().map_or(0.0, |k| j.block_bytes(k)) } else { 0.0 },
        // model_pred.float() and target.float(), then the squared difference.
        loss: 3.0 * latent * 4.0,
        companions,
        vae,
        vae_encode,
        trainable,
        outer_trained,
        text_trained: text.params,
    }
}

/// The text encoders' weights on the GPU.
fn companions(j: &Job) -> f64 {
    match j.text_encoders {
        TextEncoders::Gpu | TextEncoders::Train => {
            j.model.text_encoders.iter().map(|c| c.params as f64 * j.text_weights.bytes()).sum()
        }
        TextEncoders::Cached => 0.0,
    }
}

/// Bytes of every trained parameter in its training dtype: the LoRA weights, and an EMA copy.
fn trained_bytes(s: &Sizes) -> f64 {
    s.trainable as f64 * s.param_bytes
}

/// The transformer's trained parameters (the text encoders' apart): what the collectives
/// reduce and what FSDP shards.
fn transformer_trained(s: &Sizes) -> f64 {
    s.trainable as f64 - s.text_trained
}

/// The transformer's weights as stored, every block on the GPU (swapping aside).
fn transformer_weights(s: &Sizes, j: &Job) -> f64 {
    s.block_weights.iter().sum::<f64>() * s.blocks as f64 + j.model.non_block as f64 * 2.0
}

/// How a multi-GPU run divides the transformer among its GPUs (`gpus`, `shard`).
struct Split {
    /// The share of the transformer's weights, trained parameters, gradients and optimizer
    /// states each GPU keeps: 1 / gpus under FSDP, 1 otherwise.
    share: f64,
    /// FSDP: one block gathered in full while it runs, the root unit (the transformer's
    /// weights outside the blocks, gathered from the forward to the end of the backward), one
    /// block's unsharded gradients before their reduce-scatter.
    gathered: f64,
    root: f64,
    reduce: f64,
    /// DDP: the reducer's buckets, a second copy of every gradient.
    bucket: f64,
}

fn split(s: &Sizes, j: &Job) -> Split {
    let none = Split { share: 1.0, gathered: 0.0, root: 0.0, reduce: 0.0, bucket: 0.0 };
    if j.gpus < 2 {
        return none;
    }
    match j.shard {
        Shard::Ddp => Split { bucket: transformer_trained(s) * s.param_bytes, ..none },
        // torch FSDP with a per-block wrap policy (accelerate's transformer-layer policy).
        Shard::Fsdp => Split {
            share: 1.0 / j.gpus as f64,
            gathered: s.block_weights.iter().sum(),
            root: j.model.non_block as f64 * 2.0,
            reduce: s.block_trained.iter().sum::<f64>() * s.param_bytes,
            bucket: 0.0,
        },
    }
}

/// The run as timeline events: blocks averaged over the kinds, the swapped blocks' weights
/// in host memory with one block in flight on the copy stream.
fn shape(s: &Sizes, j: &Job) -> Shape {
    let resident = s.resident;
    let lora = j.method == Method::Lora;
    let sp = split(s, j);
    let share = sp.share;
    let mut sh = Shape {
        // cuBLAS's workspaces on the job's GPU (memory/workspace.rs).
        blas_workspace: crate::memory::workspace::blas_workspace(j.gpu.as_deref().and_then(crate::dataset::gpu)),
        layers: s.blocks as usize,
        // Sub-MiB tensors one block makes together are packed as the language models' are
        // (memory/shape.rs `pack_small`): the small pool carves them from the same segments.
        block_weights: pack_small(s.block_weights.iter().map(|w| w * resident * share).collect()),
        other_weights: [j.model.non_block as f64 * 2.0 * share, s.companions, s.vae]
            .into_iter()
            .filter(|w| *w > 0.0)
            .collect(),
        block_grads: pack_small(s.block_trained.iter().map(|p| p * s.param_bytes * share).collect()),
        block_states: pack_small(
            s.block_trained.iter().map(|p| p * s.state_bytes * share).filter(|b| *b > 0.0).collect(),
        ),
        layers_with_grad: s.blocks as usize,
        saved: vec![s.held],
        recompute: s.rebuilt.clone(),
        workspace: s.mlp_hidden,
        backward_workspace: s.mlp_backward,
        head_saved: s.loss,
        act_grad: s.act_grad,
        dequant: s.dequant,
        gathered_unit: s.swap_in_flight.max(sp.gathered),
        root_unit: sp.root,
        reduce_unit: sp.reduce,
        grads_on_reduce: sp.reduce > 0.0,
        persistent: sp.bucket,
        micro_steps: 1,
        ..Shape::default()
    };
    if j.ema {
        // EMAModel's shadow copies are made with the model, before the first step.
        sh.other_weights.push(trained_bytes(s));
    }
    // Trained parameters outside the blocks: a full run's non-block weights, LoRA on a UNet's
    // projections, and the trained text encoders either way.
    // The transformer's share splits under FSDP; the text encoders are not wrapped.
    let outside = if lora { s.outer_trained } else { j.model.non_block as f64 } * share + s.text_trained;
    if outside > 0.0 {
        sh.other_grads = vec![outside * s.param_bytes];
        sh.other_states = vec![outside * s.state_bytes].into_iter().filter(|b| *b > 0.0).collect();
    }
    if lora {
        // The LoRA weights themselves, made when the adapter is added.
        sh.other_weights.push(sharded_trained(s, share) * s.param_bytes);
    }
    sh
}

/// Trained parameters one GPU keeps: the transformer's share, and the text encoders' whole.
fn sharded_trained(s: &Sizes, share: f64) -> f64 {
    transformer_trained(s) * share + s.text_trained
}

/// The text encoders a run trains (`text_enc=train`): their trained parameters, and what
/// their layers keep for backward per sample.
pub(super) struct TextTraining {
    pub params: f64,
    pub saved_per_sample: f64,
}

/// diffusers' `--train_text_encoder` trains the CLIP encoders (LoRA on each layer's q, k, v
/// and out projections at the run's rank, or every weight), T5 stays frozen. A CLIP layer
/// keeps about 17·hidden bf16 values per token for backward: its two LayerNorms' inputs, q, k,
/// v and the attention output, the out projection's and the MLP's inputs, and the MLP's 4·h
/// hidden state before and after quick-GELU (CLIPEncoderLayer); 77 tokens make it megabytes.
pub(super) fn text_training(j: &Job) -> TextTraining {
    if j.text_encoders != TextEncoders::Train {
        return TextTraining { params: 0.0, saved_per_sample: 0.0 };
    }
    let trained = j.model.text_encoders.iter().filter_map(|c| c.tower.map(|t| (c, t)));
    let (mut params, mut saved) = (0.0, 0.0);
    for (c, t) in trained {
        params += match j.method {
            Method::Lora => (t.layers * 4 * j.rank * 2 * t.hidden) as f64,
            Method::Full => c.params as f64,
        };
        saved += (t.layers * 17 * t.hidden * j.text_tokens) as f64 * 2.0;
    }
    TextTraining { params, saved_per_sample: saved }
}

/// What the collectives of a multi-GPU run move, bytes (time.rs): every trained parameter's
/// gradient, and the transformer's weights as stored.
pub(super) struct Moved {
    pub trained_bytes: f64,
    pub transformer_bytes: f64,
}

pub(super) fn moved(j: &Job) -> Moved {
    let s = sizes(j);
    Moved { trained_bytes: transformer_trained(&s) * s.param_bytes, transformer_bytes: transformer_weights(&s, j) }
}

/// The run's memory over the load and one step, as the allocator replay saw it (the page's
/// chart): its points, and the moment allocated peaked. The VAE's encoding at the step's
/// start (`latents=encode`) is not an event of the replay: `estimate` adds it beside.
pub fn timeline(j: &Job) -> (Vec<timeline::Point>, timeline::Moment) {
    let rp = timeline::replay(&shape(&sizes(j), j), Config::default());
    (rp.points(), rp.peak_moment)
}

/// The run's memory on one GPU.
pub fn estimate(j: &Job) -> DiffusionMemory {
    let s = sizes(j);
    let sh = shape(&s, j);
    let rp = timeline::replay(&sh, Config::default());
    let n = s.blocks as f64;
    let sp = split(&s, j);
    let kept = sharded_trained(&s, sp.share);
    let weights = (s.block_weights.iter().sum::<f64>() * n * s.resident + j.model.non_block as f64 * 2.0) * sp.share;
    let adapters = if j.method == Method::Lora { kept * s.param_bytes } else { 0.0 };
    // DDP's buckets are a second copy of the gradients.
    let gradients = kept * s.param_bytes + sp.bucket;
    let optimizer = kept * s.state_bytes + if j.ema { trained_bytes(&s) } else { 0.0 };
    let rebuilt: f64 = s.rebuilt.iter().sum();
    // At the backward's peak the loss's tensors are already freed.
    let activations = s.held * n + rebuilt + 2.0 * s.act_grad;
    // FSDP's gathered block with its prefetched successor, the root unit, and a block's
    // gradients before their reduce-scatter.
    let workspace = s.dequant + s.swap_in_flight + s.mlp_backward + 2.0 * sp.gathered + sp.root + sp.reduce;
    // The VAE encodes before the forward, when only the persistent tensors are alive.
    let persistent = weights + s.companions + s.vae + adapters + optimizer;
    // From the first step's backward on, cuBLAS's two workspaces sit beside them (the
    // replay's peaks include them).
    let libraries = crate::memory::workspace::step_workspaces(j.gpu.as_deref().and_then(crate::dataset::gpu));
    let vae_peak = persistent + s.vae_encode + libraries;
    let allocated = (rp.peak_allocated as f64).max(vae_peak);
    let cache = rp.peak_reserved.saturating_sub(rp.peak_allocated);
    // When the VAE's encoder sets the peak, it is the step's start, before the forward.
    let vae_sets_peak = vae_peak > rp.peak_allocated as f64;
    let allocated = allocated as u64;
    let reserved = allocated + cache;
    DiffusionMemory {
        weights: weights as u64,
        text_encoders: s.companions as u64,
        vae: s.vae as u64,
        adapters: adapters as u64,
        gradients: gradients as u64,
        optimizer: optimizer as u64,
        activations: activations as u64,
        workspace: workspace as u64,
        vae_encode: s.vae_encode as u64,
        allocated,
        reserved,
        device: reserved + crate::framework::CUDA_CONTEXT,
        peak_phase: if vae_sets_peak { Phase::Forward } else { rp.peak_phase },
        vae_sets_peak,
        image_tokens: j.image_tokens(),
        seq_tokens: j.seq_tokens(),
        trainable: s.trainable,
    }
}
