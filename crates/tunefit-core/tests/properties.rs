//! Properties over the parameter space: every output finite and non-negative; memory
//! monotone in batch and sequence; ZeRO-3 per-GPU memory non-increasing in GPU count;
//! absurd input is an error naming a key, never a panic.
use proptest::prelude::*;
use tunefit_core::query::*;
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn outputs_finite_nonnegative_and_monotone(q in any_query()) {
        let Ok(r) = evaluate(&q) else { return Ok(()); };
        let m = &r.memory;
        prop_assert!(m.allocated <= m.reserved && m.reserved <= m.device);
        prop_assert!(m.allocated >= m.weights);
        let mut q2 = q.clone();
        q2.batch = q.batch + 1;
        if let Ok(r2) = evaluate(&q2) {
            prop_assert!(r2.memory.device >= m.device, "batch +1 lowered device memory");
            prop_assert!(r2.memory.allocated >= m.allocated);
        }
        let mut q3 = q.clone();
        q3.seq = q.seq * 2;
        if let Ok(r3) = evaluate(&q3) {
            prop_assert!(r3.memory.device >= m.device, "seq x2 lowered device memory");
        }
    }

    #[test]
    fn zero3_per_gpu_non_increasing_in_gpus(model in prop::sample::select(vec!["llama-3.1-8b", "qwen2.5-14b", "mixtral-8x7b", "gpt2"]),
                                            method in prop::sample::select(vec![Method::Full, Method::Lora]), n in 1u32..=512) {
        let q = |g: u32| Query { model: Some(model.into()), method, shard: ShardingStrategy::Zero3, seq: 1024, gpus: g, nodes: g.div_ceil(8), ..Query::default() };
        let a = evaluate(&q(n)).unwrap().memory;
        let b = evaluate(&q(n + 1)).unwrap().memory;
        prop_assert!(b.weights + b.gradients + b.optimizer <= a.weights + a.gradients + a.optimizer);
        if n >= 2 { prop_assert!(b.device <= a.device); }
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
    let q = Query::parse("model=llama-3.1-8b&method=qlora&batch=1&seq=1024&gpu=rtx-4090").unwrap();
    let r = evaluate(&q).unwrap();
    let f = r.fit.unwrap();
    let vram = f.vram;
    let b = f.max_batch.expect("some batch fits a 4090");
    let at = |batch: u32, seq: u32| evaluate(&Query { batch, seq, gpu: None, ..q.clone() }).unwrap().memory.device;
    assert!(at(b, q.seq) <= vram && at(b + 1, q.seq) > vram);
    let s = f.max_seq.unwrap();
    assert!(at(q.batch, s) <= vram && at(q.batch, s + 1) > vram);
    // Full fine-tune of 70B on 80 GB GPUs: ZeRO-3 needs several; the count found fits and one fewer does not.
    let q = Query::parse(
        "model=llama-3.1-70b&method=full&shard=zero3&precision=bf16-mixed&batch=1&seq=2048&ckpt=full&gpu=h100-sxm",
    )
    .unwrap();
    let f = evaluate(&q).unwrap().fit.unwrap();
    let n = f.min_gpus.expect("some count fits");
    let dev =
        |g: u32| evaluate(&Query { gpus: g, nodes: g.div_ceil(8), gpu: None, ..q.clone() }).unwrap().memory.device;
    assert!(n > 1 && dev(n) <= f.vram && dev(n - 1) > f.vram, "n={n}");
}
