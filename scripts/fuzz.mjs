// The query fuzz test at scale (crates/tunefit-core/tests/query_fuzz.rs): every decoded link's
// canonical link decodes to the same state, and decode(encode(q)) == q. CI's test command runs
// it at 500 cases per property; this runs it at TUNEFIT_FUZZ_CASES (default 10^7 per property,
// 4 properties) in a release build and prints its wall time. Too long for every bench run
// (about 1–2 hours on a shared 2-core machine), so scripts/bench.mjs runs it only with
// TUNEFIT_BENCH_FUZZ=1; `node scripts/fuzz.mjs` runs it on its own.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const FUZZ_CASES = process.env.TUNEFIT_FUZZ_CASES ?? '10000000';
export const FUZZ_COMMAND = `TUNEFIT_FUZZ_CASES=${FUZZ_CASES} cargo test --release -p tunefit-core --test query_fuzz`;

/// Runs the fuzz test; returns { ok, seconds }.
export function runFuzz() {
  console.log(`query fuzz test, ${FUZZ_CASES} cases per property: ${FUZZ_COMMAND}`);
  const t0 = Date.now();
  const r = spawnSync('cargo', ['test', '--release', '-p', 'tunefit-core', '--test', 'query_fuzz'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, TUNEFIT_FUZZ_CASES: FUZZ_CASES },
    stdio: 'inherit',
  });
  const seconds = (Date.now() - t0) / 1000;
  const ok = r.status === 0;
  console.log(`query fuzz test, ${FUZZ_CASES} cases per property: ${ok ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s (wall, with the build)`);
  return { ok, seconds };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = runFuzz().ok ? 0 : 1;
}
