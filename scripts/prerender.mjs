// Writes the page as the app renders it for the default settings into index.html, so the
// first paint needs no wasm. Runs after `trunk build` on the built folder (default
// dist/): serves it on loopback, lets the release app render in headless Chromium, and puts
// the rendered body inside <div id="prerender" inert> in index.html. The wasm removes that
// copy and mounts the live app in the same task (src/lib.rs, `mount`), so the swap is never
// painted. boot.js marks a link with settings of its own `data-pending` before the wasm runs,
// and CSS dims the copy's figures and says they are being calculated (style/main.css); `inert`
// keeps anyone from typing into controls that are about to be replaced. Without JavaScript the
// copy is the default answer, and the <noscript> note says changing it needs JavaScript.
// Without Chromium it leaves index.html as Trunk wrote it and says so.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serve, launch } from '../tests/e2e/harness.mjs';

const dir = process.argv[2] ?? 'dist';
const file = join(dir, 'index.html');
const html = await readFile(file, 'utf8');
if (html.includes('id="prerender"')) { console.log('prerender: index.html already holds a prerendered page'); process.exit(0); }

let browser;
try { browser = await launch(); } catch (e) {
  console.warn(`prerender: skipped, no Chromium (${String(e.message).split('\n')[0]}); the page paints once the wasm runs`);
  process.exit(0);
}
const server = await serve({ root: dir });
try {
  const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // The sections the lazily loaded module writes (the GPU table, the memory curve, the
  // cost ranking) are copied as the live app first shows them, saying they load: the module
  // is held back, so the copy is the same on every build and the swap to the live app moves
  // nothing. They are below the first screen; without JavaScript CSS hides them
  // (`data-lazy`), and the note says what needs it.
  await page.route(/\/tunefit-export(_bg\.wasm|\.js)$/, () => {});
  await page.goto(server.url);
  await page.getByTestId('total-device').waitFor();
  await page.waitForTimeout(200);
  if (problems.length) throw new Error(`the app failed while rendering: ${problems.join('; ')}`);
  const body = await page.evaluate(() => {
    // Properties the app sets (a control's value, a box's checked state) are not attributes:
    // write them as attributes so the copy shows what the app shows.
    for (const el of document.querySelectorAll('input, textarea, select')) {
      if (el.type === 'checkbox' || el.type === 'radio') el.toggleAttribute('checked', el.checked);
      else if (el.tagName === 'TEXTAREA') el.textContent = el.value;
      else if (el.tagName === 'SELECT') for (const o of el.options) o.toggleAttribute('selected', o.selected);
      else el.setAttribute('value', el.value);
    }
    for (const d of document.querySelectorAll('details')) d.toggleAttribute('open', d.open);
    const out = [];
    for (const n of document.body.childNodes) {
      // The app's own nodes: not scripts, not the <noscript> note, not text between them.
      if (n.nodeType !== 1 || ['SCRIPT', 'NOSCRIPT', 'LINK'].includes(n.tagName)) continue;
      out.push(n.outerHTML);
    }
    return out.join('');
  });
  if (!body.includes('data-testid="total-device"')) throw new Error('the rendered page has no total');
  // Inline style attributes would be refused by the CSP (style-src falls back to 'self'): the
  // live app sets them through the CSSOM, which the CSP allows. Drop them from the copy.
  const copy = body.replace(/ style="[^"]*"/g, '');
  const note = '<p class="pending-note" role="status">Calculating the figures for this link…</p>';
  const out = html.replace(/<body>([\s\S]*?)<\/body>/, (_, inner) =>
    `<body>${inner.replace('<noscript>tunefit runs in your browser and needs JavaScript and WebAssembly.</noscript>',
      '<noscript><p class="noscript">This is tunefit\'s estimate for its default settings. Changing them needs JavaScript and WebAssembly, and so do the table of GPUs, the ranking of offers and the memory plot.</p></noscript>')}` +
    `<div id="prerender" inert>${note}${copy}</div></body>`);
  if (out === html) throw new Error('index.html has no <body> to fill');
  await writeFile(file, out);
  console.log(`prerender: ${(copy.length / 1024).toFixed(1)} KB of HTML for the default settings written into ${file}`);
} finally {
  await browser.close();
  await server.close();
}
