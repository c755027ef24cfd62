//! The memory plot: memory against sequence length or micro-batch (`plot=`), with each GPU's
//! memory as a horizontal line. The title and the choice of axis are the page's; the curve is
//! the lazily loaded module's SVG (crates/tunefit-export/src/memory_plot.rs: the core evaluated
//! at a ladder of either), fetched with it once the browser is idle, below the first screen.
//! (Cost against time lives with the cost ranking, written by the same module.)

use crate::format::Units;
use crate::i18n::{Lang, Strings};
use crate::markup::{write_html, Html};
use crate::state::use_state;
use crate::url::PlotX;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the module's `memory_plot_html`; resolves to the curve's SVG.
    #[wasm_bindgen(catch, js_name = tunefitMemoryPlot)]
    fn tunefit_memory_plot(query: &str, batch: bool, lang: &str, gib: bool) -> Result<js_sys::Promise, JsValue>;
}

#[component]
pub fn MemorySeqPlot() -> impl IntoView {
    let st = use_state();
    let curve = NodeRef::<leptos::html::Div>::new();
    super::lazy::follow(curve, "plot", "data-act", move || {
        // A widget never shows the plot (style/main.css).
        if st.embed {
            return None;
        }
        let query = st.frame.with(|q| q.to_query_string());
        let (lang, batch, gib) = (st.lang.get().built(), st.plot_x() == PlotX::Batch, st.units.get() == Units::GiB);
        let s = lang.strings();
        Some((tunefit_memory_plot(&query, batch, lang.code(), gib), s.plot_loading, s.section_load_failed))
    });
    // The title, its description and the axis's choice are markup that follows the language;
    // one effect follows the axis (the select keeps its focus), one listener takes a choice.
    Effect::new(move |_| {
        let (s, x) = (st.s(), st.plot_x());
        let (title, desc) = titles(s, x);
        for (id, text) in [("plot-seq-title", title), ("plot-seq-desc", desc)] {
            if let Some(el) = super::element::<web_sys::Element>(id) {
                el.set_text_content(Some(text));
            }
        }
        if let Some(sel) = super::element::<web_sys::HtmlSelectElement>("plot-x") {
            sel.set_value(x.code());
        }
    });
    let chosen = move |ev: web_sys::Event| {
        if let Some(x) = PlotX::parse(&event_target_value(&ev)) {
            st.plot_batch.set(x == PlotX::Batch)
        }
    };
    view! {
        <section class="card" aria-labelledby="plot-seq-title" data-testid="plot-mem-seq">
            <div class="contents" inner_html=move || head_markup(st.lang.get(), untrack(|| st.plot_x())) on:change=chosen></div>
            // The lazily loaded module's SVG, for the query as of the last frame (deferred.rs).
            <div data-lazy node_ref=curve></div>
        </section>
    }
}

/// The plot's title and description for axis `x`.
fn titles(s: &Strings, x: PlotX) -> (&'static str, &'static str) {
    match x {
        PlotX::Batch => (s.plot_mem_batch, s.plot_mem_batch_desc),
        PlotX::Seq => (s.plot_mem_seq, s.plot_mem_seq_desc),
    }
}

/// The plot's title and description for axis `x`, and the choice of axis.
fn head_markup(lang: Lang, x: PlotX) -> String {
    let s = lang.strings();
    let (title, desc) = titles(s, x);
    let mut h = Html::new();
    write_html!(h, r#"<h2 id="plot-seq-title">"#, title, r#"</h2><p class="muted small" id="plot-seq-desc">"#, desc);
    write_html!(h, r#"</p><div class="field"><label for="plot-x">"#, s.plot_against, r#"</label><select id="plot-x""#);
    write_html!(h, r#" data-testid="plot-x">"#);
    for o in PlotX::ALL {
        write_html!(h, r#"<option value=""#, o.code(), r#"""#, if o == x { " selected" } else { "" }, ">");
        write_html!(h, crate::i18n::value_label(lang, o.code()), "</option>");
    }
    write_html!(h, "</select></div>");
    h.into_string()
}
