use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::names;
use chart::lower::SrcClass;
use diagnostics::declare_rule;
use ir::SlotKind;

use super::input_shape::{effect_parts, inputs, lent_new_cuts};

declare_rule! {
    /// Refuses an invoke of a lent cut that does not state `expect`.
    ///
    /// ## Why
    /// A cut (`worktree()`) makes a Worktree on a branch. Whether that branch must be new or may
    /// already exist is its `expect`, and it is static: the Open body states it, and a Chart
    /// cannot. A cut that does not state it would let a planner's branch name land on someone
    /// else's branch.
    ///
    /// ## Example
    /// With `"cut": { "kind": "command", "cut": {} }` lent and `"fresh": { "kind": "command",
    /// "cut": { "expect": "new" } }` lent beside it:
    /// ```json
    /// { "invoke": { "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "fix-1" } } }
    /// ```
    /// is refused: `` states.a.invoke.input: the lent cut "cut" does not state `expect`, so a Chart
    /// cannot use it; use a lent cut with `expect: "new"`: fresh ``. Where no such cut is lent,
    /// the line ends `` the Open body must state it (`worktree({ expect: "new" })` would); lent:
    /// …; kit: …; minted: … ``.
    ///
    /// ## Use instead
    /// A lent cut with `expect: "new"`, or have the Open body state its cut's `expect`.
    pub static CUT_WITHOUT_EXPECT = { code: "cut-without-expect", rule: Some(8), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for at in inputs(cx) {
        if at.class != SrcClass::Lent(SlotKind::Effect) {
            continue;
        }
        let Some(cut) = effect_parts(cx, at.inv.src).and_then(|p| p.cut()) else { continue };
        if cut.expect.is_some() {
            continue;
        }
        let fresh = lent_new_cuts(cx);
        let fix = if fresh.is_empty() {
            format!("the Open body must state it (`worktree({{ expect: \"new\" }})` would); {}", cx.lent_text())
        } else {
            format!("use a lent cut with `expect: \"new\"`: {}", names(&fresh))
        };
        sink.line(
            &CUT_WITHOUT_EXPECT,
            at.span(),
            &at.ipath,
            format!("the lent cut \"{}\" does not state `expect`, so a Chart cannot use it; {fix}", at.inv.src),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    const INVOKE: &str = r#"{ "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "fix-1" } }"#;

    #[test]
    fn names_a_lent_cut_that_makes_a_new_branch() {
        let lends = lends_with(
            r#""cut": { "kind": "command", "cut": {} }, "fresh": { "kind": "command", "cut": { "expect": "new" } }"#,
            "",
        );
        assert_eq!(
            lines_of("cut-without-expect", &chart_with(INVOKE), &lends),
            ["cut-without-expect: states.a.invoke.input: the lent cut \"cut\" does not state `expect`, so a Chart cannot use it; use a lent cut with `expect: \"new\"`: fresh"]
        );
    }

    #[test]
    fn asks_the_open_body_where_no_such_cut_is_lent() {
        let lends = lends_with(r#""cut": { "kind": "command", "cut": {} }"#, "");
        assert_eq!(
            lines_of("cut-without-expect", &chart_with(INVOKE), &lends),
            ["cut-without-expect: states.a.invoke.input: the lent cut \"cut\" does not state `expect`, so a Chart cannot use it; the Open body must state it (`worktree({ expect: \"new\" })` would); lent: writer (agent), reader (agent), cut (effect); kit: gate, fail; minted: none"]
        );
    }

    #[test]
    fn admits_a_cut_that_states_expect() {
        let lends = lends_with(r#""cut": { "kind": "command", "cut": { "expect": "new" } }"#, "");
        assert!(lines_of("cut-without-expect", &chart_with(INVOKE), &lends).is_empty());
    }
}
