use super::{from_picks, reads_on_entry, Picks};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use machine::parts::{effect_input_takes, effect_parts};
use smallvec::SmallVec;

declare_rule! {
    /// Refuses a `fromPick` param that is no key of the Effect's input, when nothing else reads it.
    ///
    /// ## Why
    /// `fromPick(def)` gives the params of the pick to the input of the invoked Effect by name.
    /// TypeScript finds a missing key or a key of the wrong type, but it accepts an extra key: a
    /// param that is no key of the Effect's input goes nowhere. When nothing else reads it (the
    /// `fill`, an `assign`, another invoke's input), the Agent supplies it and it reaches nothing.
    /// `createMachine` refuses it (`pick.ts`, `fromPick`). An Effect whose input keys are not
    /// known (an Open argv, a `dispatch` with no `input` schema) is not checked.
    ///
    /// ## Example
    /// ```ts
    /// const postNote = defineEvent({
    ///   name: "post_note",
    ///   description: "Post a note to the team channel.",
    ///   input: z.object({ text: z.string(), channel: z.string() }),
    /// });
    /// // note: http({ ..., input: z.object({ text: z.string() }) })
    /// posting: { invoke: { src: "note", input: fromPick(postNote), onDone: "ready" } },
    /// ```
    /// is refused at `channel`: `machine "note": pick "post_note" enters state
    /// "note.writing.posting" (Effect "note") with fromPick: "channel" is no key of the Effect's
    /// input (text), and nothing else reads it — the Agent supplies it and it reaches nothing;
    /// name an argv slot for it, read it in `fill`, store it with assign, or drop it from the def`.
    ///
    /// ## Use instead
    /// Name an argv slot for it (`arg("channel")`), read it in `fill`, store it with `assign`, or
    /// drop it from the def.
    pub static FROM_PICK_UNKNOWN_KEY = { code: "from-pick-unknown-key", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Picks<'_>>, sink: &mut Sink) {
    for fp in from_picks(cx) {
        let inv = &cx.m.state(fp.state).invokes[fp.invoke];
        let Some(actor) = cx.parts.actor(&inv.src) else { continue };
        let reads = reads_on_entry(cx, &fp.pick, &[fp.state]);
        if !reads.incomplete.is_empty() {
            continue;
        }
        // The path that finds nothing asks only whether the Effect's input takes every param
        // nothing else reads (no parts written, no keys listed: ~6 K instructions per `fromPick`
        // less); the line's list of keys is written below, for a param it does not take.
        let unread: SmallVec<[&str; 8]> =
            fp.pick.params.iter().map(|(p, _)| &**p).filter(|p| !reads.reads(p)).collect();
        if unread.is_empty() || effect_input_takes(actor, &unread) != Some(false) {
            continue;
        }
        let Some(keys) = effect_parts(actor).and_then(|p| p.input_shape()) else { continue };
        let keys = keys.keys();
        for (param, loc) in &fp.pick.params {
            if keys.iter().any(|k| k == param) || reads.reads(param) {
                continue;
            }
            sink.at_path(
                &FROM_PICK_UNKNOWN_KEY,
                *loc,
                &base::path::join(cx.map.invoke_path(fp.state, fp.invoke), "input"),
                format!(
                    "machine \"{}\": pick \"{}\" enters state \"{}\" (Effect \"{}\") with fromPick: \"{param}\" is no key of the Effect's input ({}), and nothing else reads it — the Agent supplies it and it reaches nothing; name an argv slot for it, read it in `fill`, store it with assign, or drop it from the def",
                    cx.m.id,
                    fp.pick.name,
                    cx.node_id(fp.state),
                    inv.src,
                    base::list::listed(&keys)
                ),
            );
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::testing::walk;

    /// A note Machine whose pick has `params`, the `note` Effect's input `effect_keys`, and the
    /// posting state's input `input` and the `post_note` transition `route`.
    pub(crate) fn note(params: &str, effect_keys: &str, input: &str, extra: &str) -> String {
        format!(
            r#"import {{ z }} from "zod";
import {{ agent, defineEvent, fromPick, http, jr2Setup }} from "@jr2/orchestrator";
import {{ assign }} from "xstate";
const postNote = defineEvent({{ name: "post_note", description: "Post.", input: z.object({{ {params} }}) }});
const other = defineEvent({{ name: "other", description: "Other.", input: z.object({{}}) }});
export const machine = jr2Setup({{
  events: [postNote, other],
  actors: {{
    writer: agent({{ model: "m", instructions: "i", workspace: "none" }}),
    note: http({{ method: "POST", url: "https://hooks.example.com/notes", input: z.object({{ {effect_keys} }}), request: ({{ text }}) => ({{ json: {{ text }} }}) }}),
  }},
}}).createMachine({{
  id: "note",
  initial: "writing",
  states: {{
    writing: {{
      invoke: {{ src: "writer", input: {{ prompt: "p" }} }},
      initial: "ready",
      states: {{
        ready: {{ on: {{ post_note: "posting"{extra} }} }},
        posting: {{ invoke: {{ src: "note", input: {input}, onDone: "ready" }} }},
      }},
    }},
  }},
}});
"#
        )
    }

    #[test]
    fn an_extra_param_is_refused() {
        let got = walk(&note("text: z.string(), channel: z.string()", "text: z.string()", "fromPick(postNote)", ""));
        assert_eq!(
            got,
            [(
                "from-pick-unknown-key".to_string(),
                "machine \"note\": pick \"post_note\" enters state \"note.writing.posting\" (Effect \"note\") with fromPick: \"channel\" is no key of the Effect's input (text), and nothing else reads it — the Agent supplies it and it reaches nothing; name an argv slot for it, read it in `fill`, store it with assign, or drop it from the def".to_string()
            )]
        );
    }

    #[test]
    fn an_extra_param_read_in_fill_is_admitted() {
        let got = walk(&note(
            "text: z.string(), channel: z.string()",
            "text: z.string(), to: z.string()",
            "fromPick(postNote, ({ params }) => ({ to: params.channel }))",
            "",
        ));
        assert!(got.is_empty(), "{got:?}");
        assert!(walk(&note("text: z.string()", "text: z.string()", "fromPick(postNote)", "")).is_empty());
    }
}
