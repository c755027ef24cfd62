//! What goes wrong or needs a person's attention: `Error` (a query that cannot be evaluated)
//! and `Warning` (a caution beside a result). The bottom of the core: every module may use
//! these, and this file uses nothing of the core but the query's own error type.

use serde::Serialize;
use std::fmt;

/// Why a query could not be evaluated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Error {
    /// The query string itself is malformed.
    Query(crate::query::QueryErrors),
    /// The query is well-formed but describes something impossible (named key, reason).
    Invalid { key: String, message: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Query(e) => write!(f, "{e}"),
            Error::Invalid { key, message } => write!(f, "{key}: {message}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<crate::query::QueryErrors> for Error {
    fn from(e: crate::query::QueryErrors) -> Self {
        Error::Query(e)
    }
}

/// A caution the person should read, with a stable code for tests and translations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    pub code: String,
    pub message: String,
}
