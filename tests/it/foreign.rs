//! `jr2 check` on an Instance whose dispatches name foreign targets, against a local HTTP server
//! this test starts (a `TcpListener` thread with canned answers by path) and a closed port: each
//! outcome is a warning, the exit code stays 0, each door is read once, and `--offline` reads none.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

/// The canned answers, by request path: a status line, headers and a body.
fn answer(path: &str) -> String {
    let good = r#"{ "name": "good", "input": { "type": "object", "properties": { "ticket": { "type": "string" } }, "required": ["ticket"] } }"#;
    let mismatching = r#"{ "name": "mismatch", "input": { "type": "object", "properties": { "ticket": { "type": "string" }, "branch": { "type": "string" } }, "required": ["ticket", "branch"] } }"#;
    let (status, headers, body) = match path {
        "/workflows/good" => ("200 OK", "Content-Type: application/json\r\n", good),
        "/workflows/mismatch" => ("200 OK", "Content-Type: application/json\r\n", mismatching),
        "/workflows/html" => ("200 OK", "Content-Type: text/html\r\n", "<!doctype html><p>a proxy</p>"),
        "/workflows/moved" => ("301 Moved Permanently", "Location: https://elsewhere.test/workflows/moved\r\n", ""),
        _ => ("404 Not Found", "Content-Type: text/plain\r\n", "no such Workflow"),
    };
    format!("HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())
}

/// A local server answering [`answer`]; it records each request's path.
fn serve() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
    let origin = format!("http://{}", listener.local_addr().expect("its address"));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            handle(stream, &log);
        }
    });
    (origin, seen)
}

fn handle(mut stream: TcpStream, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone the stream"));
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    // The headers, up to the empty line; a GET has no body.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
        line.clear();
    }
    let path = first.split_whitespace().nth(1).unwrap_or("").to_string();
    log.lock().expect("the log").push(path.clone());
    let _ = stream.write_all(answer(&path).as_bytes());
}

#[path = "../../compiler/check/tests/support/foreign_caller.rs"]
pub(crate) mod foreign_caller;

/// A port nothing listens on: bound, then closed.
fn closed_port() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
    let origin = format!("http://{}", listener.local_addr().expect("its address"));
    drop(listener);
    origin
}

/// An Instance with one Workflow dispatching `(name, origin)` pairs, each with the slot
/// `{ ticket: string }`, one state each.
fn instance(name: &str, targets: &[(&str, &str)]) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("foreign").join(name);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("workflows")).expect("create the Instance");
    let text = foreign_caller::foreign_caller(targets);
    std::fs::write(root.join("workflows").join("caller.ts"), text).expect("write the Workflow");
    root
}

fn jr2(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(args)
        .env("NO_COLOR", "1")
        // The local server is reached directly, whatever proxy the environment names.
        .env_remove("HTTP_PROXY")
        .env_remove("http_proxy")
        .env_remove("ALL_PROXY")
        .env_remove("all_proxy")
        .output()
        .expect("run jr2")
}

fn document(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document: {e}\n{}", String::from_utf8_lossy(&o.stdout)))
}

/// `code: message` of each diagnostic.
fn lines(doc: &Value) -> Vec<String> {
    doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| format!("{}: {}", d["code"].as_str().unwrap_or(""), d["message"].as_str().unwrap_or("")))
        .collect()
}

#[test]
fn every_foreign_outcome_is_a_warning_and_each_door_is_read_once() {
    let (origin, seen) = serve();
    let closed = closed_port();
    let root = instance(
        "outcomes",
        &[
            ("good", &origin),
            ("missing", &origin),
            ("mismatch", &origin),
            ("html", &origin),
            ("moved", &origin),
            ("good", &closed),
            ("good", &origin),
        ],
    );
    let out = jr2(&["check", root.to_str().expect("a UTF-8 path"), "--format", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "warnings only: {stderr}");
    let doc = document(&out);
    assert_eq!(doc["summary"]["errors"], 0);
    let door = |name: &str, o: &str| format!("GET {o}/workflows/{name}");
    let want = [
        format!(
            "foreign-door-missing: dispatch(\"missing\"): {} answered 404: the Instance there has no Workflow \"missing\" now, so its door is not checked",
            door("missing", &origin)
        ),
        format!(
            "foreign-door-mismatch: dispatch(\"mismatch\") to {origin}/workflows/mismatch: properties.branch: the door requires \"branch\", and the slot's schema does not send it"
        ),
        format!(
            "foreign-door-not-detail: dispatch(\"html\"): {} answered a body that is not JSON (\"<!doctype html><p>a proxy</p>\"), not a Workflow detail ({{ name, input }}), so its door is not checked",
            door("html", &origin)
        ),
        format!(
            "foreign-door-redirect: dispatch(\"moved\"): {} answered a redirect (301 to https://elsewhere.test/workflows/moved), which jr2 does not follow, so its door is not checked",
            door("moved", &origin)
        ),
        format!(
            "foreign-door-unreachable: dispatch(\"good\"): {} reached no Instance (connection refused), so its door is not checked",
            door("good", &closed)
        ),
    ];
    assert_eq!(lines(&doc), want, "{stderr}");
    for d in doc["diagnostics"].as_array().expect("diagnostics") {
        assert_eq!(d["severity"], "warning");
    }
    // Each distinct door once: `good` is dispatched twice to the server.
    let mut requests = seen.lock().expect("the log").clone();
    requests.sort();
    assert_eq!(
        requests,
        ["/workflows/good", "/workflows/html", "/workflows/mismatch", "/workflows/missing", "/workflows/moved"]
    );
    assert!(!stderr.contains("--offline"), "{stderr}");
}

#[test]
fn offline_reads_no_door_and_says_so_once() {
    let (origin, seen) = serve();
    let root = instance("offline", &[("missing", &origin), ("mismatch", &origin), ("missing", &origin)]);
    let out = jr2(&["check", root.to_str().expect("a UTF-8 path"), "--format", "json", "--offline"]);
    assert_eq!(out.status.code(), Some(0));
    let doc = document(&out);
    assert_eq!(lines(&doc), Vec::<String>::new());
    assert!(seen.lock().expect("the log").is_empty(), "--offline made a request");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("--offline").count(), 1, "{stderr}");
    assert!(stderr.contains("2 foreign dispatch target doors are not read"), "{stderr}");
}
