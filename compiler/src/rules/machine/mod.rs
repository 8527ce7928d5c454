//! The Machine front end's rules, one file each: parsing and static evaluation (their checks live
//! in `machine/parse.rs` and `machine/eval.rs`), and lowering into the IR (`machine/lower.rs`).

pub mod event_schema;
pub mod inline_src;
pub mod not_lowered;
pub mod not_machine;
pub mod not_object;
pub mod not_static;
pub mod ts_syntax;
pub mod unknown_actor;
pub mod unknown_invoke_src;
pub mod unresolved_import;
pub mod unsupported;

use super::Rule;

/// Every rule of the Machine front end.
pub fn all() -> Vec<&'static Rule> {
    vec![
        &ts_syntax::TS_SYNTAX,
        &unresolved_import::UNRESOLVED_IMPORT,
        &not_static::NOT_STATIC,
        &not_machine::NOT_MACHINE,
        &not_object::NOT_OBJECT,
        &not_lowered::NOT_LOWERED,
        &unknown_invoke_src::UNKNOWN_INVOKE_SRC,
        &inline_src::INLINE_SRC,
        &unknown_actor::UNKNOWN_ACTOR,
        &unsupported::UNSUPPORTED,
        &event_schema::EVENT_SCHEMA,
    ]
}
