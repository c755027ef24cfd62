//! The model picker: a searchable preset list grouped by family, a custom size with optional
//! architecture fields, or a pasted / dropped config.json.
//!
//! The source is a page-local choice; the query only ever holds `model`, or `params`, or the
//! architecture fields, and the core decides what they mean.

use super::controls::Scale;
use super::fields::{field, per, slider, Field, FieldGroup, Kind};
use super::{element, target_id};
use crate::markup::{write_html, Html};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::catalog;
use tunefit_core::query::ArchOverrides;
use wasm_bindgen::JsCast;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Preset,
    Custom,
    Config,
}

/// 0.1 B to 1 T parameters; 160 steps of ~6 % each.
const PARAMS_B: Scale = Scale::log(0.1, 1000.0, 160, false);

#[component]
pub fn ModelSection() -> impl IntoView {
    let st = use_state();
    let initial = st.query.with_untracked(|q| {
        if q.params.is_some() {
            Source::Custom
        } else if q.model.is_none() {
            Source::Config
        } else {
            Source::Preset
        }
    });
    let source = RwSignal::new(initial);
    let choose = move |s: Source| {
        source.set(s);
        match s {
            Source::Preset => st.edit(|q| {
                let before = q.clone();
                if q.model.is_none() {
                    q.model = tunefit_core::Query::default().model;
                }
                q.params = None;
                q.arch = ArchOverrides::default();
                catalog::adapt_to_model(&before, q);
            }),
            Source::Custom => {
                // Start from the size of what is shown now, so switching does not jump.
                let p = st.report.with_untracked(|r| r.as_ref().map(|r| r.model.params).ok()).unwrap_or(8_000_000_000);
                st.edit(|q| {
                    let before = q.clone();
                    q.model = None;
                    q.params = Some(p);
                    q.arch = ArchOverrides::default();
                    catalog::adapt_to_model(&before, q);
                });
            }
            Source::Config => {}
        }
    };
    // The radios are markup that follows the language, the one checked written from the
    // source (which only they change, so the browser has checked it already); one listener
    // takes a choice.
    let chosen = move |ev: web_sys::Event| {
        let id = target_id(&ev);
        if let Some((s, _)) = SOURCES.into_iter().find(|(_, i)| *i == id) {
            choose(s);
        }
    };
    view! {
        <fieldset class="group" data-testid="model-section">
            <legend>{move || st.s().sec_model}</legend>
            <div role="radiogroup" class="radios" aria-label=move || st.s().model_source
                inner_html=move || radios_markup(st.s(), source.get_untracked()) on:change=chosen></div>
            {move || match source.get() {
                Source::Preset => view! { <PresetPicker/> }.into_any(),
                Source::Custom => view! { <CustomModel/> }.into_any(),
                Source::Config => view! { <ConfigImport/> }.into_any(),
            }}
            <ModelSummary/>
        </fieldset>
    }
}

/// The model's sources, each with its radio's id.
const SOURCES: [(Source, &str); 3] =
    [(Source::Preset, "source-preset"), (Source::Custom, "source-custom"), (Source::Config, "source-config")];

/// The sources' radios, `now` checked.
fn radios_markup(s: &crate::i18n::Strings, now: Source) -> String {
    let mut h = Html::new();
    for ((src, id), text) in SOURCES.into_iter().zip([s.mode_preset, s.mode_custom, s.mode_config]) {
        write_html!(h, r#"<label class="radio" for=""#, id, r#""><input type="radio" name="model-source" id=""#, id);
        write_html!(
            h,
            r#"" data-testid=""#,
            id,
            r#"""#,
            if src == now { " checked" } else { "" },
            ">",
            text,
            "</label>"
        );
    }
    h.into_string()
}

/// Case-insensitive match of every word of `filter` against a preset's id, name, family and
/// Hugging Face repository.
/// Preset names are ASCII, so ASCII case folding finds the same presets (and keeps the
/// Unicode case tables, ~3 KB gzipped, out of the wasm).
fn matches(p: &catalog::Preset, filter: &str) -> bool {
    let hay = format!("{} {} {} {}", p.id, p.name, p.family, p.repo).to_ascii_lowercase();
    filter.split_whitespace().all(|w| hay.contains(&w.to_ascii_lowercase()))
}

/// The preset list: a search box and the list it narrows. The fields are markup that follows
/// the language; the list's options and the "no match" line follow the search and the chosen
/// preset, and one listener per kind of event takes input.
#[component]
fn PresetPicker() -> impl IntoView {
    let st = use_state();
    let filter = RwSignal::new(String::new());
    // Only the model id: any other edit (a slider) must not rebuild the option list.
    let current =
        crate::reactive::memo(move || st.query.with(|q| q.model.as_deref().and_then(catalog::preset).map(|p| p.id)));
    Effect::new(move |_| {
        let (f, s) = (filter.get(), st.s());
        let (list, found) = options(&f, current.get(), s.dit_group);
        if let Some(el) = element::<web_sys::Element>("preset") {
            el.set_inner_html(&list);
        }
        let none = !f.trim().is_empty() && !found;
        if let Some(msg) = element::<web_sys::Element>("preset-msg") {
            msg.set_text_content(Some(if none { s.no_match } else { "" }));
        }
    });
    let typed = move |ev: web_sys::Event| {
        let id = target_id(&ev);
        let v = event_target_value(&ev);
        match (id.as_str(), ev.type_().as_str()) {
            ("preset-search", "input") => {
                // A pasted repository id (`Qwen/Qwen3-8B`) that names a preset chooses it.
                if let Some(p) = catalog::by_repo(&v) {
                    if st.query.with_untracked(|q| q.model.as_deref() != Some(p.id)) {
                        st.edit(|q| {
                            let before = q.clone();
                            q.model = Some(p.id.to_string());
                            q.params = None;
                            q.arch = ArchOverrides::default();
                            catalog::adapt_to_model(&before, q);
                        });
                    }
                }
                filter.set(v);
            }
            ("preset", "change") => {
                if let Some(dit) = v.strip_prefix("dit:") {
                    open_diffusion(dit, st.lang.get_untracked());
                } else if catalog::preset(&v).is_some() {
                    st.edit(|q| {
                        let before = q.clone();
                        q.model = Some(v);
                        q.params = None;
                        q.arch = ArchOverrides::default();
                        catalog::adapt_to_model(&before, q);
                    });
                }
            }
            _ => {}
        }
    };
    view! { <div class="contents" inner_html=move || picker_markup(st.s(), &filter.get_untracked()) on:input=typed on:change=typed></div> }
}

/// The search box (holding `filter`), the list (its options come after) and the line that says
/// nothing matches.
fn picker_markup(s: &crate::i18n::Strings, filter: &str) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<div class="field"><label for="preset-search">"#, s.search_presets, r#"</label><input"#);
    write_html!(
        h,
        r#" type="search" id="preset-search" data-testid="preset-search" autocomplete="off" value=""#,
        filter
    );
    write_html!(
        h,
        r#"" placeholder=""#,
        s.search_placeholder,
        r#""></div><div class="field"><label for="preset">"#,
        s.preset
    );
    write_html!(h, r#"</label><select id="preset" data-testid="preset"></select><p class="msg" role="status""#);
    write_html!(h, r#" id="preset-msg"></p></div>"#);
    h.into_string()
}

/// The preset list as markup: the presets matching `filter` by family (the selected one,
/// `current`, always listed so the select never shows a wrong name), then the diffusion
/// models found by their id, under `dit_group`; and whether anything matched `filter`.
fn options(filter: &str, current: Option<&str>, dit_group: &str) -> (String, bool) {
    let mut h = Html::new();
    let mut found = false;
    for (fam, list) in catalog::families() {
        let shown: Vec<_> = list
            .into_iter()
            .filter(|p| {
                let m = matches(p, filter);
                found |= m;
                m || current == Some(p.id)
            })
            .collect();
        if shown.is_empty() {
            continue;
        }
        write_html!(h, r#"<optgroup label=""#, fam, r#"">"#);
        for p in shown {
            write_html!(h, r#"<option value=""#, p.id, r#"""#, if current == Some(p.id) { " selected" } else { "" });
            write_html!(h, ">", p.name, "</option>");
        }
        write_html!(h, "</optgroup>");
    }
    let f = filter.to_ascii_lowercase();
    let dit: Vec<_> = tunefit_core::diffusion::models::IDS
        .into_iter()
        .filter(|id| f.split_whitespace().all(|w| id.contains(w)))
        .collect();
    found |= !dit.is_empty();
    if !dit.is_empty() {
        write_html!(h, r#"<optgroup label=""#, dit_group, r#"">"#);
        for id in dit {
            write_html!(h, r#"<option value="dit:"#, id, r#"">"#, id, "</option>");
        }
        write_html!(h, "</optgroup>");
    }
    (h.into_string(), found)
}

/// Opens the page of a diffusion model's link (components/diffusion.rs) in the page's language.
fn open_diffusion(id: &str, lang: crate::i18n::Lang) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_search(&format!("model={id}&lang={}", lang.code()));
    }
}

/// The model's size, in billions (the custom source has set `params` and cleared the preset).
const SIZE: &[Field] = &[per(slider("params", "params", |s| s.params, |s| s.u_billion, PARAMS_B), 1e9)];

/// The architecture fields a custom size may give; the core infers the rest.
const ARCH: &[Field] = &[
    field("arch-layers", "layers", |s| s.layers, Kind::Count),
    field("arch-hidden", "hidden", |s| s.hidden, Kind::Count),
    field("arch-heads", "heads", |s| s.heads, Kind::Count),
    field("arch-kv-heads", "kv_heads", |s| s.kv_heads, Kind::Count),
    field("arch-ffn", "ffn", |s| s.ffn, Kind::Count),
    field("arch-vocab", "vocab", |s| s.vocab, Kind::Count),
];

#[component]
fn CustomModel() -> impl IntoView {
    let st = use_state();
    view! {
        <FieldGroup fields=SIZE />
        <details class="arch">
            <summary>{move || st.s().arch_fields}</summary>
            <p class="hint">{move || st.s().arch_inferred_hint}</p>
            <div class="grid2"><FieldGroup fields=ARCH /></div>
        </details>
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// public/boot.js: the lazily loaded module's `read_config` (hfconfig::read_for_page), its
    /// error in `lang` (the page's code).
    #[wasm_bindgen(catch, js_name = tunefitConfig)]
    fn tunefit_config(text: &str, lang: &str) -> Result<js_sys::Promise, wasm_bindgen::JsValue>;
    /// public/boot.js: a Hugging Face repository's config.json, fetched on request.
    #[wasm_bindgen(catch, js_name = tunefitHubConfig)]
    fn tunefit_hub_config(repo: &str) -> Result<js_sys::Promise, wasm_bindgen::JsValue>;
}

/// A rejected promise's message (`http-401`, `bad-id`, a network error's text).
fn js_message(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).or_else(|| e.as_string()).unwrap_or_default()
}

/// A call into the lazily loaded module, awaited: its text, or why there is none.
pub(crate) async fn settle(p: Result<js_sys::Promise, wasm_bindgen::JsValue>) -> Result<String, String> {
    let p = p.map_err(|e| js_message(&e))?;
    let v = wasm_bindgen_futures::JsFuture::from(p).await.map_err(|e| js_message(&e))?;
    v.as_string().ok_or_else(|| "no text".to_string())
}

/// The config.json source: a box to paste into (or drop a file on), a file chooser, and a
/// Hugging Face repository to fetch from. Written as markup (markup.rs) that follows the
/// language, with one listener per kind of event: one effect moves the text, the status and
/// the fetch button's state into their elements.
#[component]
fn ConfigImport() -> impl IntoView {
    let st = use_state();
    let text = RwSignal::new(String::new());
    let status = RwSignal::new(None::<Result<String, String>>);
    // The reader lives in the lazily loaded module; an answer for a text that has since
    // changed is dropped.
    let apply = move |raw: String| {
        text.set(raw.clone());
        if raw.trim().is_empty() {
            status.set(None);
            return;
        }
        leptos::task::spawn_local(async move {
            let answer = settle(tunefit_config(&raw, st.lang.get_untracked().code())).await;
            if text.with_untracked(|t| *t != raw) {
                return;
            }
            let s = st.s();
            match answer
                .map_err(|e| (s.config_reader_failed)(&e))
                .and_then(|line| tunefit_core::hfconfig::read_page_line(&line))
            {
                Ok((fragment, layers, hidden, params)) => {
                    // The link names a preset when the config is exactly one, and carries a
                    // pre-quantized checkpoint's 16-bit modules.
                    let mut next = st.query.get_untracked();
                    if let Err(e) = tunefit_core::hfconfig::apply_link(&mut next, &fragment) {
                        let lang = st.lang.get_untracked().core();
                        status.set(Some(Err(format!("{}: {}", e.key, tunefit_core::diag::query_problem(&e, lang)))));
                        return;
                    }
                    st.query.set(next);
                    status.set(Some(Ok((s.config_read)(
                        layers,
                        hidden,
                        &crate::format::count(params, st.lang.get_untracked()),
                    ))));
                }
                Err(e) => status.set(Some(Err(e))),
            }
        });
    };
    let repo = RwSignal::new(String::new());
    let fetching = RwSignal::new(false);
    let fetch = move || {
        let id =
            repo.get_untracked().trim().trim_start_matches("https://huggingface.co/").trim_end_matches('/').to_string();
        if id.is_empty() || fetching.get_untracked() {
            return;
        }
        fetching.set(true);
        leptos::task::spawn_local(async move {
            let r = settle(tunefit_hub_config(&id)).await;
            fetching.set(false);
            let s = st.s();
            match r {
                Ok(body) => apply(body),
                Err(e) => status.set(Some(Err((s.hub_failed)(&id, &e)))),
            }
        });
    };
    let node = NodeRef::<leptos::html::Div>::new();
    let written = StoredValue::new(None::<crate::i18n::Lang>);
    Effect::new(move |_| {
        let (lang, busy) = (st.lang.get(), fetching.get());
        let Some(root) = node.get_untracked() else { return };
        if written.get_value() != Some(lang) {
            root.set_inner_html(&config_markup(lang.strings()));
            written.set_value(Some(lang));
            if let Some(r) = element::<web_sys::HtmlInputElement>("hub-repo") {
                r.set_value(&repo.get_untracked());
            }
        }
        if let Some(area) = element::<web_sys::HtmlTextAreaElement>("config-json") {
            text.with(|t| {
                if area.value() != *t {
                    area.set_value(t)
                }
            });
        }
        if let Some(b) = element::<web_sys::HtmlButtonElement>("hub-fetch") {
            b.set_disabled(busy);
        }
        if let Some(p) = element::<web_sys::Element>("config-status") {
            let s = st.s();
            let (class, said) = status.with(|v| match v {
                Some(Err(e)) => ("msg bad", format!("{} {e}", s.config_problem)),
                Some(Ok(m)) => ("msg ok", m.clone()),
                None => ("msg ok", String::new()),
            });
            p.set_class_name(class);
            p.set_text_content(Some(&said));
        }
    });
    let target = |ev: &web_sys::Event| ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
    let typed = move |ev: web_sys::Event| {
        let id = target_id(&ev);
        match id.as_str() {
            "config-json" if ev.type_() == "input" => apply(event_target_value(&ev)),
            "hub-repo" => repo.set(event_target_value(&ev)),
            "config-file" if ev.type_() == "change" => {
                if let Some(f) = target(&ev).and_then(|i| i.files()).and_then(|f| f.get(0)) {
                    read_file(f, apply);
                }
            }
            _ => {}
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        let file = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0));
        if let Some(f) = file {
            read_file(f, apply);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let on_repo =
            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|e| e.id() == "hub-repo");
        if on_repo && ev.key() == "Enter" {
            fetch()
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if super::share::action_of(&ev).as_deref() == Some("hub-fetch") {
            fetch()
        }
    };
    view! {
        <div class="field dropzone" node_ref=node on:input=typed on:change=typed on:click=on_click on:keydown=on_key
            on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop></div>
    }
}

/// The config.json source's fields (`ConfigImport`); their values and status come after.
fn config_markup(s: &crate::i18n::Strings) -> String {
    let mut h = Html::with_capacity(1 << 10);
    write_html!(h, r#"<label for="config-json">"#, s.config_paste, r#"</label><textarea id="config-json""#);
    write_html!(h, r#" data-testid="config-json" rows="6" spellcheck="false" aria-describedby="config-status""#);
    write_html!(h, r#" placeholder=""#, s.config_drop_hint, r#""></textarea><label class="file" for="config-file">"#);
    write_html!(h, s.config_file, r#"</label><input type="file" id="config-file" accept=".json,application/json">"#);
    write_html!(h, r#"<div class="hub"><label for="hub-repo">"#, s.hub_label, r#"</label><input type="text""#);
    write_html!(h, r#" id="hub-repo" data-testid="hub-repo" autocomplete="off" spellcheck="false""#);
    write_html!(h, r#" placeholder="Qwen/Qwen3-8B"><button type="button" id="hub-fetch" data-testid="hub-fetch""#);
    write_html!(h, r#" data-act="hub-fetch">"#, s.hub_fetch, r#"</button><p class="hint">"#, s.hub_hint);
    write_html!(h, r#"</p></div><p id="config-status" data-testid="config-status" role="status""#);
    write_html!(h, r#" aria-live="polite" class="msg ok"></p>"#);
    h.into_string()
}

/// Reads a dropped or chosen file as text and hands it to `then`.
fn read_file(file: web_sys::File, then: impl Fn(String) + 'static) {
    leptos::task::spawn_local(async move {
        let promise = file.text();
        if let Ok(v) = wasm_bindgen_futures::JsFuture::from(promise).await {
            then(v.as_string().unwrap_or_default());
        }
    });
}

/// The evaluated model's name and parameter counts. Written as markup (markup.rs): every
/// input re-evaluates the report, and an unchanged string costs no DOM work at all.
#[component]
fn ModelSummary() -> impl IntoView {
    let st = use_state();
    view! {
        <div inner_html=move || st.report.with(|r| r.as_ref().ok().map(|r| summary_markup(st.s(), st.lang.get(), &r.model).into_string()).unwrap_or_default())></div>
    }
}

/// The model's name, its parameters and the trainable ones; for a mixture of experts the
/// parameters a token passes through, for a multimodal model the frozen vision tower, and a
/// badge when the architecture was guessed.
pub fn summary_markup(s: &crate::i18n::Strings, lang: crate::i18n::Lang, m: &tunefit_core::report::ModelInfo) -> Html {
    use crate::format::count;
    let mut h = Html::new();
    write_html!(
        h,
        r#"<p class="model-summary" data-testid="model-summary"><strong>"#,
        m.name,
        "</strong>: ",
        count(m.params, lang),
        " ",
        s.model_params_lc
    );
    if let Some(n) = m.active_params {
        write_html!(h, ", ", count(n, lang), " ", s.active_params_lc);
    }
    write_html!(h, ", ", count(m.trainable_params, lang), " ", s.trainable_params_lc);
    if m.frozen_vision_params > 0 {
        write_html!(
            h,
            r#", <span data-testid="frozen-vision">"#,
            count(m.frozen_vision_params, lang),
            " ",
            s.frozen_vision_lc,
            "</span>"
        );
    }
    if m.inferred {
        write_html!(h, r#"<span class="badge warn">"#, s.inferred_arch, "</span>");
    }
    write_html!(h, "</p>");
    h
}
