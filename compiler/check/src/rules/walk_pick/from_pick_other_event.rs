use super::{from_picks, Picks};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::StateId;
use smallvec::SmallVec;

declare_rule! {
    /// Refuses a `fromPick` in a state that another event enters.
    ///
    /// ## Why
    /// `fromPick(def)` reads the params of the pick off the event that entered the state. A state
    /// entered on another event (another pick, an invoke's `onDone`, a delay, the Machine's
    /// start) gets an event that does not carry them, and the input would be wrong at run time.
    /// `createMachine` refuses it (`pick.ts`, `fromPick`). An eventless (`always`) transition is
    /// not judged.
    ///
    /// ## Example
    /// ```ts
    /// ready: { on: { post_note: "posting", retry: "posting" } },
    /// posting: { invoke: { src: "note", input: fromPick(postNote), onDone: "ready" } },
    /// ```
    /// is refused at `retry`'s target: `machine "note": state "note.writing.posting" (Effect
    /// "note") reads the params of pick "post_note" but is entered on "retry" — that event does
    /// not carry them`.
    ///
    /// ## Use instead
    /// Enter the state on the pick only; for another event, route to another state, or read the
    /// params with a plain mapper that handles both.
    pub static FROM_PICK_OTHER_EVENT = { code: "from-pick-other-event", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Picks<'_>>, sink: &mut Sink) {
    let fps = from_picks(cx);
    if fps.is_empty() {
        return;
    }
    for fp in fps {
        let inv = &cx.m.state(fp.state).invokes[fp.invoke];
        // The state's id is written only for a line.
        let message = |event: &str| {
            format!(
                "machine \"{}\": state \"{}\" (Effect \"{}\") reads the params of pick \"{}\" but is entered on \"{event}\" — that event does not carry them",
                cx.m.id,
                cx.node_id(fp.state),
                inv.src,
                fp.pick.name
            )
        };
        // The states whose entering enters this one; the transitions to them are found by their
        // targets (no scan of every transition per `fromPick`).
        let from = super::entered_from(cx.m, fp.state);
        // Entered at start: in the initial configuration.
        if from.contains(&StateId::ROOT) {
            sink.at_path(
                &FROM_PICK_OTHER_EVENT,
                fp.call.loc,
                &at_path(cx.map.invoke_path(fp.state, fp.invoke)),
                message("xstate.init"),
            );
        }
        let mut into: SmallVec<[u32; 8]> = from.iter().flat_map(|&x| cx.incoming(x)).copied().collect();
        into.sort_unstable();
        into.dedup();
        for ti in into {
            let (ti, t) = (ti as usize, &cx.m.transitions[ti as usize]);
            // The pick's own event (or an eventless one) is told without writing the event's name.
            if cx.is_event(t, fp.pick.name) != Some(false) {
                continue;
            }
            let Some(event) = cx.event_of(t) else { continue };
            let loc = cx.transition(ti).map_or(fp.call.loc, |v| v.loc);
            sink.at_path(&FROM_PICK_OTHER_EVENT, loc, cx.map.transition_path(ti), message(&event));
        }
    }
}

fn at_path(invoke_path: &str) -> String {
    base::path::join(invoke_path, "input")
}

#[cfg(test)]
mod tests {
    use super::super::from_pick_unknown_key::tests::note;
    use super::super::testing::walk;

    #[test]
    fn another_event_is_refused() {
        let got = walk(&note("text: z.string()", "text: z.string()", "fromPick(postNote)", r#", other: "posting""#));
        assert_eq!(
            got,
            [(
                "from-pick-other-event".to_string(),
                "machine \"note\": state \"note.writing.posting\" (Effect \"note\") reads the params of pick \"post_note\" but is entered on \"other\" — that event does not carry them".to_string()
            )]
        );
    }

    #[test]
    fn the_pick_alone_is_admitted() {
        assert!(
            walk(&note("text: z.string()", "text: z.string()", "fromPick(postNote)", r#", other: "ready""#)).is_empty()
        );
    }
}
