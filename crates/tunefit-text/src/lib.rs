//! What the page says and how it writes its figures: every UI string in both languages
//! (`i18n`), numbers, sizes, money and durations as a person reads them (`format`), and the
//! axes of the SVG plots (`svg_axis`). No web dependency: the page (tunefit-app) shows them,
//! and the lazily loaded module (tunefit-export) writes the sections that load with it, such
//! as the cost table, in the same words.

pub mod format;
pub mod i18n;
pub mod svg_axis;
