use super::{pick_entries, reads_on_entry, Cx, Sink};
use crate::declare_rule;
use crate::ir::StateId;
use crate::machine::lower::is_call;
use crate::machine::value::Value;

declare_rule! {
    /// Refuses a param of a pick that enters a state that invokes an Effect, when nothing reads it.
    ///
    /// ## Why
    /// The Agent supplies every param of a pick (an event of `defineEvent`, its `input` a
    /// `z.object`). When the pick enters a state that invokes an Effect, a param reaches the
    /// Machine only where something reads it: an invoke's `input` mapper (`paramsOf(event,
    /// def).x`, `event.x`, a `fromPick`), an `assign` on the transition or on the state's
    /// `entry`. A param nothing reads is asked of the Agent and thrown away. `createMachine`
    /// refuses it (`pick.ts`, `paramsOf`). A mapper the analysis cannot see all of leaves the
    /// params unchecked, with the `unprobed-input-mapper` warning instead; a `fromPick` input is
    /// checked by `from-pick-unknown-key`.
    ///
    /// ## Example
    /// ```ts
    /// const runTest = defineEvent({
    ///   name: "run_test",
    ///   description: "Run the tests of one module.",
    ///   input: z.object({ module: z.string(), verbose: z.boolean() }),
    /// });
    /// // ...
    /// ready: { on: { run_test: "testing" } },
    /// testing: {
    ///   invoke: {
    ///     src: "test",
    ///     input: ({ context, event }) => ({
    ///       file: `test/${paramsOf(event, runTest).module}.test.js`,
    ///       worktree: fixTree(context),
    ///     }),
    ///     onDone: "ready",
    ///   },
    /// },
    /// ```
    /// is refused at `verbose`: `machine "fix-tests": pick "run_test" enters state
    /// "fix-tests.coding.testing" (Effect "test"), which never reads "verbose": the Agent supplies
    /// it and nothing uses it — map it in an invoke's input, store it with assign, or drop it from
    /// the def`.
    ///
    /// ## Use instead
    /// Map it in an invoke's input, store it with `assign`, or drop it from the def.
    pub static UNREAD_PICK_PARAM = { code: "unread-pick-param", rule: None, severity: Error };
}

pub fn check(cx: &Cx<'_>, sink: &mut Sink) {
    // (pick, state) pairs judged already: a pair is judged once per state id (xstate's, which
    // two states share only where an `id` is written twice; written out only to tell those).
    let mut seen: Vec<(&str, StateId)> = Vec::new();
    for entry in pick_entries(cx) {
        if entry.pick.params.is_empty() {
            continue;
        }
        let st = cx.m.state(entry.state);
        let inv = &st.invokes[entry.invoke];
        let input: Option<&Value> = cx.invokes(entry.state)[entry.invoke].get("input");
        // A `fromPick` input: its own rules judge it.
        if input.is_some_and(|i| is_call(i, "fromPick")) {
            continue;
        }
        let judged = seen
            .iter()
            .any(|&(p, s)| p == entry.pick.name && (s == entry.state || cx.node_id(s) == cx.node_id(entry.state)));
        if judged {
            continue;
        }
        seen.push((entry.pick.name, entry.state));
        // The Effect's own mapper the analysis cannot follow: the seed's "could not probe".
        if let Some(mapper) = input.filter(|i| i.as_function().is_some_and(|f| !f.facts.complete)) {
            let state = cx.node_id(entry.state);
            super::unprobed_mapper::report(sink, mapper, &inv.path, entry.pick.name, &state, &inv.src);
            continue;
        }
        let reads = reads_on_entry(cx, entry.pick.name, entry.entered);
        if !reads.incomplete.is_empty() {
            // Some reader is opaque: it may read any param.
            continue;
        }
        for (param, loc) in &entry.pick.params {
            if reads.reads(param) {
                continue;
            }
            sink.push(
                &UNREAD_PICK_PARAM,
                *loc,
                &cx.m.transitions[entry.transition].path,
                format!(
                    "machine \"{}\": pick \"{}\" enters state \"{}\" (Effect \"{}\"), which never reads \"{param}\": the Agent supplies it and nothing uses it — map it in an invoke's input, store it with assign, or drop it from the def",
                    cx.m.id,
                    entry.pick.name,
                    cx.node_id(entry.state),
                    inv.src
                ),
            );
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::testing::walk;

    pub(crate) fn machine(input: &str, actions: &str) -> String {
        format!(
            r#"import {{ z }} from "zod";
import {{ agent, arg, command, defineEvent, jr2Setup, paramsOf }} from "@jr2/orchestrator";
import {{ assign }} from "xstate";
const runTest = defineEvent({{
  name: "run_test",
  description: "Run the tests of one module.",
  input: z.object({{ module: z.string(), verbose: z.boolean() }}),
}});
export const machine = jr2Setup({{
  events: [runTest],
  actors: {{
    coder: agent({{ model: "m", instructions: "i", workspace: "none" }}),
    test: command(["node", "--test", arg("file")]),
  }},
}}).createMachine({{
  id: "fix",
  initial: "coding",
  states: {{
    coding: {{
      invoke: {{ src: "coder", input: {{ prompt: "p" }} }},
      initial: "ready",
      states: {{
        ready: {{ on: {{ run_test: {{ target: "testing", actions: [{actions}] }} }} }},
        testing: {{ invoke: {{ src: "test", input: {input}, onDone: "ready" }} }},
      }},
    }},
  }},
}});
"#
        )
    }

    #[test]
    fn an_unread_param_is_refused() {
        let got = walk(&machine(r#"({ event }) => ({ file: paramsOf(event, runTest).module })"#, ""));
        assert_eq!(
            got,
            [(
                "unread-pick-param".to_string(),
                "machine \"fix\": pick \"run_test\" enters state \"fix.coding.testing\" (Effect \"test\"), which never reads \"verbose\": the Agent supplies it and nothing uses it — map it in an invoke's input, store it with assign, or drop it from the def".to_string()
            )]
        );
    }

    #[test]
    fn params_read_by_a_mapper_or_an_assign_are_admitted() {
        let read_both =
            r#"({ event }) => ({ file: paramsOf(event, runTest).module, v: paramsOf(event, runTest).verbose })"#;
        assert!(walk(&machine(read_both, "")).is_empty());
        let direct = r#"({ event }) => ({ file: event.module })"#;
        let stored = r#"assign({ verbose: ({ event }) => event.verbose })"#;
        assert!(walk(&machine(direct, stored)).is_empty(), "{:?}", walk(&machine(direct, stored)));
    }
}
