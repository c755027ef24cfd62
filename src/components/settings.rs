//! The settings in view below the model: your GPU, the method and the run's size, as tables
//! of fields (fields.rs), each reading and writing one query key; the rest are in the
//! Advanced disclosure (advanced.rs).

use super::controls::Scale;
use super::fields::{
    field, image_encoder, lora, only, reads_text, section, sized_images, slider, speech, tower, Field, Kind,
};
use tunefit_core::query::Method;
use tunefit_core::Query;

/// Ranges of the sliders. The query format accepts wider ranges; these are what a person
/// fine-tuning a model plausibly uses, and the numeric input takes exact values within them.
pub mod ranges {
    use super::Scale;
    /// Powers of two (the values people use; the box takes any).
    pub const RANK: Scale = Scale::pow2(1.0, 256.0, 8);
    pub const BATCH: Scale = Scale::pow2(1.0, 512.0, 9);
    /// 128 to 128k tokens in powers of two.
    pub const SEQ: Scale = Scale::pow2(128.0, 131_072.0, 10);
    pub const GA: Scale = Scale::pow2(1.0, 1024.0, 10);
    pub const GPUS: Scale = Scale::pow2(1.0, 1024.0, 10);
    /// Nodes and model-parallel degrees: powers of two are what people use.
    pub const NODES: Scale = Scale::pow2(1.0, 512.0, 9);
    pub const DEGREE: Scale = Scale::pow2(1.0, 64.0, 6);
    /// Minutes from renting to the first step.
    pub const STARTUP_MIN: Scale = Scale::linear(0.0, 60.0, 60, false);
    /// Minutes of idle after a run: 0 to 4 hours in 5-minute steps (the box takes up to a week).
    pub const IDLE_MIN: Scale = Scale::linear(0.0, 240.0, 48, false);
    /// The project's days: 0 to a year in 5-day steps.
    pub const STORAGE_DAYS: Scale = Scale::linear(0.0, 365.0, 73, false);
    /// GB downloaded per run: 0 to 2 TB in 50 GB steps.
    pub const DOWNLOAD_GB: Scale = Scale::linear(0.0, 2000.0, 40, false);
    pub const BOTTLENECK: Scale = Scale::pow2(1.0, 4096.0, 12);
    pub const VIRTUAL_TOKENS: Scale = Scale::pow2(1.0, 1024.0, 10);
    /// 0 (an image model's head alone: SAM's mask decoder, a linear probe) to 200 blocks.
    pub const TRAIN_LAYERS: Scale = Scale::linear(0.0, 200.0, 200, true);
    /// 1M to 1T tokens in 1-2-5 steps.
    pub const TOKENS: Scale = Scale::one_two_five(1e6, 1e12, 18, true);
    pub const EPOCHS: Scale = Scale::one_two_five(0.1, 100.0, 9, false);
    pub const RUNS: Scale = Scale::one_two_five(1.0, 1000.0, 9, true);
    pub const CKPT_MIN: Scale = Scale::one_two_five(1.0, 1440.0, 9, true);
    /// 0 to 0.5 in steps of 0.01 (PEFT and torchtune configs use 0, 0.05 or 0.1).
    pub const LORA_DROPOUT: Scale = Scale::linear(0.0, 0.5, 50, false);
    /// Images per sample: 0 (text only) to 16 (the box takes up to 256).
    pub const IMAGES: Scale = Scale::linear(0.0, 16.0, 16, true);
}

fn adapter(q: &Query) -> bool {
    q.method == Method::Adapter
}
fn prompt(q: &Query) -> bool {
    q.method.uses_virtual_tokens()
}
fn freeze(q: &Query) -> bool {
    q.method == Method::Freeze
}

/// "Your GPU": the GPU the verdict is for, right after the model (the question people
/// bring), with how many and on how many nodes.
pub const YOUR_GPU: &[Field] = &[
    section("target-gpu-section", |s| s.sec_your_gpu),
    field("gpu", "gpu", |s| s.target_gpu, Kind::Gpu),
    slider("gpus", "gpus", |s| s.gpus, |s| s.u_gpus, ranges::GPUS),
    slider("nodes", "nodes", |s| s.nodes, |s| s.u_count, ranges::NODES),
];

/// The method and its size: the rank of a LoRA, the adapters' bottleneck, the virtual
/// tokens of prefix or prompt tuning, the layers a freeze run trains.
pub const METHOD: &[Field] = &[
    section("method-section", |s| s.sec_method),
    field("method", "method", |s| s.method, Kind::Choice(false)),
    only(slider("rank", "rank", |s| s.rank, |s| s.u_count, ranges::RANK), lora),
    only(slider("bottleneck", "bottleneck", |s| s.bottleneck, |s| s.u_count, ranges::BOTTLENECK), adapter),
    only(
        slider("virtual-tokens", "virtual_tokens", |s| s.virtual_tokens, |s| s.u_tokens, ranges::VIRTUAL_TOKENS),
        prompt,
    ),
    only(slider("train-layers", "train_layers", |s| s.train_layers, |s| s.u_layers, ranges::TRAIN_LAYERS), freeze),
];

/// What every estimate needs in view: the micro-batch, the sequence length and the job's size.
pub const RUN: &[Field] = &[
    section("run-section", |s| s.sec_run),
    only(slider("batch", "batch", |s| s.batch, |s| s.u_seqs, ranges::BATCH), reads_text),
    // An image encoder's micro-batch is images, Whisper's clips (one field shows: the same id).
    only(slider("batch", "batch", |s| s.batch, |s| s.u_images, ranges::BATCH), image_encoder),
    only(slider("batch", "batch", |s| s.batch, |s| s.u_clips, ranges::BATCH), speech),
    only(slider("seq", "seq", |s| s.seq, |s| s.u_tokens, ranges::SEQ), reads_text),
    only(slider("seq", "seq", |s| s.labels, |s| s.u_tokens, ranges::SEQ), speech),
    only(slider("images", "images", |s| s.images, |s| s.u_images, ranges::IMAGES), tower),
    only(field("image-res", "image_res", |s| s.image_res, Kind::Text), sized_images),
    only(slider("tokens", "tokens", |s| s.tokens, |s| s.u_tokens, ranges::TOKENS), reads_text),
    // Whisper's dataset is counted in clips.
    only(slider("dataset-clips", "tokens", |s| s.dataset_clips, |s| s.u_clips, ranges::TOKENS), speech),
    // An image encoder's dataset is counted in images (the core's `Settings::query`).
    only(slider("dataset-images", "tokens", |s| s.dataset_images, |s| s.u_images, ranges::TOKENS), image_encoder),
    slider("epochs", "epochs", |s| s.epochs, |s| s.u_count, ranges::EPOCHS),
];

const _: () = assert!(
    YOUR_GPU.len() <= super::fields::MAX_FIELDS
        && METHOD.len() <= super::fields::MAX_FIELDS
        && RUN.len() <= super::fields::MAX_FIELDS
);
