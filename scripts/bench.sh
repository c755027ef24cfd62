#!/usr/bin/env bash
# Builds the release page and prints its performance figures (scripts/bench.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
trunk build --release
node scripts/prerender.mjs dist
node scripts/bench.mjs
