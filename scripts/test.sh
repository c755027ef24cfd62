#!/usr/bin/env bash
# Sets up (idempotent) and runs every test tier; any failing tier fails the command.
#  1. native: cargo test for the core and the CLI (and the app's pure parts), then clippy with
#     warnings as errors;
#  2. components: wasm-bindgen-test in headless Chromium;
#  3. end-to-end: Playwright on the release build of dist/, served from loopback;
#  plus the gzipped size budget of dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/env.sh
tier() { printf '\n\033[1m== %s ==\033[0m\n' "$*"; }

tier "native tests (cargo test)"
cargo test --workspace --exclude tunefit-app

tier "lint (rustfmt --check; clippy, warnings are errors; native crates and the page's wasm)"
cargo fmt --all --check
cargo clippy --workspace --exclude tunefit-app --all-targets -- -D warnings
cargo clippy -p tunefit-app --target wasm32-unknown-unknown --all-targets -- -D warnings
cargo clippy -p tunefit-app --target wasm32-unknown-unknown --no-default-features --bin tunefit-app -- -D warnings
cargo clippy -p tunefit-app --target wasm32-unknown-unknown --features ru-only --bin tunefit-app-ru -- -D warnings

tier "component tests (wasm-bindgen-test, headless Chromium)"
cargo test -p tunefit-app --target wasm32-unknown-unknown

tier "release build (trunk)"
# The page as it ships: Trunk with the page toolchain, then the prerendered first paint.
./scripts/build-page.sh

tier "size budget"
node scripts/size-budget.mjs

tier "CLI release build (the e2e suite compares the page with it)"
cargo build --release -p tunefit-cli

tier "end-to-end tests (Playwright, system Chromium)"
node --test --test-concurrency=1 tests/e2e/

tier "bench (figures against targets; fails only past the generous CI budgets)"
node scripts/bench.mjs
