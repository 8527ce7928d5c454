//! The "Bad input" list, one test each: a clear 4xx with the JSON report, no panic, and
//! the server still serves after (each test ends with a run started and answered).

#[allow(dead_code)]
mod common;

use common::{assembly, server, Server, TOKEN};
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpStream;

/// The server still serves: `/health`, and a run started and read back.
fn still_serves(s: &Server) {
    assert_eq!(s.get("/health").status, 200);
    let r = s.post("/workflows/gated/runs", &json!({ "topic": "after" }));
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["runId"].as_str().unwrap().to_string();
    assert_eq!(s.get(&format!("/runs/{id}")).json()["status"], "live");
}

fn refused(r: &common::Reply, status: u16, code: &str) -> Value {
    assert_eq!(r.status, status, "{}", r.text());
    let v = r.json();
    assert_eq!((v["status"].as_u64(), v["error"].as_str()), (Some(u64::from(status)), Some(code)), "{v}");
    assert!(v["report"].is_array());
    v
}

#[test]
fn a_malformed_body() {
    let s = server(assembly());
    let v = refused(&s.call("POST", "/workflows/gated/runs", Some(TOKEN), Some(b"{\"topic\": ")), 400, "bad-input");
    assert_eq!(v["message"], "the body is not JSON");
    assert_eq!(v["report"].as_array().unwrap().len(), 1);
    still_serves(&s);
}

#[test]
fn a_body_of_100_mb() {
    let s = server(assembly());
    let size = 100 << 20;
    let mut sock = TcpStream::connect(s.addr).unwrap();
    let head = format!(
        "POST /workflows/gated/runs HTTP/1.1\r\nHost: t\r\nConnection: close\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: {size}\r\n\r\n"
    );
    sock.write_all(head.as_bytes()).unwrap();
    // The body is written on its own thread, whatever the server does with it (it answers
    // before reading it, and may close the socket).
    let mut writer = sock.try_clone().unwrap();
    let sending = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 20];
        for _ in 0..100 {
            if writer.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let r = common::read_reply(&mut sock);
    refused(&r, 413, "too-large");
    drop(sock);
    sending.join().unwrap();
    // A body with no length, over the limit, is cut at the limit too.
    let mut sock = TcpStream::connect(s.addr).unwrap();
    let head = format!(
        "POST /workflows/gated/runs HTTP/1.1\r\nHost: t\r\nConnection: close\r\nAuthorization: Bearer {TOKEN}\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    sock.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b' '; 1 << 16];
    for _ in 0..20 {
        if sock.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).is_err()
            || sock.write_all(&chunk).is_err()
            || sock.write_all(b"\r\n").is_err()
        {
            break;
        }
    }
    let _ = sock.write_all(b"0\r\n\r\n");
    refused(&common::read_reply(&mut sock), 413, "too-large");
    still_serves(&s);
}

#[test]
fn a_wrong_or_missing_token() {
    let s = server(assembly());
    let body = json!({ "topic": "t" }).to_string();
    let missing = s.call("POST", "/workflows/gated/runs", None, Some(body.as_bytes()));
    refused(&missing, 401, "unauthorized");
    assert!(missing.headers.contains("www-authenticate: bearer"), "{}", missing.headers);
    let wrong = "f".repeat(64);
    let r = s.call("POST", "/workflows/gated/runs", Some(&wrong), Some(body.as_bytes()));
    refused(&r, 401, "unauthorized");
    assert!(!r.text().contains(&wrong) && !r.text().contains(TOKEN), "no token is echoed: {}", r.text());
    refused(&s.call("POST", "/workflows/gated/runs", Some(&TOKEN[..63]), Some(body.as_bytes())), 401, "unauthorized");
    refused(&s.call("PUT", "/assembly", Some("x"), Some(b"{}")), 401, "unauthorized");
    assert_eq!(s.get("/runs").json()["runs"], json!([]), "nothing was started");
    still_serves(&s);
}

#[test]
fn an_unknown_run_id() {
    let s = server(assembly());
    refused(&s.get("/runs/run-nope"), 404, "not-found");
    refused(&s.get("/runs/run-nope/events"), 404, "not-found");
    refused(&s.call("POST", "/runs/run-nope/cancel", Some(TOKEN), None), 404, "not-found");
    refused(&s.post("/runs/run-nope/gates/approver", &json!({ "type": "approve", "note": "n" })), 404, "not-found");
    still_serves(&s);
}

#[test]
fn an_answer_for_a_gate_that_is_not_waiting() {
    let s = server(assembly());
    let t = s.post("/workflows/timer/runs", &Value::Null).json()["runId"].as_str().unwrap().to_string();
    let v = refused(
        &s.post(&format!("/runs/{t}/gates/approver"), &json!({ "type": "approve", "note": "n" })),
        409,
        "conflict",
    );
    assert!(v["message"].as_str().unwrap().contains("approver"), "{v}");
    still_serves(&s);
}

#[test]
fn an_event_typed_xstate_done_actor() {
    let s = server(assembly());
    let id = s.post("/workflows/gated/runs", &json!({ "topic": "t" })).json()["runId"].as_str().unwrap().to_string();
    let evil = json!({ "type": "xstate.done.actor.approver", "output": {} });
    refused(&s.post(&format!("/runs/{id}/gates/approver"), &evil), 400, "bad-input");
    refused(
        &s.post("/workflows/gated/runs", &json!({ "type": "xstate.done.actor.x", "topic": "t" })),
        400,
        "bad-input",
    );
    assert_eq!(s.get(&format!("/runs/{id}")).json()["configuration"], json!(["review"]), "the run did not move");
    still_serves(&s);
}

#[test]
fn a_200_level_deep_input() {
    let s = server(assembly());
    let deep = format!("{{\"topic\":\"t\",\"x\":{}1{}}}", "[".repeat(200), "]".repeat(200));
    let v = refused(&s.call("POST", "/workflows/gated/runs", Some(TOKEN), Some(deep.as_bytes())), 400, "bad-input");
    assert!(v["message"].as_str().unwrap().contains("deeper than 64"), "{v}");
    let id = s.post("/workflows/gated/runs", &json!({ "topic": "t" })).json()["runId"].as_str().unwrap().to_string();
    let deep_event = format!("{{\"type\":\"approve\",\"note\":{}\"n\"{}}}", "{\"a\":".repeat(200), "}".repeat(200));
    refused(
        &s.call("POST", &format!("/runs/{id}/gates/approver"), Some(TOKEN), Some(deep_event.as_bytes())),
        400,
        "bad-input",
    );
    still_serves(&s);
}
