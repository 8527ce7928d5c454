use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::{join, names};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a minted Agent whose `workspace` access the Open body does not allow.
    ///
    /// ## Why
    /// `allows.workspace` bounds what a Chart's own Agents may do in the Workspace: `none`,
    /// `read`, `write`. A planner cannot grant its Agents more than the Machine's author did.
    ///
    /// ## Example
    /// With `allows.workspace: ["none", "read"]`, a minted Agent with `"workspace": "write"` is
    /// refused: `agents.critic.workspace: "write" is not a Workspace access this Open body allows;
    /// allowed: none, read`.
    ///
    /// ## Use instead
    /// An allowed access, or a lent Agent that writes.
    pub static WORKSPACE_NOT_ALLOWED = { code: "workspace-not-allowed", rule: Some(5), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(m) = cx.manifest else { return };
    let Some(agents) = cx.chart.get("agents") else { return };
    let allowed: Vec<&str> = m.declaration.allows.workspace.iter().map(|w| w.as_str()).collect();
    for a in agents.entries() {
        let Some(ws) = a.value.get("workspace") else { continue };
        let Some(access) = ws.as_str() else { continue };
        if !allowed.contains(&access) {
            sink.line(
                &WORKSPACE_NOT_ALLOWED,
                ws.span,
                &join(&join("agents", a.key), "workspace"),
                format!("\"{access}\" is not a Workspace access this Open body allows; allowed: {}", names(&allowed)),
            );
        }
    }
}
