//! Settings as tables of fields written as markup: each field declared once (ripgrep's flags
//! are the model) with its kind, query key, label and when it shows; one component
//! (`FieldGroup`) writes a table as markup (markup.rs) with one listener, through the core's
//! `Query::value_of`, `Query::set` and `key_choices`, so a field reads and writes exactly what
//! a link does. As Leptos views (a closure pair and a component per field) the same controls
//! cost kilobytes of the gzipped first load each section. The markup is rewritten only when
//! which fields show changes (the method, the optimizer, the language); every other change
//! moves the values of the elements in place, so a slider being dragged or a box being typed
//! in is never replaced under the pointer. The tables: settings.rs (in view) and advanced.rs
//! (the disclosure).

use super::controls::{parse_typed, Scale, Text};
use super::element;
use crate::format::plain;
use crate::i18n::{value_label, Lang, Strings};
use crate::markup::{write_html, Html};
use crate::state::{use_state, AppState};
use leptos::prelude::*;
use tunefit_core::query::{key_choices, Need, Optimizer, TargetModule};
use tunefit_core::Query;
use wasm_bindgen::JsCast;

/// How a field is shown and what its element's value means.
#[derive(Clone, Copy)]
pub enum Kind {
    /// Starts a fieldset (`data-testid`, legend).
    Section(&'static str),
    /// A slider with a paired box for exact values; typed values outside the range are
    /// clamped on commit, with a message.
    Slider(Scale, Text),
    /// A select over the key's choices; `true`: a first entry for the framework profile's
    /// default (the key unset).
    Choice(bool),
    /// A switch the framework profile decides unless the person does: default, on, off.
    Switch,
    Check,
    /// The adapter's target modules (the last one cannot be unticked).
    Targets,
    /// "Providers must have" (`need=`).
    Needs,
    /// The chosen framework profile in one sentence.
    FrameworkHint,
    /// The GPU the verdict is for: none, or one of the dataset's.
    Gpu,
    /// A whole number typed in a box (an architecture field): 1 to `COUNT_MAX`; empty unsets
    /// the key (the core infers it).
    Count,
    /// Text the core reads as the key's value (an image size, `W` or `WxH`); empty unsets it.
    Text,
}

/// The largest count a `Count` field takes.
const COUNT_MAX: f64 = 10_000_000.0;

/// One control: its element id (and `data-testid`), query key, label and when it shows.
pub struct Field {
    id: &'static str,
    key: &'static str,
    label: Text,
    kind: Kind,
    when: fn(&Query) -> bool,
    /// How many of the key's units one shown unit is (a slider's value): 1, or 1e9 for a
    /// model's size shown in billions.
    per: f64,
}

pub(super) const fn field(id: &'static str, key: &'static str, label: Text, kind: Kind) -> Field {
    Field { id, key, label, kind, when: always, per: 1.0 }
}
/// `f` shown in units of `per` of its key's (billions of parameters: 1e9).
pub(super) const fn per(mut f: Field, per: f64) -> Field {
    f.per = per;
    f
}
pub(super) const fn only(mut f: Field, when: fn(&Query) -> bool) -> Field {
    f.when = when;
    f
}
pub(super) const fn section(testid: &'static str, legend: Text) -> Field {
    field("", "", legend, Kind::Section(testid))
}
pub(super) const fn slider(id: &'static str, key: &'static str, label: Text, unit: Text, scale: Scale) -> Field {
    field(id, key, label, Kind::Slider(scale, unit))
}

pub(super) fn always(_: &Query) -> bool {
    true
}
pub(super) fn lora(q: &Query) -> bool {
    q.method.is_lora()
}
pub(super) fn qlora(q: &Query) -> bool {
    q.method.quantized_base()
}
/// A 16-bit model (`*-true`), the one precision `autocast` applies to.
pub(super) fn true16(q: &Query) -> bool {
    q.precision.is_true16()
}
pub(super) fn galore(q: &Query) -> bool {
    q.optim == Optimizer::GaloreAdamW
}
/// A multimodal model whose images the core prices.
pub(super) fn tower(q: &Query) -> bool {
    tunefit_core::catalog::describes_tower(q)
}
/// A model reading text of its own length: not an image encoder (whose sequence is its image,
/// `image_res`), nor Whisper (whose `seq` is a clip's labels and whose samples are clips).
pub(super) fn reads_text(q: &Query) -> bool {
    !image_encoder(q) && !speech(q)
}
/// Whisper: its samples are 30 s clips, its `seq` their labels.
pub(super) fn speech(q: &Query) -> bool {
    tunefit_core::catalog::is_speech(q)
}
/// An image encoder: its dataset is counted in images.
pub(super) fn image_encoder(q: &Query) -> bool {
    tunefit_core::catalog::is_image_encoder(q)
}
/// The images' size applies: a multimodal model's, or an image encoder's one image (not SAM's,
/// which reads 1024² only).
pub(super) fn sized_images(q: &Query) -> bool {
    tower(q) || (image_encoder(q) && !tunefit_core::catalog::fixed_image(q))
}
/// Its tower under QLoRA, stored 4-bit or not.
pub(super) fn tower_qlora(q: &Query) -> bool {
    tower(q) && q.method.quantized_base()
}

/// A slider's value in its shown units: the query's (read as links are, so `70b` is 7e10),
/// or for an unset LoRA dropout the framework profile's.
fn shown_value(q: &Query, f: &Field) -> f64 {
    match q.value_of(f.key) {
        Some(v) => parse_typed(&v).unwrap_or(0.0) / f.per,
        None => tunefit_core::framework::profile(q.framework).lora_dropout_default,
    }
}

/// A select's current spelling: the query's, `on`/`off` for a switch, "" when unset (and for
/// a GPU the dataset does not know: the select shows "none", as its markup does).
fn select_value(q: &Query, f: &Field) -> String {
    if matches!(f.kind, Kind::Gpu) {
        return q.gpu.as_deref().and_then(tunefit_core::dataset::gpu).map(|g| g.id.to_string()).unwrap_or_default();
    }
    let v = q.value_of(f.key).unwrap_or_default();
    match (f.kind, v.as_str()) {
        (Kind::Switch, "1") => "on".into(),
        (Kind::Switch, "0") => "off".into(),
        _ => v,
    }
}

/// Which fields show, as bits (field `i` is bit `i + 1`), with the language in bit 0, and the
/// model's family: the markup is rewritten when this changes. A table has at most `MAX_FIELDS` fields, so no two
/// share a bit.
fn layout(fields: &[Field], q: &Query, lang: Lang) -> (u64, u8) {
    let shown = fields.iter().enumerate().fold(lang as u64, |bits, (i, f)| bits | (u64::from((f.when)(q)) << (i + 1)));
    // The model's family decides which choices a select offers (`catalog::offers`).
    (shown, tunefit_core::catalog::control_family(q))
}

/// The most fields one table may hold (`layout`'s bits).
pub const MAX_FIELDS: usize = 63;

/// A table's fields for `q` in `lang`.
fn write(h: &mut Html, fields: &[Field], q: &Query, lang: Lang) {
    let s = lang.strings();
    let mut open = false;
    for (i, f) in fields.iter().enumerate() {
        if !(f.when)(q) {
            continue;
        }
        let (id, label) = (f.id, (f.label)(s));
        match f.kind {
            Kind::Section(testid) => {
                if open {
                    write_html!(h, "</fieldset>");
                }
                open = true;
                write_html!(h, r#"<fieldset class="group" data-testid=""#, testid, r#""><legend>"#, label, "</legend>");
            }
            Kind::Slider(scale, unit) => write_slider(h, q, s, i, f, scale, unit(s)),
            Kind::Choice(_) | Kind::Switch => {
                let current = select_value(q, f);
                write_html!(h, r#"<div class="field"><label for=""#, id, r#"">"#, label, r#"</label><select id=""#, id);
                write_html!(h, r#"" data-testid=""#, id, r#"" data-f=""#, i.to_string(), r#"">"#);
                let (optional, choices) = match f.kind {
                    Kind::Choice(optional) => (optional, key_choices(f.key).unwrap_or_default()),
                    _ => (true, "on|off".to_string()),
                };
                if optional {
                    write_html!(h, r#"<option value="""#, if current.is_empty() { " selected" } else { "" });
                    write_html!(h, ">", s.profile_default, "</option>");
                }
                // A choice the model's family is refused is not offered, unless it is the link's.
                for c in choices.split('|').filter(|c| *c == current || tunefit_core::catalog::offers(q, f.key, c)) {
                    write_html!(h, r#"<option value=""#, c, r#"""#, if c == current { " selected" } else { "" });
                    write_html!(h, ">", value_label(lang, c), "</option>");
                }
                write_html!(h, "</select></div>");
            }
            Kind::Check => {
                write_html!(h, r#"<div class="field check"><input type="checkbox" id=""#, id, r#"" data-testid=""#, id);
                write_html!(h, r#"" data-f=""#, i.to_string(), r#"""#);
                write_html!(h, if q.value_of(f.key).as_deref() == Some("1") { " checked" } else { "" });
                write_html!(h, r#"><label for=""#, id, r#"">"#, label, "</label></div>");
            }
            Kind::Targets | Kind::Needs => write_chips(h, q, lang, f),
            Kind::Gpu => write_gpus(h, q, s, i, f),
            Kind::Count | Kind::Text => {
                write_html!(
                    h,
                    r#"<div class="field"><label for=""#,
                    id,
                    r#"">"#,
                    label,
                    r#"</label><input type="text""#
                );
                write_html!(
                    h,
                    if matches!(f.kind, Kind::Count) { r#" inputmode="numeric""# } else { "" },
                    r#" id=""#,
                    id,
                    r#"" data-testid=""#,
                    id,
                    r#"" data-f=""#,
                    i.to_string()
                );
                write_html!(h, r#"" class="num" autocomplete="off" value=""#, q.value_of(f.key).unwrap_or_default());
                write_html!(
                    h,
                    r#""><p class="msg" role="status" id=""#,
                    id,
                    r#"-msg" data-testid=""#,
                    id,
                    r#"-msg"></p></div>"#
                );
            }
            Kind::FrameworkHint => {
                write_html!(
                    h,
                    r#"<p class="hint" id="framework-desc" data-testid="framework-desc">"#,
                    framework_hint(lang, q),
                    "</p>"
                );
            }
        }
    }
    if open {
        write_html!(h, "</fieldset>");
    }
}

/// A slider with its text box and message line.
fn write_slider(h: &mut Html, q: &Query, s: &Strings, i: usize, f: &Field, scale: Scale, unit: &str) {
    let (id, label) = (f.id, (f.label)(s));
    let v = shown_value(q, f);
    let shown = plain(v);
    write_html!(h, r#"<div class="field slider-field"><label for=""#, id, r#"">"#, label);
    write_html!(h, r#" <span class="unit">("#, unit, r#")</span></label><div class="slider-row">"#);
    write_html!(h, r#"<input type="range" id=""#, id, r#"-range" data-testid=""#, id, r#"-range" data-f=""#);
    write_html!(h, i.to_string(), r#"" min="0" max=""#, scale.steps.to_string(), r#"" step="1" value=""#);
    write_html!(h, scale.to_pos(v).to_string(), r#"" aria-label=""#, label, " (", unit, r#")" aria-valuetext=""#);
    write_html!(h, shown, " ", unit, r#""><input type="text" inputmode="decimal" id=""#, id, r#"" data-testid=""#);
    write_html!(h, id, r#"-input" data-f=""#, i.to_string(), r#"" class="num" autocomplete="off" spellcheck="false""#);
    write_html!(h, r#" aria-describedby=""#, id, r#"-msg" value=""#, shown, r#""></div><p class="msg" id=""#, id);
    write_html!(h, r#"-msg" data-testid=""#, id, r#"-msg" role="status" aria-live="polite"></p></div>"#);
}

/// The target modules' or the needs' chips.
fn write_chips(h: &mut Html, q: &Query, lang: Lang, f: &Field) {
    let (id, label) = (f.id, (f.label)(lang.strings()));
    let (attr, prefix) =
        if matches!(f.kind, Kind::Targets) { ("data-target", "target-") } else { ("data-need", "need-") };
    write_html!(h, r#"<fieldset class="targets" data-testid=""#, id, r#""><legend>"#, label, "</legend>");
    if matches!(f.kind, Kind::Needs) {
        write_html!(h, "<div>");
    }
    let chips: Vec<(&str, bool)> = match f.kind {
        Kind::Targets => TargetModule::ALL.iter().map(|t| (t.as_str(), q.targets.contains(*t))).collect(),
        _ => Need::ALL.iter().map(|n| (n.as_str(), q.need.contains(*n))).collect(),
    };
    for (v, on) in chips {
        write_html!(h, r#"<label class="chip" for=""#, prefix, v, r#""><input type="checkbox" id=""#, prefix, v);
        write_html!(h, r#"" data-testid=""#, prefix, v, r#"" "#, attr, r#"=""#, v, r#"""#);
        write_html!(h, if on { " checked" } else { "" }, ">");
        let text = if matches!(f.kind, Kind::Targets) { v } else { value_label(lang, v) };
        write_html!(h, " ", text, "</label>");
    }
    if matches!(f.kind, Kind::Needs) {
        write_html!(h, "</div>");
    }
    write_html!(h, "</fieldset>");
}

/// The GPU select: none, then the dataset's GPUs by name.
fn write_gpus(h: &mut Html, q: &Query, s: &Strings, i: usize, f: &Field) {
    let current = select_value(q, f);
    write_html!(h, r#"<div class="field"><label for=""#, f.id, r#"">"#, (f.label)(s), r#"</label><select id=""#, f.id);
    write_html!(h, r#"" data-testid=""#, f.id, r#"" data-f=""#, i.to_string(), r#""><option value="""#);
    write_html!(h, if current.is_empty() { " selected" } else { "" }, ">", s.gpu_none, "</option>");
    for g in tunefit_core::dataset::gpus() {
        write_html!(h, r#"<option value=""#, g.id, r#"""#, if current == g.id { " selected" } else { "" });
        write_html!(h, ">", g.name, "</option>");
    }
    write_html!(h, "</select></div>");
}

fn framework_hint(lang: Lang, q: &Query) -> &'static str {
    (lang.sh().framework_desc)(q.framework)
}

fn set_message(id: &str, text: &str) {
    if let Some(el) = document().get_element_by_id(&format!("{id}-msg")) {
        el.set_text_content(Some(text));
    }
}

/// What a field shows of `q`, as text: `sync` touches a field's elements only when this
/// changed since it last did (a slider's move changes one field, and the elements of the
/// forty others are left alone: DOM writes are most of an input's cost).
fn shown(q: &Query, f: &Field) -> String {
    match f.kind {
        Kind::Slider(..) => plain(shown_value(q, f)),
        Kind::Choice(_) | Kind::Switch | Kind::Gpu => select_value(q, f),
        Kind::Section(_) => String::new(),
        _ => q.value_of(f.key).unwrap_or_default(),
    }
}

/// Moves the value of every shown field that changed since `last` (what each showed when
/// last synced; emptied when the markup is rewritten) to the query's, leaving the box being
/// typed in alone.
fn sync(fields: &[Field], q: &Query, s: &Strings, lang: Lang, last: &mut Vec<Option<String>>) {
    use web_sys::HtmlInputElement as Input;
    last.resize(fields.len(), None);
    let active = document().active_element().map(|e| e.id()).unwrap_or_default();
    for (i, f) in fields.iter().enumerate().filter(|(_, f)| (f.when)(q)) {
        let now = shown(q, f);
        if last[i].as_deref() == Some(now.as_str()) {
            continue;
        }
        last[i] = Some(now);
        match f.kind {
            Kind::Slider(scale, unit) => {
                let v = shown_value(q, f);
                if let Some(range) = element::<Input>(&format!("{}-range", f.id)) {
                    range.set_value(&scale.to_pos(v).to_string());
                    let _ = range.set_attribute("aria-valuetext", &format!("{} {}", plain(v), unit(s)));
                }
                if active != f.id {
                    if let Some(b) = element::<Input>(f.id) {
                        b.set_value(&plain(v));
                    }
                }
            }
            Kind::Choice(_) | Kind::Switch | Kind::Gpu => {
                if let Some(sel) = element::<web_sys::HtmlSelectElement>(f.id) {
                    sel.set_value(&select_value(q, f));
                }
            }
            Kind::Check => {
                if let Some(b) = element::<Input>(f.id) {
                    b.set_checked(q.value_of(f.key).as_deref() == Some("1"));
                }
            }
            Kind::Targets => {
                for t in TargetModule::ALL.iter().copied() {
                    if let Some(b) = element::<Input>(&format!("target-{}", t.as_str())) {
                        b.set_checked(q.targets.contains(t));
                    }
                }
            }
            Kind::Needs => {
                for n in Need::ALL.iter().copied() {
                    if let Some(b) = element::<Input>(&format!("need-{}", n.as_str())) {
                        b.set_checked(q.need.contains(n));
                    }
                }
            }
            Kind::FrameworkHint => {
                if let Some(p) = element::<web_sys::Element>(f.id) {
                    p.set_text_content(Some(framework_hint(lang, q)));
                }
            }
            Kind::Count | Kind::Text => {
                if active != f.id {
                    if let Some(b) = element::<Input>(f.id) {
                        b.set_value(&q.value_of(f.key).unwrap_or_default());
                    }
                }
            }
            Kind::Section(_) => {}
        }
    }
}

/// Sets `key` to `v`, or unsets it (the framework profile decides) when `v` is empty; a
/// change that leaves the query as it was (a slider's `change` after its `input`s) is not one.
fn apply(st: AppState, key: &str, v: &str) {
    let next = st.query.with_untracked(|q| {
        let mut next = q.clone();
        if v.is_empty() {
            let link = q.to_query_string();
            let kept: Vec<&str> = link.split('&').filter(|p| p.split('=').next() != Some(key)).collect();
            next = Query::parse_lenient(&kept.join("&")).0;
        } else {
            let _ = next.set(key, v);
        }
        (next != *q).then_some(next)
    });
    if let Some(next) = next {
        st.query.set(next);
    }
}

/// A slider's value (in its shown units) applied; a scaled one is a count, so whole.
fn apply_number(st: AppState, f: &Field, v: f64) {
    apply(st, f.key, &plain(if f.per == 1.0 { v } else { (v * f.per).round() }));
}

/// One listener for every field: `input` moves sliders and takes valid typed values as they
/// are typed; `change` commits a box (a message when the text is not a number or out of
/// range), a select or a checkbox.
fn on_field(st: AppState, fields: &[Field], ev: web_sys::Event) {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let committed = ev.type_() == "change";
    let checked = || el.clone().dyn_into::<web_sys::HtmlInputElement>().map(|i| i.checked()).unwrap_or(false);
    // A chip (a checkbox) fires `input` and then `change`: it is taken once, on `change`.
    if !committed && (el.has_attribute("data-target") || el.has_attribute("data-need")) {
        return;
    }
    if let Some(t) = el.get_attribute("data-target").as_deref().and_then(TargetModule::parse) {
        let next = st.query.with_untracked(|q| if checked() { q.targets.with(t) } else { q.targets.without(t) });
        if next.is_empty() {
            // An adapter needs at least one module: the last one stays ticked.
            if let Ok(i) = el.dyn_into::<web_sys::HtmlInputElement>() {
                i.set_checked(true);
            }
        } else {
            st.edit(|q| q.targets = next);
        }
        return;
    }
    if let Some(n) = el.get_attribute("data-need").as_deref().and_then(Need::parse) {
        let on = checked();
        st.edit(|q| q.need = if on { q.need.with(n) } else { q.need.without(n) });
        return;
    }
    let Some(f) = el.get_attribute("data-f").and_then(|i| i.parse::<usize>().ok()).and_then(|i| fields.get(i)) else {
        return;
    };
    let value = event_target_value(&ev);
    match f.kind {
        Kind::Slider(scale, _) if el.id() != f.id => {
            let v = scale.from_pos(value.parse().unwrap_or(0));
            set_message(f.id, "");
            if let Some(b) = element::<web_sys::HtmlInputElement>(f.id) {
                b.set_value(&plain(v));
            }
            apply_number(st, f, v);
        }
        Kind::Slider(scale, _) => {
            let s = st.lang.get_untracked().strings();
            let current = st.query.with_untracked(|q| shown_value(q, f));
            let reset = |to: f64| {
                if let Some(b) = element::<web_sys::HtmlInputElement>(f.id) {
                    b.set_value(&plain(to));
                }
            };
            match parse_typed(&value).map(|v| scale.clamp(v)) {
                None if committed => {
                    set_message(f.id, &(s.not_a_number)(&value));
                    reset(current);
                }
                Some(Ok(v)) => {
                    set_message(f.id, "");
                    if v != current {
                        apply_number(st, f, v);
                    }
                }
                Some(Err(to)) if committed => {
                    set_message(f.id, &(s.clamped)(&value, &plain(to), &plain(scale.min), &plain(scale.max)));
                    apply_number(st, f, to);
                    reset(to);
                }
                _ => {}
            }
        }
        Kind::Switch if committed => {
            let v = match value.as_str() {
                "on" => "1",
                "off" => "0",
                _ => "",
            };
            apply(st, f.key, v);
        }
        Kind::Check if committed => apply(st, f.key, if checked() { "1" } else { "0" }),
        Kind::Choice(_) | Kind::Gpu if committed => apply(st, f.key, &value),
        Kind::Count | Kind::Text if committed => commit_box(st, f, &value),
        _ => {}
    }
}

/// A typed box committed: empty unsets the key; a count is rounded and clamped to
/// `COUNT_MAX`; the core reads the rest as a link would, and what it refuses is said, not
/// dropped.
fn commit_box(st: AppState, f: &Field, value: &str) {
    let s = st.lang.get_untracked().strings();
    let v = value.trim();
    if v.is_empty() {
        set_message(f.id, "");
        apply(st, f.key, "");
        return;
    }
    let (text, clamped) = match f.kind {
        Kind::Count => match parse_typed(v) {
            Some(n) => {
                let c = n.round().clamp(1.0, COUNT_MAX);
                (plain(c), (c != n).then(|| (s.clamped)(value, &plain(c), "1", &plain(COUNT_MAX))))
            }
            None => {
                set_message(f.id, &(s.not_a_number)(value));
                return;
            }
        },
        _ => (v.to_string(), None),
    };
    match st.query.with_untracked(|q| q.clone().set(f.key, &text).err()) {
        Some(e) => {
            let lang = st.lang.get_untracked().core();
            set_message(f.id, &tunefit_core::diag::Error::from(tunefit_core::QueryErrors(vec![e])).text(lang));
        }
        None => {
            set_message(f.id, &clamped.unwrap_or_default());
            apply(st, f.key, &text);
        }
    }
}

/// A table of fields as markup with one listener (see the module's doc).
#[component]
pub fn FieldGroup(fields: &'static [Field]) -> impl IntoView {
    let st = use_state();
    let shape = crate::reactive::memo(move || st.query.with(|q| layout(fields, q, st.lang.get())));
    // The field of this group that had the focus when its markup was last rewritten (none
    // when the focus was elsewhere: another table's layout change must not pull it here).
    let focused = StoredValue::new(String::new());
    let node = NodeRef::<leptos::html::Div>::new();
    // What each field showed when last synced (`sync`): new markup shows the query as it is.
    let last = StoredValue::new(Vec::<Option<String>>::new());
    // The memo is read, not only tracked: a memo nothing reads is never computed, so it
    // would never follow the query.
    let markup = move || {
        shape.get();
        let active = document().active_element();
        let inside = node.get_untracked().zip(active.as_ref()).is_some_and(|(n, a)| n.contains(Some(a)));
        focused.set_value(active.filter(|_| inside).map(|a| a.id()).unwrap_or_default());
        last.set_value(Vec::new());
        let mut h = Html::new();
        st.query.with_untracked(|q| write(&mut h, fields, q, st.lang.get_untracked()));
        h.into_string()
    };
    Effect::new(move |_| {
        shape.get();
        let id = focused.get_value();
        if let Some(el) = (!id.is_empty()).then(|| element::<web_sys::HtmlElement>(&id)).flatten() {
            let _ = el.focus();
        }
    });
    Effect::new(move |_| {
        let lang = st.lang.get_untracked();
        st.query.with(|q| last.update_value(|last| sync(fields, q, lang.strings(), lang, last)));
    });
    let on_field = move |ev: web_sys::Event| on_field(st, fields, ev);
    view! { <div class="fields" node_ref=node inner_html=markup on:input=on_field on:change=on_field></div> }
}
