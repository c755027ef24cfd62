//! "Copy config": the current configuration as files for the chosen framework
//! (`tunefit_core::export::export`), one tab per file, a copy button, and the settings the
//! framework cannot express (the export's warnings). The framework is the query's own, so
//! the config and the estimate describe the same run.

use super::share::{action_of, copy_then};
use crate::state::use_state;
use leptos::prelude::*;

#[component]
pub fn ExportPanel() -> impl IntoView {
    let st = use_state();
    let tab = RwSignal::new(0usize);
    let copied = RwSignal::new(None::<&'static str>);
    // The export follows on the next frame (deferred.rs): it re-runs the estimate and writes
    // every file, and an input's own update should not wait for a panel that is mostly closed.
    let q = super::deferred::frame_query();
    let export = Memo::new(move |_| q.with(|q| tunefit_core::export::export(q, q.framework)));
    // A new export (another framework has other files) starts at its first file.
    Effect::new(move |_| { export.track(); tab.set(0); copied.set(None); });
    // One listener for the tabs and the copy button (see share::action_of).
    let act = move |ev: web_sys::MouseEvent| match action_of(&ev).as_deref() {
        Some("copy") => {
            let Some(text) = export.with_untracked(|e| e.as_ref().ok().and_then(|x| x.files.get(tab.get_untracked()).map(|f| f.content.clone()))) else { return };
            copy_then(text, Box::new(move |ok, _| {
                let sh = st.lang.get_untracked().sh();
                copied.set(Some(if ok { sh.copied } else { sh.copy_failed }));
            }));
        }
        Some(t) => if let Some(i) = t.strip_prefix("tab:").and_then(|i| i.parse().ok()) { tab.set(i); copied.set(None); },
        None => {}
    };

    move || {
        let sh = st.lang.get().sh();
        view! {
            <details class="card export" data-testid="export" on:click=act>
                <summary><h2>{sh.export_title}</h2></summary>
                {move || export.with(|e| match e {
                    Err(e) => view! { <p class="notice warn">{st.s().cannot_compute}" "{e.to_string()}</p> }.into_any(),
                    Ok(x) => view! {
                        <p class="hint">{(sh.export_for)(x.framework.as_str())}</p>
                        <div role="tablist" class="tabs" data-testid="export-tabs">
                            {x.files.iter().enumerate().map(|(i, f)| view! {
                                <button type="button" role="tab" aria-selected=move || (tab.get() == i).to_string()
                                    data-testid="export-tab" data-act=format!("tab:{i}")>{f.name.clone()}</button>
                            }).collect_view()}
                        </div>
                        <pre class="code" role="tabpanel" data-testid="export-file"><code>{
                            move || export.with(|e| e.as_ref().ok().and_then(|x| x.files.get(tab.get()).map(|f| f.content.clone())))
                        }</code></pre>
                        <button type="button" data-testid="copy-config" data-act="copy">{sh.copy_config}</button>
                        <p class="muted" role="status" aria-live="polite">{copied}</p>
                        {(!x.warnings.is_empty()).then(|| view! {
                            <h3>{sh.export_warnings}</h3>
                            <ul data-testid="export-warnings">
                                {x.warnings.iter().map(|w| view! { <li data-code=w.code.clone()>{crate::i18n::core_message(st.lang.get_untracked(), &w.code, &w.message)}</li> }).collect_view()}
                            </ul>
                        })}
                    }.into_any(),
                })}
            </details>
        }
    }
}
