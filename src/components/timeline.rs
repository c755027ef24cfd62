//! "Memory through one step": the allocator replay's allocated and reserved over the events
//! of loading and one step, the GPU's capacity and the peak's moment. The chart is drawn by
//! the lazily loaded module (crates/tunefit-export/src/timeline_chart.rs) when the panel
//! opens, and redrawn for each new query while it is open; this component only asks and shows.

use crate::state::use_state;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the module's `timeline_html`.
    #[wasm_bindgen(catch, js_name = tunefitTimeline)]
    fn tunefit_timeline(query: &str, lang: &str, gib: bool) -> Result<js_sys::Promise, JsValue>;
}

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let st = use_state();
    let open = RwSignal::new(false);
    let chart = NodeRef::<leptos::html::Div>::new();
    super::lazy::follow(chart, "timeline", "data-act", move || {
        if !open.get() {
            return None;
        }
        let query = st.query.with(|q| q.to_query_string());
        let (lang, gib) = (st.lang.get().built(), st.units.get() == crate::format::Units::GiB);
        let s = lang.strings();
        Some((tunefit_timeline(&query, lang.code(), gib), s.plot_loading, s.section_load_failed))
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
            <div node_ref=chart></div>
        </details>
    }
}
