//! Data-driven tests of the Chart door.
//!
//! Each fixture under `tests/fixtures/door/<folder>/<name>.json` is a Chart with inline
//! expectations in comment lines, which the harness blanks (same length, so spans hold) before
//! the door reads the text:
//!
//! ```text
//! { "states": { "a": { "on": { "go": "nowhere" } } } }
//! //                                 ^ error[unknown-target]
//! ```
//!
//! A caret line points at the column where a diagnostic's primary span starts on the nearest
//! line above that is not a comment. `// lends: FILE` names the lend manifest (relative to the
//! fixtures root; default `lends.json`), `// lends: none` runs the door without one. Every
//! diagnostic must be expected and every expectation met; the full lines are in an insta
//! snapshot beside, reviewed like code.

use super::fixture::{self, Expect};
use compiler::chart::{admit, LendManifest};
use compiler::syntax::line_index::LineIndex;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/door")
}

/// The grammar as JSON Schema: the door's admitted Charts validate against it, and the door's
/// grammar refusals fail it (issue 2: "a grammar refusal of the door is a schema failure too").
fn schema_agrees(clean: &str, admission: &compiler::chart::Admission) -> Result<(), String> {
    thread_local! {
        static VALIDATOR: jsonschema::Validator =
            jsonschema::draft202012::new(&compiler::chart::schema::chart_schema()).expect("the grammar compiles");
    }
    let Ok(value) = serde_json::from_str::<serde_json::Value>(clean) else { return Ok(()) };
    let valid = VALIDATOR.with(|v| v.is_valid(&value));
    let grammar_refused = admission.diagnostics.iter().any(|d| d.code == "chart-grammar");
    if admission.admitted() && !valid {
        return Err("the door admits it, but it fails grammar/chart.schema.json".into());
    }
    if grammar_refused && valid {
        return Err("the door's grammar refuses it, but grammar/chart.schema.json accepts it".into());
    }
    if !grammar_refused && admission.machine.is_some() && !valid {
        return Err("the door's grammar admits it, but grammar/chart.schema.json refuses it".into());
    }
    Ok(())
}

fn run_fixture(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let fixture::Fixture { clean, mut expects, lends } = fixture::read(&text);
    let lends = lends.unwrap_or(Some("lends.json".to_string()));
    let manifest: Option<LendManifest> = lends.map(|l| {
        let p = fixtures_root().join(l);
        let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        serde_json::from_str(&t).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    });
    let admission = admit(&clean, manifest.as_ref());
    schema_agrees(&clean, &admission).map_err(|e| format!("{}: {e}", path.display()))?;
    let index = LineIndex::new(&clean);
    let mut got = Vec::new();
    let mut snapshot = String::new();
    for d in &admission.diagnostics {
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
            "{}:{}-{}:{} {}[{}] rule {}: {}",
            start.line,
            start.column,
            end.line,
            end.column,
            d.severity.as_str(),
            d.code,
            d.rule.map_or("-".to_string(), |r| r.to_string()),
            d.message
        )
        .unwrap();
        if let Some(help) = &d.help {
            writeln!(snapshot, "    help: {help}").unwrap();
        }
    }
    if admission.admitted() {
        snapshot.push_str("admitted\n");
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
fn door_fixtures() {
    let files = fixture::files(&fixtures_root(), "json");
    assert!(files.len() > 10, "the door's fixtures are missing");
    let mut failures = Vec::new();
    let (mut admitted, mut grammar_refused) = (0, 0);
    for path in files {
        let name =
            path.strip_prefix(fixtures_root()).unwrap().with_extension("").to_string_lossy().replace(['/', '\\'], "__");
        match run_fixture(&path) {
            Ok(snapshot) => {
                admitted += usize::from(snapshot.ends_with("admitted\n"));
                grammar_refused += usize::from(snapshot.contains("error[chart-grammar]"));
                let mut settings = insta::Settings::clone_current();
                settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots/door"));
                settings.set_prepend_module_to_snapshot(false);
                settings.set_input_file(&path);
                settings.bind(|| insta::assert_snapshot!(name, snapshot));
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The schema cross-check above ran on both sides.
    assert!(admitted >= 5 && grammar_refused >= 3, "admitted {admitted}, grammar-refused {grammar_refused}");
}
