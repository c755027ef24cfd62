//! What the Trainer-based exports share (hf, axolotl, llama-factory; Unsloth's SFTConfig takes
//! the same optimizer names): Transformers' `optim` names (training_args.py `OptimizerNames`),
//! `optim_args` and GaLore's `optim_target_modules`, the DeepSpeed config `ds_config.json`
//! ("auto" where the Trainer fills a value in), accelerate's FSDP config
//! `accelerate_fsdp.yaml`, and the warnings about offload these setups cannot express.

use super::context::Ctx;
use super::emit::{comment, i, json_str, origin, s, yaml, Y};
use super::Note;
use crate::query::{Offload, Optimizer, ShardingStrategy};

/// Transformers `optim` name (training_args.py `OptimizerNames`).
pub(super) fn hf_optim(ctx: &Ctx) -> &'static str {
    match ctx.q.optim {
        // The hf profile models Trainer's fused AdamW (no foreach temporaries): say so.
        Optimizer::AdamW => {
            if ctx.res.optimizer_impl == crate::query::OptimizerImpl::Fused {
                "adamw_torch_fused"
            } else {
                "adamw_torch"
            }
        }
        Optimizer::AdamW8bit => "adamw_bnb_8bit",
        // Transformers' torchao names (training_args.py OptimizerNames ADAMW_TORCH_8BIT/4BIT);
        // it has none for torchao's fp8 AdamW (a warning says so).
        Optimizer::AdamW8bitAo | Optimizer::AdamWFp8Ao => "adamw_torch_8bit",
        Optimizer::AdamW4bitAo => "adamw_torch_4bit",
        // transformers' GaLore (training_args.py OptimizerNames GALORE_ADAMW, with
        // optim_target_modules and optim_args "rank=…").
        Optimizer::GaloreAdamW => "galore_adamw",
        Optimizer::PagedAdamW => "paged_adamw_32bit",
        Optimizer::PagedAdamW8bit => "paged_adamw_8bit",
        Optimizer::Adafactor => "adafactor",
        Optimizer::Sgd | Optimizer::SgdMomentum => "sgd",
        Optimizer::Lion => "lion_32bit",
    }
}

/// `optim_args` where the name alone does not say it (SGD momentum, GaLore's rank).
pub(super) fn hf_optim_args(ctx: &Ctx) -> Option<String> {
    match ctx.q.optim {
        Optimizer::SgdMomentum => Some("momentum=0.9".into()),
        Optimizer::GaloreAdamW => Some(format!("rank={}", ctx.q.galore_rank)),
        _ => None,
    }
}

/// GaLore's `optim_target_modules` (the block linears, as transformers' GaLore docs write
/// them): regexes over module names.
pub(super) const GALORE_TARGETS: &[&str] = &[r".*.attn.*", r".*.mlp.*"];

/// `optim_args` and GaLore's `optim_target_modules` as Python keyword arguments
/// (TrainingArguments and SFTConfig take the same).
pub(super) fn hf_optim_kwargs(ctx: &Ctx) -> Vec<String> {
    let mut out: Vec<String> = hf_optim_args(ctx).map(|a| format!("optim_args={}", json_str(&a))).into_iter().collect();
    if ctx.q.optim == Optimizer::GaloreAdamW {
        out.push(format!(
            "optim_target_modules=[{}]",
            GALORE_TARGETS.iter().map(|t| json_str(t)).collect::<Vec<_>>().join(", ")
        ));
    }
    out
}

/// DeepSpeed JSON (ZeRO stage, offload), with "auto" where the Trainer fills the value in.
pub(super) fn deepspeed_json(ctx: &Ctx) -> Option<String> {
    let stage = ctx.zero_stage()?;
    let mut zero = serde_json::json!({ "stage": stage });
    let off = |dev: &str| serde_json::json!({ "device": dev, "pin_memory": true });
    match ctx.q.offload {
        Offload::None => {}
        Offload::Optimizer => {
            zero["offload_optimizer"] = off("cpu");
        }
        Offload::All => {
            zero["offload_optimizer"] = off("cpu");
            if stage == 3 {
                zero["offload_param"] = off("cpu");
            }
        }
    }
    if stage == 3 {
        zero["overlap_comm"] = true.into();
        zero["stage3_gather_16bit_weights_on_model_save"] = true.into();
    }
    let v = serde_json::json!({
        "zero_optimization": zero,
        "bf16": { "enabled": "auto" },
        "fp16": { "enabled": "auto" },
        "train_micro_batch_size_per_gpu": "auto",
        "gradient_accumulation_steps": "auto",
        "train_batch_size": "auto",
        "gradient_clipping": "auto",
    });
    Some(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n")
}

/// accelerate config for FSDP FULL_SHARD (shard=fsdp), or None.
pub(super) fn accelerate_fsdp_yaml(ctx: &Ctx) -> Option<String> {
    if ctx.q.shard != ShardingStrategy::Fsdp {
        return None;
    }
    // `ctx.trainer_amp()`: a `*-true` run says "no", or accelerate would upcast the trained
    // weights to fp32.
    let mixed = if !ctx.trainer_amp() {
        "no"
    } else if ctx.bf16() {
        "bf16"
    } else if ctx.fp16() {
        "fp16"
    } else {
        "no"
    };
    let mut entries = vec![comment(origin(&ctx.q)), ("compute_environment".into(), s("LOCAL_MACHINE"))];
    if !ctx.trainer_amp() {
        entries.push(comment(
            "mixed_precision no: with bf16/fp16 accelerate upcasts the trained weights to fp32 before sharding",
        ));
    }
    entries.extend([
        ("distributed_type".into(), s("FSDP")),
        ("mixed_precision".into(), s(mixed)),
        ("num_machines".into(), i(ctx.q.nodes)),
        ("num_processes".into(), i(ctx.q.gpus)),
        ("machine_rank".into(), i(0)),
        (
            "fsdp_config".into(),
            Y::M(vec![
                ("fsdp_sharding_strategy".into(), s("FULL_SHARD")),
                ("fsdp_offload_params".into(), Y::B(ctx.q.offload == Offload::All)),
                ("fsdp_auto_wrap_policy".into(), s("TRANSFORMER_BASED_WRAP")),
                ("fsdp_transformer_layer_cls_to_wrap".into(), s(ctx.naming.layer_class(ctx.preset))),
                ("fsdp_backward_prefetch".into(), s("BACKWARD_PRE")),
                ("fsdp_state_dict_type".into(), s("SHARDED_STATE_DICT")),
                ("fsdp_use_orig_params".into(), Y::B(true)),
                ("fsdp_cpu_ram_efficient_loading".into(), Y::B(true)),
                ("fsdp_sync_module_states".into(), Y::B(true)),
                // Activation checkpointing is set in the training script (gradient_checkpointing).
                ("fsdp_activation_checkpointing".into(), Y::B(false)),
            ]),
        ),
    ]);
    Some(yaml(&entries))
}

/// Warnings shared by the Trainer-based exports.
pub(super) fn trainer_warnings(ctx: &mut Ctx) {
    ctx.common_warnings();
    if ctx.q.offload == Offload::Optimizer && ctx.q.shard == ShardingStrategy::Fsdp {
        ctx.warn(Note::OffloadFsdp);
    }
    if ctx.q.offload != Offload::None && ctx.q.shard == ShardingStrategy::None {
        ctx.warn(Note::OffloadUnsharded { offload: ctx.q.offload });
    }
    if ctx.q.offload == Offload::All && matches!(ctx.q.shard, ShardingStrategy::Zero1 | ShardingStrategy::Zero2) {
        ctx.warn(Note::OffloadParamStage);
    }
}
