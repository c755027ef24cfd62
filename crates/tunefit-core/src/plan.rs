//! Planning from a goal: the settings a person would change — method, micro-batch with
//! accumulation at the same effective batch, checkpointing, loss kernel, optimizer, sharding —
//! each candidate evaluated in full (memory, the offer ranking, time), kept when its cheapest
//! offer fits with the memory model's error band (`solve::verdict`) and meets the budget and
//! deadline, and ordered by the goal. Every plan is a query: `tunefit estimate` on it gives
//! the same figures.

use crate::diag::Lang;
use crate::query::{Checkpointing, Goal, Loss, Method, Optimizer, Pricing, Query, ShardingStrategy};
use crate::report::{evaluate, Error, Verdict};
use crate::settings::Settings;
use serde::Serialize;
use std::fmt;

/// One way to run the job.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// The canonical query of this plan (`tunefit estimate` reproduces every figure).
    pub query: String,
    /// Per-GPU device memory, bytes.
    pub device: u64,
    /// The offer it runs on: id, provider, GPU, GPUs per instance × instances, pricing.
    pub offer: String,
    pub provider: String,
    pub gpu: String,
    pub gpus: u32,
    pub pricing: String,
    /// Wall-clock hours of one run and the total cost of all runs, in `currency` (the
    /// query's display currency; the field's name predates it).
    pub hours: f64,
    pub usd: f64,
    /// ISO 4217 code of `usd`.
    pub currency: &'static str,
    /// Quality risk: 0 full fine-tune, 1 LoRA/DoRA (adapters), 2 QLoRA (4-bit base); +1 for an
    /// 8-bit optimizer.
    pub risk: u32,
    /// What the plan changes against the person's own settings (in the JSON, English words).
    pub gives_up: Vec<Change>,
}

/// One change of a plan against the person's settings, with its values; put in words per
/// language by `text` (the JSON and the CLI write the English).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    Method {
        to: Method,
        from: Method,
    },
    /// Micro-batch × accumulation, at the same effective batch.
    Batch {
        batch: u32,
        ga: u32,
        from_batch: u32,
        from_ga: u32,
    },
    Checkpointing,
    ChunkedLoss,
    Optimizer {
        to: Optimizer,
        from: Optimizer,
    },
    Sharding {
        to: ShardingStrategy,
        from: ShardingStrategy,
    },
}

impl Change {
    pub fn text(self, lang: Lang) -> String {
        use Change as C;
        match (lang.built(), self) {
            (Lang::En, C::Method { to, from }) => format!("method {to} instead of {from}"),
            (Lang::En, C::Batch { batch, ga, from_batch, from_ga }) => format!(
                "micro-batch {batch} × accumulation {ga} instead of {from_batch} × {from_ga} (same effective batch)"
            ),
            (Lang::En, C::Checkpointing) => {
                "full activation checkpointing (recomputes the forward: ~1/3 more compute)".into()
            }
            (Lang::En, C::ChunkedLoss) => "chunked cross-entropy (logits in chunks)".into(),
            (Lang::En, C::Optimizer { to, from }) => format!("optimizer {to} instead of {from}"),
            (Lang::En, C::Sharding { to, from }) => format!("sharding {to} instead of {from}"),
            (Lang::Ru, C::Method { to, from }) => format!("method={to} вместо {from}"),
            (Lang::Ru, C::Batch { batch, ga, from_batch, from_ga }) => {
                format!("микробатч {batch} × накопление {ga} вместо {from_batch} × {from_ga} (эффективный батч тот же)")
            }
            (Lang::Ru, C::Checkpointing) => {
                "полный чекпоинтинг активаций (прямой проход пересчитывается: примерно на 1/3 больше вычислений)".into()
            }
            (Lang::Ru, C::ChunkedLoss) => "кросс-энтропия по частям (логиты считаются частями)".into(),
            (Lang::Ru, C::Optimizer { to, from }) => format!("optim={to} вместо {from}"),
            (Lang::Ru, C::Sharding { to, from }) => format!("shard={to} вместо {from}"),
        }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// The English words: `gives_up` is a list of strings in the JSON.
impl Serialize for Change {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text(Lang::En))
    }
}

/// Plans kept in the answer.
pub const MAX_PLANS: usize = 5;

fn risk(q: &Query) -> u32 {
    let m = match q.method {
        Method::Full => 0,
        Method::Qlora => 2,
        _ => 1,
    };
    m + u32::from(q.optim.is_bnb_8bit())
}

/// Candidate settings around the person's own: a few values per setting a person would
/// change, combined.
fn candidates(s: &Settings) -> Vec<Query> {
    let q = s.given;
    let mut methods = vec![q.method];
    for m in [Method::Lora, Method::Qlora] {
        if !methods.contains(&m) {
            methods.push(m);
        }
    }
    let effective = q.batch as u64 * q.ga as u64;
    let mut batches: Vec<u32> = vec![q.batch];
    for b in [q.batch / 2, q.batch / 4, 1] {
        if b >= 1 && !batches.contains(&b) && effective.is_multiple_of(b as u64) {
            batches.push(b);
        }
    }
    // Only changes that change something: the framework profile may already checkpoint or
    // chunk the loss (framework::resolve).
    let resolved = s.resolved;
    let ckpts =
        if resolved.ckpt == Checkpointing::Full { vec![q.ckpt] } else { vec![q.ckpt, Some(Checkpointing::Full)] };
    // An encoder's loss reads one vector per sample: no logits for a chunked loss to split.
    let losses = if resolved.loss == Loss::Chunked || s.arch.encoder_only {
        vec![q.loss]
    } else {
        vec![q.loss, Some(Loss::Chunked)]
    };
    let optims = if q.optim.is_bnb_8bit() { vec![q.optim] } else { vec![q.optim, Optimizer::AdamW8bit] };
    let shards = if q.gpus > 1 && q.shard != ShardingStrategy::Fsdp {
        vec![q.shard, ShardingStrategy::Fsdp]
    } else {
        vec![q.shard]
    };
    let mut out = Vec::new();
    for &method in &methods {
        for &batch in &batches {
            for &ckpt in &ckpts {
                for &loss in &losses {
                    for &optim in &optims {
                        for &shard in &shards {
                            let mut c = q.clone();
                            c.method = method;
                            c.batch = batch;
                            c.ga = (effective / batch as u64).clamp(1, 65_536) as u32;
                            c.ckpt = ckpt;
                            c.loss = loss;
                            c.optim = optim;
                            c.shard = shard;
                            // The plan names its GPU through the offer; the person's `gpu`
                            // filters the offers.
                            out.push(c);
                        }
                    }
                }
            }
        }
    }
    out
}

/// What `c` changes against `q`.
fn gives_up(q: &Query, c: &Query) -> Vec<Change> {
    let mut out = Vec::new();
    if c.method != q.method {
        out.push(Change::Method { to: c.method, from: q.method });
    }
    if c.batch != q.batch {
        out.push(Change::Batch { batch: c.batch, ga: c.ga, from_batch: q.batch, from_ga: q.ga });
    }
    if c.ckpt != q.ckpt {
        out.push(Change::Checkpointing);
    }
    if c.loss != q.loss {
        out.push(Change::ChunkedLoss);
    }
    if c.optim != q.optim {
        out.push(Change::Optimizer { to: c.optim, from: q.optim });
    }
    if c.shard != q.shard {
        out.push(Change::Sharding { to: c.shard, from: q.shard });
    }
    out
}

/// `o` is as good as `p` on cost and time at the same quality risk with no more changes, and
/// more than 1 % better on one of them.
pub fn dominates(o: &Plan, p: &Plan) -> bool {
    o.risk == p.risk
        && o.gives_up.len() <= p.gives_up.len()
        && o.usd <= p.usd
        && o.hours <= p.hours
        && (o.usd < 0.99 * p.usd || o.hours < 0.99 * p.hours)
}

/// The offer row of a report for `offer` priced `pricing`.
fn row<'a>(r: &'a crate::report::Report, offer: &str, pricing: &str) -> Option<&'a crate::advice::RankedOffer> {
    r.cost.as_ref()?.offers.iter().find(|o| o.offer == offer && o.pricing == pricing)
}

/// The best plans for the query's goal, budget and deadline (at most MAX_PLANS), best first.
pub fn plan(q: &Query) -> Result<Vec<Plan>, Error> {
    // The person's own configuration must be evaluable: its errors are theirs to fix.
    evaluate(q)?;
    let settings = Settings::resolve(q)?;
    // The budget is US dollars (`budget_usd`); the costs are in the display currency.
    let fx = crate::dataset::per_usd(q.currency.code()).unwrap_or(1.0);
    let within =
        |usd: f64, hours: f64| q.budget_usd.is_none_or(|b| usd <= b * fx) && q.deadline_h.is_none_or(|d| hours <= d);
    let mut plans: Vec<Plan> = Vec::new();
    for c in candidates(&settings) {
        let Ok(r) = evaluate(&c) else { continue };
        let Some(cost) = &r.cost else { continue };
        // Offers of this candidate within the limits, best first by the goal; the first whose
        // configuration fits with the error band becomes the plan.
        let mut offers: Vec<_> = cost.offers.iter().filter(|o| within(o.usd_total, o.hours)).collect();
        if q.goal == Goal::Fastest {
            offers.sort_by(|a, b| a.hours.total_cmp(&b.hours).then(a.usd_total.total_cmp(&b.usd_total)));
        }
        for o in offers.into_iter().take(8) {
            // The plan names the offer's GPU, provider and count, so `tunefit estimate` on it
            // evaluates exactly this configuration.
            let mut fixed = c.clone();
            fixed.gpu = Some(o.gpu.to_string());
            fixed.provider = Some(o.provider.to_string());
            fixed.gpus = o.gpus * o.instances;
            fixed.nodes = o.instances;
            fixed.pricing = if o.pricing == "spot" { Pricing::Spot } else { Pricing::OnDemand };
            let Ok(fr) = evaluate(&fixed) else { continue };
            let (Some(fit), Some(fo)) = (fr.fit.as_ref(), row(&fr, o.offer, o.pricing)) else { continue };
            if fit.verdict != Verdict::Fits || !within(fo.usd_total, fo.hours) {
                continue;
            }
            plans.push(Plan {
                query: fixed.to_query_string(),
                device: fr.memory.device,
                offer: fo.offer.to_string(),
                provider: fo.provider.to_string(),
                gpu: fo.gpu.to_string(),
                gpus: fo.gpus * fo.instances,
                pricing: fo.pricing.to_string(),
                hours: fo.hours,
                usd: fo.usd_total,
                currency: fo.currency,
                risk: risk(&c),
                gives_up: gives_up(q, &c),
            });
            break;
        }
    }
    let all = plans.clone();
    plans.retain(|p| !all.iter().any(|o| dominates(o, p)));
    // Costs and times within 1 % are ties (billing rounds them anyway): among ties the plan
    // with less quality risk and fewer changes comes first.
    let bucket = |x: f64| (x.max(1e-9).ln() / 1.01f64.ln()).floor() as i64;
    let tie = |a: &Plan, b: &Plan| a.risk.cmp(&b.risk).then(a.gives_up.len().cmp(&b.gives_up.len()));
    match q.goal {
        Goal::Cheapest => {
            plans.sort_by(|a, b| bucket(a.usd).cmp(&bucket(b.usd)).then(tie(a, b)).then(a.hours.total_cmp(&b.hours)))
        }
        Goal::Fastest => {
            plans.sort_by(|a, b| bucket(a.hours).cmp(&bucket(b.hours)).then(tie(a, b)).then(a.usd.total_cmp(&b.usd)))
        }
        Goal::Quality => plans.sort_by(|a, b| tie(a, b).then(a.usd.total_cmp(&b.usd))),
    }
    plans.dedup_by(|a, b| a.query == b.query);
    plans.truncate(MAX_PLANS);
    Ok(plans)
}
