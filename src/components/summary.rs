//! The answer a person came for, first: per-GPU memory, the chosen GPU's verdict with the
//! model's error band, the training time and the cheapest offer. Sticky on wide screens,
//! first on a phone; every figure is the report's.

use crate::format::{bytes, hours, usd};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::report::Verdict;

#[component]
pub fn Summary() -> impl IntoView {
    let st = use_state();
    move || {
        let s = st.s();
        let (u, lang) = (st.units.get(), st.lang.get());
        st.report.with(|r| r.as_ref().ok().map(|r| {
            let device = bytes(r.memory.device as f64, u, lang);
            let verdict = r.fit.as_ref().map(|f| {
                let (label, class) = match f.verdict {
                    Verdict::Fits => (s.fits, "ok"),
                    Verdict::Tight => (s.tight, "warn"),
                    Verdict::DoesNotFit => (s.no_fit, "bad"),
                };
                let name = tunefit_core::dataset::gpu(&f.gpu).map_or(f.gpu.as_str(), |g| g.name);
                view! {
                    <p class="verdict" data-testid="verdict" data-verdict=f.verdict.as_str()>
                        <span class=format!("badge {class}")>{label}</span>" "
                        {(s.verdict_on)(name, &bytes(f.vram as f64, u, lang), &bytes(f.headroom as f64, u, lang), &bytes(f.band_low as f64, u, lang), &bytes(f.band_high as f64, u, lang))}
                    </p>
                }.into_any()
            }).unwrap_or_else(|| view! { <p class="verdict muted" data-testid="verdict-hint">{s.choose_gpu_hint}</p> }.into_any());
            let time = r.time.as_ref().map(|t| (s.summary_time)(&hours(t.hours, lang), t.gpus, &t.gpu));
            let cheapest = r.cost.as_ref().and_then(|c| c.cheapest.as_ref()).map(|c| (s.summary_cost)(&usd(c.usd_total, lang), c.provider));
            view! {
                <section class="card summary" data-testid="summary" aria-label=s.summary_title>
                    <p class="summary-device"><strong data-testid="summary-device">{device}</strong>" "{s.per_gpu}</p>
                    {verdict}
                    <p class="muted summary-run">
                        {time.map(|t| view! { <span data-testid="summary-time">{t}</span> })}
                        {cheapest.map(|c| view! { " · "<span data-testid="summary-cost">{c}</span> })}
                    </p>
                </section>
            }
        }))
    }
}
