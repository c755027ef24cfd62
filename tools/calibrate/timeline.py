#!/usr/bin/env python3
"""Record the allocation timeline of real training steps on the CPU, phase by phase.

Ground truth for tunefit's allocator replay (`memory/timeline.rs`): the per-phase peaks of
live tensor bytes of load, forward, loss, backward, optimizer step (twice: the first creates
AdamW's states) and save, for small models built from configs (random weights, no download),
in one process and in two-process DDP and FSDP2 on the gloo backend (rank 0 recorded).

How bytes are seen: `torch.profiler.profile(profile_memory=True)` reports every allocation
and free of the CPU allocator (c10/core/CPUAllocator.cpp `ProfiledCPUMemoryReporter`) with its
pointer, size and the running total of what it has handed out since the profiler started: the
live bytes of every tensor storage (and of any kernel's scratch buffer taken from that
allocator). The profiler starts before the model is built, so the total counts from zero. Its
reporting is per thread: the autograd engine runs CPU backward on the calling thread, and gloo
works in place on the tensors it is given, so what a GPU run would allocate on its streams is
seen; host memory outside torch (Python objects, gloo's own buffers) is not, as on a GPU.

Phase boundaries are marker allocations: a uint8 tensor of an odd size no real tensor has,
allocated and freed at once where the training loop crosses a phase (a forward pre-hook on
the LM head starts the loss). Their bytes are removed from the totals.

The CPU allocator has no cache: only *allocated* bytes are comparable with a GPU run's
`max_memory_allocated`; reserved memory (segments, size classes, streams) is not testable here.

Usage:  .venv/bin/python timeline.py [--out PATH] [--only SUBSTRING] [--list]
"""
from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import sys
import tempfile
import time
import warnings

import torch
import torch._C._profiler as P
from torch.profiler import ProfilerActivity, profile

import peft
import transformers

import records  # noqa: F401  (keeps peft's LoRA dispatch off torchao 0.10: records.py)

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

PHASES = ["load", "forward", "loss", "backward", "optimizer step", "save"]
MARK0 = 10007  # marker k is a uint8 tensor of MARK0 + 2k bytes (odd: no real tensor's size)


# --------------------------------------------------------------------------------------------
# Models: small configs of real architectures, each with the tunefit keys that describe it
# --------------------------------------------------------------------------------------------

def llama(L=4, h=512, heads=8, kv=2, ffn=1408, vocab=32000, tied=False):
    cfg = transformers.LlamaConfig(
        num_hidden_layers=L, hidden_size=h, intermediate_size=ffn, num_attention_heads=heads,
        num_key_value_heads=kv, head_dim=h // heads, vocab_size=vocab,
        tie_word_embeddings=tied, max_position_embeddings=4096, use_cache=False)
    keys = (f"model=llama-3.2-1b&layers={L}&hidden={h}&heads={heads}&kv_heads={kv}"
            f"&head_dim={h // heads}&ffn={ffn}&vocab={vocab}&tied={int(tied)}")
    return cfg, keys


def gpt2(L=2, h=256, heads=4):
    cfg = transformers.GPT2Config(n_layer=L, n_embd=h, n_head=heads, vocab_size=50257,
                                  n_positions=1024, use_cache=False,
                                  # CPU flash SDPA has no dropout (a GPU kernel does it inside)
                                  attn_pdrop=0.0)
    keys = f"model=gpt2&layers={L}&hidden={h}&heads={heads}&head_dim={h // heads}&ffn={4 * h}"
    return cfg, keys


MODELS = {
    "llama-h512-l4-v32k": lambda: llama(),
    "llama-h256-l2-v128k-tied": lambda: llama(L=2, h=256, heads=4, kv=2, ffn=768,
                                              vocab=128256, tied=True),
    "gpt2-h256-l2": lambda: gpt2(),
}


def case(model, method="full", precision="bf16-true", batch=2, seq=256, ckpt="none",
         optim_impl="fused", gpus=1, shard="none", rank=16, targets="q,v", state_dict="host",
         autocast=False):
    return dict(model=model, method=method, precision=precision, batch=batch, seq=seq,
                ckpt=ckpt, optim_impl=optim_impl, gpus=gpus, shard=shard, rank=rank,
                targets=targets, state_dict=state_dict, autocast=autocast)


def grid():
    L, T, G = "llama-h512-l4-v32k", "llama-h256-l2-v128k-tied", "gpt2-h256-l2"
    out = []
    for prec in ("bf16-true", "fp32", "bf16-mixed"):
        out.append(case(L, precision=prec))
    out += [
        case(L, batch=1, seq=128),
        case(L, ckpt="full"),
        case(L, optim_impl="foreach"),
        case(L, optim_impl="for-loop"),
        case(L, method="lora"),
        case(L, method="lora", precision="fp32"),
        case(L, method="lora", targets="all", ckpt="full"),
        # Autocast's weight copies: saved by an unchecked block, cached for the forward when
        # the weights train, neither for a checkpointed block's frozen base.
        case(L, precision="bf16-mixed", ckpt="full"),
        case(L, method="lora", precision="bf16-mixed"),
        case(L, method="lora", precision="bf16-mixed", ckpt="full"),
        # A bf16 model under autocast (the Trainer's bf16=True): the adapters' weight casts,
        # saved by an unchecked block and cached for the forward when checkpointed.
        case(L, method="lora", autocast=True),
        case(L, method="lora", targets="all", ckpt="full", autocast=True),
        case(T),
        case(T, method="lora"),
        case(G),
        case(G, method="lora"),
        case(L, gpus=2),
        case(L, method="lora", gpus=2),
        case(L, gpus=2, shard="fsdp"),
        case(L, method="lora", gpus=2, shard="fsdp"),
        case(L, gpus=2, shard="fsdp", state_dict="device"),
        # accelerate's FSDP mixed precision: fp32 shards, 16-bit compute copies and reductions,
        # and autocast around the forward (`native_amp` outside DeepSpeed).
        case(L, precision="bf16-mixed", gpus=2, shard="fsdp"),
        case(L, method="lora", precision="bf16-mixed", gpus=2, shard="fsdp"),
        case(L, precision="bf16-mixed", gpus=2, shard="fsdp", ckpt="full"),
        case(L, method="lora", precision="bf16-mixed", gpus=2, shard="fsdp", ckpt="full"),
    ]
    return out


def query_string(c):
    _, keys = MODELS[c["model"]]()
    q = ["v=2", keys, f"method={c['method']}"]
    if c["method"] == "lora":
        # PEFT keeps adapters in fp32 on a 16-bit base (autocast_adapter_dtype=True)
        q += [f"rank={c['rank']}", f"targets={c['targets']}", "adapter_dtype=fp32",
              "lora_dropout=0"]
    q += [f"precision={c['precision']}"]
    if c["precision"].endswith("-true"):
        # 0: a bf16 model's forward without autocast; 1: under it (the Trainer's bf16=True)
        q += ["autocast=1" if c.get("autocast") else "autocast=0"]
    q += [f"batch={c['batch']}", f"seq={c['seq']}",
          "attn=sdpa", f"ckpt={c['ckpt']}", "loss=standard", "packing=1", "framework=hf",
          "optim=adamw", f"optim_impl={c['optim_impl']}", "ga=1", "set_to_none=1"]
    if c["gpus"] > 1:
        q += [f"gpus={c['gpus']}", f"shard={c['shard']}"]
    if c.get("state_dict", "host") != "host":
        q += [f"state_dict={c['state_dict']}"]
    return "&".join(q)


# --------------------------------------------------------------------------------------------
# One run, recorded
# --------------------------------------------------------------------------------------------

class Marks:
    """Phase markers: allocated and freed at once; the order of their allocations is the
    order of the phases."""

    def __init__(self):
        self.labels = {}  # marker size -> (phase, step)

    def mark(self, phase, step):
        size = MARK0 + 2 * len(self.labels)
        self.labels[size] = (phase, step)
        t = torch.empty(size, dtype=torch.uint8)
        del t


LLAMA_TARGETS = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj",
                 "gate": "gate_proj", "up": "up_proj", "down": "down_proj"}
GPT2_TARGETS = {"q": "c_attn", "k": "c_attn", "v": "c_attn", "o": "attn.c_proj",
                "gate": "c_fc", "up": "c_fc", "down": "mlp.c_proj"}


def materialize(model):
    """Gives every parameter and buffer of a model built on the meta device its CPU storage,
    one tensor at a time and once per tied tensor, as from_pretrained loads a checkpoint into
    a model built on meta (an eager build of a tied model would allocate the head and drop it
    when tying, a transient no real load has). Values are random: memory does not read them."""
    made = {}
    for mod in model.modules():
        for kind in ("_parameters", "_buffers"):
            for name, t in list(getattr(mod, kind).items()):
                if t is None or t.device.type != "meta":
                    continue
                if id(t) not in made:
                    new = torch.empty_like(t, device="cpu")
                    if new.is_floating_point():
                        new.normal_(0.0, 0.02)
                    else:
                        new.zero_()
                    if kind == "_parameters":
                        new = torch.nn.Parameter(new, requires_grad=t.requires_grad)
                    made[id(t)] = new
                getattr(mod, kind)[name] = made[id(t)]
    return model


def init_sharded(model):
    """FSDP2's meta-device recipe (torchtitan, torchtune): shard on meta, then `to_empty`
    allocates only this rank's shards, which are then initialised in place."""
    model.to_empty(device="cpu")
    with torch.no_grad():
        for t in list(model.parameters()) + list(model.buffers()):
            if t.is_floating_point():
                t.normal_(0.0, 0.02)
            else:
                t.zero_()
    return model


def build(c, marks):
    cfg, _ = MODELS[c["model"]]()
    dtype = torch.bfloat16 if c["precision"] == "bf16-true" else torch.float32
    torch.manual_seed(0)
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=dtype,
                                                              attn_implementation="sdpa")
    if c["ckpt"] == "full":
        # non-reentrant, as the Trainer's gradient_checkpointing_kwargs default in 5.x
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if c["method"] == "lora":
        gpt = c["model"].startswith("gpt2")
        names = GPT2_TARGETS if gpt else LLAMA_TARGETS
        wanted = c["targets"].replace("all", "q,k,v,o,gate,up,down").split(",")
        targets = sorted({names[t] for t in wanted})
        tm = rf".*(?:{'|'.join(t.replace('.', chr(92) + '.') for t in targets)})$" if gpt else targets
        lcfg = peft.LoraConfig(task_type="CAUSAL_LM", r=c["rank"], lora_alpha=2 * c["rank"],
                               lora_dropout=0.0, target_modules=tm, fan_in_fan_out=gpt)
        model = peft.get_peft_model(model, lcfg)
        if c["ckpt"] == "full":
            model.enable_input_require_grads()
    model.train()
    return model


def wrap_parallel(model, c):
    if c["gpus"] == 1:
        return model
    if c["shard"] == "none":
        from torch.nn.parallel import DistributedDataParallel as DDP
        return DDP(model)
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
    mesh = init_device_mesh("cpu", (c["gpus"],))
    # bf16-mixed: accelerate's FSDP2 policy, every dtype the 16-bit one
    # (src/accelerate/utils/dataclasses.py @16cb6eb8 FullyShardedDataParallelPlugin
    # .set_mixed_precision: param_dtype, reduce_dtype and output_dtype).
    bf16 = torch.bfloat16
    mp = MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=bf16, output_dtype=bf16) \
        if c["precision"] == "bf16-mixed" else MixedPrecisionPolicy()
    # one unit per decoder block, the root holding embeddings, final norm and head (the
    # Trainer's transformer_based_wrap on the decoder layer class)
    blocks = [m for n, m in model.named_modules() if type(m).__name__ in
              ("LlamaDecoderLayer", "GPT2Block")]
    for b in blocks:
        fully_shard(b, mesh=mesh, mp_policy=mp)
    fully_shard(model, mesh=mesh, mp_policy=mp)
    return model


def make_optimizer(model, c):
    params = [p for p in model.parameters() if p.requires_grad]
    kw = {"fused": True} if c["optim_impl"] == "fused" else \
        {"foreach": c["optim_impl"] == "foreach"}
    return torch.optim.AdamW(params, lr=1e-5, **kw)


def save(model, c):
    """What a checkpoint save holds on the device: plain and DDP models hand out references
    (state_dict), written to host memory tensor by tensor; FSDP gathers each sharded tensor
    in full and moves it to the host (get_model_state_dict(full_state_dict=True,
    cpu_offload=True)); here the host copy is made outside torch's allocator, as a GPU run's
    host memory is outside the device's."""
    host = []
    if c["shard"] == "fsdp" and c.get("state_dict") == "device":
        # state_dict=device: the full state dict gathered where the shards are and kept until
        # it is written (get_model_state_dict(full_state_dict=True) without cpu_offload, whose
        # default is False: torch/distributed/checkpoint/state_dict.py `StateDictOptions`;
        # FSDP1's model.state_dict() under the default FullStateDictConfig() does the same).
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict
        sd = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True))
        for v in sd.values():
            host.append(bytes(v.contiguous().view(torch.uint8).numpy()))
        n = len(sd)
        del sd
        return n
    if c["shard"] == "fsdp":
        from torch.distributed.tensor import DTensor
        for _, v in model.state_dict().items():
            full = v.full_tensor() if isinstance(v, DTensor) else v
            host.append(bytes(full.contiguous().view(torch.uint8).numpy()))
            del full
    else:
        sd = model.state_dict()
        buf = io.BytesIO()
        torch.save(sd, buf)
        host.append(len(buf.getvalue()))
        del sd, buf
    return len(host)


def train(c, marks, rank=0):
    marks.mark("load", 0)
    model = build(c, marks)
    if c["shard"] == "fsdp":
        model = init_sharded(wrap_parallel(model, c))
    else:
        model = wrap_parallel(materialize(model), c)
    opt = make_optimizer(model, c)
    autocast = c["precision"] == "bf16-mixed" or bool(c.get("autocast"))
    vocab = MODELS[c["model"]]()[0].vocab_size
    g = torch.Generator().manual_seed(1 + rank)
    ids = torch.randint(5, min(vocab, 30000), (c["batch"], c["seq"]), generator=g)
    labels = ids.clone()
    heads = [m for n, m in model.named_modules() if n.endswith("lm_head")]
    state = {"step": 0}
    heads[0].register_forward_pre_hook(lambda m, a: marks.mark("loss", state["step"]))
    for step in (1, 2):
        state["step"] = step
        marks.mark("forward", step)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            out = model(input_ids=ids, labels=labels)
        loss = out.loss
        del out  # the Trainer keeps only the loss
        marks.mark("backward", step)
        loss.backward()
        del loss
        marks.mark("optimizer step", step)
        opt.step()
        opt.zero_grad(set_to_none=True)
    marks.mark("save", 3)
    save(model, c)
    marks.mark("end", 3)
    return model, opt


def allocations(prof):
    """(time, seq, bytes signed, total) of every CPU allocator event, in order."""
    out = []

    def walk(n):
        t = n.typed
        if t[0] == P._EventType.Allocation and t[1].device.type == "cpu":
            out.append((n.start_time_ns, len(out), t[1].alloc_size, t[1].total_allocated))
        for ch in n.children:
            walk(ch)
    for n in prof.profiler.kineto_results.experimental_event_tree():
        walk(n)
    out.sort()
    return out


def segments(events, marks):
    """Splits the events at the markers: per phase occurrence its peak of live bytes (marker
    bytes excluded), live bytes at its start and end, bytes allocated and freed, and a thinned
    trace of live bytes."""
    segs, cur = [], None
    for _, _, size, total in events:
        if size > 0 and size in marks.labels:
            phase, step = marks.labels[size]
            if cur is not None:
                segs.append(cur)
            cur = {"phase": phase, "step": step, "start": total - size, "peak": total - size,
                   "end": total - size, "allocated": 0, "freed": 0, "trace": [total - size]}
            continue
        if size < 0 and -size in marks.labels:
            continue
        if cur is None:
            continue
        cur["end"] = total
        cur["peak"] = max(cur["peak"], total)
        if size > 0:
            cur["allocated"] += size
        else:
            cur["freed"] -= size
        cur["trace"].append(total)
    out = []
    for s in segs:
        if s["phase"] == "end":
            continue
        tr = s.pop("trace")
        stride = max(1, len(tr) // 60)
        thin = tr[::stride]
        if s["peak"] not in thin:
            thin.append(s["peak"])
        s["events"] = len(tr) - 1
        s["trace"] = thin
        out.append(s)
    # consecutive markers of one phase and step (the LM head's pre-hook under checkpointing
    # runs again in the recomputation only for checkpointed modules; never the head) merge
    return out


def record(c, rank=0):
    torch.set_num_threads(1 if c["gpus"] > 1 else 2)
    marks = Marks()
    t0 = time.time()
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        model, opt = train(c, marks, rank)
        n_params = sum(p.numel() for p in model.parameters())
        n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
        del model, opt
    events = allocations(prof)
    segs = segments(events, marks)
    return {
        "query": query_string(c),
        "case": c,
        "params_this_rank": n_params,
        "trainable_this_rank": n_train,
        "phases": segs,
        "seconds": round(time.time() - t0, 1),
    }


def _dist_worker(rank, c, port, path):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    import torch.distributed as dist
    dist.init_process_group("gloo", rank=rank, world_size=c["gpus"])
    try:
        r = record(c, rank)
        if rank == 0:
            with open(path, "w") as f:
                json.dump(r, f)
    finally:
        dist.destroy_process_group()


def run(c):
    if c["gpus"] == 1:
        return record(c)
    import torch.multiprocessing as mp
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "rank0.json")
        port = 29500 + (os.getpid() % 1000)
        mp.spawn(_dist_worker, args=(c, port, path), nprocs=c["gpus"], join=True)
        with open(path) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="/tmp/tunefit-timelines-raw.json")
    ap.add_argument("--only", default=None, help="run only cases whose query contains this")
    ap.add_argument("--list", action="store_true", help="print the grid's queries")
    args = ap.parse_args()
    cases = grid()
    if args.only:
        cases = [c for c in cases if args.only in query_string(c)]
    if args.list:
        for c in cases:
            print(query_string(c))
        return 0
    records, failures = [], []
    for i, c in enumerate(cases):
        q = query_string(c)
        try:
            r = run(c)
        except Exception as e:  # noqa: BLE001 - a case that cannot run is reported
            failures.append({"query": q, "error": f"{type(e).__name__}: {e}"[:400]})
            print(f"[{i + 1}/{len(cases)}] FAIL {q}: {e}", file=sys.stderr, flush=True)
            continue
        records.append(r)
        peaks = " ".join(f"{s['phase'][:4]}{s['step']}={s['peak'] / 1e6:.1f}" for s in r["phases"])
        print(f"[{i + 1}/{len(cases)}] {r['seconds']}s {q}\n    {peaks}", file=sys.stderr,
              flush=True)
        write(args.out, records, failures)
    write(args.out, records, failures)
    return 0 if not failures else 1


def write(out, records, failures):
    doc = {
        "about": "Live tensor bytes of real training steps on the CPU, phase by phase (load, "
                 "forward, loss, backward, optimizer step twice, save), recorded with "
                 "torch.profiler's memory events; ground truth for the allocator replay's "
                 "allocated figure (memory/timeline.rs). Method: tools/calibrate/timeline.py.",
        "generated": datetime.date.today().isoformat(),
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__,
                     "peft": peft.__version__, "python": sys.version.split()[0]},
        "device": "cpu",
        "notes": [
            "Bytes are the CPU allocator's live total (every tensor storage and any scratch "
            "buffer a kernel takes from it); the CPU allocator has no cache, so only allocated "
            "bytes compare with a GPU run, never reserved.",
            "Two-process runs (gpus=2) use the gloo backend and record rank 0; fsdp is FSDP2 "
            "fully_shard per decoder block and at the root (the HF Trainer's default through "
            "accelerate is FSDP1; shard=fsdp does not say which). Single-process and DDP records "
            "repeat byte for byte; FSDP2's retained all-gather and reduce-scatter buffers depend on "
            "timing on gloo, so its phases after the first backward vary by one or two block units "
            "(5.6-11 MB here) between recordings.",
            "save: state_dict + torch.save into host memory for plain and DDP runs; under FSDP "
            "each tensor gathered in full and copied to host memory outside torch's allocator "
            "(get_model_state_dict's cpu_offload on a GPU); with state_dict=device the whole "
            "full state dict is gathered by torch's allocator and kept until it is written "
            "(get_model_state_dict(full_state_dict=True) without cpu_offload), as on a GPU.",
            "bf16-mixed under FSDP is accelerate's FSDP2 policy (MixedPrecisionPolicy with param_dtype, "
            "reduce_dtype and output_dtype bf16, src/accelerate/utils/dataclasses.py @16cb6eb8 "
            "set_mixed_precision) with torch.autocast around the forward, as accelerate runs it "
            "(added 2026-12-08, same versions).",
            "GPT-2's attention-probability dropout is 0 so the CPU flash SDPA kernel runs (a "
            "GPU kernel applies it inside, saving only its RNG state).",
        ],
        "records": records,
        "failures": failures,
    }
    with open(out + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    sys.exit(main())
