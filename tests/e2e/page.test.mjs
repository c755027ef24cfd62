// The calculator page driven like a person: real mouse drags, method switches, a pasted
// config.json, language and theme, the cost ranking, and the page's figures against the CLI's
// JSON for the same query.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, num, openAdvanced } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const GIB = 2 ** 30;
const cli = (query) => JSON.parse(execFileSync('target/release/tunefit', ['estimate', '--json', query], { encoding: 'utf8' }));
/** The page's URL query without the page's own presentation keys: what the CLI takes. */
const coreQuery = (page) => {
  const p = new URL(page.url()).searchParams;
  for (const k of ['lang', 'theme', 'units', 'plot', 'embed', 'view']) p.delete(k);
  return decodeURIComponent(p.toString());
};
async function open(search = '', opts) {
  const page = await openPage(browser, server.url + search, opts);
  // The live app, not the prerendered copy it replaces (a page in Russian waits for its build).
  await page.locator('#prerender').waitFor({ state: 'detached' });
  await page.getByTestId('memory-panel').waitFor();
  return page;
}
const total = async (page) => num(await page.getByTestId('total-device').textContent());

/** Drags a range input's thumb by `dx` pixels with the real mouse. */
async function drag(page, testid, dx) {
  const el = page.getByTestId(testid);
  await el.scrollIntoViewIfNeeded();
  const box = await el.boundingBox();
  const frac = await el.evaluate((e) => (e.value - e.min) / (e.max - e.min));
  // Chromium's thumb travels the track minus its own width (~16 px).
  const x = box.x + 8 + frac * (box.width - 16);
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 4 });
  await page.mouse.move(x + dx, y, { steps: 4 });
  await page.mouse.up();
}

test('dragging the sequence and batch sliders moves memory the right way', async () => {
  const page = await open();
  const t0 = await total(page);
  const seq0 = Number(await page.getByTestId('seq-input').inputValue());
  await drag(page, 'seq-range', 60);
  const seq1 = Number(await page.getByTestId('seq-input').inputValue());
  const t1 = await total(page);
  assert.ok(seq1 > seq0, `sequence grew: ${seq0} -> ${seq1}`);
  assert.ok(t1 > t0, `memory grew with the sequence: ${t0} -> ${t1}`);
  assert.match(page.url(), new RegExp(`seq=${seq1}`));
  await drag(page, 'batch-range', -200);
  assert.equal(await page.getByTestId('batch-input').inputValue(), '1');
  assert.ok((await total(page)) < t1, 'memory fell with the batch');
  assert.deepEqual(page.problems, []);
});

test('the memory panel: each term\'s figure and share, the bar in proportion, and an open explanation stays open and follows the figures', async () => {
  const page = await open('?v=2&model=llama-3.1-8b&method=lora&seq=2048&units=gib');
  const report = cli(coreQuery(page));
  // Every term's figure is the CLI's, and its segment's width is its share of the bar.
  const terms = ['weights', 'gradients', 'optimizer', 'activations', 'logits', 'overhead'];
  const stacked = terms.reduce((a, t) => a + report.memory[t], 0);
  for (const t of terms) {
    assert.ok(Math.abs(num(await page.getByTestId(`mem-${t}`).textContent()) - report.memory[t] / GIB) < 0.01, t);
    const width = await page.locator(`#seg-${t}`).evaluate((e) => parseFloat(e.style.width));
    assert.ok(Math.abs(width - (report.memory[t] * 100) / stacked) < 0.01, `${t} segment ${width}%`);
  }
  assert.match(await page.getByTestId('stack').getAttribute('aria-label'), /Activations \d/);
  // Open the weights' explanation: the core's assumptions name this run's trainable count.
  const explain = page.getByTestId('explain-weights');
  await explain.locator('summary').click();
  const said = () => explain.locator('li').first().textContent();
  assert.equal(await said(), `${report.model.params} params, ${report.model.trainable_params} trainable`);
  const t0 = num(await page.getByTestId('mem-activations').textContent());
  await page.getByTestId('rank-input').fill('64');
  await page.getByTestId('rank-input').press('Enter');
  await page.waitForFunction(() => /rank=64/.test(location.search));
  const now = cli(coreQuery(page));
  await page.waitForFunction((n) => document.querySelector('[data-testid=explain-weights] li').textContent.includes(`${n} trainable`), now.model.trainable_params);
  assert.notEqual(now.model.trainable_params, report.model.trainable_params);
  assert.equal(await explain.getAttribute('open'), '', 'the explanation is still open');
  // The sentence on why the logits are large follows the sequence, beside its figure.
  assert.match(await page.getByTestId('why-logits').textContent(), / 8192 tokens/);
  await page.getByTestId('seq-input').fill('4096');
  await page.getByTestId('seq-input').press('Enter');
  await page.waitForFunction(() => / 16384 tokens/.test(document.querySelector('[data-testid=why-logits]').textContent));
  assert.ok(num(await page.getByTestId('mem-activations').textContent()) > t0, 'activations grew with the sequence');
  assert.equal(await explain.getAttribute('open'), '', 'the explanation is still open');
  const last = cli(coreQuery(page));
  assert.ok(Math.abs((await total(page)) - last.memory.device / GIB) < 0.01);
  // Units: every figure follows, the bar's label too.
  await page.getByTestId('units-gb').check();
  await page.waitForFunction(() => document.querySelector('[data-testid=units-symbol]').textContent === 'GB');
  // The toolbar follows in place: the radio just chosen keeps the focus (a keyboard goes on).
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'units-gb');
  assert.ok(Math.abs((await total(page)) - last.memory.device / 1e9) < 0.01);
  assert.match(await page.getByTestId('stack').getAttribute('aria-label'), /GB/);
  assert.deepEqual(page.problems, []);
});

test('switching methods shows each method\'s settings and changes memory', async () => {
  const page = await open();
  const qlora = await total(page);
  await page.getByTestId('method').selectOption('full');
  await page.getByTestId('rank-range').waitFor({ state: 'detached' });
  const full = await total(page);
  assert.ok(full > qlora, `full fine-tuning needs more than QLoRA: ${full} vs ${qlora}`);
  await page.getByTestId('method').selectOption('prompt');
  await page.getByTestId('virtual-tokens-input').waitFor();
  await page.getByTestId('method').selectOption('lora');
  await page.getByTestId('rank-input').waitFor();
  assert.match(page.url(), /method=lora/);

  // The Advanced disclosure follows too: QLoRA's quantization only for QLoRA, GaLore's rank
  // only with GaLore; the field just used keeps the focus across the new markup.
  await openAdvanced(page);
  assert.equal(await page.getByTestId('quant').count(), 0);
  assert.equal(await page.getByTestId('lora-dropout-range').count(), 1);
  await page.getByTestId('method').selectOption('qlora');
  await page.getByTestId('quant').waitFor();
  // As a person does, the select has the focus when it is used (Playwright's selectOption
  // alone does not focus it).
  await page.getByTestId('optim').focus();
  await page.getByTestId('optim').selectOption('galore-adamw');
  await page.getByTestId('galore-rank-input').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'optim');
  // A field of another table that changes this one's fields keeps its own focus.
  await page.getByTestId('method').focus();
  await page.getByTestId('method').selectOption('full');
  await page.getByTestId('quant').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'method');
  assert.equal(await page.getByTestId('lora-dropout-range').count(), 0);
  assert.equal(await page.getByTestId('galore-rank-input').count(), 1);
  assert.deepEqual(page.problems, []);
});

const LLAMA2_7B = JSON.stringify({
  model_type: 'llama', hidden_size: 4096, intermediate_size: 11008, num_attention_heads: 32,
  num_hidden_layers: 32, num_key_value_heads: 32, vocab_size: 32000, tie_word_embeddings: false,
});

/** Waits until the element's text matches `re` (answers from the lazily loaded module are async). */
const waitText = (page, testid, re) => page.getByTestId(testid).filter({ hasText: re }).waitFor({ timeout: 10000 });

test('a pasted config.json sets the architecture; a broken one says what is wrong', async () => {
  const page = await open();
  await page.getByTestId('source-config').check();
  await page.getByTestId('config-json').fill('{"model_type": "llama", ');
  await waitText(page, 'config-status', /JSON/);
  await page.getByTestId('config-json').fill('{"model_type": "llama", "hidden_size": 4096}');
  await waitText(page, 'config-status', /num_attention_heads|intermediate_size|num_hidden_layers/);
  await page.getByTestId('config-json').fill(LLAMA2_7B);
  await waitText(page, 'config-status', /32/);
  // Exactly Llama 2 7B's shape: the link names the preset.
  assert.match(page.url(), /model=llama-2-7b/);
  assert.match(await page.getByTestId('model-summary').textContent(), /6[.,]7\d/);
  // A chosen file and a dropped one are read the same way, and the box shows their text.
  await page.locator('#config-file').setInputFiles({ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(QWEN3_8B) });
  await waitText(page, 'config-status', /36/);
  assert.equal(await page.getByTestId('config-json').inputValue(), QWEN3_8B);
  await page.getByTestId('config-json').evaluate((zone, text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'config.json', { type: 'application/json' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, LLAMA2_7B);
  await waitText(page, 'config-status', /32/);
  await page.waitForFunction(() => /model=llama-2-7b/.test(location.search));
  assert.equal(await page.getByTestId('config-json').inputValue(), LLAMA2_7B);
  assert.deepEqual(page.problems, []);
});

test('a Hugging Face model id fetches its config.json only on request, and says why when it cannot', async () => {
  // page.route does not see a request a service worker intercepts (Playwright's page.route
  // docs advise blocking workers), and this page's worker claims it once the app has started;
  // `open` waits for the live app, not the prerendered copy.
  const page = await open('', { serviceWorkers: 'block' });
  const hub = [];
  // The Hub is never reached from the test machine: the route answers as huggingface.co does.
  await page.route('https://huggingface.co/**', (route) => {
    const url = route.request().url();
    hub.push(url);
    // huggingface.co answers a cross-origin fetch with `access-control-allow-origin: *`, errors too.
    const headers = { 'access-control-allow-origin': '*' };
    if (url.includes('/Qwen/Qwen3-8B/')) return route.fulfill({ status: 200, headers, contentType: 'application/json', body: QWEN3_8B });
    if (url.includes('/meta-llama/')) return route.fulfill({ status: 401, headers, body: 'gated' });
    return route.abort('internetdisconnected');
  });
  await page.getByTestId('source-config').check();
  assert.deepEqual(hub, [], 'nothing is fetched before the button');
  await page.getByTestId('hub-repo').fill('Qwen/Qwen3-8B');
  await page.getByTestId('hub-fetch').click();
  await waitText(page, 'config-status', /36/);
  assert.deepEqual(hub, ['https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json']);
  // Exactly the qwen3-8b preset's shape: the link names the preset.
  assert.match(page.url(), /model=qwen3-8b/);
  assert.match(await page.getByTestId('model-summary').textContent(), /8[.,]19/);
  await page.getByTestId('hub-repo').fill('meta-llama/Llama-3.1-8B');
  await page.getByTestId('hub-fetch').click();
  await waitText(page, 'config-status', /gated or private/);
  await page.getByTestId('hub-repo').fill('someone/offline-model');
  await page.getByTestId('hub-fetch').click();
  await waitText(page, 'config-status', /could not be reached/);
  await page.getByTestId('hub-repo').fill('not a model id');
  await page.getByTestId('hub-fetch').click();
  await waitText(page, 'config-status', /is not a model id/);
  assert.equal(hub.length, 3, hub.join(' '));
  // The CSP lets the page reach that origin and no other.
  const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content);
  assert.match(csp, /connect-src 'self' https:\/\/huggingface\.co;/);
  assert.deepEqual(page.problems.filter((p) => !/huggingface\.co|Failed to load resource/.test(p)), []);
});

const QWEN3_8B = JSON.stringify({ architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', hidden_size: 4096, intermediate_size: 12288,
  num_attention_heads: 32, num_hidden_layers: 36, num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, tie_word_embeddings: false });

test('language and theme switch, and persist in the link', async () => {
  const page = await browser.newPage({ serviceWorkers: 'block' });
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname.split('/').pop()));
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  await page.goto(server.url);
  await page.locator('#prerender').waitFor({ state: 'detached' });
  assert.ok(fetched.some((f) => /^tunefit-app-[0-9a-f]{8,16}_bg\.wasm$/.test(f)), fetched.join(' '));
  // An English page never fetches the Russian build (the service worker, which caches it for
  // offline use, is blocked here so that only the page's own requests count).
  assert.ok(!fetched.some((f) => f.startsWith('tunefit-app-ru')), fetched.join(' '));
  await page.getByTestId('lang').selectOption('ru');
  // The English build has no Russian strings: the page loads again as the Russian build.
  await page.locator('#mem-title', { hasText: 'Память на GPU' }).waitFor();
  assert.equal(await page.locator('#mem-title').textContent(), 'Память на GPU');
  assert.ok(fetched.includes('tunefit-app-ru_bg.wasm'), fetched.join(' '));
  assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
  assert.match(page.url(), /lang=ru/);
  await page.getByTestId('theme').selectOption('dark');
  assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(13, 17, 23)');
  await page.reload();
  await page.locator('#prerender').waitFor({ state: 'detached' });
  assert.equal(await page.locator('#mem-title').textContent(), 'Память на GPU');
  assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
  // And back: the Russian build has no English strings either, so English loads the English
  // build again, the theme kept.
  fetched.length = 0;
  await page.getByTestId('lang').selectOption('en');
  await page.locator('#mem-title', { hasText: 'Per-GPU memory' }).waitFor();
  assert.ok(fetched.some((f) => /^tunefit-app-[0-9a-f]{8,16}_bg\.wasm$/.test(f)), fetched.join(' '));
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  assert.doesNotMatch(page.url(), /lang=ru/);
  assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
  assert.deepEqual(page.problems, []);
});

test('the cost table is ordered by cost and marks the cheapest', async () => {
  const page = await open();
  const rows = page.getByTestId('offer-row');
  await rows.first().waitFor();
  const costs = (await rows.evaluateAll((rs) => rs.map((r) => Number(r.dataset.bestUsd))));
  assert.ok(costs.length > 1, 'several offers');
  for (let i = 1; i < costs.length; i++) assert.ok(costs[i] >= costs[i - 1], `row ${i}: ${costs[i]} < ${costs[i - 1]}`);
  assert.equal(await page.getByTestId('cheapest').count(), 1);
  assert.ok(await rows.first().getByTestId('cheapest').count() === 1, 'the first row is the cheapest');
  // Twenty rows, then every offer (one row per offer, its two prices side by side) on request.
  const r = cli(coreQuery(page));
  const all = new Set(r.cost.offers.map((o) => `${o.offer}/${o.instances}`)).size;
  assert.ok(all > 20, `${all} offers`);
  assert.equal(await rows.count(), 20);
  const more = page.getByTestId('show-all-offers');
  assert.equal(await more.getAttribute('aria-expanded'), 'false');
  assert.match(await more.textContent(), new RegExp(String(all - 20)));
  await more.click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=offer-row]').length === n, all);
  assert.equal(await more.getAttribute('aria-expanded'), 'true');
  const every = await rows.evaluateAll((rs) => rs.map((r) => Number(r.dataset.bestUsd)));
  for (let i = 1; i < every.length; i++) assert.ok(every[i] >= every[i - 1], `row ${i}`);
  // From the keyboard: the button, rewritten with the rows it brings back, keeps the focus.
  await more.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=offer-row]').length === 20);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'show-all-offers');
  // A query no offer can hold has no rows, and no button.
  await page.getByTestId('seq-input').fill('131072');
  await page.getByTestId('seq-input').press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=offer-row]').length === 0);
  assert.equal(await more.isVisible(), false);
  assert.deepEqual(page.problems, []);
});

test('the GPU table lists every GPU with the CLI\'s fit, and a row picks the target GPU', async () => {
  const Q = 'v=1&model=llama-3.1-8b&method=lora&batch=2&seq=2048&units=gib';
  const page = await open('?' + Q);
  const gpus = JSON.parse(execFileSync('target/release/tunefit', ['gpus', '--json'], { encoding: 'utf8' }));
  await page.getByTestId(`gpu-row-${gpus[0].id}`).waitFor();
  assert.equal(await page.locator('[data-testid^=gpu-row-]').count(), gpus.length);
  // Each row is the core's fit with that GPU chosen: compare a few with the CLI.
  const gib = (s) => num(s);
  for (const id of ['h200', 'a100-40gb', 'rtx-4090', 't4']) {
    const fit = cli(Q.replace('&units=gib', '') + `&gpu=${id}`).fit;
    const row = page.getByTestId(`gpu-row-${id}`);
    const status = await row.getAttribute('data-status');
    // Green only when even the error band's high end fits; inside the band: tight (warn).
    const expected = fit.verdict === 'fits' ? 'ok' : fit.verdict === 'tight' || fit.min_gpus > 1 ? 'warn' : 'bad';
    assert.equal(status, expected, id);
    assert.ok(fit.band_low <= fit.band_high && ['fits', 'tight', 'does-not-fit'].includes(fit.verdict), id);
    assert.ok(Math.abs(gib(await row.getByTestId('headroom').textContent()) - fit.headroom / GIB) <= 0.005 + 1e-9, `${id} headroom`);
    const shown = async (t) => (await row.getByTestId(t).textContent()).trim();
    assert.equal(await shown('max-batch'), fit.max_batch == null ? '—' : fit.max_batch.toLocaleString('en-US'), `${id} max batch`);
    assert.equal(await shown('max-seq'), fit.max_seq == null ? '—' : fit.max_seq.toLocaleString('en-US'), `${id} max seq`);
  }
  // Choosing a GPU from the keyboard: the row is marked, the link carries it, and focus stays
  // on the button while the table is rewritten.
  const button = page.getByTestId('gpu-row-a100-40gb').locator('button');
  await button.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/gpu=a100-40gb/);
  await page.waitForFunction(() => document.querySelector('[data-testid=gpu-row-a100-40gb]').classList.contains('selected'));
  assert.equal(await page.getByTestId('gpu-row-a100-40gb').locator('button').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('[data-testid^=gpu-row-].selected').count(), 1);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.gpu), 'a100-40gb');
  // A mouse click on another row moves the choice.
  await page.getByTestId('gpu-row-h200').locator('button').click();
  await page.waitForURL(/gpu=h200/);
  await page.waitForFunction(() => document.querySelector('[data-testid=gpu-row-h200]').classList.contains('selected'));
  assert.deepEqual(page.problems, []);
});

test('the plots follow the query: memory against sequence with every GPU size, cost against time', async () => {
  const Q = 'v=1&model=llama-3.1-8b&method=lora&batch=2&seq=2048&units=gib';
  const page = await open('?' + Q);
  const curve = page.getByTestId('mem-curve');
  await curve.waitFor();
  const points = async (loc) => (await loc.getAttribute('points')).trim().split(' ').map((p) => p.split(',').map(Number));
  // Powers of two from 128 to 128k (2048 is one of them): x grows, and memory with it (SVG y
  // points down, so y never grows).
  const p = await points(curve);
  assert.equal(p.length, 11);
  for (let i = 1; i < p.length; i++) {
    assert.ok(p[i][0] > p[i - 1][0], `x at ${i}`);
    assert.ok(p[i][1] <= p[i - 1][1], `memory at ${i}`);
  }
  // One dashed line per distinct memory size in the dataset, each titled with its GPUs.
  const gpus = JSON.parse(execFileSync('target/release/tunefit', ['gpus', '--json'], { encoding: 'utf8' }));
  assert.equal(await page.getByTestId('vram-line').count(), new Set(gpus.map((g) => g.vram_bytes)).size);
  const h200 = gpus.find((g) => g.id === 'h200');
  assert.ok(await page.getByTestId('vram-line').filter({ hasText: h200.name }).count() === 1, 'the H200 line is titled');
  // Cost against time: one dot per priced offer, as the CLI ranks them for the same query.
  const r = cli(Q.replace('&units=gib', ''));
  const dots = async (id) => ((await page.getByTestId(id).getAttribute('d')).match(/M/g) ?? []).length;
  const priced = (spot) => r.cost.offers.filter((o) => (o.pricing === 'spot') === spot && o.hours > 0 && o.usd_total > 0).length;
  assert.equal(await dots('dots-on-demand'), priced(false));
  assert.equal(await dots('dots-spot'), priced(true));
  // The Pareto front: fastest first, each point cheaper than the one before.
  const front = await points(page.getByTestId('pareto'));
  assert.equal(front.length, r.cost.pareto.length);
  // (SVG y points down: a cheaper point lies lower.)
  for (let i = 1; i < front.length; i++) assert.ok(front[i][0] >= front[i - 1][0] && front[i][1] >= front[i - 1][1], `front at ${i}: ${front[i]} after ${front[i - 1]}`);
  assert.equal(await page.locator('[data-testid=plot-cost-time] circle.mark.cheapest').count(), 1);

  // The current point sits on the curve at 2048 and moves right with the sequence slider;
  // the scatter follows too (both are redrawn on the animation frame after the input).
  const before = await page.getByTestId('dots-on-demand').getAttribute('d');
  const dot = page.locator('[data-testid=plot-mem-seq] circle.current');
  const at2048 = Number(await dot.getAttribute('cx'));
  assert.ok(p.some(([x]) => Math.abs(x - at2048) < 0.06), 'the point is on the curve');
  await page.getByTestId('seq-input').fill('4096');
  await page.getByTestId('seq-input').press('Enter');
  await page.waitForFunction((x) => Number(document.querySelector('[data-testid=plot-mem-seq] circle.current').getAttribute('cx')) > x + 1, at2048);
  await page.waitForFunction((d) => document.querySelector('[data-testid=dots-on-demand]').getAttribute('d') !== d, before);

  // Against micro-batch instead: powers of two from 1 to 512 (the query's 2 is one), the core's
  // figure at the current batch, and the choice kept by the link.
  await page.getByTestId('plot-x').selectOption('batch');
  await page.waitForURL(/plot=batch/);
  assert.equal(await page.locator('#plot-seq-title').textContent(), 'Memory against micro-batch');
  await page.waitForFunction(() => document.querySelector('[data-testid=mem-curve]').getAttribute('points').trim().split(' ').length === 10);
  const pb = await points(curve);
  for (let i = 1; i < pb.length; i++) assert.ok(pb[i][0] > pb[i - 1][0] && pb[i][1] <= pb[i - 1][1], `batch point ${i}`);
  assert.match(await dot.locator('title').textContent(), /^2 micro-batch/);
  const atBatch2 = Number(await dot.getAttribute('cx'));
  assert.ok(pb.some(([x]) => Math.abs(x - atBatch2) < 0.06), 'the point is on the batch curve');
  await page.reload();
  await page.getByTestId('mem-curve').waitFor();
  assert.equal(await page.getByTestId('plot-x').inputValue(), 'batch');
  assert.equal((await points(curve)).length, 10);
  // Chosen from the keyboard: the title follows and the list keeps the focus.
  await page.getByTestId('plot-x').focus();
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => !/plot=batch/.test(location.search));
  assert.equal(await page.locator('#plot-seq-title').textContent(), 'Memory against sequence length');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'plot-x');
  assert.deepEqual(page.problems, []);
  // A bad value is reported like any bad key, and the plot keeps its default.
  const bad = await open('?v=1&plot=sideways');
  await bad.getByTestId('link-notice').waitFor();
  assert.match(await bad.getByTestId('link-notice').textContent(), /plot/);
  assert.equal(await bad.getByTestId('plot-x').inputValue(), 'seq');
});

test('the page shows the figures the CLI computes for the same query', async () => {
  const page = await open('?v=1&model=mistral-7b&method=lora&rank=64&batch=2&seq=4096&gpu=a100-80gb&units=gib');
  const q = coreQuery(page);
  const r = cli(q);
  // The page rounds to 2 decimals; it must show the CLI's figure correctly rounded.
  const same = (shown, bytes, what) => assert.ok(Math.abs(shown - bytes / GIB) <= 0.005 + 1e-9, `${what}: page ${shown}, CLI ${bytes / GIB}`);
  same(await total(page), r.memory.device, 'device');
  for (const term of ['weights', 'gradients', 'optimizer', 'activations', 'logits', 'overhead']) {
    same(num(await page.getByTestId(`mem-${term}`).textContent()), r.memory[term], term);
  }
  for (const [id, key] of [['mem-allocated', 'allocated'], ['mem-reserved', 'reserved']]) {
    same(num(await page.getByTestId(id).textContent()), r.memory[key], key);
  }
  if (r.cost?.cheapest) {
    const first = Number(await page.getByTestId('offer-row').first().getAttribute('data-best-usd'));
    assert.ok(Math.abs(first - r.cost.cheapest.usd_total) < 1e-6 * Math.max(1, first), `cheapest ${first} vs ${r.cost.cheapest.usd_total}`);
  }
});

test('framework switches (packing, compile, activation offloading, set_to_none, LoRA dropout) reach the link and the figures', async () => {
  const page = await open('?v=1&model=llama-3.1-8b&method=lora&batch=4&seq=4096&ckpt=full&framework=torchtune&units=gib');
  const before = await total(page);
  // "Profile default" until chosen: the link carries nothing.
  assert.equal(await page.getByTestId('act-offload').inputValue(), '');
  assert.doesNotMatch(page.url(), /act_offload|packing|compile|set_to_none/);
  await page.getByTestId('act-offload').selectOption('on');
  await page.waitForURL(/act_offload=1/);
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) < b, before);
  assert.ok(num(await page.getByTestId('mem-host').textContent()) > 0, 'offloaded activations count in host RAM');
  await page.getByTestId('packing').selectOption('on');
  await page.waitForURL(/packing=1/);
  await page.getByTestId('compile').selectOption('off');
  await page.waitForURL(/compile=0/);
  // Gradients kept between steps (torch 1.x zero_grad) add to the live tensors' peak; the
  // allocator's cached blocks may already hold them, so reserved need not grow.
  const allocated = async () => num(await page.getByTestId('mem-allocated').textContent());
  const freed = await allocated();
  await page.getByTestId('set-to-none').uncheck();
  await page.waitForURL(/set_to_none=0/);
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=mem-allocated]').textContent.replace(/[^0-9.]/g, '')) > b, freed);
  // LoRA dropout shows the profile's value (torchtune: 0) until set; above 0 PEFT keeps a
  // mask and an input copy per target module, so memory grows.
  assert.equal(await page.getByTestId('lora-dropout-input').inputValue(), '0');
  const noDropout = await total(page);
  await page.getByTestId('lora-dropout-input').fill('0.1');
  await page.getByTestId('lora-dropout-input').press('Enter');
  await page.waitForURL(/lora_dropout=0\.1/);
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) > b, noDropout);
  // Whatever was chosen, the page shows the CLI's figure for its own link.
  const r = cli(coreQuery(page));
  assert.ok(Math.abs(await total(page) - r.memory.device / GIB) <= 0.005 + 1e-9);
  // Back to the profile's default drops the key.
  await page.getByTestId('act-offload').selectOption('');
  await page.waitForFunction(() => !location.search.includes('act_offload'));
  assert.deepEqual(page.problems, []);
});

test('the autocast switch shows for 16-bit precisions and reaches the link and the figures', async () => {
  // Llama 3.1 8B, LoRA without checkpointing: under the Trainer's bf16 flag (hf's default)
  // PEFT's fp32 adapters keep 16-bit casts of their inputs; without it, fp32 copies.
  const page = await open('?v=2&model=llama-3.1-8b&method=lora&batch=4&seq=2048&ckpt=none&units=gib');
  const on = await total(page);
  assert.equal(await page.getByTestId('autocast').inputValue(), '');
  assert.doesNotMatch(page.url(), /autocast/);
  await page.getByTestId('autocast').selectOption('off');
  await page.waitForURL(/autocast=0/);
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) > b + 10, on);
  const r = cli(coreQuery(page));
  assert.ok(Math.abs(await total(page) - r.memory.device / GIB) <= 0.005 + 1e-9);
  // `*-mixed` is an fp32 model under autocast by definition: no switch to show.
  await page.getByTestId('precision').selectOption('bf16-mixed');
  await page.waitForURL(/precision=bf16-mixed/);
  await page.waitForFunction(() => !document.querySelector('[data-testid=autocast]'));
  assert.deepEqual(page.problems, []);
});

test('out-of-range and non-numeric typed values are clamped or refused, visibly', async () => {
  const page = await open();
  await page.getByTestId('seq-input').fill('99999999');
  await page.getByTestId('seq-input').press('Enter');
  assert.equal(await page.getByTestId('seq-input').inputValue(), '131072');
  assert.match(await page.getByTestId('seq-msg').textContent(), /131072/);
  await page.getByTestId('rank-input').fill('zero');
  await page.getByTestId('rank-input').press('Tab');
  assert.match(await page.getByTestId('rank-msg').textContent(), /zero/);
  assert.equal(await page.getByTestId('rank-input').inputValue(), '16');
  const body = await page.locator('body').innerText();
  assert.doesNotMatch(body, /NaN|undefined|Infinity/);
  assert.deepEqual(page.problems, []);
});

test('hostile links never break the page; bad keys are listed and dismissible', async () => {
  const links = [
    '?v=1&batch=%3Cscript%3Ealert(1)%3C/script%3E&seq=4096',
    '?v=1&seq=99999999999999999999999&rank=1e400&params=1e30',
    '?v=1&model=%F0%9F%A6%99&gpus=-1&gpus=2&%E2%82%AC=1',
    '?v=1&seq=40',
    '?v=2&&&=&batch',
    '?v=1&params=100t&seq=10000000&batch=65536',
  ];
  for (const link of links) {
    const page = await open(link);
    const body = await page.locator('body').innerText();
    assert.doesNotMatch(body, /NaN|undefined|Infinity/, link);
    assert.ok(body.length > 200, `page not blank for ${link}`);
    assert.deepEqual(page.problems, [], link);
    await page.close();
  }
  const page = await open('?v=1&batch=abc&seq=4096');
  await page.getByTestId('link-notice').waitFor();
  assert.match(await page.getByTestId('link-notice').textContent(), /batch/);
  assert.equal(await page.getByTestId('seq-input').inputValue(), '4096');
  await page.getByTestId('dismiss-notice').click();
  assert.equal(await page.getByTestId('link-notice').count(), 0);
});

test('a link reproduces the state after a reload', async () => {
  const page = await open();
  await page.getByTestId('method').selectOption('lora');
  await page.getByTestId('rank-input').fill('64');
  await page.getByTestId('units-gb').check();
  const before = [await total(page), page.url()];
  await page.reload();
  await page.getByTestId('total-device').waitFor();
  assert.equal(await page.getByTestId('rank-input').inputValue(), '64');
  assert.equal(await page.getByTestId('units-symbol').textContent(), 'GB');
  assert.deepEqual([await total(page), page.url()], before);
});

test('fits a 360 px phone without sideways scrolling', async () => {
  const page = await open('', { viewport: { width: 360, height: 740 } });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width}px wide`);
});

test('on a phone the tables are cards: every cell in view with its column\'s name, plot text at least 11 px', async () => {
  const page = await open('?v=1', { viewport: { width: 390, height: 844 }, isMobile: true });
  await page.getByTestId('offer-row').first().waitFor();
  const cells = await page.evaluate(() => [...document.querySelectorAll('table.data td')].map((td) => {
    const r = td.getBoundingClientRect();
    return { right: r.right, label: getComputedStyle(td, '::before').content };
  }));
  assert.ok(cells.length > 20);
  for (const c of cells) {
    assert.ok(c.right <= 390, `a cell ends at ${c.right}px`);
    assert.notEqual(c.label, 'none', 'each cell says its column');
  }
  // The sorted column (total cost) is in view on the first offer.
  assert.ok(await page.getByTestId('offer-row').first().locator('[data-testid=od-cost], [data-testid=spot-cost]').first().isVisible());
  const heights = await page.evaluate(() => [...document.querySelectorAll('svg.plot text')].map((t) => t.getBoundingClientRect().height));
  assert.ok(heights.length > 0);
  assert.ok(Math.min(...heights) >= 11, `smallest plot text ${Math.min(...heights).toFixed(1)}px`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
});

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');
const PHONE = { width: 390, height: 844 };
for (const [theme, viewport, lang] of [['light', undefined, 'en'], ['dark', undefined, 'en'], ['light', PHONE, 'en'], ['dark', PHONE, 'en'], ['dark', undefined, 'ru'], ['light', PHONE, 'ru']]) {
  test(`axe-core finds no accessibility violations (${theme}${viewport ? ', phone' : ''}, ${lang})`, async () => {
    // The page's CSP forbids inline scripts; the audit script is injected past it.
    const page = await open(`?v=1&theme=${theme}&lang=${lang}`, { bypassCSP: true, ...(viewport ? { viewport } : {}) });
    await page.getByTestId('offer-row').first().waitFor();
    await page.addScriptTag({ content: AXE });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const summary = result.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
    assert.deepEqual(summary, []);
  });
}

test('on a phone, choosing a GPU shows its verdict with the error band in the first screen', async () => {
  const page = await open('?v=1&model=llama-3.1-8b&method=qlora&batch=2&seq=2048&units=gib', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  assert.equal(await page.getByTestId('verdict').count(), 0, 'no GPU chosen, no verdict');
  for (const id of ['rtx-4090', 't4', 'h100-sxm']) {
    await page.getByTestId('gpu').selectOption(id);
    await page.waitForURL(new RegExp(`gpu=${id}`));
    const fit = cli(coreQuery(page)).fit;
    const v = page.getByTestId('verdict');
    await v.and(page.locator(`[data-verdict="${fit.verdict}"]`)).waitFor();
    const text = await v.textContent();
    assert.ok(text.includes(fit.verdict === 'fits' ? 'fits' : fit.verdict === 'tight' ? 'tight' : 'does not fit'), text);
    // The band's ends as the page shows them (GiB, two decimals).
    const shown = (text.match(/needed ([\d.,]+)\s*GiB to ([\d.,]+)\s*GiB/) ?? []).slice(1).map(num);
    assert.deepEqual(shown.map((x) => Math.round(x * 100)), [fit.band_low, fit.band_high].map((b) => Math.round(b / GIB * 100)), text);
    // Green only when the band's high end fits.
    assert.equal(fit.verdict === 'fits', fit.band_high <= fit.vram, id);
  }
  // The verdict is in the first screen of a 390×844 phone, the GPU choice right after the model.
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.getByTestId('verdict').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, JSON.stringify(box));
  const order = await page.evaluate(() => [...document.querySelectorAll('form.controls fieldset.group[data-testid]')].map((f) => f.dataset.testid).slice(0, 2));
  assert.deepEqual(order, ['model-section', 'target-gpu-section']);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a GPU that does not fit offers the core\'s fixes; clicking one that fits makes the verdict green', async () => {
  const page = await open('?v=1&model=llama-3.1-8b&method=qlora&gpu=rtx-4090&units=gib');
  const fixes = cli(coreQuery(page)).fixes;
  assert.ok(fixes.length > 0 && fixes.some((f) => f.fits));
  await page.getByTestId('fixes').waitFor();
  assert.deepEqual(await page.getByTestId('fix').evaluateAll((b) => b.map((x) => x.dataset.set)), fixes.map((f) => f.set));
  const good = fixes.find((f) => f.fits);
  await page.locator(`[data-testid=fix][data-set="${good.set}"]`).click();
  await page.locator('[data-testid=verdict][data-verdict=fits]').waitFor();
  for (const pair of good.set.split('&')) assert.ok(page.url().includes(pair), `${pair} in ${page.url()}`);
  assert.equal(await page.getByTestId('fixes').count(), 0, 'nothing left to fix');
  assert.ok(Math.abs(num(await page.getByTestId('summary-device').textContent()) - good.device / GIB) < 0.006);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('each offer row says its price per GPU-hour, region, date and confidence, and marks old prices', async () => {
  const Q = 'v=1&model=llama-3.1-8b&method=qlora&provider=aws';
  const page = await open('?' + Q);
  await page.getByTestId('cost-table').waitFor();
  const offers = cli(Q).cost.offers;
  // The first row's facts come from its on-demand price when it has one.
  const first = offers.find((o) => o.offer === offers[0].offer && o.instances === offers[0].instances && o.pricing === 'on-demand') ?? offers[0];
  const facts = (await page.getByTestId('offer-facts').first().textContent()).trim();
  const perGpu = (first.usd_per_hour / (first.gpus * first.instances));
  assert.ok(facts.includes(perGpu.toFixed(2)) && facts.includes('/GPU-h'), facts);
  assert.ok(facts.includes(first.snapshot_date) && facts.includes(first.confidence), facts);
  // The region comes from the lazily loaded module's own data (the first load has none).
  assert.ok(first.region && facts.includes(first.region), facts);
  // A price is marked old when its date (exact, or "~YYYY-MM" read as the month's first day) is more than 60 days before today.
  const ageDays = (Date.now() - Date.parse(first.snapshot_date.replace('~', '').padEnd(10, '-01').slice(0, 10))) / 864e5;
  assert.equal(facts.includes('older than 60 days'), ageDays > 60, facts);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('number boxes take what links take: 4k tokens, 2b training tokens', async () => {
  const page = await open('?v=1');
  for (const [id, typed, key, value] of [['seq', '4k', 'seq', '4000'], ['tokens', '2b', 'tokens', '2b']]) {
    const input = page.getByTestId(`${id}-input`);
    await input.fill(typed);
    await input.press('Enter');
    await page.waitForURL(new RegExp(`[?&]${key}=${value}(&|$)`));
  }
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the first screen holds at most 25 controls; Advanced says how many settings differ and opens for a link that sets them', async () => {
  const page = await open();
  // Visible, focusable form controls of the settings column on the default page.
  const visible = await page.evaluate(() => [...document.querySelectorAll('form.controls input, form.controls select, form.controls textarea, form.controls button, form.controls summary')]
    .filter((e) => e.checkVisibility() && !e.disabled && e.type !== 'hidden').length);
  assert.ok(visible <= 25, `${visible} visible controls`);
  const adv = page.getByTestId('advanced');
  assert.equal(await adv.evaluate((d) => d.open), false);
  assert.match(await page.getByTestId('advanced-summary').textContent(), /all at defaults/);
  // The model, GPU, method, micro-batch, sequence and job size stay in view.
  for (const id of ['preset', 'gpu', 'gpus-input', 'method', 'batch-input', 'seq-input', 'tokens-input']) {
    assert.ok(await page.getByTestId(id).isVisible(), id);
  }
  assert.equal(await page.getByTestId('framework').isVisible(), false);
  // Opening it shows the framework; choosing one is counted.
  await page.getByTestId('advanced-summary').click();
  await page.getByTestId('framework').selectOption('torchtune');
  await page.waitForURL(/framework=torchtune/);
  assert.match(await page.getByTestId('advanced-summary').textContent(), /1 setting differs/);
  // A link that sets advanced keys opens the disclosure by itself, in Russian with the plural.
  const ru = await open('?v=2&framework=torchtune&loss=fused-linear&ckpt=op&lang=ru');
  assert.equal(await ru.getByTestId('advanced').evaluate((d) => d.open), true);
  assert.match(await ru.getByTestId('advanced-summary').textContent(), /3 настройки не по умолчанию/);
  // A v=1 link's own default (fp32 weights under autocast) differs from today's, so it counts.
  const v1 = await open('?v=1');
  assert.match(await v1.getByTestId('advanced-summary').textContent(), /1 setting differs/);
  assert.equal(await v1.getByTestId('advanced').evaluate((d) => d.open), true);
  await v1.close();
  assert.deepEqual(page.problems, []);
  assert.deepEqual(ru.problems, []);
});

test('memory through one step: the replay drawn on request, with the GPU line and the peak named as the CLI names it', async () => {
  const q = 'v=1&model=llama-3.1-8b&method=lora&gpu=rtx-4090';
  const page = await open(`?${q}&units=gib`);
  assert.equal(await page.getByTestId('timeline-chart').count(), 0, 'nothing drawn while closed');
  await page.getByTestId('timeline').locator('summary').click();
  await page.getByTestId('timeline-chart').waitFor({ timeout: 15000 });
  for (const id of ['timeline-allocated', 'timeline-reserved', 'timeline-capacity']) assert.equal(await page.getByTestId(id).count(), 1, id);
  const r = JSON.parse(execFileSync('target/release/tunefit', ['estimate', '--json', '--timeline', q], { encoding: 'utf8' }));
  assert.ok(r.memory.peak_phase, 'the CLI names the peak');
  assert.ok((await page.getByTestId('timeline-peak').textContent()).includes(r.memory.peak_phase));
  // The chart follows the settings while open.
  const before = await page.getByTestId('timeline-allocated').getAttribute('points');
  await page.getByTestId('seq-input').fill('4096');
  await page.getByTestId('seq-input').press('Enter');
  await page.waitForFunction((b) => document.querySelector('[data-testid=timeline-allocated]')?.getAttribute('points') !== b, before);
  assert.deepEqual(page.problems, []);
});

test('providers must have: a ticked feature narrows the ranking to providers with it, as the CLI ranks, and rows say each provider\'s facts', async () => {
  const page = await open('?v=1&gpu=h100-sxm&units=gib');
  await page.getByTestId('offer-row').first().waitFor();
  assert.match(await page.getByTestId('provider-facts').first().textContent(), /billing/);
  await openAdvanced(page);
  await page.getByTestId('need-per-second').check();
  await page.waitForURL(/need=per-second/);
  const want = cli(coreQuery(page)).cost.offers.length;
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=provider-facts]')].every((f) => f.textContent.includes('per-second billing')));
  const facts = await page.getByTestId('provider-facts').allTextContents();
  assert.ok(facts.length > 0 && facts.every((f) => /per-second billing/.test(f)), facts.join('\n'));
  assert.ok(want > 0 && want < cli('v=1&gpu=h100-sxm').cost.offers.length);
  await page.getByTestId('need-per-second').uncheck();
  await page.waitForFunction(() => !location.search.includes('need='));
  assert.deepEqual(page.problems, []);
});

test('idle time between runs is priced: typing it reaches the link, and when per-hour billing changes the winner the ranking says so, as the CLI does', async () => {
  const page = await open('?v=1&model=llama-3.1-8b&method=lora&tokens=20m&runs=10&pricing=on-demand&units=gib');
  await page.getByTestId('offer-row').first().waitFor();
  // The page says what the CLI says for the same link, before and after.
  const said0 = cli(coreQuery(page)).cost.warnings.filter((w) => w.code === 'extras_change_winner');
  assert.equal(await page.locator('[data-code=extras_change_winner]').count(), said0.length);
  const before = num(await page.getByTestId('od-cost').first().getAttribute('data-usd'));
  await openAdvanced(page);
  await page.getByTestId('idle-input').fill('45');
  await page.getByTestId('idle-input').press('Enter');
  await page.waitForURL(/idle_min=45/);
  await page.locator('[data-code=extras_change_winner]').waitFor();
  const cost = cli(coreQuery(page)).cost;
  const said = cost.warnings.find((w) => w.code === 'extras_change_winner');
  assert.equal(await page.locator('[data-code=extras_change_winner]').textContent(), said.message);
  assert.notEqual(said.message, said0[0]?.message, 'the idle sessions change what is said');
  // The cheapest total grows with the billed idle time.
  assert.ok(cost.cheapest.usd_total > before, `${cost.cheapest.usd_total} vs ${before}`);
  assert.deepEqual(page.problems, []);
});

test('70B full fine-tuning on 3 nodes is priced as set: the time, the GPU table, the summary and the offers agree with the CLI', async () => {
  const page = await open('?v=2&model=llama-3.1-70b&method=full&gpus=24&nodes=3&shard=fsdp&gpu=h100-sxm&units=gib');
  await page.getByTestId('cost-table').waitFor();
  const r = cli(coreQuery(page));
  assert.deepEqual([r.time.gpus, r.time.instances], [24, 3], 'nodes are not multiplied into the GPU count');
  assert.ok((await page.getByTestId('summary-time').textContent()).includes('24 × h100-sxm'));
  assert.ok((await page.getByTestId('time-summary').textContent()).includes('24 × h100-sxm'));
  // The GPU table's verdict for the chosen GPU is the summary's and the CLI's.
  const words = { fits: 'fits', tight: 'tight', 'does-not-fit': 'does not fit' };
  assert.equal((await page.getByTestId('gpu-row-h100-sxm').getByTestId('fit-status').textContent()).trim(), words[r.fit.verdict]);
  assert.equal(await page.getByTestId('verdict').getAttribute('data-verdict'), r.fit.verdict);
  // The cheapest offer says its own GPU count, so it never reads as the time's 24.
  const c = r.cost.cheapest;
  assert.ok((await page.getByTestId('summary-cost').textContent()).includes(`${c.gpus * c.instances} × ${c.gpu}`));
  // The person's own layout, 3 instances of 8, is among the offers, timed as the time card.
  const own = r.cost.offers.filter((o) => o.instances === 3 && o.gpus === 8);
  assert.ok(own.length > 0, 'no 3-instance offer');
  assert.ok(own.some((o) => o.pricing === 'on-demand' && Math.abs(o.hours - r.time.hours) / r.time.hours < 0.05), `${own.map((o) => o.hours)} vs ${r.time.hours}`);
  const rows = await page.getByTestId('offer-row').allTextContents();
  assert.ok(rows.some((t) => /(^|[^0-9])3 × 8 × /.test(t)), 'no row of 3 instances of 8 GPUs on the page');
  assert.ok(!(await page.getByTestId('recommendation').textContent()).includes('No offer'), 'says no offer fits');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a v=1 link keeps its figures and stays v=1; a large figure says why beside it, in the page\'s language', async () => {
  const old = await open('?v=1&model=llama-2-7b&method=lora&units=gib');
  assert.ok(Math.abs(await total(old) - cli('v=1&model=llama-2-7b&method=lora').memory.device / GIB) <= 0.005 + 1e-9);
  assert.ok(new URL(old.url()).search.startsWith('?v=1&'), old.url());
  const why = await old.getByTestId('why-weights').textContent();
  assert.ok(why.includes('fp32') && why.includes('precision=bf16-true'), why);
  assert.ok((await old.getByTestId('why-activations').textContent()).includes('ckpt=full'));
  await old.close();
  // The current defaults: the checkpoint's bf16 and TRL's checkpointing, so neither sentence.
  const now = await open('?v=2&model=llama-2-7b&method=lora&units=gib');
  assert.ok(Math.abs(await total(now) - cli('v=2&model=llama-2-7b&method=lora').memory.device / GIB) <= 0.005 + 1e-9);
  assert.ok(await total(now) < 30, `${await total(now)} GiB`);
  assert.equal(await now.getByTestId('why-weights').count(), 0);
  assert.equal(await now.getByTestId('why-activations').count(), 0);
  await now.close();
  // The default page: Llama 3.1's 128,256-token vocabulary makes the logits large.
  const ru = await open('?lang=ru');
  const logits = await ru.getByTestId('why-logits').textContent();
  assert.ok(logits.includes('128256') && /[а-я]/.test(logits), logits);
  assert.deepEqual(ru.problems, []);
  await ru.close();
});

/** Waits until the address (kept by history.replaceState, no navigation) matches `re`. */
const urlMatches = (page, re) => page.waitForFunction((src) => new RegExp(src).test(location.href), re.source);

test('a custom size: the parameter count and architecture fields reach the link; back to a preset drops them', async () => {
  const page = await open();
  const before = await total(page);
  await page.getByTestId('source-custom').check();
  // It starts from the size shown (Llama 3.1 8B), so switching does not jump.
  await urlMatches(page, /params=\d+/);
  assert.doesNotMatch(page.url(), /model=/);
  assert.match(await page.getByTestId('params-input').inputValue(), /^8[.,]0\d*$/);
  await page.getByTestId('params-input').fill('70');
  await page.getByTestId('params-input').press('Enter');
  await urlMatches(page, /params=70b(&|$)/);
  assert.ok(await total(page) > before, 'a 70B model needs more than the 8B one');

  await page.locator('details.arch summary').click();
  await page.getByTestId('arch-layers').fill('80');
  await page.getByTestId('arch-layers').press('Enter');
  await urlMatches(page, /layers=80/);
  await page.getByTestId('arch-layers').fill('abc');
  await page.getByTestId('arch-layers').press('Enter');
  await page.getByTestId('arch-layers-msg').filter({ hasText: 'abc' }).waitFor();
  assert.match(page.url(), /layers=80/, 'a non-number changes nothing');
  // Past the key's own range (the core's: at most 1000 layers) it says so, and changes nothing.
  await page.getByTestId('arch-layers').fill('5000');
  await page.getByTestId('arch-layers').press('Enter');
  await page.getByTestId('arch-layers-msg').filter({ hasText: /layers.*1000/ }).waitFor();
  assert.match(page.url(), /layers=80/);
  await page.getByTestId('arch-layers').fill('');
  await page.getByTestId('arch-layers').press('Enter');
  await urlMatches(page, /^(?!.*layers=)/);

  // Back to the presets: the default model, which a canonical link leaves out.
  await page.getByTestId('source-preset').check();
  await urlMatches(page, /^(?!.*(params|layers)=)/);
  assert.equal(await page.getByTestId('preset').inputValue(), 'llama-3.1-8b');
  assert.equal(await total(page), before);
  assert.deepEqual(page.problems, []);
});

test('a vision encoder: picked from the list, its image size replaces the sequence, the figures follow the CLI\'s and a fix says the trained side', async () => {
  const page = await open('?v=2&model=qwen2.5-vl-7b&images=2&image_res=1024&gpu=rtx-4090&units=gib');
  await Promise.all([page.waitForURL(/model=vit-l/), page.getByTestId('preset').selectOption('vit-l')]);
  // The sequence is the image's patches: no sequence slider, the image box empty (224, the
  // side ViT-L/16 was trained at), and the VLM's images and size gone from the link.
  await page.waitForFunction(() => !document.querySelector('[data-testid=seq-input]'));
  assert.equal(await page.getByTestId('images-input').count(), 0);
  // Its dataset is counted in images, and the memory plot is against the micro-batch.
  assert.equal(await page.getByTestId('tokens-input').count(), 0);
  assert.equal(await page.getByTestId('dataset-images-input').count(), 1);
  assert.equal(await page.locator('#plot-x').inputValue(), 'batch');
  // Its micro-batch is images, not sequences.
  assert.match(await page.getByTestId('batch-range').getAttribute('aria-valuetext'), /^\d+ images$/);
  assert.equal(await page.getByTestId('image-res').inputValue(), '');
  assert.doesNotMatch(page.url(), /images=|image_res=/);
  const before = await total(page);
  await page.getByTestId('image-res').fill('518');
  await page.getByTestId('image-res').press('Enter');
  await page.waitForURL(/image_res=518/);
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) > b, before);
  const r = cli(coreQuery(page));
  assert.ok(Math.abs(await total(page) - r.memory.device / GIB) <= 0.005 + 1e-9, `${await total(page)} vs ${r.memory.device / GIB}`);
  assert.deepEqual(page.problems, []);
  await page.close();
  // 1024 px images (4,097 tokens) without checkpointing do not fit a 24 GB card; among the
  // fixes is going back to the trained 224 px, and clicking it sets the link.
  const big = await open('?v=2&model=vit-l&method=full&precision=bf16-true&batch=8&ckpt=none&image_res=1024&gpu=rtx-4090&units=gib');
  const fix = big.locator('[data-testid=fix][data-set="image_res=224"]');
  await fix.waitFor();
  await Promise.all([big.waitForURL(/image_res=224/), fix.click()]);
  assert.doesNotMatch(await big.locator('body').innerText(), /NaN|undefined|Infinity/);
  assert.deepEqual(big.problems, []);
});

test('Whisper: picked from the list, its sequence becomes its 448 label positions, batch and dataset count clips, the figures follow the CLI\'s', async () => {
  const page = await open('?v=2&seq=2048&gpu=rtx-4090&units=gib');
  await Promise.all([page.waitForURL(/model=whisper-small/), page.getByTestId('preset').selectOption('whisper-small')]);
  // A 2048-token sequence is longer than the decoder's 448 learned positions: the page takes
  // the longest the checkpoint reads instead of refusing the model.
  await page.waitForURL(/seq=448/);
  assert.equal(await page.getByTestId('seq-input').inputValue(), '448');
  // The dataset keeps its samples: 10M tokens of 2048 are 4882 clips (the link writes 4.882k).
  assert.match(page.url(), /tokens=4\.882k(&|$)/);
  assert.match(await page.locator('label[for=seq]').innerText(), /Label tokens per clip/);
  // Its samples are 30 s clips: the micro-batch and the dataset are counted in clips.
  assert.match(await page.getByTestId('batch-range').getAttribute('aria-valuetext'), /^\d+ clips$/);
  assert.equal(await page.getByTestId('tokens-input').count(), 0);
  assert.equal(await page.getByTestId('dataset-clips-input').count(), 1);
  await page.getByTestId('seq-input').fill('128');
  await page.getByTestId('seq-input').press('Enter');
  await page.waitForURL(/seq=128/);
  const r = cli(coreQuery(page));
  await page.waitForFunction((want) => Math.abs(Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) - want) <= 0.005 + 1e-9, r.memory.device / GIB);
  // Past 448 labels the core refuses, naming the key; the page says so and keeps the rest.
  await page.getByTestId('seq-input').fill('600');
  await page.getByTestId('seq-input').press('Enter');
  await page.waitForFunction(() => /448/.test(document.body.innerText) && /seq/.test(document.body.innerText));
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|undefined|Infinity/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('Segment Anything: picked from the list, no image size to choose, its mask decoder trained alone at train_layers 0, the figures and the peak\'s moment the CLI\'s', async () => {
  const page = await open('?v=2&model=vit-l&image_res=384&attn=flash&gpu=t4&units=gib');
  await Promise.all([page.waitForURL(/model=sam-vit-base/), page.getByTestId('preset').selectOption('sam-vit-base')]);
  // SAM reads 1024x1024 only and has no flash path: the ViT's side and kernel are not carried over.
  assert.doesNotMatch(page.url(), /image_res=|attn=flash/);
  assert.equal(await page.getByTestId('image-res').count(), 0);
  assert.match(await page.getByTestId('batch-range').getAttribute('aria-valuetext'), /^\d+ images$/);
  // Nor does it offer what SAM is refused: the language models' methods, flash attention.
  const options = async (id) => page.getByTestId(id).locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(!(await options('method')).includes('prefix'));
  await openAdvanced(page);
  assert.ok(!(await options('attn')).includes('flash'));
  assert.ok((await options('attn')).includes('eager'));
  // The fine-tuning notebook's recipe: freeze with no block trained, fp32, two images.
  await page.getByTestId('method').selectOption('freeze');
  await page.waitForURL(/method=freeze/);
  for (const [id, v] of [['train-layers-input', '0'], ['batch-input', '2']]) {
    await page.getByTestId(id).fill(v);
    await page.getByTestId(id).press('Enter');
  }
  await page.waitForURL(/train_layers=0/);
  await page.waitForURL(/batch=2(&|$)/);
  const r = cli(coreQuery(page));
  assert.equal(r.model.trainable_params, 4058340);
  await page.waitForFunction((want) => Math.abs(Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) - want) <= 0.005 + 1e-9, r.memory.device / GIB);
  // The peak is a frozen global-attention block's forward: the page names it.
  assert.match(r.memory.peak_phase, /global-attention/);
  await page.waitForFunction(() => /global-attention/.test(document.body.innerText));
  // Another image side is refused by its key; the rest of the settings stay.
  await page.goto(page.url() + '&image_res=512');
  await page.waitForFunction(() => /image_res/.test(document.body.innerText) && /1024/.test(document.body.innerText));
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|undefined|Infinity/);
  assert.deepEqual(page.problems, []);
  await page.close();
  // A language model is offered both.
  const lm = await open('?v=2&model=llama-3.1-8b');
  await openAdvanced(lm);
  const lmOptions = async (id) => lm.getByTestId(id).locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok((await lmOptions('method')).includes('prefix') && (await lmOptions('attn')).includes('flash'));
  await lm.close();
});

test('a vision-language model: images per sample and their size appear only for it, reach the link and the CLI\'s figures, and a bad size is said', async () => {
  // A text model shows no image fields.
  const text = await open('?v=2&model=llama-3.1-8b');
  assert.equal(await text.getByTestId('images-input').count(), 0);
  assert.equal(await text.getByTestId('image-res').count(), 0);
  await text.close();
  const page = await open('?v=2&model=qwen2.5-vl-7b&method=lora&seq=4096&gpu=l40s&units=gib');
  const before = await total(page);
  await page.getByTestId('images-input').fill('4');
  await page.getByTestId('images-input').press('Enter');
  await page.waitForURL(/images=4/);
  // 4 images of the default 756² hold 4 × 729 visual tokens inside seq; a frozen tower keeps
  // nothing, so the step's memory is unchanged but the images are said.
  await page.getByTestId('image-res').fill('1024x768');
  await page.getByTestId('image-res').press('Enter');
  await page.waitForURL(/image_res=1024x768/);
  await page.getByTestId('advanced-summary').click();
  await page.getByTestId('tower').selectOption('lora');
  await page.waitForURL(/tower=lora/);
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=total-device]').textContent.replace(/[^0-9.]/g, '')) > b, before);
  const r = cli(coreQuery(page));
  assert.ok(Math.abs(await total(page) - r.memory.device / GIB) <= 0.005 + 1e-9, `${await total(page)} vs ${r.memory.device / GIB}`);
  assert.ok(r.warnings.some((w) => w.code === 'vision-images' && /999 visual tokens/.test(w.message)), JSON.stringify(r.warnings));
  // A size the core refuses is said beside the box, and the link keeps the last good one.
  await page.getByTestId('image-res').fill('wide');
  await page.getByTestId('image-res').press('Enter');
  assert.match(await page.getByTestId('image-res-msg').textContent(), /image_res/);
  assert.match(page.url(), /image_res=1024x768/);
  // Emptying it goes back to the model's own size.
  await page.getByTestId('image-res').fill('');
  await page.getByTestId('image-res').press('Enter');
  await page.waitForFunction(() => !location.search.includes('image_res'));
  // Too many images for the sequence: the page says which key to change, never a blank.
  await page.getByTestId('images-input').fill('16');
  await page.getByTestId('images-input').press('Enter');
  await page.waitForURL(/images=16/);
  await page.waitForFunction(() => /visual tokens/.test(document.body.innerText));
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN|undefined|Infinity/);
  assert.deepEqual(page.problems, []);
});
