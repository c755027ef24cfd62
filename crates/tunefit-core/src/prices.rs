//! A person's own prices: overrides of bundled offers (a negotiated rate, a reserved-instance
//! price) and offers of their own (an on-premises or a private cluster), which the cost
//! ranking applies exactly like the bundled dataset (`report::evaluate_with_prices`).
//!
//! Formats, each with errors that name the line or entry and the field:
//! - JSON: `{"overrides": [...], "custom_offers": [...]}` (field names as in the structs);
//! - CSV: `kind,provider,gpu,gpus_per_instance,on_demand_usd_h,spot_usd_h,billing,name`, one
//!   row per override (`kind=override`) or custom offer (`kind=custom`);
//! - compact, for share links (docs/sharing.md): entries joined by `;`, fields by `:`.
//!
//! Prices are USD per instance-hour, like the dataset (`gpus_per_instance` GPUs per instance).

use crate::dataset::{self, Billing, Offer, Provider};
use crate::diag::Warning;
use crate::json::{self, Json};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Highest price accepted per instance-hour. The dearest bundled offer (8-GPU B200/GB200
/// nodes) is under 200 USD/h; 100 000 catches a misplaced decimal point or a per-month price
/// typed as per-hour without refusing any real rate.
pub const MAX_USD_H: f64 = 100_000.0;
/// Most GPUs in one instance: the largest nodes rented are 8–16 GPUs; 64 leaves room for
/// rack-scale systems (GB200 NVL72 is sold per tray of 4, or per rack).
pub const MAX_GPUS_PER_INSTANCE: u32 = 72;
/// Entries in one price book: far more than anyone types, small enough that a pasted huge
/// file cannot stall the page.
pub const MAX_ENTRIES: usize = 1000;

/// A new price for every bundled offer of `gpus_per_instance` × `gpu` at `provider`. A price
/// left out keeps the bundled one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceOverride {
    pub provider: String,
    pub gpu: String,
    pub gpus_per_instance: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_demand_usd_h: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_usd_h: Option<f64>,
}

/// An offer of the person's own. A known provider id brings that provider's terms (billing,
/// storage, egress, spot interruptions); any other name is priced with `billing` and the
/// default storage and egress prices, on a single instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomOffer {
    /// Short name shown in the ranking (e.g. "lab-h100"); the offer id is `own/<name>`.
    pub name: String,
    pub provider: String,
    pub gpu: String,
    pub gpus_per_instance: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_demand_usd_h: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spot_usd_h: Option<f64>,
    /// "second", "minute" or "hour"; for an unknown provider, "hour" when left out (the
    /// dataset's rule for unverified billing: never understate the cost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub billing: Option<String>,
}

/// Everything a person set about prices.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceBook {
    #[serde(default)]
    pub overrides: Vec<PriceOverride>,
    #[serde(default)]
    pub custom_offers: Vec<CustomOffer>,
}

/// One problem in a price list: where (line of a file, or entry) and which field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PriceError {
    /// 1-based line of the CSV or JSON text, when the problem has one.
    pub line: Option<usize>,
    /// The field: a CSV column, or a path such as `custom_offers[2].spot_usd_h`.
    pub field: String,
    pub message: String,
}

impl fmt::Display for PriceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}: {}", self.field, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

impl std::error::Error for PriceError {}

fn perr(line: Option<usize>, field: impl Into<String>, message: impl Into<String>) -> PriceError {
    PriceError { line, field: field.into(), message: message.into() }
}

/// CSV columns, in the order `to_csv` writes them.
pub const CSV_COLUMNS: [&str; 8] =
    ["kind", "provider", "gpu", "gpus_per_instance", "on_demand_usd_h", "spot_usd_h", "billing", "name"];

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'))
}

fn check_price(field: &str, p: Option<f64>) -> Result<(), String> {
    match p {
        Some(x) if !x.is_finite() => Err(format!("{field}: {x} is not a number")),
        Some(x) if x < 0.0 => Err(format!("{field}: {x} is negative; a price is USD per instance-hour >= 0")),
        Some(x) if x > MAX_USD_H => {
            Err(format!("{field}: {x} USD/h is more than {MAX_USD_H}; prices are per instance-hour"))
        }
        _ => Ok(()),
    }
}

fn parse_billing(s: &str) -> Option<Billing> {
    match s {
        "second" => Some(Billing::Second),
        "minute" => Some(Billing::Minute),
        "hour" => Some(Billing::Hour),
        _ => None,
    }
}

/// The person's prices turned into what the ranking reads.
#[derive(Debug, Clone, Default)]
pub struct Market {
    /// Bundled offers with overrides applied, then the custom offers.
    pub offers: Vec<Offer>,
    /// Terms of custom offers' providers that the dataset does not know.
    pub providers: Vec<Provider>,
    /// Overrides that matched no bundled offer, and similar notices.
    pub warnings: Vec<Warning>,
}

/// Strings of custom offers live as long as the program: `Offer` and the ranking's rows hold
/// `&'static str`. Each distinct string is stored once, so memory grows only with the number
/// of distinct names a person types, not with the number of evaluations.
fn intern(s: &str) -> &'static str {
    use std::sync::{Mutex, OnceLock};
    static POOL: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
    let pool = POOL.get_or_init(|| Mutex::new(Vec::new()));
    let mut pool = match pool.lock() {
        Ok(p) => p,
        Err(p) => p.into_inner(),
    };
    if let Some(found) = pool.iter().find(|p| **p == s) {
        return found;
    }
    let leaked: &'static str = Box::leak(s.to_string().into_boxed_str());
    pool.push(leaked);
    leaked
}

impl PriceBook {
    pub fn is_empty(&self) -> bool {
        self.overrides.is_empty() && self.custom_offers.is_empty()
    }

    /// Checks every entry; the error names the entry and the field.
    pub fn validate(&self) -> Result<(), PriceError> {
        if self.overrides.len() + self.custom_offers.len() > MAX_ENTRIES {
            return Err(perr(None, "overrides", format!("more than {MAX_ENTRIES} entries")));
        }
        for (i, o) in self.overrides.iter().enumerate() {
            let at = |f: &str| format!("overrides[{i}].{f}");
            check_entry(&o.provider, &o.gpu, o.gpus_per_instance, o.on_demand_usd_h, o.spot_usd_h)
                .map_err(|(f, m)| perr(None, at(f), m))?;
        }
        let mut names: Vec<&str> = Vec::new();
        for (i, c) in self.custom_offers.iter().enumerate() {
            let at = |f: &str| format!("custom_offers[{i}].{f}");
            if !is_id(&c.name) {
                return Err(perr(
                    None,
                    at("name"),
                    "expected lower-case letters, digits, '-', '_' or '.' (at most 64)",
                ));
            }
            if names.contains(&c.name.as_str()) {
                return Err(perr(None, at("name"), format!("'{}' is used twice", c.name)));
            }
            names.push(&c.name);
            check_entry(&c.provider, &c.gpu, c.gpus_per_instance, c.on_demand_usd_h, c.spot_usd_h)
                .map_err(|(f, m)| perr(None, at(f), m))?;
            if let Some(b) = &c.billing {
                if parse_billing(b).is_none() {
                    return Err(perr(None, at("billing"), format!("'{b}' is not second|minute|hour")));
                }
            }
        }
        Ok(())
    }

    /// The offers the ranking reads: bundled ones with overrides applied, plus custom ones.
    /// Call `validate` first; entries that do not validate are skipped here.
    pub fn market(&self) -> Market {
        let mut m = Market { offers: dataset::offers().to_vec(), ..Market::default() };
        for o in &self.overrides {
            if check_entry(&o.provider, &o.gpu, o.gpus_per_instance, o.on_demand_usd_h, o.spot_usd_h).is_err() {
                continue;
            }
            let mut matched = false;
            for b in m
                .offers
                .iter_mut()
                .filter(|b| b.provider == o.provider && b.gpu == o.gpu && b.count == o.gpus_per_instance)
            {
                if o.on_demand_usd_h.is_some() {
                    b.on_demand_usd_h = o.on_demand_usd_h;
                }
                if o.spot_usd_h.is_some() {
                    b.spot_usd_h = o.spot_usd_h;
                }
                b.confidence = "user";
                b.source = "your price";
                b.snapshot_date = "your price";
                matched = true;
            }
            if !matched {
                m.warnings.push(Warning::PriceOverrideUnmatched {
                    gpus: o.gpus_per_instance,
                    gpu: o.gpu.clone(),
                    provider: o.provider.clone(),
                });
            }
        }
        for c in &self.custom_offers {
            if !is_id(&c.name)
                || check_entry(&c.provider, &c.gpu, c.gpus_per_instance, c.on_demand_usd_h, c.spot_usd_h).is_err()
            {
                continue;
            }
            let Some(gpu) = dataset::gpu(&c.gpu) else { continue };
            let billing = c.billing.as_deref().and_then(parse_billing);
            let provider = match dataset::provider(&c.provider) {
                Some(p) if billing.is_none_or(|b| b == p.billing) => p.id,
                known => {
                    // An unknown provider, or a known one billed differently under this deal.
                    // The id is the provider's own unless that would mix two billing rules.
                    let want = billing.unwrap_or(Billing::Hour);
                    let clash = known.is_some() || m.providers.iter().any(|p| p.id == c.provider && p.billing != want);
                    if !clash && m.providers.iter().any(|p| p.id == c.provider) {
                        m.offers.push(own_offer(c, intern(&c.provider), gpu.id));
                        continue;
                    }
                    let id = if clash { intern(&format!("{}:{}", c.provider, c.name)) } else { intern(&c.provider) };
                    let mut p = known.cloned().unwrap_or(Provider {
                        id,
                        name: "",
                        billing: Billing::Hour,
                        billing_min_s: 0.0,
                        billing_verified: true,
                        storage_usd_gb_month: None,
                        egress_usd_gb: None,
                        spot: c.spot_usd_h.is_some(),
                        interrupt_rate_h: None,
                        ssh: true,
                        docker: true,
                        jupyter: false,
                        internode_gb_s: None,
                        confidence: "user",
                        source: "your price",
                        date: "your price",
                        note: "",
                    });
                    p.id = id;
                    p.name = intern(&c.provider);
                    p.billing = billing.unwrap_or(Billing::Hour);
                    p.billing_verified = true;
                    m.providers.push(p);
                    id
                }
            };
            m.offers.push(own_offer(c, provider, gpu.id));
        }
        m
    }

    // ---- JSON ----

    /// Reads the JSON form; syntax errors give the line, field errors the entry and field.
    /// Read with `crate::json` rather than serde's derive (which cost ~10 KB of the gzipped
    /// page): the same fields, defaults and refusal of unknown fields.
    pub fn from_json(text: &str) -> Result<PriceBook, PriceError> {
        let v = json::parse(text).map_err(|e| perr(Some(e.line), "json", e.to_string()))?;
        let mut book = PriceBook::default();
        let mut seen: Vec<&str> = Vec::new();
        for (k, v, line) in members(&v, "json", 1, "struct PriceBook")? {
            let at = Some(*line);
            if seen.contains(&k.as_str()) {
                return Err(perr(at, k.as_str(), format!("duplicate field `{k}` at line {line}")));
            }
            seen.push(k);
            match k.as_str() {
                "overrides" => {
                    for (i, o) in items(v, k, *line)?.iter().enumerate() {
                        let path = format!("overrides[{i}]");
                        let f = Entry::read(
                            o,
                            &path,
                            *line,
                            &["provider", "gpu", "gpus_per_instance", "on_demand_usd_h", "spot_usd_h"],
                            "struct PriceOverride",
                        )?;
                        book.overrides.push(PriceOverride {
                            provider: f.string("provider")?,
                            gpu: f.string("gpu")?,
                            gpus_per_instance: f.count("gpus_per_instance")?,
                            on_demand_usd_h: f.price("on_demand_usd_h")?,
                            spot_usd_h: f.price("spot_usd_h")?,
                        });
                    }
                }
                "custom_offers" => {
                    for (i, o) in items(v, k, *line)?.iter().enumerate() {
                        let path = format!("custom_offers[{i}]");
                        let f = Entry::read(
                            o,
                            &path,
                            *line,
                            &[
                                "name",
                                "provider",
                                "gpu",
                                "gpus_per_instance",
                                "on_demand_usd_h",
                                "spot_usd_h",
                                "billing",
                            ],
                            "struct CustomOffer",
                        )?;
                        book.custom_offers.push(CustomOffer {
                            name: f.string("name")?,
                            provider: f.string("provider")?,
                            gpu: f.string("gpu")?,
                            gpus_per_instance: f.count("gpus_per_instance")?,
                            on_demand_usd_h: f.price("on_demand_usd_h")?,
                            spot_usd_h: f.price("spot_usd_h")?,
                            billing: f.opt_string("billing")?,
                        });
                    }
                }
                _ => {
                    return Err(perr(
                        at,
                        k.as_str(),
                        format!("unknown field `{k}`, expected `overrides` or `custom_offers` at line {line}"),
                    ))
                }
            }
        }
        book.validate()?;
        Ok(book)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".into())
    }

    // ---- CSV ----

    /// Reads the CSV form: a header naming the columns (any order; `billing` and `name` may
    /// be left out), then one row per entry. Blank lines and lines starting with '#' are
    /// skipped; fields may be wrapped in double quotes.
    pub fn from_csv(text: &str) -> Result<PriceBook, PriceError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let Some((hl, head)) = lines.next() else { return Ok(PriceBook::default()) };
        let header: Vec<String> = head.split(',').map(unquote).map(|s| s.to_ascii_lowercase()).collect();
        for h in &header {
            if !CSV_COLUMNS.contains(&h.as_str()) {
                return Err(perr(Some(hl), clip(h), format!("unknown column; expected {}", CSV_COLUMNS.join(","))));
            }
        }
        for need in ["kind", "provider", "gpu", "gpus_per_instance", "on_demand_usd_h", "spot_usd_h"] {
            if !header.iter().any(|h| h == need) {
                return Err(perr(Some(hl), need, "column missing from the header"));
            }
        }
        let mut book = PriceBook::default();
        for (ln, line) in lines {
            if book.overrides.len() + book.custom_offers.len() >= MAX_ENTRIES {
                return Err(perr(Some(ln), "kind", format!("more than {MAX_ENTRIES} entries")));
            }
            let fields: Vec<String> = line.split(',').map(unquote).collect();
            if fields.len() != header.len() {
                return Err(perr(Some(ln), "", format!("{} fields, the header has {}", fields.len(), header.len())));
            }
            let get = |c: &str| header.iter().position(|h| h == c).map(|i| fields[i].as_str()).unwrap_or("");
            let num = |c: &'static str| -> Result<Option<f64>, PriceError> {
                let v = get(c);
                if v.is_empty() {
                    return Ok(None);
                }
                let x: f64 = crate::num::parse_f64(v)
                    .ok_or(())
                    .map_err(|_| perr(Some(ln), c, format!("'{}' is not a number", clip(v))))?;
                check_price(c, Some(x)).map_err(|m| perr(Some(ln), c, m))?;
                Ok(Some(x))
            };
            let count_s = get("gpus_per_instance");
            let count: u32 = count_s.parse().map_err(|_| {
                perr(Some(ln), "gpus_per_instance", format!("'{}' is not a whole number of GPUs", clip(count_s)))
            })?;
            let (provider, gpu) = (get("provider").to_ascii_lowercase(), get("gpu").to_ascii_lowercase());
            let (od, spot) = (num("on_demand_usd_h")?, num("spot_usd_h")?);
            check_entry(&provider, &gpu, count, od, spot).map_err(|(f, m)| perr(Some(ln), f, m))?;
            match get("kind") {
                "override" => book.overrides.push(PriceOverride {
                    provider,
                    gpu,
                    gpus_per_instance: count,
                    on_demand_usd_h: od,
                    spot_usd_h: spot,
                }),
                "custom" => {
                    let name = get("name").to_ascii_lowercase();
                    if !is_id(&name) {
                        return Err(perr(
                            Some(ln),
                            "name",
                            "a custom offer needs a name of letters, digits, '-', '_' or '.'",
                        ));
                    }
                    if book.custom_offers.iter().any(|c| c.name == name) {
                        return Err(perr(Some(ln), "name", format!("'{name}' is used twice")));
                    }
                    let billing = match get("billing") {
                        "" => None,
                        b if parse_billing(b).is_some() => Some(b.to_string()),
                        b => return Err(perr(Some(ln), "billing", format!("'{}' is not second|minute|hour", clip(b)))),
                    };
                    book.custom_offers.push(CustomOffer {
                        name,
                        provider,
                        gpu,
                        gpus_per_instance: count,
                        on_demand_usd_h: od,
                        spot_usd_h: spot,
                        billing,
                    });
                }
                k => return Err(perr(Some(ln), "kind", format!("'{}' is not override|custom", clip(k)))),
            }
        }
        Ok(book)
    }

    pub fn to_csv(&self) -> String {
        let mut out = CSV_COLUMNS.join(",");
        out.push('\n');
        let p = |x: Option<f64>| x.map(|x| format!("{x}")).unwrap_or_default();
        for o in &self.overrides {
            out.push_str(&format!(
                "override,{},{},{},{},{},,\n",
                o.provider,
                o.gpu,
                o.gpus_per_instance,
                p(o.on_demand_usd_h),
                p(o.spot_usd_h)
            ));
        }
        for c in &self.custom_offers {
            out.push_str(&format!(
                "custom,{},{},{},{},{},{},{}\n",
                c.provider,
                c.gpu,
                c.gpus_per_instance,
                p(c.on_demand_usd_h),
                p(c.spot_usd_h),
                c.billing.as_deref().unwrap_or(""),
                c.name
            ));
        }
        out
    }

    // ---- compact, for links ----

    /// `o:provider:gpu:count:on_demand:spot` and `c:name:provider:gpu:count:on_demand:spot:billing`
    /// joined with ';' (empty = not set; billing s|m|h). Ids never contain ':' or ';', so
    /// nothing needs escaping and the text is readable in the address bar.
    pub fn to_compact(&self) -> String {
        let p = |x: Option<f64>| x.map(|x| format!("{x}")).unwrap_or_default();
        let mut parts: Vec<String> = self
            .overrides
            .iter()
            .map(|o| {
                format!(
                    "o:{}:{}:{}:{}:{}",
                    o.provider,
                    o.gpu,
                    o.gpus_per_instance,
                    p(o.on_demand_usd_h),
                    p(o.spot_usd_h)
                )
            })
            .collect();
        parts.extend(self.custom_offers.iter().map(|c| {
            format!(
                "c:{}:{}:{}:{}:{}:{}:{}",
                c.name,
                c.provider,
                c.gpu,
                c.gpus_per_instance,
                p(c.on_demand_usd_h),
                p(c.spot_usd_h),
                c.billing.as_deref().and_then(|b| b.get(..1)).unwrap_or("")
            )
        }));
        parts.join(";")
    }

    /// Reads the compact form; an error names the entry (`prices[3]`) and its field.
    pub fn from_compact(s: &str) -> Result<PriceBook, PriceError> {
        let mut book = PriceBook::default();
        for (i, entry) in s.split(';').filter(|e| !e.is_empty()).enumerate() {
            if i >= MAX_ENTRIES {
                return Err(perr(None, "prices", format!("more than {MAX_ENTRIES} entries")));
            }
            let at = |f: &str| format!("prices[{i}].{f}");
            let f: Vec<&str> = entry.split(':').collect();
            let num = |name: &str, v: &str| -> Result<Option<f64>, PriceError> {
                if v.is_empty() {
                    return Ok(None);
                }
                let x: f64 = crate::num::parse_f64(v)
                    .ok_or(())
                    .map_err(|_| perr(None, at(name), format!("'{}' is not a number", clip(v))))?;
                check_price(name, Some(x)).map_err(|m| perr(None, at(name), m))?;
                Ok(Some(x))
            };
            let count = |v: &str| {
                v.parse::<u32>()
                    .map_err(|_| perr(None, at("gpus_per_instance"), format!("'{}' is not a whole number", clip(v))))
            };
            match (f.first().copied(), f.len()) {
                (Some("o"), 6) => {
                    let o = PriceOverride {
                        provider: f[1].into(),
                        gpu: f[2].into(),
                        gpus_per_instance: count(f[3])?,
                        on_demand_usd_h: num("on_demand_usd_h", f[4])?,
                        spot_usd_h: num("spot_usd_h", f[5])?,
                    };
                    check_entry(&o.provider, &o.gpu, o.gpus_per_instance, o.on_demand_usd_h, o.spot_usd_h)
                        .map_err(|(fl, m)| perr(None, at(fl), m))?;
                    book.overrides.push(o);
                }
                (Some("c"), 8) => {
                    let billing = match f[7] {
                        "" => None,
                        "s" => Some("second".into()),
                        "m" => Some("minute".into()),
                        "h" => Some("hour".into()),
                        b => return Err(perr(None, at("billing"), format!("'{}' is not s|m|h", clip(b)))),
                    };
                    book.custom_offers.push(CustomOffer {
                        name: f[1].into(),
                        provider: f[2].into(),
                        gpu: f[3].into(),
                        gpus_per_instance: count(f[4])?,
                        on_demand_usd_h: num("on_demand_usd_h", f[5])?,
                        spot_usd_h: num("spot_usd_h", f[6])?,
                        billing,
                    });
                }
                _ => return Err(perr(
                    None,
                    format!("prices[{i}]"),
                    "expected o:provider:gpu:count:on_demand:spot or c:name:provider:gpu:count:on_demand:spot:billing",
                )),
            }
        }
        book.validate()?;
        Ok(book)
    }
}

fn own_offer(c: &CustomOffer, provider: &'static str, gpu: &'static str) -> Offer {
    Offer {
        id: intern(&format!("own/{}", c.name)),
        provider,
        gpu,
        count: c.gpus_per_instance,
        on_demand_usd_h: c.on_demand_usd_h,
        spot_usd_h: c.spot_usd_h,
        region: "",
        instance: intern(&c.name),
        tier: "own",
        via: "",
        source: "your price",
        snapshot_date: "your price",
        confidence: "user",
        note: "",
        internode: None,
        currency: "USD",
        url: "",
        gpu_link: None,
        internode_network: "",
        internode_gbit_s: None,
        local_disk_gb: None,
    }
}

/// Checks the fields shared by overrides and custom offers; Err names the field.
fn check_entry(
    provider: &str,
    gpu: &str,
    count: u32,
    od: Option<f64>,
    spot: Option<f64>,
) -> Result<(), (&'static str, String)> {
    if !is_id(provider) {
        return Err((
            "provider",
            format!("'{}' is not an id of lower-case letters, digits, '-', '_' or '.'", clip(provider)),
        ));
    }
    if dataset::gpu(gpu).is_none() {
        return Err(("gpu", format!("unknown GPU id '{}'; expected one of {}", clip(gpu), dataset::gpu_ids())));
    }
    if count == 0 || count > MAX_GPUS_PER_INSTANCE {
        return Err(("gpus_per_instance", format!("{count} is not from 1 to {MAX_GPUS_PER_INSTANCE}")));
    }
    check_price("on_demand_usd_h", od).map_err(|m| ("on_demand_usd_h", m))?;
    check_price("spot_usd_h", spot).map_err(|m| ("spot_usd_h", m))?;
    if od.is_none() && spot.is_none() {
        return Err(("on_demand_usd_h", "give an on-demand or a spot price (or both)".into()));
    }
    Ok(())
}

fn unquote(s: &str) -> String {
    let t = s.trim();
    t.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(t).trim().to_string()
}

/// The first 40 characters of a value, for messages.
fn clip(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(40).collect::<String>())
    }
}

// ---- Reading the JSON form (crate::json) ----

fn invalid_type(v: &Json, expected: &str) -> String {
    let got = match v {
        Json::Null => "null".to_string(),
        Json::Bool(b) => format!("boolean `{b}`"),
        Json::Num(t) => format!("number `{t}`"),
        Json::Str(s) => format!("string {}", Json::Str(s.clone())),
        Json::Arr(_) => "sequence".to_string(),
        Json::Obj(_) => "map".to_string(),
    };
    format!("invalid type: {got}, expected {expected}")
}

fn members<'a>(
    v: &'a Json,
    field: &str,
    line: usize,
    expected: &str,
) -> Result<&'a [(String, Json, usize)], PriceError> {
    match v {
        Json::Obj(m) => Ok(m),
        _ => Err(perr(Some(line), field, invalid_type(v, expected))),
    }
}

fn items<'a>(v: &'a Json, field: &str, line: usize) -> Result<&'a [Json], PriceError> {
    match v {
        Json::Arr(a) => Ok(a),
        _ => Err(perr(Some(line), field, invalid_type(v, "a sequence"))),
    }
}

/// One entry of `overrides` or `custom_offers`: its members, checked against the known fields.
struct Entry<'a> {
    m: &'a [(String, Json, usize)],
    path: &'a str,
    line: usize,
}

impl<'a> Entry<'a> {
    fn read(v: &'a Json, path: &'a str, line: usize, known: &[&str], what: &str) -> Result<Entry<'a>, PriceError> {
        let m = members(v, path, line, what)?;
        for (i, (k, _, l)) in m.iter().enumerate() {
            if !known.contains(&k.as_str()) {
                return Err(perr(
                    Some(*l),
                    k.as_str(),
                    format!(
                        "unknown field `{k}`, expected one of {} at line {l}",
                        known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            if m[..i].iter().any(|(p, _, _)| p == k) {
                return Err(perr(Some(*l), k.as_str(), format!("duplicate field `{k}` at line {l}")));
            }
        }
        let line = m.first().map_or(line, |(_, _, l)| *l);
        Ok(Entry { m, path, line })
    }
    fn get(&self, k: &str) -> Option<(&'a Json, usize)> {
        self.m.iter().find(|(n, _, _)| n == k).map(|(_, v, l)| (v, *l))
    }
    fn bad(&self, k: &str, l: usize, msg: String) -> PriceError {
        perr(Some(l), format!("{}.{k}", self.path), format!("{msg} at line {l}"))
    }
    fn required(&self, k: &str) -> Result<(&'a Json, usize), PriceError> {
        self.get(k).ok_or_else(|| perr(Some(self.line), k, format!("missing field `{k}` at line {}", self.line)))
    }
    fn string(&self, k: &str) -> Result<String, PriceError> {
        let (v, l) = self.required(k)?;
        v.as_str().map(str::to_string).ok_or_else(|| self.bad(k, l, invalid_type(v, "a string")))
    }
    fn opt_string(&self, k: &str) -> Result<Option<String>, PriceError> {
        match self.get(k) {
            None | Some((Json::Null, _)) => Ok(None),
            Some((v, l)) => {
                v.as_str().map(|s| Some(s.to_string())).ok_or_else(|| self.bad(k, l, invalid_type(v, "a string")))
            }
        }
    }
    fn count(&self, k: &str) -> Result<u32, PriceError> {
        let (v, l) = self.required(k)?;
        v.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| self.bad(k, l, invalid_type(v, "u32")))
    }
    fn price(&self, k: &str) -> Result<Option<f64>, PriceError> {
        match self.get(k) {
            None | Some((Json::Null, _)) => Ok(None),
            Some((v, l)) => v.as_f64().map(Some).ok_or_else(|| self.bad(k, l, invalid_type(v, "f64"))),
        }
    }
}
