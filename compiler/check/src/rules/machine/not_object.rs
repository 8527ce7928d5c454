//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a part of a Machine's config that has the wrong shape: a state, an action, a guard or the setup that is not the object xstate expects.
    ///
    /// ## Why
    /// xstate reads the config by shape; a value of another shape is an error when the Machine is built, or silently ignored. The line names what was expected and what was found.
    ///
    /// ## Example
    /// ```ts
    /// states: { drafting: "review" }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// states: { drafting: { on: { done: "review" } } }
    /// ```
    pub static NOT_OBJECT = { code: "not-object", rule: None, severity: Error };
}
