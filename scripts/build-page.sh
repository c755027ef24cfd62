#!/usr/bin/env bash
# Builds the release page into dist/: Trunk with the page toolchain (scripts/env.sh,
# `use_page_toolchain`), then the default settings prerendered into index.html so the first
# paint needs no wasm. Every script that ships, tests or measures the page builds it here, so
# they all see the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
use_page_toolchain
rm -rf dist
trunk build --release "$@"
# The stylesheet, the loader and wasm-bindgen's glue ship minified (the sources keep their
# comments and layout).
node scripts/minify.mjs dist
node scripts/prerender.mjs dist
