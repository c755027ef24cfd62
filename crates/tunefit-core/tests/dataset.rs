//! The bundled dataset: parses, ids are unique and cross-referenced, figures are physical.
use std::collections::HashSet;
use tunefit_core::dataset::{self, Fabric, GpuClass};

#[test]
fn every_file_parses() {
    assert_eq!(dataset::check(), vec![]);
}

#[test]
fn sizes_meet_the_issue() {
    assert!(dataset::gpus().len() >= 30, "{} GPUs", dataset::gpus().len());
    assert!(dataset::providers().len() >= 15);
    assert!(dataset::offers().len() >= 150);
}

#[test]
fn ids_are_unique_and_kebab_case() {
    let kebab = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let mut seen = HashSet::new();
    for g in dataset::gpus() { assert!(kebab(g.id), "{}", g.id); assert!(seen.insert(g.id), "duplicate gpu {}", g.id); }
    let mut seen = HashSet::new();
    for p in dataset::providers() { assert!(kebab(p.id), "{}", p.id); assert!(seen.insert(p.id), "duplicate provider {}", p.id); }
    let mut seen = HashSet::new();
    for o in dataset::offers() { assert!(seen.insert(o.id), "duplicate offer {}", o.id); }
}

#[test]
fn required_gpus_are_present() {
    for id in ["h200", "h100-sxm", "h100-pcie", "h100-nvl", "gh200", "b200", "a100-40gb", "a100-80gb", "mi300x",
        "mi325x", "gaudi3", "l40s", "l40", "a40", "rtx-6000-ada", "rtx-a6000", "rtx-pro-6000", "l4", "a10", "a10g",
        "t4", "v100-16gb", "v100-32gb", "rtx-5090", "rtx-4090", "rtx-3090"] {
        assert!(dataset::gpu(id).is_some(), "missing {id}");
    }
}

#[test]
fn every_offer_names_a_known_gpu_and_provider_and_is_priced_and_dated() {
    for o in dataset::offers() {
        assert!(dataset::gpu(o.gpu).is_some(), "{}: unknown gpu {}", o.id, o.gpu);
        assert!(dataset::provider(o.provider).is_some(), "{}: unknown provider {}", o.id, o.provider);
        assert!(o.on_demand_usd_h.is_some() || o.spot_usd_h.is_some(), "{}: no price", o.id);
        for p in [o.on_demand_usd_h, o.spot_usd_h].into_iter().flatten() { assert!(p > 0.0, "{}: price {p}", o.id); }
        assert!(o.count >= 1);
        assert!(!o.source.is_empty() && !o.snapshot_date.is_empty(), "{}", o.id);
        assert!(o.snapshot_date.trim_start_matches('~').starts_with("20"), "{}: date {}", o.id, o.snapshot_date);
        assert!(["high", "medium", "low"].contains(&o.confidence), "{}", o.id);
    }
    for p in dataset::providers() { assert!(!p.source.is_empty() && p.date.starts_with("20"), "{}", p.id); }
    for g in dataset::gpus() { assert!(!g.source.is_empty() && g.date.starts_with("20"), "{}", g.id); }
}

#[test]
fn spot_is_never_above_on_demand_and_fake_spot_is_gone() {
    for o in dataset::offers() {
        if let (Some(od), Some(sp)) = (o.on_demand_usd_h, o.spot_usd_h) {
            // GCP rows got the host added at on-demand price to both; spot may equal but not exceed.
            assert!(sp <= od + 1e-9, "{}: spot {sp} > on-demand {od}", o.id);
        }
        if o.provider == "runpod" || o.provider == "vast" { assert!(o.spot_usd_h.is_none(), "{}", o.id); }
    }
}

#[test]
fn vram_is_marketed_gib_and_compute_is_physical() {
    let h100 = dataset::gpu("h100-sxm").unwrap();
    assert_eq!(h100.vram_bytes, 80 << 30);
    assert_eq!(dataset::gpu("rtx-4090").unwrap().vram_bytes, 24 << 30);
    for g in dataset::gpus() {
        let peak = g.bf16_tflops.or(g.fp16_tflops).expect(g.id);
        assert!(peak > 10.0 && peak < 5000.0, "{}: {peak}", g.id);
        assert!(g.mem_bandwidth_gb_s > 100.0, "{}", g.id);
        assert!(g.vram_bytes >= 16 << 30, "{}", g.id);
        assert!(g.fabric_gb_s > 0.0 && g.pcie_gb_s > 0.0, "{}", g.id);
    }
    // Caveats the issue names: T4 and V100 have no BF16; GeForce cards are consumer, PCIe only.
    for id in ["t4", "v100-16gb", "v100-32gb"] {
        let g = dataset::gpu(id).unwrap();
        assert!(!g.bf16_native && g.bf16_tflops.is_none() && g.fp16_tflops.is_some(), "{id}");
    }
    for id in ["rtx-4090", "rtx-5090"] {
        let g = dataset::gpu(id).unwrap();
        assert_eq!(g.class, GpuClass::Consumer);
        assert_eq!(g.fabric, Fabric::Pcie);
    }
    assert_eq!(dataset::gpu("h100-sxm").unwrap().fabric, Fabric::Nvlink);
}

#[test]
fn per_instance_prices_divide_per_gpu() {
    let o = dataset::offers().iter().find(|o| o.id == "aws/h100-sxm/8").unwrap();
    assert!((o.usd_per_gpu_hour().unwrap() - 55.04 / 8.0).abs() < 1e-9);
}
