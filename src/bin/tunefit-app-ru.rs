//! The page with its Russian strings (feature `ru`): public/boot.js loads this build instead of
//! the first-load one when the page is in Russian. Started as the first-load build is
//! (src/main.rs): no `fn main`.
#![no_main]

#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    tunefit_app::mount();
}
