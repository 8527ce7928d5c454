//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a Workflow whose `machine` export is not a Machine the analysis can read.
    ///
    /// ## Why
    /// `jr2 check` reads the Machine a Workflow exports as `machine`: a `createMachine` call on `jr2Setup({...})` or xstate's `setup({...})`, or that call wrapped in `workspace(...)` or `customize(...)`. Anything else (a variable the evaluator could not follow, a factory function) leaves nothing to check.
    ///
    /// ## Example
    /// ```ts
    /// export const machine = makeMachine("notes");
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// export const machine = jr2Setup({ events: [done], actors: { writer } }).createMachine({ id: "notes", initial: "drafting", states: { /* ... */ } });
    /// ```
    pub static NOT_MACHINE = { code: "not-machine", rule: None, severity: Error };
}
