use base::Span;
use diagnostics::declare_rule;
use diagnostics::Diagnostic;

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
pub fn diagnostic(url: Span, callee: &str, address: &str, status: u16, location: Option<&str>) -> Diagnostic {
    let to = location.map_or_else(String::new, |l| format!(" to {l}"));
    FOREIGN_DOOR_REDIRECT
        .at(
            url,
            format!(
                "dispatch({callee:?}): GET {address} answered a redirect ({status}{to}), which jr2 does not follow, so its door is not checked"
            ),
        )
        .with_help("write the origin that serves the door as the target's url")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_naming_the_status_and_where_it_points() {
        let d = diagnostic(Span::new(0, 4), "review", "http://h/workflows/review", 301, Some("https://h/x"));
        assert_eq!(d.code, "foreign-door-redirect");
        assert!(!d.is_error());
        assert_eq!(
            d.message,
            "dispatch(\"review\"): GET http://h/workflows/review answered a redirect (301 to https://h/x), which jr2 does not follow, so its door is not checked"
        );
        let d = diagnostic(Span::new(0, 4), "review", "http://h/workflows/review", 307, None);
        assert!(d.message.contains("(307)"), "{}", d.message);
    }
}
