//! "Plan a run · compare with my run": planning from a goal (the core's plan.rs) and
//! calibration from a person's own log (calibrate.rs). The panel's markup — its fields,
//! strings in both languages, the plans and the comparison — is written by the lazily loaded
//! module (crates/tunefit-export/src/plan_panel.rs, through public/boot.js), fetched when the
//! panel first opens, so none of it is in this wasm. Budget, deadline and goal are the
//! query's own keys (`budget_usd`, `deadline_h`, `goal`): a link keeps them. A plan's button
//! applies its query; the measured speed, applied, becomes the query's `mfu`, so the link
//! carries it only when the person asks.

use super::share::{action_of, download};
use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use leptos::task::spawn_local;
use tunefit_core::query::Query;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: `kind` is `form` (a: the refused limit's message, b: the log), `plans`,
    /// `compare` or `case` (a: the log); resolves to markup (or the case's JSON).
    #[wasm_bindgen(catch, js_name = tunefitPlan)]
    fn tunefit_plan(
        kind: &str,
        query: &str,
        lang: &str,
        gib: bool,
        a: &str,
        b: &str,
    ) -> Result<js_sys::Promise, JsValue>;
}

/// `m` as the panel's warning.
fn warning(m: &str) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<p class="notice warn" data-testid="plan-error">"#, m, "</p>");
    h.into_string()
}

/// The module's answer as text, or a warning saying why there is none.
async fn answer(p: Result<js_sys::Promise, JsValue>) -> Result<String, String> {
    let why = |e: JsValue| {
        warning(
            &e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .or_else(|| e.as_string())
                .unwrap_or_default(),
        )
    };
    let v = wasm_bindgen_futures::JsFuture::from(p.map_err(why)?).await.map_err(why)?;
    Ok(v.as_string().unwrap_or_default())
}

#[component]
pub fn PlanPanel() -> impl IntoView {
    let st = use_state();
    let open = RwSignal::new(false);
    let (form, plans, calib) =
        (RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(String::new()));
    // The log last compared is kept in this browser (storage.rs) until the box is emptied.
    let log = RwSignal::new(if st.embed { String::new() } else { crate::storage::load_log() });
    let problem = RwSignal::new(String::new());
    let loading =
        move || format!(r#"<p class="muted" role="status">{}</p>"#, st.lang.get_untracked().sh().export_loading);
    // The fields follow the query and the language while the panel is open.
    Effect::new(move |_| {
        if !open.get() {
            return;
        }
        let query = st.query.with(|q| q.to_query_string());
        let (lang, p) = (st.lang.get().built().code(), problem.get());
        if form.with_untracked(String::is_empty) {
            form.set(loading());
        }
        let text = log.get_untracked();
        spawn_local(async move {
            form.set(answer(tunefit_plan("form", &query, lang, false, &p, &text)).await.unwrap_or_else(|e| e));
        });
    });
    let act = move |ev: web_sys::MouseEvent| {
        let Some(a) = action_of(&ev) else { return };
        let query = st.query.with_untracked(|q| q.to_query_string());
        let (lang, gib) =
            (st.lang.get_untracked().built().code(), st.units.get_untracked() == crate::format::Units::GiB);
        let text = log.get_untracked();
        if let Some(p) = a.strip_prefix("plan:") {
            match Query::parse(p) {
                Ok(q) => st.query.set(q),
                Err(e) => problem.set(e.to_string()),
            }
        } else if let Some(set) = a.strip_prefix("set:") {
            st.edit(|q| {
                let _ = q.apply(set);
            });
        } else if a == "plans" || a == "compare" || a == "case" {
            if a == "compare" && !st.embed {
                crate::storage::save_log(&text);
            }
            let shown = if a == "plans" { plans } else { calib };
            if a != "case" {
                shown.set(loading());
            }
            spawn_local(async move {
                let got = answer(tunefit_plan(&a, &query, lang, gib, &text, "")).await.unwrap_or_else(|e| e);
                // The case is a file to save; its refusal is said like the others.
                if a == "case" && got.starts_with('{') && !got.starts_with("{\"error\"") {
                    download("tunefit-measured-case.json", "application/json", &got);
                } else if a == "case" && got.starts_with('{') {
                    shown.set(warning(&got));
                } else {
                    shown.set(got);
                }
            });
        }
    };
    // Fields: a limit or the goal is applied once complete (`change`), through the query's
    // own parser, its refusal said in the panel; the log is kept as it is typed.
    let field = move |ev: web_sys::Event| {
        let Some(key) =
            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|e| e.get_attribute("data-key"))
        else {
            return;
        };
        if (key == "log") != (ev.type_() == "input") {
            return;
        }
        let v = event_target_value(&ev);
        if key == "log" {
            log.set(v);
            return;
        }
        let mut msg = String::new();
        st.edit(|q| {
            if v.trim().is_empty() {
                if key == "budget_usd" {
                    q.budget_usd = None
                } else {
                    q.deadline_h = None
                }
            } else if let Err(e) = q.apply(&format!("{key}={}", v.trim())) {
                msg = e.to_string();
            }
        });
        problem.set(msg);
    };
    let toggle = move |ev: web_sys::Event| {
        let now = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if open.get_untracked() != now {
            open.set(now);
        }
    };
    view! {
        <details class="card plan" data-testid="plan-panel" on:click=act on:change=field on:input=field on:toggle=toggle>
            <summary><h2>{move || st.s().plan_title}</h2></summary>
            <div inner_html=form></div>
            <div inner_html=plans></div>
            <div inner_html=calib></div>
        </details>
    }
}
