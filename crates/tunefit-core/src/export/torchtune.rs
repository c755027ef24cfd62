//! torchtune: `torchtune_overrides.yaml`, overrides on the shipped config it names, and
//! `launch.sh`, which downloads the base repo and runs `tune run` with the same values as
//! dotted command-line overrides. Builders, shipped configs and checkpoint layouts are those
//! of pytorch/torchtune v0.6.1 (a6290a5b: `recipes/configs/<folder>/*.yaml`,
//! `torchtune/models/<family>/_model_builders.py`); docs/frameworks.md names the commits.

use super::context::Ctx;
use super::emit::{comment, file, i, origin, s, sh, strs, yaml, yaml_scalar, Entries, Y};
use super::{ExportFile, Note};
use crate::query::{
    Attention, Framework, Loss, Method, Offload, Optimizer, OptimizerImpl, Precision, ShardingStrategy, TargetModule,
};

/// (builder module, builder name, config folder, config size) of presets torchtune ships.
fn torchtune_model(preset: Option<&str>) -> Option<(&'static str, &'static str, &'static str, &'static str)> {
    Some(match preset? {
        "llama-2-7b" => ("llama2", "llama2_7b", "llama2", "7B"),
        "llama-2-13b" => ("llama2", "llama2_13b", "llama2", "13B"),
        "llama-2-70b" => ("llama2", "llama2_70b", "llama2", "70B"),
        "codellama-7b" => ("code_llama2", "code_llama2_7b", "code_llama2", "7B"),
        "llama-3-8b" => ("llama3", "llama3_8b", "llama3", "8B"),
        "llama-3-70b" => ("llama3", "llama3_70b", "llama3", "70B"),
        "llama-3.1-8b" => ("llama3_1", "llama3_1_8b", "llama3_1", "8B"),
        "llama-3.1-70b" => ("llama3_1", "llama3_1_70b", "llama3_1", "70B"),
        "llama-3.1-405b" => ("llama3_1", "llama3_1_405b", "llama3_1", "405B"),
        "llama-3.3-70b" => ("llama3_3", "llama3_3_70b", "llama3_3", "70B"),
        "llama-3.2-1b" => ("llama3_2", "llama3_2_1b", "llama3_2", "1B"),
        "llama-3.2-3b" => ("llama3_2", "llama3_2_3b", "llama3_2", "3B"),
        "mistral-7b" => ("mistral", "mistral_7b", "mistral", "7B"),
        "qwen2-7b" => ("qwen2", "qwen2_7b", "qwen2", "7B"),
        "qwen2.5-0.5b" => ("qwen2_5", "qwen2_5_0_5b", "qwen2_5", "0.5B"),
        "qwen2.5-1.5b" => ("qwen2_5", "qwen2_5_1_5b_base", "qwen2_5", "1.5B"),
        "qwen2.5-3b" => ("qwen2_5", "qwen2_5_3b", "qwen2_5", "3B"),
        "qwen2.5-7b" => ("qwen2_5", "qwen2_5_7b_base", "qwen2_5", "7B"),
        "qwen2.5-14b" => ("qwen2_5", "qwen2_5_14b_base", "qwen2_5", "14B"),
        "qwen2.5-32b" => ("qwen2_5", "qwen2_5_32b_base", "qwen2_5", "32B"),
        "qwen2.5-72b" => ("qwen2_5", "qwen2_5_72b_base", "qwen2_5", "72B"),
        "gemma-2b" => ("gemma", "gemma_2b", "gemma", "2B"),
        "gemma-7b" => ("gemma", "gemma_7b", "gemma", "7B"),
        "gemma-2-2b" => ("gemma2", "gemma2_2b", "gemma2", "2B"),
        "gemma-2-9b" => ("gemma2", "gemma2_9b", "gemma2", "9B"),
        "gemma-2-27b" => ("gemma2", "gemma2_27b", "gemma2", "27B"),
        "phi-3-mini" => ("phi3", "phi3_mini", "phi3", "mini"),
        _ => return None,
    })
}

/// The fine-tuning configs torchtune ships under `recipes/configs/{folder}/{size}_{name}.yaml`
/// (pytorch/torchtune, listing of recipes/configs/<folder>/, docs/frameworks.md names the
/// commits). Not every model has every kind: full single-device configs of llama2,
/// code_llama2, mistral and phi3 are called `full_low_memory`, QLoRA is mostly single-device
/// only, and the larger Qwen2.5 sizes ship LoRA only.
fn torchtune_configs(folder: &str, size: &str) -> &'static [&'static str] {
    const FOUR: &[&str] = &["full", "full_single_device", "lora", "lora_single_device"];
    const GEMMA: &[&str] = &["full", "lora", "lora_single_device", "qlora_single_device"];
    match (folder, size) {
        ("llama2", "7B") => &["full", "full_low_memory", "lora", "lora_single_device", "qlora", "qlora_single_device"],
        ("llama2", "13B") => &["full", "lora", "qlora_single_device"],
        ("llama2", "70B") => &["lora", "qlora"],
        ("code_llama2", "7B") => &["full_low_memory", "lora_single_device", "qlora_single_device"],
        ("llama3", "8B") => &["full", "full_single_device", "lora", "lora_single_device", "qlora_single_device"],
        ("llama3", "70B") | ("llama3_1", "70B") => &["full", "lora"],
        ("llama3_1", "8B") => &["full", "full_single_device", "lora", "lora_single_device", "qlora_single_device"],
        ("llama3_1", "405B") => &["qlora"],
        ("llama3_2", "1B") | ("llama3_2", "3B") => {
            &["full", "full_single_device", "lora", "lora_single_device", "qlora_single_device"]
        }
        ("llama3_3", "70B") => &["full", "lora", "qlora"],
        ("mistral", "7B") => &["full", "full_low_memory", "lora", "lora_single_device", "qlora_single_device"],
        ("qwen2", "7B") => FOUR,
        ("qwen2_5", "0.5B") | ("qwen2_5", "1.5B") | ("qwen2_5", "3B") | ("qwen2_5", "7B") => FOUR,
        ("qwen2_5", "14B") => &["lora_single_device"],
        ("qwen2_5", "32B") | ("qwen2_5", "72B") => &["lora"],
        ("gemma", _) | ("gemma2", _) => GEMMA,
        ("phi3", "mini") => &["full", "full_low_memory", "lora", "lora_single_device", "qlora_single_device"],
        _ => &[],
    }
}

/// The shipped config to start from: the exact kind and device count when torchtune has it,
/// else the nearest one the same recipe accepts (a QLoRA run starts from the LoRA config, as
/// the overrides set `quantize_base`; a missing device count takes the other one). Returns the
/// config name and, when it is not the exact one, what was substituted.
fn torchtune_config(folder: &str, size: &str, kind: &str, distributed: bool) -> Option<(String, Option<String>)> {
    let have = torchtune_configs(folder, size);
    let names = |k: &str, dist: bool| -> Vec<String> {
        match (k, dist) {
            (_, true) => vec![k.to_string()],
            ("full", false) => vec!["full_single_device".into(), "full_low_memory".into()],
            (_, false) => vec![format!("{k}_single_device")],
        }
    };
    let kinds: &[&str] = match kind {
        "qlora" => &["qlora", "lora"],
        "lora" => &["lora"],
        _ => &["full"],
    };
    for dist in [distributed, !distributed] {
        for (i, k) in kinds.iter().enumerate() {
            if let Some(n) = names(k, dist).into_iter().find(|n| have.contains(&n.as_str())) {
                let exact = dist == distributed && i == 0;
                return Some((format!("{folder}/{size}_{n}"), (!exact).then_some(n)));
            }
        }
    }
    None
}

/// How a preset's Hugging Face repo stores its weights, as torchtune's checkpointer reads them.
#[derive(Debug, Clone, Copy)]
enum Shards {
    /// One file, e.g. `model.safetensors` (or Meta's `consolidated.00.pth`).
    One(&'static str),
    /// `{stem}-0000i-of-0000n.{ext}`, i = 1..=n.
    Many(&'static str, &'static str, u32),
}

impl Shards {
    fn names(self) -> Vec<String> {
        match self {
            Shards::One(n) => vec![n.to_string()],
            Shards::Many(stem, ext, n) => (1..=n).map(|i| format!("{stem}-{i:05}-of-{n:05}.{ext}")).collect(),
        }
    }
}

/// Where a torchtune preset's files lie inside its `tune download` folder: the checkpoint
/// subfolder ("" or Meta's "original"), the tokenizer file(s) relative to the folder (Qwen's
/// BPE needs vocab.json and merges.txt), the shard names, the checkpointer's model_type and the
/// tokenizer builder. Read from the shipped configs of pytorch/torchtune v0.6.1
/// (a6290a5b, recipes/configs/<folder>/*.yaml: `tokenizer.path`, `tokenizer.merges_file`,
/// `checkpointer.checkpoint_files`, `checkpointer.model_type`). Those configs name the
/// *Instruct* repos (e.g. llama3_1/8B_lora_single_device.yaml: `/tmp/Meta-Llama-3.1-8B-Instruct/`),
/// whose shard layout is the base repo's; the export downloads the base repo, so the folder
/// is overridden.
struct TorchtuneCheckpoint {
    subdir: &'static str,
    tokenizer: &'static [(&'static str, &'static str)],
    shards: Shards,
    model_type: &'static str,
    tokenizer_component: &'static str,
}

fn torchtune_checkpoint(preset: Option<&str>) -> Option<TorchtuneCheckpoint> {
    // Tokenizer files relative to the download folder.
    const SPM: &[(&str, &str)] = &[("path", "tokenizer.model")];
    // Llama 3's tiktoken file sits in Meta's original/ folder (every llama3* config).
    const TIKTOKEN: &[(&str, &str)] = &[("path", "original/tokenizer.model")];
    // llama3_1/405B_qlora.yaml reads it from original/mp8/ (not checked against the base repo).
    const TIKTOKEN_405B: &[(&str, &str)] = &[("path", "original/mp8/tokenizer.model")];
    const BPE: &[(&str, &str)] = &[("path", "vocab.json"), ("merges_file", "merges.txt")];
    let st = |n: u32| Shards::Many("model", "safetensors", n);
    let bin = |n: u32| Shards::Many("pytorch_model", "bin", n);
    fn c(
        subdir: &'static str,
        tokenizer: &'static [(&'static str, &'static str)],
        shards: Shards,
        model_type: &'static str,
        tokenizer_component: &'static str,
    ) -> TorchtuneCheckpoint {
        TorchtuneCheckpoint { subdir, tokenizer, shards, model_type, tokenizer_component }
    }
    const L2: &str = "torchtune.models.llama2.llama2_tokenizer";
    const L3: &str = "torchtune.models.llama3.llama3_tokenizer";
    const QW2: &str = "torchtune.models.qwen2.qwen2_tokenizer";
    const QW25: &str = "torchtune.models.qwen2_5.qwen2_5_tokenizer";
    const GEMMA: &str = "torchtune.models.gemma.gemma_tokenizer";
    Some(match preset? {
        "llama-2-7b" => c("", SPM, bin(2), "LLAMA2", L2),
        "llama-2-13b" => c("", SPM, bin(3), "LLAMA2", L2),
        "llama-2-70b" => c("", SPM, bin(15), "LLAMA2", L2),
        "codellama-7b" => c("", SPM, bin(3), "LLAMA2", L2),
        // llama3/8B_*.yaml use FullModelMetaCheckpointer on original/consolidated.00.pth.
        "llama-3-8b" => c("original", TIKTOKEN, Shards::One("consolidated.00.pth"), "LLAMA3", L3),
        "llama-3-70b" | "llama-3.1-70b" | "llama-3.3-70b" => c("", TIKTOKEN, st(30), "LLAMA3", L3),
        "llama-3.1-8b" => c("", TIKTOKEN, st(4), "LLAMA3", L3),
        "llama-3.1-405b" => c("", TIKTOKEN_405B, st(191), "LLAMA3", L3),
        "llama-3.2-1b" => c("", TIKTOKEN, Shards::One("model.safetensors"), "LLAMA3_2", L3),
        "llama-3.2-3b" => c("", TIKTOKEN, st(2), "LLAMA3_2", L3),
        "mistral-7b" => c("", SPM, bin(2), "MISTRAL", "torchtune.models.mistral.mistral_tokenizer"),
        "qwen2-7b" => c("", BPE, st(4), "QWEN2", QW2),
        "qwen2.5-0.5b" | "qwen2.5-1.5b" => c("", BPE, Shards::One("model.safetensors"), "QWEN2", QW25),
        "qwen2.5-3b" => c("", BPE, st(2), "QWEN2", QW25),
        "qwen2.5-7b" => c("", BPE, st(4), "QWEN2", QW25),
        "qwen2.5-14b" => c("", BPE, st(8), "QWEN2", QW25),
        "qwen2.5-32b" => c("", BPE, st(17), "QWEN2", QW25),
        "qwen2.5-72b" => c("", BPE, st(37), "QWEN2", QW25),
        "gemma-2b" => c("", SPM, st(2), "GEMMA", GEMMA),
        "gemma-7b" => c("", SPM, st(4), "GEMMA", GEMMA),
        "gemma-2-2b" => c("", SPM, st(3), "GEMMA2", GEMMA),
        "gemma-2-9b" => c("", SPM, st(8), "GEMMA2", GEMMA),
        "gemma-2-27b" => c("", SPM, st(24), "GEMMA2", GEMMA),
        "phi-3-mini" => c("", SPM, st(2), "PHI3_MINI", "torchtune.models.phi3.phi3_mini_tokenizer"),
        _ => return None,
    })
}

/// torchtune 0.6.1 (the last release; torchtune is no longer developed) imports only with an
/// older torchao: with torchao 0.18 `tune` fails on `No module named 'torchao.dtypes.nf4tensor'`,
/// with 0.16 on `cannot import name 'int4_weight_only' from 'torchao.quantization'`; 0.13.0
/// works (export check of 2026-12-02, docs/frameworks.md).
const TORCHAO_PIN: &str = "Needs torchtune 0.6.1 with torchao 0.13.0 (pip install torchtune==0.6.1 torchao==0.13.0): newer torchao releases break its imports";

pub(super) fn files(ctx: &mut Ctx) -> Vec<ExportFile> {
    ctx.common_warnings();
    let q = ctx.q.clone();
    if matches!(q.method, Method::Freeze | Method::Prefix | Method::Prompt | Method::Adapter) {
        ctx.warn(Note::TorchtuneMethod { method: q.method });
    }
    let tm = torchtune_model(ctx.preset);
    let (module, builder, dir, size) = tm.unwrap_or(("llama3_1", "llama3_1_8b", "llama3_1", "8B"));
    if tm.is_none() {
        ctx.warn(Note::TorchtuneModel { model: ctx.preset });
    }
    let (recipe, base) = recipe_and_config(ctx, tm.is_some(), dir, size);
    let model = model_section(ctx, module, builder);
    let dtype = dtype(ctx);
    let optimizer = optimizer(ctx);
    // An optimizer written without `fused` over a base config whose optimizer has it keeps the
    // base's `fused: True`, which bitsandbytes' and torchao's optimizers (and Adafactor) reject.
    let drop_fused = base_has_fused(&base) && !matches!(&optimizer, Y::M(m) if m.iter().any(|(k, _)| k == "fused"));
    let loss = loss(ctx);
    // D1 of the export check (docs/frameworks.md): the shipped configs point at the *Instruct*
    // download folder (torchtune v0.6.1 recipes/configs/llama3_1/8B_lora_single_device.yaml:
    // `checkpoint_dir: /tmp/Meta-Llama-3.1-8B-Instruct/`, `tokenizer.path:
    // /tmp/Meta-Llama-3.1-8B-Instruct/original/tokenizer.model`), while launch.sh downloads
    // the base repo to /tmp/<name>. The config's own advice is to override
    // `checkpointer.checkpoint_dir=<YOUR_CHECKPOINT_DIR>`: the export does, with the tokenizer
    // file(s), and with the shard names, model_type and tokenizer builder when the config is
    // another model's (the fallback in recipe_and_config).
    let download_dir = format!("/tmp/{}", ctx.model().rsplit('/').next().unwrap_or("model"));
    let own_config = base.starts_with(&format!("{dir}/{size}_"));
    let ckpt = tm.and_then(|_| torchtune_checkpoint(ctx.preset));
    let (tokenizer, checkpointer) = checkpoint_sections(ckpt.as_ref(), own_config, &download_dir, q.seq);
    let mut top: Vec<(String, Y)> = vec![
        comment(origin(&q)),
        comment(format!("Overrides on torchtune's {base}: tune cp {base} base.yaml, then merge these keys in,")),
        comment("or run launch.sh, which passes the same values as command-line overrides."),
        comment(TORCHAO_PIN),
        ("model".into(), Y::M(model)),
        ("tokenizer".into(), Y::M(tokenizer)),
        ("dataset".into(), Y::M(vec![("packed".into(), Y::B(ctx.res.packing))])),
    ];
    if !checkpointer.is_empty() {
        top.push(comment(format!("checkpoint and tokenizer from the download in launch.sh ({download_dir}), not the config's Instruct folder")));
        top.push(("checkpointer".into(), Y::M(checkpointer)));
    }
    top.extend([
        ("batch_size".into(), i(q.batch)),
        ("gradient_accumulation_steps".into(), i(q.ga)),
        ("epochs".into(), i(q.epochs.ceil() as i64)),
    ]);
    if drop_fused {
        top.push(comment(format!("Delete optimizer.fused from {base} (launch.sh passes ~optimizer.fused): this optimizer takes no fused argument")));
    }
    top.extend([
        ("optimizer".into(), optimizer),
        ("loss".into(), Y::M(vec![("_component_".into(), s(loss))])),
        ("dtype".into(), s(dtype)),
        ("enable_activation_checkpointing".into(), Y::B(ctx.ckpt_on())),
        // Only with checkpointing: the recipes raise on offloading without it.
        ("enable_activation_offloading".into(), Y::B(ctx.res.act_offload && ctx.ckpt_on())),
        ("optimizer_in_bwd".into(), Y::B(q.optim_in_bwd)),
        ("compile".into(), Y::B(ctx.res.compile)),
    ]);
    if q.epochs.fract() != 0.0 {
        ctx.warn(Note::TorchtuneEpochs { epochs: q.epochs });
    }
    sharding(ctx, &mut top);
    if ctx.res.attn == Attention::Eager {
        ctx.warn(Note::TorchtuneAttn);
    }
    let y = yaml(&top);
    let mut dotted = dotted_overrides(&top);
    if drop_fused {
        // torchtune's `~key` removes a key of the config (torchtune/config/_utils.py
        // `_merge_yaml_and_cli_args`, since 8f93a1c7, 2024-06).
        dotted.push("~optimizer.fused".into());
    }
    let shl = launch(ctx, &recipe, &base, ckpt.as_ref(), &download_dir, &dotted);
    vec![file("torchtune_overrides.yaml", "yaml", y), file("launch.sh", "shell", shl)]
}

/// Whether the shipped config's `optimizer` has a `fused` key: every config `torchtune_configs`
/// names does except the single-device full configs that ship bitsandbytes' PagedAdamW or
/// PagedAdamW8bit (recipes/configs/*/*.yaml @bd2a0fc7c; qwen2_5/0.5B_full_single_device ships
/// fused AdamW).
fn base_has_fused(config: &str) -> bool {
    const NO_FUSED: &[&str] = &[
        "llama2/7B_full_low_memory",
        "code_llama2/7B_full_low_memory",
        "llama3/8B_full_single_device",
        "llama3_1/8B_full_single_device",
        "llama3_2/1B_full_single_device",
        "llama3_2/3B_full_single_device",
        "mistral/7B_full_low_memory",
        "qwen2/7B_full_single_device",
        "qwen2_5/1.5B_full_single_device",
        "qwen2_5/3B_full_single_device",
        "qwen2_5/7B_full_single_device",
        "phi3/mini_full_low_memory",
    ];
    !NO_FUSED.contains(&config)
}

/// The recipe (`lora_finetune_*` or `full_finetune_*`, distributed or single-device) and the
/// shipped config the overrides apply to, with a warning when that config is a substitute.
fn recipe_and_config(ctx: &mut Ctx, known: bool, dir: &str, size: &str) -> (String, String) {
    let q = ctx.q.clone();
    let distributed = q.gpus > 1;
    let lora = ctx.lora_like();
    let kind = if lora {
        if q.method == Method::Qlora {
            "qlora"
        } else {
            "lora"
        }
    } else {
        "full"
    };
    let recipe = format!(
        "{}_finetune_{}",
        if lora { "lora" } else { "full" },
        if distributed { "distributed" } else { "single_device" }
    );
    // The shipped config the overrides apply to (torchtune_configs lists what exists).
    let wanted = format!("{size}_{kind}{}", if distributed { "" } else { "_single_device" });
    let base = match torchtune_config(dir, size, kind, distributed) {
        Some((name, None)) => name,
        Some((name, Some(sub))) => {
            ctx.warn(Note::TorchtuneConfigSubstitute {
                model: ctx.preset,
                dir: dir.into(),
                wanted,
                config: name.clone(),
                variant: sub,
                recipe: recipe.clone(),
            });
            name
        }
        None => {
            let fallback = torchtune_config("llama3_1", "8B", kind, distributed).map(|c| c.0).unwrap_or_default();
            if known {
                ctx.warn(Note::TorchtuneConfigFallback {
                    model: ctx.preset,
                    kind,
                    dir: dir.into(),
                    size: size.into(),
                    fallback: fallback.clone(),
                });
            }
            fallback
        }
    };
    (recipe, base)
}

/// The `model` section: the builder, and under LoRA what its LoRA builder takes.
fn model_section(ctx: &mut Ctx, module: &str, builder: &str) -> Entries {
    let lora = ctx.lora_like();
    let mut model: Vec<(String, Y)> = vec![(
        "_component_".into(),
        s(format!("torchtune.models.{module}.{}{builder}", if lora { "lora_" } else { "" })),
    )];
    if lora {
        lora_keys(ctx, module, &mut model);
    }
    model
}

/// The LoRA builder's arguments: adapted projections, rank, alpha, dropout, DoRA, QLoRA.
fn lora_keys(ctx: &mut Ctx, module: &str, model: &mut Entries) {
    let q = ctx.q.clone();
    use TargetModule as T;
    let mut attn = Vec::new();
    for (t, n) in [(T::Q, "q_proj"), (T::K, "k_proj"), (T::V, "v_proj"), (T::O, "output_proj")] {
        if q.targets.contains(t) {
            attn.push(n);
        }
    }
    let mlp_n = [T::Gate, T::Up, T::Down].iter().filter(|t| q.targets.contains(**t)).count();
    if mlp_n > 0 && mlp_n < 3 {
        ctx.warn(Note::TorchtuneTargetsMlp);
    }
    if q.targets.contains(T::Embed) {
        ctx.warn(Note::TorchtuneTargetsEmbed);
    }
    model.push(("lora_attn_modules".into(), strs(&attn)));
    model.push(("apply_lora_to_mlp".into(), Y::B(mlp_n > 0)));
    // Gemma's LoRA builders take no apply_lora_to_output (tied output projection), and
    // Gemma 1's fix lora_dropout at 0.05 (torchtune/models/gemma/_model_builders.py).
    let gemma = matches!(module, "gemma" | "gemma2");
    if gemma {
        if q.targets.contains(T::LmHead) {
            ctx.warn(Note::TorchtuneTargetsLmHead);
        }
    } else {
        model.push(("apply_lora_to_output".into(), Y::B(q.targets.contains(T::LmHead))));
    }
    model.push(("lora_rank".into(), i(q.rank)));
    model.push(("lora_alpha".into(), i(ctx.alpha())));
    if module == "gemma" {
        if (ctx.res.lora_dropout - 0.05).abs() > 1e-9 {
            ctx.warn(Note::TorchtuneLoraDropout);
        }
    } else {
        model.push(("lora_dropout".into(), Y::F(ctx.res.lora_dropout)));
    }
    if q.method == Method::Dora {
        model.push(("use_dora".into(), Y::B(true)));
    }
    if q.method == Method::Qlora {
        model.push(("quantize_base".into(), Y::B(true)));
    }
}

/// `dtype`: torchtune trains in bf16 or fp32 only.
fn dtype(ctx: &mut Ctx) -> &'static str {
    let q = ctx.q.clone();
    let dtype = match q.precision {
        Precision::Fp32 => "fp32",
        _ => "bf16",
    };
    if ctx.fp16() {
        ctx.warn(Note::TorchtunePrecisionFp16 { precision: q.precision });
    } else if q.precision == Precision::Bf16Mixed {
        ctx.warn(Note::TorchtuneBf16Mixed);
    }
    dtype
}

/// torch's AdamW with the estimate's implementation (`optim_impl`): `fused`, else torch's
/// default on CUDA (foreach), or `foreach: False` for the for-loop step.
fn adamw(ctx: &Ctx) -> Y {
    let mut m = vec![
        ("_component_".into(), s("torch.optim.AdamW")),
        ("fused".into(), Y::B(ctx.res.optimizer_impl == OptimizerImpl::Fused)),
    ];
    if ctx.res.optimizer_impl == OptimizerImpl::ForLoop {
        m.push(("foreach".into(), Y::B(false)));
    }
    Y::M(m)
}

/// The `optimizer` section: the optimizer class as torchtune instantiates it.
fn optimizer(ctx: &mut Ctx) -> Y {
    match ctx.q.optim {
        Optimizer::AdamW => adamw(ctx),
        Optimizer::AdamW8bit => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.AdamW8bit"))]),
        Optimizer::AdamW8bitAo => Y::M(vec![("_component_".into(), s("torchao.optim.AdamW8bit"))]),
        Optimizer::AdamW4bitAo => Y::M(vec![("_component_".into(), s("torchao.optim.AdamW4bit"))]),
        Optimizer::AdamWFp8Ao => Y::M(vec![("_component_".into(), s("torchao.optim.AdamWFp8"))]),
        Optimizer::GaloreAdamW => {
            ctx.warn(Note::OptimGalore { framework: Framework::Torchtune });
            adamw(ctx)
        }
        Optimizer::PagedAdamW => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.PagedAdamW"))]),
        Optimizer::PagedAdamW8bit => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.PagedAdamW8bit"))]),
        Optimizer::Adafactor => Y::M(vec![("_component_".into(), s("torch.optim.Adafactor"))]),
        Optimizer::Sgd => Y::M(vec![("_component_".into(), s("torch.optim.SGD"))]),
        Optimizer::SgdMomentum => {
            Y::M(vec![("_component_".into(), s("torch.optim.SGD")), ("momentum".into(), Y::F(0.9))])
        }
        Optimizer::Lion => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.Lion"))]),
    }
}

/// The `loss` component.
fn loss(ctx: &mut Ctx) -> &'static str {
    match ctx.res.loss {
        Loss::Chunked => "torchtune.modules.loss.CEWithChunkedOutputLoss",
        Loss::FusedLinear => {
            ctx.warn(Note::LossFusedLinear);
            "torchtune.modules.loss.CEWithChunkedOutputLoss"
        }
        Loss::Standard => "torch.nn.CrossEntropyLoss",
    }
}

/// The `tokenizer` and `checkpointer` sections, read from the download in launch.sh; the
/// tokenizer builder, shard names and model_type only when the config is another model's.
fn checkpoint_sections(
    ckpt: Option<&TorchtuneCheckpoint>,
    own_config: bool,
    download_dir: &str,
    seq: u32,
) -> (Entries, Entries) {
    let mut tokenizer: Vec<(String, Y)> = Vec::new();
    let mut checkpointer: Vec<(String, Y)> = Vec::new();
    if let Some(c) = ckpt {
        if !own_config {
            tokenizer.push(("_component_".into(), s(c.tokenizer_component)));
        }
        for (k, file) in c.tokenizer {
            tokenizer.push(((*k).into(), s(format!("{download_dir}/{file}"))));
        }
        let sub = if c.subdir.is_empty() { String::new() } else { format!("/{}", c.subdir) };
        checkpointer.push(("checkpoint_dir".into(), s(format!("{download_dir}{sub}"))));
        if !own_config {
            let names = c.shards.names();
            checkpointer.push(("checkpoint_files".into(), Y::L(names.iter().map(|n| s(n.as_str())).collect())));
            checkpointer.push(("model_type".into(), s(c.model_type)));
        }
    }
    tokenizer.push(("max_seq_len".into(), i(seq)));
    (tokenizer, checkpointer)
}

/// FSDP keys of the distributed recipes, and what torchtune cannot shard or offload as asked.
fn sharding(ctx: &mut Ctx, top: &mut Entries) {
    let q = ctx.q.clone();
    let distributed = q.gpus > 1;
    if distributed {
        top.push(("fsdp_cpu_offload".into(), Y::B(q.offload == Offload::All)));
        match q.shard {
            ShardingStrategy::Zero3 | ShardingStrategy::Fsdp => {}
            ShardingStrategy::Zero2 => {
                // FSDP2 keeping parameters gathered after forward ≈ ZeRO-2 during the step.
                top.push(("fsdp_reshard_after_forward".into(), Y::B(false)));
                ctx.warn(Note::TorchtuneZero2);
            }
            shard => ctx.warn(Note::TorchtuneSharding { shard }),
        }
        if q.offload == Offload::Optimizer {
            ctx.warn(Note::TorchtuneOffloadOptimizer);
        }
    } else if q.offload != Offload::None {
        ctx.warn(Note::TorchtuneOffloadSingle { offload: q.offload });
    }
}

/// Dotted overrides for `tune run`, from the same entries as the YAML.
fn dotted_overrides(top: &[(String, Y)]) -> Vec<String> {
    let mut dotted = Vec::new();
    fn flatten(prefix: &str, entries: &[(String, Y)], out: &mut Vec<String>) {
        for (k, v) in entries {
            if k.starts_with('#') {
                continue;
            }
            let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
            match v {
                Y::M(inner) => flatten(&key, inner, out),
                Y::S(x) => out.push(format!("{key}={x}")),
                // OmegaConf reads [a,b] as a list of strings: no quotes, so no shell escaping.
                Y::L(items) => out.push(format!(
                    "{key}=[{}]",
                    items
                        .iter()
                        .map(|i| match i {
                            Y::S(x) => x.clone(),
                            o => yaml_scalar(o),
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                )),
                Y::B(b) => out.push(format!("{key}={}", if *b { "True" } else { "False" })),
                other => out.push(format!("{key}={}", yaml_scalar(other))),
            }
        }
    }
    flatten("", top, &mut dotted);
    dotted
}

/// launch.sh: the download of the base repo, then `tune run` with the dotted overrides.
fn launch(
    ctx: &Ctx,
    recipe: &str,
    base: &str,
    ckpt: Option<&TorchtuneCheckpoint>,
    download_dir: &str,
    dotted: &[String],
) -> String {
    let q = &ctx.q;
    let distributed = q.gpus > 1;
    let launcher = if distributed {
        let mut l = format!("tune run --nproc_per_node {}", ctx.gpus_per_node());
        if q.nodes > 1 {
            l += &format!(" --nnodes {}", q.nodes);
        }
        l
    } else {
        "tune run".into()
    };
    let mut shl = format!("#!/usr/bin/env bash\n# {}\nset -euo pipefail\n", origin(q));
    shl += &format!("# {TORCHAO_PIN}\n");
    // Llama 3.x repos carry Meta's consolidated weights in original/ besides the safetensors the
    // HF checkpointer reads; the shipped configs skip them the same way (llama3_1/8B_lora_single_device.yaml:
    // `--ignore-patterns "original/consolidated.00.pth"`). The tokenizer in original/ is kept.
    let skip = match ckpt {
        Some(c) if c.tokenizer_component.ends_with("llama3_tokenizer") && c.subdir.is_empty() => {
            " --ignore-patterns 'original/consolidated*'"
        }
        _ => "",
    };
    shl += &format!("# tune download {} --output-dir {download_dir}{skip}\n", ctx.model());
    shl += &format!("{launcher} {recipe} --config {base} \\\n");
    shl += &dotted.iter().map(|d| format!("  {}", sh(d))).collect::<Vec<_>>().join(" \\\n");
    shl.push('\n');
    shl
}
