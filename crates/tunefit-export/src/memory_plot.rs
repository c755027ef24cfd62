//! The memory plot's curve, written here as SVG markup: device memory per GPU against
//! sequence length or micro-batch (log), each GPU memory size in the dataset as a dashed line,
//! the query's own value as a dot. It loads with this module, not with the page: the plot is
//! below the first screen, and its drawing was 5 KB of the page's gzipped first load
//! (src/components/plots.rs keeps the title and the choice of axis, asks and shows).

use tunefit_core::markup::Html;
use tunefit_core::{dataset, solve, write_html, Query};
use tunefit_text::format::{bytes, number, Units};
use tunefit_text::i18n::{Lang, PlotStrings};
use tunefit_text::svg_axis::{self, Axis, H, MB, ML, MR, MT, W};

/// The curve for `query` against micro-batch when `batch`, else sequence length, in `lang`
/// ("ru" is Russian; any other code is English), sizes in GiB when `gib`, else GB. A query
/// that cannot be evaluated draws nothing: the page's own figures say why.
pub fn html(query: &str, batch: bool, lang: &str, gib: bool) -> Html {
    let lang = Lang::from_code(lang);
    let Ok(q) = Query::parse(query) else { return Html::new() };
    // An image encoder's sequence is its image: its curve is against the micro-batch of images.
    let images = tunefit_core::catalog::is_image_encoder(&q);
    let batch = batch || images;
    let Some(report) = crate::last_report::report(query, None) else { return Html::new() };
    let pts = memory_curve(&q, batch, Some(report.cache_excess));
    let units = if gib { Units::GiB } else { Units::GB };
    let s = lang.plot();
    let x_label = match (batch, images) {
        (_, true) => s.axis_batch_images,
        (true, false) => s.axis_batch,
        (false, false) => s.axis_seq,
    };
    curve_markup(s, x_label, units, lang, batch, &pts, if batch { q.batch } else { q.seq })
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

/// The plot's horizontal axis (against micro-batch when `batch`): its range and its labelled
/// ticks.
fn x_axis(batch: bool) -> (f64, f64, &'static [f64]) {
    if batch {
        (1.0, 512.0, &[1.0, 8.0, 64.0, 512.0])
    } else {
        (128.0, 131_072.0, &[128.0, 1024.0, 8192.0, 65_536.0])
    }
}

/// Device memory per GPU along the plot's axis (the core's `device_by_seq` / `device_by_batch`),
/// with the replay's cache share of the query's own report, so the curve passes through its
/// figure.
pub fn memory_curve(q: &Query, batch: bool, replayed: Option<f64>) -> Vec<(u32, u64)> {
    if batch {
        solve::device_by_batch(q, &batch_ladder(q.batch), replayed)
    } else {
        solve::device_by_seq(q, &seq_ladder(q.seq), replayed)
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

/// The memory curve's SVG: device memory per GPU against sequence length or micro-batch
/// (log), each GPU memory size as a dashed line, the query's own value as a dot.
pub fn curve_markup(
    s: &PlotStrings,
    x_label: &str,
    u: Units,
    lang: Lang,
    batch: bool,
    pts: &[(u32, u64)],
    current: u32,
) -> Html {
    let (x_lo, x_hi, x_ticks) = x_axis(batch);
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

#[cfg(test)]
mod tests {
    use super::{batch_ladder, html, seq_ladder};

    /// The plot's x values: powers of two over the slider's range, with the query's own value
    /// in place when it lies between them, and nothing outside the range.
    #[test]
    fn the_ladders_are_powers_of_two_with_the_query_s_own_value() {
        let pow = |a: u32, b: u32| (a..=b).map(|p| 1u32 << p).collect::<Vec<_>>();
        assert_eq!(seq_ladder(2048), pow(7, 17));
        assert_eq!(seq_ladder(64), pow(7, 17));
        assert_eq!(seq_ladder(200_000), pow(7, 17));
        let s = seq_ladder(3000);
        assert_eq!(s.len(), 12);
        assert!(s.windows(2).all(|w| w[0] < w[1]) && s.contains(&3000));
        assert_eq!(batch_ladder(2), pow(0, 9));
        assert_eq!(batch_ladder(3), [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512]);
        assert_eq!(batch_ladder(513), pow(0, 9));
    }

    #[test]
    fn the_curve_passes_through_the_query_s_own_figure() {
        let q = "v=2&model=llama-3.1-8b&method=lora&batch=2&seq=2048";
        // Figures keep their unit on the line: a no-break space between them.
        let h = html(q, false, "en", true).into_string().replace('\u{a0}', " ");
        let points = h.split(r#"data-testid="mem-curve" points=""#).nth(1).unwrap();
        let points = &points[..points.find('"').unwrap()];
        assert_eq!(points.split(' ').count(), 11, "{points}");
        assert!(h.contains(r#"<circle class="current""#) && h.contains("2,048 sequence length (tokens)"), "{h}");
        let report = tunefit_core::evaluate(&tunefit_core::Query::parse(q).unwrap()).unwrap();
        let own = format!("{:.2} GiB", report.memory.device as f64 / (1u64 << 30) as f64);
        assert!(h.contains(&own), "{own} not in the dot's title: {h}");
        let b = html(q, true, "ru", false).into_string().replace('\u{a0}', " ");
        assert!(b.contains("2 микробатч (последовательности): ") && b.contains(" GB</title>"), "{b}");
        assert!(html("v=2&model=nope", false, "en", true).is_empty());
    }
}
