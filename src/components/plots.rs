//! SVG plots. Memory against sequence length or micro-batch (`plot=`): the core evaluated at
//! a ladder of either, with each GPU's memory as a horizontal line. (Cost against time lives
//! with the cost table, in `cost.rs`.)
//!
//! The plot's geometry and axes are svg_axis.rs's, shared with the cost scatter.

use crate::format::{bytes, number, Units};
use crate::i18n::{Lang, Strings};
use crate::markup::{write_html, Html};
use crate::state::use_state;
use crate::svg_axis::{self, Axis, H, MB, ML, MR, MT, W};
use crate::url::PlotX;
use leptos::prelude::*;
use tunefit_core::{dataset, solve, Query};

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
fn x_axis(x: PlotX) -> (f64, f64, &'static [f64]) {
    match x {
        PlotX::Seq => (128.0, 131_072.0, &[128.0, 1024.0, 8192.0, 65_536.0]),
        PlotX::Batch => (1.0, 512.0, &[1.0, 8.0, 64.0, 512.0]),
    }
}

/// Device memory per GPU along the plot's axis (the core's `device_by_seq` / `device_by_batch`).
/// `replayed`: the report's replay share when the report is of this query.
pub fn memory_curve(q: &Query, x: PlotX, replayed: Option<f64>) -> Vec<(u32, u64)> {
    match x {
        PlotX::Seq => solve::device_by_seq(q, &seq_ladder(q.seq), replayed),
        PlotX::Batch => solve::device_by_batch(q, &batch_ladder(q.batch), replayed),
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
        q.with(|q| memory_curve(q, x, st.replayed(q)))
    });
    // The title, its description and the axis's choice are markup that follows the language;
    // one effect follows the axis (the select keeps its focus), one listener takes a choice.
    Effect::new(move |_| {
        let (s, x) = (st.s(), st.plot_x());
        let (title, desc) = titles(s, x);
        for (id, text) in [("plot-seq-title", title), ("plot-seq-desc", desc)] {
            if let Some(el) = super::element::<web_sys::Element>(id) {
                el.set_text_content(Some(text));
            }
        }
        if let Some(sel) = super::element::<web_sys::HtmlSelectElement>("plot-x") {
            sel.set_value(x.code());
        }
    });
    let chosen = move |ev: web_sys::Event| {
        if let Some(x) = PlotX::parse(&event_target_value(&ev)) {
            st.plot_batch.set(x == PlotX::Batch)
        }
    };
    view! {
        <section class="card" aria-labelledby="plot-seq-title" data-testid="plot-mem-seq">
            <div class="contents" inner_html=move || head_markup(st.lang.get(), untrack(|| st.plot_x())) on:change=chosen></div>
            // Text markup (markup.rs says why), redrawn on the animation frame (deferred.rs).
            <div inner_html=move || {
                let x = st.plot_x();
                let current = q.with(|q| if x == PlotX::Batch { q.batch } else { q.seq });
                curve.with(|pts| curve_markup(st.s(), st.units.get(), st.lang.get(), x, pts, current).into_string())
            }></div>
        </section>
    }
}

/// The plot's title and description for axis `x`.
fn titles(s: &Strings, x: PlotX) -> (&'static str, &'static str) {
    match x {
        PlotX::Batch => (s.plot_mem_batch, s.plot_mem_batch_desc),
        PlotX::Seq => (s.plot_mem_seq, s.plot_mem_seq_desc),
    }
}

/// The plot's title and description for axis `x`, and the choice of axis.
fn head_markup(lang: Lang, x: PlotX) -> String {
    let s = lang.strings();
    let (title, desc) = titles(s, x);
    let mut h = Html::new();
    write_html!(h, r#"<h2 id="plot-seq-title">"#, title, r#"</h2><p class="muted small" id="plot-seq-desc">"#, desc);
    write_html!(h, r#"</p><div class="field"><label for="plot-x">"#, s.plot_against, r#"</label><select id="plot-x""#);
    write_html!(h, r#" data-testid="plot-x">"#);
    for o in PlotX::ALL {
        write_html!(h, r#"<option value=""#, o.code(), r#"""#, if o == x { " selected" } else { "" }, ">");
        write_html!(h, crate::i18n::value_label(lang, o.code()), "</option>");
    }
    write_html!(h, "</select></div>");
    h.into_string()
}

/// The memory curve's SVG: device memory per GPU against sequence length or micro-batch
/// (log), each GPU memory size as a dashed line, the query's own value as a dot.
pub fn curve_markup(s: &Strings, u: Units, lang: Lang, axis: PlotX, pts: &[(u32, u64)], current: u32) -> Html {
    let (x_lo, x_hi, x_ticks) = x_axis(axis);
    let x_label = if axis == PlotX::Batch { s.axis_batch } else { s.axis_seq };
    let mut h = Html::with_capacity(6 << 10);
    let lines = vram_lines();
    let cur_mem = pts.iter().find(|(x, _)| *x == current).map(|p| p.1).unwrap_or(0);
    let max_vram = lines.last().map(|l| l.0).unwrap_or(1);
    // Keep both the GPU lines and the current point in view; the curve may leave the top
    // at long sequences (it is clipped).
    let y_hi = (max_vram.max(cur_mem) as f64 * 1.15).max(1.0);
    let x = Axis { lo: x_lo, hi: x_hi, log: true, from: ML, to: W - MR };
    let y = Axis { lo: 0.0, hi: y_hi, log: false, from: H - MB, to: MT };
    write_html!(
        h,
        r#"<svg viewBox="0 0 "#,
        W,
        " ",
        H,
        r#"" class="plot" role="img" aria-labelledby="plot-seq-title plot-seq-desc"><defs><clipPath id="plot-seq-clip"><rect x=""#,
        ML,
        r#"" y=""#,
        MT,
        r#"" width=""#,
        W - ML - MR,
        r#"" height=""#,
        H - MT - MB,
        r#""/></clipPath></defs>"#
    );
    let y_ticks: Vec<f64> = (0..=4).map(|i| y_hi * i as f64 / 4.0).collect();
    svg_axis::y_ticks(&mut h, &x, &y, &y_ticks, &|t| number(t / u.bytes(), 0, lang));
    // Powers of two in the axis's own words: 8k is 8192.
    let label = |t: f64| {
        let t = t as u32;
        if t >= 1024 {
            format!("{}k", t / 1024)
        } else {
            t.to_string()
        }
    };
    svg_axis::x_ticks(&mut h, &x, &y, x_ticks, &label, false);
    svg_axis::titles(&mut h, &x, &y, &x_label, &format_args!("{} ({})", s.axis_memory, u.symbol()));
    // Label a line only when it is clear of the last labelled one.
    let mut last_label_y = f64::INFINITY;
    for (v, names) in lines {
        let ly = y.map(v as f64);
        write_html!(
            h,
            r#"<g class="vram" data-testid="vram-line"><title>"#,
            names,
            ": ",
            bytes(v as f64, u, lang),
            r#"</title><line x1=""#,
            ML,
            r#"" x2=""#,
            W - MR,
            r#"" y1=""#,
            ly,
            r#"" y2=""#,
            ly,
            r#""/>"#
        );
        if last_label_y - ly >= 12.0 {
            last_label_y = ly;
            write_html!(h, r#"<text x=""#, W - MR + 4.0, r#"" y=""#, ly + 4.0, r#"">"#, short(&names), "</text>");
        }
        write_html!(h, "</g>");
    }
    write_html!(h, r#"<polyline class="curve" clip-path="url(#plot-seq-clip)" data-testid="mem-curve" points=""#);
    for (i, (sx, m)) in pts.iter().enumerate() {
        if i > 0 {
            write_html!(h, " ");
        }
        write_html!(h, format_args!("{:.1},{:.1}", x.map(*sx as f64), y.map(*m as f64).max(MT - 4.0)));
    }
    write_html!(h, r#""/>"#);
    if cur_mem > 0 {
        write_html!(
            h,
            r#"<circle class="current" cx=""#,
            x.map(current as f64),
            r#"" cy=""#,
            y.map(cur_mem as f64).max(MT),
            r#"" r="5"><title>"#,
            number(current as f64, 0, lang),
            " ",
            x_label,
            ": ",
            bytes(cur_mem as f64, u, lang),
            "</title></circle>"
        );
    }
    write_html!(h, "</svg>");
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
