#!/usr/bin/env bash
# Sets up everything the app, CLI and tests need, pinned; idempotent (seconds when all is present).
# Nothing here downloads a binary from GitHub: tools come from crates.io, npm and Debian.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

TRUNK_VERSION=0.21.14
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# clippy runs in the test command (warnings are errors); a minimal rustup profile lacks it.
if ! cargo clippy --version >/dev/null 2>&1; then
  say "adding clippy"
  rustup component add clippy
fi
# so does rustfmt (`cargo fmt --check` in the test command).
if ! cargo fmt --version >/dev/null 2>&1; then
  say "adding rustfmt"
  rustup component add rustfmt
fi
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The page's wasm is compiled by a pinned nightly that rebuilds std for size (build-page.sh):
# it needs std's source and the wasm target; rustup fetches them from the Rust dist server.
if ! rustup component list --toolchain "$PAGE_TOOLCHAIN" --installed 2>/dev/null | grep -q '^rust-src' \
  || ! rustup target list --toolchain "$PAGE_TOOLCHAIN" --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "installing $PAGE_TOOLCHAIN (minimal, rust-src, wasm32-unknown-unknown) for the page's wasm"
  rustup toolchain install "$PAGE_TOOLCHAIN" --profile minimal --component rust-src --target wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -qF "$TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (several minutes on 2 cores)"
  # --locked: without it newer lightningcss/cssparser versions are picked and fail to build.
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# The CLI must equal the wasm-bindgen crate in Cargo.lock byte for byte.
WB_VERSION=$(awk '$0=="name = \"wasm-bindgen\"" {getline; gsub(/[" ]/, "", $0); sub("version=", "", $0); print; exit}' Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -qF "$WB_VERSION"; then
  say "installing wasm-bindgen-cli $WB_VERSION"
  # Not --locked: its lock names a webpki-roots version this registry does not serve.
  cargo install wasm-bindgen-cli --version "$WB_VERSION"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing chromium and chromium-driver from apt"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium chromium-driver
fi

# The export tests parse every exported file: Python with python3's ast, YAML with PyYAML
# (crates/tunefit-core/tests/export.rs fails without them).
if ! python3 -c 'import yaml' >/dev/null 2>&1; then
  say "installing python3 and PyYAML from apt"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq python3 python3-yaml
  if ! python3 -c 'import yaml' >/dev/null 2>&1; then
    echo "setup: $(command -v python3 || echo python3) still cannot import yaml; install PyYAML for it" >&2
    exit 1
  fi
fi

stamp=node_modules/.tunefit-lock-sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "installing npm devDependencies from package-lock.json"
  # --ignore-scripts: nothing may fetch a browser; Playwright drives /usr/bin/chromium.
  npm ci --ignore-scripts --no-audit --no-fund
  echo "$want" > "$stamp"
fi

say "fetching crates"
cargo fetch --quiet
# Trunk builds offline; -Zbuild-std compiles std's own dependencies, so fetch those too.
cargo "+$PAGE_TOOLCHAIN" fetch --quiet \
  --manifest-path "$(rustc "+$PAGE_TOOLCHAIN" --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"
say "ready"
