use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an `onDone` on an invoke of an Agent.
    ///
    /// ## Why
    /// An Agent's Turn ends only when it picks one of the Chart's `events`, and the state's `on`
    /// routes the pick. An Agent never finishes as an actor does, so its `onDone` would never run.
    ///
    /// ## Example
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Draft." }, "onDone": "review" } }
    /// ```
    /// is refused: `states.drafting.invoke.onDone: an Agent's invoke takes no `onDone`: its Turn
    /// ends with a pick of one of the Chart's `events`, which `on` routes`.
    ///
    /// ## Use instead
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Draft." } }, "on": { "done": "review" } }
    /// ```
    pub static AGENT_INVOKE_ON_DONE = { code: "agent-invoke-on-done", rule: Some(6), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for inv in cx.invokes() {
        if !inv.class.slot_kind().is_agent() {
            continue;
        }
        let Some(m) = inv.json.member("onDone") else { continue };
        sink.line(
            &AGENT_INVOKE_ON_DONE,
            m.key_span,
            &join(inv.path, "onDone"),
            "an Agent's invoke takes no `onDone`: its Turn ends with a pick of one of the Chart's `events`, which `on` routes",
        );
    }
}
