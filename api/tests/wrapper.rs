//! A Chart wrapper (a Machine with an Open body): its Chart grammar is served; a start whose
//! `chart` the door refuses is a 422 with the door's lines (path, message, rule); one the door
//! admits is the 409 "unrunnable named Chart" (the runtime cannot run an Open body's Chart yet).

#[allow(dead_code)]
mod common;

use common::{published, server, timer};
use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = common::workspace_root().join("tests/fixtures/sim").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The timer Machine with an Open body slot lending what `notes.lends.json` lends.
fn wrapper() -> ir::Machine {
    let manifest: kit::LendManifest = serde_json::from_value(fixture("notes.lends.json")).unwrap();
    let mut sc = timer(60_000).statechart().clone();
    sc.slots.insert(
        "body".into(),
        ir::Slot {
            kind: ir::SlotKind::Machine,
            effect: None,
            definition: Some(ir::Definition::Open(ir::slot::Open { manifest, input: None })),
        },
    );
    ir::Machine::lowered(sc)
}

#[test]
fn a_wrappers_chart_goes_through_the_door() {
    let s = server(vec![published("notes", Some(wrapper()), None)]);
    assert_eq!(s.get("/workflows").json()["workflows"][0]["kind"], "chart-wrapper");
    let schema = s.get("/workflows/notes/chart-schema");
    assert_eq!(schema.status, 200, "{}", schema.text());
    let manifest: kit::LendManifest = serde_json::from_value(fixture("notes.lends.json")).unwrap();
    assert_eq!(schema.json(), chart::schema::chart_schema_for(&manifest.declaration), "`jr2 schema chart --lends`'s");
    // A Chart naming an Agent the body does not lend: refused by the door.
    let mut refused = fixture("notes.json");
    refused["states"]["drafting"]["invoke"][0]["src"] = json!("ghostwriter");
    let r = s.post("/workflows/notes/runs", &json!({ "chart": refused }));
    assert_eq!(r.status, 422, "{}", r.text());
    let v = r.json();
    assert_eq!(v["error"], "refused");
    let lines = v["report"].as_array().unwrap();
    assert!(!lines.is_empty(), "{v}");
    assert!(lines.iter().all(|l| l["message"].is_string() && l["path"].is_string()), "{v}");
    assert!(lines.iter().any(|l| l["rule"].is_u64()), "{v}");
    // The Chart as the body lends it: admitted, and not runnable here yet.
    let r = s.post("/workflows/notes/runs", &json!({ "chart": fixture("notes.json") }));
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.json()["message"].as_str().unwrap().contains("unrunnable named Chart"));
    // Without a Chart the wrapper runs as a Machine.
    let r = s.post("/workflows/notes/runs", &json!({}));
    assert_eq!(r.status, 201, "{}", r.text());
}
