//! The share bar: copy the canonical link (with the person's prices only when they tick the
//! box), copy the result as Markdown, download the CLI's JSON, and the embed snippet.
//!
//! Every text comes from the core (`share::share_link`, `markdown::report_markdown_with_link`,
//! the `Report`'s serde form = `tunefit estimate --json`); this module only moves it to the
//! clipboard or a file. Where the async clipboard is missing or refused (plain http, old
//! browsers, no permission), the text is shown in a box to copy by hand, with a message.

use crate::i18n::{value_label, Lang, ShareStrings};
use crate::markup::{write_html, Html};
use crate::state::{use_state, AppState};
use crate::url::View;
use leptos::prelude::*;
use leptos::task::spawn_local;
use tunefit_core::prices::PriceBook;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// public/boot.js: the report as `tunefit estimate --json` prints it, written by the
    /// lazily loaded exporter module.
    #[wasm_bindgen(catch, js_name = tunefitReport)]
    fn tunefit_report(query: &str, prices: &str) -> Result<js_sys::Promise, JsValue>;
    /// public/boot.js: the report as Markdown with the page's link, from the same module.
    #[wasm_bindgen(catch, js_name = tunefitMarkdown)]
    fn tunefit_markdown(query: &str, prices: &str, base: &str) -> Result<js_sys::Promise, JsValue>;
}

/// The page's address without query or fragment: what links and snippets are built on.
pub fn page_base() -> String {
    let Some(w) = web_sys::window() else { return String::new() };
    let loc = w.location();
    format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
}

/// The embedded widget's header: what it shows (model, method, GPU) in one line, and a link
/// that opens the whole calculator with the same settings (never `embed`). Shown only in
/// embed mode (style/main.css); written as escaped markup (one element, one reactive string).
#[component]
pub fn EmbedHead() -> impl IntoView {
    let st = crate::state::use_state();
    let html = move || {
        use crate::markup::{write_html, Html};
        // Hidden outside embed mode: nothing to write, and nothing tracked to rewrite it for.
        if !st.embed {
            return String::new();
        }
        let what = st.report.with(|r| r.as_ref().ok().map(|r| r.model.name.clone())).unwrap_or_default();
        let (mut search, method, gpu) = st.query.with(|q| {
            (
                q.to_query_string(),
                q.method.as_str(),
                q.gpu.as_deref().and_then(tunefit_core::dataset::gpu).map(|g| g.name),
            )
        });
        // The page's own settings that change what is shown travel too.
        if st.lang.get() == crate::i18n::Lang::Ru {
            search.push_str("&lang=ru");
        }
        if st.units.get() != crate::format::Units::GiB {
            search.push_str("&units=gb");
        }
        let mut h = Html::new();
        write_html!(h, "<strong>", what, "</strong> · ", method);
        if let Some(g) = gpu {
            write_html!(h, " · ", g);
        }
        write_html!(
            h,
            r#" <a href=""#,
            page_base(),
            "?",
            search,
            r#"" target="_blank" rel="noopener" data-testid="embed-open">"#,
            st.s().open_full,
            "</a>"
        );
        h.into_string()
    };
    view! { <p class="embed-head" data-testid="embed-head" inner_html=html></p> }
}

/// Copies `text`, then tells `done` whether it worked. One non-generic entry point: every
/// caller shares one future type (each distinct future costs wasm).
pub fn copy_then(text: String, done: Box<dyn Fn(bool, String)>) {
    spawn_local(async move {
        let ok = copy_text(&text).await;
        done(ok, text)
    });
}

/// The `data-act` of the element an event came from (or its nearest ancestor with one).
/// Panels handle all their buttons with one listener: each `on:` closure is its own
/// monomorphised listener in the wasm, and a panel with a dozen of them costs kilobytes.
pub fn action_of(ev: &web_sys::Event) -> Option<String> {
    attribute_of(ev, "data-act")
}

/// The attribute `name` of the element an event came from, or of its nearest ancestor that has
/// it: what a section's one listener reads off the button that was pressed.
pub fn attribute_of(ev: &web_sys::Event, name: &str) -> Option<String> {
    let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
    el.closest(&format!("[{name}]")).ok()??.get_attribute(name)
}

/// Copies `text` with the async clipboard; false where it is missing or refused.
async fn copy_text(text: &str) -> bool {
    let Some(w) = web_sys::window() else { return false };
    let nav = w.navigator();
    // `navigator.clipboard` is undefined outside a secure context; calling it would throw.
    let has_clip = js_sys::Reflect::get(&nav, &"clipboard".into()).map(|c| !c.is_undefined()).unwrap_or(false);
    if has_clip && wasm_bindgen_futures::JsFuture::from(nav.clipboard().write_text(text)).await.is_ok() {
        return true;
    }
    // The fallback is the page's: the text shown selected in a box for copying by hand.
    false
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Option<()> {
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&js_sys::Array::of1(&text.into()), &opts).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Revoked later: revoking at once can cancel the download in some browsers.
    gloo_timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Some(())
}

/// The iframe snippet for `src`, with a script that sets the frame's height from the
/// widget's `{type: 'tunefit:height', height}` messages (only those from the widget's origin).
pub fn embed_snippet(src: &str, origin: &str) -> String {
    use crate::markup::{write_html, Html};
    // The origin, a page address, has none of the escaped characters; were one there, it
    // would stay inert text inside the script's string rather than end it.
    let mut h = Html::new();
    write_html!(
        h,
        r#"<iframe class="tunefit-embed" src=""#,
        src,
        "\" title=\"tunefit\" width=\"100%\" height=\"480\" style=\"border:0\" loading=\"lazy\"></iframe>\n\
        <script>\n\
        addEventListener('message', (e) => {\n\
          if (e.origin !== '",
        origin,
        "' || !e.data || e.data.type !== 'tunefit:height') return;\n\
          for (const f of document.querySelectorAll('iframe.tunefit-embed'))\n\
            if (f.contentWindow === e.source) f.style.height = Math.ceil(e.data.height) + 'px';\n\
        });\n\
        </script>"
    );
    h.into_string()
}

/// The page's link for the current query, with the person's prices when asked; the memory
/// unit travels with it.
fn share_url(st: AppState, with_prices: bool) -> String {
    let prices = st.prices.get();
    let include = with_prices && !prices.is_empty();
    let link = st.query.with(|q| tunefit_core::share::share_link(&page_base(), q, include.then_some(&prices)));
    // The memory unit travels with the link: a figure read in GB stays in GB.
    if st.units.get() == crate::format::Units::GiB {
        return link;
    }
    let (head, tail) = link.split_once('#').map_or((link.as_str(), None), |(h, t)| (h, Some(t)));
    let mut out = format!("{head}&units={}", st.units.get().code());
    if let Some(t) = tail {
        out.push('#');
        out.push_str(t);
    }
    out
}

/// The embed snippet for the current query, the chosen view, the page's language and theme.
fn embed_markup(st: AppState, view: Option<View>) -> String {
    let mut src = format!("{}?{}&embed=1", page_base(), st.query.with(|q| q.to_query_string()));
    if let Some(v) = view {
        src.push_str("&view=");
        src.push_str(v.code());
    }
    // The page's language and a fixed theme carry over; "auto" follows the reader's system.
    if st.lang.get() != crate::i18n::Lang::En {
        src.push_str("&lang=");
        src.push_str(st.lang.get().code());
    }
    if st.theme.get() != crate::url::Theme::Auto {
        src.push_str("&theme=");
        src.push_str(st.theme.get().code());
    }
    let origin = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
    embed_snippet(&src, &origin)
}

#[component]
pub fn SharePanel() -> impl IntoView {
    let st = use_state();
    let sh = move || st.lang.get_untracked().sh();
    let with_prices = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    // Text the clipboard refused, shown for copying by hand.
    let manual = RwSignal::new(None::<String>);
    let embed_open = RwSignal::new(false);
    let embed_view = RwSignal::new(None::<View>);

    let link = move || share_url(st, with_prices.get());
    let copy = move |text: String| {
        copy_then(
            text,
            Box::new(move |ok, text| {
                manual.set((!ok).then_some(text));
                status.set(Some(if ok { sh().copied } else { sh().copy_failed }.to_string()));
            }),
        )
    };
    // Written by the lazily loaded exporter module (public/boot.js `tunefitMarkdown`).
    let markdown = move || {
        let query = st.query.with_untracked(|q| q.to_query_string());
        let prices = st.prices.with_untracked(PriceBook::to_compact);
        spawn_local(async move {
            let text = super::model::settle(tunefit_markdown(&query, &prices, &page_base())).await.ok();
            match text {
                Some(m) => copy(m),
                None => status.set(Some(sh().copy_failed.into())),
            }
        });
    };
    // Written by the lazily loaded exporter module (public/boot.js `tunefitReport`), with the
    // same prices the page applies.
    let json = move || {
        let query = st.query.with_untracked(|q| q.to_query_string());
        let prices = st.prices.with_untracked(PriceBook::to_compact);
        spawn_local(async move {
            let text = super::model::settle(tunefit_report(&query, &prices)).await.ok();
            match text {
                Some(j) if download("tunefit.json", "application/json", &j).is_some() => {
                    status.set(Some(sh().downloaded.into()))
                }
                _ => status.set(Some(sh().copy_failed.into())),
            }
        });
    };
    let snippet = move || embed_markup(st, embed_view.get());

    let act = move |ev: web_sys::Event| {
        let Some(a) = action_of(&ev) else { return };
        let value = || ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        match a.as_str() {
            "share" => copy(link()),
            "markdown" => markdown(),
            "json" => json(),
            "embed" => embed_open.update(|o| *o = !*o),
            "snippet" => copy(snippet()),
            "prices" => {
                if let Some(i) = value() {
                    with_prices.set(i.checked())
                }
            }
            "view" => {
                if let Some(v) =
                    ev.target().and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok()).and_then(|v| v.as_string())
                {
                    embed_view.set(View::parse(&v))
                }
            }
            _ => {}
        }
    };

    // The bar and the box are markup that follows the language (and whether there are
    // prices to include); the status, a refused copy's text and the snippet follow their own
    // signals. The snippet is written only while the box is open: every input would
    // rebuild it otherwise.
    let bar = move || {
        let has_prices = st.prices.with(|p| !p.is_empty());
        bar_html(st.lang.get().sh(), has_prices, with_prices.get_untracked())
    };
    let manual_html = move || {
        manual.with(|t| t.as_deref().map(|t| textarea("manual-copy", "manual-copy", "4", t)).unwrap_or_default())
    };
    let snippet_html =
        move || textarea("code", "embed-snippet", "8", &if embed_open.get() { snippet() } else { String::new() });
    view! {
        <div class="share-bar" role="group" aria-label=move || st.lang.get().sh().share data-testid="share-bar"
            on:click=move |e: web_sys::MouseEvent| act(e.into())>
            <span class="contents" inner_html=bar></span>
            <p class="share-status muted" role="status" aria-live="polite" data-testid="share-status">{status}</p>
            <span class="contents" inner_html=manual_html></span>
        </div>
        <div class="card embed-box" data-testid="embed-box" class:hidden=move || !embed_open.get()
            on:click=move |e: web_sys::MouseEvent| act(e.into()) on:change=act>
            <div inner_html=move || embed_box_html(st.lang.get(), embed_view.get_untracked())></div>
            <div inner_html=snippet_html></div>
            <button type="button" data-testid="copy-snippet" data-act="snippet">{move || st.lang.get().sh().copy_snippet}</button>
        </div>
    }
}

/// A read-only box holding `text`: a refused copy's or the embed snippet.
fn textarea(class: &str, testid: &str, rows: &str, text: &str) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<textarea class=""#, class, r#"" readonly rows=""#, rows, r#"" data-testid=""#, testid, r#"">"#);
    write_html!(h, text, "</textarea>");
    h.into_string()
}

/// The share bar's buttons and, when there are prices, the box that adds them to the link.
fn bar_html(sh: &ShareStrings, has_prices: bool, with_prices: bool) -> String {
    let mut h = Html::new();
    write_html!(h, r#"<button type="button" data-testid="share" data-act="share">"#, sh.share, "</button>");
    write_html!(h, r#"<button type="button" data-testid="copy-markdown" data-act="markdown">"#, sh.copy_markdown);
    write_html!(h, r#"</button><button type="button" data-testid="download-json" data-act="json">"#, sh.download_json);
    write_html!(h, r#"</button><button type="button" data-testid="embed" data-act="embed">"#, sh.embed, "</button>");
    write_html!(h, r#"<label class="chip"#, if has_prices { "" } else { " hidden" });
    write_html!(h, r#""><input type="checkbox" data-testid="share-prices" data-act="prices""#);
    write_html!(h, if with_prices { " checked" } else { "" }, ">", sh.include_prices, "</label>");
    h.into_string()
}

/// The embed box's hint and its choice of view (`view`, the one chosen).
fn embed_box_html(lang: Lang, view: Option<View>) -> String {
    let sh = lang.sh();
    let mut h = Html::new();
    write_html!(h, r#"<p class="hint">"#, sh.embed_hint, r#"</p><div class="field inline"><label for="embed-view">"#);
    write_html!(h, sh.embed_view, r#"</label><select id="embed-view" data-testid="embed-view" data-act="view">"#);
    let chosen = view.map(View::code).unwrap_or("");
    for (v, label) in [
        ("", sh.embed_view_all),
        ("memory", value_label(lang, "memory")),
        ("fit", value_label(lang, "fit")),
        ("cost", value_label(lang, "cost")),
        ("full", sh.embed_view_full),
    ] {
        write_html!(h, r#"<option value=""#, v, r#"""#, if v == chosen { " selected" } else { "" }, ">", label);
        write_html!(h, "</option>");
    }
    write_html!(h, "</select></div>");
    h.into_string()
}
