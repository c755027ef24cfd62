//! Markup as text, for the sections whose whole content changes on every input: the cost
//! table, the cost scatter, the GPU table and the memory curve.
//!
//! Why not `view!` there: the release build type-erases views (`erase_components`, worth
//! 85 KB gzipped), and an erased element's rebuild removes and re-sets every one of its
//! attributes and re-creates its reactive children. Re-rendering the 20-row cost table and
//! its scatter that way took about 5 ms of each slider move's 8 ms budget. These sections
//! have no state of their own, so they are written as one string and set as the element's
//! `innerHTML` instead: one DOM call, parsed natively.
//!
//! Everything that is not a literal of this crate goes through [`esc`]: offer and provider
//! names can come from a shared link (custom offers), so unescaped text would be an
//! injection.

use std::fmt;

/// Text escaped for HTML element content and double-quoted attribute values.
pub struct Esc<'a>(pub &'a str);

/// Escapes `s` when formatted: `&`, `<`, `>`, `"` and `'` become character references.
pub fn esc(s: &str) -> Esc<'_> { Esc(s) }

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
