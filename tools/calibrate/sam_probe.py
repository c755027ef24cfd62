#!/usr/bin/env python3
"""What Segment Anything saves for backward (issue 21: SAM): ground truth for tunefit's SAM
activation model (crates/tunefit-core/src/memory/sam.rs; test: tests/sam.rs).

transformers' `SamModel` is built from facebook/sam-vit-base's config (12 blocks of 768, 12
heads, MLP 3072, 14×14 windows, global attention in blocks 2, 5, 8 and 11, a 1024² image:
64×64 patches) with random weights on the CPU (no download). One training forward runs over
`images` images with one box prompt each and `multimask_output=False`, as the fine-tuning
notebook does (NielsRogge/Transformers-Tutorials SAM/Fine_tune_SAM_(segment_anything)_on_a_custom_dataset.ipynb),
and a sigmoid cross-entropy plus Dice loss on the 256×256 low-resolution mask in fp32 (the
notebook's monai `DiceCELoss(sigmoid=True, squared_pred=True)`). `torch.autograd.graph.saved_tensors_hooks`
collects every tensor autograd saves, storages deduplicated by identity, parameters left out.

A CPU runs SDPA with a float mask through the math path (an fp32 score matrix per head); a
CUDA GPU runs the memory-efficient kernel, which keeps q, k, v, the bias (its rows padded to a
multiple of 16 elements: `preprocess_mask` / `pad_bias`, aten/src/ATen/native/transformers/
attention.cpp), the output (written (b, n, heads, d): the `permute(...).reshape` SAM applies
afterwards is then a view) and an fp32 log-sum-exp per head and 32 rows. The probe runs that
kernel's saves (`GpuSdpa`); eager attention is plain ops, the same on both.

Trainings: every parameter (`full`); PEFT LoRA r 16 on the encoder's `qkv` with the mask decoder
in `modules_to_save` (`lora`); the notebook's mask decoder alone, the image and prompt encoders
frozen (`decoder`). Weights fp32 (the checkpoint's dtype, as the notebook loads them) or bf16,
or fp32 under bf16 autocast (`mixed`: CPU autocast, whose op lists put linears, convolutions and
matmuls in 16 bits and LayerNorm in fp32, as CUDA's do).

Usage:  .venv/bin/python sam_probe.py --out data/calibration/sam-saved.json   (~10 min, 2 cores)
"""
from __future__ import annotations

import argparse
import json
import math
import sys

import peft
import torch
import transformers

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import records as records_io  # noqa: E402


class GpuSdpa(torch.autograd.Function):
    """SDPA with the saves of CUDA's memory-efficient kernel (no backward: the probe only
    forwards)."""

    @staticmethod
    def forward(ctx, q, k, v, bias, scale):
        with torch.no_grad():
            s = (q @ k.transpose(-2, -1)) * (scale if scale is not None else q.shape[-1] ** -0.5)
            if bias is not None:
                s = s + bias
            p = torch.softmax(s.float(), dim=-1).to(q.dtype)
            o = p @ v
            del s, p
            # Output stored (…, n, heads, d) and handed back transposed, as the kernel does.
            out = o.transpose(-3, -2).contiguous().transpose(-3, -2)
            n = q.shape[-2]
            lse = torch.empty(*q.shape[:-2], 32 * math.ceil(n / 32), dtype=torch.float32)
            saved_bias = None
            if bias is not None:
                last = bias.shape[-1]
                padded = 16 * math.ceil(last / 16)
                if padded != last or not bias.is_contiguous():
                    buf = torch.empty(*bias.shape[:-1], padded, dtype=bias.dtype)
                    buf[..., :last] = bias
                    saved_bias = buf[..., :last]
                else:
                    saved_bias = bias
        if any(t is not None and t.requires_grad for t in (q, k, v, bias)):
            ctx.save_for_backward(q, k, v, saved_bias, out, lse)
        return out

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the probe only runs forwards")


def sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, **kw):
    assert not is_causal and dropout_p == 0.0
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        raise AssertionError("SAM passes float biases")
    return GpuSdpa.apply(query, key, value, attn_mask, scale)


torch.nn.functional.scaled_dot_product_attention = sdpa

BASE = dict(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, global_attn_indexes=[2, 5, 8, 11])


def saved_bytes(dtype, training, attn, images):
    torch.manual_seed(0)
    # `mixed`: fp32 weights under bf16 autocast (the Trainer's bf16=True over an fp32 load).
    mixed = dtype == "mixed"
    dt = {"fp32": torch.float32, "bf16": torch.bfloat16, "mixed": torch.float32}[dtype]
    cfg = transformers.SamConfig(vision_config=transformers.SamVisionConfig(**BASE))
    model = transformers.SamModel._from_config(cfg, attn_implementation=attn).to(dt).train()
    if training == "decoder":
        for n, p in model.named_parameters():
            if n.startswith(("vision_encoder", "prompt_encoder")):
                p.requires_grad_(False)
    elif training == "lora":
        model = peft.get_peft_model(model, peft.LoraConfig(
            r=16, lora_alpha=16, lora_dropout=0.0, target_modules=["qkv"], modules_to_save=["mask_decoder"]))
    pixels = torch.randn(images, 3, 1024, 1024, dtype=dt)
    boxes = torch.tensor([[[100.0, 120.0, 700.0, 640.0]]]).repeat(images, 1, 1)
    truth = (torch.rand(images, 1, 256, 256) > 0.5).float()
    with records_io.SavedBytes(model) as saved, torch.autocast("cpu", dtype=torch.bfloat16, enabled=mixed):
        out = model(pixel_values=pixels, input_boxes=boxes, multimask_output=False)
        logits = out.pred_masks.squeeze(1).float()
        ce = torch.nn.functional.binary_cross_entropy_with_logits(logits, truth)
        p = torch.sigmoid(logits)
        dice = 1 - (2 * (p * truth).sum() + 1e-5) / ((p * p).sum() + (truth * truth).sum() + 1e-5)
        loss = ce + dice
    del out, loss
    return saved.bytes


QUERY = {
    "full": "method=full",
    "lora": "method=lora&targets=q,k,v&rank=16&lora_dropout=0",
    "decoder": "method=freeze&train_layers=0",
}
PRECISION = {"fp32": "fp32", "bf16": "bf16-true", "mixed": "bf16-mixed"}
GRID = [
    # (dtype, training, attn, images)
    ("fp32", "decoder", "sdpa", 2),
    ("fp32", "decoder", "sdpa", 1),
    ("bf16", "decoder", "sdpa", 2),
    ("bf16", "full", "sdpa", 1),
    ("bf16", "full", "sdpa", 2),
    ("fp32", "full", "sdpa", 1),
    ("bf16", "lora", "sdpa", 1),
    ("fp32", "lora", "sdpa", 1),
    ("bf16", "full", "eager", 1),
    ("bf16", "lora", "eager", 1),
    ("mixed", "full", "sdpa", 1),
    ("mixed", "decoder", "sdpa", 2),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--one", nargs=4, metavar=("DTYPE", "TRAINING", "ATTN", "IMAGES"))
    args = ap.parse_args()
    if args.one:
        # One forward per process: a global block's fp32 bias is 0.8 GB an image.
        d, training, attn, images = args.one
        print(saved_bytes(d, training, attn, int(images)))
        return
    records = []
    for d, training, attn, images in GRID:
        ac = "&autocast=0" if PRECISION[d].endswith("-true") else ""  # no autocast over a 16-bit model
        query = (f"framework=hf&model=sam-vit-base&{QUERY[training]}&precision={PRECISION[d]}{ac}"
                 f"&batch={images}&ckpt=none&attn={attn}")
        rec = dict(query=query, saved_bytes=int(records_io.in_child(__file__, d, training, attn, images)[-1]))
        print(json.dumps(rec), flush=True)
        records.append(rec)
    if args.out:
        records_io.write(args.out, "Bytes autograd saves in one training forward of SamModel (sam-vit-base's config, "
                         "random weights on the CPU, CUDA's memory-efficient SDPA saves emulated; storages "
                         "deduplicated, parameters left out): tools/calibrate/sam_probe.py. Each query is the "
                         "tunefit link of that forward.", records)


if __name__ == "__main__":
    main()
