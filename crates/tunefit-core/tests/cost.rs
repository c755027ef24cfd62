//! Every cost rule, and the ranking built on them.
use tunefit_core::cost::{billed_hours, cost, wall_hours, CostInput};
use tunefit_core::dataset::Billing;
use tunefit_core::{evaluate, Error, Query};

fn input() -> CostInput {
    CostInput {
        usd_per_instance_h: 2.0,
        instances: 1,
        hours_per_run: 3.0,
        runs: 1,
        billing: Billing::Second,
        billing_min_s: 0.0,
        interrupt_rate_h: 0.0,
        ckpt_interval_min: 30.0,
        restart_min: 10.0,
        idle_h: 0.0,
        storage_gb: 0.0,
        storage_h: 0.0,
        storage_usd_gb_month: 0.1,
        egress_gb: 0.0,
        egress_usd_gb: 0.09,
    }
}

#[test]
fn hourly_billing_rounds_61_minutes_to_2_hours() {
    assert_eq!(billed_hours(61.0 / 60.0, Billing::Hour, 0.0), 2.0);
    assert_eq!(billed_hours(1.0, Billing::Hour, 0.0), 1.0);
    assert_eq!(billed_hours(61.0 / 60.0, Billing::Minute, 0.0), 61.0 / 60.0);
    assert!((billed_hours(61.5 / 60.0, Billing::Minute, 0.0) - 62.0 / 60.0).abs() < 1e-12);
    // A minimum charge applies to short runs.
    assert_eq!(billed_hours(10.0 / 3600.0, Billing::Second, 60.0), 60.0 / 3600.0);
    let c = cost(&CostInput { hours_per_run: 61.0 / 60.0, billing: Billing::Hour, ..input() }).unwrap();
    assert_eq!(c.compute_usd, 4.0);
}

#[test]
fn each_run_is_rounded_separately() {
    let c = cost(&CostInput { hours_per_run: 0.25, runs: 4, billing: Billing::Hour, ..input() }).unwrap();
    assert_eq!(c.billed_hours_per_run, 1.0);
    assert_eq!(c.compute_usd, 8.0); // 4 runs × 1 h × $2, not 1 h in total
    assert_eq!(c.usd_per_run, 2.0);
}

#[test]
fn spot_without_interruptions_costs_exactly_the_spot_price() {
    let c =
        cost(&CostInput { usd_per_instance_h: 1.25, hours_per_run: 7.0, interrupt_rate_h: 0.0, ..input() }).unwrap();
    assert_eq!(c.wall_hours_per_run, 7.0);
    assert_eq!(c.usd_total, 1.25 * 7.0);
}

#[test]
fn more_interruptions_or_longer_intervals_never_cost_less() {
    let mut last = 0.0;
    for rate in [0.0, 0.01, 0.05, 0.1, 0.5, 1.0, 3.0] {
        let c = cost(&CostInput { interrupt_rate_h: rate, ..input() }).unwrap().usd_total;
        assert!(c >= last, "rate {rate}: {c} < {last}");
        last = c;
    }
    let mut last = 0.0;
    for tau in [1.0, 5.0, 15.0, 30.0, 60.0, 240.0] {
        let c = cost(&CostInput { interrupt_rate_h: 0.2, ckpt_interval_min: tau, ..input() }).unwrap().usd_total;
        assert!(c >= last, "interval {tau}: {c} < {last}");
        last = c;
    }
    // Expected lost work = λ·(τ/2 + restart): 0.5/h × (30/2 + 10) min = 12.5 min per hour.
    assert!((wall_hours(1.0, 0.5, 30.0, 10.0) - (1.0 + 12.5 / 60.0)).abs() < 1e-12);
}

#[test]
fn instances_runs_storage_and_egress_add_up() {
    let c = cost(&CostInput { instances: 2, runs: 3, storage_gb: 100.0, egress_gb: 10.0, ..input() }).unwrap();
    assert!((c.compute_usd - 2.0 * 2.0 * 3.0 * 3.0).abs() < 1e-9);
    assert!((c.storage_usd - 100.0 * 0.1 * 9.0 / 730.0).abs() < 1e-9);
    assert!((c.egress_usd - 10.0 * 0.09 * 3.0).abs() < 1e-9);
    assert!((c.usd_total - (c.compute_usd + c.storage_usd + c.egress_usd)).abs() < 1e-9);
    assert!((c.usd_per_run * 3.0 - c.usd_total).abs() < 1e-9);
}

#[test]
fn idle_time_is_billed_with_its_run_and_storage_lasts_the_project() {
    // Per-hour billing: a 20-minute run alone is billed as one hour; with 20 minutes of idle
    // after it, still one hour; with 50 minutes, two.
    let short = CostInput { hours_per_run: 20.0 / 60.0, billing: Billing::Hour, ..input() };
    let billed = |idle_min: f64| cost(&CostInput { idle_h: idle_min / 60.0, ..short }).unwrap().billed_hours_per_run;
    assert_eq!(billed(0.0), 1.0);
    assert_eq!(billed(20.0), 1.0);
    assert_eq!(billed(50.0), 2.0);
    // Per-second billing charges the idle minutes exactly.
    let c = cost(&CostInput { idle_h: 0.5, runs: 2, ..input() }).unwrap();
    assert!((c.compute_usd - 2.0 * 3.5 * 2.0).abs() < 1e-9, "{}", c.compute_usd);
    // Storage for the project's days when they are longer than the sessions, else the sessions.
    let kept = |storage_h: f64| cost(&CostInput { storage_gb: 100.0, storage_h, ..input() }).unwrap().storage_usd;
    assert!((kept(0.0) - 100.0 * 0.1 * 3.0 / 730.0).abs() < 1e-12);
    assert!((kept(2.0) - kept(0.0)).abs() < 1e-12, "shorter than the run: the run's time");
    assert!((kept(30.0 * 24.0) - 100.0 * 0.1 * 720.0 / 730.0).abs() < 1e-9);
    let e = cost(&CostInput { idle_h: -1.0, ..input() });
    assert!(matches!(e, Err(Error::Invalid { key, .. }) if key == "idle_min"));
}

#[test]
fn the_query_keys_reach_the_ranking() {
    let total = |extra: &str| {
        let r = evaluate(&Query::parse(&format!("gpu=h100-sxm&pricing=on-demand{extra}")).unwrap()).unwrap();
        r.cost.unwrap().cheapest.unwrap().usd_total
    };
    let base = total("");
    assert!(total("&idle_min=30") > base);
    assert!(total("&storage_days=30") > base);
    assert!(total("&download_gb=500") > base);
    // Each is a key of the link, and a default leaves the link as it was.
    let q = Query::parse("idle_min=30&storage_days=7&download_gb=12.5").unwrap();
    assert_eq!(q.to_query_string(), "v=1&storage_days=7&idle_min=30&download_gb=12.5");
    assert_eq!(Query::parse("idle_min=0").unwrap().to_query_string(), "v=1");
}

#[test]
fn billing_rounding_that_changes_the_winner_is_said() {
    let cost = |q: &str| evaluate(&Query::parse(q).unwrap()).unwrap().cost.unwrap();
    // Ten 45-minute sessions of idle after 20M-token LoRA runs: per-hour billing rounds each
    // session up, and the offer cheapest by price × time is no longer the cheapest in all.
    let c = cost("model=llama-3.1-8b&method=lora&tokens=20m&runs=10&idle_min=45&pricing=on-demand");
    let raw = |o: &tunefit_core::advice::RankedOffer| o.usd_per_hour * o.hours;
    let by_price = c.offers.iter().min_by(|a, b| raw(a).total_cmp(&raw(b))).unwrap();
    let cheapest = c.cheapest.as_ref().unwrap();
    assert_ne!((by_price.offer, by_price.pricing), (cheapest.offer, cheapest.pricing));
    let w = c.warnings.iter().find(|w| w.code() == "extras_change_winner").expect("the changed winner is said");
    let m = w.message();
    assert!(m.contains(by_price.provider) && m.contains(cheapest.provider), "{m}");
    assert!(by_price.usd_total > cheapest.usd_total);
    // A short QLoRA job without idle sessions: its cheapest is also the cheapest by price × time.
    let c = cost("model=llama-3.1-8b&method=qlora&tokens=5m&runs=10&pricing=on-demand");
    assert!(c.warnings.iter().all(|w| w.code() != "extras_change_winner"), "{:?}", c.warnings);
}

#[test]
fn negative_prices_and_rates_are_errors_naming_the_key() {
    let key = |r: Result<_, Error>| match r {
        Err(Error::Invalid { key, .. }) => key,
        other => panic!("{other:?}"),
    };
    assert_eq!(key(cost(&CostInput { usd_per_instance_h: -1.0, ..input() })), "price");
    assert_eq!(key(cost(&CostInput { interrupt_rate_h: -0.1, ..input() })), "interrupt_rate");
    assert_eq!(key(cost(&CostInput { usd_per_instance_h: f64::NAN, ..input() })), "price");
    assert_eq!(key(cost(&CostInput { egress_usd_gb: -2.0, ..input() })), "egress_price");
    let e = Query::parse("interrupt_rate=-1").unwrap_err();
    assert_eq!(e.0[0].key, "interrupt_rate");
}

#[test]
fn unknown_provider_or_gpu_is_an_error_naming_the_key() {
    for (s, k) in [("provider=nosuchcloud", "provider"), ("gpu=h900", "gpu")] {
        match evaluate(&Query::parse(s).unwrap()) {
            Err(e) => {
                assert_eq!(e.key(), Some(k));
                assert!(e.to_string().contains("unknown"), "{e}");
            }
            other => panic!("{s}: {other:?}"),
        }
    }
}

#[test]
fn ranking_is_sorted_filtered_and_has_a_pareto_front() {
    let r = evaluate(&Query::default()).unwrap();
    let c = r.cost.expect("cost");
    assert!(c.offers.len() > 20, "{}", c.offers.len());
    assert!(c.offers.windows(2).all(|w| w[0].usd_total <= w[1].usd_total));
    let cheapest = c.cheapest.unwrap();
    let fastest = c.fastest.unwrap();
    assert_eq!(cheapest, c.offers[0]);
    assert!(c.offers.iter().all(|o| o.hours >= fastest.hours));
    // The front starts with the fastest and ends with the cheapest; cost falls as time grows.
    assert_eq!(c.pareto.first().unwrap().hours, fastest.hours);
    assert_eq!(c.pareto.last().unwrap().usd_total, cheapest.usd_total);
    assert!(c.pareto.windows(2).all(|w| w[0].hours <= w[1].hours && w[0].usd_total > w[1].usd_total));
    assert!(!c.recommendation.is_empty());
    for o in &c.offers {
        assert!(o.usd_total.is_finite() && o.usd_total > 0.0 && o.hours > 0.0, "{o:?}");
    }

    let only = evaluate(&Query::parse("provider=lambda&pricing=on-demand").unwrap()).unwrap().cost.unwrap();
    assert!(!only.offers.is_empty());
    assert!(only.offers.iter().all(|o| o.provider == "lambda" && o.pricing == "on-demand"));
    let spot = evaluate(&Query::parse("pricing=spot").unwrap()).unwrap().cost.unwrap();
    assert!(spot.offers.iter().all(|o| o.pricing == "spot"));
    let g = evaluate(&Query::parse("gpu=a100-80gb").unwrap()).unwrap().cost.unwrap();
    assert!(g.offers.iter().all(|o| o.gpu == "a100-80gb"));
}

#[test]
fn more_runs_cost_more_and_per_run_is_total_over_runs() {
    let one = evaluate(&Query::parse("provider=lambda&pricing=on-demand").unwrap()).unwrap().cost.unwrap().offers;
    let five =
        evaluate(&Query::parse("provider=lambda&pricing=on-demand&runs=5").unwrap()).unwrap().cost.unwrap().offers;
    let a = one.iter().find(|o| o.offer == "lambda/h100-sxm/1").unwrap();
    let b = five.iter().find(|o| o.offer == "lambda/h100-sxm/1").unwrap();
    assert!((b.usd_total - 5.0 * a.usd_total).abs() < 1e-6 * b.usd_total);
    assert!((b.usd_per_run - a.usd_per_run).abs() < 1e-9 * b.usd_per_run.max(1.0));
}

#[test]
fn a_prices_age_counts_from_its_snapshot_date() {
    use tunefit_core::advice::age_days;
    // 2026-12-03 is day 20,790 since 1970-01-01.
    let today = 20_790.0;
    assert_eq!(age_days("2026-12-03", today), Some(0.0));
    assert_eq!(age_days("2026-09-01", today), Some(93.0));
    assert_eq!(age_days("~2026-09", today), Some(93.0), "an approximate month counts from its first day");
    assert_eq!(age_days("2024-02-29", today), Some(1008.0));
    assert_eq!(age_days("unknown", today), None);
}

#[test]
fn offers_say_per_gpu_price_staleness_and_implausible_spot() {
    let q = Query::parse("model=llama-3.1-8b&method=qlora&pricing=both").unwrap();
    let r = evaluate(&q).unwrap();
    let offers = &r.cost.as_ref().unwrap().offers;
    let od = offers.iter().find(|o| o.pricing == "on-demand" && o.gpus * o.instances == 8).unwrap();
    assert!((od.usd_per_gpu_hour() * 8.0 - od.usd_per_hour).abs() < 1e-9);
    let today = 20_790.0; // 2026-12-03
    let dated = |d: &'static str| tunefit_core::advice::RankedOffer { snapshot_date: d, ..od.clone() };
    assert!(dated("2026-09-01").is_stale(today));
    assert!(!dated("2026-11-01").is_stale(today));
    assert!(!dated("your price").is_stale(today), "a person's own price has no date to age");
    let spot = |usd: f64| tunefit_core::advice::RankedOffer { pricing: "spot", usd_per_hour: usd, ..od.clone() };
    assert!(spot(0.2 * od.usd_per_hour).spot_needs_check(od));
    assert!(!spot(0.4 * od.usd_per_hour).spot_needs_check(od));
    assert!(!dated("2026-11-01").spot_needs_check(od), "an on-demand price is not a spot price");
}

#[test]
fn needs_keep_only_providers_that_have_them() {
    use tunefit_core::advice::has;
    use tunefit_core::query::Need;
    let all = tunefit_core::evaluate(&tunefit_core::Query::parse("v=1&gpu=h100-sxm").unwrap()).unwrap().cost.unwrap();
    for need in Need::ALL {
        let r = tunefit_core::evaluate(
            &tunefit_core::Query::parse(&format!("v=1&gpu=h100-sxm&need={}", need.as_str())).unwrap(),
        )
        .unwrap()
        .cost
        .unwrap();
        // Every ranked offer's provider has it; every offer of such a provider is still ranked.
        for o in &r.offers {
            assert!(has(tunefit_core::dataset::provider(o.provider).unwrap(), *need), "{need}: {}", o.provider);
        }
        let kept =
            all.offers.iter().filter(|o| has(tunefit_core::dataset::provider(o.provider).unwrap(), *need)).count();
        assert_eq!(r.offers.len(), kept, "{need}");
    }
    // Per-second billing narrows the H100 ranking to a strict, non-empty subset.
    let sec = tunefit_core::evaluate(&tunefit_core::Query::parse("v=1&gpu=h100-sxm&need=per-second").unwrap())
        .unwrap()
        .cost
        .unwrap();
    assert!(
        !sec.offers.is_empty() && sec.offers.len() < all.offers.len(),
        "{} of {}",
        sec.offers.len(),
        all.offers.len()
    );
    // A bad value names the key and the accepted ones.
    let e = tunefit_core::Query::parse("need=teleport").unwrap_err();
    assert!(e.to_string().contains("need") && e.to_string().contains("per-second"), "{e}");
}
