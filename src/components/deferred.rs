//! A copy of the query that follows the real one at most once per animation frame.
//!
//! The GPU table (solvers on every GPU size) and the memory curve evaluate the core dozens
//! to hundreds of times. Reading this copy instead of the query lets the main figures update
//! within the input event's task, while those sections follow in the next frame, and a drag
//! that fires several input events per frame costs them one recomputation.

use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::Query;

/// The query, updated on the next animation frame after each change (changes in between
/// coalesce).
pub fn frame_query() -> ReadSignal<Query> {
    let st = use_state();
    let (copy, set_copy) = signal(st.query.get_untracked());
    let pending = StoredValue::new(false);
    Effect::new(move |first: Option<()>| {
        st.query.track();
        if first.is_none() || pending.get_value() { return; }
        pending.set_value(true);
        request_animation_frame(move || {
            pending.set_value(false);
            set_copy.set(st.query.get_untracked());
        });
    });
    copy
}
