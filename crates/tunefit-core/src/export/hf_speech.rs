//! Whisper as transformers fine-tunes it for speech recognition (huggingface/blog
//! fine-tune-whisper.md@17e0c1d1, PEFT's int8 Whisper example): `WhisperForConditionalGeneration`,
//! its processor (log-mel features of 30 s clips, the tokenizer for the labels), a collator that
//! pads the labels with -100, `Seq2SeqTrainer`. PEFT's module names match the encoder's and the
//! decoder's attentions and MLPs alike (q_proj … out_proj, fc1, fc2). Checkpointing is
//! non-reentrant.
//! Only transformers' Trainer and Unsloth train Whisper; the estimate refuses the others.

use super::context::Ctx;
use super::emit::{json_str, line, origin, py_list};
use super::hf::{load_encoder, lora_config, prepare, trainer_files, training_args, DORA};
use super::trainer::trainer_warnings;
use super::ExportFile;
use crate::query::Method;

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let q = ctx.q.clone();
    let mut py = String::new();
    line(&mut py, &format!("# {}", origin(&q)));
    line(&mut py, "# Transformers Seq2SeqTrainer + PEFT for Whisper. Fill in the dataset; everything else is what tunefit estimated.");
    line(&mut py, "import torch");
    line(
        &mut py,
        "from transformers import BitsAndBytesConfig, Seq2SeqTrainer, Seq2SeqTrainingArguments, WhisperForConditionalGeneration, WhisperProcessor",
    );
    line(&mut py, "from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training");
    line(&mut py, "");
    line(&mut py, &format!("MODEL_ID = {}", json_str(ctx.model())));
    line(&mut py, &format!("MAX_LABEL_TOKENS = {}  # seq: the longest transcript, at most 448", q.seq));
    line(&mut py, "");
    load(ctx, &mut py);
    adapt(ctx, &mut py);
    line(&mut py, "");
    line(&mut py, "train_dataset = ...  # your dataset: an `audio` column (16 kHz) and a `sentence` column");
    line(&mut py, "");
    line(&mut py, "def collate(examples):");
    line(&mut py, "    # Log-mel features of each clip padded to 30 s; the labels padded with -100.");
    line(&mut py, "    audio = [e[\"audio\"][\"array\"] for e in examples]");
    line(
        &mut py,
        "    batch = processor.feature_extractor(audio, sampling_rate=examples[0][\"audio\"][\"sampling_rate\"], return_tensors=\"pt\")",
    );
    line(
        &mut py,
        "    labels = processor.tokenizer([e[\"sentence\"] for e in examples], max_length=MAX_LABEL_TOKENS, truncation=True, padding=True, return_tensors=\"pt\")",
    );
    line(&mut py, "    ids = labels[\"input_ids\"].masked_fill(labels[\"attention_mask\"].ne(1), -100)");
    line(&mut py, "    # The model prepends the decoder start token itself.");
    line(&mut py, "    if (ids[:, 0] == model.config.decoder_start_token_id).all():");
    line(&mut py, "        ids = ids[:, 1:]");
    line(&mut py, "    return {\"input_features\": batch[\"input_features\"].to(model.dtype), \"labels\": ids}");
    line(&mut py, "");
    let mut ta: Vec<String> = training_args(ctx).into_iter().filter(|a| !a.starts_with("use_liger_kernel")).collect();
    ta.push("remove_unused_columns=False".into());
    line(&mut py, &format!("args = Seq2SeqTrainingArguments(\n    {},\n)", ta.join(",\n    ")));
    line(
        &mut py,
        "trainer = Seq2SeqTrainer(model=model, args=args, train_dataset=train_dataset, data_collator=collate)",
    );
    line(&mut py, "trainer.train()");
    if q.precision == crate::query::Precision::Fp16True && !ctx.fp16_scaled() {
        ctx.warn(super::Note::Fp16True);
    }
    trainer_files(ctx, py)
}

/// The model in the dtype the memory model stores it, 8- or 4-bit under QLoRA, its processor,
/// and activation checkpointing.
fn load(ctx: &Ctx, py: &mut String) {
    load_encoder(ctx, py, "WhisperForConditionalGeneration", &[], &[]);
    line(py, "processor = WhisperProcessor.from_pretrained(MODEL_ID)");
    line(py, "model.generation_config.forced_decoder_ids = None");
    // The input embeddings' output requires grad under checkpointing
    // (`prepare_model_for_kbit_training`, PeftModel for an unquantized model, and `prepare`'s
    // own call for QLoRA under `*-true`: `enable_input_require_grads`), which in transformers 5
    // hooks the encoder's conv1 too; the
    // estimate counts what the frozen convolutions then keep (memory/speech.rs).
    prepare(ctx, py);
}

/// What trains: LoRA (and DoRA) on the named linears of the encoder and the decoder, the last
/// decoder blocks under freeze (the encoder frozen), everything under full.
fn adapt(ctx: &mut Ctx, py: &mut String) {
    let q = ctx.q.clone();
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => {
            let targets = py_list(&ctx.peft_targets());
            lora_config(ctx, py, &targets, if q.method == Method::Dora { &[DORA] } else { &[] });
        }
        Method::Freeze => {
            let n = q.train_layers;
            line(py, &format!("# method=freeze: train only the last {n} decoder blocks."));
            line(py, "for p in model.parameters():\n    p.requires_grad_(False)");
            line(
                py,
                &format!("for block in model.model.decoder.layers[-{n}:]:\n    for p in block.parameters():\n        p.requires_grad_(True)"),
            );
        }
        // Everything trains: no code.
        Method::Full => {}
        // Refused by the estimate (memory/checks.rs) before an export is written.
        Method::Adapter | Method::Prefix | Method::Prompt => {}
    }
}
