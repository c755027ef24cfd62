//! Component tests: mount into a fresh element in headless Chromium and assert on the DOM.
//! All tests share one page: each resets the URL and replaces the previous test's root.
//! Never clear <body>: wasm-bindgen-test-runner reports results through its own elements there,
//! and wiping them makes every test look as if it had never run (a 180 s "timeout").
#![cfg(target_arch = "wasm32")]

use tunefit_app::components::controls::{parse_typed, Scale};
use tunefit_app::format::{self, Units};
use tunefit_app::i18n::Lang;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Event, HtmlElement, HtmlInputElement};
wasm_bindgen_test_configure!(run_in_browser);

const GIB: f64 = (1u64 << 30) as f64;

/// Sets the URL's query string, removes the previous test's root and mounts the app into a
/// fresh one.
async fn mount_at(search: &str) -> HtmlElement {
    let w = web_sys::window().unwrap();
    let path = w.location().pathname().unwrap();
    w.history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{search}")))
        .unwrap();
    let doc = w.document().unwrap();
    let body = doc.body().unwrap();
    if let Some(old) = doc.get_element_by_id("tunefit-test-root") {
        old.remove();
    }
    let el: HtmlElement = doc.create_element("div").unwrap().dyn_into().unwrap();
    el.set_id("tunefit-test-root");
    body.append_child(&el).unwrap();
    let handle = leptos::mount::mount_to(el.clone(), tunefit_app::app::App);
    std::mem::forget(handle);
    leptos::task::tick().await;
    el
}

fn q(root: &HtmlElement, testid: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid={testid}]")).unwrap().unwrap_or_else(|| panic!("{testid} not found"))
}

fn text(root: &HtmlElement, testid: &str) -> String {
    q(root, testid).text_content().unwrap()
}

/// An event of `kind` that bubbles, as a browser's own `input` and `change` do (the settings'
/// tables and the config.json source listen once, on their group: components/fields.rs).
fn bubbling(kind: &str) -> Event {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    Event::new_with_event_init_dict(kind, &init).unwrap()
}

async fn type_into(root: &HtmlElement, testid: &str, value: &str, event: &str) {
    let input: HtmlInputElement = q(root, testid).dyn_into().unwrap();
    input.set_value(value);
    input.dispatch_event(&bubbling(event)).unwrap();
    leptos::task::tick().await;
    // The URL follows in the next task (state.rs, sync_url).
    gloo_timers::future::TimeoutFuture::new(0).await;
}

fn search() -> String {
    web_sys::window().unwrap().location().search().unwrap()
}

#[wasm_bindgen_test]
async fn app_renders_the_core_estimate() {
    let root = mount_at("").await;
    let expected = tunefit_core::evaluate(&tunefit_core::Query::default()).unwrap().memory.device as f64 / GIB;
    assert_eq!(text(&root, "total-device"), format!("{expected:.2}"));
}

#[wasm_bindgen_test]
async fn typing_a_sequence_length_updates_the_total_and_the_url() {
    let root = mount_at("").await;
    type_into(&root, "seq-input", "8192", "input").await;
    let query = tunefit_core::Query { seq: 8192, ..Default::default() };
    let expected = tunefit_core::evaluate(&query).unwrap().memory.device as f64 / GIB;
    assert_eq!(text(&root, "total-device"), format!("{expected:.2}"));
    assert!(search().contains("seq=8192"), "url: {}", search());
}

#[wasm_bindgen_test]
async fn out_of_range_value_is_clamped_with_a_message() {
    let root = mount_at("").await;
    type_into(&root, "batch-input", "100000", "change").await;
    let input: HtmlInputElement = q(&root, "batch-input").dyn_into().unwrap();
    assert_eq!(input.value(), "512");
    assert!(text(&root, "batch-msg").contains("512"), "message: {}", text(&root, "batch-msg"));
    assert!(search().contains("batch=512"));
    type_into(&root, "batch-input", "abc", "change").await;
    assert!(text(&root, "batch-msg").contains("abc"));
    assert_eq!(input.value(), "512", "a non-number keeps the value");
}

#[wasm_bindgen_test]
async fn a_link_restores_its_state_and_lists_bad_keys() {
    let root = mount_at("?v=1&seq=4096&batch=-3&zzz=%3Cscript%3E").await;
    let input: HtmlInputElement = q(&root, "seq-input").dyn_into().unwrap();
    assert_eq!(input.value(), "4096");
    let notice = text(&root, "link-notice");
    assert!(notice.contains("batch") && notice.contains("zzz"), "notice: {notice}");
    let button: HtmlElement = q(&root, "dismiss-notice").dyn_into().unwrap();
    button.click();
    leptos::task::tick().await;
    assert!(root.query_selector("[data-testid=link-notice]").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn units_and_language_switch() {
    let root = mount_at("?v=1&units=gb&lang=ru").await;
    assert_eq!(text(&root, "units-symbol"), "GB");
    let expected =
        tunefit_core::evaluate(&tunefit_core::Query::parse("v=1").unwrap()).unwrap().memory.device as f64 / 1e9;
    assert_eq!(text(&root, "total-device"), format!("{expected:.2}").replace('.', ","));
    let html = web_sys::window().unwrap().document().unwrap().document_element().unwrap();
    assert_eq!(html.get_attribute("lang").as_deref(), Some("ru"));
}

/// The page reads configs through `window.tunefitConfig` (public/boot.js loads the lazy
/// module); this test page has no boot.js, so a stand-in answers as the module does.
fn stand_in_config_reader() {
    use wasm_bindgen::{closure::Closure, JsValue};
    let f = Closure::<dyn Fn(String, String) -> js_sys::Promise>::new(move |text: String, lang: String| {
        let lang = tunefit_core::diag::Lang::from_code(&lang);
        js_sys::Promise::resolve(&JsValue::from_str(&tunefit_core::hfconfig::read_for_page_in(&text, lang)))
    });
    js_sys::Reflect::set(&web_sys::window().unwrap(), &"tunefitConfig".into(), f.as_ref()).unwrap();
    f.forget();
}

/// The cost section asks `window.tunefitCost` (public/boot.js loads the lazy module) for its
/// ranking; a stand-in answers with the module's own function.
fn stand_in_cost_ranking() {
    use wasm_bindgen::{closure::Closure, JsValue};
    let f = Closure::<dyn Fn(String, String, String, bool) -> js_sys::Promise>::new(
        move |query: String, prices: String, lang: String, all: bool| {
            js_sys::Promise::resolve(&JsValue::from_str(&tunefit_export::cost_html(
                &query, &prices, &lang, all, 20_000.0,
            )))
        },
    );
    js_sys::Reflect::set(&web_sys::window().unwrap(), &"tunefitCost".into(), f.as_ref()).unwrap();
    f.forget();
}

/// Waits, up to 2 s, until `ok` holds: the page's tasks finish when the machine lets them, so a
/// step is awaited by what it shows, not by a fixed time.
async fn until(mut ok: impl FnMut() -> bool) -> bool {
    for _ in 0..100 {
        if ok() {
            return true;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    ok()
}

#[wasm_bindgen_test]
async fn bad_config_json_says_what_is_wrong() {
    stand_in_config_reader();
    let root = mount_at("").await;
    let radio: HtmlElement = q(&root, "source-config").dyn_into().unwrap();
    radio.click();
    leptos::task::tick().await;
    let area: web_sys::HtmlTextAreaElement = q(&root, "config-json").dyn_into().unwrap();
    area.set_value("{not json");
    area.dispatch_event(&bubbling("input")).unwrap();
    assert!(until(|| text(&root, "config-status").contains("JSON")).await, "{}", text(&root, "config-status"));
    area.set_value(r#"{"model_type": "llama", "hidden_size": 4096}"#);
    area.dispatch_event(&bubbling("input")).unwrap();
    let heads = || text(&root, "config-status").contains("num_attention_heads");
    assert!(until(heads).await, "{}", text(&root, "config-status"));
    // A good multimodal config applies: the link carries its layout and the summary its tower.
    // Its tower's 16 heads are written as the hub's config.json writes them (SigLIP's default
    // is 12: another tower, whose images the preset's would not price).
    area.set_value(r#"{"model_type":"gemma3","text_config":{"hidden_size":2560,"intermediate_size":10240,"model_type":"gemma3_text","num_hidden_layers":34},"vision_config":{"hidden_size":1152,"image_size":896,"intermediate_size":4304,"num_attention_heads":16,"num_hidden_layers":27,"patch_size":14}}"#);
    area.dispatch_event(&bubbling("input")).unwrap();
    assert!(until(|| text(&root, "config-status").contains("34 layers")).await, "{}", text(&root, "config-status"));
    // Exactly the gemma-3-4b preset's shape: the link names the preset.
    assert!(until(|| search().contains("model=gemma-3-4b")).await, "url: {}", search());
    assert!(until(|| text(&root, "model-summary").contains("4.30")).await, "{}", text(&root, "model-summary"));
}

#[wasm_bindgen_test]
fn log_scale_round_trips_and_clamps() {
    let s = Scale::log(128.0, 131_072.0, 100, true);
    assert_eq!(s.from_pos(0), 128.0);
    assert_eq!(s.from_pos(100), 131_072.0);
    assert_eq!(s.to_pos(2048.0), 40);
    assert!(s.from_pos(41) > s.from_pos(40), "positions increase monotonically");
    assert_eq!(s.clamp(1e9), Err(131_072.0));
    assert_eq!(s.clamp(5.0), Err(128.0));
    assert_eq!(s.to_pos(f64::NAN), 0);
    // Sliders land on the values people set: powers of two, and 1-2-5 steps.
    let seq = tunefit_app::components::settings::ranges::SEQ;
    assert_eq!(
        (0..=seq.steps).map(|p| seq.from_pos(p)).collect::<Vec<_>>(),
        vec![128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0, 65536.0, 131072.0]
    );
    assert_eq!(seq.to_pos(2048.0), 4);
    assert_eq!(seq.to_pos(3000.0), 5, "nearer 4096 than 2048 in ratio");
    let tokens = tunefit_app::components::settings::ranges::TOKENS;
    assert_eq!((0..=6).map(|p| tokens.from_pos(p)).collect::<Vec<_>>(), vec![1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8]);
    assert_eq!(tokens.from_pos(tokens.steps), 1e12);
    assert_eq!(tokens.to_pos(1e7), 3);
    let epochs = tunefit_app::components::settings::ranges::EPOCHS;
    assert_eq!(epochs.from_pos(0), 0.1);
    assert_eq!(epochs.to_pos(3.0), 4, "3 epochs: the 2 position, nearer than 5");
    assert_eq!(parse_typed("1,5"), Some(1.5));
    // What links accept, typed: counts with a suffix.
    assert_eq!(parse_typed("4k"), Some(4000.0));
    assert_eq!(parse_typed("350m"), Some(350e6));
    assert_eq!(parse_typed("2B"), Some(2e9));
    assert_eq!(parse_typed("1,5k"), Some(1500.0));
    assert_eq!(parse_typed("k"), None);
    assert_eq!(parse_typed("inf"), None);
}

/// Text that reaches the markup-written sections stays text: a name with markup in it is shown
/// as written, in element content and in attributes, and creates no element, in every section
/// whose markup a pure function writes.
#[wasm_bindgen_test]
fn markup_escapes_names_so_they_stay_text() {
    use tunefit_app::components::{model, share, summary};
    use tunefit_app::markup::{write_html, Html};
    let hostile: &'static str = r#"<img src=x onerror="window.pwned=1">&'x"#;
    // Detached: nothing in it loads, but an <img> the parser made would still be found.
    let div = web_sys::window().unwrap().document().unwrap().create_element("div").unwrap();
    let show = |h: &str| {
        div.set_inner_html(h);
        assert!(div.query_selector("img").unwrap().is_none(), "an element from text: {h}");
    };
    let one = |sel: &str| div.query_selector(sel).unwrap().unwrap_or_else(|| panic!("no {sel}"));
    let mut h = Html::new();
    write_html!(h, r#"<p title=""#, hostile, r#"">"#, hostile, "</p>");
    show(h.as_str());
    assert_eq!(one("p").text_content().unwrap(), hostile);
    assert_eq!(one("p").get_attribute("title").unwrap(), hostile);

    // The cost table and scatter with an offer whose provider and GPU carry that name.
    let q = tunefit_core::Query::parse("v=1&model=llama-3.1-8b&method=lora&batch=2&seq=2048").unwrap();
    let mut report = tunefit_core::report::evaluate(&q).unwrap();
    let mut cost = report.cost.clone().expect("a cost ranking");
    for o in cost.offers.iter_mut().take(1).chain(cost.cheapest.iter_mut()) {
        o.provider = hostile;
        o.gpu = hostile;
    }
    let c = Lang::En.cost();
    let mut both = tunefit_export::cost_table::table_markup(c, Lang::En, Some(&cost), false, 20_000.0);
    both.html(&tunefit_export::cost_table::scatter_markup(c, Lang::En, &cost));
    let s = Lang::En.strings();
    show(both.as_str());
    let first = one("[data-testid=offer-row] th");
    assert_eq!(first.text_content().unwrap(), hostile);
    // The GPU cell: the count and GPU, then the row's facts (price per GPU-hour, region, date).
    let gpu_cell = one("[data-testid=offer-row] td");
    assert!(gpu_cell.text_content().unwrap().contains(&format!("× {hostile}")), "{:?}", gpu_cell.text_content());
    let mark = one("circle.mark.cheapest title").text_content().unwrap();
    assert!(mark.starts_with(&format!("{hostile} {hostile}: ")), "{mark}");

    // A GPU table row for a GPU of that name, chosen: its button, title and the row's marks.
    let row = tunefit_export::gpu_table::rows_markup(s, Units::GiB, Lang::En, &[("x", hostile, None)], Some("x"));
    show(&format!("<table><tbody>{}</tbody></table>", row.as_str()));
    assert_eq!(one("button[data-gpu=x]").text_content().unwrap(), hostile);
    assert!(one("button[data-gpu=x]").get_attribute("title").unwrap().contains(hostile));
    assert_eq!(one("tr.selected").get_attribute("data-testid").unwrap(), "gpu-row-x");

    // The model's summary, with every optional part shown.
    report.model.name = hostile.into();
    report.model.active_params = Some(1);
    report.model.frozen_vision_params = 1;
    report.model.inferred = true;
    show(model::summary_markup(s, Lang::En, &report.model).as_str());
    assert_eq!(one("strong").text_content().unwrap(), hostile);
    assert!(div.query_selector("[data-testid=frozen-vision]").unwrap().is_some());

    // A fix whose keys and note carry it: the button applies exactly the keys it shows.
    let fix = tunefit_core::fix::Fix { set: hostile.into(), device: 1 << 30, fits: true, note: hostile.into() };
    show(summary::fixes_markup(s.fixes_title, &[fix], Units::GiB, Lang::En).as_str());
    let b = one("[data-testid=fix]");
    assert_eq!(b.get_attribute("data-set").unwrap(), hostile);
    assert_eq!(b.get_attribute("title").unwrap(), hostile);
    assert!(b.text_content().unwrap().starts_with(&format!("{hostile} → ")));

    // The embed snippet's frame address: one attribute, whatever it holds.
    show(&share::embed_snippet(hostile, "https://example.test"));
    assert_eq!(one("iframe").get_attribute("src").unwrap(), hostile);
}

/// The plots' axes (svg_axis.rs): each tick at its mapped place with its label, grid lines
/// where asked, and the two titles centred on the plot area.
#[wasm_bindgen_test]
fn axis_ticks_and_titles_sit_where_the_axes_map_them() {
    use tunefit_app::markup::Html;
    use tunefit_app::svg_axis::{titles, x_ticks, y_ticks, Axis};
    let x = Axis { lo: 0.0, hi: 100.0, log: false, from: 56.0, to: 624.0 };
    let y = Axis { lo: 0.0, hi: 10.0, log: false, from: 260.0, to: 12.0 };
    assert_eq!((x.map(50.0), y.map(5.0)), (340.0, 136.0));
    let mut h = Html::new();
    x_ticks(&mut h, &x, &y, &[50.0], &|t| format!("{t}h"), true);
    x_ticks(&mut h, &x, &y, &[50.0], &|t| format!("{t}"), false);
    y_ticks(&mut h, &x, &y, &[5.0], &|t| format!("<{t}>"));
    titles(&mut h, &x, &y, &"time", &"cost");
    assert_eq!(
        h.as_str(),
        concat!(
            r#"<g class="tick"><line x1="340" x2="340" y1="12" y2="260"/><text x="340" y="276" text-anchor="middle">50h</text></g>"#,
            r#"<g class="tick"><text x="340" y="276" text-anchor="middle">50</text></g>"#,
            r#"<g class="tick"><line x1="56" x2="624" y1="136" y2="136"/><text x="50" y="140" text-anchor="end">&lt;5&gt;</text></g>"#,
            r#"<text class="axis-label" x="340" y="294" text-anchor="middle">time</text>"#,
            r#"<text class="axis-label" x="12" y="136" text-anchor="middle" transform="rotate(-90 12 136)">cost</text>"#,
        )
    );
}

#[wasm_bindgen_test]
fn formatting_never_shows_nan() {
    assert_eq!(format::number(f64::NAN, 2, Lang::En), "—");
    assert_eq!(format::number(1234567.891, 2, Lang::En), "1,234,567.89");
    assert_eq!(format::number(1234.5, 1, Lang::Ru), "1\u{a0}234,5");
    assert_eq!(format::bytes_value(GIB * 1.5, Units::GiB, Lang::En), "1.50");
}

#[wasm_bindgen_test]
async fn russian_page_shows_the_warnings_in_russian() {
    let search = "?v=1&params=7b&optim=paged-adamw&lang=ru";
    stand_in_cost_ranking();
    let root = mount_at(search).await;
    let q = tunefit_core::Query::parse("params=7b&optim=paged-adamw").unwrap();
    let r = tunefit_core::evaluate(&q).unwrap();
    let inferred = r.warnings.iter().find(|w| w.code() == "inferred-architecture").expect("inferred warning");
    let li = root
        .query_selector("[data-testid=warnings] li[data-code=inferred-architecture]")
        .unwrap()
        .expect("warning shown")
        .text_content()
        .unwrap();
    assert!(li.starts_with("архитектура угадана"), "{li}");
    // Layers, hidden, ffn and vocab: the core's figures, in the Russian sentence.
    let message = inferred.message();
    let figs: Vec<&str> = message.split(|c: char| !c.is_ascii_digit()).filter(|f| !f.is_empty()).collect();
    assert_eq!(figs.len(), 4, "{message}");
    for f in figs {
        assert!(li.contains(f), "{f} missing in {li}")
    }
    let paged = text(&root, "warnings");
    assert!(paged.contains("страничного оптимизатора") && !paged.contains("managed memory"), "{paged}");
    let rec = wait_for(&root, "recommendation").await.text_content().unwrap_or_default();
    assert!(rec.contains("Дешевле всего") && !rec.contains("Cheapest"), "{rec}");
}

/// Waits (up to ~3 s) until `testid` is under `root`.
async fn wait_for(root: &HtmlElement, testid: &str) -> web_sys::Element {
    for _ in 0..300 {
        if let Some(e) = root.query_selector(&format!("[data-testid={testid}]")).unwrap() {
            return e;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    panic!(
        "{testid} never appeared; panel: {:?}",
        root.query_selector("[data-testid=export]").unwrap().map(|e| e.inner_html())
    );
}

/// Copy config (components/export.rs) asks `window.tunefitExportHtml` (public/boot.js: it loads
/// the exporter's own wasm) only once the panel opens, in the page's language, and shows the
/// markup it answers; without an exporter the panel says so
/// instead of staying blank.
#[wasm_bindgen_test]
async fn copy_config_asks_the_lazy_exporter_only_when_opened() {
    use std::{cell::Cell, rc::Rc};
    use wasm_bindgen::{closure::Closure, JsValue};
    let w = web_sys::window().unwrap();
    let qs = "?v=1&method=lora&gpus=2&tp=2&framework=litgpt";

    // This test page has no boot.js, hence no exporter: the panel shows an error.
    js_sys::Reflect::delete_property(&w, &"tunefitExportHtml".into()).unwrap();
    let root = mount_at(qs).await;
    q(&root, "export").set_attribute("open", "").unwrap();
    let err = wait_for(&root, "export-error").await;
    assert!(err.text_content().unwrap().contains("could not be loaded"), "{:?}", err.text_content());

    // A stand-in exporter that counts its calls and answers as crates/tunefit-export does.
    let calls = Rc::new(Cell::new(0u32));
    let counted = calls.clone();
    let f = Closure::<dyn Fn(String, String, String, f64) -> js_sys::Promise>::new(
        move |query: String, fw: String, lang: String, tab: f64| {
            counted.set(counted.get() + 1);
            js_sys::Promise::resolve(&JsValue::from_str(&tunefit_export::export_html(&query, &fw, &lang, tab as usize)))
        },
    );
    js_sys::Reflect::set(&w, &"tunefitExportHtml".into(), f.as_ref()).unwrap();
    f.forget();
    let root = mount_at(qs).await;
    gloo_timers::future::TimeoutFuture::new(50).await;
    assert_eq!(calls.get(), 0, "a closed panel asks nothing");
    assert!(root.query_selector("[data-testid=export-file]").unwrap().is_none());
    q(&root, "export").set_attribute("open", "").unwrap();
    let file = wait_for(&root, "export-file").await;
    let expected = tunefit_core::export::export(
        &tunefit_core::Query::parse(&qs[1..]).unwrap(),
        tunefit_core::query::Framework::Litgpt,
    )
    .unwrap();
    assert_eq!(file.text_content().unwrap(), expected.files[0].content);
    assert!(!expected.warnings.is_empty());
    assert_eq!(q(&root, "export-warnings").child_element_count() as usize, expected.warnings.len());
    assert_eq!(calls.get(), 1);

    // In Russian every notice is the exporter's Russian, the framework profile's included
    // (unsloth on two GPUs: framework-multi-gpu).
    let ru = "?v=1&method=lora&gpus=2&framework=unsloth&lang=ru";
    let root = mount_at(ru).await;
    q(&root, "export").set_attribute("open", "").unwrap();
    wait_for(&root, "export-warnings").await;
    let expected = tunefit_core::export::export_in(
        &tunefit_core::Query::parse("v=1&method=lora&gpus=2&framework=unsloth").unwrap(),
        tunefit_core::query::Framework::Unsloth,
        tunefit_core::diag::Lang::Ru,
    )
    .unwrap();
    assert!(expected.warnings.iter().any(|n| n.code == "framework-multi-gpu"));
    let first = q(&root, "export-warnings").first_element_child();
    let shown: Vec<(String, String)> = std::iter::successors(first, |li| li.next_element_sibling())
        .map(|li| (li.get_attribute("data-code").unwrap_or_default(), li.text_content().unwrap_or_default()))
        .collect();
    let want: Vec<(String, String)> = expected.warnings.iter().map(|n| (n.code.clone(), n.message.clone())).collect();
    assert_eq!(shown, want);
    js_sys::Reflect::delete_property(&w, &"tunefitExportHtml".into()).unwrap();
    // Mounted pages stay alive; this one's remaining work (sections that follow on animation
    // frames) finishes here rather than inside the next test's short waits.
    gloo_timers::future::TimeoutFuture::new(300).await;
}

#[wasm_bindgen_test]
async fn a_pasted_repository_id_chooses_its_preset_and_moe_multimodal_parts_are_said() {
    let root = mount_at("").await;
    type_into(&root, "preset-search", "Qwen/Qwen3-30B-A3B", "input").await;
    assert!(search().contains("model=qwen3-30b-a3b"), "url: {}", search());
    let select: web_sys::HtmlSelectElement = q(&root, "preset").dyn_into().unwrap();
    assert_eq!(select.value(), "qwen3-30b-a3b");
    // MoE: total and active per token.
    let summary = text(&root, "model-summary");
    assert!(summary.contains("30.5") && summary.contains("3.35") && summary.contains("active"), "{summary}");
    // A word of the family finds every Qwen3 preset (Qwen3-VL too) and nothing else.
    type_into(&root, "preset-search", "qwen3", "input").await;
    let html = select.inner_html();
    let ids: Vec<&str> = html.split("value=\"").skip(1).filter_map(|s| s.split('"').next()).collect();
    assert_eq!(ids.len(), 7, "{ids:?}");
    assert!(ids.iter().all(|i| i.starts_with("qwen3")), "{ids:?}");
    // A multimodal checkpoint names its frozen vision tower.
    let root = mount_at("?v=1&model=gemma-3-4b").await;
    assert!(text(&root, "frozen-vision").contains("420"), "{}", text(&root, "model-summary"));
}

#[wasm_bindgen_test]
fn a_diffusion_field_sets_its_key_in_the_link_and_an_empty_one_removes_it() {
    use tunefit_app::components::diffusion::set_key;
    assert_eq!(set_key("model=flux.1-dev&res=1024", "res", "512x768"), "model=flux.1-dev&res=512x768");
    assert_eq!(set_key("model=flux.1-dev&gpu=rtx-4090", "gpu", ""), "model=flux.1-dev");
    // A value is one value: '&' and '=' typed into a field cannot add keys.
    assert_eq!(set_key("model=flux.1-dev", "res", "1&batch=9"), "model=flux.1-dev&res=1%26batch%3D9");
}

#[wasm_bindgen_test]
async fn the_model_picker_offers_the_diffusion_models() {
    let root = mount_at("").await;
    let n = tunefit_core::diffusion::models::IDS.len();
    let nth = |i: usize| root.query_selector(&format!("#preset optgroup:last-child option:nth-child({i})")).unwrap();
    let first: web_sys::HtmlOptionElement = nth(1).expect("the diffusion group").dyn_into().unwrap();
    assert_eq!(first.value(), format!("dit:{}", tunefit_core::diffusion::models::IDS[0]));
    assert!(nth(n).is_some() && nth(n + 1).is_none(), "one entry per diffusion preset");
    // Searching finds them by id, as it finds the presets.
    type_into(&root, "preset-search", "wan2.1", "input").await;
    let select: web_sys::HtmlSelectElement = q(&root, "preset").dyn_into().unwrap();
    let html = select.inner_html();
    assert!(html.contains("dit:wan2.1-14b") && !html.contains("dit:flux.1-dev"), "{html}");
}
