//! SVG plots. Memory against sequence length: the core evaluated at a ladder of sequence
//! lengths, with each GPU's memory as a horizontal line. (Cost against time lives with the
//! cost table, in `cost.rs`.)
//!
//! Plot geometry is pure (`Axis`), so it is tested without a browser.

use crate::format::{bytes, number, Units};
use crate::i18n::{Lang, Strings};
use crate::markup::esc;
use crate::state::use_state;
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
    let q = st.frame;
    let curve = Memo::new(move |_| q.with(memory_curve));
    view! {
        <section class="card" aria-labelledby="plot-seq-title" data-testid="plot-mem-seq">
            <h2 id="plot-seq-title">{move || st.s().plot_mem_seq}</h2>
            <p class="muted small" id="plot-seq-desc">{move || st.s().plot_mem_seq_desc}</p>
            // Text markup (markup.rs says why), redrawn on the animation frame (deferred.rs).
            <div inner_html=move || curve.with(|pts| curve_markup(st.s(), st.units.get(), st.lang.get(), pts, q.with(|q| q.seq)))></div>
        </section>
    }
}

/// The memory curve's SVG: device memory per GPU against sequence length (log), each GPU
/// memory size as a dashed line, the current sequence length as a dot.
pub fn curve_markup(s: &Strings, u: Units, lang: Lang, pts: &[(u32, u64)], cur_seq: u32) -> String {
    let mut h = String::with_capacity(6 << 10);
    let lines = vram_lines();
    let cur_mem = pts.iter().find(|(x, _)| *x == cur_seq).map(|p| p.1).unwrap_or(0);
    let max_vram = lines.last().map(|l| l.0).unwrap_or(1);
    // Keep both the GPU lines and the current point in view; the curve may leave the top
    // at long sequences (it is clipped).
    let y_hi = (max_vram.max(cur_mem) as f64 * 1.15).max(1.0);
    let x = Axis { lo: 128.0, hi: 131_072.0, log: true, from: ML, to: W - MR };
    let y = Axis { lo: 0.0, hi: y_hi, log: false, from: H - MB, to: MT };
    let _ = write!(h, r#"<svg viewBox="0 0 {W} {H}" class="plot" role="img" aria-labelledby="plot-seq-title plot-seq-desc"><defs><clipPath id="plot-seq-clip"><rect x="{ML}" y="{MT}" width="{}" height="{}"/></clipPath></defs>"#,
        W - ML - MR, H - MT - MB);
    for i in 0..=4 {
        let t = y_hi * i as f64 / 4.0;
        let _ = write!(h, r#"<g class="tick"><line x1="{ML}" x2="{}" y1="{y}" y2="{y}"/><text x="{}" y="{}" text-anchor="end">{}</text></g>"#,
            W - MR, ML - 6.0, y.map(t) + 4.0, esc(&number(t / u.bytes(), 0, lang)), y = y.map(t));
    }
    for t in [128u32, 1024, 8192, 65_536] {
        let label = if t >= 1024 { format!("{}k", t / 1024) } else { t.to_string() };
        let _ = write!(h, r#"<g class="tick"><text x="{}" y="{}" text-anchor="middle">{label}</text></g>"#, x.map(t as f64), H - MB + 16.0);
    }
    let mid = (MT + H - MB) / 2.0;
    let _ = write!(h, r#"<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text><text class="axis-label" x="12" y="{mid}" text-anchor="middle" transform="rotate(-90 12 {mid})">{} ({})</text>"#,
        (ML + W - MR) / 2.0, H - 6.0, esc(s.axis_seq), esc(s.axis_memory), u.symbol());
    // Label a line only when it is clear of the last labelled one.
    let mut last_label_y = f64::INFINITY;
    for (v, names) in lines {
        let ly = y.map(v as f64);
        let _ = write!(h, r#"<g class="vram" data-testid="vram-line"><title>{}: {}</title><line x1="{ML}" x2="{}" y1="{ly}" y2="{ly}"/>"#,
            esc(&names), esc(&bytes(v as f64, u, lang)), W - MR);
        if last_label_y - ly >= 12.0 {
            last_label_y = ly;
            let _ = write!(h, r#"<text x="{}" y="{}">{}</text>"#, W - MR + 4.0, ly + 4.0, esc(&short(&names)));
        }
        h.push_str("</g>");
    }
    h.push_str(r#"<polyline class="curve" clip-path="url(#plot-seq-clip)" data-testid="mem-curve" points=""#);
    for (i, (sx, m)) in pts.iter().enumerate() {
        let _ = write!(h, "{}{:.1},{:.1}", if i > 0 { " " } else { "" }, x.map(*sx as f64), y.map(*m as f64).max(MT - 4.0));
    }
    h.push_str(r#""/>"#);
    if cur_mem > 0 {
        let _ = write!(h, r#"<circle class="current" cx="{}" cy="{}" r="5"><title>{} {}: {}</title></circle>"#,
            x.map(cur_seq as f64), y.map(cur_mem as f64).max(MT), esc(&number(cur_seq as f64, 0, lang)), esc(s.axis_seq), esc(&bytes(cur_mem as f64, u, lang)));
    }
    h.push_str("</svg>");
    h
}

/// A GPU line's label: the first name, "+N" when several GPUs share the size.
fn short(names: &str) -> String {
    let parts: Vec<&str> = names.split(", ").collect();
    let first: String = parts[0].chars().take(14).collect();
    if parts.len() > 1 { format!("{first} +{}", parts.len() - 1) } else { first }
}
