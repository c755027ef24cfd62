//! Time and cost: the core's ranked offers (`Report.cost`) as a table with on-demand and
//! spot side by side, the cheapest and fastest highlighted, the plain-words recommendation,
//! and a cost-against-time scatter with the Pareto front.

use super::plots::{Axis, H, MB, ML, MT, W};
use crate::format::{hours, number, usd};
use crate::i18n::{core_message, Lang};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::advice::{CostReport, RankedOffer};

/// Rows shown before "show all".
const FIRST_ROWS: usize = 20;

/// One offer with both of its prices, as a table row.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferRow {
    pub offer: &'static str,
    pub provider: &'static str,
    pub gpu: &'static str,
    pub gpus: u32,
    pub instances: u32,
    pub on_demand: Option<RankedOffer>,
    pub spot: Option<RankedOffer>,
}

impl OfferRow {
    /// The row's rank key: its lower total cost.
    pub fn best_usd(&self) -> f64 {
        [&self.on_demand, &self.spot].into_iter().flatten().map(|o| o.usd_total).fold(f64::INFINITY, f64::min)
    }
}

/// Groups the core's ranking (one entry per offer and pricing) into one row per offer,
/// keeping the core's order: a row sits where its cheaper price ranked.
pub fn rows(c: &CostReport) -> Vec<OfferRow> {
    let mut out: Vec<OfferRow> = Vec::new();
    for o in &c.offers {
        let i = match out.iter().position(|r| r.offer == o.offer && r.instances == o.instances) {
            Some(i) => i,
            None => {
                out.push(OfferRow { offer: o.offer, provider: o.provider, gpu: o.gpu, gpus: o.gpus, instances: o.instances, on_demand: None, spot: None });
                out.len() - 1
            }
        };
        if o.pricing == "spot" { out[i].spot = Some(o.clone()) } else { out[i].on_demand = Some(o.clone()) }
    }
    out
}

/// The recommendation in the page's language, sentence by sentence (the core's `notes`).
fn recommendation(lang: Lang, c: &CostReport) -> String {
    if lang == Lang::En || c.notes.is_empty() { return c.recommendation.clone(); }
    c.notes.iter().map(|n| core_message(lang, &n.code, &n.message)).collect::<Vec<_>>().join(" ")
}

fn same(a: &RankedOffer, b: &Option<RankedOffer>) -> bool {
    b.as_ref().is_some_and(|b| b.offer == a.offer && b.pricing == a.pricing && b.instances == a.instances)
}

#[component]
pub fn CostSection() -> impl IntoView {
    let st = use_state();
    let cost = Memo::new(move |_| st.report.with(|r| r.as_ref().ok().and_then(|r| r.cost.clone())));
    let time = Memo::new(move |_| st.report.with(|r| r.as_ref().ok().and_then(|r| r.time.clone())));
    let show_all = RwSignal::new(false);
    view! {
        <section class="card" aria-labelledby="cost-title" data-testid="cost-section">
            <h2 id="cost-title">{move || st.s().cost_title}</h2>
            {move || {
                let s = st.s();
                let lang = st.lang.get();
                time.get().map(|t| view! {
                    <p class="muted" data-testid="time-summary">
                        {(s.time_summary)(&hours(t.hours, lang), &number(t.tokens_per_s, 0, lang), t.gpus, &t.gpu)}
                    </p>
                })
            }}
            {move || {
                let s = st.s();
                let lang = st.lang.get();
                match cost.get() {
                    None => view! { <p class="muted">{s.cost_pending}</p> }.into_any(),
                    Some(c) => {
                        let all = rows(&c);
                        let total = all.len();
                        let shown: Vec<OfferRow> = if show_all.get() { all } else { all.into_iter().take(FIRST_ROWS).collect() };
                        let cell = move |o: &Option<RankedOffer>, c: &CostReport, kind: &'static str| match o {
                            Some(o) => {
                                let cheapest = same(o, &c.cheapest);
                                let fastest = same(o, &c.fastest);
                                view! {
                                    <td class="num" data-testid=format!("{kind}-cost") data-usd=o.usd_total.to_string() class:best=cheapest || fastest>
                                        <span class="usd">{usd(o.usd_total, lang)}</span>
                                        <small class="muted">" · "{hours(o.hours, lang)}</small>
                                        {cheapest.then(|| view! { <span class="badge ok" data-testid="cheapest">{s.cheapest}</span> })}
                                        {fastest.then(|| view! { <span class="badge warn" data-testid="fastest">{s.fastest}</span> })}
                                    </td>
                                }.into_any()
                            }
                            None => view! { <td class="num muted">"—"</td> }.into_any(),
                        };
                        view! {
                            {(!c.recommendation.is_empty()).then(|| view! {
                                <p class="recommendation" data-testid="recommendation"><strong>{s.recommendation}": "</strong>{recommendation(lang, &c)}</p>
                            })}
                            {(!c.warnings.is_empty()).then(|| view! {
                                <ul class="notice warn">{c.warnings.iter().map(|w| view! { <li data-code=w.code.clone()>{core_message(lang, &w.code, &w.message)}</li> }).collect_view()}</ul>
                            })}
                            <div class="scroll">
                            <table class="data" data-testid="cost-table">
                                <thead><tr>
                                    <th scope="col">{s.col_provider}</th>
                                    <th scope="col">{s.col_gpu}</th>
                                    <th scope="col" class="num">{format!("{} ({})", s.col_cost, s.on_demand)}</th>
                                    <th scope="col" class="num">{format!("{} ({})", s.col_cost, s.spot)}</th>
                                </tr></thead>
                                <tbody>
                                    {shown.iter().map(|r| view! {
                                        <tr data-testid="offer-row" data-best-usd=r.best_usd().to_string()>
                                            <th scope="row">{r.provider}</th>
                                            <td>{if r.instances > 1 { format!("{} × {} × {}", r.instances, r.gpus, r.gpu) } else { format!("{} × {}", r.gpus, r.gpu) }}</td>
                                            {cell(&r.on_demand, &c, "od")}
                                            {cell(&r.spot, &c, "spot")}
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                            </div>
                            {(total > FIRST_ROWS).then(|| view! {
                                <button type="button" data-testid="show-all-offers" aria-expanded=move || show_all.get().to_string()
                                    on:click=move |_| show_all.update(|v| *v = !*v)>
                                    {move || if show_all.get() { st.s().show_fewer.to_string() } else { (st.s().show_more)(total - FIRST_ROWS) }}
                                </button>
                            })}
                            <CostScatter c=c />
                        }.into_any()
                    }
                }
            }}
        </section>
    }
}

/// Cost against time, log-log: every priced offer as a dot, the Pareto front as a line.
/// The dots are drawn as two paths (on-demand, spot) so hundreds of offers stay two nodes.
#[component]
fn CostScatter(c: CostReport) -> impl IntoView {
    let st = use_state();
    let s = st.s();
    let lang = st.lang.get_untracked();
    let pts: Vec<&RankedOffer> = c.offers.iter().filter(|o| o.hours > 0.0 && o.usd_total > 0.0 && o.hours.is_finite() && o.usd_total.is_finite()).collect();
    if pts.is_empty() { return None; }
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
    let dots = |spot: bool| pts.iter().filter(|o| (o.pricing == "spot") == spot)
        .map(|o| format!("M{:.1} {:.1}h0", x.map(o.hours), y.map(o.usd_total))).collect::<String>();
    let front = c.pareto.iter().map(|o| format!("{:.1},{:.1}", x.map(o.hours), y.map(o.usd_total))).collect::<Vec<_>>().join(" ");
    let ticks = |lo: f64, hi: f64| -> Vec<f64> {
        let mut t = Vec::new();
        let mut v = 10f64.powf(lo.log10().ceil());
        while v <= hi { t.push(v); v *= 10.0; }
        if t.len() < 2 { t = vec![lo * 1.3, hi / 1.3]; }
        t
    };
    let mark = |o: &Option<RankedOffer>, class: &'static str| o.as_ref().map(|o| view! {
        <circle class=class cx=x.map(o.hours) cy=y.map(o.usd_total) r="6"><title>{format!("{} {}: {}, {}", o.provider, o.gpu, usd(o.usd_total, lang), hours(o.hours, lang))}</title></circle>
    });
    let label = format!("{}: {} — {}", s.plot_cost_time, s.cheapest, c.cheapest.as_ref().map(|o| format!("{} {} {}", o.provider, o.gpu, usd(o.usd_total, lang))).unwrap_or_default());
    Some(view! {
        <figure class="plotfig" data-testid="plot-cost-time">
            <figcaption><strong>{s.plot_cost_time}</strong>" — "<span class="muted small">{s.plot_cost_time_desc}</span></figcaption>
            <svg viewBox=format!("0 0 {W} {H}") class="plot" role="img" aria-label=label>
                {ticks(tlo, thi).into_iter().map(|t| view! {
                    <g class="tick"><line x1=x.map(t) x2=x.map(t) y1=MT y2=H - MB />
                    <text x=x.map(t) y=H - MB + 16.0 text-anchor="middle">{hours(t, lang)}</text></g>
                }).collect_view()}
                {ticks(clo, chi).into_iter().map(|t| view! {
                    <g class="tick"><line x1=ML x2=W - mr y1=y.map(t) y2=y.map(t) />
                    <text x=ML - 6.0 y=y.map(t) + 4.0 text-anchor="end">{usd(t, lang)}</text></g>
                }).collect_view()}
                <text class="axis-label" x=(ML + W - mr) / 2.0 y=H - 6.0 text-anchor="middle">{s.axis_time}</text>
                <text class="axis-label" x=12.0 y=(MT + H - MB) / 2.0 text-anchor="middle" transform=format!("rotate(-90 12 {})", (MT + H - MB) / 2.0)>{s.axis_cost}</text>
                <path class="dots" d=dots(false) data-testid="dots-on-demand" />
                <path class="dots spot" d=dots(true) data-testid="dots-spot" />
                <polyline class="pareto" points=front data-testid="pareto"><title>{s.pareto}</title></polyline>
                {mark(&c.cheapest, "mark cheapest")}
                {mark(&c.fastest, "mark fastest")}
            </svg>
            <p class="legend small">
                <span class="key od"></span>{s.on_demand}" "
                <span class="key spot"></span>{s.spot}" "
                <span class="key front"></span>{s.pareto}
            </p>
        </figure>
    })
}
