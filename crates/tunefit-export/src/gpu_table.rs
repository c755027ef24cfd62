//! The GPU table, written here as markup: every GPU of the dataset against the query
//! (the core's `fit_every_gpu`: fits with its headroom, needs N GPUs, or does not fit, and the
//! largest batch and longest sequence on it). It loads with this module, not with the page:
//! the table is below the summary, which says the chosen GPU's verdict itself, and the table's
//! solvers and rows were about 4 KB of the page's gzipped first load
//! (src/components/gpu_table.rs asks, shows and takes a row's click).

use tunefit_core::markup::Html;
use tunefit_core::report::{Fit, Verdict};
use tunefit_core::{dataset, solve, write_html, Query};
use tunefit_text::format::{bytes, number, Units};
use tunefit_text::i18n::{verdict_badge, Lang, Strings};

/// The table for `query` in `lang` ("ru" is Russian; any other code is English), sizes in GiB
/// when `gib`, else GB, the query's own GPU marked selected. A query that cannot be evaluated
/// has a row per GPU with nothing computed: the page's own figures say why.
pub fn html(query: &str, lang: &str, gib: bool) -> Html {
    let lang = Lang::from_code(lang);
    let q = Query::parse(query).ok();
    let replayed = crate::last_report::report(query, None).map(|r| r.cache_excess);
    let rows = q.as_ref().map(|q| fits(q, replayed)).unwrap_or_else(fits_none);
    let units = if gib { Units::GiB } else { Units::GB };
    let s = lang.strings();
    let mut h = Html::with_capacity(rows.len() * 600 + 400);
    write_html!(
        h,
        r#"<table class="data"><thead><tr><th scope="col">"#,
        s.col_gpu,
        r#"</th><th scope="col" class="num">"#
    );
    write_html!(h, s.col_vram, r#"</th><th scope="col">"#, s.col_status, r#"</th><th scope="col" class="num">"#);
    write_html!(h, s.col_headroom, r#"</th><th scope="col" class="num">"#, s.col_max_batch);
    write_html!(h, r#"</th><th scope="col" class="num">"#, s.col_max_seq, "</th></tr></thead><tbody>");
    h.html(&rows_markup(s, units, lang, &rows, q.as_ref().and_then(|q| q.gpu.as_deref())));
    write_html!(h, "</tbody></table>");
    h
}

/// Every GPU, none evaluated.
fn fits_none() -> Vec<GpuFit> {
    dataset::gpus().iter().map(|g| (g.id, g.name, None)).collect()
}

/// One row: the GPU's id and name, and its fit (None when the core could not evaluate it).
pub type GpuFit = (&'static str, &'static str, Option<Fit>);

/// The fit of the current query on every GPU of the dataset (the core's `fit_every_gpu`),
/// paired with each GPU's display name. Empty when the query cannot be estimated.
/// `replayed`: the report's replay share when the report is of this query.
pub fn fits(q: &Query, replayed: Option<f64>) -> Vec<GpuFit> {
    let all = solve::fit_every_gpu(q, replayed).unwrap_or_default();
    dataset::gpus()
        .iter()
        .zip(all.into_iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(g, f)| (g.id, g.name, f))
        .collect()
}

/// The table's rows: each GPU's memory, fit status, headroom, largest batch and longest
/// sequence; `target` (the chosen GPU) is marked selected.
pub fn rows_markup(s: &Strings, u: Units, lang: Lang, rows: &[GpuFit], target: Option<&str>) -> Html {
    let mut h = Html::with_capacity(rows.len() * 600);
    let dash = s.not_computed;
    for (id, name, fit) in rows {
        let (status, class) = match fit {
            // A configuration that needs more GPUs says how many.
            Some(f) => match (f.verdict, f.min_gpus) {
                (Verdict::DoesNotFit, Some(n)) if n > 1 => ((s.needs_gpus)(n), "warn"),
                (v, _) => {
                    let (label, class) = verdict_badge(s, v);
                    (label.to_string(), class)
                }
            },
            None => (dash.to_string(), ""),
        };
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| dash.to_string());
        let (headroom, vram) = (
            or_dash(fit.as_ref().map(|f| bytes(f.headroom as f64, u, lang))),
            or_dash(fit.as_ref().map(|f| bytes(f.vram as f64, u, lang))),
        );
        let max_batch = or_dash(fit.as_ref().and_then(|f| f.max_batch).map(|b| number(b as f64, 0, lang)));
        let max_seq = or_dash(fit.as_ref().and_then(|f| f.max_seq).map(|b| number(b as f64, 0, lang)));
        let selected = target == Some(*id);
        write_html!(h, r#"<tr data-testid="gpu-row-"#, id, r#"" data-status=""#, class, r#"""#);
        if selected {
            write_html!(h, r#" class="selected""#);
        }
        write_html!(
            h,
            r#"><th scope="row"><button type="button" class="link" data-gpu=""#,
            id,
            r#"" aria-pressed=""#,
            selected,
            r#"" title=""#,
            (s.use_gpu)(name),
            r#"">"#,
            name,
            r#"</button></th><td class="num" data-label=""#,
            s.col_vram,
            r#"">"#,
            vram,
            r#"</td><td data-label=""#,
            s.col_status,
            r#""><span class="badge "#,
            class,
            r#"" data-testid="fit-status">"#,
            status,
            r#"</span></td><td class="num" data-testid="headroom" data-label=""#,
            s.col_headroom,
            r#"">"#,
            headroom,
            r#"</td><td class="num" data-testid="max-batch" data-label=""#,
            s.col_max_batch,
            r#"">"#,
            max_batch,
            r#"</td><td class="num" data-testid="max-seq" data-label=""#,
            s.col_max_seq,
            r#"">"#,
            max_seq,
            "</td></tr>"
        );
    }
    h
}

#[cfg(test)]
mod tests {
    use super::html;

    #[test]
    fn a_row_per_gpu_with_the_chosen_one_marked_and_its_verdict() {
        let q = "v=2&model=llama-3.1-8b&method=lora&batch=2&seq=2048&gpu=h100-sxm";
        let h = html(q, "en", true).into_string();
        assert_eq!(h.matches("<tr ").count(), tunefit_core::dataset::gpus().len(), "{h}");
        assert!(h.starts_with(r#"<table class="data"><thead><tr><th scope="col">GPU</th>"#), "{h}");
        let row = &h[h.find(r#"data-testid="gpu-row-h100-sxm""#).unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(row.contains(r#"class="selected""#) && row.contains(r#"aria-pressed="true""#), "{row}");
        let fit = tunefit_core::evaluate(&tunefit_core::Query::parse(q).unwrap()).unwrap().fit.unwrap();
        let badge = match fit.verdict {
            tunefit_core::report::Verdict::Fits => "fits",
            tunefit_core::report::Verdict::Tight => "tight",
            tunefit_core::report::Verdict::DoesNotFit => "does not fit",
        };
        assert!(row.to_lowercase().contains(badge), "{badge}: {row}");
        assert_eq!(h.matches(r#"aria-pressed="true""#).count(), 1);
        // In Russian, sizes in GB (a no-break space keeps a figure with its unit).
        let ru = html(q, "ru", false).into_string();
        let use_h100 = (tunefit_text::i18n::Lang::Ru.strings().use_gpu)("H100 SXM");
        assert!(ru.contains("\u{a0}GB<") && !ru.contains("GiB") && ru.contains(&use_h100), "{ru}");
        // A query that cannot be evaluated: every GPU, nothing computed.
        let bad = html("v=2&model=nope", "en", true).into_string();
        assert_eq!(bad.matches("<tr ").count(), tunefit_core::dataset::gpus().len());
        assert!(!bad.contains(r#"data-status="ok""#));
    }
}
