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
use crate::diag::{Lang, Warning};
use crate::json::{self, Json, JsonError};
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
#[derive(Debug, Clone, PartialEq)]
pub struct PriceError {
    /// 1-based line of the CSV or JSON text, when the problem has one.
    pub line: Option<usize>,
    /// The field: a CSV column, or a path such as `custom_offers[2].spot_usd_h`.
    pub field: String,
    pub problem: PriceProblem,
}

impl PriceError {
    /// What is wrong, in English (the CLI's and the JSON's `message`).
    pub fn message(&self) -> String {
        text::problem_en(&self.problem)
    }

    /// The whole error in `lang`: where, which field and what is wrong.
    pub fn text(&self, lang: Lang) -> String {
        match lang.built() {
            Lang::En => self.to_string(),
            Lang::Ru => {
                let m = text::problem_ru(&self.problem);
                match self.line {
                    Some(l) => format!("строка {l}: {}: {m}", self.field),
                    None => format!("{}: {m}", self.field),
                }
            }
        }
    }
}

impl fmt::Display for PriceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}: {}", self.field, self.message()),
            None => write!(f, "{}: {}", self.field, self.message()),
        }
    }
}

/// `{"line", "field", "message"}`: the message is the English, as before the problem was typed.
impl Serialize for PriceError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("PriceError", 3)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("field", &self.field)?;
        st.serialize_field("message", &self.message())?;
        st.end()
    }
}

impl std::error::Error for PriceError {}

fn perr(line: Option<usize>, field: impl Into<String>, problem: PriceProblem) -> PriceError {
    PriceError { line, field: field.into(), problem }
}

/// What is wrong with a price list's entry or field, with the values it names: the English
/// and Russian sentences are rendered from them (prices/text.rs), never parsed back.
#[derive(Debug, Clone, PartialEq)]
pub enum PriceProblem {
    /// A price that is not a finite number (the error names its field).
    PriceNotFinite {
        value: f64,
    },
    PriceNegative {
        value: f64,
    },
    PriceTooHigh {
        value: f64,
    },
    TooManyEntries,
    /// A custom offer's name in JSON or a link that is not an id.
    NameNotId,
    /// A custom offer's name in CSV that is missing or not an id.
    CustomNeedsName,
    NameTwice {
        name: String,
    },
    BillingNotWord {
        value: String,
    },
    BillingNotLetter {
        value: String,
    },
    KindNotWord {
        value: String,
    },
    ProviderNotId {
        value: String,
    },
    UnknownGpu {
        id: String,
        accepted: String,
    },
    GpusOutOfRange {
        count: u32,
    },
    NoPrice,
    NotANumber {
        value: String,
    },
    NotWholeGpus {
        value: String,
    },
    NotWhole {
        value: String,
    },
    /// A link's entry that is neither an override nor a custom offer.
    CompactShape,
    UnknownColumn,
    ColumnMissing,
    FieldCount {
        got: usize,
        header: usize,
    },
    /// The JSON text is not JSON.
    Json(JsonError),
    DuplicateField {
        key: String,
        line: usize,
    },
    UnknownTopField {
        key: String,
        line: usize,
    },
    UnknownField {
        key: String,
        known: &'static [&'static str],
        line: usize,
    },
    MissingField {
        key: String,
        line: usize,
    },
    /// A JSON value of the wrong type; `line` is said when the entry's field is named.
    InvalidType {
        got: JsonKind,
        expected: Expected,
        line: Option<usize>,
    },
}

/// A JSON value as an error names it (serde's words: "boolean `true`", "sequence", "map").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonKind {
    Null,
    Bool(bool),
    Num(String),
    /// The string as JSON writes it, quotes included.
    Str(String),
    Seq,
    Map,
}

/// What a JSON value should have been.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Struct(&'static str),
    Sequence,
    Str,
    Count,
    Price,
}

/// CSV columns, in the order `to_csv` writes them.
pub const CSV_COLUMNS: [&str; 8] =
    ["kind", "provider", "gpu", "gpus_per_instance", "on_demand_usd_h", "spot_usd_h", "billing", "name"];

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'))
}

fn check_price(p: Option<f64>) -> Result<(), PriceProblem> {
    match p {
        Some(value) if !value.is_finite() => Err(PriceProblem::PriceNotFinite { value }),
        Some(value) if value < 0.0 => Err(PriceProblem::PriceNegative { value }),
        Some(value) if value > MAX_USD_H => Err(PriceProblem::PriceTooHigh { value }),
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
            return Err(perr(None, "overrides", PriceProblem::TooManyEntries));
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
                return Err(perr(None, at("name"), PriceProblem::NameNotId));
            }
            if names.contains(&c.name.as_str()) {
                return Err(perr(None, at("name"), PriceProblem::NameTwice { name: c.name.clone() }));
            }
            names.push(&c.name);
            check_entry(&c.provider, &c.gpu, c.gpus_per_instance, c.on_demand_usd_h, c.spot_usd_h)
                .map_err(|(f, m)| perr(None, at(f), m))?;
            if let Some(b) = &c.billing {
                if parse_billing(b).is_none() {
                    return Err(perr(None, at("billing"), PriceProblem::BillingNotWord { value: b.clone() }));
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
                // A person's prices are US dollars: an offer priced in another currency takes
                // both of its prices from them, or neither would be comparable.
                if b.currency != "USD" {
                    let fx = crate::dataset::per_usd(b.currency).unwrap_or(1.0);
                    b.on_demand_usd_h = b.on_demand_usd_h.map(|x| x / fx);
                    b.spot_usd_h = b.spot_usd_h.map(|x| x / fx);
                    b.currency = "USD";
                }
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

    /// A list as a person types or imports it: JSON when it starts with '{', else CSV.
    pub fn from_text(text: &str) -> Result<PriceBook, PriceError> {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('{') {
            PriceBook::from_json(t)
        } else {
            PriceBook::from_csv(text)
        }
    }

    // ---- JSON ----

    /// Reads the JSON form; syntax errors give the line, field errors the entry and field.
    /// Read with `crate::json` rather than serde's derive (which cost ~10 KB of the gzipped
    /// page): the same fields, defaults and refusal of unknown fields.
    pub fn from_json(text: &str) -> Result<PriceBook, PriceError> {
        let v = json::parse(text).map_err(|e| perr(Some(e.line), "json", PriceProblem::Json(e)))?;
        let mut book = PriceBook::default();
        let mut seen: Vec<&str> = Vec::new();
        for (k, v, line) in members(&v, "json", 1, Expected::Struct("PriceBook"))? {
            let at = Some(*line);
            if seen.contains(&k.as_str()) {
                return Err(perr(at, k.as_str(), PriceProblem::DuplicateField { key: k.clone(), line: *line }));
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
                            Expected::Struct("PriceOverride"),
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
                            Expected::Struct("CustomOffer"),
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
                _ => return Err(perr(at, k.as_str(), PriceProblem::UnknownTopField { key: k.clone(), line: *line })),
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
                return Err(perr(Some(hl), clip(h), PriceProblem::UnknownColumn));
            }
        }
        for need in ["kind", "provider", "gpu", "gpus_per_instance", "on_demand_usd_h", "spot_usd_h"] {
            if !header.iter().any(|h| h == need) {
                return Err(perr(Some(hl), need, PriceProblem::ColumnMissing));
            }
        }
        let mut book = PriceBook::default();
        for (ln, line) in lines {
            if book.overrides.len() + book.custom_offers.len() >= MAX_ENTRIES {
                return Err(perr(Some(ln), "kind", PriceProblem::TooManyEntries));
            }
            let fields: Vec<String> = line.split(',').map(unquote).collect();
            if fields.len() != header.len() {
                return Err(perr(Some(ln), "", PriceProblem::FieldCount { got: fields.len(), header: header.len() }));
            }
            let get = |c: &str| header.iter().position(|h| h == c).map(|i| fields[i].as_str()).unwrap_or("");
            let num = |c: &'static str| -> Result<Option<f64>, PriceError> {
                let v = get(c);
                if v.is_empty() {
                    return Ok(None);
                }
                let x: f64 = crate::num::parse_f64(v)
                    .ok_or(())
                    .map_err(|_| perr(Some(ln), c, PriceProblem::NotANumber { value: clip(v) }))?;
                check_price(Some(x)).map_err(|m| perr(Some(ln), c, m))?;
                Ok(Some(x))
            };
            let count_s = get("gpus_per_instance");
            let count: u32 = count_s.parse().map_err(|_| {
                perr(Some(ln), "gpus_per_instance", PriceProblem::NotWholeGpus { value: clip(count_s) })
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
                        return Err(perr(Some(ln), "name", PriceProblem::CustomNeedsName));
                    }
                    if book.custom_offers.iter().any(|c| c.name == name) {
                        return Err(perr(Some(ln), "name", PriceProblem::NameTwice { name }));
                    }
                    let billing = match get("billing") {
                        "" => None,
                        b if parse_billing(b).is_some() => Some(b.to_string()),
                        b => return Err(perr(Some(ln), "billing", PriceProblem::BillingNotWord { value: clip(b) })),
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
                k => return Err(perr(Some(ln), "kind", PriceProblem::KindNotWord { value: clip(k) })),
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
                return Err(perr(None, "prices", PriceProblem::TooManyEntries));
            }
            let at = |f: &str| format!("prices[{i}].{f}");
            let f: Vec<&str> = entry.split(':').collect();
            let num = |name: &str, v: &str| -> Result<Option<f64>, PriceError> {
                if v.is_empty() {
                    return Ok(None);
                }
                let x: f64 = crate::num::parse_f64(v)
                    .ok_or(())
                    .map_err(|_| perr(None, at(name), PriceProblem::NotANumber { value: clip(v) }))?;
                check_price(Some(x)).map_err(|m| perr(None, at(name), m))?;
                Ok(Some(x))
            };
            let count = |v: &str| {
                v.parse::<u32>()
                    .map_err(|_| perr(None, at("gpus_per_instance"), PriceProblem::NotWhole { value: clip(v) }))
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
                        b => return Err(perr(None, at("billing"), PriceProblem::BillingNotLetter { value: clip(b) })),
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
                _ => return Err(perr(None, format!("prices[{i}]"), PriceProblem::CompactShape)),
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
) -> Result<(), (&'static str, PriceProblem)> {
    if !is_id(provider) {
        return Err(("provider", PriceProblem::ProviderNotId { value: clip(provider) }));
    }
    if dataset::gpu(gpu).is_none() {
        return Err(("gpu", PriceProblem::UnknownGpu { id: clip(gpu), accepted: dataset::gpu_ids() }));
    }
    if count == 0 || count > MAX_GPUS_PER_INSTANCE {
        return Err(("gpus_per_instance", PriceProblem::GpusOutOfRange { count }));
    }
    check_price(od).map_err(|m| ("on_demand_usd_h", m))?;
    check_price(spot).map_err(|m| ("spot_usd_h", m))?;
    if od.is_none() && spot.is_none() {
        return Err(("on_demand_usd_h", PriceProblem::NoPrice));
    }
    Ok(())
}

// The sentences of each problem, in English and Russian (prices/text.rs).
mod text;

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

fn invalid_type(v: &Json, expected: Expected, line: Option<usize>) -> PriceProblem {
    let got = match v {
        Json::Null => JsonKind::Null,
        Json::Bool(b) => JsonKind::Bool(*b),
        Json::Num(t) => JsonKind::Num(t.clone()),
        Json::Str(s) => JsonKind::Str(Json::Str(s.clone()).to_string()),
        Json::Arr(_) => JsonKind::Seq,
        Json::Obj(_) => JsonKind::Map,
    };
    PriceProblem::InvalidType { got, expected, line }
}

fn members<'a>(
    v: &'a Json,
    field: &str,
    line: usize,
    expected: Expected,
) -> Result<&'a [(String, Json, usize)], PriceError> {
    match v {
        Json::Obj(m) => Ok(m),
        _ => Err(perr(Some(line), field, invalid_type(v, expected, None))),
    }
}

fn items<'a>(v: &'a Json, field: &str, line: usize) -> Result<&'a [Json], PriceError> {
    match v {
        Json::Arr(a) => Ok(a),
        _ => Err(perr(Some(line), field, invalid_type(v, Expected::Sequence, None))),
    }
}

/// One entry of `overrides` or `custom_offers`: its members, checked against the known fields.
struct Entry<'a> {
    m: &'a [(String, Json, usize)],
    path: &'a str,
    line: usize,
}

impl<'a> Entry<'a> {
    fn read(
        v: &'a Json,
        path: &'a str,
        line: usize,
        known: &'static [&'static str],
        what: Expected,
    ) -> Result<Entry<'a>, PriceError> {
        let m = members(v, path, line, what)?;
        for (i, (k, _, l)) in m.iter().enumerate() {
            if !known.contains(&k.as_str()) {
                return Err(perr(Some(*l), k.as_str(), PriceProblem::UnknownField { key: k.clone(), known, line: *l }));
            }
            if m[..i].iter().any(|(p, _, _)| p == k) {
                return Err(perr(Some(*l), k.as_str(), PriceProblem::DuplicateField { key: k.clone(), line: *l }));
            }
        }
        let line = m.first().map_or(line, |(_, _, l)| *l);
        Ok(Entry { m, path, line })
    }
    fn get(&self, k: &str) -> Option<(&'a Json, usize)> {
        self.m.iter().find(|(n, _, _)| n == k).map(|(_, v, l)| (v, *l))
    }
    fn bad(&self, k: &str, l: usize, v: &Json, expected: Expected) -> PriceError {
        perr(Some(l), format!("{}.{k}", self.path), invalid_type(v, expected, Some(l)))
    }
    fn required(&self, k: &str) -> Result<(&'a Json, usize), PriceError> {
        self.get(k)
            .ok_or_else(|| perr(Some(self.line), k, PriceProblem::MissingField { key: k.into(), line: self.line }))
    }
    fn string(&self, k: &str) -> Result<String, PriceError> {
        let (v, l) = self.required(k)?;
        v.as_str().map(str::to_string).ok_or_else(|| self.bad(k, l, v, Expected::Str))
    }
    fn opt_string(&self, k: &str) -> Result<Option<String>, PriceError> {
        match self.get(k) {
            None | Some((Json::Null, _)) => Ok(None),
            Some((v, l)) => v.as_str().map(|s| Some(s.to_string())).ok_or_else(|| self.bad(k, l, v, Expected::Str)),
        }
    }
    fn count(&self, k: &str) -> Result<u32, PriceError> {
        let (v, l) = self.required(k)?;
        v.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| self.bad(k, l, v, Expected::Count))
    }
    fn price(&self, k: &str) -> Result<Option<f64>, PriceError> {
        match self.get(k) {
            None | Some((Json::Null, _)) => Ok(None),
            Some((v, l)) => v.as_f64().map(Some).ok_or_else(|| self.bad(k, l, v, Expected::Price)),
        }
    }
}
