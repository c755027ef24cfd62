//! The plots' shared geometry and axes, as SVG markup: the plot box, the data-to-SVG map
//! ([`Axis`]), the ticks with their labels and grid lines, and the two axis titles. The memory
//! curve and the cost scatter (crates/tunefit-export: memory_plot.rs, cost_table.rs) draw
//! theirs through these, so both plots
//! keep one look (style/main.css styles `svg.plot .tick` and `.axis-label`).
//!
//! The geometry is pure, so it is tested without a browser.

use tunefit_core::markup::Html;
use tunefit_core::write_html;

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

/// The x axis's ticks at `ticks` (data values), each labelled by `label` below the plot
/// area, with a vertical grid line across it when `grid`. `y` gives the area's top and bottom.
pub fn x_ticks(h: &mut Html, x: &Axis, y: &Axis, ticks: &[f64], label: &dyn Fn(f64) -> String, grid: bool) {
    for &t in ticks {
        let at = x.map(t);
        write_html!(h, r#"<g class="tick">"#);
        if grid {
            write_html!(h, r#"<line x1=""#, at, r#"" x2=""#, at, r#"" y1=""#, y.to, r#"" y2=""#, y.from, r#""/>"#);
        }
        write_html!(
            h,
            r#"<text x=""#,
            at,
            r#"" y=""#,
            y.from + 16.0,
            r#"" text-anchor="middle">"#,
            label(t),
            "</text></g>"
        );
    }
}

/// The y axis's ticks at `ticks`, each a horizontal grid line across the plot area (`x`
/// gives its left and right) with its label, from `label`, left of it.
pub fn y_ticks(h: &mut Html, x: &Axis, y: &Axis, ticks: &[f64], label: &dyn Fn(f64) -> String) {
    for &t in ticks {
        let at = y.map(t);
        write_html!(
            h,
            r#"<g class="tick"><line x1=""#,
            x.from,
            r#"" x2=""#,
            x.to,
            r#"" y1=""#,
            at,
            r#"" y2=""#,
            at,
            r#""/><text x=""#,
            x.from - 6.0,
            r#"" y=""#,
            at + 4.0,
            r#"" text-anchor="end">"#,
            label(t),
            "</text></g>"
        );
    }
}

/// The axes' titles: `x_title` centred below the plot area, `y_title` turned along its left edge.
pub fn titles(h: &mut Html, x: &Axis, y: &Axis, x_title: &dyn std::fmt::Display, y_title: &dyn std::fmt::Display) {
    let mid = (y.to + y.from) / 2.0;
    write_html!(
        h,
        r#"<text class="axis-label" x=""#,
        (x.from + x.to) / 2.0,
        r#"" y=""#,
        H - 6.0,
        r#"" text-anchor="middle">"#,
        x_title,
        r#"</text><text class="axis-label" x="12" y=""#,
        mid,
        r#"" text-anchor="middle" transform="rotate(-90 12 "#,
        mid,
        r#")">"#,
        y_title,
        "</text>"
    );
}
