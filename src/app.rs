//! Root component (first cut): the per-GPU memory of the default configuration.

use leptos::prelude::*;
use tunefit_core::{evaluate, Query};

const GIB: f64 = (1u64 << 30) as f64;

#[component]
pub fn App() -> impl IntoView {
    let query = RwSignal::new(Query::default());
    let report = Memo::new(move |_| evaluate(&query.get()));
    view! {
        <main>
            <h1>"tunefit"</h1>
            {move || match report.get() {
                Ok(r) => view! {
                    <p>"Per-GPU memory (device, GiB): "
                        <span class="total" data-testid="total-device">
                            {format!("{:.2}", r.memory.device as f64 / GIB)}
                        </span>
                    </p>
                }.into_any(),
                Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
            }}
        </main>
    }
}
