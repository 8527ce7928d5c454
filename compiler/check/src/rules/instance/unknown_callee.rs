use super::Subject;
use crate::rules::{Ctx, Sink};
use base::path::names;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a `dispatch` of a same-Instance Workflow that the Instance's Assembly lacks, naming the fix.
    ///
    /// ## Why
    /// A dispatch names its callee as `jr2 run` names it, `review` or `task/review-loop` (ADR-0071).
    /// With no `target` it starts a run in this Instance, so the walk resolves the name in the
    /// Assembly, the Workflows (`workflows/<name>.ts`) plus the Chart files
    /// (`workflows/<wrapper>/<chart>.json`), and refuses a miss: the run would answer `refused`
    /// with a 404 every time. A slashed name whose wrapper is absent is refused; one whose wrapper
    /// exists but whose Chart file is absent is `unlisted-chart`'s warning, since a runtime Chart
    /// lives on the Orchestrator's volume alone. A dispatch with a `target` starts a run in another
    /// Instance and is not resolved here.
    ///
    /// ## Example
    /// ```ts
    /// actors: { review: dispatch("reveiw", { input: z.object({ branch: z.string() }) }) }
    /// ```
    /// is refused: `dispatch("reveiw") names no Workflow of this Instance: add
    /// workflows/reveiw.ts, or name one of its Workflows (fix-tests, review, triage)`.
    ///
    /// ## Use instead
    /// ```ts
    /// actors: { review: dispatch("review", { input: z.object({ branch: z.string() }) }) }
    /// ```
    pub static UNKNOWN_CALLEE = { code: "unknown-callee", rule: None, severity: Error };
}

/// Refuses a same-Instance dispatch whose callee the Assembly lacks, at the callee's name: a plain
/// name that is no Workflow, or a `<wrapper>/<chart>` whose wrapper is none.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Dispatch(call) = **cx else { return };
    // A dispatch with a target (foreign, or open) is not resolved here.
    if call.target().is_some() {
        return;
    }
    let Some((value, callee)) = call.callee() else { return };
    let workflows = &call.assembly.workflows;
    match callee.split_once('/') {
        None if !workflows.contains(callee) => {
            let message = format!(
                "dispatch({callee:?}) names no Workflow of this Instance: add workflows/{callee}.ts, or name one of its Workflows ({})",
                names(workflows)
            );
            let d = sink.report(&UNKNOWN_CALLEE, value.loc, message);
            d.notes.push(
                "a same-Instance dispatch resolves its callee in the Assembly: the Workflows plus the Chart files".into(),
            );
        }
        Some((wrapper, chart)) if !workflows.contains(wrapper) => {
            let message = format!(
                "dispatch({callee:?}) names the Chart wrapper {wrapper:?}, which this Instance lacks: add workflows/{wrapper}.ts (a Workflow with an Open body) and workflows/{wrapper}/{chart}.json, or name one of its Workflows ({})",
                names(workflows)
            );
            sink.report(&UNKNOWN_CALLEE, value.loc, message);
        }
        _ => {}
    }
}

