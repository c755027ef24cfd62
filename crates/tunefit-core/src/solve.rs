//! Inverse solvers: the largest micro-batch, the longest sequence and the fewest GPUs that
//! fit a given memory size (per-GPU `device` peak ≤ VRAM).
//!
//! Memory is monotone non-decreasing in batch and sequence (tests/properties.rs), so an
//! exponential search followed by bisection needs O(log n) estimates.

use crate::diag::Error;
use crate::memory::Estimate;
use crate::query::Query;
use crate::settings::Settings;
use serde::Serialize;

/// Whether a configuration fits a GPU once the model's own error is taken into account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Fits even if the run needs as much more than predicted as the worst measured case.
    Fits,
    /// The GPU's memory lies inside the error band: it may or may not fit.
    Tight,
    /// Does not fit even if the run needs as much less as the most over-predicted case.
    DoesNotFit,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Fits => "fits",
            Verdict::Tight => "tight",
            Verdict::DoesNotFit => "does-not-fit",
        }
    }
}

/// The error band of the memory model on its measured cases (docs/accuracy.md): 80 % of the
/// measured runs lie between `BAND_OVER` less and `BAND_UNDER` more than predicted (159
/// cases, 2026-12-04, with reserved and device from the allocator replay: the 10th percentile
/// of measured/predicted − 1 is −10.1 %, the 90th +18.1 %).
/// tests/measured_runs.rs holds the band to that coverage; it narrows as the model's error does.
pub const BAND_UNDER: f64 = 0.19;
pub const BAND_OVER: f64 = 0.11;

/// The verdict for `device` bytes on a GPU of `vram` bytes, and the band [low, high].
pub fn verdict(device: u64, vram: u64) -> (Verdict, u64, u64) {
    let (low, high) = ((device as f64 * (1.0 - BAND_OVER)) as u64, (device as f64 * (1.0 + BAND_UNDER)) as u64);
    let v = if high <= vram {
        Verdict::Fits
    } else if low > vram {
        Verdict::DoesNotFit
    } else {
        Verdict::Tight
    };
    (v, low, high)
}

/// How the configuration fits one GPU model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    pub gpu: String,
    /// Usable memory of the GPU, bytes.
    pub vram: u64,
    /// The point estimate fits (device ≤ vram).
    pub fits: bool,
    /// Fits, tight or does not fit, with the model's error band: green only when even the
    /// band's high end fits.
    pub verdict: Verdict,
    /// The band of `device` the measured cases support, bytes: [low, high].
    pub band_low: u64,
    pub band_high: u64,
    /// vram - device, bytes (negative when it does not fit).
    pub headroom: i64,
    /// Largest micro-batch that fits at the current sequence length (None if not even 1).
    pub max_batch: Option<u32>,
    /// Longest sequence that fits at the current micro-batch (None if not even 1 token... ).
    pub max_seq: Option<u32>,
    /// Fewest GPUs of this model that fit, under the chosen sharding (None if none does).
    pub min_gpus: Option<u32>,
}

/// How the configuration fits one GPU, with the inverse solvers.
pub fn fit(s: &Settings, est: &Estimate, id: &str) -> Result<Fit, Error> {
    let g = crate::dataset::gpu(id).ok_or_else(|| {
        Error::Refused(crate::diag::Refusal::UnknownGpu { id: id.into(), accepted: crate::dataset::gpu_ids() })
    })?;
    Ok(fit_on(s, est, g))
}

/// Variants of one query in batch, sequence and GPU count, evaluated with one replay per side
/// of one GPU (and of one data-parallel rank, `settings::several`): the query's own replay's
/// cache share serves its side, and a variant that crosses the line takes the share of the
/// first replay there.
pub struct Variants<'s, 'q> {
    s: &'s Settings<'q>,
    shares: Vec<((bool, bool), f64)>,
}

impl<'s, 'q> Variants<'s, 'q> {
    /// Replays the query unless its settings carry its share already.
    pub fn of(s: &'s Settings<'q>) -> Self {
        let own = s.cache_excess.or_else(|| crate::memory::estimate(s).ok().map(|e| e.cache_excess));
        Variants { s, shares: own.map(|k| (crate::settings::several(&s.query), k)).into_iter().collect() }
    }

    /// Device memory of `q`, a variant of the settings' query.
    pub fn device(&mut self, q: &Query) -> Option<u64> {
        let side = crate::settings::several(q);
        let mut v = self.s.variant(q);
        v.cache_excess = self.shares.iter().find(|(k, _)| *k == side).map(|(_, x)| *x);
        let e = crate::memory::estimate(&v).ok()?;
        if v.cache_excess.is_none() {
            self.shares.push((side, e.cache_excess));
        }
        Some(e.memory.device)
    }
}

/// Largest `x` in [from, hi] with `fits(x)`, assuming monotone; None if even `from` does not fit.
fn largest(from: u32, hi: u32, mut fits: impl FnMut(u32) -> bool) -> Option<u32> {
    if from > hi || !fits(from) {
        return None;
    }
    let (mut lo, mut up) = (from, from.saturating_mul(2));
    while up <= hi && fits(up) {
        lo = up;
        up = up.saturating_mul(2);
    }
    let mut up = up.min(hi.saturating_add(1));
    while up - lo > 1 {
        let mid = lo + (up - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            up = mid;
        }
    }
    Some(lo)
}

/// Largest micro-batch at the query's sequence length.
pub fn max_batch(s: &Settings, vram: u64) -> Option<u32> {
    let mut variants = Variants::of(s);
    let mut q2 = s.query.clone().into_owned();
    largest(1, 65_536, |b| {
        q2.batch = b;
        variants.device(&q2).is_some_and(|d| d <= vram)
    })
}

/// Longest sequence at the query's micro-batch, from the shortest that holds its images'
/// visual tokens (`min_seq`).
/// None for an image encoder, whose sequence is its image (`image_res`), not a length to choose.
pub fn max_seq(s: &Settings, vram: u64) -> Option<u32> {
    if s.arch.layout.image.is_some() {
        return None;
    }
    let mut variants = Variants::of(s);
    let mut q2 = s.query.clone().into_owned();
    largest(min_seq(s), 10_000_000, |n| {
        q2.seq = n;
        variants.device(&q2).is_some_and(|d| d <= vram)
    })
}

/// The shortest sequence the query's samples can have: their images' visual tokens (1 without).
pub fn min_seq(s: &Settings) -> u32 {
    let q = &*s.query;
    (q.images as u64 * s.arch.layout.tower.per_image(q.image_res).tokens).clamp(1, u32::MAX as u64) as u32
}

/// Fewest GPUs (multiples of tp, same nodes rule: 8 per node) under the query's sharding.
pub fn min_gpus(s: &Settings, vram: u64) -> Option<u32> {
    let mut variants = Variants::of(s);
    let q = &*s.query;
    let mut q2 = q.clone();
    let tp = q.tp.max(1);
    let mut fits = |n: u32| {
        q2.gpus = n * tp;
        q2.nodes = q2.gpus.div_ceil(8).max(1);
        variants.device(&q2).is_some_and(|d| d <= vram)
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
                if fits(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi * tp);
        }
        if n >= cap {
            return None;
        }
        n = (n * 2).min(cap);
        if q.shard == crate::query::ShardingStrategy::None && q.tp == 1 {
            return None;
        }
    }
}

/// How an estimated configuration fits one GPU: headroom against its memory, and the three
/// solvers at that memory size.
pub fn fit_on(s: &Settings, est: &Estimate, gpu: &crate::dataset::Gpu) -> Fit {
    let headroom = gpu.vram_bytes as i64 - est.memory.device as i64;
    let (verdict, band_low, band_high) = verdict(est.memory.device, gpu.vram_bytes);
    Fit {
        gpu: gpu.id.into(),
        vram: gpu.vram_bytes,
        fits: headroom >= 0,
        verdict,
        band_low,
        band_high,
        headroom,
        max_batch: max_batch(s, gpu.vram_bytes),
        max_seq: max_seq(s, gpu.vram_bytes),
        min_gpus: min_gpus(s, gpu.vram_bytes),
    }
}

/// The fit of `q` on every GPU of the dataset, in dataset order. A fit depends on the GPU
/// through its memory size and its cuBLAS workspace (memory/workspace.rs: 32 MiB a thread on
/// Hopper and Blackwell, 8.1 MiB on other NVIDIA GPUs), and many GPUs share both (80, 48, 24 GiB ...), so
/// the solvers run once per distinct pair and the result is reused under each GPU's id; the
/// run is estimated (and replayed) once per distinct workspace, as with that GPU chosen.
///
/// `replayed`: the query's own replay's cache share when a report of it has one
/// (`Report::cache_excess`), so that the table does not replay it again.
pub fn fit_every_gpu(q: &Query, replayed: Option<f64>) -> Result<Vec<Fit>, Error> {
    use crate::memory::step_workspaces;
    let mut s = Settings::resolve(q)?;
    s.cache_excess = replayed;
    let est = crate::memory::estimate_replayed(&mut s)?;
    let own = step_workspaces(q.gpu.as_deref().and_then(crate::dataset::gpu));
    // One query per other workspace size, as with a GPU of that size chosen.
    let mut chosen: Vec<(f64, Query)> = Vec::new();
    for g in crate::dataset::gpus() {
        let ws = step_workspaces(Some(g));
        if ws != own && !chosen.iter().any(|(w, _)| *w == ws) {
            chosen.push((ws, Query { gpu: Some(g.id.to_string()), ..q.clone() }));
        }
    }
    let mut estimates = vec![(own, s, est)];
    for (ws, cq) in &chosen {
        let mut s2 = Settings::resolve(cq)?;
        let e2 = crate::memory::estimate_replayed(&mut s2)?;
        estimates.push((*ws, s2, e2));
    }
    let mut by_size: Vec<(f64, Fit)> = Vec::new();
    let mut out = Vec::with_capacity(crate::dataset::gpus().len());
    for g in crate::dataset::gpus() {
        let ws = step_workspaces(Some(g));
        if let Some((_, f)) = by_size.iter().find(|(w, f)| f.vram == g.vram_bytes && *w == ws) {
            out.push(Fit { gpu: g.id.to_string(), ..f.clone() });
            continue;
        }
        let (_, s, e) = estimates.iter().find(|(w, ..)| *w == ws).expect("one estimate per workspace");
        let f = fit_on(s, e, g);
        by_size.push((ws, f.clone()));
        out.push(f);
    }
    Ok(out)
}

/// Per-GPU device memory at each sequence length of `seqs` (lengths the model rejects, such
/// as beyond a model's learned positions, are left out); `replayed` as in `fit_every_gpu`.
pub fn device_by_seq(q: &Query, seqs: &[u32], replayed: Option<f64>) -> Vec<(u32, u64)> {
    device_along(q, seqs, replayed, |q, s| q.seq = s)
}

/// Per-GPU device memory at each micro-batch of `batches` (sizes the query rejects are left
/// out); `replayed` as in `fit_every_gpu`.
pub fn device_by_batch(q: &Query, batches: &[u32], replayed: Option<f64>) -> Vec<(u32, u64)> {
    device_along(q, batches, replayed, |q, b| q.batch = b)
}

// A plain function pointer, not a generic: one copy of the loop (and of the estimate it
// calls) in the page's wasm for both axes.
fn device_along(q: &Query, xs: &[u32], share: Option<f64>, set: fn(&mut Query, u32)) -> Vec<(u32, u64)> {
    let Ok(mut s) = Settings::resolve(q) else { return Vec::new() };
    s.cache_excess = share;
    let mut variants = Variants::of(&s);
    // From the query the models read: an image encoder's sequence is its image's tokens.
    let mut q2 = s.query.clone().into_owned();
    xs.iter()
        .filter_map(|&x| {
            set(&mut q2, x);
            variants.device(&q2).map(|d| (x, d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gpu_gets_the_fit_its_own_evaluation_gives() {
        let q = Query::default();
        let all = fit_every_gpu(&q, None).unwrap();
        assert_eq!(all.len(), crate::dataset::gpus().len());
        // The report's replay share gives the same table without replaying the query again.
        let share = crate::report::evaluate(&q).unwrap().cache_excess;
        let shared = fit_every_gpu(&q, Some(share)).unwrap();
        for (a, b) in all.iter().zip(&shared) {
            assert!(a.verdict == b.verdict && a.max_batch == b.max_batch && a.min_gpus == b.min_gpus, "{a:?} {b:?}");
            assert!((a.headroom - b.headroom).abs() <= 4096, "{a:?} {b:?}");
        }
        // Each row is the fit with that GPU chosen (its cuBLAS workspaces are its own).
        for (g, f) in crate::dataset::gpus().iter().zip(&all) {
            let chosen = Query { gpu: Some(g.id.to_string()), ..q.clone() };
            let s = Settings::resolve(&chosen).unwrap();
            let est = crate::memory::estimate(&s).unwrap();
            assert_eq!(f, &fit(&s, &est, g.id).unwrap(), "{}", g.id);
        }
    }

    #[test]
    fn memory_grows_with_batch_and_matches_the_estimate() {
        let q = Query::default();
        let pts = device_by_batch(&q, &[1, 4, 16], None);
        let share = crate::report::evaluate(&q).unwrap().cache_excess;
        assert_eq!(device_by_batch(&q, &[1, 4, 16], Some(share)), pts);
        assert_eq!(pts.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 4, 16]);
        assert!(pts[0].1 < pts[1].1 && pts[1].1 < pts[2].1, "{pts:?}");
        let q4 = Query { batch: 4, ..q.clone() };
        let four = crate::memory::estimate(&Settings::resolve(&q4).unwrap()).unwrap().memory.device;
        assert_eq!(pts[1].1, four);
    }

    #[test]
    fn memory_grows_with_sequence_length() {
        let pts = device_by_seq(&Query::default(), &[512, 2048, 8192], None);
        assert_eq!(pts.len(), 3);
        assert!(pts[0].1 < pts[1].1 && pts[1].1 < pts[2].1);
    }
}
