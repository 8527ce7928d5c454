use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use chart::lower::SrcClass;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses `src: "gate"` or `src: "fail"` where the Open body does not lend it.
    ///
    /// ## Why
    /// The Machine decides which ends a Chart can choose, as it decides if a Chart can wait at a
    /// Gate (ADR-0073): `lends.gate: true` lends the kit's Gate, `lends.fail: true` its `fail()`.
    ///
    /// ## Example
    /// Under a body that lends no `fail`:
    /// ```json
    /// { "invoke": { "src": "fail", "input": { "reason": "no tests" } } }
    /// ```
    /// is refused: `states.x.invoke.src: "fail" is the kit's Part that ends the run as a Failure,
    /// and this Open body does not lend it (`lends.fail: true` would); lent: …`.
    ///
    /// ## Use instead
    /// A final state (done), or ask the Machine's author to lend `fail` (or `gate`).
    pub static KIT_PART_NOT_LENT = { code: "kit-part-not-lent", rule: Some(3), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    if cx.manifest.is_none() {
        return;
    }
    for inv in cx.invokes() {
        let Some(src_json) = inv.json.get("src") else { continue };
        let text = match inv.class {
            SrcClass::GateNotLent => format!(
                "\"gate\" is the kit's Gate, which waits for an outside answer, and this Open body does not lend it (`lends.gate: true` would); {}",
                cx.lent_text()
            ),
            SrcClass::FailNotLent => format!(
                "\"fail\" is the kit's Part that ends the run as a Failure, and this Open body does not lend it (`lends.fail: true` would); {}",
                cx.lent_text()
            ),
            _ => continue,
        };
        sink.line(&KIT_PART_NOT_LENT, src_json.span, &join(inv.path, "src"), text);
    }
}
