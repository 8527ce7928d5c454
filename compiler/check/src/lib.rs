//! The checks: everything that turns what the front ends read into diagnostics. The Chart door's
//! driver (`door`), every rule (`rules`, one file each, one registry), the passes over the IR
//! (`passes`), a Workflow's compilation with its faults placed and the walk run (`compile`),
//! ADR-0071's door compatibility (`compat`), door compatibility in an Instance (`doors`), the
//! Instance check (`instance`) and the pre-flight of `jr2 up` (`preflight`).
//!
//! See `ARCHITECTURE.md` at the repository root for the crate graph and the layer invariants.

// The integration tests' fixture harness (`tests/it/fixture.rs`), which the unit tests share,
// names this crate `check`.
#[cfg(test)]
extern crate self as check;

pub(crate) mod compat;
pub mod compile;
pub mod door;
pub mod doors;
pub mod instance;
pub(crate) mod passes;
pub mod preflight;
pub mod rules;
pub mod suppress;

pub use compile::{compile_file, compile_text, compile_with, Compiled, Located};
pub use door::{admit, Admission};
