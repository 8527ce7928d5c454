//! The host over store-sqlite in a fresh folder: a `command` Effect's run to `done`, a stale
//! outcome dropped, timers, and restores after the host is dropped (an intent only intended is
//! started, a started non-idempotent one settles `unknown`, an idempotent one runs again).

#[allow(dead_code)]
mod common;

use common::{context, host, machine, settled, TempDir};
use host::{CommandExecutor, FnExecutor, Job};
use runtime::Outcome;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use store::{IntentState, RunStatus};

/// A run that invokes `effect` with the input's `token`, keeps its output as `result`, and is
/// done (or `bad` on an error).
const ONE_EFFECT: &str = r##"{ "id": "one", "initial": "work",
    "states": {
      "work": { "invoke": { "src": "effect", "input": { "token": { "$ref": "context.input.token" } },
        "onDone": { "target": "ok", "actions": [{ "assign": { "result": { "$ref": "event.output" } } }] },
        "onError": { "target": "bad", "actions": [{ "assign": { "error": { "$ref": "event.error" } } }] } },
        "on": { "skip": "ok" } },
      "ok": { "type": "final" },
      "bad": {} } }"##;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_effect_runs_to_done_through_sqlite() {
    let dir = TempDir::new();
    let m = machine(
        ONE_EFFECT,
        "effect",
        &["/bin/sh", "-c", "echo \"hello $1\"; echo oops >&2; exit 3", "sh", "{token}"],
        false,
    );
    let host = host(dir.path()).with_executor("command", Arc::new(CommandExecutor::default()));
    let run = host.start("one", m.clone(), Some(json!({ "token": "ada" }))).await.unwrap();
    let status = settled(&host, &run, Duration::from_secs(20)).await;
    let ctx = context(&host, &m, &run).await;
    assert_eq!(status, RunStatus::Done, "{ctx} {:?}", host.log());
    assert_eq!(ctx["result"]["outcome"], "exited");
    assert_eq!(ctx["result"]["code"], 3);
    let tail = ctx["result"]["tail"].as_str().unwrap();
    assert!(tail.contains("hello ada") && tail.contains("oops"), "{tail}");
    let intents = host.store().read().unwrap().intents_of(&run).unwrap();
    assert_eq!(intents.len(), 1);
    assert_eq!(intents[0].state, IntentState::Settled);
    assert!(!intents[0].idempotent);
    assert_eq!(host.in_flight(), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arg_the_input_lacks_is_the_invokes_error() {
    let dir = TempDir::new();
    let m = machine(ONE_EFFECT, "effect", &["echo", "{missing}"], false);
    let host = host(dir.path()).with_executor("command", Arc::new(CommandExecutor::default()));
    let run = host.start("one", m.clone(), Some(json!({ "token": "t" }))).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ctx = context(&host, &m, &run).await;
    assert_eq!(ctx["error"]["reason"], "the input gives no `missing` for `arg(\"missing\")`");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_outcome_is_logged_and_dropped() {
    let dir = TempDir::new();
    let m = machine(ONE_EFFECT, "effect", &["true"], false);
    // An Effect that never ends by itself: the test gives its outcomes.
    let never = FnExecutor(|_job: Job| std::future::pending::<Outcome>());
    let host = host(dir.path()).with_executor("command", Arc::new(never));
    let run = host.start("one", m.clone(), Some(json!({ "token": "t" }))).await.unwrap();
    let intent = host.store().read().unwrap().intents_of(&run).unwrap().remove(0);
    assert_eq!(intent.state, IntentState::Started, "committed started before it ran");
    let step = host.head(&run).await.unwrap().unwrap().step;
    host.outcome(&run, &intent.actor, intent.incarnation + 7, Outcome::Done(json!("late"))).await.unwrap();
    assert!(host.log().iter().any(|l| l.contains("stale")), "{:?}", host.log());
    let head = host.head(&run).await.unwrap().unwrap();
    assert_eq!((head.status, head.step), (RunStatus::Live, step), "nothing of the run changed");
    host.outcome(&run, &intent.actor, intent.incarnation, Outcome::Done(json!("on time"))).await.unwrap();
    assert_eq!(settled(&host, &run, Duration::from_secs(5)).await, RunStatus::Done);
    assert_eq!(context(&host, &m, &run).await["result"], "on time");
    // A second outcome for a settled row is dropped too.
    host.outcome(&run, &intent.actor, intent.incarnation, Outcome::Done(json!("twice"))).await.unwrap();
    assert_eq!(context(&host, &m, &run).await["result"], "on time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_from_outside_is_taken_and_a_reserved_one_refused() {
    let dir = TempDir::new();
    let m = machine(ONE_EFFECT, "effect", &["true"], false);
    let never = FnExecutor(|_job: Job| std::future::pending::<Outcome>());
    let host = host(dir.path()).with_executor("command", Arc::new(never));
    let run = host.start("one", m, Some(json!({ "token": "t" }))).await.unwrap();
    let forged = host.send(&run, json!({ "type": "xstate.done.actor.x", "output": 1 })).await;
    assert!(matches!(forged, Err(host::Error::Refused(_))), "{forged:?}");
    assert!(matches!(host.send("nope", json!({ "type": "skip" })).await, Err(host::Error::NotFound(_))));
    host.send(&run, json!({ "type": "skip" })).await.unwrap();
    assert_eq!(host.head(&run).await.unwrap().unwrap().status, RunStatus::Done);
    let intent = host.store().read().unwrap().intents_of(&run).unwrap().remove(0);
    assert_eq!(intent.state, IntentState::Settled, "the stopped Effect's row is settled");
    assert_eq!(host.in_flight(), (0, 0), "its executor was stopped");
}

/// A run waits 300 ms, then runs its Effect. The host is dropped (its tokio runtime shut down) at
/// once; a new host over the same database restores the timer, which fires and runs the Effect.
#[test]
fn a_timer_survives_a_clean_drop_of_the_host() {
    let dir = TempDir::new();
    let chart = r##"{ "id": "later", "initial": "wait", "states": {
        "wait": { "after": { "300": "work" } },
        "work": { "invoke": { "src": "effect", "input": { "token": { "$ref": "context.input.token" } }, "onDone": "ok" } },
        "ok": { "type": "final" } } }"##;
    let m = machine(chart, "effect", &["true"], false);
    let calls = Arc::new(AtomicUsize::new(0));
    let counting = |calls: Arc<AtomicUsize>| {
        FnExecutor(move |_job: Job| {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Outcome::Done(json!({ "outcome": "exited", "code": 0, "tail": "" })) }
        })
    };
    let run = runtime().block_on(async {
        let host = host(dir.path()).with_executor("command", Arc::new(counting(calls.clone())));
        host.start("later", m.clone(), Some(json!({ "token": "t" }))).await.unwrap()
    });
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    runtime().block_on(async {
        let host = host(dir.path()).with_executor("command", Arc::new(counting(calls.clone())));
        let restored = host.restore().await.unwrap();
        assert_eq!((restored.runs, restored.timers), (1, 1), "{restored:?}");
        assert_eq!(settled(&host, &run, Duration::from_secs(10)).await, RunStatus::Done);
    });
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    let store = store_sqlite::SqliteStore::open(&dir.path().join("jr2.db"), store::Limits::default()).unwrap();
    assert!(store::Store::read(&store).unwrap().timers_of(&run).unwrap().is_empty(), "the fired timer's row is gone");
}

/// A host dies while its Effect runs: a non-idempotent one never runs again and the run takes
/// `{ outcome: "unknown" }`; an idempotent one runs again under the same row.
#[test]
fn a_started_effect_is_settled_unknown_or_run_again_as_it_is_idempotent() {
    for idempotent in [false, true] {
        let dir = TempDir::new();
        let m = machine(ONE_EFFECT, "effect", &["true"], idempotent);
        let calls = Arc::new(AtomicUsize::new(0));
        let run = runtime().block_on(async {
            let c = calls.clone();
            let hung = FnExecutor(move |_job: Job| {
                c.fetch_add(1, Ordering::SeqCst);
                std::future::pending::<Outcome>()
            });
            let host = host(dir.path()).with_executor("command", Arc::new(hung));
            let run = host.start("one", m.clone(), Some(json!({ "token": "t" }))).await.unwrap();
            tokio::time::sleep(Duration::from_millis(50)).await;
            run
        });
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        runtime().block_on(async {
            let c = calls.clone();
            let quick = FnExecutor(move |job: Job| {
                c.fetch_add(1, Ordering::SeqCst);
                async move { Outcome::Done(json!({ "again": job.intent.id })) }
            });
            let host = host(dir.path()).with_executor("command", Arc::new(quick));
            let restored = host.restore().await.unwrap();
            assert_eq!(settled(&host, &run, Duration::from_secs(10)).await, RunStatus::Done);
            let result = context(&host, &m, &run).await["result"].clone();
            if idempotent {
                assert_eq!((restored.rerun, restored.unknown), (1, 0), "{restored:?}");
                assert_eq!(result["again"], host::intent_id(&run, "0.one.work", 1));
            } else {
                assert_eq!((restored.rerun, restored.unknown), (0, 1), "{restored:?}");
                assert_eq!(result, host::unknown_outcome());
            }
        });
        assert_eq!(calls.load(Ordering::SeqCst), if idempotent { 2 } else { 1 });
    }
}
