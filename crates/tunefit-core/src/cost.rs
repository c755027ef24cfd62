//! What one offer costs for the whole job: billed time per run (with the provider's rounding),
//! spot interruptions, persistent storage and egress of the result.
//!
//! Rules (each unit-tested in tests/cost.rs):
//! - Spot: expected wall time = h·(1 + λ·(τ/2 + r)), λ interruptions per hour, τ checkpoint
//!   interval, r restart time: each interruption loses on average half an interval of work
//!   plus the restart. λ = 0 gives exactly h at the spot price. Checkpoint save time is not
//!   charged, so a longer interval never costs less.
//! - Billing: each run's wall time and the idle time after it (the instance kept up while the
//!   person reads the results) are one session, rounded up to the provider's unit (second,
//!   minute, hour) and to its minimum charge, then multiplied by the instance price and
//!   instances: a per-hour provider bills a 20-minute run with 20 minutes of idle as one hour.
//! - Storage: GB × USD/GB-month × the months it is kept (730 h per month): the sessions'
//!   time, or the project's days when that is longer.
//! - Egress: the final checkpoint or adapter, and whatever else is downloaded (checkpoints,
//!   logs), leaves the provider once per run.

use crate::dataset::Billing;
use crate::diag::Error;
use serde::Serialize;

/// Restart after an interruption: provision a new instance, pull the image, reload the last
/// checkpoint. 10 minutes is typical of the providers' own start-up times (2–15 min).
pub const RESTART_MIN: f64 = 10.0;
/// Hours in an average month (8760 / 12), the unit of storage prices.
pub const HOURS_PER_MONTH: f64 = 730.0;

/// Everything one cost calculation needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostInput {
    /// USD per instance-hour (on-demand or spot).
    pub usd_per_instance_h: f64,
    pub instances: u32,
    /// Compute hours of one run without interruptions.
    pub hours_per_run: f64,
    pub runs: u32,
    pub billing: Billing,
    /// Minimum charge per run, seconds.
    pub billing_min_s: f64,
    /// Interruptions per hour (0 for on-demand).
    pub interrupt_rate_h: f64,
    pub ckpt_interval_min: f64,
    pub restart_min: f64,
    /// Hours the instance stays up, billed, after each run.
    pub idle_h: f64,
    pub storage_gb: f64,
    /// Hours the storage is kept at least (the project's days); the sessions' time otherwise.
    pub storage_h: f64,
    pub storage_usd_gb_month: f64,
    pub egress_gb: f64,
    pub egress_usd_gb: f64,
}

/// The cost of one offer for the job.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cost {
    /// Expected wall-clock hours of one run, interruptions included.
    pub wall_hours_per_run: f64,
    /// Hours billed per run after rounding.
    pub billed_hours_per_run: f64,
    pub compute_usd: f64,
    pub storage_usd: f64,
    pub egress_usd: f64,
    pub usd_total: f64,
    pub usd_per_run: f64,
}

fn check(key: &str, v: f64) -> Result<(), Error> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(key, format!("{v} must be a finite number >= 0")))
    }
}

/// Expected wall hours of a run of `h` compute hours under interruptions.
pub fn wall_hours(h: f64, interrupt_rate_h: f64, ckpt_interval_min: f64, restart_min: f64) -> f64 {
    h * (1.0 + interrupt_rate_h * (ckpt_interval_min / 2.0 + restart_min) / 60.0)
}

/// Billed hours for one run of `wall_h` hours.
pub fn billed_hours(wall_h: f64, billing: Billing, min_s: f64) -> f64 {
    let unit = billing.seconds();
    // Tiny tolerance so that an exact hour is not rounded to two by float noise.
    let secs = (wall_h * 3600.0 - 1e-6).max(0.0);
    let billed = (secs / unit).ceil() * unit;
    billed.max(min_s) / 3600.0
}

pub fn cost(c: &CostInput) -> Result<Cost, Error> {
    check("price", c.usd_per_instance_h)?;
    check("interrupt_rate", c.interrupt_rate_h)?;
    check("ckpt_interval_min", c.ckpt_interval_min)?;
    check("storage_gb", c.storage_gb)?;
    check("storage_price", c.storage_usd_gb_month)?;
    check("egress_price", c.egress_usd_gb)?;
    check("hours", c.hours_per_run)?;
    check("idle_min", c.idle_h)?;
    check("storage_days", c.storage_h)?;
    let wall = wall_hours(c.hours_per_run, c.interrupt_rate_h, c.ckpt_interval_min, c.restart_min);
    let billed = billed_hours(wall + c.idle_h, c.billing, c.billing_min_s);
    let runs = c.runs.max(1) as f64;
    let compute_usd = billed * c.usd_per_instance_h * c.instances as f64 * runs;
    let session = wall + c.idle_h;
    let storage_usd = if c.storage_h > session * runs {
        c.storage_gb * c.storage_usd_gb_month * c.storage_h / HOURS_PER_MONTH
    } else {
        c.storage_gb * c.storage_usd_gb_month * session * runs / HOURS_PER_MONTH
    };
    let egress_usd = c.egress_gb * c.egress_usd_gb * runs;
    let usd_total = compute_usd + storage_usd + egress_usd;
    Ok(Cost {
        wall_hours_per_run: wall,
        billed_hours_per_run: billed,
        compute_usd,
        storage_usd,
        egress_usd,
        usd_total,
        usd_per_run: usd_total / runs,
    })
}
