// Shared e2e harness: serves dist/ from loopback and drives the system Chromium with Playwright.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, extname, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.txt': 'text/plain', '.png': 'image/png', '.webmanifest': 'application/manifest+json',
};

/** Serves `root` (default dist/) on 127.0.0.1 at a free port, optionally under a sub-path. */
export async function serve({ root = 'dist', prefix = '/', port = 0, gzip = false } = {}) {
  // With `gzip`, files go out gzip-encoded to a client that accepts it, as a static host
  // serves them (compressed once per file).
  const zipped = new Map();
  const server = createServer(async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (!path.startsWith(prefix)) { res.writeHead(404).end(); return; }
      path = normalize(path.slice(prefix.length)).replace(/^(\.\.[/\\])+/, '');
      let file = join(root, path);
      if (!path || path.endsWith('/') || (await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        if (!zipped.has(file)) zipped.set(file, gzipSync(body, { level: 9 }));
        res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip' }).end(zipped.get(file));
        return;
      }
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch { res.writeHead(404).end('not found'); }
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}${prefix}`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Opens a page that fails the test on any page error or console error. */
export async function openPage(browser, url, opts = {}) {
  const page = await browser.newPage(opts);
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.problems = problems;
  await page.goto(url);
  return page;
}

/** Parses a displayed number like "12.34" or "1,234.5". */
export const num = (s) => Number(String(s).replace(/[^0-9.\-]/g, ''));

/** Opens the settings' Advanced disclosure (framework, precision, kernels, parallelism, cost). */
export async function openAdvanced(page) {
  await page.getByTestId('advanced').evaluate((d) => { d.open = true; });
}
