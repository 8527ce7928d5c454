//! A warning of the Machine front end's lowering (`machine/src/lower.rs`, `FaultKind::UnknownActor`),
//! which builds its lines.

use diagnostics::declare_rule;

declare_rule! {
    /// Warns of an actor of the setup that is none of the kit's parts (an `agent`, an Effect, `fail()`, the Gate, a Machine or an Open body).
    ///
    /// ## Why
    /// jr2 places, routes and checks each actor by its kind. An actor made some other way (a value imported from a package, say) has no kind jr2 knows, so the walk cannot tell what it does. It is a warning, not a refusal: xstate runs such an actor, and the rest of the Workflow is checked with that slot's kind unknown. xstate's own actor creators (`fromPromise`, `fromCallback`, `fromObservable`, `fromEventObservable`, `fromTransition`) are allowed with no warning.
    ///
    /// ## Example
    /// ```ts
    /// import { testsActor } from "some-test-runner";
    /// actors: { tests: testsActor }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// actors: { tests: command(["npm", "test"]) }
    /// ```
    pub static UNKNOWN_ACTOR = { code: "unknown-actor", rule: None, severity: Warning };
}
