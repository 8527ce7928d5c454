//! Data-driven tests of the walk over Machines.
//!
//! Each fixture under `tests/fixtures/walk/<code>/<name>.ts` is a Workflow with inline
//! expectations in comment lines, which the harness blanks (same length, so spans hold) before
//! compiling the text with `compile_text`:
//!
//! ```text
//!     coding: { invoke: { src: "coder" } },
//! //  ^ error[agent-fault-unrouted]
//! ```
//!
//! A caret line points at the column where a diagnostic's primary span starts on the nearest
//! line above that is not a comment. Every diagnostic of the entry file must be expected and every
//! expectation met; the full lines are in an insta snapshot in `snapshots/walk/`, reviewed like
//! code.

use super::fixture;
use base::line_index::LineIndex;
use check::compile::compile_text;
use machine::value::FileId;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/walk")
}

fn run_fixture(path: &Path) -> Result<String, String> {
    run_compiled(path, &fixtures_root(), true)
}

/// One Workflow fixture through `compile_text`: its expectations against the entry file's
/// diagnostics, and its snapshot (messages with `root` written as `<fixtures>`, so a snapshot
/// holds no path of the machine it was made on). `needs_machine`: a fixture that lowers no
/// Machine fails (the walk's); the Machine front end's faults may leave none.
pub(super) fn run_compiled(path: &Path, root: &Path, needs_machine: bool) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let fixture::Fixture { clean, expects, .. } = fixture::read(&text);
    let compiled = compile_text(path, &clean);
    if needs_machine && compiled.machine.is_none() {
        return Err(format!("{}: no Machine", path.display()));
    }
    let root = root.display().to_string();
    let index = LineIndex::new(&clean);
    let mut got = Vec::new();
    let mut snapshot = String::new();
    for d in compiled.diagnostics.iter().filter(|d| d.file == FileId(0)) {
        let (expect, head) = fixture::located(&index, &clean, d);
        got.push(expect);
        let message = d.message.replace(&root, "<fixtures>");
        writeln!(snapshot, "{head} {}: {message}", d.path.as_deref().unwrap_or("-")).unwrap();
    }
    if !compiled.has_errors() {
        snapshot.push_str("clean\n");
    }
    fixture::compare(path, got, expects, snapshot)
}

#[test]
fn walk_fixtures() {
    let snapshots = fixture::run_all(&fixtures_root(), "ts", "walk", run_fixture);
    assert!(snapshots.len() >= 4, "the walk's fixtures are missing");
    let clean = snapshots.iter().filter(|s| s.ends_with("clean\n")).count();
    let refused = snapshots.len() - clean;
    assert!(clean >= 2 && refused >= 2, "clean {clean}, refused {refused}");
}
