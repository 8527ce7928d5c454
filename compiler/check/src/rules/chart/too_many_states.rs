use crate::door::Chart;
use crate::rules::{Ctx, Sink};
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

/// Past this many states declared, the door refuses a Chart before lowering it (only this rule
/// speaks): lowering and the other rules over 200 000 states took minutes to say "at most 200".
pub const LOWERED_AT_MOST: usize = 10 * MAX_STATES;

/// The states a Chart's JSON declares at every depth (the keys of each `states` object, each
/// once), counted up to just past `cap`; a loop, not a recursion.
pub fn declared(chart: &syntax::json::Json, cap: usize) -> usize {
    let mut count = 0;
    let mut todo = vec![chart];
    while let Some(node) = todo.pop() {
        for state in node.get("states").into_iter().flat_map(|s| s.entries()) {
            count += 1;
            if count > cap {
                return count;
            }
            todo.push(&state.value);
        }
    }
    count
}

/// The refusal of a Chart of more than [`LOWERED_AT_MOST`] states, before it is lowered.
pub fn refuse_unlowered(chart: &syntax::json::Json, sink: &mut Sink) {
    let span = chart.get("states").map_or(chart.span, |s| s.span);
    sink.line(&TOO_MANY_STATES, span, "", format!("the Chart has more than {LOWERED_AT_MOST} states; a Chart has at most {MAX_STATES}"));
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
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
