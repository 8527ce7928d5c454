//! The LSP's edit latency: in a 200-Workflow Instance, a one-character edit to a 2 000-line
//! Workflow, from `didChange` sent to its `publishDiagnostics` received, over 50 edits; and a
//! cold check of the same Instance (`check_instance`, what `jr2 check DIR` runs) in the same run.
//!
//! `cargo bench -p jr2-lsp --bench edit` (release). Prints the numbers `docs/benchmarks.md` records.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

const WORKFLOWS: usize = 200;
const LINES: usize = 2000;
const EDITS: usize = 50;

/// A Workflow of about `LINES` lines: a chain of command states.
fn big_workflow() -> String {
    let mut s = String::from(
        "import { command, fail, jr2Setup } from \"@jr2/orchestrator\";\n\n\
         export const machine = jr2Setup({\n  actors: { tests: command([\"npm\", \"test\"]), fail: fail() },\n\
         }).createMachine({\n  id: \"big\",\n  initial: \"s0\",\n  states: {\n",
    );
    let states = (LINES - 12) / 5;
    for i in 0..states {
        let next = if i + 1 == states { "done".to_string() } else { format!("s{}", i + 1) };
        s.push_str(&format!(
            "    s{i}: {{\n      // step {i}\n      invoke: {{ src: \"tests\", onDone: \"{next}\", onError: \"failed\" }},\n    }},\n\n"
        ));
    }
    s.push_str("    done: { type: \"final\" },\n");
    s.push_str("    failed: { invoke: { src: \"fail\", input: { reason: \"a step failed\" } } },\n  },\n});\n");
    s
}

fn instance() -> PathBuf {
    let root = std::env::temp_dir().join(format!("jr2-lsp-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("workflows");
    std::fs::create_dir_all(dir.join("notes")).expect("mkdir");
    let examples = base::workspace::root().join("examples/instance/workflows");
    let fix = std::fs::read_to_string(examples.join("fix-tests.ts")).expect("example");
    std::fs::write(dir.join("big.ts"), big_workflow()).expect("write");
    for i in 1..WORKFLOWS {
        std::fs::write(dir.join(format!("w{i:03}.ts")), fix.replace("\"fix-tests\"", &format!("\"w{i:03}\"")))
            .expect("w");
    }
    std::fs::canonicalize(&root).expect("root")
}

struct Conn {
    write: Box<dyn tokio::io::AsyncWrite + Unpin + Send>,
    read: BufReader<Box<dyn tokio::io::AsyncRead + Unpin + Send>>,
}

impl Conn {
    async fn send(&mut self, v: Value) {
        let body = v.to_string();
        let msg = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.write.write_all(msg.as_bytes()).await.expect("send");
    }

    async fn recv(&mut self) -> Value {
        let mut len = 0;
        loop {
            let mut line = String::new();
            self.read.read_line(&mut line).await.expect("header");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                len = n.parse().expect("length");
            }
        }
        let mut body = vec![0; len];
        self.read.read_exact(&mut body).await.expect("body");
        serde_json::from_slice(&body).expect("JSON")
    }

    /// Waits for the publication of `uri` at `version`.
    async fn published(&mut self, uri: &str, version: i64) -> Value {
        loop {
            let v = self.recv().await;
            if v["method"] == "textDocument/publishDiagnostics"
                && v["params"]["uri"] == uri
                && v["params"]["version"] == version
            {
                return v;
            }
        }
    }
}

fn median(xs: &mut [Duration]) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    // `JR2_BENCH_EDITS=1000` for a profile where the edits outweigh the open.
    let edits = std::env::var("JR2_BENCH_EDITS").ok().and_then(|n| n.parse().ok()).unwrap_or(EDITS).max(2);
    let root = instance();
    // The cold check, as `jr2 check DIR` runs it, in process (nothing is cached between calls):
    // the median of 5.
    let mut colds = Vec::new();
    let mut errors = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let report = check::instance::check_instance(&root);
        colds.push(t.elapsed());
        errors = report.files.iter().flat_map(|f| &f.diagnostics).count();
    }
    let cold = median(&mut colds);
    // And the `jr2 check DIR` command itself, where a release build of it is there: the median of 5.
    let jr2 = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| base::workspace::root().join("target"))
        .join("release/jr2");
    let command = jr2.is_file().then(|| {
        let mut runs: Vec<Duration> = (0..5)
            .map(|_| {
                let t = Instant::now();
                let _ = std::process::Command::new(&jr2).arg("check").arg("--offline").arg(&root).output();
                t.elapsed()
            })
            .collect();
        median(&mut runs)
    });

    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().expect("runtime");
    // The server as it ships: the release `jr2 lsp` process over its stdin and stdout (its
    // allocator, its pipes); without a release build, the server in process over a pipe.
    let in_process = command.is_none() || std::env::var_os("JR2_BENCH_IN_PROCESS").is_some();
    let (edit_times, open_time) = rt.block_on(async {
        let mut child = None;
        let mut c = if in_process {
            let (client, server) = tokio::io::duplex(1 << 20);
            let (sr, sw) = tokio::io::split(server);
            tokio::spawn(jr2_lsp::serve(sr, sw));
            let (cr, cw) = tokio::io::split(client);
            Conn { write: Box::new(cw), read: BufReader::new(Box::new(cr)) }
        } else {
            let mut p = tokio::process::Command::new(&jr2)
                .arg("lsp")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .expect("jr2 lsp");
            let (w, r) = (p.stdin.take().expect("stdin"), p.stdout.take().expect("stdout"));
            child = Some(p);
            Conn { write: Box::new(w), read: BufReader::new(Box::new(r)) }
        };
        let root_uri = format!("file://{}", root.display());
        c.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": null, "rootUri": root_uri, "capabilities": {},
            "workspaceFolders": [{ "uri": root_uri, "name": "bench" }] } }))
            .await;
        while c.recv().await.get("id") != Some(&json!(1)) {}
        c.send(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })).await;
        let big = root.join("workflows/big.ts");
        let uri = format!("file://{}", big.display());
        let text = std::fs::read_to_string(&big).expect("big");
        let t = Instant::now();
        c.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": {
            "uri": uri, "languageId": "typescript", "version": 0, "text": text } } }))
            .await;
        c.published(&uri, 0).await;
        let open_time = t.elapsed();
        // One character typed into, then deleted from, the comment of a state in the middle.
        let line = text.lines().position(|l| l.contains(&format!("// step {}", LINES / 10))).expect("line") as u64;
        let col = text.lines().nth(line as usize).expect("line").len() as u64;
        let mut times = Vec::new();
        for v in 1..=edits as i64 {
            let change = if v % 2 == 1 {
                json!({ "range": { "start": { "line": line, "character": col }, "end": { "line": line, "character": col } }, "text": "x" })
            } else {
                json!({ "range": { "start": { "line": line, "character": col }, "end": { "line": line, "character": col + 1 } }, "text": "" })
            };
            let t = Instant::now();
            c.send(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": { "uri": uri, "version": v }, "contentChanges": [change] } }))
                .await;
            c.published(&uri, v).await;
            times.push(t.elapsed());
        }
        if let Some(mut p) = child {
            c.send(json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" })).await;
            c.send(json!({ "jsonrpc": "2.0", "method": "exit" })).await;
            let _ = tokio::time::timeout(Duration::from_secs(5), p.wait()).await;
        }
        (times, open_time)
    });
    let mut times = edit_times;
    let med = median(&mut times);
    let (min, max) = (times[0], times[times.len() - 1]);
    println!("instance: {WORKFLOWS} Workflows, one of {} lines; {errors} diagnostics", big_workflow().lines().count());
    println!("cold check_instance (in process, median of 5): {:.1} ms", cold.as_secs_f64() * 1e3);
    let server = if in_process { "in process, over a pipe" } else { "the release `jr2 lsp` process, over stdio" };
    println!("server: {server}");
    println!("LSP open (cold, whole Instance): {:.1} ms", open_time.as_secs_f64() * 1e3);
    println!(
        "LSP one-character edit → publishDiagnostics over {edits} edits: median {:.2} ms (min {:.2}, max {:.2})",
        med.as_secs_f64() * 1e3,
        min.as_secs_f64() * 1e3,
        max.as_secs_f64() * 1e3
    );
    println!("cold check_instance / median edit: {:.1}x", cold.as_secs_f64() / med.as_secs_f64());
    match command {
        Some(c) => {
            println!("cold `jr2 check --offline DIR` (process, median of 5): {:.1} ms", c.as_secs_f64() * 1e3);
            println!("cold `jr2 check` / median edit: {:.1}x", c.as_secs_f64() / med.as_secs_f64());
        }
        None => println!("(no release `jr2` at {}: build it to time the command too)", jr2.display()),
    }
    let _ = std::fs::remove_dir_all(&root);
}
