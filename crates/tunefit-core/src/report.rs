//! The result of one calculation, as the CLI's `--json` prints it and the page renders it:
//! `evaluate` assembles the `Report` from the models below it and nothing below it uses this
//! file. Its parts are typed beside the module that computes them (memory, solve, time,
//! advice, fix); they are re-exported here, the public contract's one address.
//!
//! Field names are a public contract (the CLI's JSON): add fields, never rename them.
//! All memory figures are bytes, per GPU, unless the name says otherwise.

pub use crate::diag::{Error, Lang, Warning};
pub use crate::memory::{Explanation, MemoryBreakdown, ModelInfo};
use crate::query::Query;
use crate::settings::Settings;
pub use crate::solve::{verdict, Fit, Verdict, BAND_OVER, BAND_UNDER};
use serde::Serialize;

/// Everything computed for one query.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Canonical query string (defaults left out).
    pub query: String,
    pub model: ModelInfo,
    pub memory: MemoryBreakdown,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<Fit>,
    pub warnings: Vec<Warning>,
    pub explanations: Vec<Explanation>,
    /// Training time on the named GPU (or on the cheapest offer's configuration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<crate::time::TimeEstimate>,
    /// Every offer the configuration fits, ranked by total cost (crate::advice).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::advice::CostReport>,
    /// When the chosen GPU does not fit with the error band: the changes that make it fit
    /// (crate::fix), ordered by what they give up. Filled by `with_fixes` (the CLI, the JSON
    /// download, the page's summary through the lazily loaded module).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<crate::fix::Fix>,
    /// The allocator replay's cache share (`memory::Estimate::cache_excess`): what the GPU
    /// table and the plots take for their variants of this very query, so that they do not
    /// replay it again (`solve::fit_every_gpu`, `device_by_seq`, `device_by_batch`).
    #[serde(skip)]
    pub cache_excess: f64,
}

/// Evaluates one query: memory, and fit when a GPU is named.
pub fn evaluate(q: &Query) -> Result<Report, Error> {
    let mut s = Settings::resolve(q)?;
    // The solvers and the offers' GPU counts take the replay's cache share (one replay).
    let est = crate::memory::estimate_replayed(&mut s)?;
    let fit = match &q.gpu {
        Some(id) => Some(crate::solve::fit(&s, &est, id)?),
        None => None,
    };
    let cost = crate::advice::rank(&s, &est)?;
    finish(q, &s, est, fit, cost)
}

/// Adds the fixes for the chosen GPU (crate::fix) to a report of `q`, their notes in English.
pub fn with_fixes(mut r: Report, q: &Query) -> Report {
    if let Some(f) = r.fit.as_ref().and_then(|f| fixes_of(f.verdict, f.vram, q, Lang::En)) {
        r.fixes = f;
    }
    r
}

/// The fixes for `q` when its chosen GPU (`vram` bytes) does not fit with the error band
/// (`verdict`), notes in `lang`.
fn fixes_of(verdict: Verdict, vram: u64, q: &Query, lang: Lang) -> Option<Vec<crate::fix::Fix>> {
    if verdict == Verdict::Fits {
        return None;
    }
    Settings::resolve(q).ok().map(|s| crate::fix::fixes_in(&s, vram, lang))
}

/// The fixes for `query`'s chosen GPU, one per line: `set`, device bytes, `1` when it fits
/// alone, the note in `lang` — tab-separated (the page's summary reads them with `read_fixes`).
/// Only the memory and the fit are evaluated: the page asks on every change of a query that
/// does not fit, and the offers' ranking plays no part in the fixes.
pub fn fixes_tsv(query: &str, lang: Lang) -> String {
    let Ok(q) = Query::parse(query) else { return String::new() };
    let Some(gpu) = q.gpu.as_deref().and_then(crate::dataset::gpu) else { return String::new() };
    let Ok(device) = Settings::resolve(&q).and_then(|s| crate::memory::estimate(&s)).map(|e| e.memory.device) else {
        return String::new();
    };
    fixes_of(verdict(device, gpu.vram_bytes).0, gpu.vram_bytes, &q, lang)
        .unwrap_or_default()
        .iter()
        .map(|f| format!("{}\t{}\t{}\t{}\n", f.set, f.device, u8::from(f.fits), f.note.replace(['\t', '\n'], " ")))
        .collect()
}

/// `fixes_tsv`'s lines back as fixes (malformed lines are skipped).
pub fn read_fixes(text: &str) -> Vec<crate::fix::Fix> {
    text.lines()
        .filter_map(|l| {
            let mut it = l.split('\t');
            let (set, device, fits, note) = (it.next()?, it.next()?.parse().ok()?, it.next()?, it.next()?);
            Some(crate::fix::Fix { set: set.into(), device, fits: fits == "1", note: note.into() })
        })
        .collect()
}

/// `evaluate`, with the allocator replay's points in `memory` (`tunefit estimate --json
/// --timeline`; the page's chart asks the lazily loaded module).
pub fn evaluate_with_timeline(q: &Query) -> Result<Report, Error> {
    with_timeline(evaluate(q)?, q)
}

/// What `tunefit estimate --json` prints: `evaluate` with the fixes.
pub fn evaluate_for_cli(q: &Query) -> Result<Report, Error> {
    Ok(with_peak_phase(with_fixes(evaluate(q)?, q)))
}

/// Puts the peak's moment in English words (`memory.peak_phase`) for a report that is written
/// out: the replay's, or the vision tower's own pass when that is the run's peak; the page says
/// the moment in its own language (`Moment::text`).
pub fn with_peak_phase(mut r: Report) -> Report {
    r.memory.peak_phase = r.memory.peak_moment.map(|m| m.text(Lang::En));
    r
}

/// Adds the allocator replay's points to a report of `q` (`MemoryBreakdown::timeline`;
/// `reserved` comes from the same replay in every report, and so does `peak_phase` unless the
/// vision tower's own pass, which the replay does not run, is the peak).
pub fn with_timeline(r: Report, q: &Query) -> Result<Report, Error> {
    let replay = crate::memory::estimate(&Settings::resolve(q)?)?.replay();
    let mut r = with_peak_phase(r);
    r.memory.timeline = Some(replay.points());
    Ok(r)
}

/// The query and its report from the page's texts: the link's query and the price book in the
/// compact form the page stores and links carry (`PriceBook::from_compact`; empty for none);
/// the error in words otherwise.
pub fn evaluate_text(query: &str, prices: &str) -> Result<(Query, Report), String> {
    let q = Query::parse(query).map_err(|e| e.to_string())?;
    let book = crate::prices::PriceBook::from_compact(prices.trim())
        .map_err(|e| format!("prices: {}: {}", e.field, e.message()))?;
    let r = evaluate_with_prices(&q, &book).map_err(|e| e.to_string())?;
    Ok((q, r))
}

/// The report of `query` with a person's price book (its compact form; empty for none), as
/// `tunefit estimate --json` prints it, or `{"error": "…"}`. The page's JSON download asks the
/// lazily loaded exporter module for this, so the report's serializer stays out of its first
/// load.
pub fn report_json(query: &str, prices: &str, today: f64) -> String {
    let err = |m: String| serde_json::json!({ "error": m }).to_string();
    match evaluate_text(query, prices) {
        Ok((q, mut r)) => {
            r.date_offers(today);
            serde_json::to_string_pretty(&with_peak_phase(with_fixes(r, &q))).unwrap_or_else(|e| err(e.to_string()))
        }
        Err(m) => err(m),
    }
}

impl Report {
    /// Dates each offer's price on `today` (days since 1970-01-01): `stale` says whether it is
    /// older than `advice::STALE_AFTER_DAYS`, for the JSON and the Markdown. The core has no
    /// clock: the CLI passes the system's date, the page the browser's.
    pub fn date_offers(&mut self, today: f64) {
        if let Some(c) = &mut self.cost {
            let all =
                c.offers.iter_mut().chain(c.cheapest.iter_mut()).chain(c.fastest.iter_mut()).chain(c.pareto.iter_mut());
            // An undated price (a person's own) is neither: it stays unmarked.
            for o in all {
                o.stale = crate::advice::age_days(o.snapshot_date, today).map(|d| d > crate::advice::STALE_AFTER_DAYS);
            }
        }
    }
}

/// `evaluate`, with a person's own prices applied to the cost ranking (`crate::prices`).
/// A price book that does not validate is an error naming its entry and field.
pub fn evaluate_with_prices(q: &Query, prices: &crate::prices::PriceBook) -> Result<Report, Error> {
    if prices.is_empty() {
        return evaluate(q);
    }
    prices.validate().map_err(|e| Error::Invalid { key: format!("prices: {}", e.field), message: e.message() })?;
    evaluate_with_read_prices(q, prices)
}

/// `evaluate_with_prices` for a book that a reader gave (`PriceBook::from_json`, `from_csv`,
/// `from_text`, `from_compact` refuse what does not validate), so it is not checked again: the
/// page's, whose own wasm then never words a price list's error (the lazily loaded module says
/// those, in the page's language). An entry that does not validate is skipped (`market`).
pub fn evaluate_with_read_prices(q: &Query, prices: &crate::prices::PriceBook) -> Result<Report, Error> {
    if prices.is_empty() {
        return evaluate(q);
    }
    let mut s = Settings::resolve(q)?;
    let est = crate::memory::estimate_replayed(&mut s)?;
    let fit = match &q.gpu {
        Some(id) => Some(crate::solve::fit(&s, &est, id)?),
        None => None,
    };
    let market = prices.market();
    let mut cost = crate::advice::rank_with(&s, &est, &market.offers, &market.providers)?;
    cost.warnings.extend(market.warnings);
    finish(q, &s, est, fit, cost)
}

/// `given` is the person's query, echoed as they wrote it (an image encoder's settings carry
/// its image's tokens as `seq`).
fn finish(
    given: &Query,
    s: &Settings,
    est: crate::memory::Estimate,
    fit: Option<Fit>,
    cost: crate::advice::CostReport,
) -> Result<Report, Error> {
    let time = crate::advice::time_for(s, &est, Some(&cost));
    Ok(Report {
        query: given.to_query_string(),
        model: est.model,
        memory: est.memory,
        fit,
        warnings: est.warnings,
        explanations: est.explanations,
        time,
        cost: Some(cost),
        fixes: Vec::new(),
        cache_excess: est.cache_excess,
    })
}
