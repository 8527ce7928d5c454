use super::Walk;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::{SlotKind, StateId, Trigger};

declare_rule! {
    /// Refuses a state that invokes an Effect when that invoke has no `onDone`: an Effect's outcome is output, and nothing would route it.
    ///
    /// ## Why
    /// An Effect (`command()`, `http()`, a push, ...) ends with an outcome, and its outcome is
    /// output: xstate delivers it only as the `onDone` of the invoke that ran the Effect. With no
    /// `onDone` the outcome is dropped, and the state stays where it is once the Effect is done.
    /// The kit names this check `refuseUnroutedOutcome` in `parts.ts` and gives no text; this rule
    /// and its words are jr2c's reading of the name and of the seed: an Effect state must route
    /// its `onDone`. The route is the invoke's own, so a route on a state above does not count;
    /// a route with actions only, or a guarded one, does. `onError` is not judged here.
    ///
    /// ## Example
    /// ```ts
    /// jr2Setup({ actors: { tests: command(["npm", "test"]) } }).createMachine({
    ///   initial: "testing",
    ///   states: {
    ///     testing: { invoke: { src: "tests" }, on: { cancel: "done" } },
    ///     done: { type: "final" },
    ///   },
    /// });
    /// ```
    /// is refused: `state "testing" invokes Effect "tests" (command) with no `onDone`, so its
    /// outcome, which is output, would be lost and the state would stay active once it is done:
    /// add `onDone: <target>` to the invoke of "tests" in state "testing"`.
    ///
    /// ## Use instead
    /// ```ts
    /// testing: { invoke: { src: "tests", onDone: "done", onError: "broken" } },
    /// ```
    pub static UNROUTED_OUTCOME = { code: "unrouted-outcome", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    // Every routed outcome, in one pass over the transitions (not one per state): a sorted list,
    // searched by halves; a few dozen pairs at most, where a HashSet cost more to hash and build.
    // On the stack up to 16 (a Workflow routes about 8): no heap block for the usual Machine.
    let mut routed: smallvec::SmallVec<[(StateId, usize); 16]> = cx
        .machine
        .transitions
        .iter()
        .filter_map(|t| match t.trigger {
            Trigger::InvokeDone(i) => Some((t.source, i)),
            _ => None,
        })
        .collect();
    routed.sort_unstable();
    for s in cx.machine.ids() {
        let st = cx.machine.state(s);
        for (i, inv) in st.invokes.iter().enumerate() {
            if inv.kind != SlotKind::Effect {
                continue;
            }
            if routed.binary_search(&(s, i)).is_ok() {
                continue;
            }
            let kind = cx.machine.slots.get(&inv.src).and_then(|sl| sl.effect.clone());
            let kind = kind.map(|k| format!(" ({k})")).unwrap_or_default();
            cx.at_state(
                sink,
                &UNROUTED_OUTCOME,
                s,
                format!(
                    "{} invokes Effect \"{}\"{kind} with no `onDone`, so its outcome, which is output, would be lost and the state would stay active once it is done: add `onDone: <target>` to the invoke of \"{}\" in {}",
                    cx.name(s),
                    inv.src,
                    inv.src,
                    cx.name(s),
                ),
            );
        }
    }
}
