//! Embed mode (`embed=1`): the compact widget for an iframe in someone's documentation.
//!
//! No header, controls or footer: the figures of the link (memory, fit and cost, or the one
//! section `view=memory|fit|cost` names), `theme` and `lang` applied as on the page, and a
//! link to open the full calculator. The widget tells its parent how tall it is with
//! `postMessage({type: 'tunefit:height', height})`, on load and on every resize
//! (ResizeObserver), so the host can size the iframe (share.rs writes the host's script).

use super::{cost::CostSection, gpu_table::GpuTable, memory::MemoryPanel, notices::{LinkNotice, Warnings}};
use crate::state::AppState;
use crate::url::View;
use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};

#[component]
pub fn EmbedApp() -> impl IntoView {
    let st = AppState::install();
    let root = NodeRef::<leptos::html::Main>::new();
    Effect::new(move |_| { if let Some(el) = root.get() { post_height_on_resize(&el); } });
    let shows = move |v: View| st.view.is_none() || st.view == Some(v);
    let full = move || format!("{}?{}", super::share::page_base(), st.query.with(|q| q.to_query_string()));
    view! {
        <main class="embed" node_ref=root data-testid="embed-root">
            <LinkNotice/>
            {shows(View::Memory).then(|| view! { <MemoryPanel/><Warnings/> })}
            {shows(View::Fit).then(|| view! { <GpuTable/> })}
            {shows(View::Cost).then(|| view! { <CostSection/> })}
            <p class="embed-foot muted"><a href=full target="_blank" rel="noopener">{move || st.lang.get().sh().open_full}</a></p>
        </main>
    }
}

/// Posts the element's height to the parent now and after every change of its size.
fn post_height_on_resize(el: &web_sys::Element) {
    let Some(w) = web_sys::window() else { return };
    // Not framed: nobody to tell.
    let Ok(Some(parent)) = w.parent() else { return };
    if parent == w { return; }
    let target = el.clone();
    let post = Closure::<dyn FnMut()>::new(move || {
        let msg = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&msg, &"type".into(), &"tunefit:height".into());
        let h = target.get_bounding_client_rect().height().ceil();
        let _ = js_sys::Reflect::set(&msg, &"height".into(), &JsValue::from_f64(h));
        // The height is not a secret: any host may read it.
        let _ = parent.post_message(&msg, "*");
    });
    // The observer calls back once when observation starts (the load message), then on resize.
    if let Ok(obs) = web_sys::ResizeObserver::new(post.as_ref().unchecked_ref()) { obs.observe(el); }
    // Lives as long as the page.
    post.forget();
}
