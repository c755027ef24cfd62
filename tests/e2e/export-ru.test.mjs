// The Russian page's Copy-config panel (issue #5): the exporter is asked in the page's
// language and its notes come back in Russian, with the CLI's codes and figures; switching the
// page to English loads the English build, whose panel shows the CLI's English sentences.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const cliExport = (fw, q) => JSON.parse(execFileSync('target/release/tunefit', ['export', '--json', '--framework', fw, q], { encoding: 'utf8' }));
const items = (page) => page.getByTestId('export-warnings').locator('li')
  .evaluateAll((li) => li.map((x) => ({ code: x.dataset.code, text: x.textContent })));

test('the Russian page shows the exporter\'s warnings in Russian, with their figures', async () => {
  const q = 'v=1&model=llama-3.1-8b&method=prefix&rank=24&gpus=2&tp=2&offload=optimizer&framework=litgpt';
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  try {
    await page.goto(`${server.url}?${q}&lang=ru`);
    await page.getByTestId('total-device').waitFor();
    await page.getByTestId('export').locator('summary').click();
    await page.getByTestId('export-warnings').waitFor();

    const cli = cliExport('litgpt', q);
    assert.ok(cli.warnings.length >= 3, JSON.stringify(cli.warnings));
    const ru = await items(page);
    assert.deepEqual(ru.map((w) => w.code), cli.warnings.map((w) => w.code));
    cli.warnings.forEach((w, i) => {
      assert.match(ru[i].text, /[а-яё]/i, `${w.code} stayed English: ${ru[i].text}`);
      assert.notEqual(ru[i].text, w.message);
      for (const n of w.message.match(/\d+/g) ?? []) assert.ok(ru[i].text.includes(n), `${w.code}: ${n} lost in ${ru[i].text}`);
    });
    assert.equal(ru.find((w) => w.code === 'export-tp').text,
      'tp=2: тензорного параллелизма в этом экспорте нет; здесь litgpt обучает только с параллелизмом по данным');
    assert.equal(ru.find((w) => w.code === 'export-method').text, 'method=prefix: в litgpt нет prefix-тюнинга; команда запускает LoRA ранга 24');
    // The files are the CLI's, whatever the language.
    assert.equal(await page.getByTestId('export-file').textContent(), cli.files[0].content);

    // English: the Russian build has no English sentences, so the page loads again in the
    // English build, and its panel shows the CLI's own sentences.
    await Promise.all([page.waitForEvent('load'), page.getByTestId('lang').selectOption('en')]);
    await page.waitForFunction(() => document.documentElement.lang === 'en' && !document.querySelector('#prerender'));
    await page.getByTestId('total-device').waitFor();
    await page.getByTestId('export').locator('summary').click();
    await page.waitForFunction((t) => document.querySelector('[data-testid=export-warnings] li')?.textContent === t, cli.warnings[0].message);
    assert.deepEqual((await items(page)).map((w) => w.text), cli.warnings.map((w) => w.message));
    assert.deepEqual(problems, []);
  } finally { await ctx.close(); }
});
