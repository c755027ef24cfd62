// The Russian page says every sentence in Russian (issue: "Russian covers every sentence on
// the page, formulas and assumptions included, with correct plural forms"). Representative
// links are opened with lang=ru, every disclosure is opened (the lazy panels too: the memory
// timeline, the plan, the config export), and every text a person reads is collected: visible
// text nodes, the options of visible selects, SVG titles, and the title, aria-label,
// placeholder and alt attributes. A run of three or more English words fails the test.
//
// What may stay Latin is decided by the shape of a word, not by a list of today's sentences:
// anything with a digit or a code character (query keys `ckpt=full`, ids `llama-3.1-8b`,
// `torch.cuda.max_memory_allocated`, `zero_grad`), acronyms and units (GPU, FSDP, GiB, TFLOPS),
// words with an inner capital (PyTorch, DeepSpeed, ZeRO, QLoRA, AdamW), the names of the
// dataset (GPUs, providers, instances and models, read from the CLI and the page itself), and
// a short list of software names that are written in lower case (torchtune, unsloth, ...).
// Code (pre, code, textarea) is code and is not read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const LINKS = {
  default: '',
  'full fine-tune of a 70B model sharded over 8 RTX 4090s (fixes, warnings)':
    'v=1&model=llama-3.1-70b&method=full&gpus=8&shard=fsdp&gpu=rtx-4090',
  'unsloth QLoRA on a T4': 'v=1&model=llama-3.1-8b&method=qlora&framework=unsloth&gpu=t4',
  'a bad value in the link': 'v=1&batch=-3&method=lora&gpu=a100-80gb',
  'a vision-language model whose tower\'s eager pass is the peak (the images, the overhead\'s reason)':
    'v=2&model=gemma-3-4b&method=lora&batch=1&seq=768&images=2&ckpt=full&loss=chunked&attn=eager&gpu=l4',
  'images that do not fit in the sequence': 'v=2&model=qwen2.5-vl-7b&images=8&seq=2048',
  'costs in rubles (the rate and its source)': 'v=2&gpu=a100-80gb&currency=rub',
  'a layout no framework can run (the page says why it cannot compute)': 'v=2&gpus=8&tp=3',
  'a model id the catalog does not have': 'v=2&model=llama-9-900b',
  'dense blocks beyond the model\'s blocks (the architecture check)':
    'v=2&model=custom&layers=2&hidden=64&heads=4&kv_heads=4&head_dim=16&ffn=128&vocab=100&dense_layers=5&dense_ffn=128',
  'latent attention that does not fit its heads (the architecture check)':
    'v=2&model=custom&layers=2&hidden=64&heads=4&kv_heads=4&head_dim=16&ffn=128&vocab=100&kv_rank=32&rope_dim=16&v_dim=16',
};

const cliJson = (...args) => JSON.parse(execFileSync('target/release/tunefit', [...args, '--json'], { encoding: 'utf8' }));

// Software whose name is spelled in lower case or as a plain word; everything else that may
// stay Latin is recognised by its shape (see `technical`).
const SOFTWARE = ['torch', 'torchtune', 'torchao', 'torchtitan', 'litgpt', 'unsloth', 'axolotl', 'bitsandbytes',
  'transformers', 'peft', 'liger', 'megatron', 'apex', 'flash', 'attention', 'hugging', 'face', 'huggingface',
  'trainer', 'accelerate', 'nvidia-smi', 'adafactor', 'lion', 'muon', 'galore', 'adamw', 'sgd', 'cut', 'llama-factory',
  'skypilot', 'spot', 'prefix', 'prompt', 'tuning', 'dropout', 'packing', 'markdown', 'json', 'csv', 'iframe', 'tunefit'];

/** Words of the dataset's names (GPUs, providers, instances, models, sources) that are names. */
let names;
async function datasetNames(page) {
  const words = new Set();
  const add = (s) => { for (const w of String(s ?? '').split(/[\s,()/·]+/)) if (w) words.add(w.toLowerCase()); };
  for (const g of cliJson('gpus')) { add(g.name); add(g.vendor); add(g.architecture); add(g.memory_type); add(g.interconnect); }
  for (const o of cliJson('offers')) { add(o.provider); add(o.instance); add(o.tier); add(o.via); }
  // The presets' names, as the page lists them.
  for (const t of await page.getByTestId('preset').locator('option').allTextContents()) add(t);
  return words;
}

/** A word that may stay Latin in a Russian sentence because of its shape or what it names. */
function technical(word) {
  if (/[0-9=_/.@×:+<>%$#&*[\]{}|\\]/.test(word)) return true; // ids, keys, code, figures
  if (/^[A-Z]{2,}s?$/.test(word)) return true; // acronyms and units: GPU, FSDP, MFU, GPUs
  if (/^.+[A-Z]/.test(word)) return true; // an inner capital: PyTorch, GiB, QLoRA, NVLink
  const lc = word.toLowerCase();
  return SOFTWARE.includes(lc) || names.has(lc);
}

/** Runs of three or more English words in `text` (words separated by spaces and punctuation). */
export function englishRuns(text, isTechnical = technical) {
  const runs = [];
  let run = [];
  const end = () => { if (run.length >= 3) runs.push(run.join(' ')); run = []; };
  for (const raw of text.split(/\s+/)) {
    // A token: a word with the punctuation around it; a sentence mark ends the run after it.
    const word = raw.replace(/^[«"“'(\[—–-]+|[»"”'),.;:!?\]…—–-]+$/g, '');
    if (!word) { continue; }
    const latin = /^[A-Za-z][A-Za-z'’-]*$/.test(word) && !isTechnical(word);
    if (latin) run.push(word); else end();
    if (/[.;:!?]$/.test(raw) && !/\.\w/.test(raw)) end();
  }
  end();
  return runs;
}

/** Every text a person reads on the page: [{where, text}]. */
function collect() {
  const out = [];
  const skip = (el) => el.closest('script, style, noscript, template, pre, code, textarea, #prerender');
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  const where = (el) => {
    const t = el.closest('[data-testid]');
    return `${el.tagName.toLowerCase()}${t ? ` in [data-testid=${t.dataset.testid}]` : ''}`;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue.trim();
    const el = n.parentElement;
    if (!text || !el || skip(el)) continue;
    const select = el.closest('select');
    const svgTitle = el.closest('svg title, svg desc');
    if (select ? !shown(select) : svgTitle ? !shown(svgTitle.parentElement) : !shown(el)) continue;
    out.push({ where: where(el), text });
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (skip(el) && !el.matches('textarea') || !shown(el) && !el.closest('select')) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const text = el.getAttribute(a)?.trim();
      if (text) out.push({ where: `${where(el)} @${a}`, text });
    }
  }
  out.push({ where: 'document title', text: document.title });
  return out;
}

/** Opens every disclosure and every lazy panel, and shows what a click shows. */
async function openEverything(page) {
  for (let round = 0; round < 3; round++) {
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) if (!d.open) d.open = true; });
    await page.waitForTimeout(100);
  }
  const lazy = [
    page.getByTestId('timeline-chart').or(page.getByTestId('timeline-error')),
    page.getByTestId('export-file').or(page.getByTestId('export').locator('.notice')),
    page.getByTestId('plan-find'),
  ];
  for (const l of lazy) await l.first().waitFor({ timeout: 20000 });
  const more = page.getByTestId('show-all-offers');
  if (await more.isVisible()) await more.click();
  await page.getByTestId('plan-find').click();
  await page.getByTestId('plan').or(page.getByTestId('plan-none')).or(page.getByTestId('plan-error')).first()
    .waitFor({ timeout: 30000 }).catch(() => {});
  // A pasted log, compared with the estimate (the calibration's sentences).
  await page.getByTestId('calibration-log').fill('Step 10 | loss:1.2\n\tGPU peak memory reserved: 21.00 GiB\ntokens_per_second_per_gpu:1500');
  await page.getByTestId('calibration-compare').click();
  await page.getByTestId('calibration-memory').or(page.getByTestId('plan-error')).first().waitFor({ timeout: 20000 });
  await page.getByTestId('embed').click();
  await page.getByTestId('embed-box').waitFor();
  // Again: what appeared may hold disclosures of its own.
  await page.evaluate(() => { for (const d of document.querySelectorAll('details')) if (!d.open) d.open = true; });
  await page.waitForTimeout(300);
}

test('the word rule: a Russian sentence with technical tokens passes, an English one fails', () => {
  const saved = names;
  names = new Set(['h100', 'sxm', 'runpod']);
  assert.deepEqual(englishRuns('Выгрузке оптимизатора нужен DeepSpeed ZeRO или FSDP (shard=zero1..3/fsdp).'), []);
  assert.deepEqual(englishRuns('torch.cuda.max_memory_allocated: PyTorch, FSDP, ZeRO-3, bf16-true, 8 × RTX 4090, 12,3 GiB'), []);
  assert.deepEqual(englishRuns('Дешевле всего: 8× H100 SXM у runpod (spot), 1,2 ч.'), []);
  assert.deepEqual(englishRuns('Peak: first step: forward of block 31, with 20 GiB allocated'), ['forward of block']);
  assert.deepEqual(englishRuns('The cheapest offer shards a full fine-tune'), ['The cheapest offer shards a full fine-tune']);
  assert.deepEqual(englishRuns('needs 8 GPUs'), []);
  names = saved;
});

// English that this page cannot say in Russian yet, by the element that shows it and the
// source it comes from. These are reported by the todo test at the end instead of failing the
// links' tests; remove an entry when its source renders per language.
const PENDING = [];
const pendingFound = [];

for (const [name, query] of Object.entries(LINKS)) {
  test(`the Russian page has no English sentence: ${name}`, async () => {
    const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    try {
      await page.goto(`${server.url}?${query ? `${query}&` : ''}lang=ru&units=gib`);
      await page.locator('#prerender').waitFor({ state: 'detached' });
      await page.getByTestId('memory-panel').waitFor();
      await page.getByTestId('offer-row').first().waitFor({ timeout: 15000 }).catch(() => {});
      names ??= await datasetNames(page);
      await openEverything(page);
      const texts = await page.evaluate(collect);
      if (process.env.RU_DUMP) for (const t of texts) console.log(`${t.where}\t${t.text}`);
      const english = new Set();
      for (const t of texts) {
        for (const run of englishRuns(t.text)) {
          const said = `${t.where}: «${run}» in «${t.text}»`;
          const pending = PENDING.find((p) => p.where.test(t.where));
          if (pending) pendingFound.push(`${said} (${pending.from})`); else english.add(said);
        }
      }
      assert.deepEqual([...english], [], `English on the Russian page (${name}):\n${[...english].join('\n')}`);
      assert.deepEqual(problems, []);
    } finally { await ctx.close(); }
  });
}

// What a person gives the page besides a link: a pasted config.json, a price list, a training
// log. Each refusal is said in Russian: the element that says it has Cyrillic and no run of
// English words, and neither has anything else on the page once they are shown.
const CYRILLIC = /[а-яё]/i;
test('the Russian page says in Russian what is wrong with a config, a price list or a log', async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const said = [];
  /** Waits until `testid` shows a message that matches `re`, and keeps it for the word check. */
  const says = async (testid, re) => {
    const el = page.getByTestId(testid).filter({ hasText: re });
    await el.first().waitFor({ timeout: 20000 });
    const text = (await el.first().textContent()).trim();
    assert.match(text, CYRILLIC, `${testid}: ${text}`);
    said.push({ where: testid, text });
  };
  try {
    await page.goto(`${server.url}?v=2&model=llama-3.1-8b&method=lora&gpu=a100-80gb&lang=ru&units=gib`);
    await page.locator('#prerender').waitFor({ state: 'detached' });
    await page.getByTestId('memory-panel').waitFor();
    names ??= await datasetNames(page);
    await page.evaluate(() => { for (const d of document.querySelectorAll('details')) if (!d.open) d.open = true; });
    // config.json: not JSON, then JSON without a required field.
    await page.getByTestId('source-config').check();
    await page.getByTestId('config-json').fill('{"model_type": "llama", ');
    await says('config-status', /JSON.*строка 1/);
    await page.getByTestId('config-json').fill('{"model_type": "llama", "hidden_size": 4096}');
    await says('config-status', /num_attention_heads/);
    await page.getByTestId('config-json').fill('{"model_type": "llama", "hidden_size": -4}');
    await says('config-status', /hidden_size/);
    // A price list: a CSV with a negative price, a JSON that stops short, an unknown field.
    const prices = page.getByTestId('prices-text');
    await prices.fill('kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h\ncustom,lab,l40s,1,-5,\n');
    await page.getByTestId('prices-apply').click();
    await says('prices-status', /строка 2.*-5/);
    await prices.fill('{"overrides": [');
    await page.getByTestId('prices-apply').click();
    await says('prices-status', /json/);
    await prices.fill('{"overrides": [{"provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": "8"}]}');
    await page.getByTestId('prices-apply').click();
    await says('prices-status', /gpus_per_instance/);
    // A log with none of the figures the calibration reads, saved as a case (the module's
    // JSON answer, shown as it is) and compared with the estimate.
    const log = page.getByTestId('calibration-log');
    await log.waitFor({ timeout: 20000 });
    await log.fill('Step 10 | loss: 1.2, nothing else here');
    await page.getByTestId('calibration-case').click();
    await says('plan-error', /"error".*nvidia-smi/);
    await page.getByTestId('calibration-compare').click();
    await says('plan-error', /^log: .*nvidia-smi/);
    if (process.env.RU_DUMP) for (const t of said) console.log(`${t.where}\t${t.text}`);
    const english = [];
    for (const t of [...said, ...await page.evaluate(collect)]) {
      for (const run of englishRuns(t.text)) english.push(`${t.where}: «${run}» in «${t.text}»`);
    }
    assert.deepEqual(english, [], `English on the Russian page:\n${english.join('\n')}`);
    assert.deepEqual(problems, []);
  } finally { await ctx.close(); }
});

test('no English is left pending a source that renders Russian', { todo: PENDING.length > 0 && PENDING.map((p) => p.from).join('; ') }, () => {
  assert.deepEqual(pendingFound, [], pendingFound.join('\n'));
});
