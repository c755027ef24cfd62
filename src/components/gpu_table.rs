//! Every GPU of the dataset against the current configuration: fits with its headroom,
//! needs N GPUs, or does not fit; plus the largest batch and longest sequence on it.
//! Each row is the core's `Fit` for the same query with `gpu` set to that GPU.

use crate::format::{bytes, number, Units};
use crate::i18n::{Lang, Strings};
use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::{
    dataset,
    report::{Fit, Verdict},
    solve,
};
use wasm_bindgen::JsCast;

/// One row: the GPU's id and name, and its fit (None when the core could not evaluate it).
pub type GpuFit = (&'static str, &'static str, Option<Fit>);

/// The fit of the current query on every GPU of the dataset (the core's `fit_every_gpu`),
/// paired with each GPU's display name. Empty when the query cannot be estimated.
/// `replayed`: the report's replay share when the report is of this query.
pub fn fits(q: &tunefit_core::Query, replayed: Option<f64>) -> Vec<GpuFit> {
    let all = solve::fit_every_gpu(q, replayed).unwrap_or_default();
    dataset::gpus()
        .iter()
        .zip(all.into_iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(g, f)| (g.id, g.name, f))
        .collect()
}

#[component]
pub fn GpuTable() -> impl IntoView {
    let st = use_state();
    let q = st.frame;
    let rows = Memo::new(move |_| q.with(|q| fits(q, st.replayed(q))));
    let body = NodeRef::<leptos::html::Tbody>::new();
    // The rows are text markup (markup.rs says why), written by this effect rather than an
    // `inner_html` attribute so that keyboard focus on a row's button survives the rewrite
    // its own click causes. The chosen GPU comes from the frame's copy too: the live query
    // would rewrite the rows within each input's own update.
    Effect::new(move |_| {
        let html =
            rows.with(|r| rows_markup(st.s(), st.units.get(), st.lang.get(), r, q.with(|q| q.gpu.clone()).as_deref()));
        let Some(el) = body.get() else { return };
        let focused =
            document().active_element().filter(|a| el.contains(Some(a))).and_then(|a| a.get_attribute("data-gpu"));
        el.set_inner_html(html.as_str());
        if let Some(b) = focused.and_then(|id| el.query_selector(&format!("button[data-gpu=\"{id}\"]")).ok().flatten())
        {
            let _ = b.unchecked_into::<web_sys::HtmlElement>().focus();
        }
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
            <div class="scroll" tabindex="0">
            <table class="data">
                <thead inner_html=move || head_markup(st.s())></thead>
                <tbody node_ref=body on:click=choose></tbody>
            </table>
            </div>
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

/// A verdict's label and badge class; inside the error band is never green.
pub fn verdict_badge(s: &Strings, v: Verdict) -> (&'static str, &'static str) {
    match v {
        Verdict::Fits => (s.fits, "ok"),
        Verdict::Tight => (s.tight, "warn"),
        Verdict::DoesNotFit => (s.no_fit, "bad"),
    }
}

/// The table's rows: each GPU's memory, fit status, headroom, largest batch and longest
/// sequence; `target` (the chosen GPU) is marked selected.
pub fn rows_markup(s: &Strings, u: Units, lang: Lang, rows: &[GpuFit], target: Option<&str>) -> Html {
    let mut h = Html::with_capacity(rows.len() * 600);
    let dash = s.not_computed;
    for (id, name, fit) in rows {
        let (status, class) = match fit {
            // A configuration that needs more GPUs says how many.
            Some(f) => match (f.verdict, f.min_gpus) {
                (Verdict::DoesNotFit, Some(n)) if n > 1 => ((s.needs_gpus)(n), "warn"),
                (v, _) => {
                    let (label, class) = verdict_badge(s, v);
                    (label.to_string(), class)
                }
            },
            None => (dash.to_string(), ""),
        };
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| dash.to_string());
        let (headroom, vram) = (
            or_dash(fit.as_ref().map(|f| bytes(f.headroom as f64, u, lang))),
            or_dash(fit.as_ref().map(|f| bytes(f.vram as f64, u, lang))),
        );
        let max_batch = or_dash(fit.as_ref().and_then(|f| f.max_batch).map(|b| number(b as f64, 0, lang)));
        let max_seq = or_dash(fit.as_ref().and_then(|f| f.max_seq).map(|b| number(b as f64, 0, lang)));
        let selected = target == Some(*id);
        write_html!(h, r#"<tr data-testid="gpu-row-"#, id, r#"" data-status=""#, class, r#"""#);
        if selected {
            write_html!(h, r#" class="selected""#);
        }
        write_html!(
            h,
            r#"><th scope="row"><button type="button" class="link" data-gpu=""#,
            id,
            r#"" aria-pressed=""#,
            selected,
            r#"" title=""#,
            (s.use_gpu)(name),
            r#"">"#,
            name,
            r#"</button></th><td class="num" data-label=""#,
            s.col_vram,
            r#"">"#,
            vram,
            r#"</td><td data-label=""#,
            s.col_status,
            r#""><span class="badge "#,
            class,
            r#"" data-testid="fit-status">"#,
            status,
            r#"</span></td><td class="num" data-testid="headroom" data-label=""#,
            s.col_headroom,
            r#"">"#,
            headroom,
            r#"</td><td class="num" data-testid="max-batch" data-label=""#,
            s.col_max_batch,
            r#"">"#,
            max_batch,
            r#"</td><td class="num" data-testid="max-seq" data-label=""#,
            s.col_max_seq,
            r#"">"#,
            max_seq,
            "</td></tr>"
        );
    }
    h
}
