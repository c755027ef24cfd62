//! Page-wide presentation toggles: language, theme and memory units.

use crate::format::Units;
use crate::i18n::Lang;
use crate::state::use_state;
use crate::url::Theme;
use leptos::prelude::*;

#[component]
pub fn Toolbar() -> impl IntoView {
    let st = use_state();
    view! {
        <div class="toolbar" role="group" aria-label="tunefit">
            <div class="field inline">
                <label for="lang">{move || st.s().language}</label>
                <select id="lang" data-testid="lang" on:change=move |ev| {
                    if let Some(l) = Lang::parse(&event_target_value(&ev)) { st.lang.set(l) }
                }>
                    {Lang::ALL.into_iter().map(|l| view! {
                        <option value=l.code() lang=l.code() selected=move || st.lang.get() == l>{l.native_name()}</option>
                    }).collect_view()}
                </select>
            </div>
            <div class="field inline">
                <label for="theme">{move || st.s().theme}</label>
                <select id="theme" data-testid="theme" on:change=move |ev| {
                    if let Some(t) = Theme::parse(&event_target_value(&ev)) { st.theme.set(t) }
                }>
                    {Theme::ALL.into_iter().map(|t| view! {
                        <option value=t.code() selected=move || st.theme.get() == t>{move || {
                            let s = st.s();
                            match t { Theme::Auto => s.theme_auto, Theme::Light => s.theme_light, Theme::Dark => s.theme_dark }
                        }}</option>
                    }).collect_view()}
                </select>
            </div>
            <fieldset class="units inline" data-testid="units">
                <legend>{move || st.s().units}</legend>
                {[Units::GiB, Units::GB].into_iter().map(|u| {
                    let id = format!("units-{}", u.code());
                    let (id1, id2) = (id.clone(), id.clone());
                    view! {
                        <label class="chip" for=id1>
                            <input type="radio" name="units" id=id2 data-testid=id
                                prop:checked=move || st.units.get() == u on:change=move |_| st.units.set(u) />
                            {u.symbol()}
                        </label>
                    }
                }).collect_view()}
            </fieldset>
        </div>
    }
}
