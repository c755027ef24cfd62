//! The answer a person came for, first: per-GPU memory, the chosen GPU's verdict with the
//! model's error band, the training time and the cheapest offer. Sticky on wide screens,
//! first on a phone; every figure is the report's.

use crate::format::{bytes, hours, money};
use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use leptos::task::spawn_local;
use tunefit_core::fix::Fix;
use tunefit_core::report::Verdict;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the fixes for the query's chosen GPU (`fixes_tsv`), notes in `lang`,
    /// from the lazily loaded module.
    #[wasm_bindgen(catch, js_name = tunefitFixes)]
    fn tunefit_fixes(query: &str, lang: &str) -> Result<js_sys::Promise, JsValue>;
}

#[component]
pub fn Summary() -> impl IntoView {
    let st = use_state();
    // The fixes of the query they were asked for, as the module wrote them: the language and
    // the query on the first line, then `fixes_tsv`'s lines (a String signal: no new signal
    // type in the wasm). Shown only while that query and language are current.
    let fixes = RwSignal::new(String::new());
    Effect::new(move |_| {
        let tight = st
            .report
            .with(|r| r.as_ref().ok().and_then(|r| r.fit.as_ref()).is_some_and(|f| f.verdict != Verdict::Fits));
        if !tight {
            return;
        }
        let lang = st.lang.get().built().code();
        let query = st.query.with(|q| q.to_query_string());
        let key = format!("{lang} {query}");
        if fixes.with_untracked(|f| f.lines().next() == Some(key.as_str())) {
            return;
        }
        spawn_local(async move {
            let Ok(p) = tunefit_fixes(&query, lang) else { return };
            let Some(text) = wasm_bindgen_futures::JsFuture::from(p).await.ok().and_then(|v| v.as_string()) else {
                return;
            };
            fixes.set(format!("{key}\n{text}"));
        });
    });
    // One string (a memo: an unchanged summary costs no DOM work), set as the markup of one
    // element with one click listener for the fixes' buttons.
    let html = crate::reactive::memo(move || {
        let (u, lang) = (st.units.get(), st.lang.get());
        st.report.with(|r| {
            r.as_ref().ok().map_or_else(String::new, |r| {
                // The fixes were asked for the report's own query (its canonical string).
                let current = format!("{} {}", lang.code(), r.query);
                fixes.with(|f| {
                    let tsv = f.split_once('\n').filter(|(k, _)| *k == current).map(|(_, tsv)| tsv);
                    summary_markup(lang, u, r, tsv).into_string()
                })
            })
        })
    });
    let apply = move |ev: web_sys::MouseEvent| {
        if let Some(set) = super::share::attribute_of(&ev, "data-set") {
            st.edit(|q| {
                let _ = q.apply(&set);
            })
        }
    };
    view! { <div class="contents" inner_html=move || html.get() on:click=apply></div> }
}

/// The summary of `r`: per-GPU memory, the chosen GPU's verdict (or a hint to choose one),
/// the fixes when it does not fit or is tight (`fixes`: `fixes_tsv`'s lines for this query),
/// the time and the cheapest offer.
fn summary_markup(
    lang: crate::i18n::Lang,
    u: crate::format::Units,
    r: &tunefit_core::report::Report,
    fixes: Option<&str>,
) -> Html {
    let s = lang.strings();
    let b = |v: f64| bytes(v, u, lang);
    let mut h = Html::with_capacity(1 << 10);
    write_html!(h, r#"<section class="card summary" data-testid="summary" aria-label=""#, s.summary_title);
    write_html!(h, r#""><p class="summary-device"><strong data-testid="summary-device">"#, b(r.memory.device as f64));
    write_html!(h, "</strong> ", s.per_gpu, "</p>");
    match &r.fit {
        Some(f) => {
            let (label, class) = crate::i18n::verdict_badge(s, f.verdict);
            let name = tunefit_core::dataset::gpu(&f.gpu).map_or(f.gpu.as_str(), |g| g.name);
            write_html!(h, r#"<p class="verdict" data-testid="verdict" data-verdict=""#, f.verdict.as_str());
            write_html!(h, r#""><span class="badge "#, class, r#"">"#, label, "</span> ");
            write_html!(
                h,
                (s.verdict_on)(
                    name,
                    &b(f.vram as f64),
                    &b(f.headroom as f64),
                    &b(f.band_low as f64),
                    &b(f.band_high as f64)
                ),
                "</p>"
            );
        }
        None => write_html!(h, r#"<p class="verdict muted" data-testid="verdict-hint">"#, s.choose_gpu_hint, "</p>"),
    }
    // The core's fixes (fix.rs): each a change in the query's own words, its figure, and
    // whether it alone fits; a click applies it.
    write_html!(h, r#"<div class="fixes">"#);
    if let Some(tsv) = fixes.filter(|_| r.fit.as_ref().is_some_and(|f| f.verdict != Verdict::Fits)) {
        h.html(&fixes_markup(s.fixes_title, &tunefit_core::report::read_fixes(tsv), u, lang));
    }
    write_html!(h, r#"</div><p class="muted summary-run">"#);
    if let Some(t) = &r.time {
        write_html!(h, r#"<span data-testid="summary-time">"#, (s.summary_time)(&hours(t.hours, lang), t.gpus, &t.gpu));
        write_html!(h, "</span>");
    }
    if let Some(c) = r.cost.as_ref().and_then(|c| c.cheapest.as_ref()) {
        let text = (s.summary_cost)(&money(c.usd_total, c.currency, lang), c.gpus * c.instances, c.gpu, c.provider);
        write_html!(h, r#" · <span data-testid="summary-cost">"#, text, "</span>");
    }
    write_html!(h, "</p></section>");
    h
}

/// The fixes as markup: each a button carrying its `set`, its figure and ✓ when it fits alone.
pub fn fixes_markup(title: &str, fixes: &[Fix], u: crate::format::Units, lang: crate::i18n::Lang) -> Html {
    let mut h = Html::new();
    if fixes.is_empty() {
        return h;
    }
    write_html!(h, r#"<p class="muted">"#, title, r#"</p><ul data-testid="fixes">"#);
    for f in fixes {
        write_html!(
            h,
            r#"<li><button type="button" class="link" data-testid="fix" data-set=""#,
            f.set,
            r#"" data-fits=""#,
            f.fits,
            r#"" title=""#,
            f.note,
            r#"">"#,
            f.set,
            " → ",
            bytes(f.device as f64, u, lang)
        );
        if f.fits {
            write_html!(h, " ✓");
        }
        write_html!(h, "</button></li>");
    }
    write_html!(h, "</ul>");
    h
}
