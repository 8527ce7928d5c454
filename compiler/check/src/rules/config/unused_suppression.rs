//! The rule `unused-suppression`: a suppression that suppresses nothing.

use base::Span;
use diagnostics::{declare_rule, Diagnostic};

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

/// An inline suppression's `code` (at `span`) dropped nothing; `known`: it names a rule of
/// `codes`.
pub fn inline(span: Span, code: &str, known: bool, codes: &[&str]) -> Diagnostic {
    if known {
        UNUSED_SUPPRESSION
            .at(span, format!("jr2-ignore[{code}] suppresses nothing on its line"))
            .with_help("remove it, or put it on the line of the finding: alone on the line before it, or after code on its line")
    } else {
        let hint = base::suggest::did_you_mean(code, codes);
        UNUSED_SUPPRESSION.at(span, format!("jr2-ignore[{code}] names no rule{hint}")).with_help("`jr2 rules` lists the codes")
    }
}

/// A `[[suppress]]` entry (at `span` of the config) dropped nothing in `file`.
pub fn entry(span: Span, file: &str, code: &str) -> Diagnostic {
    UNUSED_SUPPRESSION
        .at(span, format!("this [[suppress]] entry suppresses nothing: {file} has no {code} diagnostic it matches"))
        .with_help("remove the entry, or correct its file, code or path")
}
