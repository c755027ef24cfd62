//! `tunefit estimate --json` with a display currency: the ranking says its currency and the
//! dated rate it went through; `tunefit offers --json` keeps each offer's own currency.
use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tunefit")).args(args).output().unwrap();
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

#[test]
fn the_json_names_the_currency_and_the_dated_rate() {
    let (ok, out, err) = run(&["estimate", "--json", "v=2&gpu=a100-80gb&currency=rub"]);
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cost = &r["cost"];
    assert_eq!(cost["currency"], "RUB");
    let rate = &cost["rates"][0];
    assert_eq!((rate["code"].as_str(), rate["per_usd"].as_f64()), (Some("RUB"), Some(76.04)));
    assert_eq!((rate["date"].as_str(), rate["source"].as_str()), (Some("2026-01-23"), Some("Bank of Russia")));
    assert!(rate["url"].as_str().unwrap().starts_with("https://"), "the CLI keeps the rate's page");
    let first = &cost["offers"][0];
    assert_eq!((first["currency"].as_str(), first["priced_in"].as_str()), (Some("RUB"), Some("USD")));
    assert!(r["query"].as_str().unwrap().contains("currency=rub"));
    // In dollars nothing is converted and no rate is named.
    let (_, out, _) = run(&["estimate", "--json", "v=2&gpu=a100-80gb"]);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["cost"]["currency"], "USD");
    assert!(r["cost"]["rates"].is_null() && r["cost"]["offers"][0]["priced_in"].is_null(), "{}", r["cost"]);
}

#[test]
fn offers_keep_their_own_currency() {
    let (ok, out, err) = run(&["offers", "--json"]);
    assert!(ok, "{err}");
    let list: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert!(!list.is_empty());
    assert!(list.iter().all(|o| o["currency"].as_str().is_some_and(|c| c.len() == 3)), "every row has its code");
}
