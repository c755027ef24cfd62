#!/usr/bin/env python3
"""What a vision-language model's vision tower saves for backward (issue 21: `images`, `tower`).

Ground truth for tunefit's tower activation model (crates/tunefit-core/src/memory/saved.rs
`tower_saved`), as probe.py is for the language models. Each tower class of transformers is
built from its published vision config with one and with two blocks at full width (random bf16
weights on the CPU, no download), one training forward runs over one image's patches, and
`torch.autograd.graph.saved_tensors_hooks` collects every tensor autograd saves; storages are
deduplicated by identity and the parameters left out.

Per block: the two-block tower less the one-block tower. Outside the blocks: the one-block
tower less one block (the patch embedding and the merger). Three trainings: every parameter
(`full`), PEFT LoRA rank 16 on every linear of the blocks as Unsloth's
`finetune_vision_layers` picks them (`lora`), and frozen (`frozen`: nothing needs a gradient).

Usage:  .venv/bin/python vision_probe.py [--out PATH]     (about a minute on 2 cores)
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys

import torch
import transformers
import peft

torch.manual_seed(0)
DT = torch.bfloat16

# Each checkpoint's `vision_config` (Qwen/Qwen2.5-VL-7B-Instruct, Qwen/Qwen2-VL-7B-Instruct,
# google/gemma-3-4b-it), as the catalog's presets transcribe them (crates/tunefit-core/src/catalog.rs).
TOWERS = {
    "qwen2.5-vl-7b": dict(
        cls="Qwen2_5_VisionTransformerPretrainedModel",
        module="transformers.models.qwen2_5_vl.modeling_qwen2_5_vl",
        cfg_cls="Qwen2_5_VLVisionConfig",
        cfg=dict(hidden_size=1280, intermediate_size=3420, num_heads=16, out_hidden_size=3584,
                 patch_size=14, spatial_merge_size=2, temporal_patch_size=2, window_size=112,
                 fullatt_block_indexes=[7, 15, 23, 31], hidden_act="silu"),
        depth_key="depth",
        targets=r".*blocks\.\d+\.(attn\.(qkv|proj)|mlp\.(gate_proj|up_proj|down_proj))",
    ),
    "qwen2-vl-7b": dict(
        cls="Qwen2VisionTransformerPretrainedModel",
        module="transformers.models.qwen2_vl.modeling_qwen2_vl",
        cfg_cls="Qwen2VLVisionConfig",
        cfg=dict(embed_dim=1280, mlp_ratio=4, num_heads=16, hidden_size=3584, patch_size=14,
                 spatial_merge_size=2, temporal_patch_size=2, hidden_act="quick_gelu"),
        depth_key="depth",
        targets=r".*blocks\.\d+\.(attn\.(qkv|proj)|mlp\.(fc1|fc2))",
    ),
    # Qwen/Qwen3-VL-8B-Instruct `vision_config`; its DeepStack mergers take the outputs of
    # blocks 8, 16 and 24, which a one- or two-block tower does not have: the towers are built
    # without them, and one merger on block 0's output is measured apart (`per_deepstack`).
    "qwen3-vl-8b": dict(
        cls="Qwen3VLVisionModel",
        module="transformers.models.qwen3_vl.modeling_qwen3_vl",
        cfg_cls="Qwen3VLVisionConfig",
        cfg=dict(hidden_size=1152, intermediate_size=4304, num_heads=16, out_hidden_size=4096,
                 patch_size=16, spatial_merge_size=2, temporal_patch_size=2,
                 num_position_embeddings=2304, deepstack_visual_indexes=[],
                 hidden_act="gelu_pytorch_tanh"),
        depth_key="depth",
        targets=r".*blocks\.\d+\.(attn\.(qkv|proj)|mlp\.(linear_fc1|linear_fc2))",
        patch=16,
    ),
    # google/gemma-3-4b-it `vision_config` (SigLIP So400m without its pooling head); the
    # processor resizes every image to 896².
    "gemma-3-4b": dict(
        cls="SiglipVisionModel",
        module="transformers.models.siglip.modeling_siglip",
        cfg_cls="SiglipVisionConfig",
        cfg=dict(hidden_size=1152, intermediate_size=4304, num_attention_heads=16, image_size=896,
                 patch_size=14, hidden_act="gelu_pytorch_tanh", vision_use_head=False),
        depth_key="num_hidden_layers",
        targets=r".*encoder\.layers\.\d+\.(self_attn\.(q_proj|k_proj|v_proj|out_proj)|mlp\.(fc1|fc2))",
        side=896,
    ),
}

# One image of SIDE×SIDE pixels: (SIDE/14)² patches (a tower with its own `side` resizes to it).
SIDE = 448


def build(name, depth, **extra):
    spec = TOWERS[name]
    mod = __import__(spec["module"], fromlist=[spec["cls"]])
    cfg_mod = sys.modules[spec["module"].replace("modeling_", "configuration_")] \
        if spec["module"].replace("modeling_", "configuration_") in sys.modules else \
        __import__(spec["module"].replace("modeling_", "configuration_"), fromlist=[spec["cfg_cls"]])
    cfg = getattr(cfg_mod, spec["cfg_cls"])(**{**spec["cfg"], spec["depth_key"]: depth, **extra})
    cfg._attn_implementation = "sdpa"
    model = getattr(mod, spec["cls"])._from_config(cfg, torch_dtype=DT)
    return model.train()


def side(name):
    return TOWERS[name].get("side", SIDE)


def patch(name):
    return TOWERS[name].get("patch", 14)


def forward(name, model):
    p = side(name) // patch(name)
    if "side" in TOWERS[name]:
        return model(pixel_values=torch.randn(1, 3, side(name), side(name), dtype=DT))
    grid = torch.tensor([[1, p, p]])
    pixels = torch.randn(p * p, 3 * 2 * patch(name) ** 2, dtype=DT)
    return model(pixels, grid_thw=grid)


def saved_bytes(name, depth, training, **extra):
    model = build(name, depth, **extra)
    if training == "frozen":
        model.requires_grad_(False)
    elif training == "lora":
        model.requires_grad_(False)
        lcfg = peft.LoraConfig(r=16, lora_alpha=16, lora_dropout=0.0,
                               target_modules=TOWERS[name]["targets"])
        model = peft.get_peft_model(model, lcfg)
    params = {p.untyped_storage()._cdata for p in model.parameters()}
    seen = {}

    def pack(t):
        if isinstance(t, torch.Tensor):
            st = t.untyped_storage()
            if st._cdata not in params:
                seen[st._cdata] = (st.nbytes(), st)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = forward(name, model)
    del out
    return sum(b for b, _ in seen.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    records = []
    for name in TOWERS:
        for training in ("full", "lora", "frozen"):
            one, two = saved_bytes(name, 1, training), saved_bytes(name, 2, training)
            rec = dict(model=name, training=training, side=side(name), patches=(side(name) // patch(name)) ** 2,
                       per_block=two - one, outside=one - (two - one))
            if "deepstack_visual_indexes" in TOWERS[name]["cfg"]:
                rec["per_deepstack"] = saved_bytes(name, 1, training, deepstack_visual_indexes=[0]) - one
            print(json.dumps(rec), flush=True)
            records.append(rec)
    doc = dict(
        generated=datetime.date.today().isoformat(),
        tool="tools/calibrate/vision_probe.py",
        versions=dict(torch=torch.__version__, transformers=transformers.__version__, peft=peft.__version__),
        dtype="bfloat16", attention="sdpa (CPU, no mask: the flash kernel's saves)",
        records=records,
    )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
