use super::{AtDispatch, Read, Subject};
use crate::compat::{Kind, Side};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns that part of a dispatch slot's schema, or of its callee's door, is not compared: it uses a keyword outside the compared subset.
    ///
    /// ## What it checks
    /// Door compatibility (ADR-0071) compares within the JSON Schema subset a Chart event's payload
    /// may use: `type`, `properties`, `required`, `additionalProperties`, `items` (one schema),
    /// `enum`, `const`, the annotations and the bounds. A schema node that uses anything else
    /// (`oneOf`, `anyOf`, `allOf`, `$ref`, `$defs`, `pattern`, a list-form `items`, …) is not
    /// compared, on either side, and neither is anything below it: outside the subset a
    /// comparison would be a guess, and jr2 does not guess. The rest of the pair is compared.
    ///
    /// ## Why
    /// A warning, not a refusal: the schema is valid, and the door still checks every input at run
    /// time. But jr2 cannot promise the pair matches, so it says which part it did not look at.
    /// The publish door, with no warnings channel, drops it.
    ///
    /// ## Example
    /// A door `{ "type": "object", "properties": { "target": { "oneOf": [{ "type": "string" },
    /// { "type": "number" }] } } }` warns: `properties.target.oneOf: "oneOf" is outside the JSON
    /// Schema subset jr2 compares (type, properties, required, …)`.
    ///
    /// ## Use instead
    /// The subset's words: a `type` list (`["string", "number"]`) for a `oneOf` of types, an `enum`
    /// for a `oneOf` of constants, the schema inlined for a `$ref`.
    ///
    /// ## In an Instance
    /// At a dispatch's `input`, naming the callee and the side. It also says a pair was not
    /// compared at all: the callee declares no input schema (`jr2Setup({ schemas: { input } })`),
    /// so its door is not known; or one of the two zod schemas has no JSON Schema reading (a
    /// `.transform()`, a value the evaluator cannot see). Declare the door, or keep the schemas to
    /// what converts.
    pub static DOOR_NOT_COMPARED = { code: "door-not-compared", rule: None, severity: Warning };
}

/// A part not compared: of a pair, as a line in its side's file; at a dispatch (same-Instance or
/// foreign), at its `input`, saying in which schema it is; and a same-Instance door that is not
/// compared at all (none declared, or a schema with no JSON Schema reading).
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    match **cx {
        Subject::Pair { finding: f, side } if f.kind == Kind::NotCompared && f.side == side => {
            let (mine, other) = match side {
                Side::Slot => ("slot's", "door's"),
                Side::Door => ("door's", "slot's"),
            };
            let d = sink.at(&DOOR_NOT_COMPARED, f.span, f.line());
            d.path = Some(f.path.clone());
            d.notes.push(format!("this part of the {mine} schema is not compared with the {other}, nor anything below it"));
        }
        Subject::Dispatch { at: AtDispatch { callee, input: Some(input), foreign }, finding: f }
            if f.kind == Kind::NotCompared =>
        {
            let to = foreign.as_ref().map_or_else(String::new, |d| format!(" to {}", d.address));
            let d = sink.report(
                &DOOR_NOT_COMPARED,
                *input,
                format!("dispatch({callee:?}){to}, in {}: {}", side_name(f.side), f.line()),
            );
            d.path = Some(f.path.clone());
            d.notes.push("this part is not compared, nor anything below it".into());
        }
        Subject::Read { at: AtDispatch { callee, input: Some(input), .. }, read: Read::Undeclared { whose } } => {
            let d = sink.report(
                &DOOR_NOT_COMPARED,
                *input,
                format!(
                    "dispatch({callee:?}): {whose} declares no input schema, so the slot's schema is not compared with its door"
                ),
            );
            d.help = Some(
                "declare the door in the callee's setup: `jr2Setup({ schemas: { input: z.object({ ... }) }, ... })`".into(),
            );
        }
        Subject::Read { at: AtDispatch { callee, input: Some(input), .. }, read: Read::Unread { what, why } } => {
            let why = if why.is_empty() { String::new() } else { format!(" ({why})") };
            sink.report(
                &DOOR_NOT_COMPARED,
                *input,
                format!("dispatch({callee:?}): {what} has no JSON Schema reading{why}, so the pair is not compared"),
            );
        }
        _ => {}
    }
}

/// Which schema a finding's part is in, for a dispatch's line.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::Slot => "the slot's schema",
        Side::Door => "the door",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compat::{one, review};
    use base::Span;
    use crate::compat::compare;
    use syntax::json::{parse, Arena};

    #[test]
    fn one_of_in_the_door_is_a_warning_in_the_door_and_no_mismatch() {
        let slot = r#"{ "type": "object", "properties": { "target": { "type": "boolean" } }, "required": ["target"] }"#;
        let door = r#"{ "type": "object", "properties": { "target": { "oneOf": [{ "type": "string" }] } }, "required": ["target"] }"#;
        let arena = Arena::new();
        let findings = compare(&parse(slot, &arena).value, &parse(door, &arena).value);
        let d = crate::rules::compat::run_pair(check, &findings, Side::Door);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].severity, diagnostics::Severity::Warning);
        assert_eq!(&door[d[0].span.range()], "\"oneOf\"");
        assert!(d[0].message.starts_with(
            "properties.target.oneOf: \"oneOf\" is outside the JSON Schema subset jr2 compares (type, properties, required,"
        ));
        assert!(crate::rules::compat::run_pair(check, &findings, Side::Slot).is_empty());
        assert!(findings.iter().all(|f| f.kind == Kind::NotCompared), "{findings:#?}");
    }

    #[test]
    fn at_a_dispatch_the_line_names_the_callee_and_the_side() {
        let slot = r#"{ "type": "object", "properties": { "t": { "anyOf": [{ "type": "string" }] } } }"#;
        let door = r#"{ "type": "object", "properties": { "t": { "type": "string" } } }"#;
        let arena = Arena::new();
        let findings = compare(&parse(slot, &arena).value, &parse(door, &arena).value);
        let at = review(Span::new(1, 2), None);
        let d = one(Subject::Dispatch { at: &at, finding: &findings[0] });
        assert_eq!(d.span, Span::new(1, 2));
        assert!(!d.is_error());
        assert!(d
            .message
            .starts_with("dispatch(\"review\"), in the slot's schema: properties.t.anyOf: \"anyOf\" is outside"));
        let at = review(Span::new(1, 2), Some(("http://h/workflows/review", Span::new(5, 9))));
        let d = one(Subject::Dispatch { at: &at, finding: &findings[0] });
        assert_eq!(d.span, Span::new(1, 2));
        assert!(d.message.starts_with("dispatch(\"review\") to http://h/workflows/review, in the slot's schema:"));
        let at = review(Span::new(0, 1), None);
        let d = one(Subject::Read { at: &at, read: Read::Undeclared { whose: "\"review\"" } });
        assert_eq!(d.code, "door-not-compared");
        assert!(d.message.contains("declares no input schema"), "{}", d.message);
        let d = one(Subject::Read { at: &at, read: Read::Unread { what: "the door", why: "`.transform()` is code" } });
        assert_eq!(
            d.message,
            "dispatch(\"review\"): the door has no JSON Schema reading (`.transform()` is code), so the pair is not compared"
        );
    }

    #[test]
    fn a_list_form_items_is_not_compared() {
        let slot = r#"{ "type": "array", "items": [{ "type": "string" }] }"#;
        let door = r#"{ "type": "array", "items": { "type": "number" } }"#;
        let arena = Arena::new();
        let findings = compare(&parse(slot, &arena).value, &parse(door, &arena).value);
        let d = crate::rules::compat::run_pair(check, &findings, Side::Slot);
        assert_eq!(d.len(), 1);
        assert!(d[0].message.starts_with("items: a list-form \"items\" is outside the JSON Schema subset"));
        assert_eq!(findings.len(), 1);
    }
}
