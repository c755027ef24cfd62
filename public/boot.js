// Loader (external: the CSP has no 'unsafe-inline'), service worker, embed mode and its
// height messages; why and how: docs/sharing.md.
const p = new URLSearchParams(location.search), html = document.documentElement, embed = p.get('embed') === '1';
// Scripts run: the sections that need them show (style/main.css, `data-lazy`).
html.dataset.js = '';
// The prerendered page (scripts/prerender.mjs) shows the default settings' figures: a link
// that sets anything else, or another language, dims them until the wasm has its own.
// `v=2` is the copy's own version; a `v=1` link means other defaults, so other figures.
const PRESENTATION = ['theme', 'units', 'plot', 'embed', 'view'];
const own = (k) => (k === 'lang' && p.get(k) === 'en') || (k === 'v' && p.getAll('v').every((v) => v === '2'));
if ([...p.keys()].some((k) => !PRESENTATION.includes(k) && !own(k))) html.dataset.pending = '';
if (embed) {
  html.dataset.embed = '';
  // Without a view of its own the widget is compact: the verdict and the memory (about 600 px).
  html.dataset.view = ['memory', 'fit', 'cost', 'full'].includes(p.get('view')) ? p.get('view') : 'compact';
}
// The lazily loaded module (crates/tunefit-export) is a second wasm, loaded on the first call
// that needs it; a failed load is retried on the next call. `tunefitExport` resolves to
// export_json's JSON text, its warnings in `lang` ('en'|'ru'), for scripts and tests (the
// Copy-config panel asks for its markup, `tunefitExportHtml`). The same module writes the
// Download JSON (`report_json`), Copy as Markdown (`report_markdown`) and the summary's fixes
// (`fixes_tsv`), so the report's serializer, the Markdown writer and the fix search are not in
// the first load.
let exporter;
const lazy = (call) => {
  exporter ??= import('./tunefit-export.js').then(async (x) => {
    await x.default({ module_or_path: new URL('./tunefit-export_bg.wasm', import.meta.url) });
    return x;
  });
  return exporter.then(call, (e) => { exporter = undefined; throw e; });
};
window.tunefitExport = (query, framework, lang = 'en') => lazy((x) => x.export_json(query, framework, lang));
// The Copy-config panel itself, written by the module (export_panel.rs): file `tab` shown.
window.tunefitExportHtml = (query, framework, lang, tab) => lazy((x) => x.export_html(query, framework, lang, tab));
// Both date each offer's price by the browser's clock (days since 1970): `stale` in the JSON,
// "older than 60 days" in the Markdown.
const today = () => Date.now() / 864e5;
window.tunefitReport = (query, prices = '') => lazy((x) => x.report_json(query, prices, today()));
window.tunefitMarkdown = (query, prices = '', base = '') => lazy((x) => x.report_markdown(query, prices, base, today()));
window.tunefitFixes = (query, lang = 'en') => lazy((x) => x.fixes_tsv(query, lang));
// The planning and calibration panel: plans for a goal, a pasted log beside the estimate, and
// that log as cases of the project's measured set.
// One entry for the panel (one import in the page's wasm): `kind` names the module's function;
// `a` is the refused limit's message (form) or the pasted log (compare, case), `b` the log.
window.tunefitPlan = (kind, query, lang, gib, a, b) => lazy((x) => ({
  form: () => x.plan_form_html(query, lang, a, b),
  plans: () => x.plans_html(query, lang, gib),
  compare: () => x.calibration_html(query, a, lang, gib),
  case: () => x.measured_cases_json(query, a, lang),
})[kind]());
// The sections below the first screen (the cost ranking, the GPU table, the memory plot's
// curve) ask as the page starts; the module is fetched and compiled once the browser is idle,
// so it never competes with the page's own first figures for the network or the CPU.
// (Safari has no requestIdleCallback: a short delay after the page's own task instead.)
const idle = () => new Promise((r) => (window.requestIdleCallback ? requestIdleCallback(r, { timeout: 1500 }) : setTimeout(r, 200)));
const lazyWhenIdle = (call) => (exporter ? Promise.resolve() : idle()).then(() => lazy(call));
// The ranking (the table of offers, all of them when `all`, and the scatter), with the
// person's own prices (their compact form), dated by the browser's clock.
window.tunefitCost = (query, prices, lang, all) => lazyWhenIdle((x) => x.cost_html(query, prices, lang, all, today()));
// The memory plot's curve (against micro-batch when `batch`, else sequence length).
window.tunefitMemoryPlot = (query, batch, lang, gib) => lazyWhenIdle((x) => x.memory_plot_html(query, batch, lang, gib));
// The GPU table (every GPU against the query).
window.tunefitGpuRows = (query, lang, gib) => lazyWhenIdle((x) => x.gpu_rows_html(query, lang, gib));
// The "Memory through one step" chart (the allocator replay, drawn as SVG markup).
window.tunefitTimeline = (query, lang, gib) => lazy((x) => x.timeline_html(query, lang, gib));
// The page of an image or video diffusion model's link (src/components/diffusion.rs): its
// fields and figures as markup, the models and their memory model in this module only.
window.tunefitDiffusion = (query, lang, gib) => lazy((x) => x.diffusion_html(query, lang, gib));
// The config.json reader (the page's config source): `hfconfig::read_for_page`'s line, its
// error in `lang` ('en'|'ru').
window.tunefitConfig = (text, lang = 'en') => lazy((x) => x.read_config(text, lang));
// Why a price list cannot be read, in `lang`: the page says it in English itself; the
// Russian sentences are the module's (`kind`: 'compact', stored prices, or 'link').
window.tunefitPriceError = (kind, text, lang) => lazy((x) => x.price_error(kind, text, lang));
// The own-prices panel: a typed or imported list read (`kind` 'read', its error in `lang`;
// also prices an earlier version stored as JSON); the book (its compact form, as the page
// stores it) written as JSON ('json') or CSV ('csv'). The JSON and CSV readers and writers
// live there.
window.tunefitPrices = (kind, text, lang) => lazy((x) => {
  const call = { read: () => x.read_prices(text, lang), json: () => x.prices_json(text), csv: () => x.prices_csv(text) }[kind];
  if (!call) throw new Error(`tunefitPrices: no kind ${kind}`);
  return call();
});
// A Hugging Face repository's config.json, fetched only when the person presses the button:
// the one request this page makes to another origin (the CSP's connect-src names it, and
// nothing else). No credentials are sent; a gated or private repository answers 401/403.
window.tunefitHubConfig = async (repo) => {
  if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(repo)) throw new Error('bad-id');
  const r = await fetch(`https://huggingface.co/${repo}/resolve/main/config.json`, { credentials: 'omit', cache: 'no-store' });
  if (!r.ok) throw new Error(`http-${r.status}`);
  return r.text();
};
// Which build of the app runs follows the page's language, by the app's own rule (src/url.rs
// `default_lang`): the link's `lang`, else the browser's. The build index.html names has no
// Russian strings (the first load stays small); tunefit-app-ru is the same app with them, and
// the English build reloads into it when Russian is chosen. If it cannot load, the English
// build runs and `data-no-ru` tells it not to reload again.
const lang = p.getAll('lang').filter((l) => l === 'en' || l === 'ru').pop() ?? ((navigator.language || '').toLowerCase().startsWith('ru') ? 'ru' : 'en');
const s = document.querySelector('script[data-wasm]');
let m;
if (lang === 'ru') {
  try {
    m = await import('./tunefit-app-ru.js');
    await m.default({ module_or_path: new URL('./tunefit-app-ru_bg.wasm', import.meta.url) });
  } catch {
    m = undefined;
    html.dataset.noRu = '';
  }
}
if (!m) {
  m = await import(s.dataset.js);
  await m.default({ module_or_path: s.dataset.wasm });
}
window.wasmBindings = m;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: {} }));
const root = document.querySelector('main');
if (embed && root && parent !== window) {
  new ResizeObserver(() => parent.postMessage({ type: 'tunefit:height', height: Math.ceil(root.getBoundingClientRect().height) }, '*')).observe(root);
}
// The service worker registers once the app runs: its install fetches the lazy modules (the
// exporter, the Russian build) for offline use, which must not share the network with this
// page's own first load.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('./sw.js').catch(() => {});
