//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Warns about an xstate construct the IR does not model yet (a history state), read as the nearest thing it does.
    ///
    /// ## Why
    /// The IR is what the checks and the runtime read. A construct it does not model is read approximately, and the warning says how, so that nothing is lost silently.
    ///
    /// ## Example
    /// ```ts
    /// back: { type: "history" }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// an explicit target: the state to go back to
    /// ```
    pub static UNSUPPORTED = { code: "unsupported", rule: None, severity: Warning };
}
