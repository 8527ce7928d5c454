use super::Subject;
use crate::rules::{Ctx, Sink};
use base::Span;
use diagnostics::{declare_rule, Fix};

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

/// Refuses a file's stem outside `[a-z0-9-]`, on the whole file; its fix renames the file to the
/// suggested stem.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::File(f) = **cx else { return };
    if is_valid(f.stem) {
        return;
    }
    let name = format!("{}.{}", suggested(f.stem), f.extension);
    let (what, stem, shown, folder) = (f.what, f.stem, f.shown, f.folder);
    let d = sink.at(
        &WORKFLOW_STEM,
        Span::new(0, 0),
        format!("the {what} name \"{stem}\" (its file's stem) is outside [a-z0-9-]; rename {shown} to {folder}/{name}"),
    );
    d.notes.push("`jr2 run`, the door's path and a `dispatch` slot name one set of Workflows, by file stem".into());
    d.fix = Some(Fix::rename(format!("rename the file to {name}"), name));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::instance::{run_alone, FileName};

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
        let file = FileName {
            what: "Chart",
            stem: "Weekly_Notes",
            shown: "workflows/notes/Weekly_Notes.json",
            folder: "workflows/notes",
            extension: "json",
        };
        let [d] = <[_; 1]>::try_from(run_alone(Subject::File(&file))).expect("one refusal");
        assert_eq!(
            d.message,
            "the Chart name \"Weekly_Notes\" (its file's stem) is outside [a-z0-9-]; rename workflows/notes/Weekly_Notes.json to workflows/notes/weekly-notes.json"
        );
        let fix = d.fix.expect("a fix");
        assert_eq!(fix.rename_to.as_deref(), Some("weekly-notes.json"));
        assert!(fix.edits.is_empty());
        let good = FileName { stem: "weekly-notes", ..file };
        assert!(run_alone(Subject::File(&good)).is_empty());
    }
}
