//! The page's state: one `RwSignal<Query>` holds every setting, and everything shown is
//! derived from it (`report` is a memo over `tunefit_core::evaluate`).
//!
//! Presentation settings (language, theme, units) are signals beside it. `AppState::install`
//! reads the URL once, provides the state as context, and keeps the URL, `<html lang>` and
//! `<html data-theme>` in step with the signals.

use crate::format::Units;
use crate::i18n::{Lang, Strings};
use crate::url::{self, PlotX, Prefs, Theme};
use leptos::prelude::*;
use tunefit_core::prices::PriceBook;
use tunefit_core::report::evaluate_with_read_prices;
use tunefit_core::{Error, Query, QueryError, Report};

#[derive(Clone, Copy)]
pub struct AppState {
    pub query: RwSignal<Query>,
    pub report: Memo<Result<Report, Error>>,
    /// The query as of the last animation frame (components/deferred.rs): what the GPU
    /// table, the plots and the exporter follow.
    pub frame: ReadSignal<Query>,
    pub lang: RwSignal<Lang>,
    pub theme: RwSignal<Theme>,
    pub units: RwSignal<Units>,
    /// The memory plot's horizontal axis (`plot=`), as "against micro-batch": a bool signal,
    /// because every signal value type costs kilobytes of wasm (reactive.rs) and bool is
    /// already there.
    pub plot_batch: RwSignal<bool>,
    /// Keys of the opening link that could not be applied; cleared when dismissed.
    pub link_errors: RwSignal<Vec<QueryError>>,
    /// The person's own prices (storage.rs), applied by the cost ranking.
    pub prices: RwSignal<PriceBook>,
    /// Why stored or linked prices were ignored; cleared when dismissed.
    pub prices_notice: RwSignal<Option<String>>,
    /// Prices carried by the opening link (`#prices=`), until the person accepts or declines.
    pub link_prices: RwSignal<Option<PriceBook>>,
    /// `embed=1`: the compact widget (laid out by CSS from public/boot.js's attributes).
    pub embed: bool,
    /// Whether the page shows the cost ranking: a widget shows it only in its `cost` and `full`
    /// views, so the others never load the module that writes it (components/cost.rs).
    pub shows_cost: bool,
    /// Likewise the GPU table: a widget shows it only in its `fit` and `full` views.
    pub shows_gpus: bool,
    passthrough: StoredValue<Vec<(String, String)>>,
    default_lang: Lang,
}

impl AppState {
    /// Builds the state from the current URL and provides it to every component below.
    pub fn install() -> AppState {
        let default_lang = url::default_lang();
        let (q, prefs, errors) = url::decode(&url::current_search(), default_lang);
        let query = RwSignal::new(q);
        // An embedded widget shows the link's figures, not the viewer's stored prices.
        let (stored, stored_err) = if prefs.embed() {
            (PriceBook::default(), None)
        } else {
            match crate::storage::load_prices() {
                Ok(b) => (b, None),
                Err(e) => (PriceBook::default(), Some(e)),
            }
        };
        let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
        let mut linked = tunefit_core::share::open_link(&hash);
        // The widget has no one to ask: a link's prices apply as given.
        let stored = if prefs.embed() { linked.prices.take().unwrap_or(stored) } else { stored };
        let prices = RwSignal::new(stored);
        let prices_notice = RwSignal::new(None);
        // Why the stored or the link's prices were ignored, in the page's language.
        let sh = prefs.lang.sh();
        let ignored = stored_err
            .map(|(text, e)| ("compact", text, e, sh.prices_corrupt))
            .or(linked.price_error.take().map(|e| ("link", hash.clone(), e, sh.link_prices_bad)));
        if let Some((kind, text, e, notice)) = ignored {
            let set = Box::new(move |m: String| prices_notice.set(Some(notice(&m))));
            crate::components::prices::say_price_error(kind, text, e, prefs.lang, set);
        }
        if let Some(json) = (!prefs.embed()).then(crate::storage::json_prices).flatten() {
            crate::components::prices::migrate(json, prices, prices_notice, prefs.lang);
        }
        let st = AppState {
            query,
            frame: crate::components::deferred::frame_copy(query),
            // Every recomputation counts as a change: the query and the prices it reads are what
            // decide the report, and comparing two reports field by field linked ~2 KB
            // (gzipped) of derived `PartialEq` into the first load for the rare case of a key
            // that changes nothing.
            report: Memo::new_with_compare(
                move |_| query.with(|q| prices.with(|p| evaluate_with_read_prices(q, p))),
                |_, _| true,
            ),
            prices,
            prices_notice,
            link_prices: RwSignal::new(linked.prices),
            embed: prefs.embed(),
            shows_cost: !prefs.embed() || matches!(prefs.view(), Some(url::View::Cost | url::View::Full)),
            shows_gpus: !prefs.embed() || matches!(prefs.view(), Some(url::View::Fit | url::View::Full)),
            lang: RwSignal::new(prefs.lang),
            theme: RwSignal::new(prefs.theme),
            units: RwSignal::new(prefs.units),
            plot_batch: RwSignal::new(prefs.plot == PlotX::Batch),
            link_errors: RwSignal::new(errors),
            passthrough: StoredValue::new(prefs.passthrough),
            default_lang,
        };
        provide_context(st);
        st.sync_url();
        st.sync_document();
        st.follow_history();
        st
    }

    /// The strings of the current language (tracks the language signal).
    pub fn s(&self) -> &'static Strings {
        self.lang.get().strings()
    }

    /// The memory plot's horizontal axis (tracks it): an image encoder's sequence is its
    /// image, so it plots against the micro-batch.
    pub fn plot_x(&self) -> PlotX {
        if self.plot_batch.get() || self.query.with(tunefit_core::catalog::is_image_encoder) {
            PlotX::Batch
        } else {
            PlotX::Seq
        }
    }

    /// Applies a change to the query.
    pub fn edit(&self, f: impl FnOnce(&mut Query)) {
        self.query.update(f)
    }

    fn prefs(&self) -> Prefs {
        Prefs {
            lang: self.lang.get(),
            theme: self.theme.get(),
            units: self.units.get(),
            plot: self.plot_x(),
            passthrough: self.passthrough.get_value(),
        }
    }

    /// Writes the canonical query string into the URL whenever a setting changes.
    ///
    /// The write waits for the task after the change: `history.replaceState` costs several
    /// milliseconds in Chromium, which made it the largest part of an input's update, and a
    /// drag's events within one task coalesce into one write (Chromium also throttles more
    /// than a few hundred replaceState calls per 10 s).
    fn sync_url(&self) {
        let st = *self;
        let pending = StoredValue::new(false);
        Effect::new(move |_| {
            st.query.track();
            st.prefs();
            if pending.get_value() {
                return;
            }
            pending.set_value(true);
            set_timeout(
                move || {
                    pending.set_value(false);
                    let s = untrack(|| st.query.with(|q| url::encode(q, &st.prefs(), st.default_lang)));
                    url::replace_search(&s);
                    // The English build has no Russian strings, the Russian build no English
                    // ones: the link, now saying the other language, is loaded again and
                    // public/boot.js picks that language's build.
                    if untrack(|| st.lang.get()) != untrack(|| st.lang.get()).built() && url::russian_build_loads() {
                        url::reload();
                    }
                },
                std::time::Duration::ZERO,
            );
        });
    }

    /// `<html lang>` follows the language, `<html data-theme>` the theme ("auto" removes it so
    /// the CSS follows prefers-color-scheme). The title follows the language once it is not
    /// English: until then index.html's own title stands, as deployed.
    fn sync_document(&self) {
        let st = *self;
        Effect::new(move |retitled: Option<bool>| {
            let retitled = retitled == Some(true) || st.lang.get() != Lang::En;
            if retitled {
                document().set_title(st.s().doc_title);
            }
            let Some(html) = document().document_element() else { return retitled };
            let _ = html.set_attribute("lang", st.lang.get().built().code());
            let _ = match st.theme.get() {
                Theme::Auto => html.remove_attribute("data-theme"),
                t => html.set_attribute("data-theme", t.code()),
            };
            retitled
        });
    }

    /// Back/forward to an entry with another query string restores that state.
    fn follow_history(&self) {
        let st = *self;
        let handle = window_event_listener(leptos::ev::popstate, move |_| {
            let (q, prefs, errors) = url::decode(&url::current_search(), st.default_lang);
            st.query.set(q);
            st.lang.set(prefs.lang);
            st.theme.set(prefs.theme);
            st.units.set(prefs.units);
            st.plot_batch.set(prefs.plot == PlotX::Batch);
            st.passthrough.set_value(prefs.passthrough);
            st.link_errors.set(errors);
        });
        on_cleanup(move || handle.remove());
    }
}

/// The state provided by `AppState::install`.
pub fn use_state() -> AppState {
    use_context::<AppState>().expect("AppState is installed by App")
}
