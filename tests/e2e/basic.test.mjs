// The first page renders a real estimate from the core, equal to the CLI's for the same query.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, num } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

function cliDeviceGiB(query) {
  const out = execFileSync('target/release/tunefit', ['estimate', '--json', query], { encoding: 'utf8' });
  return JSON.parse(out).memory.device / 2 ** 30;
}

test('default page shows the per-GPU memory the CLI computes', async () => {
  const page = await openPage(browser, server.url);
  const total = page.getByTestId('total-device');
  await total.waitFor();
  assert.equal(num(await total.textContent()).toFixed(2), cliDeviceGiB('v=2').toFixed(2));
  assert.deepEqual(page.problems, []);
});

test('dist works under a sub-path', async () => {
  const sub = await serve({ prefix: '/tools/tunefit/' });
  try {
    const page = await openPage(browser, sub.url);
    await page.getByTestId('total-device').waitFor();
    assert.deepEqual(page.problems, []);
  } finally { await sub.close(); }
});
