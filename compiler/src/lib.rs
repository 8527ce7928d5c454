//! jr2's compiler: front ends (spanned JSON for Charts), the Chart grammar and door, the IR and
//! its passes, and diagnostics as data with one renderer per output format.
//!
//! See `ARCHITECTURE.md` at the repository root for the pipeline and the layer invariants.

// The integration tests' fixture harness (`tests/it/fixture.rs`), which the unit tests share,
// names this crate `compiler`.
#[cfg(test)]
extern crate self as compiler;

pub mod chart;
pub mod compat;
pub mod db;
pub mod diagnostics;
pub mod doors;
pub mod instance;
pub mod ir;
pub mod machine;
pub mod passes;
pub mod preflight;
pub mod rules;
pub mod syntax;

pub use diagnostics::{Diagnostic, Severity};
pub use syntax::span::Span;
