//! The person's own prices: a CSV editor (the core's format, docs/sharing.md), import of a CSV
//! or JSON file, export as either, and the notices for unreadable stored prices and for a
//! link that carries the sender's prices (asked before replacing the person's own).
//!
//! Parsing, validation and the cost ranking are the core's (`PriceBook`,
//! `evaluate_with_read_prices`); saving is storage.rs. The CSV reader and writer and the
//! sentences that say why a list cannot be read are the lazily loaded module's
//! (`read_prices`, `prices_csv`, `prices_json`, `price_error`), and so are the JSON reader and
//! writer: a list is read there into the compact form the page stores and reads back itself
//! (the form links carry), and the editor's CSV is written there, fetched when the panel first
//! opens with prices in force.

use super::share::{action_of, download};
use crate::i18n::{Lang, ShareStrings};
use crate::markup::{write_html, Html};
use crate::state::{use_state, AppState};
use crate::storage::save_prices;
use leptos::prelude::*;
use leptos::task::spawn_local;
use tunefit_core::prices::{PriceBook, PriceError, CSV_COLUMNS};
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// public/boot.js: the lazily loaded module's `price_error`.
    #[wasm_bindgen(catch, js_name = tunefitPriceError)]
    fn tunefit_price_error(kind: &str, text: &str, lang: &str) -> Result<js_sys::Promise, wasm_bindgen::JsValue>;
    /// public/boot.js: the module's `read_prices` (`kind` "read": a typed or imported list, or
    /// the JSON an earlier version stored, in `lang`), `prices_csv` ("csv": a book's compact
    /// form as CSV) or `prices_json` ("json": as JSON).
    #[wasm_bindgen(catch, js_name = tunefitPrices)]
    fn tunefit_prices(kind: &str, text: &str, lang: &str) -> Result<js_sys::Promise, JsValue>;
}

/// Says why a price list cannot be read (`e`) in `lang`, through `set`. The sentences, in
/// either language, are the lazily loaded module's, which reads `text` again as `kind` says:
/// "compact" (the stored prices) or "link" (a link's fragment); a typed list is `read_list`'s.
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

/// `book` as CSV, written by the lazily loaded module; None when it cannot be loaded.
async fn csv_of(book: &PriceBook) -> Option<String> {
    if book.is_empty() {
        return Some(empty_csv());
    }
    super::model::settle(tunefit_prices("csv", &book.to_compact(), "")).await.ok().filter(|c| !c.is_empty())
}

/// A typed or imported list, read by the lazily loaded module into the compact form the page
/// reads itself, with the list as read, as CSV (the editor then shows that, whichever form was
/// typed); or why it cannot be read, in `lang`.
async fn read_list(text: &str, lang: Lang) -> Result<(PriceBook, String), String> {
    read_answer(&super::model::settle(tunefit_prices("read", text, lang.code())).await?)
}

/// The module's answer to "read": the book and its CSV, or why the list cannot be read.
fn read_answer(got: &str) -> Result<(PriceBook, String), String> {
    match got.split_once('\n') {
        Some(("ok", rest)) => {
            let (compact, csv) = rest.split_once('\u{1e}').unwrap_or((rest, ""));
            PriceBook::from_compact(compact).map(|b| (b, csv.to_string())).map_err(|e| e.field)
        }
        Some((_, why)) => Err(why.to_string()),
        None => Err(got.to_string()),
    }
}

/// Prices an earlier version stored as JSON (storage.rs), read by the lazily loaded module as
/// a typed list is. They apply and are stored in the current form only while storage still
/// holds them as read (no prices set, cleared or stored by another tab since); if they cannot
/// be read, the notice says why, as for any stored prices that cannot be read. If the module
/// cannot load, they wait for the next visit.
pub fn migrate(json: String, prices: RwSignal<PriceBook>, notice: RwSignal<Option<String>>, lang: Lang) {
    spawn_local(async move {
        let Ok(got) = super::model::settle(tunefit_prices("read", &json, lang.code())).await else { return };
        match read_answer(&got) {
            Ok((b, _)) if crate::storage::json_prices().as_deref() == Some(json.as_str()) => {
                save_prices(&b);
                prices.set(b);
            }
            Ok(_) => {}
            Err(why) => notice.set(Some((lang.sh().prices_corrupt)(&why))),
        }
    });
}

#[component]
pub fn PricesPanel() -> impl IntoView {
    let st = use_state();
    let sh = move || st.lang.get_untracked().sh();
    // The editor's text: the header for an empty book; a book in force is written out when
    // the panel first opens (the CSV writer is the lazily loaded module's).
    let text = RwSignal::new(if st.prices.with_untracked(PriceBook::is_empty) { empty_csv() } else { String::new() });
    // (message, is an error)
    let status = RwSignal::new(None::<(String, bool)>);
    let show_csv = move |book: PriceBook| {
        spawn_local(async move {
            if let Some(csv) = csv_of(&book).await {
                text.set(csv);
            }
        })
    };

    let apply = move |book: PriceBook| {
        let n = book.overrides.len() + book.custom_offers.len();
        let saved = save_prices(&book);
        st.prices.set(book);
        status.set(Some((if saved { (sh().prices_saved)(n) } else { sh().prices_not_saved.to_string() }, false)));
    };
    let failed = move |m: &str| status.set(Some(((sh().prices_error)(m), true)));
    let apply_text = move |t: &str| {
        let t = t.to_string();
        spawn_local(async move {
            match read_list(&t, st.lang.get_untracked()).await {
                Ok((b, csv)) => {
                    apply(b);
                    text.set(csv);
                }
                Err(why) => failed(&why),
            }
        });
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
        Some("clear") => {
            apply(PriceBook::default());
            text.set(empty_csv());
        }
        Some(kind @ ("csv" | "json")) => export_file(
            st.prices.with_untracked(PriceBook::to_compact),
            kind == "csv",
            Box::new(move || failed(sh().prices_unreadable)),
        ),
        Some("import") if ev.type_() == "change" => {
            if let Some(i) = ev.target().and_then(|t| t.dyn_into().ok()) {
                import(i)
            }
        }
        Some("use-link") => {
            if let Some(b) = st.link_prices.get_untracked() {
                apply(b.clone());
                show_csv(b);
            }
            st.link_prices.set(None)
        }
        Some("keep-mine") => st.link_prices.set(None),
        Some("dismiss") => st.prices_notice.set(None),
        _ => {}
    };

    // The editor keeps what is typed (`input`), and shows `text` when it is set otherwise, or
    // when a new language rewrites the body.
    Effect::new(move |_| {
        st.lang.track();
        text.with(|t| put_text(t));
    });
    let typed = move |ev: web_sys::Event| {
        if let Some(area) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
            text.set(area.value());
        }
    };
    // The editor is written out on opening when it has nothing, or only the header while a
    // book is in force (prices that arrived after the panel was built: an earlier version's,
    // moved).
    let opened = move |_| {
        let stale = text
            .with_untracked(|t| t.is_empty() || (*t == empty_csv() && !st.prices.with_untracked(PriceBook::is_empty)));
        if stale {
            show_csv(st.prices.get_untracked());
        }
    };
    view! {
        <div class="prices-box" on:click=move |e: web_sys::MouseEvent| act(e.into()) on:change=act>
            <div inner_html=move || notices(st)></div>
            <details class="card prices" data-testid="prices" on:toggle=opened on:input=typed>
                <summary><h2>{move || st.lang.get().sh().prices_title}</h2></summary>
                <div inner_html=move || body(st.lang.get().sh())></div>
                <div inner_html=move || status.with(status_html)></div>
            </details>
        </div>
    }
}

/// The book in force (its compact form) as a CSV or JSON file, written by the lazily loaded
/// module; `failed` when there is none to offer.
fn export_file(compact: String, csv: bool, failed: Box<dyn Fn()>) {
    let (kind, name, mime) = if csv {
        ("csv", "tunefit-prices.csv", "text/csv")
    } else {
        ("json", "tunefit-prices.json", "application/json")
    };
    spawn_local(async move {
        let file = super::model::settle(tunefit_prices(kind, &compact, "")).await.ok();
        if file.filter(|t| !t.is_empty()).and_then(|t| download(name, mime, &t)).is_none() {
            failed()
        }
    });
}

/// The notices: stored prices that could not be read, and a link's prices to take or leave.
fn notices(st: AppState) -> String {
    let lang = st.lang.get();
    let mut h = Html::new();
    if let Some(m) = st.prices_notice.get() {
        write_html!(h, r#"<div class="notice warn" role="alert" data-testid="prices-notice"><p>"#, m);
        write_html!(h, r#"</p><button type="button" data-act="dismiss">"#, lang.strings().dismiss, "</button></div>");
    }
    if let Some(n) = st.link_prices.with(|b| b.as_ref().map(|b| b.overrides.len() + b.custom_offers.len())) {
        let sh = lang.sh();
        write_html!(h, r#"<div class="notice" role="alert" data-testid="link-prices"><p>"#, (sh.link_prices)(n));
        write_html!(h, r#"</p><button type="button" data-testid="use-link-prices" data-act="use-link">"#);
        write_html!(h, sh.use_link_prices, r#"</button><button type="button" data-testid="keep-my-prices""#);
        write_html!(h, r#" data-act="keep-mine">"#, sh.keep_mine, "</button></div>");
    }
    h.into_string()
}

/// The editor's text set to `t`, unless it holds it already (typing is left alone).
fn put_text(t: &str) {
    if let Some(area) =
        document().get_element_by_id("prices-text").and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    {
        if area.value() != t {
            area.set_value(t);
        }
    }
}

/// The panel's status line: what was applied, or why a list could not be read.
fn status_html(status: &Option<(String, bool)>) -> String {
    let mut h = Html::new();
    if let Some((m, err)) = status {
        write_html!(h, r#"<p class=""#, if *err { "notice warn" } else { "muted" });
        write_html!(h, r#"" role="status" data-testid="prices-status">"#, m, "</p>");
    }
    h.into_string()
}

/// The panel's fixed part: the hint, the editor and its buttons.
fn body(sh: &ShareStrings) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<p class="hint">"#, sh.prices_hint, r#"</p><textarea class="code" rows="6" spellcheck="false""#);
    write_html!(h, r#" id="prices-text" data-testid="prices-text" aria-label=""#, sh.prices_title, r#""></textarea>"#);
    write_html!(h, r#"<div class="row"><button type="button" data-testid="prices-apply" data-act="apply">"#);
    write_html!(h, sh.prices_apply, r#"</button><button type="button" data-testid="prices-clear" data-act="clear">"#);
    write_html!(h, sh.prices_clear, r#"</button><label class="file-button">"#, sh.prices_import);
    write_html!(h, r#"<input type="file" accept=".csv,.json,text/csv,application/json" data-testid="prices-import""#);
    write_html!(
        h,
        r#" data-act="import"></label><button type="button" data-testid="prices-export-csv" data-act="csv">"#
    );
    write_html!(h, sh.prices_export_csv, r#"</button><button type="button" data-testid="prices-export-json""#);
    write_html!(h, r#" data-act="json">"#, sh.prices_export_json, "</button></div>");
    h.into_string()
}
