//! A small JSON reader for the two JSON texts a person gives the page: a Hugging Face
//! `config.json` (`hfconfig`) and a price book (`prices`).
//!
//! serde_json's deserializer (its `Value`, the derived visitors and their error machinery) was
//! about 10 KB of the gzipped wasm for these two uses; measured again 2026-12-03
//! (`trunk build --release`), `serde_json::from_str::<serde_json::Value>` converted to `Json`
//! in `parse` makes the page's wasm 7.1 KB gz larger (315.5 → 322.6 KB). serde_json still
//! writes every JSON output (the report, the price book, DeepSpeed configs), so outputs are
//! unchanged.
//!
//! It accepts exactly RFC 8259 JSON, like serde_json: no comments, no trailing commas, no
//! NaN, numbers that overflow f64 are errors, nesting is limited to 128 levels. Errors read
//! like serde_json's ("expected `,` or `}` at line 3 column 7").

use std::fmt;

/// A parsed JSON value. Numbers keep their text, so a whole number is read exactly.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    /// Members in text order, with the line each value starts on.
    Obj(Vec<(String, Json, usize)>),
}

/// Why a text is not JSON, and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub problem: JsonProblem,
    pub line: usize,
    pub column: usize,
}

/// What is wrong at the error's place; `as_str` is serde_json's English, `diag::json_error`
/// says it in the page's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonProblem {
    TrailingCharacters,
    EofValue,
    ExpectedIdent,
    EofList,
    ExpectedCommaOrBracket,
    EofObject,
    KeyNotString,
    ExpectedColon,
    ExpectedCommaOrBrace,
    ExpectedValue,
    RecursionLimit,
    InvalidNumber,
    NumberOutOfRange,
    EofString,
    InvalidEscape,
    HexEscapeEnd,
    LoneSurrogate,
    ControlCharacter,
}

impl JsonProblem {
    /// The words serde_json uses for the same problem.
    pub fn as_str(self) -> &'static str {
        use JsonProblem as P;
        match self {
            P::TrailingCharacters => "trailing characters",
            P::EofValue => "EOF while parsing a value",
            P::ExpectedIdent => "expected ident",
            P::EofList => "EOF while parsing a list",
            P::ExpectedCommaOrBracket => "expected `,` or `]`",
            P::EofObject => "EOF while parsing an object",
            P::KeyNotString => "key must be a string",
            P::ExpectedColon => "expected `:`",
            P::ExpectedCommaOrBrace => "expected `,` or `}`",
            P::ExpectedValue => "expected value",
            P::RecursionLimit => "recursion limit exceeded",
            P::InvalidNumber => "invalid number",
            P::NumberOutOfRange => "number out of range",
            P::EofString => "EOF while parsing a string",
            P::InvalidEscape => "invalid escape",
            P::HexEscapeEnd => "unexpected end of hex escape",
            P::LoneSurrogate => "lone leading surrogate in hex escape",
            P::ControlCharacter => "control character (\\u0000-\\u001F) found while parsing a string",
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.problem.as_str(), self.line, self.column)
    }
}

impl std::error::Error for JsonError {}

impl Json {
    /// The member `key` of an object (the last one when a key repeats, as serde_json keeps).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().rev().find(|(k, _, _)| k == key).map(|(_, v, _)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        if let Json::Str(s) = self {
            Some(s)
        } else {
            None
        }
    }
    /// A whole number without fraction or exponent that fits u64 (serde_json's `as_u64`).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(t) if t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok(),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        if let Json::Num(t) = self {
            crate::num::parse_f64(t)
        } else {
            None
        }
    }
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Obj(_))
    }
    pub fn as_array(&self) -> Option<&[Json]> {
        if let Json::Arr(a) = self {
            Some(a)
        } else {
            None
        }
    }
}

/// Compact JSON, as serde_json prints a value (numbers as written).
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Num(t) => f.write_str(t),
            Json::Str(s) => write_str(f, s),
            Json::Arr(a) => {
                f.write_str("[")?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?
                    }
                    write!(f, "{v}")?
                }
                f.write_str("]")
            }
            Json::Obj(m) => {
                f.write_str("{")?;
                for (i, (k, v, _)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?
                    }
                    write_str(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

fn write_str(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// Parses one JSON text (whitespace around it allowed).
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser { s: text.as_bytes(), i: 0, depth: 0 };
    let v = p.value()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err(JsonProblem::TrailingCharacters));
    }
    Ok(v)
}

/// serde_json's recursion limit.
const MAX_DEPTH: usize = 128;

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, problem: JsonProblem) -> JsonError {
        let before = &self.s[..self.i.min(self.s.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.len() - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        JsonError { problem, line, column }
    }
    fn line(&self) -> usize {
        self.s[..self.i].iter().filter(|&&b| b == b'\n').count() + 1
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1
        }
    }
    fn word(&mut self, w: &[u8], v: Json) -> Result<Json, JsonError> {
        for &c in w {
            match self.peek() {
                None => return Err(self.err(JsonProblem::EofValue)),
                Some(b) if b == c => self.i += 1,
                _ => return Err(self.err(JsonProblem::ExpectedIdent)),
            }
        }
        Ok(v)
    }

    fn value(&mut self) -> Result<Json, JsonError> {
        self.ws();
        match self.peek() {
            None => Err(self.err(JsonProblem::EofValue)),
            Some(b'n') => self.word(b"null", Json::Null),
            Some(b't') => self.word(b"true", Json::Bool(true)),
            Some(b'f') => self.word(b"false", Json::Bool(false)),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[') => {
                self.enter()?;
                let mut a = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Json::Arr(a));
                }
                loop {
                    a.push(self.value()?);
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            break;
                        }
                        None => return Err(self.err(JsonProblem::EofList)),
                        _ => return Err(self.err(JsonProblem::ExpectedCommaOrBracket)),
                    }
                }
                self.depth -= 1;
                Ok(Json::Arr(a))
            }
            Some(b'{') => {
                self.enter()?;
                let mut m = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    match self.peek() {
                        Some(b'"') => {}
                        None => return Err(self.err(JsonProblem::EofObject)),
                        _ => return Err(self.err(JsonProblem::KeyNotString)),
                    }
                    let k = self.string()?;
                    self.ws();
                    match self.peek() {
                        Some(b':') => self.i += 1,
                        None => return Err(self.err(JsonProblem::EofObject)),
                        _ => return Err(self.err(JsonProblem::ExpectedColon)),
                    }
                    self.ws();
                    let line = self.line();
                    let v = self.value()?;
                    m.push((k, v, line));
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            break;
                        }
                        None => return Err(self.err(JsonProblem::EofObject)),
                        _ => return Err(self.err(JsonProblem::ExpectedCommaOrBrace)),
                    }
                }
                self.depth -= 1;
                Ok(Json::Obj(m))
            }
            _ => Err(self.err(JsonProblem::ExpectedValue)),
        }
    }

    fn enter(&mut self) -> Result<(), JsonError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(JsonProblem::RecursionLimit));
        }
        self.i += 1;
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    return Err(self.err(JsonProblem::InvalidNumber));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            None => return Err(self.err(JsonProblem::EofValue)),
            _ => return Err(self.err(JsonProblem::InvalidNumber)),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(self.err(if self.peek().is_none() {
                    JsonProblem::EofValue
                } else {
                    JsonProblem::InvalidNumber
                }));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1
            }
            if self.digits() == 0 {
                return Err(self.err(if self.peek().is_none() {
                    JsonProblem::EofValue
                } else {
                    JsonProblem::InvalidNumber
                }));
            }
        }
        // The text is ASCII digits and signs, so this slice is valid UTF-8.
        let t = std::str::from_utf8(&self.s[start..self.i]).unwrap_or_default();
        if !crate::num::parse_f64(t).is_some_and(f64::is_finite) {
            return Err(self.err(JsonProblem::NumberOutOfRange));
        }
        Ok(Json::Num(t.to_string()))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut n = 0;
        for _ in 0..4 {
            let d = match self.peek() {
                None => return Err(self.err(JsonProblem::EofString)),
                Some(b) => (b as char).to_digit(16).ok_or_else(|| self.err(JsonProblem::InvalidEscape))?,
            };
            n = n * 16 + d;
            self.i += 1;
        }
        Ok(n)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1; // the opening quote
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.peek() else { return Err(self.err(JsonProblem::EofString)) };
            self.i += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(e) = self.peek() else { return Err(self.err(JsonProblem::EofString)) };
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return Err(self.err(JsonProblem::HexEscapeEnd));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err(JsonProblem::LoneSurrogate));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| self.err(JsonProblem::LoneSurrogate))?
                        }
                        _ => return Err(self.err(JsonProblem::InvalidEscape)),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return Err(self.err(JsonProblem::ControlCharacter)),
                _ => out.push(b),
            }
        }
        // Bytes come from a &str and escapes add whole chars, so this is valid UTF-8.
        Ok(String::from_utf8(out).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Agrees with serde_json on what is JSON, on strings and on whole numbers.
    #[test]
    fn agrees_with_serde_json() {
        let cases = [
            r#"{"a": 1, "b": [true, false, null], "c": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "d": -0.5e-3}"#,
            "[]",
            "{}",
            " 1 ",
            "-0",
            "0.0",
            "1E+2",
            "\"\"",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            ".5",
            "-",
            "+1",
            "nul",
            "tru",
            "[1 2]",
            "{\"a\" 1}",
            "{1: 2}",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\u{1}\"",
            "1e400",
            "-1e400",
            "[[[[]]]]",
            "{\"k\": {\"k\": [1, {\"z\": null}]}}",
            "1 2",
            "",
            "   ",
            "\"unterminated",
            "[1, 2",
            "{\"a\": 18446744073709551615, \"b\": 18446744073709551616, \"c\": 4096.0, \"d\": -3}",
        ];
        for c in cases {
            let ours = parse(c);
            let theirs: Result<serde_json::Value, _> = serde_json::from_str(c);
            assert_eq!(ours.is_ok(), theirs.is_ok(), "{c}: {ours:?} vs {theirs:?}");
            if let (Ok(o), Ok(t)) = (&ours, &theirs) {
                if let (Some(os), Some(ts)) = (o.get("c").and_then(Json::as_str), t.get("c").and_then(|v| v.as_str())) {
                    assert_eq!(os, ts)
                }
                for k in ["a", "b", "c", "d"] {
                    assert_eq!(o.get(k).and_then(Json::as_u64), t.get(k).and_then(|v| v.as_u64()), "{c} {k}");
                }
            }
            if let (Err(o), Err(t)) = (&ours, &theirs) {
                assert_eq!(o.line, t.line(), "{c}: {o} vs {t}")
            }
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(&deep).is_err() && serde_json::from_str::<serde_json::Value>(&deep).is_err());
    }

    #[test]
    fn errors_say_where() {
        let e = parse("{\n\"a\": [\n{\"b\": 1,").unwrap_err();
        assert_eq!((e.line, e.problem.as_str()), (3, "EOF while parsing an object"));
        assert_eq!(parse("[1, x]").unwrap_err().to_string(), "expected value at line 1 column 4");
    }

    #[test]
    fn prints_compact_json() {
        let v = parse(" { \"a\" : [1, \"x\\n\", null] , \"b\": {\"c\": false} } ").unwrap();
        assert_eq!(v.to_string(), r#"{"a":[1,"x\n",null],"b":{"c":false}}"#);
    }

    /// `PriceBook::from_json` accepts and reads what serde's derive on `PriceBook` did (except
    /// serde's positional form, a struct written as an array, which was never documented).
    #[test]
    fn price_books_read_as_serde_derive_did() {
        use crate::prices::PriceBook;
        let o = r#""provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": 8"#;
        let c = r#""name": "lab", "provider": "p", "gpu": "l4", "gpus_per_instance": 1"#;
        let cases = [
            "{}".to_string(),
            format!(r#"{{"overrides": [{{{o}}}]}}"#),
            format!(r#"{{"overrides": [{{{o}, "on_demand_usd_h": 40, "spot_usd_h": null}}], "custom_offers": []}}"#),
            format!(r#"{{"custom_offers": [{{{c}, "on_demand_usd_h": 1.5, "billing": "second"}}]}}"#),
            format!(r#"{{"custom_offers": [{{{c}, "billing": null, "spot_usd_h": 0.5}}]}}"#),
            format!(r#"{{"overrides": [{{{o}, "colour": 1}}]}}"#),
            format!(r#"{{"overrides": [{{{o}, "gpu": "a"}}]}}"#),
            r#"{"overrides": [{"provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": 8.0}]}"#.into(),
            r#"{"overrides": [{"provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": "8"}]}"#.into(),
            r#"{"overrides": [{"provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": -1}]}"#.into(),
            r#"{"overrides": [{"provider": "aws", "gpu": "h100-sxm", "gpus_per_instance": 4294967296}]}"#.into(),
            format!(r#"{{"overrides": [{{{o}, "on_demand_usd_h": "1"}}]}}"#),
            r#"{"overrides": null}"#.into(),
            r#"{"overrides": {}}"#.into(),
            "null".into(),
            r#"{"overrides": [], "overrides": []}"#.into(),
            r#"{"overrides": [1]}"#.into(),
        ];
        for t in &cases {
            let ours = PriceBook::from_json(t);
            let theirs = serde_json::from_str::<PriceBook>(t)
                .map_err(|e| e.to_string())
                .and_then(|b| b.validate().map(|_| b).map_err(|e| e.to_string()));
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{t}"),
                (Err(_), Err(_)) => {}
                _ => panic!("{t}: ours {ours:?}, serde {theirs:?}"),
            }
        }
    }
}
