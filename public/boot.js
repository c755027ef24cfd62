// Starts the app; external so that the Content-Security-Policy needs no 'unsafe-inline'
// (docs/sharing.md). A module script has no document.currentScript, so the tag Trunk writes
// from Trunk.toml's pattern_script is found by its data attribute.
if ('serviceWorker' in navigator) {
  // Relative: the worker's scope is the directory dist/ is served from, whatever the sub-path.
  navigator.serviceWorker.register('./sw.js').catch(() => {});
}
const s = document.querySelector('script[data-wasm]');
const m = await import(s.dataset.js);
await m.default({ module_or_path: s.dataset.wasm });
window.wasmBindings = m;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: {} }));
