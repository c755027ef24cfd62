//! Config export: the current configuration as a ready-to-run snippet in one framework's format.
//!
//! Each framework gets its own vocabulary (docs/frameworks.md, "Config export", names the
//! files and versions the key names were read from): Transformers + PEFT as Python with an
//! accelerate FSDP or DeepSpeed config, torchtune as YAML overrides plus a `tune run` line,
//! litgpt as CLI flags, Axolotl and LLaMA-Factory as YAML, Unsloth as Python.
//!
//! The export states what tunefit assumed: settings the person left unset are written with the
//! framework profile's resolved value (`Settings::resolve`), so the run matches the estimate.
//! A setting the framework cannot express is never dropped silently: it becomes a `Note`
//! that names it, rendered as a `Notice` in the language asked for.
//!
//! One file per job: `context.rs` (the state an export is written from, shared notices),
//! `notes.rs` (every note, its figures as fields, and its English and Russian sentences),
//! `models.rs` (repo ids and module names), `emit.rs` (YAML, Python and shell writers),
//! `trainer.rs` (what the Trainer-based exports share), then one file per framework.

mod axolotl;
mod context;
mod emit;
mod hf;
mod hf_image;
mod hf_sam;
mod hf_speech;
mod litgpt;
mod llama_factory;
mod models;
mod notes;
mod torchtune;
mod trainer;
mod unsloth;

use crate::diag::{Error, Lang};
use crate::framework;
use crate::query::{Framework, Query};
use context::Ctx;
use models::{model_id, naming};
use serde::Serialize;

pub use notes::Note;

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
    pub warnings: Vec<Notice>,
}

/// A note of an export as the person reads it: its stable code and its sentence (`Note`
/// rendered in one language).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Notice {
    pub code: String,
    pub message: String,
}

/// Every framework an export can target, "a|b|c", for error messages.
pub fn accepted() -> String {
    Framework::accepted()
}

/// Exports `q` for `fw` (the query's own `framework` key is replaced by `fw`, so profile
/// defaults are those of the framework exported to), its notices in English.
pub fn export(q: &Query, fw: Framework) -> Result<ConfigExport, Error> {
    export_in(q, fw, Lang::En)
}

/// `export` with its notices in `lang`: each note is rendered from its own figures, so the
/// files and codes are the same in every language and only the sentences differ.
pub fn export_in(q: &Query, fw: Framework, lang: Lang) -> Result<ConfigExport, Error> {
    let mut q = q.clone();
    q.framework = fw;
    // The same validation as the estimate: an export of an impossible configuration is an error.
    let settings = crate::settings::Settings::resolve(&q)?;
    crate::memory::estimate(&settings)?;
    // Said here, not among the estimate's refusals: its words stay in the lazily loaded module.
    if settings.arch.layout.image.is_some() && fw != Framework::Hf {
        return Err(Error::invalid("framework", notes::image_encoder_only_hf(fw, lang)));
    }
    // Unsloth trains Whisper through its own FastModel notebook, which an export does not
    // write: the Seq2SeqTrainer script is Whisper's export (the estimate refuses the others).
    if settings.arch.layout.speech.is_some() && fw != Framework::Hf {
        return Err(Error::invalid("framework", notes::speech_only_hf(fw, lang)));
    }
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
    for w in framework::unsupported(&ctx.q) {
        ctx.warn(Note::Profile(w));
    }
    if ctx.model.is_none() {
        ctx.warn(Note::ModelPlaceholder);
    }
    let files = match fw {
        Framework::Hf => hf::files(&mut ctx),
        Framework::Torchtune => torchtune::files(&mut ctx),
        Framework::Litgpt => litgpt::files(&mut ctx),
        Framework::Axolotl => axolotl::files(&mut ctx),
        Framework::LlamaFactory => llama_factory::files(&mut ctx),
        Framework::Unsloth => unsloth::files(&mut ctx),
    };
    let warnings = ctx.warnings.iter().map(|n| Notice { code: n.code().into(), message: n.text(lang) }).collect();
    Ok(ConfigExport { framework: fw, files, warnings })
}

/// The lazily loaded exporter's job (crates/tunefit-export, a second wasm the page fetches
/// once it is idle after its first figures): a query string and a framework name in,
/// the export as JSON out — `ConfigExport` as serialized, or `{"error": "..."}` with the
/// message the page shows. The query is parsed strictly, as `tunefit export` parses it, so the
/// page's files equal the CLI's for the same query. Notices in English.
pub fn export_json(query: &str, framework: &str) -> String {
    export_json_in(query, framework, Lang::En)
}

/// `export_json` with the notices and the refusals in `lang` (the page asks in its own
/// language).
pub fn export_json_in(query: &str, framework: &str, lang: Lang) -> String {
    let result = match (Query::parse(query), Framework::parse(framework)) {
        (Err(e), _) => Err(crate::diag::Error::from(e).text(lang)),
        (_, None) => Err(format!("framework: '{framework}' is not one of {}", accepted())),
        (Ok(q), Some(fw)) => export_in(&q, fw, lang).map_err(|e| e.text(lang)),
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
        .map(|w| Ok(Notice { code: s(w, "code")?, message: s(w, "message")? }))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(ConfigExport { framework, files, warnings })
}

/// Stands in for the model id of a custom or inferred architecture.
pub const PLACEHOLDER: &str = "YOUR-ORG/YOUR-MODEL";
