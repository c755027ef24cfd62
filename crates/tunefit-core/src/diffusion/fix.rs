//! The changes that make a diffusion run fit the chosen GPU, each re-evaluated, in the order
//! of what the person gives up (the language models' fix.rs, for these keys): what costs
//! nothing (caching the text encoders' outputs and the latents), then time (recomputation,
//! offloaded checkpoints, blocks swapped to host memory), small quality risks (8-bit optimizer
//! states, 16-bit adapters, an fp8 or NF4 base), then the run itself (a smaller batch, a lower
//! resolution, LoRA instead of full fine-tuning), then money (more GPUs sharing the model
//! under FSDP). A change to a value already in force is never offered; one that does not
//! lower the memory is left out. When no single change fits, the free and time-only ones with
//! the small risks together are offered as one.

use super::job::{parse, Ckpt, Job, Latents, Method, Shard, Storage, TextEncoders};
use crate::diag::Lang;
use crate::fix::Fix;
use crate::solve::{verdict, Verdict};

/// What a change gives up: the fix's note, in words per language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gives {
    CacheText,
    CacheLatents,
    Recompute,
    OffloadCheckpoints,
    Swap,
    Adam8bit,
    Bf16Adapters,
    Fp8Base,
    Nf4Base,
    SmallerBatch,
    LowerRes,
    FreezeText,
    Lora,
    Fsdp,
    MoreGpus,
    Together,
}

impl Gives {
    pub fn text(self, lang: Lang) -> &'static str {
        use Gives as G;
        match (lang.built(), self) {
            (Lang::En, G::CacheText) => "cache the text encoders' outputs before training and unload them: same result",
            (Lang::En, G::CacheLatents) => {
                "cache the latents before training and unload the VAE: no new random crops or flips each epoch"
            }
            (Lang::En, G::Recompute) => "checkpoint every block: its forward runs again in the backward, about a third more compute",
            (Lang::En, G::OffloadCheckpoints) => {
                "keep the checkpointed blocks' inputs in host memory: PCIe copies each step"
            }
            (Lang::En, G::Swap) => "keep these blocks' weights in host memory (--blocks_to_swap): PCIe copies each pass",
            (Lang::En, G::Adam8bit) => "8-bit AdamW states (bitsandbytes): a small quality risk",
            (Lang::En, G::Bf16Adapters) => "LoRA weights and their states in bf16 instead of fp32: a small quality risk",
            (Lang::En, G::Fp8Base) => "the frozen weights in fp8 (--fp8_base): a small quality risk",
            (Lang::En, G::Nf4Base) => "the frozen weights in NF4 (QLoRA): a quality risk, slower steps",
            (Lang::En, G::SmallerBatch) => "a smaller batch: more steps for the same images",
            (Lang::En, G::LowerRes) => "a lower resolution: less detail learned",
            (Lang::En, G::FreezeText) => {
                "stop training the text encoders, their outputs cached: the prompts' encoding stays the base model's"
            }
            (Lang::En, G::Lora) => "LoRA adapters instead of training every weight",
            (Lang::En, G::Fsdp) => {
                "shard the transformer over these GPUs (FSDP) instead of a whole copy on each: more traffic between them"
            }
            (Lang::En, G::MoreGpus) => {
                "shard the transformer's weights, gradients and optimizer states over more GPUs (FSDP): more GPUs to rent"
            }
            (Lang::En, G::Together) => "these together",
            (Lang::Ru, G::CacheText) => {
                "посчитать выходы текстовых энкодеров заранее и выгрузить их: результат тот же"
            }
            (Lang::Ru, G::CacheLatents) => {
                "посчитать латенты заранее и выгрузить VAE: без новых случайных кропов и отражений каждую эпоху"
            }
            (Lang::Ru, G::Recompute) => {
                "чекпоинтинг каждого блока: его прямой проход повторяется в обратном, примерно на треть больше вычислений"
            }
            (Lang::Ru, G::OffloadCheckpoints) => {
                "держать входы чекпоинтов в памяти хоста: копирования по PCIe каждый шаг"
            }
            (Lang::Ru, G::Swap) => {
                "держать веса этих блоков в памяти хоста (--blocks_to_swap): копирования по PCIe каждый проход"
            }
            (Lang::Ru, G::Adam8bit) => "8-битные состояния AdamW (bitsandbytes): небольшой риск для качества",
            (Lang::Ru, G::Bf16Adapters) => {
                "веса LoRA и их состояния в bf16 вместо fp32: небольшой риск для качества"
            }
            (Lang::Ru, G::Fp8Base) => "замороженные веса в fp8 (--fp8_base): небольшой риск для качества",
            (Lang::Ru, G::Nf4Base) => "замороженные веса в NF4 (QLoRA): риск для качества, шаги медленнее",
            (Lang::Ru, G::SmallerBatch) => "батч меньше: больше шагов на те же изображения",
            (Lang::Ru, G::LowerRes) => "разрешение ниже: меньше деталей усваивается",
            (Lang::Ru, G::FreezeText) => {
                "не обучать текстовые энкодеры, их выходы посчитать заранее: кодирование промптов остаётся базовым"
            }
            (Lang::Ru, G::Lora) => "адаптеры LoRA вместо обучения всех весов",
            (Lang::Ru, G::Fsdp) => {
                "шардировать трансформер по этим GPU (FSDP) вместо полной копии на каждом: больше обмена между ними"
            }
            (Lang::Ru, G::MoreGpus) => {
                "шардировать веса, градиенты и состояния оптимизатора трансформера по большему числу GPU (FSDP): арендовать больше GPU"
            }
            (Lang::Ru, G::Together) => "всё это вместе",
        }
    }
}

/// Single changes in the order of what they give up, as the keys they set. Whether each is
/// allowed for this run is the parser's to say (`evaluate`).
fn candidates(j: &Job) -> Vec<(String, Gives)> {
    let mut out = Vec::new();
    let lora = j.method == Method::Lora;
    if j.text_encoders == TextEncoders::Gpu {
        out.push(("text_enc=cached".into(), Gives::CacheText));
    }
    if j.latents == Latents::Encode {
        out.push(("latents=cached".into(), Gives::CacheLatents));
    }
    if j.ckpt == Ckpt::None {
        out.push(("ckpt=full".into(), Gives::Recompute));
    }
    if j.ckpt != Ckpt::None && j.ckpt_every > 1 {
        out.push(("ckpt_every=1".into(), Gives::Recompute));
    }
    if j.ckpt != Ckpt::Offload {
        out.push(("ckpt=offload".into(), Gives::OffloadCheckpoints));
    }
    // The fewest blocks that fit, found by `swap` (the set is filled in there).
    if j.swap < j.model.block_count() {
        out.push((String::new(), Gives::Swap));
    }
    if j.optim.state_bytes(4.0) > 2.0 {
        out.push(("optim=adamw-8bit".into(), Gives::Adam8bit));
    }
    if lora && j.adapter_bytes > 2.0 {
        out.push(("adapter_dtype=bf16".into(), Gives::Bf16Adapters));
    }
    if lora && j.weights == Storage::Bf16 {
        out.push(("weights=fp8".into(), Gives::Fp8Base));
    }
    if lora && j.weights != Storage::Nf4 {
        out.push(("weights=nf4".into(), Gives::Nf4Base));
    }
    let mut b = j.batch / 2;
    while b >= 1 {
        out.push((format!("batch={b}"), Gives::SmallerBatch));
        b /= 2;
    }
    // Three quarters and half of each side of every bucket, on the 64-pixel grid the
    // trainers' buckets use.
    for (num, den) in [(3, 4), (1, 2)] {
        let side = |px: u64| (px * num / den / 64).max(1) * 64;
        if side(j.width) < j.width {
            let res: Vec<String> = j.buckets.iter().map(|&(w, h)| format!("{}x{}", side(w), side(h))).collect();
            out.push((format!("res={}", res.join(",")), Gives::LowerRes));
        }
    }
    if j.text_encoders == TextEncoders::Train {
        out.push(("text_enc=cached".into(), Gives::FreezeText));
    }
    if !lora {
        out.push(("method=lora".into(), Gives::Lora));
    }
    if j.gpus > 1 && j.shard == Shard::Ddp && j.swap == 0 {
        out.push(("shard=fsdp".into(), Gives::Fsdp));
    }
    // The fewest GPUs of one instance that fit, found by `more_gpus`.
    if j.gpus < MAX_GPUS && j.swap == 0 {
        out.push((String::new(), Gives::MoreGpus));
    }
    out
}

/// The most GPUs the key takes: one instance's.
const MAX_GPUS: u64 = 8;

/// The fewest GPUs, 2, 4 or 8, above the run's that fit with FSDP (8 when none does).
fn more_gpus(query: &str, j: &Job, vram: u64) -> Option<(String, u64)> {
    let mut last = None;
    for n in [2, 4, MAX_GPUS].into_iter().filter(|n| *n > j.gpus) {
        let set = format!("gpus={n}&shard=fsdp");
        let d = evaluate(query, &set)?;
        let done = fits(d, vram);
        last = Some((set, d));
        if done {
            break;
        }
    }
    last
}

/// The device memory of the run with `set` applied, if the parser takes it.
fn evaluate(query: &str, set: &str) -> Option<u64> {
    let j = parse(&format!("{query}&{set}")).ok()?;
    Some(super::memory::estimate(&j).device)
}

fn fits(device: u64, vram: u64) -> bool {
    verdict(device, vram).0 == Verdict::Fits
}

/// The fewest host-resident blocks that make the run fit (a transformer's; the parser
/// refuses `swap` on a UNet), or all of them when none does.
fn swap(query: &str, j: &Job, vram: u64) -> Option<(String, u64)> {
    let all = j.model.block_count();
    let at = |n: u64| evaluate(query, &format!("swap={n}"));
    let most = at(all)?;
    let (mut lo, mut hi) = (j.swap + 1, all);
    if !fits(most, vram) {
        return Some((format!("swap={all}"), most));
    }
    // Each block more in host memory lowers the memory: the first that fits.
    while lo < hi {
        let mid = (lo + hi) / 2;
        if at(mid).is_some_and(|d| fits(d, vram)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some((format!("swap={lo}"), at(lo)?))
}

/// The fixes for a run whose device memory is `device` on a GPU of `vram` bytes: none when it
/// fits with the band.
pub fn fixes(j: &Job, query: &str, device: u64, vram: u64, lang: Lang) -> Vec<Fix> {
    if fits(device, vram) {
        return Vec::new();
    }
    let fix = |set: String, device: u64, gives: Gives| Fix {
        set,
        device,
        fits: fits(device, vram),
        note: gives.text(lang).to_string(),
    };
    let mut out = Vec::new();
    let mut free = Vec::new();
    for (set, gives) in candidates(j) {
        let found = match gives {
            Gives::Swap => swap(query, j, vram),
            Gives::MoreGpus => more_gpus(query, j, vram),
            _ => evaluate(query, &set).map(|d| (set, d)),
        };
        let Some((set, d)) = found.filter(|(_, d)| *d < device) else { continue };
        if matches!(
            gives,
            Gives::CacheText
                | Gives::CacheLatents
                | Gives::Recompute
                | Gives::Adam8bit
                | Gives::Bf16Adapters
                | Gives::Fp8Base
        ) {
            free.push(set.clone());
        }
        out.push(fix(set, d, gives));
    }
    if !out.iter().any(|f| f.fits) && free.len() > 1 {
        let set = free.join("&");
        if let Some(d) = evaluate(query, &set) {
            out.push(fix(set, d, Gives::Together));
        }
    }
    out
}
