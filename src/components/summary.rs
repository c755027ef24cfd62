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
use wasm_bindgen::JsCast;

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
    move || {
        let s = st.s();
        let (u, lang) = (st.units.get(), st.lang.get());
        st.report.with(|r| r.as_ref().ok().map(|r| {
            let device = bytes(r.memory.device as f64, u, lang);
            let verdict = r.fit.as_ref().map(|f| {
                let (label, class) = super::gpu_table::verdict_badge(s, f.verdict);
                let name = tunefit_core::dataset::gpu(&f.gpu).map_or(f.gpu.as_str(), |g| g.name);
                view! {
                    <p class="verdict" data-testid="verdict" data-verdict=f.verdict.as_str()>
                        <span class=format!("badge {class}")>{label}</span>" "
                        {(s.verdict_on)(name, &bytes(f.vram as f64, u, lang), &bytes(f.headroom as f64, u, lang), &bytes(f.band_low as f64, u, lang), &bytes(f.band_high as f64, u, lang))}
                    </p>
                }.into_any()
            }).unwrap_or_else(|| view! { <p class="verdict muted" data-testid="verdict-hint">{s.choose_gpu_hint}</p> }.into_any());
            // The core's fixes (fix.rs): each a change in the query's own words, its figure,
            // and whether it alone fits; a click applies it.
            // Written as escaped markup (markup.rs) with one click listener on the list.
            let current = format!("{} {}", lang.code(), st.query.with(|q| q.to_query_string()));
            let fixes_html = if r.fit.as_ref().is_some_and(|f| f.verdict != Verdict::Fits) {
                fixes.with(|f| match f.split_once('\n') {
                    Some((k, tsv)) if k == current => fixes_markup(s.fixes_title, &tunefit_core::report::read_fixes(tsv), u, lang).into_string(),
                    _ => String::new(),
                })
            } else { String::new() };
            let time = r.time.as_ref().map(|t| (s.summary_time)(&hours(t.hours, lang), t.gpus, &t.gpu));
            let cheapest = r.cost.as_ref().and_then(|c| c.cheapest.as_ref()).map(|c| (s.summary_cost)(&money(c.usd_total, c.currency, lang), c.gpus * c.instances, c.gpu, c.provider));
            view! {
                <section class="card summary" data-testid="summary" aria-label=s.summary_title>
                    <p class="summary-device"><strong data-testid="summary-device">{device}</strong>" "{s.per_gpu}</p>
                    {verdict}
                    <div class="fixes" inner_html=fixes_html on:click=move |ev| {
                        let set = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                            .and_then(|e| e.closest("button[data-set]").ok().flatten()).and_then(|b| b.get_attribute("data-set"));
                        if let Some(set) = set { st.edit(|q| { let _ = q.apply(&set); }) }
                    }></div>
                    <p class="muted summary-run">
                        {time.map(|t| view! { <span data-testid="summary-time">{t}</span> })}
                        {cheapest.map(|c| view! { " · "<span data-testid="summary-cost">{c}</span> })}
                    </p>
                </section>
            }
        }))
    }
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
