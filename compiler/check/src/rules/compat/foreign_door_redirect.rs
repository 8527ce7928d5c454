use super::{AtDispatch, Read, Subject};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a foreign dispatch target's door answered a redirect, which jr2 does not follow.
    ///
    /// ## What it checks
    /// For a `dispatch(name, { target: { url } })`, `jr2 check` reads `GET <url>/workflows/<name>`
    /// with no token and follows no redirect: a 3xx answer is this warning, at the target's `url`,
    /// naming where it pointed.
    ///
    /// ## Why
    /// The target's url is an origin the Effector appends the door's path to, and the origin its
    /// fence names (ADR-0071). A door that answers elsewhere is not the door at that origin: the
    /// check does not guess that the start would land where the redirect points. A warning, never a
    /// refusal, like every foreign outcome.
    ///
    /// ## Example
    /// `target: { url: "http://ops.example.com" }` where the Instance redirects to https warns:
    /// `dispatch("review"): GET http://ops.example.com/workflows/review answered a redirect (301 to
    /// https://ops.example.com/workflows/review), which jr2 does not follow, so its door is not
    /// checked`.
    ///
    /// ## Use instead
    /// Write the origin that serves the door as the target's url (`https://ops.example.com`).
    pub static FOREIGN_DOOR_REDIRECT = { code: "foreign-door-redirect", rule: None, severity: Warning };
}

/// The warning at the target's `url`: the redirect's status and, where it gave one, its `Location`.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Read { at: AtDispatch { callee, foreign: Some(foreign), .. }, read: Read::Redirect { status, location } } =
        **cx
    else {
        return;
    };
    let address = foreign.address;
    let to = location.map_or_else(String::new, |l| format!(" to {l}"));
    let d = sink.report(
        &FOREIGN_DOOR_REDIRECT,
        foreign.url,
        format!(
            "dispatch({callee:?}): GET {address} answered a redirect ({status}{to}), which jr2 does not follow, so its door is not checked"
        ),
    );
    d.help = Some("write the origin that serves the door as the target's url".into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compat::{one, review};
    use base::Span;

    #[test]
    fn a_warning_naming_the_status_and_where_it_points() {
        let at = review(Span::new(0, 1), Some(("http://h/workflows/review", Span::new(0, 4))));
        let d = one(Subject::Read { at: &at, read: Read::Redirect { status: 301, location: Some("https://h/x") } });
        assert_eq!(d.code, "foreign-door-redirect");
        assert!(!d.is_error());
        assert_eq!(
            d.message,
            "dispatch(\"review\"): GET http://h/workflows/review answered a redirect (301 to https://h/x), which jr2 does not follow, so its door is not checked"
        );
        let d = one(Subject::Read { at: &at, read: Read::Redirect { status: 307, location: None } });
        assert!(d.message.contains("(307)"), "{}", d.message);
    }
}
