//! Calibration from a run: the figures a framework's log prints, read back and set beside the
//! estimate of the same configuration. Lines recognised (each format from the code that
//! prints it):
//! - torchtune `log_memory_stats` (torchtune/training/memory.py): "GPU peak memory allocation:
//!   6.21 GiB", "… reserved: …", "… active: …" (older versions: "GB" = 1e9); its metric loggers:
//!   "tokens_per_second_per_gpu:1234.5";
//! - HF Trainer's final log dict: `{'train_runtime': 12.89, 'train_samples_per_second': 37.23,
//!   'train_steps_per_second': 0.388, …}` (transformers Trainer `speed_metrics`), and
//!   `'train_tokens_per_second'` when `include_tokens_per_second` is on;
//! - Unsloth's notebooks: "Peak reserved memory = 9.549 GB." (max_memory_reserved / 1024³);
//! - litgpt: "Memory used: 19.73 GB" (max_memory_allocated / 1e9);
//! - nvidia-smi's table: "21000MiB / 81559MiB" (the first GPU's used memory).
//!
//! A log with none of these is an error saying so, never a guess.

use crate::diag::Lang;
use crate::query::Query;
use crate::report::{evaluate, Error};
use serde::Serialize;
use std::fmt;

/// What the log says, per GPU.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Measured {
    /// Peak memory: the metric the tool reports ("allocated", "reserved", "device"), bytes,
    /// and where it was read.
    pub memory: Vec<(String, u64, String)>,
    pub tokens_per_s_per_gpu: Option<f64>,
    /// All GPUs together (HF Trainer's samples/s is summed over ranks).
    pub samples_per_s: Option<f64>,
    pub step_s: Option<f64>,
}

/// The estimate beside the measurement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    pub measured: Measured,
    /// Per memory figure: metric, measured bytes, predicted bytes, predicted/measured − 1.
    pub memory: Vec<(String, u64, u64, f64)>,
    /// Measured throughput over predicted (1.2: the run was 20 % faster than estimated), and
    /// how it was compared.
    pub speed_ratio: Option<f64>,
    pub speed_basis: SpeedBasis,
    /// The `mfu` at which the time model runs at the measured speed (the estimate's MFU ×
    /// `speed_ratio`, within the key's 0.01…1).
    pub measured_mfu: Option<f64>,
}

/// Which of the log's figures the speed was compared by (none without a speed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SpeedBasis {
    #[default]
    None,
    TokensPerGpu,
    StepTime,
    /// HF Trainer's samples/s, each sample taken at the query's full sequence length.
    Samples,
}

impl SpeedBasis {
    pub fn text(self, lang: Lang) -> &'static str {
        match (lang.built(), self) {
            (_, SpeedBasis::None) => "",
            (Lang::En, SpeedBasis::TokensPerGpu) => "tokens/s per GPU",
            (Lang::En, SpeedBasis::StepTime) => "seconds per optimizer step",
            (Lang::En, SpeedBasis::Samples) => "samples/s × seq (full-length samples assumed)",
            (Lang::Ru, SpeedBasis::TokensPerGpu) => "токенов/с на GPU",
            (Lang::Ru, SpeedBasis::StepTime) => "секунд на шаг оптимизатора",
            (Lang::Ru, SpeedBasis::Samples) => "примеров/с × seq (примеры считаются полной длины)",
        }
    }
}

impl fmt::Display for SpeedBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text(Lang::En))
    }
}

/// The English words: the JSON's `speed_basis` is a string.
impl Serialize for SpeedBasis {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text(Lang::En))
    }
}

/// The number after `key` in `line` (digits, '.', exponent).
fn number_after(line: &str, key: &str) -> Option<f64> {
    let rest = &line[line.find(key)? + key.len()..];
    let rest = rest.trim_start_matches(|c: char| c == ':' || c == '=' || c == '\'' || c == '"' || c.is_whitespace());
    let end =
        rest.find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))).unwrap_or(rest.len());
    rest[..end].parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0)
}

/// Bytes of `value` in the unit that follows it on the line ("GiB", "GB", "MiB", "MB").
fn with_unit(line: &str, key: &str, value: f64) -> u64 {
    let after = &line[line.find(key).map_or(0, |i| i + key.len())..];
    let unit = if after.contains("GiB") {
        1073741824.0
    } else if after.contains("MiB") {
        1048576.0
    } else if after.contains("MB") {
        1e6
    } else {
        1e9
    };
    (value * unit) as u64
}

/// A log with none of the lines this module reads. Its sentences live here, not among the
/// core's refusals, so that they load with the planning panel's module only (the page's own
/// wasm never reads a log).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnreadableLog;

impl UnreadableLog {
    /// What is wrong, and which lines would be read, in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        match lang.built() {
            Lang::En => "no recognised figure in this log: expected torchtune's memory stats or tokens_per_second_per_gpu, HF Trainer's train_samples_per_second/train_steps_per_second, Unsloth's 'Peak reserved memory =', litgpt's 'Memory used:', or an nvidia-smi table",
            Lang::Ru => "в логе нет ни одной знакомой цифры: нужны статистика памяти torchtune или tokens_per_second_per_gpu, train_samples_per_second/train_steps_per_second из HF Trainer, строка Unsloth `Peak reserved memory =`, строка litgpt `Memory used:` или таблица nvidia-smi",
        }
    }

    /// The error `calibrate` and `measured_cases` give: the key `log` and the English.
    pub fn error(self) -> Error {
        Error::invalid("log", self.text(Lang::En))
    }
}

impl fmt::Display for UnreadableLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text(Lang::En))
    }
}

impl std::error::Error for UnreadableLog {}

/// Reads the figures a log prints. An error when it has none of the recognised lines.
pub fn parse_log(text: &str) -> Result<Measured, UnreadableLog> {
    let mut m = Measured::default();
    let mut push = |metric: &str, bytes: u64, what: &str| {
        if !m.memory.iter().any(|(k, _, _)| k == metric) {
            m.memory.push((metric.into(), bytes, what.into()));
        }
    };
    for line in text.lines() {
        for (key, metric, what) in [
            ("GPU peak memory allocation", "allocated", "torchtune peak memory allocation"),
            ("GPU peak memory reserved", "reserved", "torchtune peak memory reserved"),
            ("Peak reserved memory =", "reserved", "Unsloth peak reserved memory (whole process)"),
            ("Memory used:", "allocated", "litgpt memory used (max_memory_allocated)"),
        ] {
            if let Some(v) = number_after(line, key) {
                // Unsloth divides by 1024³ but prints "GB".
                let bytes =
                    if key.starts_with("Peak reserved") { (v * 1073741824.0) as u64 } else { with_unit(line, key, v) };
                push(metric, bytes, what);
            }
        }
        // nvidia-smi: "  21000MiB / 81559MiB  " — the used memory of the first GPU row.
        if let Some(i) = line.find("MiB /") {
            let head = line[..i].trim_end();
            let start = head.rfind(|c: char| !c.is_ascii_digit()).map_or(0, |j| j + 1);
            if let Ok(v) = head[start..].parse::<f64>() {
                push("device", (v * 1048576.0) as u64, "nvidia-smi memory used");
            }
        }
        if m.tokens_per_s_per_gpu.is_none() {
            m.tokens_per_s_per_gpu = number_after(line, "tokens_per_second_per_gpu");
        }
        if m.samples_per_s.is_none() {
            m.samples_per_s = number_after(line, "train_samples_per_second");
        }
        if m.step_s.is_none() {
            m.step_s = number_after(line, "train_steps_per_second").filter(|x| *x > 0.0).map(|x| 1.0 / x);
        }
    }
    if m.memory.is_empty() && m.tokens_per_s_per_gpu.is_none() && m.samples_per_s.is_none() && m.step_s.is_none() {
        return Err(UnreadableLog);
    }
    Ok(m)
}

/// The log's figures beside the estimate of `q` (its `gpu` names the GPU timed).
pub fn calibrate(q: &Query, log: &str) -> Result<Calibration, Error> {
    let measured = parse_log(log).map_err(UnreadableLog::error)?;
    let r = evaluate(q)?;
    let memory = measured
        .memory
        .iter()
        .map(|(metric, bytes, _)| {
            let predicted = match metric.as_str() {
                "allocated" => r.memory.allocated,
                "reserved" => r.memory.reserved,
                _ => r.memory.device,
            };
            (metric.clone(), *bytes, predicted, predicted as f64 / (*bytes).max(1) as f64 - 1.0)
        })
        .collect();
    let (mut speed_ratio, mut speed_basis) = (None, SpeedBasis::None);
    if let Some(t) = &r.time {
        let per_gpu = t.tokens_per_s / t.gpus.max(1) as f64;
        if let Some(m) = measured.tokens_per_s_per_gpu {
            speed_ratio = Some(m / per_gpu);
            speed_basis = SpeedBasis::TokensPerGpu;
        } else if let Some(s) = measured.step_s {
            speed_ratio = Some(t.step_s / s);
            speed_basis = SpeedBasis::StepTime;
        } else if let Some(sps) = measured.samples_per_s {
            // Samples of the query's full sequence length; padded or packed shorter samples
            // make the run look faster than it is.
            speed_ratio = Some(sps / t.samples_per_s);
            speed_basis = SpeedBasis::Samples;
        }
    }
    let measured_mfu = speed_ratio.zip(r.time.as_ref()).map(|(k, t)| (t.mfu * k).clamp(0.01, 1.0));
    Ok(Calibration { measured, memory, speed_ratio, speed_basis, measured_mfu })
}

/// The log's memory figures as cases of the project's measured set (the format of
/// `crates/tunefit-core/tests/data/measured-runs.json`), ready to contribute: the person adds
/// where the log came from and the library versions.
pub fn measured_cases(q: &Query, log: &str, source: &str) -> Result<serde_json::Value, Error> {
    let m = parse_log(log).map_err(UnreadableLog::error)?;
    let query = q.to_query_string();
    let cases: Vec<serde_json::Value> = m
        .memory
        .iter()
        .enumerate()
        .map(|(i, (metric, bytes, what))| {
            serde_json::json!({
                "id": format!("contributed-{}-{}", metric, i + 1),
                "source": source,
                "framework": q.framework.as_str(),
                "versions": "",
                "gpu": q.gpu.clone().unwrap_or_default(),
                "config": format!("as the query says; read from: {what}"),
                "query": query,
                "metric": metric,
                "measured_value": *bytes as f64 / 1073741824.0,
                "measured_unit": "GiB",
                "unit_resolution": "read by tunefit calibrate from the log's own unit",
                "per_gpu": true,
                "trust": "medium (a person's own run)",
                "note": "",
            })
        })
        .collect();
    Ok(serde_json::json!({ "note": "contributed with tunefit calibrate --case", "cases": cases }))
}

/// `measured_cases` as pretty JSON for the page's download, or `{"error": "…"}`.
pub fn measured_cases_json(query: &str, log: &str) -> String {
    measured_cases_json_in(query, log, Lang::En)
}

/// `measured_cases_json` with the error in `lang` (the page's language).
pub fn measured_cases_json_in(query: &str, log: &str, lang: Lang) -> String {
    let err = |m: String| serde_json::json!({ "error": m }).to_string();
    match Query::parse(query) {
        Ok(_) if parse_log(log).is_err() => err(format!("log: {}", UnreadableLog.text(lang))),
        Ok(q) => match measured_cases(&q, log, "") {
            Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_else(|e| err(e.to_string())),
            Err(e) => err(e.text(lang)),
        },
        Err(e) => err(Error::from(e).text(lang)),
    }
}
