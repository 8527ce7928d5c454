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

use super::fixture::{self, Expect};
use compiler::machine::compile_text;
use compiler::machine::value::FileId;
use compiler::syntax::line_index::LineIndex;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/walk")
}

fn run_fixture(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let fixture::Fixture { clean, mut expects, .. } = fixture::read(&text);
    let compiled = compile_text(path, &clean);
    if compiled.machine.is_none() {
        return Err(format!("{}: no Machine", path.display()));
    }
    let index = LineIndex::new(&clean);
    let mut got = Vec::new();
    let mut snapshot = String::new();
    for d in compiled.diagnostics.iter().filter(|d| d.file == FileId(0)) {
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
            "{}:{}-{}:{} {}[{}] {}: {}",
            start.line,
            start.column,
            end.line,
            end.column,
            d.severity.as_str(),
            d.code,
            d.path.as_deref().unwrap_or("-"),
            d.message
        )
        .unwrap();
    }
    if !compiled.has_errors() {
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
fn walk_fixtures() {
    let files = fixture::files(&fixtures_root(), "ts");
    assert!(files.len() >= 4, "the walk's fixtures are missing");
    let mut failures = Vec::new();
    let (mut clean, mut refused) = (0, 0);
    for path in files {
        let name =
            path.strip_prefix(fixtures_root()).unwrap().with_extension("").to_string_lossy().replace(['/', '\\'], "__");
        match run_fixture(&path) {
            Ok(snapshot) => {
                clean += usize::from(snapshot.ends_with("clean\n"));
                refused += usize::from(!snapshot.ends_with("clean\n"));
                let mut settings = insta::Settings::clone_current();
                settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots/walk"));
                settings.set_prepend_module_to_snapshot(false);
                settings.set_input_file(&path);
                settings.bind(|| insta::assert_snapshot!(name, snapshot));
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(clean >= 2 && refused >= 2, "clean {clean}, refused {refused}");
}
