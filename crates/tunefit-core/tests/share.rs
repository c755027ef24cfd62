//! Share links: the v1 query string as is, prices only on request and only in the fragment.
use tunefit_core::prices::{CustomOffer, PriceBook};
use tunefit_core::share::{open_link, share_link};
use tunefit_core::Query;

fn book() -> PriceBook {
    PriceBook {
        overrides: vec![],
        custom_offers: vec![CustomOffer {
            name: "lab".into(),
            provider: "my-lab".into(),
            gpu: "h100-sxm".into(),
            gpus_per_instance: 8,
            on_demand_usd_h: Some(16.0),
            spot_usd_h: None,
            billing: Some("hour".into()),
        }],
    }
}

#[test]
fn without_prices_the_link_is_the_plain_v1_link() {
    let q = Query::parse("v=1&batch=8").unwrap();
    assert_eq!(share_link("https://x.org/tunefit/", &q, None), "https://x.org/tunefit/?v=1&batch=8");
    assert_eq!(
        share_link("https://x.org/tunefit/", &q, Some(&PriceBook::default())),
        "https://x.org/tunefit/?v=1&batch=8"
    );
}

#[test]
fn prices_go_into_the_fragment_and_come_back() {
    let q = Query::parse("v=1&gpu=h100-sxm&gpus=8").unwrap();
    let link = share_link("https://x.org/", &q, Some(&book()));
    assert_eq!(link, "https://x.org/?v=1&gpus=8&gpu=h100-sxm#prices=c:lab:my-lab:h100-sxm:8:16::h");
    let s = open_link(&link);
    assert_eq!(s.query, q);
    assert!(s.errors.is_empty());
    assert_eq!(s.prices, Some(book()));
    // The query part alone is an ordinary v1 link.
    assert_eq!(Query::parse(link.split_once('?').unwrap().1.split('#').next().unwrap()).unwrap(), q);
}

#[test]
fn bad_parts_are_reported_and_the_rest_applies() {
    let s = open_link("?v=1&batch=0&seq=4096#prices=o:aws:h100-sxm:8:-5:");
    assert_eq!(s.query.seq, 4096);
    assert_eq!(s.errors.len(), 1);
    assert_eq!(s.prices, None);
    assert_eq!(s.price_error.unwrap().field, "prices[0].on_demand_usd_h");
    let s = open_link("https://x.org/tunefit/");
    assert_eq!(s.query, Query::default());
    let s = open_link("#prices=%3Cscript%3E");
    assert!(s.price_error.is_some());
}
