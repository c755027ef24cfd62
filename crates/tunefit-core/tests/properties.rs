//! Properties over the parameter space: every output finite and non-negative; memory
//! monotone in batch and sequence; ZeRO-3 per-GPU memory non-increasing in GPU count;
//! absurd input is an error naming a key, never a panic.
use proptest::prelude::*;
use tunefit_core::query::*;
use tunefit_core::settings::Settings;
use tunefit_core::{evaluate, Query};

fn any_query() -> impl Strategy<Value = Query> {
    let models = tunefit_core::catalog::presets().iter().map(|p| p.id.to_string()).collect::<Vec<_>>();
    (
        (
            prop::sample::select(models),
            prop::sample::select(Method::ALL.to_vec()),
            1u32..=256,
            prop::sample::select(Precision::ALL.to_vec()),
            prop::sample::select(Optimizer::ALL.to_vec()),
            prop::sample::select(Framework::ALL.to_vec()),
        ),
        (
            1u32..=16,
            1u32..=8192,
            prop::sample::select(Checkpointing::ALL.to_vec()),
            prop::sample::select(Attention::ALL.to_vec()),
            prop::sample::select(Loss::ALL.to_vec()),
            any::<bool>(),
            any::<bool>(),
        ),
        (
            prop::sample::select(vec![1u32, 2, 8, 64]),
            prop::sample::select(ShardingStrategy::ALL.to_vec()),
            prop::sample::select(Offload::ALL.to_vec()),
            prop::sample::select(Quant::ALL.to_vec()),
            prop::option::of(0.0f64..0.5),
        ),
    )
        .prop_map(
            |(
                (m, method, rank, prec, optim, fw),
                (batch, seq, ckpt, attn, loss, packing, compile),
                (gpus, shard, offload, quant, drop),
            )| {
                Query {
                    model: Some(m),
                    method,
                    rank,
                    precision: prec,
                    optim,
                    framework: fw,
                    batch,
                    seq,
                    ckpt: Some(ckpt),
                    attn: Some(attn),
                    loss: Some(loss),
                    packing: Some(packing),
                    compile: Some(compile),
                    gpus,
                    nodes: gpus.div_ceil(8),
                    shard,
                    offload,
                    quant,
                    lora_dropout: drop,
                    train_layers: 1,
                    ..Query::default()
                }
            },
        )
}

/// The settings of `q` with its replay's cache share, as the solvers search them.
fn variantable(q: &Query) -> Settings<'_> {
    let mut s = Settings::resolve(q).unwrap();
    s.cache_excess = Some(tunefit_core::memory::estimate(&s).unwrap().cache_excess);
    s
}

/// Device bytes of `v`, a variant of the settings' query in batch, sequence or GPU count.
fn variant_device(s: &Settings, v: &Query) -> u64 {
    tunefit_core::memory::estimate(&s.variant(v)).map_or(u64::MAX, |e| e.memory.device)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn outputs_finite_nonnegative_and_monotone(q in any_query()) {
        let Ok(r) = evaluate(&q) else { return Ok(()); };
        let m = &r.memory;
        prop_assert!(m.allocated <= m.reserved && m.reserved <= m.device);
        prop_assert!(m.allocated >= m.weights);
        // The live tensors grow with the batch and the sequence, and so does the figure the
        // solvers search (a variant of the query keeps its replay's cache share). Each query's
        // own replay may cache less beside a larger tensor that fits its cached blocks better
        // (the caching allocator is not monotone in request sizes), but never so much less
        // that the device figure falls below what the smaller run's live tensors need.
        let s = variantable(&q);
        let mut q2 = q.clone();
        q2.batch = q.batch + 1;
        if let Ok(r2) = evaluate(&q2) {
            prop_assert!(r2.memory.allocated >= m.allocated);
            prop_assert!(r2.memory.device + (m.reserved - m.allocated) >= m.device, "batch +1: {} < {}", r2.memory.device, m.device);
            prop_assert!(variant_device(&s, &q2) >= variant_device(&s, &q), "batch +1 lowered the solvers' device figure");
        }
        let mut q3 = q.clone();
        q3.seq = q.seq * 2;
        if let Ok(r3) = evaluate(&q3) {
            prop_assert!(r3.memory.allocated >= m.allocated);
            prop_assert!(r3.memory.device + (m.reserved - m.allocated) >= m.device, "seq x2: {} < {}", r3.memory.device, m.device);
            prop_assert!(variant_device(&s, &q3) >= variant_device(&s, &q), "seq x2 lowered the solvers' device figure");
        }
    }

    #[test]
    fn zero3_per_gpu_non_increasing_in_gpus(model in prop::sample::select(vec!["llama-3.1-8b", "qwen2.5-14b", "mixtral-8x7b", "gpt2"]),
                                            method in prop::sample::select(vec![Method::Full, Method::Lora]), n in 1u32..=512) {
        let q = |g: u32| Query { model: Some(model.into()), method, shard: ShardingStrategy::Zero3, seq: 1024, gpus: g, nodes: g.div_ceil(8), ..Query::default() };
        let a = evaluate(&q(n)).unwrap().memory;
        let b = evaluate(&q(n + 1)).unwrap().memory;
        prop_assert!(b.weights + b.gradients + b.optimizer <= a.weights + a.gradients + a.optimizer);
        if n >= 2 {
            let qn = q(n);
            let s = variantable(&qn);
            prop_assert!(variant_device(&s, &q(n + 1)) <= variant_device(&s, &q(n)));
            prop_assert!(b.device <= a.device + (b.reserved - b.allocated), "{} > {}", b.device, a.device);
        }
    }
}

#[test]
fn absurd_input_is_an_error_naming_a_key() {
    for (s, key) in
        [("batch=0", "batch"), ("seq=1e12", "seq"), ("rank=5000", "rank"), ("batch=-1", "batch"), ("gpus=0", "gpus")]
    {
        let e = Query::parse(s).unwrap_err();
        assert_eq!(e.0[0].key, key, "{s}");
    }
    // Parses, but impossible for this model: named keys, no panic.
    for (s, key) in [
        ("model=llama-3.2-1b&method=lora&rank=4096", "rank"),
        ("model=gpt2&method=freeze&train_layers=13", "train_layers"),
        ("model=nope", "model"),
        ("gpus=8&tp=3", "tp"),
        ("model=gpt2&method=adapter&bottleneck=5000", "bottleneck"),
        ("model=llama-3.1-405b&attn=eager&seq=10000000&batch=65536&method=full", "seq"),
        // Passes the token guard, but its eager scores alone pass 2^64 bytes in the replay.
        ("model=llama-3.1-405b&method=full&attn=eager&ckpt=none&batch=65536&seq=131072", "seq"),
    ] {
        match evaluate(&Query::parse(s).unwrap()) {
            Err(e @ (tunefit_core::Error::Invalid { .. } | tunefit_core::Error::Refused(_))) => {
                assert_eq!(e.key(), Some(key), "{s}")
            }
            other => panic!("{s}: expected an error naming {key}, got {other:?}"),
        }
    }
    // The largest accepted values evaluate to finite figures or a named error, never a panic.
    let r =
        evaluate(&Query::parse("params=100t&batch=65536&seq=10000000&attn=eager&method=full&precision=fp32").unwrap());
    assert!(r.is_err() || r.unwrap().memory.device > 0);
}

#[test]
fn solvers_agree_with_the_forward_model() {
    // The solvers search variants of the query that keep its replay's cache share: the answer
    // fits by that figure and one more does not.
    let q = Query::parse("model=llama-3.1-8b&method=qlora&batch=1&seq=1024&gpu=rtx-4090").unwrap();
    let r = evaluate(&q).unwrap();
    let f = r.fit.unwrap();
    let vram = f.vram;
    let s = variantable(&q);
    let b = f.max_batch.expect("some batch fits a 4090");
    let at = |batch: u32, seq: u32| variant_device(&s, &Query { batch, seq, ..q.clone() });
    assert!(at(b, q.seq) <= vram && at(b + 1, q.seq) > vram);
    let n = f.max_seq.unwrap();
    assert!(at(q.batch, n) <= vram && at(q.batch, n + 1) > vram);
    // Applied, the answer's own replay lands within the error band of the figure searched.
    let own = evaluate(&Query { batch: b, gpu: None, ..q.clone() }).unwrap().memory.device as f64;
    assert!(own <= at(b, q.seq) as f64 * (1.0 + tunefit_core::report::BAND_UNDER), "{own}");
    // Full fine-tune of 70B on 80 GB GPUs: ZeRO-3 needs several; the count found fits and one fewer does not.
    let q = Query::parse(
        "model=llama-3.1-70b&method=full&shard=zero3&precision=bf16-mixed&batch=1&seq=2048&ckpt=full&gpu=h100-sxm",
    )
    .unwrap();
    let f = evaluate(&q).unwrap().fit.unwrap();
    let s = variantable(&q);
    let n = f.min_gpus.expect("some count fits");
    let dev = |g: u32| variant_device(&s, &Query { gpus: g, nodes: g.div_ceil(8), ..q.clone() });
    assert!(n > 1 && dev(n) <= f.vram && dev(n - 1) > f.vram, "n={n}");
}

#[test]
fn a_variant_across_one_gpu_and_several_replays_its_own_cache() {
    // FSDP's gradients cached on the reduce-scatter stream exist only over several ranks: the
    // one-GPU replay's share says nothing of them.
    let one = Query::parse("model=llama-3-8b&method=full&shard=fsdp&batch=8&seq=512").unwrap();
    let s = variantable(&one);
    let more = Query { batch: 16, ..one.clone() };
    assert_eq!(s.variant(&more).cache_excess, s.cache_excess);
    let eight = Query { gpus: 8, ..one.clone() };
    assert_eq!(s.variant(&eight).cache_excess, None);
    let tp8 = Query::parse("model=llama-3-8b&method=full&shard=fsdp&gpus=8&tp=8").unwrap();
    let s = variantable(&tp8);
    assert_eq!(s.variant(&Query { gpus: 16, ..tp8.clone() }).cache_excess, None, "two data-parallel ranks");
    assert!(s.variant(&Query { batch: 2, ..tp8.clone() }).cache_excess.is_some());
}
