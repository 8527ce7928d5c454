use super::{root_route, Walk};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::{SlotKind, StateId};
use machine::lower::{arg, classify_actor, ActorClass};
use machine::parts::declaration_of;

declare_rule! {
    /// Refuses a state that invokes an Agent, or an Open body that lends one or allows a model, when neither it nor any state above it routes `agent.fault`.
    ///
    /// ## Why
    /// jr2 sends `agent.fault` to the Machine that invoked an Agent when the Agent's Turn cannot
    /// go on (ADR-0016), by `sendBack`, and xstate drops an event that no active state handles.
    /// A Machine that does not route it waits for ever in the Agent's state with a dead Agent
    /// (ADR-0074). An Open body sends the `agent.fault` of its Chart's Agent that the Chart does
    /// not route to the Machine that invoked it, so the state that invokes an Open body that lends
    /// an Agent or allows a model needs the route too. A route on the state or on any state above
    /// it counts, guarded or not, with a target or with actions only; so does a wildcard that takes
    /// the event (`"*"`, `"agent.*"`). One route on the root satisfies the rule. The kit refuses
    /// this in `jr2Setup().createMachine`, so `jr2 check`, `jr2 up` and the Orchestrator's load all
    /// show it; a guard that is false when the event comes faults the run at runtime.
    ///
    /// ## Example
    /// ```ts
    /// jr2Setup({ actors: { coder: agent({ model: "anthropic/claude-haiku-5-5" }) } }).createMachine({
    ///   initial: "coding",
    ///   states: {
    ///     coding: { invoke: { src: "coder", input: { prompt: "Fix it." } }, on: { finished: "done" } },
    ///     done: { type: "final" },
    ///   },
    /// });
    /// ```
    /// is refused:
    /// ```text
    /// state "coding" invokes Agent "coder", and neither it nor any state above it routes
    /// `agent.fault`, so the run would wait for ever when the Agent's Turn cannot go on: add
    /// `on: { "agent.fault": <target> }` to state "coding" or a state above it
    /// ```
    ///
    /// ## Use instead
    /// Route it, once on the root for every state:
    /// ```ts
    /// on: { "agent.fault": ".failed" },
    /// states: { ..., failed: { invoke: { src: "fail", input: { reason: "the Agent's Turn could not go on" } } } }
    /// ```
    pub static AGENT_FAULT_UNROUTED = { code: "agent-fault-unrouted", rule: None, severity: Error };
}

const EVENT: &str = "agent.fault";

pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    // A route at the root is a route from every state: nothing to look for.
    if cx.routed(StateId::ROOT, EVENT) {
        return;
    }
    for s in cx.machine.ids() {
        let st = cx.machine.state(s);
        // Most states invoke no Agent, and most that do route the event: answer those before
        // writing any reason, so that a walk that finds nothing allocates nothing.
        if !st.invokes.iter().any(|inv| inv.kind.is_agent() || inv.kind == SlotKind::Machine) || cx.routed(s, EVENT) {
            continue;
        }
        let mut why = Vec::new();
        for inv in &st.invokes {
            if inv.kind.is_agent() {
                why.push(format!("Agent \"{}\"", inv.src));
            } else if inv.kind == SlotKind::Machine {
                if let Some(what) = open_body_agents(cx, &inv.src) {
                    why.push(format!("Open body \"{}\", which {what}", inv.src));
                }
            }
        }
        if why.is_empty() {
            continue;
        }
        why.dedup();
        let file = cx.state_at(s).file;
        let line = cx.at_state(
            sink,
            &AGENT_FAULT_UNROUTED,
            s,
            format!(
                "{} invokes {}, {}, so the run would wait for ever when the Agent's Turn cannot go on: add `on: {{ \"{EVENT}\": <target> }}` to {}",
                cx.name(s),
                why.join(" and "),
                cx.unrouted(s, EVENT),
                cx.route_place(s),
            ),
        );
        // The fix: one route on the root, which every state's line shares.
        line.fix = root_route::fix(cx, file, EVENT, "fail");
    }
}

/// What an Open body slot lends or allows that can run an Agent: `lends Agent "coder"`,
/// `allows model "..."`; `None` for an Open body with neither, or no Open body.
fn open_body_agents(cx: &Ctx<Walk>, slot: &str) -> Option<String> {
    let actor = cx.parts.actor(slot).filter(|a| classify_actor(a) == ActorClass::Open)?;
    let declaration = declaration_of(arg(actor, 0)?).ok()?;
    let quoted = |xs: &[String]| base::list::listed(xs.iter().map(|x| format!("\"{x}\"")));
    let plural = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    let mut what = Vec::new();
    let agents = &declaration.lends.agents;
    if !agents.is_empty() {
        what.push(format!("lends {} {}", plural(agents.len(), "Agent", "Agents"), quoted(agents)));
    }
    let models = &declaration.allows.models;
    if !models.is_empty() {
        what.push(format!("allows {} {}", plural(models.len(), "model", "models"), quoted(models)));
    }
    (!what.is_empty()).then(|| what.join(" and "))
}
