//! A refusal of the Machine front end's lowering (`machine/lower.rs`), which builds its lines.

use crate::declare_rule;

declare_rule! {
    /// Refuses an actor of the setup that is none of the kit's parts (an `agent`, an Effect, `fail()`, the Gate, a Machine or an Open body).
    ///
    /// ## Why
    /// jr2 places, routes and checks each actor by its kind. An actor made some other way (an xstate `fromPromise`, a value imported from elsewhere) has no kind jr2 knows, so the walk cannot tell what it does.
    ///
    /// ## Example
    /// ```ts
    /// actors: { tests: fromPromise(() => exec("npm test")) }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// actors: { tests: command(["npm", "test"]) }
    /// ```
    pub static UNKNOWN_ACTOR = { code: "unknown-actor", rule: None, severity: Error };
}
