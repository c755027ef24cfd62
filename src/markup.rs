//! Markup as text, for the sections whose whole content changes on every input: the model's
//! summary, the fixes, the embed's header and the "providers must have" chips here; the cost
//! ranking, the GPU table and the memory curve in the lazily loaded module, with the
//! same builder.
//!
//! Why not `view!` there: each element, listener and reactive attribute of a `view!` is its
//! own code in the wasm, and re-rendering the 20-row cost table and its scatter through views
//! took about 5 ms of each slider move's 8 ms budget (measured with type-erased views, whose
//! rebuild removes and re-sets every attribute). These sections have no state of their own,
//! so they are written as one string and set as the element's `innerHTML` instead: one DOM
//! call, parsed natively.
//!
//! They are built as [`Html`] with [`write_html!`]: every part that is not a string literal
//! of the source is escaped, so offer and provider names from a shared link (custom offers)
//! or a model's name stay text without each call site remembering to escape them.

// The builder lives in the core, so the lazily loaded module's markup uses the same one.
pub use tunefit_core::markup::Html;
pub use tunefit_core::write_html;
