#!/usr/bin/env python3
"""Segment Anything's allocated peak in a training step (issue 21: SAM): ground truth for the
moments tunefit models beside its allocator replay (crates/tunefit-core/src/memory/sam.rs
`pass`; test: tests/sam.rs).

sam_probe.py records what a forward keeps; this records the most that is live at once. One
training step of `SamModel` (sam-vit-base's config, random weights, one box prompt per image,
`multimask_output=False`, a sigmoid cross-entropy on the 256x256 mask) runs on the CPU under
`torch.profiler.profile(profile_memory=True)`, which reports every allocation and free of the
CPU allocator with the running total (as timeline.py reads it); the peak of live bytes above the
weights in the forward and in the backward is recorded. The first step: the optimizer's states
do not exist yet (AdamW creates them at its first `step()`).

A CPU runs SDPA with a float mask through the math path, whose score matrix no GPU kernel
builds: `EffSdpa` stands in for CUDA's memory-efficient kernel. Its forward writes the output
(b, n, heads, d) and an fp32 log-sum-exp tile by tile (64 query rows), keeps q, k, v, the bias
(rows padded to 16) and both; its backward recomputes tile by tile and writes the bias's
gradient whole, as the kernel does. Each record's query is the tunefit link of that step.

Usage:  .venv/bin/python sam_peak.py --out data/calibration/sam-peaks.json   (~4 min, 2 cores)
"""
import argparse
import json
import math
import sys

import peft
import torch
import transformers
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import records as records_io  # noqa: E402
from timeline import allocations  # noqa: E402  (every CPU allocator event, in order)


class EffSdpa(torch.autograd.Function):
    """CUDA's memory-efficient SDPA: no score matrix in the forward (64-row tiles), saves q, k,
    v, bias, out, lse; the backward recomputes tile by tile and writes grad_bias whole."""
    @staticmethod
    def forward(ctx, q, k, v, bias, scale):
        sc = scale if scale is not None else q.shape[-1] ** -0.5
        n = q.shape[-2]
        out = torch.empty(*q.shape[:-3], q.shape[-2], q.shape[-3], q.shape[-1], dtype=q.dtype).transpose(-3, -2)
        lse = torch.empty(*q.shape[:-2], 32 * math.ceil(n / 32), dtype=torch.float32)
        for i in range(0, n, 64):
            s = (q[..., i:i+64, :] @ k.transpose(-2, -1)).float() * sc
            if bias is not None:
                s = s + bias[..., i:i+64, :].float()
            lse[..., i:i+s.shape[-2]] = torch.logsumexp(s, -1)
            out[..., i:i+64, :] = torch.softmax(s, -1).to(q.dtype) @ v
            del s
        saved_bias = bias
        if bias is not None and bias.shape[-1] % 16:
            last = bias.shape[-1]
            buf = torch.empty(*bias.shape[:-1], 16 * math.ceil(last / 16), dtype=bias.dtype)
            buf[..., :last] = bias
            saved_bias = buf[..., :last]
        ctx.save_for_backward(q, k, v, saved_bias, out, lse)
        ctx.sc = sc
        ctx.has_bias = bias is not None
        return out
    @staticmethod
    def backward(ctx, g):
        q, k, v, bias, out, lse = ctx.saved_tensors
        sc = ctx.sc
        n = q.shape[-2]
        gq = torch.empty_like(q)
        gk = torch.zeros_like(k, dtype=torch.float32)
        gv = torch.zeros_like(v, dtype=torch.float32)
        gb = torch.empty(bias.shape, dtype=bias.dtype) if ctx.has_bias else None
        for i in range(0, n, 64):
            qi = q[..., i:i+64, :]
            s = (qi @ k.transpose(-2, -1)).float() * sc
            if bias is not None:
                s = s + bias[..., i:i+64, :].float()
            p = torch.exp(s - lse[..., i:i+s.shape[-2], None])
            del s
            gi = g[..., i:i+64, :]
            gv += p.transpose(-2, -1) @ gi.float()
            dp = (gi @ v.transpose(-2, -1)).float()
            ds = p * (dp - (gi.float() * out[..., i:i+64, :].float()).sum(-1, keepdim=True))
            del p, dp
            if gb is not None:
                gb[..., i:i+64, :] = ds.to(gb.dtype)
            gq[..., i:i+64, :] = ((ds @ k.float()) * sc).to(q.dtype)
            gk += (ds.transpose(-2, -1) @ qi.float()) * sc
            del ds
        return gq, gk.to(k.dtype), gv.to(v.dtype), gb, None


def sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, **kw):
    return EffSdpa.apply(query, key, value, attn_mask, scale)


torch.nn.functional.scaled_dot_product_attention = sdpa


def peaks(dtype, training, images, ckpt, attn):
    """(forward, backward) peaks of live bytes above the weights, one training step."""
    dt = {"bf16": torch.bfloat16, "fp32": torch.float32}[dtype]
    torch.manual_seed(0)
    cfg = transformers.SamConfig(vision_config=transformers.SamVisionConfig(
        hidden_size=768, num_hidden_layers=12, num_attention_heads=12, global_attn_indexes=[2, 5, 8, 11]))
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        model = transformers.SamModel._from_config(cfg, attn_implementation=attn).to(dt).train()
        if training == "decoder":
            for n, p in model.named_parameters():
                if n.startswith(("vision_encoder", "prompt_encoder")):
                    p.requires_grad_(False)
        elif training == "lora":
            model = peft.get_peft_model(model, peft.LoraConfig(
                r=16, lora_alpha=16, target_modules=["qkv"], modules_to_save=["mask_decoder"]))
        if ckpt:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        # Phase markers: allocations of odd sizes no tensor has (timeline.py's).
        mark = torch.empty(10007, dtype=torch.uint8)
        del mark
        pixels = torch.randn(images, 3, 1024, 1024, dtype=dt)
        boxes = torch.tensor([[[100.0, 120.0, 700.0, 640.0]]]).repeat(images, 1, 1)
        truth = (torch.rand(images, 1, 256, 256) > 0.5).float()
        out = model(pixel_values=pixels, input_boxes=boxes, multimask_output=False)
        mark = torch.empty(10009, dtype=torch.uint8)
        del mark
        logits = out.pred_masks.squeeze(1).float()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, truth)
        del out
        loss.backward()
        mark = torch.empty(10011, dtype=torch.uint8)
        del mark
    ev = allocations(prof)
    i0 = next(i for i, e in enumerate(ev) if e[2] == 10007)
    i1 = next(i for i, e in enumerate(ev) if e[2] == 10009)
    i2 = next(i for i, e in enumerate(ev) if e[2] == 10011)
    start = ev[i0][3] - 10007
    fwd = max(e[3] for e in ev[i0+2:i1]) - start
    bwd = max(e[3] for e in ev[i1+2:i2]) - start
    return fwd, bwd


QUERY = {
    "full": "method=full",
    "lora": "method=lora&targets=q,k,v&rank=16&lora_dropout=0",
    "decoder": "method=freeze&train_layers=0",
}
GRID = [
    # (dtype, training, images, checkpointing, attention)
    ("fp32", "decoder", 2, False, "sdpa"),
    ("fp32", "decoder", 1, False, "eager"),
    ("bf16", "lora", 1, False, "sdpa"),
    ("bf16", "lora", 2, True, "sdpa"),
    ("bf16", "full", 1, False, "sdpa"),
    ("bf16", "full", 1, True, "sdpa"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--one", nargs=5, metavar=("DTYPE", "TRAINING", "IMAGES", "CKPT", "ATTN"))
    args = ap.parse_args()
    if args.one:
        d, training, images, ckpt, attn = args.one
        fwd, bwd = peaks(d, training, int(images), ckpt == "1", attn)
        print(fwd, bwd)
        return
    records = []
    for d, training, images, ckpt, attn in GRID:
        precision = {"fp32": "fp32", "bf16": "bf16-true"}[d]
        ac = "&autocast=0" if precision.endswith("-true") else ""  # no autocast over a 16-bit model
        query = (f"framework=hf&model=sam-vit-base&{QUERY[training]}&precision={precision}{ac}&batch={images}"
                 f"&ckpt={'full' if ckpt else 'none'}&attn={attn}&optim=adamw")
        fwd, bwd = records_io.in_child(__file__, d, training, images, int(ckpt), attn)[-2:]
        rec = dict(query=query, forward_peak_bytes=int(fwd), backward_peak_bytes=int(bwd))
        print(json.dumps(rec), flush=True)
        records.append(rec)
    if args.out:
        records_io.write(args.out, "Peaks of live bytes above the weights in the first training step of SamModel "
                         "(sam-vit-base's config, random weights, CPU allocator under torch.profiler; CUDA's "
                         "memory-efficient SDPA emulated): tools/calibrate/sam_peak.py. No optimizer states "
                         "exist in a first step.", records)

if __name__ == "__main__":
    main()
