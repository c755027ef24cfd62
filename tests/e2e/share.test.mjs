// Sharing and a person's own prices: the Share button copies the canonical link, Markdown and
// JSON come out of the core (the JSON equals the CLI's), own prices apply, persist, reach a
// link only when asked, survive import/export, and corrupted storage is a notice, not a crash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { serve, launch, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const CLIP = { permissions: ['clipboard-read', 'clipboard-write'] };
const Q = 'v=1&model=llama-3.1-8b&method=lora&batch=4&seq=2048';
const cli = (q) => JSON.parse(execFileSync('target/release/tunefit', ['estimate', '--json', q], { encoding: 'utf8' }));
const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());
async function downloaded(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  return { name: d.suggestedFilename(), text: await readFile(await d.path(), 'utf8') };
}
// A custom offer far below every bundled price: it must rank first.
const CHEAP_CSV = 'kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name\ncustom,lab,l40s,1,0.01,,hour,cheap\n';

test('Share copies the canonical link; Markdown and JSON are the core\'s', async () => {
  const page = await openPage(browser, `${server.url}?${Q}`, CLIP);
  await page.getByTestId('total-device').waitFor();
  await page.getByTestId('share').click();
  await page.getByTestId('share-status').filter({ hasText: /\S/ }).waitFor();
  const link = await clipboard(page);
  assert.equal(link, await page.evaluate(() => location.origin + location.pathname + location.search));
  assert.ok(link.includes('?v=1&'), link);
  assert.ok(!link.includes('#'), 'no prices unless asked');

  await page.getByTestId('copy-markdown').click();
  // The Markdown is written by the lazily loaded exporter module: poll until it lands.
  let md = '';
  for (let i = 0; i < 100 && !md.startsWith('### tunefit'); i++) { md = await clipboard(page); if (!md.startsWith('### tunefit')) await page.waitForTimeout(50); }
  assert.match(md, /\| Setting \| Value \|/);
  assert.ok(md.includes(link), 'the Markdown carries the full link');
  // Prices are dated by the browser's clock, as the CLI's JSON dates them by the system's.
  const top = cli(Q).cost.offers.slice(0, 5);
  assert.ok(top.every((o) => typeof o.stale === 'boolean'));
  assert.equal(md.includes('(older than 60 days)'), top.some((o) => o.stale), md);

  const json = await downloaded(page, 'download-json');
  assert.equal(json.name, 'tunefit.json');
  assert.deepEqual(JSON.parse(json.text), cli(Q), 'Download JSON equals `tunefit estimate --json`');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('own prices apply, persist, and reach a link only when asked', async () => {
  const page = await openPage(browser, `${server.url}?v=1`, CLIP);
  await page.getByTestId('cost-table').waitFor();
  await page.getByTestId('prices').locator('summary').click();
  await page.getByTestId('prices-text').fill(CHEAP_CSV);
  await page.getByTestId('prices-apply').click();
  await page.getByTestId('prices-status').filter({ hasText: '1' }).waitFor();
  const firstProvider = () => page.getByTestId('offer-row').first().locator('th').textContent();
  assert.equal(await firstProvider(), 'lab');

  // Kept in localStorage: a reload still ranks the custom offer first.
  await page.reload();
  await page.getByTestId('cost-table').waitFor();
  assert.equal(await firstProvider(), 'lab');
  const json = JSON.parse((await downloaded(page, 'download-json')).text);
  assert.equal(json.cost.cheapest.offer, 'own/cheap');
  assert.equal(json.cost.cheapest.confidence, 'user');

  // Not in the link by default; in the fragment when the box is ticked.
  await page.getByTestId('share').click();
  assert.ok(!(await clipboard(page)).includes('#'));
  await page.getByTestId('share-prices').check();
  await page.getByTestId('share').click();
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).includes('#prices='));
  const withPrices = await clipboard(page);
  assert.match(withPrices, /#prices=c:cheap:lab:l40s:1:0\.01:/);
  assert.deepEqual(page.problems, []);
  await page.context().close();

  // The receiver is asked before the link's prices replace theirs.
  const other = await openPage(browser, withPrices);
  await other.getByTestId('link-prices').waitFor();
  assert.notEqual(await other.getByTestId('offer-row').first().locator('th').textContent(), 'lab');
  await other.getByTestId('use-link-prices').click();
  await other.getByTestId('offer-row').first().locator('th', { hasText: 'lab' }).waitFor();
  // Stored in the compact form links carry.
  assert.match(await other.evaluate(() => localStorage.getItem('tunefit.prices.v2')), /^c:cheap:lab:l40s:1:0\.01:/);
  assert.deepEqual(other.problems, []);
  await other.context().close();
});

test('corrupted stored prices are ignored with a notice', async () => {
  for (const [key, text, said] of [
    ['tunefit.prices.v2', 'c:cheap:lab:l40s:1:-5::h', /prices\[0\]\.on_demand_usd_h.*-5/],
    // Stored as JSON by an earlier version: read by the lazily loaded module, said the same way.
    ['tunefit.prices.v1', '{"overrides": [{"provider": 7', /line 1/],
  ]) {
    const ctx = await browser.newContext();
    await ctx.addInitScript(([k, t]) => localStorage.setItem(k, t), [key, text]);
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}?v=1`);
    await page.getByTestId('total-device').waitFor();
    const notice = page.getByTestId('prices-notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), said, key);
    await page.getByTestId('cost-table').waitFor();
    assert.notEqual(await page.getByTestId('offer-row').first().locator('th').textContent(), 'lab');
    await notice.getByRole('button').click();
    assert.equal(await notice.count(), 0);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('prices an earlier version stored as JSON apply and move to the compact form', async () => {
  const ctx = await browser.newContext();
  const json = JSON.stringify({ custom_offers: [{ name: 'cheap', provider: 'lab', gpu: 'l40s', gpus_per_instance: 1, on_demand_usd_h: 0.01, billing: 'hour' }] });
  await ctx.addInitScript((t) => { if (!sessionStorage.getItem('seeded')) { localStorage.setItem('tunefit.prices.v1', t); sessionStorage.setItem('seeded', '1'); } }, json);
  const page = await ctx.newPage();
  await page.goto(`${server.url}?v=1`);
  await page.getByTestId('offer-row').first().locator('th', { hasText: 'lab' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('tunefit.prices.v2')), 'c:cheap:lab:l40s:1:0.01::h');
  assert.equal(await page.evaluate(() => localStorage.getItem('tunefit.prices.v1')), null);
  // And they stay after a reload, read from the new form.
  await page.reload();
  await page.getByTestId('offer-row').first().locator('th', { hasText: 'lab' }).waitFor();
  assert.equal(await page.getByTestId('prices-notice').count(), 0);
  await ctx.close();
});

test('a price list is imported from CSV and exported as JSON and CSV', async () => {
  const page = await openPage(browser, `${server.url}?v=1`);
  await page.getByTestId('cost-table').waitFor();
  await page.getByTestId('prices').locator('summary').click();
  await page.getByTestId('prices-import').setInputFiles({ name: 'p.csv', mimeType: 'text/csv', buffer: Buffer.from(CHEAP_CSV) });
  await page.getByTestId('offer-row').first().locator('th', { hasText: 'lab' }).waitFor();
  const json = JSON.parse((await downloaded(page, 'prices-export-json')).text);
  assert.deepEqual(json.custom_offers.map((o) => [o.name, o.gpu, o.on_demand_usd_h]), [['cheap', 'l40s', 0.01]]);
  const csv = (await downloaded(page, 'prices-export-csv')).text;
  assert.match(csv, /^kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name/);
  assert.match(csv, /custom,lab,l40s,1,0\.01/);

  // A bad file names the line and field, and keeps the prices in force.
  await page.getByTestId('prices-import').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h\ncustom,lab,l40s,1,-5,\n') });
  await page.getByTestId('prices-status').filter({ hasText: 'line 2' }).waitFor();
  assert.equal(await page.getByTestId('offer-row').first().locator('th').textContent(), 'lab');

  // After a reload the editor shows the stored prices as CSV (written by the lazy module when
  // the panel opens); Clear leaves the header alone and the dataset's offers rank again.
  await page.reload();
  await page.getByTestId('cost-table').waitFor();
  await page.getByTestId('prices').locator('summary').click();
  await page.waitForFunction(() => /custom,lab,l40s,1,0\.01/.test(document.querySelector('[data-testid=prices-text]').value));
  await page.getByTestId('prices-clear').click();
  assert.equal(await page.getByTestId('prices-text').inputValue(), 'kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name\n');
  await page.waitForFunction(() => document.querySelector('[data-testid=offer-row] th')?.textContent !== 'lab');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the framework selector says what it changes; Copy config has a tab per file', async () => {
  const page = await openPage(browser, `${server.url}?v=1&method=lora&gpus=2&shard=zero3&framework=hf`, CLIP);
  await page.getByTestId('total-device').waitFor();
  const desc = page.getByTestId('framework-desc');
  assert.match(await desc.textContent(), /PEFT/);
  await page.getByTestId('framework').selectOption('torchtune');
  assert.match(await desc.textContent(), /chunked/);
  await page.getByTestId('framework').selectOption('hf');

  await page.getByTestId('export').locator('summary').click();
  const tabs = page.getByTestId('export-tab');
  // The exporter's wasm loads when the panel first opens.
  await tabs.first().waitFor();
  assert.ok(await tabs.count() >= 2, 'a training script and a sharding config');
  const first = await page.getByTestId('export-file').textContent();
  await tabs.nth(1).click();
  const second = await page.getByTestId('export-file').textContent();
  assert.notEqual(first, second);
  assert.equal(await tabs.nth(1).getAttribute('aria-selected'), 'true');
  await page.getByTestId('copy-config').click();
  await page.waitForFunction(async (t) => (await navigator.clipboard.readText()) === t, second);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a shared link keeps the memory unit', async () => {
  const page = await openPage(browser, `${server.url}?${Q}`, CLIP);
  await page.getByTestId('total-device').waitFor();
  await page.getByTestId('units-gb').check();
  await page.getByTestId('share').click();
  await page.getByTestId('share-status').filter({ hasText: /\S/ }).waitFor();
  const link = await clipboard(page);
  assert.ok(link.includes('&units=gb'), link);
  const again = await openPage(browser, link, CLIP);
  await again.getByTestId('total-device').waitFor();
  assert.equal((await again.getByTestId('units-symbol').textContent()).trim(), 'GB');
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await again.context().close();
});

test('without a clipboard the link is shown to copy by hand; the embed snippet follows its view and the query', async () => {
  const ctx = await browser.newContext();
  // As on plain http: no async clipboard at all.
  await ctx.addInitScript(() => { Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }); });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    await page.goto(`${server.url}?${Q}`);
    await page.getByTestId('total-device').waitFor();
    await page.getByTestId('share').click();
    const manual = page.getByTestId('manual-copy');
    await manual.waitFor();
    const link = await manual.inputValue();
    assert.equal(link, await page.evaluate(() => location.origin + location.pathname + location.search));
    assert.match(await page.getByTestId('share-status').textContent(), /not available/);

    // The snippet follows the chosen view, and the query; the chosen view stays chosen.
    await page.getByTestId('embed').click();
    await page.getByTestId('embed-view').selectOption('cost');
    // (The snippet is HTML: the address's `&` is written `&amp;`.)
    assert.match(await page.getByTestId('embed-snippet').inputValue(), /\?v=1&amp;method=lora&amp;embed=1&amp;view=cost"/);
    await page.getByTestId('batch-input').fill('2');
    await page.getByTestId('batch-input').press('Enter');
    await page.waitForFunction(() => /batch=2/.test(document.querySelector('[data-testid=embed-snippet]').value));
    assert.equal(await page.getByTestId('embed-view').inputValue(), 'cost');
    assert.match(await page.getByTestId('embed-snippet').inputValue(), /embed=1&amp;view=cost/);
    // Copy snippet without a clipboard: the snippet is offered by hand too.
    await page.getByTestId('copy-snippet').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=manual-copy]')?.value.startsWith('<iframe'));
    assert.deepEqual(problems, []);
  } finally { await ctx.close(); }
});
