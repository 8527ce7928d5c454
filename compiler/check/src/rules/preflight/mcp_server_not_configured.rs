use super::Workflow;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use machine::lower::arg;
use machine::value::Value;

declare_rule! {
    /// Refuses an Agent or an `mcp()` Effect that names an MCP server the `mcp` block of `jr2.config.ts` does not hold.
    ///
    /// ## Why
    /// An Agent's `mcp: [{ server, tools }]` and an `mcp({ server, tool })` Effect name a server by
    /// its name in the `mcp` block of the Instance config (ADR-0079). The name is all the Machine
    /// carries: `jr2 up` reads the server's url and secret from the config and places them in the
    /// pod or the Effector that calls it. A name the block lacks has no url, so `jr2 up` could not
    /// place it, and the Agent's Turn or the Effect would fail at run time. An Open server
    /// (`server: open`) is bound by a composer later and is not judged here.
    ///
    /// ## Example
    /// ```ts
    /// // jr2.config.ts: mcp: { tickets: { url: "https://mcp.example.com/tickets" } }
    /// lookup: mcp({ server: "wiki", tool: "search" }),
    /// ```
    /// is refused:
    /// ```text
    /// the mcp Effect "lookup" names the MCP server "wiki", which is not in the `mcp` block of jr2.config.ts (its servers: tickets)
    /// ```
    ///
    /// ## Use instead
    /// Name a server of the block, or add the server to it:
    /// ```ts
    /// mcp: { tickets: { url: "https://mcp.example.com/tickets" }, wiki: { url: "https://mcp.example.com/wiki" } },
    /// ```
    pub static MCP_SERVER_NOT_CONFIGURED = { code: "mcp-server-not-configured", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Workflow>, sink: &mut Sink) {
    let (calls, config) = (cx.calls, cx.config);
    let Some(servers) = &config.mcp else { return };
    let known = if servers.is_empty() {
        "it has none".to_string()
    } else {
        format!("its servers: {}", base::list::listed(servers.iter().map(|s| s.name.as_str())))
    };
    let mut report = |who: String, server: &Value| {
        let Some(name) = server.as_str() else { return };
        if servers.iter().any(|s| s.name == name) {
            return;
        }
        sink.report(
            &MCP_SERVER_NOT_CONFIGURED,
            server.loc,
            format!("{who} names the MCP server {name:?}, which is not in the `mcp` block of jr2.config.ts ({known})"),
        )
        .help = Some(format!(
            "add `{name}: {{ url: \"https://…\" }}` to the `mcp` block of jr2.config.ts, or name one of its servers"
        ));
    };
    for c in calls {
        let slot = |what: &str, a: &str| match c.key {
            Some(k) => format!("{what} {k:?}"),
            None => format!("{a} {}", what.trim_start_matches("the ")),
        };
        match c.name {
            "agent" => {
                let entries = arg(c.call, 0).and_then(|o| o.get("mcp")).and_then(Value::as_array).unwrap_or(&[]);
                for entry in entries {
                    let server = if entry.as_str().is_some() { Some(entry) } else { entry.get("server") };
                    if let Some(server) = server {
                        report(slot("Agent", "an"), server);
                    }
                }
            }
            "mcp" => {
                if let Some(server) = arg(c.call, 0).and_then(|o| o.get("server")) {
                    report(slot("the mcp Effect", "an"), server);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixtures() {
        super::super::testing::fixtures("mcp-server-not-configured");
    }
}
