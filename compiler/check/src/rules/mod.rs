//! The rules: one file per rule, each starting with its documentation.
//!
//! A rule file declares its [`Rule`] with [`declare_rule!`], whose doc comment (what it refuses,
//! why, an example, the fix) is the single source of `docs/rules/<code>.md`, `jr2 explain <code>`
//! and the LSP hover. Then comes the check, then its tests. [`all`] lists every rule.

pub mod chart;
pub mod compat;
pub mod instance;
pub mod machine;
pub mod preflight;
pub mod walk;
pub mod walk_pick;

pub use diagnostics::{declare_rule, unindent_doc, Rule};

/// Every rule, in the order of the docs.
pub fn all() -> Vec<&'static Rule> {
    let mut rules = chart::all();
    rules.extend(compat::all());
    rules.extend(machine::all());
    rules.extend(instance::all());
    rules.extend(walk::all());
    rules.extend(walk_pick::all());
    rules.extend(preflight::all());
    rules.sort_by_key(|r| (r.rule.unwrap_or(0), r.code));
    rules
}

/// The rule with this code.
pub fn find(code: &str) -> Option<&'static Rule> {
    all().into_iter().find(|r| r.code == code)
}
