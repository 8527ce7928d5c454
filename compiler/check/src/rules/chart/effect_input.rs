use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use chart::lower::SrcClass;
use diagnostics::declare_rule;
use ir::SlotKind;
use base::small_set::Lookup;
use kit::lends::EffectParts;

use super::input_shape::{effect_parts, inputs, is_slot_value, shape_of, shape_text, InputAt};

declare_rule! {
    /// Refuses a lent Effect's invoke whose input is not the Effect's input shape.
    ///
    /// ## Why
    /// An Effect runs a program, a request, a push, a dispatch or an MCP call that the Open body
    /// bound; its input fills the slots the body left open, and nothing else. Each kind's shape
    /// (required keys, optional keys, keys of which exactly one) is in
    /// `docs/reference/effects.md`; where the Workspace has Repo Slots, `worktree` is required
    /// on what can name one. Each value is a string or a reference: the Effect's slots are text.
    /// A dispatch with no input schema takes the callee's run body, an object the callee's door
    /// checks. An Effect whose input keys the door cannot read (a command whose argv nobody bound)
    /// cannot be given an input at all.
    ///
    /// ## Example
    /// With `"check": { "kind": "command", "argv": ["node", "--test", { "arg": "file" }] }` lent:
    /// ```json
    /// { "invoke": { "src": "check", "input": { "files": "a.test.js" } } }
    /// ```
    /// is refused: `states.a.invoke.input: the lent Effect "check" takes file, and optionally
    /// worktree; missing: file; not its input: files`. The other lines:
    /// - `states.a.invoke.input: the lent Effect "check" takes an object: file, and optionally
    ///   worktree` (no input, or not an object);
    /// - `states.a.invoke.input.file: an Effect's input slot takes a string or a reference`;
    /// - `states.a.invoke.input: the lent Effect "tests" has no input keys the door can read (an
    ///   Open argv nobody bound)`;
    /// - `states.a.invoke.input: the lent dispatch "review" takes an object, the run's body — the
    ///   callee's door checks it`;
    /// - for a cut, `…; give one of branch, detach` when neither or both are given.
    ///
    /// ## Use instead
    /// ```json
    /// { "invoke": { "src": "check", "input": { "file": "a.test.js", "worktree": "/work/app/fix-1" } } }
    /// ```
    pub static EFFECT_INPUT = { code: "effect-input", rule: Some(8), severity: Error };
}

fn slot_values(at: &InputAt, keys: Option<&Lookup<String>>, sink: &mut Sink) {
    for (key, v) in at.given_values() {
        if keys.is_some_and(|ks| !ks.contains(key)) {
            continue;
        }
        if !is_slot_value(v) {
            sink.line(&EFFECT_INPUT, v.span, &at.key_path(key), "an Effect's input slot takes a string or a reference");
        }
    }
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for at in inputs(cx) {
        if at.class != SrcClass::Lent(SlotKind::Effect) {
            continue;
        }
        let src = at.inv.src;
        let Some(shaped) = shape_of(cx, src) else {
            if let Some(EffectParts::Dispatch { .. }) = effect_parts(cx, src) {
                // Its input is the run's body, and the callee's door is the check (ADR-0071).
                if at.input.is_none() {
                    continue;
                }
                if !at.is_object() {
                    sink.line(
                        &EFFECT_INPUT,
                        at.span(),
                        &at.ipath,
                        format!(
                            "the lent dispatch \"{src}\" takes an object, the run's body — the callee's door checks it"
                        ),
                    );
                    continue;
                }
                slot_values(at, None, sink);
            } else {
                sink.line(
                    &EFFECT_INPUT,
                    at.span(),
                    &at.ipath,
                    format!(
                        "the lent Effect \"{src}\" has no input keys the door can read (an Open argv nobody bound)"
                    ),
                );
            }
            continue;
        };
        let shape = &shaped.shape;
        if at.input.is_none() && shape.required.is_empty() && shape.one_of.is_none() {
            continue;
        }
        if !at.is_object() {
            sink.line(
                &EFFECT_INPUT,
                at.span(),
                &at.ipath,
                format!("the lent Effect \"{src}\" takes an object: {}", shape_text(shape)),
            );
            continue;
        }
        // Sets beside the lists, each looked up once per key: both sides may be long.
        let keys = Lookup::new(&shaped.keys);
        let given = at.given();
        let is_given = Lookup::new(&given);
        let missing: Vec<&str> = shape.required.iter().map(String::as_str).filter(|k| !is_given.contains(k)).collect();
        let extra: Vec<&str> = given.iter().copied().filter(|g| !keys.contains(g)).collect();
        let of_one = shape.one_of.as_ref().map_or(1, |one| one.iter().filter(|k| is_given.contains(k.as_str())).count());
        if !missing.is_empty() || !extra.is_empty() || of_one != 1 {
            let mut text = format!("the lent Effect \"{src}\" takes {}", shape_text(shape));
            if !missing.is_empty() {
                text.push_str(&format!("; missing: {}", base::list::listed(&missing)));
            }
            if !extra.is_empty() {
                text.push_str(&format!("; not its input: {}", base::list::listed(&extra)));
            }
            if let (true, Some(one)) = (of_one != 1, &shape.one_of) {
                text.push_str(&format!("; give one of {}", base::list::listed(one)));
            }
            sink.line(&EFFECT_INPUT, at.span(), &at.ipath, text);
        }
        slot_values(at, Some(&keys), sink);
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    const EFFECTS: &str = r#"
      "tests": { "kind": "command", "argv": ["npm", "test"] },
      "check": { "kind": "command", "argv": ["node", "--test", { "arg": "file" }] },
      "open": { "kind": "command" },
      "cut": { "kind": "command", "cut": { "expect": "new" } },
      "post": { "kind": "http", "method": "POST", "url": "https://hooks.example.com/notes",
                "input": { "type": "object", "properties": { "text": { "type": "string" }, "tag": { "type": "string" } }, "required": ["text"] } },
      "publish": { "kind": "push", "force": false },
      "review": { "kind": "dispatch", "workflow": "review" },
      "lookup": { "kind": "mcp", "op": "call", "server": "tickets", "tool": "get" }"#;

    fn lines(invoke: &str) -> Vec<String> {
        lines_of("effect-input", &chart_with(invoke), &lends_with(EFFECTS, ""))
    }

    fn lines_slots(invoke: &str) -> Vec<String> {
        lines_of("effect-input", &chart_with(invoke), &lends_with(EFFECTS, r#""repoSlots": ["app"]"#))
    }

    #[test]
    fn refuses_missing_and_extra_keys() {
        assert_eq!(
            lines(r#"{ "src": "check", "input": { "files": "a.test.js" } }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"check\" takes file, and optionally worktree; missing: file; not its input: files"]
        );
        assert_eq!(
            lines(r#"{ "src": "post", "input": { "tag": "x" } }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"post\" takes text, and optionally tag; missing: text"]
        );
        assert_eq!(
            lines(r#"{ "src": "lookup", "input": { "id": "7" } }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"lookup\" takes nothing; not its input: id"]
        );
    }

    #[test]
    fn refuses_a_cut_without_exactly_one_of_branch_and_detach() {
        assert_eq!(
            lines(r#"{ "src": "cut", "input": { "path": "/work/app/fix-1" } }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"cut\" takes path, exactly one of branch, detach, and optionally from; give one of branch, detach"]
        );
        assert_eq!(
            lines(r#"{ "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "fix-1", "detach": "true" } }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"cut\" takes path, exactly one of branch, detach, and optionally from; give one of branch, detach"]
        );
    }

    #[test]
    fn refuses_an_input_that_is_not_an_object() {
        assert_eq!(
            lines(r#"{ "src": "check" }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"check\" takes an object: file, and optionally worktree"]
        );
        assert_eq!(
            lines(r#"{ "src": "publish", "input": "now" }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"publish\" takes an object: optionally worktree"]
        );
    }

    #[test]
    fn requires_worktree_under_repo_slots() {
        assert_eq!(
            lines_slots(r#"{ "src": "tests" }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"tests\" takes an object: worktree"]
        );
        assert_eq!(
            lines_slots(r#"{ "src": "check", "input": { "file": "a.js" } }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"check\" takes file, worktree; missing: worktree"]
        );
        assert!(lines_slots(r#"{ "src": "tests", "input": { "worktree": "/work/app/fix-1" } }"#).is_empty());
        // An empty list is no Repo Slots.
        let empty =
            lines_of("effect-input", &chart_with(r#"{ "src": "tests" }"#), &lends_with(EFFECTS, r#""repoSlots": []"#));
        assert!(empty.is_empty());
    }

    #[test]
    fn refuses_a_slot_value_that_is_not_text() {
        assert_eq!(
            lines(r#"{ "src": "check", "input": { "file": ["a.js"] } }"#),
            ["effect-input: states.a.invoke.input.file: an Effect's input slot takes a string or a reference"]
        );
    }

    #[test]
    fn refuses_an_effect_with_no_readable_keys() {
        assert_eq!(
            lines(r#"{ "src": "open" }"#),
            ["effect-input: states.a.invoke.input: the lent Effect \"open\" has no input keys the door can read (an Open argv nobody bound)"]
        );
    }

    #[test]
    fn a_dispatch_with_no_schema_takes_an_object_of_text() {
        assert_eq!(
            lines(r#"{ "src": "review", "input": "all" }"#),
            ["effect-input: states.a.invoke.input: the lent dispatch \"review\" takes an object, the run's body — the callee's door checks it"]
        );
        assert_eq!(
            lines(r#"{ "src": "review", "input": { "topic": "x", "n": 3 } }"#),
            ["effect-input: states.a.invoke.input.n: an Effect's input slot takes a string or a reference"]
        );
        assert!(lines(r#"{ "src": "review" }"#).is_empty());
        assert!(lines(r#"{ "src": "review", "input": { "topic": { "$ref": "context.topic" } } }"#).is_empty());
    }

    #[test]
    fn admits_the_shapes() {
        assert!(lines(r#"{ "src": "tests" }"#).is_empty());
        assert!(lines(r#"{ "src": "publish" }"#).is_empty());
        assert!(lines(r#"{ "src": "check", "input": { "file": "{{context.file}}", "worktree": "/work/app/x" } }"#)
            .is_empty());
        assert!(lines(
            r#"{ "src": "cut", "input": { "path": "/work/app/fix-1", "branch": "fix-1", "from": "main" } }"#
        )
        .is_empty());
        assert!(lines(r#"{ "src": "post", "input": { "text": "hi" } }"#).is_empty());
    }
}
