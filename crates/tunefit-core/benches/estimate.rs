//! Speed budget: one memory estimate with its allocator replay (memory/cache.rs) ≤ 50 µs, a
//! variant of a replayed query (the solvers' probe) ≤ 5 µs, each inverse solver ≤ 1 ms, and a
//! typical plan search ≤ 50 ms.
//! `cargo bench -p tunefit-core --bench estimate` prints criterion's figures.
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tunefit_core::settings::Settings;
use tunefit_core::{memory, solve, Query};

fn bench(c: &mut Criterion) {
    let default = Query::default();
    let big = Query::parse(
        "model=llama-3.1-70b&method=full&precision=bf16-mixed&shard=zero3&gpus=64&nodes=8&ckpt=full&seq=4096",
    )
    .unwrap();
    // Resolving the settings is part of every estimate a front end asks for.
    let estimate = |q: &Query| memory::estimate(&Settings::resolve(q).unwrap()).unwrap();
    c.bench_function("estimate/default (8B QLoRA)", |b| b.iter(|| estimate(black_box(&default))));
    c.bench_function("estimate/70B full ZeRO-3 x64", |b| b.iter(|| estimate(black_box(&big))));
    let vram = 80u64 << 30;
    let s = Settings::resolve(&default).unwrap();
    c.bench_function("solve/max_batch", |b| b.iter(|| solve::max_batch(black_box(&s), vram)));
    c.bench_function("solve/max_seq", |b| b.iter(|| solve::max_seq(black_box(&s), vram)));
    let full =
        Query::parse("model=llama-3.1-70b&method=full&precision=bf16-mixed&shard=zero3&ckpt=full&batch=1").unwrap();
    let full = Settings::resolve(&full).unwrap();
    c.bench_function("solve/min_gpus", |b| b.iter(|| solve::min_gpus(black_box(&full), vram)));
    let mut probe = Settings::resolve(&default).unwrap();
    probe.cache_excess = Some(estimate(&default).cache_excess);
    c.bench_function("estimate/variant (8B QLoRA, replay's share)", |b| {
        b.iter(|| memory::estimate(black_box(&probe)).unwrap())
    });
    // A diffusion link: parsing, its memory through the allocator replay, the time on a GPU.
    c.bench_function("diffusion/FLUX.1-dev LoRA 1024² on an RTX 4090", |b| {
        b.iter(|| tunefit_core::diffusion::evaluate(black_box("model=flux.1-dev&res=1024&gpu=rtx-4090")).unwrap())
    });
    let goal = Query::parse("model=llama-3.1-8b&method=lora&batch=4&seq=2048&budget_usd=50").unwrap();
    c.bench_function("plan/8B LoRA, budget", |b| b.iter(|| tunefit_core::plan::plan(black_box(&goal)).unwrap()));
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1)).sample_size(20);
    targets = bench
}
criterion_main!(benches);
