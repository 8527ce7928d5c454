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

use super::fixture;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/machine")
}

/// A fault may leave no Machine (a syntax error, no Machine exported): the faults are the test.
fn run_fixture(path: &Path) -> Result<String, String> {
    super::walk_fixtures::run_compiled(path, &fixtures_root(), false)
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
