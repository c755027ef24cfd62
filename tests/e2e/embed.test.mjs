// Embed mode: a host page on another origin pastes the Embed button's snippet; the widget
// shows the link's figures without the page's header or controls, posts its height, and the
// snippet's script resizes the iframe, also when the widget's content changes size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, num } from './harness.mjs';

let app, host, browser;
before(async () => { app = await serve(); host = await serve({ root: 'tests/e2e/fixtures' }); browser = await launch(); });
after(async () => { await browser?.close(); await app?.close(); await host?.close(); });

const Q = 'v=1&model=llama-3.1-8b&method=qlora&batch=2&seq=4096&gpu=rtx-4090';
const cliDeviceGiB = (q) => JSON.parse(execFileSync('target/release/tunefit', ['estimate', '--json', q], { encoding: 'utf8' })).memory.device / 2 ** 30;

/** The snippet the page's Embed button writes for `query`, with `view` chosen in its select. */
async function snippet(query, view = '') {
  const page = await openPage(browser, `${app.url}?${query}`);
  await page.getByTestId('embed').click();
  await page.getByTestId('embed-view').selectOption(view);
  const text = await page.getByTestId('embed-snippet').inputValue();
  assert.deepEqual(page.problems, []);
  await page.context().close();
  return text;
}

async function hostWith(snip) {
  const page = await openPage(browser, `${host.url}host.html`);
  await page.evaluate((s) => window.mount(s), snip);
  const frame = page.frameLocator('iframe.tunefit-embed');
  const height = () => page.locator('iframe.tunefit-embed').evaluate((f) => f.getBoundingClientRect().height);
  return { page, frame, height };
}

test('the embedded widget shows the right figures and the iframe follows its height', async () => {
  const snip = await snippet(Q);
  assert.match(snip, /<iframe class="tunefit-embed" src="[^"]*embed=1/);
  assert.ok(snip.includes(`e.origin !== '${new URL(app.url).origin}'`), 'the script trusts only the widget origin');
  const { page, frame, height } = await hostWith(snip);
  const total = frame.getByTestId('total-device');
  // The prerendered default page carries a figure of its own (the default query's) until the
  // app replaces it: read the widget's figure once that shell is gone.
  await frame.locator('#prerender').waitFor({ state: 'detached' });
  await total.waitFor();
  assert.equal(num(await total.textContent()).toFixed(2), cliDeviceGiB(Q).toFixed(2));
  // Compact: no page header, controls or share bar.
  for (const sel of ['header', 'form.controls', '[data-testid=share-bar]', '[data-testid=prices]']) assert.equal(await frame.locator(sel).isVisible(), false, sel);
  // A one-line header says what the widget shows and opens the whole calculator with the
  // same settings.
  const head = frame.getByTestId('embed-head');
  assert.match(await head.textContent(), /Llama 3\.1 8B.*qlora.*RTX 4090/);
  const open = new URL(await frame.getByTestId('embed-open').getAttribute('href'));
  assert.equal(open.searchParams.get('embed'), null);
  assert.equal(open.searchParams.get('gpu'), 'rtx-4090');
  assert.equal(await frame.getByTestId('embed-open').getAttribute('target'), '_blank');
  // Compact by default: the verdict and the memory; the GPU table and the costs are one
  // view away (view=full shows them all).
  await frame.getByTestId('memory-panel').waitFor();
  assert.equal(await frame.getByTestId('cost-section').isVisible(), false);
  assert.equal(await frame.getByTestId('gpu-table').isVisible(), false);

  // The snippet's 480 px becomes the widget's own height.
  const contentHeight = () => frame.locator('main').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  await page.waitForFunction(() => heights.length > 0);
  await page.waitForFunction(() => Math.abs(document.querySelector('iframe.tunefit-embed').getBoundingClientRect().height - heights.at(-1)) < 1);
  const wide = await height();
  assert.ok(Math.abs(wide - await contentHeight()) <= 1, `iframe ${wide} vs content ${await contentHeight()}`);
  assert.notEqual(wide, 480);

  // A narrower frame reflows the widget taller: a new message, a taller iframe.
  await page.locator('iframe.tunefit-embed').evaluate((f) => { f.style.width = '340px'; });
  await page.waitForFunction((w) => document.querySelector('iframe.tunefit-embed').getBoundingClientRect().height > w + 20, wide);
  assert.ok(Math.abs(await height() - await contentHeight()) <= 1);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('view=memory shows one section; theme and lang apply', async () => {
  const snip = await snippet(`${Q}&theme=dark&lang=ru`, 'memory');
  assert.match(snip, /view=memory/);
  const { page, frame } = await hostWith(snip);
  await frame.getByTestId('total-device').waitFor();
  assert.equal(await frame.getByTestId('cost-section').isVisible(), false);
  assert.equal(await frame.getByTestId('gpu-table').isVisible(), false);
  assert.equal(await frame.getByTestId('memory-panel').isVisible(), true);
  const html = frame.locator('html');
  assert.equal(await html.getAttribute('data-theme'), 'dark');
  assert.equal(await html.getAttribute('lang'), 'ru');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a bad view is a notice and the widget still renders', async () => {
  const page = await openPage(browser, `${app.url}?v=1&embed=1&view=everything`);
  await page.getByTestId('total-device').waitFor();
  assert.match(await page.getByTestId('link-notice').textContent(), /view/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the default widget is compact (about 600 px) and never scrolls sideways from 320 to 800 px; view=full shows everything', async () => {
  for (const w of [320, 420, 600, 800]) {
    const page = await openPage(browser, `${app.url}?${Q}&embed=1`, { viewport: { width: w, height: 900 } });
    await page.getByTestId('total-device').waitFor();
    const h = await page.evaluate(() => Math.ceil(document.querySelector('main').getBoundingClientRect().height));
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert.ok(!sideways, `${w} px: scrolls sideways`);
    // Measured 2026-12-03: 654 px at 600 px wide, 589 px at 800 px.
    if (w >= 600) assert.ok(h <= 680, `${w} px: ${h} px tall`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  const page = await openPage(browser, `${app.url}?${Q}&embed=1&view=full`);
  await page.getByTestId('cost-section').waitFor();
  assert.ok(await page.getByTestId('gpu-table').isVisible());
  await page.context().close();
});
