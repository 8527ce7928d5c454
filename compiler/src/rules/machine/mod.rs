//! The Machine front end's rules (parsing and static evaluation), one file each.

pub mod not_static;
pub mod ts_syntax;
pub mod unresolved_import;

use super::Rule;

/// Every rule of the Machine front end.
pub fn all() -> Vec<&'static Rule> {
    vec![&ts_syntax::TS_SYNTAX, &unresolved_import::UNRESOLVED_IMPORT, &not_static::NOT_STATIC]
}
