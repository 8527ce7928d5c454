use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a minted Agent whose name is a lent name, `gate` or `fail`.
    ///
    /// ## Why
    /// An invoke's `src` names one actor. A minted Agent that took a lent name, or a kit part's,
    /// would make `src` mean two things, and the Chart would run a different actor than its
    /// reader expects.
    ///
    /// ## Example
    /// With `lends.agents: ["writer"]`:
    /// ```json
    /// { "agents": { "writer": { "model": "anthropic/claude-haiku-5-5", "instructions": "…", "workspace": "none" } } }
    /// ```
    /// is refused: `agents.writer: "writer" is a name the Open body lends or the kit uses, so a
    /// minted Agent cannot take it; lent: writer (agent); kit: none; minted: writer`.
    ///
    /// ## Use instead
    /// Another name (`critic`), or use the lent Agent without minting one.
    pub static MINTED_AGENT_SHADOWS = { code: "minted-agent-shadows", rule: Some(5), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(lends) = cx.lends() else { return };
    let Some(agents) = cx.chart.get("agents") else { return };
    for m in agents.entries() {
        let slot = m.key;
        let lent = lends.agents.iter().chain(&lends.effects).chain(&lends.machines).any(|n| n == slot);
        if lent || slot == "gate" || slot == "fail" {
            sink.line(
                &MINTED_AGENT_SHADOWS,
                m.key_span,
                &join("agents", slot),
                format!(
                    "\"{slot}\" is a name the Open body lends or the kit uses, so a minted Agent cannot take it; {}",
                    cx.lent_text()
                ),
            );
        }
    }
}
