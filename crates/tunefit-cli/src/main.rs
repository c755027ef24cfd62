//! `tunefit`: the command-line front end of tunefit-core (same query format as the page).
// No function over 100 lines (clippy.toml): a longer one is split into its steps.
#![warn(clippy::too_many_lines)]

mod diffusion;
mod export_cmd;
mod listing;
mod readable;

use std::process::ExitCode;
use tunefit_core::report::{evaluate_for_cli, with_fixes};
use tunefit_core::{evaluate_with_timeline, Query};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if args.first().map(|s| s.as_str()) == Some("export") {
        return export_cmd::run(&args[1..]);
    }
    match rest.first().map(|s| s.as_str()) {
        Some("estimate") => estimate(&args, &rest, json),
        Some("plan") => {
            let Some(q) = query_arg(&rest) else { return ExitCode::from(2) };
            match tunefit_core::plan::plan(&q) {
                Ok(plans) if json => {
                    use std::io::Write;
                    let _ = writeln!(
                        std::io::stdout(),
                        "{}",
                        serde_json::to_string_pretty(&serde_json::json!({ "plans": plans })).unwrap_or_default()
                    );
                }
                Ok(plans) => {
                    use std::io::Write;
                    let _ = write!(std::io::stdout(), "{}", readable::plans(&plans));
                }
                Err(e) => {
                    eprintln!("tunefit: {e}");
                    return ExitCode::from(2);
                }
            }
            ExitCode::SUCCESS
        }
        Some("calibrate") => {
            // The run's log on standard input, its configuration as the query.
            let Some(q) = query_arg(&rest) else { return ExitCode::from(2) };
            let mut log = String::new();
            if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut log) {
                eprintln!("tunefit: reading the log: {e}");
                return ExitCode::from(2);
            }
            if args.iter().any(|a| a == "--case") {
                return match tunefit_core::calibrate::measured_cases(
                    &q,
                    &log,
                    "a person's run (add where the log came from)",
                ) {
                    Ok(v) => {
                        use std::io::Write;
                        let _ = writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&v).unwrap_or_default());
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("tunefit: {e}");
                        ExitCode::from(2)
                    }
                };
            }
            match tunefit_core::calibrate::calibrate(&q, &log) {
                Ok(c) if json => {
                    use std::io::Write;
                    let _ = writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&c).unwrap_or_default());
                }
                Ok(c) => {
                    use std::io::Write;
                    let _ = write!(std::io::stdout(), "{}", readable::calibration(&c));
                }
                Err(e) => {
                    eprintln!("tunefit: {e}");
                    return ExitCode::from(2);
                }
            }
            ExitCode::SUCCESS
        }
        Some("gpus") => listing::gpus(json),
        Some("offers") => listing::offers(json, rest.get(1).map(|s| s.as_str())),
        _ => {
            eprintln!("usage: tunefit estimate [--json [--timeline]] [--config=config.json] '<query>' | plan [--json] '<query>' | calibrate [--json|--case] '<query>' < log | gpus [--json] | offers [--json] ['provider=..&gpu=..'] | {}\n(a query is docs/query.md's link format: 'v=2&...' takes today's defaults; without v it is read as v=1)", export_cmd::USAGE);
            ExitCode::from(2)
        }
    }
}

/// The query argument after the command, parsed strictly; its errors go to stderr. With
/// `--config=<file>`, a Hugging Face config.json sets the model (its preset's id when it is
/// exactly one, otherwise the architecture keys), and the query sets the rest.
/// `tunefit estimate '<link>'`: a diffusion model's link goes to its own report.
fn estimate(args: &[String], rest: &[&String], json: bool) -> ExitCode {
    if let Some(q) = rest.get(1).filter(|q| tunefit_core::diffusion::is_diffusion(q)) {
        return diffusion::estimate(q, json);
    }
    let Some(q) = query_arg(rest) else { return ExitCode::from(2) };
    // The allocator replay's timeline: always in the text, in the JSON with --timeline
    // (the page's JSON download leaves it out, and equals `--json`).
    let timeline = !json || args.iter().any(|a| a == "--timeline");
    let report = if timeline { evaluate_with_timeline(&q).map(|r| with_fixes(r, &q)) } else { evaluate_for_cli(&q) };
    // Each offer's price dated by the system clock (`stale` in the JSON).
    match report.map(|mut r| {
        r.date_offers(today());
        r
    }) {
        // Writes ignore a closed pipe (`tunefit ... | head`) instead of panicking.
        Ok(r) if json => {
            use std::io::Write;
            let _ = writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&r).unwrap_or_default());
        }
        Ok(r) => {
            use std::io::Write;
            let _ = write!(std::io::stdout(), "{}", readable::render(&r));
        }
        Err(e) => {
            eprintln!("tunefit: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

fn query_arg(rest: &[&String]) -> Option<Query> {
    let mut q = match Query::parse_given(rest.get(1).map(|s| s.as_str()).unwrap_or("")) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("tunefit: {e}");
            return None;
        }
    };
    if let Some(path) = std::env::args().find_map(|a| a.strip_prefix("--config=").map(str::to_string)) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("tunefit: reading {path}: {e}");
                return None;
            }
        };
        let link = match tunefit_core::hfconfig::config_link(&text) {
            Ok((_, l)) => l,
            Err(e) => {
                eprintln!("tunefit: {path}: {e}");
                return None;
            }
        };
        if let Err(e) = tunefit_core::hfconfig::apply_link(&mut q, &link) {
            eprintln!("tunefit: {path}: {e}");
            return None;
        }
    }
    Some(q)
}

/// Today as days since 1970-01-01, by the system clock: what dates the offers' prices.
fn today() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() / 86_400.0)
}
