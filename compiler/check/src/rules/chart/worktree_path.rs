use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::names;
use chart::lower::SrcClass;
use diagnostics::declare_rule;
use ir::SlotKind;

use super::input_shape::{has_references, inputs, repo_slots, shape_of, worktree_slot};

declare_rule! {
    /// Refuses a literal `worktree` or `path` of an Effect that is not `/work/<slot>/<name>` of a Repo Slot.
    ///
    /// ## Why
    /// A Worktree lives at `/work/<slot>/<name>`: `<slot>` is a Repo Slot, `<name>` one folder
    /// name that does not start with `.` or `-`. A wrong slot found at the door costs no pod. A
    /// value with a reference waits for its value: the Effect's start asks the same question.
    /// The check reads the keys `worktree` and `path` of every lent Effect whose shape has them
    /// (a cut's `path`, a command's or a push's `worktree`, and a schema's property of either name).
    ///
    /// ## Example
    /// With `"repoSlots": ["app"]`:
    /// ```json
    /// { "invoke": { "src": "cut", "input": { "path": "/work/api/fix-1", "branch": "fix-1" } } }
    /// ```
    /// is refused: `states.a.invoke.input.path: "/work/api/fix-1" names no Repo Slot of this
    /// Workspace; its Repo Slots: app`. And `"path": "fix-1"` is refused: `states.a.invoke.input.path:
    /// "fix-1" is not a Worktree path: /work/<slot>/<name>`.
    ///
    /// ## Use instead
    /// ```json
    /// { "invoke": { "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "fix-1" } } }
    /// ```
    pub static WORKTREE_PATH = { code: "worktree-path", rule: Some(8), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let slots = repo_slots(cx);
    for at in inputs(cx) {
        if at.class != SrcClass::Lent(SlotKind::Effect) || !at.is_object() {
            continue;
        }
        let Some(shaped) = shape_of(cx, at.inv.src) else { continue };
        let keys = &shaped.keys;
        for key in at.given() {
            if !matches!(key, "worktree" | "path") || !keys.iter().any(|k| k == key) {
                continue;
            }
            let Some(v) = at.value(key) else { continue };
            let Some(value) = v.as_str() else { continue };
            if has_references(value) {
                continue;
            }
            let text = match (worktree_slot(value), slots) {
                (None, _) => format!("\"{value}\" is not a Worktree path: /work/<slot>/<name>"),
                (Some(slot), Some(slots)) if !slots.iter().any(|s| s == slot) => {
                    format!("\"{value}\" names no Repo Slot of this Workspace; its Repo Slots: {}", names(slots))
                }
                _ => continue,
            };
            sink.line(&WORKTREE_PATH, v.span, &at.key_path(key), text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    const EFFECTS: &str = r#""cut": { "kind": "command", "cut": { "expect": "new" } }, "tests": { "kind": "command", "argv": ["npm", "test"] }"#;

    fn lines(input: &str, extra: &str) -> Vec<String> {
        lines_of("worktree-path", &chart_with(input), &lends_with(EFFECTS, extra))
    }

    #[test]
    fn refuses_a_path_that_is_not_a_worktree() {
        for bad in
            ["fix-1", "/work/app", "/work/app/", "/work/app/.hidden", "/work/app/-x", "/work/app/a/b", "/tmp/app/x"]
        {
            assert_eq!(
                lines(&format!(r#"{{ "src": "cut", "input": {{ "path": "{bad}", "branch": "b" }} }}"#), ""),
                [format!(
                    "worktree-path: states.a.invoke.input.path: \"{bad}\" is not a Worktree path: /work/<slot>/<name>"
                )]
            );
        }
        assert_eq!(
            lines(r#"{ "src": "tests", "input": { "worktree": "/work" } }"#, ""),
            ["worktree-path: states.a.invoke.input.worktree: \"/work\" is not a Worktree path: /work/<slot>/<name>"]
        );
    }

    #[test]
    fn refuses_a_slot_the_workspace_does_not_have() {
        assert_eq!(
            lines(r#"{ "src": "tests", "input": { "worktree": "/work/api/fix-1" } }"#, r#""repoSlots": ["app", "docs"]"#),
            ["worktree-path: states.a.invoke.input.worktree: \"/work/api/fix-1\" names no Repo Slot of this Workspace; its Repo Slots: app, docs"]
        );
        assert_eq!(
            lines(r#"{ "src": "tests", "input": { "worktree": "/work/api/fix-1" } }"#, r#""repoSlots": []"#),
            ["worktree-path: states.a.invoke.input.worktree: \"/work/api/fix-1\" names no Repo Slot of this Workspace; its Repo Slots: none"]
        );
    }

    #[test]
    fn admits_worktrees_and_references() {
        assert!(lines(
            r#"{ "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "b" } }"#,
            r#""repoSlots": ["app"]"#
        )
        .is_empty());
        // Slots unknown: any slot.
        assert!(lines(r#"{ "src": "tests", "input": { "worktree": "/work/api/fix-1" } }"#, "").is_empty());
        assert!(lines(r#"{ "src": "tests", "input": { "worktree": "/work/app/{{context.name}}" } }"#, "").is_empty());
        assert!(lines(r#"{ "src": "tests", "input": { "worktree": { "$ref": "context.tree" } } }"#, "").is_empty());
    }
}
