use super::Workflow;
use crate::rules::{Ctx, Sink};
use crate::preflight::config::GitUrl;
use diagnostics::declare_rule;
use machine::lower::arg;
use machine::value::{Value, ValueKind};

declare_rule! {
    /// Refuses a Repo Slot bound to a url that no `git.credentials` entry of `jr2.config.ts` matches: the run could not clone or push it.
    ///
    /// ## Why
    /// A Repo Slot's url is cloned into `/work/<slot>` and a push sends a cut Worktree's branch
    /// back to it; the Machine names no secret for either: `jr2 up` resolves the credential
    /// through `git.credentials` in `jr2.config.ts`, and "the url must match an entry of
    /// `git.credentials` in `jr2.config.ts`, or the run cannot use it" (`parts.ts`). An entry
    /// `{ url }` matches a url of the same scheme, host and port whose path is under its own, by
    /// segments (a trailing `.git` ignored), as git's `credential.<url>` does; an entry `{ host }`
    /// matches any url on that host, `*.example.com` standing for one label. Only bound slots are
    /// judged: an `open` slot is bound by a composer, and a per-run mapper's url is the run's.
    ///
    /// ## Example
    /// ```ts
    /// // jr2.config.ts: git: { credentials: [{ url: "https://github.com/you/", secret: "github" }] }
    /// export const machine = workspace(body, { repos: { app: "https://gitlab.com/you/app.git" } });
    /// ```
    /// is refused:
    /// ```text
    /// workspace(): Repo Slot "app" is bound to "https://gitlab.com/you/app.git", which matches no entry of `git.credentials` in jr2.config.ts, so the run cannot use it
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// git: { credentials: [
    ///   { url: "https://github.com/you/", secret: "github" },
    ///   { url: "https://gitlab.com/you/", secret: "gitlab" },
    /// ] },
    /// ```
    pub static REPO_WITHOUT_CREDENTIALS = { code: "repo-without-credentials", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Workflow>, sink: &mut Sink) {
    let (calls, config) = (cx.calls, cx.config);
    if config.credentials.is_none() {
        return;
    }
    for c in calls.iter().filter(|c| matches!(c.name, "workspace" | "customize")) {
        let Some(repos) = arg(c.call, 1).and_then(|o| o.get("repos")).and_then(Value::props) else { continue };
        for slot in repos {
            let url = match &slot.value.kind {
                ValueKind::String { .. } => &slot.value,
                ValueKind::Object { .. } => match slot.value.get("url") {
                    Some(u) => u,
                    None => continue,
                },
                // `open`, a mapper, or a value `repo-slot-value` judges.
                _ => continue,
            };
            let Some(text) = url.as_str() else { continue };
            // A url the walk cannot derive an identity from is `repo-slot-value`'s.
            let Some(parsed) = GitUrl::parse(text) else { continue };
            if !matches!(config.credential_for(&parsed), Some(None)) {
                continue;
            }
            let mut origin = format!("{}://{}", parsed.scheme, parsed.host);
            if let Some(p) = parsed.port {
                origin.push_str(&format!(":{p}"));
            }
            if let Some(owner) = parsed.segments.first().filter(|_| parsed.segments.len() > 1) {
                origin.push_str(&format!("/{owner}/"));
            } else {
                origin.push('/');
            }
            sink.report(
                &REPO_WITHOUT_CREDENTIALS,
                url.loc,
                format!(
                    "{}(): Repo Slot {:?} is bound to {text:?}, which matches no entry of `git.credentials` in jr2.config.ts, so the run cannot use it",
                    c.name, slot.key
                ),
            )
            .help = Some(format!(
                "add `{{ url: {origin:?}, secret: \"<a Held secret>\" }}` to `git.credentials` in jr2.config.ts"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::preflight::config::{CredentialPattern, GitUrl};

    fn url(s: &str) -> GitUrl {
        GitUrl::parse(s).unwrap_or_else(|| panic!("{s} parses"))
    }

    #[test]
    fn fixtures() {
        super::super::testing::fixtures("repo-without-credentials");
    }

    #[test]
    fn credentials_match_as_git_does() {
        let entry = CredentialPattern::Url(url("https://github.com/you/"));
        for ok in ["https://github.com/you/app.git", "https://GitHub.com/you/app", "https://github.com:443/you/a/b.git"]
        {
            assert!(entry.matches(&url(ok)), "{ok}");
        }
        for bad in [
            "https://github.com/yours/app.git",
            "http://github.com/you/app.git",
            "https://github.com:8443/you/app.git",
            "git@github.com:you/app.git",
            "https://gitlab.com/you/app.git",
        ] {
            assert!(!entry.matches(&url(bad)), "{bad}");
        }
        let repo = CredentialPattern::Url(url("https://github.com/you/app"));
        assert!(repo.matches(&url("https://github.com/you/app.git")));
        assert!(!repo.matches(&url("https://github.com/you/application.git")));
        let host = CredentialPattern::Host("github.com".into());
        assert!(host.matches(&url("git@github.com:you/app.git")));
        assert!(host.matches(&url("ssh://git@github.com:22/you/app.git")));
        let wild = CredentialPattern::Host("*.corp.example".into());
        assert!(wild.matches(&url("https://git.corp.example/a/b")));
        assert!(!wild.matches(&url("https://corp.example/a/b")));
        assert!(!wild.matches(&url("https://a.b.corp.example/a/b")));
    }

    #[test]
    fn local_and_odd_urls_do_not_parse() {
        for bad in
            ["", "./app", "/srv/app.git", "file:///srv/app.git", "ftp://host/app", "https:///x", "https://h:port/x"]
        {
            assert!(GitUrl::parse(bad).is_none(), "{bad}");
        }
        let u = url("git@github.com:you/app.git");
        assert_eq!((u.scheme.as_str(), u.host.as_str(), u.segments.len()), ("ssh", "github.com", 2));
    }
}
