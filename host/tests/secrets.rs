//! A secret's value never reaches the store or the log: a run whose command echoes its secret and
//! whose http server echoes the bearer runs to `done` over SQLite; then the database file, its
//! `-wal` and `-shm`, and the host's log are searched for the value's bytes: zero hits. The
//! server saw the value (it was placed), and the run's context holds `[secret]` where it was.

#[allow(dead_code)]
mod common;

use common::{context, host, machine_with, server, settled, TempDir};
use host::Secrets;
use std::sync::Arc;
use std::time::Duration;
use store::RunStatus;

const VALUE: &str = "zq-held-7f3a91c2e8";

const CHART: &str = r##"{ "id": "s", "initial": "cmd", "states": {
    "cmd": { "invoke": { "src": "cmd",
      "onDone": { "target": "call", "actions": [{ "assign": { "cmd": { "$ref": "event.output" } } }] },
      "onError": { "target": "bad", "actions": [{ "assign": { "error": { "$ref": "event.error" } } }] } } },
    "call": { "invoke": { "src": "call", "input": { "note": "hello" },
      "onDone": { "target": "ok", "actions": [{ "assign": { "call": { "$ref": "event.output" } } }] },
      "onError": { "target": "bad", "actions": [{ "assign": { "error": { "$ref": "event.error" } } }] } } },
    "ok": { "type": "final" },
    "bad": {} } }"##;

fn hits(haystack: &[u8]) -> usize {
    haystack.windows(VALUE.len()).filter(|w| *w == VALUE.as_bytes()).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secrets_value_never_reaches_the_store_or_the_log() {
    let dir = TempDir::new();
    let (addr, seen) = server::start().await;
    let mut secrets = Secrets::new();
    secrets.insert("api", VALUE).unwrap();
    let m = machine_with(
        CHART,
        vec![
            ("cmd", common::command(&["/bin/sh", "-c", "echo \"token: $JR2_SECRET_API\" >&2"], false, 5_000, &["api"])),
            ("call", common::http("POST", &format!("http://{addr}/echo"), Some("api"), 5_000)),
        ],
    );
    let host = host(dir.path()).with_defaults(Arc::new(secrets)).unwrap();
    let run = host.start("s", m.clone(), None).await.unwrap();
    assert_eq!(settled(&host, &run, Duration::from_secs(20)).await, RunStatus::Done, "{:?}", host.log());
    let ctx = context(&host, &m, &run).await;
    assert_eq!(ctx["cmd"]["tail"], "token: [secret]\n", "{ctx}");
    assert_eq!(ctx["call"]["body"]["authorization"], "Bearer [secret]", "{ctx}");
    assert_eq!(seen.lock().unwrap().authorizations, [format!("Bearer {VALUE}")], "it was placed");

    let mut searched = 0;
    for name in ["jr2.db", "jr2.db-wal", "jr2.db-shm"] {
        let path = dir.path().join(name);
        if let Ok(bytes) = std::fs::read(&path) {
            searched += bytes.len();
            assert_eq!(hits(&bytes), 0, "{} holds the value", path.display());
        }
    }
    assert!(searched > 0, "the database was read");
    let log = host.log().join("\n");
    assert_eq!(hits(log.as_bytes()), 0, "the log holds the value: {log}");
    let stored = host.store().read().unwrap().intents_of(&run).unwrap();
    assert_eq!(stored.len(), 2);
    assert!(stored.iter().all(|i| !format!("{i:?}").contains(VALUE)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_not_held_is_the_invokes_error_naming_it() {
    let dir = TempDir::new();
    let m = machine_with(CHART, vec![("cmd", common::command(&["true"], false, 5_000, &["deploy-key"]))]);
    let host = host(dir.path()).with_defaults(Arc::new(Secrets::new())).unwrap();
    let run = host.start("s", m.clone(), None).await.unwrap();
    let end = std::time::Instant::now() + Duration::from_secs(10);
    let ctx = loop {
        let ctx = context(&host, &m, &run).await;
        if ctx.get("error").is_some() || std::time::Instant::now() > end {
            break ctx;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        ctx["error"]["reason"],
        "the Held secret \"deploy-key\" is not held by this host: give it as JR2_SECRET_DEPLOY_KEY or as a line `deploy-key=...` of the --secrets file"
    );
}
