//! Data-driven tests of the Machine front end's faults, as `check::compile` reports them.
//!
//! Each fixture under `tests/fixtures/machine/<code>/<name>.ts` is a Workflow with inline
//! expectations in comment lines, which the harness blanks (same length, so spans hold) before
//! compiling the text with `compile_text`:
//!
//! ```text
//!   states: ["a", "b"],
//! //        ^ error[not-object]
//! ```
//!
//! A caret line points at the column where a diagnostic's primary span starts on the nearest
//! line above that is not a comment. Every diagnostic of the entry file must be expected and every
//! expectation met; the full lines are in an insta snapshot in `snapshots/machine/`, reviewed like
//! code.
//!
//! The fixtures of `lowering/` are xstate constructs that lower into the IR (history states,
//! targets, `stateIn`, routes, action creators, ...): their snapshot also holds the IR, each state
//! and each transition on a line of its own, so that a review reads what each became.

use super::fixture;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/machine")
}

/// A fault may leave no Machine (a syntax error, no Machine exported): the faults are the test.
fn run_fixture(path: &Path) -> Result<String, String> {
    let snapshot = super::walk_fixtures::run_compiled(path, &fixtures_root(), false)?;
    if path.parent().and_then(Path::file_name).is_none_or(|d| d != "lowering") {
        return Ok(snapshot);
    }
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let compiled = check::compile::compile_text(path, &fixture::read(&text).clean);
    let m = compiled.machine.as_ref().ok_or_else(|| format!("{}: no Machine", path.display()))?;
    Ok(format!("{snapshot}{}", ir_lines(m)))
}

/// The IR, a line a state and a transition (each its JSON), then the Machine's own fields.
fn ir_lines(m: &ir::Statechart) -> String {
    let line = |v: serde_json::Value| format!("{v}\n");
    let mut out = String::from("--- ir\n");
    for (i, s) in m.states.iter().enumerate() {
        let mut v = serde_json::to_value(s).expect("serializes");
        if let Some(o) = v.as_object_mut() {
            o.remove("children");
            o.insert("state".into(), i.into());
        }
        out.push_str(&line(v));
    }
    for t in &m.transitions {
        out.push_str(&line(serde_json::to_value(t).expect("serializes")));
    }
    for (key, v) in [
        ("context", serde_json::to_value(&m.context)),
        ("contextExpr", serde_json::to_value(&m.context_expr)),
        ("output", serde_json::to_value(&m.output)),
        ("slots", serde_json::to_value(&m.slots)),
    ] {
        let v = v.expect("serializes");
        if !v.is_null() {
            out.push_str(&format!("{key}: {v}\n"));
        }
    }
    out
}

/// Every rule of the Machine front end (`check::rules::machine`) has its fixture folder.
#[test]
fn machine_fixtures() {
    let snapshots = fixture::run_all(&fixtures_root(), "ts", "machine", run_fixture);
    for rule in check::rules::machine::all() {
        assert!(fixtures_root().join(rule.code).is_dir(), "`{}` has no fixture folder", rule.code);
    }
    assert!(snapshots.len() >= check::rules::machine::all().len(), "the Machine front end's fixtures are missing");
}
