// The build's prerendered page (scripts/prerender.mjs, issue #19): the default answer paints
// from HTML and CSS alone, a link's own settings are never shown with the default's figures,
// the live app takes over without a visible jump, and without JavaScript the page still
// answers and says what needs it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch, num } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const GIB = 2 ** 30;
const cli = (query) => JSON.parse(execFileSync('target/release/tunefit', ['estimate', '--json', query], { encoding: 'utf8' }));

test('without JavaScript the default answer is on the page, and the note says changing it needs JavaScript', async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(server.url);
  const shown = num(await page.getByTestId('total-device').textContent());
  assert.ok(Math.abs(shown - cli('v=2').memory.device / GIB) <= 0.005 + 1e-9, `${shown}`);
  assert.ok(await page.getByTestId('total-device').isVisible());
  // (Playwright's text search skips <noscript>; its paragraph is found by class.)
  assert.match(await page.locator('p.noscript').innerText(), /Changing them needs JavaScript/);
  assert.match(await page.locator('p.noscript').innerText(), /table of GPUs, the ranking of offers and the memory plot/);
  assert.ok(await page.locator('p.noscript').isVisible());
  // What the lazily loaded module writes is copied as "loading" and hidden without scripts:
  // no section says it is loading when nothing will load it.
  const lazy = page.locator('#prerender [data-lazy]');
  assert.equal(await lazy.count(), 3);
  for (const el of await lazy.all()) assert.equal(await el.isVisible(), false);
  assert.equal(await page.getByText('Ranking the offers').isVisible(), false);
  // Controls show the default settings' values.
  assert.equal(await page.getByTestId('seq-input').inputValue(), '2048');
  assert.equal(await page.getByTestId('source-preset').isChecked(), true);
  // The copy is inert: its controls take no input.
  assert.equal(await page.locator('#prerender').getAttribute('inert'), '');
  await ctx.close();
});

test('a link paints before the wasm arrives, with its figures marked as being calculated, then shows its own', async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  // Hold the page's wasm back for a second, as a slow network would.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/tunefit-app-[0-9a-f]+_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  await page.goto(`${server.url}?v=1&seq=8192&method=lora`);
  // Painted from HTML: the summary is there, dimmed, and the note says why.
  await page.getByTestId('total-device').waitFor();
  assert.equal(await page.evaluate(() => 'pending' in document.documentElement.dataset), true);
  assert.ok(await page.locator('.pending-note').isVisible());
  const opacity = await page.evaluate(() => getComputedStyle(document.querySelector('#prerender .results')).opacity);
  assert.equal(opacity, '0.25');
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
  assert.ok(fcp !== undefined, 'painted before the wasm');
  release();
  // The live app replaces the copy with the link's own figures.
  await page.waitForFunction(() => !document.getElementById('prerender'));
  const want = cli('v=1&seq=8192&method=lora').memory.device / GIB;
  await page.waitForFunction((w) => Math.abs(Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) - w) < 0.006, want);
  assert.equal(await page.locator('main').count(), 1);
  assert.equal(await page.locator('[data-testid=total-device]').count(), 1);
  await ctx.close();
});

test('the default page swaps to the live app without moving anything (CLS ≤ 0.02)', async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    window.__cls = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
      .observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(server.url);
  await page.waitForFunction(() => !document.getElementById('prerender') && window.wasmBindings);
  await page.waitForTimeout(500);
  const cls = await page.evaluate(() => window.__cls);
  assert.ok(cls <= 0.02, `cumulative layout shift ${cls}`);
  assert.equal(await page.evaluate(() => 'pending' in document.documentElement.dataset), false);
  await ctx.close();
});
