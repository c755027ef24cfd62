//! tunefit-app: the Leptos page. It renders a `tunefit_core::Report` and turns controls into a
//! `tunefit_core::Query`; it computes nothing itself.

// No function over 100 lines (clippy.toml): a longer one is split into its steps.
#![warn(clippy::too_many_lines)]

pub mod app;
pub mod components;
pub mod markup;
pub mod reactive;
pub mod state;
pub mod storage;
pub mod url;

// The words and formats are a crate of their own, shared with the lazily loaded module.
pub use tunefit_text::{format, i18n, svg_axis};

/// Mounts the calculator into <body>.
pub fn mount() {
    // Panic messages in the console for debug builds (component tests) only: the hook's panic
    // formatting costs 1.7 KB of the release's 350 KB budget, where a panic aborts as a wasm trap.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    // The build's prerendered copy of the default page (scripts/prerender.mjs) goes in the same
    // task as the live app arrives, so the swap is never painted.
    if let Some(copy) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("prerender")) {
        copy.remove();
    }
    // An image or video diffusion model's link is a page of its own (docs/diffusion.md).
    if tunefit_core::diffusion::is_diffusion(&url::current_search()) {
        leptos::mount::mount_to_body(components::diffusion::DiffusionPage);
        return;
    }
    // `embed=1` is the same app laid out as a widget by CSS (public/boot.js, docs/sharing.md).
    leptos::mount::mount_to_body(app::App);
}
