//! An image encoder (ViT, CLIP's and SigLIP's vision models) as transformers trains an image
//! classifier: `AutoModelForImageClassification` with a new head of `vocab` labels
//! (`ignore_mismatched_sizes=True`), the image processor at the query's size, PEFT's LoRA with
//! the head in `modules_to_save` (PEFT's image-classification guide), the Trainer with
//! `remove_unused_columns=False` (the collator needs the `image` column). The other frameworks
//! train language models only and refuse, naming the `framework` key (`notes::image_encoder_only_hf`). Module names are
//! transformers 5's (5.23.0), which renamed ViT's; tools/calibrate/image_export_check.py runs
//! each family's script against transformers and PEFT on the CPU.

use super::context::Ctx;
use super::emit::{json_str, line, origin, py_list};
use super::hf::{load_encoder, lora_config, prepare, trainer_files, training_args, DORA};
use super::models::Naming;
use super::trainer::trainer_warnings;
use super::{ExportFile, Note};
use crate::arch::ImageInput;
use crate::query::Method;

pub(super) fn files(ctx: &mut Ctx, img: &ImageInput) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let q = ctx.q.clone();
    let (w, h) = q.image_res.map_or((img.side, img.side), |r| (u64::from(r.w), u64::from(r.h)));
    let mut py = String::new();
    line(&mut py, &format!("# {}", origin(&q)));
    line(
        &mut py,
        "# Transformers image classification: Trainer + PEFT. Fill in the dataset; everything else is what tunefit estimated.",
    );
    line(&mut py, "import torch");
    line(
        &mut py,
        "from transformers import AutoImageProcessor, AutoModelForImageClassification, BitsAndBytesConfig, Trainer, TrainingArguments",
    );
    line(&mut py, "from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training");
    line(&mut py, "");
    line(&mut py, &format!("MODEL_ID = {}", json_str(ctx.model())));
    line(&mut py, &format!("IMAGE_SIZE = {{\"height\": {h}, \"width\": {w}}}"));
    if ctx.arch.vocab > 0 {
        line(&mut py, &format!("NUM_LABELS = {}", ctx.arch.vocab));
    } else {
        line(&mut py, "NUM_LABELS = ...  # your number of classes (vocab=N in the link prices its head)");
    }
    line(&mut py, "");
    load(ctx, &mut py);
    adapt(ctx, &mut py);
    line(&mut py, "");
    // Another side than the checkpoint's: the position table is interpolated to the image
    // (transformers' `interpolate_pos_encoding`, which ViT, CLIP and SigLIP take).
    let interpolate = (w, h) != (img.side, img.side);
    line(&mut py, "train_dataset = ...  # your dataset: an `image` (PIL) and a `label` (int) column");
    line(&mut py, "processor = AutoImageProcessor.from_pretrained(MODEL_ID)");
    line(&mut py, "");
    line(&mut py, "def collate(examples):");
    line(&mut py, "    images = [e[\"image\"].convert(\"RGB\") for e in examples]");
    // CLIP's processor centre-crops to its own `crop_size` after resizing; ViT's and SigLIP's
    // resize only.
    let crop = if ctx.naming == Naming::Clip { ", crop_size=IMAGE_SIZE" } else { "" };
    line(
        &mut py,
        &format!("    pixels = processor(images, size=IMAGE_SIZE{crop}, return_tensors=\"pt\")[\"pixel_values\"]"),
    );
    let extra = if interpolate { ", \"interpolate_pos_encoding\": True" } else { "" };
    line(
        &mut py,
        &format!("    return {{\"pixel_values\": pixels, \"labels\": torch.tensor([e[\"label\"] for e in examples]){extra}}}"),
    );
    line(&mut py, "");
    // Liger's fused cross-entropy is for a language model's vocabulary; a classifier's loss
    // reads one vector per image.
    let mut ta: Vec<String> = training_args(ctx).into_iter().filter(|a| !a.starts_with("use_liger_kernel")).collect();
    ta.push("remove_unused_columns=False".into());
    line(&mut py, &format!("args = TrainingArguments(\n    {},\n)", ta.join(",\n    ")));
    line(&mut py, "trainer = Trainer(model=model, args=args, train_dataset=train_dataset, data_collator=collate)");
    line(&mut py, "trainer.train()");
    trainer_files(ctx, py)
}

/// The model with a new head, in the dtype the memory model stores it, 4-bit under QLoRA, and
/// activation checkpointing.
fn load(ctx: &Ctx, py: &mut String) {
    load_encoder(
        ctx,
        py,
        "AutoModelForImageClassification",
        &["num_labels=NUM_LABELS", "ignore_mismatched_sizes=True"],
        &["classifier"],
    );
    prepare(ctx, py);
}

/// What trains: LoRA (and DoRA) with the new head in `modules_to_save`, the last blocks under
/// freeze, everything under full.
fn adapt(ctx: &mut Ctx, py: &mut String) {
    let q = ctx.q.clone();
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => {
            let targets = ctx.peft_targets();
            // SigLIP's unused pooling head has an `attention.out_proj` and `mlp.fc1`/`fc2` of its
            // own: a pattern over the encoder's layers keeps the adapters off it (PEFT matches a
            // string `target_modules` with `re.fullmatch` on each module's name).
            let targets = if ctx.naming == Naming::Siglip {
                format!(r#"r".*\.encoder\.layers\.\d+\.(self_attn|mlp)\.({})""#, targets.join("|"))
            } else {
                py_list(&targets)
            };
            const HEAD: &str = "modules_to_save=[\"classifier\"]";
            lora_config(ctx, py, &targets, if q.method == Method::Dora { &[HEAD, DORA] } else { &[HEAD] });
        }
        Method::Freeze => {
            let n = q.train_layers;
            let layers =
                if ctx.naming == Naming::Clip { "model.vision_model.encoder.layers" } else { "model.vit.layers" };
            line(py, "for p in model.parameters():\n    p.requires_grad_(False)");
            // `[-0:]` is the whole list in Python: no block at train_layers=0 (a linear probe).
            if n == 0 {
                line(py, "# method=freeze, train_layers=0: train only the new head (a linear probe).");
                line(py, "for p in model.classifier.parameters():\n    p.requires_grad_(True)");
            } else {
                line(py, &format!("# method=freeze: train only the last {n} blocks and the new head."));
                line(
                    py,
                    &format!("for module in [*{layers}[-{n}:], model.classifier]:\n    for p in module.parameters():\n        p.requires_grad_(True)"),
                );
            }
        }
        Method::Adapter | Method::Prefix | Method::Prompt => ctx.warn(Note::ImageMethod { method: q.method }),
        Method::Full => {}
    }
}
