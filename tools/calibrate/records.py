"""What the calibration probes share: one record per child process, and the JSON document the
Rust tests read (data/calibration/*.json).

A record runs in its own process because a full-size model's forward and what it leaves in
the process (the allocator's free lists, Python's garbage) would add to the next record's
bytes and peak.
"""
import datetime
import json
import subprocess
import sys

import peft
import peft.tuners.lora.torchao as _peft_torchao
import torch
import transformers

# setup.sh installs torchao 0.10 for torchtune_probe.py; peft 0.21.2 raises on any torchao
# below 0.16 while it dispatches a LoRA layer. No probe quantizes through PEFT's torchao path.
_peft_torchao.is_torchao_available = lambda: False


def in_child(script, *args):
    """The whitespace-separated words `script --one args…` prints last (its record)."""
    out = subprocess.run([sys.executable, script, "--one", *map(str, args)], check=True, capture_output=True,
                         text=True).stdout
    return out.splitlines()[-1].split()


def per_block(script, query, name, *args):
    """One block's saved bytes, as `script --one name LAYERS args…` prints them for three blocks
    less two (litgpt_probe.py, torchtune_probe.py): the record's fields, printed as it goes."""
    two, three = (int(in_child(script, name, layers, *args)[0]) for layers in (2, 3))
    print(f"{three - two:>12} per block  {query}", flush=True)
    return dict(query=query, saved_two_blocks=two, saved_three_blocks=three, saved_per_block=three - two)


def write(path, note, records):
    """The document: what it records (`note`), when, with which libraries, and the records."""
    doc = dict(
        note=note,
        generated=datetime.date.today().isoformat(),
        versions=dict(torch=torch.__version__, transformers=transformers.__version__, peft=peft.__version__),
        records=records,
    )
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


class SavedBytes:
    """What autograd saves inside `with SavedBytes(model) as saved:`, in `saved.bytes`: every
    saved tensor's storage once (a view keeps its whole storage alive), the model's parameters
    left out."""

    def __init__(self, model):
        self.params = {p.untyped_storage()._cdata for p in model.parameters()}
        self.seen = {}
        self.hooks = torch.autograd.graph.saved_tensors_hooks(self.pack, lambda t: t)

    def pack(self, t):
        if isinstance(t, torch.Tensor):
            st = t.untyped_storage()
            if st._cdata not in self.params:
                self.seen[st._cdata] = st.nbytes()
        return t

    def __enter__(self):
        self.hooks.__enter__()
        return self

    def __exit__(self, *exc):
        return self.hooks.__exit__(*exc)

    @property
    def bytes(self):
        return sum(self.seen.values())
