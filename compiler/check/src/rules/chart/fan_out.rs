use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use ir::{StateId, StateKind, Statechart};

declare_rule! {
    /// Refuses a Chart that can run more Agent Turns at once than the Open body's `fanOut`.
    ///
    /// ## Why
    /// `ceilings.fanOut` bounds how many Agents of one Open body work at the same time. Agents
    /// run at once in parallel regions and in states one inside the other; the door counts, for
    /// the whole Chart, the most Agent invokes that can be active together and holds it to the
    /// ceiling before the Chart runs, rather than fault it mid-run.
    ///
    /// ## Example
    /// With `"ceilings": { "fanOut": 2 }`, a `parallel` state whose three regions each invoke an
    /// Agent is refused: `(chart): up to 3 Agents can run at once in this Chart; the Open body's
    /// fanOut ceiling is 2`.
    ///
    /// ## Use instead
    /// Fewer regions, or regions that take turns (a compound state that invokes one Agent after
    /// another).
    pub static FAN_OUT_CEILING = { code: "fan-out-ceiling", rule: Some(2), severity: Error };
}

/// The most Agent invokes that can be active at once at and below a state.
pub fn fan_out(m: &Statechart, id: StateId) -> u64 {
    let st = m.state(id);
    let own = st.invokes.iter().filter(|i| i.kind.is_agent()).count() as u64;
    let below = st.children.iter().map(|c| fan_out(m, *c));
    own + if st.kind == StateKind::Parallel { below.sum() } else { below.max().unwrap_or(0) }
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(limit) = cx.manifest.and_then(|m| m.declaration.ceilings.fan_out) else { return };
    let most = fan_out(cx.machine, StateId::ROOT);
    if most > limit {
        let span = cx.chart.get("states").map_or(cx.chart.span, |s| s.span);
        sink.line(
            &FAN_OUT_CEILING,
            span,
            "",
            format!("up to {most} Agents can run at once in this Chart; the Open body's fanOut ceiling is {limit}"),
        );
    }
}
