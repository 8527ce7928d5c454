use super::{AtDispatch, Subject};
use crate::compat::{Kind, Side};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a dispatch slot's `input` schema may send what a foreign callee's door does not take.
    ///
    /// ## What it checks
    /// For a `dispatch(name, { input, target: { url } })`, `jr2 check` reads the callee's door at
    /// `GET <url>/workflows/<name>` (no token) and compares the served JSON Schema with the slot's
    /// schema exactly as `door-mismatch` does for a same-Instance callee: every required field of
    /// the door sent, with a compatible type, within its `enum`, `const` and bounds, and no field
    /// the door lacks. Each mismatch is this warning, at the dispatch's `input`.
    ///
    /// ## Why
    /// A warning, not a refusal (ADR-0071): the other Instance's door is not this Instance's to
    /// hold still; it may change, or this check may have read an older one, and a refusal would
    /// couple two Instances' publish order. At run time the door refuses a body it does not take,
    /// and the dispatch answers `refused` with the 400's report.
    ///
    /// ## Example
    /// A slot `z.object({ title: z.string() })` against a served door that requires `branch` too
    /// warns: `dispatch("review") to https://ops.example.com/workflows/review: properties.branch:
    /// the door requires "branch", and the slot's schema does not send it`.
    ///
    /// ## Use instead
    /// Make the slot's schema send what the door takes; the idiom derives one from the other
    /// (`reviewDoor.pick({ branch: true })`).
    pub static FOREIGN_DOOR_MISMATCH = { code: "foreign-door-mismatch", rule: None, severity: Warning };
}

/// A mismatch with a foreign door, at the dispatch's `input`.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Dispatch { at: AtDispatch { callee, input: Some(input), foreign: Some(foreign) }, finding: f } = **cx
    else {
        return;
    };
    if f.kind != Kind::Mismatch {
        return;
    }
    let address = foreign.address;
    let d = sink.report(&FOREIGN_DOOR_MISMATCH, *input, format!("dispatch({callee:?}) to {address}: {}", f.line()));
    d.path = Some(f.path.clone());
    d.help = Some(
        match f.side {
            Side::Slot => "make the slot's schema send only what the door takes",
            Side::Door => "make the slot's schema send this field, always",
        }
        .into(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compat::{one, review};
    use base::Span;
    use crate::compat::compare;
    use syntax::json::{parse, Arena};

    #[test]
    fn a_warning_at_the_input_naming_the_door() {
        let slot = r#"{ "type": "object", "properties": { "n": { "type": "string" } }, "required": ["n"] }"#;
        let door = r#"{ "type": "object", "properties": { "n": { "type": "number" } }, "required": ["n"] }"#;
        let arena = Arena::new();
        let findings = compare(&parse(slot, &arena).value, &parse(door, &arena).value);
        assert_eq!(findings.len(), 1);
        let at = review(Span::new(7, 12), Some(("http://h/workflows/review", Span::new(20, 30))));
        let d = one(Subject::Dispatch { at: &at, finding: &findings[0] });
        assert_eq!(d.code, "foreign-door-mismatch");
        assert!(!d.is_error());
        assert_eq!(d.span, Span::new(7, 12));
        assert_eq!(d.path.as_deref(), Some("properties.n"));
        assert_eq!(
            d.message,
            "dispatch(\"review\") to http://h/workflows/review: properties.n: the slot may send type \"string\", and the door takes only type \"number\""
        );
    }
}
