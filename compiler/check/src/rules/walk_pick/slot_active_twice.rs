use super::Picks;
use crate::rules::{Ctx, Sink};
use crate::passes::slot_clash::slot_clash_pairs;
use diagnostics::declare_rule;
use ir::StateKind;

declare_rule! {
    /// Refuses one Agent slot of a Machine invoked by two states that can be active together.
    ///
    /// ## Why
    /// A slot is one Agent of the Machine. Its Turns share one sender, so `sentBy` cannot tell
    /// them apart and one pick matches both writings, and they share one conversation, so
    /// `continue` cannot hold two. Two states are active together when they are in two parallel
    /// regions, when one is inside the other, or when they are one state that invokes the slot
    /// twice. `createMachine` refuses it (`party.ts`, `refuseSlotActiveTwice`, ADR-0015); the walk
    /// writes one line for each pair of states that clash.
    ///
    /// ## Example
    /// ```ts
    /// states: {
    ///   review: {
    ///     type: "parallel",
    ///     states: {
    ///       left: { invoke: { src: "writer", input: { prompt: "Left." } } },
    ///       right: { invoke: { src: "writer", input: { prompt: "Right." } } },
    ///     },
    ///   },
    /// }
    /// ```
    /// is refused: `machine "notes": Agent "writer" would run two Turns at once:
    /// "notes.review.left" and "notes.review.right" invoke it and can be active together (parallel
    /// regions). A slot is one Agent, with one sender and one conversation, so `sentBy` cannot
    /// tell its two Turns apart and `continue` cannot hold both. For two Agents at once, use two
    /// slots (one definition can fill both), a child Machine in each region, or a Pool
    /// (ADR-0075)`.
    ///
    /// ## Use instead
    /// Two slots (`writer` and `reviewer`; one `agent({...})` definition can fill both), a child
    /// Machine in each region, or a Pool.
    pub static SLOT_ACTIVE_TWICE = { code: "slot-active-twice", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Picks<'_>>, sink: &mut Sink) {
    for pair in slot_clash_pairs(cx.m) {
        let (a, b) = (cx.node_id(pair.a), cx.node_id(pair.b));
        let how = if pair.a == pair.b {
            format!("state \"{a}\" invokes it twice")
        } else {
            let nested = cx.m.is_ancestor_or_self(pair.a, pair.b) || cx.m.is_ancestor_or_self(pair.b, pair.a);
            let orthogonal = !nested && cx.m.state(cx.m.nearest_common(pair.a, pair.b)).kind == StateKind::Parallel;
            format!(
                "\"{a}\" and \"{b}\" invoke it and can be active together {}",
                if orthogonal { "(parallel regions)" } else { "(one inside the other)" }
            )
        };
        let Some(at) = cx.invoke(pair.b, pair.b_invoke) else { continue };
        sink.at_path(
            &SLOT_ACTIVE_TWICE,
            at.loc,
            cx.map.invoke_path(pair.b, pair.b_invoke),
            format!(
                "machine \"{}\": Agent \"{}\" would run two Turns at once: {how}. A slot is one Agent, with \
                 one sender and one conversation, so `sentBy` cannot tell its two Turns apart and `continue` cannot \
                 hold both. For two Agents at once, use two slots (one definition can fill both), a child Machine in \
                 each region, or a Pool (ADR-0075)",
                cx.m.id, pair.slot
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::walk;

    const HEAD: &str = r#"import { agent, jr2Setup } from "@jr2/orchestrator";
export const machine = jr2Setup({
  actors: { writer: agent({ model: "m", instructions: "i", workspace: "none" }) },
}).createMachine({ id: "notes", "#;

    fn run(states: &str) -> Vec<(String, String)> {
        walk(&format!("{HEAD}{states} }});\n"))
    }

    #[test]
    fn parallel_regions_nested_and_twice() {
        let got = run(r#"type: "parallel", states: {
            l: { invoke: { src: "writer", input: { prompt: "a" } } },
            r: { invoke: { src: "writer", input: { prompt: "b" } } } }"#);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].1.starts_with(
            "machine \"notes\": Agent \"writer\" would run two Turns at once: \"notes.l\" and \"notes.r\" invoke it and can be active together (parallel regions). A slot is one Agent"
        ), "{got:?}");
        assert!(got[0].1.ends_with("or a Pool (ADR-0075)"));

        let got = run(r#"initial: "a", states: { a: { invoke: { src: "writer" }, initial: "b",
            states: { b: { invoke: [{ src: "writer" }, { src: "writer" }] } } } }"#);
        let texts: Vec<&str> = got.iter().map(|(_, m)| m.split(". A slot").next().unwrap()).collect();
        assert_eq!(
            texts,
            [
                "machine \"notes\": Agent \"writer\" would run two Turns at once: \"notes.a\" and \"notes.a.b\" invoke it and can be active together (one inside the other)",
                "machine \"notes\": Agent \"writer\" would run two Turns at once: state \"notes.a.b\" invokes it twice",
            ]
        );
    }

    #[test]
    fn siblings_are_admitted() {
        let got = run(r#"initial: "a", states: { a: { invoke: { src: "writer" }, on: { go: "b" } },
            b: { invoke: { src: "writer" } } }"#);
        assert!(got.is_empty(), "{got:?}");
    }
}
