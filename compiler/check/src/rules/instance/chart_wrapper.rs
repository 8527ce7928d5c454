use base::Span;
use diagnostics::{declare_rule, Diagnostic};

declare_rule! {
    /// Refuses a named Chart that has no wrapper Open body to be checked against.
    ///
    /// That is: no `workflows/<wrapper>.ts`, a wrapper with no Open body slot, or one whose Open
    /// bodies the Chart cannot be matched to.
    ///
    /// ## Why
    /// A named Chart `workflows/<wrapper>/<chart>.json` runs as `"<wrapper>/<chart>"`: the wrapper
    /// Machine runs it in its Open body slot (an actor that is an `open({ lends, allows, ceilings
    /// }, ...)` call), and the door admits it against what that slot lends. Without the wrapper, or
    /// without an Open body in it, nothing could run the Chart and nothing says what it may use.
    /// Where a wrapper has several Open bodies, the Chart is checked against each: the one it fits
    /// is its slot; fitting none, or several, is refused as ambiguous. A wrapper that does not
    /// compile is reported in its own file; its Charts are then checked without a manifest, and
    /// `wrapper-not-compiled` says so.
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

/// Why a named Chart has no wrapper to be checked against; `name` is the Chart's name
/// (`<wrapper>/<chart>`), `wrapper` its wrapper's stem.
pub enum Refusal<'a> {
    /// The Chart file is a symbolic link that leads out of the Instance folder: not read.
    LeadsOut,
    /// No `workflows/<wrapper>.ts`.
    NoWrapper { name: &'a str, wrapper: &'a str },
    /// The wrapper has no Open body slot.
    NoOpenBody { name: &'a str, wrapper: &'a str },
    /// The wrapper's one Open body gives no lend manifest (`error` says why).
    NoManifest { slot: &'a str, wrapper: &'a str, error: &'a str },
    /// The Chart fits none of the wrapper's Open bodies (`slots`); the refusals against `shown`
    /// follow.
    FitsNone { name: &'a str, wrapper: &'a str, slots: &'a str, shown: &'a str },
    /// The Chart fits several of them (`slots`).
    FitsSeveral { name: &'a str, wrapper: &'a str, slots: &'a str },
}

/// The refusal, on the Chart file (at its start: it speaks of the whole file).
pub fn diagnostic(refusal: Refusal<'_>) -> Diagnostic {
    let message = match refusal {
        Refusal::LeadsOut => {
            "the Chart file is a symbolic link that leads out of the Instance folder; jr2 reads no file outside it"
                .to_string()
        }
        Refusal::NoWrapper { name, wrapper } => format!(
            "the named Chart {name:?} has no wrapper: add workflows/{wrapper}.ts, a Workflow with an Open body slot (open({{ lends, allows, ceilings }}))"
        ),
        Refusal::NoOpenBody { name, wrapper } => format!(
            "the wrapper workflows/{wrapper}.ts has no Open body slot to run {name:?} in: add an actor `open({{ lends, allows, ceilings }})` to its setup and invoke it"
        ),
        Refusal::NoManifest { slot, wrapper, error } => {
            format!("the Open body slot {slot:?} of workflows/{wrapper}.ts gives no lend manifest: {error}")
        }
        Refusal::FitsNone { name, wrapper, slots, shown } => format!(
            "the named Chart {name:?} fits none of the Open bodies of workflows/{wrapper}.ts ({slots}); its refusals against {shown:?} follow"
        ),
        Refusal::FitsSeveral { name, wrapper, slots } => format!(
            "the named Chart {name:?} fits several Open bodies of workflows/{wrapper}.ts ({slots}), so which one runs it is ambiguous: narrow their declarations so it fits one, or keep one Open body per wrapper"
        ),
    };
    CHART_WRAPPER.at(Span::new(0, 0), message)
}
