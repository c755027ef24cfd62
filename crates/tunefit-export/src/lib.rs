//! The page's lazily loaded module (public/boot.js loads it on the first call that needs it):
//! the config exporter (`tunefit_core::export` and its templates, about 25 KB of gzipped wasm)
//! with the Copy-config panel's markup (`export_html`; `export_json` gives the same export as
//! JSON, for scripts and tests), the reports, the fixes, the prices' readers and writers, the
//! config.json reader, the memory chart, the planning panel and the diffusion page. Notes and
//! messages are rendered in the page's language here, from their own figures, so their
//! sentences in both languages load with this module rather than with the page.

// No function over 100 lines (clippy.toml): a longer one is split into its steps.
#![warn(clippy::too_many_lines)]

pub mod cost_table;
pub mod diffusion_page;
pub mod export_panel;
pub mod gpu_table;
pub mod last_report;
pub mod memory_plot;
pub mod plan_panel;
pub mod timeline_chart;

use tunefit_core::diag::Lang;
use tunefit_core::export::export_json_in;
use wasm_bindgen::prelude::*;

/// `tunefit_core::export::export_json` with every notice, the framework profile's warnings
/// included, in `lang` ("ru" is Russian; any other value is English): `ConfigExport` as JSON,
/// or `{"error": "..."}` (the core's own error text, as `tunefit export` prints it).
#[wasm_bindgen]
pub fn export_json(query: &str, framework: &str, lang: &str) -> String {
    export_json_in(query, framework, Lang::from_code(lang))
}

/// The Copy-config panel as markup, file `tab` shown (export_panel.rs).
#[wasm_bindgen]
pub fn export_html(query: &str, framework: &str, lang: &str, tab: usize) -> String {
    export_panel::html(query, framework, lang, tab).into_string()
}

/// The whole report as `tunefit estimate --json` prints it (the page's Download JSON),
/// with the person's price book (its compact form, or empty).
#[wasm_bindgen]
pub fn report_json(query: &str, prices: &str, today: f64) -> String {
    tunefit_core::report::report_json(query, prices, today)
}

/// The cost section's ranking as markup (cost_table.rs): the recommendation, the table of
/// offers (all of them when `all`), the button that shows the rest and the scatter, for
/// `query` with the person's price book (its compact form, or empty), in `lang`, prices dated
/// on `today` (days since 1970).
#[wasm_bindgen]
pub fn cost_html(query: &str, prices: &str, lang: &str, all: bool, today: f64) -> String {
    cost_table::html(query, prices, lang, all, today).into_string()
}

/// The GPU table as markup (gpu_table.rs): every GPU against `query`, in `lang`, sizes in GiB
/// when `gib`.
#[wasm_bindgen]
pub fn gpu_rows_html(query: &str, lang: &str, gib: bool) -> String {
    gpu_table::html(query, lang, gib).into_string()
}

/// The memory plot's curve as SVG markup (memory_plot.rs): against micro-batch when `batch`,
/// else sequence length, in `lang`, sizes in GiB when `gib`.
#[wasm_bindgen]
pub fn memory_plot_html(query: &str, batch: bool, lang: &str, gib: bool) -> String {
    memory_plot::html(query, batch, lang, gib).into_string()
}

/// The report as Markdown with the page's link (the page's Copy as Markdown).
#[wasm_bindgen]
pub fn report_markdown(query: &str, prices: &str, base: &str, today: f64) -> String {
    tunefit_core::markdown::markdown_of_query(query, prices, base, today)
}

/// The fixes for the chosen GPU (`tunefit_core::report::fixes_tsv`), their notes in `lang`
/// ("ru" is Russian; any other value is English): the page's summary.
#[wasm_bindgen]
pub fn fixes_tsv(query: &str, lang: &str) -> String {
    tunefit_core::report::fixes_tsv(query, Lang::from_code(lang))
}

/// A pasted or fetched config.json, read (`tunefit_core::hfconfig::read_for_page`), its
/// error in `lang` ("ru" is Russian; any other value is English): the page's config source.
#[wasm_bindgen]
pub fn read_config(text: &str, lang: &str) -> String {
    tunefit_core::hfconfig::read_for_page_in(text, Lang::from_code(lang))
}

/// Why stored or linked prices cannot be read, in `lang` ("" when they can): `kind` says which
/// reader the page used ("link": a link's fragment; anything else, "compact": the stored
/// prices). The page reads these itself and says their errors in English; their Russian
/// sentences load here, not with the page. A typed or imported list is `read_prices`'s.
#[wasm_bindgen]
pub fn price_error(kind: &str, text: &str, lang: &str) -> String {
    use tunefit_core::prices::PriceBook;
    let e = match kind {
        "link" => tunefit_core::share::open_link(text).price_error,
        _ => PriceBook::from_compact(text).err(),
    };
    e.map(|e| e.text(Lang::from_code(lang))).unwrap_or_default()
}

/// A price list as a person typed or imported it (JSON when it starts with '{', else CSV),
/// read for the page's own-prices panel: `ok`, a newline, the book's compact form (what the
/// page stores and reads back with `PriceBook::from_compact`), U+001E, and the book as CSV
/// (the editor's text); or `error`, a newline and why it cannot be read, in `lang`. The JSON
/// and CSV readers and writers load with this module, not with the page.
#[wasm_bindgen]
pub fn read_prices(text: &str, lang: &str) -> String {
    use tunefit_core::prices::PriceBook;
    match PriceBook::from_text(text) {
        Ok(b) => format!("ok\n{}\u{1e}{}", b.to_compact(), b.to_csv()),
        Err(e) => format!("error\n{}", e.text(Lang::from_code(lang))),
    }
}

/// The page's price book (its compact form) as the editor's CSV; empty when it cannot be read.
#[wasm_bindgen]
pub fn prices_csv(compact: &str) -> String {
    tunefit_core::prices::PriceBook::from_compact(compact).map(|b| b.to_csv()).unwrap_or_default()
}

/// The page's price book (its compact form) as JSON, the panel's JSON export; empty when it
/// cannot be read.
#[wasm_bindgen]
pub fn prices_json(compact: &str) -> String {
    tunefit_core::prices::PriceBook::from_compact(compact).map(|b| b.to_json()).unwrap_or_default()
}

/// The "Memory through one step" chart as markup (timeline_chart.rs).
#[wasm_bindgen]
pub fn timeline_html(query: &str, lang: &str, gib: bool) -> String {
    timeline_chart::html(query, lang, gib).into_string()
}

/// The page of an image or video diffusion model's link as markup (diffusion_page.rs).
#[wasm_bindgen]
pub fn diffusion_html(query: &str, lang: &str, gib: bool) -> String {
    diffusion_page::html(query, lang, gib).into_string()
}

/// The planning panel's fields as markup, in `lang` (plan_panel.rs).
#[wasm_bindgen]
pub fn plan_form_html(query: &str, lang: &str, problem: &str, log: &str) -> String {
    plan_panel::form_html(query, lang, problem, log).into_string()
}

/// The plans for the query's goal, budget and deadline as markup (`tunefit_core::plan`).
#[wasm_bindgen]
pub fn plans_html(query: &str, lang: &str, gib: bool) -> String {
    plan_panel::plans_html(query, lang, gib).into_string()
}

/// A pasted log beside the estimate as markup (`tunefit_core::calibrate`).
#[wasm_bindgen]
pub fn calibration_html(query: &str, log: &str, lang: &str, gib: bool) -> String {
    plan_panel::calibration_html(query, log, lang, gib).into_string()
}

/// The log's memory figures as cases of the project's measured set (the panel's download),
/// or `{"error": ...}` in `lang`.
#[wasm_bindgen]
pub fn measured_cases_json(query: &str, log: &str, lang: &str) -> String {
    tunefit_core::calibrate::measured_cases_json_in(query, log, Lang::from_code(lang))
}

#[cfg(test)]
mod tests {
    use super::{price_error, prices_csv, prices_json, read_prices, report_json};
    use tunefit_core::prices::PriceBook;

    const CSV: &str =
        "kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name\ncustom,lab,l40s,1,0.01,,,cheap\n";

    #[test]
    fn a_price_list_reads_to_the_compact_form_the_page_stores_and_the_csv_it_shows() {
        let got = read_prices(CSV, "en");
        let (compact, csv) = got.strip_prefix("ok\n").unwrap().split_once('\u{1e}').unwrap();
        let book = PriceBook::from_compact(compact).unwrap();
        assert_eq!(book, PriceBook::from_text(CSV).unwrap());
        assert_eq!(csv, book.to_csv());
        assert_eq!(prices_csv(compact), csv);
        // The JSON export reads back as the same book, as a typed list too.
        let json = prices_json(compact);
        assert_eq!(PriceBook::from_json(&json).unwrap(), book);
        assert_eq!(read_prices(&json, "en"), got);
        assert!(!compact.contains('\u{1e}'));
        // The report the page downloads applies the book.
        let report = report_json("v=2&model=llama-3.1-8b", compact, 20_000.0);
        assert!(report.contains("own/cheap"), "{report}");
    }

    #[test]
    fn prices_stored_as_json_by_an_earlier_version_move_to_the_compact_form() {
        // The page reads them as a typed list (`read_prices`: JSON when the text starts with '{').
        let json = PriceBook::from_text(CSV).unwrap().to_json();
        let got = read_prices(&json, "en");
        let compact = got.strip_prefix("ok\n").unwrap().split_once('\u{1e}').unwrap().0;
        assert_eq!(PriceBook::from_compact(compact).unwrap(), PriceBook::from_text(CSV).unwrap());
        let bad = read_prices(r#"{"overrides": [{"provider": 7"#, "ru");
        assert!(bad.starts_with("error\n") && bad.contains("строка 1"), "{bad}");
        // Stored prices that do not read say why, in the page's language.
        assert!(price_error("compact", "c:lab:lab:l40s:1:-5::", "en").contains("-5"));
        assert_eq!(price_error("compact", "c:lab:lab:l40s:1:0.5::", "en"), "");
    }

    #[test]
    fn an_unreadable_list_says_why_in_the_pages_language() {
        let bad = "kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h\ncustom,lab,l40s,1,-5,\n";
        let en = read_prices(bad, "en");
        assert!(en.starts_with("error\n") && en.contains("line 2") && en.contains("-5"), "{en}");
        let ru = read_prices(bad, "ru");
        assert!(ru.starts_with("error\n") && ru.contains("строка 2"), "{ru}");
        assert_eq!(prices_csv("{not json"), "");
        assert_eq!(prices_json("o:x"), "");
    }
}
