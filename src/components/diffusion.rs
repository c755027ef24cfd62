//! The page for an image or video diffusion model's link (`?model=flux.1-dev&res=1024…`,
//! docs/diffusion.md): the same link the CLI takes. Its fields, figures and strings are
//! written by the lazily loaded module (crates/tunefit-export/src/diffusion_page.rs, through
//! public/boot.js) so that none of the diffusion models or their memory model is in this
//! wasm; this component keeps the link, writes it into the address bar, and turns a field's
//! change (`data-key`) into the link.

use crate::i18n::Lang;
use crate::markup::{write_html, Html};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the module's `diffusion_html`.
    #[wasm_bindgen(catch, js_name = tunefitDiffusion)]
    fn tunefit_diffusion(query: &str, lang: &str, gib: bool) -> Result<js_sys::Promise, JsValue>;
}

/// `search` split into the run's link and the page's own keys (url.rs: `embed` and `view` lay
/// the page out as a widget through public/boot.js, as they do the language models').
fn split(search: &str) -> (String, String) {
    let (mut run, mut page) = (Vec::new(), Vec::new());
    for p in search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let key = p.split('=').next().unwrap_or_default();
        if crate::url::PAGE_KEYS.contains(&key) {
            page.push(p)
        } else {
            run.push(p)
        }
    }
    (run.join("&"), page.join("&"))
}

/// `link` with `key` set to `value` (encoded), or removed when `value` is empty.
pub fn set_key(link: &str, key: &str, value: &str) -> String {
    let enc = tunefit_core::query::percent_encode(value.trim());
    let mut parts: Vec<String> =
        link.split('&').filter(|p| !p.is_empty() && p.split('=').next() != Some(key)).map(str::to_string).collect();
    if !value.trim().is_empty() {
        parts.push(format!("{key}={enc}"));
    }
    parts.join("&")
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (_, true) => a.into(),
        (true, false) => b.into(),
        _ => format!("{a}&{b}"),
    }
}

#[component]
pub fn DiffusionPage() -> impl IntoView {
    let (run, page) = split(&crate::url::current_search());
    let param = |k: &str| page.split('&').find_map(|p| p.strip_prefix(k).and_then(|v| v.strip_prefix('=')));
    let lang = param("lang").and_then(Lang::parse).unwrap_or_else(crate::url::default_lang);
    let gib = param("units") != Some("gb");
    if let Some(html) = document().document_element() {
        let _ = html.set_attribute("lang", lang.code());
    }
    let link = RwSignal::new(run);
    let body = RwSignal::new({
        let mut h = Html::new();
        write_html!(h, r#"<p class="muted" role="status">"#, lang.sh().export_loading, "</p>");
        h.into_string()
    });
    let page = StoredValue::new(page);
    // The field last changed, to focus again once the module's markup replaces it.
    let focused = StoredValue::new(None::<String>);
    Effect::new(move |_| {
        let q = link.get();
        crate::url::replace_search(&join(&q, &page.get_value()));
        spawn_local(async move {
            let got = match tunefit_diffusion(&q, lang.built().code(), gib) {
                Ok(p) => wasm_bindgen_futures::JsFuture::from(p).await.map(|v| v.as_string().unwrap_or_default()),
                Err(e) => Err(e),
            };
            // An answer for a link that has since changed is dropped.
            if link.get_untracked() != q {
                return;
            }
            match got {
                Ok(markup) => body.set(markup),
                // The module did not answer: say why above what was shown, so nothing is lost.
                Err(e) => {
                    let m = e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_default();
                    let mut h = Html::new();
                    write_html!(h, r#"<p class="notice warn" role="alert">"#, m, "</p>");
                    body.update(|b| *b = format!("{}{b}", h.into_string()));
                }
            }
            // The new markup replaces the fields: the one the person was in gets the focus back.
            let key = focused.get_value();
            set_timeout(
                move || {
                    let el = key.and_then(|k| document().query_selector(&format!("[data-key=\"{k}\"]")).ok().flatten());
                    if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                        let _ = el.focus();
                    }
                },
                std::time::Duration::ZERO,
            );
        });
    });
    let field = move |ev: web_sys::Event| {
        let Some(key) =
            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|e| e.get_attribute("data-key"))
        else {
            return;
        };
        let v = event_target_value(&ev);
        // The model list's last entry goes back to the language models' page.
        if key == "model" && v.is_empty() {
            if let Some(w) = web_sys::window() {
                let _ = w.location().set_search(&page.get_value());
            }
            return;
        }
        focused.set_value(Some(key.clone()));
        link.update(|l| {
            if key == "model" {
                // Sizes, frames, text and companions are the old model's: the new one starts
                // from its own defaults for them.
                const OWN: &[&str] =
                    &["res", "frames", "text_tokens", "text_enc", "text_weights", "latents", "swap", "ckpt_every"];
                *l = l
                    .split('&')
                    .filter(|p| !OWN.contains(&p.split('=').next().unwrap_or_default()))
                    .collect::<Vec<_>>()
                    .join("&");
            }
            *l = set_key(l, &key, &v)
        });
    };
    // A named bad key's button takes it out of the link; a fix's button applies it.
    let act = move |ev: web_sys::MouseEvent| {
        let act =
            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|e| e.get_attribute("data-act"));
        if let Some(key) = act.as_deref().and_then(|a| a.strip_prefix("drop:")) {
            link.update(|l| *l = set_key(l, key, ""));
        }
        // A fix's button sets its keys (`fix::fixes` evaluated exactly these).
        if let Some(set) = act.as_deref().and_then(|a| a.strip_prefix("set:")) {
            link.update(|l| {
                for (k, v) in set.split('&').filter_map(|p| p.split_once('=')) {
                    *l = set_key(l, k, v);
                }
            });
        }
    };
    // The header is the module's markup too: the page's own wasm holds only this element.
    view! { <main class="dit" data-testid="dit-page" on:change=field on:click=act inner_html=body></main> }
}
