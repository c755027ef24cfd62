//! The person's own prices: a CSV editor (the core's format, docs/sharing.md), import of a CSV
//! or JSON file, export as either, and the notices for unreadable stored prices and for a
//! link that carries the sender's prices (asked before replacing the person's own).
//!
//! Parsing, validation and the cost ranking are the core's (`PriceBook`,
//! `evaluate_with_read_prices`); saving is storage.rs; a list that cannot be read is said by
//! the lazily loaded module (`say_price_error`).

use super::share::{action_of, download};
use crate::i18n::Lang;
use crate::state::use_state;
use crate::storage::save_prices;
use leptos::prelude::*;
use leptos::task::spawn_local;
use tunefit_core::prices::{PriceBook, PriceError, CSV_COLUMNS};
use wasm_bindgen::JsCast;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// public/boot.js: the lazily loaded module's `price_error`.
    #[wasm_bindgen(catch, js_name = tunefitPriceError)]
    fn tunefit_price_error(kind: &str, text: &str, lang: &str) -> Result<js_sys::Promise, wasm_bindgen::JsValue>;
}

/// Says why a price list cannot be read (`e`) in `lang`, through `set`. The sentences, in
/// either language, are the lazily loaded module's, which reads `text` again as `kind` says:
/// "list" (the panel's JSON or CSV), "json" (the stored prices) or "link" (a link's fragment).
/// The page's own wasm words none of them (about 1 KB of the gzipped first load); if the
/// module cannot load, the field at fault is said.
pub fn say_price_error(kind: &'static str, text: String, e: PriceError, lang: Lang, set: Box<dyn Fn(String)>) {
    spawn_local(async move {
        let said = super::model::settle(tunefit_price_error(kind, &text, lang.code())).await;
        set(said.ok().filter(|s| !s.is_empty()).unwrap_or(e.field));
    });
}

/// The header alone: what an empty editor starts with, so the columns are in view.
fn empty_csv() -> String {
    format!("{}\n", CSV_COLUMNS.join(","))
}

fn csv_of(b: &PriceBook) -> String {
    if b.is_empty() {
        empty_csv()
    } else {
        b.to_csv()
    }
}

#[component]
pub fn PricesPanel() -> impl IntoView {
    let st = use_state();
    let sh = move || st.lang.get_untracked().sh();
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
    let apply_text = move |t: &str| match PriceBook::from_text(t) {
        Ok(b) => apply(b),
        Err(e) => say_price_error(
            "list",
            t.to_string(),
            e,
            st.lang.get_untracked(),
            Box::new(move |m| status.set(Some(((sh().prices_error)(&m), true)))),
        ),
    };
    let import = move |input: web_sys::HtmlInputElement| {
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        spawn_local(async move {
            let got = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
            match got {
                Some(t) => apply_text(&t),
                None => status.set(Some(((sh().prices_error)(sh().prices_unreadable), true))),
            }
            input.set_value("");
        });
    };
    // One listener for every button of the panel and the notices (see share::action_of).
    let act = move |ev: web_sys::Event| match action_of(&ev).as_deref() {
        Some("apply") => apply_text(&text.get_untracked()),
        Some("clear") => apply(PriceBook::default()),
        Some("csv") => {
            download("tunefit-prices.csv", "text/csv", &st.prices.with_untracked(csv_of));
        }
        Some("json") => {
            download("tunefit-prices.json", "application/json", &st.prices.with_untracked(|b| b.to_json()));
        }
        Some("import") if ev.type_() == "change" => {
            if let Some(i) = ev.target().and_then(|t| t.dyn_into().ok()) {
                import(i)
            }
        }
        Some("use-link") => {
            if let Some(b) = st.link_prices.get_untracked() {
                apply(b)
            }
            st.link_prices.set(None)
        }
        Some("keep-mine") => st.link_prices.set(None),
        Some("dismiss") => st.prices_notice.set(None),
        _ => {}
    };

    // One closure re-renders the panel when the language changes (signals keep its state).
    move || {
        let sh = st.lang.get().sh();
        view! {
            <div class="prices-box" on:click=move |e: web_sys::MouseEvent| act(e.into()) on:change=act>
                {move || st.prices_notice.get().map(|m| view! {
                    <div class="notice warn" role="alert" data-testid="prices-notice">
                        <p>{m}</p>
                        <button type="button" data-act="dismiss">{st.s().dismiss}</button>
                    </div>
                })}
                {move || st.link_prices.with(|b| b.as_ref().map(|b| b.overrides.len() + b.custom_offers.len())).map(|n| view! {
                    <div class="notice" role="alert" data-testid="link-prices">
                        <p>{(sh.link_prices)(n)}</p>
                        <button type="button" data-testid="use-link-prices" data-act="use-link">{sh.use_link_prices}</button>
                        <button type="button" data-testid="keep-my-prices" data-act="keep-mine">{sh.keep_mine}</button>
                    </div>
                })}
                <details class="card prices" data-testid="prices">
                    <summary><h2>{sh.prices_title}</h2></summary>
                    <p class="hint">{sh.prices_hint}</p>
                    <textarea class="code" rows="6" spellcheck="false" data-testid="prices-text" aria-label=sh.prices_title
                        prop:value=text on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    <div class="row">
                        <button type="button" data-testid="prices-apply" data-act="apply">{sh.prices_apply}</button>
                        <button type="button" data-testid="prices-clear" data-act="clear">{sh.prices_clear}</button>
                        <label class="file-button">{sh.prices_import}
                            <input type="file" accept=".csv,.json,text/csv,application/json" data-testid="prices-import" data-act="import" />
                        </label>
                        <button type="button" data-testid="prices-export-csv" data-act="csv">{sh.prices_export_csv}</button>
                        <button type="button" data-testid="prices-export-json" data-act="json">{sh.prices_export_json}</button>
                    </div>
                    {move || status.get().map(|(m, err)| view! {
                        <p class=if err { "notice warn" } else { "muted" } role="status" data-testid="prices-status">{m}</p>
                    })}
                </details>
            </div>
        }
    }
}
