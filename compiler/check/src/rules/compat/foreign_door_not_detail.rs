use super::{AtDispatch, Read, Subject};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a foreign dispatch target's door answered something that is no Workflow detail.
    ///
    /// ## What it checks
    /// For a `dispatch(name, { target: { url } })`, `jr2 check` reads `GET <url>/workflows/<name>`
    /// with no token. A Workflow detail is a JSON object whose `name` (where given) is the
    /// callee's and whose `input` is its door, a JSON Schema object. Anything else is this warning,
    /// at the target's `url`: a status other than 2xx, 3xx or 404 (a 401, a 500), a body that is
    /// not JSON (an HTML page of a proxy), a JSON value that is not an object, another Workflow's
    /// detail, or an object with no `input` schema.
    ///
    /// ## Why
    /// The url may name something that is not a jr2 Instance, or one behind a proxy that answers
    /// for it; either way there is no door to compare the slot's schema with. A warning, never a
    /// refusal, like every foreign outcome (ADR-0071).
    ///
    /// ## Example
    /// A target url that serves a web page warns: `dispatch("review"): GET
    /// https://www.example.com/workflows/review answered a body that is not JSON ("<!doctype
    /// html>…"), not a Workflow detail ({ name, input }), so its door is not checked`.
    ///
    /// ## Use instead
    /// Write the origin of the other Instance's Orchestrator as the target's url.
    pub static FOREIGN_DOOR_NOT_DETAIL = { code: "foreign-door-not-detail", rule: None, severity: Warning };
}

/// The warning at the target's `url`, saying what the answer was instead.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Read { at: AtDispatch { callee, foreign: Some(foreign), .. }, read: Read::NotDetail { what } } = **cx
    else {
        return;
    };
    let address = foreign.address;
    sink.report(
        &FOREIGN_DOOR_NOT_DETAIL,
        foreign.url,
        format!(
            "dispatch({callee:?}): GET {address} answered {what}, not a Workflow detail ({{ name, input }}), so its door is not checked"
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compat::{one, review};
    use base::Span;

    #[test]
    fn a_warning_saying_what_came_instead() {
        let at = review(Span::new(0, 1), Some(("http://h/workflows/review", Span::new(2, 3))));
        let d = one(Subject::Read { at: &at, read: Read::NotDetail { what: "status 500" } });
        assert_eq!(d.code, "foreign-door-not-detail");
        assert!(!d.is_error());
        assert_eq!(
            d.message,
            "dispatch(\"review\"): GET http://h/workflows/review answered status 500, not a Workflow detail ({ name, input }), so its door is not checked"
        );
    }
}
