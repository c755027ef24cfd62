//! Diffusion transformers (image and video): how much GPU memory a LoRA or full fine-tune
//! takes, from the same allocator replay as the language models.
//!
//! A link whose `model` is one of `models::MODELS` is a diffusion job (`job::is_diffusion`);
//! its keys are `job::KEYS`. What decides the memory here and not in a language model: the
//! tokens come from the resolution and frames (`Job::image_tokens`), the text joins the
//! attention sequence in an MMDiT or is only cross-attended, the frozen text encoders and the
//! VAE are on the GPU or their outputs cached, the frozen transformer is stored in bf16, fp8,
//! int8 or NF4, and blocks can be swapped to host memory.

pub mod fix;
pub mod job;
pub mod memory;
pub mod models;
pub mod time;
mod unets;

pub use job::{is_diffusion, parse, Job};
pub use memory::DiffusionMemory;
pub use time::DiffusionTime;

use crate::diag::Lang;
use crate::solve::{verdict, Verdict};
use serde::Serialize;

/// How the run fits one GPU, with the language models' error band (solve.rs): the measured
/// diffusion set is too small to set a band of its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffusionFit {
    pub gpu: String,
    pub vram: u64,
    pub verdict: Verdict,
    pub band_low: u64,
    pub band_high: u64,
    /// The cheapest listed on-demand price of one such GPU, US dollars an hour, among the
    /// instances with at least the run's GPUs.
    pub usd_per_gpu_h: Option<f64>,
}

impl DiffusionFit {
    fn on(device: u64, g: &crate::dataset::Gpu, gpus: u64) -> DiffusionFit {
        let (verdict, band_low, band_high) = verdict(device, g.vram_bytes);
        DiffusionFit {
            gpu: g.id.to_string(),
            vram: g.vram_bytes,
            verdict,
            band_low,
            band_high,
            usd_per_gpu_h: time::cheapest(g.id, gpus),
        }
    }
}

/// What a diffusion link answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffusionReport {
    /// Every key with the value the run took, defaults included, as a link spells them.
    pub query: String,
    pub model: &'static str,
    pub model_name: &'static str,
    pub memory: DiffusionMemory,
    pub fit: Option<DiffusionFit>,
    /// On the chosen GPU: one micro-step, the run's hours and its cost.
    pub time: Option<DiffusionTime>,
    /// What the figures assume that no number says, in English (`assumptions`).
    pub assumptions: Vec<String>,
    /// On a GPU the run does not fit with the band: the changes that lower its memory, each
    /// re-evaluated (`fix::fixes`), notes in the report's language.
    pub fixes: Vec<crate::fix::Fix>,
    /// Every GPU of the dataset, smallest memory first, with its verdict and cheapest price.
    pub every_gpu: Vec<DiffusionFit>,
}

/// The report of a parsed job, its fixes' notes in English.
pub fn report(j: &Job) -> DiffusionReport {
    report_in(j, Lang::En)
}

/// The report with its fixes' notes in `lang` (the page's language).
pub fn report_in(j: &Job, lang: Lang) -> DiffusionReport {
    let memory = memory::estimate(j);
    let gpu = j.gpu.as_deref().and_then(crate::dataset::gpu);
    let fit = gpu.map(|g| DiffusionFit::on(memory.device, g, j.gpus));
    // The memory depends on the GPU only through cuBLAS's workspaces (memory/workspace.rs):
    // one estimate per workspace size, as with such a GPU chosen, and each GPU's verdict.
    let own = crate::memory::step_workspaces(gpu);
    let mut devices: Vec<(f64, u64)> = vec![(own, memory.device)];
    let mut every_gpu: Vec<DiffusionFit> = crate::dataset::gpus()
        .iter()
        .map(|g| {
            let ws = crate::memory::step_workspaces(Some(g));
            let device = match devices.iter().find(|(w, _)| *w == ws) {
                Some((_, d)) => *d,
                None => {
                    let d = memory::estimate(&Job { gpu: Some(g.id.to_string()), ..j.clone() }).device;
                    devices.push((ws, d));
                    d
                }
            };
            DiffusionFit::on(device, g, j.gpus)
        })
        .collect();
    every_gpu.sort_by_key(|f| f.vram);
    let time = gpu.map(|g| time::time(j, g));
    let fixes = fit.as_ref().map_or_else(Vec::new, |f| fix::fixes(j, &query(j), memory.device, f.vram, lang));
    DiffusionReport {
        query: query(j),
        model: j.model.id,
        model_name: j.model.name,
        assumptions: assumptions(j, Lang::En),
        memory,
        fit,
        time,
        fixes,
        every_gpu,
    }
}

/// Every key with the value the run took, as a link spells it: the link that reproduces it.
pub fn query(j: &Job) -> String {
    job::KEYS
        .iter()
        .filter(|(k, _)| *k != "v")
        .map(|(k, _)| (k, j.value(k)))
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", crate::query::percent_encode(&v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Parses and estimates a diffusion link.
pub fn evaluate(query: &str) -> Result<DiffusionReport, crate::diag::Error> {
    let j = parse(query).map_err(crate::diag::Error::Query)?;
    Ok(report(&j))
}

/// The text tokens, and the streams they are made of where there are several (HiDream).
fn text_note(j: &Job, ru: bool) -> String {
    match (j.model.text_streams, ru) {
        (0 | 1, false) => format!("{} text tokens (key text_tokens)", j.text_tokens),
        (0 | 1, true) => format!("{} токенов текста (ключ text_tokens)", j.text_tokens),
        (n, false) => format!("{} text tokens: {n} streams of {} (key text_tokens)", j.text_tokens, j.text_tokens / n),
        (n, true) => {
            format!("{} токенов текста: {n} потока по {} (ключ text_tokens)", j.text_tokens, j.text_tokens / n)
        }
    }
}

/// What follows an image's size in the assumptions: a video's frames, or that HiDream pads a
/// non-square latent to its 4,096 tokens (models.rs `padded_tokens`).
fn size_note(j: &Job, ru: bool) -> String {
    match (j.model.kind == models::Kind::Video, j.padded(), ru) {
        (true, ..) => format!(" × {}", j.frames),
        (false, false, _) => String::new(),
        (false, true, false) => format!(" (not square: padded to {} tokens)", j.model.padded_tokens),
        (false, true, true) => format!(" (не квадрат: дополняется до {} токенов)", j.model.padded_tokens),
    }
}

/// What the figures assume that no number on the report says, in `lang` (the CLI's and the
/// JSON's English, the page's language).
pub fn assumptions(j: &Job, lang: Lang) -> Vec<String> {
    let ru = lang.built() == Lang::Ru;
    let frames = size_note(j, ru);
    let (image, seq) = (j.image_tokens(), j.seq_tokens());
    let unet = j.model.between.is_some();
    let buckets = j.buckets.len();
    let context = crate::framework::CUDA_CONTEXT >> 20;
    let latents = j.latents == job::Latents::Cached;
    let dtype = if j.adapter_bytes == 4.0 { "fp32" } else { "bf16" };
    let lora = j.method == job::Method::Lora;
    let mut out = if ru {
        vec![
            if unet {
                format!(
                    "{} × {} пикс.: {image} пикселей латента на пример, на каждом уровне UNet вчетверо меньше",
                    j.width, j.height
                )
            } else {
                format!(
                    "{} × {} пикс.{frames}: {image} латентных токенов на пример, {seq} во внимании каждого блока",
                    j.width, j.height
                )
            },
            text_note(j, true),
            text_encoders(j, true),
            if latents {
                "латенты посчитаны заранее, VAE выгружен (ключ latents)"
            } else {
                "VAE кодирует каждый батч на GPU (ключ latents)"
            }
            .into(),
            if lora {
                format!("веса LoRA, их градиенты и состояния оптимизатора в {dtype} (ключ adapter_dtype)")
            } else {
                "полное дообучение в bf16: веса, градиенты и состояния оптимизатора (sd-scripts --full_bf16)".into()
            },
            format!("контекст CUDA {context} МиБ входит в цифру устройства"),
        ]
    } else {
        vec![
            if unet {
                format!(
                    "{} × {} px: {image} latent pixels per sample, a quarter as many at each level down the UNet",
                    j.width, j.height
                )
            } else {
                format!(
                    "{} × {} px{frames}: {image} latent tokens per sample, {seq} in each block's attention",
                    j.width, j.height
                )
            },
            text_note(j, false),
            text_encoders(j, false),
            if latents {
                "latents cached before training, VAE unloaded (key latents)"
            } else {
                "the VAE encodes each batch on the GPU (key latents)"
            }
            .into(),
            if lora {
                format!("LoRA weights, gradients and optimizer states in {dtype} (key adapter_dtype)")
            } else {
                "full fine-tuning in bf16: weights, gradients and optimizer states (sd-scripts --full_bf16)".into()
            },
            format!("CUDA context {context} MiB in the device figure"),
        ]
    };
    if j.gpus > 1 {
        out.push(match (j.shard, ru) {
            (job::Shard::Ddp, false) => format!(
                "{} GPUs with DDP, batch {} on each: every GPU holds the whole run, and the reducer's buckets a second copy of the trained gradients (keys gpus, shard)",
                j.gpus, j.batch
            ),
            (job::Shard::Ddp, true) => format!(
                "{} GPU с DDP, батч {} на каждом: каждый GPU держит весь прогон, а корзины редуктора ещё одну копию обучаемых градиентов (ключи gpus, shard)",
                j.gpus, j.batch
            ),
            (job::Shard::Fsdp, false) => format!(
                "{} GPUs with FSDP, batch {} on each: each keeps 1/{} of the transformer's weights, gradients and optimizer states, and gathers one block in full while it runs (keys gpus, shard)",
                j.gpus, j.batch, j.gpus
            ),
            (job::Shard::Fsdp, true) => format!(
                "{} GPU с FSDP, батч {} на каждом: каждый хранит 1/{} весов, градиентов и состояний оптимизатора трансформера и собирает целиком один блок, пока тот работает (ключи gpus, shard)",
                j.gpus, j.batch, j.gpus
            ),
        });
    }
    if buckets > 1 {
        out.insert(
            1,
            if ru {
                format!(
                    "{buckets} {} по соотношению сторон: память в самой большой, время в среднем по ним (ключ res)",
                    crate::diag::plural_ru(buckets as u64, "корзина", "корзины", "корзин")
                )
            } else {
                format!("{buckets} aspect buckets: the memory at the largest, the time their mean (key res)")
            },
        );
    }
    out
}

/// Where the text encoders are, in words (`assumptions`).
fn text_encoders(j: &Job, ru: bool) -> String {
    let bytes = j.text_weights.bytes();
    let how = match (j.method == job::Method::Lora, ru) {
        (true, _) => "LoRA: q, k, v, out",
        (false, false) => "every weight",
        (false, true) => "все веса",
    };
    match (j.text_encoders, ru) {
        (job::TextEncoders::Cached, false) => {
            "text encoder outputs cached before training, encoders unloaded (key text_enc)".into()
        }
        (job::TextEncoders::Cached, true) => {
            "выходы текстовых энкодеров посчитаны заранее, энкодеры выгружены (ключ text_enc)".into()
        }
        (job::TextEncoders::Gpu, false) => {
            format!("text encoders on the GPU, {bytes:.2} bytes a weight (keys text_enc, text_weights)")
        }
        (job::TextEncoders::Gpu, true) => {
            format!("текстовые энкодеры на GPU, {bytes:.2} байта на вес (ключи text_enc, text_weights)")
        }
        (job::TextEncoders::Train, false) => format!(
            "text encoders on the GPU, {bytes:.2} bytes a weight; the CLIP ones trained with the model ({how}), T5 frozen (key text_enc)"
        ),
        (job::TextEncoders::Train, true) => format!(
            "текстовые энкодеры на GPU, {bytes:.2} байта на вес; CLIP обучается вместе с моделью ({how}), T5 заморожен (ключ text_enc)"
        ),
    }
}
