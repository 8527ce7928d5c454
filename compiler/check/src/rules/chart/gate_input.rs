use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use chart::lower::SrcClass;
use diagnostics::declare_rule;

use super::input_shape::{inputs, is_object, is_ref};

declare_rule! {
    /// Refuses a Gate invoke whose input is not an object of `gate` (a name) and `meta`.
    ///
    /// ## Why
    /// The kit's Gate waits for an outside answer (a human, a webhook). Its input, where it has
    /// one, says which question this is: `gate`, a name, and `meta`, an object the answering side
    /// reads. Nothing else reaches the outside, so any other key would be dropped.
    ///
    /// The first line below is the seed's; the lines for another key, for `gate` and for `meta`
    /// are ours.
    ///
    /// ## Example
    /// ```json
    /// { "invoke": { "src": "gate", "id": "editor", "input": "approve the draft" } }
    /// ```
    /// is refused: `states.a.invoke.input: a Gate's input is an object of gate (a name) and meta`.
    /// Other refusals: `states.a.invoke.input.question: a Gate's input takes gate and meta only`;
    /// `states.a.invoke.input.gate: a Gate's gate is a name: a string that is not empty, or a
    /// reference`; `states.a.invoke.input.meta: a Gate's meta is an object or a reference`.
    ///
    /// ## Use instead
    /// No input, or:
    /// ```json
    /// { "invoke": { "src": "gate", "id": "editor", "input": { "gate": "approve-draft", "meta": { "draft": { "$ref": "context.draft" } } } } }
    /// ```
    pub static GATE_INPUT = { code: "gate-input", rule: Some(8), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for at in inputs(cx) {
        if at.class != SrcClass::Gate || at.input.is_none() {
            continue;
        }
        if !at.is_object() {
            sink.line(&GATE_INPUT, at.span(), &at.ipath, "a Gate's input is an object of gate (a name) and meta");
            continue;
        }
        for key in at.given() {
            let Some(v) = at.value(key) else { continue };
            match key {
                "gate" => {
                    if v.as_str().is_none_or(str::is_empty) && !is_ref(v) {
                        sink.line(
                            &GATE_INPUT,
                            v.span,
                            &at.key_path(key),
                            "a Gate's gate is a name: a string that is not empty, or a reference",
                        );
                    }
                }
                "meta" => {
                    if !is_object(v) && !is_ref(v) {
                        sink.line(&GATE_INPUT, v.span, &at.key_path(key), "a Gate's meta is an object or a reference");
                    }
                }
                _ => {
                    sink.line(&GATE_INPUT, v.span, &at.key_path(key), "a Gate's input takes gate and meta only");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    fn lines(invoke: &str) -> Vec<String> {
        lines_of("gate-input", &chart_with(invoke), &lends_with("", ""))
    }

    #[test]
    fn refuses_an_input_that_is_not_an_object() {
        for input in [r#""approve""#, "[]", r#"{ "$ref": "context.q" }"#] {
            assert_eq!(
                lines(&format!(r#"{{ "src": "gate", "input": {input} }}"#)),
                ["gate-input: states.a.invoke.input: a Gate's input is an object of gate (a name) and meta"]
            );
        }
    }

    #[test]
    fn refuses_other_keys_and_wrong_values() {
        assert_eq!(
            lines(r#"{ "src": "gate", "input": { "gate": "", "meta": "x", "question": "ok?" } }"#),
            [
                "gate-input: states.a.invoke.input.gate: a Gate's gate is a name: a string that is not empty, or a reference",
                "gate-input: states.a.invoke.input.meta: a Gate's meta is an object or a reference",
                "gate-input: states.a.invoke.input.question: a Gate's input takes gate and meta only",
            ]
        );
    }

    #[test]
    fn admits_no_input_or_gate_and_meta() {
        assert!(lines(r#"{ "src": "gate" }"#).is_empty());
        assert!(lines(r#"{ "src": "gate", "id": "editor", "input": { "gate": "approve", "meta": { "n": 1 } } }"#)
            .is_empty());
        assert!(lines(r#"{ "src": "gate", "input": {} }"#).is_empty());
    }
}
