//! The settings sections below the model: method (with its own settings), training,
//! GPUs and sharding, and the job. Each control reads and writes one query key.

use super::controls::{switch_select, CheckField, ChoiceSelect, Scale, SliderField};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::dataset;
use tunefit_core::query::{Method, TargetModule};

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
    pub const TRAIN_LAYERS: Scale = Scale::log(1.0, 200.0, 60, true);
    /// 1M to 1T tokens in 1-2-5 steps.
    pub const TOKENS: Scale = Scale::one_two_five(1e6, 1e12, 18, true);
    pub const EPOCHS: Scale = Scale::one_two_five(0.1, 100.0, 9, false);
    pub const RUNS: Scale = Scale::one_two_five(1.0, 1000.0, 9, true);
    pub const CKPT_MIN: Scale = Scale::one_two_five(1.0, 1440.0, 9, true);
    /// 0 to 0.5 in steps of 0.01 (PEFT and torchtune configs use 0, 0.05 or 0.1).
    pub const LORA_DROPOUT: Scale = Scale::linear(0.0, 0.5, 50, false);
}

#[component]
pub fn MethodSection() -> impl IntoView {
    let st = use_state();
    let method = Signal::derive(move || st.query.with(|q| q.method));
    let is = move |ms: &[Method]| ms.contains(&method.get());
    view! {
        <fieldset class="group" data-testid="method-section">
            <legend>{move || st.s().sec_method}</legend>
            <ChoiceSelect id="method" label=|s| s.method
                value=Signal::derive(move || Some(method.get()))
                on_change={move |m: Option<Method>| { if let Some(m) = m { st.edit(|q| q.method = m) } }} />
            <Show when=move || is(&[Method::Lora, Method::Qlora, Method::Dora])>
                <SliderField id="rank" label=|s| s.rank unit=|s| s.u_count scale=ranges::RANK
                    value=Signal::derive(move || st.query.with(|q| q.rank as f64))
                    on_change=move |v: f64| st.edit(|q| q.rank = v as u32) />
            </Show>
            <Show when=move || is(&[Method::Adapter])>
                <SliderField id="bottleneck" label=|s| s.bottleneck unit=|s| s.u_count scale=ranges::BOTTLENECK
                    value=Signal::derive(move || st.query.with(|q| q.bottleneck as f64))
                    on_change=move |v: f64| st.edit(|q| q.bottleneck = v as u32) />
            </Show>
            <Show when=move || is(&[Method::Prefix, Method::Prompt])>
                <SliderField id="virtual-tokens" label=|s| s.virtual_tokens unit=|s| s.u_tokens scale=ranges::VIRTUAL_TOKENS
                    value=Signal::derive(move || st.query.with(|q| q.virtual_tokens as f64))
                    on_change=move |v: f64| st.edit(|q| q.virtual_tokens = v as u32) />
            </Show>
            <Show when=move || is(&[Method::Freeze])>
                <SliderField id="train-layers" label=|s| s.train_layers unit=|s| s.u_layers scale=ranges::TRAIN_LAYERS
                    value=Signal::derive(move || st.query.with(|q| q.train_layers as f64))
                    on_change=move |v: f64| st.edit(|q| q.train_layers = v as u32) />
            </Show>
        </fieldset>
    }
}

/// The method's finer settings, in the Advanced disclosure: adapter dropout and targets, the
/// quantized storage, and how MoE experts are held.
#[component]
pub fn MethodDetails() -> impl IntoView {
    let st = use_state();
    let method = Signal::derive(move || st.query.with(|q| q.method));
    let is = move |ms: &[Method]| ms.contains(&method.get());
    view! {
        <fieldset class="group" data-testid="method-details">
            <legend>{move || st.s().sec_method_details}</legend>
            <Show when=move || is(&[Method::Lora, Method::Qlora, Method::Dora])>
                // Shows the framework profile's value until the person sets one.
                <SliderField id="lora-dropout" label=|s| s.lora_dropout unit=|s| s.u_prob scale=ranges::LORA_DROPOUT
                    value=Signal::derive(move || st.query.with(|q| q.lora_dropout.unwrap_or_else(|| tunefit_core::framework::profile(q.framework).lora_dropout_default)))
                    on_change=move |v: f64| st.edit(|q| q.lora_dropout = Some(v)) />
                <Targets/>
            </Show>
            <Show when=move || is(&[Method::Qlora])>
                <ChoiceSelect id="quant" label=|s| s.quant
                    value=Signal::derive(move || Some(st.query.with(|q| q.quant)))
                    on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.quant = v) } }} />
                <CheckField id="dq" label=|s| s.double_quant
                    value=Signal::derive(move || st.query.with(|q| q.double_quant))
                    on_change=move |v| st.edit(|q| q.double_quant = v) />
            </Show>
            <ChoiceSelect id="expert-format" label=|s| s.expert_format
                value=Signal::derive(move || Some(st.query.with(|q| q.expert_format)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.expert_format = v) } }} />
        </fieldset>
    }
}

/// Checkboxes for the adapter's target modules; the last one cannot be unticked (an adapter
/// needs at least one module).
#[component]
fn Targets() -> impl IntoView {
    let st = use_state();
    view! {
        <fieldset class="targets" data-testid="targets">
            <legend>{move || st.s().targets}</legend>
            {TargetModule::ALL.into_iter().map(|t| {
                let id = format!("target-{}", t.as_str());
                    let (id1, id2) = (id.clone(), id.clone());
                view! {
                    <label class="chip" for=id1>
                        <input type="checkbox" id=id2 data-testid=id
                            prop:checked=move || st.query.with(|q| q.targets.contains(t))
                            on:change=move |ev| {
                                let on = event_target_checked(&ev);
                                let next = st.query.with_untracked(|q| if on { q.targets.with(t) } else { q.targets.without(t) });
                                if next.is_empty() {
                                    let el: web_sys::HtmlInputElement = event_target(&ev);
                                    el.set_checked(true);
                                } else {
                                    st.edit(|q| q.targets = next);
                                }
                            } />
                        {t.as_str()}
                    </label>
                }
            }).collect_view()}
        </fieldset>
    }
}

/// GaLore's projection rank: 8 to 4096 (its examples use 128 to 1024).
const GALORE_RANK: super::controls::Scale = super::controls::Scale::pow2(8.0, 4096.0, 9);

/// 1 (every block) to 8: torchtitan's `selective_ac_option` as a whole number.
const CKPT_EVERY: super::controls::Scale = super::controls::Scale::linear(1.0, 8.0, 7, true);

#[component]
pub fn TrainingSection() -> impl IntoView {
    let st = use_state();
    view! {
        <fieldset class="group" data-testid="training-section">
            <legend>{move || st.s().sec_training}</legend>
            <ChoiceSelect id="precision" label=|s| s.precision
                value=Signal::derive(move || Some(st.query.with(|q| q.precision)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.precision = v) } }} />
            <ChoiceSelect id="optim" label=|s| s.optimizer
                value=Signal::derive(move || Some(st.query.with(|q| q.optim)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.optim = v) } }} />
            <Show when=move || st.query.with(|q| q.optim == tunefit_core::query::Optimizer::GaloreAdamW)>
                <SliderField id="galore-rank" label=|s| s.galore_rank unit=|s| s.u_count scale=GALORE_RANK
                    value=Signal::derive(move || st.query.with(|q| q.galore_rank as f64))
                    on_change=move |v: f64| st.edit(|q| q.galore_rank = v as u32) />
            </Show>
            <SliderField id="ga" label=|s| s.ga unit=|s| s.u_steps scale=ranges::GA
                value=Signal::derive(move || st.query.with(|q| q.ga as f64))
                on_change=move |v: f64| st.edit(|q| q.ga = v as u32) />
            <ChoiceSelect id="ckpt" label=|s| s.ckpt optional=true
                value=Signal::derive(move || st.query.with(|q| q.ckpt))
                on_change=move |v| st.edit(|q| q.ckpt = v) />
            <SliderField id="ckpt-every" label=|s| s.ckpt_every unit=|s| s.u_blocks scale=CKPT_EVERY
                value=Signal::derive(move || st.query.with(|q| q.ckpt_every as f64))
                on_change=move |v: f64| st.edit(|q| q.ckpt_every = v as u32) />
            <ChoiceSelect id="attn" label=|s| s.attn optional=true
                value=Signal::derive(move || st.query.with(|q| q.attn))
                on_change=move |v| st.edit(|q| q.attn = v) />
            <ChoiceSelect id="loss" label=|s| s.loss optional=true
                value=Signal::derive(move || st.query.with(|q| q.loss))
                on_change=move |v| st.edit(|q| q.loss = v) />
            // Switches the framework profile sets unless the person does (docs/query.md).
            {switch_select("packing", |s| s.packing, Signal::derive(move || st.query.with(|q| q.packing)), Callback::new(move |v| st.edit(|q| q.packing = v)))}
            {switch_select("compile", |s| s.compile, Signal::derive(move || st.query.with(|q| q.compile)), Callback::new(move |v| st.edit(|q| q.compile = v)))}
            {switch_select("act-offload", |s| s.act_offload, Signal::derive(move || st.query.with(|q| q.act_offload)), Callback::new(move |v| st.edit(|q| q.act_offload = v)))}
            <CheckField id="set-to-none" label=|s| s.set_to_none
                value=Signal::derive(move || st.query.with(|q| q.set_to_none))
                on_change=move |v: bool| st.edit(|q| q.set_to_none = v) />
            <CheckField id="optim-in-bwd" label=|s| s.optim_in_bwd
                value=Signal::derive(move || st.query.with(|q| q.optim_in_bwd))
                on_change=move |v: bool| st.edit(|q| q.optim_in_bwd = v) />
            <ChoiceSelect id="compute" label=|s| s.compute
                value=Signal::derive(move || Some(st.query.with(|q| q.compute)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.compute = v) } }} />
            <ChoiceSelect id="framework" label=|s| s.framework
                value=Signal::derive(move || Some(st.query.with(|q| q.framework)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.framework = v) } }} />
            <p class="hint" data-testid="framework-desc">{move || (st.lang.get().sh().framework_desc)(st.query.with(|q| q.framework))}</p>
        </fieldset>
    }
}

#[component]
pub fn ParallelSection() -> impl IntoView {
    let st = use_state();
    view! {
        <fieldset class="group" data-testid="parallel-section">
            <legend>{move || st.s().sec_parallel}</legend>
            <SliderField id="tp" label=|s| s.tp unit=|s| s.u_gpus scale=ranges::DEGREE
                value=Signal::derive(move || st.query.with(|q| q.tp as f64))
                on_change=move |v: f64| st.edit(|q| q.tp = v as u32) />
            <CheckField id="sp" label=|s| s.sp
                value=Signal::derive(move || st.query.with(|q| q.sp))
                on_change=move |v: bool| st.edit(|q| q.sp = v) />
            <SliderField id="pp" label=|s| s.pp unit=|s| s.u_count scale=ranges::DEGREE
                value=Signal::derive(move || st.query.with(|q| q.pp as f64))
                on_change=move |v: f64| st.edit(|q| q.pp = v as u32) />
            <SliderField id="cp" label=|s| s.cp unit=|s| s.u_gpus scale=ranges::DEGREE
                value=Signal::derive(move || st.query.with(|q| q.cp as f64))
                on_change=move |v: f64| st.edit(|q| q.cp = v as u32) />
            <ChoiceSelect id="shard" label=|s| s.shard
                value=Signal::derive(move || Some(st.query.with(|q| q.shard)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.shard = v) } }} />
            <ChoiceSelect id="offload" label=|s| s.offload
                value=Signal::derive(move || Some(st.query.with(|q| q.offload)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.offload = v) } }} />
        </fieldset>
    }
}

/// "Your GPU": the GPU the verdict is for, right after the model (the question people bring).
#[component]
pub fn TargetGpu() -> impl IntoView {
    let st = use_state();
    // The GPU list rebuilds only when the target GPU changes.
    let target =
        crate::reactive::memo(move || st.query.with(|q| q.gpu.as_deref().and_then(dataset::gpu).map(|g| g.id)));
    view! {
        <fieldset class="group" data-testid="target-gpu-section">
            <legend>{move || st.s().sec_your_gpu}</legend>
            <div class="field">
                <label for="gpu">{move || st.s().target_gpu}</label>
                <select id="gpu" data-testid="gpu" on:change=move |ev| {
                    let v = event_target_value(&ev);
                    st.edit(|q| q.gpu = dataset::gpu(&v).map(|g| g.id.to_string()));
                }>
                    {move || {
                        let cur = target.get();
                        let none = view! { <option value="" selected=cur.is_none()>{st.s().gpu_none}</option> };
                        let list = dataset::gpus().iter().map(|g| view! {
                            <option value=g.id selected=cur == Some(g.id)>{g.name}</option>
                        }).collect_view();
                        (none, list)
                    }}
                </select>
            </div>
            <SliderField id="gpus" label=|s| s.gpus unit=|s| s.u_gpus scale=ranges::GPUS
                value=Signal::derive(move || st.query.with(|q| q.gpus as f64))
                on_change=move |v: f64| st.edit(|q| q.gpus = v as u32) />
            <SliderField id="nodes" label=|s| s.nodes unit=|s| s.u_count scale=ranges::NODES
                value=Signal::derive(move || st.query.with(|q| q.nodes as f64))
                on_change=move |v: f64| st.edit(|q| q.nodes = v as u32) />
        </fieldset>
    }
}

/// What every estimate needs in view: the micro-batch, the sequence length and the job's size.
#[component]
pub fn RunSection() -> impl IntoView {
    let st = use_state();
    view! {
        <fieldset class="group" data-testid="run-section">
            <legend>{move || st.s().sec_run}</legend>
            <SliderField id="batch" label=|s| s.batch unit=|s| s.u_seqs scale=ranges::BATCH
                value=Signal::derive(move || st.query.with(|q| q.batch as f64))
                on_change=move |v: f64| st.edit(|q| q.batch = v as u32) />
            <SliderField id="seq" label=|s| s.seq unit=|s| s.u_tokens scale=ranges::SEQ
                value=Signal::derive(move || st.query.with(|q| q.seq as f64))
                on_change=move |v: f64| st.edit(|q| q.seq = v as u32) />
            <SliderField id="tokens" label=|s| s.tokens unit=|s| s.u_tokens scale=ranges::TOKENS
                value=Signal::derive(move || st.query.with(|q| q.tokens as f64))
                on_change=move |v: f64| st.edit(|q| q.tokens = v as u64) />
            <SliderField id="epochs" label=|s| s.epochs unit=|s| s.u_count scale=ranges::EPOCHS
                value=Signal::derive(move || st.query.with(|q| q.epochs))
                on_change=move |v: f64| st.edit(|q| q.epochs = v) />
        </fieldset>
    }
}

/// Keys the page shows outside the Advanced disclosure: everything else a link sets is
/// counted in the disclosure's summary.
const IN_VIEW: &[&str] = &[
    "v",
    "model",
    "params",
    "layers",
    "hidden",
    "heads",
    "kv_heads",
    "head_dim",
    "ffn",
    "vocab",
    "tied",
    "experts",
    "experts_per_token",
    "norms",
    "qk_norm",
    "dense_layers",
    "dense_ffn",
    "shared_ffn",
    "q_rank",
    "kv_rank",
    "rope_dim",
    "v_dim",
    "vision_params",
    "gpu",
    "gpus",
    "nodes",
    "method",
    "rank",
    "bottleneck",
    "virtual_tokens",
    "train_layers",
    "batch",
    "seq",
    "tokens",
    "epochs",
];

/// Framework, precision, kernels, checkpointing, parallelism and cost settings, closed by
/// default; its summary says how many of them the query sets away from their defaults, and
/// it opens by itself when a link sets any.
#[component]
pub fn Advanced() -> impl IntoView {
    let st = use_state();
    let changed = crate::reactive::memo(move || {
        st.query.with(|q| {
            // Counted against the current version's defaults: a v=1 link's own defaults
            // (fp32 weights) differ from what a fresh page shows, so they count too.
            let current = tunefit_core::Query { format: tunefit_core::query::FORMAT_VERSION, ..q.clone() };
            current
                .to_query_string()
                .split('&')
                .filter_map(|kv| kv.split('=').next())
                .filter(|k| !k.is_empty() && !IN_VIEW.contains(k))
                .count()
        })
    });
    let open = changed.get_untracked() > 0;
    view! {
        <details class="advanced" data-testid="advanced" open=open>
            <summary data-testid="advanced-summary">{move || (st.s().advanced)(changed.get())}</summary>
            <MethodDetails/>
            <TrainingSection/>
            <ParallelSection/>
            <JobSection/>
        </details>
    }
}

#[component]
pub fn JobSection() -> impl IntoView {
    let st = use_state();
    view! {
        <fieldset class="group" data-testid="job-section">
            <legend>{move || st.s().sec_job}</legend>
            <SliderField id="runs" label=|s| s.runs unit=|s| s.u_count scale=ranges::RUNS
                value=Signal::derive(move || st.query.with(|q| q.runs as f64))
                on_change=move |v: f64| st.edit(|q| q.runs = v as u32) />
            <ChoiceSelect id="pricing" label=|s| s.pricing
                value=Signal::derive(move || Some(st.query.with(|q| q.pricing)))
                on_change={move |v: Option<_>| { if let Some(v) = v { st.edit(|q| q.pricing = v) } }} />
            <SliderField id="ckpt-interval" label=|s| s.ckpt_interval unit=|s| s.u_min scale=ranges::CKPT_MIN
                value=Signal::derive(move || st.query.with(|q| q.ckpt_interval_min))
                on_change=move |v: f64| st.edit(|q| q.ckpt_interval_min = v) />
            <NeedChips/>
            <SliderField id="startup" label=|s| s.startup unit=|s| s.u_min scale=ranges::STARTUP_MIN
                value=Signal::derive(move || st.query.with(|q| q.startup_min))
                on_change=move |v: f64| st.edit(|q| q.startup_min = v) />
            <SliderField id="idle" label=|s| s.idle unit=|s| s.u_min scale=ranges::IDLE_MIN
                value=Signal::derive(move || st.query.with(|q| q.idle_min))
                on_change=move |v: f64| st.edit(|q| q.idle_min = v) />
            <SliderField id="storage-days" label=|s| s.storage_days unit=|s| s.u_days scale=ranges::STORAGE_DAYS
                value=Signal::derive(move || st.query.with(|q| q.storage_days))
                on_change=move |v: f64| st.edit(|q| q.storage_days = v) />
            <SliderField id="download" label=|s| s.download unit=|s| s.u_gb scale=ranges::DOWNLOAD_GB
                value=Signal::derive(move || st.query.with(|q| q.download_gb))
                on_change=move |v: f64| st.edit(|q| q.download_gb = v) />
        </fieldset>
    }
}

/// The display currency (`currency=`) and "Providers must have" (each ticked feature drops
/// the offers of providers without it, `need=`, advice::has), written as markup (markup.rs)
/// with one listener: a `ChoiceSelect` of its own cost 5 KB of wasm.
#[component]
fn NeedChips() -> impl IntoView {
    use crate::markup::{write_html, Html};
    use tunefit_core::query::{Currency, Need};
    let st = use_state();
    let markup = move || {
        let mut h = Html::new();
        let lang = st.lang.get();
        st.query.with(|q| {
            write_html!(
                h,
                r#"<div class="field"><label for="currency">"#,
                st.s().currency,
                r#"</label><select id="currency" data-testid="currency">"#
            );
            for c in Currency::ALL {
                write_html!(h, r#"<option value=""#, c.as_str(), r#"""#);
                if *c == q.currency {
                    write_html!(h, " selected");
                }
                write_html!(h, ">", crate::i18n::value_label(lang, c.as_str()), "</option>");
            }
            write_html!(
                h,
                r#"</select></div><fieldset class="targets" data-testid="needs"><legend>"#,
                st.s().must_have,
                "</legend><div>"
            );
            for n in Need::ALL {
                let v = n.as_str();
                write_html!(
                    h,
                    r#"<label class="chip" for="need-"#,
                    v,
                    r#""><input type="checkbox" id="need-"#,
                    v,
                    r#"" data-testid="need-"#,
                    v,
                    r#"" data-need=""#,
                    v,
                    r#"""#
                );
                if q.need.contains(*n) {
                    write_html!(h, " checked");
                }
                write_html!(h, "> ", crate::i18n::value_label(lang, v), "</label>");
            }
            write_html!(h, "</div></fieldset>");
        });
        h.into_string()
    };
    view! {
        <div inner_html=markup on:change=move |ev| {
            let Some(el) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) else {
                if let Some(c) = Currency::parse(&event_target_value(&ev)) {
                    st.edit(|q| q.currency = c);
                }
                return;
            };
            let Some(n) = el.get_attribute("data-need").as_deref().and_then(Need::parse) else { return };
            let on = el.checked();
            st.edit(|q| q.need = if on { q.need.with(n) } else { q.need.without(n) });
        }></div>
    }
}
