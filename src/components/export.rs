//! "Copy config": the current configuration as files for the chosen framework
//! (`tunefit_core::export::export`), one tab per file, a copy button, and the settings the
//! framework cannot express (the export's warnings). The framework is the query's own, so
//! the config and the estimate describe the same run.

use super::share::copy_text;
use crate::state::use_state;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn ExportPanel() -> impl IntoView {
    let st = use_state();
    let sh = move || st.lang.get().sh();
    let tab = RwSignal::new(0usize);
    let copied = RwSignal::new(None::<&'static str>);
    let export = Memo::new(move |_| st.query.with(|q| tunefit_core::export::export(q, q.framework)));
    // A new export (another framework has other files) starts at its first file.
    Effect::new(move |_| { export.track(); tab.set(0); copied.set(None); });

    view! {
        <details class="card export" data-testid="export">
            <summary><h2>{move || sh().export_title}</h2></summary>
            {move || export.with(|e| match e {
                Err(e) => view! { <p class="notice warn">{st.s().cannot_compute}" "{e.to_string()}</p> }.into_any(),
                Ok(x) => {
                    let files = x.files.clone();
                    let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
                    let warnings = x.warnings.clone();
                    view! {
                        <p class="hint">{(sh().export_for)(x.framework.as_str())}</p>
                        <div role="tablist" class="tabs" data-testid="export-tabs">
                            {names.into_iter().enumerate().map(|(i, n)| view! {
                                <button type="button" role="tab" aria-selected=move || (tab.get() == i).to_string()
                                    data-testid="export-tab" on:click=move |_| { tab.set(i); copied.set(None); }>{n}</button>
                            }).collect_view()}
                        </div>
                        {move || files.get(tab.get()).cloned().map(|f| {
                            let content = f.content.clone();
                            view! {
                                <pre class="code" role="tabpanel" data-testid="export-file" data-language=f.language><code>{f.content}</code></pre>
                                <button type="button" data-testid="copy-config" on:click=move |_| {
                                    let c = content.clone();
                                    spawn_local(async move {
                                        let ok = copy_text(&c).await;
                                        copied.set(Some(if ok { sh().copied } else { sh().copy_failed }));
                                    });
                                }>{sh().copy_config}</button>
                            }
                        })}
                        <p class="muted" role="status" aria-live="polite">{move || copied.get()}</p>
                        {(!warnings.is_empty()).then(|| view! {
                            <h3>{sh().export_warnings}</h3>
                            <ul data-testid="export-warnings">
                                {warnings.into_iter().map(|w| view! { <li data-code=w.code>{w.message}</li> }).collect_view()}
                            </ul>
                        })}
                    }.into_any()
                }
            })}
        </details>
    }
}
