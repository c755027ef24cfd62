//! Transformers Trainer + PEFT: `train.py` (BitsAndBytesConfig, the PEFT method's config,
//! TrainingArguments, Trainer) and `launch.sh`, with trainer.rs's `ds_config.json` under ZeRO
//! and `accelerate_fsdp.yaml` under FSDP. Key names: transformers `training_args.py`
//! `OptimizerNames` and `modeling_utils.py` (transformers 5.24.0, cited at the keys), PEFT
//! `LoraConfig`, accelerate's FSDP plugin keys (docs/frameworks.md, "Config export").

use super::context::Ctx;
use super::emit::{file, fmt_float, json_str, line, origin, py_bool, py_list};
use super::models::Naming;
use super::trainer::{accelerate_fsdp_yaml, deepspeed_json, hf_optim, hf_optim_kwargs, trainer_warnings};
use super::{ExportFile, Note};
use crate::query::{AdapterDtype, Attention, Loss, Method, Precision, Quant, ShardingStrategy};

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    if let Some(img) = ctx.arch.layout.image {
        if img.sam.is_some() {
            return super::hf_sam::files(ctx);
        }
        return super::hf_image::files(ctx, img);
    }
    if ctx.arch.layout.speech.is_some() {
        return super::hf_speech::files(ctx);
    }
    trainer_warnings(ctx);
    let mut py = String::new();
    header(ctx, &mut py);
    load_model(ctx, &mut py);
    wrap_model(ctx, &mut py);
    line(&mut py, "");
    data(ctx, &mut py);
    line(&mut py, "");
    train(ctx, &mut py);
    if ctx.q.precision == Precision::Fp16True && !ctx.fp16_scaled() {
        ctx.warn(Note::Fp16True);
    }
    trainer_files(ctx, py)
}

/// A Trainer script's files: `train.py`, DeepSpeed's or accelerate's FSDP config where the
/// run shards, and `launch.sh`.
pub(super) fn trainer_files(ctx: &Ctx, py: String) -> Vec<ExportFile> {
    let mut files = vec![file("train.py", "python", py)];
    if let Some(j) = deepspeed_json(ctx) {
        files.push(file("ds_config.json", "json", j));
    }
    if let Some(y) = accelerate_fsdp_yaml(ctx) {
        files.push(file("accelerate_fsdp.yaml", "yaml", y));
    }
    files.push(file("launch.sh", "shell", trainer_launch(ctx, "train.py")));
    files
}

/// The weights' dtype at load, as the memory model stores them (memory/run.rs
/// `frozen_bytes`): `*-mixed` is an fp32 model under autocast, the frozen base of a PEFT
/// method included; a 16-bit-loaded model is `*-true`.
pub(super) fn load_dtype(q: &crate::query::Query) -> &'static str {
    match q.precision {
        Precision::Fp32 | Precision::Bf16Mixed | Precision::Fp16Mixed => "torch.float32",
        Precision::Bf16True => "torch.bfloat16",
        Precision::Fp16True => "torch.float16",
    }
}

/// train.py's header: the query, the imports, the model id and sequence length.
fn header(ctx: &Ctx, py: &mut String) {
    let q = &ctx.q;
    line(py, &format!("# {}", origin(q)));
    line(py, "# Transformers Trainer + PEFT. Fill in the dataset; everything else is what tunefit estimated.");
    line(py, "import torch");
    line(
        py,
        "from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig, Trainer, TrainingArguments",
    );
    line(py, "from transformers import DataCollatorForLanguageModeling, DataCollatorWithFlattening");
    line(py, "from peft import LoraConfig, PrefixTuningConfig, PromptTuningConfig, get_peft_model, prepare_model_for_kbit_training");
    line(py, "");
    line(py, &format!("MODEL_ID = {}", json_str(ctx.model())));
    line(py, &format!("MAX_SEQ_LENGTH = {}", q.seq));
    line(py, "");
}

/// Loading: the weights' dtype and attention kernel, the bitsandbytes config under QLoRA, the
/// tokenizer, and activation checkpointing.
fn load_model(ctx: &Ctx, py: &mut String) {
    let q = &ctx.q;
    let load_dtype = load_dtype(q);
    let compute_dtype = if ctx.fp16() {
        "torch.float16"
    } else if q.precision == Precision::Fp32 {
        "torch.float32"
    } else {
        "torch.bfloat16"
    };
    let attn = match ctx.res.attn {
        Attention::Flash => "flash_attention_2",
        Attention::Sdpa => "sdpa",
        Attention::Eager => "eager",
    };
    // `dtype=`: transformers 4.56 renamed from_pretrained's `torch_dtype` to `dtype`; 5.x
    // warns "`torch_dtype` is deprecated! Use `dtype` instead!" (transformers 5.24.0
    // modeling_utils.py:1402-1404). Releases before 4.56 need `torch_dtype` (train.py says so).
    let mut load_args = vec![format!("dtype={load_dtype}"), format!("attn_implementation={}", json_str(attn))];
    if q.method == Method::Qlora {
        let bnb = match q.quant {
            Quant::Int8 => "bnb_config = BitsAndBytesConfig(load_in_8bit=True)".to_string(),
            Quant::Nf4 | Quant::Fp4 => format!(
                "bnb_config = BitsAndBytesConfig(\n    load_in_4bit=True,\n    bnb_4bit_quant_type={},\n    bnb_4bit_use_double_quant={},\n    bnb_4bit_compute_dtype={compute_dtype},\n    bnb_4bit_quant_storage={load_dtype},  # lets FSDP/ZeRO-3 shard the packed weights\n)",
                json_str(q.quant.as_str()), py_bool(q.double_quant)),
        };
        line(py, &bnb);
        load_args.push("quantization_config=bnb_config".into());
    }
    line(py, "# dtype= needs transformers >= 4.56 (older releases: torch_dtype=).");
    line(
        py,
        &format!("model = AutoModelForCausalLM.from_pretrained(\n    MODEL_ID,\n    {},\n)", load_args.join(",\n    ")),
    );
    line(py, "tokenizer = AutoTokenizer.from_pretrained(MODEL_ID)");
    line(py, "tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token");
    prepare(ctx, py);
    // (QLoRA under `*-true` has it from `prepare`.)
    if ctx.ckpt_on() && !qlora_without_kbit_preparation(ctx) {
        line(py, "model.enable_input_require_grads()");
    }
}

/// QLoRA under `*-true`: the script does what `prepare_model_for_kbit_training` does but its
/// fp32 cast (`prepare`).
fn qlora_without_kbit_preparation(ctx: &Ctx) -> bool {
    ctx.q.method == Method::Qlora && ctx.q.precision.is_true16()
}

/// An encoder model's load (an image classifier, Whisper): `model = {class}.from_pretrained(...)`
/// in the estimate's dtype and attention kernel, `extra` keyword arguments first, under QLoRA
/// a bitsandbytes config whose `llm_int8_skip_modules` keeps `skip` in 16 bits.
pub(super) fn load_encoder(ctx: &Ctx, py: &mut String, class: &str, extra: &[&str], skip: &[&str]) {
    let q = &ctx.q;
    let attn = match ctx.res.attn {
        Attention::Flash => "flash_attention_2",
        Attention::Sdpa => "sdpa",
        Attention::Eager => "eager",
    };
    let mut args: Vec<String> = extra.iter().map(|a| a.to_string()).collect();
    args.push(format!("dtype={}", load_dtype(q)));
    args.push(format!("attn_implementation={}", json_str(attn)));
    if q.method == Method::Qlora {
        let skip = if skip.is_empty() { String::new() } else { format!("llm_int8_skip_modules={}", py_list(skip)) };
        let bnb = match q.quant {
            Quant::Int8 if skip.is_empty() => "bnb_config = BitsAndBytesConfig(load_in_8bit=True)".to_string(),
            Quant::Int8 => format!("bnb_config = BitsAndBytesConfig(load_in_8bit=True, {skip})"),
            Quant::Nf4 | Quant::Fp4 => format!(
                "bnb_config = BitsAndBytesConfig(\n    load_in_4bit=True,\n    bnb_4bit_quant_type={},\n    bnb_4bit_use_double_quant={},\n    bnb_4bit_compute_dtype={},\n{})",
                json_str(q.quant.as_str()),
                py_bool(q.double_quant),
                if ctx.fp16() { "torch.float16" } else { "torch.bfloat16" },
                if skip.is_empty() { String::new() } else { format!("    {skip},\n") }
            ),
        };
        line(py, &bnb);
        args.push("quantization_config=bnb_config".into());
    }
    line(py, "# dtype= needs transformers >= 4.56 (older releases: torch_dtype=).");
    line(py, &format!("model = {class}.from_pretrained(\n    MODEL_ID,\n    {},\n)", args.join(",\n    ")));
}

/// PEFT's LoraConfig for `targets` (a Python list or pattern) with `extra` arguments (DoRA's
/// `use_dora` among them, `DORA`), and get_peft_model with the adapters in fp32 where the
/// profile keeps them so.
pub(super) const DORA: &str = "use_dora=True";

pub(super) fn lora_config(ctx: &Ctx, py: &mut String, targets: &str, extra: &[&str]) {
    let q = &ctx.q;
    let mut args = vec![
        format!("r={}", q.rank),
        format!("lora_alpha={}", ctx.alpha()),
        format!("lora_dropout={}", fmt_float(ctx.res.lora_dropout)),
        format!("target_modules={targets}"),
        "bias=\"none\"".into(),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    line(py, &format!("peft_config = LoraConfig(\n    {},\n)", args.join(",\n    ")));
    // autocast_adapter_dtype=True (PEFT's default) keeps adapters in fp32.
    let autocast = ctx.res.adapter_dtype == AdapterDtype::Fp32;
    line(py, &format!("model = get_peft_model(model, peft_config, autocast_adapter_dtype={})", py_bool(autocast)));
    if q.precision == Precision::Fp16Mixed && extra.iter().any(|a| a.starts_with("modules_to_save")) {
        // The model loads in fp16 and PEFT copies each `modules_to_save` module in that dtype
        // (an image classifier's head, SAM's mask decoder); fp16 AMP's GradScaler unscales
        // fp32 gradients only.
        line(py, "for p in model.parameters():\n    if p.requires_grad:\n        p.data = p.data.float()");
    }
}

/// After loading: bitsandbytes' preparation under QLoRA, and activation checkpointing.
pub(super) fn prepare(ctx: &Ctx, py: &mut String) {
    // prepare_model_for_kbit_training casts every 16-bit parameter that is not 4-bit (the token
    // table, the head, the norms) to fp32 (peft utils/other.py, 0.21.2); a `*-true` estimate
    // holds them in 16 bits, so that run freezes and checkpoints without it.
    if qlora_without_kbit_preparation(ctx) {
        line(py, "# No prepare_model_for_kbit_training: it casts the embeddings, head and norms to fp32, which a");
        line(py, &format!("# {} run keeps in 16 bits. get_peft_model freezes the base.", ctx.q.precision));
        // Its other step under checkpointing: PEFT does not hook the input of a quantized
        // model itself (peft_model.py `_prepare_model_for_gradient_checkpointing` skips
        // models loaded in 4 or 8 bits).
        if ctx.ckpt_on() {
            line(py, "model.enable_input_require_grads()");
        }
    } else if ctx.q.method == Method::Qlora {
        line(
            py,
            &format!(
                "model = prepare_model_for_kbit_training(model, use_gradient_checkpointing={})",
                py_bool(ctx.ckpt_on())
            ),
        );
    }
    if ctx.ckpt_on() {
        // Reentrant-free checkpointing is what transformers recommends with PEFT adapters.
        // gradient_checkpointing_enable keeps its 4.x name: transformers 5 (5.24.0) renamed it
        // activation_checkpointing_enable and keeps the old name as a deprecated alias, while
        // 4.x has only the old one (same choice as TrainingArguments below).
        line(py, "model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={\"use_reentrant\": False})");
    }
}

/// What is trained: the PEFT method's config and wrapper, or the blocks left trainable.
fn wrap_model(ctx: &mut Ctx, py: &mut String) {
    let q = ctx.q.clone();
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => lora(ctx, py),
        Method::Prefix => {
            line(
                py,
                &format!(
                    "peft_config = PrefixTuningConfig(task_type=\"CAUSAL_LM\", num_virtual_tokens={})",
                    q.virtual_tokens
                ),
            );
            line(py, "model = get_peft_model(model, peft_config)");
        }
        Method::Prompt => {
            line(
                py,
                &format!(
                    "peft_config = PromptTuningConfig(task_type=\"CAUSAL_LM\", num_virtual_tokens={})",
                    q.virtual_tokens
                ),
            );
            line(py, "model = get_peft_model(model, peft_config)");
        }
        Method::Adapter => {
            ctx.warn(Note::MethodAdapter { bottleneck: q.bottleneck });
        }
        Method::Freeze => {
            let n = q.train_layers;
            line(py, &format!("# method=freeze: train only the last {n} blocks."));
            line(py, "for p in model.parameters():\n    p.requires_grad_(False)");
            let layers = match ctx.naming {
                Naming::Gpt2 => "model.transformer.h",
                Naming::Bert => "model.bert.encoder.layer",
                Naming::QwenV1 => "model.transformer.h",
                _ => "model.model.layers",
            };
            line(
                py,
                &format!(
                    "for block in {layers}[-{n}:]:\n    for p in block.parameters():\n        p.requires_grad_(True)"
                ),
            );
        }
        Method::Full => {}
    }
}

/// LoraConfig (DoRA through `use_dora`) and get_peft_model.
fn lora(ctx: &mut Ctx, py: &mut String) {
    let q = ctx.q.clone();
    let targets = py_list(&ctx.peft_targets());
    let full = ctx.naming.full_modules(&q);
    let mut extra = vec!["task_type=\"CAUSAL_LM\"".to_string()];
    if !full.is_empty() {
        extra.push(format!("modules_to_save={}", py_list(&full)));
    }
    if q.method == Method::Dora {
        extra.push(DORA.into());
    }
    // GPT-2's Conv1D stores weights transposed (PEFT sets this itself, with a warning).
    if ctx.naming == Naming::Gpt2 {
        extra.push("fan_in_fan_out=True".into());
    }
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    lora_config(ctx, py, &targets, &extra);
}

/// The dataset placeholder and the collator (padding-free under packing).
fn data(ctx: &Ctx, py: &mut String) {
    line(py, "train_dataset = ...  # your tokenized dataset: input_ids truncated to MAX_SEQ_LENGTH");
    if ctx.res.packing {
        // Padding-free packing: sequences concatenated with position_ids restarting per sample.
        line(py, "data_collator = DataCollatorWithFlattening()  # packing=1: no padding tokens");
    } else {
        line(py, "data_collator = DataCollatorForLanguageModeling(tokenizer, mlm=False, pad_to_multiple_of=8)");
    }
}

/// TrainingArguments' keyword arguments.
pub(super) fn training_args(ctx: &Ctx) -> Vec<String> {
    let q = &ctx.q;
    let mut ta = vec![
        "output_dir=\"out\"".to_string(),
        format!("per_device_train_batch_size={}", q.batch),
        format!("gradient_accumulation_steps={}", q.ga),
        format!("num_train_epochs={}", fmt_float(q.epochs)),
        // Off for a `*-true` run under FSDP (`Ctx::trainer_amp`): accelerate would upcast.
        format!("bf16={}", py_bool(q.precision.is_bf16() && ctx.trainer_amp())),
        // fp16-true sets it where the estimate counts autocast over the fp16 model (fp32
        // adapters over a frozen base, whose gradients the scaler unscales) and under DeepSpeed,
        // whose "auto" fp16 reads it; a trained fp16 base runs without the scaler.
        format!("fp16={}", py_bool(q.precision == Precision::Fp16Mixed || ctx.fp16_scaled())),
        format!("gradient_checkpointing={}", py_bool(ctx.ckpt_on())),
        format!("optim={}", json_str(hf_optim(ctx))),
    ];
    if ctx.ckpt_on() {
        ta.push("gradient_checkpointing_kwargs={\"use_reentrant\": False}".into());
    }
    ta.extend(hf_optim_kwargs(ctx));
    if ctx.res.compile {
        ta.push("torch_compile=True".into());
    }
    if matches!(ctx.res.loss, Loss::Chunked | Loss::FusedLinear) {
        // Transformers has no chunked loss of its own; Liger's fused linear cross-entropy
        // never materialises full logits, which is what loss=chunked estimates.
        // (No trailing comment on the argument: `ta` is joined with ",\n", and a comment
        // would swallow the comma.)
        ta.push("use_liger_kernel=True".into());
    }
    if ctx.zero_stage().is_some() {
        ta.push("deepspeed=\"ds_config.json\"".into());
    }
    ta.push("logging_steps=10".into());
    ta.push("save_strategy=\"epoch\"".into());
    ta.push("report_to=\"none\"".into());
    ta
}

/// TrainingArguments, the Trainer and the call that runs it.
fn train(ctx: &Ctx, py: &mut String) {
    let ta = training_args(ctx);
    if matches!(ctx.res.loss, Loss::Chunked | Loss::FusedLinear) {
        line(
            py,
            &format!(
                "# loss={}: use_liger_kernel runs Liger's fused linear cross-entropy (pip install liger-kernel)",
                ctx.res.loss
            ),
        );
    }
    // gradient_checkpointing(_kwargs): transformers 5 renamed the TrainingArguments fields to
    // activation_checkpointing(_kwargs) and keeps the old names as deprecated aliases until v6
    // (transformers 5.24.0 training_args.py:1534-1541, field at :908), with a FutureWarning.
    // transformers 4.5x has no activation_checkpointing field (TypeError), so the old names
    // are the only spelling that runs on both 4.5x and 5.x.
    line(py, "# gradient_checkpointing: transformers 5 calls it activation_checkpointing and accepts this name as a");
    line(py, "# deprecated alias (FutureWarning); 4.x knows only this name, so it runs on both.");
    if !ctx.trainer_amp() && ctx.q.shard == ShardingStrategy::Fsdp && ctx.q.autocast != Some(false) {
        line(
            py,
            "# bf16/fp16=False: under FSDP, accelerate's mixed precision would upcast the trained weights to fp32 (fp32",
        );
        line(
            py,
            "# weights, gradients and optimizer states); without it the model trains in the 16-bit dtype it loads in.",
        );
    } else if !ctx.trainer_amp() && ctx.q.autocast == Some(false) {
        line(py, "# bf16/fp16=False (autocast=0): the 16-bit model runs without autocast; the flag would wrap its");
        line(py, "# forward in torch.autocast, where PEFT's fp32 adapters keep 16-bit copies of their inputs.");
    }
    line(py, &format!("args = TrainingArguments(\n    {},\n)", ta.join(",\n    ")));
    line(py, "trainer = Trainer(model=model, args=args, train_dataset=train_dataset, data_collator=data_collator)");
    line(py, "trainer.train()");
}

/// Launch line for a Trainer script: python on one GPU, accelerate or deepspeed on several.
pub(super) fn trainer_launch(ctx: &Ctx, script: &str) -> String {
    let q = &ctx.q;
    let mut out = format!("#!/usr/bin/env bash\n# {}\nset -euo pipefail\n", origin(q));
    let node_args = if q.nodes > 1 {
        format!(" --num_machines {} --machine_rank \"${{NODE_RANK:-0}}\" --main_process_ip \"${{MASTER_ADDR:?set MASTER_ADDR}}\"", q.nodes)
    } else {
        String::new()
    };
    if q.shard == ShardingStrategy::Fsdp {
        out += &format!("accelerate launch --config_file accelerate_fsdp.yaml{node_args} {script}\n");
    } else if ctx.zero_stage().is_some() || q.gpus > 1 {
        out += &format!(
            "accelerate launch --num_processes {} --num_machines {}{} {script}\n",
            q.gpus,
            q.nodes,
            if q.nodes > 1 {
                " --machine_rank \"${NODE_RANK:-0}\" --main_process_ip \"${MASTER_ADDR:?set MASTER_ADDR}\""
            } else {
                ""
            }
        );
    } else {
        out += &format!("python {script}\n");
    }
    out
}
