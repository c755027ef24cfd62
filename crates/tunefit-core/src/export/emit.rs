//! Small emitters every framework writes through: YAML (ordered mappings, strings always
//! quoted), Python literals, shell words, and the header line naming the query an export was
//! made from. Formats only: no framework's keys are chosen here.

use super::ExportFile;
use crate::query::Query;

/// A YAML value. Strings are written as JSON strings, which YAML reads as double-quoted scalars.
#[derive(Debug, Clone)]
pub(super) enum Y {
    S(String),
    I(i64),
    F(f64),
    B(bool),
    Null,
    L(Vec<Y>),
    /// Ordered mapping; a key starting with '#' is written as a comment line.
    M(Vec<(String, Y)>),
}

/// A YAML mapping's entries, in order (the contents of `Y::M`).
pub(super) type Entries = Vec<(String, Y)>;

pub(super) fn s(v: impl Into<String>) -> Y {
    Y::S(v.into())
}
pub(super) fn i(v: impl Into<i64>) -> Y {
    Y::I(v.into())
}
pub(super) fn strs(v: &[&str]) -> Y {
    Y::L(v.iter().map(|x| s(*x)).collect())
}
pub(super) fn comment(text: impl Into<String>) -> (String, Y) {
    (format!("# {}", text.into()), Y::Null)
}

pub(super) fn fmt_float(x: f64) -> String {
    let t = format!("{x}");
    if t.contains('.') || t.contains('e') || t.contains("inf") || t.contains("NaN") {
        t
    } else {
        format!("{t}.0")
    }
}

pub(super) fn json_str(v: &str) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "\"\"".into())
}

pub(super) fn yaml_scalar(v: &Y) -> String {
    match v {
        Y::S(x) => json_str(x),
        Y::I(x) => x.to_string(),
        Y::F(x) => fmt_float(*x),
        Y::B(x) => x.to_string(),
        Y::Null => "null".into(),
        Y::L(items) => format!("[{}]", items.iter().map(yaml_scalar).collect::<Vec<_>>().join(", ")),
        Y::M(_) => "{}".into(),
    }
}

pub(super) fn yaml(entries: &[(String, Y)]) -> String {
    pub(super) fn go(out: &mut String, entries: &[(String, Y)], indent: usize) {
        let pad = " ".repeat(indent);
        for (k, v) in entries {
            if let Some(c) = k.strip_prefix('#') {
                out.push_str(&format!("{pad}#{c}\n"));
                continue;
            }
            match v {
                Y::M(inner) if !inner.is_empty() => {
                    out.push_str(&format!("{pad}{k}:\n"));
                    go(out, inner, indent + 2);
                }
                // A list of mappings in block form (`- key: value` items), e.g. Axolotl's
                // `datasets`: the flow form `[{}]` would lose the entries.
                Y::L(items) if !items.is_empty() && items.iter().all(|x| matches!(x, Y::M(m) if !m.is_empty())) => {
                    out.push_str(&format!("{pad}{k}:\n"));
                    for item in items {
                        let Y::M(m) = item else { continue };
                        let mut block = String::new();
                        go(&mut block, m, 0);
                        for (n, line) in block.lines().enumerate() {
                            let lead = if n == 0 { "- " } else { "  " };
                            out.push_str(&format!("{pad}  {lead}{line}\n"));
                        }
                    }
                }
                _ => out.push_str(&format!("{pad}{k}: {}\n", yaml_scalar(v))),
            }
        }
    }
    let mut out = String::new();
    go(&mut out, entries, 0);
    out
}

pub(super) fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}
pub(super) fn py_list(v: &[&str]) -> String {
    format!("[{}]", v.iter().map(|x| json_str(x)).collect::<Vec<_>>().join(", "))
}

/// A shell word: bare when safe, single-quoted otherwise.
pub(super) fn sh(v: &str) -> String {
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@".contains(&b)) {
        v.to_string()
    } else {
        format!("'{}'", v.replace('\'', "'\\''"))
    }
}

pub(super) fn file(name: &str, language: &str, content: String) -> ExportFile {
    ExportFile { name: name.into(), language: language.into(), content }
}

/// The query the export was made from, as a comment header line.
pub(super) fn origin(q: &Query) -> String {
    format!("tunefit export of ?{}", q.to_query_string())
}

/// Appends one line of a script, with its newline.
pub(super) fn line(out: &mut String, text: &str) {
    out.push_str(text);
    out.push('\n');
}
