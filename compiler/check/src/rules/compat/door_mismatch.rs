use super::{AtDispatch, Subject};
use crate::compat::{Kind, Side};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a dispatch slot's `input` schema that may send what its callee's door does not take.
    ///
    /// ## What it checks
    /// ADR-0071: a match is compatibility, one direction. Every required field of the door is in
    /// the slot's schema and required there too (a field with a `default` counts: the slot is read
    /// as what the driver sends, defaults filled), with a compatible `type` (the slot's types are
    /// among the door's; an `integer` is a `number`), within the door's `enum` and `const` (a slot
    /// field without `enum` or `const` does not keep within them), and within its bounds
    /// (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`,
    /// `maxLength`, `minItems`, `maxItems`, `uniqueItems`), which the slot guarantees by a bound
    /// of its own at least as tight or by `enum`/`const` values all within them. And every field
    /// of the slot's schema exists in the door's `properties`. The same holds below, through
    /// nested `properties` and `items`.
    ///
    /// ## Why
    /// A mismatch is a run that fails at the callee's door, later, in another Workflow, or a field
    /// that a plain zod door strips silently: the caller believes it sent what the callee never
    /// reads. `jr2 check` and `jr2 up` refuse it before any run.
    ///
    /// ## Example
    /// A slot `{ "type": "object", "properties": { "title": { "type": "string" } }, "required": ["title"] }`
    /// against a door `{ "type": "object", "properties": { "title": { "type": "string" },
    /// "branch": { "type": "string" } }, "required": ["title", "branch"] }` is refused:
    /// `properties.branch: the door requires "branch", and the slot's schema does not send it`.
    ///
    /// ## Use instead
    /// Make the slot's schema send what the door takes (add `"branch"` to its `properties` and
    /// `required`, or give it a `default`), or make the door take what is sent.
    ///
    /// ## In an Instance
    /// `jr2 check DIR` compares each same-Instance `dispatch(name, { input })` with its callee's
    /// door, the callee's `jr2Setup({ schemas: { input } })` (for a named Chart `wrapper/chart`,
    /// the wrapper's, without its Chart field), and refuses a mismatch at the dispatch's `input`,
    /// naming the callee; the door's place is related information. A foreign target's mismatch is
    /// `foreign-door-mismatch`, a warning.
    pub static DOOR_MISMATCH = { code: "door-mismatch", rule: None, severity: Error };
}

/// A mismatch: of a pair, as a line in its side's file; at a same-Instance dispatch, at its
/// `input`, naming the callee.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let (d, f) = match **cx {
        Subject::Pair { finding: f, side } if f.kind == Kind::Mismatch && f.side == side => {
            (sink.at(&DOOR_MISMATCH, f.span, f.line()), f)
        }
        Subject::Dispatch { at: AtDispatch { callee, input: Some(input), foreign: None }, finding: f }
            if f.kind == Kind::Mismatch =>
        {
            (sink.report(&DOOR_MISMATCH, *input, format!("dispatch({callee:?}): {}", f.line())), f)
        }
        _ => return,
    };
    d.path = Some(f.path.clone());
    d.help = Some(
        match f.side {
            Side::Slot => "make the slot's schema send only what the door takes, or widen the door",
            Side::Door => "make the slot's schema send this field, always, or make it optional in the door",
        }
        .into(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compat::{one, review};
    use base::Span;
    use diagnostics::Diagnostic;
    use crate::compat::compare;
    use syntax::json::{parse, Arena};

    fn diags(slot: &str, door: &str, side: Side) -> Vec<Diagnostic> {
        crate::rules::compat::run_pair(check, &compare(&parse(slot, &Arena::new()).value, &parse(door, &Arena::new()).value), side)
    }

    #[test]
    fn a_missing_field_is_a_line_in_the_door() {
        let slot = r#"{ "type": "object", "properties": {} }"#;
        let door = r#"{ "type": "object", "properties": { "branch": { "type": "string" } }, "required": ["branch"] }"#;
        let d = diags(slot, door, Side::Door);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, "door-mismatch");
        assert!(d[0].is_error());
        assert_eq!(d[0].path.as_deref(), Some("properties.branch"));
        assert_eq!(&door[d[0].span.range()], "\"branch\"");
        assert!(diags(slot, door, Side::Slot).is_empty());
    }

    #[test]
    fn a_type_mismatch_is_a_line_in_the_slot_at_its_type() {
        let slot = r#"{ "type": "object", "properties": { "n": { "type": "string" } }, "required": ["n"] }"#;
        let door = r#"{ "type": "object", "properties": { "n": { "type": "number" } }, "required": ["n"] }"#;
        let d = diags(slot, door, Side::Slot);
        assert_eq!(d.len(), 1);
        assert_eq!(&slot[d[0].span.range()], "\"string\"");
        assert_eq!(
            d[0].message,
            "properties.n: the slot may send type \"string\", and the door takes only type \"number\""
        );
    }

    #[test]
    fn at_a_dispatch_the_line_names_the_callee() {
        let slot = r#"{ "type": "object", "properties": {} }"#;
        let door = r#"{ "type": "object", "properties": { "branch": { "type": "string" } }, "required": ["branch"] }"#;
        let arena = Arena::new();
        let findings = compare(&parse(slot, &arena).value, &parse(door, &arena).value);
        let at = review(Span::new(3, 8), None);
        let d = one(Subject::Dispatch { at: &at, finding: &findings[0] });
        assert_eq!(d.span, Span::new(3, 8));
        assert!(d.is_error());
        assert_eq!(
            d.message,
            "dispatch(\"review\"): properties.branch: the door requires \"branch\", and the slot's schema does not send it"
        );
    }

    #[test]
    fn a_compatible_pair_has_no_line() {
        let slot = r#"{ "type": "object", "properties": { "n": { "type": "integer", "default": 1 } } }"#;
        let door = r#"{ "type": "object", "properties": { "n": { "type": "number" } }, "required": ["n"] }"#;
        assert!(diags(slot, door, Side::Slot).is_empty());
        assert!(diags(slot, door, Side::Door).is_empty());
    }
}
