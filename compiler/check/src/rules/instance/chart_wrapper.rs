use super::{Subject, Wrapping};
use crate::rules::{Ctx, Sink};
use base::Span;
use diagnostics::declare_rule;

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

/// Refuses a named Chart whose wrapper gave it no Open body to be checked against, on the Chart
/// file (at its start: it speaks of the whole file).
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Chart(c) = **cx else { return };
    let (name, wrapper) = (c.name, c.wrapper);
    let message = match c.wrapping {
        Wrapping::LeadsOut => {
            "the Chart file is a symbolic link that leads out of the Instance folder; jr2 reads no file outside it"
                .to_string()
        }
        Wrapping::NoWrapper => format!(
            "the named Chart {name:?} has no wrapper: add workflows/{wrapper}.ts, a Workflow with an Open body slot (open({{ lends, allows, ceilings }}))"
        ),
        Wrapping::NoOpenBody => format!(
            "the wrapper workflows/{wrapper}.ts has no Open body slot to run {name:?} in: add an actor `open({{ lends, allows, ceilings }})` to its setup and invoke it"
        ),
        Wrapping::NoManifest { slot, error } => {
            format!("the Open body slot {slot:?} of workflows/{wrapper}.ts gives no lend manifest: {error}")
        }
        Wrapping::FitsNone { slots, shown } => format!(
            "the named Chart {name:?} fits none of the Open bodies of workflows/{wrapper}.ts ({}); its refusals against {shown:?} follow",
            base::list::listed(slots)
        ),
        Wrapping::FitsSeveral { slots } => format!(
            "the named Chart {name:?} fits several Open bodies of workflows/{wrapper}.ts ({}), so which one runs it is ambiguous: narrow their declarations so it fits one, or keep one Open body per wrapper",
            base::list::listed(slots)
        ),
        Wrapping::NotCompiled | Wrapping::Fits => return,
    };
    sink.at(&CHART_WRAPPER, Span::new(0, 0), message);
}
