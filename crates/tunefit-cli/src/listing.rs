//! `tunefit gpus` and `tunefit offers`: the bundled dataset as a table or JSON.
use std::io::Write;
use std::process::ExitCode;

/// Prints a line, ignoring a closed pipe (`tunefit offers | head`).
macro_rules! out { ($($t:tt)*) => { let _ = writeln!(std::io::stdout().lock(), $($t)*); } }
use tunefit_core::{dataset, Query};

fn opt(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:.0}"))
}

pub fn gpus(json: bool) -> ExitCode {
    let all = dataset::gpus();
    if json {
        out!("{}", serde_json::to_string_pretty(all).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    out!(
        "{:<15} {:<26} {:>7} {:<7} {:>6} {:>6} {:>6} {:>6} {:>6} {:>5}  {:<15} {:<10}",
        "id",
        "name",
        "GiB",
        "memory",
        "GB/s",
        "bf16",
        "fp16",
        "fp8",
        "int8",
        "W",
        "fabric",
        "class"
    );
    for g in all {
        out!(
            "{:<15} {:<26} {:>7.0} {:<7} {:>6.0} {:>6} {:>6} {:>6} {:>6} {:>5}  {:<15} {:<10}",
            g.id,
            g.name.chars().take(26).collect::<String>(),
            g.vram_bytes as f64 / (1u64 << 30) as f64,
            g.memory_type,
            g.mem_bandwidth_gb_s,
            opt(g.bf16_tflops),
            opt(g.fp16_tflops),
            opt(g.fp8_tflops),
            opt(g.int8_tops),
            opt(g.tdp_w),
            format!("{:?} {:.0}", g.fabric, g.fabric_gb_s).to_lowercase(),
            format!("{:?}", g.class).to_lowercase()
        );
    }
    ExitCode::SUCCESS
}

/// Lists offers, filtered by the `provider` and `gpu` keys of an optional query string.
pub fn offers(json: bool, query: Option<&str>) -> ExitCode {
    let q = match Query::parse_given(query.unwrap_or("")) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("tunefit: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = tunefit_core::advice::validate(&q) {
        eprintln!("tunefit: {e}");
        return ExitCode::from(2);
    }
    let list: Vec<&dataset::Offer> = dataset::offers()
        .iter()
        .filter(|o| q.provider.as_deref().is_none_or(|p| p == o.provider))
        .filter(|o| q.gpu.as_deref().is_none_or(|g| g == o.gpu))
        .collect();
    if json {
        out!("{}", serde_json::to_string_pretty(&list).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    out!(
        "{:<44} {:<14} {:<15} {:>3} {:>9} {:>9} {:>9}  {:<10} {:<6}",
        "id",
        "provider",
        "gpu",
        "n",
        "$/h",
        "spot $/h",
        "$/GPU-h",
        "date",
        "conf"
    );
    for o in list {
        let p = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.2}"));
        out!(
            "{:<44} {:<14} {:<15} {:>3} {:>9} {:>9} {:>9}  {:<10} {:<6}",
            o.id,
            o.provider,
            o.gpu,
            o.count,
            p(o.on_demand_usd_h),
            p(o.spot_usd_h),
            p(o.usd_per_gpu_hour()),
            o.snapshot_date,
            o.confidence
        );
    }
    ExitCode::SUCCESS
}
