//! The unified diff of a file's fixes, as `git diff` writes it, for `jr2 check --diff`.
//!
//! ```text
//! diff --git a/workflows/Fix_Tests.ts b/workflows/fix-tests.ts
//! rename from workflows/Fix_Tests.ts
//! rename to workflows/fix-tests.ts
//! --- a/workflows/Fix_Tests.ts
//! +++ b/workflows/fix-tests.ts
//! @@ -10,3 +10,4 @@
//! ```
//!
//! A rename is git's `rename from` / `rename to` lines; the hunks (three lines of context) only
//! where the text changed. `git apply` takes the output.

use similar::TextDiff;

/// The diff of the file `from` (text `old`) into the file `to` (text `new`); `from == to` when
/// the file keeps its name. Empty when nothing changes.
pub fn unified(from: &str, to: &str, old: &str, new: &str) -> String {
    if from == to && old == new {
        return String::new();
    }
    let mut out = format!("diff --git a/{from} b/{to}\n");
    if from != to {
        out.push_str(&format!("rename from {from}\nrename to {to}\n"));
    }
    if old != new {
        let diff = TextDiff::from_lines(old, new);
        let (a, b) = (format!("a/{from}"), format!("b/{to}"));
        out.push_str(&diff.unified_diff().context_radius(3).header(&a, &b).to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn an_edit_is_a_hunk_and_a_rename_is_git_s_lines() {
        let old = "a\nb\nc\n";
        let new = "a\nB\nc\n";
        assert_eq!(
            unified("x.ts", "x.ts", old, new),
            "diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
        );
        assert_eq!(
            unified("X_Y.ts", "x-y.ts", old, old),
            "diff --git a/X_Y.ts b/x-y.ts\nrename from X_Y.ts\nrename to x-y.ts\n"
        );
        assert_eq!(unified("x.ts", "x.ts", old, old), "");
    }
}
