"""The loss path's bytes per token and vocabulary entry, eager and under torch.compile, as the
frameworks run it (and their chunked losses: torchtune's CEWithChunkedOutputLoss, litgpt's
chunked head and cross-entropy, and its full fine-tune's unchunked head): the most live at once during one training step, as a multiple of T·V
(tokens × vocabulary), in the forward and in the backward.

Three places the fp32 upcast can sit:
- `hf`: transformers' `LlamaForCausalLM` computes its loss in its own forward
  (`ForCausalLMLoss`: `logits = logits.float()`, then `cross_entropy`), so the Trainer's
  `torch_compile` (`torch.compile(model)`) compiles the upcast with the loss;
- `titan`: the loss is a separate function, `cross_entropy(pred.flatten(0, 1).float(), …)`,
  compiled on its own when `training.compile` is on (torchtitan components/loss.py
  `build_cross_entropy_loss` @ e7c0cae9; eager before bbb1b616, 2025-04-02);
- `tune`: the model returns fp32 logits (torchtune `TransformerDecoder.unembed`:
  `self.output(h).float()`), its layers compiled, the loss compiled on its own
  (`training.compile_loss`).

The peak is measured with torch's memory profiler on the CPU allocator (inductor's CPU
backend allocates through it). The V-wide tensors are separated from everything else by two
vocabularies: (peak(V2) − peak(V1)) / (T·(V2 − V1)), the forward's peak and the backward's. The embedding and the head are frozen,
so no V × h gradient enters the slope.

`python loss_compile_probe.py [--out FILE]` writes the records; `--one PLACE COMPILE DTYPE`
prints one record's bytes (a child process per record, records.py).
"""
import argparse
import os
import sys

import torch
import transformers
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from records import in_child, write  # noqa: E402
from timeline import allocations  # noqa: E402

BATCH, SEQ, HIDDEN = 4, 1024, 64
VOCABS = (16384, 32768)


def peak(place, compiled, dtype, vocab):
    """The most bytes live at once in the step's forward and in its backward, above what was
    live before the step."""
    dt = {"bf16": torch.bfloat16, "fp32": torch.float32}[dtype]
    torch.manual_seed(0)
    cfg = transformers.LlamaConfig(vocab_size=vocab, hidden_size=HIDDEN, intermediate_size=128,
                                   num_hidden_layers=1, num_attention_heads=4, num_key_value_heads=4,
                                   max_position_embeddings=SEQ)
    model = transformers.LlamaForCausalLM._from_config(cfg, attn_implementation="sdpa").to(dt).train()
    model.model.embed_tokens.weight.requires_grad_(False)
    model.lm_head.weight.requires_grad_(False)
    ids = torch.randint(0, vocab, (BATCH, SEQ))

    def titan_loss(pred, labels):
        return torch.nn.functional.cross_entropy(pred.flatten(0, 1).float(), labels.flatten(0, 1))

    def tune_loss(logits, labels):
        return torch.nn.functional.cross_entropy(logits, labels)

    kept = []
    if place == "hf":
        run = torch.compile(model) if compiled else model
        step = lambda: run(input_ids=ids, labels=ids).loss  # noqa: E731
    elif place == "tune-chunked":
        # torchtune's recipes: the model's `chunked_output` (the head over 8 sequence chunks,
        # 16-bit), CEWithChunkedOutputLoss (each chunk upcast and cross-entropied; compiled per
        # chunk by `training.compile_loss` under `compile`), the logits deleted before backward.
        from torchtune_probe import _stub_data_stack
        _stub_data_stack()
        from torchtune.modules.loss import CEWithChunkedOutputLoss
        from torchtune.training import compile_loss
        loss_fn = CEWithChunkedOutputLoss(num_output_chunks=8)
        if compiled:
            loss_fn = compile_loss(loss_fn, verbose=False)

        def step():
            h = model.model(input_ids=ids).last_hidden_state
            logits = [model.lm_head(c) for c in h.chunk(8, dim=1)]
            loss = loss_fn(logits, ids)
            del logits
            return loss
    elif place in ("litgpt", "litgpt-full"):
        # litgpt's finetune loop: the head in 128-token chunks (`lm_head_chunk_size=128`), each
        # chunk cross-entropied in the model dtype (`chunked_cross_entropy`), and `logits` kept
        # by the loop through backward.
        import litgpt
        from litgpt.utils import chunked_cross_entropy
        cfg = litgpt.Config(block_size=SEQ, vocab_size=vocab, padded_vocab_size=vocab, n_layer=1, n_head=4,
                            n_embd=HIDDEN, rotary_percentage=1.0, parallel_residual=False, bias=False,
                            norm_class_name="RMSNorm", mlp_class_name="LLaMAMLP", intermediate_size=128)
        model = litgpt.GPT(cfg).to(dt).train()
        model.transformer.wte.weight.requires_grad_(False)
        model.lm_head.weight.requires_grad_(False)

        def step():
            if place == "litgpt-full":
                # finetune/full.py (full and freeze): the head whole, the loss on its slice.
                logits = model(ids)
                kept[:] = [logits]
                return chunked_cross_entropy(logits[..., :-1, :], ids[..., 1:])
            logits = model(ids, lm_head_chunk_size=128)
            logits[-1] = logits[-1][..., :-1, :]
            kept[:] = [logits]
            return chunked_cross_entropy(logits, ids[..., 1:])
    else:
        loss_fn = titan_loss if place == "titan" else tune_loss
        loss_fn = torch.compile(loss_fn) if compiled else loss_fn

        def step():
            pred = model(input_ids=ids).logits
            if place == "tune":
                pred = pred.float().flatten(0, 1)
                return loss_fn(pred, ids.flatten(0, 1))
            return loss_fn(pred, ids)

    # Warm-up: compilation's own allocations stay out of the measured step.
    step().backward()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        mark = torch.empty(10007, dtype=torch.uint8)
        del mark
        loss = step()
        mark = torch.empty(10009, dtype=torch.uint8)
        del mark
        loss.backward()
        mark = torch.empty(10011, dtype=torch.uint8)
        del mark
    ev = allocations(prof)
    i0, i1, i2 = (next(i for i, e in enumerate(ev) if e[2] == m) for m in (10007, 10009, 10011))
    start = ev[i0][3] - 10007
    fwd = max(e[3] for e in ev[i0 + 2:i1]) - start
    bwd = max(e[3] for e in ev[i1 + 2:i2]) - start
    return fwd, bwd


GRID = [(p, c, d) for p in ("hf", "titan", "tune") for c in (0, 1) for d in ("bf16", "fp32")] + [
    ("tune-chunked", 0, "bf16"), ("tune-chunked", 1, "bf16"), ("litgpt", 0, "bf16"), ("litgpt-full", 0, "bf16")]
# The tunefit link of each place (torchtitan's has no framework profile).
FRAMEWORK = {"hf": "framework=hf&loss=standard", "tune": "framework=torchtune&loss=standard", "titan": None,
             "tune-chunked": "framework=torchtune&loss=chunked", "litgpt": "framework=litgpt&loss=chunked",
             "litgpt-full": "framework=litgpt&loss=chunked&method=full"}


def query(place, c, dtype):
    fw = FRAMEWORK[place]
    # A bf16 model's forward here runs no autocast (autocast=0 for the Trainer-based place).
    p = 'bf16-true' + ('&autocast=0' if fw and 'framework=hf' in fw else '') if dtype == 'bf16' else 'fp32'
    return fw and f"{fw}&precision={p}&compile={c}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--one", nargs=4, metavar=("PLACE", "COMPILE", "DTYPE", "VOCAB"))
    args = ap.parse_args()
    if args.one:
        place, c, dtype, vocab = args.one
        print(*peak(place, c == "1", dtype, int(vocab)))
        return
    records = []
    tv = BATCH * SEQ * (VOCABS[1] - VOCABS[0])
    for place, c, dtype in GRID:
        (f1, b1), (f2, b2) = ((int(x) for x in in_child(__file__, place, c, dtype, v)) for v in VOCABS)
        fwd, bwd = (f2 - f1) / tv, (b2 - b1) / tv
        records.append(dict(place=place, compile=c, dtype=dtype, query=query(place, c, dtype), forward_peaks=[f1, f2], backward_peaks=[b1, b2],
                            forward_per_token_vocab=round(fwd, 3), backward_per_token_vocab=round(bwd, 3)))
        print(f"{place:6} compile={c} {dtype}: forward {fwd:.3f}, backward {bwd:.3f} B per token·vocab", flush=True)
    if args.out:
        write(args.out, "The loss path's peak bytes per token·vocab entry in the forward and in the backward, eager "
              "and compiled: by where the fp32 upcast sits (hf, titan, tune) and for the chunked losses (tune-chunked: "
              "torchtune's CEWithChunkedOutputLoss over the model's 8 output chunks; litgpt: 128-token head chunks and "
              "chunked_cross_entropy in the model dtype; litgpt-full: finetune/full.py's unchunked head). "
              "loss_compile_probe.py; CPU allocator under torch.profiler, "
              "inductor's CPU backend.", records)


if __name__ == "__main__":
    main()
