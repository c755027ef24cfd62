# Sourced by the other scripts: puts cargo-installed tools and npm's wasm-opt (binaryen 132) on PATH.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/node_modules/.bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-180}"
# Trunk must never fetch tools from GitHub.
export TRUNK_OFFLINE=true
# The toolchain that compiles the page's wasm: a pinned nightly, for `-Zbuild-std` and
# `-Cpanic=immediate-abort`. Everything else (native crates, clippy, component tests) builds
# with stable.
export PAGE_TOOLCHAIN=nightly-2026-05-20
# How the shipped page's wasm is compiled (scripts/build-page.sh, scripts/size-profile.sh):
#  - std rebuilt with its `optimize_for_size` feature: std's own code chosen for size;
#  - `-Cpanic=immediate-abort`: a panic traps at once instead of formatting its message, which
#    leaves core's formatting and panic machinery out of the page. The page has no use for the
#    message: a panic there is a defect; in the page's wasm the end-to-end tests fail on it as
#    a page error, in the lazily loaded module it is the section's "could not be loaded" line
#    where the tests expect figures; component tests and native builds keep the messages;
#  - RUSTFLAGS replaces .cargo/config.toml's `--cfg erase_components`: with most of the page
#    written as markup, Leptos's type erasure now costs more bytes than the views it spares;
#  - its own target directory, so the stable builds are not rebuilt after it.
# docs/size-profile.md has what each step saves.
use_page_toolchain() {
  export RUSTUP_TOOLCHAIN="$PAGE_TOOLCHAIN"
  export CARGO_TARGET_DIR=target/page
  export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
  export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
  export RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort"
}
