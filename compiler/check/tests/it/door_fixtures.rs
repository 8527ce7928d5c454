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
//! fixtures root; default `lends.json`), `// lends: none` runs the door without one, as on a Chart file checked alone (`check_lone`). Every
//! diagnostic must be expected and every expectation met; the full lines are in an insta
//! snapshot beside, reviewed like code. Each fixture goes through both doors: the check's
//! (`check`, over the IR lowered for the rules only) and the executable IR's (`admit`), whose
//! diagnostics must be the same.

use super::fixture;
use base::line_index::LineIndex;
use check::door::{admit, check, check_lone};
use kit::LendManifest;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/door")
}

/// The grammar as JSON Schema: the door's admitted Charts validate against it, and the door's
/// grammar refusals fail it (issue 2: "a grammar refusal of the door is a schema failure too").
fn schema_agrees<M>(clean: &str, admission: &check::door::Admission<M>) -> Result<(), String> {
    thread_local! {
        static VALIDATOR: jsonschema::Validator =
            jsonschema::draft202012::new(&chart::schema::chart_schema()).expect("the grammar compiles");
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
    let fixture::Fixture { clean, expects, lends } = fixture::read(&text);
    let lends = lends.unwrap_or(Some("lends.json".to_string()));
    let manifest: Option<LendManifest> = lends.map(|l| {
        let p = fixtures_root().join(l);
        let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        serde_json::from_str(&t).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    });
    // Without a manifest the Chart is a file checked alone, as `jr2 check FILE` checks it.
    let admission = match &manifest {
        Some(m) => check(&clean, Some(m)),
        None => check_lone(&clean, None),
    };
    schema_agrees(&clean, &admission).map_err(|e| format!("{}: {e}", path.display()))?;
    // The executable IR's door says the same (`check_lone` adds `chart-without-lends` last).
    let full = admit(&clean, manifest.as_ref());
    let lone = usize::from(
        manifest.is_none() && admission.diagnostics.last().is_some_and(|d| d.code == "chart-without-lends"),
    );
    if full.diagnostics[..] != admission.diagnostics[..admission.diagnostics.len() - lone] {
        return Err(format!(
            "{}: `admit` and `check` differ: {:?} against {:?}",
            path.display(),
            full.diagnostics,
            admission.diagnostics
        ));
    }
    if full.machine.is_some() != admission.machine.is_some() {
        return Err(format!("{}: `admit` and `check` differ on lowering it", path.display()));
    }
    let index = LineIndex::new(&clean);
    let mut got = Vec::new();
    let mut snapshot = String::new();
    for d in &admission.diagnostics {
        let (expect, head) = fixture::located(&index, &clean, d);
        got.push(expect);
        writeln!(snapshot, "{head} rule {}: {}", d.rule.map_or("-".to_string(), |r| r.to_string()), d.message).unwrap();
        if let Some(help) = &d.help {
            writeln!(snapshot, "    help: {help}").unwrap();
        }
    }
    if admission.admitted() {
        snapshot.push_str("admitted\n");
    }
    fixture::compare(path, got, expects, snapshot)
}

#[test]
fn door_fixtures() {
    let snapshots = fixture::run_all(&fixtures_root(), "json", "door", run_fixture);
    assert!(snapshots.len() > 10, "the door's fixtures are missing");
    let admitted = snapshots.iter().filter(|s| s.ends_with("admitted\n")).count();
    let grammar_refused = snapshots.iter().filter(|s| s.contains("error[chart-grammar]")).count();
    // The schema cross-check above ran on both sides.
    assert!(admitted >= 5 && grammar_refused >= 3, "admitted {admitted}, grammar-refused {grammar_refused}");
}
