//! A run watched: each committed step is told to its subscribers, the last one closing the
//! channel; a Gate's answer reaches the run through the inbox as the Gate's event (its sender
//! kept, so `sentBy` reads it); `Host::inspect` shows the Gate waiting and where the run is.

#[allow(dead_code)]
mod common;

use common::{host, settled, TempDir};
use serde_json::json;
use std::time::Duration;
use store::RunStatus;

/// `review` invokes the kit's Gate as `approver`; `approve` is the approver's alone.
const GATED: &str = r##"{ "id": "g", "initial": "review",
    "states": {
      "review": { "invoke": { "src": "gate", "id": "approver" },
        "on": { "approve": [ { "guard": { "type": "jr2.sentBy", "params": { "id": "approver" } }, "target": "done" } ] } },
      "done": { "type": "final" } } }"##;

fn gated() -> ir::Machine {
    let arena = syntax::json::Arena::new();
    let parsed = syntax::json::parse(GATED, &arena);
    let mut sc = chart::lower::lower(&parsed.value, None).machine.statechart().clone();
    sc.slots.insert(
        "gate".into(),
        ir::Slot { kind: ir::SlotKind::Gate, effect: None, definition: Some(ir::Definition::Gate(Default::default())) },
    );
    for s in &mut sc.states {
        for i in s.invokes.iter_mut() {
            i.kind = ir::SlotKind::Gate;
        }
    }
    ir::Machine::lowered(sc)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gates_answer_is_the_gates_event_and_each_step_is_told() {
    let dir = TempDir::new();
    let host = host(dir.path());
    let run = host.start("g", gated(), None).await.unwrap();
    let mut notes = host.subscribe(&run);
    let seen = host.inspect(&run).await.unwrap().expect("the run");
    assert_eq!(seen.head.status, RunStatus::Live);
    assert_eq!(seen.gates.len(), 1, "{:?}", seen.gates);
    assert_eq!(seen.gates[0].gate, "approver");
    assert_eq!(seen.gates[0].events.iter().map(|e| e.ty.as_str()).collect::<Vec<_>>(), ["approve"]);
    // From no party, `approve` is taken by no transition (the guard names the approver): the
    // run stays; from another party neither.
    host.send_from(&run, "k0", json!({ "type": "approve" }), Some("legal")).await.unwrap();
    let first = notes.recv().await.unwrap();
    assert_eq!((first.step, first.status.as_str(), first.event.as_deref()), (1, "live", Some("approve")));
    assert_eq!(host.head(&run).await.unwrap().unwrap().status, RunStatus::Live);
    host.send_from(&run, "k1", json!({ "type": "approve" }), Some("approver")).await.unwrap();
    assert_eq!(settled(&host, &run, Duration::from_secs(5)).await, RunStatus::Done);
    let last = notes.recv().await.unwrap();
    assert_eq!((last.step, last.status.as_str()), (2, "done"));
    assert!(notes.recv().await.is_err(), "the channel closes once the run ended");
    let ended = host.inspect(&run).await.unwrap().unwrap();
    assert!(ended.gates.is_empty());
    assert_eq!(ended.configuration, ["done"]);
    assert_eq!(seen.configuration, ["review"]);
    let row = host.store().read().unwrap().run(&run).unwrap().unwrap();
    assert_eq!(row.head.step, 2);
    assert!(host.inspect("nobody").await.unwrap().is_none());
}
