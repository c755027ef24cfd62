//! Sections whose markup the lazily loaded module writes (the cost ranking, the GPU table,
//! the memory plot's curve below the first screen; the timeline and Copy-config panels when
//! opened): asked again on every change of what they show, the latest question's answer wins,
//! and until the first answer (or after a failure) the section says so in a line of its own
//! rather than staying blank.

use crate::markup::{write_html, Html};
use leptos::html::Div;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::{JsCast, JsValue};

/// Writes the markup `ask` resolves to into the element `el` refers to, following whatever
/// `ask` reads (an effect). `ask` answers None when the section is not shown (nothing is
/// asked), else its question to the module (public/boot.js) and the section's two lines:
/// while it loads, and why it could not load. A control of the module's markup that had the
/// keyboard focus, named by its `focus_by` attribute, keeps it across the rewrite its own
/// click causes (`set_keeping_focus`).
pub fn follow(
    el: NodeRef<Div>,
    testid: &'static str,
    focus_by: &'static str,
    ask: impl Fn() -> Option<(Result<js_sys::Promise, JsValue>, &'static str, fn(&str) -> String)> + 'static,
) {
    let write = move |html: &str| {
        if let Some(el) = el.get_untracked() {
            set_keeping_focus(&el, html, focus_by);
        }
    };
    let asked = StoredValue::new(0u32);
    // Whether an answer has been shown (an empty one included), and whether the last failed.
    let answered = StoredValue::new(false);
    let failed = StoredValue::new(false);
    Effect::new(move |_| {
        let Some((question, loading, why_not)) = ask() else { return };
        let n = asked.get_value().wrapping_add(1);
        asked.set_value(n);
        if failed.get_value() || !answered.get_value() {
            write(&line("muted", &format!("{testid}-loading"), loading));
        }
        spawn_local(async move {
            let answer = super::model::settle(question).await;
            if asked.get_value() != n {
                return;
            }
            failed.set_value(answer.is_err());
            answered.set_value(true);
            write(&answer.unwrap_or_else(|e| line("notice warn", &format!("{testid}-error"), &why_not(&e))));
        });
    });
}

/// Writes `html` into `el`; the element inside that had the keyboard focus, found again by
/// its `attr` (a row's `data-gpu`, a button's `data-act`), gets it back: a click on a button
/// of the module's markup rewrites that markup, and the focus must not fall to the page.
fn set_keeping_focus(el: &web_sys::Element, html: &str, attr: &str) {
    let focused = document().active_element().filter(|a| el.contains(Some(a))).and_then(|a| a.get_attribute(attr));
    el.set_inner_html(html);
    if let Some(b) = focused.and_then(|v| el.query_selector(&format!("[{attr}=\"{v}\"]")).ok().flatten()) {
        let _ = b.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}

/// A section's own line (loading, or why the module is missing) as markup.
fn line(class: &str, testid: &str, text: &str) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<p class=""#, class, r#"" role="status" data-testid=""#, testid, r#"">"#, text, "</p>");
    h.into_string()
}
