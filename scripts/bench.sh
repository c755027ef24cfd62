#!/usr/bin/env bash
# Builds the release page and prints its performance figures (scripts/bench.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# The page as it ships: Trunk with the page toolchain, then the prerendered first paint.
./scripts/build-page.sh
node scripts/bench.mjs
