//! Display formatting of the core's figures: bytes in GiB or GB, counts, money, hours.
//!
//! The core works in bytes and plain numbers; conversion to a unit happens only here, and
//! every formatted figure names its unit. A non-finite number never reaches the page: it is
//! shown as a dash.

use crate::i18n::Lang;

/// Memory unit shown on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Units {
    /// 2^30 bytes: what PyTorch and nvidia-smi report (nvidia-smi's "MiB" are 2^20).
    GiB,
    /// 10^9 bytes: what vendors print on the box ("80 GB").
    GB,
}

impl Units {
    pub fn code(self) -> &'static str {
        match self {
            Units::GiB => "gib",
            Units::GB => "gb",
        }
    }
    pub fn parse(s: &str) -> Option<Units> {
        [Units::GiB, Units::GB].into_iter().find(|u| u.code() == s)
    }
    pub fn symbol(self) -> &'static str {
        match self {
            Units::GiB => "GiB",
            Units::GB => "GB",
        }
    }
    pub fn bytes(self) -> f64 {
        match self {
            Units::GiB => (1u64 << 30) as f64,
            Units::GB => 1e9,
        }
    }
}

/// `x` with `decimals` digits in the language's format; "—" when not finite.
pub fn number(x: f64, decimals: usize, lang: Lang) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let s = format!("{x:.decimals$}");
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s.as_str(), None),
    };
    let (sign, digits) = int.strip_prefix('-').map_or(("", int), |d| ("-", d));
    let sep = match lang.built() {
        Lang::En => ',',
        Lang::Ru => '\u{a0}',
    };
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(sep);
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}{}{f}", lang.decimal()),
        None => format!("{sign}{grouped}"),
    }
}

/// Bytes in the chosen unit, two decimals, without the unit symbol.
pub fn bytes_value(b: f64, u: Units, lang: Lang) -> String {
    number(b / u.bytes(), 2, lang)
}

/// Bytes in the chosen unit with its symbol: "12.34 GiB".
pub fn bytes(b: f64, u: Units, lang: Lang) -> String {
    format!("{}\u{a0}{}", bytes_value(b, u, lang), u.symbol())
}

/// A parameter count the short way: "8.03 B", "124 M".
pub fn count(n: u64, lang: Lang) -> String {
    let x = n as f64;
    // Russian writes the scale as a word abbreviation: 8,03 млрд, not 8,03 B.
    let ru = matches!(lang.built(), Lang::Ru);
    let (v, suffix) = if x >= 1e12 {
        (x / 1e12, if ru { "трлн" } else { "T" })
    } else if x >= 1e9 {
        (x / 1e9, if ru { "млрд" } else { "B" })
    } else if x >= 1e6 {
        (x / 1e6, if ru { "млн" } else { "M" })
    } else if x >= 1e3 {
        (x / 1e3, if ru { "тыс." } else { "K" })
    } else {
        (x, "")
    };
    let decimals = if suffix.is_empty() || v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{}{}{}", number(v, decimals, lang), if suffix.is_empty() { "" } else { "\u{a0}" }, suffix)
}

/// A value typed in an input, in the value's own plain spelling (no grouping): "0.5", "2048".
pub fn plain(x: f64) -> String {
    if !x.is_finite() {
        return String::new();
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Dollars: "$1,234" above 100, else cents (the providers' own storage and egress prices).
pub fn usd(x: f64, lang: Lang) -> String {
    money(x, "USD", lang)
}

/// Money in the cost ranking's currency (`CostReport::currency`): "$1,234", "€12.50",
/// "1 234 ₽" (the ruble sign follows the figure); whole units from 100 up, else two decimals.
pub fn money(x: f64, code: &str, lang: Lang) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    tunefit_core::query::with_sign(code, &number(x, if x.abs() >= 100.0 { 0 } else { 2 }, lang))
}

/// Hours: "1.5 h", or minutes below one hour.
pub fn hours(h: f64, lang: Lang) -> String {
    if !h.is_finite() {
        return "—".into();
    }
    let s = lang.strings();
    if h < 1.0 {
        format!("{}\u{a0}{}", number(h * 60.0, 0, lang), s.u_min)
    } else {
        format!("{}\u{a0}{}", number(h, if h >= 100.0 { 0 } else { 1 }, lang), s.u_hours)
    }
}
