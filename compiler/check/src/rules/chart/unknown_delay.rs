use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::{join, names};
use diagnostics::declare_rule;
use kit::lends::LendManifest;

declare_rule! {
    /// Refuses an `after` key that is neither a lent delay nor a duration.
    ///
    /// ## Why
    /// xstate reads an `after` key as a delay's name or as milliseconds. A Chart's delays are
    /// the ones its Open body lends, or a literal duration: a number of milliseconds, or a number
    /// with `ms`, `s`, `m` or `h` (`"500ms"`, `"30s"`, `"5m"`, `"1h"`). Anything else has no
    /// length, and the transition would never run.
    ///
    /// ## Example
    /// With `lends.delays: ["soon"]`, `"after": { "later": "timeout" }` is refused:
    /// `states.a.after.later: "later" is not a lent delay or a duration like "30s", "5m" or
    /// "500ms"; lent delays: soon`.
    ///
    /// ## Use instead
    /// `"after": { "soon": "timeout" }` or `"after": { "10m": "timeout" }`.
    pub static UNKNOWN_DELAY = { code: "unknown-delay", rule: Some(7), severity: Error };
}

/// A literal duration in milliseconds: `"500"`, `"500ms"`, `"30s"`, `"5m"`, `"1h"` (the kit's,
/// as a lend manifest's `ceilings.wallClock` is read).
pub use kit::lends::duration_ms;

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let lent: Vec<&String> = cx.manifest.map(LendManifest::lent_delays).unwrap_or_default();
    for id in cx.machine.ids() {
        let Some(after) = cx.state_json(id).get("after") else { continue };
        for m in after.entries() {
            if duration_ms(m.key).is_some() || lent.iter().any(|d| **d == m.key) {
                continue;
            }
            if cx.manifest.is_none() {
                continue;
            }
            sink.line(
                &UNKNOWN_DELAY,
                m.key_span,
                &join(&join(cx.map.state_path(id), "after"), m.key),
                format!(
                    "\"{}\" is not a lent delay or a duration like \"30s\", \"5m\" or \"500ms\"; lent delays: {}",
                    m.key,
                    names(&lent)
                ),
            );
        }
    }
}
