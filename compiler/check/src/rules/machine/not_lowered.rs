//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a function in a Machine (an `input` mapper, an `assign`) stays code the IR cannot run.
    ///
    /// ## Why
    /// The IR carries expressions as data so that the durable runtime can evaluate them. A function whose body is a pure expression (member access on `context`, `input` or `event`, a template, an object or array literal, `paramsOf(event, def).x`) is lowered; anything else stays code, and the checks that read it see less.
    ///
    /// ## Example
    /// ```ts
    /// input: ({ context }) => ({ prompt: buildPrompt(context) })
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// input: ({ context }) => ({ prompt: `Fix ${context.module}.` })
    /// ```
    pub static NOT_LOWERED = { code: "not-lowered", rule: None, severity: Warning };
}
