//! The page's components, one job each.

pub mod controls;
pub mod gpu_table;
pub mod memory;
pub mod model;
pub mod notices;
pub mod plots;
pub mod settings;
pub mod toolbar;
