#!/usr/bin/env bash
# Sets up (idempotent), builds the release app and serves it at http://127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/env.sh
./scripts/build-page.sh
echo "tunefit: serving dist/ at http://127.0.0.1:8080/ (Ctrl-C stops)"
exec node -e "import('./tests/e2e/harness.mjs').then((h) => h.serve({ root: 'dist', port: 8080 }))"
