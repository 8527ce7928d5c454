//! placeholder: the Chart grammar as Rust types
