#!/usr/bin/env python3
"""Merge probe outputs into data/calibration/saved-tensors.json and add GPU-corrected bytes.

Plain Python (no torch):
    python3 tools/calibrate/merge.py OUT.json IN1.json [IN2.json ...]
Records are keyed by `query`; a later file wins. Each record gains

  saved_bytes_cpu         the probe's raw CPU measurement
  saved_bytes             the GPU figure tunefit must match: saved_bytes_cpu with each dropout
                          mask at 1 byte per element, as CUDA's fused native_dropout keeps it
                          (bool; the CPU keeps it in the input dtype). Equal to saved_bytes_cpu
                          where no mask is held. Mask tensors gain `bytes_gpu`.
  dropout_mask_bytes_cpu  bytes of dropout masks held on the CPU (whole model)
  autocast_weight_copy_bytes  (bf16-mixed) bf16 copies of weights that autocast made and a
                          matmul saved: per parameter, not per token (part of saved_bytes).
  sdpa_math_fallback_on_cpu  true when attn=sdpa but the CPU flash kernel was not used (it has
                          no dropout): those records hold s^2 tensors a CUDA flash kernel would
                          not; compare them only with eager, or not at all.

A dropout mask is recognised as a float `empty_like` storage saved by autograd (CPU dropout
allocates the mask with empty_like + bernoulli_); no other op in these models saves one.
"""
import json
import sys


def whole_model(r, fn):
    """Sum fn(tensor) over the model, scaling the listed blocks like saved_bytes."""
    L = r["layers_real"]
    built = r["layers_built"]
    blocks = {0: 0.0, 1: 0.0, built - 1: 0.0}
    rest = 0.0
    for t in r["tensors"]:
        v = fn(t)
        if t["region"] == "layer":
            blocks[t["layer"]] = blocks.get(t["layer"], 0.0) + v
        else:
            rest += v
    mid = blocks[1] if built > 2 else blocks[built - 1]
    return rest + blocks[0] + mid * (L - 2) + blocks[built - 1]


ELEM = {"float32": 4, "bfloat16": 2, "float16": 2, "float64": 8}


def is_mask(t):
    return t["op"] == "empty_like" and t["dtype"] in ELEM and t["held_by"] == "autograd"


def annotate(r):
    if "saved_bytes_cpu" not in r:  # first pass: keep the raw CPU figure
        r["saved_bytes_cpu"] = r["saved_bytes"]
    for t in r["tensors"]:
        if is_mask(t):
            t["bytes_gpu"] = t["bytes"] // ELEM[t["dtype"]]
    mask = whole_model(r, lambda t: t["bytes"] if is_mask(t) else 0)
    mask_gpu = whole_model(r, lambda t: t["bytes_gpu"] if is_mask(t) else 0)
    r["dropout_mask_bytes_cpu"] = int(round(mask))
    r["saved_bytes"] = int(round(r["saved_bytes_cpu"] - mask + mask_gpu))
    r["autocast_weight_copy_bytes"] = int(round(whole_model(
        r, lambda t: t["bytes"] if t["op"] == "_to_copy(weight)" else 0)))
    # the math path saves a softmax of the scores inside the blocks; the flash kernel never does
    r["sdpa_math_fallback_on_cpu"] = r["attn"] == "sdpa" and any(
        t["region"] == "layer" and t["op"] in ("_softmax", "_safe_softmax") for t in r["tensors"])
    return r


def main():
    out, ins = sys.argv[1], sys.argv[2:]
    docs = [json.load(open(p)) for p in ins]
    base = docs[0]
    by_q = {}
    fails = {}
    for d in docs:
        for r in d["records"]:
            by_q[r["query"]] = r
            fails.pop(r["query"], None)
        for f in d.get("failures", []):
            if f["query"] not in by_q:
                fails[f["query"]] = f
    base["records"] = [annotate(r) for r in by_q.values()]
    base["failures"] = list(fails.values())
    note = ("saved_bytes is the GPU figure: saved_bytes_cpu (raw probe) with dropout masks at "
            "1 B/element (CUDA's bool mask); per-block fields and tensors[].bytes are raw CPU "
            "bytes (mask tensors carry bytes_gpu). Records with sdpa_math_fallback_on_cpu=true "
            "are not GPU-representative.")
    if note not in base["notes"]:
        base["notes"].append(note)
    with open(out, "w") as f:
        json.dump(base, f, indent=1)
        f.write("\n")
    print(f"{out}: {len(base['records'])} records, {len(base['failures'])} failures")


if __name__ == "__main__":
    main()
