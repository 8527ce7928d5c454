//! The rule `wrapper-not-compiled`: a named Chart whose wrapper Workflow does not compile. 

use super::{Subject, Wrapping};
use crate::rules::{Ctx, Sink};
use base::Span;
use diagnostics::declare_rule;

declare_rule! {
    /// Warns that a named Chart was checked without its Open body's manifest, because its wrapper Workflow does not compile.
    ///
    /// ## Why
    /// A named Chart `workflows/<wrapper>/<chart>.json` is admitted against what its wrapper's
    /// Open body lends (ADR-0071). When `workflows/<wrapper>.ts` does not compile, there is no
    /// Open body to read: the wrapper's own file carries its errors, and the Chart is checked by
    /// the door without a lend manifest, so its lent names and input shapes are not checked. The
    /// warning says so, on the Chart, so that a clean-looking Chart is not taken for an admitted
    /// one.
    ///
    /// ## Example
    /// `workflows/notes.ts` with a syntax error, beside `workflows/notes/weekly.json`: `the wrapper
    /// workflows/notes.ts does not compile, so "notes/weekly" is checked without its Open body's
    /// manifest`.
    ///
    /// ## Use instead
    /// Fix the wrapper's errors; the Chart is then admitted against its Open body.
    pub static WRAPPER_NOT_COMPILED = { code: "wrapper-not-compiled", rule: None, severity: Warning };
}

/// The warning on a named Chart (at its start) whose wrapper does not compile.
pub(crate) fn check(cx: &Ctx<Subject<'_>>, sink: &mut Sink) {
    let Subject::Chart(c) = **cx else { return };
    if let Wrapping::NotCompiled = c.wrapping {
        let (name, wrapper) = (c.name, c.wrapper);
        sink.at(
            &WRAPPER_NOT_COMPILED,
            Span::new(0, 0),
            format!("the wrapper workflows/{wrapper}.ts does not compile, so {name:?} is checked without its Open body's manifest"),
        );
    }
}
