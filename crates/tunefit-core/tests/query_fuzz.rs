//! Robust decoding, by property tests:
//! - `Query::parse_lenient` never panics on arbitrary strings or on structured hostile links
//!   (script tags, huge numbers, unicode, repeated keys, truncated %-escapes, empty keys);
//!   whatever it decodes is a valid state (its canonical link decodes strictly to the same
//!   state), and every notice is short enough to show.
//! - decode(encode(q)) == q for every valid `Query` (any state the decoder can produce).
//!
//! Cases per property come from `TUNEFIT_FUZZ_CASES` (default 500: a few seconds in a debug build). The
//! documented million-input run is in docs/sharing.md.
use proptest::prelude::*;
use proptest::test_runner::Config;
use tunefit_core::query::*;
use tunefit_core::Query;

fn cases() -> u32 {
    std::env::var("TUNEFIT_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(500)
}

fn config(divisor: u32) -> Config {
    // Shrinking a failure in a million-case run can take long; the failure itself is printed.
    Config {
        cases: (cases() / divisor).max(10),
        max_shrink_iters: 2000,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Checks everything a decoded link must satisfy.
fn check_decoded(input: &str) -> Result<(), TestCaseError> {
    let (q, errs) = Query::parse_lenient(input);
    for e in &errs {
        prop_assert!(e.message.len() < 600, "notice too long ({} bytes) for {:?}", e.message.len(), e.key);
        prop_assert!(e.key.chars().count() <= 40, "key not clipped: {:?}", e.key);
    }
    let canonical = q.to_query_string();
    prop_assert!(canonical.starts_with("v=1") || canonical.starts_with("v=2"), "{}", canonical);
    let again = Query::parse(&canonical);
    prop_assert_eq!(again, Ok(q), "canonical link {} of input {:?}", canonical, input);
    Ok(())
}

/// Values a hostile or careless link might carry.
fn hostile_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<script>alert(1)</script>".to_string()),
        Just("%3Cscript%3Ealert(1)%3C%2Fscript%3E".to_string()),
        Just("\"><img src=x onerror=alert(1)>".to_string()),
        Just("javascript:alert(1)".to_string()),
        Just("99999999999999999999999999999999".to_string()),
        Just("1e308".to_string()),
        Just("-1e308".to_string()),
        Just("1e-320".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("-inf".to_string()),
        Just("-0".to_string()),
        Just("18446744073709551616".to_string()),
        Just("4294967296".to_string()),
        Just("0x10".to_string()),
        Just("1.5e3b".to_string()),
        Just("100t".to_string()),
        Just("1000000t".to_string()),
        Just("%".to_string()),
        Just("%4".to_string()),
        Just("%zz".to_string()),
        Just("%+1".to_string()),
        Just("%e2%82".to_string()),
        Just("%ff%fe".to_string()),
        Just("%00".to_string()),
        Just("ünïcødé".to_string()),
        Just("８".to_string()),
        Just("٣".to_string()),
        Just("🦀🦀".to_string()),
        Just("q,,v,".to_string()),
        Just(",".to_string()),
        Just("all,all".to_string()),
        Just(String::new()),
        Just(" ".to_string()),
        Just("+".to_string()),
        "[0-9]{1,30}(\\.[0-9]{0,20})?[kmbgt]?",
        "-?[0-9]{0,5}(\\.[0-9]{0,5})?(e-?[0-9]{1,4})?",
        "[a-z0-9._-]{0,80}",
        "\\PC{0,30}",
        "(%[0-9a-fA-Fg-z+]{0,2}){1,8}",
        // One very long value: notices must quote only its start.
        "[a-z<>]{500,3000}",
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(KEYS.to_vec()).prop_map(str::to_string),
        1 => Just(String::new()),
        1 => "\\PC{0,60}",
        1 => Just("<script>".to_string()),
        1 => Just("%6Dodel".to_string()),
        1 => Just("MODEL".to_string()),
    ]
}

/// A link of 0..24 pairs joined with '&', some pairs malformed (no '=', extra '=', empty).
fn hostile_link() -> impl Strategy<Value = String> {
    let pair = prop_oneof![
        8 => (key(), hostile_value()).prop_map(|(k, v)| format!("{k}={v}")),
        1 => key(),
        1 => (key(), hostile_value(), hostile_value()).prop_map(|(k, a, b)| format!("{k}={a}={b}")),
        1 => Just(String::new()),
    ];
    (prop::collection::vec(pair, 0..24), any::<bool>()).prop_map(|(pairs, q)| {
        let s = pairs.join("&");
        if q {
            format!("?{s}")
        } else {
            s
        }
    })
}

fn opt<S: Strategy>(s: S) -> impl Strategy<Value = Option<S::Value>> {
    prop::option::of(s)
}

/// A value of a decimal key whose range starts at 0, as the decoder accepts it: 0 or a
/// magnitude from 1e-9 (smaller ones are refused, docs/query.md), with a share of tiny ones
/// whose canonical spelling has an exponent (`num::shortest`: below 1e-6).
fn decimal_from_0(hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (0.0..=hi).prop_map(|x| if x < 1e-9 { 0.0 } else { x }),
        1 => 1e-9f64..1e-6,
    ]
}

fn id() -> impl Strategy<Value = String> {
    "[a-z0-9][a-z0-9._-]{0,63}"
}

fn arch() -> impl Strategy<Value = ArchOverrides> {
    (
        (opt(1u32..=1000), opt(1u32..=1_000_000), opt(1u32..=10_000), opt(1u32..=10_000), opt(1u32..=10_000)),
        (opt(1u32..=10_000_000), opt(1u32..=10_000_000), opt(any::<bool>()), opt(1u32..=10_000), opt(1u32..=10_000)),
    )
        .prop_map(
            |((layers, hidden, heads, kv_heads, head_dim), (ffn, vocab, tied, experts, experts_per_token))| {
                ArchOverrides {
                    layers,
                    hidden,
                    heads,
                    kv_heads,
                    head_dim,
                    ffn,
                    vocab,
                    tied,
                    experts,
                    experts_per_token,
                    ..Default::default()
                }
            },
        )
}

fn choice<T: Clone + std::fmt::Debug + 'static>(all: &[T]) -> impl Strategy<Value = T> {
    prop::sample::select(all.to_vec())
}

/// Any state the decoder can produce: values inside each key's range, ids lowercase, a
/// non-empty target set, and `model` absent whenever `params` is given.
fn valid_query() -> impl Strategy<Value = Query> {
    let model = prop_oneof![
        2 => opt(id()).prop_map(|m| (m, None)),
        1 => (1_000_000u64..=100_000_000_000_000).prop_map(|p| (None, Some(p))),
        1 => prop::sample::select(vec![1_000_000u64, 350_000_000, 1_500_000_000, 7_000_000_000, 70_000_000_000]).prop_map(|p| (None, Some(p))),
    ];
    (
        (
            model,
            arch(),
            choice(Method::ALL),
            1u32..=4096,
            (1u16..512).prop_map(|bits| {
                TargetModule::ALL
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, t)| t)
                    .collect::<Targets>()
            }),
            choice(Quant::ALL),
            any::<bool>(),
            1u32..=1000,
            1u32..=65_536,
            1u32..=100_000,
            opt(decimal_from_0(0.99)),
        ),
        (
            choice(Precision::ALL),
            opt(choice(AdapterDtype::ALL)),
            choice(Optimizer::ALL),
            1u32..=65_536,
            1u32..=10_000_000,
            1u32..=65_536,
            opt(choice(Checkpointing::ALL)),
            opt(choice(Attention::ALL)),
            opt(choice(Loss::ALL)),
            opt(any::<bool>()),
            opt(any::<bool>()),
        ),
        (
            choice(Framework::ALL),
            1u32..=65_536,
            1u32..=8192,
            choice(ShardingStrategy::ALL),
            choice(Offload::ALL),
            1u32..=64,
            opt(id()),
            prop_oneof![
                1u64..=1_000_000_000_000_000,
                prop::sample::select(vec![1_000u64, 10_000_000, 2_500_000_000, 1_000_000_000_000])
            ],
            0.01f64..=1000.0,
            1u32..=10_000,
            choice(Pricing::ALL),
        ),
        (
            1.0f64..=10_000.0,
            opt(decimal_from_0(10.0)),
            opt(0.01f64..=1.0),
            opt(id()),
            prop_oneof![decimal_from_0(1_000_000.0), Just(0.0), Just(100.0)],
            any::<bool>(),
            opt(any::<bool>()),
            opt(choice(OptimizerImpl::ALL)),
            opt(0.1f64..=10.0),
            opt(choice(tunefit_core::query::AllocatorMode::ALL)),
            choice(tunefit_core::query::StateDictPlacement::ALL),
        ),
        (
            any::<bool>(),
            1u32..=256,
            1u32..=64,
            1u32..=256,
            choice(Compute::ALL),
            decimal_from_0(1440.0),
            0.001f64..=1000.0,
            0.001f64..=1000.0,
            decimal_from_0(10.0),
            opt(0.01f64..=1e9),
            opt(0.01f64..=1e6),
            choice(Goal::ALL),
        ),
        (
            1u32..=1000,
            any::<bool>(),
            opt(0u32..=8),
            opt(0u32..=2),
            opt(0u32..=1000),
            opt(0u32..=1_000_000),
            opt(0u32..=100_000),
            opt(0u32..=10_000),
            opt(0u64..=100_000_000_000),
            choice(tunefit_core::query::ExpertFormat::ALL),
            1u32..=65_536,
            // Bits 0–7: the needs; bit 8: the format version.
            // Bits 0–7: `need`; 8: the format version; 9–10: the display currency.
            0u16..2048,
        ),
        (
            0u32..=256,
            opt((1u32..=16_384, 1u32..=16_384)),
            choice(tunefit_core::query::TowerTraining::ALL),
            opt(any::<bool>()),
            opt(any::<bool>()),
        ),
    )
        .prop_map(
            |(
                (
                    (model, params),
                    arch,
                    method,
                    rank,
                    targets,
                    quant,
                    double_quant,
                    train_layers,
                    bottleneck,
                    virtual_tokens,
                    lora_dropout,
                ),
                (precision, adapter_dtype, optim, batch, seq, ga, ckpt, attn, loss, packing, compile),
                (framework, gpus, nodes, shard, offload, tp, gpu, tokens, epochs, runs, pricing),
                (
                    ckpt_interval_min,
                    interrupt_rate,
                    mfu,
                    provider,
                    storage_gb,
                    set_to_none,
                    act_offload,
                    optim_impl,
                    mem_scale,
                    alloc,
                    state_dict,
                ),
                (
                    sp,
                    pp,
                    pp_chunks,
                    cp,
                    compute,
                    startup_min,
                    download_gb_s,
                    save_gb_s,
                    eval_frac,
                    budget_usd,
                    deadline_h,
                    goal,
                ),
                (
                    ckpt_every,
                    optim_in_bwd,
                    norms,
                    qk_norm,
                    dense_layers,
                    shared_ffn,
                    kv_rank,
                    rope_dim,
                    vision_params,
                    expert_format,
                    galore_rank,
                    need_bits,
                ),
                (images, image_res, tower, tower_quant, autocast),
            )| {
                // "custom" is the encoder's spelling of "no preset", so it is never a preset id.
                let model = model.filter(|m| m != "custom");
                let need = tunefit_core::query::Need::ALL
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| need_bits & (1 << i) != 0)
                    .fold(tunefit_core::query::Needs::default(), |n, (_, x)| n.with(*x));
                let arch = tunefit_core::query::ArchOverrides {
                    norms,
                    qk_norm,
                    dense_layers,
                    shared_ffn,
                    kv_rank,
                    rope_dim,
                    vision_params,
                    ..arch
                };
                Query {
                    format: if need_bits & 256 != 0 { Format::V1 } else { Format::V2 },
                    currency: tunefit_core::query::Currency::ALL[usize::from(need_bits >> 9) % 3],
                    model,
                    params,
                    arch,
                    method,
                    rank,
                    targets,
                    quant,
                    double_quant,
                    train_layers,
                    bottleneck,
                    virtual_tokens,
                    lora_dropout,
                    precision,
                    adapter_dtype,
                    optim,
                    optim_impl,
                    batch,
                    seq,
                    ga,
                    images,
                    image_res: image_res.map(|(w, h)| tunefit_core::query::ImageSize { w, h }),
                    tower,
                    tower_quant,
                    autocast,
                    ckpt,
                    attn,
                    loss,
                    packing,
                    compile,
                    set_to_none,
                    alloc,
                    state_dict,
                    act_offload,
                    framework,
                    gpus,
                    nodes,
                    shard,
                    offload,
                    tp,
                    gpu,
                    tokens,
                    epochs,
                    runs,
                    pricing,
                    ckpt_interval_min,
                    interrupt_rate,
                    mfu,
                    mem_scale,
                    provider,
                    storage_gb,
                    // Derived from drawn values, so the strategy's tuples stay within proptest's
                    // arity; storage_gb / 3 has no short decimal, so it exercises the spelling.
                    storage_days: (need_bits % 7) as f64 * 1.5,
                    idle_min: (need_bits % 5) as f64 * 12.5,
                    // (0, or at least the decoder's 1e-9 floor.)
                    download_gb: if storage_gb >= 3e-9 { storage_gb / 3.0 } else { 0.0 },
                    sp,
                    pp,
                    pp_chunks,
                    cp,
                    compute,
                    startup_min,
                    download_gb_s,
                    save_gb_s,
                    eval_frac,
                    budget_usd,
                    deadline_h,
                    goal,
                    ckpt_every,
                    optim_in_bwd,
                    expert_format,
                    galore_rank,
                    need,
                    quant_skip: tunefit_core::query::QuantSkip::parse(&format!(
                        "{}.mlp,{}.self_attn.q_proj",
                        need_bits % 4,
                        need_bits % 3
                    ))
                    .unwrap(),
                }
            },
        )
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        check_decoded(&s)?;
    }

    #[test]
    fn arbitrary_bytes_as_a_query_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        // What a browser hands over is already text; invalid UTF-8 arrives percent-escaped.
        let s: String = bytes.iter().map(|b| if b.is_ascii() { (*b as char).to_string() } else { format!("%{b:02X}") }).collect();
        check_decoded(&s)?;
    }

    #[test]
    fn hostile_links_never_panic_and_keep_their_good_keys(link in hostile_link()) {
        check_decoded(&link)?;
        // The good keys still apply: appending a valid pair always takes effect.
        let (q, _) = Query::parse_lenient(&format!("{link}&batch=7"));
        prop_assert_eq!(q.batch, 7);
    }

    #[test]
    fn decode_of_encode_is_identity(q in valid_query()) {
        let s = q.to_query_string();
        prop_assert!(s.starts_with(&format!("v={}", q.format)), "{}", s);
        prop_assert_eq!(Query::parse(&s), Ok(q.clone()), "link {}", s);
        // Canonical means stable: encoding the decoded state gives the same link.
        prop_assert_eq!(Query::parse(&s).unwrap().to_query_string(), s);
    }
}
