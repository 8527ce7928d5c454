use super::Subject;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a `dispatch` target url with a path, a query or userinfo: a target url is an origin.
    ///
    /// ## Why
    /// A dispatch with `target: { url, token }` runs in the Instance Effector, which calls the
    /// other Instance's door: it appends the door's path (`/workflows/<name>/runs`) to the url, and
    /// its fence (`effector.json`) names origins. So the url is an origin, scheme and host and a
    /// port, and a path, a query or userinfo in it is refused at build (ADR-0071); the token
    /// travels as the target's `token`, never in the url.
    ///
    /// ## Example
    /// ```ts
    /// dispatch("review", { target: { url: "https://ops.example.com/api", token: secret("ops-instance") } })
    /// ```
    /// is refused: `the dispatch target url "https://ops.example.com/api" has a path ("/api"); a
    /// target url is an origin (scheme, host and port): write "https://ops.example.com"`.
    ///
    /// ## Use instead
    /// ```ts
    /// dispatch("review", { target: { url: "https://ops.example.com", token: secret("ops-instance") } })
    /// ```
    pub static DISPATCH_TARGET_URL = { code: "dispatch-target-url", rule: None, severity: Error };
}

/// What is wrong with a target url, and the origin to write instead (where one can be read off).
pub fn fault(url: &str) -> Option<(String, Option<String>)> {
    let Some((scheme, rest)) = url.split_once("://") else {
        return Some(("is not an origin (scheme://host[:port])".to_string(), None));
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let (userinfo, host) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let origin = (!host.is_empty()).then(|| format!("{scheme}://{host}"));
    if host.is_empty() || scheme.is_empty() {
        return Some(("is not an origin (scheme://host[:port])".to_string(), None));
    }
    let mut parts = Vec::new();
    if userinfo.is_some() {
        parts.push("userinfo".to_string());
    }
    let path_end = tail.find(['?', '#']).unwrap_or(tail.len());
    let path = &tail[..path_end];
    if !path.is_empty() && path != "/" {
        parts.push(format!("a path ({path:?})"));
    }
    let rest = &tail[path_end..];
    if rest.starts_with('?') {
        parts.push("a query".to_string());
    }
    if rest.contains('#') {
        parts.push("a fragment".to_string());
    }
    if parts.is_empty() {
        return None;
    }
    Some((format!("has {}", parts.join(" and ")), origin))
}

/// Refuses a written-out dispatch target whose `url` is not an origin, at the url.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Dispatch(call) = **cx else { return };
    let Some(url) = call.written_target().and_then(|t| t.get("url")) else { return };
    let Some(text) = url.as_str() else { return };
    let Some((why, origin)) = fault(text) else { return };
    let message = match origin {
        Some(o) => format!(
            "the dispatch target url {text:?} {why}; a target url is an origin (scheme, host and port): write {o:?}"
        ),
        None => format!("the dispatch target url {text:?} {why}"),
    };
    let d = sink.report(&DISPATCH_TARGET_URL, url.loc, message);
    d.notes.push("the Effector appends the door's path, and its fence names origins".into());
}

#[cfg(test)]
mod tests {
    use super::fault;

    #[test]
    fn origins() {
        assert_eq!(fault("https://ops.example.com"), None);
        assert_eq!(fault("https://ops.example.com:8443/"), None);
        let (why, origin) = fault("https://ops.example.com/api").unwrap();
        assert_eq!(why, "has a path (\"/api\")");
        assert_eq!(origin.as_deref(), Some("https://ops.example.com"));
        assert_eq!(fault("https://u:p@ops.example.com").unwrap().0, "has userinfo");
        assert_eq!(fault("https://ops.example.com?x=1").unwrap().0, "has a query");
        assert!(fault("ops.example.com").unwrap().0.contains("not an origin"));
    }
}
