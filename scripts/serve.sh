#!/usr/bin/env bash
# Sets up (idempotent), builds the release app and serves it at http://127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
source scripts/env.sh
echo "tunefit: serving at http://127.0.0.1:8080/"
# No autoreload: its injected inline script is blocked by the page's CSP (script-src 'self').
exec trunk serve --release --no-autoreload --address 127.0.0.1 --port 8080
