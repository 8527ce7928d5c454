//! A refusal of the Machine front end's lowering (`machine/src/lower.rs`), which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an invoke whose `src` (or a `spawnChild()` whose actor) names no actor of the Machine's setup.
    ///
    /// ## Why
    /// xstate resolves `src` against `setup({ actors })` when the Machine is built and throws on a
    /// name it does not have; jr2 also reads each actor's kind from there. `"gate"` is the kit's
    /// Gate in every Machine; any other name must be a key of `actors` (of the setup, of
    /// `createMachine`'s second argument or of a `.provide(...)`). `spawnChild("name")` names its
    /// actor the same way, and xstate throws when the action runs.
    ///
    /// ## Example
    /// ```ts
    /// actors: { writer: agent({ ... }) }, ... invoke: { src: "writter" }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// invoke: { src: "writer" }
    /// ```
    pub static UNKNOWN_INVOKE_SRC = { code: "unknown-invoke-src", rule: None, severity: Error };
}
