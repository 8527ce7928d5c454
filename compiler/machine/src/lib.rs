//! Machines: TypeScript Workflows read statically into the IR.
//!
//! The pipeline: `parse` (oxc) → `eval` (the static evaluator: module graph, `const` bindings,
//! literals, the authoring surface's calls as data, functions with facts) → `zod` (zod schemas to
//! JSON Schema) → `lower` (the `createMachine` config into `ir::Machine`, each slot's definition
//! read by `slots`) → `parts` (what a Machine carries, `jr2 parts`).
//!
//! Boundary: only `parse.rs` and `eval.rs` know oxc; everything after reads `value::Value`. The
//! front end names no rule: what it cannot read is a [`Fault`] of a [`FaultKind`], which the check
//! layer turns into its rule's diagnostic.

pub mod eval;
pub mod fault;
pub mod lower;
pub mod module;
pub mod parse;
pub mod parts;
pub mod slots;
#[cfg(test)]
pub(crate) mod testing;
pub mod value;
pub mod zod;

pub use eval::{evaluate_file, evaluate_text, evaluate_with};
pub use fault::{Fault, FaultKind};
pub use module::{Disk, Sources};
pub use module::{Evaluated, SourceFile};
