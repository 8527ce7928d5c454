use super::{AtDispatch, Read, Subject};
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a foreign dispatch target's door could not be reached, so it is not checked.
    ///
    /// ## What it checks
    /// For a `dispatch(name, { target: { url } })`, `jr2 check` reads the callee's door at
    /// `GET <url>/workflows/<name>`, with no token (the route is open band; the token is the
    /// Effector's to carry), a 3 s connect and 5 s overall timeout, and 10 s for all the foreign
    /// doors of one run together (a door not read by then is not tried). No answer at all (a
    /// refused connection, a name that does not resolve, a timeout, a TLS failure, the run's time
    /// for doors spent) is this warning, at the target's `url`. `jr2 check --offline` reads no
    /// foreign door.
    ///
    /// ## Why
    /// A warning, never a refusal (ADR-0071): the other Instance may be down, reached only from
    /// inside its cluster, or published later, and a refusal would couple two Instances' publish
    /// order. But the slot's schema was not compared with the door, so jr2 says so.
    ///
    /// ## Example
    /// ```ts
    /// review: dispatch("review", { target: { url: "https://ops.example.com", token: secret("ops") } })
    /// ```
    /// with nothing answering there warns: `dispatch("review"): GET
    /// https://ops.example.com/workflows/review reached no Instance (connection refused), so its
    /// door is not checked`.
    ///
    /// ## Use instead
    /// Check where the other Instance can be reached from (its url as this host sees it), or run
    /// the check where it can; `--offline` skips the foreign doors on purpose.
    pub static FOREIGN_DOOR_UNREACHABLE = { code: "foreign-door-unreachable", rule: None, severity: Warning };
}

/// The warning at the target's `url`: the door's address, and why no answer came.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Read { at: AtDispatch { callee, foreign: Some(foreign), .. }, read: Read::Unreachable { reason } } = **cx
    else {
        return;
    };
    let address = foreign.address;
    let d = sink.report(
        &FOREIGN_DOOR_UNREACHABLE,
        foreign.url,
        format!("dispatch({callee:?}): GET {address} reached no Instance ({reason}), so its door is not checked"),
    );
    d.notes.push("a foreign target is a warning, never a refusal: the other Instance may be down, or reached only from inside its cluster".into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compat::{one, review};
    use base::Span;

    #[test]
    fn a_warning_at_the_url_naming_the_address_and_the_reason() {
        let at = review(Span::new(0, 1), Some(("http://127.0.0.1:9/workflows/review", Span::new(10, 40))));
        let d = one(Subject::Read { at: &at, read: Read::Unreachable { reason: "connection refused" } });
        assert_eq!(d.code, "foreign-door-unreachable");
        assert!(!d.is_error());
        assert_eq!(d.span, Span::new(10, 40));
        assert_eq!(
            d.message,
            "dispatch(\"review\"): GET http://127.0.0.1:9/workflows/review reached no Instance (connection refused), so its door is not checked"
        );
    }
}
