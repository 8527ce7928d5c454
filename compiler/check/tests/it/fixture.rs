//! The fixture format every data-driven harness here reads: a source file whose comment lines
//! carry the expectations, blanked (same length, so spans hold) before the checker reads it.
//!
//! ```text
//!   "a": { "on": { "go": "nowhere" } }
//! //                     ^ error[unknown-target]
//! ```
//!
//! A caret line points at the column where a diagnostic's primary span starts, on the nearest line
//! above that is not a comment. `// lends: FILE` names a lend manifest (the door's harness reads
//! it; `// lends: none` for none).

use std::path::{Path, PathBuf};

/// One expected diagnostic.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
pub(crate) struct Expect {
    pub line: u32,
    pub column: u32,
    pub severity: String,
    pub code: String,
}

/// A fixture read: its text with the comment lines blanked, its expectations, its lends line.
pub(crate) struct Fixture {
    pub clean: String,
    pub expects: Vec<Expect>,
    /// `Some(None)` for `// lends: none`, `Some(Some(file))` for a file, `None` when unsaid.
    pub lends: Option<Option<String>>,
}

pub(crate) fn read(text: &str) -> Fixture {
    let mut clean = String::with_capacity(text.len());
    let mut expects = Vec::new();
    let mut lends = None;
    let mut last_code_line = 0u32;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if let Some(comment) = line.trim_start().strip_prefix("//") {
            if let Some(name) = comment.trim().strip_prefix("lends:") {
                let name = name.trim();
                lends = Some(if name == "none" { None } else { Some(name.to_string()) });
            } else if comment.trim_start().starts_with('^') {
                let caret = line.find('^').unwrap();
                let rest = line[caret..].trim_start_matches('^').trim();
                let (severity, code) = rest
                    .split_once('[')
                    .map(|(s, c)| (s.trim().to_string(), c.trim_end_matches(']').to_string()))
                    .unwrap_or_else(|| panic!("line {}: an expectation is `^ error[code]`", i + 1));
                expects.push(Expect {
                    line: last_code_line,
                    column: line[..caret].chars().count() as u32 + 1,
                    severity,
                    code,
                });
            }
            clean.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            last_code_line = i as u32 + 1;
            clean.push_str(line);
        }
    }
    Fixture { clean, expects, lends }
}

/// The files with extension `ext` below `root`, at any depth but `root` itself, sorted.
pub(crate) fn files(root: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == ext) && p.parent() != Some(root) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A diagnostic's place as an expectation, and its range and code as a snapshot line starts them:
/// `line:col-line:col severity[code]`.
pub(crate) fn located(
    index: &base::line_index::LineIndex,
    clean: &str,
    d: &diagnostics::Diagnostic,
) -> (Expect, String) {
    let start = index.position(clean, d.span.start);
    let end = index.position(clean, d.span.end);
    let expect =
        Expect { line: start.line, column: start.column, severity: d.severity.as_str().into(), code: d.code.into() };
    let head =
        format!("{}:{}-{}:{} {}[{}]", start.line, start.column, end.line, end.column, d.severity.as_str(), d.code);
    (expect, head)
}

/// The fixture's snapshot if what was found is what its comments expect (in any order), else
/// the difference.
pub(crate) fn compare(
    path: &Path,
    mut got: Vec<Expect>,
    mut expects: Vec<Expect>,
    snapshot: String,
) -> Result<String, String> {
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

/// Runs `run` over every fixture file with extension `ext` below `root`, checks each snapshot
/// against `snapshots/<dir>/` (insta, named by the fixture's path below `root`), fails with
/// every fixture whose expectations differ, and returns the snapshots (for the harness's counts).
pub(crate) fn run_all(root: &Path, ext: &str, dir: &str, run: impl Fn(&Path) -> Result<String, String>) -> Vec<String> {
    let mut failures = Vec::new();
    let mut snapshots = Vec::new();
    for path in files(root, ext) {
        let name = path.strip_prefix(root).unwrap().with_extension("").to_string_lossy().replace(['/', '\\'], "__");
        match run(&path) {
            Ok(snapshot) => {
                let mut settings = insta::Settings::clone_current();
                settings.set_snapshot_path(base::workspace::root().join("snapshots").join(dir));
                settings.set_prepend_module_to_snapshot(false);
                settings.set_input_file(&path);
                settings.bind(|| insta::assert_snapshot!(name, snapshot));
                snapshots.push(snapshot);
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    snapshots
}
