//! GPU, provider and offer dataset (placeholder until the dataset lands).

/// One GPU model.
#[derive(Debug, Clone, PartialEq)]
pub struct Gpu {
    pub id: &'static str,
    pub name: &'static str,
    /// Memory in bytes as sold (vendors' GB are 10^9 B for HBM totals like "80 GB"; see data notes).
    pub vram_bytes: u64,
}

const GIB: u64 = 1 << 30;

static GPUS: &[Gpu] = &[
    Gpu { id: "h100-sxm", name: "H100 SXM 80GB", vram_bytes: 80 * GIB },
    Gpu { id: "a100-80gb", name: "A100 80GB", vram_bytes: 80 * GIB },
    Gpu { id: "rtx-4090", name: "RTX 4090", vram_bytes: 24 * GIB },
];

pub fn gpus() -> &'static [Gpu] { GPUS }

pub fn gpu(id: &str) -> Option<&'static Gpu> { GPUS.iter().find(|g| g.id == id) }
