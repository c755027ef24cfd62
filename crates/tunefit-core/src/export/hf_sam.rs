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
    line(&mut py, "train_dataset = ...  # your dataset: an `image` (PIL) and a `mask` (the object's 0/1 mask, the image's size) column");
    line(&mut py, "");
    line(&mut py, "def box(mask):");
    line(&mut py, "    # The prompt: the mask's bounding box in the image's pixels.");
    line(&mut py, "    ys, xs = np.nonzero(mask)");
    line(&mut py, "    return [float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())]");
    line(&mut py, "");
    line(&mut py, "def target(mask):");
    line(
        &mut py,
        "    # The decoder predicts 256x256 masks of the processor's frame: the image scaled to a longer side of 1024, padded to 1024x1024.",
    );
    line(&mut py, "    h, w = mask.shape");
    line(&mut py, "    s = 1024 / max(h, w)");
    line(&mut py, "    m = torch.from_numpy(mask.astype(np.float32))[None, None]");
    line(&mut py, "    m = F.interpolate(m, size=(int(h * s + 0.5), int(w * s + 0.5)), mode=\"nearest\")");
    line(&mut py, "    m = F.pad(m, (0, 1024 - m.shape[-1], 0, 1024 - m.shape[-2]))");
    line(&mut py, "    return F.interpolate(m, size=(256, 256), mode=\"nearest\")[0]");
    line(&mut py, "");
    line(&mut py, "def collate(examples):");
    line(&mut py, "    masks = [np.array(e[\"mask\"]) > 0 for e in examples]");
    line(
        &mut py,
        "    batch = processor([e[\"image\"].convert(\"RGB\") for e in examples], input_boxes=[[box(m)] for m in masks], return_tensors=\"pt\")",
    );
    line(&mut py, "    return {");
    line(&mut py, "        \"pixel_values\": batch[\"pixel_values\"].to(DTYPE),");
    line(&mut py, "        \"input_boxes\": batch[\"input_boxes\"].to(DTYPE),");
    line(&mut py, "        \"multimask_output\": False,");
    line(&mut py, "        \"labels\": torch.stack([target(m) for m in masks]),");
    line(&mut py, "    }");
    line(&mut py, "");
    line(&mut py, "def sam_loss(outputs, labels, num_items_in_batch=None):");
    line(&mut py, "    # monai's DiceCELoss(sigmoid=True, squared_pred=True), as the notebook uses it, in fp32.");
    line(&mut py, "    logits = outputs.pred_masks.squeeze(1).float()");
    line(&mut py, "    labels = labels.float()");
    line(&mut py, "    ce = F.binary_cross_entropy_with_logits(logits, labels)");
    line(&mut py, "    p = torch.sigmoid(logits)");
    line(&mut py, "    dice = 1 - (2 * (p * labels).sum() + 1e-5) / ((p * p).sum() + (labels * labels).sum() + 1e-5)");
    line(&mut py, "    return ce + dice");
    line(&mut py, "");
    let mut ta: Vec<String> = training_args(ctx).into_iter().filter(|a| !a.starts_with("use_liger_kernel")).collect();
    ta.push("remove_unused_columns=False".into());
    line(&mut py, &format!("args = TrainingArguments(\n    {},\n)", ta.join(",\n    ")));
    line(
        &mut py,
        "trainer = Trainer(model=model, args=args, train_dataset=train_dataset, data_collator=collate, compute_loss_func=sam_loss)",
    );
    line(&mut py, "trainer.train()");
    if q.precision == Precision::Fp16True {
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
