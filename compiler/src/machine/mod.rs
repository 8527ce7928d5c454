//! Machines: TypeScript Workflows read statically into the IR.
//!
//! The pipeline: `parse` (oxc) → `eval` (the static evaluator: module graph, `const` bindings,
//! literals, the authoring surface's calls as data, functions with facts) → `zod` (zod schemas to
//! JSON Schema) → `lower` (the `createMachine` config into `ir::Machine`) → `parts` (what a
//! Machine carries, `jr2 parts`).
//!
//! Boundary: only `parse.rs` and `eval.rs` know oxc; everything after reads `value::Value`.

pub mod compile;
pub mod eval;
pub mod lower;
pub mod module;
pub mod parse;
pub mod parts;
#[cfg(test)]
pub(crate) mod testing;
pub mod value;
pub mod zod;

pub use compile::{compile_file, compile_text, compile_with, Compiled};
pub use eval::{evaluate_file, evaluate_text, evaluate_with};
pub use module::{Disk, Sources};
pub use module::{Evaluated, SourceFile};
