//! The config exporter as its own wasm module (issue #5): `tunefit_core::export` and its
//! templates are about 25 KB of gzipped wasm that only the Copy-config panel uses, so the page
//! fetches this module when that panel opens instead of on first load (public/boot.js,
//! `tunefitExport`). One function: a query string and a framework in, the export as JSON out
//! (`tunefit_core::export::export_json`; the page reads it with `read_export_json`).

use wasm_bindgen::prelude::*;

/// `tunefit_core::export::export_json`: `ConfigExport` as JSON, or `{"error": "..."}`.
#[wasm_bindgen]
pub fn export_json(query: &str, framework: &str) -> String {
    tunefit_core::export::export_json(query, framework)
}
