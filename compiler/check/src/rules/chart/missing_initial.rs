use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::names;
use chart::lower::LowerFault;
use diagnostics::declare_rule;
use diagnostics::{Edit, Fix};

declare_rule! {
    /// Refuses a compound state (one with `states`, not `parallel`) that names no `initial`.
    ///
    /// ## Why
    /// xstate enters a compound state at its `initial` child; without one it cannot enter it, and
    /// a Chart would stop there. The Chart root is a compound state too.
    ///
    /// ## Example
    /// ```json
    /// { "states": { "a": { "on": { "go": "b" } }, "b": { "type": "final" } } }
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// { "initial": "a", "states": { "a": { "on": { "go": "b" } }, "b": { "type": "final" } } }
    /// ```
    pub static MISSING_INITIAL = { code: "missing-initial", rule: Some(2), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for fault in cx.faults {
        let LowerFault::MissingInitial { state } = fault else { continue };
        let st = cx.machine.state(*state);
        let children: Vec<&str> = st.children.iter().map(|c| cx.machine.state(*c).key.as_str()).collect();
        let json = cx.state_json(*state);
        let source = cx.map.state(*state);
        let span = source.key.map_or(json.span, |k| k.span);
        let d = sink.line(
            &MISSING_INITIAL,
            span,
            &source.path,
            format!("a compound state names its `initial` state; its states: {}", names(&children)),
        );
        if let (Some(first), Some(open)) = (children.first(), json.as_object().map(|_| json.span.start + 1)) {
            d.fix = Some(Fix::edits(
                format!("start at \"{first}\""),
                vec![Edit { span: base::Span::empty_at(open), replacement: format!(" \"initial\": \"{first}\",") }],
            ));
        }
    }
}
