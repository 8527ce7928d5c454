//! The `jr2` binary at its edges: exit codes, output formats, the folder walk.
//!
//! These assert on codes and exit codes, not on full texts, so they hold while the door grows;
//! `json-syntax` is the one rule asserted by name.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures")
}

/// Runs `jr2` in `tests/fixtures/cli` with NO_COLOR set and no terminal.
fn jr2(args: &[&str]) -> Output {
    jr2_with_stdin(args, "")
}

fn jr2_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(args)
        .current_dir(fixtures().join("cli"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run jr2");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("wait for jr2")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("jr2 exited with a code, not a signal")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("stdout is not one JSON document: {e}\n{}", stdout(o)))
}

fn codes(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().expect("code").to_string())
        .collect()
}

#[test]
fn malformed_chart_is_refused_with_json_syntax() {
    let o = jr2(&["check", "malformed.json", "--format", "json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let doc = json(&o);
    assert!(codes(&doc).contains(&"json-syntax".to_string()), "{doc}");
    let d = &doc["diagnostics"][0];
    assert_eq!(d["file"], "malformed.json");
    assert_eq!(d["severity"], "error");
    assert!(d["range"]["start"]["line"].as_u64().is_some_and(|l| l >= 1));
    assert!(d["range"]["start"]["column"].as_u64().is_some_and(|c| c >= 1));
    assert_eq!(d["byte_range"].as_array().map(Vec::len), Some(2));
    assert_eq!(doc["summary"]["files"], 1);
    assert!(doc["summary"]["errors"].as_u64().is_some_and(|n| n >= 1));
}

#[test]
fn human_output_names_the_code_and_summarises() {
    let o = jr2(&["check", "malformed.json"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(out.contains("error[json-syntax]: "), "{out}");
    assert!(out.contains("malformed.json:"), "{out}");
    assert!(
        out.trim_end().lines().last().is_some_and(|l| l.starts_with("error: ") && l.ends_with("in 1 file")),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "no colour without a terminal");
}

#[test]
fn colour_always_colours() {
    let o = jr2(&["check", "malformed.json", "--color", "always"]);
    assert!(stdout(&o).contains('\x1b'));
}

#[test]
fn missing_path_is_a_usage_error() {
    let o = jr2(&["check", "no/such/chart.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no/such/chart.json"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

#[test]
fn non_utf8_file_is_refused_with_json_syntax() {
    let o = jr2(&["check", "not-utf8.json", "--format", "json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let doc = json(&o);
    assert_eq!(codes(&doc), ["json-syntax"], "{doc}");
    assert!(doc["diagnostics"][0]["message"].as_str().is_some_and(|m| m.contains("UTF-8")), "{doc}");
}

#[test]
fn a_file_of_another_kind_is_a_usage_error() {
    let o = jr2(&["check", "instance/workflows/notes/../../package.json/.."]);
    assert_eq!(code(&o), 2);
}

#[test]
fn folder_walk_skips_manifests_vendored_and_hidden_folders() {
    let o = jr2(&["check", "instance", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    let doc = json(&o);
    assert_eq!(doc["summary"]["files"], 3, "workflows/fix-tests.ts, notes.ts and notes/ok.json: {doc}");
}

#[test]
fn a_machine_is_checked() {
    let o = jr2(&["check", "instance/workflows/fix-tests.ts"]);
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("checked 1 file"), "{}", stdout(&o));
}

#[test]
fn a_broken_machine_is_one_ts_syntax_error() {
    let o = jr2(&["check", "machines/broken.ts", "--format", "json"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let doc = json(&o);
    assert_eq!(doc["summary"]["errors"], 1, "{doc}");
    assert_eq!(doc["diagnostics"][0]["code"], "ts-syntax", "{doc}");
    assert_eq!(doc["diagnostics"][0]["file"], "machines/broken.ts", "{doc}");
}

#[test]
fn ir_and_parts_of_a_machine() {
    let o = jr2(&["ir", "instance/workflows/fix-tests.ts"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let ir = json(&o);
    assert_eq!(ir["id"], "fix-tests");
    assert_eq!(ir["origin"], "machine");
    // Its identity first, 64 hex digits; the same again for the same file.
    let identity = ir["identity"].as_str().expect("an identity");
    assert!(identity.len() == 64 && identity.bytes().all(|b| b.is_ascii_hexdigit()), "{identity}");
    assert_eq!(ir.as_object().and_then(|o| o.keys().next()).map(String::as_str), Some("identity"));
    assert_eq!(json(&jr2(&["ir", "instance/workflows/fix-tests.ts"]))["identity"], identity);
    // Each slot's definition: the Agent's model, the command's argv, the cut.
    let slots = &ir["slots"];
    assert_eq!(slots["coder"]["definition"]["agent"]["model"]["value"], "anthropic/claude-haiku-5-5", "{slots}");
    assert_eq!(slots["test"]["definition"]["effect"]["run"]["argv"]["list"][2], serde_json::json!({ "arg": "file" }));
    assert_eq!(slots["cut"]["definition"]["effect"]["run"]["kind"], "worktree", "{slots}");
    let o = jr2(&["parts", "instance/workflows/fix-tests.ts"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let parts = json(&o);
    assert_eq!(parts["agents"][0]["slot"], "coder", "{parts}");
    assert!(parts["workspacePods"].is_array(), "{parts}");
    let o = jr2(&["parts", "instance/workflows/fix-tests.ts", "--lends", "nosuchslot"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

#[test]
fn check_with_lends_uses_the_manifest() {
    let o = jr2(&["check", "instance", "--lends", "lends.json", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}

#[test]
fn bad_lends_file_is_a_usage_error_naming_the_file_and_position() {
    let o = jr2(&["check", "instance", "--lends", "bad.lends.json"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("bad.lends.json") && err.contains("line 1 column"), "{err}");
    let o = jr2(&["schema", "chart", "--lends", "missing.lends.json"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn explain_known_and_unknown_codes() {
    let o = jr2(&["explain", "json-syntax"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("# `json-syntax`"), "{}", stdout(&o));
    let o = jr2(&["explain", "no-such-code"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("unknown code") && err.contains("known codes:") && err.contains("json-syntax"), "{err}");
}

#[test]
fn sarif_is_version_2_1_0_with_the_rule() {
    let o = jr2(&["check", "malformed.json", "--format", "sarif"]);
    assert_eq!(code(&o), 1);
    let doc = json(&o);
    assert_eq!(doc["version"], "2.1.0");
    let run = &doc["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "jr2");
    let results = run["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["ruleId"] == "json-syntax" && r["level"] == "error"));
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "json-syntax" && r["properties"]["docs"] == "docs/rules/json-syntax.md"));
}

fn drop_pattern(v: &mut Value, pattern: &str) {
    match v {
        Value::Object(o) => {
            if o.get("pattern").and_then(Value::as_str) == Some(pattern) {
                o.remove("pattern");
            }
            o.values_mut().for_each(|x| drop_pattern(x, pattern));
        }
        Value::Array(xs) => xs.iter_mut().for_each(|x| drop_pattern(x, pattern)),
        _ => {}
    }
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let schema_text = std::fs::read_to_string(fixtures().join("sarif-schema-2.1.0.json")).expect("the vendored schema");
    let mut schema: Value = serde_json::from_str(&schema_text).expect("the schema is JSON");
    // The published schema's `language` patterns have a stray `]`, which the draft-04
    // meta-schema's `regex` format refuses; jr2 writes no `language`, so drop those patterns.
    drop_pattern(&mut schema, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
    let validator = jsonschema::draft4::options().should_validate_formats(true).build(&schema).expect("a valid schema");
    for args in [&["check", "malformed.json", "--format", "sarif"][..], &["check", "instance", "--format", "sarif"][..]]
    {
        let o = jr2(args);
        let doc = json(&o);
        let errors: Vec<String> =
            validator.iter_errors(&doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}\n{doc}");
    }
}

#[test]
fn github_lines_are_workflow_commands() {
    let o = jr2(&["check", "malformed.json", "--format", "github"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(!out.is_empty());
    for line in out.lines() {
        assert!(line.starts_with("::error file=malformed.json,line="), "{line}");
        assert!(line.contains(",title=json-syntax::"), "{line}");
    }
}

#[test]
fn chart_check_requires_lends_and_reads_stdin() {
    let o = jr2(&["chart", "check", "malformed.json"]);
    assert_eq!(code(&o), 2, "clap's usage error");
    let text = std::fs::read_to_string(fixtures().join("cli/malformed.json")).expect("fixture");
    let o = jr2_with_stdin(&["chart", "check", "-", "--lends", "lends.json", "--format", "json"], &text);
    assert_eq!(code(&o), 1);
    let doc = json(&o);
    assert_eq!(doc["diagnostics"][0]["file"], "<stdin>");
    assert!(codes(&doc).contains(&"json-syntax".to_string()));
}

#[test]
fn schema_commands_print() {
    let o = jr2(&["schema", "chart"]);
    assert_eq!(code(&o), 0);
    assert!(json(&o).is_object());
    let o = jr2(&["schema", "chart", "--lends", "lends.json"]);
    assert_eq!(code(&o), 0);
    assert!(json(&o).is_object());
    let o = jr2(&["schema", "briefing", "--lends", "lends.json"]);
    assert_eq!(code(&o), 0);
}

#[test]
fn ir_of_a_refused_chart_prints_diagnostics_on_stderr() {
    let o = jr2(&["ir", "malformed.json"]);
    assert_eq!(code(&o), 1);
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("error[json-syntax]"), "{}", stderr(&o));
}

#[test]
fn unknown_flag_and_format_are_usage_errors() {
    assert_eq!(code(&jr2(&["check", "--format", "xml"])), 2);
    assert_eq!(code(&jr2(&["check", "--nope"])), 2);
    assert_eq!(code(&jr2(&["frobnicate"])), 2);
}

#[test]
fn schema_compat_reports_on_both_files() {
    let (slot, door) = ("../compat/slot.json", "../compat/door.json");
    let o = jr2(&["schema", "compat", "--slot", slot, "--door", door, "--format", "json"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    let doc = json(&o);
    let lines: Vec<(String, String, String)> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (s("file"), s("code"), s("path"))
        })
        .collect();
    let line = |f: &str, c: &str, p: &str| (f.to_string(), c.to_string(), p.to_string());
    assert_eq!(
        lines,
        vec![
            line(slot, "door-mismatch", "properties.title"),
            line(slot, "door-mismatch", "properties.branch"),
            line(slot, "door-mismatch", "properties.labels"),
            line(slot, "door-not-compared", "properties.target.anyOf"),
        ],
        "{doc:#}"
    );
    assert_eq!(doc["summary"]["files"], 2);
    // The same schema on both sides is compatible; the `anyOf` is a warning on each, no more.
    let o = jr2(&["schema", "compat", "--slot", slot, "--door", slot, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(codes(&json(&o)), vec!["door-not-compared", "door-not-compared"]);
    let o = jr2(&["schema", "compat", "--slot", slot, "--door", slot, "--deny-warnings"]);
    assert_eq!(code(&o), 1);
    // Unreadable or invalid files are usage errors.
    assert_eq!(code(&jr2(&["schema", "compat", "--slot", "malformed.json", "--door", door])), 2);
    assert_eq!(code(&jr2(&["schema", "compat", "--slot", slot, "--door", "../compat/absent.json"])), 2);
    assert_eq!(code(&jr2(&["schema", "compat", "--slot", slot])), 2, "--door is required");
}

/// Runs `jr2` at the repository root.
fn jr2_at_root(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run jr2")
}

/// The example Instance is clean, and `jr2 check` counts its files as `jr2 up --check` does: the
/// config, four Workflows and two named Charts (issue 40, item 4: it said 5 where `up` said 6).
#[test]
fn the_example_instance_checks_clean() {
    let o = jr2_at_root(&["check", "examples/instance", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    let doc = json(&o);
    assert_eq!(doc["summary"]["errors"], 0, "{doc}");
    assert_eq!(doc["summary"]["warnings"], 0, "{doc}");
    assert_eq!(doc["summary"]["files"], 7, "the config, four Workflows and two named Charts: {doc}");
    let check = jr2_at_root(&["check", "--offline", "examples/instance"]);
    let up = jr2_at_root(&["up", "--check", "--offline", "examples/instance"]);
    let last = |o: &Output| stdout(o).lines().last().unwrap_or_default().to_string();
    assert_eq!(last(&check), "checked 7 files: no problems", "{}", stdout(&check));
    assert_eq!(last(&check), last(&up), "{}", stdout(&up));
}

/// A config that does not read is found by `jr2 check DIR` too, in its own file, as `jr2 check
/// jr2.config.ts` finds it.
#[test]
fn the_config_of_an_instance_is_checked_with_it() {
    let dir = std::env::temp_dir().join(format!("jr2-cli-config-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("workflows")).expect("mkdir");
    std::fs::write(dir.join("jr2.config.ts"), "export const nothing = 1;\n").expect("write");
    let run = |path: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_jr2"))
            .args(["check", "--offline", "--format", "json", path])
            .current_dir(&dir)
            .output()
            .expect("run jr2");
        let files: Vec<String> = json(&o)["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .map(|d| format!("{} {}", d["file"].as_str().unwrap_or_default(), d["code"].as_str().unwrap_or_default()))
            .collect();
        (code(&o), files)
    };
    let (whole, alone) = (run("."), run("jr2.config.ts"));
    assert!(!whole.1.is_empty() && whole.1.iter().all(|f| f.starts_with("jr2.config.ts ")), "{whole:?}");
    assert_eq!(whole, alone);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_instance_is_refused_with_each_rule() {
    // Offline: its foreign target is an example host (`tests/it/foreign.rs` reads doors, locally).
    let o = jr2_at_root(&["check", "tests/fixtures/instance-broken", "--format", "json", "--offline"]);
    assert_eq!(code(&o), 1, "{}\n{}", stdout(&o), stderr(&o));
    let doc = json(&o);
    let found: Vec<(String, String, String)> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (s("file").trim_start_matches("tests/fixtures/instance-broken/").to_string(), s("code"), s("severity"))
        })
        .collect();
    let expected = [
        ("workflows/Bad_Name.ts", "workflow-stem", "error"),
        ("workflows/caller.ts", "unknown-callee", "error"),
        ("workflows/caller.ts", "unlisted-chart", "warning"),
        ("workflows/caller.ts", "dispatch-target-url", "error"),
        ("workflows/caller.ts", "secret-in-target", "error"),
        ("workflows/notes/refused.json", "unknown-src", "error"),
        ("workflows/orphan/x.json", "chart-wrapper", "error"),
    ];
    let expected: Vec<(String, String, String)> =
        expected.iter().map(|(f, c, s)| (f.to_string(), c.to_string(), s.to_string())).collect();
    assert_eq!(found, expected, "{doc}");
    let text = doc.to_string();
    assert!(text.contains("rename workflows/Bad_Name.ts to workflows/bad-name.ts"), "{text}");
    assert!(text.contains("add workflows/nope.ts"), "{text}");
    assert!(text.contains("add workflows/orphan.ts"), "{text}");
}

#[test]
fn a_chart_file_outside_an_instance_still_takes_lends() {
    // A named Chart given by itself is a plain Chart file: `--lends` checks it.
    let o = jr2_at_root(&[
        "check",
        "tests/fixtures/instance-broken/workflows/notes/refused.json",
        "--lends",
        "tests/fixtures/cli/lends.json",
        "--format",
        "json",
    ]);
    assert!(code(&o) == 0 || code(&o) == 1, "{}", stderr(&o));
    assert_eq!(json(&o)["summary"]["files"], 1);
}

/// `jr2 --version` names the version and the commit it was built from (what a bug report needs).
#[test]
fn version_names_the_commit() {
    let out = jr2(&["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rest = text.strip_prefix(&format!("jr2 {} (", env!("CARGO_PKG_VERSION"))).unwrap_or_else(|| panic!("{text}"));
    let commit = rest.trim_end().strip_suffix(')').unwrap_or_else(|| panic!("{text}"));
    let commit = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(commit == "unknown" || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())), "{text}");
}

/// No silent pass (issue 17): a Chart checked without an Open body says so in every format and
/// in the summary line, naming what was not checked and how to check it.
#[test]
fn a_chart_without_lends_says_what_was_not_checked_in_every_format() {
    let chart = "tests/fixtures/silent-pass/hello.json";
    let o = jr2_at_root(&["check", chart, "--format", "json"]);
    assert_eq!(code(&o), 0, "a warning: {}", stdout(&o));
    let doc = json(&o);
    assert_eq!(codes(&doc), ["chart-without-lends"], "{doc}");
    let message = doc["diagnostics"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("lent names") && message.contains("input shapes"), "{message}");
    let help = doc["diagnostics"][0]["help"].as_str().unwrap_or_default();
    assert!(help.contains("--lends") && help.contains("workflows/<wrapper>/"), "{help}");
    let human = stdout(&jr2_at_root(&["check", chart]));
    let last = human.trim_end().lines().last().unwrap_or_default().to_string();
    assert_eq!(last, "warning: 1 warning in 1 file; 1 file not checked in full (chart-without-lends)", "{human}");
    let sarif = json(&jr2_at_root(&["check", chart, "--format", "sarif"]));
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "chart-without-lends", "{sarif}");
    let github = stdout(&jr2_at_root(&["check", chart, "--format", "github"]));
    assert!(github.contains("::warning") && github.contains("chart-without-lends"), "{github}");
    // With its Open body, the Chart's unknown `src` is found, and there is no warning.
    let o = jr2_at_root(&["check", chart, "--lends", "tests/fixtures/cli/lends.json", "--format", "json"]);
    assert_eq!(codes(&json(&o)), ["unknown-src"], "{}", stdout(&o));
}

/// A named Chart given alone is checked against its wrapper, as the Instance check does.
#[test]
fn a_named_chart_given_alone_is_checked_against_its_wrapper() {
    let o = jr2_at_root(&["check", "tests/fixtures/instance-broken/workflows/notes/refused.json", "--format", "json"]);
    assert_eq!(code(&o), 1, "{}\n{}", stdout(&o), stderr(&o));
    let doc = json(&o);
    assert_eq!(codes(&doc), ["unknown-src"], "{doc}");
    assert_eq!(doc["diagnostics"][0]["file"], "tests/fixtures/instance-broken/workflows/notes/refused.json");
    // The same from inside the Instance.
    let o = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["check", "workflows/notes/refused.json", "--format", "json"])
        .current_dir(fixtures().join("instance-broken"))
        .output()
        .expect("run jr2");
    assert_eq!(codes(&json(&o)), ["unknown-src"], "{}", stdout(&o));
}

/// A `.ts` file of an Instance outside `workflows/` is a helper module, not a Workflow.
#[test]
fn a_helper_module_of_an_instance_is_no_workflow() {
    for path in ["tests/fixtures/suppress/lib/format.ts", "tests/fixtures/suppress/lib"] {
        let o = jr2_at_root(&["check", path, "--format", "json"]);
        assert_eq!(code(&o), 0, "{path}: {}\n{}", stdout(&o), stderr(&o));
        assert!(codes(&json(&o)).is_empty(), "{path}: {}", stdout(&o));
    }
    // A folder above Instances walks into each as an Instance.
    let o = jr2_at_root(&["check", "examples", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(json(&o)["summary"]["files"], 7, "{}", stdout(&o));
}

/// "Did you mean" in a `.ts` Workflow as in a Chart (one helper, `base::suggest`): a state, a
/// `src`, and a code given to `jr2 explain`.
#[test]
fn slips_get_a_suggestion() {
    let o = jr2(&["check", "machines/typos.ts", "--format", "json"]);
    let doc = json(&o);
    let helps: Vec<(String, String)> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| (d["code"].as_str().unwrap_or("").to_string(), d["help"].as_str().unwrap_or("").to_string()))
        .collect();
    assert!(helps.contains(&("unknown-target".into(), "did you mean \"done\"?".into())), "{doc}");
    assert!(helps.contains(&("unknown-invoke-src".into(), "did you mean \"coder\"?".into())), "{doc}");
    let o = jr2(&["explain", "json-syntx"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("did you mean \"json-syntax\""), "{}", stderr(&o));
}

/// Every help text speaks to the user of what the command does today, not of the project's issues,
/// ADRs or plans (issue 40, item 5: `jr2 up --help` said "`jr2 up` itself, the runtime, comes
/// with a later issue").
#[test]
fn help_texts_speak_to_users() {
    let commands: &[&[&str]] = &[
        &[],
        &["check"],
        &["chart"],
        &["chart", "check"],
        &["schema"],
        &["schema", "chart"],
        &["schema", "briefing"],
        &["schema", "compat"],
        &["ir"],
        &["parts"],
        &["graph"],
        &["sim"],
        &["explain"],
        &["rules"],
        &["up"],
        &["serve"],
        &["lsp"],
    ];
    for command in commands {
        let args: Vec<&str> = command.iter().copied().chain(["--help"]).collect();
        let o = jr2(&args);
        assert_eq!(code(&o), 0, "jr2 {args:?}: {}", stderr(&o));
        let help = stdout(&o);
        for word in ["issue", "ADR", "later", "seed", "planner output"] {
            assert!(!help.contains(word), "`jr2 {}` says \"{word}\":\n{help}", args.join(" "));
        }
    }
    let up = stdout(&jr2(&["up", "--help"]));
    assert!(up.contains("published") && up.contains("--check"), "{up}");
}
