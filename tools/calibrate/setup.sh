#!/usr/bin/env bash
# Creates tools/calibrate/.venv with the pinned probe environment (torch, transformers, peft).
# One command, run once: `bash tools/calibrate/setup.sh` (about 1-2 minutes, ~6 GB on disk,
# mostly torch's CUDA libraries, which its PyPI wheel needs at import even on the CPU).
# Not part of the test command: the Rust tests read the committed data file, not this venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${PYTHON:-python3}"
"$python" -c 'import sys; assert sys.version_info >= (3, 10), "the probe needs Python >= 3.10"'
if [ ! -x "$here/.venv/bin/python" ]; then
  "$python" -m venv "$here/.venv"
fi
"$here/.venv/bin/pip" install --quiet --upgrade pip
"$here/.venv/bin/pip" install --quiet -r "$here/requirements.txt"
# litgpt_probe.py runs litgpt's model code (litgpt.lora, litgpt.utils), which imports Lightning.
# Without dependencies: litgpt's own metadata pins a Lightning nightly and packages the probe
# never imports, and resolving them would move the pinned torch.
"$here/.venv/bin/pip" install --quiet --no-deps litgpt==0.5.13 lightning==2.4.0 lightning-utilities==0.15.3 torchmetrics==1.9.0
# torchtune_probe.py runs torchtune's model code over torchao's NF4Tensor (torchao 0.10 is the
# last release with torchao.dtypes.nf4tensor, which torchtune 0.6.1 imports); the probe stubs
# the data stack torchtune imports at package import, so it installs without dependencies too.
"$here/.venv/bin/pip" install --quiet --no-deps torchtune==0.6.1 torchao==0.10.0 omegaconf==2.4.0 antlr4-python3-runtime==4.9.3
"$here/.venv/bin/python" -c 'import torch, transformers, peft; print("probe env ready: torch", torch.__version__, "transformers", transformers.__version__, "peft", peft.__version__)'
