use crate::door::Tree;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a Chart text larger than the Open body's `size` ceiling.
    ///
    /// ## Why
    /// The declaration's `ceilings.size` bounds what a planner may hand the Open body: a Chart is
    /// held in the run's ledger and read on every step, so its size is part of the budget.
    ///
    /// ## Example
    /// With `"ceilings": { "size": 65536 }`, a Chart text of 70 000 bytes is refused:
    /// `(chart): the Chart is 70000 bytes; the Open body's size ceiling is 65536 bytes`.
    ///
    /// ## Use instead
    /// A smaller Chart: fewer states, shorter prompts, or a lent Machine for a large part.
    pub static CHART_TOO_LARGE = { code: "chart-too-large", rule: Some(2), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Tree>, sink: &mut Sink) {
    let (chart, size) = (cx.chart, cx.size);
    let Some(limit) = cx.manifest.and_then(|m| m.declaration.ceilings.size) else { return };
    if size as u64 > limit {
        let span = base::Span::new(
            chart.span.start,
            chart.span.start.min(chart.span.end).saturating_add(1).min(chart.span.end),
        );
        sink.line(
            &CHART_TOO_LARGE,
            span,
            "",
            format!("the Chart is {size} bytes; the Open body's size ceiling is {limit} bytes"),
        );
    }
}
