//! The rule `unused-suppression`: a suppression that suppresses nothing.

use super::Subject;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns of a suppression that suppresses nothing: an inline `jr2-ignore[code]` or a `[[suppress]]` entry of `jr2c.toml`.
    ///
    /// ## Why
    /// A suppression says "this finding is wrong here, because ...". Once the finding is gone (the
    /// code was fixed, the rule changed, the line moved) the suppression says nothing true, and it
    /// would silence the next, different finding of that code on that line. A suppression that
    /// names no rule (a slip: `jr2-ignore[agent-fault-unrouteed]`) never suppressed anything.
    ///
    /// ## Example
    /// ```ts
    /// // jr2-ignore[agent-fault-unrouted]: routed by the wrapper
    /// done: { type: "final" },
    /// ```
    /// where nothing on the next line is `agent-fault-unrouted`: `jr2-ignore[agent-fault-unrouted]
    /// suppresses nothing on its line`.
    ///
    /// ## Use instead
    /// Remove the suppression, or move it to the line of the finding (the line after a comment
    /// alone on its line, or the comment's own line after code). `docs/reference/suppressions.md`.
    pub static UNUSED_SUPPRESSION = { code: "unused-suppression", rule: None, severity: Warning };
}

/// A suppression that dropped nothing: each unused code of an inline one (a code that names no
/// rule says so), and a `[[suppress]]` entry.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    match **cx {
        Subject::Inline { has_reason: true, unused, codes, .. } => {
            for &(code, span) in unused {
                if codes.contains(&code) {
                    sink.at(&UNUSED_SUPPRESSION, span, format!("jr2-ignore[{code}] suppresses nothing on its line"))
                        .help = Some(
                        "remove it, or put it on the line of the finding: alone on the line before it, or after code on its line"
                            .into(),
                    );
                } else {
                    let hint = base::suggest::did_you_mean(code, codes);
                    sink.at(&UNUSED_SUPPRESSION, span, format!("jr2-ignore[{code}] names no rule{hint}")).help =
                        Some("`jr2 rules` lists the codes".into());
                }
            }
        }
        Subject::Entry { span, file, code } => {
            sink.at(
                &UNUSED_SUPPRESSION,
                span,
                format!("this [[suppress]] entry suppresses nothing: {file} has no {code} diagnostic it matches"),
            )
            .help = Some("remove the entry, or correct its file, code or path".into());
        }
        Subject::Inline { has_reason: false, .. } => {}
    }
}
