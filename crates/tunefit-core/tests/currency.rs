//! The display currency: offers in rubles and dollars ranked together at the dataset's dated
//! rates, every figure in the chosen currency, and the rate named with its date.
use tunefit_core::advice::{conversion, rank_with};
use tunefit_core::dataset::{self, Offer};
use tunefit_core::query::Currency;
use tunefit_core::settings::Settings;
use tunefit_core::{evaluate, Query};

fn q(s: &str) -> Query {
    Query::parse(s).unwrap()
}

#[test]
fn the_rates_are_dated_and_sourced() {
    let rub = dataset::rate("RUB").expect("a ruble rate");
    assert_eq!((rub.per_usd, rub.date, rub.source), (76.04, "2026-01-23", "Bank of Russia"));
    let eur = dataset::rate("EUR").expect("a euro rate");
    // The Bank of Russia's EUR and USD rates of the same day, crossed: 76.04 / 88.79.
    assert!((eur.per_usd - 76.04 / 88.79).abs() < 1e-6, "{}", eur.per_usd);
    assert_eq!(eur.date, rub.date);
    assert_eq!(dataset::per_usd("USD"), Some(1.0));
    assert_eq!(dataset::per_usd("XXX"), None);
    assert!(dataset::check().is_empty(), "{:?}", dataset::check());
}

#[test]
fn conversion_goes_through_the_dollar() {
    assert_eq!(conversion("USD", Currency::Usd), Some(1.0));
    assert_eq!(conversion("USD", Currency::Rub), Some(76.04));
    assert!((conversion("RUB", Currency::Usd).unwrap() - 1.0 / 76.04).abs() < 1e-15);
    // Rubles to euros: 76.04 RUB is one dollar, which is 0.856403 EUR.
    assert!((conversion("RUB", Currency::Eur).unwrap() * 76.04 - 0.856403).abs() < 1e-9);
    assert_eq!(conversion("XXX", Currency::Usd), None);
}

#[test]
fn every_figure_of_the_ranking_is_in_the_display_currency() {
    let usd = evaluate(&q("v=2&gpu=a100-80gb")).unwrap().cost.unwrap();
    let rub = evaluate(&q("v=2&gpu=a100-80gb&currency=rub")).unwrap().cost.unwrap();
    assert_eq!((usd.currency, rub.currency), ("USD", "RUB"));
    assert!(usd.rates.is_empty(), "no conversion, no rate: {:?}", usd.rates);
    assert_eq!(rub.rates.len(), 1);
    assert_eq!((rub.rates[0].code, rub.rates[0].date), ("RUB", "2026-01-23"));
    assert_eq!(usd.offers.len(), rub.offers.len());
    for (u, r) in usd.offers.iter().zip(&rub.offers) {
        // The same order: one factor scales every offer alike.
        assert_eq!((u.offer, u.pricing, u.instances), (r.offer, r.pricing, r.instances));
        assert_eq!((u.currency, r.currency), ("USD", "RUB"));
        assert_eq!(r.priced_in, Some("USD"), "converted from the offer's own dollars");
        for (a, b) in [(u.usd_total, r.usd_total), (u.usd_per_hour, r.usd_per_hour), (u.usd_per_run, r.usd_per_run)] {
            assert!((a * 76.04 - b).abs() <= 1e-9 * b.max(1.0), "{a} USD vs {b} RUB");
        }
        assert_eq!(u.hours, r.hours);
    }
    // The recommendation says its money in rubles.
    assert!(rub.recommendation.contains("\u{a0}₽"), "{}", rub.recommendation);
    assert!(!rub.recommendation.contains('$'), "{}", rub.recommendation);
    assert!(usd.recommendation.contains('$'), "{}", usd.recommendation);
}

/// One dataset offer priced in US dollars, and a copy of it in rubles at `rub_h` per hour.
fn usd_and_rub(rub_h: f64) -> Vec<Offer> {
    let base = dataset::offers()
        .iter()
        .find(|o| o.provider == "runpod" && o.gpu == "a100-80gb" && o.count == 1 && o.currency == "USD")
        .expect("a one-GPU A100 80GB offer at RunPod")
        .clone();
    let rub = Offer {
        id: "runpod-rub/a100-80gb/1",
        tier: "rub",
        on_demand_usd_h: Some(rub_h),
        spot_usd_h: None,
        currency: "RUB",
        ..base.clone()
    };
    vec![Offer { spot_usd_h: None, ..base }, rub]
}

#[test]
fn a_ruble_offer_ranks_with_dollar_ones_in_dollars_and_in_rubles() {
    for (display, fx) in [("usd", 1.0), ("rub", 76.04), ("eur", 0.856403)] {
        let query = q(&format!("v=2&gpu=a100-80gb&provider=runpod&currency={display}"));
        let s = Settings::resolve(&query).unwrap();
        let est = tunefit_core::memory::estimate(&s).unwrap();
        let dollar = usd_and_rub(0.0)[0].on_demand_usd_h.unwrap();
        // Half the dollar price in rubles: the ruble offer is the cheaper one whatever the
        // display currency, and its hourly price is exactly half the dollar offer's.
        let cheap = usd_and_rub(dollar * 76.04 / 2.0);
        let c = rank_with(&s, &est, &cheap, &[]).unwrap();
        assert_eq!(c.offers.len(), 2, "{display}");
        assert_eq!(c.offers[0].offer, "runpod-rub/a100-80gb/1", "{display}");
        assert_eq!(c.offers[0].priced_in, (display != "rub").then_some("RUB"));
        assert_eq!(c.offers[1].priced_in, (display != "usd").then_some("USD"));
        let (r, u) = (c.offers[0].usd_per_hour, c.offers[1].usd_per_hour);
        assert!((r * 2.0 - u).abs() < 1e-9 * u, "{display}: {r} vs {u}");
        assert!((u - dollar * fx).abs() < 1e-9 * u, "{display}: {u} vs {} × {fx}", dollar);
        assert!(c.rates.iter().any(|r| r.code == "RUB"), "{display}: the ruble rate is named");
        // Twice the dollar price in rubles: now it ranks second.
        let dear = usd_and_rub(dollar * 76.04 * 2.0);
        let c = rank_with(&s, &est, &dear, &[]).unwrap();
        assert_eq!(c.offers[1].offer, "runpod-rub/a100-80gb/1", "{display}");
    }
}

#[test]
fn an_offer_in_a_currency_without_a_rate_is_left_out() {
    let query = q("v=2&gpu=a100-80gb&provider=runpod");
    let s = Settings::resolve(&query).unwrap();
    let est = tunefit_core::memory::estimate(&s).unwrap();
    let mut offers = usd_and_rub(100.0);
    offers[1].currency = "XXX";
    let c = rank_with(&s, &est, &offers, &[]).unwrap();
    assert!(c.offers.iter().all(|o| o.priced_in.is_none()), "{:?}", c.offers);
}

#[test]
fn the_budget_stays_in_dollars_whatever_the_display_currency() {
    let usd = tunefit_core::plan::plan(&q("v=2&model=qwen3-0.6b&gpu=a100-80gb&budget_usd=20")).unwrap();
    let rub = tunefit_core::plan::plan(&q("v=2&model=qwen3-0.6b&gpu=a100-80gb&budget_usd=20&currency=rub")).unwrap();
    assert!(!usd.is_empty());
    assert_eq!(usd.len(), rub.len());
    for (u, r) in usd.iter().zip(&rub) {
        assert_eq!((u.offer.as_str(), u.currency, r.currency), (r.offer.as_str(), "USD", "RUB"));
        assert!((u.usd * 76.04 - r.usd).abs() <= 1e-9 * r.usd.max(1.0));
    }
}

#[test]
fn the_markdown_names_the_currency_and_the_rate() {
    let r = evaluate(&q("v=2&gpu=a100-80gb&currency=eur")).unwrap();
    let md = tunefit_core::markdown::report_markdown(&r);
    assert!(md.contains("EUR, prices as of each snapshot; 1 USD = 0.856403 EUR (Bank of Russia, 2026-01-23)"), "{md}");
    assert!(md.contains("| EUR/h |") && md.contains("| Total EUR |"), "{md}");
}
