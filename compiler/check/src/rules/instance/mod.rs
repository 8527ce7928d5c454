//! The Instance check's rules (ADR-0071 and the Instance layout): Workflow names, dispatch
//! callees and targets, and each named Chart's wrapper.
//!
//! Each rule is a pass `fn check(cx: &Ctx<Subject>, sink: &mut Sink)` over one subject of the
//! Instance check: a file's name, one `dispatch` call with the Instance's Assembly, or a named
//! Chart with what its wrapper gave it. `crate::instance`, which knows the whole Instance, gathers
//! the subjects and runs [`CHECKS`] on each ([`run`]); a rule reads the subjects it is about and
//! passes over the others.
//!
//! Each rule has mini Instances under `compiler/check/tests/fixtures/instance/<code>/<case>/`, refused and
//! `admitted*` ones, run by `tests/it/instance_fixtures.rs`, which also holds every rule here to both.

use crate::rules::{Ctx, Sink};
use machine::lower::arg;
use machine::value::{Value, ValueKind};
use std::collections::BTreeSet;

// In the order they run: on a dispatch, its target's rules before its callee's.
family! {
    checks: Subject<'_>;
    workflow_stem::WORKFLOW_STEM => check,
    chart_wrapper::CHART_WRAPPER => check,
    dispatch_target_url::DISPATCH_TARGET_URL => check,
    secret_in_target::SECRET_IN_TARGET => check,
    unknown_callee::UNKNOWN_CALLEE => check,
    unlisted_chart::UNLISTED_CHART => check,
    wrapper_not_compiled::WRAPPER_NOT_COMPILED => check,
}

/// What an Instance rule reads: one subject of the Instance check.
pub(crate) enum Subject<'a> {
    /// A Workflow's or a named Chart's file, by its name.
    File(&'a FileName<'a>),
    /// One `dispatch(name, { input, wait, target })` call of a Workflow.
    Dispatch(&'a Dispatch<'a>),
    /// A named Chart and what its wrapper Workflow gave it to be checked against.
    Chart(&'a ChartSubject<'a>),
}

/// Runs every Instance rule on one subject.
pub(crate) fn run(subject: Subject<'_>, sink: &mut Sink) {
    let cx = Ctx::new(subject);
    for check in CHECKS {
        check(&cx, sink);
    }
}

/// A Workflow's or a named Chart's file: its name is its stem.
pub(crate) struct FileName<'a> {
    /// "Workflow" or "Chart".
    pub what: &'static str,
    pub stem: &'a str,
    /// The file as the user sees it (relative to the Instance root, `/` separators).
    pub shown: &'a str,
    /// The folder it is in, relative to the root: `workflows`, or `workflows/<wrapper>`.
    pub folder: &'a str,
    /// Its extension: `ts` or `json`.
    pub extension: &'static str,
}

/// The Instance's Assembly by name: what a same-Instance `dispatch` may name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Assembly {
    /// The Workflows' stems.
    pub workflows: BTreeSet<String>,
    /// The named Charts, `wrapper/chart`.
    pub charts: BTreeSet<String>,
}

/// One `dispatch(...)` call of a Workflow, and the Assembly its callee resolves in.
pub(crate) struct Dispatch<'a> {
    pub call: &'a Value<'a>,
    pub assembly: &'a Assembly,
}

impl<'a> Dispatch<'a> {
    /// The callee's name as written: its value (a string) and the name.
    pub(crate) fn callee(&self) -> Option<(&'a Value<'a>, &'a str)> {
        let name = arg(self.call, 0)?;
        Some((name, name.as_str()?))
    }

    /// Its `target` (absent or `undefined`: `None`, a same-Instance dispatch).
    pub(crate) fn target(&self) -> Option<&'a Value<'a>> {
        arg(self.call, 1).and_then(|o| o.get("target")).filter(|t| !matches!(t.kind, ValueKind::Undefined))
    }

    /// Its target, where it is written out (not the kit's `open`, which a composer binds).
    pub(crate) fn written_target(&self) -> Option<&'a Value<'a>> {
        self.target().filter(|t| !crate::instance::is_open(t))
    }
}

/// A named Chart `<wrapper>/<chart>` and what its wrapper gave it.
pub(crate) struct ChartSubject<'a> {
    /// The Chart's name, `<wrapper>/<chart>`.
    pub name: &'a str,
    /// Its wrapper's stem.
    pub wrapper: &'a str,
    pub wrapping: Wrapping<'a>,
}

/// What a named Chart's wrapper gave it to be checked against.
pub(crate) enum Wrapping<'a> {
    /// The Chart file is a symbolic link that leads out of the Instance folder: not read.
    LeadsOut,
    /// No `workflows/<wrapper>.ts`.
    NoWrapper,
    /// The wrapper does not compile (its own file says why).
    NotCompiled,
    /// The wrapper has no Open body slot.
    NoOpenBody,
    /// The wrapper's one Open body gives no lend manifest (`error` says why).
    NoManifest { slot: &'a str, error: &'a str },
    /// The Chart fits none of the wrapper's Open bodies (`slots`); its refusals against `shown`
    /// follow.
    FitsNone { slots: &'a [String], shown: &'a str },
    /// The Chart fits several of them (`slots`).
    FitsSeveral { slots: &'a [&'a str] },
    /// The Chart fits the one Open body it is checked against.
    Fits,
}

/// The diagnostics of one subject: for the rules' unit tests.
#[cfg(test)]
pub(crate) fn run_alone(subject: Subject<'_>) -> Vec<diagnostics::Diagnostic> {
    let mut sink = Sink::default();
    run(subject, &mut sink);
    sink.into_diagnostics()
}
