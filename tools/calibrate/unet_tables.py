#!/usr/bin/env python3
"""Rust tables for the UNet presets (crates/tunefit-core/src/diffusion/unets.rs), generated from
diffusers' `UNet2DConditionModel` built on the meta device and unet_probe.py's record.

Every Linear and Conv2d becomes a `lin(inputs, outputs, count, role, tokens)`: a convolution's
inputs are in_channels/groups × kernel area (its GEMM per output pixel), its tokens the output
pixels at its level. A checkpointed module (a ResNet block or a BasicTransformerBlock, as
unet_probe.py found them) and its identical siblings are one `BlockKind` with the probe's saved
bytes; everything else is the model's `outer` list.

Usage: .venv/bin/python unet_tables.py > /tmp/unets.rs   (then paste between the markers)
"""
from __future__ import annotations

import json
import sys

import torch
import diffusers

from unet_probe import MODELS, level_of

REC = "../../data/calibration/unet-saved.json"
PREFIX = {"sd1.5": "SD15", "sdxl": "SDXL"}


def role_tokens(name: str, level: int) -> tuple[str, str]:
    lv = f"Lv({level})"
    if "time_embedding" in name or "add_embedding" in name or name.endswith("time_emb_proj"):
        return "Other", "Ts"
    if ".attn2.to_k" in name or ".attn2.to_v" in name:
        return "Attn", "T"
    if any(name.endswith(s) for s in ("to_q", "to_k", "to_v", "to_out.0")):
        return "Attn", lv
    if ".ff." in name:
        return "Mlp", lv
    if name.endswith("proj_in") or name.endswith("proj_out"):
        return "Proj", lv
    return "Other", lv


def layers(module, prefix: str, n_levels: int):
    out = {}
    for n, m in module.named_modules():
        full = f"{prefix}.{n}" if n else prefix
        if isinstance(m, torch.nn.Linear):
            inp, o = m.in_features, m.out_features
        elif isinstance(m, torch.nn.Conv2d):
            kh, kw = m.kernel_size
            inp, o = m.in_channels // m.groups * kh * kw, m.out_channels
        else:
            continue
        role, tok = role_tokens(full, level_of(full, n_levels))
        key = (inp, o, role, tok)
        out[key] = out.get(key, 0) + 1
    return out


def lins(d: dict) -> str:
    return ", ".join(f"lin({i}, {o}, {c}, {r}, {t})" for (i, o, r, t), c in sorted(d.items(), key=lambda x: (x[0][3], -x[0][0] * x[0][1])))


def coef(c: dict, ops_f: int, ops_b: int) -> str:
    return f"coef_at({c['bytes_per_pixel']!r}, {c['bytes_at_text_tokens']!r}, 77.0, ({ops_f}, {ops_b}))"


def main() -> None:
    rec = json.load(open(REC))
    for name, p in PREFIX.items():
        if name not in rec["models"]:
            continue
        r = rec["models"][name]
        n_levels = len(MODELS[name]["cfg"]["block_out_channels"])
        with torch.device("meta"):
            model = diffusers.UNet2DConditionModel(**MODELS[name]["cfg"])
        mods = dict(model.named_modules())
        total = sum(x.numel() for x in model.parameters())
        print(f"// {name}: {total} parameters (unet_tables.py from unet_probe.py's record {rec['recorded']})")
        segs = r["full"]["segments"]
        in_blocks = 0
        seg_names = []
        print(f"const {p}_BLOCKS: &[BlockKind] = &[")
        for i, s in enumerate(segs):
            m = mods[s["example"]]
            params = sum(x.numel() for x in m.parameters())
            in_blocks += params * s["count"]
            saved = {t: next(x for x in r[t]["segments"] if x["example"] == s["example"]) for t in ("full", "lora_attn", "lora_all")}
            print(f"    BlockKind {{ name: \"{s['example']}\", count: {s['count']}, params: {params}, linears: &[{lins(layers(m, s['example'], n_levels))}],")
            print("        saved: Saved { " + ", ".join(f"{t}: {coef(saved[t], saved[t]['ops_forward'], 0)}" for t in saved) + " } },")
            seg_names.append(s["example"])
        print("];")
        # Everything outside the checkpointed modules (diffusers checkpoints every ResNet block
        # but the mid block's first, and every BasicTransformerBlock).
        outer: dict = {}
        seg_mods = {n for n, m in model.named_modules() if type(m).__name__ == "BasicTransformerBlock"
                    or (type(m).__name__ == "ResnetBlock2D" and n != "mid_block.resnets.0")}
        for n, m in model.named_modules():
            if not isinstance(m, (torch.nn.Linear, torch.nn.Conv2d)):
                continue
            if any(n.startswith(s + ".") for s in seg_mods):
                continue
            if isinstance(m, torch.nn.Linear):
                inp, o = m.in_features, m.out_features
            else:
                kh, kw = m.kernel_size
                inp, o = m.in_channels // m.groups * kh * kw, m.out_channels
            role, tok = role_tokens(n, level_of(n, n_levels))
            key = (inp, o, role, tok)
            outer[key] = outer.get(key, 0) + 1
        print(f"const {p}_OUTER: &[Linear] = &[{lins(outer)}];")
        print(f"const {p}_NON_BLOCK: u64 = {total - in_blocks};")
        for what in ("outside", "held_ckpt"):
            ops = {t: (r[t]["ops_forward_outside"], r[t]["ops_backward"]) if what == "outside" else (0, 0) for t in ("full", "lora_attn", "lora_all")}
            print(f"const {p}_{what.upper()}: Saved = Saved {{ " + ", ".join(f"{t}: {coef(r[t][what], *ops[t])}" for t in ops) + " };")
        print(f"// trainable at rank 16: lora_attn {r['lora_attn']['trainable']}, lora_all {r['lora_all']['trainable']}; checkpointed modules {len(seg_mods)}, recorded {sum(s['count'] for s in segs)}")
        print()
        if len(seg_mods) != sum(s["count"] for s in segs):
            sys.exit(f"{name}: {len(seg_mods)} checkpointed modules here, {sum(s['count'] for s in segs)} in the record")


if __name__ == "__main__":
    main()
