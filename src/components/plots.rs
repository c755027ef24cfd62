//! SVG plots. Memory against sequence length or micro-batch (`plot=`): the core evaluated at
//! a ladder of either, with each GPU's memory as a horizontal line. (Cost against time lives
//! with the cost table, in `cost.rs`.)
//!
//! Plot geometry is pure (`Axis`), so it is tested without a browser.

use crate::format::{bytes, number, Units};
use crate::i18n::{Lang, Strings};
use crate::markup::esc;
use crate::state::use_state;
use crate::url::PlotX;
use leptos::prelude::*;
use std::fmt::Write;
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
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    pub from: f64,
    pub to: f64,
}

impl Axis {
    pub fn map(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.max(self.lo) / self.lo).ln() / (self.hi / self.lo).ln()
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        let t = if t.is_finite() { t } else { 0.0 };
        self.from + t * (self.to - self.from)
    }
}

/// Sequence lengths of the curve: powers of two from 128 to 128k, plus the current one.
pub fn seq_ladder(current: u32) -> Vec<u32> {
    ladder(7..=17, current)
}

/// Micro-batches of the curve: powers of two from 1 to 512 (the slider's range), plus the
/// current one.
pub fn batch_ladder(current: u32) -> Vec<u32> {
    ladder(0..=9, current)
}

fn ladder(powers: std::ops::RangeInclusive<u32>, current: u32) -> Vec<u32> {
    let mut v: Vec<u32> = powers.map(|p| 1u32 << p).collect();
    // Inserted in place (the ladder is sorted): a sort would add its own copy to the wasm.
    if let Some(i) = v.iter().position(|&x| x >= current) {
        if v[i] != current && i > 0 {
            v.insert(i, current)
        }
    }
    v
}

/// The plot's horizontal axis: its range and its labelled ticks.
fn x_axis(x: PlotX) -> (f64, f64, &'static [u32]) {
    match x {
        PlotX::Seq => (128.0, 131_072.0, &[128, 1024, 8192, 65_536]),
        PlotX::Batch => (1.0, 512.0, &[1, 8, 64, 512]),
    }
}

/// Device memory per GPU along the plot's axis (the core's `device_by_seq` / `device_by_batch`).
pub fn memory_curve(q: &Query, x: PlotX) -> Vec<(u32, u64)> {
    match x {
        PlotX::Seq => solve::device_by_seq(q, &seq_ladder(q.seq)),
        PlotX::Batch => solve::device_by_batch(q, &batch_ladder(q.batch)),
    }
}

/// Distinct GPU memory sizes with the GPU names that have them, smallest first.
fn vram_lines() -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = Vec::new();
    for g in dataset::gpus() {
        match out.iter_mut().find(|(v, _)| *v == g.vram_bytes) {
            Some((_, names)) => {
                names.push_str(", ");
                names.push_str(g.name);
            }
            None => out.push((g.vram_bytes, g.name.to_string())),
        }
    }
    out.sort_by_key(|(v, _)| *v);
    out
}

#[component]
pub fn MemorySeqPlot() -> impl IntoView {
    let st = use_state();
    let q = st.frame;
    let curve = Memo::new(move |_| {
        let x = st.plot_x();
        q.with(|q| memory_curve(q, x))
    });
    let title = move || if st.plot_x() == PlotX::Batch { st.s().plot_mem_batch } else { st.s().plot_mem_seq };
    let desc = move || if st.plot_x() == PlotX::Batch { st.s().plot_mem_batch_desc } else { st.s().plot_mem_seq_desc };
    view! {
        <section class="card" aria-labelledby="plot-seq-title" data-testid="plot-mem-seq">
            <h2 id="plot-seq-title">{title}</h2>
            <p class="muted small" id="plot-seq-desc">{desc}</p>
            {super::controls::spelling_select("plot-x", |s| s.plot_against, PlotX::ALL.iter().map(|x| x.code()).collect(),
                crate::reactive::memo(move || Some(st.plot_x().code())),
                Callback::new(move |v: String| if let Some(x) = PlotX::parse(&v) { st.plot_batch.set(x == PlotX::Batch) }), false)}
            // Text markup (markup.rs says why), redrawn on the animation frame (deferred.rs).
            <div inner_html=move || {
                let x = st.plot_x();
                let current = q.with(|q| if x == PlotX::Batch { q.batch } else { q.seq });
                curve.with(|pts| curve_markup(st.s(), st.units.get(), st.lang.get(), x, pts, current))
            }></div>
        </section>
    }
}

/// The memory curve's SVG: device memory per GPU against sequence length or micro-batch
/// (log), each GPU memory size as a dashed line, the query's own value as a dot.
pub fn curve_markup(s: &Strings, u: Units, lang: Lang, axis: PlotX, pts: &[(u32, u64)], current: u32) -> String {
    let (x_lo, x_hi, x_ticks) = x_axis(axis);
    let x_label = if axis == PlotX::Batch { s.axis_batch } else { s.axis_seq };
    let mut h = String::with_capacity(6 << 10);
    let lines = vram_lines();
    let cur_mem = pts.iter().find(|(x, _)| *x == current).map(|p| p.1).unwrap_or(0);
    let max_vram = lines.last().map(|l| l.0).unwrap_or(1);
    // Keep both the GPU lines and the current point in view; the curve may leave the top
    // at long sequences (it is clipped).
    let y_hi = (max_vram.max(cur_mem) as f64 * 1.15).max(1.0);
    let x = Axis { lo: x_lo, hi: x_hi, log: true, from: ML, to: W - MR };
    let y = Axis { lo: 0.0, hi: y_hi, log: false, from: H - MB, to: MT };
    let _ = write!(
        h,
        r#"<svg viewBox="0 0 {W} {H}" class="plot" role="img" aria-labelledby="plot-seq-title plot-seq-desc"><defs><clipPath id="plot-seq-clip"><rect x="{ML}" y="{MT}" width="{}" height="{}"/></clipPath></defs>"#,
        W - ML - MR,
        H - MT - MB
    );
    for i in 0..=4 {
        let t = y_hi * i as f64 / 4.0;
        let _ = write!(
            h,
            r#"<g class="tick"><line x1="{ML}" x2="{}" y1="{y}" y2="{y}"/><text x="{}" y="{}" text-anchor="end">{}</text></g>"#,
            W - MR,
            ML - 6.0,
            y.map(t) + 4.0,
            esc(&number(t / u.bytes(), 0, lang)),
            y = y.map(t)
        );
    }
    for &t in x_ticks {
        let label = if t >= 1024 { format!("{}k", t / 1024) } else { t.to_string() };
        let _ = write!(
            h,
            r#"<g class="tick"><text x="{}" y="{}" text-anchor="middle">{label}</text></g>"#,
            x.map(t as f64),
            H - MB + 16.0
        );
    }
    let mid = (MT + H - MB) / 2.0;
    let _ = write!(
        h,
        r#"<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text><text class="axis-label" x="12" y="{mid}" text-anchor="middle" transform="rotate(-90 12 {mid})">{} ({})</text>"#,
        (ML + W - MR) / 2.0,
        H - 6.0,
        esc(x_label),
        esc(s.axis_memory),
        u.symbol()
    );
    // Label a line only when it is clear of the last labelled one.
    let mut last_label_y = f64::INFINITY;
    for (v, names) in lines {
        let ly = y.map(v as f64);
        let _ = write!(
            h,
            r#"<g class="vram" data-testid="vram-line"><title>{}: {}</title><line x1="{ML}" x2="{}" y1="{ly}" y2="{ly}"/>"#,
            esc(&names),
            esc(&bytes(v as f64, u, lang)),
            W - MR
        );
        if last_label_y - ly >= 12.0 {
            last_label_y = ly;
            let _ = write!(h, r#"<text x="{}" y="{}">{}</text>"#, W - MR + 4.0, ly + 4.0, esc(&short(&names)));
        }
        h.push_str("</g>");
    }
    h.push_str(r#"<polyline class="curve" clip-path="url(#plot-seq-clip)" data-testid="mem-curve" points=""#);
    for (i, (sx, m)) in pts.iter().enumerate() {
        let _ =
            write!(h, "{}{:.1},{:.1}", if i > 0 { " " } else { "" }, x.map(*sx as f64), y.map(*m as f64).max(MT - 4.0));
    }
    h.push_str(r#""/>"#);
    if cur_mem > 0 {
        let _ = write!(
            h,
            r#"<circle class="current" cx="{}" cy="{}" r="5"><title>{} {}: {}</title></circle>"#,
            x.map(current as f64),
            y.map(cur_mem as f64).max(MT),
            esc(&number(current as f64, 0, lang)),
            esc(x_label),
            esc(&bytes(cur_mem as f64, u, lang))
        );
    }
    h.push_str("</svg>");
    h
}

/// A GPU line's label: the first name, "+N" when several GPUs share the size.
fn short(names: &str) -> String {
    let parts: Vec<&str> = names.split(", ").collect();
    let first: String = parts[0].chars().take(14).collect();
    if parts.len() > 1 {
        format!("{first} +{}", parts.len() - 1)
    } else {
        first
    }
}
