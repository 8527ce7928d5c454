//! The rule `unlisted-chart`: a same-Instance dispatch of a Chart that is not among the Instance's
//! Chart files.

use super::Subject;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;

declare_rule! {
    /// Warns of a `dispatch` of a named Chart whose wrapper exists in this Instance but whose Chart file does not.
    ///
    /// ## Why
    /// A slashed callee, `dispatch("notes/adhoc")`, names the Chart `adhoc` run by the wrapper
    /// Workflow `notes` (ADR-0071). The Instance check admits each Chart file
    /// `workflows/<wrapper>/<chart>.json` against its wrapper's Open body; a Chart written at run
    /// time lives on the Orchestrator's volume alone, so one that is not among the files cannot
    /// be checked here. It may be a typo of a Chart that is there, or a runtime Chart: a warning
    /// says that it was not checked. (A slashed callee whose wrapper is absent is refused by
    /// `unknown-callee`.)
    ///
    /// ## Example
    /// ```ts
    /// actors: { runtime: dispatch("notes/adhoc") }
    /// ```
    /// with `workflows/notes.ts` but no `workflows/notes/adhoc.json`: `dispatch("notes/adhoc")
    /// names a Chart of the wrapper "notes" that is not among this Instance's Chart files
    /// (workflows/notes/adhoc.json); a runtime Chart lives on the Orchestrator's volume alone, so
    /// it is not checked here`.
    ///
    /// ## Use instead
    /// Commit the Chart as `workflows/notes/adhoc.json`, so that `jr2 check` admits it, or name
    /// one of the Instance's Charts.
    pub static UNLISTED_CHART = { code: "unlisted-chart", rule: None, severity: Warning };
}

/// Warns of a same-Instance dispatch of `<wrapper>/<chart>` whose wrapper is a Workflow of the
/// Instance but whose Chart is not among its Chart files, at the callee's name.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Dispatch(call) = **cx else { return };
    if call.target().is_some() {
        return;
    }
    let Some((value, callee)) = call.callee() else { return };
    let Some((wrapper, chart)) = callee.split_once('/') else { return };
    let assembly = call.assembly;
    if !assembly.workflows.contains(wrapper) || assembly.charts.contains(callee) {
        return;
    }
    let d = sink.report(
        &UNLISTED_CHART,
        value.loc,
        format!(
            "dispatch({callee:?}) names a Chart of the wrapper {wrapper:?} that is not among this Instance's Chart files (workflows/{wrapper}/{chart}.json); a runtime Chart lives on the Orchestrator's volume alone, so it is not checked here"
        ),
    );
    d.notes.push(format!("this Instance's Charts: {}", base::path::names(&assembly.charts)));
}
