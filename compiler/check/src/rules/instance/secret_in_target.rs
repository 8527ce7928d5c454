use base::Span;
use diagnostics::{declare_rule, Diagnostic};

declare_rule! {
    /// Refuses `secret(open)` inside a `dispatch` target: the whole target is the Open part.
    ///
    /// ## Why
    /// A packaged Machine leaves its dispatch target `target: open`, and the composer binds the
    /// url and the token together, one Open part, with `customize(m, { effects: { task: { target:
    /// { url, token } } } })` (ADR-0071, ADR-0054). A target with a url of its own and an open
    /// token would let a composer send the url's Instance a token of another, so `secret(open)`
    /// inside a target is refused.
    ///
    /// ## Example
    /// ```ts
    /// task: dispatch("review", { target: { url: "https://ops.example.com", token: secret(open) } })
    /// ```
    /// is refused: `secret(open) inside a dispatch target: the whole target is the Open part;
    /// write target: open and bind url and token together with customize()`.
    ///
    /// ## Use instead
    /// ```ts
    /// task: dispatch("review", { target: open })
    /// ```
    pub static SECRET_IN_TARGET = { code: "secret-in-target", rule: None, severity: Error };
}

/// The refusal at the `secret(open)` call's `span`.
pub fn diagnostic(span: Span) -> Diagnostic {
    SECRET_IN_TARGET
        .at(
            span,
            "secret(open) inside a dispatch target: the whole target is the Open part; write target: open and bind url and token together with customize()",
        )
        .with_help("`dispatch(name, { target: open })`, then `customize(m, { effects: { <slot>: { target: { url, token } } } })`")
}
