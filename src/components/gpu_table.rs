//! Every GPU of the dataset against the current configuration: fits with its headroom,
//! needs N GPUs, or does not fit; plus the largest batch and longest sequence on it. The rows
//! are the lazily loaded module's markup (crates/tunefit-export/src/gpu_table.rs: the core's
//! `Fit` for the same query with `gpu` set to each GPU), fetched once the browser is idle;
//! this component writes the header, asks for the rows with the query as of the last frame,
//! and takes a row's click.

use crate::i18n::Strings;
use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the module's `gpu_rows_html`; resolves to the table's rows.
    #[wasm_bindgen(catch, js_name = tunefitGpuRows)]
    fn tunefit_gpu_rows(query: &str, lang: &str, gib: bool) -> Result<js_sys::Promise, JsValue>;
}

#[component]
pub fn GpuTable() -> impl IntoView {
    let st = use_state();
    let rows = super::lazy::follow("gpu-table", move || {
        if !st.shows_gpus {
            return None;
        }
        let query = st.frame.with(|q| q.to_query_string());
        let (lang, gib) = (st.lang.get().built(), st.units.get() == crate::format::Units::GiB);
        let s = lang.strings();
        Some((tunefit_gpu_rows(&query, lang.code(), gib), s.gpus_loading, s.section_load_failed))
    });
    let body = NodeRef::<leptos::html::Div>::new();
    // Written by this effect rather than an `inner_html` attribute so that keyboard focus on a
    // row's button survives the rewrite its own click causes.
    Effect::new(move |_| {
        let Some(el) = body.get() else { return };
        rows.with(|r| {
            // The module's answer is rows; its loading or failure line stands alone.
            if r.starts_with("<tr") {
                let table =
                    format!("<table class=\"data\"><thead>{}</thead><tbody>{r}</tbody></table>", head_markup(st.s()));
                super::lazy::set_keeping_focus(&el, &table, "data-gpu");
            } else {
                el.set_inner_html(r);
            }
        });
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
            <div class="scroll" tabindex="0" data-lazy node_ref=body on:click=choose></div>
        </section>
    }
}

/// The table's header row.
fn head_markup(s: &Strings) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<tr><th scope="col">"#, s.col_gpu, r#"</th><th scope="col" class="num">"#, s.col_vram);
    write_html!(h, r#"</th><th scope="col">"#, s.col_status, r#"</th><th scope="col" class="num">"#, s.col_headroom);
    write_html!(h, r#"</th><th scope="col" class="num">"#, s.col_max_batch, r#"</th><th scope="col" class="num">"#);
    write_html!(h, s.col_max_seq, "</th></tr>");
    h.into_string()
}
