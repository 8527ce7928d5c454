use super::Walk;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::{StateId, StateKind, Trigger};
use machine::value::{Prop, ValueKind};

declare_rule! {
    /// Refuses an `output` that xstate would drop: on a state that is not final, on a final state of a Machine with no `output` of its own, or on a nested final state whose parent has no `onDone`.
    ///
    /// ## Why
    /// A run's output is its Machine's output: what `jr2 status` shows, what `GET /runs/<id>`
    /// serves and what a `dispatch` with `wait: true` hands its caller (ADR-0071). xstate 5 makes
    /// a Machine's output only from the root's `output`, which reads a final state's `output` as
    /// `event.output`; a nested final state's `output` goes only to its parent's `onDone`; and it
    /// reads `output` on no other state. So an `output` written anywhere else is lost without a
    /// word, and the run ends with no output, or with less than the author wrote (xstate 4's
    /// `data` on a final state is the usual source).
    ///
    /// The kit names this check `refuseLostOutput` (`parts.ts`, from `run-output.ts`, run in
    /// `jr2Setup().createMachine` beside the `agent.fault` refusal, ADR-0074) and gives no text.
    /// This rule and its words are jr2c's reading of the name: an `output` the Machine writes must
    /// reach the run. It refuses
    /// - `output` on a state that is neither final nor the root;
    /// - `output` on a final state of the root when the root has no `output`;
    /// - `output` on a final state nested in a compound state that has no `onDone` (and no `on`
    ///   route for its `xstate.done.state.*` event), or directly in a parallel state.
    ///
    /// What an `output` function does with what it gets is not judged, nor a root `output` that
    /// ignores `event.output`.
    ///
    /// ## Example
    /// ```ts
    /// jr2Setup({}).createMachine({
    ///   id: "review",
    ///   initial: "deciding",
    ///   states: {
    ///     deciding: { on: { approve: "approved" } },
    ///     approved: { type: "final", output: { approved: true } },
    ///   },
    /// });
    /// ```
    /// is refused: `final state "approved" has an `output`, but the Machine has no `output` of its
    /// own: xstate makes a Machine's output only from the root's `output`, so this one is lost and
    /// the run ends with no output: add `output: ({ event }) => event.output` to the root`.
    ///
    /// ## Use instead
    /// ```ts
    /// jr2Setup({}).createMachine({
    ///   id: "review",
    ///   initial: "deciding",
    ///   output: ({ event }) => event.output,
    ///   states: {
    ///     deciding: { on: { approve: "approved" } },
    ///     approved: { type: "final", output: { approved: true } },
    ///   },
    /// });
    /// ```
    pub static LOST_OUTPUT = { code: "lost-output", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    for s in cx.machine.ids() {
        if s == StateId::ROOT {
            continue;
        }
        let Some(prop) = written_output(cx, s) else { continue };
        let st = cx.machine.state(s);
        let parent = st.parent.unwrap_or(StateId::ROOT);
        let message = if st.kind != StateKind::Final {
            format!(
                "{} has an `output`, but it is not a final state: xstate reads `output` only on a final state or the root, so this one is lost: move it to the final state it belongs to, or to the root's `output`",
                cx.name(s)
            )
        } else if parent == StateId::ROOT {
            if written_output(cx, StateId::ROOT).is_some() {
                continue;
            }
            format!(
                "final {} has an `output`, but the Machine has no `output` of its own: xstate makes a Machine's output only from the root's `output`, so this one is lost and the run ends with no output: add `output: ({{ event }}) => event.output` to the root",
                cx.name(s)
            )
        } else if cx.machine.state(parent).kind == StateKind::Parallel {
            format!(
                "final {} has an `output`, but it is a final state of the parallel {}: xstate reads its `output` nowhere (a parallel state's own done event carries none), so it is lost: put it in a region, a compound state with an `onDone`",
                cx.name(s),
                cx.name(parent)
            )
        } else {
            let done = format!("xstate.done.state.{}", xstate_id(cx, parent));
            if cx.machine.transitions_from(parent).any(|t| t.trigger == Trigger::StateDone) || cx.routed(s, &done) {
                continue;
            }
            format!(
                "final {} has an `output`, but {} has no `onDone` to take it: xstate hands a nested final state's `output` only to its parent's `onDone`, so it is lost: add `onDone` to {}, or drop the `output`",
                cx.name(s),
                cx.name(parent),
                cx.name(parent)
            )
        };
        let spath = cx.map.state_path(s);
        let path = if spath.is_empty() { "output".to_string() } else { format!("{spath}.output") };
        sink.at_path(&LOST_OUTPUT, prop.key_loc, &path, message);
    }
}

/// The `output` property a state writes (the last one, as in JavaScript), unless it is
/// `undefined`.
fn written_output<'a>(cx: &Ctx<Walk<'a>>, s: StateId) -> Option<&'a Prop<'a>> {
    let props = cx.state_value(s)?.props()?;
    props.iter().rev().find(|p| p.key == "output").filter(|p| !matches!(p.value.kind, ValueKind::Undefined))
}

/// A state's xstate id: its own `id`, or the Machine's id and its keys from the root, dotted.
fn xstate_id(cx: &Ctx<Walk>, s: StateId) -> String {
    let st = cx.machine.state(s);
    if let Some(id) = &st.id {
        return id.clone();
    }
    let mut keys: Vec<&str> = std::iter::once(s)
        .chain(cx.machine.ancestors(s))
        .filter(|x| *x != StateId::ROOT)
        .map(|x| cx.machine.state(x).key.as_str())
        .collect();
    keys.push(&cx.machine.id);
    keys.reverse();
    keys.join(".")
}

#[cfg(test)]
mod tests {
    use crate::compile::compile_text;
    use std::path::Path;

    /// The lost-output lines of a Workflow's text.
    fn lines(text: &str) -> Vec<String> {
        let compiled = compile_text(Path::new("/mem/flow.ts"), text);
        compiled.diagnostics.iter().filter(|d| d.code == "lost-output").map(|d| d.message.clone()).collect()
    }

    #[test]
    fn a_child_machine_is_judged_and_named() {
        let found = lines(
            "import { jr2Setup } from '@jr2/orchestrator';\n\
             const child = jr2Setup({}).createMachine({ id: 'child', initial: 'done', states: { done: { type: 'final', output: { ok: true } } } });\n\
             export const machine = jr2Setup({ actors: { child } }).createMachine({\n\
               id: 'parent', initial: 'running', output: ({ event }) => event.output,\n\
               states: { running: { invoke: { src: 'child', onDone: 'done' } }, done: { type: 'final', output: ({ event }) => event.output } },\n\
             });\n",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("final state \"done\" of Machine \"child\" has an `output`"), "{found:?}");
    }

    #[test]
    fn a_wildcard_or_an_explicit_id_takes_the_done_event() {
        let found = lines(
            "import { jr2Setup } from '@jr2/orchestrator';\n\
             export const machine = jr2Setup({}).createMachine({\n\
               id: 'm', initial: 'a',\n\
               states: {\n\
                 a: { id: 'outer', initial: 'x', states: { x: { type: 'final', output: 1 } }, on: { 'xstate.done.state.outer': 'b' } },\n\
                 b: { initial: 'y', states: { y: { type: 'final', output: 2 } }, on: { 'xstate.*': 'c' } },\n\
                 c: { initial: 'z', states: { z: { type: 'final', output: undefined } } },\n\
               },\n\
             });\n",
        );
        assert!(found.is_empty(), "{found:?}");
    }
}
