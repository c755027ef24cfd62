// "Plan a run · compare with my run": a budget typed in finds plans the CLI's planner finds,
// a click applies one (the link and the summary follow); a pasted torchtune log is compared
// with the estimate, its speed applied as `mfu`; a refused limit and a foreign log are said.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const cliPlans = (q) => JSON.parse(execFileSync('target/release/tunefit', ['plan', '--json', q], { encoding: 'utf8' })).plans;

test('a budget finds the plans the CLI finds, and a click applies one', async () => {
  const query = 'v=1&model=llama-3.1-8b&method=lora&batch=4&seq=2048';
  const page = await openPage(browser, `${server.url}?${query}`);
  await page.getByTestId('total-device').waitFor();
  await page.getByTestId('plan-panel').locator('summary').click();
  const budget = page.getByTestId('plan-budget');
  await budget.waitFor();
  await budget.fill('50');
  await budget.press('Tab');
  await page.waitForURL(/budget_usd=50/);
  await page.getByTestId('plan-find').click();
  const plans = page.getByTestId('plan');
  await plans.first().waitFor();
  const expected = cliPlans(`${query}&budget_usd=50`);
  assert.equal(await plans.count(), expected.length);
  const first = await plans.first().locator('button').getAttribute('data-act');
  assert.equal(first, `plan:${expected[0].query}`);
  await plans.first().locator('button').click();
  await page.waitForURL((u) => u.search.includes(`gpu=${expected[0].gpu}`));
  await page.getByTestId('verdict').waitFor();
  assert.equal(await page.getByTestId('verdict').getAttribute('data-verdict'), 'fits');
  // A refused limit is said and the link keeps the last good one.
  await budget.fill('-3');
  await budget.press('Tab');
  await page.getByTestId('plan-limit-error').waitFor();
  assert.match(page.url(), /budget_usd=50/);
  assert.deepEqual(page.problems, []);
});

test('a pasted log is compared with the estimate and its speed becomes the link\'s mfu', async () => {
  const page = await openPage(browser, `${server.url}?v=1&model=llama-3.1-8b&method=lora&gpu=a100-80gb`);
  await page.locator('#prerender').waitFor({ state: 'detached' });
  await page.getByTestId('total-device').waitFor();
  await page.getByTestId('plan-panel').locator('summary').click();
  const log = page.getByTestId('calibration-log');
  await log.waitFor();
  await log.fill('hello, this is not a log');
  await page.getByTestId('calibration-compare').click();
  await page.getByTestId('plan-error').waitFor();
  assert.match(await page.getByTestId('plan-error').textContent(), /no recognised figure/);
  await log.fill('Step 10 | loss:1.2\n\tGPU peak memory reserved: 21.00 GiB\ntokens_per_second_per_gpu:1500');
  await page.getByTestId('calibration-compare').click();
  const mem = page.getByTestId('calibration-memory');
  await mem.waitFor();
  assert.equal(await mem.getAttribute('data-metric'), 'reserved');
  assert.match(await mem.textContent(), /21\.00/);
  // The same log as a case of the project's measured set, downloaded as JSON.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('calibration-case').click()]);
  assert.equal(download.suggestedFilename(), 'tunefit-measured-case.json');
  const fs = await import('node:fs');
  const caseJson = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  assert.equal(caseJson.cases[0].metric, 'reserved');
  await page.getByTestId('calibration-speed').locator('button').click();
  await page.waitForURL(/mfu=0\.\d+/);
  // Scaling the memory to the run: the page's reserved figure becomes the measured 21.00 GiB.
  await page.getByTestId('calibration-scale').locator('button').click();
  await page.waitForURL(/mem_scale=\d\.\d+/);
  const scaled = JSON.parse(execFileSync('target/release/tunefit', ['estimate', '--json', new URL(page.url()).search.slice(1)], { encoding: 'utf8' })).memory.reserved / 2 ** 30;
  assert.ok(Math.abs(scaled - 21) < 0.05, `reserved ${scaled} GiB after scaling`);
  // The compared log is kept in this browser: after a reload the box still holds it.
  await page.reload();
  // The live app, not the prerendered copy it replaces: a click on the copy's summary is lost
  // with the copy.
  await page.locator('#prerender').waitFor({ state: 'detached' });
  await page.getByTestId('plan-panel').locator('summary').click();
  await page.getByTestId('calibration-log').waitFor();
  assert.match(await page.getByTestId('calibration-log').inputValue(), /tokens_per_second_per_gpu:1500/);
  assert.deepEqual(page.problems, []);
});
