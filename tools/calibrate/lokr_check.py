#!/usr/bin/env python3
"""Does LyCORIS LoKr keep more for backward than LoRA? (docs/diffusion.md, PixArt-Σ's miss)

One PixArt-Σ block's saved bytes per image token, as dit_probe.py counts them, under PEFT LoRA
rank 16 on every block linear and under SimpleTuner's pixart.lycoris-lokr preset (LoKr,
full_matrix, factor 2 on Attention and 4 on FeedForward, bypass mode), both under CPU bf16
autocast as accelerate's mixed precision runs them. Needs `pip install lycoris-lora`
(4.1.3 when recorded, 2026-12-05: LoRA 53,384 B, LoKr 69,256 B per image token per block).
"""
import sys, torch, diffusers, peft
sys.path.insert(0, '.')
import dit_probe as dp
from lycoris import create_lycoris, LycorisNetwork
torch.manual_seed(0)
name = "pixart-sigma"
def build(nblocks, mode):
    spec = dp.MODELS[name]
    cfg = dict(spec["cfg"]); cfg["num_layers"] = nblocks
    m = getattr(diffusers, spec["cls"])(**cfg).to(dp.DT); m.train(); m.requires_grad_(False)
    if mode == "lokr":
        LycorisNetwork.apply_preset({"target_module": ["Attention", "FeedForward"], "module_algo_map": {"FeedForward": {"factor": 4}, "Attention": {"factor": 2}}})
        net = create_lycoris(m, 1.0, linear_dim=10000, linear_alpha=1, algo="lokr", factor=4, full_matrix=True, bypass_mode=True)
        net.apply_to()
        return m, net
    cfg = peft.LoraConfig(r=16, lora_alpha=16, lora_dropout=0.0, target_modules=[n for n, mm in m.named_modules() if isinstance(mm, torch.nn.Linear) and "blocks" in n])
    return peft.get_peft_model(m, cfg), None
for mode in ("lora", "lokr"):
    res = {}
    for side in (8, 12):
        vals = []
        for nb in (1, 2):
            m, net = build(nb, mode)
            kw, n = dp.inputs(name, side)
            with torch.autocast("cpu", dtype=torch.bfloat16):
                vals.append(dp.saved_bytes(m, kw))
        res[side] = (n, vals[1] - vals[0])
    (n1, a), (n2, b) = res[8], res[12]
    tr = None
    print(mode, "bytes/image token/block", (b - a) / (n2 - n1), "at text", a - (b - a) / (n2 - n1) * n1)
    if net is not None:
        print("lokr params", sum(p.numel() for p in net.parameters()))
