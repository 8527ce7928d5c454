use super::{pick_entries, reads_on_entry, Picks, Reads};
use crate::rules::{Ctx, Sink};
use base::Span;
use diagnostics::declare_rule;
use diagnostics::{Edit, Fix};
use ir::StateId;
use machine::lower::is_call;
use machine::value::Value;
use rustc_hash::FxHashSet;
use std::borrow::Cow;

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

pub(crate) fn check(cx: &Ctx<Picks<'_>>, sink: &mut Sink) {
    let mut judged = Judged::default();
    // The reads where the last entry's pick entered: the entries of one transition's target
    // (each Effect state it enters) share them, read once.
    let mut last: Option<(&str, &[StateId], Reads)> = None;
    for entry in pick_entries(cx) {
        if entry.pick.params.is_empty() {
            continue;
        }
        let st = cx.m.state(entry.state);
        let inv = &st.invokes[entry.invoke];
        let input: Option<&Value> = cx.invoke(entry.state, entry.invoke).and_then(|item| item.get("input"));
        // A `fromPick` input: its own rules judge it.
        if input.is_some_and(|i| is_call(i, "fromPick")) {
            continue;
        }
        if !judged.first(cx, entry.pick.name, entry.state) {
            continue;
        }
        // The Effect's own mapper the analysis cannot follow: the seed's "could not probe".
        if let Some(mapper) = input.filter(|i| i.as_function().is_some_and(|f| !f.facts.complete)) {
            let state = cx.node_id(entry.state);
            super::unprobed_mapper::report(
                sink,
                mapper,
                cx.map.invoke_path(entry.state, entry.invoke),
                entry.pick.name,
                &state,
                &inv.src,
            );
            continue;
        }
        // The Effect's own input reads every param (the usual): nothing is unread, whatever the
        // others read.
        if let Some(input) = input {
            let mut own = Reads::default();
            own.add(input, entry.pick.name);
            if own.reads_all(&entry.pick) {
                continue;
            }
        }
        let reads = match &last {
            Some((pick, entered, reads)) if *pick == entry.pick.name && std::ptr::eq(*entered, entry.entered) => reads,
            _ => &last.insert((entry.pick.name, entry.entered, reads_on_entry(cx, &entry.pick, entry.entered))).2,
        };
        if !reads.incomplete.is_empty() {
            // Some reader is opaque: it may read any param.
            continue;
        }
        for (param, loc) in &entry.pick.params {
            if reads.reads(param) {
                continue;
            }
            sink.at_path(
                &UNREAD_PICK_PARAM,
                *loc,
                cx.map.transition_path(entry.transition),
                format!(
                    "machine \"{}\": pick \"{}\" enters state \"{}\" (Effect \"{}\"), which never reads \"{param}\": the Agent supplies it and nothing uses it — map it in an invoke's input, store it with assign, or drop it from the def",
                    cx.m.id,
                    entry.pick.name,
                    cx.node_id(entry.state),
                    inv.src
                ),
            );
            // The fix: drop the param from its def, where the def is written out.
            let text = cx.files.get(loc.file.0 as usize).map(|f| f.text.as_str());
            if let (Some(line), Some(fix)) =
                (sink.last_mut(), text.and_then(|t| drop_param(t, param, loc.span.start)))
            {
                line.fix = Some(fix);
            }
        }
    }
}

/// Deletes the object property that starts at `at` (`key: value`), with one comma beside it:
/// the one after it, or for the last property the one before it. `None` where the text at `at`
/// is not the property `key` or its end is not found.
fn drop_param(text: &str, key: &str, at: u32) -> Option<Fix> {
    let bytes = text.as_bytes();
    let at = at as usize;
    // The param's place is its key, bare or quoted.
    let written = text.get(at..)?;
    let bare = written.strip_prefix(key).or_else(|| {
        let quote = *bytes.get(at)?;
        matches!(quote, b'"' | b'\'').then(|| written[1..].strip_prefix(key)?.strip_prefix(quote as char)).flatten()
    })?;
    if !bare.trim_start().starts_with(':') {
        return None;
    }
    // The property ends at the first `,` or closing bracket outside brackets and strings.
    let (mut depth, mut end, mut quote) = (0i32, None, None::<u8>);
    let mut i = at;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' | b'`' => quote = Some(b),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                _ => {}
            },
        }
        i += 1;
    }
    let end = end?;
    let (start, end) = if bytes[end] == b',' {
        // `a, b` → drop `a, `.
        let mut e = end + 1;
        while e < bytes.len() && bytes[e] == b' ' {
            e += 1;
        }
        (at, e)
    } else {
        // The last property: drop the comma before it, if any, and the spaces after the value.
        let mut s = at;
        while s > 0 && bytes[s - 1].is_ascii_whitespace() {
            s -= 1;
        }
        let s = if s > 0 && bytes[s - 1] == b',' { s - 1 } else { at };
        let mut e = end;
        while e > at && bytes[e - 1] == b' ' {
            e -= 1;
        }
        (s, e)
    };
    Some(Fix::edits(
        format!("drop \"{key}\" from the event's def"),
        vec![Edit { span: Span::new(start as u32, end as u32), replacement: String::new() }],
    ))
}

/// The (pick, state) pairs judged already: a pair is judged once per state id (xstate's, which
/// two states share only where an `id` is written twice; written out only to tell those). A few
/// are scanned; past [`SCANNED_JUDGED`] each state's id is written once, into a set.
#[derive(Default)]
struct Judged<'p, 'v> {
    few: Vec<(&'p str, StateId)>,
    many: FxHashSet<(&'p str, Cow<'v, str>)>,
}

const SCANNED_JUDGED: usize = 16;

impl<'p, 'v> Judged<'p, 'v> {
    /// Is this the first time `pick` entering `state` is judged? (Records it.)
    fn first(&mut self, cx: &Ctx<Picks<'v>>, pick: &'p str, state: StateId) -> bool {
        if self.few.len() < SCANNED_JUDGED {
            let judged = self.few.iter().any(|&(p, s)| p == pick && (s == state || cx.node_id(s) == cx.node_id(state)));
            if !judged {
                self.few.push((pick, state));
            }
            return !judged;
        }
        if self.many.is_empty() {
            self.many.extend(self.few.iter().map(|&(p, s)| (p, cx.node_id(s))));
        }
        self.many.insert((pick, cx.node_id(state)))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::testing::walk;
    use super::drop_param;

    fn dropped(text: &str, key: &str) -> Option<String> {
        let fix = drop_param(text, key, text.find(key)? as u32)?;
        diagnostics::apply_fixes(text, &[&fix])
    }

    #[test]
    fn a_param_is_dropped_with_one_comma() {
        let text = "z.object({ module: z.string(), verbose: z.boolean() })";
        assert_eq!(dropped(text, "verbose").as_deref(), Some("z.object({ module: z.string() })"));
        assert_eq!(dropped(text, "module").as_deref(), Some("z.object({ verbose: z.boolean() })"));
        let nested = "z.object({ a: z.enum([\"x,\", \"y\"]), b: z.string() })";
        assert_eq!(dropped(nested, "a").as_deref(), Some("z.object({ b: z.string() })"));
        assert_eq!(dropped(text, "z.boolean"), None, "not a property's key");
    }

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

    /// A wide Machine: more states than are scanned before they are hashed, each entered by a
    /// pick whose mapper reads more params than are searched as they come; each unread param is
    /// found once per state all the same.
    #[test]
    fn a_wide_machine_reads_as_a_narrow_one() {
        let (states, params) = (300, 40);
        let defs: Vec<String> = (0..params).map(|i| format!("p{i}: z.string()")).collect();
        let reads: Vec<String> = (0..params - 1).map(|i| format!("event.p{i}")).collect();
        let body: Vec<String> = (0..states)
            .map(|i| {
                format!(
                    r#"s{i}: {{ on: {{ go: "s{}" }}, invoke: {{ src: "test", input: ({{ event }}) => ({{ file: [{}] }}), onDone: "s0" }} }}"#,
                    (i + 1) % states,
                    reads.join(", ")
                )
            })
            .collect();
        let text = format!(
            r#"import {{ z }} from "zod";
import {{ arg, command, defineEvent, jr2Setup }} from "@jr2/orchestrator";
const go = defineEvent({{ name: "go", description: "Go.", input: z.object({{ {} }}) }});
export const machine = jr2Setup({{
  events: [go],
  actors: {{ test: command(["node", "--test", arg("file")]) }},
}}).createMachine({{ id: "wide", initial: "s0", states: {{ {} }} }});
"#,
            defs.join(", "),
            body.join(",\n")
        );
        let got = walk(&text);
        assert_eq!(got.len(), states, "{:?}", got.first());
        let last = format!("p{}", params - 1);
        assert!(got
            .iter()
            .all(|(code, m)| code == "unread-pick-param" && m.contains(&format!("never reads \"{last}\""))));
    }
}
