//! `jr2 check --fix` and `--diff` over every fixable fixture of the check crate: each copied to a
//! folder of its own first, `--diff` writes nothing and prints the change that `--fix` then makes,
//! and the fixed file is admitted for the fixed rule.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("compiler/check/tests/fixtures")
}

fn jr2(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2")).args(args).current_dir(dir).env("NO_COLOR", "1").output().expect("run jr2")
}

fn text(o: &[u8]) -> String {
    String::from_utf8(o.to_vec()).expect("UTF-8")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jr2-fix-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Copies a fixture file or folder to `to`; a Chart's expectation lines (comments, which JSON
/// has not) are blanked, as the fixture harness does.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).expect("mkdir");
        for e in std::fs::read_dir(from).expect("a fixture folder").flatten() {
            copy(&e.path(), &to.join(e.file_name()));
        }
        return;
    }
    let mut text = std::fs::read_to_string(from).expect("a fixture");
    if from.extension().is_some_and(|e| e == "json") {
        text =
            text.split_inclusive('\n')
                .map(|l| {
                    if l.trim_start().starts_with("//") {
                        " ".repeat(l.trim_end().len()) + "\n"
                    } else {
                        l.to_string()
                    }
                })
                .collect();
    }
    std::fs::write(to, text).expect("write");
}

/// Every fixture `jr2 check` would check, of every family: a file (`.ts`, a `.json` that is no
/// lend manifest) or an Instance case (a folder with `workflows/`), as (its path, the name of its
/// copy).
fn all_fixtures() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let entries = |dir: &Path| -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir).expect("a folder").flatten().map(|e| e.path()).collect();
        found.sort();
        found
    };
    for family in entries(&fixtures()).into_iter().filter(|p| p.is_dir()) {
        for rule in entries(&family).into_iter().filter(|p| p.is_dir()) {
            for case in entries(&rule) {
                let name = |p: &Path| p.file_name().expect("a name").to_string_lossy().into_owned();
                let copy = format!("{}-{}-{}", name(&family), name(&rule), name(&case));
                let file = case.extension().is_some_and(|e| e == "ts" || e == "json")
                    && !case.to_string_lossy().ends_with(".lends.json")
                    && case.is_file();
                if file || case.join("workflows").is_dir() {
                    out.push((case, copy));
                }
            }
        }
    }
    out
}

/// The codes of the diagnostics that carry a fix, in `jr2 check --format json`'s document.
fn fixable(doc: &Value) -> BTreeSet<String> {
    let found = doc["diagnostics"].as_array().expect("diagnostics");
    found.iter().filter(|d| d.get("fix").is_some()).map(|d| d["code"].as_str().expect("code").to_string()).collect()
}

fn codes(doc: &Value) -> BTreeSet<String> {
    let found = doc["diagnostics"].as_array().expect("diagnostics");
    found.iter().map(|d| d["code"].as_str().expect("code").to_string()).collect()
}

fn check_json(dir: &Path, path: &str) -> Value {
    let o = jr2(dir, &["check", path, "--offline", "--format", "json"]);
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stdout)))
}

/// Every file below `dir` and its text.
fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("read").flatten() {
            if e.path().is_dir() {
                dirs.push(e.path());
            } else {
                let rel = e.path().strip_prefix(dir).expect("below").to_path_buf();
                out.push((rel, std::fs::read_to_string(e.path()).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

/// Applies a unified diff as `jr2 check --diff` prints it (`git apply`'s input: renames, hunks)
/// to the files of `before`, paths relative to the folder the command ran in.
fn patch(before: &[(PathBuf, String)], diff: &str) -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = before.to_vec();
    let mut lines = diff.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(header) = line.strip_prefix("diff --git a/") else { panic!("not a file header: {line}\n{diff}") };
        let (from, to) = header.split_once(" b/").expect("two paths");
        let i = files.iter().position(|(p, _)| p == Path::new(from)).unwrap_or_else(|| panic!("no {from}"));
        let old: Vec<String> = files[i].1.lines().map(str::to_string).collect();
        let mut new: Vec<String> = Vec::new();
        let mut at = 0usize;
        while let Some(next) = lines.peek() {
            if next.starts_with("diff --git ") {
                break;
            }
            let next = lines.next().expect("a line");
            if let Some(hunk) = next.strip_prefix("@@ -") {
                let start: usize = hunk.split([',', ' ']).next().and_then(|n| n.parse().ok()).expect("a hunk start");
                let start = start.max(1) - 1;
                new.extend(old[at..start].iter().cloned());
                at = start;
            } else if let Some(kept) = next.strip_prefix(' ') {
                assert_eq!(old[at], kept, "context");
                new.push(kept.to_string());
                at += 1;
            } else if let Some(gone) = next.strip_prefix('-').filter(|_| !next.starts_with("---")) {
                assert_eq!(old[at], gone, "removed line");
                at += 1;
            } else if let Some(added) = next.strip_prefix('+').filter(|_| !next.starts_with("+++")) {
                new.push(added.to_string());
            }
        }
        new.extend(old[at..].iter().cloned());
        let mut text = new.join("\n");
        if files[i].1.ends_with('\n') {
            text.push('\n');
        }
        files[i] = (PathBuf::from(to), text);
    }
    files.sort();
    files
}

/// `--diff` then `--fix` on every fixture that has a fixable diagnostic.
#[test]
fn every_fixable_fixture_is_fixed_and_diffed() {
    let all = scratch("all");
    let mut candidates = Vec::new();
    for (path, name) in all_fixtures() {
        copy(&path, &all.join(&name));
        candidates.push(name);
    }
    let mut fixed = BTreeSet::new();
    for name in candidates {
        let doc = check_json(&all, &name);
        let codes_fixable = fixable(&doc);
        if codes_fixable.is_empty() {
            continue;
        }
        let dir = scratch(&name);
        copy(&all.join(&name), &dir.join(&name));
        let before = snapshot(&dir);
        let diff = jr2(&dir, &["check", &name, "--offline", "--diff"]);
        assert_eq!(diff.status.code(), Some(1), "{name}: --diff exits 1 when it has a change: {}", text(&diff.stderr));
        let printed = text(&diff.stdout);
        assert_eq!(snapshot(&dir), before, "{name}: --diff writes nothing");
        let o = jr2(&dir, &["check", &name, "--offline", "--fix", "--format", "json"]);
        let err = text(&o.stderr);
        assert!(err.contains("jr2: --fix: fixed "), "{name}: {err}");
        assert!(!err.contains("not fixed"), "{name}: every fix of a fixture applies: {err}");
        let after_fix: Value = serde_json::from_slice(&o.stdout).expect("the report after --fix is one JSON document");
        let again = check_json(&dir, &name);
        assert_eq!(after_fix["diagnostics"], again["diagnostics"], "{name}: --fix reports what remains");
        for code in &codes_fixable {
            assert!(!codes(&again).contains(code), "{name}: {code} remains after --fix: {again}");
        }
        assert_eq!(patch(&before, &printed), snapshot(&dir), "{name}: --diff printed what --fix wrote:\n{printed}");
        assert_eq!(
            text(&jr2(&dir, &["check", &name, "--offline", "--diff"]).stdout),
            "",
            "{name}: nothing left to fix"
        );
        fixed.extend(codes_fixable);
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(&all);
    let expected =
        ["agent-fault-unrouted", "missing-initial", "unread-pick-param", "workflow-stem", "workspace-lost-unrouted"];
    assert_eq!(fixed, expected.iter().map(|c| c.to_string()).collect(), "the rules with a fix, each with a fixture");
}

/// Two fixes that insert at one place (both routes on a root with no `on`) are applied in two
/// passes: the second is worked out again over the text the first left.
#[test]
fn overlapping_fixes_are_applied_one_after_the_other() {
    let dir = scratch("overlap");
    let source = r#"import { agent, fail, jr2Setup, workspace } from "@jr2/orchestrator";
const body = jr2Setup({
  actors: { coder: agent({ model: "m", instructions: "i", workspace: "write" }), fail: fail() },
}).createMachine({
  id: "body",
  initial: "coding",
  states: {
    coding: { invoke: { src: "coder", input: { prompt: "p" } }, on: { finished: "done" } },
    failed: { invoke: { src: "fail", input: { reason: "r" } } },
    lost: { invoke: { src: "fail", input: { reason: "r" } } },
    done: { type: "final" },
  },
});
export const machine = workspace(body, { repos: { app: { url: "https://github.com/you/app.git" } } });
"#;
    std::fs::write(dir.join("body.ts"), source).expect("write");
    let first = check_json(&dir, "body.ts");
    let found = fixable(&first);
    assert!(found.contains("agent-fault-unrouted") && found.contains("workspace-lost-unrouted"), "{first}");
    let o = jr2(&dir, &["check", "body.ts", "--fix"]);
    assert!(text(&o.stderr).contains("jr2: --fix: fixed "), "{}", text(&o.stderr));
    let fixed = std::fs::read_to_string(dir.join("body.ts")).expect("read");
    assert!(fixed.contains(r#""agent.fault": ".failed""#) && fixed.contains(r#""workspace.lost": ".lost""#), "{fixed}");
    let again = check_json(&dir, "body.ts");
    assert!(
        !codes(&again).contains("agent-fault-unrouted") && !codes(&again).contains("workspace-lost-unrouted"),
        "{again}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rename to a name that is taken is not applied, and says so.
#[test]
fn a_rename_onto_a_file_is_not_applied() {
    let dir = scratch("taken");
    copy(&fixtures().join("instance/workflow-stem/refused"), &dir.join("i"));
    std::fs::copy(dir.join("i/workflows/notes.ts"), dir.join("i/workflows/fix-tests.ts")).expect("copy");
    let o = jr2(&dir, &["check", "i", "--offline", "--fix", "--format", "json"]);
    let err = text(&o.stderr);
    assert!(
        err.contains("jr2: --fix: not fixed: i/workflows/Fix_Tests.ts: workflow-stem: i/workflows/fix-tests.ts exists"),
        "{err}"
    );
    assert!(
        dir.join("i/workflows/Fix_Tests.ts").is_file() && dir.join("i/workflows/notes/weekly-notes.json").is_file()
    );
    assert_eq!(o.status.code(), Some(1), "the stem's error remains: {}", text(&o.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}
