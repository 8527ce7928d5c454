//! Door compatibility's rules (ADR-0071): a dispatch slot's `input` schema against its callee's
//! door. [`crate::compat::compare`] finds; these rules word what it found, and in an Instance
//! (`crate::doors`) what a callee's door gave short of a comparison: a same-Instance callee with
//! no door, a schema with no JSON Schema reading, and, the `foreign-door-*` rules, each a warning,
//! what a foreign target's door answered.
//!
//! Each rule is a pass `fn check(cx: &Ctx<Subject>, sink: &mut Sink)` over one subject: a finding
//! of a pair compared alone (`jr2 schema compat`), a finding at a dispatch, or what a dispatch's
//! door read gave. Each subject is worded by one rule at most.

use crate::compat::{compare, Finding, Side};
use crate::rules::{Ctx, Sink};
use base::Loc;
use diagnostics::Diagnostic;
use syntax::json::Json;

// In the order they run: over a pair's findings, the parts not compared before the mismatches.
family! {
    checks: Subject<'_>;
    door_not_compared::DOOR_NOT_COMPARED => check,
    door_mismatch::DOOR_MISMATCH => check,
    foreign_door_mismatch::FOREIGN_DOOR_MISMATCH => check,
    foreign_door_missing::FOREIGN_DOOR_MISSING => check,
    foreign_door_not_detail::FOREIGN_DOOR_NOT_DETAIL => check,
    foreign_door_redirect::FOREIGN_DOOR_REDIRECT => check,
    foreign_door_unreachable::FOREIGN_DOOR_UNREACHABLE => check,
}

/// What a door rule reads.
pub(crate) enum Subject<'a> {
    /// A finding of a schema pair compared alone, worded in `side`'s file (only that side's).
    Pair { finding: &'a Finding, side: Side },
    /// A finding of a dispatch's slot against its callee's door, worded at the slot's `input`.
    Dispatch { at: &'a AtDispatch<'a>, finding: &'a Finding },
    /// What a dispatch's callee door gave short of a comparison.
    Read { at: &'a AtDispatch<'a>, read: Read<'a> },
}

/// A `dispatch(name, { input, target })` of an Instance whose door is checked.
pub(crate) struct AtDispatch<'a> {
    /// The callee's name, as written.
    pub callee: &'a str,
    /// The slot's `input` key, where a comparison's findings are worded (`None`: no slot).
    pub input: Option<Loc>,
    /// A foreign target's door: `None` for a same-Instance callee.
    pub foreign: Option<Foreign<'a>>,
}

/// A foreign target's door: its address, and the target's `url`, where what it answered is worded.
pub(crate) struct Foreign<'a> {
    pub address: &'a str,
    pub url: Loc,
}

/// What a dispatch's callee door gave, short of a comparison.
pub(crate) enum Read<'a> {
    /// The same-Instance callee declares no input schema; `whose` names it (`"review"`, or the
    /// wrapper of a named Chart).
    Undeclared { whose: &'a str },
    /// One of the pair's zod schemas has no JSON Schema reading: `what` is "the door" or "the
    /// slot's schema", `why` the converter's reason (may be empty).
    Unread { what: &'a str, why: &'a str },
    /// The foreign door's `GET` reached no Instance.
    Unreachable { reason: &'a str },
    /// It answered a redirect (its status, and its `Location` where it gave one).
    Redirect { status: u16, location: Option<&'a str> },
    /// It answered 404.
    Missing,
    /// It answered something that is no Workflow detail: `what` it was.
    NotDetail { what: &'a str },
}

/// Runs every door rule on one subject.
pub(crate) fn run(subject: Subject<'_>, sink: &mut Sink) {
    let cx = Ctx::new(subject);
    for check in CHECKS {
        check(&cx, sink);
    }
}

/// The diagnostics of one pair: the slot's file's and the door's file's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairReport {
    pub slot: Vec<Diagnostic>,
    pub door: Vec<Diagnostic>,
}

/// Compares a slot's schema with a door's and words the findings, each side's in source order
/// (at one place, in the order the rules run).
pub fn check(slot: &Json, door: &Json) -> PairReport {
    let findings = compare(slot, door);
    let side = |side: Side| {
        let mut sink = Sink::default();
        for check in CHECKS {
            for finding in &findings {
                check(&Ctx::new(Subject::Pair { finding, side }), &mut sink);
            }
        }
        let mut out = sink.into_diagnostics();
        out.sort_by_key(|d| (d.span.start, d.span.end));
        out
    };
    PairReport { slot: side(Side::Slot), door: side(Side::Door) }
}

/// One rule's diagnostics over a pair's `findings` on `side`: for its unit tests.
#[cfg(test)]
pub(crate) fn run_pair(check: fn(&Ctx<Subject>, &mut Sink), findings: &[Finding], side: Side) -> Vec<Diagnostic> {
    let mut sink = Sink::default();
    for finding in findings {
        check(&Ctx::new(Subject::Pair { finding, side }), &mut sink);
    }
    sink.into_diagnostics()
}

/// Every rule's diagnostics on one subject: for their unit tests.
#[cfg(test)]
pub(crate) fn run_alone(subject: Subject<'_>) -> Vec<Diagnostic> {
    let mut sink = Sink::default();
    run(subject, &mut sink);
    sink.into_diagnostics()
}

/// The one diagnostic of one subject: for the rules' unit tests.
#[cfg(test)]
pub(crate) fn one(subject: Subject<'_>) -> Diagnostic {
    let found = run_alone(subject);
    assert_eq!(found.len(), 1, "{found:#?}");
    found.into_iter().next().expect("one")
}

/// A dispatch of `review` whose slot's `input` is at `input` of file 0, to `address` if foreign
/// (its url at `url`): for the rules' unit tests.
#[cfg(test)]
pub(crate) fn review<'a>(input: base::Span, foreign: Option<(&'a str, base::Span)>) -> AtDispatch<'a> {
    let file = base::FileId(0);
    AtDispatch {
        callee: "review",
        input: Some(Loc::new(file, input)),
        foreign: foreign.map(|(address, url)| Foreign { address, url: Loc::new(file, url) }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::PAIRS;
    use diagnostics::FileReport;
    use render::human;
    use syntax::json::{parse, Arena};

    /// Each pair of `compat.rs`'s table, rendered as `jr2 schema compat` prints it.
    #[test]
    fn rendered_pairs() {
        for (name, slot, door, _) in PAIRS {
            let arena = Arena::new();
            let report = check(&parse(slot, &arena).value, &parse(door, &arena).value);
            let reports = [
                FileReport { path: "slot.json".into(), text: slot.to_string(), diagnostics: report.slot },
                FileReport { path: "door.json".into(), text: door.to_string(), diagnostics: report.door },
            ];
            insta::assert_snapshot!(*name, human::render(&reports, false));
        }
    }
}
