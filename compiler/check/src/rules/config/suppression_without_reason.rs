//! The rule `suppression-without-reason`: an inline suppression that does not say why.

use super::Subject;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns of an inline suppression with no reason, which suppresses nothing: `// jr2-ignore[code]: why`.
    ///
    /// ## Why
    /// A finding is silenced because it is wrong here; the reason is what the next reader needs
    /// to trust the silence, and what tells them when it no longer holds. So a suppression
    /// without one does not suppress: the finding is still reported, and so is this.
    ///
    /// ## Example
    /// ```ts
    /// // jr2-ignore[agent-fault-unrouted]
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// // jr2-ignore[agent-fault-unrouted]: routed by the wrapper
    /// ```
    pub static SUPPRESSION_WITHOUT_REASON = { code: "suppression-without-reason", rule: None, severity: Warning };
}

/// An inline suppression with no `: reason`.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    if let Subject::Inline { span, has_reason: false, .. } = **cx {
        sink.at(&SUPPRESSION_WITHOUT_REASON, span, "this suppression gives no reason, so it suppresses nothing").help =
            Some("say why after a colon: `// jr2-ignore[code]: why the finding is wrong here`".into());
    }
}
