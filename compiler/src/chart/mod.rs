//! Charts: the grammar (as Rust types and JSON Schema), the lend manifest, the briefing, and the
//! door that admits or refuses a Chart against one Open body.
//!
//! Boundary: this module reads the spanned JSON tree of `syntax::json`; it never parses text
//! itself. The door lowers an admitted Chart into the IR (`crate::ir`).

pub mod briefing;
pub mod door;
pub mod grammar;
pub mod lends;
pub mod lower;
pub mod payload;
pub mod schema;

pub use door::{admit, Admission};
pub use lends::LendManifest;
pub use crate::syntax::json::Json;

/// The dotted path of a value as the door's lines name it (`states.review.invoke.0.input`);
/// the empty path is the Chart itself.
pub fn path_text(path: &str) -> &str {
    if path.is_empty() {
        "(chart)"
    } else {
        path
    }
}

/// Joins a path and a segment with a dot.
pub fn join(path: &str, segment: impl std::fmt::Display) -> String {
    if path.is_empty() {
        segment.to_string()
    } else {
        format!("{path}.{segment}")
    }
}

/// A list of names as the door's lines write it: comma-separated, or "none".
pub fn names<S: AsRef<str>>(xs: &[S]) -> String {
    if xs.is_empty() {
        "none".to_string()
    } else {
        xs.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(", ")
    }
}
