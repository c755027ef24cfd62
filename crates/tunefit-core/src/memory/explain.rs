//! What a person reads beside the figures: the model's identity, notes on the architecture,
//! and each term's formula with its assumptions.

use super::run::Run;
use super::{Explanation, MemoryBreakdown, ModelInfo};
use crate::catalog::Preset;
use crate::diag::{Lang, Warning};
use crate::framework::LogitsImpl;
use crate::query::{AdapterDtype, Attention, Checkpointing, Framework, Loss, Optimizer, Precision};

pub(super) fn model_info(r: &Run, preset: Option<&'static Preset>) -> ModelInfo {
    let (a, tr, p_total) = (&r.a, r.tr, r.p_total);
    ModelInfo {
        id: preset.map(|p| p.id.to_string()),
        name: preset.map(|p| p.name.to_string()).unwrap_or_else(|| {
            if a.inferred {
                format!("inferred ({} params)", crate::query::format_count(p_total))
            } else {
                "custom".into()
            }
        }),
        params: p_total,
        trainable_params: tr.total,
        active_params: (a.experts > 1).then(|| a.active_params()),
        // A fully trained tower is in the trainable count instead.
        frozen_vision_params: if r.q.tower == crate::query::TowerTraining::Full { 0 } else { a.layout.vision_params },
        inferred: a.inferred,
    }
}

/// Notes on the architecture itself: a frozen vision tower, a guessed shape.
pub(super) fn notes(r: &Run, warnings: &mut Vec<Warning>) {
    let (a, q) = (&r.a, r.q);
    if let Some(tw) = a.layout.described_tower().filter(|_| q.images > 0) {
        let i = tw.per_image(q.image_res);
        warnings.push(Warning::VisionImages {
            images: q.images,
            w: i.w,
            h: i.h,
            patches: i.patches,
            tokens: i.tokens,
            training: q.tower,
            quantized: super::states::tower_quantized(r) > 0.0,
        });
    } else if a.layout.vision_params > 0 {
        warnings.push(Warning::FrozenVisionTower {
            params: a.layout.vision_params,
            quantized: super::states::tower_quantized(r) > 0.0,
        });
    }
    if a.inferred {
        warnings.push(Warning::InferredArchitecture { layers: a.layers, hidden: a.hidden, ffn: a.ffn, vocab: a.vocab });
    }
}

pub(super) fn explain(run: &Run, m: &MemoryBreakdown, saving: f64, tower: (f64, bool)) -> Vec<Explanation> {
    let (q, r, a, t) = (run.q, &run.res, &run.a, &run.tr);
    let fw = q.framework;
    let ex = |term: &str, formula: Phrase, assumptions: Vec<Phrase>| Explanation {
        term: term.into(),
        formula,
        assumptions,
        why: why_large(run, m, term, saving, tower),
    };
    vec![
        ex(
            "weights",
            Phrase::WeightsFormula,
            vec![
                Phrase::ParamsTrainable { params: a.param_count(), trainable: t.total },
                Phrase::AdapterDtype { dtype: r.adapter_dtype, framework: fw },
            ],
        ),
        ex("optimizer", Phrase::OptimizerFormula { optim: q.optim }, vec![Phrase::StatePrecision]),
        ex(
            "activations",
            Phrase::ActivationsFormula,
            vec![
                Phrase::ActivationSettings { attn: r.attn, ckpt: r.ckpt, compile: r.compile, packing: r.packing },
                if r.act_offload { Phrase::ActivationOffload } else { Phrase::NoActivationOffload },
                if q.set_to_none || q.ga > 1 { Phrase::GradientsLive } else { Phrase::GradientsZeroFilled },
            ],
        ),
        ex("logits", Phrase::LogitsFormula, vec![Phrase::LossImpl { loss: r.loss, framework: fw }]),
        ex("overhead", Phrase::OverheadFormula, vec![Phrase::CudaContext { mib: r.profile.cuda_context >> 20 }]),
    ]
}

/// A term is "large" from a quarter of the per-GPU terms on: then it is one of the two or
/// three things that decide whether the job fits, and the one sentence beside it says which
/// setting made it so. A reading threshold, not a physical constant.
pub const LARGE_SHARE: f64 = 0.25;

/// The one-sentence reason a large term has, where a setting the person can change causes it.
/// `saving`: what the save's device state dict adds above the run's other peaks.
fn why_large(
    run: &Run,
    m: &MemoryBreakdown,
    term: &str,
    saving: f64,
    (tower, tower_backward): (f64, bool),
) -> Option<Phrase> {
    let (q, r) = (run.q, &run.res);
    let stacked = m.terms().iter().map(|(_, b)| b).sum::<u64>() as f64;
    let share = |bytes: u64| stacked > 0.0 && bytes as f64 >= LARGE_SHARE * stacked;
    match term {
        // Only where the weights term holds 4-byte weights: not QLoRA's packed base, not
        // DeepSpeed's 16-bit parameters of a mixed precision (their fp32 master is the
        // optimizer's); FSDP's shards are the fp32 parameters themselves.
        "weights" if share(m.weights) && holds_fp32_weights(run) => {
            Some(Phrase::WhyFp32Weights { precision: q.precision, params: run.p_total })
        }
        "logits" if share(m.logits) => {
            let how = super::logits::run_impl(run);
            Some(Phrase::WhyLogits {
                vocab: run.a.vocab,
                tokens: run.tokens.round() as u64,
                fp32_copy: (how == LogitsImpl::Fp32Upcast && !super::logits::upcast_compiled_with_model(run))
                    || (matches!(how, LogitsImpl::ChunkedFp32 { .. }) && !r.compile),
                // Only the fp32-upcast path keeps full logits that a chunked loss would split.
                standard_loss: how == LogitsImpl::Fp32Upcast,
            })
        }
        "activations" if share(m.activations) && r.ckpt == Checkpointing::None => {
            Some(Phrase::WhyNoCheckpointing { layers: run.a.layers })
        }
        // The vision tower's own pass counts in the overhead when it is the run's peak: above
        // the step and the save both, so it is said first.
        // (Whisper's encoder pass is named by the peak's moment, "backward of the audio encoder".)
        "overhead" if share(m.overhead) && tower > 0.0 && run.a.layout.sam().is_some() => {
            Some(Phrase::WhyGlobalAttention {
                images: q.batch as u64,
                heads: run.a.heads,
                patches: run.seq.round() as u64,
                backward: tower_backward,
                eager: r.attn == crate::query::Attention::Eager,
            })
        }
        "overhead" if share(m.overhead) && tower > 0.0 && run.a.layout.speech.is_none() => {
            let tw = run.a.layout.tower;
            Some(Phrase::WhyVisionTower {
                images: q.images as u64 * q.batch as u64,
                patches: tw.per_image(q.image_res).patches,
                resized: tw.fixed > 0,
                eager: r.attn == crate::query::Attention::Eager,
                trains: q.tower != crate::query::TowerTraining::Frozen,
            })
        }
        // The save's full state dict on the device counts in the overhead (peaks.rs).
        "overhead" if share(m.overhead) && saving > 0.0 => {
            Some(Phrase::WhyStateDictOnDevice { params: (run.p_total as f64 / run.pp).round() as u64 })
        }
        "optimizer" if share(m.optimizer) => Some(Phrase::WhyOptimizerStates {
            optim: q.optim,
            trainable: run.tr.total,
            trains_base: q.method.trains_base(),
            full_width_states: matches!(q.optim, Optimizer::AdamW | Optimizer::PagedAdamW),
        }),
        _ => None,
    }
}

/// Whether the weights term holds 4-byte weights under a mixed precision: the frozen base in
/// fp32, or a trained base whose fp32 copy is its own (FSDP's shards, not DeepSpeed's 16-bit
/// partitions). `precision=fp32` is a choice of fp32 compute, not a default to explain.
fn holds_fp32_weights(run: &Run) -> bool {
    let q = run.q;
    if !run.mixed || q.method.quantized_base() {
        return false;
    }
    if q.method.trains_base() {
        !run.sixteen_bit_engine && run.base_train_bytes == 4.0
    } else {
        run.frozen_bytes == 4.0
    }
}

/// Billions with two decimals ("8.03 billion", "8,03 млрд"): a sentence's count.
fn billions(n: u64, lang: Lang) -> String {
    let b = n as f64 / 1e9;
    match lang.built() {
        Lang::En => format!("{b:.2} billion"),
        Lang::Ru => format!("{b:.2} млрд").replace('.', ","),
    }
}

/// A formula or an assumption behind a term, with its figures as fields; rendered in each
/// language (`text`), serialized as its English sentence.
#[derive(Debug, Clone, PartialEq)]
pub enum Phrase {
    WeightsFormula,
    ParamsTrainable {
        params: u64,
        trainable: u64,
    },
    AdapterDtype {
        dtype: AdapterDtype,
        framework: Framework,
    },
    OptimizerFormula {
        optim: Optimizer,
    },
    StatePrecision,
    ActivationsFormula,
    ActivationSettings {
        attn: Attention,
        ckpt: Checkpointing,
        compile: bool,
        packing: bool,
    },
    ActivationOffload,
    NoActivationOffload,
    GradientsLive,
    GradientsZeroFilled,
    LogitsFormula,
    LossImpl {
        loss: Loss,
        framework: Framework,
    },
    OverheadFormula,
    CudaContext {
        mib: u64,
    },
    /// Why: a mixed or fp32 precision keeps every weight in fp32.
    WhyFp32Weights {
        precision: Precision,
        params: u64,
    },
    /// Why: every token of the micro-batch carries a vocabulary-wide row of logits.
    WhyLogits {
        vocab: u64,
        tokens: u64,
        fp32_copy: bool,
        standard_loss: bool,
    },
    /// Why: without checkpointing every block keeps what it saves for backward.
    WhyNoCheckpointing {
        layers: u64,
    },
    /// Why: the checkpoint save gathers the whole state dict on each GPU (`state_dict=device`).
    WhyStateDictOnDevice {
        params: u64,
    },
    /// Why: the vision tower's own pass over the micro-batch's images is the run's peak.
    WhyVisionTower {
        images: u64,
        patches: u64,
        /// The tower resizes every image (Gemma 3's 896²): its size is not the person's to lower.
        resized: bool,
        eager: bool,
        trains: bool,
    },
    /// Why: SAM's global attention holds a bias score per head for every pair of the image's
    /// patches (memory/sam.rs): a frozen block's forward, or the last block's backward.
    WhyGlobalAttention {
        images: u64,
        heads: u64,
        patches: u64,
        backward: bool,
        eager: bool,
    },
    /// Why: the optimizer keeps states for every trainable parameter.
    WhyOptimizerStates {
        optim: Optimizer,
        trainable: u64,
        trains_base: bool,
        full_width_states: bool,
    },
}

impl Phrase {
    pub fn text(&self, lang: Lang) -> String {
        match lang.built() {
            Lang::En => self.english(),
            Lang::Ru => self.russian(),
        }
    }

    fn english(&self) -> String {
        use Phrase as P;
        match self {
            P::WeightsFormula => "frozen params × storage bytes (NF4 4.5 / DQ 4.127 bits for QLoRA block linears) + trainable × their dtype".into(),
            P::ParamsTrainable { params, trainable } => format!("{params} params, {trainable} trainable"),
            P::AdapterDtype { dtype, framework } => format!("adapter dtype {dtype} ({framework} profile unless set)"),
            P::OptimizerFormula { optim } => format!("{optim} states per trainable parameter"),
            P::StatePrecision => "true-16-bit precision keeps states in the parameter dtype; mixed keeps them in fp32 (DeepSpeed adds its fp32 master weights here, and keeps fp32 states, at any 16-bit precision)".into(),
            P::ActivationsFormula => "Σ layers of the tensors each op saves for backward (activation.rs)".into(),
            P::ActivationSettings { attn, ckpt, compile, packing } => {
                format!("attention {attn}, checkpointing {ckpt}, compile {compile}, packing {packing}")
            }
            P::ActivationOffload => "activation offloading: two blocks stay on the GPU, the rest in host RAM".into(),
            P::NoActivationOffload => "no activation offloading".into(),
            P::GradientsLive => "gradients live only from the backward pass to the optimizer step (ga > 1: through every micro-batch)".into(),
            P::GradientsZeroFilled => "set_to_none=0: zero-filled gradients stay allocated through the forward pass".into(),
            P::LogitsFormula => "tokens × vocab × bytes of the loss path".into(),
            P::LossImpl { loss, framework } => format!("loss {loss} as {framework} implements it"),
            P::OverheadFormula => "allocator cache (reserved − allocated, from the allocator replay) + CUDA context + framework buffers + cuBLAS workspaces (one per GEMM thread)".into(),
            P::CudaContext { mib } => format!("CUDA context {mib} MiB"),
            P::WhyFp32Weights { precision, params } => format!(
                "large because precision={precision} keeps all {} parameters in fp32 (4 bytes each) and computes in 16 bits; precision={} keeps the checkpoint's own 16-bit type, as from_pretrained loads it since transformers 5, and halves this",
                billions(*params, Lang::En),
                precision.sixteen_bit()
            ),
            P::WhyLogits { vocab, tokens, fp32_copy, standard_loss } => {
                let copy = if *fp32_copy { ", with an fp32 copy for the loss" } else { "" };
                let fix = if *standard_loss { "; loss=chunked or loss=fused-linear holds one chunk of them at a time" } else { "" };
                format!("large because each of the micro-batch's {tokens} tokens carries a row of {vocab} logits (the vocabulary){copy}{fix}")
            }
            P::WhyStateDictOnDevice { params } => format!(
                "large because state_dict=device gathers the full state dict ({} parameters) on each GPU at the checkpoint save, beside the shards (FSDP1's model.state_dict() under the default FullStateDictConfig(), or get_model_state_dict(full_state_dict=True) without cpu_offload); state_dict=host gathers it into CPU memory: FullStateDictConfig(offload_to_cpu=True, rank0_only=True), or StateDictOptions(full_state_dict=True, cpu_offload=True)",
                billions(*params, Lang::En)
            ),
            P::WhyVisionTower { images, patches, resized, eager, trains } => format!(
                "large because the vision tower's own {} over the micro-batch's {images} image(s) of {patches} patches each is the run's peak{}; {} lowers it",
                if *trains { "backward (everything its blocks kept, one block rebuilt and its gradients)" } else { "forward" },
                if *eager { ", eager attention's scores over every pair of patches included (attn=sdpa or flash never builds them)" } else { "" },
                if *resized { "fewer images per sample" } else { "a smaller image_res or fewer images per sample" }
            ),
            P::WhyGlobalAttention { images, heads, patches, backward, eager } => format!(
                "large because a global-attention block's relative-position bias holds a score for every pair of an image's {patches} patches in each of {heads} heads, for {images} image(s), {}{}; fewer images per micro-batch lowers it",
                if *backward { "at the last block's backward beside everything kept and the bias's gradient" } else { "at a frozen block's forward" },
                if *eager { ", eager attention's fp32 softmax over them included (attn=sdpa keeps the bias alone)" } else { "" }
            ),
            P::WhyNoCheckpointing { layers } => format!(
                "large because without activation checkpointing each of the {layers} blocks keeps every tensor it saves for backward; ckpt=full keeps one input per block and recomputes the rest (about a third more compute)"
            ),
            P::WhyOptimizerStates { optim, trainable, trains_base, full_width_states } => {
                let fix = match (trains_base, full_width_states) {
                    (true, true) => "; LoRA, or an 8-bit optimizer (optim=adamw-8bit), shrinks them",
                    (true, false) => "; LoRA shrinks them",
                    (false, true) => "; an 8-bit optimizer (optim=adamw-8bit) shrinks them",
                    (false, false) => "",
                };
                format!("large because {optim} keeps its states for each of the {} trainable parameters{fix}", billions(*trainable, Lang::En))
            }
        }
    }

    fn russian(&self) -> String {
        use Phrase as P;
        match self {
            P::WeightsFormula => "замороженные параметры × байты хранения (NF4 4,5 / DQ 4,127 бита у блочных линейных слоёв QLoRA) + обучаемые × их тип".into(),
            P::ParamsTrainable { params, trainable } => format!("параметров: {params}, обучаемых: {trainable}"),
            P::AdapterDtype { dtype, framework } => format!("тип адаптеров {dtype} (профиль {framework}, если не задан)"),
            P::OptimizerFormula { optim } => format!("состояния {optim} на каждый обучаемый параметр"),
            P::StatePrecision => "в чистой 16-битной точности состояния хранятся в типе параметров; смешанная держит их в fp32 (DeepSpeed добавляет сюда свои fp32 мастер-веса и держит состояния в fp32 при любой 16-битной точности)".into(),
            P::ActivationsFormula => "Σ по слоям тензоров, которые каждая операция сохраняет для обратного прохода (activation.rs)".into(),
            P::ActivationSettings { attn, ckpt, compile, packing } => {
                let ckpt = match ckpt {
                    Checkpointing::None => "нет",
                    Checkpointing::Full => "полный",
                    Checkpointing::Selective => "выборочный",
                    Checkpointing::Op => "по операциям",
                };
                format!("внимание {attn}, чекпоинтинг {ckpt}, compile {compile}, packing {packing}")
            }
            P::ActivationOffload => "выгрузка активаций: два блока остаются на GPU, остальное в ОЗУ хоста".into(),
            P::NoActivationOffload => "без выгрузки активаций".into(),
            P::GradientsLive => "градиенты живут только от обратного прохода до шага оптимизатора (при ga > 1 — через все микробатчи)".into(),
            P::GradientsZeroFilled => "set_to_none=0: обнулённые градиенты остаются в памяти и во время прямого прохода".into(),
            P::LogitsFormula => "токены × словарь × байты на пути функции потерь".into(),
            P::LossImpl { loss, framework } => {
                let loss = match loss {
                    Loss::Standard => "стандартная",
                    Loss::Chunked => "по частям",
                    Loss::FusedLinear => "слитая с выходным слоем",
                };
                format!("функция потерь {loss}, как её реализует {framework}")
            }
            P::OverheadFormula => "кэш аллокатора (reserved − allocated, из воспроизведения аллокатора) + контекст CUDA + буферы фреймворка + рабочие области cuBLAS (по одной на поток с GEMM)".into(),
            P::CudaContext { mib } => format!("контекст CUDA {mib} МиБ"),
            P::WhyFp32Weights { precision, params } => format!(
                "много, потому что precision={precision} держит все {} параметров в fp32 (4 байта на каждый) и считает в 16 битах; precision={} оставляет 16-битный тип чекпойнта, как его загружает from_pretrained начиная с transformers 5, и вдвое сокращает это",
                billions(*params, Lang::Ru),
                precision.sixteen_bit()
            ),
            P::WhyLogits { vocab, tokens, fp32_copy, standard_loss } => {
                let copy = if *fp32_copy { " и их копию в fp32 для функции потерь" } else { "" };
                let fix = if *standard_loss { "; loss=chunked или loss=fused-linear держат в памяти только одну их часть за раз" } else { "" };
                format!("много, потому что каждый из {tokens} токенов микробатча несёт строку из {vocab} логитов (размер словаря){copy}{fix}")
            }
            P::WhyStateDictOnDevice { params } => format!(
                "много, потому что state_dict=device собирает полный state dict ({} параметров) на каждом GPU при сохранении чекпойнта, рядом с шардами (model.state_dict() у FSDP1 с FullStateDictConfig() по умолчанию или get_model_state_dict(full_state_dict=True) без cpu_offload); state_dict=host собирает его в памяти CPU: FullStateDictConfig(offload_to_cpu=True, rank0_only=True) или StateDictOptions(full_state_dict=True, cpu_offload=True)",
                billions(*params, Lang::Ru)
            ),
            P::WhyVisionTower { images, patches, resized, eager, trains } => format!(
                "много, потому что пиком прогона становится собственный {} энкодера изображений по {images} изобр. микробатча, по {patches} патчей в каждом{}; {} его",
                if *trains { "обратный проход (всё сохранённое его блоками, один пересчитанный блок и его градиенты)" } else { "прямой проход" },
                if *eager { ", включая оценки eager-внимания по всем парам патчей (attn=sdpa или flash их не строят)" } else { "" },
                if *resized { "меньше изображений на пример снижает" } else { "меньший image_res или меньше изображений на пример снижают" }
            ),
            P::WhyGlobalAttention { images, heads, patches, backward, eager } => format!(
                "много, потому что смещение относительных позиций в блоке с глобальным вниманием хранит оценку на каждую пару из {patches} патчей изображения в каждой из {heads} голов, для {images} изобр., {}{}; меньше изображений в микробатче снижает это",
                if *backward { "в обратном проходе последнего блока рядом со всем сохранённым и градиентом смещения" } else { "в прямом проходе замороженного блока" },
                if *eager { ", включая fp32-softmax eager-внимания по ним (attn=sdpa хранит только смещение)" } else { "" }
            ),
            P::WhyNoCheckpointing { layers } => format!(
                "много, потому что без чекпоинтинга активаций каждый из {layers} блоков хранит все тензоры, сохранённые для обратного прохода; ckpt=full хранит по одному входу на блок и пересчитывает остальное (примерно на треть больше вычислений)"
            ),
            P::WhyOptimizerStates { optim, trainable, trains_base, full_width_states } => {
                let fix = match (trains_base, full_width_states) {
                    (true, true) => "; LoRA или 8-битный оптимизатор (optim=adamw-8bit) их сокращают",
                    (true, false) => "; LoRA их сокращает",
                    (false, true) => "; 8-битный оптимизатор (optim=adamw-8bit) их сокращает",
                    (false, false) => "",
                };
                format!("много, потому что {optim} хранит свои состояния для каждого из {} обучаемых параметров{fix}", billions(*trainable, Lang::Ru))
            }
        }
    }
}

/// The English sentence: the CLI's JSON contract.
impl serde::Serialize for Phrase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text(Lang::En))
    }
}
