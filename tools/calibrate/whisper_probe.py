#!/usr/bin/env python3
"""What Whisper saves for backward (issue 21: speech): ground truth for tunefit's encoder-decoder
activation model (crates/tunefit-core/src/memory/speech.rs; test: tests/speech.rs).

transformers' `WhisperForConditionalGeneration` is built from two published configs (whisper-small:
12 + 12 blocks of 768, 12 heads, MLP 3072, 80 mel bins; whisper-large-v3-turbo: 32 encoder and 4
decoder blocks of 1280, 20 heads, 5120, 128 mel bins) with random bf16 weights on the CPU (no
download). One training forward runs over `clips` 30-second clips (3000 mel frames, 1500 encoder
positions) and `labels` decoder tokens, with SDPA; `torch.autograd.graph.saved_tensors_hooks`
collects every tensor autograd saves, storages deduplicated by identity, parameters left out
(as probe.py and vision_probe.py do); dropout keeps a 1-byte mask, as on a GPU. Each 16-bit
training runs twice: without autocast (`autocast=0`), its loss the model's own cross-entropy of
the 16-bit logits, and under bf16 autocast (`autocast=1`, the Trainer's bf16=True over a bf16
load), its log-softmax in fp32 as CUDA's autocast runs it (the CPU's does not: the probe upcasts
the logits itself, as under `*-mixed`). Trainings: every parameter (`full`; the encoder's
sinusoidal positions stay frozen, as `WhisperEncoder.__init__` sets them) and PEFT LoRA r 32
on q_proj and v_proj, without dropout and with PEFT's Whisper example's 0.05 (its fp32
adapters cast their input: each adapted linear keeps an fp32 copy); and whisper-small's fp32
weights under bf16 autocast (`bf16-mixed`: the Trainer's bf16=True over an fp32 load), full and
LoRA on every attention linear.

Usage:  .venv/bin/python whisper_probe.py --out data/calibration/whisper-saved.json   (~15 min)
"""
from __future__ import annotations

import argparse
import json
import sys

import peft
import torch
import transformers

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import records as records_io  # noqa: E402

DT = torch.bfloat16
WIDTHS = {
    "whisper-small": dict(d_model=768, encoder_attention_heads=12, decoder_attention_heads=12,
                          encoder_ffn_dim=3072, decoder_ffn_dim=3072, num_mel_bins=80, vocab_size=51865,
                          encoder_layers=12, decoder_layers=12),
    "whisper-large-v3-turbo": dict(d_model=1280, encoder_attention_heads=20, decoder_attention_heads=20,
                                   encoder_ffn_dim=5120, decoder_ffn_dim=5120, num_mel_bins=128,
                                   vocab_size=51866, encoder_layers=32, decoder_layers=4),
}


class BoolMaskDropout(torch.autograd.Function):
    """Dropout as CUDA's fused `native_dropout` keeps it: a 1-byte mask and the dropped output.
    CPU dropout keeps a mask in the input's dtype (merge.py corrects probe.py's records the
    same way)."""

    @staticmethod
    def forward(ctx, x, p):
        mask = torch.rand_like(x, dtype=torch.float32) >= p
        ctx.save_for_backward(mask)
        ctx.scale = 1.0 / (1.0 - p)
        return x * mask * ctx.scale

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask * ctx.scale, None


_dropout = torch.nn.functional.dropout


def dropout(x, p=0.5, training=True, inplace=False):
    if training and p > 0:
        return BoolMaskDropout.apply(x, p)
    return _dropout(x, p, training, inplace)


torch.nn.functional.dropout = dropout


def saved_bytes(width, labels, training, clips):
    torch.manual_seed(0)
    cfg = transformers.WhisperConfig(**WIDTHS[width])
    cfg._attn_implementation = "sdpa"
    # `*-mixed`: fp32 weights under bf16 autocast (the Trainer's bf16=True over an fp32 load).
    mixed = training.endswith("-mixed")
    # `-ac`: the bf16 model under bf16 autocast (the Trainer's bf16=True over a bf16 load).
    ac = training.endswith("-ac")
    training = training.removesuffix("-mixed").removesuffix("-ac")
    model = transformers.WhisperForConditionalGeneration._from_config(
        cfg, dtype=torch.float32 if mixed else DT).train()
    if training.startswith("lora"):
        targets = ["q_proj", "k_proj", "v_proj", "out_proj"] if training == "lora-attn" else ["q_proj", "v_proj"]
        lcfg = peft.LoraConfig(r=32, lora_alpha=64, target_modules=targets,
                               lora_dropout=0.05 if training == "lora-dropout" else 0.0)
        model = peft.get_peft_model(model, lcfg)
    feats = torch.randn(clips, cfg.num_mel_bins, 3000, dtype=torch.float32 if mixed else DT)
    ids = torch.randint(0, cfg.vocab_size, (clips, labels))
    # The loss: under autocast (accelerate wraps the forward in it for the Trainer's bf16/fp16
    # flag) CUDA runs log_softmax in fp32 (autocast's fp32 list), so the saved log-probabilities
    # are fp32 whatever the weights and the logits stay 16-bit; without autocast the model's own
    # CrossEntropyLoss takes the 16-bit logits as they come.
    start = torch.full((clips, 1), cfg.decoder_start_token_id)
    autocast = mixed or ac
    with records_io.SavedBytes(model) as saved, torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        out = model(input_features=feats, decoder_input_ids=torch.cat([start, ids[:, :-1]], dim=1))
        logits = out.logits.float() if autocast else out.logits
        loss = torch.nn.functional.cross_entropy(logits.view(-1, cfg.vocab_size), ids.view(-1))
    del out, loss
    return saved.bytes


QUERY = {
    "full": "method=full",
    "lora": "method=lora&targets=q,v&rank=32&lora_dropout=0",
    "lora-dropout": "method=lora&targets=q,v&rank=32&lora_dropout=0.05",
    "full-ac": "method=full",
    "lora-ac": "method=lora&targets=q,v&rank=32&lora_dropout=0",
    "lora-dropout-ac": "method=lora&targets=q,v&rank=32&lora_dropout=0.05",
    "full-mixed": "method=full",
    "lora-attn-mixed": "method=lora&targets=q,k,v,o&rank=32&lora_dropout=0",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--one", nargs=4, metavar=("WIDTH", "LABELS", "TRAINING", "CLIPS"))
    args = ap.parse_args()
    if args.one:
        # One forward per process: a large-v3-turbo's saved tensors and weights are ~9 GB, and
        # what an earlier forward leaves in the process would add to the next one's peak.
        w, labels, training, clips = args.one
        print(saved_bytes(w, int(labels), training, int(clips)))
        return
    records = []
    for width in WIDTHS:
        for training in QUERY:
            # large-v3-turbo at two clips would hold ~9 GB on the CPU: one clip; under autocast
            # whisper-small only, at one clip and 64 labels.
            grid = ((64, 1), (128, 1), (64, 2))[: 3 if width == "whisper-small" else 2]
            if training.endswith("-mixed"):
                if width != "whisper-small":
                    continue
                grid = grid[:1]
            for labels, clips in grid:
                precision = "bf16-mixed" if training.endswith("-mixed") else "bf16-true"
                ac = ("&autocast=1" if training.endswith("-ac") else "&autocast=0") if precision.endswith("-true") else ""
                query = (f"framework=hf&model={width}&{QUERY[training]}&precision={precision}{ac}&batch={clips}"
                         f"&seq={labels}&ckpt=none&attn=sdpa")
                one = records_io.in_child(__file__, width, labels, training, clips)[-1]
                rec = dict(query=query, saved_bytes=int(one))
                print(json.dumps(rec), flush=True)
                records.append(rec)
    if args.out:
        records_io.write(args.out, "Bytes autograd saves in one training forward of WhisperForConditionalGeneration "
                         "(random bf16 weights on the CPU, SDPA; storages deduplicated, parameters left out): "
                         "tools/calibrate/whisper_probe.py. Each query is the tunefit link of that forward.", records)


if __name__ == "__main__":
    main()
