#!/usr/bin/env python3
"""What a Stable Diffusion UNet keeps for backward, per latent pixel (issue 21).

dit_probe.py's counterpart for the convolutional UNets (SD 1.5, SDXL), whose blocks are not a
uniform stack: ResNet blocks and transformer blocks at three or four resolutions, with skip
connections held from the down path to the up path. diffusers' `UNet2DConditionModel` is built
from each checkpoint's `unet/config.json` at full size (random bf16 weights on the CPU, no
download) and one training forward runs at two latent sizes.

Under `enable_gradient_checkpointing()` diffusers checkpoints each ResNet block through
`_gradient_checkpointing_func(resnet, hidden_states, temb)` (unet_2d_blocks.py @0.42.1; the mid
block's first ResNet is not) and each `BasicTransformerBlock` inside a `Transformer2DModel`
(transformer_2d.py L415); the transformer's norm, `proj_in`/`proj_out`, the samplers, `conv_in`
and `conv_out` run outside. The probe records, per training:

- `segments`: each checkpointed module's class, level and saved bytes in a plain forward (its
  saved set is what the backward rebuilds), grouped by identical layer shapes;
- `outside`: what ops outside the segments save (held either way);
- `held_ckpt`: with checkpointing on, what is held until the backward: the outside ops' saved
  tensors and every segment's inputs (the non-reentrant checkpoint keeps its arguments),
  storages deduplicated;
- the aten ops of the forward by segment kind (and outside) and of the backward in all;
- `layers`: every Linear and Conv2d with its level, role and the tokens it runs on, which the
  Rust tables are generated from (unet_tables.py).

Bytes are per latent pixel (the slope between the two sizes) and at the 77 text tokens (the
intercept). Usage: .venv/bin/python unet_probe.py [--only sdxl] [--training lora_all]
(SD 1.5 in about a minute; SDXL one training per process, a few minutes each)
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections import defaultdict

import torch
from torch.utils._python_dispatch import TorchDispatchMode
import diffusers
import peft

torch.manual_seed(0)
DT = torch.bfloat16
TEXT = 77

# unet/config.json of runwayml/stable-diffusion-v1-5 and stabilityai/stable-diffusion-xl-base-1.0
MODELS = {
    "sd1.5": dict(
        cfg=dict(sample_size=64, in_channels=4, out_channels=4,
                 down_block_types=("CrossAttnDownBlock2D",) * 3 + ("DownBlock2D",),
                 up_block_types=("UpBlock2D",) + ("CrossAttnUpBlock2D",) * 3,
                 block_out_channels=(320, 640, 1280, 1280), layers_per_block=2, cross_attention_dim=768,
                 attention_head_dim=8),
        text_dim=768, added=None,
    ),
    "sdxl": dict(
        cfg=dict(sample_size=128, in_channels=4, out_channels=4,
                 down_block_types=("DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"),
                 up_block_types=("CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"),
                 block_out_channels=(320, 640, 1280), layers_per_block=2, cross_attention_dim=2048,
                 attention_head_dim=(5, 10, 20), transformer_layers_per_block=(1, 2, 10),
                 use_linear_projection=True, addition_embed_type="text_time", addition_time_embed_dim=256,
                 projection_class_embeddings_input_dim=2816),
        text_dim=2048, added=dict(text_embeds=1280, time_ids=6),
    ),
}

# diffusers' SD/SDXL LoRA scripts: ["to_k", "to_q", "to_v", "to_out.0"]
ATTN = ["to_q", "to_k", "to_v", "to_out.0"]


def build(name: str, training: str):
    spec = MODELS[name]
    model = diffusers.UNet2DConditionModel(**spec["cfg"]).to(DT)
    model.train()
    if training == "full":
        model.requires_grad_(True)
        return model, model
    model.requires_grad_(False)
    if training == "lora_attn":
        targets = ATTN
    else:
        # sd-scripts' networks/lora.py: every Linear and 1x1 Conv2d inside a Transformer2DModel.
        targets = [n for n, m in model.named_modules() if ".attentions." in n and (
            isinstance(m, torch.nn.Linear) or (isinstance(m, torch.nn.Conv2d) and m.kernel_size == (1, 1)))]
    cfg = peft.LoraConfig(r=16, lora_alpha=16, lora_dropout=0.0, target_modules=targets)
    return peft.get_peft_model(model, cfg), model


def inputs(name: str, side: int):
    spec = MODELS[name]
    kw = dict(sample=torch.randn(1, 4, side, side, dtype=DT), timestep=torch.tensor([500]),
              encoder_hidden_states=torch.randn(1, TEXT, spec["text_dim"], dtype=DT), return_dict=False)
    if spec["added"]:
        kw["added_cond_kwargs"] = {k: torch.randn(1, n, dtype=DT) for k, n in spec["added"].items()}
    return kw


def level_of(name: str, n_levels: int) -> int:
    """The resolution level a module's output is at (0 = the latent's)."""
    p = name.split(".")
    if "down_blocks" in p:
        i = int(p[p.index("down_blocks") + 1])
        return i + 1 if "downsamplers" in p else i
    if "up_blocks" in p:
        i = int(p[p.index("up_blocks") + 1])
        return n_levels - 2 - i if "upsamplers" in p else n_levels - 1 - i
    if "mid_block" in p:
        return n_levels - 1
    return 0


class Recorder:
    """Saved tensors by the checkpoint segment running when they are saved."""

    def __init__(self, model):
        self.params = {p.untyped_storage().data_ptr() for p in model.parameters()}
        self.current = None
        self.by_seg: dict = defaultdict(dict)
        self.inputs: dict = {}

    def pack(self, t):
        if isinstance(t, torch.Tensor):
            s = t.untyped_storage()
            if s.data_ptr() not in self.params:
                self.by_seg[self.current][s.data_ptr()] = s.nbytes()
        return t


class OpCount(TorchDispatchMode):
    def __init__(self, rec=None):
        super().__init__()
        self.rec = rec
        self.n: dict = defaultdict(int)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n[self.rec.current if self.rec else None] += 1
        return func(*args, **(kwargs or {}))


def segments(base, kw) -> dict:
    """The modules diffusers checkpoints, found by enabling checkpointing with a recording func."""
    seen = {}

    def func(module, *args):
        seen[id(module)] = module
        return module(*args)

    base.enable_gradient_checkpointing(func)
    out = base(**kw)[0]
    del out
    base.disable_gradient_checkpointing()
    return seen


def run(name: str, model, base, segs: dict, side: int, ckpt: bool, count_ops: bool = False):
    rec = Recorder(model)
    names = {id(m): n for n, m in base.named_modules()}
    hooks = []
    if not ckpt:
        for m in segs.values():
            hooks.append(m.register_forward_pre_hook(lambda mod, a: setattr(rec, "current", id(mod))))
            hooks.append(m.register_forward_hook(lambda mod, a, o: setattr(rec, "current", None)))
    else:
        def func(module, *args):
            for a in args:
                if isinstance(a, torch.Tensor):
                    rec.inputs[a.untyped_storage().data_ptr()] = a.untyped_storage().nbytes()
            return torch.utils.checkpoint.checkpoint(module.__call__, *args, use_reentrant=False)
        base.enable_gradient_checkpointing(func)
    kw = inputs(name, side)
    ops = OpCount(rec)
    with torch.autograd.graph.saved_tensors_hooks(rec.pack, lambda t: t):
        if count_ops:
            with ops:
                out = model(**kw)[0]
        else:
            out = model(**kw)[0]
    bwd = None
    if count_ops:
        b = OpCount()
        with b:
            out.float().pow(2).mean().backward()
        bwd = b.n[None]
    del out
    for h in hooks:
        h.remove()
    if ckpt:
        base.disable_gradient_checkpointing()
    return rec, names, ops.n, bwd


def kind_key(module, name: str, n_levels: int):
    shapes = tuple(sorted((type(m).__name__, tuple(p.shape)) for _, m in module.named_modules()
                          for p in m.parameters(recurse=False)))
    return (type(module).__name__, level_of(name, n_levels), hash(shapes))


def probe(name: str, trainings) -> dict:
    n_levels = len(MODELS[name]["cfg"]["block_out_channels"])
    sides = (16, 24)
    out = {}
    for training in trainings:
        model, base = build(name, training)
        segs = segments(base, inputs(name, 8))
        seg_names = {i: n for n, m in base.named_modules() for i in [id(m)] if i in segs}
        kinds: dict = {}
        for i, m in segs.items():
            kinds[i] = kind_key(m, seg_names[i], n_levels)
        per = {}
        for side in sides:
            plain, _, _, _ = run(name, model, base, segs, side, ckpt=False)
            held, _, _, _ = run(name, model, base, segs, side, ckpt=True)
            seg_bytes = defaultdict(float)
            for i in segs:
                seg_bytes[kinds[i]] += sum(plain.by_seg[i].values())
            outside = sum(plain.by_seg[None].values())
            every = {}
            for d in held.by_seg.values():
                every.update(d)
            every.update(held.inputs)
            per[side] = dict(n=side * side, seg=seg_bytes, outside=outside, held=sum(every.values()),
                             largest=max(sum(plain.by_seg[i].values()) for i in segs))
        _, _, fops, bops = run(name, model, base, segs, sides[0], ckpt=False, count_ops=True)
        a, b = per[sides[0]], per[sides[1]]
        dn = b["n"] - a["n"]

        def coef(x, y):
            slope = (y - x) / dn
            return dict(bytes_per_pixel=slope, bytes_at_text_tokens=x - slope * a["n"])

        count = defaultdict(int)
        ops = defaultdict(int)
        for i, k in kinds.items():
            count[k] += 1
            ops[k] += fops.get(i, 0)
        rows = []
        for k in sorted(count, key=lambda k: (k[1], k[0], k[2])):
            c = count[k]
            sample = next(seg_names[i] for i in kinds if kinds[i] == k)
            co = coef(a["seg"][k] / c, b["seg"][k] / c)
            rows.append(dict(cls=k[0], level=k[1], count=c, example=sample, **co,
                             ops_forward=ops[k] // c))
        out[training] = dict(
            segments=rows,
            outside=coef(a["outside"], b["outside"]),
            held_ckpt=coef(a["held"], b["held"]),
            ops_forward_outside=fops.get(None, 0),
            ops_backward=bops,
            trainable=sum(p.numel() for p in model.parameters() if p.requires_grad),
        )
        print(name, training, json.dumps(out[training]["held_ckpt"]), json.dumps(out[training]["outside"]),
              file=sys.stderr)
        del model, base
    out["params"] = sum(p.numel() for p in diffusers.UNet2DConditionModel(**MODELS[name]["cfg"]).parameters())
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="../../data/calibration/unet-saved.json")
    ap.add_argument("--only", help="comma-separated model names")
    ap.add_argument("--training", default="full,lora_attn,lora_all",
                    help="comma-separated trainings (one per process keeps SDXL's peak RSS under 24 GB)")
    a = ap.parse_args()
    rec = {
        "recorded": datetime.date.today().isoformat(),
        "versions": {"torch": torch.__version__, "diffusers": diffusers.__version__, "peft": peft.__version__},
        "dtype": "bfloat16",
        "text_tokens": TEXT,
        "lora_rank": 16,
        "models": {},
    }
    try:
        with open(a.out) as f:
            rec["models"] = json.load(f)["models"]
    except (OSError, ValueError, KeyError):
        pass
    for name in MODELS:
        if a.only and name not in a.only.split(","):
            continue
        rec["models"].setdefault(name, {}).update(probe(name, a.training.split(",")))
        with open(a.out, "w") as f:
            json.dump(rec, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
