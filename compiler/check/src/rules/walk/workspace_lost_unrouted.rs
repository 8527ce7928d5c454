use super::{root_route, Walk};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::{StateId, StateKind, Trigger};
use std::borrow::Cow;

declare_rule! {
    /// Refuses a state of a `workspace()` body that the body can stay in when neither it nor any state above it routes `workspace.lost`.
    ///
    /// ## Why
    /// `workspace()` sends `workspace.lost` to its body when the Sandbox is gone (ADR-0012), by
    /// `sendBack`, and xstate drops an event that no active state handles: a body that does not
    /// route it shows healthy on the feed with no Sandbox (ADR-0074). The states that a body can
    /// stay in are each leaf that is not final, and each compound state whose nested final state
    /// has no `onDone` on the compound state: the body then stays in the compound state. A final
    /// state of the root ends the body, and a final state of a parallel region leaves the other
    /// regions active, so neither is judged. A route on the state or on any state above it counts,
    /// guarded or not, with a target or with actions only; so does a wildcard that takes the event
    /// (`"*"`, `"workspace.*"`). One route on the root satisfies the rule. The kit refuses this in
    /// `workspace()`, the one place that knows that a Machine is a body.
    ///
    /// ## Example
    /// ```ts
    /// const body = jr2Setup({ actors: { tests: command(["npm", "test"]) } }).createMachine({
    ///   initial: "testing",
    ///   states: {
    ///     testing: { invoke: { src: "tests", onDone: "done" } },
    ///     done: { type: "final" },
    ///   },
    /// });
    /// export const machine = workspace(body, { repos: { app: { url: "https://github.com/you/app.git" } } });
    /// ```
    /// is refused: `state "testing" of the `workspace()` body can stay active, and neither it nor
    /// any state above it routes `workspace.lost`, so the body would show healthy with no Sandbox:
    /// add `on: { "workspace.lost": <target> }` to state "testing" or a state above it`.
    ///
    /// ## Use instead
    /// Route it, once on the root for every state:
    /// ```ts
    /// on: { "workspace.lost": ".lost" },
    /// states: { ..., lost: { invoke: { src: "fail", input: { reason: "the Sandbox is gone" } } } }
    /// ```
    pub static WORKSPACE_LOST_UNROUTED = { code: "workspace-lost-unrouted", rule: None, severity: Error };
}

const EVENT: &str = "workspace.lost";

pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    // A route at the root is a route from every state: nothing to look for.
    if !cx.parts.composes_sandbox() || cx.routed(StateId::ROOT, EVENT) {
        return;
    }
    for s in cx.machine.ids() {
        let Some(how) = stays(cx, s) else { continue };
        if cx.routed(s, EVENT) {
            continue;
        }
        let file = cx.state_at(s).file;
        let line = cx.at_state(
            sink,
            &WORKSPACE_LOST_UNROUTED,
            s,
            format!(
                "{} of the `workspace()` body {how}, {}, so the body would show healthy with no Sandbox: add `on: {{ \"{EVENT}\": <target> }}` to {}",
                cx.name(s),
                cx.unrouted(s, EVENT),
                cx.route_place(s),
            ),
        );
        // The fix: one route on the root, which every state's line shares.
        line.fix = root_route::fix(cx, file, EVENT, "lost");
    }
}

/// Can the body stay in this state, and how: a leaf that is not final, or a compound state (not
/// the root, not a parallel region) whose nested final state has no `onDone` on it. The common
/// answer is borrowed: a walk that finds nothing allocates nothing here.
fn stays(cx: &Ctx<Walk>, s: StateId) -> Option<Cow<'static, str>> {
    let m = cx.machine;
    let st = m.state(s);
    if cx.is_open_leaf(s) {
        return Some(Cow::Borrowed("can stay active"));
    }
    if st.kind != StateKind::Compound || s == StateId::ROOT {
        return None;
    }
    if st.parent.is_some_and(|p| m.state(p).kind == StateKind::Parallel) {
        return None;
    }
    let finals = || st.children.iter().map(|c| m.state(*c)).filter(|c| c.kind == StateKind::Final);
    if finals().next().is_none() || m.transitions_from(s).any(|t| t.trigger == Trigger::StateDone) {
        return None;
    }
    let finals: Vec<&str> = finals().map(|c| c.key.as_str()).collect();
    let max = base::list::MAX_LISTED;
    let more = if finals.len() > max { format!(", and {} more", finals.len() - max) } else { String::new() };
    Some(Cow::Owned(format!(
        "stays active once it reaches its final state \"{}\"{more} (it has no `onDone`)",
        finals[..finals.len().min(max)].join("\", \"")
    )))
}
