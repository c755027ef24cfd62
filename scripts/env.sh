# Sourced by the other scripts: puts cargo-installed tools and npm's wasm-opt (binaryen 132) on PATH.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/node_modules/.bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-180}"
# Trunk must never fetch tools from GitHub.
export TRUNK_OFFLINE=true
