//! Ranking every offer for one configuration (budget: at most 200 µs natively).
use criterion::{criterion_group, criterion_main, Criterion};
use tunefit_core::settings::Settings;
use tunefit_core::{advice, memory, Query};

fn bench(c: &mut Criterion) {
    for (name, s) in [("qlora-8b", ""), ("full-8b-fsdp", "method=full&shard=fsdp&ckpt=full")] {
        let q = Query::parse(s).unwrap();
        let s = Settings::resolve(&q).unwrap();
        let est = memory::estimate(&s).unwrap();
        c.bench_function(&format!("rank_all_offers/{name}"), |b| {
            b.iter(|| advice::rank(std::hint::black_box(&s), &est).unwrap())
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
