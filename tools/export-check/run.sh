#!/usr/bin/env bash
# Feeds `tunefit export` files to the real frameworks on the CPU (README.md beside this file).
#
#   bash tools/export-check/run.sh [--no-train] [framework ...]
#
# frameworks: hf torchtune litgpt unsloth axolotl llama-factory (default: all). One venv per
# framework under $WORK (default /tmp/tunefit-export-check), installed from the Python package
# registry by package name; the versions each resolved to are printed in the table. Needs the
# registry and a Rust toolchain (the release CLI is built here), no GPU, no hub.
# Not part of the project's test command.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
WORK="${WORK:-/tmp/tunefit-export-check}"
PYTHON="${PYTHON:-python3}"
# axolotl 0.21 needs Python >= 3.12.
PYTHON_AXOLOTL="${PYTHON_AXOLOTL:-python3.12}"
train=1
fws=()
for a in "$@"; do
  case "$a" in
    --no-train) train=0 ;;
    hf|torchtune|litgpt|unsloth|axolotl|llama-factory) fws+=("$a") ;;
    *) echo "unknown argument: $a" >&2; exit 2 ;;
  esac
done
[ ${#fws[@]} -gt 0 ] || fws=(hf torchtune litgpt unsloth axolotl llama-factory)
mkdir -p "$WORK"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 WANDB_DISABLED=true

# What each venv gets. torchtune 0.6.1 is its last release and imports only with torchao 0.13
# (0.16: no int4_weight_only; 0.18: no torchao.dtypes.nf4tensor).
packages() {
  case "$1" in
    hf) echo "torch transformers peft accelerate bitsandbytes pyyaml" ;;
    torchtune) echo "torch torchtune==0.6.1 torchao==0.13.0 torchdata omegaconf tiktoken blobfile sentencepiece pyyaml" ;;
    litgpt) echo "litgpt[extra] bitsandbytes pyyaml" ;;
    unsloth) echo "unsloth pyyaml" ;;
    axolotl) echo "axolotl pyyaml" ;;
    llama-factory) echo "llamafactory bitsandbytes pyyaml" ;;
  esac
}

venv() {
  local fw="$1" py="$PYTHON"
  [ "$fw" = axolotl ] && py="$PYTHON_AXOLOTL"
  local v="$WORK/venv-$fw"
  if [ ! -x "$v/bin/python" ]; then
    "$py" -m venv "$v"
    "$v/bin/pip" install --quiet --upgrade pip
  fi
  # shellcheck disable=SC2046
  "$v/bin/pip" install --quiet $(packages "$fw") >>"$WORK/install-$fw.log" 2>&1 || {
    echo "install of $fw failed (see $WORK/install-$fw.log)" >&2; return 1; }
  echo "$v"
}

(cd "$root" && cargo build --quiet --release -p tunefit-cli)
tunefit="$root/target/release/tunefit"

# The tiny model, tokenizers and data are built once, with the hf venv's transformers.
if [ ! -f "$WORK/assets/tiny-llama/config.json" ]; then
  hfv="$(venv hf)"
  "$hfv/bin/python" "$here/check.py" assets --out "$WORK/assets"
fi

results="$WORK/results.jsonl"
: >"$results"
for fw in "${fws[@]}"; do
  if ! v="$(venv "$fw")"; then
    echo "{\"framework\": \"$fw\", \"method\": \"*\", \"validate\": false, \"validate_msg\": \"install failed: see $WORK/install-$fw.log\"}" >>"$results"
    continue
  fi
  flag=()
  [ "$train" = 1 ] || flag=(--no-train)
  PATH="$v/bin:$PATH" "$v/bin/python" "$here/check.py" run --framework "$fw" --tunefit "$tunefit" \
    --assets "$WORK/assets" --work "$WORK/runs" "${flag[@]}" | tee -a "$results"
done
echo
"$PYTHON" "$here/check.py" table "$results"
