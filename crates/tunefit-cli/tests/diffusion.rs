//! `tunefit estimate` with a diffusion model's link: the verdict first, the breakdown, the
//! JSON's figures, and a bad link named with exit status 2.
use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tunefit")).args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

#[test]
fn a_diffusion_link_is_estimated_with_its_verdict() {
    let (ok, out, _) = run(&["estimate", "model=flux.1-dev&weights=fp8&gpu=rtx-4090"]);
    assert!(ok);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("FLUX.1 [dev] on rtx-4090: fits"), "{first}");
    assert!(out.contains("weights") && out.contains("activations") && out.contains("Assumptions:"), "{out}");

    let (ok, json, _) = run(&["estimate", "model=wan2.1-14b&res=832x480&frames=81&swap=40", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["model"], "wan2.1-14b");
    assert_eq!(v["memory"]["image_tokens"], 21 * 52 * 30);
    let (alloc, dev) = (v["memory"]["allocated"].as_u64().unwrap(), v["memory"]["device"].as_u64().unwrap());
    assert!(alloc > 0 && dev > alloc);
    assert!(v["fit"].is_null(), "no GPU, no verdict");
}

#[test]
fn a_bad_diffusion_link_names_its_keys() {
    let (ok, out, err) = run(&["estimate", "model=flux.1-dev&res=abc&weights=fp4"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("res:") && err.contains("weights:") && err.contains("bf16, fp8, int8, nf4"), "{err}");
}
