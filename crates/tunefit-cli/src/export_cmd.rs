//! `tunefit export --framework X '<query>'`: the configuration as files in X's own format.
//!
//! Each file is printed after a header line `==> NAME (LANGUAGE) <==`; warnings (settings the
//! framework cannot express) go to stderr so the files can be piped. `--json` prints the whole
//! `ConfigExport`. An unknown framework is an error listing the accepted ones (exit 2).

use std::io::Write;
use std::process::ExitCode;
use tunefit_core::export::{accepted, export};
use tunefit_core::query::Framework;
use tunefit_core::Query;

pub const USAGE: &str =
    "tunefit export --framework hf|torchtune|litgpt|unsloth|axolotl|llama-factory [--json] '<query>'";

/// `args` are the words after `export`.
pub fn run(args: &[String]) -> ExitCode {
    let mut json = false;
    let mut framework: Option<String> = None;
    let mut query: Option<&str> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--json" {
            json = true;
        } else if a == "--framework" {
            match it.next() {
                Some(v) => framework = Some(v.clone()),
                None => return fail(&format!("--framework needs a value; accepted: {}", accepted())),
            }
        } else if let Some(v) = a.strip_prefix("--framework=") {
            framework = Some(v.to_string());
        } else if a.starts_with("--") {
            return fail(&format!("unknown option {a}; usage: {USAGE}"));
        } else if query.is_none() {
            query = Some(a);
        } else {
            return fail(&format!("one query expected, got another: {a}"));
        }
    }
    let q = match Query::parse_given(query.unwrap_or("")) {
        Ok(q) => q,
        Err(e) => return fail(&e.to_string()),
    };
    // Without --framework, the query's own `framework` key (default hf) decides.
    let fw = match framework.as_deref() {
        None => q.framework,
        Some(name) => match Framework::parse(name) {
            Some(f) => f,
            None => return fail(&format!("framework: '{name}' is not one of {}", accepted())),
        },
    };
    let e = match export(&q, fw) {
        Ok(e) => e,
        Err(e) => return fail(&e.to_string()),
    };
    let mut out = std::io::stdout().lock();
    // Writes ignore a closed pipe (`tunefit export ... | head`) instead of panicking.
    if json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&e).unwrap_or_default());
    } else {
        for (n, f) in e.files.iter().enumerate() {
            if n > 0 {
                let _ = writeln!(out);
            }
            let _ = writeln!(out, "==> {} ({}) <==", f.name, f.language);
            let _ = write!(out, "{}", f.content);
            if !f.content.ends_with('\n') {
                let _ = writeln!(out);
            }
        }
        for w in &e.warnings {
            eprintln!("warning [{}]: {}", w.code, w.message);
        }
    }
    ExitCode::SUCCESS
}

fn fail(message: &str) -> ExitCode {
    eprintln!("tunefit: {message}");
    ExitCode::from(2)
}
