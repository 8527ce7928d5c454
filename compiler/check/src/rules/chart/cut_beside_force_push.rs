use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::names;
use chart::lower::SrcClass;
use diagnostics::declare_rule;
use ir::SlotKind;
use kit::lends::CutExpect;

use super::input_shape::{effect_parts, inputs, lent_force_push, lent_new_cuts};

declare_rule! {
    /// Refuses an invoke of a lent cut with `expect: "existing"` beside a lent push that forces.
    ///
    /// ## Why
    /// A push publishes the branch of a cut's row, and that row stays in the run's ledger: a Chart
    /// that cuts an existing branch and a later Chart that force-pushes are the same pair. Together
    /// they can force-push any existing branch, so the test is what the body lends, not what this
    /// Chart invokes.
    ///
    /// ## Example
    /// With `"cut": { "kind": "command", "cut": { "expect": "existing" } }`, `"fresh": { "kind":
    /// "command", "cut": { "expect": "new" } }` and `"force": { "kind": "push", "force": true }`
    /// lent:
    /// ```json
    /// { "invoke": { "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "main" } } }
    /// ```
    /// is refused: `` states.a.invoke.input: the lent cut "cut" states `expect: "existing"` beside
    /// the lent force push "force", and together they can force-push any existing branch; use a
    /// lent cut with `expect: "new"`: fresh ``. Where no such cut is lent, the line ends `` this Open
    /// body lends no cut with `expect: "new"`, so a Chart cannot cut here (`worktree({ expect:
    /// "new" })` would); lent: …; kit: …; minted: … ``.
    ///
    /// ## Use instead
    /// A lent cut with `expect: "new"`.
    pub static CUT_BESIDE_FORCE_PUSH = { code: "cut-beside-force-push", rule: Some(8), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(force) = lent_force_push(cx) else { return };
    for at in inputs(cx) {
        if at.class != SrcClass::Lent(SlotKind::Effect) {
            continue;
        }
        let Some(cut) = effect_parts(cx, at.inv.src).and_then(|p| p.cut()) else { continue };
        if cut.expect != Some(CutExpect::Existing) {
            continue;
        }
        let fresh = lent_new_cuts(cx);
        let fix = if fresh.is_empty() {
            format!(
                "this Open body lends no cut with `expect: \"new\"`, so a Chart cannot cut here (`worktree({{ expect: \"new\" }})` would); {}",
                cx.lent_text()
            )
        } else {
            format!("use a lent cut with `expect: \"new\"`: {}", names(&fresh))
        };
        sink.line(
            &CUT_BESIDE_FORCE_PUSH,
            at.span(),
            &at.ipath,
            format!(
                "the lent cut \"{}\" states `expect: \"existing\"` beside the lent force push \"{force}\", and together they can force-push any existing branch; {fix}",
                at.inv.src
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    const INVOKE: &str = r#"{ "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "main" } }"#;
    const CUT: &str = r#""cut": { "kind": "command", "cut": { "expect": "existing" } }"#;
    const FORCE: &str = r#""force": { "kind": "push", "force": true }"#;

    #[test]
    fn names_a_lent_cut_that_makes_a_new_branch() {
        let lends = lends_with(
            &format!(r#"{CUT}, {FORCE}, "fresh": {{ "kind": "command", "cut": {{ "expect": "new" }} }}"#),
            "",
        );
        assert_eq!(
            lines_of("cut-beside-force-push", &chart_with(INVOKE), &lends),
            ["cut-beside-force-push: states.a.invoke.input: the lent cut \"cut\" states `expect: \"existing\"` beside the lent force push \"force\", and together they can force-push any existing branch; use a lent cut with `expect: \"new\"`: fresh"]
        );
    }

    #[test]
    fn says_a_chart_cannot_cut_where_no_such_cut_is_lent() {
        let lends = lends_with(&format!("{CUT}, {FORCE}"), "");
        assert_eq!(
            lines_of("cut-beside-force-push", &chart_with(INVOKE), &lends),
            ["cut-beside-force-push: states.a.invoke.input: the lent cut \"cut\" states `expect: \"existing\"` beside the lent force push \"force\", and together they can force-push any existing branch; this Open body lends no cut with `expect: \"new\"`, so a Chart cannot cut here (`worktree({ expect: \"new\" })` would); lent: writer (agent), reader (agent), cut (effect), force (effect); kit: gate, fail; minted: none"]
        );
    }

    #[test]
    fn admits_an_existing_cut_beside_a_push_that_does_not_force() {
        let lends = lends_with(&format!(r#"{CUT}, "push": {{ "kind": "push", "force": false }}"#), "");
        assert!(lines_of("cut-beside-force-push", &chart_with(INVOKE), &lends).is_empty());
    }
}
