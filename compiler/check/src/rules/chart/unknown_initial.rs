use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::{join, names};
use chart::lower::LowerFault;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an `initial` that names no child of its state.
    ///
    /// ## Why
    /// xstate enters a compound state at the child its `initial` names; a name that is not a key
    /// of the state's own `states` cannot be entered.
    ///
    /// ## Example
    /// ```json
    /// { "initial": "drafting", "states": { "draft": { "type": "final" } } }
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// { "initial": "draft", "states": { "draft": { "type": "final" } } }
    /// ```
    pub static UNKNOWN_INITIAL = { code: "unknown-initial", rule: Some(2), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for fault in cx.faults {
        let LowerFault::UnknownInitial { state, span, initial } = fault else { continue };
        let st = cx.machine.state(*state);
        let children: Vec<&str> = st.children.iter().map(|c| cx.machine.state(*c).key.as_str()).collect();
        let d = sink.line(
            &UNKNOWN_INITIAL,
            *span,
            &join(cx.map.state_path(*state), "initial"),
            format!("\"{initial}\" is not a state of {}; its states: {}", cx.doc(*state), names(&children)),
        );
        if let Some(close) = super::unknown_target::closest(initial, &children) {
            d.help = Some(format!("did you mean \"{close}\"?"));
        }
    }
}
