// tunefit service worker: the app works offline after the first load, and a new deployment
// is picked up on the next load.
//
// - The page (index.html) and unhashed files (boot.js, favicon, robots.txt) are network-first:
//   online, a reload always gets the newest deployment; offline, the cached copy answers.
// - Trunk's hashed files (name-<hex hash>.js/.wasm/.css) never change under one name, so they
//   are cache-first. Each time a fresh index.html arrives, the files it references are cached
//   and every other cached file (an older deployment's) is deleted.
// - The config exporter (tunefit-export.js and its wasm) and the app's Russian build
//   (tunefit-app-ru.js and its wasm) are not named in index.html: boot.js imports the first
//   once the page is idle after its first figures (the cost ranking is its markup), the
//   second when the page is in Russian. They are cached
//   with the page all the same, so both work offline, and, their names being fixed (Trunk's
//   worker-type assets), fetched again whenever a different index.html (a new deployment)
//   arrives.
// - Only same-origin GET requests are handled; the page's one other request (a Hugging Face
//   config.json, on a button press) goes to the network untouched. Everything is
//   resolved against the worker's scope, so dist/ works from any sub-path.
const CACHE = 'tunefit';
const SCOPE = self.registration.scope;
const INDEX = new URL('./', SCOPE).href;
const HASHED = /-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css)$/;
const LAZY = ['./tunefit-export.js', './tunefit-export_bg.wasm', './tunefit-app-ru.js', './tunefit-app-ru_bg.wasm'].map((u) => new URL(u, SCOPE).href);

// Every local file a page references: href/src and the loader's data-js/data-wasm.
function referenced(html) {
  const out = new Set([INDEX, new URL('./index.html', SCOPE).href, new URL('./sw.js', SCOPE).href, ...LAZY]);
  // Only the document's own files: the prerendered page (scripts/prerender.mjs) after them
  // holds links (shared settings, providers' pages) that are not files of this deployment.
  const own = html.split('<div id="prerender"')[0];
  for (const m of own.matchAll(/(?:href|src|data-js|data-wasm)="([^"]+)"/g)) {
    const url = new URL(m[1], SCOPE);
    if (url.origin === self.location.origin) out.add(url.href);
  }
  return out;
}

// Fetches index.html and everything it references, then drops what it no longer references.
async function refresh(response) {
  const html = await response.clone().text();
  const keep = referenced(html);
  const cache = await caches.open(CACHE);
  const before = await cache.match(INDEX);
  const redeployed = !before || (await before.text()) !== html;
  await cache.put(INDEX, response.clone());
  await Promise.all([...keep].filter((u) => u !== INDEX).map(async (u) => {
    if (!(redeployed && LAZY.includes(u)) && await cache.match(u)) return;
    try { const r = await fetch(u, { cache: 'no-cache' }); if (r.ok) await cache.put(u, r); } catch (_) { /* offline: next time */ }
  }));
  for (const req of await cache.keys()) {
    if (!keep.has(req.url)) await cache.delete(req);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(fetch(INDEX, { cache: 'no-cache' }).then((r) => r.ok && refresh(r)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => { event.waitUntil(self.clients.claim()); });

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || !url.href.startsWith(SCOPE)) return;
  const path = url.origin + url.pathname;
  if (HASHED.test(url.pathname)) {
    event.respondWith(caches.match(path).then((hit) => hit || fetch(req).then(async (r) => {
      if (r.ok) (await caches.open(CACHE)).put(path, r.clone());
      return r;
    })));
    return;
  }
  const isPage = req.mode === 'navigate' || path === INDEX || path === new URL('./index.html', SCOPE).href;
  event.respondWith(fetch(req, { cache: 'no-cache' }).then((r) => {
    if (r.ok) {
      // The query string is state, not a different page: one cached copy of index.html.
      if (isPage) event.waitUntil(refresh(r.clone()));
      else { const copy = r.clone(); event.waitUntil(caches.open(CACHE).then((c) => c.put(path, copy))); }
    }
    return r;
  }).catch(() => caches.match(isPage ? INDEX : path).then((hit) => hit || Response.error())));
});
