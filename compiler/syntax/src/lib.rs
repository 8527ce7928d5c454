//! Syntax: source text to trees. Knows nothing of Charts, rules, salsa or LSP.
//!
//! Invariant: a parser never fails and never panics; it returns a tree and its errors.

pub mod json;
