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
use base::line_index::LineIndex;
use check::compile::compile_text;
use machine::value::FileId;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/machine")
}

fn run_fixture(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let fixture::Fixture { clean, expects, .. } = fixture::read(&text);
    // A fault may leave no Machine (a syntax error, no Machine exported): the faults are the test.
    let compiled = compile_text(path, &clean);
    let index = LineIndex::new(&clean);
    let mut got = Vec::new();
    let mut snapshot = String::new();
    for d in compiled.diagnostics.iter().filter(|d| d.file == FileId(0)) {
        let (expect, head) = fixture::located(&index, &clean, d);
        got.push(expect);
        // The folders an import was looked for in, written from the fixtures' root: a snapshot
        // holds no path of the machine it was made on.
        let message = d.message.replace(&fixtures_root().display().to_string(), "<fixtures>");
        writeln!(snapshot, "{head} {}: {message}", d.path.as_deref().unwrap_or("-")).unwrap();
    }
    if !compiled.has_errors() {
        snapshot.push_str("clean\n");
    }
    fixture::compare(path, got, expects, snapshot)
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
