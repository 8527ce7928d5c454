use super::Picks;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::Action;
use machine::lower::{is_call, items};

declare_rule! {
    /// Warns about an `answer` on the `entry` or `exit` of a state below no Agent's state.
    ///
    /// ## Why
    /// An `answer(fn)` sets what the Agent reads when jr2 answers its pick. Where it is written
    /// decides which pick it answers: at or below an Agent's state, that Agent's; on a transition
    /// below no Agent's state, the pick of the Agent whose event took it. An `entry` or an `exit`
    /// below no Agent's state is no transition an Agent's event takes, so the `answer` there sets
    /// nothing (`pick.ts`, `answer`; ADR-0067). `jr2 up` prints the same warning. A Machine that
    /// invokes no Agent is not judged.
    ///
    /// ## Example
    /// ```ts
    /// states: {
    ///   coding: { invoke: { src: "coder", input: { prompt: "Fix it." } }, on: { finished: "done" } },
    ///   done: { type: "final", entry: answer(() => "Done.") },
    /// },
    /// ```
    /// warns: `an answer on the entry of "fix-tests.done" is below no Agent's state, so it shapes
    /// no pick — an entry there is no transition an Agent's event takes; move it under
    /// "fix-tests.coding", or onto a transition (ADR-0067)`.
    ///
    /// ## Use instead
    /// Move it under the Agent's state, or onto the transition (`on: { finished: { target:
    /// "done", actions: answer(...) } }`).
    pub static ANSWER_BELOW_NO_AGENT = { code: "answer-below-no-agent", rule: None, severity: Warning };
}

pub(crate) fn check(cx: &Ctx<Picks<'_>>, sink: &mut Sink) {
    let agent_state = |s: ir::StateId| cx.m.state(s).invokes.iter().any(|i| i.kind.is_agent());
    // The Agent's state to name: the first in state order.
    let Some(first_agent) = cx.m.ids().find(|&s| agent_state(s)) else { return };
    // Lowering made an `answer(...)` `jr2.answer` and kept a name as it is written, so the IR's
    // `entry` and `exit` tell a state that may hold an answer; the values of only those are read
    // (most states hold none).
    let may_answer = |actions: &[Action]| {
        actions.iter().any(|a| match a {
            Action::Named { name, .. } => {
                name == "jr2.answer" || cx.named_action(name).is_some_and(|v| is_call(v, "answer"))
            }
            _ => false,
        })
    };
    for sid in cx.m.ids() {
        let st = cx.m.state(sid);
        if !may_answer(&st.entry) && !may_answer(&st.exit) {
            continue;
        }
        // Asked only of a state with an answer (most have none), once.
        let mut under_agent = None;
        for (place, v) in [("entry", cx.entry(sid)), ("exit", cx.exit(sid))] {
            let Some(v) = v else { continue };
            for (i, written) in items(v).iter().enumerate() {
                let resolved = written.as_str().and_then(|n| cx.named_action(n)).unwrap_or(written);
                if !is_call(resolved, "answer")
                    || *under_agent
                        .get_or_insert_with(|| std::iter::once(sid).chain(cx.m.ancestors(sid)).any(agent_state))
                {
                    continue;
                }
                let path = base::path::join(cx.map.state_path(sid), place);
                let path = if v.as_array().is_some() { base::path::join(&path, i) } else { path };
                sink.at_path(
                    &ANSWER_BELOW_NO_AGENT,
                    written.loc,
                    &path,
                    format!(
                        "an answer on the {place} of \"{}\" is below no Agent's state, so it shapes no pick — an {place} there is no transition an Agent's event takes; move it under \"{}\", or onto a transition (ADR-0067)",
                        cx.node_id(sid),
                        cx.node_id(first_agent)
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::walk;

    fn run(done: &str, coding_exit: &str) -> Vec<(String, String)> {
        walk(&format!(
            r#"import {{ agent, answer, jr2Setup }} from "@jr2/orchestrator";
export const machine = jr2Setup({{
  actors: {{ coder: agent({{ model: "m", instructions: "i", workspace: "none" }}) }},
  actions: {{ tell: answer(() => "Told.") }},
}}).createMachine({{
  id: "fix",
  initial: "coding",
  states: {{
    coding: {{ invoke: {{ src: "coder", input: {{ prompt: "p" }} }}, on: {{ finished: "done" }}{coding_exit} }},
    done: {{ type: "final"{done} }},
  }},
}});
"#
        ))
    }

    #[test]
    fn an_answer_below_no_agent_warns() {
        assert_eq!(
            run(r#", entry: answer(() => "Done.")"#, ""),
            [(
                "answer-below-no-agent".to_string(),
                "an answer on the entry of \"fix.done\" is below no Agent's state, so it shapes no pick — an entry there is no transition an Agent's event takes; move it under \"fix.coding\", or onto a transition (ADR-0067)".to_string()
            )]
        );
        assert_eq!(run(r#", exit: ["tell"]"#, "").len(), 1);
    }

    #[test]
    fn an_answer_under_an_agent_is_admitted() {
        assert!(run("", r#", exit: answer(() => "Bye.")"#).is_empty());
    }
}
