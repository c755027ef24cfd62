//! Page-wide presentation toggles: language, theme and memory units, written as markup (one
//! change listener) that follows the language; the theme's and units' choice follow their
//! signals in place, so a keyboard moving through them keeps its focus.

use crate::format::Units;
use crate::i18n::Lang;
use crate::markup::{write_html, Html};
use crate::state::use_state;
use crate::url::Theme;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The toggles for the current language, theme and units.
fn toolbar_html(lang: Lang, theme: Theme, units: Units) -> String {
    let s = lang.strings();
    let on = |b: bool, attr: &'static str| if b { attr } else { "" };
    let mut h = Html::new();
    write_html!(h, r#"<div class="field inline"><label for="lang">"#, s.language);
    write_html!(h, r#"</label><select id="lang" data-testid="lang">"#);
    for l in Lang::ALL {
        write_html!(h, r#"<option value=""#, l.code(), r#"" lang=""#, l.code(), r#"""#, on(l == lang, " selected"));
        write_html!(h, ">", l.native_name(), "</option>");
    }
    write_html!(h, r#"</select></div><div class="field inline"><label for="theme">"#, s.theme);
    write_html!(h, r#"</label><select id="theme" data-testid="theme">"#);
    for t in Theme::ALL {
        let name = match t {
            Theme::Auto => s.theme_auto,
            Theme::Light => s.theme_light,
            Theme::Dark => s.theme_dark,
        };
        write_html!(h, r#"<option value=""#, t.code(), r#"""#, on(t == theme, " selected"), ">", name, "</option>");
    }
    write_html!(h, r#"</select></div><fieldset class="units inline" data-testid="units"><legend>"#, s.units);
    write_html!(h, "</legend>");
    for u in [Units::GiB, Units::GB] {
        write_html!(h, r#"<label class="chip" for="units-"#, u.code(), r#""><input type="radio" name="units""#);
        write_html!(h, r#" id="units-"#, u.code(), r#"" data-testid="units-"#, u.code(), r#"" value=""#, u.code());
        write_html!(h, r#"""#, on(u == units, " checked"), ">", u.symbol(), "</label>");
    }
    write_html!(h, "</fieldset>");
    h.into_string()
}

#[component]
pub fn Toolbar() -> impl IntoView {
    let st = use_state();
    let changed = move |ev: web_sys::Event| {
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let v = event_target_value(&ev);
        match el.id().as_str() {
            "lang" => {
                if let Some(l) = Lang::parse(&v) {
                    st.lang.set(l)
                }
            }
            "theme" => {
                if let Some(t) = Theme::parse(&v) {
                    st.theme.set(t)
                }
            }
            _ => {
                if let Some(u) = Units::parse(&v) {
                    st.units.set(u)
                }
            }
        }
    };
    Effect::new(move |_| {
        let (theme, units) = (st.theme.get(), st.units.get());
        if let Some(sel) = super::element::<web_sys::HtmlSelectElement>("theme") {
            sel.set_value(theme.code());
        }
        if let Some(r) = super::element::<web_sys::HtmlInputElement>(&format!("units-{}", units.code())) {
            r.set_checked(true);
        }
    });
    view! {
        <div class="toolbar" role="group" aria-label="tunefit" on:change=changed
            inner_html=move || toolbar_html(st.lang.get(), st.theme.get_untracked(), st.units.get_untracked())></div>
    }
}
