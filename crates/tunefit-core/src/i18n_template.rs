//! Sentence templates for translating the core's English messages (warnings, recommendation
//! sentences, the exporter's notes) without the core knowing any other language. A
//! translation names the English sentence as the core formats it, `{}` where a figure goes,
//! and the sentence in the other language, `{0}`, `{1}`, … placing the figures in any order.
//! The figures are read back from the English message, so they stay the core's own; a message
//! that follows no template gives `None` and the caller shows it in English.
//!
//! The tables live with their front ends (the page's src/i18n.rs, the lazily loaded exporter's
//! crates/tunefit-export); this module is only the matcher both share.

/// The figures of `message` read against `template` (`{}` marks each), or `None` if it does
/// not follow the template. Each figure runs to the first occurrence of the literal after it
/// (the last one to the message's end).
pub fn figures<'a>(template: &str, message: &'a str) -> Option<Vec<&'a str>> {
    let mut lits = template.split("{}");
    let mut rest = message.strip_prefix(lits.next()?)?;
    let lits: Vec<&str> = lits.collect();
    let mut out = Vec::with_capacity(lits.len());
    for (i, lit) in lits.iter().enumerate() {
        let end = if i + 1 == lits.len() { rest.strip_suffix(lit)?.len() } else { rest.find(lit)? };
        out.push(&rest[..end]);
        rest = &rest[end + lit.len()..];
    }
    if lits.is_empty() && !rest.is_empty() {
        return None;
    }
    Some(out)
}

/// `message` in the other language by the first row of `table` (code, English template,
/// translated template) whose code is `code` and whose English template it follows; each
/// figure passes through `figure` (units, words the core writes inside a figure). `None` when
/// no row fits.
pub fn translate(
    table: &[(&str, &str, &str)],
    code: &str,
    message: &str,
    figure: &dyn Fn(&str) -> String,
) -> Option<String> {
    table.iter().filter(|(c, _, _)| *c == code).find_map(|(_, en, other)| {
        let figs = figures(en, message)?;
        let mut out = String::with_capacity(other.len() + 32);
        let mut parts = other.split('{');
        out.push_str(parts.next().unwrap_or_default());
        for p in parts {
            let (i, tail) = p.split_once('}')?;
            out.push_str(&figure(figs.get(i.parse::<usize>().ok()?)?));
            out.push_str(tail);
        }
        Some(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &[(&str, &str, &str)] = &[
        ("a", "{} has no {} recipe", "в {0} нет рецепта {1}"),
        ("a", "{} swaps {} and {}", "{2} и {1} меняет {0}"),
        ("b", "plain sentence", "простое предложение"),
    ];

    #[test]
    fn figures_are_read_back_and_placed_in_any_order() {
        assert_eq!(figures("{} has no {} recipe", "litgpt has no DoRA recipe"), Some(vec!["litgpt", "DoRA"]));
        let id = |f: &str| f.to_string();
        assert_eq!(translate(T, "a", "litgpt has no DoRA recipe", &id).as_deref(), Some("в litgpt нет рецепта DoRA"));
        assert_eq!(translate(T, "a", "x swaps 1 and 2", &id).as_deref(), Some("2 и 1 меняет x"));
        assert_eq!(
            translate(T, "a", "x swaps 1 and 2", &|f: &str| format!("<{f}>")).as_deref(),
            Some("<2> и <1> меняет <x>")
        );
        assert_eq!(translate(T, "b", "plain sentence", &id).as_deref(), Some("простое предложение"));
    }

    #[test]
    fn a_message_off_template_or_under_another_code_is_none() {
        let id = |f: &str| f.to_string();
        assert_eq!(translate(T, "a", "litgpt has no DoRA recipe, really", &id), None);
        assert_eq!(translate(T, "b", "plain sentence, longer", &id), None);
        assert_eq!(translate(T, "b", "litgpt has no DoRA recipe", &id), None);
        assert_eq!(translate(T, "c", "plain sentence", &id), None);
    }
}
