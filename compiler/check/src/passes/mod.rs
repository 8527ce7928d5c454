//! Passes over the IR.
pub(crate) mod slot_clash;
