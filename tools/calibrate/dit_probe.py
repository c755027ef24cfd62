#!/usr/bin/env python3
"""What one block of a diffusion transformer saves for backward, per token (issue 21).

Ground truth for tunefit's `diffusion` activation model, as probe.py is for the language
models. Each model class of diffusers is built from its published config with few blocks at
full width (random bf16 weights on the CPU, no download), one training forward runs, and
`torch.autograd.graph.saved_tensors_hooks` collects every tensor autograd saves; storages are
deduplicated by identity and the parameters left out, so the bytes are what a GPU holds with a
flash-style attention kernel (PyTorch's CPU SDPA kernel for bf16 without a mask is the flash
one: it saves q, k, v, the output and the fp32 log-sum-exp, as the CUDA flash kernel does).

Per block: the difference between a model with one more block of a kind and the smaller one.
Per token: the difference between two latent sizes divided by the tokens added (image tokens;
the text tokens are held fixed). Ops: the aten ops one more block dispatches in a forward and
in its backward (a TorchDispatchMode counter): the kernels a GPU launches, one eager call each,
for the time model's CPU side. Three trainings: every parameter trained (`full`), PEFT LoRA
rank 16 on the attention projections (`lora_attn`), and on every linear of the blocks
(`lora_all`, diffusers' default target list for Flux and Qwen-Image is attention + MLP).

Usage:  .venv/bin/python dit_probe.py [--out PATH] [--only NAME,...] [--trainings full,...]
(about 15 minutes on 2 cores; run one model per process where memory is short: the record
keeps the models already in it)
"""
from __future__ import annotations

import argparse
import datetime
import gc
import json
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode
import diffusers
import peft

torch.manual_seed(0)
DT = torch.bfloat16

# Published configs (each model's transformer/config.json, as transcribed in
# data/families/components.csv).
MODELS = {
    # black-forest-labs/FLUX.1-dev transformer/config.json
    "flux": dict(
        cls="FluxTransformer2DModel",
        cfg=dict(patch_size=1, in_channels=64, num_attention_heads=24, attention_head_dim=128,
                 joint_attention_dim=4096, pooled_projection_dim=768, guidance_embeds=True,
                 axes_dims_rope=(16, 56, 56)),
        kinds={"double": "num_layers", "single": "num_single_layers"},
    ),
    # Qwen/Qwen-Image transformer/config.json
    "qwen-image": dict(
        cls="QwenImageTransformer2DModel",
        cfg=dict(patch_size=2, in_channels=64, out_channels=16, num_attention_heads=24,
                 attention_head_dim=128, joint_attention_dim=3584, axes_dims_rope=(16, 56, 56)),
        kinds={"dual": "num_layers"},
    ),
    # stabilityai/stable-diffusion-3.5-large transformer/config.json
    "sd3.5-large": dict(
        cls="SD3Transformer2DModel",
        cfg=dict(sample_size=128, patch_size=2, in_channels=16, num_attention_heads=38,
                 attention_head_dim=64, joint_attention_dim=4096, caption_projection_dim=2432,
                 pooled_projection_dim=2048, out_channels=16, pos_embed_max_size=192,
                 qk_norm="rms_norm"),
        kinds={"joint": "num_layers"},
    ),
    # stabilityai/stable-diffusion-3.5-medium transformer/config.json: the first 13 of 24 blocks
    # add a second self-attention on the image stream (`dual_attention_layers`); the last
    # block is `context_pre_only` as in every SD3. A kind's count sets the layers (`layers`).
    "sd3.5-medium": dict(
        cls="SD3Transformer2DModel",
        cfg=dict(sample_size=128, patch_size=2, in_channels=16, num_attention_heads=24,
                 attention_head_dim=64, joint_attention_dim=4096, caption_projection_dim=1536,
                 pooled_projection_dim=2048, out_channels=16, pos_embed_max_size=384,
                 qk_norm="rms_norm"),
        kinds={"dual": None, "joint": None},
        layers=lambda c: dict(num_layers=c.get("dual", 0) + c.get("joint", 0) + 1,
                              dual_attention_layers=tuple(range(c.get("dual", 0)))),
    ),
    # PixArt-alpha/PixArt-Sigma-XL-2-1024-MS transformer/config.json (diffusers
    # scripts/convert_pixart_sigma_to_diffusers.py's Transformer2DModel kwargs)
    "pixart-sigma": dict(
        cls="PixArtTransformer2DModel",
        cfg=dict(sample_size=128, patch_size=2, in_channels=4, out_channels=8, num_attention_heads=16,
                 attention_head_dim=72, cross_attention_dim=1152, caption_channels=4096,
                 norm_type="ada_norm_single", norm_elementwise_affine=False, norm_eps=1e-6,
                 use_additional_conditions=False, interpolation_scale=2, activation_fn="gelu-approximate"),
        kinds={"block": "num_layers"},
    ),
    # Wan-AI/Wan2.1-T2V-1.3B-Diffusers transformer/config.json
    "wan2.1-1.3b": dict(
        cls="WanTransformer3DModel",
        cfg=dict(patch_size=(1, 2, 2), num_attention_heads=12, attention_head_dim=128, in_channels=16,
                 out_channels=16, text_dim=4096, freq_dim=256, ffn_dim=8960, cross_attn_norm=True,
                 qk_norm="rms_norm_across_heads", eps=1e-6, rope_max_seq_len=1024),
        kinds={"block": "num_layers"},
    ),
    # Wan-AI/Wan2.1-T2V-14B-Diffusers transformer/config.json
    "wan2.1-14b": dict(
        cls="WanTransformer3DModel",
        cfg=dict(patch_size=(1, 2, 2), num_attention_heads=40, attention_head_dim=128, in_channels=16,
                 out_channels=16, text_dim=4096, freq_dim=256, ffn_dim=13824, cross_attn_norm=True,
                 qk_norm="rms_norm_across_heads", eps=1e-6, rope_max_seq_len=1024),
        kinds={"block": "num_layers"},
    ),
    # THUDM/CogVideoX-2b and -5b transformer/config.json (2B: sin-cos positions over the 226
    # text positions; 5B: rotary, given by the pipeline, left out here).
    "cogvideox-2b": dict(
        cls="CogVideoXTransformer3DModel",
        cfg=dict(num_attention_heads=30, attention_head_dim=64, in_channels=16, out_channels=16, time_embed_dim=512,
                 text_embed_dim=4096, patch_size=2, sample_width=90, sample_height=60, sample_frames=49,
                 temporal_compression_ratio=4, max_text_seq_length=226, activation_fn="gelu-approximate",
                 norm_eps=1e-5, spatial_interpolation_scale=1.875, temporal_interpolation_scale=1.0,
                 flip_sin_to_cos=True, freq_shift=0, use_rotary_positional_embeddings=False),
        kinds={"block": "num_layers"},
    ),
    "cogvideox-5b": dict(
        cls="CogVideoXTransformer3DModel",
        cfg=dict(num_attention_heads=48, attention_head_dim=64, in_channels=16, out_channels=16, time_embed_dim=512,
                 text_embed_dim=4096, patch_size=2, sample_width=90, sample_height=60, sample_frames=49,
                 temporal_compression_ratio=4, max_text_seq_length=226, activation_fn="gelu-approximate",
                 norm_eps=1e-5, spatial_interpolation_scale=1.875, temporal_interpolation_scale=1.0,
                 flip_sin_to_cos=True, freq_shift=0, use_rotary_positional_embeddings=True),
        kinds={"block": "num_layers"},
    ),
    # Lightricks/LTX-Video transformer/config.json
    "ltx-video": dict(
        cls="LTXVideoTransformer3DModel",
        cfg=dict(in_channels=128, out_channels=128, patch_size=1, patch_size_t=1, num_attention_heads=32,
                 attention_head_dim=64, cross_attention_dim=2048, caption_channels=4096,
                 qk_norm="rms_norm_across_heads"),
        kinds={"block": "num_layers"},
    ),
    # hunyuanvideo-community/HunyuanVideo transformer/config.json (diffusers' defaults for
    # HunyuanVideoTransformer3DModel: 24 heads × 128, mlp_ratio 4, 2 token-refiner layers,
    # rms_norm qk-norm, guidance embedder, patch (1, 2, 2)).
    "hunyuanvideo": dict(
        cls="HunyuanVideoTransformer3DModel",
        cfg=dict(in_channels=16, out_channels=16, num_attention_heads=24, attention_head_dim=128,
                 num_refiner_layers=2, mlp_ratio=4.0, patch_size=2, patch_size_t=1, qk_norm="rms_norm",
                 guidance_embeds=True, text_embed_dim=4096, pooled_projection_dim=768, rope_theta=256.0,
                 rope_axes_dim=(16, 56, 56)),
        kinds={"double": "num_layers", "single": "num_single_layers"},
    ),
    # Efficient-Large-Model/Sana_1600M_1024px_diffusers transformer/config.json (diffusers'
    # defaults for SanaTransformer2DModel: 70 × 32 linear-attention heads, 20 × 112 cross
    # heads, GLUMBConv 2.5×, DC-AE's 32 channels at patch 1, Gemma-2-2B's 2304-wide captions).
    "sana-1.6b": dict(
        cls="SanaTransformer2DModel",
        cfg=dict(in_channels=32, out_channels=32, num_attention_heads=70, attention_head_dim=32,
                 num_cross_attention_heads=20, cross_attention_head_dim=112, cross_attention_dim=2240,
                 caption_channels=2304, mlp_ratio=2.5, sample_size=32, patch_size=1,
                 norm_elementwise_affine=False, norm_eps=1e-6),
        kinds={"block": "num_layers"},
    ),
    # black-forest-labs/FLUX.2-dev transformer/config.json (diffusers' defaults for
    # Flux2Transformer2DModel: 8 double and 48 single blocks of 48 × 128, SwiGLU 3×, the
    # modulations shared by all blocks, 128 packed latent channels, Mistral's 3 × 5120-wide
    # hidden states as the text).
    "flux.2-dev": dict(
        cls="Flux2Transformer2DModel",
        cfg=dict(patch_size=1, in_channels=128, attention_head_dim=128, num_attention_heads=48,
                 joint_attention_dim=15360, timestep_guidance_channels=256, mlp_ratio=3.0,
                 axes_dims_rope=(32, 32, 32, 32), rope_theta=2000, guidance_embeds=True),
        kinds={"double": "num_layers", "single": "num_single_layers"},
        init_bf16=True,
        # Two blocks of 6144 with their gradients outgrow a 24 GB host: probed at 12 and 24
        # heads of 128 and carried to its 48 (`widths`).
        widths=(12, 24, 48),
    ),
    # HiDream-ai/HiDream-I1-Full transformer/config.json, as a diffusers branch's
    # scripts/convert_hidream_to_diffusers.py writes it (17,105,733,184 parameters, the stated 17B): 16 double-stream and 32 single-stream
    # blocks of 20 × 128, each with a MoE SwiGLU (a shared expert of 3584 and 4 routed of 6912,
    # 2 per token), Llama 3.1's hidden states projected into every block (`llama_layers`, one
    # per block: here as many as the probe's blocks) beside T5's.
    "hidream": dict(
        cls="HiDreamImageTransformer2DModel",
        cfg=dict(patch_size=2, in_channels=16, out_channels=16, num_attention_heads=20, attention_head_dim=128,
                 caption_channels=[4096, 4096], text_emb_dim=2048, num_routed_experts=4,
                 num_activated_experts=2, axes_dims_rope=(64, 32, 32), max_resolution=(128, 128)),
        kinds={"double": "num_layers", "single": "num_single_layers"},
        layers=lambda c: {"llama_layers": list(range(c.get("double", 0) + c.get("single", 0)))},
        init_bf16=True,
        # Both streams' projections, as `targets=attn` means (diffusers' HiDream script's
        # default list, to_k/to_q/to_v/to_out, reaches the image stream's only).
        attn=["to_q", "to_k", "to_v", "to_out", "to_q_t", "to_k_t", "to_v_t", "to_out_t"],
    ),
}

TEXT = 64  # text tokens, held fixed
# CogVideoX's sin-cos positions cover exactly its 226 text positions: its records use them.
TEXT_OF = {"cogvideox-2b": 226, "cogvideox-5b": 226}
# HiDream's blocks see three text streams of TEXT tokens each: T5's and the last Llama layer's
# (the double blocks' text stream, kept through the single blocks) and the block's own Llama
# layer, appended to each block's input.
TEXT_OF["hidream"] = 3 * TEXT


def inputs(name: str, side: int, frames: int = 1):
    """Model inputs for a latent of side × side (× frames); returns (kwargs, image tokens)."""
    b = 1
    if name == "flux":
        n = (side // 2) ** 2
        ids = torch.zeros(n, 3)
        return dict(hidden_states=torch.randn(b, n, 64, dtype=DT), encoder_hidden_states=torch.randn(b, TEXT, 4096, dtype=DT),
                    pooled_projections=torch.randn(b, 768, dtype=DT), timestep=torch.tensor([0.5]),
                    img_ids=ids, txt_ids=torch.zeros(TEXT, 3), guidance=torch.tensor([3.5]), return_dict=False), n
    if name == "qwen-image":
        h = side // 2
        n = h * h
        return dict(hidden_states=torch.randn(b, n, 64, dtype=DT), encoder_hidden_states=torch.randn(b, TEXT, 3584, dtype=DT),
                    timestep=torch.tensor([0.5]), img_shapes=[(1, h, h)], return_dict=False), n
    if name.startswith("sd3.5"):
        n = (side // 2) ** 2
        return dict(hidden_states=torch.randn(b, 16, side, side, dtype=DT), encoder_hidden_states=torch.randn(b, TEXT, 4096, dtype=DT),
                    pooled_projections=torch.randn(b, 2048, dtype=DT), timestep=torch.tensor([500.0]), return_dict=False), n
    if name == "pixart-sigma":
        n = (side // 2) ** 2
        return dict(hidden_states=torch.randn(b, 4, side, side, dtype=DT), encoder_hidden_states=torch.randn(b, TEXT, 4096, dtype=DT),
                    timestep=torch.tensor([500]), added_cond_kwargs={"resolution": None, "aspect_ratio": None},
                    return_dict=False), n
    if name.startswith("cogvideox"):
        n = frames * (side // 2) ** 2
        return dict(hidden_states=torch.randn(b, frames, 16, side, side, dtype=DT),
                    encoder_hidden_states=torch.randn(b, TEXT_OF[name], 4096, dtype=DT),
                    timestep=torch.tensor([500]), return_dict=False), n
    if name.startswith("wan2.1"):
        n = frames * (side // 2) ** 2
        return dict(hidden_states=torch.randn(b, 16, frames, side, side, dtype=DT), encoder_hidden_states=torch.randn(b, TEXT, 4096, dtype=DT),
                    timestep=torch.tensor([500]), return_dict=False), n
    if name == "hunyuanvideo":
        # Every text token real (the mask all ones): the blocks still get a boolean mask, as
        # in training, so SDPA runs its masked kernel.
        n = frames * (side // 2) ** 2
        return dict(hidden_states=torch.randn(b, 16, frames, side, side, dtype=DT),
                    timestep=torch.tensor([500]), encoder_hidden_states=torch.randn(b, TEXT, 4096, dtype=DT),
                    encoder_attention_mask=torch.ones(b, TEXT, dtype=torch.long),
                    pooled_projections=torch.randn(b, 768, dtype=DT), guidance=torch.tensor([6000.0]),
                    return_dict=False), n
    if name == "sana-1.6b":
        n = side * side
        return dict(hidden_states=torch.randn(b, 32, side, side, dtype=DT),
                    encoder_hidden_states=torch.randn(b, TEXT, 2304, dtype=DT),
                    timestep=torch.tensor([500]), return_dict=False), n
    if name == "flux.2-dev":
        n = (side // 2) ** 2
        return dict(hidden_states=torch.randn(b, n, 128, dtype=DT), encoder_hidden_states=torch.randn(b, TEXT, 15360, dtype=DT),
                    timestep=torch.tensor([0.5]), img_ids=torch.zeros(n, 4), txt_ids=torch.zeros(TEXT, 4),
                    guidance=torch.tensor([4.0]), return_dict=False), n
    if name == "hidream":
        # A square latent: HiDream pads a non-square one to `max_resolution`'s 4,096 tokens.
        n = (side // 2) ** 2
        return dict(hidden_states=torch.randn(b, 16, side, side, dtype=DT), timesteps=torch.tensor([500]),
                    encoder_hidden_states_t5=torch.randn(b, TEXT, 4096, dtype=DT),
                    encoder_hidden_states_llama3=torch.randn(3, b, TEXT, 4096, dtype=DT),
                    pooled_embeds=torch.randn(b, 2048, dtype=DT), return_dict=False), n
    if name == "ltx-video":
        n = frames * side * side
        return dict(hidden_states=torch.randn(b, n, 128, dtype=DT), encoder_hidden_states=torch.randn(b, TEXT, 4096, dtype=DT),
                    timestep=torch.tensor([500]), encoder_attention_mask=None, num_frames=frames, height=side, width=side, return_dict=False), n
    raise KeyError(name)


ATTN = ["to_q", "to_k", "to_v", "to_out.0", "add_q_proj", "add_k_proj", "add_v_proj", "to_add_out"]


def saved_bytes(model, kwargs) -> int:
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen: dict[int, int] = {}

    def pack(t):
        if isinstance(t, torch.Tensor):
            s = t.untyped_storage()
            if s.data_ptr() not in params:
                seen[s.data_ptr()] = s.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(**kwargs)[0]
    del out
    return sum(seen.values())


class OpCount(TorchDispatchMode):
    """Counts the aten ops dispatched: the kernels a GPU would launch, one eager call each."""

    def __init__(self):
        super().__init__()
        self.n = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n += 1
        return func(*args, **(kwargs or {}))


def op_counts(model, kwargs, lean: bool = False) -> tuple[int, int]:
    """Ops of one training forward and of its backward. `lean`: each gradient is dropped as
    soon as it is accumulated (a hook, no aten op), so that a model whose weights and
    gradients together outgrow the host can still be counted (FLUX.2's full training)."""
    if lean:
        for p in model.parameters():
            if p.requires_grad:
                p.register_post_accumulate_grad_hook(lambda p: setattr(p, "grad", None))
    f = OpCount()
    with f:
        out = model(**kwargs)[0]
    b = OpCount()
    with b:
        out.float().pow(2).mean().backward()
    return f.n, b.n


def build(name: str, counts: dict[str, int], training: str, heads: int | None = None):
    # The previous model is unreferenced by now; PEFT's reference cycles keep it until a
    # collection, and a 3072-wide model's probe outgrows 24 GB by its third training without.
    gc.collect()
    spec = MODELS[name]
    cfg = dict(spec["cfg"])
    if heads:
        cfg["num_attention_heads"] = heads
    for kind, key in spec["kinds"].items():
        if key:
            cfg[key] = counts.get(kind, 0)
    if "layers" in spec:
        cfg.update(spec["layers"](counts))
    # A 6144-wide model built in fp32 and then cast holds both copies at once: FLUX.2's is
    # built in bf16 directly (its record says so), the others as they were recorded.
    prev = torch.get_default_dtype()
    if spec.get("init_bf16"):
        torch.set_default_dtype(DT)
    try:
        model = getattr(diffusers, spec["cls"])(**cfg).to(DT)
    finally:
        torch.set_default_dtype(prev)
    model.train()
    if training == "full":
        model.requires_grad_(True)
        return model
    model.requires_grad_(False)
    linears = {n.split(".")[-1] for n, m in model.named_modules() if isinstance(m, torch.nn.Linear)}
    if training == "lora_attn":
        targets = [t for t in spec.get("attn", ATTN) if any(n.endswith(t) for n, _ in model.named_modules())]
    else:
        # Every linear inside the blocks.
        targets = [n for n, m in model.named_modules() if isinstance(m, torch.nn.Linear) and "blocks" in n]
    del linears
    cfg = peft.LoraConfig(r=16, lora_alpha=16, lora_dropout=0.0, target_modules=targets)
    return peft.get_peft_model(model, cfg)


def widened(name: str, trainings) -> dict:
    """A model too wide to probe here, probed at two head counts and carried to its own.

    Every tensor a block saves is either as wide as the hidden size (or a fixed multiple:
    q, k, v, the attention output, the MLP's hidden states, the norms' outputs; the
    log-sum-exp, one fp32 a head) or independent of it (the rotary tables, one row of
    head_dim per token), so each figure is exactly a + b·heads at a fixed head_dim: two
    widths determine it. The ops are the same graph at any width (checked)."""
    lo, mid, full = MODELS[name]["widths"]
    a, b = probe(name, trainings, lo), probe(name, trainings, mid)
    out = {}
    for training in trainings:
        out[training] = {}
        for kind, x in a[training].items():
            y = b[training][kind]
            assert (x["ops_forward"], x["ops_backward"]) == (y["ops_forward"], y["ops_backward"]), (training, kind)
            at = lambda k: y[k] + (y[k] - x[k]) * (full - mid) / (mid - lo)
            out[training][kind] = {
                "bytes_per_image_token": at("bytes_per_image_token"),
                "bytes_per_block_at_text_tokens": at("bytes_per_block_at_text_tokens"),
                "ops_forward": y["ops_forward"],
                "ops_backward": y["ops_backward"],
                "probed_at_heads": {str(lo): x, str(mid): y},
            }
        print(name, training, "at", full, "heads", json.dumps(out[training]), file=sys.stderr)
    return out


def probe(name: str, trainings=("full", "lora_attn", "lora_all"), heads: int | None = None) -> dict:
    spec = MODELS[name]
    kinds = list(spec["kinds"])
    video = name.startswith(("wan2.1", "cogvideox", "hunyuan")) or name == "ltx-video"
    sides = (8, 12) if not video else (4, 6)
    frames = 2 if video else 1
    out = {}
    for training in trainings:
        base = {k: 1 for k in kinds}
        row = {}
        for side in sides:
            kw, n = inputs(name, side, frames)
            b0 = saved_bytes(build(name, base, training, heads), kw)
            per_kind = {}
            for k in kinds:
                more = dict(base)
                more[k] = 2
                kw, n = inputs(name, side, frames)
                per_kind[k] = saved_bytes(build(name, more, training, heads), kw) - b0
            row[side] = (n, per_kind)
        (n1, a), (n2, b) = row[sides[0]], row[sides[1]]
        # Ops per block: one block more of a kind, forward and backward.
        kw, _ = inputs(name, sides[0], frames)
        lean = bool(spec.get("init_bf16"))
        f0, b0 = op_counts(build(name, base, training, heads), kw, lean)
        ops = {}
        for k in kinds:
            more = dict(base)
            more[k] = 2
            f1, b1 = op_counts(build(name, more, training, heads), kw, lean)
            ops[k] = (f1 - f0, b1 - b0)
        out[training] = {
            k: {
                "bytes_per_image_token": (b[k] - a[k]) / (n2 - n1),
                "bytes_per_block_at_text_tokens": a[k] - (b[k] - a[k]) / (n2 - n1) * n1,
                "ops_forward": ops[k][0],
                "ops_backward": ops[k][1],
            }
            for k in kinds
        }
        print(name, training, heads or "", json.dumps(out[training]), file=sys.stderr)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="../../data/calibration/dit-saved.json")
    ap.add_argument("--only", help="comma-separated model names")
    ap.add_argument("--trainings", default="full,lora_attn,lora_all",
                    help="comma-separated trainings to probe; the record keeps the others it has")
    a = ap.parse_args()
    rec = {
        "recorded": datetime.date.today().isoformat(),
        "versions": {"torch": torch.__version__, "diffusers": diffusers.__version__, "peft": peft.__version__},
        "dtype": "bfloat16",
        "text_tokens": TEXT,
        "models": {},
    }
    # Models already in the record are kept (one process per model keeps the peak RSS low:
    # `--only` one name at a time, same `--out`).
    try:
        with open(a.out) as f:
            old = json.load(f)
        # The record keeps the date of its first models; a model added later carries its own.
        rec["models"], rec["recorded"] = old["models"], old.get("recorded", rec["recorded"])
    except (OSError, ValueError, KeyError):
        pass
    for name in MODELS:
        if a.only and name not in a.only.split(","):
            continue
        trainings = tuple(a.trainings.split(","))
        got = widened(name, trainings) if "widths" in MODELS[name] else probe(name, trainings)
        rec["models"][name] = {**rec["models"].get(name, {}), **got}
        if rec["recorded"] != datetime.date.today().isoformat():
            rec["models"][name]["recorded"] = datetime.date.today().isoformat()
        if name in TEXT_OF:
            rec["models"][name]["text_tokens"] = TEXT_OF[name]
        with open(a.out, "w") as f:
            json.dump(rec, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
