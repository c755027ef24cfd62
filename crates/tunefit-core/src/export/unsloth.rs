//! Unsloth: `train_unsloth.py`, `FastLanguageModel.from_pretrained` and `get_peft_model`, then
//! TRL's `SFTTrainer` with an `SFTConfig`. Names from the unslothai/unsloth README notebooks
//! (2025: `load_in_4bit`, `full_finetuning`, `use_gradient_checkpointing="unsloth"`) and
//! `unsloth/models/loader.py`; TRL's `trl/trainer/sft_trainer.py` (docs/frameworks.md).

use super::context::Ctx;
use super::emit::{file, fmt_float, json_str, line, origin, py_bool, py_list};
use super::trainer::{hf_optim, hf_optim_kwargs};
use super::{ExportFile, Note};
use crate::query::{Attention, Method, Offload, Precision, Quant};

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    ctx.common_warnings();
    warnings(ctx);
    let q = ctx.q.clone();
    let mut py = String::new();
    line(&mut py, &format!("# {}", origin(&q)));
    line(&mut py, "# Unsloth must be imported before transformers/trl/peft to patch them.");
    line(&mut py, "from unsloth import FastLanguageModel");
    line(&mut py, "import torch");
    line(&mut py, "from trl import SFTConfig, SFTTrainer");
    line(&mut py, "");
    line(&mut py, &format!("MAX_SEQ_LENGTH = {}", q.seq));
    let dtype = match q.precision {
        Precision::Fp32 => "torch.float32",
        Precision::Fp16Mixed | Precision::Fp16True => "torch.float16",
        _ => "torch.bfloat16",
    };
    let four = q.method == Method::Qlora && q.quant != Quant::Int8;
    let eight = q.method == Method::Qlora && q.quant == Quant::Int8;
    let full = q.method.trains_base();
    // Unsloth's "unsloth" mode offloads checkpointed layer inputs to host memory. It is also
    // from_pretrained's default (models/loader.py), which is what a full fine-tune runs with,
    // so the choice is passed there too.
    let gc = if !ctx.ckpt_on() {
        "False".to_string()
    } else if ctx.res.act_offload {
        "\"unsloth\"".into()
    } else {
        "True".into()
    };
    line(&mut py, &format!(
        "model, tokenizer = FastLanguageModel.from_pretrained(\n    model_name={},\n    max_seq_length=MAX_SEQ_LENGTH,\n    dtype={dtype},\n    load_in_4bit={},\n    load_in_8bit={},\n    full_finetuning={},\n    use_gradient_checkpointing={gc},\n)",
        json_str(ctx.model()), py_bool(four), py_bool(eight), py_bool(full)));
    if !full {
        let targets = ctx.peft_targets();
        let mut all: Vec<&str> = targets.clone();
        all.extend(ctx.naming.full_modules(&q));
        line(&mut py, &format!(
            "model = FastLanguageModel.get_peft_model(\n    model,\n    r={},\n    target_modules={},\n    lora_alpha={},\n    lora_dropout={},\n    bias=\"none\",\n    use_gradient_checkpointing={gc},\n    random_state=3407,\n)",
            q.rank, py_list(&all), ctx.alpha(), fmt_float(ctx.res.lora_dropout)));
    }
    line(&mut py, "");
    line(&mut py, "train_dataset = ...  # your dataset with a \"text\" column");
    let mut args = vec![
        format!("per_device_train_batch_size={}", q.batch),
        format!("gradient_accumulation_steps={}", q.ga),
        format!("num_train_epochs={}", fmt_float(q.epochs)),
        "max_length=MAX_SEQ_LENGTH".to_string(),
        format!("packing={}", py_bool(ctx.res.packing)),
        format!("bf16={}", py_bool(ctx.bf16())),
        format!("fp16={}", py_bool(ctx.fp16())),
        format!("optim={}", json_str(hf_optim(ctx))),
        "output_dir=\"outputs\"".into(),
        "report_to=\"none\"".into(),
    ];
    args.extend(hf_optim_kwargs(ctx));
    // TRL's SFTConfig turns checkpointing on by default (trl/trainer/base_config.py @f2cd5771
    // `gradient_checkpointing: bool = field(default=True)`), which the Trainer applies to the
    // model: a run without it says so here too (the TrainingArguments name, which transformers
    // 5 keeps as an alias).
    if !ctx.ckpt_on() {
        args.push("gradient_checkpointing=False".into());
    }
    // TRL renamed SFTTrainer's tokenizer argument to processing_class (trl/trainer/sft_trainer.py).
    line(&mut py, &format!("trainer = SFTTrainer(\n    model=model,\n    processing_class=tokenizer,\n    train_dataset=train_dataset,\n    args=SFTConfig(\n        {},\n    ),\n)", args.join(",\n        ")));
    line(&mut py, "trainer.train()");
    vec![file("train_unsloth.py", "python", py)]
}

/// What Unsloth decides itself: 4-bit format, DoRA, methods, offload, attention, fp32.
fn warnings(ctx: &mut Ctx) {
    let q = ctx.q.clone();
    if q.method == Method::Qlora && q.quant == Quant::Fp4 {
        ctx.warn(Note::UnslothFp4);
    }
    if q.method == Method::Qlora && !q.double_quant && q.quant != Quant::Int8 {
        ctx.warn(Note::UnslothDoubleQuant);
    }
    if q.method == Method::Dora {
        ctx.warn(Note::UnslothDora);
    }
    if q.method == Method::Freeze {
        ctx.warn(Note::UnslothFreeze);
    }
    if matches!(q.method, Method::Prefix | Method::Prompt | Method::Adapter) {
        ctx.warn(Note::UnslothMethod { method: q.method, rank: q.rank });
    }
    if q.offload != Offload::None {
        ctx.warn(Note::UnslothOffload { offload: q.offload });
    }
    if ctx.res.attn == Attention::Eager {
        ctx.warn(Note::UnslothAttn);
    }
    if q.precision == Precision::Fp32 {
        ctx.warn(Note::UnslothFp32);
    }
}
