use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a named Chart that has no wrapper to check it against: no `workflows/<wrapper>.ts`,
    /// a wrapper with no Open body slot, or one whose Open bodies the Chart cannot be matched to.
    ///
    /// ## Why
    /// A named Chart `workflows/<wrapper>/<chart>.json` runs as `"<wrapper>/<chart>"`: the wrapper
    /// Machine runs it in its Open body slot (an actor that is an `open({ lends, allows, ceilings
    /// }, ...)` call), and the door admits it against what that slot lends. Without the wrapper, or
    /// without an Open body in it, nothing could run the Chart and nothing says what it may use.
    /// Where a wrapper has several Open bodies, the Chart is checked against each: the one it fits
    /// is its slot; fitting none, or several, is refused as ambiguous. A wrapper that does not
    /// compile is reported in its own file; its Charts are then checked without a manifest, and a
    /// warning says so.
    ///
    /// ## Example
    /// `workflows/notes/weekly.json` with no `workflows/notes.ts` is refused: `the named Chart
    /// "notes/weekly" has no wrapper: add workflows/notes.ts, a Workflow with an Open body slot
    /// (open({ lends, allows, ceilings }))`.
    ///
    /// ## Use instead
    /// ```ts
    /// // workflows/notes.ts
    /// export const machine = jr2Setup({
    ///   actors: {
    ///     writer: agent({ model: "anthropic/claude-haiku-5-5", instructions: "You write notes." }),
    ///     plan: open({ lends: { agents: ["writer"], gate: true }, allows: {}, ceilings: {} }),
    ///   },
    /// }).createMachine({ id: "notes", initial: "planning", states: { planning: { invoke: { src: "plan" } } } });
    /// ```
    pub static CHART_WRAPPER = { code: "chart-wrapper", rule: None, severity: Error };
}
