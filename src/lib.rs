//! tunefit-app: the Leptos page. It renders a `tunefit_core::Report` and turns controls into a
//! `tunefit_core::Query`; it computes nothing itself.

pub mod app;
pub mod components;
pub mod format;
pub mod i18n;
pub mod state;
pub mod storage;
pub mod url;

/// Mounts the calculator into <body>.
pub fn mount() {
    console_error_panic_hook::set_once();
    // `embed=1` mounts the compact widget (no header, controls or footer) instead of the page.
    let (_, prefs, _) = url::decode(&url::current_search(), i18n::Lang::En);
    if prefs.embed() { leptos::mount::mount_to_body(components::embed::EmbedApp) } else { leptos::mount::mount_to_body(app::App) }
}
