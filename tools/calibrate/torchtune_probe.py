"""What one torchtune block keeps for backward: the saved tensors of a real forward of torchtune's
own model code (torchtune 0.6.1, `torchtune.models.llama2.lora_llama2` / `llama2`, and
`llama3_2.lora_llama3_2` for GQA), per block, as the difference between a three-block and a
two-block model of the same shapes.

torchtune's modules are its own (RMSNorm, MultiHeadAttention, LoRALinear, FrozenNF4Linear over
torchao's NF4Tensor), not transformers', so the estimate's torchtune profile is held to them
here as the HF probe holds the hf profile.

torchtune imports its data stack at package import (datasets, torchdata, tokenizer libraries);
the model code needs none of it, so those packages are stubbed (`_stub_data_stack`). LoRA
dropout is off (on the CPU aten's dropout keeps a noise tensor of the input's dtype, where CUDA
keeps a one-byte mask: litgpt_probe.py).

`python torchtune_probe.py [--out FILE]` writes the records; `--one MODEL LAYERS TARGETS RANK
QUANT` prints one model's saved bytes (a child process per record, records.py).
"""
import argparse
import importlib.abc
import importlib.machinery
import os
import sys
import types

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from records import SavedBytes, per_block, write  # noqa: E402

BATCH, SEQ = 2, 256
ATTN = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "output_proj"}


def _stub_data_stack():
    class Any_:
        def __class_getitem__(cls, _):
            return cls

        def __init__(self, *a, **k):
            pass

    class Stub(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        roots = ("datasets", "torchdata", "tiktoken", "blobfile", "sentencepiece", "kagglehub")

        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in self.roots:
                return importlib.machinery.ModuleSpec(name, self, is_package=True)

        def create_module(self, spec):
            m = types.ModuleType(spec.name)
            m.__path__ = []
            m.__getattr__ = lambda attr: type(attr, (Any_,), {})
            return m

        def exec_module(self, m):
            pass

    sys.meta_path.insert(0, Stub())


# tunefit preset -> torchtune builder keyword arguments (the models' own configs).
SHAPES = {
    "llama-2-7b": dict(vocab_size=32000, num_heads=32, num_kv_heads=32, embed_dim=4096, max_seq_len=4096,
                       intermediate_dim=11008),
    "llama-3.2-1b": dict(vocab_size=128256, num_heads=32, num_kv_heads=8, embed_dim=2048, max_seq_len=131072,
                         intermediate_dim=8192),
}


def build(model, layers, targets, rank, quant):
    from torchtune.models.llama2._component_builders import llama2, lora_llama2
    from torchtune.models.llama3_2._component_builders import llama3_2, lora_llama3_2
    from torchtune.modules.peft import get_adapter_params, set_trainable_params
    llama3 = model.startswith("llama-3")
    kw = dict(SHAPES[model], num_layers=layers)
    if llama3:
        kw.pop("max_seq_len")
        kw["max_seq_len"] = 8192
    if targets == "full":
        m = (llama3_2 if llama3 else llama2)(**kw)
        return m
    names = ["q", "k", "v", "o"] if targets == "all" else targets.split(",")
    lora = lora_llama3_2 if llama3 else lora_llama2
    m = lora(lora_attn_modules=[ATTN[n] for n in names if n in ATTN], apply_lora_to_mlp=targets == "all",
             apply_lora_to_output=False, lora_rank=rank, lora_alpha=2 * rank, lora_dropout=0.0,
             quantize_base=quant == "nf4", **kw)
    set_trainable_params(m, get_adapter_params(m))
    return m


def saved(model, layers, targets, rank, quant):
    _stub_data_stack()
    torch.manual_seed(0)
    torch.set_default_dtype(torch.bfloat16)
    m = build(model, layers, targets, rank, quant)
    torch.set_default_dtype(torch.float32)
    m.train()
    vocab = SHAPES[model]["vocab_size"]
    tokens = torch.randint(0, vocab, (BATCH, SEQ))
    with SavedBytes(m) as s:
        # torchtune builds a rope cache per attention layer (`RotaryPositionalEmbeddings`, a
        # buffer of max_seq_len rows); the forward saves a slice of it, which is model state
        # allocated at build, not a tensor of the step.
        s.params |= {b.untyped_storage()._cdata for b in m.buffers()}
        logits = m(tokens)
        torch.nn.functional.cross_entropy(logits.reshape(-1, vocab)[:-1], tokens.reshape(-1)[1:])
    return s.bytes


GRID = [
    # (preset, targets, rank, quant)
    ("llama-2-7b", "q,v", 8, "none"),
    ("llama-2-7b", "all", 8, "none"),
    ("llama-2-7b", "all", 8, "nf4"),
    ("llama-2-7b", "full", 0, "none"),
    ("llama-3.2-1b", "q,v", 64, "none"),
    ("llama-3.2-1b", "all", 64, "none"),
    ("llama-3.2-1b", "full", 0, "none"),
]


def query(model, targets, rank, quant):
    method = "full" if targets == "full" else ("qlora&quant=nf4&dq=1" if quant == "nf4" else "lora")
    adapters = "" if targets == "full" else f"&rank={rank}&targets={targets}&lora_dropout=0"
    return (f"framework=torchtune&model={model}&method={method}{adapters}&precision=bf16-true"
            f"&batch={BATCH}&seq={SEQ}&ckpt=none&packing=1&compile=0")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--one", nargs=5, metavar=("MODEL", "LAYERS", "TARGETS", "RANK", "QUANT"))
    args = ap.parse_args()
    if args.one:
        model, layers, targets, rank, quant = args.one
        print(saved(model, int(layers), targets, int(rank), quant))
        return
    records = []
    for model, targets, rank, quant in GRID:
        records.append(per_block(__file__, query(model, targets, rank, quant), model, targets, rank, quant))
    if args.out:
        from importlib.metadata import version
        write(args.out, "What one torchtune block keeps for backward: saved tensors of a real forward of torchtune "
              f"{version('torchtune')}'s model code (torchao {version('torchao')}; bf16, CPU), three blocks less two, "
              "LoRA dropout off (torchtune_probe.py).", records)


if __name__ == "__main__":
    main()
