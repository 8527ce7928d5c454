//! The rule `unused-suppression`: a suppression that suppresses nothing.

use base::Span;
use crate::rules::Sink;
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

/// An inline suppression's `code` (at `span` of the sink's file) dropped nothing; `known`: it
/// names a rule of `codes`.
pub fn inline(sink: &mut Sink, span: Span, code: &str, known: bool, codes: &[&str]) {
    if known {
        sink.at(&UNUSED_SUPPRESSION, span, format!("jr2-ignore[{code}] suppresses nothing on its line")).help = Some(
            "remove it, or put it on the line of the finding: alone on the line before it, or after code on its line".into(),
        );
    } else {
        let hint = base::suggest::did_you_mean(code, codes);
        sink.at(&UNUSED_SUPPRESSION, span, format!("jr2-ignore[{code}] names no rule{hint}")).help =
            Some("`jr2 rules` lists the codes".into());
    }
}

/// A `[[suppress]]` entry (at `span` of the config, the sink's file) dropped nothing in `file`.
pub fn entry(sink: &mut Sink, span: Span, file: &str, code: &str) {
    sink.at(
        &UNUSED_SUPPRESSION,
        span,
        format!("this [[suppress]] entry suppresses nothing: {file} has no {code} diagnostic it matches"),
    )
    .help = Some("remove the entry, or correct its file, code or path".into());
}
