//! `tunefit estimate` for a diffusion model's link (tunefit_core::diffusion).

use std::io::Write;
use std::process::ExitCode;
use tunefit_core::diffusion::{evaluate, DiffusionReport};

const GIB: f64 = (1u64 << 30) as f64;

pub fn estimate(query: &str, json: bool) -> ExitCode {
    match evaluate(query) {
        Ok(r) if json => {
            let _ = writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&r).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(r) => {
            let _ = write!(std::io::stdout(), "{}", render(&r));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tunefit: {e}");
            ExitCode::from(2)
        }
    }
}

fn gib(b: u64) -> String {
    format!("{:.2} GiB", b as f64 / GIB)
}

/// The report as text: the verdict first, then where the memory goes.
pub fn render(r: &DiffusionReport) -> String {
    let m = &r.memory;
    let mut out = String::new();
    if let Some(f) = &r.fit {
        out += &format!(
            "{} on {}: {} ({} of {}; the model's band {}–{})\n",
            r.model_name,
            f.gpu,
            f.verdict.as_str(),
            gib(m.device),
            gib(f.vram),
            gib(f.band_low),
            gib(f.band_high)
        );
    }
    for f in &r.fixes {
        out += &format!("  fix {:<34} {} {}  {}\n", f.set, gib(f.device), if f.fits { "fits" } else { "    " }, f.note);
    }
    out += &format!(
        "{}: {} on the device (reserved {}, allocated {}), peak in the {}\n",
        r.model_name,
        gib(m.device),
        gib(m.reserved),
        gib(m.allocated),
        m.peak_phase.as_str()
    );
    for (name, b) in [
        ("weights", m.weights),
        ("text encoders", m.text_encoders),
        ("VAE", m.vae),
        ("adapters", m.adapters),
        ("gradients", m.gradients),
        ("optimizer", m.optimizer),
        ("activations", m.activations),
        ("workspace", m.workspace),
    ] {
        out += &format!("  {name:<14} {}\n", gib(b));
    }
    out += &format!("  trained parameters: {}\n", m.trainable);
    if let Some(t) = &r.time {
        out += &format!(
            "Time on {}: at least {:.3} s a step, the longest of the GPU's work (GEMMs {:.3}, attention {:.3}, other {:.3}), the host copies ({:.3}), the collectives between GPUs ({:.3}) and the CPU ({:.3}); {} steps: at least {:.2} h",
            r.fit.as_ref().map_or("the GPU", |f| f.gpu.as_str()),
            t.step_s,
            t.gemm_s,
            t.attn_s,
            t.elementwise_s + t.dequant_s,
            t.swap_s,
            t.comm_s,
            t.cpu_s,
            t.steps,
            t.hours
        );
        match (t.usd, t.usd_per_gpu_h) {
            (Some(usd), Some(p)) => {
                let on = if t.gpus > 1 { format!(" on {} GPUs", t.gpus) } else { String::new() };
                out += &format!(", at least ${usd:.2}{on} at ${p:.2}/GPU-h (cheapest listed on-demand)\n")
            }
            _ => out += " (no listed price for this GPU)\n",
        }
        out += "  the trainer's own work per step (data, logging, optimizer) is not counted: docs/diffusion.md\n";
    }
    out += "Assumptions:\n";
    for a in &r.assumptions {
        out += &format!("  - {a}\n");
    }
    out
}
