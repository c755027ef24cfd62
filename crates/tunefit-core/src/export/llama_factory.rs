//! LLaMA-Factory: `llamafactory.yaml`, with trainer.rs's `ds_config.json` under ZeRO, its
//! `accelerate_fsdp.yaml` and a `launch.sh` under FSDP, and a `FORCE_TORCHRUN` `launch.sh` on
//! several GPUs. Keys from LLaMA-Factory's `hparams/` (data_args.py of 0.9.5,
//! finetuning_args.py, parser.py) and `extras/constants.py`, cited at the keys; laid out as
//! hiyouga/LLaMA-Factory `examples/train_qlora/llama3_lora_sft_otfq.yaml` @24073f59
//! (docs/frameworks.md).

use super::context::Ctx;
use super::emit::{comment, file, i, origin, s, yaml, Entries, Y};
use super::trainer::{accelerate_fsdp_yaml, deepspeed_json, hf_optim, hf_optim_args, trainer_warnings};
use super::{ExportFile, Note};
use crate::query::{AdapterDtype, Attention, Framework, Loss, Method, Optimizer, Precision, Quant};

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let q = ctx.q.clone();
    if q.precision == Precision::Bf16True && ctx.zero_stage() == Some(3) {
        ctx.warn(Note::LlamaFactoryBf16Zero3);
    }
    let mut top = model(ctx);
    method(ctx, &mut top);
    top.extend(training(ctx));
    extras(ctx, &mut top);
    let mut files = vec![];
    files.push(file("llamafactory.yaml", "yaml", yaml(&top)));
    if let Some(j) = deepspeed_json(ctx) {
        files.push(file("ds_config.json", "json", j));
    }
    if let Some(y) = accelerate_fsdp_yaml(ctx) {
        files.push(file("accelerate_fsdp.yaml", "yaml", y));
        let launch = format!("#!/usr/bin/env bash\n# {}\nset -euo pipefail\naccelerate launch --config_file accelerate_fsdp.yaml -m llamafactory.launcher llamafactory.yaml\n", origin(&q));
        files.push(file("launch.sh", "shell", launch));
    } else if q.gpus > 1 {
        let launch = format!("#!/usr/bin/env bash\n# {}\nset -euo pipefail\nFORCE_TORCHRUN=1 NNODES={} NPROC_PER_NODE={} llamafactory-cli train llamafactory.yaml\n", origin(&q), q.nodes, ctx.gpus_per_node());
        files.push(file("launch.sh", "shell", launch));
    }
    files
}

/// The model, its bitsandbytes loading and attention kernel, and the SFT stage.
fn model(ctx: &Ctx) -> Entries {
    let q = &ctx.q;
    let mut top: Entries = vec![
        comment(origin(q)),
        comment("Run: llamafactory-cli train llamafactory.yaml"),
        ("model_name_or_path".into(), s(ctx.model())),
    ];
    if q.method == Method::Qlora {
        let bits = if q.quant == Quant::Int8 { 8 } else { 4 };
        top.push(("quantization_bit".into(), i(bits)));
        // quantization_method is left at its default, bitsandbytes: current LLaMA-Factory
        // spells it "bnb" (extras/constants.py QuantizationMethod.BNB), releases before the
        // rename "bitsandbytes", so naming it would break one of them.
        top.push(comment("quantization_method: default (bitsandbytes; \"bnb\" in current LLaMA-Factory, \"bitsandbytes\" in older releases)"));
        if bits == 4 {
            top.push(("quantization_type".into(), s(q.quant.as_str())));
            top.push(("double_quantization".into(), Y::B(q.double_quant)));
        }
    }
    let flash = match ctx.res.attn {
        Attention::Flash => "fa2",
        Attention::Sdpa => "sdpa",
        Attention::Eager => "disabled",
    };
    top.push(("flash_attn".into(), s(flash)));
    top.push(("stage".into(), s("sft")));
    top.push(("do_train".into(), Y::B(true)));
    top
}

/// `finetuning_type` and its keys: LoRA, freeze, full, or LoRA in place of a missing method.
fn method(ctx: &mut Ctx, top: &mut Entries) {
    let q = ctx.q.clone();
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => {
            let targets = ctx.peft_targets();
            top.push(("finetuning_type".into(), s("lora")));
            top.push(("lora_rank".into(), i(q.rank)));
            top.push(("lora_alpha".into(), i(ctx.alpha())));
            top.push(("lora_dropout".into(), Y::F(ctx.res.lora_dropout)));
            // LLaMA-Factory's own LoRA calls get_peft_model with PEFT's default, which keeps the
            // adapters fp32 (src/llamafactory/model/adapter.py @ff6d4d12e `_setup_lora_tuning`).
            if ctx.res.adapter_dtype == AdapterDtype::Bf16 {
                ctx.warn(Note::AdapterDtype { framework: Framework::LlamaFactory });
            }
            // lora_target is one comma-separated string in LLaMA-Factory's FinetuningArguments.
            top.push(("lora_target".into(), s(targets.join(","))));
            let full = ctx.naming.full_modules(&q);
            if !full.is_empty() {
                top.push(("additional_target".into(), s(full.join(","))));
            }
            if q.method == Method::Dora {
                top.push(("use_dora".into(), Y::B(true)));
            }
        }
        Method::Freeze => {
            top.push(("finetuning_type".into(), s("freeze")));
            top.push(("freeze_trainable_layers".into(), i(q.train_layers)));
            top.push(("freeze_trainable_modules".into(), s("all")));
        }
        Method::Full => top.push(("finetuning_type".into(), s("full"))),
        m => {
            ctx.warn(Note::LlamaFactoryMethod { method: m, rank: q.rank });
            top.push(("finetuning_type".into(), s("lora")));
            top.push(("lora_rank".into(), i(q.rank)));
            top.push(("lora_target".into(), s("all")));
        }
    }
}

/// Dataset, sequence, batch, optimizer, precision, checkpointing and compile keys.
fn training(ctx: &Ctx) -> Entries {
    let q = &ctx.q;
    // LLaMA-Factory 0.9.5 hparams/data_args.py:38-40: dataset names are looked up in
    // <dataset_dir>/dataset_info.json (data/parser.py:113), dataset_dir defaulting to "data",
    // which exists only in a source checkout; after `pip install llamafactory` the lookup fails.
    // Both are written, with a fill-in comment, as the other exports mark their dataset.
    vec![
    comment("Fill in: dataset names an entry of <dataset_dir>/dataset_info.json. alpaca_en_demo is in the data/ folder"),
    comment("of a LLaMA-Factory checkout; with pip install llamafactory, point dataset_dir at a folder with your own dataset_info.json"),
    ("dataset_dir".into(), s("data")),
    ("dataset".into(), s("alpaca_en_demo")),
    ("template".into(), s("default")),
    ("cutoff_len".into(), i(q.seq)),
    ("packing".into(), Y::B(ctx.res.packing)),
    ("output_dir".into(), s("saves/tunefit")),
    ("per_device_train_batch_size".into(), i(q.batch)),
    ("gradient_accumulation_steps".into(), i(q.ga)),
    ("num_train_epochs".into(), Y::F(q.epochs)),
    // With use_galore LLaMA-Factory builds GaLore itself (create_custom_optimizer).
    ("optim".into(), s(if q.optim == Optimizer::GaloreAdamW { "adamw_torch" } else { hf_optim(ctx) })),
    // Off for pure_bf16 under FSDP (`Ctx::trainer_amp`): accelerate would upcast the trained
    // weights to fp32; LLaMA-Factory's own pure_bf16 runs leave bf16 off (its web UI's
    // compute_type "pure_bf16" sets bf16=False: src/llamafactory/webui/runner.py @ff6d4d12e).
    ("bf16".into(), Y::B(ctx.bf16() && ctx.trainer_amp())),
    ("fp16".into(), Y::B(q.precision == Precision::Fp16Mixed)),
    // pure_bf16: train in bf16 without fp32 master weights ("bf16-true").
    // LLaMA-Factory rejects pure_bf16 with DeepSpeed ZeRO-3 (hparams/parser.py).
    ("pure_bf16".into(), Y::B(q.precision == Precision::Bf16True && ctx.zero_stage() != Some(3))),
    ("disable_gradient_checkpointing".into(), Y::B(!ctx.ckpt_on())),
    ("torch_compile".into(), Y::B(ctx.res.compile)),
    ]
}

/// Optimizer arguments, LLaMA-Factory's own GaLore switch, Liger's loss and DeepSpeed.
fn extras(ctx: &Ctx, top: &mut Entries) {
    if let Some(a) = hf_optim_args(ctx) {
        top.push(("optim_args".into(), s(&a)));
    }
    if ctx.q.optim == Optimizer::GaloreAdamW {
        // LLaMA-Factory's own GaLore switch (hparams/finetuning_args.py GaloreArguments).
        top.push(("use_galore".into(), Y::B(true)));
        top.push(("galore_target".into(), s("all")));
        top.push(("galore_rank".into(), Y::I(ctx.q.galore_rank as i64)));
    }
    if matches!(ctx.res.loss, Loss::Chunked | Loss::FusedLinear) {
        top.push(comment(format!(
            "loss={}: Liger's fused linear cross-entropy never materialises full logits",
            ctx.res.loss
        )));
        top.push(("enable_liger_kernel".into(), Y::B(true)));
    }
    if ctx.zero_stage().is_some() {
        top.push(("deepspeed".into(), s("ds_config.json")));
    }
}
