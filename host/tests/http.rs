//! The `http` Effect against a server of the test's own on 127.0.0.1:0: answers (JSON, text, a
//! body cut at its limit, any status), `unreachable` (a refused connection, the bound run out,
//! a bound that ran out before it started), redirects (followed only within the origin), the
//! bearer from a Held secret, and a secret the host does not hold.

#[allow(dead_code)]
mod common;

use common::server::{self, BIG};
use host::{Executor, HttpExecutor, Job, Secrets};
use runtime::Outcome;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::Intent;

fn job(def: ir::Definition, input: Option<Value>, created_at: u64) -> Job {
    let slot = ir::Slot { kind: ir::SlotKind::Effect, effect: Some("http".into()), definition: Some(def) };
    Job {
        intent: Intent::new("r/a/1", "r", "a", 1, "call", "http", None, false, created_at),
        input,
        slot: Some(slot),
        dir: std::env::temp_dir(),
    }
}

fn executor(secrets: Secrets) -> HttpExecutor {
    HttpExecutor::new(Arc::new(secrets)).expect("the client builds")
}

fn done(o: Outcome) -> Value {
    match o {
        Outcome::Done(v) => v,
        Outcome::Error(e) => panic!("an error, not an outcome: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_is_its_status_and_its_body_json_or_text() {
    let (addr, seen) = server::start().await;
    let mut secrets = Secrets::new();
    secrets.insert("api", "tok-4242-abcdef").unwrap();
    let http = executor(secrets);
    let def = common::http("POST", &format!("http://{addr}/echo"), Some("api"), 5_000);
    let out = done(http.run(job(def, Some(json!({ "text": "hi" })), host::now())).await);
    assert_eq!(out["outcome"], "answered");
    assert_eq!(out["status"], 200);
    assert_eq!(out["body"]["method"], "POST");
    assert_eq!(out["body"]["body"], r#"{"text":"hi"}"#, "the input as the JSON body");
    assert_eq!(out["body"]["authorization"], "Bearer [secret]", "the echoed bearer is redacted");
    assert_eq!(seen.lock().unwrap().authorizations, ["Bearer tok-4242-abcdef"], "the bearer was sent");
    assert!(!out.to_string().contains("tok-4242"));

    let text =
        done(http.run(job(common::http("GET", &format!("http://{addr}/text"), None, 5_000), None, host::now())).await);
    assert_eq!(text, json!({ "outcome": "answered", "status": 200, "body": "plain words" }));
    let bad = done(
        http.run(job(common::http("GET", &format!("http://{addr}/notjson"), None, 5_000), None, host::now())).await,
    );
    assert_eq!(bad["body"], "{not json", "JSON that does not parse is its text");
    let teapot = done(
        http.run(job(common::http("GET", &format!("http://{addr}/teapot"), None, 5_000), None, host::now())).await,
    );
    assert_eq!(teapot, json!({ "outcome": "answered", "status": 418, "body": "" }), "any status is an answer");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_cut_and_says_so() {
    let (addr, _) = server::start().await;
    let http = executor(Secrets::new());
    let out =
        done(http.run(job(common::http("GET", &format!("http://{addr}/big"), None, 5_000), None, host::now())).await);
    assert_eq!(out["status"], 200);
    assert_eq!(out["truncated"], true);
    let body = out["body"].as_str().unwrap();
    assert_eq!(body.len(), host::http::BODY_LIMIT);
    assert!(body.len() < BIG);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_is_unreachable_with_its_reason() {
    let (addr, seen) = server::start().await;
    let http = executor(Secrets::new());
    let refused = server::closed_port().await;
    let out =
        done(http.run(job(common::http("GET", &format!("http://{refused}/"), None, 5_000), None, host::now())).await);
    assert_eq!(out["outcome"], "unreachable");
    assert!(out["reason"].as_str().unwrap().to_lowercase().contains("connect"), "{out}");

    let dns =
        done(http.run(job(common::http("GET", "http://no-such-host.invalid/", None, 5_000), None, host::now())).await);
    assert_eq!(dns["outcome"], "unreachable", "{dns}");

    let started = Instant::now();
    let slow =
        done(http.run(job(common::http("GET", &format!("http://{addr}/slow"), None, 400), None, host::now())).await);
    assert_eq!(slow["outcome"], "unreachable");
    assert_eq!(slow["reason"], "no whole answer came within the bound of 400 ms");
    assert!(started.elapsed() < Duration::from_secs(2), "the bound held: {:?}", started.elapsed());

    // A bound that ran out while the host was down: nothing is sent.
    let late = host::now() - 10_000;
    let gone = done(http.run(job(common::http("GET", &format!("http://{addr}/echo"), None, 2_000), None, late)).await);
    assert_eq!(gone["outcome"], "unreachable");
    assert!(gone["reason"].as_str().unwrap().contains("nothing was sent"), "{gone}");
    assert_eq!(seen.lock().unwrap().hits.get("/echo"), None);

    // What is left of a bound: 1 s of 1.5 s gone, the slow answer is given up after about 0.5 s.
    let started = Instant::now();
    let part = host::now() - 1_000;
    let left = done(http.run(job(common::http("GET", &format!("http://{addr}/slow"), None, 1_500), None, part)).await);
    assert_eq!(left["outcome"], "unreachable");
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(350) && took < Duration::from_millis(1_200), "{took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_is_followed_only_within_its_origin() {
    let (addr, seen) = server::start().await;
    let mut secrets = Secrets::new();
    secrets.insert("api", "tok-redirect-1").unwrap();
    let http = executor(secrets);
    let here = done(
        http.run(job(common::http("GET", &format!("http://{addr}/here"), Some("api"), 5_000), None, host::now())).await,
    );
    assert_eq!(here["status"], 200);
    assert_eq!(here["body"]["path"], "/echo");
    let away = done(
        http.run(job(common::http("GET", &format!("http://{addr}/away"), Some("api"), 5_000), None, host::now())).await,
    );
    assert_eq!(away["status"], 302, "another origin's redirect is the answer: {away}");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.hits.get("/echo"), Some(&1), "only the same-origin redirect reached /echo");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_the_host_does_not_hold_is_the_invokes_error_naming_it() {
    let (addr, seen) = server::start().await;
    let http = executor(Secrets::new());
    let out = http
        .run(job(common::http("GET", &format!("http://{addr}/echo"), Some("jira"), 5_000), None, host::now()))
        .await;
    let Outcome::Error(e) = out else { panic!("{out:?}") };
    let reason = e["reason"].as_str().unwrap();
    assert!(reason.contains("\"jira\"") && reason.contains("JR2_SECRET_JIRA"), "{reason}");
    assert!(seen.lock().unwrap().hits.is_empty(), "nothing was sent");
}
