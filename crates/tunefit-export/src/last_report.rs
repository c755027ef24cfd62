//! The report the sections below the first screen share. The page asks for the cost ranking,
//! the GPU table and the memory curve of the same query in one frame; each needs the query's
//! report (the ranking with the person's prices, the rows and the curve its replay share), so
//! the last one is kept rather than evaluated three times on the page's main thread.

use std::cell::RefCell;
use std::rc::Rc;
use tunefit_core::Report;

struct Last {
    query: String,
    prices: String,
    report: Option<Rc<Report>>,
}

thread_local! {
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
}

/// The report of `query` with the price book `prices` (its compact form; empty for none), or
/// with any prices when `prices` is None (memory and fit do not depend on them). None when the
/// query cannot be evaluated.
pub fn report(query: &str, prices: Option<&str>) -> Option<Rc<Report>> {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some(l) = last.as_ref().filter(|l| l.query == query && prices.is_none_or(|p| p == l.prices)) {
            return l.report.clone();
        }
        let prices = prices.unwrap_or("");
        let report = tunefit_core::report::evaluate_text(query, prices).ok().map(|(_, r)| Rc::new(r));
        *last = Some(Last { query: query.to_string(), prices: prices.to_string(), report: report.clone() });
        report
    })
}

#[cfg(test)]
mod tests {
    use super::report;
    use std::rc::Rc;

    #[test]
    fn one_evaluation_serves_the_query_until_it_or_its_prices_change() {
        let q = "v=2&model=llama-3.1-8b&method=lora";
        let a = report(q, Some("")).unwrap();
        assert!(Rc::ptr_eq(&a, &report(q, None).unwrap()));
        assert!(Rc::ptr_eq(&a, &report(q, Some("")).unwrap()));
        let own = report(q, Some("c:lab:lab:l40s:1:0.01::")).unwrap();
        assert!(!Rc::ptr_eq(&a, &own));
        assert!(own.cost.as_ref().unwrap().offers.iter().any(|o| o.provider == "lab"));
        assert!(!Rc::ptr_eq(&own, &report("v=2&model=llama-3.1-8b&method=qlora", None).unwrap()));
        assert!(report("v=2&model=nope", None).is_none());
    }
}
