// Image and video diffusion models (docs/diffusion.md): a link whose model is a diffusion
// preset opens their page, the same link the CLI takes; a person picks FLUX.1 from the
// language models' picker, chooses their GPU, quantizes the base until it fits, and the link
// follows; a bad value is named while the fields keep what the link said; Russian too.
import { test, before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { serve, launch, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open(search) {
  const page = await openPage(browser, server.url + search);
  await page.locator('#prerender').waitFor({ state: 'detached' });
  return page;
}

const gib = async (page) => Number((await page.getByTestId('dit-device').textContent()).replace(',', '.').replace(/[^0-9.]/g, ''));

test('diffusion: from the picker to a verdict on an RTX 4090, fp8 makes FLUX.1 fit, the link reproduces it', async () => {
  const page = await open('?v=2');
  await page.getByTestId('memory-panel').waitFor();
  await Promise.all([page.waitForURL(/model=flux\.1-dev/), page.getByTestId('preset').selectOption('dit:flux.1-dev')]);
  await page.getByTestId('dit-device').waitFor();
  const bf16 = await gib(page);
  // 11.9B bf16 weights alone are 22.2 GiB.
  assert.ok(bf16 > 22 && bf16 < 30, `${bf16} GiB`);

  await page.getByTestId('dit-gpu').selectOption('rtx-4090');
  await page.getByTestId('dit-verdict').waitFor();
  assert.match(await page.getByTestId('dit-verdict').textContent(), /does not fit|tight/);
  await page.locator('[data-key=weights]').selectOption('fp8');
  await page.waitForFunction(() => /fits/.test(document.querySelector('[data-testid=dit-verdict]')?.textContent ?? '')
    && !/not/.test(document.querySelector('[data-testid=dit-verdict]').textContent));
  const fp8 = await gib(page);
  assert.ok(fp8 < bf16 - 10, `${fp8} against ${bf16}`);
  assert.match(page.url(), /gpu=rtx-4090/);
  assert.match(page.url(), /weights=fp8/);
  // Time and cost on that GPU, said as the lower bounds they are.
  const time = await page.getByTestId('dit-time').textContent();
  assert.match(time, /lower bound/);
  assert.match(time, /At least [0-9.]+ s a step; 1000 steps: at least [0-9.]+ h; at least \$[0-9.]+ at \$[0-9.]+ per GPU-hour/);
  await page.locator('[data-key=steps]').fill('2000');
  await page.locator('[data-key=steps]').dispatchEvent('change');
  await page.waitForFunction(() => /2000 steps/.test(document.querySelector('[data-testid=dit-time]')?.textContent ?? ''));
  assert.match(page.url(), /steps=2000/);

  // The link alone brings the same figure back.
  const again = await open('?' + page.url().split('?')[1]);
  await again.getByTestId('dit-device').waitFor();
  assert.equal(await gib(again), fp8);
  assert.deepEqual([...page.problems, ...again.problems], []);
});

test('diffusion: a video model shows frames, a bad value is named and kept, Russian reads Russian', async () => {
  const page = await open('?model=wan2.1-14b&res=832x480&frames=81&swap=40');
  await page.getByTestId('dit-device').waitFor();
  assert.equal(await page.locator('[data-key=frames]').inputValue(), '81');
  const before = await gib(page);
  await page.locator('[data-key=frames]').fill('41');
  await page.locator('[data-key=frames]').press('Enter');
  await page.locator('[data-key=frames]').dispatchEvent('change');
  await page.waitForFunction((b) => {
    const t = document.querySelector('[data-testid=dit-device]')?.textContent ?? '';
    return t && Number(t.replace(/[^0-9.]/g, '')) < b;
  }, before);

  const bad = await open('?model=flux.1-dev&res=abc&batch=0');
  await bad.getByTestId('dit-errors').waitFor();
  const text = await bad.getByTestId('dit-errors').textContent();
  assert.match(text, /res/);
  assert.match(text, /batch/);
  assert.equal(await bad.locator('[data-key=res]').inputValue(), 'abc', 'what the link said stays in its field');
  assert.equal(await bad.getByTestId('dit-device').count(), 0, 'no figure from a link that does not parse');
  // A key of another model has no field to mend it in: its button takes it out of the link.
  const other = await open('?model=flux.1-dev&frames=81');
  await other.getByTestId('dit-errors').waitFor();
  await other.locator('[data-act="drop:frames"]').click();
  await other.getByTestId('dit-device').waitFor();
  assert.doesNotMatch(other.url(), /frames=/);

  // The page's own keys (the widget's `embed`, the language models' `v`) are not the run's.
  const embed = await open('?v=2&model=flux.1-dev&embed=1');
  await embed.getByTestId('dit-device').waitFor();
  assert.equal(await embed.getByTestId('dit-errors').count(), 0);
  assert.match(embed.url(), /embed=1/);

  const ru = await open('?model=qwen-image&lang=ru&gpu=h100-sxm');
  await ru.getByTestId('dit-verdict').waitFor();
  assert.match(await ru.getByTestId('dit-results').textContent(), /помещается|впритык/);
  assert.match(await ru.locator('h2').first().textContent(), /диффузия/);
  assert.deepEqual([...page.problems, ...bad.problems, ...other.problems, ...embed.problems, ...ru.problems], []);
});

test('diffusion: a full SDXL fine-tune too large for an RTX 4090 names its fixes, a click applies one', async () => {
  // A person on a 24 GB card trains SDXL with every weight, T5-free but with its encoders and
  // VAE on the GPU: the page lists what lowers the memory, free changes first.
  const page = await open('?model=sdxl&method=full&optim=adamw&text_enc=gpu&latents=encode&gpu=rtx-4090');
  await page.getByTestId('dit-fixes').waitFor();
  assert.match(await page.getByTestId('dit-verdict').textContent(), /does not fit|tight/);
  const fixes = page.getByTestId('dit-fix');
  assert.equal(await fixes.first().textContent(), 'text_enc=cached');
  // The fix that fits on its own is LoRA; its figure is the one the page shows after the click.
  const lora = page.locator('[data-act="set:method=lora"]');
  const item = await lora.locator('xpath=..').textContent();
  assert.match(item, /fits/);
  const promised = Number(item.replace('method=lora', '').replace(/[^0-9.]/g, ' ').trim().split(/\s+/)[0]);
  await lora.click();
  await page.waitForURL(/method=lora/);
  await page.waitForFunction(() => /fits/.test(document.querySelector('[data-testid=dit-verdict]')?.textContent ?? '')
    && !/not/.test(document.querySelector('[data-testid=dit-verdict]').textContent));
  assert.equal(await gib(page), promised);
  assert.equal(await page.getByTestId('dit-fixes').count(), 0, 'a run that fits needs no fix');
  // Every GPU's verdict for this run, one row per GPU of the picker; choosing the T4 from the
  // table makes it the run's GPU.
  const t4 = page.getByTestId('dit-gpu-row-t4');
  assert.match(await page.getByTestId('dit-gpu-row-rtx-4090').getAttribute('class'), /selected/);
  await t4.locator('button').click();
  await page.waitForURL(/gpu=t4/);
  await page.waitForFunction(() => document.querySelector('[data-testid=dit-gpu-row-t4]')?.classList.contains('selected'));
  assert.equal(await page.getByTestId('dit-gpus').locator('tbody tr').count(), await page.locator('[data-key=gpu] option').count() - 1);
  assert.deepEqual([...page.problems], []);
});

test('diffusion: full FLUX.1 on one H100 does not fit; the fix that shards it over two GPUs does, and says so', async () => {
  const page = await open('?model=flux.1-dev&method=full&gpu=h100-sxm');
  await page.getByTestId('dit-fixes').waitFor();
  assert.match(await page.getByTestId('dit-verdict').textContent(), /does not fit/);
  // One GPU: no sharding field, the cost for one GPU.
  assert.equal(await page.locator('[data-key=shard]').count(), 0);
  assert.doesNotMatch(await page.getByTestId('dit-time').textContent(), /on \d+ GPUs/);
  const more = page.locator('[data-act="set:gpus=2&shard=fsdp"]');
  const item = await more.locator('xpath=..').textContent();
  assert.match(item, /fits/);
  const promised = Number(item.replace('gpus=2&shard=fsdp', '').replace(/[^0-9.]/g, ' ').trim().split(/\s+/)[0]);
  await more.click();
  await page.waitForURL(/gpus=2/);
  await page.waitForFunction(() => /fits/.test(document.querySelector('[data-testid=dit-verdict]')?.textContent ?? '')
    && !/not/.test(document.querySelector('[data-testid=dit-verdict]').textContent));
  assert.equal(await gib(page), promised);
  // The run now shows its two GPUs: the field, the sharding choice, the cost on both.
  assert.equal(await page.locator('[data-key=gpus]').inputValue(), '2');
  assert.equal(await page.locator('[data-key=shard]').inputValue(), 'fsdp');
  assert.match(await page.getByTestId('dit-time').textContent(), /on 2 GPUs/);
  // The memory through one step, under the H100's line, opens as the language models' does.
  const chart = page.getByTestId('dit-timeline');
  assert.equal(await chart.locator('svg').isVisible(), false, 'closed until asked');
  await chart.locator('summary').click();
  assert.ok(await chart.getByTestId('timeline-allocated').isVisible());
  const capacity = Number(await chart.getByTestId('timeline-capacity').getAttribute('y1'));
  const lowest = Math.min(...(await chart.getByTestId('timeline-allocated').getAttribute('points'))
    .split(' ').map((p) => Number(p.split(',')[1])));
  assert.ok(lowest > capacity, 'the curve stays below the GPU line on a run that fits');
  assert.match(await chart.getByTestId('timeline-peak').textContent(), /^Peak: /);
  // DDP on the same two GPUs keeps a whole copy on each: it no longer fits.
  await page.locator('[data-key=shard]').selectOption('ddp');
  await page.waitForURL(/shard=ddp/);
  await page.waitForFunction(() => /does not fit/.test(document.querySelector('[data-testid=dit-verdict]')?.textContent ?? ''));
  assert.deepEqual([...page.problems], []);
});

test('diffusion: the embed names its run and links back, compact and unclipped from 320 to 800 px', async () => {
  for (const width of [320, 420, 800]) {
    const page = await openPage(browser, server.url + '?model=sdxl&gpu=rtx-4090&method=full&optim=adamw&embed=1', { viewport: { width, height: 900 } });
    await page.getByTestId('dit-verdict').waitFor();
    const head = page.getByTestId('embed-head');
    assert.ok(await head.isVisible());
    assert.match(await head.textContent(), /Stable Diffusion XL 1\.0 · full · RTX 4090/);
    const href = await page.getByTestId('embed-open').getAttribute('href');
    assert.match(href, /model=sdxl/);
    assert.doesNotMatch(href, /embed=/);
    // Compact: the verdict and the memory; the fields, fixes and GPU table are the full page's.
    assert.equal(await page.locator('[data-key=model]').isVisible(), false);
    assert.equal(await page.getByTestId('dit-fixes').isVisible(), false);
    assert.equal(await page.getByTestId('dit-every-gpu').isVisible(), false);
    const [scroll, height] = await page.evaluate(() => [document.documentElement.scrollWidth, document.querySelector('main').getBoundingClientRect().height]);
    assert.ok(scroll <= width, `${scroll}px wide at ${width}px`);
    assert.ok(height <= 700, `${height}px tall at ${width}px`);
    assert.deepEqual([...page.problems], []);
  }
});

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');
for (const [lang, viewport] of [['en', undefined], ['ru', { width: 390, height: 844 }]]) {
  test(`diffusion: axe-core finds no accessibility violations (${lang}${viewport ? ', phone' : ''})`, async () => {
    const page = await openPage(browser, server.url + `?model=flux.1-dev&gpu=rtx-4090&lang=${lang}`, { bypassCSP: true, ...(viewport ? { viewport } : {}) });
    await page.getByTestId('dit-fixes').waitFor();
    await page.addScriptTag({ content: AXE });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`), []);
  });
}

test('diffusion: HiDream from the picker; a portrait bucket costs what 1024² does, one past 4096 tokens is named', async () => {
  const page = await open('?v=2');
  await page.getByTestId('memory-panel').waitFor();
  await Promise.all([page.waitForURL(/model=hidream-i1-full/), page.getByTestId('preset').selectOption('dit:hidream-i1-full')]);
  await page.getByTestId('dit-device').waitFor();
  const square = await gib(page);
  // 17.1B bf16 weights alone are 31.9 GiB.
  assert.ok(square > 32 && square < 45, `${square} GiB`);

  // HiDream pads a non-square latent to 4,096 tokens: 832x1216 holds what 1024² holds, and says why.
  const portrait = await open('?model=hidream-i1-full&res=832x1216');
  await portrait.getByTestId('dit-device').waitFor();
  assert.equal(await gib(portrait), square);
  assert.match(await portrait.getByTestId('dit-results').textContent(), /not square: padded to 4096 tokens/);

  // A non-square image of more tokens fails in diffusers: named, no figure.
  const big = await open('?model=hidream-i1-full&res=1216x1664');
  await big.getByTestId('dit-errors').waitFor();
  assert.match(await big.getByTestId('dit-errors').textContent(), /res.*4096/s);
  assert.equal(await big.getByTestId('dit-device').count(), 0);
  assert.deepEqual([...page.problems, ...portrait.problems, ...big.problems], []);
});
