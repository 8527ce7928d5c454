//! Data-driven tests of the walk's `party.ts` and `pick.ts` rules over Machines.
//!
//! Each fixture under `tests/fixtures/walk_pick/<code>/<name>.ts` is a Workflow with inline
//! expectations in `//` comment lines, which the harness blanks (same length, so spans hold)
//! before `compile_text` reads it:
//!
//! ```text
//!       on: { done: [{ guard: sentBy("writr"), target: "review" }] },
//! //                          ^ error[sent-by-unknown-party]
//! ```
//!
//! A caret line points at the column where a diagnostic's primary span starts on the nearest line
//! above that is not a comment. The entry file's diagnostics of these rules, and every error of
//! it, must be expected, and every expectation met; the full lines are in an insta snapshot in
//! `snapshots/walk_pick/`. The kit's own examples (`tests/xstate/fixtures/*.ts`) must stay clean.

use super::fixture;
use base::line_index::LineIndex;
use check::compile::compile_text;
use machine::value::FileId;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/walk_pick")
}

fn walk_codes() -> Vec<&'static str> {
    check::rules::walk_pick::all().into_iter().map(|r| r.code).collect()
}

fn run_fixture(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let fixture::Fixture { clean, expects, .. } = fixture::read(&text);
    let compiled = compile_text(path, &clean);
    let codes = walk_codes();
    let index = LineIndex::new(&clean);
    let mut got = Vec::new();
    let mut snapshot = String::new();
    for d in compiled.diagnostics.iter().filter(|d| d.file == FileId(0)) {
        if !d.is_error() && !codes.contains(&d.code) {
            continue;
        }
        let (expect, head) = fixture::located(&index, &clean, d);
        got.push(expect);
        writeln!(snapshot, "{head}: {}", d.message).unwrap();
        if let Some(p) = &d.path {
            writeln!(snapshot, "    at: {p}").unwrap();
        }
    }
    if got.is_empty() {
        snapshot.push_str("clean\n");
    }
    fixture::compare(path, got, expects, snapshot)
}

#[test]
fn walk_pick_fixtures() {
    let snapshots = fixture::run_all(&fixtures_root(), "ts", "walk_pick", run_fixture);
    // Every rule is refused somewhere, and some fixtures are admitted.
    for code in walk_codes() {
        assert!(snapshots.iter().any(|s| s.contains(&format!("[{code}]"))), "no fixture shows `{code}`");
    }
    let clean = snapshots.iter().filter(|s| *s == "clean\n").count();
    assert!(clean >= 8, "only {clean} admitted fixtures");
}

/// The kit's own examples (the seeds') check clean: no error, and nothing of these rules.
#[test]
fn kit_examples_stay_clean() {
    let dir = base::workspace::root().join("tests/xstate/fixtures");
    let codes = walk_codes();
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = entry.path();
        if p.extension().is_none_or(|e| e != "ts") {
            continue;
        }
        n += 1;
        let text = std::fs::read_to_string(&p).unwrap();
        let compiled = compile_text(&p, &text);
        let bad: Vec<String> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.is_error() || codes.contains(&d.code))
            .map(|d| format!("{}[{}]: {}", d.severity.as_str(), d.code, d.message))
            .collect();
        assert!(bad.is_empty(), "{}: {bad:#?}", p.display());
    }
    assert!(n >= 7, "the kit's examples are missing");
}
