//! The rules: one file per rule, each starting with its documentation.
//!
//! A rule file declares its [`Rule`] with [`declare_rule!`], whose doc comment (what it refuses,
//! why, an example, the fix) is the single source of `docs/rules/<code>.md`, `jr2 explain <code>`
//! and the LSP hover. Then comes the check, then its tests. Each family's `mod.rs` lists its rules
//! once ([`family!`]); [`all`] is the registry, every family's rules.

/// Declares a family of rules, each listed once: its file's module and its [`Rule`], and, after
/// `=> check`, that it has a pass the family runs. The list writes the family's `pub mod` items,
/// its `all()` (the rules in the order listed) and, with `checks: TYPE;` first, its `CHECKS` (the
/// passes, in the order listed: the order they run in). A new rule is one file and one line here
/// (`scripts/new-rule.sh` writes both, with the rule's fixture folder).
///
/// ```text
/// family! {
///     checks: fn(&Ctx, &mut Sink);
///     json_syntax::JSON_SYNTAX,                 // run by the door itself
///     unknown_target::UNKNOWN_TARGET => check,  // in CHECKS
/// }
/// ```
macro_rules! family {
    (checks: $check:ty; $( $module:ident :: $rule:ident $(=> $run:ident)? ),* $(,)?) => {
        family!($( $module :: $rule ),*);

        /// The passes of this family's rules, in the order they run.
        pub(crate) static CHECKS: &[$check] = &[ $( $( $module::$run, )? )* ];
    };
    ($( $module:ident :: $rule:ident ),* $(,)?) => {
        $( pub mod $module; )*

        /// Every rule of this family, in the order listed.
        pub fn all() -> Vec<&'static $crate::rules::Rule> {
            vec![ $( &$module::$rule ),* ]
        }
    };
}

pub mod chart;
pub mod compat;
pub mod config;
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
    rules.extend(config::all());
    rules.sort_by_key(|r| (r.rule.unwrap_or(0), r.code));
    rules
}

/// The rule with this code.
pub fn find(code: &str) -> Option<&'static Rule> {
    all().into_iter().find(|r| r.code == code)
}
