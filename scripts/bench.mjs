// Page performance on the release build in dist/ (run scripts/bench.sh to build first):
//   - recalculation: input event on a slider -> updated figures in the DOM, median of N
//     (and, separately, until the sections the lazily loaded module writes have followed);
//   - first paint (prerendered HTML) and first live figures, of the default page and of a
//     shared link, median of several loads;
//   - bundle: gzipped wasm + JS + CSS of the first load (the target applies to it), and the
//     lazily loaded part printed beside it (scripts/bundle.mjs);
//   - with TUNEFIT_BENCH_FUZZ=1, the query fuzz test at 10^7 cases per property and its wall
//     time (scripts/fuzz.mjs; an hour or more, so skipped otherwise).
// Prints the figures against the targets; exits non-zero only past the generous CI budgets
// (TUNEFIT_BENCH_STRICT=1 checks the targets instead).
import { bundleSizes } from './bundle.mjs';
import { runFuzz, FUZZ_COMMAND } from './fuzz.mjs';
import { serve, launch } from '../tests/e2e/harness.mjs';

const N = Number(process.env.TUNEFIT_BENCH_N ?? 60);
const LOADS = Number(process.env.TUNEFIT_BENCH_LOADS ?? 7);
const MOBILE_LOADS = Number(process.env.TUNEFIT_BENCH_MOBILE_LOADS ?? 3);
const strict = process.env.TUNEFIT_BENCH_STRICT === '1';
// firstPaintMs: the most used peer calculator's first paint on this harness (gpu_poor
// 160–190 ms); linkMs: a shared link's own figures.
// The phone's network (the first-paint issue): first paint ≤ 800 ms, the default figures ≤ 1.5 s.
// recalcMs: the page-first issue's figure (median <= 4 ms).
// bundleKB: the first-paint issue's first load (at most 240 KB gzipped).
const TARGET = { recalcMs: 4, firstRenderMs: 500, firstPaintMs: 180, linkMs: 350, bundleKB: 240, mobilePaintMs: 800, mobileLiveMs: 1500 };
const BUDGET = strict ? TARGET : { recalcMs: 40, firstRenderMs: 2000, bundleKB: 350 };

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p90 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length * 0.9)]; };

const server = await serve();
const browser = await launch();
try {
  // First paint and first live figures: a fresh page per load, timed from navigation start
  // inside the page. The default page paints from its prerendered HTML (scripts/prerender.mjs);
  // the live figures are there once the wasm has replaced that copy. A shared link's own
  // figures are timed the same way (its prerendered copy shows the default's, dimmed).
  // One load of `url` in `page`: its first contentful paint and the moment the live figures
  // replaced the prerendered copy, both from navigation start.
  const timeLoad = async (page, url, timeout = 30000) => {
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.querySelector('[data-testid=total-device]') && !document.getElementById('prerender')) {
          window.__live = performance.now(); obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(url, { timeout });
    await page.waitForFunction(() => window.__live !== undefined, null, { timeout });
    return {
      paint: await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN),
      live: await page.evaluate(() => window.__live),
    };
  };
  const loads = async (search) => {
    const paints = [], lives = [];
    for (let i = 0; i < LOADS; i++) {
      const page = await browser.newPage();
      const t = await timeLoad(page, server.url + search);
      paints.push(t.paint);
      lives.push(t.live);
      await page.close();
    }
    return { paint: median(paints), live: median(lives) };
  };
  const home = await loads('');
  const link = await loads('?v=1&seq=8192&method=lora&gpu=rtx-4090');
  const firsts = [home.live];

  // The same on a phone's network: Lighthouse's mobile profile (150 ms round trip, 1.6 Mbps
  // down, 750 kbps up), files served gzip-encoded as a static host does; fresh context each.
  const gz = await serve({ gzip: true });
  const mobile = { paints: [], lives: [] };
  for (let i = 0; i < MOBILE_LOADS; i++) {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    const cdp = await ctx.newCDPSession(p);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
    const t = await timeLoad(p, gz.url, 60000);
    mobile.paints.push(t.paint);
    mobile.lives.push(t.live);
    await ctx.close();
  }
  await gz.close();

  // Recalculation: set the sequence slider's position, dispatch `input`, and time until the
  // total's text changes (a MutationObserver fires right after the DOM update).
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.getByTestId('total-device').waitFor();
  // The lazily loaded module arrives once the page is idle: time inputs after it has.
  await page.getByTestId('cost-table').waitFor();
  const times = await page.evaluate(async (n) => {
    const range = document.querySelector('[data-testid=seq-range]');
    const out = [];
    for (let i = 0; i < n; i++) {
      const total = document.querySelector('[data-testid=total-device]');
      const before = total.textContent;
      // Alternate between two positions (4096 and 8192 tokens; the page starts at 2048) so
      // every event changes the figures.
      const pos = i % 2 === 0 ? 5 : 6;
      // First figure: the total's text changes (a MutationObserver fires right after the
      // DOM update).
      const first = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          const now = document.querySelector('[data-testid=total-device]');
          if (now && now.textContent !== before) { obs.disconnect(); resolve(performance.now()); }
        });
        obs.observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      // The sections the lazily loaded module writes (the query as of the next animation
      // frame, components/deferred.rs): each is rewritten when its answer arrives.
      const rewritten = (section, inner) => new Promise((resolve) => {
        const obs = new MutationObserver((ms) => {
          const has = (n) => n.nodeType === 1 && (n.matches(inner) || n.querySelector(inner));
          if (ms.some((m) => [...m.addedNodes].some(has))) { obs.disconnect(); resolve(performance.now()); }
        });
        obs.observe(document.querySelector(section), { childList: true, subtree: true });
      });
      const ranked = rewritten('[data-testid=cost-section]', '[data-testid=cost-table]');
      const gpus = rewritten('[data-testid=gpu-table]', '[data-testid^=gpu-row-]');
      const curve = rewritten('[data-testid=plot-mem-seq]', '[data-testid=mem-curve]');
      const t0 = performance.now();
      range.value = String(pos);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      const [t1, t2, t3, t4] = await Promise.all([first, ranked, gpus, curve]);
      out.push([t1 - t0, t2 - t0, Math.max(t2, t3, t4) - t0]);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return out;
  }, N);

  // Opening Copy config the first time: the module answers (it came for the cost ranking).
  const exportMs = await page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid=export] summary').click();
    while (!document.querySelector('[data-testid=export-file], [data-testid=export-error]')) await new Promise((r) => setTimeout(r, 5));
    if (document.querySelector('[data-testid=export-error]')) throw new Error(document.querySelector('[data-testid=export-error]').textContent);
    return performance.now() - t0;
  });

  const bundle = bundleSizes();
  const rows = [
    ['recalculation, input -> summary (verdict, time, cheapest offer), total and breakdown updated (median of ' + N + ')', median(times.map((t) => t[0])), TARGET.recalcMs, BUDGET.recalcMs, 'ms'],
    ['  same, p90', p90(times.map((t) => t[0])), null, null, 'ms'],
    ['  input -> the cost ranking rewritten (the lazily loaded module\'s answer for the next frame; median)', median(times.map((t) => t[1])), null, null, 'ms'],
    ['  input -> the ranking, the GPU table and the memory curve all rewritten (median)', median(times.map((t) => t[2])), null, null, 'ms'],
    ['first contentful paint, default page (prerendered HTML; median of ' + LOADS + ')', home.paint, TARGET.firstPaintMs, null, 'ms'],
    ['first live figures, default page (wasm running; median)', median(firsts), TARGET.firstRenderMs, BUDGET.firstRenderMs, 'ms'],
    ['a shared link: first paint / its own figures (median)', link.paint, null, null, 'ms'],
    ['  its own figures', link.live, TARGET.linkMs, null, 'ms'],
    ['phone network (150 ms RTT, 1.6 Mbps, gzip): first contentful paint (median of ' + MOBILE_LOADS + ')', median(mobile.paints), TARGET.mobilePaintMs, null, 'ms'],
    ['  the default figures, live', median(mobile.lives), TARGET.mobileLiveMs, null, 'ms'],
    ['opening Copy config the first time (the module is loaded already, for the cost ranking)', exportMs, null, null, 'ms'],
    ['bundle, first load, gzipped wasm + JS + CSS', bundle.firstKB, TARGET.bundleKB, BUDGET.bundleKB, 'KB'],
    ['  first load of a page in Russian (the app\'s Russian build instead)', bundle.firstRuKB, null, null, 'KB'],
    ['  lazily loaded (the module behind the cost ranking and the panels, once idle; the Russian build)', bundle.lazyKB, null, null, 'KB'],
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

// Links decode to the same state forever: the query fuzz test at scale (not in CI's test command).
if (process.env.TUNEFIT_BENCH_FUZZ === '1') {
  if (!runFuzz().ok) process.exitCode = 1;
} else {
  console.log(`query fuzz test at 10^7 cases per property: skipped (TUNEFIT_BENCH_FUZZ=1 runs it here, or: ${FUZZ_COMMAND})`);
}
