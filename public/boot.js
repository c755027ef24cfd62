// Loader (external: the CSP has no 'unsafe-inline'), service worker, embed mode and its
// height messages; why and how: docs/sharing.md.
if ('serviceWorker' in navigator) navigator.serviceWorker.register('./sw.js').catch(() => {});
const p = new URLSearchParams(location.search), html = document.documentElement, embed = p.get('embed') === '1';
if (embed) {
  html.dataset.embed = '';
  if (['memory', 'fit', 'cost'].includes(p.get('view'))) html.dataset.view = p.get('view');
}
const s = document.querySelector('script[data-wasm]');
const m = await import(s.dataset.js);
await m.default({ module_or_path: s.dataset.wasm });
window.wasmBindings = m;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: {} }));
const root = document.querySelector('main');
if (embed && root && parent !== window) {
  new ResizeObserver(() => parent.postMessage({ type: 'tunefit:height', height: Math.ceil(root.getBoundingClientRect().height) }, '*')).observe(root);
}
