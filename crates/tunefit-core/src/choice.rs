//! String-valued settings of the query format.
//!
//! Each enum here is one key's set of accepted values. The spelling in `choice!` is the
//! public contract of the URL/CLI query format (docs/query.md): never rename a value.

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

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use choice;
