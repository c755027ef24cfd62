//! Planning from a goal: every plan fits with the error band and meets the limits, is the
//! configuration `tunefit estimate` evaluates from its query, tightening the budget never
//! finds a cheaper plan, and no plan is dominated by another of the same risk.
use tunefit_core::plan::{dominates, plan};
use tunefit_core::report::Verdict;
use tunefit_core::{evaluate, Query};

fn q(s: &str) -> Query {
    Query::parse(s).unwrap()
}

#[test]
fn every_plan_fits_meets_the_limits_and_reproduces_from_its_query() {
    for base in ["model=llama-3.1-8b&method=qlora&gpu=rtx-4090", "model=llama-3.1-8b&method=lora&batch=8&seq=4096&budget_usd=20",
                 "model=llama-3.1-70b&method=full&batch=1&seq=4096&gpus=8&shard=fsdp&goal=fastest&deadline_h=10&tokens=100m&epochs=1",
                 "model=qwen2.5-7b&method=full&goal=quality&budget_usd=100"] {
        let query = q(base);
        let plans = plan(&query).unwrap();
        assert!(!plans.is_empty(), "{base}: some plan");
        for p in &plans {
            assert!(query.budget_usd.is_none_or(|b| p.usd <= b) && query.deadline_h.is_none_or(|d| p.hours <= d), "{base}: {p:?}");
            let r = evaluate(&q(&p.query)).unwrap();
            assert_eq!(r.memory.device, p.device, "{}", p.query);
            let fit = r.fit.unwrap();
            assert_eq!(fit.verdict, Verdict::Fits, "{}", p.query);
            let row = r.cost.unwrap().offers.into_iter().find(|o| o.offer == p.offer && o.pricing == p.pricing).unwrap();
            assert_eq!((row.usd_total, row.hours), (p.usd, p.hours), "{}", p.query);
        }
        for a in &plans { for b in &plans { assert!(!dominates(a, b), "{base}: {} dominates {}", a.query, b.query); } }
    }
}

#[test]
fn a_tighter_budget_never_finds_a_cheaper_plan() {
    let cheapest = |b: f64| {
        plan(&q(&format!("model=llama-3.1-8b&method=lora&batch=4&seq=2048&tokens=200m&budget_usd={b}")))
            .unwrap()
            .iter()
            .map(|p| p.usd)
            .fold(f64::INFINITY, f64::min)
    };
    let mut last = 0.0f64;
    for b in [1000.0, 300.0, 100.0, 30.0, 10.0, 3.0] {
        let c = cheapest(b);
        if c.is_finite() {
            assert!(c <= b + 1e-9);
        }
        // Loosest first: each tighter budget's best plan costs at least the looser one's.
        assert!(c >= last - 1e-9, "budget {b}: {c} < {last}");
        last = if c.is_finite() { c } else { last };
    }
    assert!(
        plan(&q("model=llama-3.1-70b&method=full&budget_usd=0.01")).unwrap().is_empty(),
        "one cent buys no 70B fine-tune"
    );
}

#[test]
fn the_goal_orders_the_plans() {
    let cheap = plan(&q("model=llama-3.1-8b&method=lora&batch=4&seq=2048&tokens=100m")).unwrap();
    let fast = plan(&q("model=llama-3.1-8b&method=lora&batch=4&seq=2048&tokens=100m&goal=fastest")).unwrap();
    let good = plan(&q("model=llama-3.1-8b&method=lora&batch=4&seq=2048&tokens=100m&goal=quality")).unwrap();
    assert!(fast[0].hours <= cheap[0].hours + 1e-9 && cheap[0].usd <= fast[0].usd * 1.01);
    assert!(good.windows(2).all(|w| w[0].risk <= w[1].risk));
    // A person's invalid configuration is their error, named.
    assert!(plan(&q("gpus=8&tp=3")).is_err());
}

#[test]
fn what_a_plan_changes_reads_in_both_languages_and_the_json_keeps_english() {
    use tunefit_core::diag::Lang;
    let plans = plan(&q("model=llama-3.1-70b&method=full&gpu=rtx-4090&gpus=8&shard=fsdp")).unwrap();
    let changed: Vec<_> = plans.iter().flat_map(|p| p.gives_up.iter().copied()).collect();
    assert!(!changed.is_empty(), "{plans:?}");
    for c in &changed {
        let (en, ru) = (c.text(Lang::En), c.text(Lang::Ru));
        assert_eq!(en, c.to_string());
        assert!(ru.chars().any(|ch| ('а'..='я').contains(&ch)), "{ru}");
        // The figures and values of the English are in the Russian too.
        for v in en.split([' ', '(', ')', ';', ':', '~']).filter(|w| w.chars().any(|ch| ch.is_ascii_digit())) {
            assert!(ru.contains(v), "{v} lost in {ru}");
        }
    }
    let json = serde_json::to_value(&plans[0]).unwrap();
    let words: Vec<String> = plans[0].gives_up.iter().map(|c| c.to_string()).collect();
    assert_eq!(json["gives_up"], serde_json::json!(words));
}
