//! Time and cost: the run's time in two sentences, then the core's ranked offers as a table
//! with on-demand and spot side by side, the plain-words recommendation and a cost-against-time
//! scatter. The ranking's markup is written by the lazily loaded module
//! (crates/tunefit-export/src/cost_table.rs, through public/boot.js's `tunefitCost`): the
//! section is below the first screen, its rendering was 11 KB of the gzipped first load, and
//! the service worker fetches that module with the page anyway. This component asks for it
//! with the query as of the last frame (deferred.rs), the person's prices and the language,
//! keeps the "show all" choice, and says when the module is loading or cannot be loaded.

use super::share::action_of;
use crate::format::{hours, number};
use crate::i18n::Lang;
use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the module's `cost_html`; resolves to the ranking's markup.
    #[wasm_bindgen(catch, js_name = tunefitCost)]
    fn tunefit_cost(query: &str, prices: &str, lang: &str, all: bool) -> Result<js_sys::Promise, JsValue>;
}

#[component]
pub fn CostSection() -> impl IntoView {
    let st = use_state();
    // Each new report is a change (state.rs): comparing the time estimates field by field
    // would link their derived `PartialEq` into the first load for nothing.
    let time =
        Memo::new_with_compare(move |_| st.report.with(|r| r.as_ref().ok().and_then(|r| r.time.clone())), |_, _| true);
    let show_all = RwSignal::new(false);
    // The "show all" button, which its own click rewrites, keeps the keyboard focus.
    let ranking = NodeRef::<leptos::html::Div>::new();
    super::lazy::follow(ranking, "cost", "data-act", move || {
        if !st.shows_cost {
            return None;
        }
        let query = st.frame.with(|q| q.to_query_string());
        let prices = st.prices.with(|p| p.to_compact());
        let (lang, all) = (st.lang.get().built(), show_all.get());
        let s = lang.strings();
        Some((tunefit_cost(&query, &prices, lang.code(), all), s.cost_loading, s.section_load_failed))
    });
    // The "show all" button is the module's markup: one listener on the section.
    let act = move |ev: web_sys::MouseEvent| {
        if action_of(&ev).as_deref() == Some("show-all") {
            show_all.update(|v| *v = !*v);
        }
    };
    view! {
        <section class="card" aria-labelledby="cost-title" data-testid="cost-section" on:click=act>
            <h2 id="cost-title">{move || st.s().cost_title}</h2>
            <div class="contents" inner_html=move || time.with(|t| time_markup(st.lang.get(), t.as_ref()))></div>
            <div class="contents" data-lazy node_ref=ranking></div>
        </section>
    }
}

/// The run's time in one sentence and its parts in another (none before there is a time).
fn time_markup(lang: Lang, t: Option<&tunefit_core::time::TimeEstimate>) -> String {
    let (s, mut h) = (lang.strings(), Html::new());
    if let Some(t) = t {
        let summary = (s.time_summary)(&hours(t.hours, lang), &number(t.tokens_per_s, 0, lang), t.gpus, &t.gpu);
        let parts = (s.time_parts)(
            &hours(t.train_hours, lang),
            &number(t.startup_s / 60.0, 0, lang),
            t.saves,
            &number(t.save_s / 60.0, 1, lang),
            &number(t.mfu * 100.0, 0, lang),
            &t.compute_dtype,
        );
        write_html!(h, r#"<p class="muted" data-testid="time-summary">"#, summary, "</p>");
        write_html!(h, r#"<p class="muted" data-testid="time-parts">"#, parts, "</p>");
    }
    h.into_string()
}
