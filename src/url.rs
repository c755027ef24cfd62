//! The page's URL: the query string holds every setting, so a link reproduces the page.
//!
//! The calculation's keys are the core's query format (`tunefit_core::query`, docs/query.md).
//! The page adds presentation keys of its own (`lang`, `theme`, `units`, `plot`, and `embed`/`view`
//! for the embed mode), which the core never sees. Decoding is lenient: each bad key is
//! reported by name, and everything else applies. The URL is rewritten with
//! `history.replaceState`, so moving a slider does not flood the history.

use crate::format::Units;
use crate::i18n::Lang;
use tunefit_core::{Query, QueryError};

/// Colour theme: follow the system, or a fixed choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];
    pub fn code(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
    pub fn parse(s: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.code() == s)
    }
}

/// The memory plot's horizontal axis (`plot=`): sequence length (the default) or micro-batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlotX {
    Seq,
    Batch,
}

impl PlotX {
    pub const ALL: [PlotX; 2] = [PlotX::Seq, PlotX::Batch];
    pub fn code(self) -> &'static str {
        match self {
            PlotX::Seq => "seq",
            PlotX::Batch => "batch",
        }
    }
    pub fn parse(s: &str) -> Option<PlotX> {
        PlotX::ALL.into_iter().find(|x| x.code() == s)
    }
}

/// Presentation settings carried in the URL next to the query.
#[derive(Debug, Clone, PartialEq)]
pub struct Prefs {
    pub lang: Lang,
    pub theme: Theme,
    pub units: Units,
    pub plot: PlotX,
    /// Keys kept verbatim for other parts of the page (`embed`, `view`).
    pub passthrough: Vec<(String, String)>,
}

/// Keys the page owns; everything else goes to the core's decoder.
pub const PAGE_KEYS: &[&str] = &["lang", "theme", "units", "plot", "embed", "view"];

/// The language a visitor gets when the link does not name one: the browser's, else English.
pub fn default_lang() -> Lang {
    let nav = web_sys::window().and_then(|w| w.navigator().language()).unwrap_or_default();
    if nav.to_ascii_lowercase().starts_with("ru") {
        Lang::Ru
    } else {
        Lang::En
    }
}

/// The one section an embedded widget shows (`view=`); none shows memory, fit and cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Memory,
    Fit,
    Cost,
    Full,
}

impl View {
    pub const ALL: [View; 4] = [View::Memory, View::Fit, View::Cost, View::Full];
    pub fn code(self) -> &'static str {
        match self {
            View::Memory => "memory",
            View::Fit => "fit",
            View::Cost => "cost",
            View::Full => "full",
        }
    }
    pub fn parse(s: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.code() == s)
    }
}

impl Prefs {
    fn key(&self, k: &str) -> Option<&str> {
        self.passthrough.iter().rev().find(|(pk, _)| pk == k).map(|(_, v)| v.as_str())
    }
    /// `embed=1`: the compact widget for an iframe (docs/sharing.md, "Embed mode").
    pub fn embed(&self) -> bool {
        self.key("embed") == Some("1")
    }
    /// `view=`: the section the widget shows; `None` shows all three.
    pub fn view(&self) -> Option<View> {
        self.key("view").and_then(View::parse)
    }

    pub fn defaults(lang: Lang) -> Prefs {
        Prefs { lang, theme: Theme::Auto, units: Units::GiB, plot: PlotX::Seq, passthrough: Vec::new() }
    }
}

/// Decodes a `location.search` string: the query, the page's prefs and every bad key.
pub fn decode(search: &str, default_lang: Lang) -> (Query, Prefs, Vec<QueryError>) {
    let s = search.strip_prefix('?').unwrap_or(search);
    let mut prefs = Prefs::defaults(default_lang);
    let mut errors = Vec::new();
    let mut core_pairs = Vec::new();
    for pair in s.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = tunefit_core::query::percent_decode(k);
        if !PAGE_KEYS.contains(&key.as_str()) {
            core_pairs.push(pair);
            continue;
        }
        let val = tunefit_core::query::percent_decode(v);
        let bad = |what: &str| {
            let value = val.chars().take(40).collect::<String>();
            QueryError::new(&key, tunefit_core::query::Problem::NotOneOf { value, accepted: what.into() })
        };
        match key.as_str() {
            "lang" => match Lang::parse(&val) {
                Some(l) => prefs.lang = l,
                None => errors.push(bad("en|ru")),
            },
            "theme" => match Theme::parse(&val) {
                Some(t) => prefs.theme = t,
                None => errors.push(bad("auto|light|dark")),
            },
            "units" => match Units::parse(&val) {
                Some(u) => prefs.units = u,
                None => errors.push(bad("gib|gb")),
            },
            "plot" => match PlotX::parse(&val) {
                Some(x) => prefs.plot = x,
                None => errors.push(bad("seq|batch")),
            },
            "embed" if val != "1" && val != "0" => errors.push(bad("0|1")),
            "view" if View::parse(&val).is_none() => errors.push(bad("memory|fit|cost|full")),
            _ => prefs.passthrough.push((key, val)),
        }
    }
    // `model=custom` (a model given by its architecture fields) is decoded by the core itself.
    let (q, core_errors) = Query::parse_given_lenient(&core_pairs.join("&"));
    let mut all = core_errors;
    all.extend(errors);
    (q, prefs, all)
}

/// Encodes the query and the non-default prefs as a canonical search string (no '?').
pub fn encode(q: &Query, p: &Prefs, default_lang: Lang) -> String {
    let mut s = q.to_query_string();
    let enc = tunefit_core::query::percent_encode;
    if p.lang != default_lang {
        s.push_str(&format!("&lang={}", p.lang.code()));
    }
    if p.theme != Theme::Auto {
        s.push_str(&format!("&theme={}", p.theme.code()));
    }
    if p.units != Units::GiB {
        s.push_str(&format!("&units={}", p.units.code()));
    }
    if p.plot != PlotX::Seq {
        s.push_str(&format!("&plot={}", p.plot.code()));
    }
    for (k, v) in &p.passthrough {
        s.push_str(&format!("&{}={}", enc(k), enc(v)));
    }
    s
}

/// Whether public/boot.js can load the page's Russian build: it marks `<html data-no-ru>` when
/// that build failed to load and it fell back to the English one (no reload loop then).
pub fn russian_build_loads() -> bool {
    let html = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
    html.is_some_and(|h| !h.has_attribute("data-no-ru"))
}

/// Loads the page again from its current address.
pub fn reload() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
}

/// The current `location.search`, or "" outside a browser.
pub fn current_search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// Replaces the current history entry's query string (path and hash kept), when it differs.
pub fn replace_search(search: &str) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let want = format!("?{search}");
    if loc.search().ok().as_deref() == Some(want.as_str()) {
        return;
    }
    let hash = loc.hash().unwrap_or_default();
    let path = loc.pathname().unwrap_or_default();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{want}{hash}")));
    }
}
