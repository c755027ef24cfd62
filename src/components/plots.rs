//! SVG plots. Memory against sequence length: the core evaluated at a ladder of sequence
//! lengths, with each GPU's memory as a horizontal line. (Cost against time lives with the
//! cost table, in `cost.rs`.)
//!
//! Plot geometry is pure (`Axis`), so it is tested without a browser.

use crate::format::{bytes, number};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::{dataset, solve, Query};

/// Plot box in SVG user units.
pub const W: f64 = 640.0;
pub const H: f64 = 300.0;
/// Margins: left for the y labels, bottom for the x labels, right for GPU names.
pub const ML: f64 = 56.0;
pub const MR: f64 = 110.0;
pub const MT: f64 = 12.0;
pub const MB: f64 = 40.0;

/// A linear or logarithmic map from data to SVG coordinates.
#[derive(Debug, Clone, Copy)]
pub struct Axis { pub lo: f64, pub hi: f64, pub log: bool, pub from: f64, pub to: f64 }

impl Axis {
    pub fn map(&self, v: f64) -> f64 {
        let t = if self.log { (v.max(self.lo) / self.lo).ln() / (self.hi / self.lo).ln() } else { (v - self.lo) / (self.hi - self.lo) };
        let t = if t.is_finite() { t } else { 0.0 };
        self.from + t * (self.to - self.from)
    }
}

/// Sequence lengths of the curve: powers of two from 128 to 128k, plus the current one.
pub fn seq_ladder(current: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (7..=17).map(|p| 1u32 << p).collect();
    if (128..=131_072).contains(&current) && !v.contains(&current) { v.push(current); v.sort_unstable(); }
    v
}

/// Device memory per GPU at each sequence length of the ladder (the core's `device_by_seq`).
pub fn memory_curve(q: &Query) -> Vec<(u32, u64)> {
    solve::device_by_seq(q, &seq_ladder(q.seq))
}

/// Distinct GPU memory sizes with the GPU names that have them, smallest first.
fn vram_lines() -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = Vec::new();
    for g in dataset::gpus() {
        match out.iter_mut().find(|(v, _)| *v == g.vram_bytes) {
            Some((_, names)) => { names.push_str(", "); names.push_str(g.name); }
            None => out.push((g.vram_bytes, g.name.to_string())),
        }
    }
    out.sort_by_key(|(v, _)| *v);
    out
}

#[component]
pub fn MemorySeqPlot() -> impl IntoView {
    let st = use_state();
    let q = super::deferred::frame_query();
    let curve = Memo::new(move |_| q.with(memory_curve));
    view! {
        <section class="card" aria-labelledby="plot-seq-title" data-testid="plot-mem-seq">
            <h2 id="plot-seq-title">{move || st.s().plot_mem_seq}</h2>
            <p class="muted small" id="plot-seq-desc">{move || st.s().plot_mem_seq_desc}</p>
            {move || {
                let s = st.s();
                let (u, lang) = (st.units.get(), st.lang.get());
                let pts = curve.get();
                let cur_seq = q.with(|q| q.seq);
                let lines = vram_lines();
                let cur_mem = pts.iter().find(|(x, _)| *x == cur_seq).map(|p| p.1).unwrap_or(0);
                let max_vram = lines.last().map(|l| l.0).unwrap_or(1);
                // Keep both the GPU lines and the current point in view; the curve may leave
                // the top at long sequences (it is clipped).
                let y_hi = (max_vram.max(cur_mem) as f64 * 1.15).max(1.0);
                let x = Axis { lo: 128.0, hi: 131_072.0, log: true, from: ML, to: W - MR };
                let y = Axis { lo: 0.0, hi: y_hi, log: false, from: H - MB, to: MT };
                let path = pts.iter().map(|(sx, m)| format!("{:.1},{:.1}", x.map(*sx as f64), y.map(*m as f64).max(MT - 4.0)))
                    .collect::<Vec<_>>().join(" ");
                let y_ticks: Vec<f64> = (0..=4).map(|i| y_hi * i as f64 / 4.0).collect();
                let x_ticks = [128u32, 1024, 8192, 65_536];
                view! {
                    <svg viewBox=format!("0 0 {W} {H}") class="plot" role="img" aria-labelledby="plot-seq-title plot-seq-desc">
                        <defs><clipPath id="plot-seq-clip"><rect x=ML y=MT width=W - ML - MR height=H - MT - MB /></clipPath></defs>
                        {y_ticks.into_iter().map(|t| view! {
                            <g class="tick">
                                <line x1=ML x2=W - MR y1=y.map(t) y2=y.map(t) />
                                <text x=ML - 6.0 y=y.map(t) + 4.0 text-anchor="end">{number(t / u.bytes(), 0, lang)}</text>
                            </g>
                        }).collect_view()}
                        {x_ticks.into_iter().map(|t| view! {
                            <g class="tick">
                                <text x=x.map(t as f64) y=H - MB + 16.0 text-anchor="middle">{if t >= 1024 { format!("{}k", t / 1024) } else { t.to_string() }}</text>
                            </g>
                        }).collect_view()}
                        <text class="axis-label" x=(ML + W - MR) / 2.0 y=H - 6.0 text-anchor="middle">{s.axis_seq}</text>
                        <text class="axis-label" x=12.0 y=(MT + H - MB) / 2.0 text-anchor="middle"
                            transform=format!("rotate(-90 12 {})", (MT + H - MB) / 2.0)>{format!("{} ({})", s.axis_memory, u.symbol())}</text>
                        {
                            // Label a line only when it is clear of the last labelled one.
                            let mut last_label_y = f64::INFINITY;
                            lines.into_iter().map(|(v, names)| {
                                let ly = y.map(v as f64);
                                let labelled = last_label_y - ly >= 12.0;
                                if labelled { last_label_y = ly; }
                                view! {
                                    <g class="vram" data-testid="vram-line">
                                        <title>{format!("{names}: {}", bytes(v as f64, u, lang))}</title>
                                        <line x1=ML x2=W - MR y1=ly y2=ly />
                                        {labelled.then(|| view! { <text x=W - MR + 4.0 y=ly + 4.0>{short(&names)}</text> })}
                                    </g>
                                }
                            }).collect_view()
                        }
                        <polyline class="curve" points=path clip-path="url(#plot-seq-clip)" data-testid="mem-curve" />
                        {(cur_mem > 0).then(|| view! {
                            <circle class="current" cx=x.map(cur_seq as f64) cy=y.map(cur_mem as f64).max(MT) r="5">
                                <title>{format!("{} {}: {}", number(cur_seq as f64, 0, lang), s.axis_seq, bytes(cur_mem as f64, u, lang))}</title>
                            </circle>
                        })}
                    </svg>
                }
            }}
        </section>
    }
}

/// A GPU line's label: the first name, "+N" when several GPUs share the size.
fn short(names: &str) -> String {
    let parts: Vec<&str> = names.split(", ").collect();
    let first: String = parts[0].chars().take(14).collect();
    if parts.len() > 1 { format!("{first} +{}", parts.len() - 1) } else { first }
}
