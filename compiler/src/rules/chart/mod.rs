//! The Chart door's rules, one file each.

pub mod grammar;
pub mod json_syntax;

use super::Rule;

/// Every rule of the Chart door.
pub fn all() -> Vec<&'static Rule> {
    vec![&json_syntax::JSON_SYNTAX, &grammar::CHART_GRAMMAR]
}
