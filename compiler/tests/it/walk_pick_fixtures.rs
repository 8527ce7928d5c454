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

use super::fixture::{self, Expect};
use compiler::machine::compile_text;
use compiler::machine::value::FileId;
use compiler::syntax::line_index::LineIndex;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/walk_pick")
}

fn walk_codes() -> Vec<&'static str> {
    compiler::rules::walk_pick::all().into_iter().map(|r| r.code).collect()
}

fn run_fixture(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let fixture::Fixture { clean, mut expects, .. } = fixture::read(&text);
    let compiled = compile_text(path, &clean);
    let codes = walk_codes();
    let index = LineIndex::new(&clean);
    let mut got = Vec::new();
    let mut snapshot = String::new();
    for d in compiled.diagnostics.iter().filter(|d| d.file == FileId(0)) {
        if !d.is_error() && !codes.contains(&d.code) {
            continue;
        }
        let start = index.position(&clean, d.span.start);
        let end = index.position(&clean, d.span.end);
        got.push(Expect {
            line: start.line,
            column: start.column,
            severity: d.severity.as_str().into(),
            code: d.code.into(),
        });
        writeln!(
            snapshot,
            "{}:{}-{}:{} {}[{}]: {}",
            start.line,
            start.column,
            end.line,
            end.column,
            d.severity.as_str(),
            d.code,
            d.message
        )
        .unwrap();
        if let Some(p) = &d.path {
            writeln!(snapshot, "    at: {p}").unwrap();
        }
    }
    if got.is_empty() {
        snapshot.push_str("clean\n");
    }
    got.sort();
    expects.sort();
    if got != expects {
        return Err(format!(
            "{}: expectations differ\n  expected: {expects:?}\n  got:      {got:?}\n{snapshot}",
            path.display()
        ));
    }
    Ok(snapshot)
}

#[test]
fn walk_pick_fixtures() {
    let files = fixture::files(&fixtures_root(), "ts");
    let mut failures = Vec::new();
    let mut covered: Vec<String> = Vec::new();
    let mut clean = 0;
    for path in files {
        let name =
            path.strip_prefix(fixtures_root()).unwrap().with_extension("").to_string_lossy().replace(['/', '\\'], "__");
        match run_fixture(&path) {
            Ok(snapshot) => {
                clean += usize::from(snapshot == "clean\n");
                for code in walk_codes() {
                    if snapshot.contains(&format!("[{code}]")) && !covered.iter().any(|c| c == code) {
                        covered.push(code.to_string());
                    }
                }
                let mut settings = insta::Settings::clone_current();
                settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots/walk_pick"));
                settings.set_prepend_module_to_snapshot(false);
                settings.set_input_file(&path);
                settings.bind(|| insta::assert_snapshot!(name, snapshot));
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every rule is refused somewhere, and some fixtures are admitted.
    for code in walk_codes() {
        assert!(covered.iter().any(|c| c == code), "no fixture shows `{code}`");
    }
    assert!(clean >= 8, "only {clean} admitted fixtures");
}

/// The kit's own examples (the seeds') check clean: no error, and nothing of these rules.
#[test]
fn kit_examples_stay_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/xstate/fixtures");
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
