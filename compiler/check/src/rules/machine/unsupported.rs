//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Warns about an xstate construct the IR does not model yet (an invoke's `onSnapshot`), read as the nearest thing it does.
    ///
    /// ## Why
    /// The IR is what the checks and the runtime read. A construct it does not model is read approximately, and the warning says how, so that nothing is lost silently.
    ///
    /// ## Example
    /// ```ts
    /// invoke: { src: "build", onSnapshot: { actions: "note" } }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// the invoke's onDone or onError, or an event the child sends
    /// ```
    pub static UNSUPPORTED = { code: "unsupported", rule: None, severity: Warning };
}
