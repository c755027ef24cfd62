//! Holds docs/query.md to the registry in query.rs (`query_keys!`): every key has a row and
//! every documented key exists, each documented default is the registry's default as the
//! canonical string spells it, each closed set of values is listed exactly, the canonical
//! order written at the end is `KEYS`, and the number of presets is the catalog's.
use tunefit_core::query::{key_choices, Format, KEYS};
use tunefit_core::Query;

const DOC: &str = include_str!("../../../docs/query.md");

/// What the doc writes as the default of a setting with no fixed value (unset: the preset's,
/// the framework profile's, or nothing).
const UNSET: &[&str] = &["—", "preset's", "*profile*", "provider default", "from the kernel model"];

/// One table row that documents keys.
struct Row {
    line: usize,
    keys: Vec<String>,
    default: String,
    accepted: String,
}

/// The cells of a table line: split at `|` except the escaped `\|` inside a cell.
fn cells(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.trim().trim_start_matches('|').trim_end_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => out.last_mut().unwrap().push(chars.next().unwrap()),
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.iter().map(|c| c.trim().to_string()).collect()
}

/// The words in backticks of a text, in order.
fn code_spans(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The rows of the key tables: the ones whose first cell names keys in backticks.
fn rows() -> Vec<Row> {
    DOC.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("| `"))
        .map(|(i, l)| {
            let c = cells(l);
            assert_eq!(
                c.len(),
                4,
                "docs/query.md:{}: a key row has four cells (key, default, accepted, meaning)",
                i + 1
            );
            Row { line: i + 1, keys: code_spans(&c[0]), default: c[1].clone(), accepted: c[2].clone() }
        })
        .collect()
}

#[test]
fn every_key_has_one_row_and_every_row_names_known_keys() {
    let documented: Vec<String> = rows().into_iter().flat_map(|r| r.keys).collect();
    let missing: Vec<&&str> = KEYS.iter().filter(|k| !documented.iter().any(|d| d == *k)).collect();
    assert!(missing.is_empty(), "keys of the registry without a row in docs/query.md: {missing:?}");
    let unknown: Vec<&String> = documented.iter().filter(|d| !KEYS.contains(&d.as_str())).collect();
    assert!(unknown.is_empty(), "docs/query.md documents keys the registry does not have: {unknown:?}");
    let mut twice: Vec<&String> =
        documented.iter().filter(|d| documented.iter().filter(|e| e == d).count() > 1).collect();
    twice.dedup();
    assert!(twice.is_empty(), "keys with more than one row in docs/query.md: {twice:?}");
}

#[test]
fn documented_defaults_are_the_registry_defaults() {
    let d = Query::default();
    let v1 = Query::defaults(Format::V1);
    for r in rows() {
        let doc = r.default.replace('`', "");
        // "X (v=1: Y)": the current default, and v=1's where it differs.
        let (doc, doc_v1) = match doc.split_once(" (v=1: ") {
            Some((now, old)) => (now.to_string(), Some(old.trim_end_matches(')').to_string())),
            None => (doc.clone(), None),
        };
        for k in &r.keys {
            if *k != "v" {
                let v1_value = v1.value_of(k).filter(|v| !v.is_empty());
                match &doc_v1 {
                    Some(old) => {
                        assert_eq!(Some(old), v1_value.as_ref(), "docs/query.md:{}: v=1 default of `{k}`", r.line)
                    }
                    None => assert_eq!(
                        d.value_of(k),
                        v1.value_of(k),
                        "docs/query.md:{}: `{k}` differs in v=1; write \"X (v=1: Y)\"",
                        r.line
                    ),
                }
            }
            match d.value_of(k).filter(|v| !v.is_empty()) {
                Some(v) => assert_eq!(doc, v, "docs/query.md:{}: default of `{k}`", r.line),
                None => assert!(
                    UNSET.iter().any(|u| doc.starts_with(u)),
                    "docs/query.md:{}: `{k}` has no fixed default (unset), but the doc says {doc:?}; write one of {UNSET:?}",
                    r.line
                ),
            }
        }
    }
}

#[test]
fn closed_sets_of_values_are_listed_exactly() {
    for r in rows() {
        for k in &r.keys {
            if let Some(choices) = key_choices(k) {
                assert_eq!(r.accepted.replace('`', ""), choices, "docs/query.md:{}: values of `{k}`", r.line);
            }
        }
    }
}

#[test]
fn canonical_order_is_the_registry_order() {
    let (_, section) = DOC.split_once("## Canonical order").expect("docs/query.md has a '## Canonical order' section");
    let section = section.split("\n## ").next().unwrap_or(section);
    // The list is the section's last paragraph.
    let list = section.trim_end().rsplit("\n\n").next().unwrap_or(section);
    assert_eq!(code_spans(list), KEYS, "the canonical order in docs/query.md");
}

#[test]
fn the_preset_count_is_the_catalogs() {
    let model = rows().into_iter().find(|r| r.keys == ["model"]).expect("a row for `model`");
    let n = tunefit_core::catalog::presets().len();
    assert!(
        model.accepted.contains(&format!(" {n} presets")),
        "docs/query.md:{}: the catalog has {n} presets",
        model.line
    );
}
