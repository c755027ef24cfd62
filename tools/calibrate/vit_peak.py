"""Peak allocated bytes of real ViT training steps on the CPU (transformers'
ViTForImageClassification at ViT-L/16's width, a few blocks, random weights, SDPA, AdamW foreach,
two steps so that the first step's optimizer states exist): ground truth for the vision
encoders' allocated memory (`crates/tunefit-core/tests/vision_encoders.rs`).

Bytes are the CPU allocator's running total under `torch.profiler.profile(profile_memory=True)`
(`timeline.allocations`), as timeline.py reads them: allocated bytes only, no cache.

Usage: tools/calibrate/.venv/bin/python tools/calibrate/vit_peak.py > data/calibration/vit-allocated.json
"""
import datetime
import json
import sys
import warnings

import torch
import transformers
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from timeline import allocations  # noqa: E402

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

# (blocks, micro-batch, precision)
GRID = [(4, 16, "bf16-true"), (8, 16, "bf16-true"), (4, 48, "bf16-true"), (4, 16, "fp32")]


def peak(layers, batch, precision):
    torch.manual_seed(0)
    dtype = torch.bfloat16 if precision == "bf16-true" else torch.float32
    cfg = transformers.ViTConfig(hidden_size=1024, intermediate_size=4096, num_hidden_layers=layers,
                                 num_attention_heads=16, patch_size=16, image_size=224, num_labels=10)
    cfg._attn_implementation = "sdpa"
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        model = transformers.ViTForImageClassification(cfg).to(dtype)
        model.train()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-5, foreach=True, weight_decay=0.0)
        for _ in range(2):
            x = torch.randn(batch, 3, 224, 224, dtype=dtype)
            y = torch.randint(0, 10, (batch,))
            out = model(pixel_values=x, labels=y)
            out.loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            del out, x, y
    return max(e[3] for e in allocations(prof))


if len(sys.argv) == 5 and sys.argv[1] == "--one":
    # One run per process: the allocator's running total also counts what an earlier run in
    # the same process still holds.
    print(peak(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
    sys.exit(0)

import subprocess  # noqa: E402

records = []
for layers, batch, precision in GRID:
    one = subprocess.run([sys.executable, __file__, "--one", str(layers), str(batch), precision],
                         check=True, capture_output=True, text=True).stdout.split()[-1]
    records.append({
        "query": f"framework=hf&model=vit-l&vocab=10&layers={layers}&method=full&precision={precision}"
                 + ("&autocast=0" if precision.endswith("-true") else "")
                 + f"&batch={batch}&ckpt=none&attn=sdpa&optim=adamw&optim_impl=foreach&compile=0",
        "allocated_bytes": int(one),
    })
json.dump({
    "note": "Peak allocated bytes of two ViTForImageClassification training steps on the CPU "
            "(tools/calibrate/vit_peak.py): ViT-L/16's width (1024, 16 heads, MLP 4096), 224 px, "
            "10 labels, SDPA, AdamW foreach, weight decay 0. Each query is the tunefit link of that run.",
    "versions": f"torch {torch.__version__}, transformers {transformers.__version__}",
    "date": datetime.date.today().isoformat(),
    "records": records,
}, sys.stdout, indent=1)
print()
