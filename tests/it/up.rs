//! `jr2 up --check`: the pre-flight of an Instance, on the bundled example (clean, and what it
//! lists) and on `tests/fixtures/up-broken` (each pre-flight rule fires).

use serde_json::Value;
use std::process::{Command, Output};

/// Runs `jr2` at the repository root, with NO_COLOR set and no terminal.
fn jr2(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run jr2")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("jr2 exited with a code, not a signal")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document: {e}\n{}", text(&o.stdout)))
}

/// (file below the Instance, code, severity) of each diagnostic, in report order.
fn found(doc: &Value, root: &str) -> Vec<(String, String, String)> {
    doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or_default().to_string();
            (s("file").trim_start_matches(root).to_string(), s("code"), s("severity"))
        })
        .collect()
}

#[test]
fn the_example_instance_passes_its_preflight() {
    let o = jr2(&["up", "--check", "examples/instance", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}\n{}", text(&o.stdout), text(&o.stderr));
    let doc = json(&o);
    assert_eq!(found(&doc, "examples/instance/"), Vec::<(String, String, String)>::new(), "{doc}");
    assert_eq!(doc["summary"]["files"], 7, "the config, four Workflows and two named Charts: {doc}");
    let workflows = doc["up"]["workflows"].as_array().expect("up.workflows");
    let names: Vec<&str> = workflows.iter().filter_map(|w| w["workflow"].as_str()).collect();
    assert_eq!(names, ["fix-tests", "notes", "release-check", "triage"]);
    assert!(workflows.iter().all(|w| w["compiles"] == true), "{doc}");
    // Each Effect with its placement, as `machine::parts` places it.
    let placed: Vec<(String, String, String)> = workflows
        .iter()
        .flat_map(|w| {
            let name = w["workflow"].as_str().unwrap_or_default().to_string();
            w["effects"].as_array().into_iter().flatten().map(move |e| {
                let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
                (name.clone(), s("name"), s("placement"))
            })
        })
        .collect();
    let expected = [
        ("fix-tests", "cut", "harness"),
        ("fix-tests", "tests", "harness"),
        ("fix-tests", "publish", "sandbox"),
        ("notes", "tests", "harness"),
        ("notes", "post", "instance"),
        ("release-check", "git", "harness"),
        ("triage", "lookup", "instance"),
        ("triage", "comment", "instance"),
        ("triage", "fix", "orchestrator"),
    ];
    let expected: Vec<(String, String, String)> =
        expected.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect();
    assert_eq!(placed, expected);
    // The states that can fail each run, and the Open body that lends a Chart the Gate and fail().
    let failing: Vec<&str> = workflows
        .iter()
        .flat_map(|w| w["failing"].as_array().into_iter().flatten())
        .filter_map(|f| f["state"].as_str())
        .collect();
    assert_eq!(
        failing,
        [
            "fix-tests.notCut",
            "fix-tests.failed",
            "fix-tests.lost",
            "notes.failed",
            "release-check.rejected",
            "triage.failed"
        ]
    );
    assert_eq!(
        workflows[1]["openBodies"],
        serde_json::json!([{ "slot": "plan", "path": [], "gate": true, "fail": true }])
    );

    // The human listing, reviewed as a snapshot.
    let o = jr2(&["up", "--check", "examples/instance"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/up"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("example_instance_listing", text(&o.stdout)));
}

#[test]
fn a_broken_instance_fires_each_preflight_rule() {
    let root = "tests/fixtures/up-broken/";
    let o = jr2(&["up", "--check", root, "--format", "json"]);
    assert_eq!(code(&o), 1, "{}\n{}", text(&o.stdout), text(&o.stderr));
    let doc = json(&o);
    let expected = [
        ("jr2.config.ts", "config-shape", "error"),
        ("jr2.config.ts", "config-not-static", "error"),
        ("jr2.config.ts", "config-unread", "warning"),
        ("jr2.config.ts", "secret-not-configured", "error"),
        ("workflows/deploy.ts", "mcp-server-not-configured", "error"),
        ("workflows/deploy.ts", "mcp-server-not-configured", "error"),
        ("workflows/deploy.ts", "secret-not-configured", "error"),
        ("workflows/deploy.ts", "secret-not-configured", "error"),
        ("workflows/deploy.ts", "repo-without-credentials", "error"),
    ];
    let expected: Vec<(String, String, String)> =
        expected.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect();
    let mut got = found(&doc, root);
    got.sort();
    let mut want = expected;
    want.sort();
    assert_eq!(got, want, "{doc}");
    let all = doc.to_string();
    for needle in [
        r#"names the MCP server \"calendar\""#,
        r#"names the MCP server \"search\""#,
        r#"secret(\"hooks\")"#,
        r#"names \"signing\" in its `secrets`"#,
        r#"`git.credentials[1].secret` names \"gitlab\""#,
        r#"Repo Slot \"site\" is bound to \"https://codeberg.org/you/site.git\""#,
    ] {
        assert!(all.contains(needle), "{needle} in {all}");
    }
    // The listing is still there for the Workflow that compiles.
    assert_eq!(doc["up"]["workflows"][0]["workflow"], "deploy", "{doc}");
    assert_eq!(doc["up"]["workflows"][0]["effects"].as_array().map(Vec::len), Some(3), "{doc}");
    assert_eq!(
        doc["up"]["workflows"][0]["gates"],
        serde_json::json!([{ "machine": "deploy", "state": "deploy.approving", "slot": "gate", "path": [] }]),
        "{doc}"
    );

    // The same diagnostics as GitHub annotations and as SARIF.
    let o = jr2(&["up", "--check", root, "--format", "github"]);
    assert_eq!(code(&o), 1);
    assert_eq!(text(&o.stdout).lines().filter(|l| l.starts_with("::error ")).count(), 8, "{}", text(&o.stdout));
    let o = jr2(&["up", "--check", root, "--format", "sarif"]);
    assert_eq!(code(&o), 1);
    let sarif = json(&o);
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"].as_array().map(Vec::len), Some(9));
}

#[test]
fn an_instance_without_a_config_is_refused() {
    let o = jr2(&["up", "--check", "tests/fixtures/up-broken/no-config", "--format", "json"]);
    assert_eq!(code(&o), 1, "{}\n{}", text(&o.stdout), text(&o.stderr));
    let doc = json(&o);
    let codes: Vec<(String, String, String)> = found(&doc, "tests/fixtures/up-broken/no-config/");
    assert_eq!(codes, [("jr2.config.ts".to_string(), "config-missing".to_string(), "error".to_string())]);
    // The Workflows are still listed.
    assert_eq!(doc["up"]["workflows"][0]["workflow"], "hello");
    // The human format names the file and the fix, with no source line to show.
    let o = jr2(&["up", "--check", "tests/fixtures/up-broken/no-config"]);
    let out = text(&o.stdout);
    assert!(out.contains("error[config-missing]") && out.contains("jr2.config.ts is missing"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    // Without --check `jr2 up` publishes (tests/it/serve.rs); a folder that is no Instance is a
    // usage error either way.
    let o = jr2(&["up", "tests/fixtures"]);
    assert_eq!(code(&o), 2, "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
    for dir in ["tests/fixtures/no-such-instance", "tests/fixtures", "Cargo.toml"] {
        let o = jr2(&["up", "--check", dir]);
        assert_eq!(code(&o), 2, "{dir}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "{dir}");
    }
    assert_eq!(code(&jr2(&["up", "--check", "examples/instance", "--format", "xml"])), 2);
}
