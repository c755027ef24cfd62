//! The settings in view below the model: your GPU, the method and the run's size. Each control
//! reads and writes one query key; the rest are in the Advanced disclosure (advanced.rs).

use super::controls::{ChoiceSelect, Scale, SliderField};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::dataset;
use tunefit_core::query::Method;

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
