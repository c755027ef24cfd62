// Fails when gzipped wasm + JS + CSS in dist/ exceeds the budget; always prints the figure.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

// 324.2 KB measured after issue #5's cuts (Unicode case tables, serde_json's deserializer,
// std's float-parsing table); ~5 KB of headroom. The target is 300 KB
// (scripts/bench.mjs prints it).
const BUDGET_KB = Number(process.env.TUNEFIT_SIZE_BUDGET_KB ?? 330);
const dir = process.argv[2] ?? 'dist';
let total = 0;
const rows = [];
for (const f of readdirSync(dir)) {
  if (!/\.(wasm|js|css)$/.test(f) || f === 'sw.js') continue;
  const raw = readFileSync(join(dir, f));
  const gz = gzipSync(raw, { level: 9 }).length;
  total += gz;
  rows.push(`${f}: ${(raw.length / 1000).toFixed(1)} KB raw, ${(gz / 1000).toFixed(1)} KB gzipped`);
}
rows.forEach((r) => console.log('  ' + r));
const kb = total / 1000;
console.log(`bundle: ${kb.toFixed(1)} KB gzipped (wasm + JS + CSS), budget ${BUDGET_KB} KB`);
if (rows.length === 0) { console.error('no wasm/js/css in ' + dir); process.exit(1); }
if (kb > BUDGET_KB) { console.error(`over budget by ${(kb - BUDGET_KB).toFixed(1)} KB`); process.exit(1); }
