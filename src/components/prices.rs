//! The person's own prices: a CSV editor (the core's format, docs/sharing.md), import of a CSV
//! or JSON file, export as either, and the notices for unreadable stored prices and for a
//! link that carries the sender's prices (asked before replacing the person's own).
//!
//! Parsing, validation and the cost ranking are the core's (`PriceBook`,
//! `evaluate_with_prices`); saving is storage.rs.

use super::share::download;
use crate::state::use_state;
use crate::storage::{parse_price_list, save_prices};
use leptos::prelude::*;
use leptos::task::spawn_local;
use tunefit_core::prices::{PriceBook, CSV_COLUMNS};
use wasm_bindgen::JsCast;

/// The header alone: what an empty editor starts with, so the columns are in view.
fn empty_csv() -> String { format!("{}\n", CSV_COLUMNS.join(",")) }

fn csv_of(b: &PriceBook) -> String { if b.is_empty() { empty_csv() } else { b.to_csv() } }

#[component]
pub fn PricesPanel() -> impl IntoView {
    let st = use_state();
    let sh = move || st.lang.get().sh();
    let text = RwSignal::new(st.prices.with_untracked(csv_of));
    // (message, is an error)
    let status = RwSignal::new(None::<(String, bool)>);

    let apply = move |book: PriceBook| {
        let n = book.overrides.len() + book.custom_offers.len();
        let saved = save_prices(&book);
        text.set(csv_of(&book));
        st.prices.set(book);
        status.set(Some((if saved { (sh().prices_saved)(n) } else { sh().prices_not_saved.to_string() }, false)));
    };
    let apply_text = move |t: &str| match parse_price_list(t) {
        Ok(b) => apply(b),
        Err(e) => status.set(Some(((sh().prices_error)(&e), true))),
    };
    let import = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        spawn_local(async move {
            let got = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
            match got {
                Some(t) => apply_text(&t),
                None => status.set(Some(((sh().prices_error)("unreadable file"), true))),
            }
            input.set_value("");
        });
    };

    view! {
        {move || st.prices_notice.get().map(|m| view! {
            <div class="notice warn" role="alert" data-testid="prices-notice">
                <p>{m}</p>
                <button type="button" on:click=move |_| st.prices_notice.set(None)>{st.s().dismiss}</button>
            </div>
        })}
        {move || st.link_prices.get().map(|b| {
            let n = b.overrides.len() + b.custom_offers.len();
            view! {
                <div class="notice" role="alert" data-testid="link-prices">
                    <p>{(sh().link_prices)(n)}</p>
                    <button type="button" data-testid="use-link-prices" on:click=move |_| {
                        apply(b.clone());
                        st.link_prices.set(None);
                    }>{sh().use_link_prices}</button>
                    <button type="button" data-testid="keep-my-prices" on:click=move |_| st.link_prices.set(None)>{sh().keep_mine}</button>
                </div>
            }
        })}
        <details class="card prices" data-testid="prices">
            <summary><h2>{move || sh().prices_title}</h2></summary>
            <p class="hint">{move || sh().prices_hint}</p>
            <textarea class="code" rows="6" spellcheck="false" data-testid="prices-text" aria-label=move || sh().prices_title
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <div class="row">
                <button type="button" data-testid="prices-apply" on:click=move |_| apply_text(&text.get_untracked())>{move || sh().prices_apply}</button>
                <button type="button" data-testid="prices-clear" on:click=move |_| apply(PriceBook::default())>{move || sh().prices_clear}</button>
                <label class="file-button">{move || sh().prices_import}
                    <input type="file" accept=".csv,.json,text/csv,application/json" data-testid="prices-import" on:change=import />
                </label>
                <button type="button" data-testid="prices-export-csv"
                    on:click=move |_| { download("tunefit-prices.csv", "text/csv", &st.prices.with(csv_of)); }>{move || sh().prices_export_csv}</button>
                <button type="button" data-testid="prices-export-json"
                    on:click=move |_| { download("tunefit-prices.json", "application/json", &st.prices.with(|b| b.to_json())); }>{move || sh().prices_export_json}</button>
            </div>
            {move || status.get().map(|(m, err)| view! {
                <p class=if err { "notice warn" } else { "muted" } role="status" data-testid="prices-status">{m}</p>
            })}
        </details>
    }
}
