//! Per-GPU memory: the device total, a stacked bar of where it goes, allocated / reserved /
//! device shown apart, and the formula and assumptions behind each figure.

use crate::format::{bytes, bytes_value};
use crate::i18n::{term_label, Strings};
use crate::reactive::memo;
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::report::{Explanation, MemoryBreakdown};

/// A term's CSS class and how to read it from the breakdown.
type Term = (&'static str, fn(&MemoryBreakdown) -> u64);

/// The stacked terms, in bar order, with their CSS colour class.
const TERMS: [Term; 6] = [
    ("weights", |m| m.weights),
    ("gradients", |m| m.gradients),
    ("optimizer", |m| m.optimizer),
    ("activations", |m| m.activations),
    ("logits", |m| m.logits),
    ("overhead", |m| m.overhead),
];

#[component]
pub fn MemoryPanel() -> impl IntoView {
    let st = use_state();
    // The panel's structure is fixed; each figure is a derived signal over the report, so a
    // slider move updates text and widths instead of rebuilding (and re-setting every
    // attribute of) the whole panel. Only an error, or the language, swaps the structure.
    // Memos of one type (bool) only: every memo value type costs kilobytes of wasm.
    let ok = memo(move || st.report.with(Result::is_ok));
    let m = move |f: fn(&MemoryBreakdown) -> u64| st.report.with(|r| r.as_ref().map_or(0, |r| f(&r.memory)));
    let b =
        move |f: fn(&MemoryBreakdown) -> u64| Signal::derive(move || bytes(m(f) as f64, st.units.get(), st.lang.get()));
    let pct = move |f: fn(&MemoryBreakdown) -> u64| {
        let stacked: u64 = TERMS.iter().map(|(_, g)| m(*g)).sum();
        if stacked == 0 {
            0.0
        } else {
            m(f) as f64 * 100.0 / stacked as f64
        }
    };
    move || {
        let s = st.s();
        if !ok.get() {
            let lang = st.lang.get_untracked().core();
            let e = st.report.with_untracked(|r| r.as_ref().err().map(|e| e.text(lang)).unwrap_or_default());
            return view! {
                <section class="card memory" data-testid="memory-panel">
                    <p role="alert" class="error" data-testid="eval-error">{s.cannot_compute}" "{e}</p>
                </section>
            }
            .into_any();
        }
        let bar_label = move || {
            let (u, lang) = (st.units.get(), st.lang.get());
            let terms = TERMS
                .iter()
                .map(|(t, f)| format!("{} {}", term_label(s, t), bytes(m(*f) as f64, u, lang)))
                .collect::<Vec<_>>()
                .join(", ");
            format!("{}: {terms}", s.mem_breakdown)
        };
        view! {
            <section class="card memory" aria-labelledby="mem-title" data-testid="memory-panel">
                <h2 id="mem-title">{s.mem_title}</h2>
                <p class="total-line">
                    <span class="total-label">{s.mem_total}</span>
                    <span class="total" data-testid="total-device">{Signal::derive(move || bytes_value(m(|m| m.device) as f64, st.units.get(), st.lang.get()))}</span>
                    " "<span class="unit" data-testid="units-symbol">{move || st.units.get().symbol()}</span>
                </p>
                <div class="stack" role="img" aria-label=Signal::derive(bar_label) data-testid="stack">
                    // Every term keeps its segment; an empty term is 0 % wide.
                    {TERMS.iter().map(|&(t, f)| view! {
                        <div class=format!("seg t-{t}") style:width=Signal::derive(move || format!("{:.3}%", pct(f))) title=term_label(s, t)></div>
                    }).collect_view()}
                </div>
                <ul class="terms" aria-label=s.mem_breakdown>
                    {TERMS.iter().map(|&(t, f)| {
                        let has = memo(move || has_explanation(st, t));
                        let row = move || view! {
                            <span class="term-name"><span class=format!("swatch t-{t}") aria-hidden="true"></span>{term_label(s, t)}</span>
                            <span class="num" data-testid=format!("mem-{t}")>{b(f)}</span>
                            <span class="num muted">{Signal::derive(move || format!("{:.0}%", pct(f)))}</span>
                        };
                        // The one sentence on why a large term is large stays in view, not
                        // folded into the explanation.
                        let why = move || {
                            let lang = st.lang.get();
                            with_explanation(st, t, |e| e.and_then(|e| e.why.as_ref()).map(|w| w.text(lang.core())))
                        };
                        view! {
                            <li data-testid=format!("term-{t}")>
                                {move || if has.get() {
                                    view! {
                                        <details class="explain" data-testid=format!("explain-{t}")>
                                            <summary class="term-row" title=s.explain>{row()}</summary>
                                            {explain_body(t, s)}
                                        </details>
                                    }.into_any()
                                } else {
                                    view! { <div class="term-row">{row()}</div> }.into_any()
                                }}
                                {move || why().map(|w| view! { <p class="why" data-testid=format!("why-{t}")>{w}</p> })}
                            </li>
                        }
                    }).collect_view()}
                </ul>
                <dl class="levels">
                    {level(s.allocated, s.allocated_hint, b(|m| m.allocated), "mem-allocated", "allocated", s)}
                    {level(s.reserved, s.reserved_hint, b(|m| m.reserved), "mem-reserved", "reserved", s)}
                    {level(s.device, s.device_hint, b(|m| m.device), "mem-device", "device", s)}
                    {level(s.host_ram, "", b(|m| m.host_ram), "mem-host", "host_ram", s)}
                </dl>
            </section>
        }.into_any()
    }
}

/// Reads one field of the report's explanation for `term` (tracking the report).
fn with_explanation<R>(st: crate::state::AppState, term: &str, f: impl FnOnce(Option<&Explanation>) -> R) -> R {
    st.report.with(|r| f(r.as_ref().ok().and_then(|r| r.explanations.iter().find(|e| e.term == term))))
}

fn has_explanation(st: crate::state::AppState, term: &str) -> bool {
    with_explanation(st, term, |e| e.is_some())
}

/// One of the allocator's levels with its explanation when the core gives one.
fn level(
    name: &'static str,
    hint: &'static str,
    value: Signal<String>,
    id: &'static str,
    term: &'static str,
    s: &'static Strings,
) -> impl IntoView {
    let st = use_state();
    let has = memo(move || has_explanation(st, term));
    view! {
        <div class="level">
            <dt>{name}{(!hint.is_empty()).then(|| view! { <small class="muted">{hint}</small> })}</dt>
            <dd class="num" data-testid=id>{value}</dd>
            {move || has.get().then(|| view! {
                <dd><details class="explain" data-testid=format!("explain-{term}")><summary>{s.explain}</summary>{explain_body(term, s)}</details></dd>
            })}
        </div>
    }
}

/// The core's formula and assumptions for one figure, following the report.
fn explain_body(term: &'static str, s: &'static Strings) -> impl IntoView {
    let st = use_state();
    view! {
        <div class="explain-body">
            // The core renders each phrase in the page's language from its figures.
            <p><strong>{s.formula}": "</strong><code>{Signal::derive(move || { let lang = st.lang.get(); with_explanation(st, term, |e| e.map(|e| e.formula.text(lang.core())).unwrap_or_default()) })}</code></p>
            {move || with_explanation(st, term, |e| e.filter(|e| !e.assumptions.is_empty()).map(|e| {
                let lang = st.lang.get_untracked();
                let items: Vec<String> = e.assumptions.iter().map(|a| a.text(lang.core())).collect();
                view! {
                    <p><strong>{s.assumptions}":"</strong></p>
                    <ul>{items.into_iter().map(|a| view! { <li>{a}</li> }).collect_view()}</ul>
                }
            }))}
        </div>
    }
}
