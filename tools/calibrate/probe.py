#!/usr/bin/env python3
"""Measure what autograd holds for backward at the end of one training forward pass.

Ground truth for tunefit's `memory.saved_for_backward` (issue 8). For each case a model of a
real architecture is built from its config (random weights, no download) on the CPU with
only a few layers at full width; one forward pass with labels (so the loss is included) runs
in train mode, and the probe counts the bytes of every tensor storage that is still alive
when the forward returns, except the parameters and buffers. What is saved for backward does
not depend on the device or on the weight values, so these bytes are what a GPU run holds
(except where the attention kernel chosen differs: see docs/saved-tensors.md).

How bytes are found (two views that must agree; both go into the record):
  * a TorchDispatchMode sees every tensor an aten op creates and keeps a weak reference to
    its storage, tagged with the module that was running and the op that created it;
  * torch.autograd.graph.saved_tensors_hooks sees every tensor autograd saves (tagged
    `held_by: autograd`); storages alive but not saved are held by something else
    (non-reentrant checkpointing keeps its layer inputs in a closure: `held_by: other`).
Storages are deduplicated by identity, so views (q/k/v split of a fused projection, a
transpose) count once, at the size of the whole storage — the memory actually held.

Scaling to the real model: bytes are attributed to the block whose forward created them;
    saved_bytes = non_layer + first_block + per_layer * (real_layers - 2) + last_block
Three blocks are built: the first differs under PEFT (its input needs no gradient), the last
under checkpointing (no next checkpoint holds its output); middle blocks are identical
(Gemma 2 alternates sliding/global attention, which changes no saved tensor at seq <= 4096). Prefix tuning's prefix keys/values are created once for all layers
by the prompt encoder; their bytes are scaled by real_layers / built_layers.

The model's returned logits are dropped before counting (a trainer keeps only the loss);
`logits_output_bytes` says what keeping them would add when autograd does not hold them.

Usage:  .venv/bin/python probe.py [--quick] [--out PATH] [--only SUBSTRING]
"""
from __future__ import annotations

import argparse
import copy
import datetime
import gc
import json
import re
import sys
import time
import warnings

import torch
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

import transformers
import peft
import records  # noqa: F401  (keeps peft's LoRA dispatch off torchao 0.10: records.py)

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()
torch.manual_seed(0)

# --------------------------------------------------------------------------------------------
# Architectures: config fields from /work/shared/reference/memory-cases.md §5 (torchtune and
# litgpt transcriptions of each model's HF config.json), same values as the tunefit catalog.
# --------------------------------------------------------------------------------------------


def _llama(L):
    return transformers.LlamaConfig(
        num_hidden_layers=L, hidden_size=2048, intermediate_size=8192, num_attention_heads=32,
        num_key_value_heads=8, head_dim=64, vocab_size=128256, tie_word_embeddings=True,
        max_position_embeddings=131072, rms_norm_eps=1e-5)


def _mistral(L):
    return transformers.MistralConfig(
        num_hidden_layers=L, hidden_size=4096, intermediate_size=14336, num_attention_heads=32,
        num_key_value_heads=8, head_dim=128, vocab_size=32000, tie_word_embeddings=False,
        sliding_window=4096, max_position_embeddings=32768)


def _qwen2(L):
    return transformers.Qwen2Config(
        num_hidden_layers=L, hidden_size=896, intermediate_size=4864, num_attention_heads=14,
        num_key_value_heads=2, vocab_size=151936, tie_word_embeddings=True,
        max_position_embeddings=32768, max_window_layers=L, use_sliding_window=False)


def _gemma2(L):
    return transformers.Gemma2Config(
        num_hidden_layers=L, hidden_size=2304, intermediate_size=9216, num_attention_heads=8,
        num_key_value_heads=4, head_dim=256, vocab_size=256000, tie_word_embeddings=True,
        query_pre_attn_scalar=256, sliding_window=4096, attn_logit_softcapping=50.0,
        final_logit_softcapping=30.0, max_position_embeddings=8192)


def _phi3(L):
    return transformers.Phi3Config(
        num_hidden_layers=L, hidden_size=3072, intermediate_size=8192, num_attention_heads=32,
        num_key_value_heads=32, vocab_size=32064, tie_word_embeddings=False,
        max_position_embeddings=4096, original_max_position_embeddings=4096,
        pad_token_id=32000, bos_token_id=1, eos_token_id=32000)


def _gpt2(L):
    # Real GPT-2 trains with dropout 0.1 on embeddings, attention probabilities and residuals.
    return transformers.GPT2Config(n_layer=L, n_embd=768, n_head=12, vocab_size=50257,
                                   n_positions=1024)


def _bert(L):
    # Real bert-large-uncased: dropout 0.1 on hidden states and attention probabilities.
    return transformers.BertConfig(
        num_hidden_layers=L, hidden_size=1024, intermediate_size=4096, num_attention_heads=16,
        vocab_size=30522, max_position_embeddings=512, num_labels=2)


# id -> (family, config builder, model class, real layer count, built layers, lora names)
# lora names map tunefit targets onto each family's module names (fused modules take the
# union: GPT-2's c_attn holds q,k,v; Phi-3's qkv_proj and gate_up_proj likewise).
LLAMA_NAMES = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj",
               "gate": "gate_proj", "up": "up_proj", "down": "down_proj"}
PRESETS = {
    "llama-3.2-1b": ("Llama", _llama, transformers.LlamaForCausalLM, 16, 3, LLAMA_NAMES),
    "mistral-7b": ("Mistral", _mistral, transformers.MistralForCausalLM, 32, 3, LLAMA_NAMES),
    "qwen2.5-0.5b": ("Qwen2", _qwen2, transformers.Qwen2ForCausalLM, 24, 3, LLAMA_NAMES),
    "gemma-2-2b": ("Gemma2", _gemma2, transformers.Gemma2ForCausalLM, 26, 3, LLAMA_NAMES),
    "phi-3-mini": ("Phi3", _phi3, transformers.Phi3ForCausalLM, 32, 3,
                   {"q": "qkv_proj", "k": "qkv_proj", "v": "qkv_proj", "o": "o_proj",
                    "gate": "gate_up_proj", "up": "gate_up_proj", "down": "down_proj"}),
    "gpt2": ("GPT-2", _gpt2, transformers.GPT2LMHeadModel, 12, 3,
             {"q": "c_attn", "k": "c_attn", "v": "c_attn", "o": "attn.c_proj",
              "gate": "c_fc", "up": "c_fc", "down": "mlp.c_proj"}),
    "bert-large-uncased": ("BERT", _bert, transformers.BertForSequenceClassification, 24, 3,
                           {"q": "query", "k": "key", "v": "value", "o": "attention.output.dense",
                            "gate": "intermediate.dense", "up": "intermediate.dense",
                            "down": r"\d+\.output\.dense"}),
}
LAYER_RE = re.compile(r"(?:layers|\.h|layer)\.(\d+)(?:\.|$)")
VIRTUAL_TOKENS = 20


# --------------------------------------------------------------------------------------------
# Tracking
# --------------------------------------------------------------------------------------------


class Tracker(TorchDispatchMode):
    """Records every storage created by an aten op, with the module and op that made it."""

    def __init__(self):
        super().__init__()
        self.module_stack = ["<top>"]
        self.storages = {}  # key -> record
        self.saved_keys = set()
        self.param_keys = set()

    def _note(self, t, op):
        if not isinstance(t, torch.Tensor) or t.device.type == "meta":
            return
        st = t.untyped_storage()
        key = st._cdata
        rec = self.storages.get(key)
        if rec is not None and not rec["ref"].expired():
            return  # a view or in-place result of a storage already recorded
        self.storages[key] = {
            "ref": StorageWeakRef(st), "bytes": st.nbytes(), "op": op,
            "module": self.module_stack[-1], "shape": list(t.shape),
            "dtype": str(t.dtype).replace("torch.", ""),
        }

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        op = func.__name__ if hasattr(func, "__name__") else str(func)
        name = str(func.overloadpacket.__name__) if hasattr(func, "overloadpacket") else op
        if name == "_to_copy" and args and isinstance(args[0], torch.Tensor) \
                and args[0].untyped_storage()._cdata in self.param_keys:
            name = "_to_copy(weight)"  # autocast's low-precision copy of a parameter
        for t in tree_flatten(out)[0]:
            self._note(t, name)
        return out

    # saved-tensor hooks: the tensor itself is returned (no copy); only identity is noted.
    def pack(self, t):
        if isinstance(t, torch.Tensor) and t.device.type != "meta":
            key = t.untyped_storage()._cdata
            self.saved_keys.add(key)
            if key not in self.storages or self.storages[key]["ref"].expired():
                # created outside the mode (the batch's input ids, a mask built before it)
                self._note(t, "input")
        return t

    @staticmethod
    def unpack(t):
        return t


def attach_module_hooks(model, tracker):
    handles = []
    for name, mod in model.named_modules():
        def pre(m, a, name=name):
            tracker.module_stack.append(name)

        def post(m, a, o):
            tracker.module_stack.pop()
        handles.append(mod.register_forward_pre_hook(pre))
        handles.append(mod.register_forward_hook(post))
    return handles


def region_of(module, root_names):
    if module in root_names:
        return "loss", None  # the model's own forward: logits upcast, log-softmax, nll
    m = LAYER_RE.search(module)
    if m and "prompt_encoder" not in module:
        return "layer", int(m.group(1))
    if "prompt_encoder" in module:
        return "prompt_encoder", None
    if "rotary_emb" in module:
        return "rope", None
    if (any(k in module for k in ("embed", "wte", "wpe", "embeddings")) or module.endswith(".drop")) \
            and "norm" not in module:
        return "embeddings", None
    if any(k in module for k in ("lm_head", "classifier", "pooler")):
        return "head", None
    if module.endswith("norm") or module.endswith("ln_f"):
        return "final_norm", None
    return "other", None


# --------------------------------------------------------------------------------------------
# One case
# --------------------------------------------------------------------------------------------

BASE_CACHE = {}


def base_model(preset, dtype, attn_dropout_off=False):
    key = (preset, dtype, attn_dropout_off)
    if key not in BASE_CACHE:
        BASE_CACHE.clear()
        gc.collect()
        family, cfg_fn, cls, real_L, built_L, _ = PRESETS[preset]
        cfg = cfg_fn(built_L)
        if attn_dropout_off:
            cfg.attn_pdrop = 0.0  # GPT-2
            cfg.attention_probs_dropout_prob = 0.0  # BERT
        cfg.use_cache = False
        torch.manual_seed(0)
        model = cls(cfg).to(dtype)
        BASE_CACHE[key] = model
    return BASE_CACHE[key]


def quantize_blocks_nf4(model, compute_dtype):
    """Replace every linear inside the blocks by a bitsandbytes NF4 Linear4bit (double
    quantisation on), as transformers' BitsAndBytesConfig(load_in_4bit=True) does; the
    embeddings and the LM head stay in 16 bits, as there."""
    import bitsandbytes as bnb
    for name, mod in list(model.named_modules()):
        for cname, child in list(mod.named_children()):
            full = f"{name}.{cname}"
            if type(child) is torch.nn.Linear and LAYER_RE.search(full):
                q = bnb.nn.Linear4bit(child.in_features, child.out_features,
                                      bias=child.bias is not None, compute_dtype=compute_dtype,
                                      quant_type="nf4", compress_statistics=True)
                q.weight = bnb.nn.Params4bit(child.weight.data.to(torch.bfloat16),
                                             requires_grad=False, quant_type="nf4",
                                             compress_statistics=True)._quantize("cpu")
                if child.bias is not None:
                    q.bias = torch.nn.Parameter(child.bias.data, requires_grad=False)
                setattr(mod, cname, q)
    return model


def apply_method(model, preset, case):
    names = PRESETS[preset][5]
    method = case["method"]
    if method == "qlora":
        model = quantize_blocks_nf4(model, torch.bfloat16)
        method = "lora"
    is_bert = preset.startswith("bert")
    task = "SEQ_CLS" if is_bert else "CAUSAL_LM"
    if method == "full":
        for p in model.parameters():
            p.requires_grad_(True)
        return model
    if method in ("lora", "dora"):
        wanted = case["targets"].replace("all", "q,k,v,o,gate,up,down").split(",")
        targets = sorted({names[t] for t in wanted})
        if preset == "gpt2" or is_bert:
            # names with dots / regex: match by suffix through a regex over module names
            pat = "|".join(t if "\\" in t else re.escape(t) for t in targets)
            target_modules = rf".*(?:{pat})$"
        else:
            target_modules = targets
        cfg = peft.LoraConfig(task_type=task, r=case["rank"], lora_alpha=2 * case["rank"],
                              lora_dropout=case["lora_dropout"], target_modules=target_modules,
                              use_dora=(method == "dora"),
                              fan_in_fan_out=(preset == "gpt2"))
        return peft.get_peft_model(model, cfg)
    if method == "prompt":
        cfg = peft.PromptTuningConfig(task_type=task, num_virtual_tokens=VIRTUAL_TOKENS)
        return peft.get_peft_model(model, cfg)
    if method == "prefix":
        cfg = peft.PrefixTuningConfig(task_type=task, num_virtual_tokens=VIRTUAL_TOKENS)
        return peft.get_peft_model(model, cfg)
    raise ValueError(f"method {method} not measurable with peft {peft.__version__}")


def make_batch(preset, case, vocab):
    b, s = case["batch"], case["seq"]
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(5, min(vocab, 30000), (b, s), generator=g)
    batch = {"input_ids": ids}
    if case["padded"]:
        # right padding: row i keeps s - i*s/(4b) tokens (row 0 full, so the batch length is s)
        mask = torch.ones(b, s, dtype=torch.long)
        for i in range(b):
            keep = s - (i * s) // (4 * b) - (s // 8 if b == 1 else 0)
            mask[i, keep:] = 0
        batch["attention_mask"] = mask
    if preset.startswith("bert"):
        batch["labels"] = torch.randint(0, 2, (b,), generator=g)
        if "attention_mask" not in batch:
            batch["attention_mask"] = None
    else:
        labels = ids.clone()
        if case["padded"]:
            labels[batch["attention_mask"] == 0] = -100
        batch["labels"] = labels
    return batch


def query_string(preset, case):
    q = [("v", "1"), ("model", preset), ("method", case["method"])]
    if case["method"] in ("lora", "dora", "qlora"):
        q += [("rank", str(case["rank"])), ("targets", case["targets"])]
    if case["method"] == "qlora":
        q += [("quant", "nf4"), ("dq", "1")]
    if case["method"] in ("prompt", "prefix"):
        q += [("virtual_tokens", str(VIRTUAL_TOKENS))]
    q += [("precision", case["precision"])]
    if case["precision"].endswith("-true"):
        # autocast=1: the forward under torch.autocast(bfloat16), as the Trainer's bf16=True
        # runs a model loaded in bf16; autocast=0: no autocast (a bare loop, litgpt, torchtune).
        q += [("autocast", "1" if case.get("autocast") else "0")]
    if case["method"] in ("lora", "dora", "qlora"):
        # PEFT's autocast_adapter_dtype=True default keeps adapter weights fp32 on a bf16 base
        q += [("adapter_dtype", "fp32")]
    q += [("batch", str(case["batch"])), ("seq", str(case["seq"])), ("attn", case["attn"]),
          ("ckpt", case["ckpt"]), ("loss", "standard"),
          ("packing", "0" if case["padded"] else "1"), ("framework", "hf")]
    if case["method"] in ("lora", "dora", "qlora"):
        q += [("lora_dropout", f"{case['lora_dropout']:g}")]
    return "&".join(f"{k}={v}" for k, v in q)


def run_case(preset, case):
    family, _, _, real_L, built_L, _ = PRESETS[preset]
    # bf16-mixed: fp32 weights, forward under autocast to bf16 (HF Trainer bf16=True);
    # bf16-true with autocast: a bf16 model under the same autocast (the Trainer's bf16=True
    # over a model loaded in bf16)
    dtype = torch.float32 if case["precision"] in ("fp32", "bf16-mixed") else torch.bfloat16
    autocast = case["precision"] == "bf16-mixed" or bool(case.get("autocast"))
    # GPT-2 and BERT train with dropout on the attention probabilities. CUDA's flash and
    # memory-efficient SDPA kernels apply it inside the kernel and save only an RNG state; the
    # CPU flash kernel has no dropout, so SDPA would fall back to the math path and save s^2
    # tensors no GPU run holds. For attn=sdpa that one dropout is therefore set to 0 here, so
    # the CPU flash kernel runs and saves what the GPU kernel saves (q, k, v, out, logsumexp).
    # Eager attention keeps it (its mask and output are real, saved tensors on any device).
    attn_dropout_off = case["attn"] == "sdpa" and preset in ("gpt2", "bert-large-uncased")
    model = copy.deepcopy(base_model(preset, dtype, attn_dropout_off))
    model.set_attn_implementation(case["attn"])
    if case["ckpt"] == "full":
        model.gradient_checkpointing_enable()
    model = apply_method(model, preset, case)
    model.train()
    vocab = model.config.vocab_size if hasattr(model, "config") else 32000
    batch = make_batch(preset, case, vocab)
    # modules whose own forward computes the loss (the task model and peft's wrappers of it)
    root_names = {"<top>"} | {n for n, m in model.named_modules()
                              if n == "" or hasattr(m, "lm_head") or hasattr(m, "classifier")
                              or n in ("base_model", "base_model.model")}
    param_keys = {p.untyped_storage()._cdata for p in model.parameters()}
    param_keys |= {b.untyped_storage()._cdata for b in model.buffers()}

    tracker = Tracker()
    tracker.param_keys = param_keys
    handles = attach_module_hooks(model, tracker)
    t0 = time.time()
    with torch.autograd.graph.saved_tensors_hooks(tracker.pack, tracker.unpack), tracker, \
            torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        out = model(**batch)
    elapsed = time.time() - t0
    loss = out.loss
    logits = out.logits
    logits_key = logits.untyped_storage()._cdata
    logits_bytes = logits.untyped_storage().nbytes()
    del out, logits
    for h in handles:
        h.remove()
    gc.collect()

    held = []
    logits_held_by_autograd = False
    input_keys = set()
    for key, rec in tracker.storages.items():
        if rec["ref"].expired() or key in param_keys:
            continue
        if key == logits_key:
            logits_held_by_autograd = True
        region, layer = region_of(rec["module"], root_names)
        if rec["op"] == "input":
            region = "inputs"
            input_keys.add(key)
        held.append({
            "region": region, "layer": layer, "module": rec["module"], "op": rec["op"],
            "shape": rec["shape"], "dtype": rec["dtype"], "bytes": rec["bytes"],
            "held_by": "autograd" if key in tracker.saved_keys else "other",
        })
    # batch tensors referenced by autograd (e.g. embedding indices) are alive through `batch`
    # too; count them only when autograd saved them.
    held = [h for h in held if h["region"] != "inputs" or h["held_by"] == "autograd"]
    del loss, batch, model
    gc.collect()

    by_layer = {}
    regions = {}
    for h in held:
        if h["region"] == "layer":
            by_layer[h["layer"]] = by_layer.get(h["layer"], 0) + h["bytes"]
        else:
            regions[h["region"]] = regions.get(h["region"], 0) + h["bytes"]
    # The first and the last block are kept apart from the middle ones. Block 0: under PEFT
    # methods its input (the frozen embedding output) needs no gradient, so its input norm
    # saves nothing. Last block: under checkpointing its output is held only if the final
    # norm saves it, while every other block's output is the next checkpoint's held input.
    # Three blocks are built, so each kind is measured; the middle ones are identical.
    first_layer = by_layer.get(0, 0)
    last_layer = by_layer.get(built_L - 1, 0)
    mid = [by_layer.get(i, 0) for i in range(1, built_L - 1)]
    per_layer = sum(mid) / len(mid)
    scaled_prompt = 0.0
    if case["method"] == "prefix":
        pe = regions.pop("prompt_encoder", 0)
        scaled_prompt = pe / built_L * real_L
        regions["prefix_kv_scaled"] = scaled_prompt
    non_layer = sum(v for k, v in regions.items())
    saved_full = non_layer + first_layer + per_layer * (real_L - 2) + last_layer
    autograd_only = sum(h["bytes"] for h in held if h["held_by"] == "autograd")

    tensors = [h for h in held if h["region"] != "layer" or h["layer"] in (0, 1, built_L - 1)]
    tensors.sort(key=lambda h: (h["region"] != "layer", h["region"], -h["bytes"]))
    return {
        "query": query_string(preset, case),
        "family": family,
        "model": preset,
        "head": "sequence-classification-2" if preset.startswith("bert") else "causal-lm",
        "method": case["method"], "precision": case["precision"], "attn": case["attn"],
        "ckpt": case["ckpt"], "padded": case["padded"],
        "batch": case["batch"], "seq": case["seq"],
        "layers_built": built_L, "layers_real": real_L,
        "saved_bytes": int(round(saved_full)),
        "first_layer_bytes": first_layer,
        "last_layer_bytes": last_layer,
        "per_layer_bytes": int(round(per_layer)),
        "per_layer_bytes_by_built_layer": [by_layer.get(i, 0) for i in range(built_L)],
        "non_layer_bytes": {k: int(round(v)) for k, v in sorted(regions.items())},
        "built_model_saved_bytes": sum(h["bytes"] for h in held),
        "built_model_autograd_saved_bytes": autograd_only,
        "cpu_substitution": ("attention-probability dropout set to 0 so that the CPU flash "
                             "SDPA kernel runs (CUDA kernels do that dropout internally)"
                             if attn_dropout_off else None),
        "logits_output_bytes": logits_bytes,
        "logits_held_by_autograd": logits_held_by_autograd,
        "tensors": tensors,
        "forward_seconds": round(elapsed, 2),
    }


# --------------------------------------------------------------------------------------------
# The case matrix
# --------------------------------------------------------------------------------------------

POINTS = [(1, 128), (2, 128), (1, 256)]


def case(method="lora", precision="bf16-true", attn="sdpa", ckpt="none", padded=False,
         batch=2, seq=128, rank=16, targets="q,v", lora_dropout=0.0, autocast=False):
    return dict(method=method, precision=precision, attn=attn, ckpt=ckpt, padded=padded,
                batch=batch, seq=seq, rank=rank, targets=targets, lora_dropout=lora_dropout,
                autocast=autocast)


def matrix(quick):
    if quick:
        return [("llama-3.2-1b", case("lora", batch=1, seq=128)),
                ("llama-3.2-1b", case("full", batch=1, seq=128))]
    out = []
    # A. every family: full and LoRA q,v at three (batch, seq) points, bf16, sdpa, packed
    for preset in PRESETS:
        for b, s in POINTS:
            for m in ("full", "lora"):
                out.append((preset, case(m, batch=b, seq=s)))
    # B. every family: each variation at one point, (2, 128)
    variations = [
        dict(method="lora", lora_dropout=0.05),
        dict(method="lora", targets="all"),
        dict(method="dora"),
        dict(method="prompt"),
        dict(method="prefix"),
        dict(method="full", precision="fp32"),
        dict(method="lora", precision="fp32"),
        dict(method="full", attn="eager"),
        dict(method="lora", attn="eager"),
        dict(method="full", ckpt="full"),
        dict(method="lora", ckpt="full"),
        dict(method="lora", padded=True),
        dict(method="lora", padded=True, attn="eager"),
    ]
    for preset in PRESETS:
        for v in variations:
            out.append((preset, case(**v)))
    # C. Llama: the variations at the two other points too (separates per-token terms)
    for v in variations:
        out.append(("llama-3.2-1b", case(**v, batch=1, seq=256)))
    # D. QLoRA (bitsandbytes NF4 on the CPU) and bf16-mixed (autocast) where they apply
    llama_like = ["llama-3.2-1b", "mistral-7b", "qwen2.5-0.5b", "gemma-2-2b", "phi-3-mini"]
    for preset in llama_like:
        pts = POINTS if preset == "llama-3.2-1b" else [(2, 128)]
        for b, s in pts:
            out.append((preset, case("qlora", batch=b, seq=s)))
    for preset in PRESETS:
        pts = POINTS if preset == "llama-3.2-1b" else [(2, 128)]
        for b, s in pts:
            for m in ("full", "lora"):
                out.append((preset, case(m, precision="bf16-mixed", batch=b, seq=s)))
        # checkpointed: each block keeps its input, the fp32 residual stream
        for m in ("full", "lora"):
            out.append((preset, case(m, precision="bf16-mixed", ckpt="full")))
    # E. the adapters over a bf16 model under autocast (the Trainer's bf16=True): PEFT's fp32
    # adapters then keep 16-bit copies of their inputs (and its 4-bit layers none)
    adapter_variations = [
        dict(method="lora"),
        dict(method="lora", lora_dropout=0.05),
        dict(method="lora", targets="all"),
        dict(method="dora"),
        dict(method="lora", ckpt="full"),
        dict(method="lora", attn="eager"),
    ]
    for preset in PRESETS:
        for v in adapter_variations:
            out.append((preset, case(**v, autocast=True)))
    for preset in llama_like:
        out.append((preset, case("qlora", autocast=True)))
    for b, s in POINTS:
        out.append(("llama-3.2-1b", case("lora", batch=b, seq=s, autocast=True)))
    # Gemma 2 has no SDPA path in transformers 5.x (attention soft-capping): eager only, as
    # HF trains it; its sdpa cases are measured with eager instead (once each).
    seen, uniq = set(), []
    for preset, c in out:
        if preset == "gemma-2-2b":
            c = dict(c, attn="eager")
        key = query_string(preset, c)
        if key not in seen:
            seen.add(key)
            uniq.append((preset, c))
    out = uniq
    # keep cases of one (model, dtype) together so the base model is built once
    # (A first for every family, then the variations, so that a cut-short run still covers
    # every family; within a section one model's cases stay together.)
    n_a = sum(1 for p, c in out[:6 * len(PRESETS)])
    out[n_a:] = sorted(out[n_a:], key=lambda x: (list(PRESETS).index(x[0]), x[1]["precision"]))
    return out


def _run_chunk(chunk):
    torch.set_num_threads(2)
    out = []
    for i, preset, c in chunk:
        q = query_string(preset, c)
        try:
            out.append((i, q, run_case(preset, c), None))
        except Exception as e:  # noqa: BLE001 - a case that peft cannot build is reported
            out.append((i, q, None, f"{type(e).__name__}: {e}"[:400]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="two Llama records, ~1 minute")
    ap.add_argument("--out", default=None, help="JSON path (default: stdout summary only "
                    "with --quick, /tmp/tunefit-saved-tensors-raw.json otherwise; merge it into "
                    "data/calibration/ with merge.py, never overwrite measured records)")
    ap.add_argument("--only", default=None, help="run only cases whose query contains this")
    ap.add_argument("--skip-existing", default=None, metavar="JSON",
                    help="skip cases whose query already has a record in this file")
    args = ap.parse_args()
    torch.set_num_threads(max(1, min(2, torch.get_num_threads())))
    records, failures = [], []
    cases = matrix(args.quick)
    if args.only:
        cases = [c for c in cases if args.only in query_string(*c)]
    if args.skip_existing:
        with open(args.skip_existing) as f:
            have = {r["query"] for r in json.load(f)["records"]}
        cases = [c for c in cases if query_string(*c) not in have]
    # Cases run in short-lived worker processes (a few cases of one model each): a model
    # copy wrapped by peft is not always freed when the case ends, and 24 GiB fills fast.
    import multiprocessing as mp
    chunks, cur = [], []
    for i, (preset, c) in enumerate(cases):
        if cur and (len(cur) == (6 if preset in ("llama-3.2-1b", "qwen2.5-0.5b", "gpt2", "bert-large-uncased") else 3) or (cur[-1][1], cur[-1][2]["precision"]) != (preset, c["precision"])):
            chunks.append(cur)
            cur = []
        cur.append((i, preset, c))
    if cur:
        chunks.append(cur)
    ctx = mp.get_context("fork")
    results = []
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        for chunk_out in pool.imap(_run_chunk, chunks):
            results.extend(chunk_out)
            for i, q, r, err in chunk_out:
                if err:
                    failures.append({"query": q, "error": err})
                    print(f"[{i + 1}/{len(cases)}] FAIL {q}: {err}", file=sys.stderr, flush=True)
                    continue
                records.append(r)
                print(f"[{i + 1}/{len(cases)}] {r['saved_bytes']:>14,d} B  "
                      f"({r['forward_seconds']:.1f}s)  {q}", file=sys.stderr, flush=True)
            if args.out or not args.quick:
                write(args, records, failures)
    write(args, records, failures)
    if args.quick and not args.out:
        for r in records:
            print(json.dumps({k: r[k] for k in ("query", "saved_bytes", "first_layer_bytes",
                                                   "per_layer_bytes", "non_layer_bytes")}))
    return 0 if not failures else 1


def _bnb_version():
    try:
        import bitsandbytes
        return bitsandbytes.__version__
    except Exception:  # noqa: BLE001
        return "(not installed)"


def write(args, records, failures):
    doc = {
        "about": "Bytes autograd holds at the end of one training forward pass (activations "
                 "saved for backward, deduplicated by storage, parameters excluded), measured "
                 "on the CPU with real libraries; ground truth for memory.saved_for_backward. "
                 "Method and scaling: docs/saved-tensors.md and tools/calibrate/probe.py.",
        "generated": datetime.date.today().isoformat(),
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                     "peft": peft.__version__, "python": sys.version.split()[0]},
        "device": "cpu",
        "cpu_sdpa_kernel": "_scaled_dot_product_flash_attention_for_cpu (saves out + logsumexp)",
        "notes": [
            "saved_bytes = sum(non_layer_bytes) + first_layer_bytes + per_layer_bytes * (layers_real - 2) + last_layer_bytes; per_layer_bytes is the mean of the middle built blocks (block 0 differs under PEFT: its input needs no gradient; the last differs under checkpointing: no next checkpoint holds its output).",
            "Parameters and buffers are excluded; so are the returned logits unless autograd "
            "itself holds them (logits_output_bytes gives their size).",
            "tensors lists every held storage outside the blocks and those of the first, second and last built blocks (layer field).",
            "Bottleneck adapters (method=adapter): peft " + peft.__version__ + " has no "
            "bottleneck (Houlsby/Pfeiffer) adapter; not measured.",
            "QLoRA (method=qlora): bitsandbytes " + _bnb_version() + " on the CPU (its "
            "torch fallback); every linear inside the blocks replaced by an NF4 Linear4bit "
            "(double quantisation, bf16 compute), embeddings and LM head bf16, LoRA on top; "
            "prepare_model_for_kbit_training is NOT applied (it would upcast norms, "
            "embeddings and LM head to fp32).",
            "bf16-mixed: fp32 weights, forward under torch.autocast(bfloat16); the bf16 "
            "copies of weights that autocast makes are held when a matmul saves them "
            "(op _to_copy with a weight's shape in the tensor list).",
            "BERT records use BertForSequenceClassification (2 labels), the catalog's head.",
            "GPT-2 and BERT keep their real dropout 0.1 (masks are saved as bool, 1 B/elem).",
        ],
        "records": records,
        "failures": failures,
    }
    out = args.out
    if out is None and not args.quick:
        # Never the committed data file: a partial or different-version run must be merged
        # deliberately (merge.py), not silently replace measured records.
        out = "/tmp/tunefit-saved-tensors-raw.json"
    if out:
        with open(out + ".tmp", "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        import os
        os.replace(out + ".tmp", out)


if __name__ == "__main__":
    sys.exit(main())
