//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an invoke whose `src` (or a `spawnChild()` whose actor) is actor logic written inline rather than a name of the setup's `actors`.
    ///
    /// ## Why
    /// jr2 knows an actor by its slot in `jr2Setup({ actors })`: its kind (Agent, Effect, Gate, `fail`), its placement and its parties all come from there. An inline `src` has no slot, so no check can see it.
    ///
    /// ## Example
    /// ```ts
    /// invoke: { src: fromPromise(async () => run()) }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// actors: { run: command(["npm", "test"]) }, ... invoke: { src: "run" }
    /// ```
    pub static INLINE_SRC = { code: "inline-src", rule: None, severity: Error };
}
