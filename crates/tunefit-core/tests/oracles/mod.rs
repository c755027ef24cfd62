//! Published closed forms the memory model is checked against (tests only).
pub mod korthikanti;
pub mod sharding;
