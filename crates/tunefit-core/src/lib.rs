//! tunefit-core: the fine-tuning memory, time and cost model.
//!
//! Pure Rust with no web, file or network dependencies: the page (wasm), the CLI and the tests
//! all call `evaluate`. Everything a person sees is computed here; front ends only render a
//! `Report` and turn controls into a `Query`.

// No function over 100 lines (clippy.toml): a longer one is split into its steps.
#![warn(clippy::too_many_lines)]

pub mod activation;
pub mod advice;
pub mod arch;
pub mod calibrate;
pub mod catalog;
mod choice;
pub mod cost;
pub mod dataset;
pub mod diag;
pub mod diffusion;
pub mod export;
pub mod fix;
pub mod framework;
pub mod hfconfig;
pub mod json;
pub mod markdown;
pub mod markup;
pub mod memory;
pub mod num;
pub mod plan;
pub mod prices;
pub mod query;
pub mod report;
pub mod settings;
pub mod share;
pub mod solve;
pub mod time;

pub use query::{Query, QueryError, QueryErrors};
pub use report::{evaluate, evaluate_with_timeline, Error, Report};
