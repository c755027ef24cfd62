//! The allocator replay (memory/timeline.rs) against the allocation timelines of real training
//! steps recorded on the CPU by tools/calibrate/timeline.py: for **every** record of
//! data/calibration/timelines.json the replay passes through the same phases in the same
//! order (load; forward, loss, backward, optimizer step of the first and of a steady step;
//! save), each phase's peak of live tensor bytes (`PhasePeak::requested`, the bytes asked for:
//! the CPU allocator neither rounds nor caches) is within 3% of the recorded one, and
//! the phases rank the same (the one holding the run's peak among them). A phase the model
//! cannot reach yet is listed, with the tensor it gets wrong and why, in
//! data/calibration/timeline-misses.json; the list may only shrink: an unlisted phase outside
//! 3% fails, and so does a listed phase that now matches (remove it).
use serde_json::Value;
use std::collections::BTreeMap;
use tunefit_core::memory::timeline::{Phase, PhasePeak};
use tunefit_core::settings::Settings;
use tunefit_core::{evaluate, Query};

const TOLERANCE: f64 = 0.03;

fn load(name: &str) -> Value {
    let path = format!("{}/../../data/calibration/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The recording's name of a replayed phase: its phase and step (0 load, 1 the first step,
/// 2 the steady step, 3 save).
fn label(p: &PhasePeak) -> String {
    let step = match p.phase {
        Phase::Load => 0,
        Phase::Save => 3,
        _ if p.first => 1,
        _ => 2,
    };
    format!("{} {step}", p.phase.as_str())
}

fn replayed(q: &Query) -> Vec<PhasePeak> {
    let s = Settings::resolve(q).unwrap_or_else(|e| panic!("{e}"));
    tunefit_core::memory::estimate(&s).unwrap_or_else(|e| panic!("{e}")).replay().phase_peaks()
}

fn listed_misses() -> BTreeMap<(String, String), String> {
    let mut listed = BTreeMap::new();
    for m in load("timeline-misses.json")["misses"].as_array().expect("misses array") {
        let q = m["query"].as_str().expect("miss query").to_string();
        let phase = m["phase"].as_str().expect("miss phase").to_string();
        let tensor = m["tensor"].as_str().expect("miss names the tensor");
        let why = m["why"].as_str().expect("miss says why");
        assert!(!tensor.is_empty() && !why.is_empty(), "{q} {phase}: a listed miss names its tensor and reason");
        assert!(listed.insert((q.clone(), phase.clone()), why.to_string()).is_none(), "{q} {phase} listed twice");
    }
    listed
}

/// The recorded model is the one the query describes: same parameters (PEFT adds its adapters).
fn same_model(qs: &str, q: &Query, r: &Value) {
    let m = evaluate(q).unwrap_or_else(|e| panic!("{qs}: {e}")).model;
    let lora = q.method.is_lora();
    let expected = m.params + if lora { m.trainable_params } else { 0 };
    assert_eq!(r["params_this_rank"].as_u64(), Some(expected), "{qs}: parameter count");
    assert_eq!(r["trainable_this_rank"].as_u64(), Some(m.trainable_params), "{qs}: trainable count");
}

#[test]
fn every_recorded_phase_within_3_percent_in_the_same_order_or_a_listed_miss() {
    let data = load("timelines.json");
    let mut listed = listed_misses();
    let recs = data["records"].as_array().expect("records array");
    assert!(recs.len() >= 28, "the file holds every recording ({} records)", recs.len());
    let mut failures = Vec::new();
    let (mut phases, mut within) = (0, 0);
    for r in recs {
        let qs = r["query"].as_str().expect("query");
        let q = Query::parse(qs).unwrap_or_else(|e| panic!("{qs}: query error {e}"));
        same_model(qs, &q, r);
        let replay = replayed(&q);
        let recorded: Vec<(String, f64)> = r["phases"]
            .as_array()
            .expect("phases")
            .iter()
            .map(|p| {
                let name = format!("{} {}", p["phase"].as_str().unwrap(), p["step"].as_u64().unwrap());
                (name, p["peak"].as_f64().unwrap())
            })
            .collect();
        let names: Vec<String> = replay.iter().map(label).collect();
        let rec_names: Vec<&String> = recorded.iter().map(|(n, _)| n).collect();
        if names.iter().collect::<Vec<_>>() != rec_names {
            failures.push(format!("{qs}: phases replayed {names:?}, recorded {rec_names:?}"));
            continue;
        }
        println!("{qs}");
        let mut missed = Vec::with_capacity(recorded.len());
        for ((name, measured), p) in recorded.iter().zip(&replay) {
            let e = p.requested as f64 / measured - 1.0;
            let miss = e.abs() > TOLERANCE;
            phases += 1;
            println!("  {:+7.2}%  {name:<17} recorded {measured:>12} replayed {:>12}", e * 100.0, p.requested);
            let known = listed.remove(&(qs.to_string(), name.clone()));
            missed.push(known.is_some());
            match (miss, known) {
                (false, None) => within += 1,
                (true, Some(_)) => {}
                (true, None) => {
                    failures.push(format!("{qs} {name}: {:+.2}% and not in timeline-misses.json", e * 100.0))
                }
                (false, Some(_)) => failures.push(format!(
                    "{qs} {name}: now within 3% ({:+.2}%): remove it from timeline-misses.json",
                    e * 100.0
                )),
            }
        }
        ranks_agree(qs, &recorded, &replay, &missed, &mut failures);
    }
    for (q, phase) in listed.keys() {
        failures.push(format!("{q} {phase}: listed as a miss but not a recorded phase"));
    }
    println!("phases within 3%: {within} of {phases} in {} records", recs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where the recording's phases differ by more than twice the tolerance, the replay orders
/// them the same way: the moment of the peak and the climb from load to the step agree.
/// A listed miss is already known to be off, so it is left out of the comparison.
fn ranks_agree(
    qs: &str,
    recorded: &[(String, f64)],
    replay: &[PhasePeak],
    missed: &[bool],
    failures: &mut Vec<String>,
) {
    for (i, (a, ra)) in recorded.iter().enumerate() {
        for (j, (b, rb)) in recorded.iter().enumerate() {
            if missed[i] || missed[j] {
                continue;
            }
            if *ra > rb * (1.0 + 2.0 * TOLERANCE) && replay[i].requested <= replay[j].requested {
                failures.push(format!(
                    "{qs}: recorded {a} ({ra}) above {b} ({rb}), replayed {} not above {}",
                    replay[i].requested, replay[j].requested
                ));
            }
        }
    }
}

/// `state_dict=device` (FSDP1's `model.state_dict()` under the default `FullStateDictConfig()`):
/// the save holds every parameter's clone beside the shards, so the peak moves to the save by
/// about the whole model; with the default (`host`), on one GPU or unsharded, nothing changes.
#[test]
fn a_full_state_dict_gathered_on_the_device_peaks_at_the_save() {
    let base = "model=llama-2-7b&method=full&precision=fp32&optim=sgd&batch=2&seq=512&ckpt=full&gpus=2&shard=fsdp";
    let est = |q: &str| {
        let q = Query::parse(q).unwrap();
        tunefit_core::memory::estimate(&Settings::resolve(&q).unwrap()).unwrap()
    };
    let (host, device) = (est(base), est(&format!("{base}&state_dict=device")));
    // The whole model in fp32 over two shards: this GPU's 12.55 GiB of weights times two.
    let full = 2.0 * host.memory.weights as f64;
    let grew = device.memory.allocated as f64 - host.memory.allocated as f64;
    assert!(grew > 0.4 * full && grew < full, "allocated grew {grew:.3e} for a {full:.3e} state dict");
    assert!(device.memory.reserved as f64 - host.memory.reserved as f64 >= grew * 0.9);
    assert_eq!(device.replay().peak_phase, Phase::Save);
    assert_ne!(host.replay().peak_phase, Phase::Save);
    // The overhead that holds it says why, and what gathers it on the host instead.
    let why = |e: &tunefit_core::memory::Estimate| {
        e.explanations.iter().find(|x| x.term == "overhead").and_then(|x| x.why.clone())
    };
    let said = why(&device).expect("the overhead says why").text(tunefit_core::diag::Lang::En);
    assert!(said.contains("state_dict=host") && said.contains("offload_to_cpu=True"), "{said}");
    assert!(why(&host).is_none());
    // The whole model in its stored dtype on every rank, whatever else the run shards or
    // offloads: tensor-parallel shards are gathered too, the fp32 master is what mixed
    // precision stores (in a paged optimizer too), offloaded parameters are gathered back.
    let gib = |b: u64| b as f64 / 1073741824.0;
    let fp32_model = 6738415616.0 * 4.0 / 1073741824.0;
    let b = "model=llama-2-7b&method=full&batch=2&seq=512&ckpt=full&shard=fsdp&gpus=4";
    for extra in
        ["precision=fp32&optim=sgd&tp=2", "precision=bf16-mixed&optim=paged-adamw", "precision=bf16-mixed&offload=all"]
    {
        let q = format!("{b}&{extra}");
        let grew = gib(est(&format!("{q}&state_dict=device")).memory.allocated) - gib(est(&q).memory.allocated);
        assert!(grew > 0.7 * fp32_model && grew < 1.1 * fp32_model, "{extra}: +{grew:.2} GiB for {fp32_model:.2}");
    }
    // One GPU, or a run that does not shard parameters, has no gathered state dict.
    for q in [
        "model=llama-2-7b&method=full&precision=fp32&optim=sgd&batch=2&seq=512&ckpt=full&gpus=1&shard=fsdp",
        "model=llama-2-7b&method=full&precision=fp32&optim=sgd&batch=2&seq=512&ckpt=full&gpus=2&shard=none",
    ] {
        assert_eq!(est(q).memory.allocated, est(&format!("{q}&state_dict=device")).memory.allocated, "{q}");
    }
}
