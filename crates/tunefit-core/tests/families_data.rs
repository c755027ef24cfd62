//! data/families/: the parameter counts and published memory figures of the image, video,
//! vision and speech models (the foundation of their presets). `param_counts.py --check` holds
//! components.csv to its analytic counters and to the published totals they reproduce exactly
//! (the HF blog's FLUX.1-dev + LoRA count, keras-hub's three SD3 pipeline totals), and every
//! measured figure to its source, kind and date.
use std::process::Command;

#[test]
fn component_counts_agree_with_the_counters_and_the_published_totals() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new("python3")
        .args(["data/families/param_counts.py", "--check"])
        .current_dir(root)
        .output()
        .expect("python3 runs data/families/param_counts.py (standard library only)");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{text}");
    assert!(text.contains("4 published totals agree"), "{text}");
}
