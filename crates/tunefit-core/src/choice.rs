//! The two macros the query format (docs/query.md) is declared with.
//!
//! `choice!` declares one key's closed set of values: an enum whose variants map one-to-one
//! onto their query-string spellings. The spellings are the public contract of the URL/CLI
//! query format: never rename a value.
//!
//! `query_keys!` is the registry of keys: one line per key, from which `Query`, its defaults,
//! the decoder, the canonical encoder and `KEYS` are all generated, so a key cannot be added
//! to one of them and forgotten in another.

/// A key's closed set of values, as every `choice!` enum is (the codecs of query.rs read and
/// write any of them the same way).
pub trait Choice: Sized + Copy {
    /// Parses the query-string spelling (exact, lower case).
    fn parse(s: &str) -> Option<Self>;
    /// The query-string spelling.
    fn as_str(self) -> &'static str;
    /// "a|b|c", every value in documentation order.
    fn accepted() -> String;
}

/// Declares an enum whose variants map one-to-one onto query-string spellings.
macro_rules! choice {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name { $($(#[$vm])* #[serde(rename = $s)] $var),+ }

        impl $name {
            /// Every value, in documentation order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The query-string spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $s),+ }
            }

            /// Parses the query-string spelling (exact, lower case).
            pub fn parse(s: &str) -> Option<Self> {
                match s { $($s => Some($name::$var),)+ _ => None }
            }

            /// "a|b|c", for error messages that list the accepted values.
            pub fn accepted() -> String {
                [$($s),+].join("|")
            }
        }

        impl $crate::choice::Choice for $name {
            fn parse(s: &str) -> Option<Self> {
                $name::parse(s)
            }
            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }
            fn accepted() -> String {
                $name::accepted()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use choice;

/// Declares the keys of the query format, one line each, in canonical order:
///
/// ```text
/// /// What the key means (at least one doc line: it documents the field).
/// "key" field: Type = default, codec;
/// ```
///
/// `codec` (query.rs's `Codec`) reads the value, says how it is spelled, and names its
/// range or choices; an `Option` field takes its inner type's codec, and `None` (unset) is
/// never written. A line may end `, if written` (a `fn(&Query, &Query) -> bool` given the
/// state and the defaults) where the canonical string's rule "written when it differs from
/// the default" does not fit.
///
/// The body has three groups because the architecture keys live in their own struct and
/// come between `params` and `method` in the canonical order: `model { .. }` (the keys
/// before them), `arch: pub struct ArchOverrides { .. }` and `settings { .. }`. Generated:
/// the two structs and their `Default`s, `KEYS`, and on `Query` the private
/// `set_registered` (one key's value; the decoders go through `Query::set`), `value_of`,
/// `key_choices` and `write_changed` (the canonical encoder's body).
macro_rules! query_keys {
    (@written $s:ident, $d:ident, $f:ident) => { $s.$f != $d.$f };
    (@written $s:ident, $d:ident, $f:ident, $w:path) => { $w($s, $d) };
    (
        $(#[$qm:meta])*
        pub struct $q:ident {
            model {
                $($(#[doc = $hd:literal])+ $hk:literal $hf:ident: $ht:ty = $hdef:expr, $hc:expr $(, if $hw:path)?;)*
            }
            $(#[doc = $xd:literal])+
            $arch:ident: pub struct $a:ident {
                $($(#[doc = $ad:literal])+ $ak:literal $af:ident: $at:ty = $adef:expr, $ac:expr;)*
            }
            settings {
                $($(#[doc = $td:literal])+ $tk:literal $tf:ident: $tt:ty = $tdef:expr, $tc:expr $(, if $tw:path)?;)*
            }
        }
    ) => {
        $(#[$qm])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        pub struct $q {
            $($(#[doc = $hd])+ pub $hf: $ht,)*
            $(#[doc = $xd])+
            pub $arch: $a,
            $($(#[doc = $td])+ pub $tf: $tt,)*
        }

        $(#[doc = $xd])+
        #[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        pub struct $a {
            $($(#[doc = $ad])+ pub $af: $at,)*
        }

        impl Default for $q {
            fn default() -> Self {
                $q { $($hf: $hdef,)* $arch: $a::default(), $($tf: $tdef,)* }
            }
        }

        impl Default for $a {
            fn default() -> Self {
                $a { $($af: $adef,)* }
            }
        }

        /// Every key the format knows, in canonical order.
        pub const KEYS: &[&str] = &[$($hk,)* $($ak,)* $($tk,)*];

        impl $q {
            /// Applies one registered key's value; `Ok(false)` when `key` is not one of them.
            fn set_registered(&mut self, key: &str, v: &str) -> Result<bool, QueryError> {
                match key {
                    $($hk => self.$hf = <_ as Codec<$ht>>::parse(&$hc, key, v)?,)*
                    $($ak => self.$arch.$af = <_ as Codec<$at>>::parse(&$ac, key, v)?,)*
                    $($tk => self.$tf = <_ as Codec<$tt>>::parse(&$tc, key, v)?,)*
                    _ => return Ok(false),
                }
                Ok(true)
            }

            /// One key's value as the canonical string spells it, whether or not it would be
            /// written there; `None` for an unset optional setting or an unknown key.
            pub fn value_of(&self, key: &str) -> Option<String> {
                match key {
                    $($hk => <_ as Codec<$ht>>::encode(&$hc, &self.$hf),)*
                    $($ak => <_ as Codec<$at>>::encode(&$ac, &self.$arch.$af),)*
                    $($tk => <_ as Codec<$tt>>::encode(&$tc, &self.$tf),)*
                    _ => None,
                }
            }

            /// The canonical string's pairs after `v`: each key whose value is written, in order.
            fn write_changed(&self, d: &Self, out: &mut Vec<(&'static str, String)>) {
                let mut push = |k: &'static str, v: Option<String>| out.extend(v.map(|v| (k, v)));
                $(if query_keys!(@written self, d, $hf $(, $hw)?) {
                    push($hk, <_ as Codec<$ht>>::encode(&$hc, &self.$hf));
                })*
                $(if self.$arch.$af != d.$arch.$af {
                    push($ak, <_ as Codec<$at>>::encode(&$ac, &self.$arch.$af));
                })*
                $(if query_keys!(@written self, d, $tf $(, $tw)?) {
                    push($tk, <_ as Codec<$tt>>::encode(&$tc, &self.$tf));
                })*
            }
        }

        /// The values a key accepts when they are a closed set ("a|b|c"; "0|1" for a
        /// switch); `None` for numbers, ids, lists and unknown keys.
        pub fn key_choices(key: &str) -> Option<String> {
            match key {
                $($hk => <_ as Codec<$ht>>::choices(&$hc),)*
                $($ak => <_ as Codec<$at>>::choices(&$ac),)*
                $($tk => <_ as Codec<$tt>>::choices(&$tc),)*
                _ => None,
            }
        }
    };
}
pub(crate) use query_keys;
