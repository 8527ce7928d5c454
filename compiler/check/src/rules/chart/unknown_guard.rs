use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::{join, names};
use diagnostics::declare_rule;
use syntax::json::Json;

declare_rule! {
    /// Refuses a guard name that the Open body does not lend.
    ///
    /// ## Why
    /// A Chart's guards are the Machine's code: the Chart names them, and only the ones its Open
    /// body lends exist at run time. Every Chart also has the kit's guards, which are never lent:
    /// `jr2.sentBy` (with params `{ id }`), `jr2.failure` and `jr2.ready`.
    ///
    /// ## Example
    /// With `lends.guards: ["green"]`:
    /// ```json
    /// { "on": { "done": { "guard": "approved", "target": "published" } } }
    /// ```
    /// is refused: `states.a.on.done.guard: "approved" is not a lent guard; lent guards: green
    /// (and jr2.sentBy with params { id }, jr2.failure and jr2.ready)`.
    ///
    /// ## Use instead
    /// A lent guard, a kit guard, or `not`/`and`/`or` of them.
    pub static UNKNOWN_GUARD = { code: "unknown-guard", rule: Some(3), severity: Error };
}

const SENT_BY: &str = "jr2.sentBy";
const FAILURE_GUARD: &str = "jr2.failure";
const READY_GUARD: &str = "jr2.ready";

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(m) = cx.manifest else { return };
    let lends = &m.declaration.lends.guards;
    let lent = m.lent_guards();
    for (path, g) in cx.all_guards() {
        let (name, at, npath): (&str, &Json, String) = match g.as_str() {
            Some(n) => (n, g, path.clone()),
            None => match g.get("type") {
                Some(t) => (t.as_str().unwrap_or_default(), t, join(path, "type")),
                None => continue,
            },
        };
        if name == SENT_BY || name == FAILURE_GUARD || name == READY_GUARD {
            continue;
        }
        if lends.iter().any(|l| l == name) && !m.lent.guards.iter().any(|l| l == name) {
            sink.line(
                &UNKNOWN_GUARD,
                at.span,
                &npath,
                format!("\"{name}\" is declared in the Open body's `lends.guards`, but the body does not lend it now; lent guards: {}", names(&lent)),
            );
        } else if !lends.iter().any(|l| l == name) {
            let d = sink.line(
                &UNKNOWN_GUARD,
                at.span,
                &npath,
                format!("\"{name}\" is not a lent guard; lent guards: {} (and {SENT_BY} with params {{ id }}, {FAILURE_GUARD} and {READY_GUARD})", names(&lent)),
            );
            let candidates: Vec<&str> = lent.iter().map(|s| s.as_str()).collect();
            if let Some(close) = super::unknown_target::closest(name, &candidates) {
                d.help = Some(format!("did you mean \"{close}\"?"));
            }
        }
    }
}
