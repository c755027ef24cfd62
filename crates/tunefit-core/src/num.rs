//! Decimal text to `f64`, without the standard library's power-of-five table.
//!
//! Why: `str::parse::<f64>` links core's Eisel–Lemire table (about 10 KB that does not
//! compress) into the page's wasm, which has a size budget. Every number tunefit reads — a
//! typed value, a query key, a CSV cell, a config.json or price-book field — has at most 19
//! significant digits and a small decimal exponent, and there this parser is exact (the same
//! `f64` as `str::parse`, tested against it):
//! - m ≤ 2^53 and |e| ≤ 22: Clinger's fast path (two exact operands, one rounding);
//! - m < 2^64 and m·10^e < 2^128: the integer, converted with one rounding;
//! - m < 2^64 and −38 ≤ e < 0 (e counts from the integer m: a 17-digit value down to about
//!   1e-22): long division with enough quotient bits, rounded half-even.
//!
//! Outside that (more than 19 digits, or exponents below −38 or too large for the integer
//! path) the digits past the 19th are dropped and the scaling is done in `f64`, which is within
//! a few ulps; those values are out of range for every key anyway.
//! Syntax is `str::parse::<f64>`'s: an optional sign, digits with an optional point (at least
//! one digit), an optional exponent, or `inf`/`infinity`/`nan` in any case.

/// Parses like `str::parse::<f64>().ok()`.
pub fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let (neg, b) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let sign = |x: f64| if neg { -x } else { x };
    let word = |w: &str| b.len() == w.len() && b.iter().zip(w.bytes()).all(|(x, y)| x.to_ascii_lowercase() == y);
    if word("inf") || word("infinity") {
        return Some(sign(f64::INFINITY));
    }
    if word("nan") {
        return Some(f64::NAN);
    }

    // Digits: keep the first 19 significant ones in `m`, count the rest into the exponent.
    let (mut m, mut kept, mut exp10, mut digits, mut i) = (0u64, 0u32, 0i64, 0usize, 0usize);
    let mut seen_point = false;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => {
                digits += 1;
                let d = (c - b'0') as u64;
                if kept < 19 {
                    if m != 0 || d != 0 {
                        m = m * 10 + d;
                        kept += 1;
                    }
                    if seen_point {
                        exp10 -= 1;
                    }
                } else if !seen_point {
                    exp10 += 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    if i < b.len() {
        if b[i] != b'e' && b[i] != b'E' {
            return None;
        }
        i += 1;
        let eneg = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e: i64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            e = (e * 10 + (b[i] - b'0') as i64).min(1_000_000);
            i += 1;
        }
        if i == start || i != b.len() {
            return None;
        }
        exp10 += if eneg { -e } else { e };
    }
    Some(sign(scale(m, exp10)))
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// m · 10^e, rounded once where the module comment says so.
fn scale(m: u64, e: i64) -> f64 {
    if m == 0 {
        return 0.0;
    }
    if m <= 1 << 53 && (-22..=22).contains(&e) {
        let x = m as f64;
        return if e >= 0 { x * POW10[e as usize] } else { x / POW10[(-e) as usize] };
    }
    if e >= 0 {
        let mut n = m as u128;
        for _ in 0..e {
            match n.checked_mul(10) {
                Some(x) => n = x,
                None => return m as f64 * 10f64.powi(e.min(400) as i32),
            }
        }
        return n as f64;
    }
    if e >= -38 {
        return divide(m, 10u128.pow((-e) as u32));
    }
    // Far below the exact range: scale in two f64 steps (within a few ulps; underflows to 0).
    (m as f64 / 1e38) / 10f64.powi((-e - 38).min(400) as i32)
}

/// m / d rounded to nearest, ties to even (m < 2^64, d ≤ 10^38 < 2^127).
fn divide(m: u64, d: u128) -> f64 {
    let bits = |x: u128| 128 - x.leading_zeros() as i64;
    // Put m at the top of 128 bits, divide, and extend the quotient to at least 66 bits with
    // the remainder, so 53 mantissa bits, a rounding bit and more are known exactly.
    let sh = 128 - bits(m as u128) - 1;
    let n = (m as u128) << sh;
    let (mut q, mut r) = (n / d, n % d);
    let mut ext = 0;
    while bits(q) < 66 {
        // r < d < 2^127, so r shifted by its leading zeros (≥ 1) still fits.
        let step = (66 - bits(q)).min(r.leading_zeros() as i64);
        let rr = r << step;
        q = (q << step) | (rr / d);
        r = rr % d;
        ext += step;
    }
    let sticky = r != 0;
    // value = (q + r/d) · 2^-(sh + ext); keep the top 53 bits of q.
    let drop = bits(q) - 53;
    let mut mant = (q >> drop) as u64;
    let rest = q & ((1u128 << drop) - 1);
    let half = 1u128 << (drop - 1);
    if rest > half || (rest == half && (sticky || mant & 1 == 1)) {
        mant += 1;
    }
    let mut exp2 = drop - sh - ext;
    if mant == 1 << 53 {
        mant >>= 1;
        exp2 += 1;
    }
    // mant · 2^exp2 with mant in [2^52, 2^53): a normal double (values here are ≥ 1e-38).
    f64::from_bits((((exp2 + 52 + 1023) as u64) << 52) | (mant & ((1 << 52) - 1)))
}

#[cfg(test)]
mod tests {
    use super::parse_f64;

    fn same(s: &str) {
        let ours = parse_f64(s);
        let std = s.parse::<f64>().ok();
        match (ours, std) {
            (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {}
            (a, b) => assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{s}: {a:?} vs {b:?}"),
        }
    }

    #[test]
    fn agrees_with_std_on_syntax_and_values() {
        for s in [
            "0",
            "-0",
            "+1",
            "1.",
            ".5",
            "5.25",
            "0.1",
            "0.2",
            "0.30000000000000004",
            "1e5",
            "1E-5",
            "2.5e+3",
            "1e22",
            "1e23",
            "123456789012345678",
            "9007199254740993",
            "1844674407370955161",
            "0.012345678901234567",
            "999999.1234567891",
            "4.35e-7",
            "1e-38",
            "9.999999999999999e-23",
            "inf",
            "-Infinity",
            "NaN",
            "",
            ".",
            "-",
            "e5",
            "1e",
            "1e+",
            "1.2.3",
            "1,5",
            " 1",
            "1 ",
            "0x10",
            "1_000",
            "00012.5000",
            "0.000000000000000000001",
            "1e-400",
            "1e400",
        ] {
            same(s);
        }
        // Outside the exact domain: within a few ulps.
        for s in [
            "1.7976931348623157e307",
            "2.2250738585072014e-300",
            "3.14159265358979323846",
            "123456789012345678901234567890",
            "18446744073709551615",
            "1e-45",
            "9.999999999999999e-39",
        ] {
            let (a, b) = (parse_f64(s).unwrap(), s.parse::<f64>().unwrap());
            assert!((a - b).abs() <= 4.0 * f64::EPSILON * b.abs(), "{s}: {a} vs {b}");
        }
    }

    #[test]
    fn exact_on_many_shortest_decimals() {
        // Every double printed shortest by `{}` (what the query encoder writes) reads back
        // bit-for-bit, across the ranges the keys accept and beyond.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mant = (x >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
            let scale = [1e-6, 0.01, 1.0, 10.0, 1000.0, 1e6, 1e12, 1e15][(x % 8) as usize];
            let v = mant * scale;
            let s = format!("{v}");
            assert_eq!(parse_f64(&s).map(f64::to_bits), Some(v.to_bits()), "{s}");
            same(&s);
            let e = format!("{v:e}");
            same(&e);
        }
    }

    #[test]
    fn never_panics() {
        let mut x: u64 = 12345;
        let alphabet = b"0123456789.eE+-infaINF_x ";
        for _ in 0..100_000 {
            let mut s = String::new();
            for _ in 0..(x % 24) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(alphabet[(x % alphabet.len() as u64) as usize] as char);
            }
            x = x.wrapping_add(0x9E37_79B9);
            let ours = parse_f64(&s);
            assert_eq!(ours.is_some(), s.parse::<f64>().is_ok(), "{s:?}");
        }
    }
}
