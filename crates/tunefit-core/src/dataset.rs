//! The bundled GPU, provider and cloud-offer dataset (`data/*.csv`, compiled in).
//!
//! `data/pipeline.py` writes them (the one command: `python3 data/pipeline.py`): GPUs and
//! providers from `shared/reference` through `data/derive.py` and `data/audit_2026_12.py`, offers
//! from `data/sources/` (SkyPilot catalog rows at a recorded commit and transcribed pricing pages,
//! each with its `url` and the day it was read; derived rows dropped, duplicates keep the newest;
//! see the script's header). Every row keeps its source and snapshot date. Rules applied, so that
//! nothing downstream has to guess:
//! - **Prices are per instance** (`count` GPUs); `Offer::usd_per_gpu_hour` divides.
//! - **GCP rows that priced only the GPU** got their host VM added (n1-standard-4 per GPU,
//!   ~0.19 USD/h, an estimate) and are marked low confidence; GCP rows whose on-demand GPU part
//!   was below its own spot price were replaced by the list price; rows with no price dropped.
//! - **Spot columns that are not spot data** (RunPod: equal to on-demand; Vast: 0 = not
//!   captured; Mithril floor placeholders) are dropped: `spot_usd_h` is `None` there, so a spot
//!   price shown is always a real market price.
//! - GPUs without specs in the reference (GB300, P100, A16, TPU) are dropped; B300, MI355X,
//!   MI350X, H20, L20 and RTX A4000 are added after the reference rows from the pages each row's
//!   `source` names (derived figures say so in its `note`).
//! - Offers are only what a page or catalog showed: per-GPU prices multiplied to GPU counts
//!   nobody observed are not offers.
//! - Prices stay in their source's currency (`Offer::currency`); the cost ranking converts them
//!   to the query's display currency at `data/currency.csv`'s dated rates (`rate`).
//!
//! The 2026-12 audit (shared/notes/data-audit.md) is in the sources: stale and duplicate
//! readings replaced by the providers' current pages (each with the page and the date read),
//! unpublished prices removed, provider features from their docs (`data/audit_2026_12.py`), and
//! each instance type's own network between instances (`Offer::internode_gb_s`).
//!
//! **VRAM unit.** Vendors' "80 GB" for HBM and GDDR parts is 80 GiB of DRAM (DRAM dies come in
//! powers of two: an A100 80GB reports 81920 MiB total in nvidia-smi; a V100 32GB 32480 MiB).
//! So `vram_bytes = vram_gb · 2^30`; nvidia-smi's total is at most ~0.5 % below that (ECC and
//! driver reservations), which the memory model's device overhead covers.

use std::sync::OnceLock;

// data/*.csv through build.rs: without the `provenance` feature, `source` and `note` are empty;
// without `datasheet`, the GPUs' `int8_tops` and `tdp_w`.
static GPUS_CSV: &str = include_str!(concat!(env!("OUT_DIR"), "/gpus.csv"));
static PROVIDERS_CSV: &str = include_str!(concat!(env!("OUT_DIR"), "/providers.csv"));
static OFFERS_CSV: &str = include_str!(concat!(env!("OUT_DIR"), "/offers.csv"));
static CURRENCY_CSV: &str = include_str!(concat!(env!("OUT_DIR"), "/currency.csv"));

const GIB: f64 = 1_073_741_824.0;

/// Market segment: decides default efficiency and the advice given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GpuClass {
    Datacenter,
    Pro,
    Consumer,
}

/// How GPUs inside one instance talk to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fabric {
    /// NVLink through NVSwitch: every GPU of the node at full link speed.
    Nvlink,
    /// NVLink bridges between small groups (2 or 4); the rest goes over PCIe.
    Bridge,
    /// No peer link: all traffic over PCIe through the host.
    Pcie,
    /// AMD Infinity Fabric, all-to-all in an 8-GPU OAM node.
    InfinityFabric,
    /// Intel Gaudi's on-chip RoCE ports, all-to-all in the node.
    Roce,
}

/// One GPU model, with dense (not 2:4 sparse) throughput figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Gpu {
    pub id: &'static str,
    pub name: &'static str,
    pub vendor: &'static str,
    pub architecture: &'static str,
    pub launch_year: u32,
    pub class: GpuClass,
    /// Memory in bytes (see the module note: marketed GB are GiB).
    pub vram_bytes: u64,
    pub memory_type: &'static str,
    pub mem_bandwidth_gb_s: f64,
    pub fp32_tflops: Option<f64>,
    pub tf32_tflops: Option<f64>,
    pub bf16_tflops: Option<f64>,
    pub fp16_tflops: Option<f64>,
    pub fp8_tflops: Option<f64>,
    pub fp4_tflops: Option<f64>,
    /// Dense INT8 tensor TOPS; None where the vendor publishes none (and, like `tdp_w`, always
    /// None without the `datasheet` feature: build.rs leaves both out of the page's build).
    pub int8_tops: Option<f64>,
    pub bf16_native: bool,
    pub fp8_native: bool,
    pub fp4_native: bool,
    pub fabric: Fabric,
    /// GPUs one fabric domain joins (8 for an HGX node, 2 for a bridge pair, 0 for PCIe).
    pub fabric_group: u32,
    /// Peer bandwidth per GPU, GB/s, both directions added (as vendors quote it).
    pub fabric_gb_s: f64,
    /// Host PCIe bandwidth per GPU, GB/s, both directions added.
    pub pcie_gb_s: f64,
    /// Board power (TDP/TBP) in watts, the vendor's maximum where it is configurable.
    pub tdp_w: Option<f64>,
    /// The interconnect's name, the row's confidence and date: empty without the `datasheet`
    /// feature (the page's build; build.rs).
    pub interconnect: &'static str,
    pub confidence: &'static str,
    pub source: &'static str,
    pub date: &'static str,
}

/// How a provider rounds billed time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Billing {
    Second,
    Minute,
    Hour,
}

impl Billing {
    pub fn seconds(self) -> f64 {
        match self {
            Billing::Second => 1.0,
            Billing::Minute => 60.0,
            Billing::Hour => 3600.0,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Billing::Second => "per-second",
            Billing::Minute => "per-minute",
            Billing::Hour => "per-hour",
        }
    }
}

/// One cloud provider's terms.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Provider {
    pub id: &'static str,
    pub name: &'static str,
    pub billing: Billing,
    /// Minimum charge per run, seconds.
    pub billing_min_s: f64,
    /// False when the billing rule is assumed (hourly, so cost is never understated).
    pub billing_verified: bool,
    /// USD per GB-month of persistent storage; None when not captured.
    pub storage_usd_gb_month: Option<f64>,
    /// USD per GB leaving the provider; None when not captured.
    pub egress_usd_gb: Option<f64>,
    pub spot: bool,
    /// Default spot interruptions per hour (user-adjustable with `interrupt_rate`).
    pub interrupt_rate_h: Option<f64>,
    pub ssh: bool,
    pub docker: bool,
    pub jupyter: bool,
    /// Inter-node bandwidth per GPU, GB/s one way; None: single-node only.
    pub internode_gb_s: Option<f64>,
    /// The row's confidence and date: empty without the `datasheet` feature (build.rs).
    pub confidence: &'static str,
    pub source: &'static str,
    pub date: &'static str,
    pub note: &'static str,
}

/// One rentable instance: `count` GPUs at a provider, priced per instance-hour.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Offer {
    pub id: &'static str,
    pub provider: &'static str,
    pub gpu: &'static str,
    pub count: u32,
    /// USD per instance-hour on demand; None for spot-only listings.
    pub on_demand_usd_h: Option<f64>,
    /// USD per instance-hour on a real spot/preemptible market; None when not captured.
    pub spot_usd_h: Option<f64>,
    /// Where the instance runs; empty without the `places` feature (build.rs: the page's first
    /// load shows no offer's region, its lazily loaded cost table does).
    pub region: &'static str,
    pub instance: &'static str,
    /// Provider tier ("secure", "community") or aggregator sub-source.
    pub tier: &'static str,
    /// Aggregator the price was read through, if any.
    pub via: &'static str,
    pub source: &'static str,
    pub snapshot_date: &'static str,
    pub confidence: &'static str,
    pub note: &'static str,
    /// This instance type's network to other instances, per GPU, GB/s one way: `Some(None)`
    /// where it has none meant for multi-node training (Azure NC-series, partial GCP A3
    /// shapes); `None` where the provider's figure applies. In JSON: absent (the
    /// provider's), `null` (none) or the figure.
    #[serde(rename = "internode_gb_s", skip_serializing_if = "Option::is_none")]
    pub internode: Option<Option<f64>>,
    /// ISO 4217 code of both prices (`USD`, `RUB`, ...): prices stay in the currency the source
    /// gives; nothing converts them.
    pub currency: &'static str,
    /// The page or catalog file the price was read from (empty without the `provenance`
    /// feature, like `source`).
    pub url: &'static str,
    /// How this instance's GPUs talk to each other, as data/pipeline.py derives it from the
    /// GPU's fabric and the instance type (agrees with `fabric`); None for a one-GPU instance
    /// (and for your own prices). This and the next three are None/empty without the
    /// `datasheet` feature (build.rs: the page shows none of them).
    pub gpu_link: Option<Fabric>,
    /// The instance's network to other instances where the instance type is known to the
    /// pipeline: `efa`, `infiniband`, `gpudirect-tcpx`, `ethernet`, `ena`, `none`; empty when not
    /// known.
    pub internode_network: &'static str,
    /// That network's bandwidth for the whole instance, Gb/s (one way); None when not known.
    pub internode_gbit_s: Option<f64>,
    /// Local (instance-store) disk in GB; Some(0.0) for network storage only; None when unknown.
    pub local_disk_gb: Option<f64>,
}

impl Offer {
    /// Inter-node bandwidth per GPU of this instance type, GB/s one way (None: single node).
    pub fn internode_gb_s(&self, p: &Provider) -> Option<f64> {
        self.internode.unwrap_or(p.internode_gb_s)
    }

    /// How this instance's GPUs talk to each other. A PCIe card's NVLink bridge counts only
    /// where the offer's instance type names it (e.g. Hyperstack's `n3-A100x8-NVLink`):
    /// cloud PCIe instances are sold without bridges unless they say so, and a bridge assumed
    /// where there is none makes the all-reduce 2–9× too fast (the PCIe rate against the
    /// bridge's).
    pub fn fabric(&self, g: &Gpu) -> Fabric {
        let named = |s: &str| s.to_ascii_lowercase().contains("nvlink");
        if g.fabric == Fabric::Bridge && !named(self.instance) {
            Fabric::Pcie
        } else {
            g.fabric
        }
    }

    /// The GPU as this instance has it: its interconnect is the offer's (`fabric`).
    pub fn gpu_as_installed(&self, g: &Gpu) -> Gpu {
        Gpu { fabric: self.fabric(g), ..g.clone() }
    }

    pub fn usd_per_gpu_hour(&self) -> Option<f64> {
        self.on_demand_usd_h.map(|p| p / self.count as f64)
    }
}

/// A dated exchange rate (`data/currency.csv`): units of `code` per US dollar, the unit every
/// conversion goes through.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Rate {
    /// ISO 4217 code.
    pub code: &'static str,
    pub per_usd: f64,
    /// The day the rate is for.
    pub date: &'static str,
    /// Who set it (a central bank's official rate).
    pub source: &'static str,
    /// The page it was read from (empty without the `provenance` feature).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub url: &'static str,
}

/// A malformed data row (only reachable if a data file is edited badly; tests guard it).
#[derive(Debug, Clone, PartialEq)]
pub struct DataError {
    pub file: &'static str,
    pub line: usize,
    pub column: &'static str,
    pub message: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}: {}", self.file, self.line, self.column, self.message)
    }
}

/// A row of a comma-separated file whose fields never contain commas (the derivation
/// replaces them with ';').
struct Row<'a> {
    file: &'static str,
    line: usize,
    header: &'a [&'static str],
    fields: Vec<&'static str>,
}

impl Row<'_> {
    fn get(&self, col: &'static str) -> Result<&'static str, DataError> {
        let i = self
            .header
            .iter()
            .position(|h| *h == col)
            .ok_or_else(|| self.err(col, "column missing from header".into()))?;
        Ok(self.fields.get(i).copied().unwrap_or("").trim())
    }
    fn err(&self, column: &'static str, message: String) -> DataError {
        DataError { file: self.file, line: self.line, column, message }
    }
    fn req(&self, col: &'static str) -> Result<&'static str, DataError> {
        let v = self.get(col)?;
        if v.is_empty() {
            Err(self.err(col, "empty".into()))
        } else {
            Ok(v)
        }
    }
    fn num(&self, col: &'static str) -> Result<f64, DataError> {
        self.opt_num(col)?.ok_or_else(|| self.err(col, "empty".into()))
    }
    fn opt_num(&self, col: &'static str) -> Result<Option<f64>, DataError> {
        let v = self.get(col)?;
        if v.is_empty() {
            return Ok(None);
        }
        let x: f64 = crate::num::parse_f64(v).ok_or(()).map_err(|_| self.err(col, format!("'{v}' is not a number")))?;
        if !x.is_finite() || x < 0.0 {
            return Err(self.err(col, format!("{v} must be a finite number >= 0")));
        }
        Ok(Some(x))
    }
    fn yes(&self, col: &'static str) -> Result<bool, DataError> {
        match self.get(col)? {
            "yes" => Ok(true),
            "no" => Ok(false),
            v => Err(self.err(col, format!("'{v}' is not yes|no"))),
        }
    }
}

fn rows(file: &'static str, text: &'static str) -> Result<Vec<Row<'static>>, DataError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, head) = lines.next().ok_or(DataError { file, line: 1, column: "", message: "empty file".into() })?;
    let header: &'static [&'static str] = Box::leak(head.split(',').collect::<Vec<_>>().into_boxed_slice());
    lines
        .map(|(i, l)| {
            let fields: Vec<&'static str> = l.split(',').collect();
            if fields.len() != header.len() {
                return Err(DataError {
                    file,
                    line: i + 1,
                    column: "",
                    message: format!("{} fields, header has {}", fields.len(), header.len()),
                });
            }
            Ok(Row { file, line: i + 1, header, fields })
        })
        .collect()
}

/// A row's `source`: required with the `provenance` feature, empty without it (build.rs).
fn source(r: &Row) -> Result<&'static str, DataError> {
    if cfg!(feature = "provenance") {
        r.req("source")
    } else {
        r.get("source")
    }
}

fn fabric(r: &Row, col: &'static str) -> Result<Fabric, DataError> {
    Ok(match r.req(col)? {
        "nvlink" => Fabric::Nvlink,
        "bridge" => Fabric::Bridge,
        "pcie" => Fabric::Pcie,
        "infinity-fabric" => Fabric::InfinityFabric,
        "roce" => Fabric::Roce,
        v => return Err(r.err(col, format!("'{v}' is not a known fabric"))),
    })
}

fn parse_gpus() -> Result<Vec<Gpu>, DataError> {
    rows("gpus.csv", GPUS_CSV)?
        .into_iter()
        .map(|r| {
            let class = match r.req("class")? {
                "datacenter" => GpuClass::Datacenter,
                "pro" => GpuClass::Pro,
                "consumer" => GpuClass::Consumer,
                v => return Err(r.err("class", format!("'{v}' is not datacenter|pro|consumer"))),
            };
            let fabric = fabric(&r, "fabric")?;
            Ok(Gpu {
                id: r.req("id")?,
                name: r.req("name")?,
                vendor: r.req("vendor")?,
                architecture: r.req("architecture")?,
                launch_year: r.num("launch_year")? as u32,
                class,
                vram_bytes: (r.num("vram_gb")? * GIB).round() as u64,
                // Emptied without the `datasheet` feature (build.rs), required with it.
                memory_type: if cfg!(feature = "datasheet") { r.req("memory_type")? } else { "" },
                mem_bandwidth_gb_s: r.num("mem_bandwidth_gb_s")?,
                fp32_tflops: r.opt_num("fp32_tflops")?,
                tf32_tflops: r.opt_num("tf32_tflops")?,
                bf16_tflops: r.opt_num("bf16_tflops")?,
                fp16_tflops: r.opt_num("fp16_tflops")?,
                fp8_tflops: r.opt_num("fp8_tflops")?,
                fp4_tflops: r.opt_num("fp4_tflops")?,
                int8_tops: r.opt_num("int8_tops")?,
                bf16_native: r.yes("bf16_native")?,
                fp8_native: r.yes("fp8_native")?,
                fp4_native: r.yes("fp4_native")?,
                fabric,
                fabric_group: r.num("fabric_group")? as u32,
                fabric_gb_s: r.num("fabric_gb_s")?,
                pcie_gb_s: r.num("pcie_gb_s")?,
                tdp_w: r.opt_num("tdp_w")?,
                interconnect: if cfg!(feature = "datasheet") { r.req("interconnect")? } else { "" },
                confidence: if cfg!(feature = "datasheet") { r.req("confidence")? } else { "" },
                source: source(&r)?,
                date: if cfg!(feature = "datasheet") { r.req("date")? } else { "" },
            })
        })
        .collect()
}

fn parse_providers() -> Result<Vec<Provider>, DataError> {
    rows("providers.csv", PROVIDERS_CSV)?
        .into_iter()
        .map(|r| {
            let billing = match r.req("billing")? {
                "second" => Billing::Second,
                "minute" => Billing::Minute,
                "hour" => Billing::Hour,
                v => return Err(r.err("billing", format!("'{v}' is not second|minute|hour"))),
            };
            Ok(Provider {
                id: r.req("id")?,
                name: r.req("name")?,
                billing,
                billing_min_s: r.num("billing_min_s")?,
                billing_verified: r.yes("billing_verified")?,
                storage_usd_gb_month: r.opt_num("storage_usd_gb_month")?,
                egress_usd_gb: r.opt_num("egress_usd_gb")?,
                spot: r.yes("spot")?,
                interrupt_rate_h: r.opt_num("interrupt_rate_h")?,
                ssh: r.yes("ssh")?,
                docker: r.yes("docker")?,
                jupyter: r.yes("jupyter")?,
                internode_gb_s: r.opt_num("internode_gb_s")?,
                confidence: if cfg!(feature = "datasheet") { r.req("confidence")? } else { "" },
                source: source(&r)?,
                date: if cfg!(feature = "datasheet") { r.req("date")? } else { "" },
                note: r.get("note")?,
            })
        })
        .collect()
}

/// An offer's id as data/pipeline.py writes it: `provider[-tier][-via-aggregator]/gpu/count`,
/// with `-k` after the k-th listing of the same (k ≥ 2, in file order). The page's build
/// empties the column (build.rs) and derives it here; `seen` holds the ids so far, each
/// without its `-k`.
fn offer_id(r: &Row, seen: &mut Vec<&'static str>) -> Result<&'static str, DataError> {
    let mut id = String::new();
    for (sep, col) in [("", "provider"), ("-", "tier"), ("-via-", "via"), ("/", "gpu"), ("/", "count")] {
        let v = r.get(col)?;
        if !v.is_empty() {
            id += sep;
            id += v;
        }
    }
    let base: &'static str = Box::leak(id.into_boxed_str());
    let k = seen.iter().filter(|b| **b == base).count() + 1;
    seen.push(base);
    Ok(if k == 1 { base } else { Box::leak(format!("{base}-{k}").into_boxed_str()) })
}

fn parse_offers() -> Result<Vec<Offer>, DataError> {
    let mut seen = Vec::new();
    rows("offers.csv", OFFERS_CSV)?
        .into_iter()
        .map(|r| {
            let count = r.num("count")?;
            if count < 1.0 || count.fract() != 0.0 {
                return Err(r.err("count", "must be a whole number >= 1".into()));
            }
            let derived = offer_id(&r, &mut seen)?;
            // With the column compiled in (the CLI's build), it must be what the rule derives.
            if cfg!(feature = "provenance") && r.get("id")? != derived {
                return Err(r.err("id", format!("is not {derived}, its provider, tier, aggregator, GPU and count")));
            }
            Ok(Offer {
                id: derived,
                provider: r.req("provider")?,
                gpu: r.req("gpu")?,
                count: count as u32,
                on_demand_usd_h: r.opt_num("on_demand_usd_h")?,
                spot_usd_h: r.opt_num("spot_usd_h")?,
                region: r.get("region")?,
                instance: r.get("instance")?,
                tier: r.get("tier")?,
                via: r.get("via")?,
                source: source(&r)?,
                snapshot_date: r.req("snapshot_date")?,
                confidence: r.req("confidence")?,
                note: r.get("note")?,
                internode: match r.get("internode_gb_s")? {
                    "" => None,
                    "none" => Some(None),
                    _ => Some(r.opt_num("internode_gb_s")?),
                },
                currency: match r.req("currency")? {
                    c if c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase()) => c,
                    c => return Err(r.err("currency", format!("'{c}' is not an ISO 4217 code"))),
                },
                url: match r.get("url")? {
                    u if u.is_empty() || u.starts_with("https://") => u,
                    u => return Err(r.err("url", format!("'{u}' is not an https address"))),
                },
                gpu_link: match r.get("gpu_link")? {
                    "none" => None,
                    // Emptied without the `datasheet` feature (build.rs), required with it.
                    "" if !cfg!(feature = "datasheet") => None,
                    _ => Some(fabric(&r, "gpu_link")?),
                },
                internode_network: r.get("internode_network")?,
                internode_gbit_s: r.opt_num("internode_gbit_s")?,
                local_disk_gb: r.opt_num("local_disk_gb")?,
            })
        })
        .collect()
}

fn parse_rates() -> Result<Vec<Rate>, DataError> {
    // A loop, not `map(..).collect::<Result<..>>()`: the page's wasm is smaller without another
    // instance of the iterator adapter.
    let mut out = Vec::new();
    for r in rows("currency.csv", CURRENCY_CSV)? {
        let (code, per_usd) = (r.req("code")?, r.num("per_usd")?);
        if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) || per_usd <= 0.0 {
            return Err(r.err("code", format!("'{code}' is not an ISO 4217 code with a rate > 0")));
        }
        out.push(Rate { code, per_usd, date: r.req("date")?, source: r.req("source")?, url: r.get("url")? });
    }
    Ok(out)
}

struct Data {
    gpus: Vec<Gpu>,
    providers: Vec<Provider>,
    offers: Vec<Offer>,
    rates: Vec<Rate>,
}

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    // The files are compiled in and checked by tests/dataset.rs, so a parse failure is a build
    // defect; an empty table then surfaces as "unknown GPU" errors rather than a panic.
    DATA.get_or_init(|| Data {
        gpus: parse_gpus().unwrap_or_default(),
        providers: parse_providers().unwrap_or_default(),
        offers: parse_offers().unwrap_or_default(),
        rates: parse_rates().unwrap_or_default(),
    })
}

/// Parses every data file and reports the first malformed row of each (for tests).
pub fn check() -> Vec<DataError> {
    [parse_gpus().err(), parse_providers().err(), parse_offers().err(), parse_rates().err()]
        .into_iter()
        .flatten()
        .collect()
}

pub fn gpus() -> &'static [Gpu] {
    &data().gpus
}

pub fn gpu(id: &str) -> Option<&'static Gpu> {
    data().gpus.iter().find(|g| g.id == id)
}

pub fn providers() -> &'static [Provider] {
    &data().providers
}

pub fn provider(id: &str) -> Option<&'static Provider> {
    data().providers.iter().find(|p| p.id == id)
}

pub fn offers() -> &'static [Offer] {
    &data().offers
}

/// The dated exchange rates, one per currency.
pub fn rates() -> &'static [Rate] {
    &data().rates
}

/// The dated rate of an ISO 4217 code (`USD` is 1).
pub fn rate(code: &str) -> Option<&'static Rate> {
    data().rates.iter().find(|r| r.code == code)
}

/// Units of `code` per US dollar at the dataset's rate (1 for USD); None for a currency the
/// dataset has no rate for.
pub fn per_usd(code: &str) -> Option<f64> {
    if code == "USD" {
        Some(1.0)
    } else {
        rate(code).map(|r| r.per_usd)
    }
}

/// "a|b|c" of GPU ids, for error messages.
pub fn gpu_ids() -> String {
    gpus().iter().map(|g| g.id).collect::<Vec<_>>().join("|")
}

/// "a|b|c" of provider ids, for error messages.
pub fn provider_ids() -> String {
    providers().iter().map(|p| p.id).collect::<Vec<_>>().join("|")
}
