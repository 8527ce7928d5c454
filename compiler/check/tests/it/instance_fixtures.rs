//! Data-driven tests of the Instance check's rules (`rules::instance`, and the same-Instance door
//! rules of `rules::compat`), one mini Instance per case.
//!
//! Each case `tests/fixtures/instance/<code>/<case>/` is an Instance folder (`workflows/*.ts`,
//! `workflows/<wrapper>/<chart>.json`) that the harness checks with
//! [`check::instance::check_instance`], as `jr2 check` does, straight from the disk. Its
//! expectations are
//! - caret lines in the `.ts` files, in the format of [`super::fixture`] (they are TypeScript
//!   comments, so the files are checked as they are):
//!   ```text
//!       typo: dispatch("reveiw"),
//!   //                 ^ error[unknown-callee]
//!   ```
//! - and, for what no comment can carry, lines of an `expect.txt` beside `workflows/`:
//!   `<relative path>:<line>:<col> <severity>[<code>]`, for the `.json` Charts (JSON has no
//!   comments) and for a line at 1:1, where a rule speaks of a whole file (a Workflow's name is
//!   its file's stem, no place in its text); `#` starts a comment line.
//!
//! Every diagnostic of every file must be expected and every expectation met; the rendered
//! report (the human format, no colour) is an insta snapshot in `snapshots/instance/`. A case whose
//! name starts with `admitted` is one where its rule has nothing to say; each rule of
//! `rules::instance`, and `door-mismatch` and `door-not-compared`, has at least one such case and
//! one where it speaks.

use super::fixture::{self, Expect};
use base::line_index::LineIndex;
use check::instance::{check_instance, InstanceReport};
use diagnostics::FileReport;
use render::human;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/instance")
}

/// One expectation, in one file of the case (its path relative to the case, with `/`).
type Expected = (String, Expect);

/// Every case folder: `<code>/<case>`, sorted.
fn cases() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for code in sorted_dirs(&fixtures_root()) {
        out.extend(sorted_dirs(&code));
    }
    out
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    out.sort();
    out
}

fn relative(case: &Path, path: &Path) -> String {
    path.strip_prefix(case).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

/// The case's expectations: the caret lines of its `.ts` files, then its `expect.txt`.
fn expectations(case: &Path) -> Result<Vec<Expected>, String> {
    let mut out = Vec::new();
    for ts in fixture::files(case, "ts") {
        let text = std::fs::read_to_string(&ts).map_err(|e| format!("{}: {e}", ts.display()))?;
        out.extend(fixture::read(&text).expects.into_iter().map(|e| (relative(case, &ts), e)));
    }
    let listed = case.join("expect.txt");
    if listed.exists() {
        let text = std::fs::read_to_string(&listed).map_err(|e| e.to_string())?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            out.push(parse_line(line).ok_or_else(|| {
                format!("{}:{}: expected `<path>:<line>:<col> <severity>[<code>]`", listed.display(), i + 1)
            })?);
        }
    }
    Ok(out)
}

/// `workflows/notes/x.json:1:1 error[chart-wrapper]`.
fn parse_line(line: &str) -> Option<Expected> {
    let (place, diag) = line.split_once(' ')?;
    let mut parts = place.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let at = parts.next()?.parse().ok()?;
    let path = parts.next()?.to_string();
    let (severity, code) = diag.trim().split_once('[')?;
    let code = code.strip_suffix(']')?;
    Some((path, Expect { line: at, column, severity: severity.to_string(), code: code.to_string() }))
}

/// What the check found, as expectations, and the rendered report.
fn found(case: &Path, report: &InstanceReport) -> (Vec<Expected>, String) {
    let mut got = Vec::new();
    let mut reports = Vec::new();
    for file in &report.files {
        let index = LineIndex::new(&file.text);
        let path = relative(case, &file.path);
        for d in &file.diagnostics {
            let at = index.position(&file.text, d.span.start);
            got.push((
                path.clone(),
                Expect { line: at.line, column: at.column, severity: d.severity.as_str().into(), code: d.code.into() },
            ));
        }
        // Related places in other files (a callee's door) are shown relative to the case too.
        let mut diagnostics = file.diagnostics.clone();
        for r in diagnostics.iter_mut().flat_map(|d| &mut d.related) {
            r.path = relative(case, Path::new(&r.path));
        }
        reports.push(FileReport { path, text: file.text.clone(), diagnostics });
    }
    (got, human::render(&reports, false))
}

/// Checks one case: `Ok` with its snapshot text and the codes it found, or what differs.
fn run_case(case: &Path) -> Result<(String, Vec<String>), String> {
    let mut expects = expectations(case)?;
    let report = check_instance(case);
    if !report.internal_errors.is_empty() {
        return Err(format!("{}: internal errors in {:?}", case.display(), report.internal_errors));
    }
    let (mut got, rendered) = found(case, &report);
    got.sort();
    expects.sort();
    if got != expects {
        let show = |xs: &[Expected]| {
            xs.iter()
                .map(|(p, e)| format!("    {p}:{}:{} {}[{}]", e.line, e.column, e.severity, e.code))
                .collect::<Vec<_>>()
                .join("\n")
        };
        return Err(format!(
            "{}: expectations differ\n  expected:\n{}\n  got:\n{}\n{rendered}",
            case.display(),
            show(&expects),
            show(&got)
        ));
    }
    let files: Vec<String> = report.files.iter().map(|f| relative(case, &f.path)).collect();
    let snapshot = format!("files: {}\n\n{rendered}", files.join(", "));
    Ok((snapshot, got.into_iter().map(|(_, e)| e.code).collect()))
}

#[test]
fn instance_fixtures() {
    let cases = cases();
    assert!(cases.len() >= 10, "the Instance fixtures are missing");
    let mut failures = Vec::new();
    for case in &cases {
        match run_case(case) {
            Ok((snapshot, _)) => {
                let name = relative(&fixtures_root(), case).replace('/', "__");
                let mut settings = insta::Settings::clone_current();
                settings.set_snapshot_path(base::workspace::root().join("snapshots/instance"));
                settings.set_prepend_module_to_snapshot(false);
                settings.set_input_file(case);
                settings.bind(|| insta::assert_snapshot!(name, snapshot));
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The rules these fixtures cover: `rules::instance`, and the door checks of `rules::compat` that
/// need no network (a same-Instance dispatch against its callee's door). The `foreign-door-*`
/// rules read a door over HTTP: `tests/it/doors.rs` serves them from a local server.
fn covered_rules() -> Vec<&'static diagnostics::Rule> {
    let compat = check::rules::compat::all().into_iter().filter(|r| !r.code.starts_with("foreign-door-"));
    check::rules::instance::all().into_iter().chain(compat).collect()
}

/// Every rule of `rules::instance`, and each same-Instance door rule, has a folder of cases, with
/// at least one case where it speaks and one `admitted*` case where it does not.
#[test]
fn every_instance_rule_has_a_refused_and_an_admitted_case() {
    let mut by_code: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for case in cases() {
        let Some(code) = case.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        let admitted = case.file_name().is_some_and(|n| n.to_string_lossy().starts_with("admitted"));
        let Ok((_, codes)) = run_case(&case) else { continue };
        let speaks = codes.contains(&code);
        let entry = by_code.entry(code).or_default();
        if admitted && !speaks {
            entry.0 += 1;
        }
        if !admitted && speaks {
            entry.1 += 1;
        }
    }
    let mut missing = Vec::new();
    let rules = covered_rules();
    assert!(rules.iter().any(|r| r.code == "door-mismatch"), "the door rules are covered too");
    for rule in &rules {
        match by_code.get(rule.code) {
            Some((admitted, refused)) if *admitted > 0 && *refused > 0 => {}
            other => missing.push(format!(
                "{}: {} admitted and {} refused cases (tests/fixtures/instance/{}/)",
                rule.code,
                other.map_or(0, |c| c.0),
                other.map_or(0, |c| c.1),
                rule.code
            )),
        }
    }
    assert!(missing.is_empty(), "every Instance rule needs an admitted and a refused case:\n{}", missing.join("\n"));
    // A folder for a code that no rule of the group declares is a stale fixture.
    for code in by_code.keys() {
        assert!(
            rules.iter().any(|r| r.code == code),
            "tests/fixtures/instance/{code}/ names no rule of rules::instance nor a same-Instance door rule"
        );
    }
}
