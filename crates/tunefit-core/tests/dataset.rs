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
    for g in dataset::gpus() {
        assert!(kebab(g.id), "{}", g.id);
        assert!(seen.insert(g.id), "duplicate gpu {}", g.id);
    }
    let mut seen = HashSet::new();
    for p in dataset::providers() {
        assert!(kebab(p.id), "{}", p.id);
        assert!(seen.insert(p.id), "duplicate provider {}", p.id);
    }
    let mut seen = HashSet::new();
    for o in dataset::offers() {
        assert!(seen.insert(o.id), "duplicate offer {}", o.id);
    }
}

#[test]
fn required_gpus_are_present() {
    for id in [
        "h200",
        "h100-sxm",
        "h100-pcie",
        "h100-nvl",
        "gh200",
        "b200",
        "a100-40gb",
        "a100-80gb",
        "mi300x",
        "mi325x",
        "gaudi3",
        "l40s",
        "l40",
        "a40",
        "rtx-6000-ada",
        "rtx-a6000",
        "rtx-pro-6000",
        "l4",
        "a10",
        "a10g",
        "t4",
        "v100-16gb",
        "v100-32gb",
        "rtx-5090",
        "rtx-4090",
        "rtx-3090",
    ] {
        assert!(dataset::gpu(id).is_some(), "missing {id}");
    }
}

#[test]
fn every_offer_names_a_known_gpu_and_provider_and_is_priced_and_dated() {
    for o in dataset::offers() {
        assert!(dataset::gpu(o.gpu).is_some(), "{}: unknown gpu {}", o.id, o.gpu);
        assert!(dataset::provider(o.provider).is_some(), "{}: unknown provider {}", o.id, o.provider);
        assert!(o.on_demand_usd_h.is_some() || o.spot_usd_h.is_some(), "{}: no price", o.id);
        for p in [o.on_demand_usd_h, o.spot_usd_h].into_iter().flatten() {
            assert!(p > 0.0, "{}: price {p}", o.id);
        }
        assert!(o.count >= 1);
        assert!(!o.source.is_empty() && !o.snapshot_date.is_empty(), "{}", o.id);
        assert!(o.snapshot_date.trim_start_matches('~').starts_with("20"), "{}: date {}", o.id, o.snapshot_date);
        assert!(["high", "medium", "low"].contains(&o.confidence), "{}", o.id);
    }
    for p in dataset::providers() {
        assert!(!p.source.is_empty() && p.date.starts_with("20"), "{}", p.id);
    }
    for g in dataset::gpus() {
        assert!(!g.source.is_empty() && g.date.starts_with("20"), "{}", g.id);
    }
}

#[test]
fn spot_is_never_above_on_demand_and_fake_spot_is_gone() {
    for o in dataset::offers() {
        if let (Some(od), Some(sp)) = (o.on_demand_usd_h, o.spot_usd_h) {
            // GCP rows got the host added at on-demand price to both; spot may equal but not exceed.
            assert!(sp <= od + 1e-9, "{}: spot {sp} > on-demand {od}", o.id);
        }
        if o.provider == "runpod" || o.provider == "vast" {
            assert!(o.spot_usd_h.is_none(), "{}", o.id);
        }
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

/// Per-GPU on-demand prices read from the providers' own pages (shared/notes/data-audit.md §3,
/// applied by data/audit_2026_12.py): no bundled offer of these may sort below them, since a
/// stale or duplicate row that is cheaper than the provider's page is the error a person pays for.
const AUDITED_PER_GPU: &[(&str, &str, &str, f64)] = &[
    // (provider, tier, gpu, per-GPU USD/h)
    ("runpod", "secure", "h100-sxm", 3.99),
    ("runpod", "secure", "a100-80gb", 1.79),
    ("runpod", "secure", "a100-pcie-80gb", 1.79),
    ("nebius", "", "h100-sxm", 3.85),
    ("nebius", "", "h200", 4.50),
    ("crusoe", "", "a100-80gb", 2.30),
    ("crusoe", "", "a100-pcie-80gb", 2.00),
    ("crusoe", "", "l40s", 1.50),
    ("hyperstack", "", "h100-sxm", 3.20),
    ("hyperstack", "", "h100-pcie", 2.50),
];

#[test]
fn no_offer_is_cheaper_than_the_audited_page_price() {
    for &(provider, tier, gpu, floor) in AUDITED_PER_GPU {
        let rows: Vec<_> = dataset::offers()
            .iter()
            .filter(|o| o.provider == provider && o.tier == tier && o.gpu == gpu && o.via.is_empty())
            .collect();
        assert!(!rows.is_empty(), "{provider}/{gpu}: the audited offer is gone");
        for o in rows {
            let per_gpu = o.usd_per_gpu_hour().unwrap();
            assert!(per_gpu >= floor - 1e-9, "{}: {per_gpu}/GPU-h is below the page's {floor}", o.id);
        }
    }
    // Azure's NC80adis_H100_v5 (2 × H100 NVL) lists 17.64/h, not twice the NC40's 6.98.
    let nc80 = dataset::offers().iter().find(|o| o.instance == "NC80adis_H100_v5").unwrap();
    assert!((nc80.on_demand_usd_h.unwrap() - 17.64).abs() < 1e-6, "{nc80:?}");
}

#[test]
fn offers_without_a_public_price_are_gone_and_resellers_are_low_confidence() {
    let has = |provider: &str, gpu: &str| {
        dataset::offers().iter().any(|o| o.provider == provider && o.gpu == gpu && o.via.is_empty())
    };
    // Crusoe: B200 is "Contact sales"; A100 40GB and A40 are no longer listed (2026-09-20).
    for gpu in ["b200", "a100-40gb", "a40"] {
        assert!(!has("crusoe", gpu), "crusoe/{gpu}");
    }
    // Crusoe's spot column reads "Contact sales": no unverifiable spot price is offered.
    assert!(dataset::offers()
        .iter()
        .filter(|o| o.provider == "crusoe" && o.via.is_empty())
        .all(|o| o.spot_usd_h.is_none()));
    for o in dataset::offers().iter().filter(|o| o.provider == "lambda" && o.via == "prime-intellect") {
        assert_eq!(o.confidence, "low", "{}: a reseller's listing is not Lambda's price", o.id);
    }
}

#[test]
fn one_reading_per_instance_shape() {
    // Two rows for the same provider, tier, reseller, GPU, count and instance type are two
    // readings of one price: only the newest may stay.
    let mut seen = HashSet::new();
    for o in dataset::offers() {
        let key = (o.provider, o.tier, o.via, o.gpu, o.count, o.instance, o.region);
        assert!(seen.insert(key), "{}: a second reading of {key:?}", o.id);
    }
    let lone = |provider: &str, tier: &str, gpu: &str| {
        dataset::offers()
            .iter()
            .filter(|o| o.provider == provider && o.tier == tier && o.gpu == gpu && o.count == 1 && o.via.is_empty())
            .count()
    };
    assert_eq!(lone("runpod", "secure", "h100-sxm"), 1);
    assert_eq!(lone("nebius", "", "h100-sxm"), 1);
    assert_eq!(lone("hyperstack", "", "h100-pcie"), 1);
}

#[test]
fn provider_features_follow_the_providers_docs() {
    let p = |id: &str| dataset::provider(id).unwrap();
    // Spot/preemptible capacity is documented by Hyperstack, TensorDock and Modal.
    for id in ["hyperstack", "tensordock", "modal"] {
        assert!(p(id).spot, "{id}");
    }
    assert_eq!(p("scaleway").billing, dataset::Billing::Minute);
    assert!(p("scaleway").billing_verified);
    assert_eq!(p("hyperstack").storage_usd_gb_month, Some(0.07));
    assert_eq!(p("crusoe").storage_usd_gb_month, Some(0.08));
}

#[test]
fn the_gpus_a_late_2026_buyer_rents_are_present_with_their_figures() {
    let g = |id: &str| dataset::gpu(id).unwrap_or_else(|| panic!("missing {id}"));
    let gib = |id: &str| g(id).vram_bytes as f64 / (1u64 << 30) as f64;
    // (id, GB, memory GB/s, dense BF16 TFLOPS, fabric, TDP W) as the rows' sources give them.
    for (id, gb, bw, bf16, fabric, tdp) in [
        ("b300", 288.0, 8000.0, 2250.0, Fabric::Nvlink, 1400.0),
        ("mi355x", 288.0, 8000.0, 2500.0, Fabric::InfinityFabric, 1400.0),
        ("mi350x", 288.0, 8000.0, 2306.0, Fabric::InfinityFabric, 1000.0),
        ("h20", 96.0, 4000.0, 148.0, Fabric::Nvlink, 400.0),
        ("l20", 48.0, 864.0, 119.5, Fabric::Pcie, 275.0),
        ("rtx-a4000", 16.0, 448.0, 76.7, Fabric::Pcie, 140.0),
        ("gb300", 279.0, 8000.0, 2500.0, Fabric::Nvlink, 1400.0),
        ("h200-nvl", 141.0, 4800.0, 835.5, Fabric::Bridge, 600.0),
        ("a30", 24.0, 933.0, 165.0, Fabric::Bridge, 165.0),
    ] {
        assert_eq!(gib(id), gb, "{id}");
        assert_eq!(g(id).mem_bandwidth_gb_s, bw, "{id}");
        assert_eq!(g(id).bf16_tflops, Some(bf16), "{id}");
        assert_eq!(g(id).fabric, fabric, "{id}");
        assert_eq!(g(id).tdp_w, Some(tdp), "{id}");
        assert!(g(id).date.starts_with("2026-12"), "{id}");
    }
    let b300 = g("b300");
    assert_eq!((b300.fabric_gb_s, b300.fp4_tflops, b300.fp4_native), (1800.0, Some(13125.0), true));
    assert_eq!(b300.int8_tops, None, "B300 INT8 was not read from a datasheet");
    assert_eq!((g("h20").int8_tops, g("h20").fp8_tflops), (Some(296.0), Some(296.0)));
    assert_eq!(g("l20").int8_tops, Some(239.0));
    assert_eq!(g("mi355x").int8_tops, Some(5000.0));
    assert_eq!(g("rtx-a4000").class, GpuClass::Pro);
    // Blackwell Ultra's datasheet prints FP4 as 20 | 15 PF sparse | dense, not 2:1, and INT8
    // far below FP8; the GB300's NVLink domain is the whole 72-GPU rack.
    let gb300 = g("gb300");
    assert_eq!((gb300.fp4_tflops, gb300.int8_tops, gb300.fabric_group), (Some(15000.0), Some(165.0), 72));
    // The H200 NVL's bridge joins up to four cards at 900 GB/s; the A30's joins two at 200.
    assert_eq!((g("h200-nvl").fabric_group, g("h200-nvl").fabric_gb_s), (4, 900.0));
    assert_eq!((g("a30").fabric_group, g("a30").fabric_gb_s, g("a30").fp8_tflops), (2, 200.0, None));
    // OCI's GB300 shape (four GPUs of one superchip pair) comes from the catalog.
    let oci = dataset::offers().iter().find(|o| o.provider == "oci" && o.gpu == "gb300").expect("OCI GB300");
    assert_eq!((oci.count, oci.on_demand_usd_h), (4, Some(72.0)));
}

#[test]
fn int8_and_tdp_come_from_the_reference() {
    let g = |id: &str| dataset::gpu(id).unwrap();
    assert_eq!((g("h100-sxm").int8_tops, g("h100-sxm").tdp_w), (Some(1978.9), Some(700.0)));
    assert_eq!((g("a100-80gb").int8_tops, g("a100-80gb").tdp_w), (Some(624.0), Some(400.0)));
    assert_eq!((g("l4").int8_tops, g("l4").tdp_w), (Some(242.0), Some(72.0)));
    assert_eq!(g("mi300x").tdp_w, Some(750.0));
    assert_eq!(g("b200").tdp_w, Some(1000.0));
    // V100 has no INT8 tensor figure; the A10G's reference INT8 was the A10's and is blanked.
    assert_eq!(g("v100-32gb").int8_tops, None);
    assert_eq!(g("a10g").int8_tops, None);
    for gpu in dataset::gpus() {
        assert!(gpu.tdp_w.is_some_and(|w| w > 10.0 && w < 2000.0), "{}: TDP {:?}", gpu.id, gpu.tdp_w);
    }
}

#[test]
fn every_gpu_row_names_its_source() {
    for g in dataset::gpus() {
        assert!(g.source.len() > 20, "{}: source '{}'", g.id, g.source);
    }
    // The added rows cite pages, not the project's own reference file.
    for id in ["b300", "mi355x", "mi350x", "h20", "l20", "rtx-a4000"] {
        let s = dataset::gpu(id).unwrap().source;
        assert!(s.contains(".com") || s.contains(".cz") || s.contains(".ai"), "{id}: {s}");
        assert!(!s.contains("shared/reference"), "{id}: {s}");
    }
}

#[test]
fn the_new_gpus_have_dated_single_gpu_offers() {
    let per_gpu = |provider: &str, tier: &str, gpu: &str| {
        dataset::offers()
            .iter()
            .find(|o| o.provider == provider && o.tier == tier && o.gpu == gpu && o.via.is_empty())
            .map(|o| (o.count, o.usd_per_gpu_hour().unwrap(), o.snapshot_date))
    };
    assert_eq!(per_gpu("runpod", "community", "b300"), Some((1, 6.94, "2026-08-19")));
    assert_eq!(per_gpu("runpod", "secure", "b300"), Some((1, 7.89, "2026-08-19")));
    assert_eq!(per_gpu("hyperstack", "", "b300"), Some((1, 7.40, "2026-08-26")));
    assert_eq!(per_gpu("hyperstack", "", "rtx-a4000"), Some((1, 0.15, "2026-08-26")));
    // No multi-GPU B300 row was made by multiplying a per-GPU price: the multi-GPU ones are whole
    // instances as SkyPilot's catalog lists them at a recorded commit (AWS p6-b300.48xlarge, OCI
    // BM.GPU.B300.8).
    for o in dataset::offers().iter().filter(|o| o.gpu == "b300" && o.count > 1) {
        assert!(o.source.starts_with("skypilot-catalog") && o.source.contains(" at "), "{}: {}", o.id, o.source);
    }
    assert!(dataset::offers().iter().any(|o| o.gpu == "b300" && o.count == 8 && !o.instance.is_empty()));
}

#[test]
fn b300_offers_rank_for_a_job_that_fits() {
    let q = tunefit_core::Query::parse_given("v=2&gpu=b300&method=full&model=llama-3.1-8b").unwrap();
    let r = tunefit_core::report::evaluate(&q).unwrap();
    assert_eq!(r.fit.as_ref().map(|f| f.verdict), Some(tunefit_core::report::Verdict::Fits));
    let cost = r.cost.expect("cost offers");
    let b300: Vec<_> = cost.offers.iter().filter(|o| o.gpu == "b300").map(|o| o.offer).collect();
    for id in ["runpod-community/b300/1", "runpod-secure/b300/1", "hyperstack/b300/1"] {
        assert!(b300.contains(&id), "{id} not ranked: {b300:?}");
    }
    assert!(cost.offers.iter().all(|o| o.usd_total > 0.0 && o.hours > 0.0));
}
