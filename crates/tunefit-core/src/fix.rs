//! The smallest changes that make a configuration fit the chosen GPU with the memory model's
//! error band, each re-evaluated, ordered by what the person gives up: where the checkpoint's
//! state dict is gathered and kernels first (nothing),
//! then recomputation (time), then smaller micro-batches at the same effective batch (time),
//! an 8-bit optimizer and a leaner framework (small quality risks), a lighter method (quality),
//! more GPUs (money), a shorter sequence (data). A change to a value already in force is never
//! offered.

use crate::diag::Lang;
use crate::query::{Checkpointing, Framework, Method, Optimizer, Query, ShardingStrategy};
use crate::settings::Settings;
use crate::solve::Verdict;
use serde::Serialize;

/// One change and what it gives.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fix {
    /// The change as query keys: `key=value` pairs joined by `&` (apply them to the link).
    pub set: String,
    /// Per-GPU device memory after the change, bytes.
    pub device: u64,
    /// True when the change alone makes the chosen GPU fit with the error band.
    pub fits: bool,
    /// What the person gives up, in words (`Gives::text` in the language asked for).
    pub note: String,
}

/// What a change gives up: the fix's note, put in words per language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gives {
    HostStateDict,
    ChunkedLoss,
    Recompute,
    SmallerBatches,
    SixteenBit,
    Adam8bit,
    Unsloth,
    Lora,
    Qlora,
    MoreGpus,
    ShorterSeq,
    SmallerImages,
    DecoderOnly,
}

impl Gives {
    pub fn text(self, lang: Lang) -> &'static str {
        use Gives as G;
        match (lang.built(), self) {
            (Lang::En, G::HostStateDict) => {
                "gather the checkpoint's state dict into CPU memory (FullStateDictConfig(offload_to_cpu=True, rank0_only=True); StateDictOptions(full_state_dict=True, cpu_offload=True)): the same checkpoint"
            }
            (Lang::En, G::ChunkedLoss) => "cross-entropy in chunks: no full-vocabulary fp32 logits, same result",
            (Lang::En, G::Recompute) => {
                "activation checkpointing recomputes each block's forward: about a third more compute"
            }
            (Lang::En, G::SmallerBatches) => {
                "smaller micro-batches with more accumulation: same effective batch, slower steps"
            }
            (Lang::En, G::SixteenBit) => {
                "load the model in 16 bits instead of fp32 under autocast (what current fine-tuning recipes do)"
            }
            (Lang::En, G::Adam8bit) => {
                "8-bit AdamW states (bitsandbytes): a quarter of the optimizer memory, a small quality risk"
            }
            (Lang::En, G::Unsloth) => "Unsloth: fused kernels, fused loss and offloaded checkpoints",
            (Lang::En, G::Lora) => "LoRA adapters instead of training every weight",
            (Lang::En, G::Qlora) => "4-bit base weights (QLoRA): a small quality risk, slower steps",
            (Lang::En, G::MoreGpus) => {
                "shard weights, gradients and optimizer states over more GPUs (FSDP): more GPUs to rent"
            }
            (Lang::En, G::ShorterSeq) => "shorter sequences: longer samples are cut or split",
            (Lang::En, G::SmallerImages) => "the side the checkpoint was trained at: fewer patches, less detail",
            (Lang::En, G::DecoderOnly) => {
                "train the mask decoder alone, the image encoder frozen (the SAM fine-tuning notebook's recipe): its blocks keep nothing for backward"
            }
            (Lang::Ru, G::HostStateDict) => {
                "собирать state dict чекпоинта в памяти CPU (FullStateDictConfig(offload_to_cpu=True, rank0_only=True); StateDictOptions(full_state_dict=True, cpu_offload=True)): тот же чекпоинт"
            }
            (Lang::Ru, G::ChunkedLoss) => {
                "кросс-энтропия по частям: без логитов fp32 на весь словарь, результат тот же"
            }
            (Lang::Ru, G::Recompute) => {
                "чекпоинтинг активаций пересчитывает прямой проход каждого блока: примерно на треть больше вычислений"
            }
            (Lang::Ru, G::SmallerBatches) => {
                "микробатчи меньше, накопления больше: эффективный батч тот же, шаги медленнее"
            }
            (Lang::Ru, G::SixteenBit) => {
                "загрузить модель в 16 битах вместо fp32 под autocast (так делают нынешние рецепты дообучения)"
            }
            (Lang::Ru, G::Adam8bit) => {
                "8-битные состояния AdamW (bitsandbytes): четверть памяти оптимизатора, небольшой риск для качества"
            }
            (Lang::Ru, G::Unsloth) => "Unsloth: слитые ядра, слитая функция потерь и выгруженные чекпоинты",
            (Lang::Ru, G::Lora) => "адаптеры LoRA вместо обучения всех весов",
            (Lang::Ru, G::Qlora) => "4-битные базовые веса (QLoRA): небольшой риск для качества, шаги медленнее",
            (Lang::Ru, G::MoreGpus) => {
                "шардировать веса, градиенты и состояния оптимизатора по большему числу GPU (FSDP): арендовать больше GPU"
            }
            (Lang::Ru, G::ShorterSeq) => "последовательности короче: длинные примеры обрезаются или делятся",
            (Lang::Ru, G::SmallerImages) => "размер, на котором обучен чекпойнт: меньше патчей, меньше деталей",
            (Lang::Ru, G::DecoderOnly) => {
                "обучать только декодер масок при замороженном энкодере изображений (рецепт ноутбука дообучения SAM): его блоки ничего не хранят для обратного прохода"
            }
        }
    }
}

/// Changes considered, in the order of what they give up: each as the query keys it sets and
/// the query those keys make (derived from the keys, so the page's click applies exactly what
/// was evaluated).
fn candidates(s: &Settings, vram: u64) -> Vec<(String, Query, Gives)> {
    let (q, r) = (s.given, s.resolved);
    let mut out: Vec<(String, Query, Gives)> = Vec::new();
    let mut push = |set: String, note: Gives| {
        let mut c = q.clone();
        if c.apply(&set).is_ok() {
            out.push((set, c, note));
        }
    };
    // A full state dict gathered on the GPU at save costs the whole model there; on the host
    // it costs nothing on the GPU.
    if q.gathers_state_dict_on_device() {
        push("state_dict=host".into(), Gives::HostStateDict);
    }
    // Only the fp32-upcast path keeps full logits that a chunked loss would split (Whisper's
    // own loss has no chunked form).
    if crate::memory::logits_impl(&r) == crate::framework::LogitsImpl::Fp32Upcast && s.arch.layout.speech.is_none() {
        push("loss=chunked".into(), Gives::ChunkedLoss);
    }
    if r.ckpt != Checkpointing::Full {
        push("ckpt=full".into(), Gives::Recompute);
    }
    let effective = q.batch as u64 * q.ga as u64;
    let mut b = q.batch / 2;
    while b >= 1 {
        if effective.is_multiple_of(b as u64) {
            push(format!("batch={b}&ga={}", effective / b as u64), Gives::SmallerBatches);
        }
        if b == 1 {
            break;
        }
        b /= 2;
    }
    // Under DeepSpeed a mixed run is already a 16-bit model (memory/run.rs `autocast`).
    if q.precision.keeps_fp32_master() && !q.shard.is_deepspeed() {
        push(format!("precision={}", q.precision.sixteen_bit()), Gives::SixteenBit);
    }
    if !q.optim.is_bnb_8bit() && q.optim != Optimizer::Sgd {
        push("optim=adamw-8bit".into(), Gives::Adam8bit);
    }
    // Unsloth patches language models (and the VLMs' towers), not an image classifier.
    let image = s.arch.layout.image;
    if q.framework != Framework::Unsloth
        && q.gpus == 1
        && matches!(q.method, Method::Lora | Method::Qlora)
        && image.is_none()
    {
        push("framework=unsloth&precision=bf16-true".into(), Gives::Unsloth);
    }
    match q.method {
        Method::Full => push("method=lora".into(), Gives::Lora),
        Method::Lora | Method::Dora => push("method=qlora".into(), Gives::Qlora),
        _ => {}
    }
    for n in [2u32, 4, 8] {
        if n > q.gpus {
            let shard = if q.shard == ShardingStrategy::None { ShardingStrategy::Fsdp } else { q.shard };
            // On one node: the NVLink/PCIe group sharding assumes.
            let nodes = if q.nodes != 1 { "&nodes=1" } else { "" };
            push(format!("gpus={n}{nodes}&shard={shard}"), Gives::MoreGpus);
        }
    }
    // An image encoder's sequence is its image: back to the side it was trained at. SAM's is
    // fixed; its mask decoder trains alone.
    if let Some(img) = image {
        if img.sam.is_some() && !(q.method == Method::Freeze && q.train_layers == 0) {
            push("method=freeze&train_layers=0".into(), Gives::DecoderOnly);
        }
        if img.tokens(q.image_res) > img.tokens(None) {
            push(format!("image_res={}", img.side), Gives::SmallerImages);
        }
        return out;
    }
    // The longest sequence that fits with the band, when shorter than the person's.
    let floor = crate::solve::min_seq(s);
    if let Some(s) =
        crate::solve::max_seq(s, (vram as f64 / (1.0 + crate::solve::BAND_UNDER)) as u64).filter(|s| *s < q.seq)
    {
        // A round length, but never below the images' visual tokens.
        let s = if s >= 1024 { (s / 256 * 256).max(floor).min(s) } else { s };
        push(format!("seq={s}"), Gives::ShorterSeq);
    }
    out
}

/// Fixes for the query's chosen GPU when it does not fit with the error band (else none):
/// the changes that fit first, each in the order above; at most six. Notes in English.
pub fn fixes(s: &Settings, vram: u64) -> Vec<Fix> {
    fixes_in(s, vram, Lang::En)
}

/// `fixes`, with the notes in `lang` (the page's summary).
pub fn fixes_in(s: &Settings, vram: u64, lang: Lang) -> Vec<Fix> {
    let mut out: Vec<Fix> = Vec::new();
    // Where the save is not the run's peak, the state dict's placement changes no figure: the
    // change would be offered at the figure the run already has.
    let now = || crate::memory::estimate(s).map(|e| e.memory.device).unwrap_or(u64::MAX);
    for (set, c, note) in candidates(s, vram) {
        let Ok(e) = Settings::resolve(&c).and_then(|cs| crate::memory::estimate(&cs)) else { continue };
        if note == Gives::HostStateDict && e.memory.device >= now() {
            continue;
        }
        let fits = crate::solve::verdict(e.memory.device, vram).0 == Verdict::Fits;
        out.push(Fix { set, device: e.memory.device, fits, note: note.text(lang).into() });
    }
    // Those that fit first (in the order of what they give up), then the rest by how much they save.
    out.sort_by_key(|f| !f.fits);
    let split = out.iter().position(|f| !f.fits).unwrap_or(out.len());
    out[split..].sort_by_key(|f| f.device);
    out.truncate(6);
    out
}
