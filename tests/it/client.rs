//! The clients of `jr2 serve` (`jr2 run`, `runs`, `status`, `cancel`, `answer`) against a small
//! scripted HTTP server on loopback that answers as the contract says (/work/api-contract.md,
//! docs/reference/api.md): what each sends (routes, the token, the bodies), what each prints, and
//! their exit codes (ADR-0073: `jr2 run` exits 0 only for `done`). The real server's end-to-end
//! runs are in `serve_e2e` (the example Instance's `release-check`) and bench/soak.sh.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

/// One request the fake server got.
#[derive(Clone, Debug)]
struct Got {
    method: String,
    path: String,
    auth: Option<String>,
    body: String,
}

/// What the fake server answers: a status and a JSON body, or an event stream's text.
enum Reply {
    Json(u16, Value),
    Events(String),
}

type Handler = dyn Fn(&Got, usize) -> Reply + Send + Sync;

/// A server on 127.0.0.1:0 that answers each request with `handler(request, n)`, `n` counting the
/// requests of that method and path so far (0 first).
struct Fake {
    url: String,
    got: Arc<Mutex<Vec<Got>>>,
}

impl Fake {
    fn start(handler: impl Fn(&Got, usize) -> Reply + Send + Sync + 'static) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let got: Arc<Mutex<Vec<Got>>> = Arc::default();
        let handler: Arc<Handler> = Arc::new(handler);
        let seen = got.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (handler, seen) = (handler.clone(), seen.clone());
                std::thread::spawn(move || serve(stream, &*handler, &seen));
            }
        });
        Fake { url, got }
    }

    fn got(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, handler: &Handler, seen: &Mutex<Vec<Got>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut first = String::new();
    if reader.read_line(&mut first).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = first.split_whitespace();
    let (method, path) = (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("").to_string());
    let (mut length, mut auth) = (0usize, None);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap_or((&line, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "authorization" => auth = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let got = Got { method, path, auth, body: String::from_utf8_lossy(&body).into_owned() };
    let n = {
        let mut seen = seen.lock().unwrap();
        let n = seen.iter().filter(|g| g.method == got.method && g.path == got.path).count();
        seen.push(got.clone());
        n
    };
    let mut stream = stream;
    let _ = match handler(&got, n) {
        Reply::Json(status, body) => {
            let body = body.to_string();
            write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
        }
        Reply::Events(text) => {
            write!(stream, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n{text}")
        }
    };
}

const TOKEN: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

/// A fresh Instance folder whose `.jr2/` names `url` and holds [`TOKEN`].
fn instance(name: &str, url: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jr2-client-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("workflows")).unwrap();
    std::fs::create_dir_all(dir.join(".jr2")).unwrap();
    std::fs::write(dir.join(".jr2/server.json"), json!({ "url": url, "pid": 1 }).to_string()).unwrap();
    std::fs::write(dir.join(".jr2/token"), format!("{TOKEN}\n")).unwrap();
    dir
}

fn jr2(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(args)
        .current_dir(dir)
        .env_remove("JR2_TOKEN")
        .env("NO_COLOR", "1")
        .output()
        .expect("run jr2")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn step(n: u64, status: &str, config: &[&str], event: Option<&str>) -> String {
    let data = json!({ "runId": "r1", "step": n, "status": status, "configuration": config, "event": event });
    format!("event: step\ndata: {data}\n\n")
}

fn end(status: &str) -> String {
    let head = json!({ "runId": "r1", "workflow": "release-check", "status": status, "createdAt": "t", "updatedAt": "t", "dispatchedBy": null });
    format!(": a comment\nevent: end\ndata: {head}\n\n")
}

fn waiting() -> Value {
    json!({
        "runId": "r1", "workflow": "release-check", "status": "live", "createdAt": "t", "updatedAt": "t",
        "dispatchedBy": null, "configuration": ["review"],
        "gates": [{ "gate": "reviewer", "state": "review", "events": [{ "type": "approve" }, { "type": "reject" }] }]
    })
}

/// A run followed to `failed`: the start carries the Instance's token and the input; the Gate that
/// waits is shown with how to answer it; the end is named on stderr with the Failure's reason, and
/// the exit is 1. The token is printed nowhere.
#[test]
fn run_follows_to_failed_and_exits_1() {
    let fake = Fake::start(|got, _| match (got.method.as_str(), got.path.as_str()) {
        ("POST", "/workflows/release-check/runs") => {
            Reply::Json(201, json!({ "runId": "r1", "workflow": "release-check", "status": "live" }))
        }
        ("GET", "/runs/r1/events") => Reply::Events(format!(
            "{}{}{}",
            step(1, "live", &["settling"], Some("xstate.done.actor.x")),
            step(2, "live", &["review"], None),
            end("failed")
        )),
        ("GET", "/runs/r1") => Reply::Json(200, waiting()),
        _ => Reply::Json(404, json!({ "status": 404, "error": "not-found", "message": "no such route", "report": [] })),
    });
    let dir = instance("failed", &fake.url);
    // The end's reason is read from the run once the stream says it ended.
    let o = jr2(&dir.join("workflows"), &["run", "release-check", "--input", r#"{"version":"1.2.0"}"#]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{err}");
    let got = fake.got();
    assert_eq!(got[0].method, "POST");
    assert_eq!(got[0].auth.as_deref(), Some(format!("Bearer {TOKEN}").as_str()));
    assert_eq!(serde_json::from_str::<Value>(&got[0].body).unwrap(), json!({ "version": "1.2.0" }));
    assert!(
        err.contains(
            "run r1 waits at Gate reviewer in review: answer with `jr2 answer r1 reviewer <event>`: approve, reject"
        ),
        "{err}"
    );
    assert!(err.contains("jr2: run r1 step 2: live in review"), "plain lines off a terminal: {err}");
    // The fake's run still says `live` with its Gate: the end line is the stream's.
    assert_eq!(err.lines().last(), Some("jr2: run r1 ended failed"), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(!out.contains(TOKEN) && !err.contains(TOKEN));
}

/// `done` is exit 0, with the Machine's output on stdout; a failed run's reason is on its end line.
#[test]
fn run_exits_0_only_for_done() {
    for (status, output, code, line) in [
        ("done", json!({ "version": "1.2.0" }), 0, "jr2: run r1 ended done"),
        (
            "failed",
            json!({ "reason": "rejected at review: no notes" }),
            1,
            "jr2: run r1 ended failed: rejected at review: no notes",
        ),
        ("cancelled", Value::Null, 1, "jr2: run r1 ended cancelled"),
    ] {
        let fake = Fake::start(move |got, _| match (got.method.as_str(), got.path.as_str()) {
            ("POST", _) => Reply::Json(201, json!({ "runId": "r1", "workflow": "release-check", "status": "live" })),
            ("GET", "/runs/r1/events") => Reply::Events(end(status)),
            _ => {
                let mut run = json!({ "runId": "r1", "workflow": "release-check", "status": status, "configuration": [], "gates": [] });
                if !output.is_null() {
                    run["output"] = output.clone();
                }
                Reply::Json(200, run)
            }
        });
        let dir = instance(&format!("end-{status}"), &fake.url);
        let o = jr2(&dir, &["run", "release-check"]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{status}: {err}");
        assert_eq!(err.lines().last(), Some(line), "{err}");
        if status == "done" {
            assert_eq!(text(&o.stdout).trim(), r#"{"version":"1.2.0"}"#);
        }
        // Without --input the body is `{}`.
        assert_eq!(fake.got()[0].body, "{}");
    }
}

/// A stream that stops without its `end` (the server was killed) is read again: the run's end
/// comes from the second connection.
#[test]
fn run_reconnects_when_the_stream_stops() {
    let fake = Fake::start(|got, n| match (got.method.as_str(), got.path.as_str()) {
        ("POST", _) => Reply::Json(201, json!({ "runId": "r1", "workflow": "release-check", "status": "live" })),
        ("GET", "/runs/r1/events") if n == 0 => Reply::Events(step(1, "live", &["settling"], None)),
        ("GET", "/runs/r1/events") => Reply::Events(end("done")),
        _ => Reply::Json(200, json!({ "runId": "r1", "status": "done", "output": 7, "configuration": ["released"] })),
    });
    let dir = instance("reconnect", &fake.url);
    let o = jr2(&dir, &["run", "release-check"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("stopped answering") && err.contains("is back"), "{err}");
    assert_eq!(text(&o.stdout).trim(), "7");
    assert_eq!(fake.got().iter().filter(|g| g.path == "/runs/r1/events").count(), 2);
}

/// `--detach` prints the run id and follows nothing.
#[test]
fn run_detached_prints_the_id() {
    let fake =
        Fake::start(|_, _| Reply::Json(201, json!({ "runId": "r9", "workflow": "notes/weekly", "status": "live" })));
    let dir = instance("detach", &fake.url);
    let o = jr2(&dir, &["run", "notes/weekly", "--detach", "--input", "{}"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "r9\n");
    let got = fake.got();
    assert_eq!((got.len(), got[0].path.as_str()), (1, "/workflows/notes/weekly/runs"));
}

/// A refused start prints the server's message and its report lines (exit 1); a refused token
/// says where the token came from and never what it is.
#[test]
fn refusals_print_the_report_and_never_the_token() {
    let fake = Fake::start(|got, _| match got.auth.as_deref() {
        Some(a) if a == format!("Bearer {TOKEN}") => Reply::Json(
            400,
            json!({ "status": 400, "error": "bad-input", "message": "the input fails the Workflow's door", "report": [{ "path": "/version", "message": "is required" }] }),
        ),
        _ => Reply::Json(
            401,
            json!({ "status": 401, "error": "unauthorized", "message": "a control route needs the Instance token", "report": [] }),
        ),
    });
    let dir = instance("refused", &fake.url);
    let o = jr2(&dir, &["run", "release-check"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(
        err,
        "jr2: cannot start a run of release-check: 400 bad-input: the input fails the Workflow's door\n  /version: is required\n"
    );
    let wrong = "not-the-token-at-all";
    let o = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["cancel", "r1"])
        .current_dir(&dir)
        .env("JR2_TOKEN", wrong)
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("refused the token (401 unauthorized): JR2_TOKEN is not this server's token"), "{err}");
    assert!(!err.contains(wrong) && !err.contains(TOKEN), "{err}");
}

/// A server that does not answer: exit 1, naming the url and how to start one. No Instance and no
/// `--server`, or no token for a control route: a usage error (exit 2).
#[test]
fn no_server_and_no_token() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    let dir = instance("gone", &url);
    let o = jr2(&dir, &["status", "r1"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("no jr2 server answers at {url} (connection refused)")), "{err}");
    assert!(err.contains("jr2 serve") && err.contains("jr2 up"), "{err}");
    std::fs::remove_file(dir.join(".jr2/server.json")).unwrap();
    let o = jr2(&dir, &["runs"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("no jr2 server runs for the Instance"), "{}", text(&o.stderr));
    let outside = std::env::temp_dir();
    let o = jr2(&outside, &["runs"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("give --server URL"));
    let o = jr2(&outside, &["answer", "r1", "reviewer", "approve", "--server", &url]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no token: set JR2_TOKEN"), "{}", text(&o.stderr));
}

/// `jr2 answer` posts the event (its type and payload) to the Gate; `jr2 cancel` and `jr2 status`
/// call their routes; `jr2 runs` passes its filters and prints a table; `--json` the server's JSON.
#[test]
fn answer_cancel_status_and_runs() {
    let fake = Fake::start(|got, _| match (got.method.as_str(), got.path.as_str()) {
        ("POST", "/runs/r1/gates/reviewer") => {
            Reply::Json(202, json!({ "runId": "r1", "gate": "reviewer", "event": "reject" }))
        }
        ("POST", "/runs/r1/cancel") => Reply::Json(200, json!({ "runId": "r1", "status": "cancelled" })),
        ("GET", "/runs/r1") => Reply::Json(200, waiting()),
        ("GET", p) if p.starts_with("/runs?") => Reply::Json(200, json!({ "runs": [waiting()], "next": null })),
        _ => Reply::Json(404, json!({ "status": 404, "error": "not-found", "message": "no run \"r2\"", "report": [] })),
    });
    let dir = instance("control", &fake.url);
    let o = jr2(&dir, &["answer", "r1", "reviewer", "reject", "--payload", r#"{"reason":"no notes"}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = jr2(&dir, &["cancel", "r1"]);
    assert_eq!((o.status.code(), text(&o.stdout).as_str()), (Some(0), "run r1 cancelled\n"));
    let o = jr2(&dir, &["status", "r1"]);
    let out = text(&o.stdout);
    assert!(
        out.contains("status:        live\n") && out.contains("    approve: jr2 answer r1 reviewer approve\n"),
        "{out}"
    );
    let o = jr2(&dir, &["status", "r1", "--json"]);
    assert_eq!(serde_json::from_slice::<Value>(&o.stdout).unwrap(), waiting());
    let o = jr2(&dir, &["status", "r2"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stderr), "jr2: cannot read run r2: 404 not-found: no run \"r2\"\n");
    let o = jr2(&dir, &["runs", "--workflow", "release-check", "--status", "live"]);
    assert!(
        text(&o.stdout).starts_with("RUN  WORKFLOW       STATUS  UPDATED\nr1   release-check  live    t\n"),
        "{}",
        text(&o.stdout)
    );
    let got = fake.got();
    let answer = got.iter().find(|g| g.path == "/runs/r1/gates/reviewer").unwrap();
    assert_eq!(serde_json::from_str::<Value>(&answer.body).unwrap(), json!({ "reason": "no notes", "type": "reject" }));
    assert!(got.iter().any(|g| g.path == "/runs?limit=50&workflow=release-check&status=live"), "{got:?}");
    // Observation routes carry no token.
    assert!(got.iter().filter(|g| g.method == "GET").all(|g| g.auth.is_none()));
}

/// An event stream with a line past the client's bound is refused (exit 1), not read on.
#[test]
fn a_runaway_event_stream_is_refused() {
    let fake = Fake::start(|got, _| match (got.method.as_str(), got.path.as_str()) {
        ("POST", _) => Reply::Json(201, json!({ "runId": "r1", "status": "live" })),
        ("GET", "/runs/r1/events") => Reply::Events(format!("event: step\ndata: {}\n\n", "x".repeat(2 << 20))),
        _ => Reply::Json(200, waiting()),
    });
    let dir = instance("runaway", &fake.url);
    let o = jr2(&dir, &["run", "release-check"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("a line longer than 1048576 bytes"), "{}", text(&o.stderr));
}
