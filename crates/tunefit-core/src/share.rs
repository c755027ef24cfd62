//! Share links: the query string (v1, docs/query.md) plus, only when the person asks, their
//! own prices in the URL fragment as `#prices=<compact>` (`prices::PriceBook::to_compact`).
//!
//! Why the fragment and not a query key: the query string is the versioned v1 contract and
//! stays exactly as it is; a fragment is never sent to any server (a negotiated rate stays
//! between the two people sharing the link), and a v1 decoder that ignores fragments still
//! opens the same calculation. Decoding is lenient: a bad query key or a bad price list is
//! reported, and everything else applies.

use crate::prices::{PriceBook, PriceError};
use crate::query::{percent_decode, Query, QueryError};

/// What a shared link carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Shared {
    pub query: Query,
    /// Bad query keys, for the page's dismissible notice.
    pub errors: Vec<QueryError>,
    /// The sender's prices, when the link carries them and they are valid.
    pub prices: Option<PriceBook>,
    /// Why the carried prices were ignored.
    pub price_error: Option<PriceError>,
}

/// The link for `q` at `base` (the page's address without query or fragment), with the
/// person's prices only when `prices` is given and not empty.
pub fn share_link(base: &str, q: &Query, prices: Option<&PriceBook>) -> String {
    let mut link = format!("{base}?{}", q.to_query_string());
    if let Some(p) = prices.filter(|p| !p.is_empty()) {
        link.push_str("#prices=");
        link.push_str(&p.to_compact());
    }
    link
}

/// Decodes a link, or just its `?query#fragment` part (`location.search + location.hash`).
pub fn open_link(link: &str) -> Shared {
    let (before_hash, hash) = link.split_once('#').unwrap_or((link, ""));
    let search = before_hash.split_once('?').map_or(before_hash, |(_, s)| s);
    // A full address without '?' has no query at all.
    let search = if !before_hash.contains('?') && before_hash.contains('/') { "" } else { search };
    let (query, errors) = Query::parse_given_lenient(search);
    let mut shared = Shared { query, errors, prices: None, price_error: None };
    for part in hash.split('&') {
        if let Some(v) = part.strip_prefix("prices=") {
            match PriceBook::from_compact(&percent_decode(v)) {
                Ok(p) if !p.is_empty() => shared.prices = Some(p),
                Ok(_) => {}
                Err(e) => shared.price_error = Some(e),
            }
        }
    }
    shared
}
