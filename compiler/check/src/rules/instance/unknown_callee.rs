use base::Span;
use diagnostics::{declare_rule, Diagnostic};

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

/// The refusal of a plain callee at its name's `span`; `workflows` lists the Instance's.
pub fn no_workflow(span: Span, callee: &str, workflows: &str) -> Diagnostic {
    UNKNOWN_CALLEE
        .at(
            span,
            format!(
                "dispatch({callee:?}) names no Workflow of this Instance: add workflows/{callee}.ts, or name one of its Workflows ({workflows})"
            ),
        )
        .with_note("a same-Instance dispatch resolves its callee in the Assembly: the Workflows plus the Chart files")
}

/// The refusal of a slashed callee `<wrapper>/<chart>` whose wrapper the Instance lacks.
pub fn no_wrapper(span: Span, callee: &str, wrapper: &str, chart: &str, workflows: &str) -> Diagnostic {
    UNKNOWN_CALLEE.at(
        span,
        format!(
            "dispatch({callee:?}) names the Chart wrapper {wrapper:?}, which this Instance lacks: add workflows/{wrapper}.ts (a Workflow with an Open body) and workflows/{wrapper}/{chart}.json, or name one of its Workflows ({workflows})"
        ),
    )
}
