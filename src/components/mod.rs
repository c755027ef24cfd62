//! The page's components, one job each.

pub mod advanced;
pub mod controls;
pub mod cost;
pub mod deferred;
pub mod diffusion;
pub mod gpu_table;
pub mod lazy;
pub mod memory;
pub mod model;
pub mod notices;
pub mod plots;
pub mod settings;
pub mod summary;
pub mod timeline;
pub mod toolbar;
// Sharing, embed, own prices, config export, planning and calibration.
pub mod export;
pub mod fields;
pub mod plan;
pub mod prices;
pub mod share;

use wasm_bindgen::JsCast;

/// The page's element with this id, as `T` (the sections written as markup find their parts
/// by id).
pub(crate) fn element<T: JsCast>(id: &str) -> Option<T> {
    leptos::prelude::document().get_element_by_id(id).and_then(|e| e.dyn_into::<T>().ok())
}

/// The id of the element an event came from ("" when it has none): what a section's one
/// listener tells its fields apart by.
pub(crate) fn target_id(ev: &web_sys::Event) -> String {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.id()).unwrap_or_default()
}
