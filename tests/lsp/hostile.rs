//! `jr2 lsp` against malformed input: each malformed message is answered with JSON-RPC's error
//! and the next request still gets its answer; a huge `Content-Length` is not allocated; `exit`
//! without `shutdown` is status 1; a new file not on disk yet gets diagnostics.

use crate::client::{copy_fixture, uri, Client};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A value the server's environment holds, which no answer may carry.
const SECRET: &str = "JR2_HOSTILE_SECRET_7f3a9c";

fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// A request any server state answers (before `initialize`: an error; after: a result).
fn ping(c: &mut Client) -> Value {
    c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///nowhere/x.ts" }, "position": { "line": 0, "character": 0 } }),
    )
}

/// The error answers to no request of the client's received so far (taken): code and id.
fn errors(c: &mut Client) -> Vec<(i64, Value)> {
    let mut found = Vec::new();
    c.notifications.retain(|v| {
        let is_error = v.get("method").is_none() && v.get("error").is_some();
        if is_error {
            found.push((v["error"]["code"].as_i64().unwrap_or_default(), v["id"].clone()));
        }
        !is_error
    });
    found
}

/// The largest resident size the process reached, in KiB (Linux).
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn every_malformed_message_is_answered_and_the_server_goes_on() {
    let root = copy_fixture("hostile");
    let started = Instant::now();
    let mut c = Client::start_with(&[("JR2_HOSTILE", SECRET)]);
    c.initialize(&root);
    // Each with the error code and id of its answer (the id where one could be read).
    let cases: Vec<(&str, Vec<u8>, i64, Value)> = vec![
        ("invalid JSON", framed("{\"jsonrpc\": \"2.0\", \"id\": 1,"), -32700, Value::Null),
        ("not UTF-8", b"Content-Length: 3\r\n\r\n\"\xff\"".to_vec(), -32700, Value::Null),
        ("an empty batch", framed("[]"), -32600, Value::Null),
        ("null", framed("null"), -32600, Value::Null),
        ("a batch", framed(r#"[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]"#), -32600, Value::Null),
        ("a bad jsonrpc", framed(r#"{"jsonrpc":"1.0","id":77,"method":"shutdown"}"#), -32600, json!(77)),
        ("no jsonrpc", framed(r#"{"id":"s","method":"shutdown"}"#), -32600, json!("s")),
        ("a method that is no name", framed(r#"{"jsonrpc":"2.0","id":1,"method":5}"#), -32600, json!(1)),
        ("no method", framed(r#"{"jsonrpc":"2.0","id":1}"#), -32600, json!(1)),
        ("a fractional id", framed(r#"{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}"#), -32600, Value::Null),
        ("deep nesting", framed(&format!("{}{}", "[".repeat(100_000), "]".repeat(100_000))), -32700, Value::Null),
        (
            "no Content-Length",
            b"Content-Type: application/json\r\n\r\n{\"jsonrpc\":\"2.0\"}".to_vec(),
            -32700,
            Value::Null,
        ),
        ("no header at all", br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#.to_vec(), -32700, Value::Null),
        ("a negative Content-Length", b"Content-Length: -20\r\n\r\n{}".to_vec(), -32700, Value::Null),
        ("a Content-Length that is no number", b"Content-Length: 12abc\r\n\r\n{}".to_vec(), -32700, Value::Null),
        ("a huge Content-Length", b"Content-Length: 9223372036854775807\r\n\r\n{}".to_vec(), -32700, Value::Null),
        (
            "a Content-Length past every integer",
            b"Content-Length: 99999999999999999999999999\r\n\r\n".to_vec(),
            -32700,
            Value::Null,
        ),
        (
            "64 MiB and one byte",
            format!("Content-Length: {}\r\n\r\n", (64 << 20) + 1).into_bytes(),
            -32700,
            Value::Null,
        ),
        ("a header line with no end", [b"X-Pad: ".as_slice(), &[b'a'; 100_000]].concat(), -32700, Value::Null),
    ];
    for (name, bytes, code, id) in &cases {
        c.write_raw(bytes);
        let answer = ping(&mut c);
        assert!(answer.get("result").is_some(), "{name}: the request after it is answered: {answer}");
        assert_eq!(errors(&mut c), [(*code, id.clone())], "{name}");
    }
    // LF-only headers: read as headers, the request answered.
    let body = json!({ "jsonrpc": "2.0", "id": 900, "method": "textDocument/hover", "params": {
        "textDocument": { "uri": "file:///nowhere/x.ts" }, "position": { "line": 0, "character": 0 } } })
    .to_string();
    c.write_raw(format!("Content-Length: {}\n\n{body}", body.len()).as_bytes());
    let answer = ping(&mut c);
    assert!(answer.get("result").is_some(), "{answer}");
    c.drain(Duration::from_millis(200));
    assert!(c.notifications.iter().any(|v| v["id"] == 900 && v.get("result").is_some()), "{:?}", c.notifications);
    assert!(errors(&mut c).is_empty());

    // Nothing of the environment, nor of the input, in what was answered.
    let everything = serde_json::to_string(&c.notifications).expect("JSON");
    assert!(!everything.contains(SECRET) && !everything.contains("aaaa"), "{everything}");
    // The huge lengths were not allocated.
    if let Some(kib) = peak_kib(c.pid()) {
        assert!(kib < 1 << 20, "jr2 lsp reached {kib} KiB");
    }
    let status = c.stop();
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_malformed_message_before_initialize_is_answered_too() {
    let mut c = Client::start();
    c.write_raw(&framed("{oops"));
    let answer = ping(&mut c);
    // Before `initialize`, a request is refused (the server is not initialized), but answered.
    assert_eq!(answer["error"]["code"], -32002, "{answer}");
    assert_eq!(errors(&mut c), [(-32700, Value::Null)]);
    assert_eq!(c.exit().code(), Some(1));
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let root = copy_fixture("exit");
    let mut c = Client::start();
    c.initialize(&root);
    let status = c.exit();
    assert_eq!(status.code(), Some(1), "{status:?}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_new_file_not_on_disk_gets_diagnostics() {
    let root = copy_fixture("unsaved");
    let mut c = Client::start();
    c.initialize(&root);
    for (name, text, code) in [
        (
            "workflows/brand-new.ts",
            "import { createMachine } from \"xstate\";\nexport const machine = createMachine({ ) });\n",
            "ts-syntax",
        ),
        ("workflows/notes/new-chart.json", "{ \"id\": \"new-chart\" }", "chart-grammar"),
        // Outside any Instance.
        ("../jr2-lsp-unsaved-elsewhere/lone.json", "{ \"id\": 5 }", "chart-grammar"),
    ] {
        let path = root.join(name);
        assert!(!path.exists());
        c.open(&path, text);
        let published = c.diagnostics_of(&uri(&path));
        let codes: Vec<&str> =
            published["diagnostics"].as_array().expect("a list").iter().filter_map(|d| d["code"].as_str()).collect();
        assert!(codes.contains(&code), "{name}: {published}");
    }
    assert!(c.stop().success());
    let _ = std::fs::remove_dir_all(&root);
}

/// Text oxc's parser would recurse into past its stack (issue 16, item 1: 80 000 nested
/// ternaries, 720 000 `!`), opened unsaved and hovered: `ts-syntax` is published, the hover is
/// answered, and the server lives on to answer the next request.
#[test]
fn deep_nesting_pasted_or_hovered_is_refused_not_overflowed() {
    let root = copy_fixture("deep");
    let mut c = Client::start();
    c.initialize(&root);
    let texts = [
        ("ternary", format!("export const x = {}a{};\n", "a ? ".repeat(80_000), " : a".repeat(80_000))),
        ("not", format!("export const x = {}a;\n", "!".repeat(720_000))),
    ];
    for (name, text) in &texts {
        let path = root.join(format!("workflows/deep-{name}.ts"));
        c.open(&path, text);
        let published = c.diagnostics_of(&uri(&path));
        let said: Vec<&str> =
            published["diagnostics"].as_array().expect("a list").iter().filter_map(|d| d["message"].as_str()).collect();
        assert!(said.iter().any(|m| m.contains("nests deeper than")), "{name}: {published}");
        let hover = c.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri(&path) }, "position": { "line": 0, "character": 40_000 } }),
        );
        assert!(hover.get("error").is_none(), "{name}: {hover}");
        assert!(ping(&mut c).get("result").is_some(), "{name}: the server answers after it");
    }
    assert!(c.stop().success());
    let _ = std::fs::remove_dir_all(&root);
}
