//! Notices: the opening link's bad keys (dismissible), and the core's warnings, written as
//! markup (markup.rs): the warnings change with every input, and a list of views rebuilt
//! each time cost more than its text.

use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;

/// Lists the keys of the opening link that did not apply; the rest of the link applied.
#[component]
pub fn LinkNotice() -> impl IntoView {
    let st = use_state();
    let html = move || {
        let lang = st.lang.get();
        let mut h = Html::new();
        st.link_errors.with(|errors| {
            if errors.is_empty() {
                return;
            }
            write_html!(h, r#"<div class="notice warn" role="alert" data-testid="link-notice"><p>"#, st.s().bad_link);
            write_html!(h, "</p><ul>");
            for e in errors {
                let key: String = e.key.chars().take(40).collect();
                write_html!(
                    h,
                    "<li><code>",
                    key,
                    "</code>: ",
                    tunefit_core::diag::query_problem(e, lang.core()),
                    "</li>"
                );
            }
            write_html!(
                h,
                r#"</ul><button type="button" data-testid="dismiss-notice" data-act="dismiss">"#,
                st.s().dismiss,
                "</button></div>"
            );
        });
        h.into_string()
    };
    // The one button: dismiss.
    let dismiss = move |ev: web_sys::MouseEvent| {
        if super::share::action_of(&ev).as_deref() == Some("dismiss") {
            st.link_errors.set(Vec::new());
        }
    };
    view! { <div class="contents" on:click=dismiss inner_html=html></div> }
}

/// The core's cautions for this configuration (no native BF16, PCIe-only sharding, ...).
#[component]
pub fn Warnings() -> impl IntoView {
    let st = use_state();
    // A memo: an input that leaves the warnings as they were does not rewrite them.
    let html = crate::reactive::memo(move || {
        let lang = st.lang.get();
        let mut h = Html::new();
        st.report.with(|r| {
            let Some(w) = r.as_ref().ok().map(|r| &r.warnings).filter(|w| !w.is_empty()) else { return };
            write_html!(h, r#"<section class="card notice warn" aria-labelledby="warn-title" data-testid="warnings">"#);
            write_html!(h, r#"<h2 id="warn-title">"#, st.s().warnings, "</h2><ul>");
            for w in w {
                write_html!(h, r#"<li data-code=""#, w.code(), r#"">"#, w.text(lang.core()), "</li>");
            }
            write_html!(h, "</ul></section>");
        });
        h.into_string()
    });
    view! { <div class="contents" inner_html=html></div> }
}
