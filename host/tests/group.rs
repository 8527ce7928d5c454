//! Group commit: several runs' macrosteps in one transaction, each whole. A step that fails inside
//! a batch (a payload over the store's limit, an event for a run that does not exist) is rolled
//! back alone: its caller gets its error, and the others' steps are committed and kept.

#[allow(dead_code)]
mod common;

use common::{machine, TempDir};
use host::{Config, Host};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use store::{Limits, RunStatus, Store};
use store_sqlite::SqliteStore;

/// A run that waits for `go`, then is done.
const WAITS: &str = r##"{ "id": "waits", "initial": "idle",
    "states": { "idle": { "on": { "go": "gone" } }, "gone": { "type": "final" } } }"##;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_step_in_a_batch_leaves_the_others_whole() {
    let dir = TempDir::new();
    let limits = Limits { payload: 1024, ..Limits::default() };
    let db = dir.path().join("jr2.db");
    let store: Arc<SqliteStore> = Arc::new(SqliteStore::open(&db, limits).unwrap());
    let host = Host::new(store.clone(), Config { work_dir: dir.path().join("effects") });
    let m = machine(WAITS, "unused", &["true"], false);
    let target = host.start("waits", m.clone(), None).await.unwrap();
    let before = host.commit_stats();

    // The test holds the store's one writer, so that the committer waits in its `begin` with the
    // first write it took, and every write sent meanwhile is queued for the next transaction.
    let (hold, held) = std::sync::mpsc::channel::<()>();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let holder = {
        let store = store.clone();
        std::thread::spawn(move || {
            let tx = store.begin().unwrap();
            hold.send(()).unwrap();
            released.recv().unwrap();
            drop(tx);
        })
    };
    held.recv().unwrap();
    let first = tokio::spawn({
        let (host, m) = (host.clone(), m.clone());
        async move { host.start("waits", m, None).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let big = json!({ "pad": "x".repeat(2048) });
    let mut calls = Vec::new();
    for n in 0..12 {
        let (host, m, big, target) = (host.clone(), m.clone(), big.clone(), target.clone());
        calls.push(tokio::spawn(async move {
            match n {
                // Over the store's payload limit: this start's writes fail.
                2 | 6 | 9 => host.start("waits", m, Some(big)).await.map(Some),
                // An event for a run that does not exist.
                4 => host.send("no-such-run", json!({ "type": "go" })).await.map(|()| None),
                // An event for the live run: its step commits in the same batch.
                7 => host.send(&target, json!({ "type": "go" })).await.map(|()| None),
                _ => host.start("waits", m, Some(json!({ "n": n }))).await.map(Some),
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    release.send(()).unwrap();
    holder.join().unwrap();
    let first = first.await.unwrap().unwrap();
    let mut results = Vec::new();
    for call in calls {
        results.push(call.await.unwrap());
    }

    let stats = host.commit_stats();
    assert_eq!(stats.transactions - before.transactions, 2, "the first write alone, then one batch: {stats:?}");
    assert_eq!(stats.writes - before.writes, 1 + 8, "{stats:?}");
    assert_eq!(stats.rolled_back - before.rolled_back, 4, "{stats:?}");
    assert!(stats.largest >= 8, "{stats:?}");

    let mut started = vec![first];
    for (n, r) in results.iter().enumerate() {
        match n {
            2 | 6 | 9 => {
                assert!(matches!(r, Err(host::Error::Store(store::Error::TooLarge { .. }))), "{n}: {r:?}")
            }
            4 => assert!(matches!(r, Err(host::Error::NotFound(_))), "{n}: {r:?}"),
            7 => assert!(matches!(r, Ok(None)), "{n}: {r:?}"),
            _ => match r {
                Ok(Some(id)) => started.push(id.clone()),
                other => panic!("{n}: {other:?}"),
            },
        }
    }
    assert_eq!(started.len(), 1 + 7);
    drop(host);

    // What was kept is durable: read back by a store opened afresh.
    drop(store);
    let store = SqliteStore::open(&db, limits).unwrap();
    let read = store.read().unwrap();
    for id in &started {
        let run = read.run(id).unwrap().unwrap_or_else(|| panic!("run {id} was kept"));
        assert_eq!((run.head.status, run.head.step), (RunStatus::Live, 0), "{id}");
    }
    let target = read.run(&target).unwrap().unwrap();
    assert_eq!((target.head.status, target.head.step), (RunStatus::Done, 1), "the event's step was kept");
    assert!(read.inbox(&target.head.id, 10).unwrap().is_empty(), "its inbox row was taken in that step");
    let all = read.runs(&store::RunFilter { limit: 100, ..Default::default() }).unwrap();
    assert_eq!(all.len(), 1 + 8, "no failed start left a run: {all:?}");
}
