use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use chart::lower::SrcClass;
use diagnostics::declare_rule;
use ir::SlotKind;

use super::input_shape::{effect_parts, inputs};

declare_rule! {
    /// Refuses a cut's input that has both `detach` and `from`.
    ///
    /// ## Why
    /// A detached cut makes a Worktree at a commit with no branch; `from` is where a new branch
    /// starts. With no branch there is nothing for `from` to start, so the pair says two things
    /// at once.
    ///
    /// ## Example
    /// ```json
    /// { "invoke": { "src": "cut", "input": { "path": "/work/app/look", "detach": "main", "from": "main" } } }
    /// ```
    /// is refused: `` states.a.invoke.input: a detached cut takes no `from` ``.
    ///
    /// ## Use instead
    /// ```json
    /// { "invoke": { "src": "cut", "input": { "path": "/work/app/look", "detach": "main" } } }
    /// ```
    pub static DETACHED_CUT_FROM = { code: "detached-cut-from", rule: Some(8), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for at in inputs(cx) {
        if at.class != SrcClass::Lent(SlotKind::Effect) || !at.is_object() {
            continue;
        }
        if effect_parts(cx, at.inv.src).and_then(|p| p.cut()).is_none() {
            continue;
        }
        let given = at.given();
        if given.contains(&"detach") && given.contains(&"from") {
            sink.line(&DETACHED_CUT_FROM, at.span(), &at.ipath, "a detached cut takes no `from`");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    fn lines(input: &str) -> Vec<String> {
        let lends = lends_with(r#""cut": { "kind": "command", "cut": { "expect": "new" } }"#, "");
        lines_of("detached-cut-from", &chart_with(&format!(r#"{{ "src": "cut", "input": {input} }}"#)), &lends)
    }

    #[test]
    fn refuses_detach_with_from() {
        assert_eq!(
            lines(r#"{ "path": "/work/app/look", "detach": "main", "from": "main" }"#),
            ["detached-cut-from: states.a.invoke.input: a detached cut takes no `from`"]
        );
    }

    #[test]
    fn admits_detach_or_branch_with_from() {
        assert!(lines(r#"{ "path": "/work/app/look", "detach": "main" }"#).is_empty());
        assert!(lines(r#"{ "path": "/work/app/fix", "branch": "fix", "from": "main" }"#).is_empty());
    }
}
