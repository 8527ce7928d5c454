use crate::door::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a Chart with more than 200 states.
    ///
    /// ## Why
    /// The door bounds what a planner can ask the Open body to hold: a Chart of more states than
    /// a person can review is a sign of a runaway plan, and every check of the door is over its
    /// states.
    ///
    /// ## Example
    /// A Chart whose `states` (at every depth) count 201 is refused:
    /// `(chart): the Chart has 201 states; a Chart has at most 200`.
    ///
    /// ## Use instead
    /// Split the work: a lent Machine, or a later Chart for the next phase.
    pub static TOO_MANY_STATES = { code: "too-many-states", rule: Some(2), severity: Error };
}

/// The most states a Chart may have (the seed's `MAX_STATES`).
pub const MAX_STATES: usize = 200;

pub fn check(cx: &Ctx, sink: &mut Sink) {
    let count = cx.machine.states.len() - 1;
    if count > MAX_STATES {
        let span = cx.chart.get("states").map_or(cx.chart.span, |s| s.span);
        sink.line(
            &TOO_MANY_STATES,
            span,
            "",
            format!("the Chart has {count} states; a Chart has at most {MAX_STATES}"),
        );
    }
}
