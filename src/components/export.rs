//! "Copy config": the current configuration as files for the chosen framework, one tab per
//! file, a copy button, and the settings the framework cannot express (the export's
//! warnings). The framework is the query's own, so the config and the estimate describe the
//! same run.
//!
//! The exporter (`tunefit_core::export` with its templates) and the panel's markup are not in
//! this wasm: the lazily loaded module (crates/tunefit-export/src/export_panel.rs, through
//! public/boot.js's `tunefitExportHtml`) writes the panel when it first opens, and again for
//! each new query, framework, language or tab while it is open. Until the first answer
//! arrives the panel says it is loading, and a module that cannot be loaded is said, never a
//! blank panel. Copy copies the shown file's text.

use super::share::{action_of, copy_then};
use crate::state::use_state;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: loads the module on the first call; resolves to the panel's markup in
    /// `lang`, file `tab` shown.
    #[wasm_bindgen(catch, js_name = tunefitExportHtml)]
    fn tunefit_export_html(query: &str, framework: &str, lang: &str, tab: usize) -> Result<js_sys::Promise, JsValue>;
}

#[component]
pub fn ExportPanel() -> impl IntoView {
    let st = use_state();
    let tab = RwSignal::new(0usize);
    let copied = RwSignal::new(None::<&'static str>);
    let open = RwSignal::new(false);
    // Another framework has other files: it starts at its first.
    let framework = Memo::new(move |_| st.frame.with(|q| q.framework));
    Effect::new(move |_| {
        // Read, not only tracked: a memo nothing reads never follows its sources.
        framework.get();
        tab.set(0);
    });
    // The export follows on the next frame (deferred.rs): it re-runs the estimate and writes
    // every file, and an input's own update should not wait for a panel that is mostly closed.
    // It is asked for only while the panel is open.
    // A tab's click rewrites the panel: the tab keeps the keyboard focus.
    let panel = NodeRef::<leptos::html::Div>::new();
    super::lazy::follow(panel, "export", "data-act", move || {
        if !open.get() {
            return None;
        }
        let (query, fw) = st.frame.with(|q| (q.to_query_string(), q.framework.as_str()));
        let (lang, i) = (st.lang.get().built(), tab.get());
        copied.set(None);
        let sh = lang.sh();
        Some((tunefit_export_html(&query, fw, lang.code(), i), sh.export_loading, sh.export_load_failed))
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
            let file = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|e| e.closest("details").ok().flatten())
                .and_then(|d| d.query_selector("[data-testid=export-file]").ok().flatten());
            let Some(text) = file.and_then(|f| f.text_content()) else { return };
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
            }
        }
        None => {}
    };
    view! {
        <details class="card export" data-testid="export" on:click=act on:toggle=toggle>
            <summary><h2>{move || st.lang.get().sh().export_title}</h2></summary>
            <div node_ref=panel></div>
            <p class="muted" role="status" aria-live="polite">{copied}</p>
        </details>
    }
}
