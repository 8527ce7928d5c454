//! Charts: the grammar (as Rust types and JSON Schema), the lend manifest, the briefing, and the
//! door that admits or refuses a Chart against one Open body.
//!
//! Boundary: this module reads the spanned JSON tree of `syntax::json`; it never parses text
//! itself. The door lowers an admitted Chart into the IR (`ir`).

pub mod briefing;
pub mod grammar;
pub mod lower;
pub mod payload;
pub mod schema;

pub use kit::lends::{self, LendManifest};
pub use syntax::json::Json;
