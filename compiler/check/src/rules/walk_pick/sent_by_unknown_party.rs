use super::Picks;
use crate::rules::{Ctx, Sink};
use crate::rules::chart::sent_by_no_party::{named_parties, parties_of};
use base::path::names;
use base::small_set::SmallSet;
use diagnostics::declare_rule;
use ir::Guard;
use machine::lower::{arg, kit_name};
use machine::value::Value;

declare_rule! {
    /// Refuses a `sentBy("<party>")` guard of a Machine that names no party of it.
    ///
    /// ## Why
    /// `sentBy(id)` is true for an event that the party `id` sent. The parties of a Machine are
    /// its Agent slots (the `src` of an Agent invoke) and its Gates (by invoke `id`; an unnamed
    /// Gate is named by its state's key path, as `jr2Setup` names it). An id that is none of them
    /// never matches, so the transition would never run for a party. `createMachine` refuses it
    /// (`party.ts`, `sentBy`). The Chart door's own rule is `sent-by-no-party`.
    ///
    /// ## Example
    /// ```ts
    /// drafting: {
    ///   invoke: [{ src: "writer", input: { prompt: "Draft." } }, { src: "gate", id: "editor" }],
    ///   on: { done: [{ guard: sentBy("writr"), target: "review" }, { target: "published" }] },
    /// },
    /// ```
    /// is refused: `machine "notes": sentBy("writr") on "done" at "notes.drafting" names no party
    /// of this Machine (Agent slots: writer; Gate invoke ids: editor)`.
    ///
    /// ## Use instead
    /// The slot key of an Agent the Machine invokes, or the invoke `id` of one of its Gates:
    /// `sentBy("writer")`.
    pub static SENT_BY_UNKNOWN_PARTY = { code: "sent-by-unknown-party", rule: None, severity: Error };
}

/// The `sentBy` guards in a guard value: `sentBy("x")`, `{ type: "jr2.sentBy", params: { id } }`,
/// inside `and`/`or`/`not`. Each with its id value and the guard's value.
fn sent_bys<'v>(g: &'v Value<'v>, found: &mut impl FnMut(&'v Value<'v>, &'v Value<'v>)) {
    if g.props().is_some() {
        if g.get("type").and_then(Value::as_str) == Some("jr2.sentBy") {
            if let Some(id) = g.get("params").and_then(|p| p.get("id")) {
                found(id, g);
            }
        }
        return;
    }
    match kit_name(g) {
        Some("sentBy") => {
            if let Some(id) = arg(g, 0) {
                found(id, g);
            }
        }
        Some("and" | "or") => {
            for x in arg(g, 0).and_then(Value::as_array).unwrap_or(&[]) {
                sent_bys(x, found);
            }
        }
        Some("not") => {
            if let Some(x) = arg(g, 0) {
                sent_bys(x, found);
            }
        }
        _ => {}
    }
}

/// Does a lowered guard hold a `sentBy` whose id may name no party (none of `named`, the plain
/// ones of [`named_parties`])?
fn names_no_party<'m>(named: &SmallSet<&'m str>, g: &'m Guard) -> bool {
    match g {
        Guard::SentBy { id } => !named.contains(id.as_str()),
        Guard::Named { .. } | Guard::Expr { .. } => false,
        Guard::Not { guard } => names_no_party(named, guard),
        Guard::And { guards } | Guard::Or { guards } => guards.iter().any(|g| names_no_party(named, g)),
    }
}

pub(crate) fn check(cx: &Ctx<Picks<'_>>, sink: &mut Sink) {
    let mut parties = None;
    let mut named = None;
    for (ti, t) in cx.m.transitions.iter().enumerate() {
        let ir::Trigger::Event(event) = &t.trigger else { continue };
        // Lowering made each `sentBy` of the guard a `SentBy` with its id (one whose id is no
        // string it did not, and this rule passes over it too): where the IR's name parties only,
        // so do the values, which are read only for a line.
        let Some(g) = &t.guard else { continue };
        let named = &*named.get_or_insert_with(|| named_parties(cx.m));
        if !names_no_party(named, g) {
            continue;
        }
        let Some(guard) = cx.transition(ti).and_then(|tv| tv.get("guard")) else { continue };
        sent_bys(guard, &mut |id, g| {
            let Some(party) = id.as_str() else { return };
            // The usual `sentBy` names a party plainly: no list is made for it.
            if named.contains(party) {
                return;
            }
            let (agents, gates) = parties.get_or_insert_with(|| parties_of(cx.m, cx.map));
            if agents.iter().any(|a| a == party) || gates.iter().any(|x| x == party) {
                return;
            }
            sink.at_path(
                &SENT_BY_UNKNOWN_PARTY,
                g.loc,
                &base::path::join(cx.map.transition_path(ti), "guard"),
                format!(
                    "machine \"{}\": sentBy(\"{party}\") on \"{event}\" at \"{}\" names no party of this Machine (Agent slots: {}; Gate invoke ids: {})",
                    cx.m.id,
                    cx.node_id(t.source),
                    names(agents),
                    names(gates)
                ),
            );
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::walk;

    fn run(guard: &str) -> Vec<(String, String)> {
        walk(&format!(
            r#"import {{ z }} from "zod";
import {{ agent, defineEvent, jr2Setup, sentBy }} from "@jr2/orchestrator";
import {{ and, not }} from "xstate";
const done = defineEvent({{ name: "done", description: "d", input: z.object({{}}) }});
export const machine = jr2Setup({{
  events: [done],
  actors: {{ writer: agent({{ model: "m", instructions: "i", workspace: "none" }}) }},
}}).createMachine({{
  id: "notes",
  initial: "drafting",
  states: {{
    drafting: {{
      invoke: [{{ src: "writer" }}, {{ src: "gate", id: "editor" }}, {{ src: "gate" }}],
      on: {{ done: [{{ guard: {guard}, target: "published" }}, {{ target: "published" }}] }},
    }},
    published: {{ type: "final" }},
  }},
}});
"#
        ))
    }

    #[test]
    fn unknown_parties_are_refused() {
        assert_eq!(
            run(r#"sentBy("writr")"#),
            [(
                "sent-by-unknown-party".to_string(),
                "machine \"notes\": sentBy(\"writr\") on \"done\" at \"notes.drafting\" names no party of this Machine (Agent slots: writer; Gate invoke ids: editor, drafting)".to_string()
            )]
        );
        assert_eq!(run(r#"and([not(sentBy("x")), { type: "jr2.sentBy", params: { id: "y" } }])"#).len(), 2);
    }

    #[test]
    fn parties_are_admitted() {
        for g in [r#"sentBy("writer")"#, r#"sentBy("editor")"#, r#"sentBy("drafting")"#] {
            assert!(run(g).is_empty(), "{g}");
        }
    }
}
