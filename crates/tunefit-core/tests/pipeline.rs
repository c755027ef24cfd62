//! data/offers.csv is the output of `python3 data/pipeline.py` on the committed sources
//! (data/sources/: a SkyPilot catalog snapshot and transcribed pricing pages), so a hand edit of
//! offers.csv fails here; the script's own unit tests (data/test_pipeline.py) run too. Then the
//! compiled offers are checked for what the pipeline promises.
use std::process::Command;
use tunefit_core::dataset;

fn python(args: &[&str]) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new("python3")
        .args(args)
        .current_dir(root)
        .output()
        .expect("python3 runs data/pipeline.py (the standard library is all it needs)");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "python3 {}:\n{text}", args.join(" "));
    text
}

#[test]
fn offers_csv_is_the_pipelines_output() {
    let said = python(&["data/pipeline.py", "--check"]);
    assert!(said.contains("up to date"), "{said}");
}

#[test]
fn the_pipelines_unit_tests_pass() {
    python(&["data/test_pipeline.py"]);
}

#[test]
fn every_offer_is_observed_dated_priced_in_a_currency_and_cites_its_page() {
    let exact = |d: &str| {
        d.len() == 10
            && d.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() })
    };
    for o in dataset::offers() {
        assert!(!o.note.to_ascii_lowercase().starts_with("derived:"), "{}: derived rows are not offers", o.id);
        assert!(
            exact(o.snapshot_date) || (o.snapshot_date.starts_with('~') && o.note.contains("date approximate")),
            "{}: date '{}' is neither exact nor marked approximate",
            o.id,
            o.snapshot_date
        );
        assert!(o.url.starts_with("https://"), "{}: url '{}'", o.id, o.url);
        assert_eq!(o.currency, "USD", "{}", o.id);
    }
    // 305 of 399 rows were dated to the day in 2026-12 (104 of 350 before AWS, Cudo, OCI and Vast
    // were read from the catalog at recorded commits, 211 of 359 before GCP and Shadeform were,
    // 297 of 397 before Hyperbolic and Yotta were, 304 of 398 before OCI's GB300 shape was);
    // the rest come from a catalog reading whose commit was not recorded (or list prices), and may
    // only give way to dated readings.
    let n = dataset::offers().len();
    let dated = dataset::offers().iter().filter(|o| exact(o.snapshot_date)).count();
    assert!(dated >= 305, "{dated} of {n} offers dated to the day");
}

#[test]
fn per_instance_facts_agree_with_the_model() {
    for o in dataset::offers() {
        let g = dataset::gpu(o.gpu).unwrap();
        if o.count == 1 {
            assert_eq!(o.gpu_link, None, "{}", o.id);
        } else {
            assert_eq!(o.gpu_link, Some(o.fabric(g)), "{}: gpu_link vs the instance's fabric", o.id);
        }
        if let (Some(gbit), Some(Some(per_gpu))) = (o.internode_gbit_s, o.internode) {
            assert!((gbit / 8.0 / o.count as f64 - per_gpu).abs() < 1e-3, "{}", o.id);
        }
        assert_eq!(o.internode == Some(None), o.internode_network == "none", "{}", o.id);
    }
    let by_instance = |i: &str| dataset::offers().iter().find(|o| o.instance == i).unwrap();
    assert_eq!(by_instance("p4d.24xlarge").internode_network, "efa");
    assert_eq!(by_instance("p4d.24xlarge").internode_gbit_s, Some(400.0));
    assert_eq!(by_instance("n3-A100x8-NVLink").gpu_link, Some(dataset::Fabric::Bridge));
    assert_eq!(by_instance("n3-A100x8").gpu_link, Some(dataset::Fabric::Pcie));
    assert_eq!(by_instance("gpu_8x_h100_sxm5").gpu_link, Some(dataset::Fabric::Nvlink));
}

#[test]
fn catalog_rows_name_their_commit() {
    let lambda: Vec<_> = dataset::offers().iter().filter(|o| o.provider == "lambda" && o.via.is_empty()).collect();
    assert!(lambda.len() >= 15);
    for o in lambda {
        assert!(
            o.url.contains("/blob/0f4070387edc953d7004cff197940e1918a1d6aa/catalogs/v8/lambda/vms.csv"),
            "{}",
            o.url
        );
        assert_eq!(o.snapshot_date, "2026-12-03", "{}", o.id);
    }
}
