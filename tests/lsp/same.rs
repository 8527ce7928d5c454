//! The LSP and `jr2 check` report the same diagnostics in the same words (issue 17): for each
//! fixture Instance, every file opened in `jr2 lsp` gets what `jr2 check --format json` reports
//! for it, through the same suppressions and `jr2c.toml` (`check::suppress`), each message worded
//! as the CLI's (the LSP's message is the CLI's `message`, then its `help` and `notes` lines).

use super::client::{copy_fixture, uri, workflow_files, Client};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// One diagnostic as both sides can say it: (file, code, 0-based line, severity, message).
type Said = (String, String, u64, String, String);

fn rel(root: &Path, file: &str) -> String {
    let prefix = format!("{}/", root.display());
    file.strip_prefix(&prefix).unwrap_or(file).to_string()
}

/// What `jr2 check --format json ROOT` reports for `files`, worded as the LSP's message is built
/// from it.
fn cli(root: &Path, files: &[PathBuf]) -> Vec<Said> {
    let out = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["check", "--offline", "--format", "json"])
        .arg(root)
        .output()
        .expect("jr2 check runs");
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let opened: Vec<String> = files.iter().map(|f| rel(root, &f.display().to_string())).collect();
    let mut said: Vec<Said> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let mut message = d["message"].as_str().unwrap_or_default().to_string();
            if let Some(help) = d["help"].as_str() {
                message.push_str(&format!("\nhelp: {help}"));
            }
            for note in d["notes"].as_array().into_iter().flatten() {
                message.push_str(&format!("\nnote: {}", note.as_str().unwrap_or_default()));
            }
            (
                rel(root, d["file"].as_str().unwrap_or_default()),
                d["code"].as_str().unwrap_or_default().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(1) - 1,
                d["severity"].as_str().unwrap_or_default().to_string(),
                message,
            )
        })
        .filter(|s| opened.contains(&s.0))
        .collect();
    said.sort();
    said
}

/// What `jr2 lsp` publishes for `files`, each opened from disk, once every edit is published.
fn lsp(root: &Path, files: &[PathBuf]) -> Vec<Said> {
    let mut c = Client::start();
    c.initialize(root);
    for f in files {
        c.open(f, &std::fs::read_to_string(f).expect("a fixture file"));
    }
    let answer = c.request(
        "textDocument/hover",
        serde_json::json!({ "textDocument": { "uri": uri(&files[0]) }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(answer.get("error").is_none(), "{answer}");
    c.drain(Duration::from_millis(1500));
    let published: BTreeMap<String, Value> = c.last_publications();
    assert!(c.stop().success());
    let mut said = Vec::new();
    for f in files {
        let last = published.get(&uri(f)).unwrap_or_else(|| panic!("no publication for {}", f.display()));
        for d in last["diagnostics"].as_array().expect("list") {
            assert!(d.get("data").is_none_or(Value::is_null), "an editor-only diagnostic of a file on disk: {d}");
            let severity = match d["severity"].as_u64() {
                Some(1) => "error",
                Some(2) => "warning",
                _ => "other",
            };
            said.push((
                rel(root, &f.display().to_string()),
                d["code"].as_str().unwrap_or_default().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
                severity.to_string(),
                d["message"].as_str().unwrap_or_default().to_string(),
            ));
        }
    }
    said.sort();
    said
}

/// A copy of a fixture Instance of the repository, canonical (as the server's URIs are).
fn copy(from: &str, name: &str) -> PathBuf {
    let to = std::env::temp_dir().join(format!("jr2-lsp-same-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(from), &to);
    std::fs::canonicalize(&to).expect("the copy")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

fn same(root: &Path) -> usize {
    let files = workflow_files(root);
    let expected = cli(root, &files);
    let got = lsp(root, &files);
    assert_eq!(got, expected, "{}: the LSP's diagnostics (left) and the CLI's (right)", root.display());
    expected.len()
}

/// Suppressions: the inline `jr2-ignore[...]` forms (one with no reason, one unused, one naming no
/// rule) and the config's `[[suppress]]` entries and severity change, in the editor as in the CLI.
#[test]
fn the_server_honours_suppressions_and_the_config_as_the_cli_does() {
    let root = copy("tests/fixtures/suppress", "suppress");
    let n = same(&root);
    let files = workflow_files(&root);
    let said = cli(&root, &files);
    let codes: Vec<&str> = said.iter().map(|s| s.1.as_str()).collect();
    for code in ["suppression-without-reason", "unused-suppression", "agent-fault-unrouted"] {
        assert!(codes.contains(&code), "the fixture shows {code}: {said:?}");
    }
    assert!(n >= 4, "{said:?}");
    // Without the config, the editor shows what it suppressed: the config is read, not ignored.
    std::fs::remove_file(root.join("jr2c.toml")).expect("the config");
    let unsuppressed = lsp(&root, &files);
    assert!(unsuppressed.len() > said.len(), "{unsuppressed:?}");
    let _ = std::fs::remove_dir_all(&root);
}

/// The words: every message of the fixture Instances (door lines, walk refusals, the seeds'
/// texts, a `not-static` warning's help) as the CLI words it.
#[test]
fn the_server_words_every_message_as_the_cli_does() {
    let lsp_fixture = copy_fixture("same");
    std::fs::write(
        lsp_fixture.join("workflows/lets.ts"),
        "import { agent, fail, jr2Setup } from \"@jr2/orchestrator\";\n\
         let model = \"anthropic/claude-haiku-5-5\";\n\
         export const machine = jr2Setup({\n  actors: { writer: agent({ model, instructions: \"You write.\", workspace: \"none\" }), fail: fail() },\n\
         }).createMachine({\n  id: \"lets\",\n  initial: \"a\",\n  states: { a: { invoke: { src: \"writer\", input: { prompt: \"Write.\" } } } },\n});\n",
    )
    .expect("write");
    let cli_instance = copy("tests/fixtures/cli/instance", "cli");
    let mut total = 0;
    for root in [&lsp_fixture, &cli_instance] {
        total += same(root);
    }
    let said = cli(&lsp_fixture, &workflow_files(&lsp_fixture));
    assert!(
        said.iter().any(|s| s.1 == "not-static" && s.4.contains("\nhelp: jr2 reads a Workflow without running it")),
        "{said:?}"
    );
    assert!(said.iter().any(|s| s.0.ends_with(".json")), "a Chart's door lines are compared: {said:?}");
    assert!(total >= 6, "{total}");
    let _ = std::fs::remove_dir_all(&lsp_fixture);
    let _ = std::fs::remove_dir_all(&cli_instance);
}
