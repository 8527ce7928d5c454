//! The jr2 kit's authoring surface as data, shared by the front ends and the runtime: the lend
//! manifest of an Open body (what a Chart may name: Agents, Effects, Gates, guards, actions).
//! Knows no parser and no rule.

pub mod lends;

pub use lends::LendManifest;
