//! Small constructors for fine-grained views that keep the wasm small.
//!
//! Every distinct closure passed to `Memo::new`, or used as a reactive attribute, is
//! monomorphised with its own copy of the reactive machinery (a few KB each in the release
//! wasm). Boxing the closure first leaves one copy per value type, so a panel can follow each
//! figure with its own memo or signal at almost no size cost.

use leptos::prelude::*;

/// A memo (notifies only when the value changes), one instantiation per value type.
pub fn memo<T: PartialEq + Clone + Send + Sync + 'static>(f: impl Fn() -> T + Send + Sync + 'static) -> Memo<T> {
    boxed_memo(Box::new(f))
}

fn boxed_memo<T: PartialEq + Clone + Send + Sync + 'static>(f: Box<dyn Fn() -> T + Send + Sync>) -> Memo<T> {
    Memo::new(move |_| f())
}
