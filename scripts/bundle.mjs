// Gzipped sizes of dist/'s wasm + JS + CSS, split the way a visit loads them:
//   - first load: what index.html names (the loader, the app's JS and wasm, the CSS), all
//     fetched before the first render;
//   - lazy: every other wasm/JS/CSS file, fetched later (the module crates/tunefit-export,
//     once the page is idle after its first figures, for the cost ranking and the panels; the
//     Russian build for a page in Russian).
// sw.js is neither: the service worker runs beside the page, not in it.
// Used by scripts/size-budget.mjs and scripts/bench.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export function bundleSizes(dir = 'dist') {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const named = new Set();
  for (const m of html.matchAll(/(?:href|src|data-js|data-wasm)="([^"]+)"/g)) {
    named.add(m[1].replace(/^\.?\//, '').split(/[?#]/)[0]);
  }
  const out = { firstKB: 0, lazyKB: 0, files: [] };
  for (const f of readdirSync(dir).sort()) {
    if (!/\.(wasm|js|css)$/.test(f) || f === 'sw.js') continue;
    const raw = readFileSync(join(dir, f));
    const gzKB = gzipSync(raw, { level: 9 }).length / 1000;
    const first = named.has(f);
    out[first ? 'firstKB' : 'lazyKB'] += gzKB;
    out.files.push({ name: f, rawKB: raw.length / 1000, gzKB, first });
  }
  // The first load of a page in Russian: the same files, with the app's Russian build
  // (tunefit-app-ru.js and its wasm, which boot.js loads instead) in place of the named app.
  const app = out.files.filter((f) => f.first && /^tunefit-app-[0-9a-f]{8,16}(_bg\.wasm|\.js)$/.test(f.name));
  const ru = out.files.filter((f) => /^tunefit-app-ru(_bg\.wasm|\.js)$/.test(f.name));
  out.firstRuKB = ru.length === 2 ? out.firstKB - app.reduce((a, f) => a + f.gzKB, 0) + ru.reduce((a, f) => a + f.gzKB, 0) : null;
  return out;
}
