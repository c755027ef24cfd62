use criterion::{criterion_group, criterion_main, Criterion};
use tunefit_core::{evaluate, Query};

fn bench(c: &mut Criterion) {
    let q = Query::default();
    c.bench_function("estimate/default", |b| b.iter(|| evaluate(std::hint::black_box(&q)).unwrap()));
}

criterion_group!(benches, bench);
criterion_main!(benches);
