//! "Copy as Markdown": one result as GitHub-flavoured Markdown tables, for an issue or a doc.
//!
//! The text names its units (GiB = 2^30 bytes, USD, hours) so a reader can compare it with
//! `torch.cuda.max_memory_allocated() / 2**30` or nvidia-smi's MiB without guessing. Only
//! figures already in the `Report` appear: nothing is computed here.

use crate::query::Query;
use crate::report::Report;
use std::fmt::Write;

const GIB: f64 = 1_073_741_824.0;
/// Offers listed: enough to compare, short enough for an issue comment.
const TOP_OFFERS: usize = 5;

/// The report as Markdown; the link is given as its query string (`?v=2&…`).
pub fn report_markdown(r: &Report) -> String {
    report_markdown_with_link(r, None)
}

/// The report as Markdown with a full link: `base` is the page's address without its query
/// (e.g. `https://example.org/tunefit/`).
pub fn report_markdown_with_link(r: &Report, base: Option<&str>) -> String {
    // The query string is the encoder's canonical form, so it decodes; lenient in any case.
    let (q, _) = Query::parse_lenient(&r.query);
    let mut md = String::new();
    let m = &r.model;
    let _ = writeln!(md, "### tunefit: {}, {}\n", cell(&m.name), q.method);

    settings_table(&mut md, r, &q);
    memory_and_fit(&mut md, r);
    if let Some(c) = r.cost.as_ref().filter(|c| !c.offers.is_empty()) {
        let _ = writeln!(
            md,
            "\n**Cheapest offers** ({} of {}; {}, prices as of each snapshot{})\n",
            c.offers.len().min(TOP_OFFERS),
            c.offers.len(),
            c.currency,
            rates(c),
        );
        let _ = writeln!(
            md,
            "| # | Provider | GPU | GPUs | Pricing | {0}/h | Hours per run | Total {0} | Snapshot |\n|---:|---|---|---:|---|---:|---:|---:|---|",
            c.currency
        );
        for (i, o) in c.offers.iter().take(TOP_OFFERS).enumerate() {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {:.2} | {} | {:.2} | {}{} |",
                i + 1,
                cell(o.provider),
                cell(o.gpu),
                o.gpus * o.instances,
                o.pricing,
                o.usd_per_hour,
                num(o.hours),
                o.usd_total,
                cell(o.snapshot_date),
                if o.stale == Some(true) {
                    format!(" (older than {} days)", crate::advice::STALE_AFTER_DAYS)
                } else {
                    String::new()
                },
            );
        }
        if !c.recommendation.is_empty() {
            let _ = writeln!(md, "\n{}", cell(&c.recommendation));
        }
    }

    let warnings: Vec<_> = r.warnings.iter().chain(r.cost.iter().flat_map(|c| c.warnings.iter())).collect();
    if !warnings.is_empty() {
        md.push_str("\n**Warnings**\n\n");
        for w in warnings {
            let _ = writeln!(md, "- {}", cell(&w.message()));
        }
    }

    let link = match base {
        Some(b) => format!("{b}?{}", r.query),
        None => format!("?{}", r.query),
    };
    let _ = writeln!(md, "\nLink: `{}`", link.replace('`', "%60"));
    md
}

/// The settings as a two-column table: model, method, precision, batch, parallelism.
fn settings_table(md: &mut String, r: &Report, q: &Query) {
    let m = &r.model;
    md.push_str("| Setting | Value |\n|---|---|\n");
    let id = m.id.as_deref().map(|i| format!(" (`{}`)", cell(i))).unwrap_or_default();
    let share = if m.params > 0 { m.trainable_params as f64 / m.params as f64 * 100.0 } else { 0.0 };
    row(
        md,
        "Model",
        &format!("{}{id}{}", cell(&m.name), if m.inferred { ", architecture inferred from the size" } else { "" }),
    );
    row(
        md,
        "Parameters",
        &format!("{} total, {} trainable ({})", count(m.params), count(m.trainable_params), pct(share)),
    );
    row(md, "Method", &method_line(q));
    row(md, "Precision", &format!("{}, optimizer {}", q.precision, q.optim));
    // An image encoder's sample is one image, its tokens the patches (`Settings::query`).
    let sample = match crate::settings::Settings::resolve(q) {
        Ok(s) if s.arch.layout.image.is_some() => {
            let side = |r: Option<crate::query::ImageSize>| r.map_or(String::new(), |r| format!("{}×{} ", r.w, r.h));
            format!("one {}image ({} tokens)", side(q.image_res), s.query.seq)
        }
        _ => format!("sequence {} tokens", q.seq),
    };
    let mut batch = format!("micro-batch {} × {sample}, gradient accumulation {}", q.batch, q.ga);
    if let Some(c) = q.ckpt {
        let _ = write!(batch, ", checkpointing {c}");
    }
    if let Some(a) = q.attn {
        let _ = write!(batch, ", attention {a}");
    }
    if let Some(l) = q.loss {
        let _ = write!(batch, ", loss {l}");
    }
    row(md, "Batch", &batch);
    let mut par = format!(
        "{} GPU(s) on {} node(s), sharding {}, offload {}, tensor parallel {}",
        q.gpus, q.nodes, q.shard, q.offload, q.tp
    );
    if q.sp {
        par.push_str(" with sequence parallelism");
    }
    if q.pp > 1 {
        let _ = write!(par, ", pipeline {} stages", q.pp);
        if q.pp_chunks > 1 {
            let _ = write!(par, " × {} chunks", q.pp_chunks);
        }
    }
    if q.cp > 1 {
        let _ = write!(par, ", context parallel {}", q.cp);
    }
    row(md, "Parallelism", &par);
    if q.compute != crate::query::Compute::Native {
        row(md, "Matmul format", q.compute.as_str());
    }
    row(md, "Framework", q.framework.as_str());
}

/// Memory per GPU by term, and the chosen GPU's verdict and time.
fn memory_and_fit(md: &mut String, r: &Report) {
    let b = &r.memory;
    md.push_str("\n**Memory per GPU** (GiB = 2^30 bytes)\n\n| Part | GiB |\n|---|---:|\n");
    for (name, v) in [
        ("Weights", b.weights),
        ("Gradients", b.gradients),
        ("Optimizer states", b.optimizer),
        ("Activations", b.activations),
        ("Logits", b.logits),
        ("Overhead", b.overhead),
        ("**Allocated** (torch max_memory_allocated)", b.allocated),
        ("**Reserved** (torch max_memory_reserved)", b.reserved),
        ("**Device** (nvidia-smi)", b.device),
    ] {
        let _ = writeln!(md, "| {name} | {} |", gib(v));
    }
    if b.host_ram > 0 {
        let _ = writeln!(md, "| Host RAM per node | {} |", gib(b.host_ram));
    }

    if let Some(f) = &r.fit {
        let verdict = match f.verdict {
            crate::report::Verdict::Fits => "fits",
            crate::report::Verdict::Tight => "tight (inside the model's error band)",
            crate::report::Verdict::DoesNotFit => "does not fit",
        };
        let _ = writeln!(
            md,
            "\n**Fit on {}** ({} GiB usable): {verdict}, headroom {} GiB; measured runs of this kind need {}–{} GiB.",
            cell(&f.gpu),
            gib(f.vram),
            signed_gib(f.headroom),
            gib(f.band_low),
            gib(f.band_high)
        );
        let opt = |v: Option<u32>| v.map_or("none".to_string(), |v| v.to_string());
        let _ = writeln!(
            md,
            "Largest micro-batch: {}; longest sequence: {}; fewest GPUs: {}.",
            opt(f.max_batch),
            opt(f.max_seq),
            opt(f.min_gpus)
        );
    }

    if let Some(t) = &r.time {
        let _ = writeln!(md, "\n**Time**: {} h per run on {}× {} ({} tokens/s, MFU {}, {} matmuls): {} h of steps, {} min start-up, {} min evaluation, {} checkpoint save(s) taking {} min.",
            num(t.hours), t.gpus, cell(&t.gpu), num(t.tokens_per_s), pct(t.mfu * 100.0), t.compute_dtype,
            num(t.train_hours), num(t.startup_s / 60.0), num(t.eval_s / 60.0), t.saves, num(t.save_s / 60.0));
    }
}

fn method_line(q: &Query) -> String {
    use crate::query::Method::*;
    let mut s = q.method.to_string();
    match q.method {
        Lora | Qlora | Dora => {
            let _ = write!(s, ", rank {}, targets {}", q.rank, q.targets.to_query_value());
            if q.method == Qlora {
                let _ =
                    write!(s, ", base {}{}", q.quant, if q.double_quant { " with double quantization" } else { "" });
            }
        }
        Freeze => {
            let _ = write!(s, ", last {} layers trained", q.train_layers);
        }
        Adapter => {
            let _ = write!(s, ", bottleneck {}", q.bottleneck);
        }
        Prefix | Prompt => {
            let _ = write!(s, ", {} virtual tokens", q.virtual_tokens);
        }
        Full => {}
    }
    s
}

fn row(md: &mut String, k: &str, v: &str) {
    let _ = writeln!(md, "| {k} | {v} |");
}

/// Text made safe for one table cell: no column breaks, no line breaks, no raw HTML.
/// "; 1 USD = 76.04 RUB (Bank of Russia, 2026-01-23)" for each rate the ranking went through.
fn rates(c: &crate::advice::CostReport) -> String {
    c.rates.iter().map(|r| format!("; 1 USD = {} {} ({}, {})", r.per_usd, r.code, r.source, r.date)).collect()
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ").replace('<', "&lt;").replace('>', "&gt;")
}

fn gib(b: u64) -> String {
    format!("{:.2}", b as f64 / GIB)
}

fn signed_gib(b: i64) -> String {
    format!("{:.2}", b as f64 / GIB)
}

fn pct(p: f64) -> String {
    if p < 1.0 {
        format!("{p:.2} %")
    } else {
        format!("{p:.1} %")
    }
}

/// Three significant figures or whole numbers, whichever is readable.
fn num(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// A parameter count as people write it: 8.03 B, 41.9 M.
fn count(n: u64) -> String {
    let x = n as f64;
    if x >= 1e9 {
        format!("{:.2} B", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.1} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} K", x / 1e3)
    } else {
        n.to_string()
    }
}

/// The report of `query` (with the price book, as `report_json`) as Markdown with the page's
/// link (`base`: the page's address without its query), or the error's text. The page's
/// "Copy as Markdown" asks the lazily loaded exporter module for it.
pub fn markdown_of_query(query: &str, prices: &str, base: &str, today: f64) -> String {
    match crate::report::evaluate_text(query, prices) {
        Ok((_, mut r)) => {
            r.date_offers(today);
            report_markdown_with_link(&r, Some(base))
        }
        Err(m) => m,
    }
}
