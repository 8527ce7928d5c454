//! Door compatibility's rules (ADR-0071): a dispatch slot's `input` schema against its callee's
//! door. [`crate::compat::compare`] finds; these rules word the findings as diagnostics, each in
//! the file it is in. In an Instance (`crate::doors`), the `foreign-door-*` rules word what a
//! foreign target's door gave, each a warning.

use crate::compat::{compare, Finding, Side};
use crate::rules::{Ctx, Sink};
use diagnostics::Diagnostic;
use syntax::json::Json;

family! {
    door_mismatch::DOOR_MISMATCH,
    door_not_compared::DOOR_NOT_COMPARED,
    foreign_door_mismatch::FOREIGN_DOOR_MISMATCH,
    foreign_door_missing::FOREIGN_DOOR_MISSING,
    foreign_door_not_detail::FOREIGN_DOOR_NOT_DETAIL,
    foreign_door_redirect::FOREIGN_DOOR_REDIRECT,
    foreign_door_unreachable::FOREIGN_DOOR_UNREACHABLE,
}

/// The diagnostics of one pair: the slot's file's and the door's file's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairReport {
    pub slot: Vec<Diagnostic>,
    pub door: Vec<Diagnostic>,
}

/// What the pair rules read: the findings of one comparison, and the side whose file is worded.
pub struct Compared<'a> {
    pub findings: &'a [Finding],
    pub side: Side,
}

/// Compares a slot's schema with a door's and words the findings, each side's in source order.
pub fn check(slot: &Json, door: &Json) -> PairReport {
    let findings = compare(slot, door);
    let side = |side: Side| {
        let cx = Ctx::new(Compared { findings: &findings, side });
        let mut sink = Sink::default();
        door_not_compared::check(&cx, &mut sink);
        door_mismatch::check(&cx, &mut sink);
        let mut out = sink.into_diagnostics();
        out.sort_by_key(|d| (d.span.start, d.span.end));
        out
    };
    PairReport { slot: side(Side::Slot), door: side(Side::Door) }
}

/// One pair rule's diagnostics over `findings` on `side`: for its unit tests.
#[cfg(test)]
pub(crate) fn run(check: fn(&Ctx<Compared>, &mut Sink), findings: &[Finding], side: Side) -> Vec<Diagnostic> {
    let mut sink = Sink::default();
    check(&Ctx::new(Compared { findings, side }), &mut sink);
    sink.into_diagnostics()
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
