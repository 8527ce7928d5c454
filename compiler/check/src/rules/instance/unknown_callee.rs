use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a `dispatch` of a same-Instance Workflow that the Instance's Assembly lacks, naming
    /// the fix; a slashed Chart name whose wrapper exists but whose Chart file is absent is a
    /// warning.
    ///
    /// ## Why
    /// A dispatch names its callee as `jr2 run` names it, `review` or `task/review-loop` (ADR-0071).
    /// With no `target` it starts a run in this Instance, so the walk resolves the name in the
    /// Assembly, the Workflows (`workflows/<name>.ts`) plus the Chart files
    /// (`workflows/<wrapper>/<chart>.json`), and refuses a miss: the run would answer `refused`
    /// with a 404 every time. A slashed name whose wrapper exists but whose Chart file is absent is
    /// a warning, since a runtime Chart lives on the Orchestrator's volume alone; a slashed name
    /// whose wrapper is absent is refused. A dispatch with a `target` starts a run in another
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
