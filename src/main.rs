//! The page's first-load build. No `fn main`: a Rust `main` brings std's runtime, whose exit
//! path flushes a buffered stdout and links io's error table (about 0.5 KB gzipped) the page
//! never uses; wasm-bindgen's `start` runs the mount instead.
#![no_main]

#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    tunefit_app::mount();
}
