use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::{join, names};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a minted Agent whose `model` the Open body does not allow.
    ///
    /// ## Why
    /// The Open body's `allows.models` is what the Machine's author pays for and trusts; a Chart
    /// mints Agents only on those models. A body that allows no model lets a Chart mint none.
    ///
    /// ## Example
    /// With `allows.models: ["anthropic/claude-haiku-5-5"]`, a minted Agent on
    /// `"anthropic/claude-opus-5"` is refused: `agents.critic.model: "anthropic/claude-opus-5" is
    /// not a model this Open body allows; allowed models: anthropic/claude-haiku-5-5`.
    ///
    /// ## Use instead
    /// An allowed model.
    pub static MODEL_NOT_ALLOWED = { code: "model-not-allowed", rule: Some(5), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(m) = cx.manifest else { return };
    let Some(agents) = cx.chart.get("agents") else { return };
    let allowed = &m.declaration.allows.models;
    for a in agents.entries() {
        let Some(model) = a.value.get("model") else { continue };
        let Some(name) = model.as_str() else { continue };
        if !allowed.iter().any(|x| x == name) {
            sink.line(
                &MODEL_NOT_ALLOWED,
                model.span,
                &join(&join("agents", a.key), "model"),
                format!("\"{name}\" is not a model this Open body allows; allowed models: {}", names(allowed)),
            );
        }
    }
}
