//! What a restore drives: a run with an event left in its inbox takes it, a run whose IR no longer
//! loads ends `drifted`, and a run that only waits is not stepped (its row is as it was).

#[allow(dead_code)]
mod common;

use common::{host, machine, TempDir};
use serde_json::json;
use store::{NewInboxEvent, NewRun, RunStatus, StoreExt};

/// A run that waits for `go`, then is done.
const WAITS: &str = r##"{ "id": "waits", "initial": "idle",
    "states": { "idle": { "on": { "go": "gone" } }, "gone": { "type": "final" } } }"##;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

#[test]
fn a_restore_drives_only_the_runs_with_something_to_do() {
    let dir = TempDir::new();
    let m = machine(WAITS, "unused", &["true"], false);
    let runs: Vec<String> = runtime().block_on(async {
        let host = host(dir.path());
        let mut runs = Vec::new();
        for _ in 0..3 {
            runs.push(host.start("waits", m.clone(), None).await.unwrap());
        }
        // As a host that died before taking them would leave them: an event in runs[1]'s inbox,
        // and a run whose stored IR is no Machine.
        host.store()
            .transaction(|tx| {
                tx.push_inbox(&NewInboxEvent {
                    run: runs[1].clone(),
                    key: "left".into(),
                    event: json!({ "type": "go" }).to_string(),
                    received_at: host::now(),
                    sender: None,
                })?;
                let identity = "ab".repeat(32);
                tx.put_ir(&identity, "{\"not\":\"an IR\"}")?;
                tx.create_run(&NewRun {
                    id: "bad".into(),
                    workflow: "gone".into(),
                    identity,
                    status: RunStatus::Live,
                    snapshot: "{}".into(),
                    input: None,
                    created_at: host::now(),
                    parent: None,
                    dispatch_key: None,
                })
            })
            .unwrap();
        runs
    });
    runtime().block_on(async {
        let host = host(dir.path());
        let restored = host.restore().await.unwrap();
        assert_eq!(restored.runs, 4, "{restored:?}");
        let read = host.store().read().unwrap();
        for id in [&runs[0], &runs[2]] {
            let head = read.run(id).unwrap().unwrap().head;
            assert_eq!((head.status, head.step), (RunStatus::Live, 0), "{id} only waits: not stepped");
        }
        let taken = read.run(&runs[1]).unwrap().unwrap().head;
        assert_eq!((taken.status, taken.step), (RunStatus::Done, 1), "the event left in its inbox was taken");
        assert!(read.inbox(&runs[1], 10).unwrap().is_empty());
        assert_eq!(read.run("bad").unwrap().unwrap().head.status, RunStatus::Drifted);
        assert!(host.log().iter().any(|l| l.starts_with("bad: drifted")), "{:?}", host.log());
    });
}
