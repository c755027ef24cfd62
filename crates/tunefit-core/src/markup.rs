//! Text escaped for HTML: what the page's markup sections and the lazily loaded module's
//! panel markup write every text that is not their own literal through.

use std::fmt;

/// Text escaped for HTML element content and double-quoted attribute values.
pub struct Esc<'a>(pub &'a str);

/// Escapes `s` when formatted: `&`, `<`, `>`, `"` and `'` become character references.
pub fn esc(s: &str) -> Esc<'_> {
    Esc(s)
}

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..i])?;
            f.write_str(match rest.as_bytes()[i] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[i + 1..];
        }
        f.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_five_characters_become_references_and_the_rest_stays() {
        assert_eq!(super::esc(r#"a<b>&"c'd é"#).to_string(), "a&lt;b&gt;&amp;&quot;c&#39;d é");
        assert_eq!(super::esc("").to_string(), "");
    }
}
