use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use chart::lower::LowerFault;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a `#id` target that more than one state claims.
    ///
    /// ## Why
    /// xstate keeps one state per id and lets a later one win without a word, so a Chart whose
    /// two states share an `id` would route to whichever xstate happened to keep. The door
    /// refuses the target rather than guess.
    ///
    /// ## Example
    /// ```json
    /// { "initial": "a", "states": { "a": { "id": "x", "on": { "go": "#x" } }, "b": { "id": "x" } } }
    /// ```
    ///
    /// ## Use instead
    /// Give each state its own `id`.
    pub static AMBIGUOUS_TARGET = { code: "ambiguous-target", rule: Some(2), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for fault in cx.faults {
        let LowerFault::AmbiguousTarget { path, span, target, states } = fault else { continue };
        let docs: Vec<&str> = states.iter().map(|s| cx.doc(*s)).collect();
        let d = sink.line(
            &AMBIGUOUS_TARGET,
            *span,
            path,
            format!("\"{target}\" is ambiguous: {} states answer to it ({})", states.len(), docs.join(", ")),
        );
        for s in states {
            let span = cx.map.state(*s).key_or_value().span;
            d.secondary.push(diagnostics::Label { span, message: "this state".into() });
        }
        d.help = Some("give each state its own `id`".into());
    }
}
