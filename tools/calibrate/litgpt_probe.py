"""What one litgpt block keeps for backward under LoRA: the saved tensors of a real forward of
litgpt's own model code (litgpt 0.5.13 = Lightning-AI/litgpt @26857050, `litgpt.lora.GPT`), per
block, as the difference between a three-block and a two-block model of the same shapes.

litgpt fuses q, k and v into one linear (`CausalSelfAttention.attn`) and adapts it with one
`LoRAQKVLinear`; its `zero_pad` writes lora_B's output into a zero-filled q + k + v-wide tensor
with `index_copy_` when only some of q, k, v are adapted, and autograd keeps that source for
backward. The records pin the estimate's litgpt profile to what the code keeps.

LoRA dropout is off: aten's `dropout` takes the fused `native_dropout`, which keeps a one-byte
mask, only on CUDA-like devices (aten/src/ATen/native/Dropout.cpp `is_fused_kernel_acceptable`);
on the CPU `_dropout_impl` multiplies by a noise tensor of the input's dtype, e − 1 bytes per
element more than a GPU keeps.

`python litgpt_probe.py [--out FILE]` writes the records; `--one NAME LAYERS TARGETS RANK` prints
one model's saved bytes (a child process per record, records.py).
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from records import SavedBytes, per_block, write  # noqa: E402

BATCH, SEQ = 2, 256
# litgpt's config name -> tunefit preset.
MODELS = {"Llama-2-7b-hf": "llama-2-7b", "Llama-3.2-1B": "llama-3.2-1b", "phi-1_5": "phi-1.5",
          "Phi-3-mini-4k-instruct": "phi-3-mini"}
# tunefit targets -> litgpt's LoRA switches.
SWITCHES = {"q": "lora_query", "k": "lora_key", "v": "lora_value", "o": "lora_projection"}


def saved(name, layers, targets, rank):
    import litgpt.lora as lora
    from litgpt.utils import chunked_cross_entropy
    torch.manual_seed(0)
    flags = {s: False for s in SWITCHES.values()} | {"lora_mlp": False, "lora_head": False}
    for t in targets.split(","):
        if t == "all":
            flags = {k: True for k in flags} | {"lora_head": False}
        else:
            flags[SWITCHES[t]] = True
    cfg = lora.Config.from_name(name, n_layer=layers, lora_r=rank, lora_alpha=2 * rank, lora_dropout=0.0, **flags)
    torch.set_default_dtype(torch.bfloat16)
    model = lora.GPT(cfg)
    torch.set_default_dtype(torch.float32)
    # finetune/lora.py sets the longest sample's length, which rebuilds the rope cache.
    model.max_seq_length = SEQ
    lora.mark_only_lora_as_trainable(model)
    model.train()
    idx = torch.randint(0, cfg.padded_vocab_size, (BATCH, SEQ))
    with SavedBytes(model) as s:
        logits = model(idx, lm_head_chunk_size=128)
        logits[-1] = logits[-1][..., :-1, :]
        chunked_cross_entropy(logits, idx[..., 1:])
    return s.bytes


GRID = [
    # (litgpt config, targets, rank)
    ("Llama-2-7b-hf", "q,v", 8),
    ("Llama-2-7b-hf", "q", 8),
    ("Llama-2-7b-hf", "all", 8),
    ("Llama-3.2-1B", "q,v", 32),
    ("Llama-3.2-1B", "k,v", 32),
    ("Llama-3.2-1B", "all", 32),
    ("phi-1_5", "q,v", 8),
    # Phi-3's checkpoint fuses qkv and gate_up; litgpt converts it to its own `attn` and LLaMAMLP.
    ("Phi-3-mini-4k-instruct", "q,v", 8),
    ("Phi-3-mini-4k-instruct", "all", 8),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--one", nargs=4, metavar=("NAME", "LAYERS", "TARGETS", "RANK"))
    args = ap.parse_args()
    if args.one:
        name, layers, targets, rank = args.one
        print(saved(name, int(layers), targets, int(rank)))
        return
    records = []
    for name, targets, rank in GRID:
        query = (f"framework=litgpt&model={MODELS[name]}&method=lora&rank={rank}&targets={targets}"
                 f"&lora_dropout=0&precision=bf16-true&batch={BATCH}&seq={SEQ}&ckpt=none&packing=1")
        records.append(dict(per_block(__file__, query, name, targets, rank), litgpt=name))
    if args.out:
        from importlib.metadata import version
        write(args.out, "What one litgpt LoRA block keeps for backward: saved tensors of a real forward of litgpt "
              f"{version('litgpt')}'s model (bf16, CPU), three blocks less two, LoRA dropout off "
              "(litgpt_probe.py).", records)


if __name__ == "__main__":
    main()
