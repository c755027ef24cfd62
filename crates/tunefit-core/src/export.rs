//! Config export: the current configuration as a ready-to-run snippet in one framework's format.
//!
//! Each framework gets its own vocabulary (docs/frameworks.md, "Config export", names the
//! files and versions the key names were read from): Transformers + PEFT as Python with an
//! accelerate FSDP or DeepSpeed config, torchtune as YAML overrides plus a `tune run` line,
//! litgpt as CLI flags, Axolotl and LLaMA-Factory as YAML, Unsloth as Python.
//!
//! The export states what tunefit assumed: settings the person left unset are written with the
//! framework profile's resolved value (`framework::resolve`), so the run matches the estimate.
//! A setting the framework cannot express is never dropped silently: it becomes a `Warning`
//! that names it.

use crate::arch::{Architecture, MlpKind};
use crate::diag::{Error, Warning};
use crate::framework::{self, Resolved};
use crate::query::{
    AdapterDtype, Attention, Checkpointing, Framework, Loss, Method, Offload, Optimizer, Precision, Quant, Query,
    ShardingStrategy, TargetModule,
};
use serde::Serialize;

/// One file of an export.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExportFile {
    /// File name the snippet expects to be saved as (other files refer to it by this name).
    pub name: String,
    /// "python" | "yaml" | "json" | "shell".
    pub language: String,
    pub content: String,
}

/// Everything exported for one query and framework.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigExport {
    pub framework: Framework,
    pub files: Vec<ExportFile>,
    /// Settings the framework cannot express, and placeholders the person must fill in.
    pub warnings: Vec<Warning>,
}

/// Every framework an export can target, "a|b|c", for error messages.
pub fn accepted() -> String {
    Framework::accepted()
}

/// Exports `q` for `fw` (the query's own `framework` key is replaced by `fw`, so profile
/// defaults are those of the framework exported to).
pub fn export(q: &Query, fw: Framework) -> Result<ConfigExport, Error> {
    let mut q = q.clone();
    q.framework = fw;
    // The same validation as the estimate: an export of an impossible configuration is an error.
    let settings = crate::settings::Settings::resolve(&q)?;
    crate::memory::estimate(&settings)?;
    let (arch, preset, res) = (settings.arch, settings.preset, settings.resolved);
    let mut ctx = Ctx {
        res,
        naming: naming(preset.map(|p| p.id), &arch),
        model: model_id(preset.map(|p| p.id)),
        preset: preset.map(|p| p.id),
        arch,
        q,
        warnings: Vec::new(),
    };
    for (code, message) in framework::unsupported(&ctx.q) {
        ctx.warn(code, message);
    }
    if ctx.model.is_none() {
        ctx.warn("export-model-placeholder", format!(
            "custom or inferred model: the export names it {PLACEHOLDER}; replace it with the checkpoint whose shape you entered"));
    }
    let files = match fw {
        Framework::Hf => hf(&mut ctx),
        Framework::Torchtune => torchtune(&mut ctx),
        Framework::Litgpt => litgpt(&mut ctx),
        Framework::Axolotl => axolotl(&mut ctx),
        Framework::LlamaFactory => llama_factory(&mut ctx),
        Framework::Unsloth => unsloth(&mut ctx),
    };
    Ok(ConfigExport { framework: fw, files, warnings: ctx.warnings })
}

/// The lazily loaded exporter's whole job (crates/tunefit-export, a second wasm the page
/// fetches only when the Copy-config panel opens): a query string and a framework name in,
/// the export as JSON out — `ConfigExport` as serialized, or `{"error": "..."}` with the
/// message the page shows. The query is parsed strictly, as `tunefit export` parses it, so the
/// page's files equal the CLI's for the same query.
pub fn export_json(query: &str, framework: &str) -> String {
    export_json_with(query, framework, |x| x)
}

/// `export_json` with `finish` applied to a successful export before it is written (the lazily
/// loaded exporter translates its notes there); errors are written as `export_json` writes them.
pub fn export_json_with(query: &str, framework: &str, finish: impl FnOnce(ConfigExport) -> ConfigExport) -> String {
    let result = match (Query::parse(query), Framework::parse(framework)) {
        (Err(e), _) => Err(e.to_string()),
        (_, None) => Err(format!("framework: '{framework}' is not one of {}", accepted())),
        (Ok(q), Some(fw)) => export(&q, fw).map(finish).map_err(|e| e.to_string()),
    };
    match result {
        Ok(x) => serde_json::to_string(&x).unwrap_or_default(),
        Err(e) => serde_json::json!({ "error": e }).to_string(),
    }
}

/// Reads `export_json`'s answer back (in the main wasm, with the small `json` reader rather
/// than serde_json's deserializer). `Err` carries the exporter's message, or says why the
/// text is not an export.
pub fn read_export_json(text: &str) -> Result<ConfigExport, String> {
    use crate::json::{parse, Json};
    let v = parse(text).map_err(|e| format!("config exporter: {e}"))?;
    if let Some(e) = v.get("error") {
        return Err(e.as_str().unwrap_or("config exporter failed").to_string());
    }
    let bad = || "config exporter: unexpected answer".to_string();
    let s = |j: &Json, k: &str| j.get(k).and_then(Json::as_str).map(str::to_string).ok_or_else(bad);
    let arr = |k: &str| match v.get(k) {
        Some(Json::Arr(a)) => Ok(a),
        _ => Err(bad()),
    };
    let framework = v.get("framework").and_then(Json::as_str).and_then(Framework::parse).ok_or_else(bad)?;
    let files = arr("files")?
        .iter()
        .map(|f| Ok(ExportFile { name: s(f, "name")?, language: s(f, "language")?, content: s(f, "content")? }))
        .collect::<Result<Vec<_>, String>>()?;
    let warnings = arr("warnings")?
        .iter()
        .map(|w| Ok(Warning { code: s(w, "code")?, message: s(w, "message")? }))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(ConfigExport { framework, files, warnings })
}

/// Stands in for the model id of a custom or inferred architecture.
pub const PLACEHOLDER: &str = "YOUR-ORG/YOUR-MODEL";

struct Ctx {
    q: Query,
    res: Resolved,
    arch: Architecture,
    preset: Option<&'static str>,
    naming: Naming,
    model: Option<&'static str>,
    warnings: Vec<Warning>,
}

impl Ctx {
    fn warn(&mut self, code: &str, message: impl Into<String>) {
        let message = message.into();
        if !self.warnings.iter().any(|w| w.code == code && w.message == message) {
            self.warnings.push(Warning { code: code.into(), message });
        }
    }
    fn model(&self) -> &'static str {
        self.model.unwrap_or(PLACEHOLDER)
    }
    fn fw(&self) -> &'static str {
        self.q.framework.as_str()
    }
    fn lora_like(&self) -> bool {
        matches!(self.q.method, Method::Lora | Method::Qlora | Method::Dora)
    }
    /// LoRA alpha. The query has no alpha key (alpha scales the update, not memory); alpha =
    /// 2·rank is the ratio the shipped configs use (torchtune llama3_1/8B_qlora_single_device:
    /// rank 8, alpha 16; litgpt's default lora_alpha 16 over lora_r 8; LLaMA-Factory's
    /// default lora_alpha = lora_rank * 2).
    fn alpha(&self) -> u32 {
        self.q.rank.saturating_mul(2)
    }
    fn dp(&self) -> u32 {
        (self.q.gpus / self.q.tp.max(1)).max(1)
    }
    fn gpus_per_node(&self) -> u32 {
        self.q.gpus.div_ceil(self.q.nodes.max(1))
    }
    fn bf16(&self) -> bool {
        matches!(self.q.precision, Precision::Bf16Mixed | Precision::Bf16True)
    }
    fn fp16(&self) -> bool {
        matches!(self.q.precision, Precision::Fp16Mixed | Precision::Fp16True)
    }
    fn ckpt_on(&self) -> bool {
        self.res.ckpt != Checkpointing::None
    }
    fn zero_stage(&self) -> Option<u32> {
        match self.q.shard {
            ShardingStrategy::Zero1 => Some(1),
            ShardingStrategy::Zero2 => Some(2),
            ShardingStrategy::Zero3 => Some(3),
            _ => None,
        }
    }
    /// Common cross-framework notices: tensor parallelism, selective checkpointing.
    fn common_warnings(&mut self) {
        if self.q.tp > 1 {
            let msg = format!(
                "tp={}: tensor parallelism is not part of this export; {} trains data-parallel only here",
                self.q.tp,
                self.fw()
            );
            self.warn("export-tp", msg);
        }
        if matches!(self.res.ckpt, Checkpointing::Selective | Checkpointing::Op) {
            let msg = format!("ckpt={}: {} exposes whole-block activation checkpointing only; the export turns full checkpointing on, which saves more memory than estimated", self.res.ckpt, self.fw());
            self.warn("export-ckpt-selective", msg);
        }
        if self.q.ckpt_every > 1 && self.res.ckpt != Checkpointing::None {
            let msg = format!("ckpt_every={}: {} checkpoints every block; the export does, which saves more memory than estimated (torchtitan's selective_ac_option does every n-th)", self.q.ckpt_every, self.fw());
            self.warn("export-ckpt-every", msg);
        }
        if self.q.optim_in_bwd && self.q.framework != crate::query::Framework::Torchtune {
            let msg = format!("optim_in_bwd: {} steps the optimizer after backward; the export keeps every gradient until the step (more memory than estimated)", self.fw());
            self.warn("export-optim-in-bwd", msg);
        }
        if self.q.optim == crate::query::Optimizer::AdamWFp8Ao
            && matches!(
                self.q.framework,
                crate::query::Framework::Hf | crate::query::Framework::Axolotl | crate::query::Framework::LlamaFactory
            )
        {
            self.warn("export-optim-fp8", "optim=adamw-fp8-ao: Transformers has no name for torchao's fp8 AdamW; the export uses its 8-bit AdamW (adamw_torch_8bit), same memory");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Models: HF repo ids and module names per architecture family.
// ---------------------------------------------------------------------------------------------

/// Hugging Face repo id of each preset (the checkpoint its config.json fields were read from).
fn model_id(preset: Option<&str>) -> Option<&'static str> {
    Some(match preset? {
        "llama-2-7b" => "meta-llama/Llama-2-7b-hf",
        "llama-2-13b" => "meta-llama/Llama-2-13b-hf",
        "llama-2-70b" => "meta-llama/Llama-2-70b-hf",
        "codellama-7b" => "meta-llama/CodeLlama-7b-hf",
        "llama-3-8b" => "meta-llama/Meta-Llama-3-8B",
        "llama-3.1-8b" => "meta-llama/Llama-3.1-8B",
        "llama-3-70b" => "meta-llama/Meta-Llama-3-70B",
        "llama-3.1-70b" => "meta-llama/Llama-3.1-70B",
        // Llama 3.3 was published as an instruct model only.
        "llama-3.3-70b" => "meta-llama/Llama-3.3-70B-Instruct",
        "llama-3.1-405b" => "meta-llama/Llama-3.1-405B",
        "llama-3.2-1b" => "meta-llama/Llama-3.2-1B",
        "llama-3.2-3b" => "meta-llama/Llama-3.2-3B",
        "tinyllama-1.1b" => "TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T",
        "mistral-7b" => "mistralai/Mistral-7B-v0.1",
        "mistral-7b-v0.3" => "mistralai/Mistral-7B-v0.3",
        "mixtral-8x7b" => "mistralai/Mixtral-8x7B-v0.1",
        "qwen-7b" => "Qwen/Qwen-7B",
        "qwen2-7b" => "Qwen/Qwen2-7B",
        "qwen2.5-0.5b" => "Qwen/Qwen2.5-0.5B",
        "qwen2.5-1.5b" => "Qwen/Qwen2.5-1.5B",
        "qwen2.5-3b" => "Qwen/Qwen2.5-3B",
        "qwen2.5-7b" => "Qwen/Qwen2.5-7B",
        "qwen2.5-14b" => "Qwen/Qwen2.5-14B",
        "qwen2.5-32b" => "Qwen/Qwen2.5-32B",
        "qwen2.5-72b" => "Qwen/Qwen2.5-72B",
        "gemma-2b" => "google/gemma-2b",
        "gemma-7b" => "google/gemma-7b",
        "gemma-2-2b" => "google/gemma-2-2b",
        "gemma-2-9b" => "google/gemma-2-9b",
        "gemma-2-27b" => "google/gemma-2-27b",
        "phi-1.5" => "microsoft/phi-1_5",
        "phi-3-mini" => "microsoft/Phi-3-mini-4k-instruct",
        "gpt2" => "openai-community/gpt2",
        "gpt2-medium" => "openai-community/gpt2-medium",
        "gpt2-large" => "openai-community/gpt2-large",
        "gpt2-xl" => "openai-community/gpt2-xl",
        "bert-base-uncased" => "google-bert/bert-base-uncased",
        "bert-large-uncased" => "google-bert/bert-large-uncased",
        _ => return None,
    })
}

/// How a family's transformers modeling file names its linear layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Naming {
    /// modeling_llama / mistral / qwen2 / gemma: q_proj … down_proj.
    Llama,
    /// modeling_mixtral: experts' w1 (gate), w3 (up), w2 (down).
    Mixtral,
    /// modeling_phi3: fused qkv_proj and gate_up_proj.
    Phi3,
    /// modeling_phi (phi-1.5): q_proj, k_proj, v_proj, dense, fc1, fc2.
    Phi,
    /// modeling_gpt2: fused c_attn (Conv1D), attn.c_proj, mlp.c_fc, mlp.c_proj.
    Gpt2,
    /// modeling_bert: query, key, value, attention.output.dense, intermediate.dense, output.dense.
    Bert,
    /// Qwen v1 remote code: fused c_attn, attn.c_proj, w1 (up), w2 (gate), mlp.c_proj.
    QwenV1,
}

fn naming(preset: Option<&str>, a: &Architecture) -> Naming {
    match preset.unwrap_or("") {
        "mixtral-8x7b" => Naming::Mixtral,
        "phi-3-mini" => Naming::Phi3,
        "phi-1.5" => Naming::Phi,
        "qwen-7b" => Naming::QwenV1,
        p if p.starts_with("gpt2") => Naming::Gpt2,
        p if p.starts_with("bert") => Naming::Bert,
        _ if a.encoder_only => Naming::Bert,
        _ if a.mlp == MlpKind::Plain => Naming::Gpt2,
        _ => Naming::Llama,
    }
}

impl Naming {
    /// Transformers decoder-layer class, for FSDP's transformer auto-wrap policy.
    fn layer_class(self, preset: Option<&str>) -> &'static str {
        match self {
            Naming::Mixtral => "MixtralDecoderLayer",
            Naming::Phi3 => "Phi3DecoderLayer",
            Naming::Phi => "PhiDecoderLayer",
            Naming::Gpt2 => "GPT2Block",
            Naming::Bert => "BertLayer",
            Naming::QwenV1 => "QWenBlock",
            Naming::Llama => match preset.unwrap_or("") {
                p if p.starts_with("mistral") => "MistralDecoderLayer",
                p if p.starts_with("qwen2") => "Qwen2DecoderLayer",
                p if p.starts_with("gemma-2") => "Gemma2DecoderLayer",
                p if p.starts_with("gemma") => "GemmaDecoderLayer",
                _ => "LlamaDecoderLayer",
            },
        }
    }

    /// PEFT `target_modules` for the query's targets, with a warning when a fused module
    /// forces more (or the name is ambiguous).
    fn peft_targets(self, q: &Query) -> (Vec<&'static str>, Option<String>) {
        use TargetModule as T;
        let has = |t: T| q.targets.contains(t);
        let mut out: Vec<&'static str> = Vec::new();
        let mut note = None;
        let mut fused = |out: &mut Vec<&'static str>, parts: &[T], name: &'static str, what: &str| {
            let n = parts.iter().filter(|t| has(**t)).count();
            if n > 0 {
                out.push(name);
                if n < parts.len() {
                    note = Some(format!("targets: this model fuses {what} into one {name} linear; LoRA on {name} adapts all of them (more trainable parameters than estimated)"));
                }
            }
        };
        match self {
            Naming::Llama | Naming::Mixtral | Naming::Phi3 | Naming::Phi => {
                match self {
                    Naming::Phi3 => fused(&mut out, &[T::Q, T::K, T::V], "qkv_proj", "q, k and v"),
                    _ => {
                        if has(T::Q) {
                            out.push("q_proj");
                        }
                        if has(T::K) {
                            out.push("k_proj");
                        }
                        if has(T::V) {
                            out.push("v_proj");
                        }
                    }
                }
                if has(T::O) {
                    out.push(if self == Naming::Phi { "dense" } else { "o_proj" });
                }
                match self {
                    Naming::Phi3 => fused(&mut out, &[T::Gate, T::Up], "gate_up_proj", "gate and up"),
                    Naming::Mixtral => {
                        if has(T::Gate) {
                            out.push("w1");
                        }
                        if has(T::Up) {
                            out.push("w3");
                        }
                    }
                    Naming::Phi => {
                        if has(T::Up) {
                            out.push("fc1");
                        }
                    }
                    _ => {
                        if has(T::Gate) {
                            out.push("gate_proj");
                        }
                        if has(T::Up) {
                            out.push("up_proj");
                        }
                    }
                }
                if has(T::Down) {
                    out.push(match self {
                        Naming::Mixtral => "w2",
                        Naming::Phi => "fc2",
                        _ => "down_proj",
                    });
                }
            }
            Naming::Gpt2 => {
                fused(&mut out, &[T::Q, T::K, T::V], "c_attn", "q, k and v");
                if has(T::O) {
                    out.push("attn.c_proj");
                }
                if has(T::Up) {
                    out.push("mlp.c_fc");
                }
                if has(T::Down) {
                    out.push("mlp.c_proj");
                }
            }
            Naming::QwenV1 => {
                fused(&mut out, &[T::Q, T::K, T::V], "c_attn", "q, k and v");
                if has(T::O) {
                    out.push("attn.c_proj");
                }
                if has(T::Gate) {
                    out.push("w2");
                }
                if has(T::Up) {
                    out.push("w1");
                }
                if has(T::Down) {
                    out.push("mlp.c_proj");
                }
            }
            Naming::Bert => {
                if has(T::Q) {
                    out.push("query");
                }
                if has(T::K) {
                    out.push("key");
                }
                if has(T::V) {
                    out.push("value");
                }
                if has(T::O) {
                    out.push("attention.output.dense");
                }
                if has(T::Up) {
                    out.push("intermediate.dense");
                }
                if has(T::Down) {
                    // PEFT matches by name suffix: "output.dense" also matches attention.output.dense.
                    out.push("output.dense");
                    if !has(T::O) {
                        note = Some("targets: BERT's MLP output is named output.dense, which PEFT also matches in attention.output.dense; the attention output is adapted too".into());
                    }
                }
            }
        }
        (out, note)
    }

    /// Names of the embedding and LM head, for PEFT `modules_to_save` (trained in full).
    fn full_modules(self, q: &Query) -> Vec<&'static str> {
        let mut out = Vec::new();
        if q.targets.contains(TargetModule::Embed) {
            out.push(match self {
                Naming::Gpt2 => "wte",
                Naming::Bert => "word_embeddings",
                Naming::QwenV1 => "wte",
                _ => "embed_tokens",
            });
        }
        if q.targets.contains(TargetModule::LmHead) && self != Naming::Bert {
            out.push("lm_head");
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Small emitters: YAML (ordered, always-quoted strings), Python literals, shell words.
// ---------------------------------------------------------------------------------------------

/// A YAML value. Strings are written as JSON strings, which YAML reads as double-quoted scalars.
#[derive(Debug, Clone)]
enum Y {
    S(String),
    I(i64),
    F(f64),
    B(bool),
    Null,
    L(Vec<Y>),
    /// Ordered mapping; a key starting with '#' is written as a comment line.
    M(Vec<(String, Y)>),
}

fn s(v: impl Into<String>) -> Y {
    Y::S(v.into())
}
fn i(v: impl Into<i64>) -> Y {
    Y::I(v.into())
}
fn strs(v: &[&str]) -> Y {
    Y::L(v.iter().map(|x| s(*x)).collect())
}
fn comment(text: impl Into<String>) -> (String, Y) {
    (format!("# {}", text.into()), Y::Null)
}

fn fmt_float(x: f64) -> String {
    let t = format!("{x}");
    if t.contains('.') || t.contains('e') || t.contains("inf") || t.contains("NaN") {
        t
    } else {
        format!("{t}.0")
    }
}

fn json_str(v: &str) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "\"\"".into())
}

fn yaml_scalar(v: &Y) -> String {
    match v {
        Y::S(x) => json_str(x),
        Y::I(x) => x.to_string(),
        Y::F(x) => fmt_float(*x),
        Y::B(x) => x.to_string(),
        Y::Null => "null".into(),
        Y::L(items) => format!("[{}]", items.iter().map(yaml_scalar).collect::<Vec<_>>().join(", ")),
        Y::M(_) => "{}".into(),
    }
}

fn yaml(entries: &[(String, Y)]) -> String {
    fn go(out: &mut String, entries: &[(String, Y)], indent: usize) {
        let pad = " ".repeat(indent);
        for (k, v) in entries {
            if let Some(c) = k.strip_prefix('#') {
                out.push_str(&format!("{pad}#{c}\n"));
                continue;
            }
            match v {
                Y::M(inner) if !inner.is_empty() => {
                    out.push_str(&format!("{pad}{k}:\n"));
                    go(out, inner, indent + 2);
                }
                // A list of mappings in block form (`- key: value` items), e.g. Axolotl's
                // `datasets`: the flow form `[{}]` would lose the entries.
                Y::L(items) if !items.is_empty() && items.iter().all(|x| matches!(x, Y::M(m) if !m.is_empty())) => {
                    out.push_str(&format!("{pad}{k}:\n"));
                    for item in items {
                        let Y::M(m) = item else { continue };
                        let mut block = String::new();
                        go(&mut block, m, 0);
                        for (n, line) in block.lines().enumerate() {
                            let lead = if n == 0 { "- " } else { "  " };
                            out.push_str(&format!("{pad}  {lead}{line}\n"));
                        }
                    }
                }
                _ => out.push_str(&format!("{pad}{k}: {}\n", yaml_scalar(v))),
            }
        }
    }
    let mut out = String::new();
    go(&mut out, entries, 0);
    out
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}
fn py_list(v: &[&str]) -> String {
    format!("[{}]", v.iter().map(|x| json_str(x)).collect::<Vec<_>>().join(", "))
}

/// A shell word: bare when safe, single-quoted otherwise.
fn sh(v: &str) -> String {
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@".contains(&b)) {
        v.to_string()
    } else {
        format!("'{}'", v.replace('\'', "'\\''"))
    }
}

fn file(name: &str, language: &str, content: String) -> ExportFile {
    ExportFile { name: name.into(), language: language.into(), content }
}

/// The query the export was made from, as a comment header line.
fn origin(q: &Query) -> String {
    format!("tunefit export of ?{}", q.to_query_string())
}

// ---------------------------------------------------------------------------------------------
// Shared by the Trainer-based frameworks (hf, axolotl, llama-factory).
// ---------------------------------------------------------------------------------------------

/// Transformers `optim` name (training_args.py `OptimizerNames`).
fn hf_optim(ctx: &Ctx) -> &'static str {
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
fn hf_optim_args(ctx: &Ctx) -> Option<String> {
    match ctx.q.optim {
        Optimizer::SgdMomentum => Some("momentum=0.9".into()),
        Optimizer::GaloreAdamW => Some(format!("rank={}", ctx.q.galore_rank)),
        _ => None,
    }
}

/// GaLore's `optim_target_modules` (the block linears, as transformers' GaLore docs write
/// them): regexes over module names.
const GALORE_TARGETS: &[&str] = &[r".*.attn.*", r".*.mlp.*"];

/// `optim_args` and GaLore's `optim_target_modules` as Python keyword arguments
/// (TrainingArguments and SFTConfig take the same).
fn hf_optim_kwargs(ctx: &Ctx) -> Vec<String> {
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
fn deepspeed_json(ctx: &Ctx) -> Option<String> {
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
fn accelerate_fsdp_yaml(ctx: &Ctx) -> Option<String> {
    if ctx.q.shard != ShardingStrategy::Fsdp {
        return None;
    }
    let mixed = if ctx.bf16() {
        "bf16"
    } else if ctx.fp16() {
        "fp16"
    } else {
        "no"
    };
    Some(yaml(&[
        comment(origin(&ctx.q)),
        ("compute_environment".into(), s("LOCAL_MACHINE")),
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
    ]))
}

/// Warnings shared by the Trainer-based exports.
fn trainer_warnings(ctx: &mut Ctx) {
    ctx.common_warnings();
    if ctx.q.offload == Offload::Optimizer && ctx.q.shard == ShardingStrategy::Fsdp {
        ctx.warn("export-offload-fsdp", "offload=optimizer with FSDP: FSDP offloads parameters and optimizer together (fsdp_offload_params); the export keeps everything on the GPU. Use shard=zero2/zero3 for optimizer-only offload");
    }
    if ctx.q.offload != Offload::None && ctx.q.shard == ShardingStrategy::None {
        let msg = format!(
            "offload={}: offload needs DeepSpeed ZeRO or FSDP; with shard=none the export has no offload",
            ctx.q.offload
        );
        ctx.warn("export-offload-unsharded", msg);
    }
    if ctx.q.offload == Offload::All && matches!(ctx.q.shard, ShardingStrategy::Zero1 | ShardingStrategy::Zero2) {
        ctx.warn(
            "export-offload-param-stage",
            "offload=all: DeepSpeed offloads parameters only under ZeRO-3; the config offloads the optimizer only",
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Transformers Trainer + PEFT.
// ---------------------------------------------------------------------------------------------

fn hf(ctx: &mut Ctx) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let q = ctx.q.clone();
    let mut files = Vec::new();
    let mut py = String::new();
    let push = |py: &mut String, line: &str| {
        py.push_str(line);
        py.push('\n');
    };
    push(&mut py, &format!("# {}", origin(&q)));
    push(&mut py, "# Transformers Trainer + PEFT. Fill in the dataset; everything else is what tunefit estimated.");
    push(&mut py, "import torch");
    push(
        &mut py,
        "from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig, Trainer, TrainingArguments",
    );
    push(&mut py, "from transformers import DataCollatorForLanguageModeling, DataCollatorWithFlattening");
    push(&mut py, "from peft import LoraConfig, PrefixTuningConfig, PromptTuningConfig, get_peft_model, prepare_model_for_kbit_training");
    push(&mut py, "");
    push(&mut py, &format!("MODEL_ID = {}", json_str(ctx.model())));
    push(&mut py, &format!("MAX_SEQ_LENGTH = {}", q.seq));
    push(&mut py, "");

    // Weights dtype at load: 16-bit except fp32 training and full/freeze under AMP, as the
    // memory model stores them (memory.rs "frozen_bytes").
    let peft = !matches!(q.method, Method::Full | Method::Freeze);
    let load_dtype = match q.precision {
        Precision::Fp32 => "torch.float32",
        Precision::Bf16Mixed | Precision::Fp16Mixed if !peft => "torch.float32",
        Precision::Bf16True => "torch.bfloat16",
        Precision::Fp16True => "torch.float16",
        Precision::Bf16Mixed => "torch.bfloat16",
        Precision::Fp16Mixed => "torch.float16",
    };
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
        push(&mut py, &bnb);
        load_args.push("quantization_config=bnb_config".into());
    }
    push(&mut py, "# dtype= needs transformers >= 4.56 (older releases: torch_dtype=).");
    push(
        &mut py,
        &format!("model = AutoModelForCausalLM.from_pretrained(\n    MODEL_ID,\n    {},\n)", load_args.join(",\n    ")),
    );
    push(&mut py, "tokenizer = AutoTokenizer.from_pretrained(MODEL_ID)");
    push(&mut py, "tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token");
    if q.method == Method::Qlora {
        push(
            &mut py,
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
        push(&mut py, "model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={\"use_reentrant\": False})");
        push(&mut py, "model.enable_input_require_grads()");
    }
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => {
            let (targets, note) = ctx.naming.peft_targets(&q);
            if let Some(n) = note {
                ctx.warn("export-targets-fused", n);
            }
            let full = ctx.naming.full_modules(&q);
            let mut args = vec![
                format!("r={}", q.rank),
                format!("lora_alpha={}", ctx.alpha()),
                format!("lora_dropout={}", fmt_float(ctx.res.lora_dropout)),
                format!("target_modules={}", py_list(&targets)),
                "bias=\"none\"".into(),
                "task_type=\"CAUSAL_LM\"".into(),
            ];
            if !full.is_empty() {
                args.push(format!("modules_to_save={}", py_list(&full)));
            }
            if q.method == Method::Dora {
                args.push("use_dora=True".into());
            }
            // GPT-2's Conv1D stores weights transposed (PEFT sets this itself, with a warning).
            if ctx.naming == Naming::Gpt2 {
                args.push("fan_in_fan_out=True".into());
            }
            push(&mut py, &format!("peft_config = LoraConfig(\n    {},\n)", args.join(",\n    ")));
            // autocast_adapter_dtype=True (PEFT's default) keeps adapters in fp32.
            let autocast = ctx.res.adapter_dtype == AdapterDtype::Fp32;
            push(
                &mut py,
                &format!("model = get_peft_model(model, peft_config, autocast_adapter_dtype={})", py_bool(autocast)),
            );
        }
        Method::Prefix => {
            push(
                &mut py,
                &format!(
                    "peft_config = PrefixTuningConfig(task_type=\"CAUSAL_LM\", num_virtual_tokens={})",
                    q.virtual_tokens
                ),
            );
            push(&mut py, "model = get_peft_model(model, peft_config)");
        }
        Method::Prompt => {
            push(
                &mut py,
                &format!(
                    "peft_config = PromptTuningConfig(task_type=\"CAUSAL_LM\", num_virtual_tokens={})",
                    q.virtual_tokens
                ),
            );
            push(&mut py, "model = get_peft_model(model, peft_config)");
        }
        Method::Adapter => {
            ctx.warn("export-method-adapter", format!("method=adapter: PEFT has no Houlsby bottleneck adapter; the export leaves the model unwrapped (bottleneck={} not applied). Use the adapters library (AdapterHub) for it", q.bottleneck));
        }
        Method::Freeze => {
            let n = q.train_layers;
            push(&mut py, &format!("# method=freeze: train only the last {n} blocks."));
            push(&mut py, "for p in model.parameters():\n    p.requires_grad_(False)");
            let layers = match ctx.naming {
                Naming::Gpt2 => "model.transformer.h",
                Naming::Bert => "model.bert.encoder.layer",
                Naming::QwenV1 => "model.transformer.h",
                _ => "model.model.layers",
            };
            push(
                &mut py,
                &format!(
                    "for block in {layers}[-{n}:]:\n    for p in block.parameters():\n        p.requires_grad_(True)"
                ),
            );
        }
        Method::Full => {}
    }
    push(&mut py, "");
    push(&mut py, "train_dataset = ...  # your tokenized dataset: input_ids truncated to MAX_SEQ_LENGTH");
    if ctx.res.packing {
        // Padding-free packing: sequences concatenated with position_ids restarting per sample.
        push(&mut py, "data_collator = DataCollatorWithFlattening()  # packing=1: no padding tokens");
    } else {
        push(&mut py, "data_collator = DataCollatorForLanguageModeling(tokenizer, mlm=False, pad_to_multiple_of=8)");
    }
    push(&mut py, "");
    let mut ta = vec![
        "output_dir=\"out\"".to_string(),
        format!("per_device_train_batch_size={}", q.batch),
        format!("gradient_accumulation_steps={}", q.ga),
        format!("num_train_epochs={}", fmt_float(q.epochs)),
        format!("bf16={}", py_bool(matches!(q.precision, Precision::Bf16Mixed | Precision::Bf16True))),
        // fp16 AMP needs fp32 master weights; pure fp16 ("fp16-true") runs without the scaler.
        format!("fp16={}", py_bool(q.precision == Precision::Fp16Mixed)),
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
    if matches!(ctx.res.loss, Loss::Chunked | Loss::FusedLinear) {
        push(
            &mut py,
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
    push(
        &mut py,
        "# gradient_checkpointing: transformers 5 calls it activation_checkpointing and accepts this name as a",
    );
    push(&mut py, "# deprecated alias (FutureWarning); 4.x knows only this name, so it runs on both.");
    push(&mut py, &format!("args = TrainingArguments(\n    {},\n)", ta.join(",\n    ")));
    push(
        &mut py,
        "trainer = Trainer(model=model, args=args, train_dataset=train_dataset, data_collator=data_collator)",
    );
    push(&mut py, "trainer.train()");
    if q.precision == Precision::Fp16True {
        ctx.warn("export-fp16-true", "precision=fp16-true: the model is loaded in fp16 and trained without a loss scaler (Trainer's fp16=True needs fp32 master weights); watch for overflow");
    }
    files.push(file("train.py", "python", py));
    if let Some(j) = deepspeed_json(ctx) {
        files.push(file("ds_config.json", "json", j));
    }
    if let Some(y) = accelerate_fsdp_yaml(ctx) {
        files.push(file("accelerate_fsdp.yaml", "yaml", y));
    }
    files.push(file("launch.sh", "shell", trainer_launch(ctx, "train.py")));
    files
}

/// Launch line for a Trainer script: python on one GPU, accelerate or deepspeed on several.
fn trainer_launch(ctx: &Ctx, script: &str) -> String {
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

// ---------------------------------------------------------------------------------------------
// torchtune.
// ---------------------------------------------------------------------------------------------

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

fn torchtune(ctx: &mut Ctx) -> Vec<ExportFile> {
    ctx.common_warnings();
    let q = ctx.q.clone();
    let distributed = q.gpus > 1;
    let lora = ctx.lora_like();
    if matches!(q.method, Method::Freeze | Method::Prefix | Method::Prompt | Method::Adapter) {
        let msg = format!("method={}: torchtune has no such recipe; the export is a full fine-tune config", q.method);
        ctx.warn("export-method", msg);
    }
    let tm = torchtune_model(ctx.preset);
    let (module, builder, dir, size) = tm.unwrap_or(("llama3_1", "llama3_1_8b", "llama3_1", "8B"));
    if tm.is_none() {
        let what = ctx.preset.map(|p| format!("model {p}")).unwrap_or_else(|| "this custom model".into());
        ctx.warn("export-torchtune-model", format!("{what}: torchtune ships no builder tunefit knows; the export names the Llama 3.1 8B builder as a template — replace model._component_ and the checkpointer"));
    }
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
            let what = ctx.preset.unwrap_or("this model");
            ctx.warn("export-torchtune-config", format!("{what}: torchtune ships no {dir}/{wanted} config; the export starts from {name} ({sub}) with {recipe}, and the overrides set the model and device count"));
            name
        }
        None => {
            let fallback = torchtune_config("llama3_1", "8B", kind, distributed).map(|c| c.0).unwrap_or_default();
            if tm.is_some() {
                let what = ctx.preset.unwrap_or("this model");
                ctx.warn("export-torchtune-config", format!("{what}: torchtune ships no {kind} config for {dir} {size}; the export starts from {fallback} and overrides its model, checkpointer and tokenizer with this model's; check the rest of it"));
            }
            fallback
        }
    };

    let mut model: Vec<(String, Y)> = vec![(
        "_component_".into(),
        s(format!("torchtune.models.{module}.{}{builder}", if lora { "lora_" } else { "" })),
    )];
    if lora {
        use TargetModule as T;
        let mut attn = Vec::new();
        for (t, n) in [(T::Q, "q_proj"), (T::K, "k_proj"), (T::V, "v_proj"), (T::O, "output_proj")] {
            if q.targets.contains(t) {
                attn.push(n);
            }
        }
        let mlp_n = [T::Gate, T::Up, T::Down].iter().filter(|t| q.targets.contains(**t)).count();
        if mlp_n > 0 && mlp_n < 3 {
            ctx.warn("export-targets-mlp", "targets: torchtune's apply_lora_to_mlp adapts all MLP projections (gate, up, down) together; the export adapts all three");
        }
        if q.targets.contains(T::Embed) {
            ctx.warn(
                "export-targets-embed",
                "targets=embed: torchtune's LoRA builders cannot train the embedding; it stays frozen in this config",
            );
        }
        model.push(("lora_attn_modules".into(), strs(&attn)));
        model.push(("apply_lora_to_mlp".into(), Y::B(mlp_n > 0)));
        // Gemma's LoRA builders take no apply_lora_to_output (tied output projection), and
        // Gemma 1's fix lora_dropout at 0.05 (torchtune/models/gemma/_model_builders.py).
        let gemma = matches!(module, "gemma" | "gemma2");
        if gemma {
            if q.targets.contains(T::LmHead) {
                ctx.warn("export-targets-lm-head", "targets=lm_head: torchtune's Gemma LoRA builders cannot adapt the (tied) output projection; it stays frozen in this config");
            }
        } else {
            model.push(("apply_lora_to_output".into(), Y::B(q.targets.contains(T::LmHead))));
        }
        model.push(("lora_rank".into(), i(q.rank)));
        model.push(("lora_alpha".into(), i(ctx.alpha())));
        if module == "gemma" {
            if (ctx.res.lora_dropout - 0.05).abs() > 1e-9 {
                ctx.warn("export-lora-dropout", "lora_dropout: torchtune's Gemma 1 LoRA builders fix it at 0.05");
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
    let dtype = match q.precision {
        Precision::Fp32 => "fp32",
        _ => "bf16",
    };
    if ctx.fp16() {
        ctx.warn(
            "export-precision",
            format!("precision={}: torchtune trains in bf16 or fp32 only; the export uses bf16", q.precision),
        );
    } else if q.precision == Precision::Bf16Mixed {
        ctx.warn("export-precision", "precision=bf16-mixed: torchtune has no mixed precision (no fp32 master weights); dtype bf16 keeps every parameter and optimizer state in bf16");
    }
    let optimizer = match q.optim {
        Optimizer::AdamW => Y::M(vec![("_component_".into(), s("torch.optim.AdamW")), ("fused".into(), Y::B(true))]),
        Optimizer::AdamW8bit => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.AdamW8bit"))]),
        Optimizer::AdamW8bitAo => Y::M(vec![("_component_".into(), s("torchao.optim.AdamW8bit"))]),
        Optimizer::AdamW4bitAo => Y::M(vec![("_component_".into(), s("torchao.optim.AdamW4bit"))]),
        Optimizer::AdamWFp8Ao => Y::M(vec![("_component_".into(), s("torchao.optim.AdamWFp8"))]),
        Optimizer::GaloreAdamW => {
            ctx.warn("export-optim-galore", "optim=galore-adamw: torchtune has no GaLore optimizer; the export uses AdamW, whose full-size states take more memory than estimated");
            Y::M(vec![("_component_".into(), s("torch.optim.AdamW")), ("fused".into(), Y::B(true))])
        }
        Optimizer::PagedAdamW => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.PagedAdamW"))]),
        Optimizer::PagedAdamW8bit => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.PagedAdamW8bit"))]),
        Optimizer::Adafactor => Y::M(vec![("_component_".into(), s("torch.optim.Adafactor"))]),
        Optimizer::Sgd => Y::M(vec![("_component_".into(), s("torch.optim.SGD"))]),
        Optimizer::SgdMomentum => {
            Y::M(vec![("_component_".into(), s("torch.optim.SGD")), ("momentum".into(), Y::F(0.9))])
        }
        Optimizer::Lion => Y::M(vec![("_component_".into(), s("bitsandbytes.optim.Lion"))]),
    };
    let loss = match ctx.res.loss {
        Loss::Chunked => "torchtune.modules.loss.CEWithChunkedOutputLoss",
        Loss::FusedLinear => {
            ctx.warn("export-loss-fused-linear", "loss=fused-linear: torchtune has no fused linear cross-entropy kernel; the export uses its chunked loss, which holds every chunk's fp32 log-probabilities (more memory than estimated)");
            "torchtune.modules.loss.CEWithChunkedOutputLoss"
        }
        Loss::Standard => "torch.nn.CrossEntropyLoss",
    };
    // D1 of the export check (docs/frameworks.md): the shipped configs point at the *Instruct*
    // download folder (torchtune v0.6.1 recipes/configs/llama3_1/8B_lora_single_device.yaml:
    // `checkpoint_dir: /tmp/Meta-Llama-3.1-8B-Instruct/`, `tokenizer.path:
    // /tmp/Meta-Llama-3.1-8B-Instruct/original/tokenizer.model`), while launch.sh downloads
    // the base repo to /tmp/<name>. The config's own advice is to override
    // `checkpointer.checkpoint_dir=<YOUR_CHECKPOINT_DIR>`: the export does, with the tokenizer
    // file(s), and with the shard names, model_type and tokenizer builder when the config is
    // another model's (a fallback above).
    let download_dir = format!("/tmp/{}", ctx.model().rsplit('/').next().unwrap_or("model"));
    let own_config = base.starts_with(&format!("{dir}/{size}_"));
    let ckpt = tm.and_then(|_| torchtune_checkpoint(ctx.preset));
    let mut tokenizer: Vec<(String, Y)> = Vec::new();
    let mut checkpointer: Vec<(String, Y)> = Vec::new();
    if let Some(c) = &ckpt {
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
    tokenizer.push(("max_seq_len".into(), i(q.seq)));
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
        ("optimizer".into(), optimizer),
        ("loss".into(), Y::M(vec![("_component_".into(), s(loss))])),
        ("dtype".into(), s(dtype)),
        ("enable_activation_checkpointing".into(), Y::B(ctx.ckpt_on())),
        ("enable_activation_offloading".into(), Y::B(ctx.res.act_offload)),
        ("optimizer_in_bwd".into(), Y::B(q.optim_in_bwd)),
        ("compile".into(), Y::B(ctx.res.compile)),
    ]);
    if q.epochs.fract() != 0.0 {
        ctx.warn(
            "export-epochs",
            format!(
                "epochs={}: torchtune counts whole epochs; the export rounds up (cap steps with max_steps_per_epoch)",
                q.epochs
            ),
        );
    }
    if distributed {
        top.push(("fsdp_cpu_offload".into(), Y::B(q.offload == Offload::All)));
        match q.shard {
            ShardingStrategy::Zero3 | ShardingStrategy::Fsdp => {}
            ShardingStrategy::Zero2 => {
                // FSDP2 keeping parameters gathered after forward ≈ ZeRO-2 during the step.
                top.push(("fsdp_reshard_after_forward".into(), Y::B(false)));
                ctx.warn("export-sharding", "shard=zero2: torchtune's distributed recipes always use FSDP; reshard_after_forward=False is the nearest (parameters stay gathered between forward and backward)");
            }
            s => ctx.warn("export-sharding", format!("shard={s}: torchtune's distributed recipes always shard parameters, gradients and optimizer (FSDP); memory will be lower than estimated")),
        }
        if q.offload == Offload::Optimizer {
            ctx.warn("export-offload", "offload=optimizer: torchtune's distributed recipes offload parameters, gradients and optimizer together (fsdp_cpu_offload) or nothing; the export offloads nothing");
        }
    } else if q.offload != Offload::None {
        ctx.warn("export-offload", format!("offload={}: torchtune's single-device recipes do not offload model states; the export offloads nothing", q.offload));
    }
    if ctx.res.attn == Attention::Eager {
        ctx.warn(
            "export-attn",
            "attn=eager: torchtune always uses scaled_dot_product_attention; the export cannot select eager attention",
        );
    }
    let y = yaml(&top);
    // Dotted overrides for `tune run`, from the same entries.
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
    flatten("", &top, &mut dotted);
    let launcher = if distributed {
        let mut l = format!("tune run --nproc_per_node {}", ctx.gpus_per_node());
        if q.nodes > 1 {
            l += &format!(" --nnodes {}", q.nodes);
        }
        l
    } else {
        "tune run".into()
    };
    let mut shl = format!("#!/usr/bin/env bash\n# {}\nset -euo pipefail\n", origin(&q));
    shl += &format!("# {TORCHAO_PIN}\n");
    // Llama 3.x repos carry Meta's consolidated weights in original/ besides the safetensors the
    // HF checkpointer reads; the shipped configs skip them the same way (llama3_1/8B_lora_single_device.yaml:
    // `--ignore-patterns "original/consolidated.00.pth"`). The tokenizer in original/ is kept.
    let skip = match &ckpt {
        Some(c) if c.tokenizer_component.ends_with("llama3_tokenizer") && c.subdir.is_empty() => {
            " --ignore-patterns 'original/consolidated*'"
        }
        _ => "",
    };
    shl += &format!("# tune download {} --output-dir {download_dir}{skip}\n", ctx.model());
    shl += &format!("{launcher} {recipe} --config {base} \\\n");
    shl += &dotted.iter().map(|d| format!("  {}", sh(d))).collect::<Vec<_>>().join(" \\\n");
    shl.push('\n');
    vec![file("torchtune_overrides.yaml", "yaml", y), file("launch.sh", "shell", shl)]
}

// ---------------------------------------------------------------------------------------------
// litgpt.
// ---------------------------------------------------------------------------------------------

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

fn litgpt(ctx: &mut Ctx) -> Vec<ExportFile> {
    use TargetModule as T;
    ctx.common_warnings();
    let q = ctx.q.clone();
    let model = match litgpt_model(ctx.preset, ctx.model) {
        Some(m) => m,
        None => {
            if ctx.model.is_some() {
                ctx.warn(
                    "export-litgpt-model",
                    format!(
                        "model {}: not in litgpt's supported checkpoints; the command names it anyway",
                        ctx.preset.unwrap_or("?")
                    ),
                );
            }
            ctx.model()
        }
    };
    let cmd = match q.method {
        Method::Full => "finetune_full",
        Method::Adapter => "finetune_adapter",
        Method::Freeze => {
            ctx.warn(
                "framework-method",
                "method=freeze: litgpt has no train-last-layers recipe; the command is a full fine-tune",
            );
            "finetune_full"
        }
        Method::Dora => {
            ctx.warn(
                "export-dora",
                "method=dora: litgpt has no DoRA; the command runs plain LoRA (magnitude vectors not trained)",
            );
            "finetune_lora"
        }
        Method::Prefix | Method::Prompt => {
            ctx.warn(
                "export-method",
                format!(
                    "method={}: litgpt has no {} tuning; the command runs LoRA at rank {}",
                    q.method, q.method, q.rank
                ),
            );
            "finetune_lora"
        }
        _ => "finetune_lora",
    };
    let mut flags: Vec<(String, String)> = Vec::new();
    let mut f = |k: &str, v: String| flags.push((k.to_string(), v));
    f("--devices", ctx.gpus_per_node().to_string());
    if q.nodes > 1 {
        f("--num_nodes", q.nodes.to_string());
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
        ctx.warn("export-precision", format!("precision={}: litgpt refuses --quantize with mixed precision; the command uses {}-true (adapters and optimizer states in 16-bit, less memory than estimated)", q.precision, if ctx.bf16() { "bf16" } else { "16" }));
    }
    let precision = match (quantized, precision) {
        (true, "bf16-mixed") => "bf16-true",
        (true, "16-mixed") => "16-true",
        (_, p) => p,
    };
    f("--precision", precision.into());
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
        f("--quantize", qz.into());
        if q.gpus > 1 {
            ctx.warn(
                "export-quantize-multi-gpu",
                "QLoRA on several GPUs: litgpt's finetune_lora refuses --quantize with more than one device",
            );
        }
    }
    if cmd == "finetune_lora" {
        f("--lora_r", q.rank.to_string());
        f("--lora_alpha", ctx.alpha().to_string());
        f("--lora_dropout", fmt_float(ctx.res.lora_dropout));
        f("--lora_query", q.targets.contains(T::Q).to_string());
        f("--lora_key", q.targets.contains(T::K).to_string());
        f("--lora_value", q.targets.contains(T::V).to_string());
        f("--lora_projection", q.targets.contains(T::O).to_string());
        let mlp_n = [T::Gate, T::Up, T::Down].iter().filter(|t| q.targets.contains(**t)).count();
        f("--lora_mlp", (mlp_n > 0).to_string());
        f("--lora_head", q.targets.contains(T::LmHead).to_string());
        if mlp_n > 0 && mlp_n < 3 {
            ctx.warn(
                "export-targets-mlp",
                "targets: litgpt's --lora_mlp adapts every MLP projection together; the command adapts all of them",
            );
        }
        if q.targets.contains(T::Embed) {
            ctx.warn(
                "export-targets-embed",
                "targets=embed: litgpt's LoRA cannot train the embedding; it stays frozen",
            );
        }
    }
    let global = q.batch as u64 * q.ga as u64 * ctx.dp() as u64;
    f("--train.micro_batch_size", q.batch.to_string());
    f("--train.global_batch_size", global.to_string());
    f("--train.max_seq_length", q.seq.to_string());
    f("--train.epochs", (q.epochs.ceil() as u64).to_string());
    let optim = match q.optim {
        Optimizer::AdamW => "AdamW",
        Optimizer::AdamW8bit => "bitsandbytes.optim.AdamW8bit",
        Optimizer::AdamW8bitAo => "torchao.optim.AdamW8bit",
        Optimizer::AdamW4bitAo => "torchao.optim.AdamW4bit",
        Optimizer::AdamWFp8Ao => "torchao.optim.AdamWFp8",
        Optimizer::GaloreAdamW => {
            ctx.warn("export-optim-galore", "optim=galore-adamw: litgpt has no GaLore optimizer; the export uses AdamW, whose full-size states take more memory than estimated");
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
            ctx.warn("export-optimizer", format!("optim={}: with --quantize litgpt always uses bitsandbytes PagedAdamW (32-bit states); the command names AdamW", q.optim));
        }
        f("--optimizer", "AdamW".into());
    } else if q.optim == Optimizer::SgdMomentum {
        // A string names the class only; arguments need the class_path/init_args form that
        // instantiate_torch_optimizer (litgpt/utils.py) reads.
        f("--optimizer.class_path", "torch.optim.SGD".into());
        f("--optimizer.init_args.momentum", "0.9".into());
    } else {
        f("--optimizer", optim.into());
    }
    // What litgpt decides itself, and what it cannot do.
    if q.gpus > 1 && !matches!(q.shard, ShardingStrategy::Fsdp | ShardingStrategy::Zero3) {
        ctx.warn("export-sharding", format!("shard={}: litgpt trains on several devices with FSDP full sharding only; memory will be lower than estimated", q.shard));
    }
    if q.offload != Offload::None {
        ctx.warn(
            "export-offload",
            format!("offload={}: litgpt's finetune commands have no CPU offload flag; nothing is offloaded", q.offload),
        );
    }
    if ctx.ckpt_on() && q.gpus == 1 {
        ctx.warn("export-ckpt", "activation checkpointing: litgpt turns it on only with FSDP (several devices); on one device it has no flag, so activations are kept");
    }
    if !ctx.ckpt_on() && q.gpus > 1 {
        ctx.warn("export-ckpt", "ckpt=none: litgpt's FSDP strategy checkpoints every Block on several devices; activations will be lower than estimated");
    }
    if ctx.res.packing {
        ctx.warn("export-packing", "packing=1: litgpt has no sequence packing; batches are padded");
    }
    if q.compile == Some(true) {
        ctx.warn("export-compile", "compile=1: litgpt's finetune commands have no compile flag");
    }
    let mut shl = format!("#!/usr/bin/env bash\n# {}\nset -euo pipefail\n", origin(&q));
    shl += &format!("litgpt download {}\n", sh(model));
    shl += &format!("litgpt {cmd} {} \\\n", sh(model));
    shl += &flags.iter().map(|(k, v)| format!("  {k} {}", sh(v))).collect::<Vec<_>>().join(" \\\n");
    shl.push('\n');
    vec![file("finetune.sh", "shell", shl)]
}

// ---------------------------------------------------------------------------------------------
// Axolotl.
// ---------------------------------------------------------------------------------------------

fn axolotl(ctx: &mut Ctx) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let q = ctx.q.clone();
    let mut top: Vec<(String, Y)> = vec![
        comment(origin(&q)),
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
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => {
            let (targets, note) = ctx.naming.peft_targets(&q);
            if let Some(n) = note { ctx.warn("export-targets-fused", n); }
            // Axolotl's "qlora" adapter is LoRA on a 4-bit model; int8 bases use "lora".
            let adapter = if q.method == Method::Qlora && q.quant != Quant::Int8 { "qlora" } else { "lora" };
            top.push(("adapter".into(), s(adapter)));
            top.push(("lora_r".into(), i(q.rank)));
            top.push(("lora_alpha".into(), i(ctx.alpha())));
            top.push(("lora_dropout".into(), Y::F(ctx.res.lora_dropout)));
            top.push(("lora_target_modules".into(), strs(&targets)));
            let full = ctx.naming.full_modules(&q);
            if !full.is_empty() { top.push(("lora_modules_to_save".into(), strs(&full))); }
            if q.method == Method::Dora { top.push(("peft_use_dora".into(), Y::B(true))); }
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
        Method::Freeze => {
            let l = ctx.arch.layers as i64;
            let first = (l - q.train_layers as i64).max(0);
            let prefix = match ctx.naming { Naming::Gpt2 | Naming::QwenV1 => "transformer.h", Naming::Bert => "bert.encoder.layer", _ => "model.layers" };
            let pats: Vec<Y> = (first..l).map(|n| s(format!("{prefix}.{n}.*"))).collect();
            top.push(("unfrozen_parameters".into(), Y::L(pats)));
        }
        Method::Full => {}
        m => ctx.warn("framework-method", format!("method={m}: Axolotl has no {m} adapter; the config has no adapter section, so it would train every weight; change method or framework")),
    }
    top.extend([
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
    ]);
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
    if q.precision == Precision::Bf16True {
        // Axolotl loads the model in bf16 when bf16 is on; "true" precision also keeps the
        // trainable weights and optimizer states in bf16 (no fp32 upcast of trainables).
        top.push(("bfloat16".into(), Y::B(true)));
    }
    let mut files = Vec::new();
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
    top.push(("output_dir".into(), s("./outputs/out")));
    files.push(file("axolotl.yaml", "yaml", yaml(&top)));
    if let Some(j) = deepspeed_json(ctx) {
        files.push(file("ds_config.json", "json", j));
    }
    files
}

// ---------------------------------------------------------------------------------------------
// LLaMA-Factory.
// ---------------------------------------------------------------------------------------------

fn llama_factory(ctx: &mut Ctx) -> Vec<ExportFile> {
    trainer_warnings(ctx);
    let q = ctx.q.clone();
    if q.precision == Precision::Bf16True && ctx.zero_stage() == Some(3) {
        ctx.warn("export-precision", "precision=bf16-true with ZeRO-3: LLaMA-Factory rejects pure_bf16 under DeepSpeed ZeRO-3, so the config trains with bf16 autocast (bf16: true) and DeepSpeed's bf16 mode instead");
    }
    let mut top: Vec<(String, Y)> = vec![
        comment(origin(&q)),
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
    match q.method {
        Method::Lora | Method::Qlora | Method::Dora => {
            let (targets, note) = ctx.naming.peft_targets(&q);
            if let Some(n) = note {
                ctx.warn("export-targets-fused", n);
            }
            top.push(("finetuning_type".into(), s("lora")));
            top.push(("lora_rank".into(), i(q.rank)));
            top.push(("lora_alpha".into(), i(ctx.alpha())));
            top.push(("lora_dropout".into(), Y::F(ctx.res.lora_dropout)));
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
            ctx.warn(
                "framework-method",
                format!("method={m}: LLaMA-Factory has no {m} tuning; the config runs LoRA at rank {} instead", q.rank),
            );
            top.push(("finetuning_type".into(), s("lora")));
            top.push(("lora_rank".into(), i(q.rank)));
            top.push(("lora_target".into(), s("all")));
        }
    }
    // LLaMA-Factory 0.9.5 hparams/data_args.py:38-40: dataset names are looked up in
    // <dataset_dir>/dataset_info.json (data/parser.py:113), dataset_dir defaulting to "data",
    // which exists only in a source checkout; after `pip install llamafactory` the lookup fails.
    // Both are written, with a fill-in comment, as the other exports mark their dataset.
    top.extend([
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
        ("bf16".into(), Y::B(ctx.bf16())),
        ("fp16".into(), Y::B(q.precision == Precision::Fp16Mixed)),
        // pure_bf16: train in bf16 without fp32 master weights ("bf16-true").
        // LLaMA-Factory rejects pure_bf16 with DeepSpeed ZeRO-3 (hparams/parser.py).
        ("pure_bf16".into(), Y::B(q.precision == Precision::Bf16True && ctx.zero_stage() != Some(3))),
        ("disable_gradient_checkpointing".into(), Y::B(!ctx.ckpt_on())),
        ("torch_compile".into(), Y::B(ctx.res.compile)),
    ]);
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

// ---------------------------------------------------------------------------------------------
// Unsloth.
// ---------------------------------------------------------------------------------------------

fn unsloth(ctx: &mut Ctx) -> Vec<ExportFile> {
    ctx.common_warnings();
    let q = ctx.q.clone();
    if q.method == Method::Qlora && q.quant == Quant::Fp4 {
        ctx.warn("export-quant", "quant=fp4: Unsloth loads 4-bit models as NF4 only; the export uses NF4");
    }
    if q.method == Method::Qlora && !q.double_quant && q.quant != Quant::Int8 {
        ctx.warn("export-double-quant", "dq=0: Unsloth's 4-bit loading always uses double quantization");
    }
    if q.method == Method::Dora {
        ctx.warn(
            "export-dora",
            "method=dora: Unsloth's fast LoRA kernels do not cover DoRA; the export runs plain LoRA",
        );
    }
    if q.method == Method::Freeze {
        ctx.warn(
            "export-method",
            "method=freeze: Unsloth has no train-last-layers mode; the export is a full fine-tune",
        );
    }
    if matches!(q.method, Method::Prefix | Method::Prompt | Method::Adapter) {
        let msg = format!(
            "method={}: Unsloth trains LoRA or full weights only; the export runs LoRA at rank {}",
            q.method, q.rank
        );
        ctx.warn("export-method", msg);
    }
    if q.offload != Offload::None {
        ctx.warn(
            "export-offload",
            format!(
                "offload={}: Unsloth offloads activations (use_gradient_checkpointing=\"unsloth\"), not model states",
                q.offload
            ),
        );
    }
    if ctx.res.attn == Attention::Eager {
        ctx.warn("export-attn", "attn=eager: Unsloth picks its own attention kernels (flash or xformers)");
    }
    if q.precision == Precision::Fp32 {
        ctx.warn("export-precision", "precision=fp32: Unsloth trains in bf16 or fp16; the export loads float32 anyway");
    }
    let mut py = String::new();
    let push = |py: &mut String, line: &str| {
        py.push_str(line);
        py.push('\n');
    };
    push(&mut py, &format!("# {}", origin(&q)));
    push(&mut py, "# Unsloth must be imported before transformers/trl/peft to patch them.");
    push(&mut py, "from unsloth import FastLanguageModel");
    push(&mut py, "import torch");
    push(&mut py, "from trl import SFTConfig, SFTTrainer");
    push(&mut py, "");
    push(&mut py, &format!("MAX_SEQ_LENGTH = {}", q.seq));
    let dtype = match q.precision {
        Precision::Fp32 => "torch.float32",
        Precision::Fp16Mixed | Precision::Fp16True => "torch.float16",
        _ => "torch.bfloat16",
    };
    let four = q.method == Method::Qlora && q.quant != Quant::Int8;
    let eight = q.method == Method::Qlora && q.quant == Quant::Int8;
    let full = matches!(q.method, Method::Full | Method::Freeze);
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
    push(&mut py, &format!(
        "model, tokenizer = FastLanguageModel.from_pretrained(\n    model_name={},\n    max_seq_length=MAX_SEQ_LENGTH,\n    dtype={dtype},\n    load_in_4bit={},\n    load_in_8bit={},\n    full_finetuning={},\n    use_gradient_checkpointing={gc},\n)",
        json_str(ctx.model()), py_bool(four), py_bool(eight), py_bool(full)));
    if !full {
        let (targets, note) = ctx.naming.peft_targets(&q);
        if let Some(n) = note {
            ctx.warn("export-targets-fused", n);
        }
        let mut all: Vec<&str> = targets.clone();
        all.extend(ctx.naming.full_modules(&q));
        push(&mut py, &format!(
            "model = FastLanguageModel.get_peft_model(\n    model,\n    r={},\n    target_modules={},\n    lora_alpha={},\n    lora_dropout={},\n    bias=\"none\",\n    use_gradient_checkpointing={gc},\n    random_state=3407,\n)",
            q.rank, py_list(&all), ctx.alpha(), fmt_float(ctx.res.lora_dropout)));
    }
    push(&mut py, "");
    push(&mut py, "train_dataset = ...  # your dataset with a \"text\" column");
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
    // TRL renamed SFTTrainer's tokenizer argument to processing_class (trl/trainer/sft_trainer.py).
    push(&mut py, &format!("trainer = SFTTrainer(\n    model=model,\n    processing_class=tokenizer,\n    train_dataset=train_dataset,\n    args=SFTConfig(\n        {},\n    ),\n)", args.join(",\n        ")));
    push(&mut py, "trainer.train()");
    vec![file("train_unsloth.py", "python", py)]
}
