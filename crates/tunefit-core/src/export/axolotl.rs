//! Axolotl: `axolotl.yaml`, with trainer.rs's `ds_config.json` under ZeRO. Keys from axolotl
//! 0.21.0 `utils/schemas/` (config.py, fsdp.py, enums.py, validation.py; cited at the keys),
//! laid out as axolotl-ai-cloud/axolotl `examples/llama-3/qlora.yml` @20d0427a
//! (docs/frameworks.md).

use super::context::Ctx;
use super::emit::{comment, file, i, origin, s, strs, yaml, Entries, Y};
use super::models::Naming;
use super::trainer::{deepspeed_json, hf_optim, hf_optim_args, trainer_warnings, GALORE_TARGETS};
use super::{ExportFile, Note};
use crate::query::{AdapterDtype, Attention, Loss, Method, Offload, Optimizer, Precision, Quant, ShardingStrategy};

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let mut top = model_and_data(ctx);
    method(ctx, &mut top);
    top.extend(training(ctx));
    extras(ctx, &mut top);
    sharding(ctx, &mut top);
    top.push(("output_dir".into(), s("./outputs/out")));
    let mut files = vec![file("axolotl.yaml", "yaml", yaml(&top))];
    if let Some(j) = deepspeed_json(ctx) {
        files.push(file("ds_config.json", "json", j));
    }
    files
}

/// The base model, its bitsandbytes loading, and the dataset placeholder.
fn model_and_data(ctx: &Ctx) -> Entries {
    let q = &ctx.q;
    let mut top: Entries = vec![
        comment(origin(q)),
        comment(
            "Run: axolotl train axolotl.yaml (accelerate launch -m axolotl.cli.train axolotl.yaml on older versions)",
        ),
        ("base_model".into(), s(ctx.model())),
        ("load_in_8bit".into(), Y::B(q.method == Method::Qlora && q.quant == Quant::Int8)),
        ("load_in_4bit".into(), Y::B(q.method == Method::Qlora && q.quant != Quant::Int8)),
    ];
    if q.method == Method::Qlora && q.quant != Quant::Int8 {
        top.push((
            "bnb_config_kwargs".into(),
            Y::M(vec![
                ("bnb_4bit_quant_type".into(), s(q.quant.as_str())),
                ("bnb_4bit_use_double_quant".into(), Y::B(q.double_quant)),
            ]),
        ));
    }
    // axolotl 0.21.0 utils/schemas/config.py:370-380: `datasets` is `list[...]` with MinLen(1),
    // so `datasets: []` fails validation. A placeholder entry, in block form, to replace.
    top.push(comment("Fill in: replace your/dataset with your data (a Hub id or a local path); type alpaca reads instruction/input/output columns"));
    top.push((
        "datasets".into(),
        Y::L(vec![Y::M(vec![("path".into(), s("your/dataset")), ("type".into(), s("alpaca"))])]),
    ));
    top
}

/// What is trained: the LoRA adapter, the unfrozen blocks under freeze, or a warning.
fn method(ctx: &mut Ctx, top: &mut Entries) {
    let q = ctx.q.clone();
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => lora(ctx, top),
        Method::Freeze => {
            let l = ctx.arch.layers as i64;
            let first = (l - q.train_layers as i64).max(0);
            let prefix = match ctx.naming {
                Naming::Gpt2 | Naming::QwenV1 => "transformer.h",
                Naming::Bert => "bert.encoder.layer",
                _ => "model.layers",
            };
            let pats: Vec<Y> = (first..l).map(|n| s(format!("{prefix}.{n}.*"))).collect();
            top.push(("unfrozen_parameters".into(), Y::L(pats)));
        }
        Method::Full => {}
        method => ctx.warn(Note::AxolotlMethod { method }),
    }
}

/// The `adapter` and `lora_*` keys, with Axolotl's own LoRA kernels off.
fn lora(ctx: &mut Ctx, top: &mut Entries) {
    let q = ctx.q.clone();
    let targets = ctx.peft_targets();
    // Axolotl's "qlora" adapter is LoRA on a 4-bit model; int8 bases use "lora".
    let adapter = if q.method == Method::Qlora && q.quant != Quant::Int8 { "qlora" } else { "lora" };
    top.push(("adapter".into(), s(adapter)));
    top.push(("lora_r".into(), i(q.rank)));
    top.push(("lora_alpha".into(), i(ctx.alpha())));
    top.push(("lora_dropout".into(), Y::F(ctx.res.lora_dropout)));
    top.push(("lora_target_modules".into(), strs(&targets)));
    // 16-bit adapters: PEFT's autocast_adapter_dtype off (axolotl loaders/adapter.py
    // @067b021c8 passes `peft_autocast_adapter_dtype` to get_peft_model); its default keeps fp32.
    if ctx.res.adapter_dtype == AdapterDtype::Bf16 {
        top.push(("peft_autocast_adapter_dtype".into(), Y::B(false)));
    }
    let full = ctx.naming.full_modules(&q);
    if !full.is_empty() {
        top.push(("lora_modules_to_save".into(), strs(&full)));
    }
    if q.method == Method::Dora {
        top.push(("peft_use_dora".into(), Y::B(true)));
    }
    // axolotl 0.21.0 switches its Triton LoRA kernels on by itself for lora/qlora when
    // none of these flags is set (utils/schemas/config.py:2076
    // check_auto_enable_lora_kernels; utils/schemas/validation.py:92
    // lora_kernels_auto_enable). tunefit's axolotl profile estimates PEFT's own path
    // (fp32 adapter input cast etc.), so the export turns them off explicitly.
    top.push(comment("tunefit's axolotl profile estimates PEFT's LoRA path: axolotl's own LoRA kernels stay off"));
    for k in ["lora_mlp_kernel", "lora_qkv_kernel", "lora_o_kernel", "lora_embedding_kernel"] {
        top.push((k.into(), Y::B(false)));
    }
}

/// Sequence, batch, optimizer, precision, checkpointing, attention and compile keys.
fn training(ctx: &Ctx) -> Entries {
    let q = &ctx.q;
    vec![
        ("sequence_len".into(), i(q.seq)),
        ("sample_packing".into(), Y::B(ctx.res.packing)),
        ("pad_to_sequence_len".into(), Y::B(true)),
        ("micro_batch_size".into(), i(q.batch)),
        ("gradient_accumulation_steps".into(), i(q.ga)),
        ("num_epochs".into(), Y::F(q.epochs)),
        ("optimizer".into(), s(hf_optim(ctx))),
        // Required by Axolotl's schema (HyperparametersConfig); no part of the estimate.
        comment("learning_rate is required by Axolotl; tunefit's estimate does not depend on it"),
        ("learning_rate".into(), Y::F(2e-4)),
        ("bf16".into(), Y::B(ctx.bf16())),
        ("fp16".into(), Y::B(q.precision == Precision::Fp16Mixed)),
        ("tf32".into(), Y::B(false)),
        ("gradient_checkpointing".into(), Y::B(ctx.ckpt_on())),
        // `activation_offloading: true` (axolotl utils/schemas/config.py @067b021c8: saved
        // activations to host memory, TRL's offloader), as the estimate's act_offload.
        ("activation_offloading".into(), Y::B(ctx.res.act_offload && ctx.ckpt_on())),
        // axolotl 0.21.0 utils/schemas/config.py:1645 normalize_attn_implementation: the
        // legacy flash_attention/sdp_attention flags are deprecated (utils/schemas/enums.py
        // LEGACY_ATTN_FLAG_TO_IMPL), and combining them with attn_implementation is an error.
        (
            "attn_implementation".into(),
            s(match ctx.res.attn {
                Attention::Flash => "flash_attention_2",
                Attention::Sdpa => "sdpa",
                Attention::Eager => "eager",
            }),
        ),
        ("torch_compile".into(), Y::B(ctx.res.compile)),
    ]
}

/// Optimizer arguments, GaLore's target modules, Liger's loss and pure bf16.
fn extras(ctx: &Ctx, top: &mut Entries) {
    if let Some(a) = hf_optim_args(ctx) {
        top.push(("optim_args".into(), s(&a)));
    }
    if ctx.q.optim == Optimizer::GaloreAdamW {
        top.push(("optim_target_modules".into(), strs(GALORE_TARGETS)));
    }
    if matches!(ctx.res.loss, Loss::Chunked | Loss::FusedLinear) {
        top.push(comment(format!(
            "loss={}: Liger's fused linear cross-entropy never materialises full logits",
            ctx.res.loss
        )));
        top.push(("plugins".into(), strs(&["axolotl.integrations.liger.LigerPlugin"])));
        top.push(("liger_fused_linear_cross_entropy".into(), Y::B(true)));
    }
    if ctx.q.precision == Precision::Bf16True {
        // Axolotl loads the model in bf16 when bf16 is on; "true" precision also keeps the
        // trainable weights and optimizer states in bf16 (no fp32 upcast of trainables).
        top.push(("bfloat16".into(), Y::B(true)));
    }
}

/// DeepSpeed (the `deepspeed` key; trainer.rs writes its file) or FSDP2's `fsdp_config`.
fn sharding(ctx: &Ctx, top: &mut Entries) {
    let q = &ctx.q;
    if ctx.zero_stage().is_some() {
        top.push(("deepspeed".into(), s("ds_config.json")));
    } else if q.shard == ShardingStrategy::Fsdp {
        // Axolotl's FSDPConfig (utils/schemas/fsdp.py): unprefixed keys (the `fsdp_` prefix
        // and the top-level `fsdp:` list are deprecated), FSDP2 via fsdp_version.
        top.push(("fsdp_version".into(), i(2)));
        top.push((
            "fsdp_config".into(),
            Y::M(vec![
                ("offload_params".into(), Y::B(q.offload == Offload::All)),
                ("auto_wrap_policy".into(), s("TRANSFORMER_BASED_WRAP")),
                ("transformer_layer_cls_to_wrap".into(), s(ctx.naming.layer_class(ctx.preset))),
                ("state_dict_type".into(), s("SHARDED_STATE_DICT")),
                ("reshard_after_forward".into(), Y::B(true)),
                ("cpu_ram_efficient_loading".into(), Y::B(true)),
            ]),
        ));
    }
}
