//! The page's "Memory through one step" chart, written here as SVG markup: the allocator
//! replay (`tunefit_core::evaluate_with_timeline`) and its drawing load with this module when
//! the panel opens, not with the page (src/components/timeline.rs only asks and shows).
//! Allocated and reserved over the events of the load and one step, the chosen GPU's
//! capacity as a line, the phases marked, and the peak's moment named in words.

use tunefit_core::diag::Lang;
use tunefit_core::markup::Html;
use tunefit_core::memory::timeline::Point;
use tunefit_core::{write_html, Query};

struct Strings {
    allocated: &'static str,
    reserved: &'static str,
    capacity: &'static str,
    peak: fn(moment: &str, allocated: &str, reserved: &str) -> String,
    events: fn(n: usize) -> String,
    none: &'static str,
    /// Beside a peak at the vision tower's own pass, which the curve does not draw.
    tower: &'static str,
}

static EN: Strings = Strings {
    allocated: "allocated",
    reserved: "reserved",
    capacity: "GPU memory",
    peak: |m, a, r| format!("Peak: {m}, with {a} allocated and {r} reserved."),
    events: |n| {
        format!("{n} allocation events of loading and one training step, replayed through PyTorch's caching allocator.")
    },
    none: "This configuration has no replay to draw.",
    tower: "the encoder's own pass, which the curve of the decoder's events does not draw",
};

static RU: Strings = Strings {
    allocated: "выделено",
    reserved: "зарезервировано",
    capacity: "память GPU",
    peak: |m, a, r| format!("Пик: {m}; выделено {a}, зарезервировано {r}."),
    events: |n| {
        use tunefit_core::diag::plural_ru;
        let events = plural_ru(n as u64, "событие", "события", "событий");
        let replayed = plural_ru(n as u64, "проигранное", "проигранных", "проигранных");
        format!("{n} {events} выделения памяти при загрузке и одном шаге обучения, {replayed} через кэширующий аллокатор PyTorch.")
    },
    none: "Для этой конфигурации нет прогона, который можно нарисовать.",
    tower: "собственный проход энкодера, которого нет на кривой событий декодера",
};

/// A coordinate as the SVG is written: one decimal.
fn one(v: f64) -> String {
    format!("{v:.1}")
}

fn warning(m: &str) -> Html {
    let mut h = Html::new();
    write_html!(h, r#"<p class="notice warn" data-testid="timeline-error">"#, m, "</p>");
    h
}

/// The phases along the chart: a tick and a label where each begins.
fn phase_ticks(svg: &mut Html, points: &[Point], x: &dyn Fn(usize) -> f64, y0: String, h: f64, lang: Lang) {
    let mut last = None;
    for (i, p) in points.iter().enumerate() {
        if last == Some(p.phase) {
            continue;
        }
        last = Some(p.phase);
        write_html!(
            svg,
            r#"<line x1=""#,
            one(x(i)),
            r#"" y1="8" x2=""#,
            one(x(i)),
            r#"" y2=""#,
            y0.clone(),
            r#"" stroke="currentColor" stroke-opacity="0.15"/><text x=""#,
            one(x(i) + 2.0),
            r#"" y=""#,
            one(h - 6.0),
            r#"" font-size="11" fill="currentColor" fill-opacity="0.7">"#,
            p.phase.label(lang),
            "</text>"
        );
    }
}

/// The GPU's memory as a dashed line across the chart, labelled at its right end.
fn capacity_line(svg: &mut Html, (x0, x1): (f64, f64), yc: f64, label: &str, figure: &str) {
    write_html!(
        svg,
        r#"<line data-testid="timeline-capacity" x1=""#,
        x0,
        r#"" y1=""#,
        one(yc),
        r#"" x2=""#,
        one(x1),
        r#"" y2=""#,
        one(yc),
        r#"" stroke="currentColor" stroke-dasharray="2 3"/><text x=""#,
        one(x1),
        r#"" y=""#,
        one(yc - 4.0),
        r#"" font-size="11" text-anchor="end" fill="currentColor">"#,
        label,
        " ",
        figure,
        "</text>"
    );
}

/// The chart for `query` in `lang` ("ru" or English), figures in GiB (or GB).
pub fn html(query: &str, lang: &str, gib: bool) -> Html {
    let core = Lang::from_code(lang);
    let s = if core == Lang::Ru { &RU } else { &EN };
    let q = match Query::parse(query) {
        Ok(q) => q,
        Err(e) => return warning(&tunefit_core::Error::from(e).text(core)),
    };
    let r = match tunefit_core::evaluate_with_timeline(&q) {
        Ok(r) => r,
        Err(e) => return warning(&e.text(core)),
    };
    let Some(points) = r.memory.timeline.as_ref().filter(|p| p.len() > 1) else { return warning(s.none) };
    let capacity = q.gpu.as_deref().and_then(tunefit_core::dataset::gpu).map(|g| g.vram_bytes as f64);
    // A peak at an encoder's own pass (a vision tower's, Whisper's) is the run's, not the curve's: its figures are
    // the report's.
    let (moment, figures) = match r.memory.peak_moment {
        Some(m) if m.is_encoder_pass() => {
            (format!("{} ({})", m.text(core), s.tower), Some((r.memory.allocated, r.memory.reserved)))
        }
        Some(m) => (m.text(core), None),
        None => (String::new(), None),
    };
    chart_with(points, capacity, &moment, figures, lang, gib)
}

/// Allocated and reserved over `points`, the GPU's `capacity` as a line, the phases marked,
/// and the peak at `moment` in words: the language models' panel and the diffusion page.
pub fn chart(points: &[Point], capacity: Option<f64>, moment: &str, lang: &str, gib: bool) -> Html {
    chart_with(points, capacity, moment, None, lang, gib)
}

/// `chart`, with the peak's figures given (allocated, reserved) when the peak is not the
/// curve's own.
fn chart_with(
    points: &[Point],
    capacity: Option<f64>,
    moment: &str,
    figures: Option<(u64, u64)>,
    lang: &str,
    gib: bool,
) -> Html {
    let core = Lang::from_code(lang);
    let s = if core == Lang::Ru { &RU } else { &EN };
    if points.len() < 2 {
        return warning(s.none);
    }
    let fig = |b: f64| crate::plan_panel::bytes(b, gib, lang);
    let top =
        points.iter().map(|p| p.reserved.max(p.allocated) as f64).fold(capacity.unwrap_or(0.0), f64::max).max(1.0)
            * 1.08;
    let (w, h, left, bottom) = (640.0, 220.0, 56.0, 22.0);
    let n = points.len() as f64 - 1.0;
    let x = |i: usize| left + (w - left - 8.0) * i as f64 / n;
    let y = |b: f64| (h - bottom) - (h - bottom - 8.0) * b / top;
    let line = |f: &dyn Fn(&Point) -> f64| {
        points.iter().enumerate().map(|(i, p)| format!("{:.1},{:.1}", x(i), y(f(p)))).collect::<Vec<_>>().join(" ")
    };
    let mut svg = Html::new();
    write_html!(
        svg,
        r#"<svg class="timeline-chart" data-testid="timeline-chart" viewBox="0 0 "#,
        w,
        " ",
        h,
        r#"" role="img" aria-label=""#,
        (s.events)(points.len()),
        r#"">"#
    );
    // Axis: zero and the top, in the page's unit.
    write_html!(
        svg,
        r#"<line x1=""#,
        left,
        r#"" y1=""#,
        one(y(0.0)),
        r#"" x2=""#,
        one(w - 8.0),
        r#"" y2=""#,
        one(y(0.0)),
        r#"" stroke="currentColor" stroke-opacity="0.3"/>"#
    );
    for frac in [0.5, 1.0] {
        let b = top / 1.08 * frac;
        write_html!(
            svg,
            r#"<text x=""#,
            one(left - 4.0),
            r#"" y=""#,
            one(y(b) + 4.0),
            r#"" font-size="11" text-anchor="end" fill="currentColor">"#,
            fig(b),
            "</text>"
        );
    }
    phase_ticks(&mut svg, points, &x, one(y(0.0)), h, core);
    if let Some(c) = capacity {
        capacity_line(&mut svg, (left, w - 8.0), y(c), s.capacity, &fig(c));
    }
    write_html!(
        svg,
        r#"<polyline data-testid="timeline-reserved" fill="none" stroke="var(--t-overhead)" stroke-width="1.5" points=""#,
        line(&|p| p.reserved as f64),
        r#""/>"#
    );
    write_html!(
        svg,
        r#"<polyline data-testid="timeline-allocated" fill="none" stroke="var(--t-activations)" stroke-width="2" points=""#,
        line(&|p| p.allocated as f64),
        r#""/>"#
    );
    let (pa, pr) = figures
        .unwrap_or_else(|| points.iter().fold((0u64, 0u64), |(a, r), p| (a.max(p.allocated), r.max(p.reserved))));
    write_html!(
        svg,
        r#"</svg><p class="legend"><span class="swatch t-activations"></span>"#,
        s.allocated,
        r#" <span class="swatch t-overhead"></span>"#,
        s.reserved,
        r#"</p><p data-testid="timeline-peak">"#,
        (s.peak)(moment, &fig(pa as f64), &fig(pr as f64)),
        r#"</p><p class="muted">"#,
        (s.events)(points.len()),
        "</p>"
    );
    svg
}

#[cfg(test)]
mod tests {
    #[test]
    fn draws_both_curves_the_capacity_and_names_the_peak() {
        let h = super::html("v=1&model=llama-3.1-8b&method=lora&gpu=rtx-4090", "en", true).into_string();
        for id in ["timeline-chart", "timeline-allocated", "timeline-reserved", "timeline-capacity", "timeline-peak"] {
            assert!(h.contains(id), "{id} missing: {h}");
        }
        let r = tunefit_core::evaluate_with_timeline(
            &tunefit_core::Query::parse("v=1&model=llama-3.1-8b&method=lora").unwrap(),
        )
        .unwrap();
        let mut phase = tunefit_core::markup::Html::new();
        phase.text(&r.memory.peak_phase.as_deref().unwrap());
        assert!(h.contains(phase.as_str()), "{h}");
        // A peak at the vision tower's own pass says the curve does not draw it.
        let tower = super::html(
            "v=2&model=gemma-3-4b&method=lora&batch=1&seq=768&images=2&ckpt=full&loss=chunked&attn=eager&gpu=l4",
            "en",
            true,
        )
        .into_string();
        assert!(tower.contains("forward of the vision tower (the encoder&#39;s own pass"), "{tower}");
        // With the run's figures, not the curve's lower peak.
        let run = tunefit_core::evaluate(
            &tunefit_core::Query::parse(
                "v=2&model=gemma-3-4b&method=lora&batch=1&seq=768&images=2&ckpt=full&loss=chunked&attn=eager&gpu=l4",
            )
            .unwrap(),
        )
        .unwrap();
        let allocated = crate::plan_panel::bytes(run.memory.allocated as f64, true, "en");
        assert!(tower.contains(&format!("with {allocated} allocated")), "{allocated}: {tower}");
        // Russian, GB; a bad link is a warning, not a blank, and the link's text in it is text.
        let ru = super::html("v=1&method=lora", "ru", false).into_string();
        assert!(ru.contains("Пик: ") && ru.contains("прямой проход") && !ru.contains("forward"), "{ru}");
        assert!(super::html("v=1&batch=-1", "en", true).as_str().contains("timeline-error"));
        // A query error names the key as the link spelled it.
        let link = format!("v=1&{}=1", tunefit_core::query::percent_encode(r#"<img src=x onerror="alert(1)">"#));
        let hostile = super::html(&link, "en", true).into_string();
        assert!(hostile.contains("timeline-error") && !hostile.contains("<img"), "{hostile}");
    }
}
