use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use chart::lower::SrcClass;
use diagnostics::declare_rule;

use super::input_shape::{inputs, is_ref};

declare_rule! {
    /// Refuses a `fail` invoke whose input is not `{ reason, detail? }`.
    ///
    /// ## Why
    /// The kit's `fail` ends the run as a Failure (ADR-0073): work that did not succeed, with the
    /// reason for a person. `reason` is that text (a string that is not empty, or a reference);
    /// `detail` is any value. A Failure with no reason tells its reader nothing, and any other key
    /// would be dropped.
    ///
    /// ## Example
    /// ```json
    /// { "invoke": { "src": "fail", "input": { "why": "The tests never passed." } } }
    /// ```
    /// is refused with two lines: `` states.a.invoke.input.why: `fail` takes reason and detail
    /// only `` and `` states.a.invoke.input.reason: `fail` needs a reason, a text for a person ``.
    /// With no `input` at all: `` states.a.invoke.input: `fail` takes { reason, detail? }: reason
    /// is a text for a person ``; with `"reason": ""`: `states.a.invoke.input.reason: a reason is a
    /// string that is not empty, or a reference`.
    ///
    /// ## Use instead
    /// ```json
    /// { "invoke": { "src": "fail", "input": { "reason": "The tests never passed.", "detail": { "$ref": "context.log" } } } }
    /// ```
    pub static FAIL_INPUT = { code: "fail-input", rule: Some(8), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for at in inputs(cx) {
        if at.class != SrcClass::Fail {
            continue;
        }
        if !at.is_object() {
            sink.line(
                &FAIL_INPUT,
                at.span(),
                &at.ipath,
                "`fail` takes { reason, detail? }: reason is a text for a person",
            );
            continue;
        }
        for key in at.given() {
            if key != "reason" && key != "detail" {
                let span = at.value(key).map_or(at.span(), |v| v.span);
                sink.line(&FAIL_INPUT, span, &at.key_path(key), "`fail` takes reason and detail only");
            }
        }
        match at.value("reason") {
            None => {
                sink.line(&FAIL_INPUT, at.span(), &at.key_path("reason"), "`fail` needs a reason, a text for a person");
            }
            Some(reason) => {
                let text_ok = reason.as_str().is_some_and(|s| !s.is_empty());
                if !text_ok && !is_ref(reason) {
                    sink.line(
                        &FAIL_INPUT,
                        reason.span,
                        &at.key_path("reason"),
                        "a reason is a string that is not empty, or a reference",
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    fn lines(invoke: &str) -> Vec<String> {
        lines_of("fail-input", &chart_with(invoke), &lends_with("", ""))
    }

    #[test]
    fn refuses_a_fail_with_no_input() {
        assert_eq!(
            lines(r#"{ "src": "fail" }"#),
            ["fail-input: states.a.invoke.input: `fail` takes { reason, detail? }: reason is a text for a person"]
        );
        assert_eq!(
            lines(r#"{ "src": "fail", "input": { "$ref": "context.why" } }"#),
            ["fail-input: states.a.invoke.input: `fail` takes { reason, detail? }: reason is a text for a person"]
        );
    }

    #[test]
    fn refuses_other_keys_and_a_missing_reason() {
        assert_eq!(
            lines(r#"{ "src": "fail", "input": { "why": "x" } }"#),
            [
                "fail-input: states.a.invoke.input.why: `fail` takes reason and detail only",
                "fail-input: states.a.invoke.input.reason: `fail` needs a reason, a text for a person",
            ]
        );
    }

    #[test]
    fn refuses_an_empty_or_non_text_reason() {
        for reason in [r#""""#, "3", r#"{ "text": "x" }"#] {
            assert_eq!(
                lines(&format!(r#"{{ "src": "fail", "input": {{ "reason": {reason} }} }}"#)),
                ["fail-input: states.a.invoke.input.reason: a reason is a string that is not empty, or a reference"]
            );
        }
    }

    #[test]
    fn admits_a_reason_and_a_detail() {
        assert!(lines(r#"{ "src": "fail", "input": { "reason": "No luck.", "detail": [1, 2] } }"#).is_empty());
        assert!(lines(r#"{ "src": "fail", "input": { "reason": { "$ref": "context.why" } } }"#).is_empty());
        assert!(lines(r#"{ "src": "fail", "input": { "reason": "Gave up on {{context.topic}}." } }"#).is_empty());
    }
}
