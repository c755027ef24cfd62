// Page performance on the release build in dist/ (run scripts/bench.sh to build first):
//   - recalculation: input event on a slider -> updated figures in the DOM, median of N
//     (and, separately, until the next-frame sections have followed);
//   - first render: navigation start -> the total shown, median of several loads;
//   - bundle: gzipped wasm + JS + CSS of the first load (the target applies to it), and the
//     lazily loaded part printed beside it (scripts/bundle.mjs).
// Prints the figures against the targets; exits non-zero only past the generous CI budgets
// (TUNEFIT_BENCH_STRICT=1 checks the targets instead).
import { bundleSizes } from './bundle.mjs';
import { serve, launch } from '../tests/e2e/harness.mjs';

const N = Number(process.env.TUNEFIT_BENCH_N ?? 60);
const LOADS = Number(process.env.TUNEFIT_BENCH_LOADS ?? 7);
const strict = process.env.TUNEFIT_BENCH_STRICT === '1';
const TARGET = { recalcMs: 8, firstRenderMs: 500, bundleKB: 300 };
const BUDGET = strict ? TARGET : { recalcMs: 40, firstRenderMs: 2000, bundleKB: 350 };

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p90 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length * 0.9)]; };

const server = await serve();
const browser = await launch();
try {
  // First render: a fresh page per load, timed from navigation start inside the page.
  const firsts = [];
  for (let i = 0; i < LOADS; i++) {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.querySelector('[data-testid=total-device]')) { window.__firstRender = performance.now(); obs.disconnect(); }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__firstRender !== undefined);
    firsts.push(await page.evaluate(() => window.__firstRender));
    await page.close();
  }

  // Recalculation: set the sequence slider's position, dispatch `input`, and time until the
  // total's text changes (a MutationObserver fires right after the DOM update).
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByTestId('total-device').waitFor();
  const times = await page.evaluate(async (n) => {
    const range = document.querySelector('[data-testid=seq-range]');
    const out = [];
    for (let i = 0; i < n; i++) {
      const total = document.querySelector('[data-testid=total-device]');
      const before = total.textContent;
      // Alternate between two positions so every event changes the figures.
      const pos = i % 2 === 0 ? 50 : 60;
      // First figure: the total's text changes (a MutationObserver fires right after the
      // DOM update). All figures: a macrotask after the event, when every reactive update
      // (queued as microtasks) has run.
      const first = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          const now = document.querySelector('[data-testid=total-device]');
          if (now && now.textContent !== before) { obs.disconnect(); resolve(performance.now()); }
        });
        obs.observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      // Every section: the GPU table and the plots follow on the next animation
      // frame (components/deferred.rs), so wait for that frame and the task after it.
      const all = new Promise((resolve) => requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve(performance.now());
        ch.port2.postMessage(0);
      }));
      const t0 = performance.now();
      range.value = String(pos);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      const [t1, t2] = await Promise.all([first, all]);
      out.push([t1 - t0, t2 - t0]);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return out;
  }, N);

  // Opening Copy config the first time: the exporter's wasm is fetched, compiled and run.
  const exportMs = await page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid=export] summary').click();
    while (!document.querySelector('[data-testid=export-file], [data-testid=export-error]')) await new Promise((r) => setTimeout(r, 5));
    if (document.querySelector('[data-testid=export-error]')) throw new Error(document.querySelector('[data-testid=export-error]').textContent);
    return performance.now() - t0;
  });

  const bundle = bundleSizes();
  const rows = [
    ['recalculation, input -> total, breakdown and cost table updated (median of ' + N + ')', median(times.map((t) => t[0])), TARGET.recalcMs, BUDGET.recalcMs, 'ms'],
    ['  same, p90', p90(times.map((t) => t[0])), null, null, 'ms'],
    ['  input -> GPU table and both plots too (next animation frame; median)', median(times.map((t) => t[1])), null, null, 'ms'],
    ['first render after load (median of ' + LOADS + ')', median(firsts), TARGET.firstRenderMs, BUDGET.firstRenderMs, 'ms'],
    ['opening Copy config the first time (loads the exporter wasm)', exportMs, null, null, 'ms'],
    ['bundle, first load, gzipped wasm + JS + CSS', bundle.firstKB, TARGET.bundleKB, BUDGET.bundleKB, 'KB'],
    ['  lazily loaded (config exporter, on opening Copy config)', bundle.lazyKB, null, null, 'KB'],
  ];
  let failed = false;
  for (const [name, v, target, budget, unit] of rows) {
    const over = budget !== null && v > budget;
    failed ||= over;
    const t = target === null ? '' : `  (target ${target} ${unit}${over ? `, OVER budget ${budget}` : v > target ? ', over target' : ', ok'})`;
    console.log(`${name}: ${v.toFixed(unit === 'KB' ? 1 : 2)} ${unit}${t}`);
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  await browser.close();
  await server.close();
}
