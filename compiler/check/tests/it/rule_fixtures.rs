//! Every rule of the registry shows itself in a fixture folder named by its code (the door's,
//! the Machine front end's, the walk's, the Instance's, the pre-flight's), or is one of the few
//! whose case no fixture file can hold, each listed here with where its cases are tested. A rule
//! added with `scripts/new-rule.sh` gets its folder; one added by hand fails here.

use std::collections::BTreeSet;
use std::path::Path;

/// The rules whose cases need more than a file: a missing file, a server, a config file beside.
const TESTED_ELSEWHERE: &[(&str, &str)] = &[
    ("config-missing", "an Instance without its config file: rules/preflight/config_missing.rs"),
    ("foreign-door-mismatch", "a door served over HTTP: tests/it/doors.rs"),
    ("foreign-door-missing", "a door served over HTTP: tests/it/doors.rs"),
    ("foreign-door-not-detail", "a door served over HTTP: tests/it/doors.rs"),
    ("foreign-door-redirect", "a door served over HTTP: tests/it/doors.rs"),
    ("foreign-door-unreachable", "a door served over HTTP: tests/it/doors.rs"),
    ("suppression-without-reason", "a suppression read by the CLI: tests/it/suppress.rs of the jr2 crate"),
    ("unused-suppression", "a suppression read by the CLI: tests/it/suppress.rs of the jr2 crate"),
];

fn folders() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = BTreeSet::new();
    for family in std::fs::read_dir(&root).unwrap().flatten() {
        if !family.path().is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(family.path()).unwrap().flatten() {
            if entry.path().is_dir() {
                out.insert(entry.file_name().to_string_lossy().into_owned());
            }
        }
    }
    out
}

#[test]
fn every_rule_has_its_fixture_folder() {
    let folders = folders();
    let elsewhere: BTreeSet<&str> = TESTED_ELSEWHERE.iter().map(|(code, _)| *code).collect();
    let missing: Vec<&str> = check::rules::all()
        .into_iter()
        .map(|r| r.code)
        .filter(|code| !folders.contains(*code) && !elsewhere.contains(code))
        .collect();
    assert!(missing.is_empty(), "rules with no fixture folder under compiler/check/tests/fixtures/*/: {missing:?}");
    // The list above names only rules that exist and still have no folder.
    for code in &elsewhere {
        assert!(check::rules::find(code).is_some(), "`{code}` is listed here but is no rule");
        assert!(!folders.contains(*code), "`{code}` has a fixture folder now: take it off TESTED_ELSEWHERE");
    }
}
