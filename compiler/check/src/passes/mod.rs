//! Passes over the IR.
pub mod slot_clash;
