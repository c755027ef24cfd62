//! Decimal text to `f64` and back, without the standard library's power-of-five table.
//!
//! Why: `str::parse::<f64>` links core's Eisel–Lemire table and slow path into the page's
//! wasm, which has a size budget. Measured 2026-12-03 (`trunk build --release`,
//! `node scripts/size-budget.mjs`): the first load is 342.7 KB gzipped with `str::parse::<f64>`
//! in `parse_f64`, 329.8 KB with the earlier, inexact version of this parser and 329.6 KB with
//! this one (the page's wasm: 328.6, 315.7 and 315.5 KB gz; std costs 12.9 KB).
//!
//! `parse_f64` is exact: the same `f64` as `str::parse::<f64>` for every input (correctly
//! rounded, ties to even, subnormals, overflow to infinity, underflow to zero), tested against
//! it. How:
//! - at most 19 significant digits, m ≤ 2^53 and |e| ≤ 22: Clinger's fast path (two exact
//!   operands, one rounding);
//! - otherwise an approximation from the first 19 digits, scaled in `f64` (within a few ulps),
//!   corrected by comparing the decimal exactly with the halfway point between the candidate
//!   and its neighbour (Clinger's AlgorithmR as "bigcomp": M·10^e against (2m+1)·2^(k−1) in a
//!   small `Vec<u32>` bignum with multiply-by-small, shift and compare), one ulp per step.
//!   Only the first 800 significant digits are kept, plus a final 1 when a later digit is
//!   non-zero: every halfway point between doubles has at most 768 significant digits, so that
//!   sticky digit decides every comparison as the full string would, and no input is refused
//!   for its length.
//!
//! Syntax is `str::parse::<f64>`'s: an optional sign, digits with an optional point (at least
//! one digit), an optional exponent, or `inf`/`infinity`/`nan` in any case.
//!
//! `shortest` writes the canonical spelling (query links): the shortest digits that read back
//! to the same `f64`.

use std::cmp::Ordering;

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

    // The value is (all significant digits as one integer, n of them) · 10^exp; `m` keeps the
    // first 19 and `dropped` says whether a later one is non-zero.
    let (mut m, mut n, mut exp, mut dropped, mut digits, mut i) = (0u64, 0i64, 0i64, false, 0, 0);
    let mut seen_point = false;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' => {
                digits += 1;
                exp -= seen_point as i64;
                let d = c - b'0';
                if n > 0 || d != 0 {
                    n += 1;
                    if n <= 19 {
                        m = m * 10 + d as u64;
                    } else {
                        dropped |= d != 0;
                    }
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
    let mantissa = &b[..i];
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
        exp += if eneg { -e } else { e };
    }
    if n == 0 {
        return Some(sign(0.0));
    }
    // The value lies in [10^lead, 10^(lead+1)): below 1e-342 it rounds to 0 (the smallest
    // subnormal is 4.9e-324), from 1e309 up to infinity.
    let lead = exp + n - 1;
    if lead < -343 {
        return Some(sign(0.0));
    }
    if lead > 308 {
        return Some(sign(f64::INFINITY));
    }
    let e19 = exp + (n - 19).max(0);
    if !dropped && m <= 1 << 53 && (-22..=22).contains(&e19) {
        let x = m as f64;
        return Some(sign(if e19 >= 0 { x * POW10[e19 as usize] } else { x / POW10[(-e19) as usize] }));
    }
    Some(sign(correct(approx(m, e19), mantissa, n, exp)))
}

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// m · 10^e in `f64`, a few roundings off (e ≥ −361 here, so the divisions stay normal until
/// the last one or two).
fn approx(m: u64, mut e: i64) -> f64 {
    let mut x = m as f64;
    while e > 22 {
        x *= 1e22;
        e -= 22;
    }
    while e < -22 {
        x /= 1e22;
        e += 22;
    }
    if e >= 0 {
        x * POW10[e as usize]
    } else {
        x / POW10[(-e) as usize]
    }
}

/// A natural number as little-endian base-2^32 limbs, no zero limb on top.
type Big = Vec<u32>;

/// x = x·k + add.
fn mul_add(x: &mut Big, k: u64, add: u64) {
    let mut c = add as u128;
    for l in x.iter_mut() {
        let t = *l as u128 * k as u128 + c;
        *l = t as u32;
        c = t >> 32;
    }
    while c > 0 {
        x.push(c as u32);
        c >>= 32;
    }
}

fn mul_pow5(x: &mut Big, mut n: i64) {
    while n > 0 {
        let s = n.min(27); // 5^27 < 2^63
        mul_add(x, 5u64.pow(s as u32), 0);
        n -= s;
    }
}

/// Compares a·2^ea with b·2^eb.
fn cmp_scaled(mut a: Big, ea: i64, mut b: Big, eb: i64) -> Ordering {
    let (x, sh) = if ea > eb { (&mut a, ea - eb) } else { (&mut b, eb - ea) };
    mul_add(x, 1 << (sh % 32), 0);
    x.splice(0..0, std::iter::repeat_n(0, (sh / 32) as usize));
    // Both have no zero limb on top, so the longer is the larger.
    a.len().cmp(&b.len()).then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

/// The correctly rounded value of the decimal whose mantissa text is `mantissa` (n
/// significant digits, value = those digits · 10^exp), starting from `z`, a few ulps off.
fn correct(mut z: f64, mantissa: &[u8], n: i64, exp: i64) -> f64 {
    // F: the first 800 significant digits, and a final 1 if a later digit is non-zero (the
    // module comment says why that is exact); value ~ F·10^e.
    const KEEP: i64 = 800;
    let (mut f, mut chunk, mut len, mut k, mut sticky) = (Big::new(), 0u64, 0u32, 0i64, false);
    for &c in mantissa.iter().filter(|c| c.is_ascii_digit()) {
        let d = (c - b'0') as u64;
        if k == 0 && d == 0 {
            continue;
        }
        if k == KEEP {
            sticky |= d != 0;
            continue;
        }
        (chunk, len, k) = (chunk * 10 + d, len + 1, k + 1);
        if len == 9 {
            mul_add(&mut f, 1_000_000_000, chunk);
            (chunk, len) = (0, 0);
        }
    }
    if sticky {
        (chunk, len) = (chunk * 10 + 1, len + 1);
    }
    mul_add(&mut f, 10u64.pow(len), chunk);
    let e = exp + n - k - sticky as i64;
    // F·10^e against h·2^j is F·5^e·2^e against h·2^j, or F·2^e against h·5^−e·2^j.
    let mut five = vec![1];
    mul_pow5(if e >= 0 { &mut f } else { &mut five }, e.abs());
    // Compares the value with the midpoint of the finite double `bits` and the next one up:
    // (2m+1)·2^(k−1) for the double m·2^k.
    let vs_half = |bits: u64| {
        let (m, k) = match bits >> 52 {
            0 => (bits, -1074),
            x => (bits & ((1 << 52) - 1) | 1 << 52, x as i64 - 1075),
        };
        let mut h = five.clone();
        mul_add(&mut h, 2 * m + 1, 0);
        cmp_scaled(f.clone(), e, h, k - 1)
    };
    loop {
        // Up while above the midpoint to the next double (or on it with z odd: ties to even);
        // down while below the midpoint to the previous one (or on it with z odd).
        let b = z.to_bits();
        let odd = b & 1 == 1;
        if z.is_finite() {
            let c = vs_half(b);
            if c == Ordering::Greater || c == Ordering::Equal && odd {
                z = f64::from_bits(b + 1);
                continue;
            }
        }
        if b > 0 {
            let c = vs_half(b - 1);
            if c == Ordering::Less || c == Ordering::Equal && odd {
                z = f64::from_bits(b - 1);
                continue;
            }
        }
        return z;
    }
}

/// The canonical spelling of `x`: the shortest digits that read back to the same `f64` (Rust's
/// `{}` and `{:e}` both write them), plain for magnitudes from 1e-6 to below 1e21 (as
/// JavaScript prints numbers: `0.05`, `1000`) and with an exponent outside, where the plain
/// form would only add zeros (`1.2345e-9`, not `0.0000000012345`).
pub fn shortest(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-6..1e21).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_f64, shortest};
    use proptest::prelude::*;

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
        // Far outside 19 digits and the fast path's exponents: still exact.
        for s in [
            "1.7976931348623157e307",
            "2.2250738585072014e-300",
            "3.14159265358979323846",
            "123456789012345678901234567890",
            "18446744073709551615",
            "1e-45",
            "9.999999999999999e-39",
        ] {
            same(s);
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

    #[test]
    fn exact_on_hard_cases() {
        for s in [
            // The query fuzz test's failure: 9511e-57 printed by `{}` read back differently.
            "9511e-57",
            "0.000000000000000000000000000000000000000000000000000009511",
            "9.511e-54",
            // Halfway and near-halfway cases.
            "9007199254740993",
            "9007199254740992.5",
            "9007199254740993.0000000000000000000001",
            "9007199254740994.9999999999999999999999",
            "9007199254740995",
            "1e23",
            "8.988465674311580536566680e307",
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "2.225073858507201136057409796709131975934819546351645648e-308",
            "2.225073858507201136057409796709131975934819546351645649e-308",
            "0.1000000000000000055511151231257827021181583404541015625",
            "0.1000000000000000055511151231257827021181583404541015624",
            "0.1000000000000000055511151231257827021181583404541015626",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124999999999999999999999999",
            "1.00000000000000011102230246251565404236316680908203125000000000000000000000001",
            "7.3177701707893310e+15",
            "1797693134862315708145274237317043567981e269",
            "1797693134862315807937289714053034150799e269",
            "1797693134862315807937289714053034150798e269",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            // Subnormals, underflow, overflow.
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.47032822920623272088e-324",
            "5e-324",
            "3e-324",
            "1e-323",
            "4.4501477170144023e-308",
            "2.2250738585072009e-308",
            "1e-400",
            "-1e-400",
            "1e400",
            "-1e400",
            "1e-342",
            "1e-343",
            "1e308",
            "1e309",
            "0e999999999",
            "0.0000e-5",
            // Long digit strings.
            "3.141592653589793238462643383279502884197169399375105820974944592307816406286",
            "12345678901234567890123456789012345678901234567890e-30",
            "0.000000000000000000000000000000000000000000001e45",
        ] {
            same(s);
        }
        // Over a thousand digits, with the deciding digit past the 800th.
        let halfway = "1.00000000000000011102230246251565404236316680908203125";
        for tail in ["", "1", "0001"] {
            let s = format!("{halfway}{}{tail}", "0".repeat(1000));
            same(&s);
        }
        let below = format!("1.00000000000000011102230246251565404236316680908203124{}", "9".repeat(1000));
        same(&below);
        // A value of 2^-1074 spelled with every one of its 751 digits, then nudged.
        let tiny = format!("{:.1100e}", f64::from_bits(1));
        same(&tiny);
        same(&tiny.replace("e-324", "1e-324"));
    }

    /// The exact decimal digits (and power of ten) of the midpoint between the finite double
    /// `bits` and the next one up: (2m+1)·2^(k-1).
    fn midpoint(bits: u64) -> (String, i64) {
        let (m, k) = match bits >> 52 {
            0 => (bits, -1074i64),
            x => (bits & ((1 << 52) - 1) | 1 << 52, x as i64 - 1075),
        };
        // Base 10^9, little-endian.
        let mut d: Vec<u64> = vec![(2 * m + 1) % 1_000_000_000, (2 * m + 1) / 1_000_000_000];
        let mul = |d: &mut Vec<u64>, f: u64| {
            let mut c = 0;
            for l in d.iter_mut() {
                let t = *l * f + c;
                *l = t % 1_000_000_000;
                c = t / 1_000_000_000;
            }
            while c > 0 {
                d.push(c % 1_000_000_000);
                c /= 1_000_000_000;
            }
        };
        let (f, n) = if k > 0 { (2, k - 1) } else { (5, 1 - k) };
        for _ in 0..n {
            mul(&mut d, f);
        }
        let mut s = d.iter().rev().map(|l| format!("{l:09}")).collect::<String>();
        s = s.trim_start_matches('0').to_string();
        (s, if k > 0 { 0 } else { k - 1 })
    }

    #[test]
    fn the_midpoint_helper_is_right() {
        // 1 and the next double: 1 + 2^-53 = 1.00000000000000011102230246251565404236316680908203125.
        let (d, e) = midpoint(1f64.to_bits());
        assert_eq!(format!("{d}e{e}").parse::<f64>().unwrap(), 1.0); // a tie, rounds to even
        assert_eq!(d, "100000000000000011102230246251565404236316680908203125");
        assert_eq!(e, -53);
    }

    fn halfway_cases(bits: u64) {
        let (d, e) = midpoint(bits);
        same(&format!("{d}e{e}"));
        same(&format!("{d}0000000000000000000001e{}", e - 22));
        // Just below: the digits minus one unit in the last place, then nines.
        let mut below = d.clone().into_bytes();
        let mut i = below.len() - 1;
        while below[i] == b'0' {
            below[i] = b'9';
            i -= 1;
        }
        below[i] -= 1;
        same(&format!("{}99999999999999999999e{}", String::from_utf8(below).unwrap(), e - 20));
    }

    #[test]
    fn halfway_points_at_the_edges() {
        for bits in [
            0,
            1,
            2,
            (1 << 52) - 1,
            1 << 52,
            (1 << 52) + 1,
            1f64.to_bits(),
            9007199254740992f64.to_bits(),
            1e23f64.to_bits(),
            f64::MAX.to_bits() - 1,
            f64::MAX.to_bits(),
        ] {
            halfway_cases(bits);
        }
    }

    fn finite() -> impl Strategy<Value = f64> {
        any::<u64>().prop_map(f64::from_bits).prop_filter("finite", |x| x.is_finite())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn every_double_reads_back_from_its_spellings(x in finite()) {
            let (s, e, p) = (shortest(x), format!("{x:e}"), format!("{x}"));
            prop_assert_eq!(parse_f64(&s).map(f64::to_bits), Some(x.to_bits()), "{}", s);
            prop_assert_eq!(parse_f64(&e).map(f64::to_bits), Some(x.to_bits()), "{}", e);
            prop_assert_eq!(parse_f64(&p).map(f64::to_bits), Some(x.to_bits()), "{}", p);
            // Shortest: never longer than either of Rust's shortest-digit forms.
            prop_assert!(s.len() <= e.len().max(p.len()) && (s == e || s == p));
        }

        #[test]
        fn halfway_points_round_as_std_does(x in finite()) {
            let b = x.abs().to_bits();
            prop_assume!(b < f64::MAX.to_bits());
            halfway_cases(b);
        }

        #[test]
        fn random_decimals_agree_with_std(s in "[+-]?[0-9]{0,30}(\\.[0-9]{0,30})?([eE][+-]?[0-9]{1,3})?") {
            same(&s);
        }
    }

    proptest! {
        // Long digit strings are slow for std's own slow path in a debug build.
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn long_decimals_agree_with_std(long in "[0-9]{0,900}", e in -1200i32..400) {
            same(&format!("{long}e{e}"));
            same(&format!("0.{long}e{e}"));
        }
    }
}
