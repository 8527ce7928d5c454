//! Every route's success and each of its error codes, against a real server on loopback.

#[allow(dead_code)]
mod common;

use common::{assembly, gated, published, server, TOKEN};
use serde_json::{json, Value};

fn error_of(r: &common::Reply, status: u16, code: &str) -> Value {
    assert_eq!(r.status, status, "{}", r.text());
    let v = r.json();
    assert_eq!(v["status"], status);
    assert_eq!(v["error"], code, "{v}");
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    assert!(v["report"].is_array(), "{v}");
    v
}

#[test]
fn observation_routes_answer_without_a_token() {
    let s = server(assembly());
    let h = s.get("/health");
    assert_eq!(h.status, 200);
    assert_eq!(h.json()["ok"], true);
    assert_eq!(h.json()["version"], "0.0.0-test");
    let w = s.get("/workflows").json();
    let names: Vec<(&str, &str)> = w["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["name"].as_str().unwrap(), w["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(names, [("gated", "machine"), ("notes/weekly", "chart"), ("timer", "machine")]);
    let g = s.get("/workflows/gated").json();
    assert_eq!(g["identity"], gated("approved").identity().to_string());
    assert_eq!(g["input"]["required"], json!(["topic"]));
    assert_eq!(g["gates"], json!([]));
    assert_eq!(s.get("/workflows/timer").json()["input"], json!({}));
    assert_eq!(s.get("/workflows/notes/weekly").json()["kind"], "chart");
    error_of(&s.get("/workflows/nope"), 404, "not-found");
    error_of(&s.get("/workflows/gated/chart-schema"), 404, "not-found");
    error_of(&s.get("/nowhere"), 404, "not-found");
    error_of(&s.call("DELETE", "/health", None, None), 405, "method-not-allowed");
    let runs = s.get("/runs").json();
    assert_eq!(runs, json!({ "runs": [], "next": null }));
}

#[test]
fn a_run_waits_at_its_gate_and_the_gates_answer_ends_it() {
    let s = server(assembly());
    // The door: a start whose input does not fit is a 400 naming where.
    let bad = error_of(&s.post("/workflows/gated/runs", &json!({ "topic": 7 })), 400, "bad-input");
    assert_eq!(bad["report"][0]["path"], "/topic", "{bad}");
    error_of(&s.post("/workflows/nope/runs", &json!({})), 404, "not-found");
    let started = s.post("/workflows/gated/runs", &json!({ "topic": "t" }));
    assert_eq!(started.status, 201, "{}", started.text());
    let started = started.json();
    assert_eq!((started["workflow"].as_str(), started["status"].as_str()), (Some("gated"), Some("live")));
    let id = started["runId"].as_str().unwrap().to_string();
    let run = s.get(&format!("/runs/{id}")).json();
    assert_eq!(run["configuration"], json!(["review"]));
    assert_eq!(run["dispatchedBy"], Value::Null);
    assert!(run["createdAt"].as_str().unwrap().ends_with('Z'));
    let gates = run["gates"].as_array().unwrap();
    assert_eq!(gates.len(), 1, "{run}");
    assert_eq!(gates[0]["gate"], "approver");
    assert_eq!(gates[0]["events"][0]["type"], "approve");
    assert_eq!(gates[0]["events"][0]["description"], "Approve it.");
    assert_eq!(gates[0]["events"][0]["input"]["required"], json!(["note"]));
    let answer = format!("/runs/{id}/gates/approver");
    error_of(&s.post(&answer, &json!({ "type": "reject" })), 400, "bad-input");
    let payload = error_of(&s.post(&answer, &json!({ "type": "approve", "note": 3 })), 400, "bad-input");
    assert_eq!(payload["report"][0]["path"], "/note");
    error_of(&s.post(&format!("/runs/{id}/gates/legal"), &json!({ "type": "approve", "note": "n" })), 409, "conflict");
    error_of(&s.post("/runs/nope/gates/approver", &json!({ "type": "approve", "note": "n" })), 404, "not-found");
    let took = s.post(&answer, &json!({ "type": "approve", "note": "fine" }));
    assert_eq!(took.status, 202, "{}", took.text());
    assert_eq!(took.json(), json!({ "runId": id, "gate": "approver", "event": "approve" }));
    assert_eq!(s.settled(&id), "done");
    let ended = s.get(&format!("/runs/{id}")).json();
    assert_eq!(ended["gates"], json!([]));
    assert!(ended.get("output").is_some(), "{ended}");
    // The Gate no longer waits: 409; a done run is not cancelled: 409.
    error_of(&s.post(&answer, &json!({ "type": "approve", "note": "again" })), 409, "conflict");
    error_of(&s.call("POST", &format!("/runs/{id}/cancel"), Some(TOKEN), None), 409, "conflict");
}

#[test]
fn runs_are_listed_by_workflow_and_status_a_page_at_a_time() {
    let s = server(assembly());
    let ids: Vec<String> = (0..3)
        .map(|i| {
            s.post("/workflows/gated/runs", &json!({ "topic": format!("t{i}") })).json()["runId"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let t = s.post("/workflows/timer/runs", &Value::Null).json()["runId"].as_str().unwrap().to_string();
    assert_eq!(s.settled(&t), "done");
    let page = s.get("/runs?workflow=gated&limit=2").json();
    let got: Vec<&str> = page["runs"].as_array().unwrap().iter().map(|r| r["runId"].as_str().unwrap()).collect();
    assert_eq!(got, [ids[2].as_str(), ids[1].as_str()], "newest first");
    let next = page["next"].as_str().unwrap();
    let rest = s.get(&format!("/runs?workflow=gated&limit=2&before={next}")).json();
    assert_eq!(rest["runs"].as_array().unwrap().len(), 1);
    assert_eq!(rest["runs"][0]["runId"], ids[0].as_str());
    let done = s.get("/runs?status=done").json();
    assert_eq!(done["runs"].as_array().unwrap().len(), 1);
    assert_eq!(done["runs"][0]["workflow"], "timer");
    error_of(&s.get("/runs?status=sleeping"), 400, "bad-input");
    error_of(&s.get("/runs?limit=0"), 400, "bad-input");
    error_of(&s.get("/runs?limit=many"), 400, "bad-input");
    error_of(&s.get("/runs?before=nothing"), 400, "bad-input");
}

#[test]
fn a_live_run_is_cancelled_once() {
    let s = server(assembly());
    let id = s.post("/workflows/gated/runs", &json!({ "topic": "t" })).json()["runId"].as_str().unwrap().to_string();
    let cancel = format!("/runs/{id}/cancel");
    error_of(&s.call("POST", &cancel, None, None), 401, "unauthorized");
    let r = s.call("POST", &cancel, Some(TOKEN), None);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["status"], "cancelled");
    assert_eq!(r.json()["runId"], id.as_str());
    error_of(&s.call("POST", &cancel, Some(TOKEN), None), 409, "conflict");
    error_of(&s.call("POST", "/runs/nope/cancel", Some(TOKEN), None), 404, "not-found");
}

#[test]
fn a_named_chart_is_an_unrunnable_409() {
    let s = server(assembly());
    let r = error_of(&s.post("/workflows/notes/weekly/runs", &json!({})), 409, "conflict");
    assert!(r["message"].as_str().unwrap().contains("unrunnable named Chart"), "{r}");
}

#[test]
fn events_stream_each_step_then_the_end() {
    let s = server(assembly());
    let id = s.post("/workflows/timer/runs", &Value::Null).json()["runId"].as_str().unwrap().to_string();
    let r = s.get(&format!("/runs/{id}/events"));
    assert_eq!(r.status, 200);
    assert!(r.headers.contains("content-type: text/event-stream"), "{}", r.headers);
    let text = r.text();
    let step = text.find("event: step").unwrap_or_else(|| panic!("no step in {text}"));
    let end = text.find("event: end").unwrap_or_else(|| panic!("no end in {text}"));
    assert!(step < end, "{text}");
    let data = text[step..].lines().nth(1).unwrap().strip_prefix("data: ").unwrap();
    let note: Value = serde_json::from_str(data).unwrap();
    assert_eq!((note["runId"].as_str(), note["status"].as_str()), (Some(id.as_str()), Some("done")));
    assert_eq!(note["configuration"], json!(["done"]));
    let end_data: Value =
        serde_json::from_str(text[end..].lines().nth(1).unwrap().strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(end_data["status"], "done");
    // An ended run's stream is its `end` at once.
    let again = s.get(&format!("/runs/{id}/events")).text();
    assert!(!again.contains("event: step") && again.contains("event: end"), "{again}");
    error_of(&s.get("/runs/nope/events"), 404, "not-found");
}

#[test]
fn publishing_keeps_a_live_run_on_its_ir_and_new_runs_take_the_new_one() {
    let s = server(assembly());
    let old = s.post("/workflows/gated/runs", &json!({ "topic": "t" })).json()["runId"].as_str().unwrap().to_string();
    let edited = gated("edited");
    let body = json!({ "workflows": [
        { "name": "gated", "ir": edited, "input": null, "listing": { "gates": [{ "state": "review" }] } },
        { "name": "timer", "ir": common::timer(200), "input": null, "listing": null },
    ] });
    error_of(&s.call("PUT", "/assembly", None, Some(body.to_string().as_bytes())), 401, "unauthorized");
    let r = s.call("PUT", "/assembly", Some(TOKEN), Some(body.to_string().as_bytes()));
    assert_eq!(r.status, 200, "{}", r.text());
    let changed: Vec<(String, bool)> = r.json()["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["name"].as_str().unwrap().to_string(), w["changed"].as_bool().unwrap()))
        .collect();
    assert_eq!(changed, [("gated".to_string(), true), ("timer".to_string(), false)]);
    assert_eq!(s.get("/workflows").json()["workflows"].as_array().unwrap().len(), 2, "replaced whole");
    assert_eq!(s.get("/workflows/gated").json()["gates"], json!([{ "state": "review" }]));
    let new = s.post("/workflows/gated/runs", &json!({})).json()["runId"].as_str().unwrap().to_string();
    for id in [&old, &new] {
        let r = s.post(&format!("/runs/{id}/gates/approver"), &json!({ "type": "approve", "note": "n" }));
        assert_eq!(r.status, 202, "{}", r.text());
        assert_eq!(s.settled(id), "done");
    }
    assert_eq!(s.get(&format!("/runs/{old}")).json()["configuration"], json!(["approved"]), "the old IR");
    assert_eq!(s.get(&format!("/runs/{new}")).json()["configuration"], json!(["edited"]), "the new IR");
    // An IR the server cannot load is a 400, and the Assembly stays.
    let wrong = json!({ "workflows": [ { "name": "gated", "ir": { "states": 3 } } ] });
    let e = error_of(&s.call("PUT", "/assembly", Some(TOKEN), Some(wrong.to_string().as_bytes())), 400, "bad-input");
    assert_eq!(e["report"][0]["path"], "/workflows/0", "{e}");
    assert_eq!(s.get("/workflows").json()["workflows"].as_array().unwrap().len(), 2);
    let _ = published("x", None, None);
}
