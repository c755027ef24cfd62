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

// The escaper lives in the core, so the lazily loaded module's markup uses the same one.
pub use tunefit_core::markup::{esc, Esc};
