//! Segment Anything as its fine-tuning notebook trains it (NielsRogge/Transformers-Tutorials
//! SAM/Fine_tune_SAM_(segment_anything)_on_a_custom_dataset.ipynb): `SamModel` and
//! `SamProcessor`, one box prompt per image taken from its mask, `multimask_output=False`, and
//! a sigmoid cross-entropy plus Dice loss on the 256×256 low-resolution mask — here through
//! transformers' Trainer (`compute_loss_func`, which receives the `labels` the collator
//! writes) so that precision, checkpointing, optimizer and sharding are the other exports'.
//! The adapters sit on the image encoder's blocks (a pattern over `vision_encoder.layers`:
//! the mask decoder has `lin1`/`lin2` and `*_proj` of its own), with the decoder in
//! `modules_to_save`; freeze trains the decoder and the last blocks. tools/calibrate/
//! sam_export_check.py runs the scripts against transformers and PEFT on the CPU.

use super::context::Ctx;
use super::emit::{json_str, line, origin};
use super::hf::{load_dtype, load_encoder, lora_config, prepare, trainer_files, training_args, DORA};
use super::trainer::trainer_warnings;
use super::ExportFile;
use crate::query::{Method, Precision};

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let q = ctx.q.clone();
    let mut py = String::new();
    line(&mut py, &format!("# {}", origin(&q)));
    line(
        &mut py,
        "# Segment Anything fine-tuning: Trainer + PEFT, a box prompt per image and a sigmoid cross-entropy + Dice loss on the 256x256 mask. Fill in the dataset; everything else is what tunefit estimated.",
    );
    line(&mut py, "import numpy as np");
    line(&mut py, "import torch");
    line(&mut py, "import torch.nn.functional as F");
    line(&mut py, "from transformers import BitsAndBytesConfig, SamModel, SamProcessor, Trainer, TrainingArguments");
    line(&mut py, "from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training");
    line(&mut py, "");
    line(&mut py, &format!("MODEL_ID = {}", json_str(ctx.model())));
    line(&mut py, &format!("DTYPE = {}", load_dtype(&q)));
    line(&mut py, "");
    // The mask decoder trains in every recipe: 4-bit loads keep it in 16 bits.
    load_encoder(ctx, &mut py, "SamModel", &[], &["mask_decoder"]);
    line(&mut py, "processor = SamProcessor.from_pretrained(MODEL_ID)");
    prepare(ctx, &mut py);
    adapt(ctx, &mut py);
    line(&mut py, "");
    py.push_str(DATA_AND_LOSS);
    line(&mut py, "");
    let mut ta: Vec<String> = training_args(ctx).into_iter().filter(|a| !a.starts_with("use_liger_kernel")).collect();
    ta.push("remove_unused_columns=False".into());
    // With one mask per prompt the IoU head (and, in full, parts of the prompt encoder) gets no
    // gradient; DDP refuses unused trainable parameters unless told to look for them.
    if ctx.q.gpus > 1 {
        ta.push("ddp_find_unused_parameters=True".into());
    }
    line(&mut py, &format!("args = TrainingArguments(\n    {},\n)", ta.join(",\n    ")));
    line(
        &mut py,
        "trainer = Trainer(model=model, args=args, train_dataset=train_dataset, data_collator=collate, compute_loss_func=sam_loss)",
    );
    line(&mut py, "trainer.train()");
    if q.precision == Precision::Fp16True && !ctx.fp16_scaled() {
        ctx.warn(super::Note::Fp16True);
    }
    trainer_files(ctx, py)
}

/// What trains: LoRA (and DoRA) on the image encoder's named linears with the mask decoder
/// beside them; the mask decoder and the last blocks under freeze; everything under full.
fn adapt(ctx: &mut Ctx, py: &mut String) {
    let q = ctx.q.clone();
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => {
            let targets = ctx.peft_targets();
            // PEFT matches a string `target_modules` with `re.fullmatch` on each module's name.
            let pattern = format!(r#"r".*vision_encoder\.layers\.\d+\.(attn|mlp)\.({})""#, targets.join("|"));
            const DECODER: &str = "modules_to_save=[\"mask_decoder\"]";
            lora_config(ctx, py, &pattern, if q.method == Method::Dora { &[DECODER, DORA] } else { &[DECODER] });
        }
        Method::Freeze => {
            let n = q.train_layers;
            if n == 0 {
                line(py, "# method=freeze, train_layers=0: train only the mask decoder (the notebook's recipe).");
            } else {
                line(py, &format!("# method=freeze: train the mask decoder and the image encoder's last {n} blocks."));
            }
            line(
                py,
                "for name, p in model.named_parameters():\n    p.requires_grad_(name.startswith(\"mask_decoder.\"))",
            );
            if n > 0 {
                line(
                    py,
                    &format!("for block in model.vision_encoder.layers[-{n}:]:\n    for p in block.parameters():\n        p.requires_grad_(True)"),
                );
            }
        }
        // Everything trains: no code.
        Method::Full => {}
        // Refused by the estimate (memory/checks.rs) before an export is written.
        Method::Adapter | Method::Prefix | Method::Prompt => {}
    }
}

/// The dataset's placeholder, the collator (a box prompt from each mask, the 256×256 target in
/// the processor's frame) and the loss, the same in every SAM export.
const DATA_AND_LOSS: &str = r#"train_dataset = ...  # your dataset: an `image` (PIL) and a `mask` (the object's 0/1 mask, the image's size) column

def as_mask(m):
    # A 0/1 array of the image's size; an RGB or RGBA mask image reads its first channel.
    m = np.array(m)
    return (m[..., 0] if m.ndim == 3 else m) > 0

def box(mask):
    # The prompt: the mask's bounding box in the image's pixels (the whole image for an empty mask).
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return [0.0, 0.0, float(mask.shape[1] - 1), float(mask.shape[0] - 1)]
    return [float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())]

def target(mask):
    # The decoder predicts 256x256 masks of the processor's frame: the image scaled to a longer side of 1024, padded to 1024x1024.
    h, w = mask.shape
    s = 1024 / max(h, w)
    m = torch.from_numpy(mask.astype(np.float32))[None, None]
    m = F.interpolate(m, size=(int(h * s + 0.5), int(w * s + 0.5)), mode="nearest")
    m = F.pad(m, (0, 1024 - m.shape[-1], 0, 1024 - m.shape[-2]))
    return F.interpolate(m, size=(256, 256), mode="nearest")[0]

def collate(examples):
    masks = [as_mask(e["mask"]) for e in examples]
    batch = processor([e["image"].convert("RGB") for e in examples], input_boxes=[[box(m)] for m in masks], return_tensors="pt")
    return {
        "pixel_values": batch["pixel_values"].to(DTYPE),
        # Box coordinates stay fp32: the prompt encoder casts them itself (bf16 would round them to 4 px).
        "input_boxes": batch["input_boxes"],
        "multimask_output": False,
        "labels": torch.stack([target(m) for m in masks]),
    }

def sam_loss(outputs, labels, num_items_in_batch=None):
    # monai's DiceCELoss(sigmoid=True, squared_pred=True), as the notebook uses it, in fp32: Dice per mask, then the mean.
    logits = outputs.pred_masks.squeeze(1).float()
    labels = labels.float()
    ce = F.binary_cross_entropy_with_logits(logits, labels)
    p = torch.sigmoid(logits)
    inter = (p * labels).sum((-2, -1))
    dice = (1 - (2 * inter + 1e-5) / ((p * p).sum((-2, -1)) + (labels * labels).sum((-2, -1)) + 1e-5)).mean()
    loss = ce + dice
    # The Trainer neither divides a compute_loss_func's loss by the accumulation steps nor averages it over GPUs:
    # num_items_in_batch counts the labels of every accumulated micro-batch on every GPU; this one's share scales it.
    if num_items_in_batch is not None:
        loss = loss * labels.numel() / num_items_in_batch
    return loss
"#;
