//! Ranking every offer a configuration fits on, by total cost with its time; the cheapest, the
//! fastest, the Pareto front of cost vs time; and a recommendation in plain words.
//!
//! The GPU count is the offer's: a configuration is evaluated by the memory model with
//! `gpus = count` (and, for sharded strategies at providers with a multi-node fabric, with
//! 2, 4, 8 … instances until it fits). Memory and timing are cached per count, so ranking all
//! offers costs a handful of memory evaluations.
//!
//! Money: every figure is in the query's display currency (`currency`, USD by default; the
//! `usd_*` names predate it). An offer priced in another currency, and the providers' storage
//! and egress prices (USD), are converted through the US dollar at the dataset's dated rates
//! (data/currency.csv), so offers in rubles and in dollars rank together; `CostReport::rates`
//! names each rate used and its date.

use crate::cost::{self, CostInput, RESTART_MIN};
use crate::dataset::{self, Billing, GpuClass, Offer, Provider};
use crate::diag::{Error, Warning};
use crate::memory::Estimate;
use crate::query::{Currency, Method, Pricing, Query};
use crate::settings::Settings;
use crate::time::{self, FlopShape, TimeEstimate, Timing};
use serde::Serialize;

/// Storage price assumed where a provider's was not captured: typical block storage
/// (AWS gp3 0.08, GCP pd-balanced 0.10 USD/GB-month).
pub const DEFAULT_STORAGE_USD_GB_MONTH: f64 = 0.10;
/// Egress price assumed where not captured: the hyperscalers' internet rate (0.087–0.12).
pub const DEFAULT_EGRESS_USD_GB: f64 = 0.09;
/// Spot interruption rate assumed where a provider gives none: one per 10 hours.
pub const DEFAULT_INTERRUPT_RATE_H: f64 = 0.1;
/// Network between instances per GPU, one way, when a GPU is named without a provider: one
/// 400 Gb/s InfiniBand or RoCE NIC per GPU, as in HGX H100/H200 clusters (AWS p5 EFA
/// 3,200 Gb/s per 8 GPUs).
pub const DEFAULT_INTERNODE_GB_S: f64 = 50.0;
/// Largest number of instances tried for one job.
const MAX_INSTANCES: u32 = 64;

/// One offer in the ranking, priced one way.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedOffer {
    pub offer: &'static str,
    pub provider: &'static str,
    pub gpu: &'static str,
    /// GPUs per instance.
    pub gpus: u32,
    pub instances: u32,
    /// "on-demand" or "spot".
    pub pricing: &'static str,
    /// ISO 4217 code of every money figure of this row: the display currency.
    pub currency: &'static str,
    /// The offer's own currency when it is not the display currency (its price converted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priced_in: Option<&'static str>,
    pub usd_total: f64,
    pub usd_per_run: f64,
    /// Expected wall-clock hours of one run (spot interruptions included).
    pub hours: f64,
    /// Price per hour for all instances together (in `currency`).
    pub usd_per_hour: f64,
    pub tokens_per_s: f64,
    pub billing: &'static str,
    pub confidence: &'static str,
    pub region: &'static str,
    pub snapshot_date: &'static str,
    /// Whether the price is older than [`STALE_AFTER_DAYS`] on the day the report was dated
    /// (`Report::date_offers`; the core has no clock). None when the report or the price is
    /// undated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale: Option<bool>,
}

/// Whether a provider offers what `need=` asks (data/providers.csv's columns).
pub fn has(p: &dataset::Provider, n: crate::query::Need) -> bool {
    use crate::query::Need as N;
    match n {
        N::PerSecond => p.billing == dataset::Billing::Second,
        N::PerMinute => p.billing != dataset::Billing::Hour,
        N::Storage => p.storage_usd_gb_month.is_some(),
        N::Spot => p.spot,
        N::Ssh => p.ssh,
        N::Docker => p.docker,
        N::Jupyter => p.jupyter,
        N::MultiNode => p.internode_gb_s.is_some(),
    }
}

/// A price older than this is marked for checking. The data audit (shared/notes/data-audit.md)
/// found list prices 14–18 % off within three months (RunPod H100 3.49 → 3.99 since
/// 2026-09-25; Crusoe A100 1.95 → 2.30 since 2026-02); two months is a plain rule before that.
pub const STALE_AFTER_DAYS: f64 = 60.0;
/// A spot price below this fraction of the same offer's on-demand price is marked for
/// checking. In data/offers.csv (62 offers with both prices, 2026-12) spot is a median 0.38 of
/// on-demand and 0.24 at the 10th percentile; the rows below a quarter include the best-case
/// sources the page review flagged (AWS B200 spot 0.11, from one local zone).
pub const SPOT_CHECK_BELOW: f64 = 0.25;

impl RankedOffer {
    /// USD per GPU-hour, the unit providers list.
    pub fn usd_per_gpu_hour(&self) -> f64 {
        self.usd_per_hour / (self.gpus * self.instances).max(1) as f64
    }

    /// Whether the price's snapshot is older than [`STALE_AFTER_DAYS`] on `today` (days since
    /// 1970-01-01); undated prices (a person's own) are never stale.
    pub fn is_stale(&self, today: f64) -> bool {
        age_days(self.snapshot_date, today).is_some_and(|d| d > STALE_AFTER_DAYS)
    }

    /// Whether this spot price is implausibly far below `on_demand`'s (see [`SPOT_CHECK_BELOW`]).
    pub fn spot_needs_check(&self, on_demand: &RankedOffer) -> bool {
        self.pricing == "spot" && self.usd_per_hour < SPOT_CHECK_BELOW * on_demand.usd_per_hour
    }
}

/// Days from a snapshot date ("2026-09-15", "2026-09", "~2026-09": the first of the month when
/// no day is given; "~2025": the year's last day, the latest it can be, so a price dated by its
/// year alone is called old only when it surely is) to `today` (days since 1970); None for an
/// undated price.
pub fn age_days(date: &str, today: f64) -> Option<f64> {
    let mut it = date.trim_start_matches('~').split('-').map(|p| p.trim().parse::<i64>().ok());
    let y = it.next()??;
    let (m, d) = match it.next() {
        Some(m) => (m?, it.next().flatten().unwrap_or(1)),
        None => (12, 31),
    };
    // Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    Some(today - days as f64)
}

/// `cost` in the JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostReport {
    /// Ranked by total cost, cheapest first.
    pub offers: Vec<RankedOffer>,
    pub cheapest: Option<RankedOffer>,
    pub fastest: Option<RankedOffer>,
    /// Offers no other offer beats on both cost and time, fastest first.
    pub pareto: Vec<RankedOffer>,
    pub recommendation: String,
    /// The recommendation's sentences, each with a stable code (`rec-…`) so a front end can
    /// translate it; `recommendation` is their messages joined by spaces. Not in the JSON.
    #[serde(skip)]
    pub notes: Vec<Warning>,
    pub warnings: Vec<Warning>,
    /// Offers left out because the configuration does not fit them.
    pub excluded: usize,
    /// ISO 4217 code of every money figure of the ranking (the query's `currency`).
    pub currency: &'static str,
    /// The dated rates the figures went through: the display currency's and each ranked
    /// offer's own, units per US dollar; empty when everything is in US dollars.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rates: Vec<dataset::Rate>,
}

/// The factor that turns a price in `from` into the display currency `to`; None without a rate.
pub fn conversion(from: &str, to: Currency) -> Option<f64> {
    Some(dataset::per_usd(to.code())? / dataset::per_usd(from)?)
}

/// Checks the ids a query names against the dataset.
pub fn validate(q: &Query) -> Result<(), Error> {
    if let Some(p) = &q.provider {
        if dataset::provider(p).is_none() {
            return Err(Error::Refused(crate::diag::Refusal::UnknownProvider {
                id: p.clone(),
                accepted: dataset::provider_ids(),
            }));
        }
    }
    if let Some(g) = &q.gpu {
        if dataset::gpu(g).is_none() {
            return Err(Error::Refused(crate::diag::Refusal::UnknownGpu {
                id: g.clone(),
                accepted: dataset::gpu_ids(),
            }));
        }
    }
    if let Some(r) = q.interrupt_rate {
        if !(r.is_finite() && r >= 0.0) {
            return Err(Error::invalid("interrupt_rate", format!("{r} must be >= 0")));
        }
    }
    if let Some(m) = q.mfu {
        if !(m.is_finite() && m > 0.0 && m <= 1.0) {
            return Err(Error::invalid("mfu", format!("{m} must be in (0, 1]")));
        }
    }
    Ok(())
}

/// Bytes that leave the provider per run: the adapter for PEFT methods, else the 16-bit weights.
pub fn result_bytes(q: &Query, est: &Estimate) -> f64 {
    match q.method {
        Method::Full | Method::Freeze => est.model.params as f64 * 2.0,
        _ => est.model.trainable_params as f64 * 2.0,
    }
}

/// Per-GPU device memory for `count` GPUs × `instances`, memoised.
struct FitCache<'a> {
    s: &'a Settings<'a>,
    base: &'a Estimate,
    memo: Vec<((u32, u32), Option<u64>)>,
    /// Each side of one GPU replayed once (`solve::Variants`).
    variants: crate::solve::Variants<'a, 'a>,
}

impl FitCache<'_> {
    fn device(&mut self, count: u32, instances: u32) -> Option<u64> {
        if let Some((_, d)) = self.memo.iter().find(|(k, _)| *k == (count, instances)) {
            return *d;
        }
        // `gpus` is the run's total: `count` per instance on every instance.
        let q = &*self.s.query;
        let d = if count * instances == q.gpus && instances == q.nodes {
            Some(self.base.memory.device)
        } else {
            let mut q2 = q.clone();
            q2.gpus = count * instances;
            q2.nodes = instances;
            self.variants.device(&q2)
        };
        self.memo.push(((count, instances), d));
        d
    }
}

/// Ranks every offer (after the `provider` and `gpu` filters) for the query.
pub fn rank(s: &Settings, est: &Estimate) -> Result<CostReport, Error> {
    rank_with(s, est, dataset::offers(), &[])
}

/// Ranks `offers` (the dataset's with a person's prices applied, `prices::Market`);
/// `extra_providers` gives the terms of providers the dataset does not know.
pub fn rank_with(
    s: &Settings,
    est: &Estimate,
    offers: &[Offer],
    extra_providers: &[Provider],
) -> Result<CostReport, Error> {
    let q = &*s.query;
    let provider_of = |id: &str| extra_providers.iter().find(|p| p.id == id).or_else(|| dataset::provider(id));
    if q.provider.as_deref().is_some_and(|p| extra_providers.iter().any(|e| e.id == p)) {
        validate(&Query { provider: None, ..q.clone() })?;
    } else {
        validate(q)?;
    }
    let shape = FlopShape::of(s, est.model.params, est.model.trainable_params);
    let egress_gb = result_bytes(q, est) / 1e9 + q.download_gb;
    let mut fits = FitCache { s, base: est, memo: Vec::with_capacity(16), variants: crate::solve::Variants::of(s) };
    // Timings per GPU, GPUs per instance, instances, in-instance fabric and network.
    type Key = (&'static str, u32, u32, dataset::Fabric, Option<f64>);
    let mut timings: Vec<(Key, Timing)> = Vec::with_capacity(64);
    let mut out: Vec<RankedOffer> = Vec::with_capacity(dataset::offers().len() * 2);
    let mut excluded = 0;
    let sharded = q.shard.is_sharded() || q.tp > 1 || q.pp > 1;
    let mut rates: Vec<dataset::Rate> = Vec::new();
    let mut used = |code: &str| {
        if code != "USD" && !rates.iter().any(|r| r.code == code) {
            rates.extend(dataset::rate(code).copied());
        }
    };
    used(q.currency.code());
    let own_ws = crate::memory::step_workspaces(q.gpu.as_deref().and_then(dataset::gpu));
    for o in offers {
        if q.provider.as_deref().is_some_and(|p| p != o.provider) {
            continue;
        }
        if q.gpu.as_deref().is_some_and(|g| g != o.gpu) {
            continue;
        }
        let (Some(g), Some(p)) = (dataset::gpu(o.gpu), provider_of(o.provider)) else { continue };
        // A currency without a dated rate cannot be compared with the others.
        let Some(fx) = conversion(o.currency, q.currency) else { continue };
        if !q.need.iter().all(|n| has(p, n)) {
            continue;
        }
        // Smallest number of instances on which the configuration fits, with the offer's GPU's
        // cuBLAS workspaces in place of the query's (memory/workspace.rs: 32 MiB a thread on
        // Hopper and Blackwell, 8.1 MiB on other NVIDIA GPUs; the replay's cache is the
        // query's, where the GPU table estimates each workspace size anew).
        let ws = crate::memory::step_workspaces(Some(g)) - own_ws;
        let on_g = |d: u64| (d as f64 + ws) as u64 <= g.vram_bytes;
        let mut k = 1;
        let instances = loop {
            if fits.device(o.count, k).is_some_and(on_g) {
                break Some(k);
            }
            if !sharded || o.internode_gb_s(p).is_none() || k >= MAX_INSTANCES {
                break None;
            }
            k *= 2;
        };
        let Some(k) = instances else {
            excluded += 1;
            continue;
        };
        // The person's own layout too (`nodes` instances of the offer's GPUs, when that is
        // what `gpus` and `nodes` say): the time card prices it, so the ranking must list it.
        let own = q.nodes > 1 && o.count * q.nodes == q.gpus && q.nodes != k && o.internode_gb_s(p).is_some();
        let own = own && fits.device(o.count, q.nodes).is_some_and(on_g);
        for k in std::iter::once(k).chain(own.then_some(q.nodes)) {
            let key = (o.gpu, o.count, k, o.fabric(g), o.internode_gb_s(p));
            let t = match timings.iter().find(|(have, _)| *have == key) {
                Some((_, t)) => *t,
                None => {
                    let t = time::timing(s, &shape, &o.gpu_as_installed(g), o.count, k, o.internode_gb_s(p));
                    timings.push((key, t));
                    t
                }
            };
            for (label, price, spot) in [("on-demand", o.on_demand_usd_h, false), ("spot", o.spot_usd_h, true)] {
                let wanted = match q.pricing {
                    Pricing::OnDemand => !spot,
                    Pricing::Spot => spot,
                    Pricing::Both => true,
                };
                let Some(price) = price else { continue };
                if !wanted {
                    continue;
                }
                used(o.currency);
                out.push(price_offer(q, o, p, k, &t, label, price * fx, spot, egress_gb)?);
            }
        }
    }
    out.sort_by(|a, b| a.usd_total.total_cmp(&b.usd_total).then(a.hours.total_cmp(&b.hours)));
    let cheapest = out.first().cloned();
    let fastest =
        out.iter().min_by(|a, b| a.hours.total_cmp(&b.hours).then(a.usd_total.total_cmp(&b.usd_total))).cloned();
    let pareto = pareto(&out);
    let (notes, warnings) = advise(q, &out, cheapest.as_ref(), fastest.as_ref());
    let recommendation = notes.iter().map(Warning::message).collect::<Vec<_>>().join(" ");
    let currency = q.currency.code();
    Ok(CostReport {
        offers: out,
        cheapest,
        fastest,
        pareto,
        recommendation,
        notes,
        warnings,
        excluded,
        currency,
        rates,
    })
}

#[allow(clippy::too_many_arguments)]
fn price_offer(
    q: &Query,
    o: &Offer,
    p: &Provider,
    k: u32,
    t: &Timing,
    label: &'static str,
    price: f64,
    spot: bool,
    egress_gb: f64,
) -> Result<RankedOffer, Error> {
    // Storage and egress prices are USD (data/providers.csv and the defaults).
    let usd = dataset::per_usd(q.currency.code()).unwrap_or(1.0);
    let rate = if spot { q.interrupt_rate.or(p.interrupt_rate_h).unwrap_or(DEFAULT_INTERRUPT_RATE_H) } else { 0.0 };
    let c = cost::cost(&CostInput {
        usd_per_instance_h: price,
        instances: k,
        hours_per_run: t.hours,
        runs: q.runs,
        billing: p.billing,
        billing_min_s: p.billing_min_s,
        interrupt_rate_h: rate,
        ckpt_interval_min: q.ckpt_interval_min,
        restart_min: RESTART_MIN,
        idle_h: q.idle_min / 60.0,
        storage_gb: q.storage_gb,
        storage_h: q.storage_days * 24.0,
        storage_usd_gb_month: p.storage_usd_gb_month.unwrap_or(DEFAULT_STORAGE_USD_GB_MONTH) * usd,
        egress_gb,
        egress_usd_gb: p.egress_usd_gb.unwrap_or(DEFAULT_EGRESS_USD_GB) * usd,
    })?;
    Ok(RankedOffer {
        offer: o.id,
        provider: o.provider,
        gpu: o.gpu,
        gpus: o.count,
        instances: k,
        pricing: label,
        currency: q.currency.code(),
        priced_in: (o.currency != q.currency.code()).then_some(o.currency),
        usd_total: c.usd_total,
        usd_per_run: c.usd_per_run,
        hours: c.wall_hours_per_run,
        usd_per_hour: price * k as f64,
        tokens_per_s: t.tokens_per_s,
        billing: p.billing.as_str(),
        confidence: o.confidence,
        region: o.region,
        snapshot_date: o.snapshot_date,
        stale: None,
    })
}

/// Offers not beaten on both cost and time by another, fastest first.
pub fn pareto(offers: &[RankedOffer]) -> Vec<RankedOffer> {
    let mut by_time: Vec<&RankedOffer> = offers.iter().collect();
    by_time.sort_by(|a, b| a.hours.total_cmp(&b.hours).then(a.usd_total.total_cmp(&b.usd_total)));
    let mut best = f64::INFINITY;
    let mut front = Vec::new();
    for o in by_time {
        if o.usd_total < best {
            best = o.usd_total;
            front.push(o.clone());
        }
    }
    front
}

/// The plain-words recommendation and the warnings, from the guidance that matters.
fn advise(
    q: &Query,
    all: &[RankedOffer],
    cheapest: Option<&RankedOffer>,
    fastest: Option<&RankedOffer>,
) -> (Vec<Warning>, Vec<Warning>) {
    let Some(c) = cheapest else {
        return (vec![Warning::RecNoneFits], Vec::new());
    };
    let g = dataset::gpu(c.gpu);
    let mut parts = vec![Warning::RecCheapest {
        gpus: c.gpus * c.instances,
        gpu: g.map_or(c.gpu, |g| g.name).into(),
        provider: c.provider.into(),
        pricing: c.pricing.into(),
        usd_total: c.usd_total,
        usd_per_run: c.usd_per_run,
        hours: c.hours,
        currency: q.currency,
    }];
    if let Some(f) = fastest {
        if f.offer != c.offer || f.pricing != c.pricing {
            parts.push(Warning::RecFastest {
                gpus: f.gpus * f.instances,
                gpu: dataset::gpu(f.gpu).map_or(f.gpu, |g| g.name).into(),
                provider: f.provider.into(),
                hours: f.hours,
                usd_total: f.usd_total,
                currency: q.currency,
            });
        }
    }
    let adapter = q.method.is_peft();
    if adapter {
        if c.gpus * c.instances == 1 {
            parts.push(Warning::RecSingleGpu);
        } else if all.iter().any(|o| o.gpus * o.instances == 1) {
            parts.push(Warning::RecSingleGpuFits);
        }
        if let Some(g) = g {
            if g.launch_year <= 2021 {
                parts.push(Warning::RecOlderCard { gpu: g.name.into(), year: g.launch_year });
            }
        }
    }
    if q.method == Method::Full && q.shard.is_sharded() {
        parts.push(Warning::RecNvlink);
    }
    // Spot.
    if q.pricing.includes_spot() {
        let spot_best = all.iter().find(|o| o.pricing == "spot");
        match spot_best {
            Some(s) if s.usd_total < c.usd_total + 1e-9 => {
                parts.push(Warning::RecSpotPays { interval_min: q.ckpt_interval_min })
            }
            Some(_) if q.ckpt_interval_min > 30.0 => {
                parts.push(Warning::RecSpotNo { interval_min: q.ckpt_interval_min })
            }
            _ => {}
        }
    }
    (parts, cautions(q, all, c))
}

/// Warnings about the cheapest offer: PCIe-only sharding, consumer cards in numbers, billing
/// rounding, unverified terms, a low-confidence price, no BF16.
fn cautions(q: &Query, all: &[RankedOffer], c: &RankedOffer) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let g = dataset::gpu(c.gpu);
    // Sharded full fine-tuning over PCIe only.
    if q.method == Method::Full && q.shard.is_sharded() {
        let pcie = |o: &RankedOffer| {
            dataset::gpu(o.gpu).is_some_and(|g| {
                let n = o.gpus;
                n > 1
                    && match g.fabric {
                        dataset::Fabric::Pcie => true,
                        dataset::Fabric::Bridge => n > g.fabric_group,
                        _ => false,
                    }
            })
        };
        if pcie(c) {
            warnings.push(Warning::PcieShardedCheapest { gpus: c.gpus, gpu: c.gpu.into() });
        } else if all.iter().take(10).any(pcie) {
            warnings.push(Warning::PcieShardedSome);
        }
    }
    if let Some(g) = g {
        if g.class == GpuClass::Consumer && c.gpus * c.instances > 1 {
            warnings.push(Warning::ConsumerMultiGpu { gpus: c.gpus * c.instances });
        }
    }
    // Per-hour billing on short, repeated runs.
    if let Some(p) = dataset::provider(c.provider) {
        if p.billing == Billing::Hour && c.hours < 2.0 {
            let billed = c.hours.ceil().max(1.0);
            let waste = (billed - c.hours) / billed;
            if waste > 0.1 {
                warnings.push(Warning::HourlyBilling {
                    provider: c.provider.into(),
                    hours: c.hours,
                    billed_hours: billed,
                    idle_percent: waste * 100.0,
                    runs: q.runs,
                });
            }
        }
        if !p.billing_verified {
            warnings.push(Warning::BillingAssumed { provider: c.provider.into() });
        }
    }
    // The offer cheapest by price × time alone, when rounding, idle time, storage or egress
    // make another one cheaper in all.
    let label = |o: &RankedOffer| crate::diag::OfferName {
        gpus: o.gpus * o.instances,
        gpu: dataset::gpu(o.gpu).map_or(o.gpu, |g| g.name).into(),
        provider: o.provider.into(),
        pricing: o.pricing.into(),
    };
    let raw = |o: &RankedOffer| o.usd_per_hour * o.hours;
    if let Some(b) = all.iter().min_by(|a, b| raw(a).total_cmp(&raw(b))) {
        if (b.offer, b.pricing, b.instances) != (c.offer, c.pricing, c.instances) && b.usd_total > c.usd_total {
            warnings.push(Warning::ExtrasChangeWinner {
                by_price: label(b),
                by_price_usd: b.usd_total,
                winner: label(c),
                winner_usd: c.usd_total,
                currency: q.currency,
            });
        }
    }
    if c.confidence == "low" {
        warnings.push(Warning::LowConfidencePrice { offer: c.offer.into(), snapshot: c.snapshot_date.into() });
    }
    if g.is_some_and(|g| !g.bf16_native) && q.precision.is_bf16() {
        warnings.push(Warning::NoBf16 { gpu: c.gpu.into() });
    }
    warnings
}

/// The `time` figure for the query: on the named GPU (`gpu`, `gpus` × `nodes`), else on the
/// cheapest offer's configuration.
pub fn time_for(s: &Settings, est: &Estimate, cost: Option<&CostReport>) -> Option<TimeEstimate> {
    let q = &*s.query;
    let shape = FlopShape::of(s, est.model.params, est.model.trainable_params);
    let provider = match (&q.gpu, cost.and_then(|c| c.cheapest.as_ref())) {
        (Some(_), _) => q.provider.as_deref().and_then(dataset::provider),
        (None, Some(c)) => dataset::provider(c.provider),
        _ => None,
    };
    let rate = q.interrupt_rate.or(provider.and_then(|p| p.interrupt_rate_h)).unwrap_or(DEFAULT_INTERRUPT_RATE_H);
    // The bundled offer the cheapest row names, when the time is the cheapest offer's.
    let offer = match (&q.gpu, cost.and_then(|c| c.cheapest.as_ref())) {
        (None, Some(c)) => dataset::offers().iter().find(|o| o.id == c.offer),
        _ => None,
    };
    let (g, count, inst, internode) = match (&q.gpu, cost.and_then(|c| c.cheapest.as_ref())) {
        // `gpus` counts every GPU of the run; an instance holds gpus / nodes of them.
        (Some(id), _) => (
            dataset::gpu(id)?,
            q.gpus.div_ceil(q.nodes.max(1)),
            q.nodes.max(1),
            q.provider
                .as_deref()
                .and_then(dataset::provider)
                .and_then(|p| p.internode_gb_s)
                .or(Some(DEFAULT_INTERNODE_GB_S)),
        ),
        (None, Some(c)) => {
            let p = dataset::provider(c.provider);
            let internode = match (offer, p) {
                (Some(o), Some(p)) => o.internode_gb_s(p),
                (_, p) => p.and_then(|p| p.internode_gb_s),
            };
            (dataset::gpu(c.gpu)?, c.gpus, c.instances, internode)
        }
        _ => return None,
    };
    // The cheapest offer's instance, with its own interconnect.
    let installed = offer.map(|o| o.gpu_as_installed(g));
    let g = installed.as_ref().unwrap_or(g);
    let t = time::timing(s, &shape, g, count, inst, internode);
    let mut te = TimeEstimate::new(q, g, count, inst, &t);
    te.spot_hours = cost::wall_hours(t.hours, rate, q.ckpt_interval_min, RESTART_MIN);
    Some(te)
}
