//! Human-readable `tunefit estimate` output: the per-GPU breakdown in GiB (2^30 bytes).

use tunefit_core::Report;

const GIB: f64 = 1073741824.0;

fn gib(b: u64) -> String { format!("{:>8.2} GiB", b as f64 / GIB) }

/// Renders a report as aligned text. Units: GiB = 2^30 bytes, per GPU unless stated.
pub fn render(r: &Report) -> String {
    let m = &r.memory;
    let mut s = String::new();
    let name = r.model.id.clone().unwrap_or_else(|| r.model.name.clone());
    s += &format!("query       {}\n", r.query);
    s += &format!("model       {name}: {} params, {} trainable{}\n", r.model.params, r.model.trainable_params,
        if r.model.inferred { " (architecture inferred from the parameter count)" } else { "" });
    s += "memory per GPU (GiB = 2^30 bytes)\n";
    for (k, v) in [("weights", m.weights), ("gradients", m.gradients), ("optimizer", m.optimizer),
                   ("activations", m.activations), ("logits", m.logits), ("overhead", m.overhead)] {
        s += &format!("  {k:<22}{}\n", gib(v));
    }
    s += &format!("  {:<22}{}   torch.cuda.max_memory_allocated\n", "peak allocated", gib(m.allocated));
    s += &format!("  {:<22}{}   torch.cuda.max_memory_reserved\n", "peak reserved", gib(m.reserved));
    s += &format!("  {:<22}{}   nvidia-smi (CUDA context included)\n", "peak device", gib(m.device));
    s += &format!("  {:<22}{}   per node\n", "host RAM", gib(m.host_ram));
    if let Some(f) = &r.fit {
        let head = f.headroom as f64 / GIB;
        s += &format!("fit on {}  {:.2} GiB: {} (headroom {head:+.2} GiB)\n", f.gpu, f.vram as f64 / GIB, if f.fits { "fits" } else { "does not fit" });
        let o = |x: Option<u32>| x.map_or("none".to_string(), |v| v.to_string());
        s += &format!("  largest micro-batch {}, longest sequence {}, fewest GPUs {}\n", o(f.max_batch), o(f.max_seq), o(f.min_gpus));
    }
    for w in &r.warnings { s += &format!("warning [{}] {}\n", w.code, w.message); }
    s
}
