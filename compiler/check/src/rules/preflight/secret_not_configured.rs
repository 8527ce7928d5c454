use super::Workflow;
use crate::rules::{Ctx, Sink};
use crate::preflight::config::InstanceConfig;
use diagnostics::declare_rule;
use machine::lower::arg;
use machine::value::{Loc, Value};

declare_rule! {
    /// Refuses a Held secret that a Workspace, an Effect or the config itself names and that the `secrets` list of `jr2.config.ts` does not hold.
    ///
    /// ## Why
    /// A Held secret is named, never written: `secret("jira")` in an Effect's auth or headers or
    /// a dispatch target's token, a command's `secrets: ["npm"]`, a `workspace()`'s `secrets`
    /// (ADR-0059, ADR-0068). Naming is placement: `jr2 up` puts the named secret in the pod or the
    /// Effector that needs it, and only a secret of the config's `secrets` list exists to be
    /// placed. So a name the list lacks would reach the run as nothing. The config's own
    /// references count too: each `git.credentials` entry's `secret` and each MCP server's
    /// `secret` must be in `secrets`. A `secret(open)` is bound by a composer and is not judged.
    ///
    /// ## Example
    /// ```ts
    /// // jr2.config.ts: secrets: ["github"]
    /// comment: http({ method: "POST", url: "https://jira.example.com/rest", auth: bearer(secret("jira")) }),
    /// ```
    /// is refused:
    /// ```text
    /// secret("jira") names a Held secret that is not in the `secrets` list of jr2.config.ts (its secrets: github), so `jr2 up` cannot place it
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// secrets: ["github", "jira"],
    /// ```
    pub static SECRET_NOT_CONFIGURED = { code: "secret-not-configured", rule: None, severity: Error };
}

/// The secrets the Workflow names, against the config's `secrets`.
pub(crate) fn check(cx: &Ctx<Workflow>, sink: &mut Sink) {
    let (calls, config) = (cx.calls, cx.config);
    if config.secrets.is_none() {
        return;
    }
    for c in calls {
        match c.name {
            "secret" => {
                if let Some((name, loc)) = arg(c.call, 0).and_then(|a| Some((a.as_str()?, a.loc))) {
                    refuse_at(config, name, loc, format!("secret({name:?}) names a Held secret that"), sink);
                }
            }
            "workspace" | "customize" | "command" => {
                let items = arg(c.call, 1).and_then(|o| o.get("secrets")).and_then(Value::as_array).unwrap_or(&[]);
                let who = match (c.name, c.key) {
                    ("command", Some(k)) => format!("the command Effect {k:?}"),
                    ("command", None) => "a command Effect".to_string(),
                    (w, _) => format!("{w}()"),
                };
                for (name, loc) in items.iter().filter_map(|i| Some((i.as_str()?, i.loc))) {
                    refuse_at(config, name, loc, format!("{who} names {name:?} in its `secrets`, which"), sink);
                }
            }
            _ => {}
        }
    }
}

/// The config's own references: each credential's and each MCP server's `secret`.
pub fn check_config(cx: &Ctx<&InstanceConfig>, sink: &mut Sink) {
    let config: &InstanceConfig = cx;
    if config.secrets.is_none() {
        return;
    }
    for (i, c) in config.credentials.iter().flatten().enumerate() {
        if let Some(s) = &c.secret {
            refuse_at(
                config,
                &s.name,
                s.loc,
                format!("`git.credentials[{i}].secret` names {:?}, which", s.name),
                sink,
            );
        }
    }
    for server in config.mcp.iter().flatten() {
        if let Some(s) = &server.secret {
            refuse_at(
                config,
                &s.name,
                s.loc,
                format!("`mcp.{}.secret` names {:?}, which", server.name, s.name),
                sink,
            );
        }
    }
}

/// `subject` is the clause that ends before "is not in the `secrets` list".
fn refuse_at(config: &InstanceConfig, name: &str, loc: Loc, subject: String, sink: &mut Sink) {
    let Some(held) = &config.secrets else { return };
    if held.iter().any(|s| s.name == name) {
        return;
    }
    let known = if held.is_empty() {
        "it lists none".to_string()
    } else {
        format!("its secrets: {}", base::list::listed(held.iter().map(|s| s.name.as_str())))
    };
    sink.report(
        &SECRET_NOT_CONFIGURED,
        loc,
        format!("{subject} is not in the `secrets` list of jr2.config.ts ({known}), so `jr2 up` cannot place it"),
    )
    .help = Some(format!("add {name:?} to `secrets` in jr2.config.ts, or name a secret it lists"));
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixtures() {
        super::super::testing::fixtures("secret-not-configured");
    }

    #[test]
    fn config_fixtures() {
        super::super::testing::config_fixtures("secret-not-configured");
    }
}
