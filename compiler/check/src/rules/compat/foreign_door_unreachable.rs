use base::Span;
use diagnostics::declare_rule;
use diagnostics::Diagnostic;

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

/// The warning at the target's `url`: `address` is the door's address, `reason` why no answer came.
pub fn diagnostic(url: Span, callee: &str, address: &str, reason: &str) -> Diagnostic {
    FOREIGN_DOOR_UNREACHABLE
        .at(url, format!("dispatch({callee:?}): GET {address} reached no Instance ({reason}), so its door is not checked"))
        .with_note("a foreign target is a warning, never a refusal: the other Instance may be down, or reached only from inside its cluster")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_at_the_url_naming_the_address_and_the_reason() {
        let d = diagnostic(Span::new(10, 40), "review", "http://127.0.0.1:9/workflows/review", "connection refused");
        assert_eq!(d.code, "foreign-door-unreachable");
        assert!(!d.is_error());
        assert_eq!(d.span, Span::new(10, 40));
        assert_eq!(
            d.message,
            "dispatch(\"review\"): GET http://127.0.0.1:9/workflows/review reached no Instance (connection refused), so its door is not checked"
        );
    }
}
