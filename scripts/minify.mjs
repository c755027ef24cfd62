// Minifies what Trunk copies into dist/ as written: the stylesheet, wasm-bindgen's JavaScript
// glue (the first load's, the Russian build's and the lazy module's), the loader and the
// service worker. Trunk's own minifier would also rewrite index.html (unquoted attributes,
// which sw.js reads quoted) and leaves the glue alone, so this step does it with esbuild and
// leaves index.html's markup as it is. Names stay (no property or global mangling): boot.js's
// `window.tunefit*` entries and the glue's exports are read by name. A file index.html pins
// with `integrity` gets its new sha384, or the browser would refuse it.
//
// Each wasm module's imports get short names first (`renameImports`), and its
// `target_features` section goes: wasm-bindgen names them
// after the JavaScript they call plus a 16-digit hash (`__wbg_writeText_6b6a85b68a7dd3eb`), 151
// of them in the page's module, written once in its import section and once as keys of the
// glue's imports object; the hashes do not compress. The wasm's import section and the glue's
// keys are rewritten together, and the build fails unless every name is found exactly once in
// the glue.
// Usage: node scripts/minify.mjs dist
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { execFileSync } from 'node:child_process';

const dir = process.argv[2] ?? 'dist';
const index = join(dir, 'index.html');
let html = readFileSync(index, 'utf8');
let before = 0, after = 0;

/** Unsigned LEB128 at `b[o]`: [value, next offset]. */
function uleb(b, o) {
  let v = 0, shift = 0, x;
  do { x = b[o++]; v += (x & 127) * 2 ** shift; shift += 7; } while (x & 128);
  return [v, o];
}
function leb(v) {
  const out = [];
  do { let x = v % 128; v = Math.floor(v / 128); if (v) x |= 128; out.push(x); } while (v);
  return Buffer.from(out);
}
/** The sections of a wasm module in order: its id, where it starts, its body and its end. */
function* sections(wasm) {
  for (let o = 8; o < wasm.length;) {
    const [size, body] = uleb(wasm, o + 1);
    yield { id: wasm[o], start: o, body, end: body + size };
    o = body + size;
  }
}
/** A short identifier for the n-th name: a..z, A..Z, then two letters. */
function shortName(n) {
  const a = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return n < a.length ? a[n] : a[Math.floor(n / a.length) - 1] + a[n % a.length];
}
/** index.html's integrity pin of `name`, where it has one, set to `content`'s sha384. */
function pin(name, content) {
  const sri = `sha384-${createHash('sha384').update(content).digest('base64')}`;
  const pinned = new RegExp(`(href="\\./${name.replace(/[.]/g, '\\.')}"[^>]*integrity=")[^"]+(")`);
  html = html.replace(pinned, `$1${sri}$2`);
}
/** Renames the imports of `wasmName` (its module and every field) and the glue's keys. */
function renameImports(wasmName, glueName) {
  const wasm = readFileSync(join(dir, wasmName));
  let glue = readFileSync(join(dir, glueName), 'utf8');
  const parts = [wasm.subarray(0, 8)];
  let renamed = 0;
  for (const { id, start: o, body, end } of sections(wasm)) {
    // The linker's `target_features` record (which wasm features the objects were compiled
    // with, for a later link step) is read by no browser: dropped, 148 bytes.
    if (id === 0) {
      const [nl, n] = uleb(wasm, body);
      if (wasm.subarray(n, n + nl).toString('utf8') === 'target_features') continue;
    }
    // wasm-bindgen's closure shims are exported under their whole Rust paths
    // (`wasm_bindgen_<hash>___convert__closures_____invoke___…`, up to 200 characters), each
    // called once by the glue as `.<name>(`: both get short names (`$0`, `$1`, …).
    if (id === 7) {
      let [count, p] = uleb(wasm, body);
      const entries = [leb(count)];
      let shims = 0;
      for (let i = 0; i < count; i++) {
        const [nl, q] = uleb(wasm, p);
        let name = wasm.subarray(q, q + nl).toString('utf8');
        const [, r] = uleb(wasm, q + nl + 1);
        if (name.startsWith('wasm_bindgen_') && name.includes('___convert__closures')) {
          const short = `$${shims++}`;
          const call = new RegExp(`\\.${name}\\(`, 'g');
          const hits = glue.match(call)?.length ?? 0;
          if (hits !== 1) throw new Error(`minify: ${glueName}: export ${name} is called ${hits} times, not once`);
          glue = glue.replace(call, () => `.${short}(`);
          name = short;
        }
        const n = Buffer.from(name);
        entries.push(leb(n.length), n, wasm.subarray(q + nl, r));
        p = r;
      }
      const section = Buffer.concat(entries);
      parts.push(Buffer.from([7]), leb(section.length), section);
      continue;
    }
    if (id !== 2) { parts.push(wasm.subarray(o, end)); continue; }
    let [count, p] = uleb(wasm, body);
    const entries = [leb(count)];
    const modules = new Map();
    for (let i = 0; i < count; i++) {
      let [ml, q] = uleb(wasm, p);
      const module = wasm.subarray(q, q + ml).toString('utf8');
      q += ml;
      let [fl, r] = uleb(wasm, q);
      const field = wasm.subarray(r, r + fl).toString('utf8');
      r += fl;
      // The descriptor: kind, then a type index (function), a table, memory or global type.
      const kind = wasm[r];
      let d = r + 1;
      if (kind === 0) { d = uleb(wasm, d)[1]; }
      else if (kind === 1) { d += 1; const flags = wasm[d++]; d = uleb(wasm, d)[1]; if (flags & 1) d = uleb(wasm, d)[1]; }
      else if (kind === 2) { const flags = wasm[d++]; d = uleb(wasm, d)[1]; if (flags & 1) d = uleb(wasm, d)[1]; }
      else if (kind === 3) { d += 2; }
      else throw new Error(`minify: ${wasmName}: import kind ${kind}`);
      if (!modules.has(module)) {
        const key = JSON.stringify(module);
        if (glue.split(key + ':').length !== 2) throw new Error(`minify: ${glueName}: module ${key} is not one key of the imports`);
        modules.set(module, String(modules.size));
        glue = glue.replace(key + ':', JSON.stringify(modules.get(module)) + ':');
      }
      const short = shortName(i);
      const key = new RegExp(`([{,])${field.replace(/[$]/g, '\\$&')}:`, 'g');
      const hits = glue.match(key)?.length ?? 0;
      if (hits !== 1) throw new Error(`minify: ${glueName}: import ${field} is a key ${hits} times, not once`);
      glue = glue.replace(key, `$1${short}:`);
      const m = Buffer.from(modules.get(module)), f = Buffer.from(short);
      entries.push(leb(m.length), m, leb(f.length), f, wasm.subarray(r, d));
      p = d;
      renamed++;
    }
    const section = Buffer.concat(entries);
    parts.push(Buffer.from([2]), leb(section.length), section);
  }
  const out = Buffer.concat(parts);
  writeFileSync(join(dir, wasmName), out);
  writeFileSync(join(dir, glueName), glue);
  pin(wasmName, out);
  pin(glueName, glue);
  console.log(`minify: ${wasmName}: ${renamed} imports renamed, ${((wasm.length - out.length) / 1024).toFixed(1)} KB less`);
}

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
  pin(name, out);
}
/**
 * Drops wasm-streams' exports from `wasmName` and the code only they reach. Leptos's
 * server_fn depends on wasm-streams, whose `#[wasm_bindgen]` classes (IntoUnderlyingSource,
 * IntoUnderlyingByteSource, IntoUnderlyingSink) are exports the linker must keep; they run only
 * when Rust turns a stream into a ReadableStream, which the page never does (it calls no server
 * function). The glue's classes stay, never constructed: the glue creates them in no import
 * (no `__wrap`, no `new`), and only their methods and finalizers would call the dropped exports.
 * binaryen's `--remove-unused-module-elements` then removes what nothing else reaches.
 */
function dropStreamExports(wasmName, glueName) {
  const file = join(dir, wasmName);
  const wasm = readFileSync(file);
  const glue = readFileSync(join(dir, glueName), 'utf8');
  // A class the glue builds from an import is `X.__wrap(ptr)`; esbuild has renamed the
  // classes by now, so any `__wrap` call stops the build: none is made today.
  if (/\.__wrap\(/.test(glue)) throw new Error(`minify: ${glueName} constructs an exported class (.__wrap): its exports may be needed`);
  const parts = [wasm.subarray(0, 8)];
  let dropped = 0;
  for (const { id, start: o, body, end } of sections(wasm)) {
    if (id !== 7) { parts.push(wasm.subarray(o, end)); continue; }
    let [count, p] = uleb(wasm, body);
    const keep = [];
    for (let i = 0; i < count; i++) {
      const [nl, q] = uleb(wasm, p);
      const [, r] = uleb(wasm, q + nl + 1);
      if (/^(__wbg_)?intounderlying/.test(wasm.subarray(q, q + nl).toString('utf8'))) dropped++;
      else keep.push(wasm.subarray(p, r));
      p = r;
    }
    const section = Buffer.concat([leb(keep.length), ...keep]);
    parts.push(Buffer.from([7]), leb(section.length), section);
  }
  if (!dropped) { console.log(`minify: ${wasmName}: no wasm-streams exports`); return; }
  writeFileSync(file, Buffer.concat(parts));
  execFileSync('wasm-opt', [file, '--remove-unused-module-elements', '-o', file]);
  const out = readFileSync(file);
  console.log(`minify: ${wasmName}: ${dropped} wasm-streams exports dropped, ${((wasm.length - out.length) / 1024).toFixed(1)} KB less`);
}

// After the glue is minified: its imports object is then `{...,name:function(...){...},...}`.
for (const name of readdirSync(dir).sort()) {
  if (!name.endsWith('_bg.wasm')) continue;
  dropStreamExports(name, name.replace(/_bg\.wasm$/, '.js'));
  renameImports(name, name.replace(/_bg\.wasm$/, '.js'));
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
