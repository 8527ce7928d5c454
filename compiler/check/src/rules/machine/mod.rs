//! The Machine front end's rules, one file each: parsing and static evaluation (the front end finds
//! their faults in `machine/src/parse.rs` and `eval.rs`), and lowering into the IR (`lower.rs`).
//! The front end names no rule: [`rule_of`] is the one place a [`FaultKind`] becomes its rule, and
//! [`diagnostic`] the one place a [`Fault`] becomes a diagnostic.

use super::Rule;
use crate::compile::Located;
use diagnostics::Diagnostic;
use machine::{Fault, FaultKind};

family! {
    ts_syntax::TS_SYNTAX,
    unresolved_import::UNRESOLVED_IMPORT,
    not_static::NOT_STATIC,
    not_machine::NOT_MACHINE,
    not_object::NOT_OBJECT,
    not_lowered::NOT_LOWERED,
    unknown_invoke_src::UNKNOWN_INVOKE_SRC,
    inline_src::INLINE_SRC,
    unknown_actor::UNKNOWN_ACTOR,
    unsupported::UNSUPPORTED,
    event_schema::EVENT_SCHEMA,
}

/// The rule of a front-end fault. Five kinds share their rule with the Chart door's (a target, an
/// initial state, a text that is not JSON): one refusal, whichever front end read it.
pub fn rule_of(kind: FaultKind) -> &'static Rule {
    use super::chart;
    match kind {
        FaultKind::TsSyntax => &ts_syntax::TS_SYNTAX,
        FaultKind::UnresolvedImport => &unresolved_import::UNRESOLVED_IMPORT,
        FaultKind::NotStatic => &not_static::NOT_STATIC,
        FaultKind::NotMachine => &not_machine::NOT_MACHINE,
        FaultKind::NotObject => &not_object::NOT_OBJECT,
        FaultKind::NotLowered => &not_lowered::NOT_LOWERED,
        FaultKind::Unsupported => &unsupported::UNSUPPORTED,
        FaultKind::EventSchema => &event_schema::EVENT_SCHEMA,
        FaultKind::InlineSrc => &inline_src::INLINE_SRC,
        FaultKind::UnknownActor => &unknown_actor::UNKNOWN_ACTOR,
        FaultKind::UnknownInvokeSrc => &unknown_invoke_src::UNKNOWN_INVOKE_SRC,
        FaultKind::MissingInitial => &chart::missing_initial::MISSING_INITIAL,
        FaultKind::UnknownInitial => &chart::unknown_initial::UNKNOWN_INITIAL,
        FaultKind::UnknownTarget => &chart::unknown_target::UNKNOWN_TARGET,
        FaultKind::AmbiguousTarget => &chart::ambiguous_target::AMBIGUOUS_TARGET,
        FaultKind::JsonSyntax => &chart::json_syntax::JSON_SYNTAX,
    }
}

/// A front-end fault as its rule's diagnostic, in its file. A Machine's diagnostic carries no door
/// rule number (those number the Chart door's lines) and its config path only where it has one.
pub fn diagnostic(fault: Fault) -> Located {
    let rule = rule_of(fault.kind);
    let mut d = Diagnostic::new(rule.code, rule.severity, fault.loc.span, fault.message);
    if !fault.path.is_empty() {
        d = d.with_path(fault.path);
    }
    if let Some(help) = fault.help {
        d = d.with_help(help);
    } else if fault.kind == FaultKind::NotStatic && !d.message.starts_with("internal error") {
        d = d.with_help(NOT_STATIC_HELP);
    }
    Located { file: fault.loc.file, diagnostic: d }
}

/// What every `not-static` warning says beside its own message (issue 17): that a Workflow is
/// read without being run, and what to write instead.
pub const NOT_STATIC_HELP: &str = "jr2 reads a Workflow without running it, so it knows only what the source says: write this value as a literal, a `const` of literals, an import of the Instance's own files, or a call of the kit, xstate or zod (functions such as input mappers and guards may stay code)";

#[cfg(test)]
mod tests {
    use super::*;

    /// A fault's kind serializes as its rule's code (the front end's snapshots name it so).
    #[test]
    fn every_kind_serializes_as_its_rules_code() {
        for kind in FaultKind::ALL {
            let name = serde_json::to_value(kind).unwrap();
            assert_eq!(name.as_str(), Some(rule_of(*kind).code), "{kind:?}");
        }
    }
}
