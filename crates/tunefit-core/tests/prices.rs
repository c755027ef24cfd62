//! A person's own prices: overrides and custom offers change the ranking; CSV, JSON and the
//! compact link form round-trip; corrupted input is an error naming line/entry and field.
use tunefit_core::prices::*;
use tunefit_core::report::evaluate_with_prices;
use tunefit_core::{evaluate, Query};

fn q(s: &str) -> Query {
    Query::parse(s).unwrap()
}

fn book_json(s: &str) -> PriceBook {
    PriceBook::from_json(s).unwrap()
}

#[test]
fn an_override_changes_the_ranking() {
    // An A100 80GB job at on-demand prices: make one offer that is not cheapest nearly free.
    let query = q("v=1&gpu=a100-80gb&pricing=on-demand");
    let base = evaluate(&query).unwrap().cost.unwrap();
    assert!(base.offers.len() >= 2);
    let last = base.offers.last().unwrap();
    assert_ne!(base.offers[0].offer, last.offer);
    let book = PriceBook {
        overrides: vec![PriceOverride {
            provider: last.provider.into(),
            gpu: last.gpu.into(),
            gpus_per_instance: last.gpus,
            on_demand_usd_h: Some(0.01),
            spot_usd_h: None,
        }],
        custom_offers: vec![],
    };
    let r = evaluate_with_prices(&query, &book).unwrap().cost.unwrap();
    let first = &r.offers[0];
    assert_eq!((first.provider, first.gpu, first.gpus), (last.provider, last.gpu, last.gpus), "{first:?}");
    assert_eq!(first.confidence, "user");
    assert!(first.usd_total < base.offers[0].usd_total);
    // The same count of rows: an override changes a price, it adds no offer.
    assert_eq!(r.offers.len(), base.offers.len());
}

#[test]
fn an_empty_book_changes_nothing() {
    let query = q("v=1&gpu=a10g");
    assert_eq!(evaluate_with_prices(&query, &PriceBook::default()).unwrap(), evaluate(&query).unwrap());
}

#[test]
fn a_custom_offer_is_ranked_with_its_own_billing() {
    let query = q("v=1&gpu=h100-sxm&pricing=on-demand");
    let book = book_json(
        r#"{"custom_offers": [{"name": "lab-h100", "provider": "my-lab", "gpu": "h100-sxm",
        "gpus_per_instance": 1, "on_demand_usd_h": 0.5, "billing": "second"}]}"#,
    );
    let r = evaluate_with_prices(&query, &book).unwrap().cost.unwrap();
    let first = &r.offers[0];
    assert_eq!(first.offer, "own/lab-h100");
    assert_eq!(first.provider, "my-lab");
    assert_eq!(first.billing, "per-second");
    // Per-second billing: compute cost is hours × price exactly (plus storage and egress).
    assert!(first.usd_total >= first.hours * 0.5 && first.usd_total < first.hours * 0.5 + 20.0, "{first:?}");
    // The provider filter accepts the custom provider.
    let only = evaluate_with_prices(&q("v=1&gpu=h100-sxm&provider=my-lab"), &book).unwrap().cost.unwrap();
    assert!(only.offers.iter().all(|o| o.provider == "my-lab") && !only.offers.is_empty());
}

#[test]
fn an_unmatched_override_is_a_warning_not_an_error() {
    let book = PriceBook {
        overrides: vec![PriceOverride {
            provider: "aws".into(),
            gpu: "rtx-4090".into(),
            gpus_per_instance: 3,
            on_demand_usd_h: Some(1.0),
            spot_usd_h: None,
        }],
        custom_offers: vec![],
    };
    let r = evaluate_with_prices(&q("v=1"), &book).unwrap().cost.unwrap();
    assert!(r.warnings.iter().any(|w| w.code() == "price_override_unmatched"));
}

fn sample() -> PriceBook {
    PriceBook {
        overrides: vec![
            PriceOverride {
                provider: "aws".into(),
                gpu: "h100-sxm".into(),
                gpus_per_instance: 8,
                on_demand_usd_h: Some(40.5),
                spot_usd_h: None,
            },
            PriceOverride {
                provider: "lambda".into(),
                gpu: "a100-80gb".into(),
                gpus_per_instance: 1,
                on_demand_usd_h: None,
                spot_usd_h: Some(0.9),
            },
        ],
        custom_offers: vec![CustomOffer {
            name: "lab".into(),
            provider: "my-lab".into(),
            gpu: "rtx-4090".into(),
            gpus_per_instance: 2,
            on_demand_usd_h: Some(0.3),
            spot_usd_h: Some(0.125),
            billing: Some("minute".into()),
        }],
    }
}

#[test]
fn json_csv_and_compact_round_trip() {
    let b = sample();
    assert_eq!(PriceBook::from_json(&b.to_json()).unwrap(), b);
    assert_eq!(PriceBook::from_csv(&b.to_csv()).unwrap(), b);
    assert_eq!(PriceBook::from_compact(&b.to_compact()).unwrap(), b);
    assert_eq!(b.to_compact(), "o:aws:h100-sxm:8:40.5:;o:lambda:a100-80gb:1::0.9;c:lab:my-lab:rtx-4090:2:0.3:0.125:m");
}

#[test]
fn csv_accepts_quotes_comments_any_column_order_and_a_bom() {
    let text = "\u{feff}# my prices\r\ngpu,provider,kind,gpus_per_instance,spot_usd_h,on_demand_usd_h\r\n\"h100-sxm\",aws,override,8,,40.5\r\n\n";
    let b = PriceBook::from_csv(text).unwrap();
    assert_eq!(b.overrides, sample().overrides[..1]);
}

fn csv_err(body: &str) -> PriceError {
    let text = format!("kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name\n{body}");
    PriceBook::from_csv(&text).unwrap_err()
}

#[test]
fn bad_csv_names_line_and_field() {
    let e = csv_err("override,aws,h100-sxm,8,-3,,,\n");
    assert_eq!((e.line, e.field.as_str()), (Some(2), "on_demand_usd_h"));
    assert!(e.message().contains("negative"), "{e}");
    let e = csv_err("override,aws,h100-sxm,8,1,,,\noverride,aws,h100-sxm,8,NaN,,,\n");
    assert_eq!((e.line, e.field.as_str()), (Some(3), "on_demand_usd_h"), "{e}");
    let e = csv_err("override,aws,h100-sxm,8,inf,,,\n");
    assert_eq!(e.field, "on_demand_usd_h");
    let e = csv_err("override,aws,h100-sxm,eight,1,,,\n");
    assert_eq!(e.field, "gpus_per_instance");
    let e = csv_err("override,aws,h100-sxm,0,1,,,\n");
    assert_eq!(e.field, "gpus_per_instance");
    let e = csv_err("override,aws,warp-9000,8,1,,,\n");
    assert_eq!(e.field, "gpu");
    let e = csv_err("lease,aws,h100-sxm,8,1,,,\n");
    assert_eq!(e.field, "kind");
    let e = csv_err("custom,lab,h100-sxm,8,1,,weekly,x\n");
    assert_eq!(e.field, "billing");
    let e = csv_err("custom,lab,h100-sxm,8,1,,,\n");
    assert_eq!(e.field, "name");
    let e = csv_err("override,aws,h100-sxm,8,,,,\n");
    assert_eq!(e.field, "on_demand_usd_h");
    assert!(e.message().contains("on-demand or a spot price"));
    let e = csv_err("override,aws,h100-sxm\n");
    assert_eq!(e.line, Some(2));
    let e = PriceBook::from_csv("kind,provider,gpu\n").unwrap_err();
    assert_eq!(e.field, "gpus_per_instance");
    let e = PriceBook::from_csv("kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,colour\n").unwrap_err();
    assert_eq!(e.field, "colour");
}

#[test]
fn bad_json_names_line_and_field() {
    let e = PriceBook::from_json("{\n  \"overrides\": [\n    {\"provider\": \"aws\", \"gpu\": \"h100-sxm\", \"gpus_per_instance\": 8, \"on_demand_usd_h\": -1}\n  ]\n}").unwrap_err();
    assert_eq!(e.field, "overrides[0].on_demand_usd_h", "{e}");
    let e = PriceBook::from_json("{\"overrides\": [{\"provider\": \"aws\", \"gpu\": \"h100-sxm\"}]}").unwrap_err();
    assert_eq!(e.field, "gpus_per_instance", "{e}");
    let e = PriceBook::from_json("{\"overides\": []}").unwrap_err();
    assert_eq!(e.field, "overides", "{e}");
    let e = PriceBook::from_json("{\n\"overrides\": [\n{\"provider\": \"aws\",").unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    let e = PriceBook::from_json("{\"overrides\": [{\"provider\": \"aws\", \"gpu\": \"h100-sxm\", \"gpus_per_instance\": 8, \"spot_usd_h\": 1e400}]}").unwrap_err();
    assert!(e.line.is_some(), "{e}");
    let e = PriceBook::from_json(r#"{"custom_offers": [{"name": "a", "provider": "p", "gpu": "l4", "gpus_per_instance": 1, "on_demand_usd_h": 1},
                                                      {"name": "a", "provider": "p", "gpu": "l4", "gpus_per_instance": 1, "on_demand_usd_h": 2}]}"#).unwrap_err();
    assert_eq!(e.field, "custom_offers[1].name");
    let e = PriceBook::from_json(r#"{"custom_offers": [{"name": "<b>", "provider": "p", "gpu": "l4", "gpus_per_instance": 1, "on_demand_usd_h": 1}]}"#).unwrap_err();
    assert_eq!(e.field, "custom_offers[0].name");
}

#[test]
fn evaluate_refuses_an_invalid_book_by_field() {
    let mut b = sample();
    b.custom_offers[0].spot_usd_h = Some(f64::NAN);
    let e = evaluate_with_prices(&q("v=1"), &b).unwrap_err();
    assert!(e.to_string().contains("custom_offers[0].spot_usd_h"), "{e}");
}

#[test]
fn bad_compact_names_the_entry() {
    let e = PriceBook::from_compact("o:aws:h100-sxm:8:40:;o:aws:h100-sxm:8:-1:").unwrap_err();
    assert_eq!(e.field, "prices[1].on_demand_usd_h");
    let e = PriceBook::from_compact("x:1").unwrap_err();
    assert_eq!(e.field, "prices[0]");
    let e = PriceBook::from_compact("c:lab:p:l4:1:1::w").unwrap_err();
    assert_eq!(e.field, "prices[0].billing");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;
    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn corrupted_input_is_an_error_never_a_panic(s in any::<String>(), cut in 0usize..400) {
            let _ = PriceBook::from_json(&s);
            let _ = PriceBook::from_csv(&s);
            let _ = PriceBook::from_compact(&s);
            // Truncated and mutated versions of valid files.
            for text in [sample().to_json(), sample().to_csv(), sample().to_compact()] {
                let mut cut_at = cut.min(text.len());
                while !text.is_char_boundary(cut_at) { cut_at -= 1; }
                let t = &text[..cut_at];
                let _ = PriceBook::from_json(t);
                let _ = PriceBook::from_csv(t);
                let _ = PriceBook::from_compact(t);
                let spliced = format!("{t}{s}");
                if let Ok(b) = PriceBook::from_csv(&spliced) { prop_assert!(b.validate().is_ok()); }
                if let Ok(b) = PriceBook::from_compact(&spliced) { prop_assert!(b.validate().is_ok()); }
            }
        }
    }
}
