//! The page's components, one job each.

pub mod advanced;
pub mod controls;
pub mod cost;
pub mod deferred;
pub mod diffusion;
pub mod gpu_table;
pub mod memory;
pub mod model;
pub mod notices;
pub mod plots;
pub mod settings;
pub mod summary;
pub mod timeline;
pub mod toolbar;
// Sharing, embed, own prices, config export, planning and calibration.
pub mod export;
pub mod fields;
pub mod plan;
pub mod prices;
pub mod share;
