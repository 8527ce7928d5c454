//! Bounds past 24.8 days (Node's longest `setTimeout`, 2^31 - 1 ms, past which it fires at once)
//! hold: a 30-day `after` is armed and does not fire early, and an `http` Effect bounded by 30
//! days answers as any other. And ADR-0074 through the host: an `agent.fault` that no transition
//! takes (a guard false when it comes) ends the run `error`, its fault naming the event, the
//! state and the reason, kept in the stored snapshot.

#[allow(dead_code)]
mod common;

use common::{host, machine_with, server, settled, TempDir};
use host::Secrets;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use store::RunStatus;

const DAYS_30: u64 = 30 * 24 * 60 * 60 * 1000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timer_past_24_8_days_is_armed_and_does_not_fire_early() {
    const { assert!(DAYS_30 > (1 << 31), "past Node's bound") };
    let dir = TempDir::new();
    let chart = format!(
        r##"{{ "id": "long", "initial": "waiting", "states": {{
            "waiting": {{ "after": {{ "{DAYS_30}": "fired" }} }},
            "fired": {{ "type": "final" }} }} }}"##
    );
    let host = host(dir.path());
    let before = host::now();
    let run = host.start("long", machine_with(&chart, vec![]), None).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(host.head(&run).await.unwrap().unwrap().status, RunStatus::Live, "it did not fire at once");
    assert_eq!(host.in_flight(), (0, 1), "its timer is armed");
    let timers = host.store().read().unwrap().timers_of(&run).unwrap();
    assert_eq!(timers.len(), 1);
    let due = timers[0].timer.due;
    assert!(due >= before + DAYS_30 && due <= host::now() + DAYS_30, "due 30 days after the start: {due}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_effect_bounded_past_24_8_days_runs_as_any() {
    let (addr, _) = server::start().await;
    let dir = TempDir::new();
    let chart = r##"{ "id": "call", "initial": "calling", "states": {
        "calling": { "invoke": { "src": "call",
          "onDone": { "target": "ok", "actions": [{ "assign": { "out": { "$ref": "event.output" } } }] } } },
        "ok": { "type": "final" } } }"##;
    let m = machine_with(chart, vec![("call", common::http("GET", &format!("http://{addr}/text"), None, DAYS_30))]);
    let host = host(dir.path()).with_defaults(Arc::new(Secrets::new())).unwrap();
    let run = host.start("call", m.clone(), None).await.unwrap();
    assert_eq!(settled(&host, &run, Duration::from_secs(10)).await, RunStatus::Done, "{:?}", host.log());
    let ctx = common::context(&host, &m, &run).await;
    assert_eq!(ctx["out"], json!({ "outcome": "answered", "status": 200, "body": "plain words" }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unrouted_agent_fault_ends_the_run_error_naming_it() {
    let dir = TempDir::new();
    // The route's guard is false for an event with no `output`: the walk cannot judge that.
    let chart = r##"{ "id": "f", "initial": "working", "states": {
        "working": { "on": { "agent.fault": { "guard": "jr2.ready", "target": "failed" } } },
        "failed": {} } }"##;
    let m = machine_with(chart, vec![]);
    let host = host(dir.path());
    let run = host.start("f", m.clone(), None).await.unwrap();
    host.send(&run, json!({ "type": "agent.fault", "reason": "the Turn's container was evicted" })).await.unwrap();
    assert_eq!(host.head(&run).await.unwrap().unwrap().status, RunStatus::Error);
    let row = host.run(&run).await.unwrap().unwrap();
    let program = runtime::Program::new(m.clone());
    let snapshot = program.runtime().decode(&serde_json::from_str(&row.snapshot).unwrap()).unwrap();
    let fault = snapshot.error.expect("the fault is stored");
    assert_eq!(fault.event.as_deref(), Some("agent.fault"));
    assert_eq!(fault.states, ["working"]);
    assert_eq!(
        fault.reason,
        "no transition took \"agent.fault\" in state \"working\" (ADR-0074): the Turn's container was evicted"
    );
}
