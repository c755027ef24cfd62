//! "Memory through one step": the allocator replay's allocated and reserved over the events
//! of loading and one step, the GPU's capacity and the peak's moment. The chart is drawn by
//! the lazily loaded module (crates/tunefit-export/src/timeline_chart.rs) when the panel
//! opens, and redrawn for each new query while it is open; this component only asks and shows.

use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the module's `timeline_html`.
    #[wasm_bindgen(catch, js_name = tunefitTimeline)]
    fn tunefit_timeline(query: &str, lang: &str, gib: bool) -> Result<js_sys::Promise, JsValue>;
}

fn warning(m: &str) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<p class="notice warn" data-testid="timeline-error">"#, m, "</p>");
    h.into_string()
}

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let st = use_state();
    let open = RwSignal::new(false);
    let chart = RwSignal::new(String::new());
    Effect::new(move |_| {
        if !open.get() {
            return;
        }
        let query = st.query.with(|q| q.to_query_string());
        let (lang, gib) = (st.lang.get().built().code(), st.units.get() == crate::format::Units::GiB);
        if chart.with_untracked(String::is_empty) {
            let mut h = Html::new();
            write_html!(h, r#"<p class="muted" role="status">"#, st.lang.get_untracked().sh().export_loading, "</p>");
            chart.set(h.into_string());
        }
        spawn_local(async move {
            let got = match tunefit_timeline(&query, lang, gib) {
                Ok(p) => wasm_bindgen_futures::JsFuture::from(p).await.map(|v| v.as_string().unwrap_or_default()),
                Err(e) => Err(e),
            };
            // An answer for a query that has since changed is dropped.
            if st.query.with_untracked(|q| q.to_query_string()) != query {
                return;
            }
            chart.set(got.unwrap_or_else(|e| {
                warning(
                    &e.dyn_ref::<js_sys::Error>()
                        .map(|e| String::from(e.message()))
                        .or_else(|| e.as_string())
                        .unwrap_or_default(),
                )
            }));
        });
    });
    let toggle = move |ev: web_sys::Event| {
        let now = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if open.get_untracked() != now {
            open.set(now);
        }
    };
    view! {
        <details class="card timeline" data-testid="timeline" on:toggle=toggle>
            <summary><h2>{move || st.s().timeline_title}</h2></summary>
            <div inner_html=chart></div>
        </details>
    }
}
