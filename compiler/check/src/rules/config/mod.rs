//! The rules of what a run reports (`crate::suppress`): the inline suppressions and the
//! `[[suppress]]` entries of `jr2c.toml`. Each is a pass `fn check(cx: &Ctx<Subject>, sink)` over
//! one suppression, after `crate::suppress` applied it: what it suppressed is the suppression's
//! business, what to say of it the rules'. Their tests are `crate::suppress`'s and the CLI's
//! (`tests/it/suppress.rs`).

use base::Span;

family! {
    checks: Subject<'_>;
    suppression_without_reason::SUPPRESSION_WITHOUT_REASON => check,
    unused_suppression::UNUSED_SUPPRESSION => check,
}

/// One suppression, as applied.
pub(crate) enum Subject<'a> {
    /// An inline `// jr2-ignore[code, ...]: reason` comment at `span` of the sink's file.
    Inline {
        span: Span,
        /// Whether it says why after a colon (without, it suppresses nothing).
        has_reason: bool,
        /// Each of its codes that dropped nothing on its line, with its span.
        unused: &'a [(&'a str, Span)],
        /// Every rule's code, for the codes it names that are none.
        codes: &'a [&'a str],
    },
    /// A `[[suppress]]` entry at `span` of the config (the sink's file) that dropped nothing in
    /// `file`, the file of the run it names.
    Entry { span: Span, file: &'a str, code: &'a str },
}

/// Runs the config rules on one suppression.
pub(crate) fn run(subject: Subject<'_>, sink: &mut crate::rules::Sink) {
    let cx = crate::rules::Ctx::new(subject);
    for check in CHECKS {
        check(&cx, sink);
    }
}
