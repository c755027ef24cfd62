//! Per-GPU memory: the device total, a stacked bar of where it goes, allocated / reserved /
//! device shown apart, and the formula and assumptions behind each figure.

use crate::format::{bytes, bytes_value};
use crate::i18n::{term_label, Strings};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::report::{Explanation, MemoryBreakdown};

/// The stacked terms, in bar order, with their CSS colour class.
const TERMS: [(&str, fn(&MemoryBreakdown) -> u64); 6] = [
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
    move || st.report.with(|r| match r {
        Ok(r) => {
            let s = st.s();
            let (u, lang) = (st.units.get(), st.lang.get());
            let m = &r.memory;
            let stacked: u64 = TERMS.iter().map(|(_, f)| f(m)).sum();
            let pct = |b: u64| if stacked == 0 { 0.0 } else { b as f64 * 100.0 / stacked as f64 };
            let bar_label = TERMS.iter().map(|(t, f)| format!("{} {}", term_label(s, t), bytes(f(m) as f64, u, lang)))
                .collect::<Vec<_>>().join(", ");
            let ex = r.explanations.clone();
            view! {
                <section class="card memory" aria-labelledby="mem-title" data-testid="memory-panel">
                    <h2 id="mem-title">{s.mem_title}</h2>
                    <p class="total-line">
                        <span class="total-label">{s.mem_total}</span>
                        <span class="total" data-testid="total-device">{bytes_value(m.device as f64, u, lang)}</span>
                        " "<span class="unit" data-testid="units-symbol">{u.symbol()}</span>
                    </p>
                    <div class="stack" role="img" aria-label=format!("{}: {bar_label}", s.mem_breakdown) data-testid="stack">
                        {TERMS.iter().filter(|(_, f)| f(m) > 0).map(|(t, f)| view! {
                            <div class=format!("seg t-{t}") style:width=format!("{:.3}%", pct(f(m))) title=term_label(s, t)></div>
                        }).collect_view()}
                    </div>
                    <ul class="terms" aria-label=s.mem_breakdown>
                        {TERMS.iter().map(|(t, f)| {
                            let row = view! {
                                <span class="term-name"><span class=format!("swatch t-{t}") aria-hidden="true"></span>{term_label(s, t)}</span>
                                <span class="num" data-testid=format!("mem-{t}")>{bytes(f(m) as f64, u, lang)}</span>
                                <span class="num muted">{format!("{:.0}%", pct(f(m)))}</span>
                            };
                            view! {
                                <li data-testid=format!("term-{t}")>
                                    {match find(&ex, t) {
                                        Some(e) => view! {
                                            <details class="explain" data-testid=format!("explain-{t}")>
                                                <summary class="term-row" title=s.explain>{row}</summary>
                                                <ExplainBody e=e s=s />
                                            </details>
                                        }.into_any(),
                                        None => view! { <div class="term-row">{row}</div> }.into_any(),
                                    }}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    <dl class="levels">
                        <Level name=s.allocated hint=s.allocated_hint value=bytes(m.allocated as f64, u, lang) id="mem-allocated" ex=find(&ex, "allocated") s=s />
                        <Level name=s.reserved hint=s.reserved_hint value=bytes(m.reserved as f64, u, lang) id="mem-reserved" ex=find(&ex, "reserved") s=s />
                        <Level name=s.device hint=s.device_hint value=bytes(m.device as f64, u, lang) id="mem-device" ex=find(&ex, "device") s=s />
                        <Level name=s.host_ram hint="" value=bytes(m.host_ram as f64, u, lang) id="mem-host" ex=find(&ex, "host_ram") s=s />
                    </dl>
                </section>
            }.into_any()
        }
        Err(e) => view! {
            <section class="card memory" data-testid="memory-panel">
                <p role="alert" class="error" data-testid="eval-error">{st.s().cannot_compute}" "{e.to_string()}</p>
            </section>
        }.into_any(),
    })
}

fn find(ex: &[Explanation], term: &str) -> Option<Explanation> { ex.iter().find(|e| e.term == term).cloned() }

#[component]
fn Level(name: &'static str, hint: &'static str, value: String, id: &'static str, ex: Option<Explanation>, s: &'static Strings) -> impl IntoView {
    view! {
        <div class="level">
            <dt>{name}{(!hint.is_empty()).then(|| view! { <small class="muted">{hint}</small> })}</dt>
            <dd class="num" data-testid=id>{value}</dd>
            {ex.map(|e| {
                let tid = format!("explain-{}", e.term);
                view! { <dd><details class="explain" data-testid=tid><summary>{s.explain}</summary><ExplainBody e=e s=s /></details></dd> }
            })}
        </div>
    }
}

/// The core's formula and assumptions for one figure.
#[component]
fn ExplainBody(e: Explanation, s: &'static Strings) -> impl IntoView {
    view! {
        <div class="explain-body">
            <p><strong>{s.formula}": "</strong><code>{e.formula}</code></p>
            {(!e.assumptions.is_empty()).then(|| view! {
                <p><strong>{s.assumptions}":"</strong></p>
                <ul>{e.assumptions.into_iter().map(|a| view! { <li>{a}</li> }).collect_view()}</ul>
            })}
        </div>
    }
}
