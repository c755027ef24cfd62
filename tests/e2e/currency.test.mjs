// The display currency: picking rubles among the cost settings shows every offer's cost in
// rubles, the summary's cheapest in rubles, and the rate with its date beside the ranking; the
// figures are the dollar ones times the dataset's dated rate, and the link keeps the choice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openAdvanced } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open(search) {
  const page = await openPage(browser, server.url + search);
  // The live app, not the prerendered copy it replaces (a page in Russian waits for its build).
  await page.locator('#prerender').waitFor({ state: 'detached' });
  await page.getByTestId('memory-panel').waitFor();
  return page;
}

/** The first offer row's on-demand cost: its text and the figure behind it. */
async function firstCost(page) {
  const cell = page.getByTestId('offer-row').first().getByTestId('od-cost');
  await cell.waitFor();
  return { text: await cell.locator('.usd').textContent(), value: Number(await cell.getAttribute('data-usd')) };
}

test('rubles: the costs carry the ruble sign, the rate and its date are said, the link keeps it', async () => {
  const page = await open('?v=2&gpu=a100-80gb');
  const usd = await firstCost(page);
  assert.match(usd.text, /^\$/, usd.text);
  assert.equal(await page.getByTestId('rate').count(), 0, 'no conversion, no rate sentence');

  await openAdvanced(page);
  await page.getByTestId('currency').selectOption('rub');
  await page.waitForFunction(() => /₽/.test(document.querySelector('[data-testid=od-cost] .usd')?.textContent ?? ''));
  const rub = await firstCost(page);
  assert.match(rub.text, /₽$/, rub.text);
  assert.ok(Math.abs(rub.value - usd.value * 76.04) < 1e-6 * rub.value, `${rub.value} ₽ against ${usd.value} $`);
  const rate = await page.getByTestId('rate').textContent();
  // A rate older than 60 days is marked as an old price is.
  const old = (Date.now() - Date.parse('2026-01-23')) / 864e5 > 60;
  assert.match(rate, old ? /1 USD = 76\.04 RUB \(Bank of Russia, 2026-01-23 · older than 60 days\)/ : /1 USD = 76\.04 RUB \(Bank of Russia, 2026-01-23\)/, rate);
  assert.match(await page.getByTestId('summary').textContent(), /₽/);
  assert.match(await page.getByTestId('recommendation').textContent(), /₽/);
  assert.match(page.url(), /currency=rub/);

  // The link alone brings the rubles back, in Russian too.
  const ru = await open('?v=2&gpu=a100-80gb&currency=rub&lang=ru');
  await ru.waitForFunction(() => /₽/.test(document.querySelector('[data-testid=od-cost] .usd')?.textContent ?? ''));
  const text = await ru.getByTestId('rate').textContent();
  assert.match(text, old ? /^Цены пересчитаны по курсу 1 USD = 76,04 RUB \(Банк России, 2026-01-23 · старше 60 дней\)\.$/ : /^Цены пересчитаны по курсу 1 USD = 76,04 RUB \(Банк России, 2026-01-23\)\.$/, text);
  assert.deepEqual([...page.problems, ...ru.problems], []);
});
