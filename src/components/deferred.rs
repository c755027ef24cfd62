//! A copy of the query that follows the real one at most once per animation frame
//! (`AppState::frame`, one for the page).
//!
//! The GPU table (solvers on every GPU size) and the memory curve evaluate the core dozens
//! to hundreds of times, the plots redraw hundreds of points, and the cost table's 20 rows
//! are most of the markup the browser parses on an input. Reading this copy instead of the
//! query lets the answer (the summary's verdict, time and cheapest offer, the total and the
//! breakdown) update within the input event's task, while those sections follow in the animation frame callbacks, which run
//! before that frame is painted: the person sees every section change in the same paint.
//! A drag that fires several input events per frame costs them one recomputation.

use leptos::prelude::*;
use tunefit_core::Query;

/// The query, updated on the next animation frame after each change (changes in between
/// coalesce).
pub fn frame_copy(query: RwSignal<Query>) -> ReadSignal<Query> {
    let (copy, set_copy) = signal(query.get_untracked());
    let pending = StoredValue::new(false);
    Effect::new(move |first: Option<()>| {
        query.track();
        if first.is_none() || pending.get_value() {
            return;
        }
        pending.set_value(true);
        request_animation_frame(move || {
            pending.set_value(false);
            set_copy.set(query.get_untracked());
        });
    });
    copy
}
