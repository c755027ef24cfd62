//! Every GPU of the dataset against the current configuration: fits with its headroom,
//! needs N GPUs, or does not fit; plus the largest batch and longest sequence on it. The table
//! is the lazily loaded module's markup (crates/tunefit-export/src/gpu_table.rs: the core's
//! `Fit` for the same query with `gpu` set to each GPU), fetched once the browser is idle;
//! this component asks for it with the query as of the last frame and takes a row's click.

use crate::state::use_state;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the module's `gpu_rows_html`; resolves to the table.
    #[wasm_bindgen(catch, js_name = tunefitGpuRows)]
    fn tunefit_gpu_rows(query: &str, lang: &str, gib: bool) -> Result<js_sys::Promise, JsValue>;
}

#[component]
pub fn GpuTable() -> impl IntoView {
    let st = use_state();
    // A row's button, which its own click rewrites, keeps the keyboard focus.
    let table = NodeRef::<leptos::html::Div>::new();
    super::lazy::follow(table, "gpu-table", "data-gpu", move || {
        if !st.shows_gpus {
            return None;
        }
        let query = st.frame.with(|q| q.to_query_string());
        let (lang, gib) = (st.lang.get().built(), st.units.get() == crate::format::Units::GiB);
        let s = lang.strings();
        Some((tunefit_gpu_rows(&query, lang.code(), gib), s.gpus_loading, s.section_load_failed))
    });
    // One listener for every row's button (their markup carries the GPU id).
    let choose = move |ev: web_sys::MouseEvent| {
        if let Some(id) = super::share::attribute_of(&ev, "data-gpu") {
            st.edit(|q| q.gpu = Some(id))
        }
    };
    view! {
        <section class="card" aria-labelledby="gpu-title" data-testid="gpu-table">
            <h2 id="gpu-title">{move || st.s().gpu_title}</h2>
            // Focusable, so a keyboard reaches what is scrolled out of view (axe's
            // scrollable-region-focusable); the section around it names it.
            <div class="scroll" tabindex="0" data-lazy node_ref=table on:click=choose></div>
        </section>
    }
}
