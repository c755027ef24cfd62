"""Runs the Segment Anything train.py that `tunefit export --framework hf` writes against the real
transformers, PEFT and Trainer, on the CPU.

Each case's checkpoint is replaced by a two-block SamModel (a windowed block and a global one,
width 32, the real 1024² input and 256-channel neck and mask decoder) saved to a temporary
directory with a real `SamProcessor` (no download). The dataset placeholder becomes six random
images of different sizes with a rectangular object mask each. The script then runs as exported
for two optimizer steps: the model and processor classes, the LoRA pattern over the image
encoder's blocks with the mask decoder in `modules_to_save`, freeze's decoder and blocks,
non-reentrant checkpointing, the collator's boxes and 256² targets, `compute_loss_func` and
`TrainingArguments` are what is checked (a wrong keyword, module name or shape raises).

Usage: tools/calibrate/.venv/bin/python tools/calibrate/sam_export_check.py
(needs target/release/tunefit: cargo build --release -p tunefit-cli)
"""

import sys
import tempfile

import numpy as np
import torch
from transformers import SamConfig, SamImageProcessor, SamModel, SamProcessor, SamVisionConfig

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from exported import CLI, run_two_steps  # noqa: E402


def tiny(d):
    torch.manual_seed(0)
    cfg = SamConfig(vision_config=SamVisionConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                                  mlp_dim=64, global_attn_indexes=[1]))
    SamModel(cfg).save_pretrained(d)
    SamProcessor(SamImageProcessor()).save_pretrained(d)


DATA = """
def _example(i):
    h, w = (600 + 40 * i, 800 - 30 * i)
    mask = np.zeros((h, w), dtype=np.uint8)
    mask[50 + 10 * i: 300 + 5 * i, 100: 400 + 20 * i] = 1
    image = Image.fromarray((np.random.rand(h, w, 3) * 255).astype(np.uint8))
    return {"image": image, "mask": mask}
train_dataset = [_example(i) for i in range(6)]
"""

CASES = [
    "v=2&model=sam-vit-base&method=lora&targets=q,k,v&rank=8&batch=2&precision=fp32&optim=adamw",
    # The same two optimizer steps as micro-batches of one: the same loss (the Trainer does not
    # divide a compute_loss_func's loss by the accumulation steps; sam_loss scales it).
    "v=2&model=sam-vit-base&method=lora&targets=q,k,v&rank=8&batch=1&ga=2&precision=fp32&optim=adamw",
    # bf16 autocast over 16-bit weights with fp32 adapters and decoder copy (CPU autocast).
    "v=2&model=sam-vit-base&method=lora&targets=q,k,v&rank=8&batch=2&precision=bf16-mixed&optim=adamw",
    "v=2&model=sam-vit-large&method=dora&targets=q,k,v,o,up,down&rank=8&batch=2&precision=fp32&optim=adamw&ckpt=full",
    "v=2&model=sam-vit-base&method=full&batch=2&precision=fp32&optim=adamw&ckpt=full",
    "v=2&model=sam-vit-base&method=freeze&train_layers=0&batch=2&precision=fp32&optim=adamw",
    "v=2&model=sam-vit-huge&method=freeze&train_layers=1&batch=2&precision=fp32&optim=adamw",
]


def run(query):
    with tempfile.TemporaryDirectory() as d:
        tiny(d)
        env = run_two_steps(query, d, DATA, "import numpy as np\nfrom PIL import Image\nnp.random.seed(0)")
        model = env["model"]
        adapted = [n for n, _ in model.named_modules() if n.endswith("lora_A")]
        trained = [n for n, p in model.named_parameters() if p.requires_grad]
        if "method=lora" in query or "method=dora" in query:
            # The adapters sit on the image encoder's blocks only; the decoder trains beside them.
            assert adapted and all(".vision_encoder.layers." in n for n in adapted), adapted
            assert any("mask_decoder.modules_to_save" in n for n in trained), trained
        if "method=freeze" in query:
            blocks = {n.split(".layers.")[1].split(".")[0] for n in trained if "vision_encoder.layers." in n}
            assert blocks == ({"1"} if "train_layers=1" in query else set()), blocks
            assert all(n.startswith(("mask_decoder.", "vision_encoder.layers.1.")) for n in trained), trained
        if "method=full" in query:
            assert len(trained) == len(list(model.parameters()))


        return env["trainer"].state.log_history[-1]["train_loss"]


if __name__ == "__main__":
    if not CLI.exists():
        sys.exit(f"{CLI} is missing: cargo build --release -p tunefit-cli")
    losses = [run(case) for case in CASES]
    # batch=2 and batch=1&ga=2 train on the same images in the same order.
    assert abs(losses[1] / losses[0] - 1) < 0.02, losses[:2]
