// Static hosting: under the CSP the page starts with no violation and asks nothing of any
// other origin (every request is recorded, page and service worker alike); after the first
// load the service worker serves it offline, from a sub-path, and a new deployment shows on
// the next online load.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A fresh context whose every request and CSP violation is recorded. */
async function recorded() {
  const ctx = await browser.newContext();
  const requests = [];
  ctx.on('request', (r) => requests.push(r.url()));
  // Service worker fetches are not page requests; record them too.
  ctx.on('serviceworker', (w) => w.on('request', (r) => requests.push(r.url())));
  await ctx.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  return { ctx, page, requests, problems };
}

test('every request stays on the page origin and the CSP is never violated', async () => {
  const server = await serve();
  const { ctx, page, requests, problems } = await recorded();
  try {
    await page.goto(`${server.url}?v=1&model=llama-3.1-8b&gpu=h100-sxm`);
    await page.getByTestId('total-device').waitFor();
    await page.getByTestId('cost-table').waitFor();
    // Open the panels too, so anything they load is recorded.
    await page.getByTestId('embed').click();
    await page.getByTestId('export').locator('summary').click();
    await page.getByTestId('prices').locator('summary').click();
    await page.waitForTimeout(300);
    const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.ok(!/unsafe-inline/.test(csp));
    const origin = new URL(server.url).origin;
    assert.ok(requests.length >= 4, requests.join('\n'));
    assert.deepEqual(requests.filter((u) => new URL(u).origin !== origin), []);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems, []);
  } finally { await ctx.close(); await server.close(); }
});

test('after the first load the page works offline, under a sub-path', async () => {
  const server = await serve({ prefix: '/docs/tunefit/' });
  const { ctx, page, problems } = await recorded();
  try {
    await page.goto(`${server.url}?v=1`);
    await page.getByTestId('total-device').waitFor();
    // The worker is active and has cached the page, its hashed files and the lazily loaded
    // module (the page fetches it too once idle, for the cost ranking).
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(async () => {
      const keys = await caches.keys();
      const urls = [];
      for (const k of keys) urls.push(...(await (await caches.open(k)).keys()).map((r) => r.url));
      return urls.some((u) => /-[0-9a-f]{8,16}_bg\.wasm$/.test(u)) && urls.some((u) => /\/tunefit-export_bg\.wasm$/.test(u))
        && urls.some((u) => /\/tunefit-export\.js$/.test(u)) && urls.some((u) => /\/tunefit-app-ru_bg\.wasm$/.test(u));
    });
    await ctx.setOffline(true);
    await page.goto(`${server.url}?v=1&batch=8`);
    await page.getByTestId('total-device').waitFor();
    assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get('batch')), '8');
    // Copy config works offline too: its module comes from the cache.
    await page.getByTestId('export').locator('summary').click();
    await page.getByTestId('export-file').waitFor();
    assert.match(await page.getByTestId('export-file').textContent(), /batch/);
    // Russian works offline too: choosing it reloads into the cached Russian build.
    await page.getByTestId('lang').selectOption('ru');
    await page.locator('#mem-title', { hasText: 'Память на GPU' }).waitFor();
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(p)), []);
  } finally { await ctx.close(); await server.close(); }
});

test('a new deployment shows on the next online load', async () => {
  // A copy of dist/ that the test redeploys in place.
  const root = await mkdtemp(join(tmpdir(), 'tunefit-deploy-'));
  await cp('dist', root, { recursive: true });
  const server = await serve({ root });
  const { ctx, page, problems } = await recorded();
  try {
    await page.goto(`${server.url}?v=1`);
    await page.getByTestId('total-device').waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.getByTestId('total-device').waitFor();
    assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'the worker controls the page');
    const index = join(root, 'index.html');
    await writeFile(index, (await readFile(index, 'utf8')).replace('<title>', '<title>v2 '));
    await page.reload();
    await page.getByTestId('total-device').waitFor();
    assert.match(await page.title(), /^v2 /);
    assert.deepEqual(problems, []);
  } finally { await ctx.close(); await server.close(); await rm(root, { recursive: true, force: true }); }
});
