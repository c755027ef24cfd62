//! Fixes: offered only when the chosen GPU does not fit with the error band, never a value
//! already in force, each figure the one the changed query evaluates to, those that fit first.
use tunefit_core::report::Verdict;
use tunefit_core::report::evaluate_for_cli as evaluate;
use tunefit_core::Query;

fn q(s: &str) -> Query { Query::parse(s).unwrap() }

#[test]
fn fixes_are_re_evaluated_changes_that_fit_first() {
    let base = "model=llama-3.1-8b&method=qlora&gpu=rtx-4090";
    let r = evaluate(&q(base)).unwrap();
    assert_ne!(r.fit.as_ref().unwrap().verdict, Verdict::Fits);
    assert!(!r.fixes.is_empty());
    let first_miss = r.fixes.iter().position(|f| !f.fits).unwrap_or(r.fixes.len());
    assert!(r.fixes[first_miss..].iter().all(|f| !f.fits), "those that fit come first");
    assert!(r.fixes.iter().any(|f| f.fits), "something makes an 8B QLoRA fit a 24 GB card");
    for f in &r.fixes {
        let mut changed = q(base);
        for pair in f.set.split('&') { let (k, v) = pair.split_once('=').unwrap(); changed.set(k, v).unwrap(); }
        assert_ne!(changed, q(base), "{} changes nothing", f.set);
        let after = evaluate(&changed).unwrap();
        assert_eq!(after.memory.device, f.device, "{}", f.set);
        assert_eq!(after.fit.unwrap().verdict == Verdict::Fits, f.fits, "{}", f.set);
    }
    // QLoRA under the hf profile already checkpoints: checkpointing is not offered again.
    assert!(!r.fixes.iter().any(|f| f.set.starts_with("ckpt=")), "{:?}", r.fixes.iter().map(|f| &f.set).collect::<Vec<_>>());
}

#[test]
fn no_fixes_when_it_fits_or_no_gpu_is_chosen() {
    assert!(evaluate(&q("model=llama-3.2-1b&method=qlora&batch=1&seq=512&gpu=h100-sxm")).unwrap().fixes.is_empty());
    assert!(evaluate(&q("model=llama-3.1-70b&method=full")).unwrap().fixes.is_empty());
}

#[test]
fn the_page_reads_back_exactly_the_fixes_the_module_writes() {
    let query = "v=1&gpu=rtx-4090";
    let direct = evaluate(&q(query)).unwrap().fixes;
    let text = tunefit_core::report::fixes_tsv(query);
    assert_eq!(tunefit_core::report::read_fixes(&text), direct);
    assert!(tunefit_core::report::read_fixes("garbage\nno\ttabs").is_empty());
    assert_eq!(tunefit_core::report::fixes_tsv("batch=-1"), "", "a bad query gives no fixes, not a panic");
}
