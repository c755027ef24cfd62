// Minifies what Trunk copies into dist/ as written: the stylesheet, wasm-bindgen's JavaScript
// glue (the first load's, the Russian build's and the lazy module's), the loader and the
// service worker. Trunk's own minifier would also rewrite index.html (unquoted attributes,
// which sw.js reads quoted) and leaves the glue alone, so this step does it with esbuild and
// leaves index.html's markup as it is. Names stay (no property or global mangling): boot.js's
// `window.tunefit*` entries and the glue's exports are read by name. A file index.html pins
// with `integrity` gets its new sha384, or the browser would refuse it.
// Usage: node scripts/minify.mjs dist
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

const dir = process.argv[2] ?? 'dist';
const index = join(dir, 'index.html');
let html = readFileSync(index, 'utf8');
let before = 0, after = 0;
for (const name of readdirSync(dir).sort()) {
  const loader = name.endsWith('.css') ? 'css' : name.endsWith('.js') ? 'js' : null;
  if (!loader) continue;
  const file = join(dir, name);
  const src = readFileSync(file, 'utf8');
  // The glue and the loader are ES modules (top-level await, import.meta); sw.js is a
  // classic worker script, left in its own format.
  const format = loader === 'js' && name !== 'sw.js' ? 'esm' : undefined;
  const out = transformSync(src, { loader, minify: true, format, legalComments: 'none' }).code;
  writeFileSync(file, out);
  before += src.length;
  after += out.length;
  const sri = `sha384-${createHash('sha384').update(out).digest('base64')}`;
  const pinned = new RegExp(`(href="\\./${name.replace(/[.]/g, '\\.')}"[^>]*integrity=")[^"]+(")`);
  html = html.replace(pinned, `$1${sri}$2`);
}
// Every file index.html pins must match its pin now: a pattern the rewrite missed (Trunk
// writing the attributes in another order or form) fails the build here, not in the browser.
for (const [tag] of html.matchAll(/<link\b[^>]*\bintegrity=[^>]*>/g)) {
  const file = tag.match(/\bhref="?\.?\/?([^"\s>]+)/)?.[1];
  const pin = tag.match(/\bintegrity="?(sha384-[^"\s>]+)/)?.[1];
  const want = file && `sha384-${createHash('sha384').update(readFileSync(join(dir, file))).digest('base64')}`;
  if (pin !== want) throw new Error(`minify: ${file}: index.html pins ${pin}, the file is ${want}`);
}
writeFileSync(index, html);
console.log(`minify: ${(before / 1024).toFixed(1)} -> ${(after / 1024).toFixed(1)} KB of CSS and JavaScript in ${dir}`);
