"""Runs the image-classifier train.py that `tunefit export --framework hf` writes for each
vision-encoder family against the real transformers, PEFT and Trainer, on the CPU.

Each preset's checkpoint is replaced by a two-block model of the same class saved to a
temporary directory (no download), with its real processor class; the dataset placeholder
becomes eight random images. The script then runs as exported for two optimizer steps: the
model and processor classes, `num_labels`/`ignore_mismatched_sizes`, the LoRA target names,
`modules_to_save`, gradient checkpointing, `remove_unused_columns=False` and the collator's
`interpolate_pos_encoding` are what is checked (a wrong keyword or module name raises).

Usage: tools/calibrate/.venv/bin/python tools/calibrate/image_export_check.py
(needs target/release/tunefit: cargo build --release -p tunefit-cli)
"""

import sys
import tempfile

import torch
from PIL import Image
from transformers import (
    CLIPImageProcessor,
    CLIPVisionConfig,
    CLIPForImageClassification,
    CLIPConfig,
    SiglipConfig,
    SiglipForImageClassification,
    SiglipImageProcessor,
    SiglipVisionConfig,
    ViTConfig,
    ViTForImageClassification,
    ViTImageProcessor,
)

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from exported import CLI, run_two_steps  # noqa: E402


def tiny(kind, side, patch):
    """A two-block model of the family's class and its processor."""
    small = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4)
    if kind == "vit":
        return ViTForImageClassification(ViTConfig(image_size=side, patch_size=patch, num_labels=3, **small)), ViTImageProcessor(size={"height": side, "width": side})
    if kind == "clip":
        vision = CLIPVisionConfig(image_size=side, patch_size=patch, **small).to_dict()
        cfg = CLIPConfig(vision_config=vision, text_config=dict(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=4), num_labels=3)
        return CLIPForImageClassification(cfg), CLIPImageProcessor(size={"shortest_edge": side}, crop_size={"height": side, "width": side})
    vision = SiglipVisionConfig(image_size=side, patch_size=patch, **small).to_dict()
    cfg = SiglipConfig(vision_config=vision, text_config=dict(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=4), num_labels=3)
    return SiglipForImageClassification(cfg), SiglipImageProcessor(size={"height": side, "width": side})


CASES = [
    # (query, family, trained side, patch)
    ("v=2&model=vit-b&vocab=3&method=lora&batch=4&precision=fp32&optim=adamw", "vit", 224, 16),
    ("v=2&model=vit-l&vocab=3&method=lora&batch=4&precision=fp32&optim=adamw&image_res=256", "vit", 224, 16),
    ("v=2&model=vit-b&vocab=3&method=freeze&train_layers=1&batch=4&precision=fp32&optim=adamw&ckpt=none", "vit", 224, 16),
    ("v=2&model=clip-vit-l&vocab=3&method=lora&batch=4&precision=fp32&optim=adamw&image_res=252", "clip", 224, 14),
    ("v=2&model=siglip-so400m&vocab=3&method=full&batch=4&precision=fp32&optim=adamw", "siglip", 384, 14),
    ("v=2&model=siglip-so400m&vocab=3&method=lora&targets=q,v,o,up,down&batch=4&precision=fp32&optim=adamw", "siglip", 384, 14),
    ("v=2&model=clip-vit-l&layers=2&vocab=3&method=lora&batch=4&precision=fp32&optim=adamw", "clip", 224, 14),
]


def run(query, kind, side, patch):
    with tempfile.TemporaryDirectory() as d:
        model, processor = tiny(kind, side, patch)
        model.save_pretrained(d)
        processor.save_pretrained(d)
        data = ("train_dataset = [{'image': Image.fromarray(np.random.randint(0, 255, (300, 280, 3), dtype=np.uint8)), "
                "'label': i % 3} for i in range(8)]")
        env = run_two_steps(query, d, data, "import numpy as np\nfrom PIL import Image")
        # Adapters only on the encoder's blocks (SigLIP's unused pooling head has none).
        adapted = [n for n, _ in env["model"].named_modules() if n.endswith("lora_A")]
        assert not any(".head." in n for n in adapted), adapted


if __name__ == "__main__":
    if not CLI.exists():
        sys.exit(f"{CLI} is missing: cargo build --release -p tunefit-cli")
    torch.manual_seed(0)
    for case in CASES:
        run(*case)
