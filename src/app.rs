//! Root component: installs the state (query signal, report memo, URL sync) and lays out
//! the controls beside the results.

use crate::components::{
    cost::CostSection,
    fields::FieldGroup,
    gpu_table::GpuTable,
    memory::MemoryPanel,
    model::ModelSection,
    notices::{LinkNotice, Warnings},
    plots::MemorySeqPlot,
    settings,
    toolbar::Toolbar,
};
use crate::components::{export::ExportPanel, plan::PlanPanel, prices::PricesPanel, share::SharePanel};
use crate::state::AppState;
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let st = AppState::install();
    view! {
        <a class="skip" href="#results">{move || st.s().skip_to_results}</a>
        <header class="top">
            <div>
                <h1>{move || st.s().title}</h1>
                <p class="tagline muted">{move || st.s().tagline}</p>
            </div>
            <Toolbar/>
        </header>
        <main>
            <crate::components::share::EmbedHead/>
            <SharePanel/>
            <LinkNotice/>
            <crate::components::summary::Summary/>
            <div class="layout">
                <form class="controls" on:submit=|ev| ev.prevent_default() aria-label=move || st.s().sec_model>
                    <ModelSection/>
                    <FieldGroup fields=settings::YOUR_GPU/>
                    <FieldGroup fields=settings::METHOD/>
                    <FieldGroup fields=settings::RUN/>
                    <crate::components::advanced::Advanced/>
                </form>
                <div class="results" id="results" tabindex="-1">
                    <h2 class="sr-only">{move || st.s().sec_results}</h2>
                    <MemoryPanel/>
                    <crate::components::timeline::TimelinePanel/>
                    <Warnings/>
                    <GpuTable/>
                    <MemorySeqPlot/>
                    <CostSection/>
                </div>
            </div>
            <div class="extras">
                <PlanPanel/>
                <PricesPanel/>
                <ExportPanel/>
            </div>
        </main>
    }
}
