//! The person's own prices in localStorage, in the compact form links carry
//! (`PriceBook::to_compact`, docs/sharing.md), and the log they last compared with the
//! estimate. The compact form's reader is in the page's wasm anyway (for links); the JSON
//! reader and writer load with the lazily loaded module, for files and for prices an earlier
//! version stored as JSON.
//!
//! Storage is never trusted: text that does not read as a valid price book is reported and
//! ignored, and a browser that refuses storage (private mode, a sandboxed iframe) is the same
//! as an empty one. Nothing here panics.

use tunefit_core::prices::{PriceBook, PriceError};

/// The localStorage key; versioned so a later format can live beside this one.
pub const PRICES_KEY: &str = "tunefit.prices.v2";
/// Where an earlier version stored the prices, as `PriceBook::to_json`: read (through the
/// lazily loaded module, `prices::migrate`) when nothing is stored under `PRICES_KEY`, and
/// removed when a book is saved, which the migration does at once with what it read. JSON that
/// does not read stays, and is reported on each visit until the person saves prices.
pub const JSON_PRICES_KEY: &str = "tunefit.prices.v1";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The stored price book: empty when nothing is stored or storage is unavailable; the stored
/// text and why it cannot be read (naming the line and field) when it cannot.
pub fn load_prices() -> Result<PriceBook, (String, PriceError)> {
    let Some(text) = storage().and_then(|s| s.get_item(PRICES_KEY).ok().flatten()) else {
        return Ok(PriceBook::default());
    };
    PriceBook::from_compact(&text).map_err(|e| (text, e))
}

/// Prices an earlier version stored as JSON, when nothing is stored in the current form.
pub fn json_prices() -> Option<String> {
    let s = storage()?;
    if s.get_item(PRICES_KEY).ok().flatten().is_some() {
        return None;
    }
    s.get_item(JSON_PRICES_KEY).ok().flatten()
}

/// Stores the book (an empty book removes the entry); false when the browser refuses.
pub fn save_prices(book: &PriceBook) -> bool {
    let Some(s) = storage() else { return false };
    let _ = s.remove_item(JSON_PRICES_KEY);
    if book.is_empty() {
        s.remove_item(PRICES_KEY).is_ok()
    } else {
        s.set_item(PRICES_KEY, &book.to_compact()).is_ok()
    }
}

/// The log last compared in the planning panel (`LOG_KEY`), kept until the person empties
/// the box and compares again; "" when none or storage is unavailable.
pub const LOG_KEY: &str = "tunefit.calibration-log.v1";

pub fn load_log() -> String {
    storage().and_then(|s| s.get_item(LOG_KEY).ok().flatten()).unwrap_or_default()
}

/// Keeps `log` (an empty one removes the entry).
pub fn save_log(log: &str) {
    if let Some(s) = storage() {
        let _ = if log.trim().is_empty() { s.remove_item(LOG_KEY) } else { s.set_item(LOG_KEY, log) };
    }
}
