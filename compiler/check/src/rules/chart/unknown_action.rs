use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::{join, names};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an action name that the Open body does not lend.
    ///
    /// ## Why
    /// A Chart's named actions are the Machine's code; only the ones its Open body lends exist at
    /// run time. A Chart's own context updates are `{ "assign": { "<path>": value } }`, which
    /// need no lend.
    ///
    /// ## Example
    /// With `lends.actions: ["note"]`, `"entry": "notify"` is refused: `states.a.entry: "notify"
    /// is not a lent action; lent actions: note`.
    ///
    /// ## Use instead
    /// A lent action (`"entry": "note"`), or an `assign`.
    pub static UNKNOWN_ACTION = { code: "unknown-action", rule: Some(3), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(m) = cx.manifest else { return };
    let lends = &m.declaration.lends.actions;
    let lent = m.lent_actions();
    for (path, a) in cx.actions() {
        if a.get("assign").is_some() {
            continue;
        }
        let (name, at, npath) = match a.as_str() {
            Some(n) => (n, a, path.clone()),
            None => match a.get("type") {
                Some(t) => (t.as_str().unwrap_or_default(), t, join(&path, "type")),
                None => continue,
            },
        };
        if lent.iter().any(|l| *l == name) {
            continue;
        }
        let text = if lends.iter().any(|l| l == name) {
            format!("\"{name}\" is declared in the Open body's `lends.actions`, but the body does not lend it now; lent actions: {}", names(&lent))
        } else {
            format!("\"{name}\" is not a lent action; lent actions: {}", names(&lent))
        };
        sink.line(&UNKNOWN_ACTION, at.span, &npath, text);
    }
}
