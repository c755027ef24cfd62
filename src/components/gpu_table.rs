//! Every GPU of the dataset against the current configuration: fits with its headroom,
//! needs N GPUs, or does not fit; plus the largest batch and longest sequence on it.
//! Each row is the core's `Fit` for the same query with `gpu` set to that GPU.

use crate::format::{bytes, number};
use crate::state::use_state;
use leptos::prelude::*;
use tunefit_core::{dataset, report::Fit, solve};

/// One row: the GPU's id and name, and its fit (None when the core could not evaluate it).
pub type GpuFit = (&'static str, &'static str, Option<Fit>);

/// The fit of the current query on every GPU of the dataset (the core's `fit_every_gpu`),
/// paired with each GPU's display name. Empty when the query cannot be estimated.
pub fn fits(q: &tunefit_core::Query) -> Vec<GpuFit> {
    let all = solve::fit_every_gpu(q).unwrap_or_default();
    dataset::gpus().iter().zip(all.into_iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(g, f)| (g.id, g.name, f))
        .collect()
}

#[component]
pub fn GpuTable() -> impl IntoView {
    let st = use_state();
    let q = st.frame;
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
                        // The chosen GPU from the frame's copy too: reading the live query
                        // rebuilt every row within each input's own update (and again on the
                        // next frame); now the table follows only on the next frame.
                        let target = q.with(|q| q.gpu.clone());
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
