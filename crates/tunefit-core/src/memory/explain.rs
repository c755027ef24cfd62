//! What a person reads beside the figures: the model's identity, notes on the architecture,
//! and each term's formula with its assumptions.

use super::run::Run;
use super::{Explanation, ModelInfo};
use crate::catalog::Preset;
use crate::diag::{Lang, Warning};
use crate::query::{AdapterDtype, Attention, Checkpointing, Framework, Loss, Optimizer};

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
        frozen_vision_params: a.layout.vision_params,
        inferred: a.inferred,
    }
}

/// Notes on the architecture itself: a frozen vision tower, a guessed shape.
pub(super) fn notes(r: &Run, warnings: &mut Vec<Warning>) {
    let a = &r.a;
    if a.layout.vision_params > 0 {
        warnings.push(Warning::FrozenVisionTower { params: a.layout.vision_params });
    }
    if a.inferred {
        warnings.push(Warning::InferredArchitecture { layers: a.layers, hidden: a.hidden, ffn: a.ffn, vocab: a.vocab });
    }
}

pub(super) fn explain(run: &Run) -> Vec<Explanation> {
    let (q, r, a, t) = (run.q, &run.res, &run.a, &run.tr);
    let fw = q.framework;
    let ex =
        |term: &str, formula: Phrase, assumptions: Vec<Phrase>| Explanation { term: term.into(), formula, assumptions };
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

/// A formula or an assumption behind a term, with its figures as fields; rendered in each
/// language (`text`), serialized as its English sentence.
#[derive(Debug, Clone, PartialEq)]
pub enum Phrase {
    WeightsFormula,
    ParamsTrainable { params: u64, trainable: u64 },
    AdapterDtype { dtype: AdapterDtype, framework: Framework },
    OptimizerFormula { optim: Optimizer },
    StatePrecision,
    ActivationsFormula,
    ActivationSettings { attn: Attention, ckpt: Checkpointing, compile: bool, packing: bool },
    ActivationOffload,
    NoActivationOffload,
    GradientsLive,
    GradientsZeroFilled,
    LogitsFormula,
    LossImpl { loss: Loss, framework: Framework },
    OverheadFormula,
    CudaContext { mib: u64 },
}

impl Phrase {
    pub fn text(&self, lang: Lang) -> String {
        use Phrase as P;
        match lang {
            Lang::En => match self {
                P::WeightsFormula => "frozen params × storage bytes (NF4 4.5 / DQ 4.127 bits for QLoRA block linears) + trainable × their dtype".into(),
                P::ParamsTrainable { params, trainable } => format!("{params} params, {trainable} trainable"),
                P::AdapterDtype { dtype, framework } => format!("adapter dtype {dtype} ({framework} profile unless set)"),
                P::OptimizerFormula { optim } => format!("{optim} states per trainable parameter"),
                P::StatePrecision => "true-16-bit precision keeps states in the parameter dtype; mixed keeps fp32 master weights and states".into(),
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
                P::OverheadFormula => "allocator fragmentation (5% of per-step tensors) + CUDA context + framework buffers".into(),
                P::CudaContext { mib } => format!("CUDA context {mib} MiB"),
            },
            Lang::Ru => match self {
                P::WeightsFormula => "замороженные параметры × байты хранения (NF4 4,5 / DQ 4,127 бита у блочных линейных слоёв QLoRA) + обучаемые × их тип".into(),
                P::ParamsTrainable { params, trainable } => format!("параметров: {params}, обучаемых: {trainable}"),
                P::AdapterDtype { dtype, framework } => format!("тип адаптеров {dtype} (профиль {framework}, если не задан)"),
                P::OptimizerFormula { optim } => format!("состояния {optim} на каждый обучаемый параметр"),
                P::StatePrecision => "в чистой 16-битной точности состояния хранятся в типе параметров; смешанная держит fp32 мастер-веса и состояния".into(),
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
                P::OverheadFormula => "фрагментация аллокатора (5% тензоров шага) + контекст CUDA + буферы фреймворка".into(),
                P::CudaContext { mib } => format!("контекст CUDA {mib} МиБ"),
            },
        }
    }
}

/// The English sentence: the CLI's JSON contract.
impl serde::Serialize for Phrase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text(Lang::En))
    }
}
