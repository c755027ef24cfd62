//! Inverse solvers: the largest micro-batch, the longest sequence and the fewest GPUs that
//! fit a given memory size (per-GPU `device` peak ≤ VRAM).
//!
//! Memory is monotone non-decreasing in batch and sequence (tests/properties.rs), so an
//! exponential search followed by bisection needs O(log n) estimates.

use crate::query::Query;

fn device(q: &Query) -> Option<u64> { crate::memory::estimate(q).ok().map(|e| e.memory.device) }

/// Largest `x` in [1, hi] with `fits(x)`, assuming monotone; None if even 1 does not fit.
fn largest(hi: u32, mut fits: impl FnMut(u32) -> bool) -> Option<u32> {
    if !fits(1) { return None; }
    let (mut lo, mut up) = (1u32, 2u32);
    while up <= hi && fits(up) { lo = up; up = up.saturating_mul(2); }
    let mut up = up.min(hi.saturating_add(1));
    while up - lo > 1 {
        let mid = lo + (up - lo) / 2;
        if fits(mid) { lo = mid; } else { up = mid; }
    }
    Some(lo)
}

/// Largest micro-batch at the query's sequence length.
pub fn max_batch(q: &Query, vram: u64) -> Option<u32> {
    let mut q2 = q.clone();
    largest(65_536, |b| { q2.batch = b; device(&q2).is_some_and(|d| d <= vram) })
}

/// Longest sequence at the query's micro-batch.
pub fn max_seq(q: &Query, vram: u64) -> Option<u32> {
    let mut q2 = q.clone();
    largest(10_000_000, |s| { q2.seq = s; device(&q2).is_some_and(|d| d <= vram) })
}

/// Fewest GPUs (multiples of tp, same nodes rule: 8 per node) under the query's sharding.
pub fn min_gpus(q: &Query, vram: u64) -> Option<u32> {
    let mut q2 = q.clone();
    let tp = q.tp.max(1);
    let mut fits = |n: u32| {
        q2.gpus = n * tp;
        q2.nodes = q2.gpus.div_ceil(8).max(1);
        device(&q2).is_some_and(|d| d <= vram)
    };
    // Per-GPU memory is non-increasing in GPU count for ZeRO/FSDP sharding; without sharding
    // it does not shrink, so one data-parallel group either fits or no count does.
    let cap = 65_536 / tp;
    let mut n = 1u32;
    loop {
        if fits(n) {
            // bisect between n/2 and n
            let mut lo = n / 2;
            let mut hi = n;
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if fits(mid) { hi = mid; } else { lo = mid; }
            }
            return Some(hi * tp);
        }
        if n >= cap { return None; }
        n = (n * 2).min(cap);
        if q.shard == crate::query::ShardingStrategy::None && q.tp == 1 { return None; }
    }
}
