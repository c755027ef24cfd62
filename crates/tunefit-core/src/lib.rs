//! tunefit-core: the fine-tuning memory, time and cost model.
//!
//! Pure Rust with no web, file or network dependencies: the page (wasm), the CLI and the tests
//! all call `evaluate`. Everything a person sees is computed here; front ends only render a
//! `Report` and turn controls into a `Query`.

pub mod activation;
pub mod arch;
pub mod catalog;
mod choice;
pub mod dataset;
pub mod framework;
pub mod hfconfig;
pub mod memory;
pub mod query;
pub mod report;
pub mod solve;

pub use query::{Query, QueryError, QueryErrors};
pub use report::{evaluate, Error, Report};
