//! litgpt: `finetune.sh`, a `litgpt download` and one `litgpt finetune_lora|finetune_full|
//! finetune_adapter` command with its flags. Flag names as in Lightning-AI/litgpt
//! `config_hub/finetune/llama-3.1-8b/qlora.yaml` @47053876 (docs/frameworks.md); checkpoint
//! names from `litgpt/config.py`, the optimizer forms from `litgpt/utils.py`.

use super::context::Ctx;
use super::emit::{file, fmt_float, origin, sh};
use super::{ExportFile, Note};
use crate::query::{Framework, Method, Offload, Optimizer, OptimizerImpl, Precision, Quant, TargetModule};

/// litgpt's checkpoint name where its config.py names the HF repo differently.
fn litgpt_model(preset: Option<&str>, hf: Option<&'static str>) -> Option<&'static str> {
    match preset? {
        // litgpt/config.py registers Llama 3.1 under hf_config name "Meta-Llama-3.1-*".
        "llama-3.1-8b" => Some("meta-llama/Meta-Llama-3.1-8B"),
        "llama-3.1-70b" => Some("meta-llama/Meta-Llama-3.1-70B"),
        "llama-3.1-405b" => Some("meta-llama/Meta-Llama-3.1-405B"),
        // Not in litgpt's config list (GPT-2, BERT, Qwen v1 remote code).
        p if p.starts_with("gpt2") || p.starts_with("bert") || p == "qwen-7b" => None,
        _ => hf,
    }
}

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    ctx.common_warnings();
    let q = ctx.q.clone();
    let model = checkpoint(ctx);
    let cmd = command(ctx);
    let mut flags = Flags(Vec::new());
    devices_and_precision(ctx, &mut flags);
    if cmd == "finetune_lora" {
        lora_flags(ctx, &mut flags);
    }
    let global = q.batch as u64 * q.ga as u64 * ctx.dp() as u64;
    flags.add("--train.micro_batch_size", q.batch.to_string());
    flags.add("--train.global_batch_size", global.to_string());
    flags.add("--train.max_seq_length", q.seq.to_string());
    flags.add("--train.epochs", (q.epochs.ceil() as u64).to_string());
    optimizer_flags(ctx, &mut flags);
    unsupported(ctx);
    let mut shl = format!("#!/usr/bin/env bash\n# {}\nset -euo pipefail\n", origin(&q));
    shl += &format!("litgpt download {}\n", sh(model));
    shl += &format!("litgpt {cmd} {} \\\n", sh(model));
    shl += &flags.0.iter().map(|(k, v)| format!("  {k} {}", sh(v))).collect::<Vec<_>>().join(" \\\n");
    shl.push('\n');
    vec![file("finetune.sh", "shell", shl)]
}

/// The command's flags, in order, each with its value.
struct Flags(Vec<(String, String)>);

impl Flags {
    fn add(&mut self, k: &str, v: String) {
        self.0.push((k.to_string(), v));
    }
}

/// The checkpoint to download and fine-tune: litgpt's name for the preset, or the model id.
fn checkpoint(ctx: &mut Ctx) -> &'static str {
    match litgpt_model(ctx.preset, ctx.model) {
        Some(m) => m,
        None => {
            if ctx.model.is_some() {
                ctx.warn(Note::LitgptModel { model: ctx.preset.unwrap_or("?") });
            }
            ctx.model()
        }
    }
}

/// The finetune command for the method, with a warning where litgpt runs another.
fn command(ctx: &mut Ctx) -> &'static str {
    let q = &ctx.q;
    match q.method {
        Method::Full => "finetune_full",
        Method::Adapter => "finetune_adapter",
        Method::Freeze => {
            ctx.warn(Note::LitgptFreeze);
            "finetune_full"
        }
        Method::Dora => {
            ctx.warn(Note::LitgptDora);
            "finetune_lora"
        }
        Method::Prefix | Method::Prompt => {
            ctx.warn(Note::LitgptMethod { method: q.method, rank: q.rank });
            "finetune_lora"
        }
        _ => "finetune_lora",
    }
}

/// `--devices`, `--num_nodes`, `--precision` and, under QLoRA, `--quantize`.
fn devices_and_precision(ctx: &mut Ctx, flags: &mut Flags) {
    let q = ctx.q.clone();
    flags.add("--devices", ctx.gpus_per_node().to_string());
    if q.nodes > 1 {
        flags.add("--num_nodes", q.nodes.to_string());
    }
    let precision = match q.precision {
        Precision::Fp32 => "32-true",
        Precision::Fp16Mixed => "16-mixed",
        Precision::Bf16Mixed => "bf16-mixed",
        Precision::Fp16True => "16-true",
        Precision::Bf16True => "bf16-true",
    };
    let quantized = q.method == Method::Qlora;
    if quantized && precision.ends_with("-mixed") {
        // finetune_lora raises "The combination of quantization and mixed precision is not supported".
        ctx.warn(Note::LitgptPrecision { precision: q.precision, bf16: ctx.bf16() });
    }
    let precision = match (quantized, precision) {
        (true, "bf16-mixed") => "bf16-true",
        (true, "16-mixed") => "16-true",
        (_, p) => p,
    };
    flags.add("--precision", precision.into());
    if quantized {
        let qz = match q.quant {
            Quant::Nf4 => {
                if q.double_quant {
                    "bnb.nf4-dq"
                } else {
                    "bnb.nf4"
                }
            }
            Quant::Fp4 => {
                if q.double_quant {
                    "bnb.fp4-dq"
                } else {
                    "bnb.fp4"
                }
            }
            Quant::Int8 => "bnb.int8-training",
        };
        flags.add("--quantize", qz.into());
        if q.gpus > 1 {
            ctx.warn(Note::LitgptQuantizeMultiGpu);
        }
    }
}

/// finetune_lora's `--lora_*` flags: rank, alpha, dropout and which projections are adapted.
fn lora_flags(ctx: &mut Ctx, flags: &mut Flags) {
    use TargetModule as T;
    let q = ctx.q.clone();
    flags.add("--lora_r", q.rank.to_string());
    flags.add("--lora_alpha", ctx.alpha().to_string());
    flags.add("--lora_dropout", fmt_float(ctx.res.lora_dropout));
    flags.add("--lora_query", q.targets.contains(T::Q).to_string());
    flags.add("--lora_key", q.targets.contains(T::K).to_string());
    flags.add("--lora_value", q.targets.contains(T::V).to_string());
    flags.add("--lora_projection", q.targets.contains(T::O).to_string());
    let mlp_n = [T::Gate, T::Up, T::Down].iter().filter(|t| q.targets.contains(**t)).count();
    flags.add("--lora_mlp", (mlp_n > 0).to_string());
    flags.add("--lora_head", q.targets.contains(T::LmHead).to_string());
    if mlp_n > 0 && mlp_n < 3 {
        ctx.warn(Note::LitgptTargetsMlp);
    }
    if q.targets.contains(T::Embed) {
        ctx.warn(Note::LitgptTargetsEmbed);
    }
}

/// `--optimizer`: a class name, or the class_path/init_args form when it takes arguments.
fn optimizer_flags(ctx: &mut Ctx, flags: &mut Flags) {
    let q = ctx.q.clone();
    let quantized = q.method == Method::Qlora;
    let optim = match q.optim {
        Optimizer::AdamW => "AdamW",
        Optimizer::AdamW8bit => "bitsandbytes.optim.AdamW8bit",
        Optimizer::AdamW8bitAo => "torchao.optim.AdamW8bit",
        Optimizer::AdamW4bitAo => "torchao.optim.AdamW4bit",
        Optimizer::AdamWFp8Ao => "torchao.optim.AdamWFp8",
        Optimizer::GaloreAdamW => {
            ctx.warn(Note::OptimGalore { framework: Framework::Litgpt });
            "AdamW"
        }
        Optimizer::PagedAdamW => "bitsandbytes.optim.PagedAdamW",
        Optimizer::PagedAdamW8bit => "bitsandbytes.optim.PagedAdamW8bit",
        Optimizer::Adafactor => "Adafactor",
        Optimizer::Sgd | Optimizer::SgdMomentum => "SGD",
        Optimizer::Lion => "bitsandbytes.optim.Lion",
    };
    if quantized {
        // With --quantize, finetune_lora builds the optimizer with instantiate_bnb_optimizer
        // (litgpt/utils.py): any name without "AdamW" raises, and every AdamW becomes
        // bitsandbytes' PagedAdamW (32-bit states).
        if !matches!(q.optim, Optimizer::AdamW | Optimizer::PagedAdamW) {
            ctx.warn(Note::LitgptOptimizer { optim: q.optim });
        }
        flags.add("--optimizer", "AdamW".into());
    } else if q.optim == Optimizer::AdamW && ctx.res.optimizer_impl != OptimizerImpl::Foreach {
        // litgpt builds `torch.optim.AdamW` with the init_args given (instantiate_torch_optimizer,
        // litgpt/utils.py): torch's default on CUDA is foreach, so fused and for-loop are said.
        let arg = if ctx.res.optimizer_impl == OptimizerImpl::Fused { "\"fused\": true" } else { "\"foreach\": false" };
        flags.add("--optimizer", format!("{{\"class_path\": \"torch.optim.AdamW\", \"init_args\": {{{arg}}}}}"));
    } else if q.optim == Optimizer::SgdMomentum {
        // A string names the class only; arguments need the class_path/init_args dict that
        // instantiate_torch_optimizer (litgpt/utils.py, 0.5.13) reads as `optimizer["init_args"]`.
        // Given as JSON: the dotted `--optimizer.init_args.momentum 0.9` form parses (jsonargparse
        // 4.37–4.41, litgpt's pin) into `{class_path, momentum: '0.9'}`, a string and no
        // `init_args`, and the optimizer fails to build.
        flags.add("--optimizer", "{\"class_path\": \"torch.optim.SGD\", \"init_args\": {\"momentum\": 0.9}}".into());
    } else {
        flags.add("--optimizer", optim.into());
    }
}

/// What litgpt decides itself, and what it cannot do.
fn unsupported(ctx: &mut Ctx) {
    let q = ctx.q.clone();
    if q.gpus > 1 && !q.shard.shards_params() {
        ctx.warn(Note::LitgptSharding { shard: q.shard });
    }
    if q.offload != Offload::None {
        ctx.warn(Note::LitgptOffload { offload: q.offload });
    }
    if ctx.ckpt_on() && q.gpus == 1 {
        ctx.warn(Note::LitgptCkptOneDevice);
    }
    if !ctx.ckpt_on() && q.gpus > 1 {
        ctx.warn(Note::LitgptCkptNone);
    }
    if ctx.res.packing {
        ctx.warn(Note::LitgptPacking);
    }
    if q.compile == Some(true) {
        ctx.warn(Note::LitgptCompile);
    }
}
