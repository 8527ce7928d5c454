use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use crate::passes::slot_clash::slot_clashes;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses one Agent invoked by states that can be active together.
    ///
    /// ## Why
    /// An Agent runs one Turn at a time: its Turns share one sender, so `jr2.sentBy` cannot tell
    /// two apart, and one conversation, so `continue` cannot hold both. States are active
    /// together in parallel regions, one inside the other, or when one state invokes the Agent
    /// twice. The line names every state of that Agent that clashes.
    ///
    /// ## Example
    /// ```json
    /// { "type": "parallel", "states": {
    ///   "left":  { "invoke": { "src": "writer", "input": { "prompt": "Left." } } },
    ///   "right": { "invoke": { "src": "writer", "input": { "prompt": "Right." } } } } }
    /// ```
    /// is refused: `states.left, states.right: Agent "writer" would run two Turns at once: these
    /// states invoke it and can be active together (in parallel regions, one inside the other, or
    /// one state twice); an Agent runs one Turn at a time: invoke another Agent in one of them`.
    ///
    /// ## Use instead
    /// Invoke another Agent in one of them (mint a second one, or use a second lent one).
    pub static AGENT_ACTIVE_TWICE = { code: "agent-active-twice", rule: Some(6), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for clash in slot_clashes(cx.machine) {
        let docs: Vec<&str> = clash.states.iter().map(|s| cx.doc(*s)).collect();
        let span_of = |s: ir::StateId| {
            let k = cx.machine.state(s).invokes.iter().position(|i| i.src == clash.slot);
            k.and_then(|k| cx.map.invoke(s, k)).map_or(cx.map.state(s).loc.span, |i| i.span())
        };
        let d = sink.at(
            &AGENT_ACTIVE_TWICE,
            span_of(clash.states[0]),
            format!(
                "{}: Agent \"{}\" would run two Turns at once: these states invoke it and can be active together (in parallel regions, one inside the other, or one state twice); an Agent runs one Turn at a time: invoke another Agent in one of them",
                docs.join(", "),
                clash.slot
            ),
        );
        d.path = Some(docs[0].to_string());
        for s in &clash.states[1..] {
            d.secondary.push(diagnostics::Label { span: span_of(*s), message: format!("also invokes \"{}\"", clash.slot) });
        }
    }
}
