//! Human-readable `tunefit estimate` output: the per-GPU breakdown in GiB (2^30 bytes).

use tunefit_core::Report;

const GIB: f64 = 1073741824.0;

fn gib(b: u64) -> String {
    format!("{:>8.2} GiB", b as f64 / GIB)
}

/// Renders a report as aligned text. Units: GiB = 2^30 bytes, per GPU unless stated.
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    let name = r.model.id.clone().unwrap_or_else(|| r.model.name.clone());
    s += &format!("query       {}\n", r.query);
    s += &format!(
        "model       {name}: {} params, {} trainable{}\n",
        r.model.params,
        r.model.trainable_params,
        if r.model.inferred { " (architecture inferred from the parameter count)" } else { "" }
    );
    s += &memory(r);
    if let Some(f) = &r.fit {
        let head = f.headroom as f64 / GIB;
        s += &format!(
            "fit on {}  {:.2} GiB: {} (headroom {head:+.2} GiB; error band {:.2}–{:.2} GiB)\n",
            f.gpu,
            f.vram as f64 / GIB,
            f.verdict.as_str(),
            f.band_low as f64 / GIB,
            f.band_high as f64 / GIB
        );
        let o = |x: Option<u32>| x.map_or("none".to_string(), |v| v.to_string());
        s += &format!(
            "  largest micro-batch {}, longest sequence {}, fewest GPUs {}\n",
            o(f.max_batch),
            o(f.max_seq),
            o(f.min_gpus)
        );
    }
    if let Some(t) = &r.time {
        let m = &t.micro_step;
        s += &format!(
            "time on {}× {} ({} instance(s), {} data-parallel)  {:.2} h per run\n",
            t.gpus, t.gpu, t.instances, t.dp, t.hours
        );
        // An image encoder's sample is one image.
        let image_encoder =
            tunefit_core::Query::parse(&r.query).is_ok_and(|q| tunefit_core::catalog::is_image_encoder(&q));
        // SAM's few images a second need their decimals.
        let images = match (image_encoder, t.samples_per_s) {
            (false, _) => String::new(),
            (true, n) if n < 10.0 => format!(" ({n:.2} images/s)"),
            (true, n) => format!(" ({n:.0} images/s)"),
        };
        s += &format!(
            "  {:<22}{:>10.0} tokens/s{images}, MFU {:.1} %, {} matmuls at {:.0} TFLOPS{}\n",
            "throughput",
            t.tokens_per_s,
            t.mfu * 100.0,
            t.compute_dtype,
            t.peak_tflops,
            if t.compute_flagged { " (requested format not on this GPU)" } else { "" }
        );
        s += &format!(
            "  {:<22}{:>10.3} s: GEMM {:.3}, attention {:.3}, elementwise {:.3}, dequant {:.3}, CPU launch {:.3}{}\n",
            "micro-step",
            m.gemm_s + m.attention_s + m.elementwise_s + m.dequant_s,
            m.gemm_s,
            m.attention_s,
            m.elementwise_s,
            m.dequant_s,
            m.cpu_s,
            if m.cpu_bound { " (CPU-bound)" } else { "" }
        );
        s += &format!(
            "  {:<22}{:>10.3} s (exposed communication {:.3} s, pipeline bubble {:.3} s)\n",
            "step", t.step_s, t.exposed_comm_s, t.bubble_s
        );
        s += &format!(
            "  {:<22}{:>10.2} h steps + {:.1} min start-up + {:.1} min evaluation + {} save(s) {:.1} min\n",
            "run",
            t.train_hours,
            t.startup_s / 60.0,
            t.eval_s / 60.0,
            t.saves,
            t.save_s / 60.0
        );
        s += &format!("  {:<22}{:>10.2} h with interruptions and restarts\n", "on spot", t.spot_hours);
    }
    for f in &r.fixes {
        s += &format!(
            "fix {:<34} {:>8.2} GiB {}  {}\n",
            f.set,
            f.device as f64 / GIB,
            if f.fits { "fits " } else { "still" },
            f.note
        );
    }
    for w in &r.warnings {
        s += &format!("warning [{}] {}\n", w.code(), w.message());
    }
    s
}

/// `tunefit plan`: the plans best first, each with what it gives up and its query.
pub fn plans(plans: &[tunefit_core::plan::Plan]) -> String {
    if plans.is_empty() {
        return "no plan fits the limits (budget, deadline, GPU, provider) with the memory model's error band\n".into();
    }
    let mut s = String::new();
    for (i, p) in plans.iter().enumerate() {
        s += &format!(
            "{}. {:>9.2} {}  {:>8.2} h  {}× {} at {} ({}), {:.2} GiB per GPU\n",
            i + 1,
            p.usd,
            p.currency,
            p.hours,
            p.gpus,
            p.gpu,
            p.provider,
            p.pricing,
            p.device as f64 / GIB
        );
        if p.gives_up.is_empty() {
            s += "   your own settings\n";
        }
        for g in &p.gives_up {
            s += &format!("   gives up: {g}\n");
        }
        s += &format!("   {}\n", p.query);
    }
    s
}

/// `tunefit calibrate`: each measured figure beside the estimate.
pub fn calibration(c: &tunefit_core::calibrate::Calibration) -> String {
    let mut s = String::new();
    for (metric, measured, predicted, err) in &c.memory {
        let what = c.measured.memory.iter().find(|(m, _, _)| m == metric).map_or("", |(_, _, w)| w.as_str());
        s += &format!(
            "{metric:<10} measured {:8.2} GiB  estimated {:8.2} GiB  {:+.1} %   ({what})\n",
            *measured as f64 / GIB,
            *predicted as f64 / GIB,
            err * 100.0
        );
    }
    match c.speed_ratio {
        Some(r) => s += &format!("speed      measured / estimated {r:.2} ({}): set mfu to the estimate's MFU × {r:.2} to time this setup as measured\n", c.speed_basis),
        None => s += "speed      no throughput in the log (or no GPU in the query to time)\n",
    }
    s
}

/// The per-GPU terms, each with the one sentence on why it is large where the core gives one,
/// and the allocator's peaks.
fn memory(r: &Report) -> String {
    let m = &r.memory;
    let mut s = String::new();
    s += "memory per GPU (GiB = 2^30 bytes)\n";
    for (k, v) in m.terms() {
        s += &format!("  {k:<22}{}\n", gib(v));
        if let Some(why) = r.explanations.iter().find(|e| e.term == k).and_then(|e| e.why.as_ref()) {
            s += &format!("    {}\n", why.text(tunefit_core::diag::Lang::En));
        }
    }
    s += &format!("  {:<22}{}   torch.cuda.max_memory_allocated\n", "peak allocated", gib(m.allocated));
    s += &format!("  {:<22}{}   torch.cuda.max_memory_reserved\n", "peak reserved", gib(m.reserved));
    s += &format!("  {:<22}{}   nvidia-smi (CUDA context included)\n", "peak device", gib(m.device));
    s += &format!("  {:<22}{}   per node\n", "host RAM", gib(m.host_ram));
    if let Some(phase) = &m.peak_phase {
        // An encoder's own pass (a vision tower's, Whisper's, SAM's global attention) is a
        // moment the replay does not run (memory/vision.rs, memory/speech.rs, memory/sam.rs).
        let whose = if phase.contains("vision tower") {
            "the vision tower's own pass, beside the allocator replay"
        } else if phase.contains("audio encoder") {
            "the audio encoder's own pass, beside the allocator replay"
        } else if phase.contains("global-attention block") {
            "SAM's whole-image attention bias, beside the allocator replay"
        } else {
            "the allocator replay's allocated peak"
        };
        s += &format!("  {:<22}{phase}   ({whose})\n", "peak at");
    }
    s
}
