//! The cost section's ranking, written here as markup: the core's ranked offers
//! (`Report.cost`) as a table with on-demand and spot side by side, the cheapest and fastest
//! marked, the plain-words recommendation, the rates the figures went through, and a
//! cost-against-time scatter with the Pareto front. It loads with this module, not with the
//! page: the section is below the first screen, and its rendering was 11 KB of the page's
//! gzipped first load (src/components/cost.rs asks, shows and keeps the "show all" choice).
//! The words and formats are the page's own (tunefit-text).

use std::collections::BTreeMap;
use tunefit_core::advice::{CostReport, RankedOffer};
use tunefit_core::markup::Html;
use tunefit_core::write_html;
use tunefit_text::format::{hours, money, number, usd};
use tunefit_text::i18n::{CostStrings as Strings, Lang};
use tunefit_text::svg_axis::{self, Axis, H, MB, ML, MT, W};

/// The section's ranking for `query` with a person's price book (its compact form, or empty),
/// in `lang` ("ru" is Russian; any other code is English): the recommendation, the table
/// (every row when `all`, else the first FIRST_ROWS), the button that shows the rest, and the
/// scatter; prices dated on `today` (days since 1970). A query the page cannot evaluate has no
/// ranking: the pending line, as the page's own figures say why.
pub fn html(query: &str, prices: &str, lang: &str, all: bool, today: f64) -> Html {
    let lang = Lang::from_code(lang);
    let s = lang.cost();
    let report = crate::last_report::report(query, Some(prices));
    let cost = report.as_deref().and_then(|r| r.cost.as_ref());
    let mut h = table_markup(s, lang, cost, all, today);
    let total = cost.map_or(0, |c| rows(c).len());
    if total > FIRST_ROWS {
        let label = if all { s.show_fewer.to_string() } else { (s.show_more)(total - FIRST_ROWS) };
        write_html!(
            h,
            r#"<button type="button" data-testid="show-all-offers" data-act="show-all" aria-expanded=""#,
            all,
            r#"">"#,
            label,
            "</button>"
        );
    }
    if let Some(c) = cost {
        h.html(&scatter_markup(s, lang, c));
    }
    h
}

/// Rows shown before "show all".
const FIRST_ROWS: usize = 20;

/// One offer with both of its prices, as a table row (borrowing the core's ranking: the
/// table and the row count each group it on every input).
#[derive(Debug, Clone, PartialEq)]
pub struct OfferRow<'a> {
    pub offer: &'static str,
    pub provider: &'static str,
    pub gpu: &'static str,
    pub gpus: u32,
    pub instances: u32,
    pub on_demand: Option<&'a RankedOffer>,
    pub spot: Option<&'a RankedOffer>,
}

impl OfferRow<'_> {
    /// The row's rank key: its lower total cost.
    pub fn best_usd(&self) -> f64 {
        [self.on_demand, self.spot].into_iter().flatten().map(|o| o.usd_total).fold(f64::INFINITY, f64::min)
    }
}

/// Groups the core's ranking (one entry per offer and pricing) into one row per offer,
/// keeping the core's order: a row sits where its cheaper price ranked.
pub fn rows(c: &CostReport) -> Vec<OfferRow<'_>> {
    // Row of each (offer, instances): hundreds of offers, so no linear search per entry.
    let mut at: BTreeMap<(&str, u32), usize> = BTreeMap::new();
    let mut out: Vec<OfferRow> = Vec::new();
    for o in &c.offers {
        let i = *at.entry((o.offer, o.instances)).or_insert_with(|| {
            out.push(OfferRow {
                offer: o.offer,
                provider: o.provider,
                gpu: o.gpu,
                gpus: o.gpus,
                instances: o.instances,
                on_demand: None,
                spot: None,
            });
            out.len() - 1
        });
        if o.pricing == "spot" {
            out[i].spot = Some(o)
        } else {
            out[i].on_demand = Some(o)
        }
    }
    out
}

/// The recommendation in the page's language, sentence by sentence (the core's `notes`).
fn recommendation(lang: Lang, c: &CostReport) -> String {
    if lang == Lang::En || c.notes.is_empty() {
        return c.recommendation.clone();
    }
    c.notes.iter().map(|n| n.text(lang.core())).collect::<Vec<_>>().join(" ")
}

fn same(a: &RankedOffer, b: &Option<RankedOffer>) -> bool {
    b.as_ref().is_some_and(|b| b.offer == a.offer && b.pricing == a.pricing && b.instances == a.instances)
}

/// One provider's row: the offer's facts, then on-demand and spot cost with their badges.
fn offer_row(h: &mut Html, s: &Strings, lang: Lang, c: &CostReport, r: &OfferRow, today_days: f64) {
    // What a person checks before renting: the price per GPU-hour, the region, the price's
    // date and confidence, marked when stale.
    let facts = r
        .on_demand
        .or(r.spot)
        .map(|o| {
            format!(
                "{} · {} · {} ({}){}",
                (s.per_gpu_hour)(&money(o.usd_per_gpu_hour(), o.currency, lang)),
                tunefit_text::i18n::offer_place(lang, o.region),
                o.snapshot_date,
                tunefit_text::i18n::offer_place(lang, o.confidence),
                if o.is_stale(today_days) { s.stale_price } else { "" }
            )
        })
        .unwrap_or_default();
    // What decides a fine-tuning job beyond the price (data/providers.csv): billing unit,
    // persistent storage and egress prices, access, a network between instances.
    let pf = tunefit_core::dataset::provider(r.provider).map(|p| provider_facts(p, s, lang)).unwrap_or_default();
    write_html!(
        h,
        r#"<tr data-testid="offer-row" data-best-usd=""#,
        r.best_usd(),
        r#""><th scope="row">"#,
        r.provider,
        r#"<small class="muted facts" data-testid="provider-facts">"#,
        pf,
        r#"</small></th><td data-label=""#,
        s.col_gpu,
        r#"">"#
    );
    if r.instances > 1 {
        write_html!(h, r.instances, " × ");
    }
    write_html!(
        h,
        r.gpus,
        " × ",
        r.gpu,
        r#"<small class="muted facts" data-testid="offer-facts">"#,
        facts,
        "</small></td>"
    );
    for (o, kind, label) in [(r.on_demand, "od", s.on_demand), (r.spot, "spot", s.spot)] {
        let Some(o) = o else {
            write_html!(h, r#"<td class="num muted" data-label=""#, label, r#"">—</td>"#);
            continue;
        };
        let (cheapest, fastest) = (same(o, &c.cheapest), same(o, &c.fastest));
        write_html!(h, r#"<td class="num"#);
        if cheapest || fastest {
            write_html!(h, " best");
        }
        write_html!(
            h,
            r#"" data-testid=""#,
            kind,
            r#"-cost" data-usd=""#,
            o.usd_total,
            r#"" data-label=""#,
            label,
            r#""><span class="usd">"#,
            money(o.usd_total, o.currency, lang),
            r#"</span><small class="muted"> · "#,
            hours(o.hours, lang),
            "</small>"
        );
        if cheapest {
            write_html!(h, r#"<span class="badge ok" data-testid="cheapest">"#, s.cheapest, "</span>");
        }
        if fastest {
            write_html!(h, r#"<span class="badge warn" data-testid="fastest">"#, s.fastest, "</span>");
        }
        if r.on_demand.is_some_and(|od| o.spot_needs_check(od)) {
            write_html!(h, r#"<span class="badge warn" data-testid="spot-check">"#, s.spot_check, "</span>");
        }
        write_html!(h, "</td>");
    }
    write_html!(h, "</tr>");
}

/// The recommendation, the cost warnings and the ranked table (the first FIRST_ROWS rows
/// unless `all`), or the pending message when there is no cost; prices dated on `today_days`
/// (days since 1970, the browser's clock).
pub fn table_markup(s: &Strings, lang: Lang, c: Option<&CostReport>, all: bool, today_days: f64) -> Html {
    let mut h = Html::with_capacity(8 << 10);
    let Some(c) = c else {
        write_html!(h, r#"<p class="muted">"#, s.cost_pending, "</p>");
        return h;
    };
    if !c.recommendation.is_empty() {
        write_html!(
            h,
            r#"<p class="recommendation" data-testid="recommendation"><strong>"#,
            s.recommendation,
            ": </strong>",
            recommendation(lang, c),
            "</p>"
        );
    }
    // Which rates the figures went through, and of which day; a rate older than a price may be
    // is marked as a price is.
    if !c.rates.is_empty() {
        write_html!(h, r#"<p class="muted small" data-testid="rate">"#, s.converted);
        for (i, r) in c.rates.iter().enumerate() {
            write_html!(
                h,
                if i > 0 { ";" } else { "" },
                " 1 USD = ",
                number(r.per_usd, if r.per_usd >= 10.0 { 2 } else { 4 }, lang),
                " ",
                r.code,
                " (",
                tunefit_text::i18n::offer_place(lang, r.source),
                ", ",
                r.date,
                if tunefit_core::advice::age_days(r.date, today_days)
                    .is_some_and(|d| d > tunefit_core::advice::STALE_AFTER_DAYS)
                {
                    s.stale_price
                } else {
                    ""
                },
                ")"
            );
        }
        write_html!(h, ".</p>");
    }
    if !c.warnings.is_empty() {
        write_html!(h, r#"<ul class="notice warn">"#);
        for w in &c.warnings {
            write_html!(h, r#"<li data-code=""#, w.code(), r#"">"#, w.text(lang.core()), "</li>");
        }
        write_html!(h, "</ul>");
    }
    // Focusable, so a keyboard reaches what is scrolled out of view.
    write_html!(
        h,
        r#"<div class="scroll" tabindex="0"><table class="data" data-testid="cost-table"><thead><tr><th scope="col">"#,
        s.col_provider,
        r#"</th><th scope="col">"#,
        s.col_gpu,
        r#"</th><th scope="col" class="num">"#,
        s.col_cost,
        " (",
        s.on_demand,
        r#")</th><th scope="col" class="num">"#,
        s.col_cost,
        " (",
        s.spot,
        ")</th></tr></thead><tbody>"
    );
    for r in rows(c).iter().take(if all { usize::MAX } else { FIRST_ROWS }) {
        offer_row(&mut h, s, lang, c, r, today_days);
    }
    write_html!(h, "</tbody></table></div>");
    h
}

/// A provider's facts in one line: "per-second billing · storage $0.08/GB-month · egress
/// $0.09/GB · SSH, Docker, Jupyter · multi-node".
fn provider_facts(p: &tunefit_core::dataset::Provider, s: &Strings, lang: Lang) -> String {
    let mut parts: Vec<String> = vec![(s.billing_per)(p.billing.as_str())];
    if let Some(x) = p.storage_usd_gb_month {
        parts.push((s.storage_price)(&usd(x, lang)));
    }
    if let Some(x) = p.egress_usd_gb {
        parts.push((s.egress_price)(&usd(x, lang)));
    }
    let access: Vec<&str> = [(p.ssh, "SSH"), (p.docker, "Docker"), (p.jupyter, "Jupyter")]
        .iter()
        .filter(|(b, _)| *b)
        .map(|(_, n)| *n)
        .collect();
    if !access.is_empty() {
        parts.push(access.join(", "));
    }
    if p.internode_gb_s.is_some() {
        parts.push(s.multi_node.into());
    }
    parts.join(" · ")
}

/// Ticks at the powers of ten between `lo` and `hi` (log axes), or two inside the range when
/// it spans less than a decade.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut t = Vec::new();
    let mut v = 10f64.powf(lo.log10().ceil());
    while v <= hi {
        t.push(v);
        v *= 10.0;
    }
    if t.len() < 2 {
        t = vec![lo * 1.3, hi / 1.3];
    }
    t
}

/// Cost against time, log-log: every priced offer as a dot, the Pareto front as a line.
/// The dots are drawn as two paths (on-demand, spot) so hundreds of offers stay two nodes.
/// Empty when no offer has a finite, positive cost and time.
pub fn scatter_markup(s: &Strings, lang: Lang, c: &CostReport) -> Html {
    let pts: Vec<&RankedOffer> = c
        .offers
        .iter()
        .filter(|o| o.hours > 0.0 && o.usd_total > 0.0 && o.hours.is_finite() && o.usd_total.is_finite())
        .collect();
    let mut h = Html::with_capacity(4 << 10);
    if pts.is_empty() {
        return h;
    }
    let span = |f: fn(&RankedOffer) -> f64| {
        let lo = pts.iter().map(|o| f(o)).fold(f64::INFINITY, f64::min);
        let hi = pts.iter().map(|o| f(o)).fold(0.0, f64::max);
        // Pad a decade-fraction each side; a single point still gets a range.
        (lo / 1.3, (hi * 1.3).max(lo * 2.0))
    };
    let (tlo, thi) = span(|o| o.hours);
    let (clo, chi) = span(|o| o.usd_total);
    let mr = 16.0;
    let x = Axis { lo: tlo, hi: thi, log: true, from: ML, to: W - mr };
    let y = Axis { lo: clo, hi: chi, log: true, from: H - MB, to: MT };
    let cost = |x: f64| money(x, c.currency, lang);
    let cheapest =
        c.cheapest.as_ref().map(|o| format!("{} {} {}", o.provider, o.gpu, cost(o.usd_total))).unwrap_or_default();
    write_html!(
        h,
        r#"<figure class="plotfig" data-testid="plot-cost-time"><figcaption><strong>"#,
        s.plot_cost_time,
        r#"</strong> — <span class="muted small">"#,
        s.plot_cost_time_desc,
        r#"</span></figcaption><svg viewBox="0 0 "#,
        W,
        " ",
        H,
        r#"" class="plot" role="img" aria-label=""#,
        s.plot_cost_time,
        ": ",
        s.cheapest,
        " — ",
        cheapest,
        r#"">"#
    );
    svg_axis::x_ticks(&mut h, &x, &y, &ticks(tlo, thi), &|t| hours(t, lang), true);
    svg_axis::y_ticks(&mut h, &x, &y, &ticks(clo, chi), &|t| cost(t));
    svg_axis::titles(&mut h, &x, &y, &s.axis_time, &s.axis_cost);
    for (spot, class, id) in [(false, "dots", "dots-on-demand"), (true, "dots spot", "dots-spot")] {
        write_html!(h, r#"<path class=""#, class, r#"" data-testid=""#, id, r#"" d=""#);
        for o in pts.iter().filter(|o| (o.pricing == "spot") == spot) {
            write_html!(h, format_args!("M{:.1} {:.1}h0", x.map(o.hours), y.map(o.usd_total)));
        }
        write_html!(h, r#""/>"#);
    }
    write_html!(h, r#"<polyline class="pareto" data-testid="pareto" points=""#);
    for (i, o) in c.pareto.iter().enumerate() {
        if i > 0 {
            write_html!(h, " ");
        }
        write_html!(h, format_args!("{:.1},{:.1}", x.map(o.hours), y.map(o.usd_total)));
    }
    write_html!(h, r#""><title>"#, s.pareto, "</title></polyline>");
    for (o, class) in [(&c.cheapest, "mark cheapest"), (&c.fastest, "mark fastest")] {
        if let Some(o) = o {
            write_html!(
                h,
                r#"<circle class=""#,
                class,
                r#"" cx=""#,
                x.map(o.hours),
                r#"" cy=""#,
                y.map(o.usd_total),
                r#"" r="6"><title>"#,
                format_args!(
                    "{} {}: {}, {}",
                    o.provider,
                    o.gpu,
                    money(o.usd_total, c.currency, lang),
                    hours(o.hours, lang)
                ),
                "</title></circle>"
            );
        }
    }
    write_html!(
        h,
        r#"</svg><p class="legend small"><span class="key od"></span>"#,
        s.on_demand,
        r#" <span class="key spot"></span>"#,
        s.spot,
        r#" <span class="key front"></span>"#,
        s.pareto,
        "</p></figure>"
    );
    h
}

#[cfg(test)]
mod tests {
    use super::{html, FIRST_ROWS};

    const Q: &str = "v=2&model=llama-3.1-8b&method=lora";
    const TODAY: f64 = 20_430.0; // 2025-12-09

    fn count(h: &str, needle: &str) -> usize {
        h.matches(needle).count()
    }

    #[test]
    fn the_first_rows_then_every_row_with_the_button_that_shows_them() {
        let first = html(Q, "", "en", false, TODAY).into_string();
        assert_eq!(count(&first, r#"data-testid="offer-row""#), FIRST_ROWS, "{first}");
        assert!(first.contains(r#"data-act="show-all" aria-expanded="false">Show "#), "{first}");
        assert!(first.contains(r#"data-testid="recommendation""#) && first.contains(r#"data-testid="plot-cost-time""#));
        let all = html(Q, "", "en", true, TODAY).into_string();
        let rows = count(&all, r#"data-testid="offer-row""#);
        assert!(rows > FIRST_ROWS, "{rows}");
        assert!(first.contains(&format!("Show {} more offers", rows - FIRST_ROWS)), "{first}");
        assert!(all.contains(r#"aria-expanded="true">Show fewer offers</button>"#));
        // Exactly one cheapest and one fastest mark, as the core ranked them.
        assert_eq!(count(&all, r#"data-testid="cheapest""#), 1);
        assert_eq!(count(&all, r#"data-testid="fastest""#), 1);
    }

    #[test]
    fn a_persons_own_price_ranks_and_the_page_language_is_kept() {
        let own = "c:lab:lab:l40s:1:0.01::";
        let h = html(Q, own, "en", false, TODAY).into_string();
        let first_row = &h[h.find(r#"data-testid="offer-row""#).unwrap()..];
        assert!(first_row[..first_row.find("</tr>").unwrap()].contains("lab"), "{h}");
        let ru = html(Q, "", "ru", false, TODAY).into_string();
        assert!(ru.contains("Рекомендация") && ru.contains("по требованию") && !ru.contains("Recommendation"), "{ru}");
    }

    #[test]
    fn prices_older_than_sixty_days_are_marked_by_the_given_date() {
        let now = html(Q, "", "en", true, 0.0).into_string();
        assert!(!now.contains("older than 60 days"));
        let later = html(Q, "", "en", true, TODAY + 10_000.0).into_string();
        assert!(later.contains("older than 60 days"));
    }

    #[test]
    fn a_query_without_a_ranking_says_it_is_pending() {
        for q in ["v=2&model=no-such-model", "v=2&batch=-1"] {
            let h = html(q, "", "en", false, TODAY).into_string();
            assert!(h.contains("Time and cost appear here") && !h.contains("<table"), "{h}");
        }
    }
}
