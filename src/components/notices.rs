//! Notices: the opening link's bad keys (dismissible), and the core's warnings.

use crate::state::use_state;
use leptos::prelude::*;

/// Lists the keys of the opening link that did not apply; the rest of the link applied.
#[component]
pub fn LinkNotice() -> impl IntoView {
    let st = use_state();
    move || {
        let errors = st.link_errors.get();
        (!errors.is_empty()).then(|| {
            view! {
                <div class="notice warn" role="alert" data-testid="link-notice">
                    <p>{st.s().bad_link}</p>
                    <ul>
                        {errors.into_iter().map(|e| view! {
                            <li><code>{e.key.chars().take(40).collect::<String>()}</code>": "{tunefit_core::diag::query_problem(&e, st.lang.get().core())}</li>
                        }).collect_view()}
                    </ul>
                    <button type="button" data-testid="dismiss-notice" on:click=move |_| st.link_errors.set(Vec::new())>
                        {st.s().dismiss}
                    </button>
                </div>
            }
        })
    }
}

/// The core's cautions for this configuration (no native BF16, PCIe-only sharding, ...).
#[component]
pub fn Warnings() -> impl IntoView {
    let st = use_state();
    move || {
        st.report.with(|r| {
        let w = r.as_ref().map(|r| r.warnings.clone()).unwrap_or_default();
        let lang = st.lang.get();
        (!w.is_empty()).then(|| view! {
            <section class="card notice warn" aria-labelledby="warn-title" data-testid="warnings">
                <h2 id="warn-title">{st.s().warnings}</h2>
                <ul>{w.into_iter().map(|w| view! { <li data-code=w.code()>{w.text(lang.core())}</li> }).collect_view()}</ul>
            </section>
        })
    })
    }
}
