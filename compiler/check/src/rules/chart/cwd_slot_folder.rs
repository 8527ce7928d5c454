use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

use super::agent_input::{agent_inputs, works_in_workspace};
use super::input_shape::{has_references, repo_slots, slot_folder_fault};

declare_rule! {
    /// Refuses a literal `cwd` of an Agent's Turn that is a Repo Slot's folder, `/work/<slot>`.
    ///
    /// ## Why
    /// A Repo Slot's folder is no Worktree: the slot's Worktrees are folders inside it. A Turn
    /// there searches `default/` and every other Worktree, and a relative write lands outside
    /// each Worktree (ADR-0057, ADR-0075). The path is read as `path.posix.normalize` reads it,
    /// so `/work/app/`, `/work//app` and `/work/app/x/..` are the slot's folder too. A `cwd` with
    /// a reference waits for its value: the Open body asks the same question when the Turn
    /// starts. An Agent with `workspace: "none"` frames nothing and is not checked.
    ///
    /// ## Example
    /// With `"repoSlots": ["app"]`:
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Fix the tests.", "cwd": "/work/app" } } }
    /// ```
    /// is refused: `` states.a.invoke.input.cwd: "/work/app" is a Repo Slot's folder, not a
    /// Worktree; `cwd` is a Worktree that a cut made, "/work/app/<name>", or "/work/app/default"
    /// to read, or "/work" ``.
    ///
    /// ## Use instead
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Fix the tests.", "cwd": "/work/app/fix-1" } } }
    /// ```
    pub static CWD_SLOT_FOLDER = { code: "cwd-slot-folder", rule: Some(8), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let slots = repo_slots(cx).unwrap_or_default();
    for at in agent_inputs(cx) {
        if !at.is_object() {
            continue;
        }
        let Some(cwd) = at.value("cwd") else { continue };
        let Some(text) = cwd.as_str() else { continue };
        if has_references(text) || !works_in_workspace(cx, at) {
            continue;
        }
        if let Some(fault) = slot_folder_fault(text, slots) {
            sink.line(&CWD_SLOT_FOLDER, cwd.span, &at.key_path("cwd"), fault);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    fn lines(agent: &str, cwd: &str) -> Vec<String> {
        let invoke = format!(r#"{{ "src": "{agent}", "input": {{ "prompt": "Fix.", "cwd": "{cwd}" }} }}"#);
        lines_of("cwd-slot-folder", &chart_with(&invoke), &lends_with("", r#""repoSlots": ["app"]"#))
    }

    #[test]
    fn refuses_a_slot_folder() {
        for cwd in ["/work/app", "/work/app/", "/work//app", "/work/app/x/..", "/work/./app/."] {
            assert_eq!(
                lines("writer", cwd),
                [format!("cwd-slot-folder: states.a.invoke.input.cwd: \"{cwd}\" is a Repo Slot's folder, not a Worktree; `cwd` is a Worktree that a cut made, \"/work/app/<name>\", or \"/work/app/default\" to read, or \"/work\"")]
            );
        }
    }

    #[test]
    fn admits_worktrees_other_folders_references_and_agents_outside_the_workspace() {
        assert!(lines("writer", "/work/app/fix-1").is_empty());
        assert!(lines("writer", "/work/app/default").is_empty());
        assert!(lines("writer", "/work").is_empty());
        assert!(lines("writer", "/work/docs").is_empty());
        assert!(lines("writer", "/work/{{context.slot}}").is_empty());
        assert!(lines("reader", "/work/app").is_empty());
        // Slots unknown: the Turn's start asks.
        let invoke = r#"{ "src": "writer", "input": { "prompt": "Fix.", "cwd": "/work/app" } }"#;
        assert!(lines_of("cwd-slot-folder", &chart_with(invoke), &lends_with("", "")).is_empty());
    }
}
