use super::{AtDispatch, Read, Subject};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a foreign dispatch target has no Workflow of the callee's name: its door answered 404.
    ///
    /// ## What it checks
    /// For a `dispatch(name, { target: { url } })`, `jr2 check` reads `GET <url>/workflows/<name>`
    /// with no token. A 404 is a miss: the Instance there publishes no Workflow of that name now.
    /// The warning is at the target's `url`.
    ///
    /// ## Why
    /// A warning, never a refusal (ADR-0071): the callee may be published later, and a refusal would
    /// couple two Instances' publish order. Until it is, each dispatch answers `refused` with the
    /// 404's report, as output the Machine routes.
    ///
    /// ## Example
    /// ```ts
    /// review: dispatch("reveiw", { target: { url: "https://ops.example.com", token: secret("ops") } })
    /// ```
    /// warns: `dispatch("reveiw"): GET https://ops.example.com/workflows/reveiw answered 404: the
    /// Instance there has no Workflow "reveiw" now, so its door is not checked`.
    ///
    /// ## Use instead
    /// Name a Workflow the other Instance publishes (`jr2 run` there names them), or publish it there.
    pub static FOREIGN_DOOR_MISSING = { code: "foreign-door-missing", rule: None, severity: Warning };
}

/// The warning at the target's `url`.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Read { at: AtDispatch { callee, foreign: Some(foreign), .. }, read: Read::Missing } = **cx else {
        return;
    };
    let address = foreign.address;
    let d = sink.report(
        &FOREIGN_DOOR_MISSING,
        foreign.url,
        format!(
            "dispatch({callee:?}): GET {address} answered 404: the Instance there has no Workflow {callee:?} now, so its door is not checked"
        ),
    );
    d.notes.push("until it publishes one, each dispatch answers `refused` with the 404's report".into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compat::{one, review};
    use base::Span;

    #[test]
    fn a_warning_at_the_url_naming_the_callee() {
        let at = review(Span::new(0, 1), Some(("https://ops.example.com/workflows/review", Span::new(5, 9))));
        let d = one(Subject::Read { at: &at, read: Read::Missing });
        assert_eq!(d.code, "foreign-door-missing");
        assert!(!d.is_error());
        assert_eq!(d.span, Span::new(5, 9));
        assert!(d.message.contains("answered 404: the Instance there has no Workflow \"review\" now"), "{}", d.message);
    }
}
