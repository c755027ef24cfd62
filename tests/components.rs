//! Component tests: mount into a fresh element in headless Chromium and assert on the DOM.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
wasm_bindgen_test_configure!(run_in_browser);

fn fresh_root() -> web_sys::HtmlElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let body = doc.body().unwrap();
    body.set_inner_html("");
    let el: web_sys::HtmlElement = doc.create_element("div").unwrap().dyn_into().unwrap();
    body.append_child(&el).unwrap();
    el
}

use wasm_bindgen::JsCast;

#[wasm_bindgen_test]
async fn app_renders_the_core_estimate() {
    let root = fresh_root();
    let _handle = leptos::mount::mount_to(root.clone(), tunefit_app::app::App);
    leptos::task::tick().await;
    let total = root.query_selector("[data-testid=total-device]").unwrap().expect("total shown");
    let expected = tunefit_core::evaluate(&tunefit_core::Query::default()).unwrap().memory.device as f64 / (1u64 << 30) as f64;
    assert_eq!(total.text_content().unwrap(), format!("{expected:.2}"));
}
