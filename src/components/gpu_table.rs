//! Every GPU of the dataset against the current configuration: fits with its headroom,
//! needs N GPUs, or does not fit; plus the largest batch and longest sequence on it.
//! Each row is the core's `Fit` for the same query with `gpu` set to that GPU.

use crate::format::{bytes, number};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::{dataset, memory, report::Fit};

/// One row: the GPU's id and name, and its fit (None when the core could not evaluate it).
pub type GpuFit = (&'static str, &'static str, Option<Fit>);

/// The fit of the current query on every GPU of the dataset: one memory estimate, then the
/// core's `memory::fit` (with its solvers) per GPU. Empty when the query cannot be estimated.
///
/// `memory::fit` depends on the GPU only through its memory size (headroom and the solvers
/// take `vram_bytes`), and many GPUs share a size (80 GiB, 24 GiB, 48 GiB ...), so it runs
/// once per distinct size and the result is reused with the GPU's id: the same figures for a
/// fraction of the solver work. TODO(core): a `fit_for_vram` would make this explicit.
pub fn fits(q: &tunefit_core::Query) -> Vec<GpuFit> {
    let Ok(est) = memory::estimate(q) else { return Vec::new() };
    let mut by_size: Vec<(u64, Option<Fit>)> = Vec::new();
    dataset::gpus().iter().map(|g| {
        let fit = match by_size.iter().find(|(v, _)| *v == g.vram_bytes) {
            Some((_, f)) => f.clone().map(|f| Fit { gpu: g.id.to_string(), ..f }),
            None => {
                let f = memory::fit(q, &est, g.id).ok();
                by_size.push((g.vram_bytes, f.clone()));
                f
            }
        };
        (g.id, g.name, fit)
    }).collect()
}

#[component]
pub fn GpuTable() -> impl IntoView {
    let st = use_state();
    let q = super::deferred::frame_query();
    let rows = Memo::new(move |_| q.with(fits));
    view! {
        <section class="card" aria-labelledby="gpu-title" data-testid="gpu-table">
            <h2 id="gpu-title">{move || st.s().gpu_title}</h2>
            <div class="scroll">
            <table class="data">
                <thead><tr>
                    <th scope="col">{move || st.s().col_gpu}</th>
                    <th scope="col" class="num">{move || st.s().col_vram}</th>
                    <th scope="col">{move || st.s().col_status}</th>
                    <th scope="col" class="num">{move || st.s().col_headroom}</th>
                    <th scope="col" class="num">{move || st.s().col_max_batch}</th>
                    <th scope="col" class="num">{move || st.s().col_max_seq}</th>
                </tr></thead>
                <tbody>
                    {move || {
                        let s = st.s();
                        let (u, lang) = (st.units.get(), st.lang.get());
                        let target = st.query.with(|q| q.gpu.clone());
                        rows.get().into_iter().map(|(id, name, fit)| {
                            let dash = || s.not_computed.to_string();
                            let (status, class, headroom, vram) = match &fit {
                                Some(f) if f.fits => (s.fits.to_string(), "ok", bytes(f.headroom as f64, u, lang), bytes(f.vram as f64, u, lang)),
                                Some(f) => match f.min_gpus {
                                    Some(n) if n > 1 => ((s.needs_gpus)(n), "warn", bytes(f.headroom as f64, u, lang), bytes(f.vram as f64, u, lang)),
                                    _ => (s.no_fit.to_string(), "bad", bytes(f.headroom as f64, u, lang), bytes(f.vram as f64, u, lang)),
                                },
                                None => (dash(), "", dash(), dash()),
                            };
                            let max_batch = fit.as_ref().and_then(|f| f.max_batch).map(|b| number(b as f64, 0, lang)).unwrap_or_else(dash);
                            let max_seq = fit.as_ref().and_then(|f| f.max_seq).map(|b| number(b as f64, 0, lang)).unwrap_or_else(dash);
                            let selected = target.as_deref() == Some(id);
                            view! {
                                <tr data-testid=format!("gpu-row-{id}") class:selected=selected data-status=class>
                                    <th scope="row">
                                        <button type="button" class="link" aria-pressed=selected.to_string()
                                            title=(s.use_gpu)(name)
                                            on:click=move |_| st.edit(|q| q.gpu = Some(id.to_string()))>{name}</button>
                                    </th>
                                    <td class="num">{vram}</td>
                                    <td><span class=format!("badge {class}") data-testid="fit-status">{status}</span></td>
                                    <td class="num" data-testid="headroom">{headroom}</td>
                                    <td class="num" data-testid="max-batch">{max_batch}</td>
                                    <td class="num" data-testid="max-seq">{max_seq}</td>
                                </tr>
                            }
                        }).collect_view()
                    }}
                </tbody>
            </table>
            </div>
        </section>
    }
}
