// The lazily loaded module (crates/tunefit-export) is a second wasm: not in the first load. The
// full page asks it for the cost ranking once its own figures are live, so Copy config then
// answers without another fetch, and shows exactly the CLI's files and warnings
// (`tunefit export --json`); a compact widget never fetches it. A module that cannot be loaded
// is said where it is missing (the panel, the cost section), never a blank section.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const cliExport = (fw, q) => JSON.parse(execFileSync('target/release/tunefit', ['export', '--json', '--framework', fw, q], { encoding: 'utf8' }));
const EXPORTER = /\/tunefit-export(_bg\.wasm|\.js)$/;

/** A page in its own context (service worker blocked, so every request is the page's). */
async function fresh(url, { block = false } = {}) {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const requests = [];
  const problems = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  if (block) await page.route(EXPORTER, (r) => r.abort());
  await page.goto(url);
  return { ctx, page, requests, problems };
}

test('the module is fetched once, after the first load, and Copy config shows the CLI\'s files', async () => {
  const q = 'v=1&model=llama-3.1-8b&method=qlora&gpus=2&tp=2&framework=torchtune';
  const { ctx, page, requests, problems } = await fresh(`${server.url}?${q}`);
  try {
    await page.getByTestId('total-device').waitFor();
    // The module comes after the page's own figures, for the ranking, once.
    await page.getByTestId('cost-table').waitFor();
    assert.equal(requests.filter((p) => EXPORTER.test(p)).length, 2, requests.join('\n'));

    await page.getByTestId('export').locator('summary').click();
    await page.getByTestId('export-file').waitFor();
    assert.equal(requests.filter((p) => EXPORTER.test(p)).length, 2, 'no second fetch');
    assert.equal(await page.getByTestId('export-loading').count(), 0);

    const cli = cliExport('torchtune', q);
    assert.deepEqual(await page.getByTestId('export-tab').allTextContents(), cli.files.map((f) => f.name));
    assert.equal(await page.getByTestId('export-file').textContent(), cli.files[0].content);
    assert.ok(cli.warnings.length > 0, 'tp=2 is not expressible: a warning to compare');
    assert.deepEqual(await page.getByTestId('export-warnings').locator('li').evaluateAll((li) => li.map((x) => x.dataset.code)),
      cli.warnings.map((w) => w.code));

    // Another framework: the loaded module answers again, no second fetch; a file chosen
    // in the old framework's tabs gives way to the new one's first file.
    await page.getByTestId('export-tab').nth(1).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=export-tab]')[1]?.getAttribute('aria-selected') === 'true');
    // The panel was rewritten for the new tab; the tab keeps the keyboard focus.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.act), 'tab:1');
    await page.getByTestId('framework').selectOption('axolotl');
    const axo = cliExport('axolotl', q.replace('torchtune', 'axolotl'));
    await page.waitForFunction((t) => document.querySelector('[data-testid=export-file]')?.textContent === t, axo.files[0].content);
    assert.equal(await page.getByTestId('export-tab').first().getAttribute('aria-selected'), 'true');
    assert.equal(requests.filter((p) => EXPORTER.test(p)).length, 2);
    assert.deepEqual(problems, []);
  } finally { await ctx.close(); }
});

test('a compact widget never fetches the module', async () => {
  const { ctx, page, requests, problems } = await fresh(`${server.url}?v=1&method=lora&embed=1`);
  try {
    await page.getByTestId('total-device').waitFor();
    // Past the longest idle wait boot.js allows before it would fetch the module (1.5 s).
    await page.waitForTimeout(2500);
    assert.deepEqual(requests.filter((p) => EXPORTER.test(p)), []);
    assert.deepEqual(problems, []);
  } finally { await ctx.close(); }
});

test('a module that cannot be loaded is said in the panel and the cost section, and both retry', async () => {
  const { ctx, page } = await fresh(`${server.url}?v=1&method=lora`, { block: true });
  try {
    await page.getByTestId('total-device').waitFor();
    assert.match(await page.getByTestId('cost-error').textContent(), /could not be loaded/);
    assert.equal(await page.getByTestId('cost-table').count(), 0);
    const summary = page.getByTestId('export').locator('summary');
    await summary.click();
    const err = page.getByTestId('export-error');
    await err.waitFor();
    assert.match(await err.textContent(), /could not be loaded/);
    assert.equal(await page.getByTestId('export-file').count(), 0);
    // The main page keeps working.
    assert.match(await page.getByTestId('total-device').textContent(), /\d/);

    await page.unroute(EXPORTER);
    await summary.click();
    await summary.click();
    await page.getByTestId('export-file').waitFor();
    assert.equal(await page.getByTestId('export-error').count(), 0);
    // The ranking is asked for again with the next change.
    await page.getByTestId('seq-input').fill('1024');
    await page.getByTestId('cost-table').waitFor();
    assert.equal(await page.getByTestId('cost-error').count(), 0);
  } finally { await ctx.close(); }
});
