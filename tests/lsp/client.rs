//! A small LSP client over a child process's stdio, for the tests of `jr2 lsp`.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub(crate) struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: mpsc::Receiver<Value>,
    next_id: i64,
    /// Notifications seen while waiting for something else.
    pub notifications: Vec<Value>,
}

impl Client {
    /// Starts `jr2 lsp`.
    pub(crate) fn start() -> Client {
        Client::start_with(&[])
    }

    /// Starts `jr2 lsp` with these environment variables set.
    pub(crate) fn start_with(env: &[(&str, &str)]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jr2"))
            .arg("lsp")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("jr2 lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let Ok(v) = serde_json::from_slice::<Value>(&body) else { return };
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin, incoming, next_id: 1, notifications: Vec::new() }
    }

    /// Writes bytes as they are: a malformed message.
    pub(crate) fn write_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to jr2 lsp");
        self.stdin.flush().expect("flush");
    }

    /// The process's id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Says `exit` (with no `shutdown` before, unless the test sent one); the exit status.
    pub(crate) fn exit(mut self) -> std::process::ExitStatus {
        self.notify("exit", Value::Null);
        self.wait()
    }

    fn wait(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "jr2 lsp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn write(&mut self, v: &Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to jr2 lsp");
        self.stdin.flush().expect("flush");
    }

    pub(crate) fn notify(&mut self, method: &str, params: Value) {
        self.write(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response (notifications meanwhile are kept).
    pub(crate) fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.write(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.incoming.recv_timeout(left).unwrap_or_else(|_| panic!("no answer to {method}"));
            if v.get("id") == Some(&json!(id)) && v.get("method").is_none() {
                return v;
            }
            self.take(v);
        }
    }

    fn take(&mut self, v: Value) {
        // A request from the server (e.g. window/workDoneProgress): answer it with null.
        if let (Some(id), Some(_)) = (v.get("id"), v.get("method")) {
            let id = id.clone();
            self.write(&json!({ "jsonrpc": "2.0", "id": id, "result": null }));
        } else {
            self.notifications.push(v);
        }
    }

    /// Waits for the next publishDiagnostics of `uri` (one already received first); its params.
    pub(crate) fn diagnostics_of(&mut self, uri: &str) -> Value {
        let is_it =
            |v: &Value| v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"].as_str() == Some(uri);
        if let Some(i) = self.notifications.iter().position(is_it) {
            return self.notifications.remove(i)["params"].clone();
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.incoming.recv_timeout(left).unwrap_or_else(|_| panic!("no diagnostics for {uri}"));
            if is_it(&v) {
                return v["params"].clone();
            }
            self.take(v);
        }
    }

    /// Reads every message until none comes for `quiet`.
    pub(crate) fn drain(&mut self, quiet: Duration) {
        while let Ok(v) = self.incoming.recv_timeout(quiet) {
            self.take(v);
        }
    }

    /// The last publication of each document among the notifications kept (consumed).
    pub(crate) fn last_publications(&mut self) -> std::collections::BTreeMap<String, Value> {
        let mut out = std::collections::BTreeMap::new();
        for v in self.notifications.drain(..) {
            if v["method"] == "textDocument/publishDiagnostics" {
                out.insert(v["params"]["uri"].as_str().unwrap_or_default().to_string(), v["params"].clone());
            }
        }
        out
    }

    /// shutdown, exit; the process's exit status.
    pub(crate) fn stop(mut self) -> std::process::ExitStatus {
        let answer = self.request("shutdown", Value::Null);
        assert!(answer.get("error").is_none(), "{answer}");
        self.notify("exit", Value::Null);
        self.wait()
    }

    pub(crate) fn initialize(&mut self, root: &Path) {
        let answer = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": {},
                "workspaceFolders": [{ "uri": uri(root), "name": "fixture" }],
            }),
        );
        assert!(answer["result"]["capabilities"]["textDocumentSync"].is_object(), "{answer}");
        self.notify("initialized", json!({}));
    }

    pub(crate) fn open(&mut self, path: &Path, text: &str) {
        let language = if path.extension().is_some_and(|e| e == "ts") { "typescript" } else { "json" };
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(path), "languageId": language, "version": 0, "text": text } }),
        );
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// What the LSP tests add to the bundled example Instance: a Workflow with no `agent.fault`
/// route (`review.ts`) and a named Chart with a bad stem (`notes/Draft_Post.json`).
pub(crate) fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lsp/tests/fixtures/instance")
}

/// The fixture Instance in a fresh folder (canonical path): the bundled example
/// (`examples/instance`, its `jr2.config.ts` left out: these tests are `jr2 check`'s), with
/// `triage.ts`'s dispatch misspelt (`fix-test`, an unknown callee), and [`fixture`]'s files over it.
pub(crate) fn copy_fixture(name: &str) -> PathBuf {
    let to = std::env::temp_dir().join(format!("jr2-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/instance"), &to);
    std::fs::remove_file(to.join("jr2.config.ts")).expect("the example's config");
    let triage = to.join("workflows/triage.ts");
    let text = std::fs::read_to_string(&triage).expect("the example's triage.ts");
    assert!(text.contains(r#"dispatch("fix-tests","#), "the example's triage.ts dispatches fix-tests");
    std::fs::write(&triage, text.replace(r#"dispatch("fix-tests","#, r#"dispatch("fix-test","#)).expect("write");
    copy_dir(&fixture(), &to);
    std::fs::canonicalize(&to).expect("the copy")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}

/// `jr2 check --format json ROOT`: (file relative to ROOT, code, 0-based line, 0-based column)
/// of each diagnostic, sorted.
pub(crate) fn cli_check(root: &Path) -> Vec<(String, String, u64, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .expect("jr2 check runs");
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut found: Vec<(String, String, u64, u64)> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let file = d["file"].as_str().unwrap_or_default();
            let rel = file.find("workflows/").map_or(file, |i| &file[i..]).to_string();
            let line = d["range"]["start"]["line"].as_u64().unwrap_or(1) - 1;
            let col = d["range"]["start"]["column"].as_u64().unwrap_or(1) - 1;
            (rel, d["code"].as_str().unwrap_or_default().to_string(), line, col)
        })
        .collect();
    found.sort();
    found
}

/// Every file under `root/workflows`, sorted.
pub(crate) fn workflow_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.join("workflows")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
