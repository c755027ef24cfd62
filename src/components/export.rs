//! "Copy config": the current configuration as files for the chosen framework, one tab per
//! file, a copy button, and the settings the framework cannot express (the export's
//! warnings). The framework is the query's own, so the config and the estimate describe the
//! same run.
//!
//! The exporter (`tunefit_core::export`, ~25 KB of gzipped wasm with its templates) is not in
//! this wasm: it is a second module (crates/tunefit-export) that public/boot.js imports on the
//! first `tunefitExport` call, made when this panel first opens. The answer is JSON
//! (`export_json`), read back with `read_export_json`; until it arrives the panel says it is
//! loading, and a module that cannot be loaded is said, never a blank panel. The exporter
//! is asked in the page's language and renders every notice in it, the framework profile's
//! warnings included (their sentences ship with it, not in this wasm), so the panel shows
//! each message as it arrives.

use super::share::{action_of, copy_then};
use crate::state::use_state;
use leptos::prelude::*;
use leptos::task::spawn_local;
use tunefit_core::export::{read_export_json, ConfigExport};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: loads the exporter module on the first call; resolves to its JSON,
    /// the warnings in `lang` (the exporter carries their Russian, not this wasm).
    #[wasm_bindgen(catch, js_name = tunefitExport)]
    fn tunefit_export(query: &str, framework: &str, lang: &str) -> Result<js_sys::Promise, JsValue>;
}

/// What the panel shows.
#[derive(Clone, PartialEq)]
enum Shown {
    /// The exporter module is loading (or its first answer is on the way).
    Loading,
    Ready(ConfigExport),
    /// The exporter's own error for this configuration (as `tunefit export` prints it).
    Invalid(String),
    /// The exporter module could not be loaded or called.
    Unavailable(String),
}

async fn ask(query: String, framework: &'static str, lang: &'static str) -> Shown {
    let why = |e: JsValue| {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| "unknown error".into())
    };
    let answer = match tunefit_export(&query, framework, lang) {
        Ok(p) => wasm_bindgen_futures::JsFuture::from(p).await,
        Err(e) => Err(e),
    };
    match answer {
        Ok(v) => match v.as_string().map(|t| read_export_json(&t)) {
            Some(Ok(x)) => Shown::Ready(x),
            Some(Err(e)) => Shown::Invalid(e),
            None => Shown::Unavailable("config exporter: no text".into()),
        },
        Err(e) => Shown::Unavailable(why(e)),
    }
}

#[component]
pub fn ExportPanel() -> impl IntoView {
    let st = use_state();
    let tab = RwSignal::new(0usize);
    let copied = RwSignal::new(None::<&'static str>);
    let open = RwSignal::new(false);
    let shown = RwSignal::new(Shown::Loading);
    // The export follows on the next frame (deferred.rs): it re-runs the estimate and writes
    // every file, and an input's own update should not wait for a panel that is mostly closed.
    // It is asked for only while the panel is open; the latest question's answer wins.
    let q = st.frame;
    let asked = StoredValue::new(0u32);
    Effect::new(move |_| {
        if !open.get() {
            return;
        }
        let (query, framework) = q.with(|q| (q.to_query_string(), q.framework.as_str()));
        // The exporter renders its notes in the language asked, so another language is another
        // question.
        let lang = st.lang.get().built().code();
        let n = asked.get_value().wrapping_add(1);
        asked.set_value(n);
        if shown.with_untracked(|s| matches!(s, Shown::Unavailable(_))) {
            shown.set(Shown::Loading);
        }
        spawn_local(async move {
            let next = ask(query, framework, lang).await;
            if asked.get_value() == n && shown.with_untracked(|s| *s != next) {
                shown.set(next);
            }
        });
    });
    // A new export (another framework has other files) starts at its first file.
    Effect::new(move |_| {
        shown.track();
        tab.set(0);
        copied.set(None);
    });
    let toggle = move |ev: web_sys::Event| {
        let now = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if open.get_untracked() != now {
            open.set(now);
        }
    };
    // One listener for the tabs and the copy button (see share::action_of).
    let act = move |ev: web_sys::MouseEvent| match action_of(&ev).as_deref() {
        Some("copy") => {
            let Some(text) = shown.with_untracked(|s| match s {
                Shown::Ready(x) => x.files.get(tab.get_untracked()).map(|f| f.content.clone()),
                _ => None,
            }) else {
                return;
            };
            copy_then(
                text,
                Box::new(move |ok, _| {
                    let sh = st.lang.get_untracked().sh();
                    copied.set(Some(if ok { sh.copied } else { sh.copy_failed }));
                }),
            );
        }
        Some(t) => {
            if let Some(i) = t.strip_prefix("tab:").and_then(|i| i.parse().ok()) {
                tab.set(i);
                copied.set(None);
            }
        }
        None => {}
    };

    move || {
        let sh = st.lang.get().sh();
        view! {
            <details class="card export" data-testid="export" on:click=act on:toggle=toggle>
                <summary><h2>{sh.export_title}</h2></summary>
                {move || shown.with(|s| match s {
                    Shown::Loading => view! { <p class="muted" role="status" data-testid="export-loading">{sh.export_loading}</p> }.into_any(),
                    Shown::Unavailable(e) => view! { <p class="notice warn" data-testid="export-error">{(sh.export_load_failed)(e)}</p> }.into_any(),
                    Shown::Invalid(e) => view! { <p class="notice warn" data-testid="export-error">{st.s().cannot_compute}" "{e.clone()}</p> }.into_any(),
                    Shown::Ready(x) => view! {
                        <p class="hint">{(sh.export_for)(x.framework.as_str())}</p>
                        <div role="tablist" class="tabs" data-testid="export-tabs">
                            {x.files.iter().enumerate().map(|(i, f)| view! {
                                <button type="button" role="tab" aria-selected=move || (tab.get() == i).to_string()
                                    data-testid="export-tab" data-act=format!("tab:{i}")>{f.name.clone()}</button>
                            }).collect_view()}
                        </div>
                        <pre class="code" role="tabpanel" data-testid="export-file"><code>{
                            move || shown.with(|s| match s { Shown::Ready(x) => x.files.get(tab.get()).map(|f| f.content.clone()), _ => None })
                        }</code></pre>
                        <button type="button" data-testid="copy-config" data-act="copy">{sh.copy_config}</button>
                        <p class="muted" role="status" aria-live="polite">{copied}</p>
                        {(!x.warnings.is_empty()).then(|| view! {
                            <h3>{sh.export_warnings}</h3>
                            <ul data-testid="export-warnings">
                                {x.warnings.iter().map(|w| view! { <li data-code=w.code.clone()>{w.message.clone()}</li> }).collect_view()}
                            </ul>
                        })}
                    }.into_any(),
                })}
            </details>
        }
    }
}
