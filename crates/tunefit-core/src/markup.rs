//! Markup written as text, escaped by default: what the page's markup sections, the embed
//! snippet and the lazily loaded module's panels are built with.
//!
//! [`Html`] grows only three ways: text, escaped ([`Html::text`], [`Html::attr`]); markup
//! that is a string literal of the source ([`write_html!`]'s literals); and another `Html`.
//! So a name that reaches a section from a link (a custom offer, a model's name) is text
//! unless code marks it otherwise, and forgetting to escape it is not possible.

use std::fmt::{self, Write};

/// HTML as text, built only from escaped text, literal markup and other `Html`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Html(String);

impl Html {
    pub fn new() -> Self {
        Html(String::new())
    }

    /// Empty, with room for `bytes` (the sections know roughly how long they are).
    pub fn with_capacity(bytes: usize) -> Self {
        Html(String::with_capacity(bytes))
    }

    /// `v` formatted as text: `&`, `<`, `>`, `"` and `'` become character references, so it
    /// stays text in element content and in a quoted attribute value. One non-generic entry
    /// point for every type (each generic copy would add to the page's wasm).
    pub fn text(&mut self, v: &dyn fmt::Display) -> &mut Self {
        let _ = write!(Escaper(&mut self.0), "{v}");
        self
    }

    /// ` name="value"`, the value escaped as [`Html::text`] escapes it.
    pub fn attr(&mut self, name: &'static str, value: &dyn fmt::Display) -> &mut Self {
        self.0.push(' ');
        self.0.push_str(name);
        self.0.push_str("=\"");
        self.text(value);
        self.0.push('"');
        self
    }

    /// Another `Html`, as it is: it is already escaped.
    pub fn html(&mut self, other: &Html) -> &mut Self {
        self.0.push_str(&other.0);
        self
    }

    /// Literal markup. Only [`write_html!`] calls it, with `concat!` of a string literal, so
    /// nothing but the source's own text reaches it (a `&'static str` alone would not do:
    /// names read from a link are leaked into `&'static str` too).
    #[doc(hidden)]
    pub fn __literal(&mut self, s: &'static str) -> &mut Self {
        self.0.push_str(s);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl From<Html> for String {
    fn from(h: Html) -> String {
        h.0
    }
}

/// Escapes what is written through it into the string it holds.
struct Escaper<'a>(&'a mut String);

impl fmt::Write for Escaper<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut rest = s;
        while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
            self.0.push_str(&rest[..i]);
            self.0.push_str(match rest.as_bytes()[i] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            });
            rest = &rest[i + 1..];
        }
        self.0.push_str(rest);
        Ok(())
    }
}

/// Appends to an [`Html`] (a variable), part by part: a string literal is markup, written as
/// it is; `html e` appends the `Html` `e`; any other expression is text, escaped
/// ([`Html::text`]).
///
/// ```
/// use tunefit_core::{markup::Html, write_html};
/// let (name, n) = ("<b>", 2);
/// let mut h = Html::new();
/// write_html!(h, r#"<p title=""#, name, r#"">"#, n, " × ", name, "</p>");
/// assert_eq!(h.as_str(), r#"<p title="&lt;b&gt;">2 × &lt;b&gt;</p>"#);
/// ```
#[macro_export]
macro_rules! write_html {
    ($h:ident $(,)?) => {};
    ($h:ident, $l:literal $(, $($rest:tt)*)?) => {{
        $h.__literal(concat!($l));
        $crate::write_html!($h $(, $($rest)*)?);
    }};
    ($h:ident, html $e:expr $(, $($rest:tt)*)?) => {{
        $h.html(&$e);
        $crate::write_html!($h $(, $($rest)*)?);
    }};
    ($h:ident, $e:expr $(, $($rest:tt)*)?) => {{
        $h.text(&$e);
        $crate::write_html!($h $(, $($rest)*)?);
    }};
}

#[cfg(test)]
mod tests {
    use super::Html;

    const HOSTILE: &str = r#"<img src=x onerror="alert(1)">&'"#;
    const INERT: &str = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;";

    #[test]
    fn text_escapes_the_five_characters_and_keeps_the_rest() {
        let mut h = Html::new();
        h.text(&r#"a<b>&"c'd é"#).text(&"").text(&1.5);
        assert_eq!(h.as_str(), "a&lt;b&gt;&amp;&quot;c&#39;d é1.5");
    }

    #[test]
    fn attribute_values_are_escaped_and_quoted() {
        let mut h = Html::new();
        h.attr("title", &HOSTILE);
        assert_eq!(h.as_str(), format!(r#" title="{INERT}""#));
    }

    #[test]
    fn the_macro_writes_literals_as_markup_and_everything_else_as_text() {
        let name = HOSTILE.to_string();
        let mut inner = Html::new();
        write_html!(inner, "<i>", &name, "</i>");
        let mut h = Html::new();
        write_html!(h, r#"<p data-n=""#, 3, r#"">"#, name, " ", format_args!("{:.1}", 1.0 / 3.0), html inner, "</p>",);
        assert_eq!(h.as_str(), format!(r#"<p data-n="3">{INERT} 0.3<i>{INERT}</i></p>"#));
        // Text that merely looks like markup is still text when it is not a literal.
        let looks_like_markup: &'static str = "<br>";
        write_html!(h, looks_like_markup);
        assert!(h.as_str().ends_with("&lt;br&gt;"));
        assert_eq!(String::from(h.clone()), h.into_string());
    }
}
