//! Per-GPU memory: the device total, a stacked bar of where it goes, allocated / reserved /
//! device shown apart, and the formula and assumptions behind each figure.
//!
//! Written as markup (markup.rs) the way FieldGroup writes the settings (fields.rs): the
//! panel's structure — which figures have an explanation or a sentence on why they are
//! large, the language, an error — is written only when it changes; otherwise one effect
//! moves each figure that changed into its element (text, a segment's width, the bar's label,
//! an explanation's body), so a slider's move touches a few nodes and an open explanation
//! stays open.

use crate::format::{bytes, bytes_value, Units};
use crate::i18n::{term_label, Lang, Strings};
use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::report::{MemoryBreakdown, Report};

/// A term's CSS class and how to read it from the breakdown.
type Term = (&'static str, fn(&MemoryBreakdown) -> u64);

/// The stacked terms, in bar order, with their CSS colour class.
const TERMS: [Term; 6] = [
    ("weights", |m| m.weights),
    ("gradients", |m| m.gradients),
    ("optimizer", |m| m.optimizer),
    ("activations", |m| m.activations),
    ("logits", |m| m.logits),
    ("overhead", |m| m.overhead),
];

/// The hint under a level's name.
type Hint = fn(&Strings) -> &'static str;

/// The allocator's levels (and the host's memory), each with the hint under its name and its
/// figure's element id.
const LEVELS: [(Term, Hint, &str); 4] = [
    (("allocated", |m| m.allocated), |s| s.allocated_hint, "mem-allocated"),
    (("reserved", |m| m.reserved), |s| s.reserved_hint, "mem-reserved"),
    (("device", |m| m.device), |s| s.device_hint, "mem-device"),
    (("host_ram", |m| m.host_ram), |_| "", "mem-host"),
];

/// The figures the panel shows, by slot: the total, its unit, the bar's label, then per term
/// its segment's width, figure, share and why-sentence, then each explanation's body (the
/// terms', then the levels'), then each level's figure, then the error.
const TOTAL: usize = 0;
const UNIT: usize = 1;
const LABEL: usize = 2;
const WIDTH: usize = 3;
const FIGURE: usize = WIDTH + 6;
const SHARE: usize = FIGURE + 6;
const WHY: usize = SHARE + 6;
const BODY: usize = WHY + 6;
const LEVEL: usize = BODY + 10;
const ERROR: usize = LEVEL + 4;
const SLOTS: usize = ERROR + 1;

/// The term or level a slot of a per-term range belongs to.
fn term_of(slot: usize) -> &'static str {
    let explained = |i: usize| if i < 6 { TERMS[i].0 } else { LEVELS[i - 6].0 .0 };
    match slot {
        s if s >= LEVEL => LEVELS[s - LEVEL].0 .0,
        s if s >= BODY => explained(s - BODY),
        s => TERMS[(s - WIDTH) % 6].0,
    }
}

/// The element a slot's figure goes to.
fn slot_id(slot: usize) -> String {
    let t = term_of(slot.clamp(WIDTH, ERROR - 1));
    match slot {
        TOTAL => "total-device".into(),
        UNIT => "units-symbol".into(),
        LABEL => "stack".into(),
        ERROR => "eval-error".into(),
        s if s >= LEVEL => LEVELS[s - LEVEL].2.into(),
        s if s < FIGURE => format!("seg-{t}"),
        s if s < SHARE => format!("mem-{t}"),
        s if s < WHY => format!("share-{t}"),
        s if s < BODY => format!("why-{t}"),
        _ => format!("xb-{t}"),
    }
}

/// What the panel shows of one report: each slot's text, and the explanations' bodies as
/// markup (their slots' text stays empty).
#[derive(Default)]
struct Shown {
    text: Vec<String>,
    body: Vec<Html>,
}

/// An explanation's body: the core's formula and assumptions, in `lang`.
fn body(s: &Strings, lang: Lang, e: &tunefit_core::report::Explanation) -> Html {
    let lang = lang.core();
    let mut h = Html::new();
    write_html!(h, "<p><strong>", s.formula, ": </strong><code>", e.formula.text(lang), "</code></p>");
    if !e.assumptions.is_empty() {
        write_html!(h, "<p><strong>", s.assumptions, ":</strong></p><ul>");
        for a in &e.assumptions {
            write_html!(h, "<li>", a.text(lang), "</li>");
        }
        write_html!(h, "</ul>");
    }
    h
}

/// Every slot's figure for `r` (empty where the report has no such figure).
fn figures(r: &Result<Report, tunefit_core::Error>, u: Units, lang: Lang) -> Shown {
    let s = lang.strings();
    let mut out = vec![String::new(); SLOTS];
    let mut bodies = vec![Html::new(); 10];
    let r = match r {
        Ok(r) => r,
        Err(e) => {
            out[ERROR] = format!("{} {}", s.cannot_compute, e.text(lang.core()));
            return Shown { text: out, body: bodies };
        }
    };
    let m = &r.memory;
    let stacked: u64 = TERMS.iter().map(|(_, f)| f(m)).sum();
    let pct = |v: u64| if stacked == 0 { 0.0 } else { v as f64 * 100.0 / stacked as f64 };
    let explanation = |t: &str| r.explanations.iter().find(|e| e.term == t);
    out[TOTAL] = bytes_value(m.device as f64, u, lang);
    out[UNIT] = u.symbol().into();
    let terms: Vec<String> =
        TERMS.iter().map(|(t, f)| format!("{} {}", term_label(s, t), bytes(f(m) as f64, u, lang))).collect();
    out[LABEL] = format!("{}: {}", s.mem_breakdown, terms.join(", "));
    for (i, (t, f)) in TERMS.iter().enumerate() {
        out[WIDTH + i] = format!("{:.3}%", pct(f(m)));
        out[FIGURE + i] = bytes(f(m) as f64, u, lang);
        out[SHARE + i] = format!("{:.0}%", pct(f(m)));
        out[WHY + i] = explanation(t).and_then(|e| e.why.as_ref()).map(|w| w.text(lang.core())).unwrap_or_default();
    }
    for (i, b) in bodies.iter_mut().enumerate() {
        *b = explanation(term_of(BODY + i)).map(|e| body(s, lang, e)).unwrap_or_default();
    }
    for (i, ((_, f), _, _)) in LEVELS.iter().enumerate() {
        out[LEVEL + i] = bytes(f(m) as f64, u, lang);
    }
    Shown { text: out, body: bodies }
}

/// The panel's structure: which explanations and why-sentences there are, the language and
/// whether the report is an error (a bit each).
fn layout(r: &Result<Report, tunefit_core::Error>, lang: Lang) -> u64 {
    let Ok(r) = r else { return 1 << 63 };
    let has = |t: &str| r.explanations.iter().find(|e| e.term == t);
    let mut bits = u64::from(lang == Lang::Ru) << 62;
    for i in 0..10 {
        bits |= u64::from(has(term_of(BODY + i)).is_some()) << i;
    }
    for (i, (t, _)) in TERMS.iter().enumerate() {
        bits |= u64::from(has(t).is_some_and(|e| e.why.is_some())) << (10 + i);
    }
    bits
}

/// The panel as markup, showing `f` (`figures`) under the structure `bits` (`layout`).
fn write(h: &mut Html, s: &Strings, bits: u64, shown: &Shown) {
    let f = &shown.text;
    if bits == 1 << 63 {
        write_html!(
            h,
            r#"<section class="card memory" data-testid="memory-panel"><p role="alert" class="error" id="eval-error" data-testid="eval-error">"#,
            f[ERROR],
            "</p></section>"
        );
        return;
    }
    write_html!(
        h,
        r#"<section class="card memory" aria-labelledby="mem-title" data-testid="memory-panel"><h2 id="mem-title">"#,
        s.mem_title,
        r#"</h2><p class="total-line"><span class="total-label">"#,
        s.mem_total,
        r#"</span><span class="total" id="total-device" data-testid="total-device">"#,
        f[TOTAL],
        r#"</span> <span class="unit" id="units-symbol" data-testid="units-symbol">"#,
        f[UNIT],
        r#"</span></p><div class="stack" role="img" id="stack" data-testid="stack" aria-label=""#,
        f[LABEL],
        r#"">"#
    );
    // Every term keeps its segment; an empty term is 0 % wide.
    for (t, _) in TERMS {
        write_html!(h, r#"<div class="seg t-"#, t, r#"" id="seg-"#, t, r#"" title=""#, term_label(s, t), r#""></div>"#);
    }
    write_html!(h, r#"</div><ul class="terms" aria-label=""#, s.mem_breakdown, r#"">"#);
    for (i, (t, _)) in TERMS.iter().enumerate() {
        let explained = bits & (1 << i) != 0;
        write_html!(h, r#"<li data-testid="term-"#, t, r#"">"#);
        if explained {
            write_html!(
                h,
                r#"<details class="explain" data-testid="explain-"#,
                t,
                r#""><summary class="term-row" title=""#
            );
            write_html!(h, s.explain, r#"">"#);
        } else {
            write_html!(h, r#"<div class="term-row">"#);
        }
        write_html!(h, r#"<span class="term-name"><span class="swatch t-"#, t, r#"" aria-hidden="true"></span>"#);
        write_html!(
            h,
            term_label(s, t),
            r#"</span><span class="num" id="mem-"#,
            t,
            r#"" data-testid="mem-"#,
            t,
            r#"">"#
        );
        write_html!(
            h,
            f[FIGURE + i],
            r#"</span><span class="num muted" id="share-"#,
            t,
            r#"">"#,
            f[SHARE + i],
            "</span>"
        );
        if explained {
            write_html!(h, r#"</summary><div class="explain-body" id="xb-"#, t, r#"">"#);
            h.html(&shown.body[i]);
            write_html!(h, "</div></details>");
        } else {
            write_html!(h, "</div>");
        }
        // The one sentence on why a large term is large stays in view, not folded into the
        // explanation.
        if bits & (1 << (10 + i)) != 0 {
            write_html!(h, r#"<p class="why" id="why-"#, t, r#"" data-testid="why-"#, t, r#"">"#, f[WHY + i], "</p>");
        }
        write_html!(h, "</li>");
    }
    write_html!(h, r#"</ul><dl class="levels">"#);
    for (i, ((t, _), hint, id)) in LEVELS.iter().enumerate() {
        write_html!(h, r#"<div class="level"><dt>"#, term_label(s, t));
        if !hint(s).is_empty() {
            write_html!(h, r#"<small class="muted">"#, hint(s), "</small>");
        }
        write_html!(h, r#"</dt><dd class="num" id=""#, id, r#"" data-testid=""#, id, r#"">"#, f[LEVEL + i], "</dd>");
        if bits & (1 << (6 + i)) != 0 {
            write_html!(h, r#"<dd><details class="explain" data-testid="explain-"#, t, r#""><summary>"#, s.explain);
            write_html!(h, r#"</summary><div class="explain-body" id="xb-"#, t, r#"">"#);
            h.html(&shown.body[6 + i]);
            write_html!(h, "</div></details></dd>");
        }
        write_html!(h, "</div>");
    }
    write_html!(h, "</dl></section>");
}

/// Moves every slot whose figure changed since `last` into its element.
fn sync(now: Shown, last: &mut Shown) {
    use wasm_bindgen::JsCast;
    let doc = document();
    for i in 0..SLOTS {
        let body = (BODY..LEVEL).contains(&i).then(|| &now.body[i - BODY]);
        let same = match body {
            Some(b) => last.body.get(i - BODY) == Some(b),
            None => last.text.get(i) == Some(&now.text[i]),
        };
        if same {
            continue;
        }
        let Some(el) = doc.get_element_by_id(&slot_id(i)) else { continue };
        let v = &now.text[i];
        match (i, body) {
            (_, Some(b)) => el.set_inner_html(b.as_str()),
            (LABEL, _) => {
                let _ = el.set_attribute("aria-label", v);
            }
            (i, _) if (WIDTH..FIGURE).contains(&i) => {
                if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                    let _ = el.style().set_property("width", v);
                }
            }
            _ => el.set_text_content(Some(v)),
        }
    }
    *last = now;
}

#[component]
pub fn MemoryPanel() -> impl IntoView {
    let st = use_state();
    let node = NodeRef::<leptos::html::Div>::new();
    // The structure last written (`layout`; none yet) and what each slot showed since.
    let last = StoredValue::new((None::<u64>, Shown::default()));
    Effect::new(move |_| {
        let (u, lang) = (st.units.get(), st.lang.get());
        let (bits, now) = st.report.with(|r| (layout(r, lang), figures(r, u, lang)));
        let Some(el) = node.get_untracked() else { return };
        last.update_value(|(written, last)| {
            if *written != Some(bits) {
                let mut h = Html::with_capacity(8 << 10);
                write(&mut h, lang.strings(), bits, &now);
                el.set_inner_html(h.as_str());
                *written = Some(bits);
                // The markup shows every figure but the segments' widths, which only the CSSOM
                // may set (the CSP refuses style attributes): `sync` sets them now.
                let mut text = now.text.clone();
                text[WIDTH..FIGURE].iter_mut().for_each(String::clear);
                *last = Shown { text, body: now.body.clone() };
            }
            sync(now, last);
        });
    });
    view! { <div class="contents" node_ref=node></div> }
}
