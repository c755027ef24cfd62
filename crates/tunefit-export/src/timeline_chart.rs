//! The page's "Memory through one step" chart, written here as SVG markup: the allocator
//! replay (`tunefit_core::evaluate_with_timeline`) and its drawing load with this module when
//! the panel opens, not with the page (src/components/timeline.rs only asks and shows).
//! Allocated and reserved over the events of the load and one step, the chosen GPU's
//! capacity as a line, the phases marked, and the peak's moment named in words.

use std::fmt::Write;
use tunefit_core::markup::esc;
use tunefit_core::Query;

struct Strings {
    allocated: &'static str,
    reserved: &'static str,
    capacity: &'static str,
    peak: fn(moment: &str, allocated: &str, reserved: &str) -> String,
    events: fn(n: usize) -> String,
    none: &'static str,
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
};

static RU: Strings = Strings {
    allocated: "выделено",
    reserved: "зарезервировано",
    capacity: "память GPU",
    peak: |m, a, r| format!("Пик: {m}; выделено {a}, зарезервировано {r}."),
    events: |n| {
        format!("{n} событий выделения памяти при загрузке и одном шаге обучения, проигранных через кэширующий аллокатор PyTorch.")
    },
    none: "Для этой конфигурации нет прогона, который можно нарисовать.",
};

fn warning(m: &str) -> String {
    format!(r#"<p class="notice warn" data-testid="timeline-error">{}</p>"#, esc(m))
}

/// The chart for `query` in `lang` ("ru" or English), figures in GiB (or GB).
pub fn html(query: &str, lang: &str, gib: bool) -> String {
    let s = if lang == "ru" { &RU } else { &EN };
    let q = match Query::parse(query) {
        Ok(q) => q,
        Err(e) => return warning(&e.to_string()),
    };
    let r = match tunefit_core::evaluate_with_timeline(&q) {
        Ok(r) => r,
        Err(e) => return warning(&e.to_string()),
    };
    let Some(points) = r.memory.timeline.as_ref().filter(|p| p.len() > 1) else { return warning(s.none) };
    let fig = |b: f64| crate::plan_panel::bytes(b, gib, lang);
    let capacity = q.gpu.as_deref().and_then(tunefit_core::dataset::gpu).map(|g| g.vram_bytes as f64);
    let top =
        points.iter().map(|p| p.reserved.max(p.allocated) as f64).fold(capacity.unwrap_or(0.0), f64::max).max(1.0)
            * 1.08;
    let (w, h, left, bottom) = (640.0, 220.0, 56.0, 22.0);
    let n = points.len() as f64 - 1.0;
    let x = |i: usize| left + (w - left - 8.0) * i as f64 / n;
    let y = |b: f64| (h - bottom) - (h - bottom - 8.0) * b / top;
    let line = |f: &dyn Fn(&tunefit_core::memory::timeline::Point) -> f64| {
        points.iter().enumerate().map(|(i, p)| format!("{:.1},{:.1}", x(i), y(f(p)))).collect::<Vec<_>>().join(" ")
    };
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="timeline-chart" data-testid="timeline-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{}">"#,
        esc(&(s.events)(points.len()))
    );
    // Axis: zero and the top, in the page's unit.
    let _ = write!(
        svg,
        r#"<line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="currentColor" stroke-opacity="0.3"/>"#,
        y(0.0),
        w - 8.0,
        y(0.0)
    );
    for frac in [0.5, 1.0] {
        let b = top / 1.08 * frac;
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end" fill="currentColor">{}</text>"#,
            left - 4.0,
            y(b) + 4.0,
            esc(&fig(b))
        );
    }
    // Phases: a tick and a label where each begins.
    let mut last = None;
    for (i, p) in points.iter().enumerate() {
        if last == Some(p.phase) {
            continue;
        }
        last = Some(p.phase);
        let _ = write!(
            svg,
            r#"<line x1="{0:.1}" y1="8" x2="{0:.1}" y2="{1:.1}" stroke="currentColor" stroke-opacity="0.15"/><text x="{2:.1}" y="{3:.1}" font-size="11" fill="currentColor" fill-opacity="0.7">{4}</text>"#,
            x(i),
            y(0.0),
            x(i) + 2.0,
            h - 6.0,
            esc(p.phase.as_str())
        );
    }
    if let Some(c) = capacity {
        let _ = write!(
            svg,
            r#"<line data-testid="timeline-capacity" x1="{left}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="currentColor" stroke-dasharray="2 3"/><text x="{1:.1}" y="{2:.1}" font-size="11" text-anchor="end" fill="currentColor">{3} {4}</text>"#,
            y(c),
            w - 8.0,
            y(c) - 4.0,
            esc(s.capacity),
            esc(&fig(c))
        );
    }
    let _ = write!(
        svg,
        r#"<polyline data-testid="timeline-reserved" fill="none" stroke="var(--t-overhead)" stroke-width="1.5" points="{}"/>"#,
        line(&|p| p.reserved as f64)
    );
    let _ = write!(
        svg,
        r#"<polyline data-testid="timeline-allocated" fill="none" stroke="var(--t-activations)" stroke-width="2" points="{}"/>"#,
        line(&|p| p.allocated as f64)
    );
    svg.push_str("</svg>");
    let (pa, pr) = points.iter().fold((0u64, 0u64), |(a, r), p| (a.max(p.allocated), r.max(p.reserved)));
    let moment = r.memory.peak_phase.clone().unwrap_or_default();
    format!(
        r#"{svg}<p class="legend"><span class="swatch t-activations"></span>{} <span class="swatch t-overhead"></span>{}</p><p data-testid="timeline-peak">{}</p><p class="muted">{}</p>"#,
        esc(s.allocated),
        esc(s.reserved),
        esc(&(s.peak)(&moment, &fig(pa as f64), &fig(pr as f64))),
        esc(&(s.events)(points.len()))
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn draws_both_curves_the_capacity_and_names_the_peak() {
        let h = super::html("v=1&model=llama-3.1-8b&method=lora&gpu=rtx-4090", "en", true);
        for id in ["timeline-chart", "timeline-allocated", "timeline-reserved", "timeline-capacity", "timeline-peak"] {
            assert!(h.contains(id), "{id} missing: {h}");
        }
        let r = tunefit_core::evaluate_with_timeline(
            &tunefit_core::Query::parse("v=1&model=llama-3.1-8b&method=lora").unwrap(),
        )
        .unwrap();
        assert!(h.contains(&tunefit_core::markup::esc(r.memory.peak_phase.as_deref().unwrap()).to_string()), "{h}");
        // Russian, GB; a bad link is a warning, not a blank.
        assert!(super::html("v=1&method=lora", "ru", false).contains("Пик"));
        assert!(super::html("v=1&batch=-1", "en", true).contains("timeline-error"));
    }
}
