use base::Span;
use diagnostics::declare_rule;
use diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// Refuses a Workflow whose file stem is outside `[a-z0-9-]`, naming the rename.
    ///
    /// ## Why
    /// A Workflow is named by its filename stem (ADR-0071), and that one name is what `jr2 run`
    /// takes, what the door's path `POST /workflows/<name>/runs` holds and what a `dispatch` slot
    /// names: one set of Workflows. So a stem outside `[a-z0-9-]` is refused at load. A named
    /// Chart's file stem is the second half of its name (`notes/weekly`) and is held to the same
    /// letters.
    ///
    /// ## Example
    /// `workflows/Fix_Tests.ts` is refused: `the Workflow name "Fix_Tests" (its file's stem) is
    /// outside [a-z0-9-]; rename workflows/Fix_Tests.ts to workflows/fix-tests.ts`.
    ///
    /// ## Use instead
    /// ```text
    /// workflows/fix-tests.ts
    /// ```
    /// and `dispatch("fix-tests", ...)`, `jr2 run fix-tests` where it is named.
    pub static WORKFLOW_STEM = { code: "workflow-stem", rule: None, severity: Error };
}

/// Is `name` a Workflow name: one or more of `[a-z0-9-]`?
pub fn is_valid(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The name to rename a stem to: lower case, every run of other characters one `-`, none at
/// either end (`Fix_Tests` → `fix-tests`, `fixTests` → `fixtests`).
pub fn suggested(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    if out.is_empty() {
        "workflow".to_string()
    } else {
        out
    }
}

/// The refusal of a stem: `what` is "Workflow" or "Chart", `shown` the file as the user sees it,
/// `renamed` the same path with the suggested stem. Its fix renames the file so.
pub fn diagnostic(what: &str, stem: &str, shown: &str, renamed: &str) -> Diagnostic {
    let name = renamed.rsplit('/').next().unwrap_or(renamed);
    WORKFLOW_STEM
        .at(
            Span::new(0, 0),
            format!("the {what} name \"{stem}\" (its file's stem) is outside [a-z0-9-]; rename {shown} to {renamed}"),
        )
        .with_note("`jr2 run`, the door's path and a `dispatch` slot name one set of Workflows, by file stem")
        .with_fix(Fix::rename(format!("rename the file to {name}"), name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_valid("fix-tests") && is_valid("a1"));
        for bad in ["Fix", "fix_tests", "fix.tests", "", "fix tests"] {
            assert!(!is_valid(bad), "{bad}");
        }
        assert_eq!(suggested("Fix_Tests"), "fix-tests");
        assert_eq!(suggested("__x__y"), "x-y");
        assert_eq!(suggested("_"), "workflow");
    }

    #[test]
    fn the_fix_renames_the_file_in_its_folder() {
        let d = diagnostic(
            "Chart",
            "Weekly_Notes",
            "workflows/notes/Weekly_Notes.json",
            "workflows/notes/weekly-notes.json",
        );
        let fix = d.fix.expect("a fix");
        assert_eq!(fix.rename_to.as_deref(), Some("weekly-notes.json"));
        assert!(fix.edits.is_empty());
    }
}
