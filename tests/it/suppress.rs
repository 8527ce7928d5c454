//! Suppressions and the config `jr2c.toml` (issue 17, `docs/reference/suppressions.md`): each
//! form silences exactly its code where it says, an unused one is reported, and the config's
//! ignore, severity and `deny-warnings` change the exit code as documented; `jr2 rules` lists the
//! registry.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn jr2_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2")).args(args).current_dir(dir).env("NO_COLOR", "1").output().expect("run jr2")
}

fn text(o: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON: {e}\n{}", text(o)))
}

/// Each diagnostic as (file, code, line).
fn found(doc: &Value) -> Vec<(String, String, u64)> {
    doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let file =
                d["file"].as_str().unwrap_or_default().trim_start_matches("tests/fixtures/suppress/").to_string();
            (
                file,
                d["code"].as_str().unwrap_or_default().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn each_suppression_silences_exactly_its_code_and_an_unused_one_is_reported() {
    let o = jr2_in(&root(), &["check", "tests/fixtures/suppress", "--offline", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let got = found(&json(&o));
    let expected = [
        // Lines 13 and 14 are suppressed (the line after a comment alone, a comment after code);
        // line 16's suppression has no reason, so it stays, and that is said.
        ("workflows/fixer.ts", "agent-fault-unrouted", 16),
        ("workflows/fixer.ts", "suppression-without-reason", 15),
        ("workflows/fixer.ts", "unused-suppression", 17),
        ("workflows/fixer.ts", "unused-suppression", 18),
        // The config's entry silences weekly.json's unknown-src, not daily.json's.
        ("workflows/notes/daily.json", "unknown-src", 4),
        ("jr2c.toml", "unused-suppression", 13),
    ];
    let expected: Vec<(String, String, u64)> =
        expected.iter().map(|(f, c, l)| (f.to_string(), c.to_string(), *l)).collect();
    assert_eq!(got, expected, "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("did you mean \\\"agent-fault-unrouted\\\""), "{out}");
    assert!(!out.contains("not-machine"), "lib/format.ts is a helper module: {out}");
}

/// A folder with a lone Chart (a `chart-without-lends` warning, no error) and `config` as its
/// `jr2c.toml` (none when empty).
fn lone_chart(name: &str, config: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jr2-suppress-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let chart = r#"{ "initial": "a", "states": { "a": { "on": { "go": "b" } }, "b": { "type": "final" } } }"#;
    std::fs::write(dir.join("hello.json"), chart).unwrap();
    if !config.is_empty() {
        std::fs::write(dir.join("jr2c.toml"), config).unwrap();
    }
    dir
}

#[test]
fn the_config_ignores_rules_raises_warnings_and_denies_them() {
    let cases: [(&str, &str, i32, usize); 5] = [
        ("none", "", 0, 1),
        ("ignore", "[rules]\nignore = [\"chart-without-lends\"]\n", 0, 0),
        ("severity", "[rules.severity]\nchart-without-lends = \"error\"\n", 1, 1),
        ("deny", "deny-warnings = true\n", 1, 1),
        ("deny-ignored", "deny-warnings = true\n[rules]\nignore = [\"chart-without-lends\"]\n", 0, 0),
    ];
    for (name, config, exit, n) in cases {
        let dir = lone_chart(name, config);
        let o = jr2_in(&dir, &["check", "hello.json", "--format", "json"]);
        assert_eq!(o.status.code(), Some(exit), "{name}: {}", text(&o));
        let doc = json(&o);
        assert_eq!(doc["diagnostics"].as_array().map(Vec::len), Some(n), "{name}: {doc}");
        if name == "severity" {
            assert_eq!(doc["diagnostics"][0]["severity"], "error", "{doc}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_bad_config_is_a_usage_error_naming_its_line() {
    let cases = [
        ("slip", "[rules]\nignore = [\"chart-without-lend\"]\n", "did you mean \"chart-without-lends\""),
        ("error-to-warning", "[rules.severity]\nunknown-src = \"warning\"\n", "cannot be made a warning"),
        ("unknown-key", "deny_warnings = true\n", "jr2c.toml:1:1"),
        ("no-reason", "[[suppress]]\nfile = \"hello.json\"\ncode = \"unknown-src\"\nreason = \"\"\n", "needs a reason"),
    ];
    for (name, config, says) in cases {
        let dir = lone_chart(name, config);
        let o = jr2_in(&dir, &["check", "hello.json"]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o));
        assert!(text(&o).contains(says) && text(&o).contains("jr2c.toml:"), "{name}: {}", text(&o));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn rules_lists_exactly_the_registry() {
    let o = jr2_in(&root(), &["rules", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let listed = json(&o);
    let registry: Vec<Value> = check::rules::all()
        .iter()
        .map(|r| {
            serde_json::json!({"code": r.code, "severity": r.severity.as_str(), "rule": r.rule, "summary": r.summary.trim()})
        })
        .collect();
    assert_eq!(listed, Value::Array(registry));
    let o = jr2_in(&root(), &["rules"]);
    let human = String::from_utf8_lossy(&o.stdout).into_owned();
    for r in check::rules::all() {
        assert!(human.lines().any(|l| l.starts_with(r.code) && l.contains(r.severity.as_str())), "{}: {human}", r.code);
    }
}

/// An Instance in a scratch folder: `workflows/writer.ts`, a Workflow whose one Agent state has
/// no `agent.fault` route (a fixable `agent-fault-unrouted`: a root route to `failed`), with
/// `marker` as the comment line above that state; and `config` as its `jr2c.toml` (none when
/// empty).
fn unrouted(name: &str, marker: &str, config: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jr2-suppress-fix-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("workflows")).unwrap();
    let workflow = format!(
        r#"import {{ agent, fail, jr2Setup }} from "@jr2/orchestrator";

export const machine = jr2Setup({{
  actors: {{
    writer: agent({{ model: "anthropic/claude-haiku-5-5", instructions: "You write.", workspace: "none" }}),
    fail: fail(),
  }},
}}).createMachine({{
  id: "writer",
  initial: "writing",
  states: {{
    {marker}
    writing: {{ invoke: {{ src: "writer", input: {{ prompt: "Write." }} }} }},
    failed: {{ invoke: {{ src: "fail", input: {{ reason: "the Agent's Turn could not go on" }} }} }},
  }},
}});
"#
    );
    std::fs::write(dir.join("workflows/writer.ts"), workflow).unwrap();
    if !config.is_empty() {
        std::fs::write(dir.join("jr2c.toml"), config).unwrap();
    }
    dir
}

/// `jr2 check --fix` (and `--diff`) fix what `jr2 check` reports, through the same suppressions:
/// a diagnostic suppressed inline, ignored by the config or dropped by a `[[suppress]]` entry is
/// not fixed, and the file is left as it was; the same file without them is fixed.
#[test]
fn fix_leaves_what_is_suppressed_or_ignored() {
    let before = |dir: &Path| std::fs::read_to_string(dir.join("workflows/writer.ts")).unwrap();
    // The control: nothing suppressed, so --diff shows the root route and --fix writes it.
    let dir = unrouted("control", "// nothing suppressed", "");
    let o = jr2_in(&dir, &["check", ".", "--diff"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains(r#"+  on: { "agent.fault": ".failed" },"#), "{}", text(&o));
    let o = jr2_in(&dir, &["check", ".", "--fix", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(before(&dir).contains(r#"on: { "agent.fault": ".failed" }"#), "{}", before(&dir));
    let _ = std::fs::remove_dir_all(&dir);

    let cases = [
        ("inline", "// jr2-ignore[agent-fault-unrouted]: routed by the wrapper", ""),
        ("ignored", "// nothing suppressed", "[rules]\nignore = [\"agent-fault-unrouted\"]\n"),
        (
            "entry",
            "// nothing suppressed",
            "[[suppress]]\nfile = \"workflows/writer.ts\"\ncode = \"agent-fault-unrouted\"\nreason = \"routed by the wrapper\"\n",
        ),
    ];
    for (name, marker, config) in cases {
        let dir = unrouted(name, marker, config);
        let was = before(&dir);
        let o = jr2_in(&dir, &["check", ".", "--diff"]);
        assert_eq!(o.status.code(), Some(0), "{name}: nothing to fix: {}", text(&o));
        assert!(o.stdout.is_empty(), "{name}: no diff: {}", text(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains("would fix 0 diagnostics"), "{name}: {}", text(&o));
        let o = jr2_in(&dir, &["check", ".", "--fix", "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o));
        assert_eq!(json(&o)["diagnostics"], serde_json::json!([]), "{name}: the suppression is used");
        assert_eq!(before(&dir), was, "{name}: --fix leaves the file");
        let _ = std::fs::remove_dir_all(&dir);
    }

    // A config that does not parse stops --fix before anything is written (exit 2).
    let dir = unrouted("bad-config", "// nothing suppressed", "[rules]\nignore = [\"agent-fault-unrouteed\"]\n");
    let was = before(&dir);
    let o = jr2_in(&dir, &["check", ".", "--fix"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("jr2c.toml:2:"), "{}", text(&o));
    assert_eq!(before(&dir), was);
    let _ = std::fs::remove_dir_all(&dir);
}
