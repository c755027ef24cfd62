//! What the settings' sliders are made of (fields.rs writes them): a slider's scale, the
//! reader of a typed value, the strings' picker.

use crate::i18n::Strings;

/// Picks one string out of the current language's table.
pub type Text = fn(&Strings) -> &'static str;

/// A slider's range and how positions map onto values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub min: f64,
    pub max: f64,
    /// Positions from 0 to `steps`; with `log`, equal steps are equal ratios, so one arrow key
    /// press is the same relative change anywhere on the range.
    pub steps: u32,
    pub log: bool,
    /// Values are whole numbers.
    pub integer: bool,
    /// The values positions land on (the number box still takes any value in range).
    pub snap: Snap,
}

/// Round values a slider position lands on: what people set, not 2195 or 1,122,018.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Snap {
    /// Three significant digits along a log or linear range.
    Digits,
    /// min·2ⁿ: sequence lengths, batch sizes, ranks, GPU counts.
    Pow2,
    /// 1, 2, 5 × 10ⁿ from min: token counts, runs, epochs, minutes.
    OneTwoFive,
}

impl Scale {
    pub const fn log(min: f64, max: f64, steps: u32, integer: bool) -> Scale {
        Scale { min, max, steps, log: true, integer, snap: Snap::Digits }
    }
    pub const fn linear(min: f64, max: f64, steps: u32, integer: bool) -> Scale {
        Scale { min, max, steps, log: false, integer, snap: Snap::Digits }
    }
    /// min, 2·min, 4·min, … ≤ max; `doublings` = log2(max / min).
    pub const fn pow2(min: f64, max: f64, doublings: u32) -> Scale {
        Scale { min, max, steps: doublings, log: true, integer: true, snap: Snap::Pow2 }
    }
    /// min, 2·min, 5·min, 10·min, … ≤ max (min a power of ten); `steps` = 3 per decade.
    pub const fn one_two_five(min: f64, max: f64, steps: u32, integer: bool) -> Scale {
        Scale { min, max, steps, log: true, integer, snap: Snap::OneTwoFive }
    }

    /// The value at a position before clamping.
    fn at(&self, pos: u32) -> f64 {
        match self.snap {
            Snap::Pow2 => self.min * 2f64.powi(pos as i32),
            Snap::OneTwoFive => self.min * 10f64.powi((pos / 3) as i32) * [1.0, 2.0, 5.0][(pos % 3) as usize],
            Snap::Digits => {
                let t = pos as f64 / self.steps as f64;
                let v = if self.log {
                    // log2/exp2 rather than powf: both are in the page already, and powf would
                    // link libm's pow (2 KB of wasm) for this one line.
                    self.min * ((self.max / self.min).log2() * t).exp2()
                } else {
                    self.min + t * (self.max - self.min)
                };
                self.round(v)
            }
        }
    }

    /// Slider position of a value (values outside the range pin to the ends; between two
    /// snapped values, the nearer in ratio).
    pub fn to_pos(&self, v: f64) -> u32 {
        if !v.is_finite() {
            return 0;
        }
        let v = v.clamp(self.min, self.max);
        if self.snap != Snap::Digits {
            return (0..=self.steps)
                .min_by(|a, b| (self.at(*a) / v).ln().abs().total_cmp(&(self.at(*b) / v).ln().abs()))
                .unwrap_or(0);
        }
        let t = if self.log {
            (v / self.min).ln() / (self.max / self.min).ln()
        } else {
            (v - self.min) / (self.max - self.min)
        };
        (t * self.steps as f64).round().clamp(0.0, self.steps as f64) as u32
    }

    /// Value at a slider position, rounded to what a person would type.
    pub fn from_pos(&self, pos: u32) -> f64 {
        self.at(pos.min(self.steps)).clamp(self.min, self.max)
    }

    /// Whole numbers for integer settings; three significant digits otherwise.
    pub fn round(&self, v: f64) -> f64 {
        if self.integer {
            return v.round();
        }
        if v == 0.0 || !v.is_finite() {
            return v;
        }
        let mag = 10f64.powi(v.abs().log10().floor() as i32 - 2);
        (v / mag).round() * mag
    }

    /// Clamps a typed value; `Err(clamped)` when it was outside the range.
    pub fn clamp(&self, v: f64) -> Result<f64, f64> {
        let r = self.round(v);
        if r < self.min {
            Err(self.min)
        } else if r > self.max {
            Err(self.max)
        } else {
            Ok(r)
        }
    }
}

/// Parses what a person typed: accepts a decimal comma, spaces and a trailing unit-less
/// exponent ("1e6"). `None` when it is not a finite number.
pub fn parse_typed(s: &str) -> Option<f64> {
    let t: String = s
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{a0}')
        .map(|c| if c == ',' { '.' } else { c })
        .collect();
    // What links accept: a count with a k/m/b/t suffix ("4k", "350m", "2b").
    let (num, mult) = match t.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some('k') => (&t[..t.len() - 1], 1e3),
        Some('m') => (&t[..t.len() - 1], 1e6),
        Some('b' | 'g') => (&t[..t.len() - 1], 1e9),
        Some('t') => (&t[..t.len() - 1], 1e12),
        _ => (t.as_str(), 1.0),
    };
    // The core's parser: std's would link a 10 KB table into the bundle (core/src/num.rs).
    tunefit_core::num::parse_f64(num).map(|v| v * mult).filter(|v| v.is_finite())
}
