//! The handlers of [`crate::routes::ROUTES`]: each reads what it needs (the token first, then
//! the body, bounded), asks the host, and answers in the contract's shapes.

use crate::body;
use crate::error::{ApiError, Line};
use crate::{time, token, Api, Assembly, Kind, Published};
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;
use store::{RunFilter, RunStatus};

type Answer = Result<Response, ApiError>;

/// Depth of a `PUT /assembly` body: an IR nests as its state tree and expressions do.
const ASSEMBLY_DEPTH: usize = 128;
/// The largest page of `GET /runs`, and its default.
const MAX_RUNS: usize = 1000;
const DEFAULT_RUNS: usize = 50;
/// How often an event stream with nothing to say looks at its run again (a run that ended
/// `drifted` or `lost` sends no step).
const RECHECK: Duration = Duration::from_secs(2);

fn ok(status: StatusCode, body: Value) -> Answer {
    Ok((status, Json(body)).into_response())
}

impl Api {
    /// A control route's check: `Authorization: Bearer <token>`, in constant time.
    fn authorize(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let given = headers.get(header::AUTHORIZATION).map(|v| v.as_bytes()).and_then(|v| v.strip_prefix(b"Bearer "));
        match given {
            Some(t) if token::same(t, self.options().token.as_bytes()) => Ok(()),
            Some(_) => Err(ApiError::new(StatusCode::UNAUTHORIZED, "the token is not this Instance's")),
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this route needs the Instance token: `Authorization: Bearer <token>`",
            )),
        }
    }
}

/// A run's head as the API shows it.
pub(crate) fn head_json(h: &store::RunHead) -> Value {
    json!({
        "runId": h.id,
        "workflow": h.workflow,
        "status": h.status.as_str(),
        "createdAt": time::rfc3339(h.created_at),
        "updatedAt": time::rfc3339(h.updated_at),
        "dispatchedBy": h.parent,
    })
}

/// Is `v` an object whose `type` is reserved (`xstate.*`)?
fn reserved(v: &Value) -> Option<&str> {
    v.get("type").and_then(Value::as_str).filter(|t| t.starts_with("xstate."))
}

/// What a JSON Schema says of `value`: one line per error, at most 20.
fn validate(schema: &jsonschema::Validator, value: &Value) -> Vec<Line> {
    schema.iter_errors(value).take(20).map(|e| Line::new(e.instance_path().to_string(), e.to_string())).collect()
}

pub(crate) async fn health(State(api): State<Api>) -> Json<Value> {
    let o = api.options();
    Json(json!({ "ok": true, "version": o.version, "instance": o.instance.display().to_string() }))
}

pub(crate) async fn workflows(State(api): State<Api>) -> Json<Value> {
    let a = api.assembly();
    let list: Vec<Value> =
        a.workflows.values().map(|w| json!({ "name": w.name, "identity": w.identity, "kind": w.kind })).collect();
    Json(json!({ "workflows": list }))
}

/// `GET /workflows/{name}` and `GET /workflows/{name}/chart-schema`.
pub(crate) async fn workflow_get(State(api): State<Api>, Path(rest): Path<String>) -> Answer {
    let a = api.assembly();
    if let Some(name) = rest.strip_suffix("/chart-schema") {
        if let Some(w) = a.get(name) {
            let Some(m) = &w.manifest else {
                return Err(ApiError::not_found(format!(
                    "the Workflow {name:?} has no Open body: no Chart runs in it"
                )));
            };
            return ok(StatusCode::OK, chart::schema::chart_schema_for(&m.declaration));
        }
        // A named Chart called `chart-schema` is read below.
    }
    let w = a.get(&rest).ok_or_else(|| ApiError::not_found(format!("the Assembly has no Workflow {rest:?}")))?;
    ok(
        StatusCode::OK,
        json!({
            "name": w.name,
            "identity": w.identity,
            "kind": w.kind,
            "input": w.input.clone().unwrap_or_else(|| json!({})),
            "gates": w.listed("gates"),
            "effects": w.listed("effects"),
            "failing": w.listed("failing"),
        }),
    )
}

/// `POST /workflows/{name}/runs`.
pub(crate) async fn workflow_post(
    State(api): State<Api>,
    Path(rest): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let Some(name) = rest.strip_suffix("/runs") else { return Err(ApiError::not_found("no such route")) };
    api.authorize(&headers)?;
    let limits = api.options().limits;
    let input = body::json(&headers, body, limits.body, limits.depth).await?;
    if let Some(t) = reserved(&input) {
        return Err(ApiError::bad(format!("the type {t:?} is reserved: an input is no `xstate.*` event"))
            .with(vec![Line::new("/type", "a type that starts with `xstate.` is the runtime's")]));
    }
    let a = api.assembly();
    let w = a.get(name).ok_or_else(|| ApiError::not_found(format!("the Assembly has no Workflow {name:?}")))?.clone();
    if w.kind == Kind::Chart {
        return Err(unrunnable(name));
    }
    let mut input = input;
    if w.kind == Kind::ChartWrapper {
        if let Some(chart) = input.as_object_mut().and_then(|o| o.remove("chart")) {
            let text = chart.to_string();
            let admission = check::door::check(&text, w.manifest.as_ref());
            if !admission.admitted() {
                let lines = admission
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| Line {
                        path: d.path.clone().unwrap_or_default(),
                        message: d.message.clone(),
                        rule: d.rule,
                    })
                    .collect();
                return Err(
                    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "the Chart door refuses the Chart").with(lines)
                );
            }
            return Err(unrunnable(name));
        }
    }
    if let Some(door) = &w.door {
        let wrong = validate(door, &input);
        if !wrong.is_empty() {
            return Err(ApiError::bad(format!("the input does not fit the door of {name:?}")).with(wrong));
        }
    }
    let Some(loaded) = &w.loaded else { return Err(unrunnable(name)) };
    let given = (!input.is_null()).then_some(input);
    let (id, status) = api.host().start_loaded(name, loaded, given).await?;
    ok(StatusCode::CREATED, json!({ "runId": id, "workflow": name, "status": status.as_str() }))
}

fn unrunnable(name: &str) -> ApiError {
    ApiError::conflict(format!(
        "unrunnable named Chart: {name:?} runs a Chart in an Open body, which this runtime cannot run yet"
    ))
}

pub(crate) async fn runs(State(api): State<Api>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let status = match q.get("status") {
        Some(s) => Some(RunStatus::parse(s).ok_or_else(|| {
            ApiError::bad(format!("{s:?} is no run status"))
                .with(vec![Line::new("status", "one of live, done, failed, error, cancelled, lost, drifted")])
        })?),
        None => None,
    };
    let limit = match q.get("limit") {
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_RUNS).contains(n))
            .ok_or_else(|| ApiError::bad(format!("the limit {n:?} is not a number from 1 to {MAX_RUNS}")))?,
        None => DEFAULT_RUNS,
    };
    let before = match q.get("before") {
        Some(c) => Some(
            c.split_once(':')
                .and_then(|(t, id)| Some((t.parse::<u64>().ok()?, id.to_string())))
                .ok_or_else(|| ApiError::bad(format!("{c:?} is no cursor of this server (a `next`)")))?,
        ),
        None => None,
    };
    let filter = RunFilter { workflow: q.get("workflow").cloned(), status, before, limit };
    let store = api.host().store().clone();
    let heads = tokio::task::spawn_blocking(move || store.read().and_then(|r| r.runs(&filter)))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::from(host::Error::Store(e)))?;
    let next = (heads.len() == limit).then(|| heads.last().map(|h| format!("{}:{}", h.created_at, h.id))).flatten();
    ok(StatusCode::OK, json!({ "runs": heads.iter().map(head_json).collect::<Vec<_>>(), "next": next }))
}

pub(crate) async fn run(State(api): State<Api>, Path(id): Path<String>) -> Answer {
    let seen = api.host().inspect(&id).await?.ok_or_else(|| ApiError::not_found(format!("there is no run {id:?}")))?;
    let mut out = head_json(&seen.head);
    let o = out.as_object_mut().expect("an object");
    o.insert("configuration".into(), json!(seen.configuration));
    o.insert("gates".into(), serde_json::to_value(&seen.gates).unwrap_or_default());
    match seen.head.status {
        RunStatus::Done | RunStatus::Failed => {
            o.insert("output".into(), seen.output.unwrap_or(Value::Null));
        }
        RunStatus::Error => {
            o.insert("error".into(), serde_json::to_value(&seen.error).unwrap_or_default());
        }
        _ => {}
    }
    ok(StatusCode::OK, out)
}

/// The stream's state between events.
enum Stream {
    Live {
        rx: tokio::sync::broadcast::Receiver<host::StepNote>,
        api: Api,
        run: String,
        stop: tokio::sync::watch::Receiver<bool>,
    },
    End(Event),
    Done,
}

fn end_event(head: &store::RunHead) -> Event {
    Event::default().event("end").data(head_json(head).to_string())
}

pub(crate) async fn events(State(api): State<Api>, Path(id): Path<String>) -> Answer {
    // Subscribed before the head is read: no step falls between the two.
    let rx = api.host().subscribe(&id);
    let head = api.host().head(&id).await?.ok_or_else(|| ApiError::not_found(format!("there is no run {id:?}")))?;
    let first = if head.status == RunStatus::Live {
        Stream::Live { rx, stop: api.stopping(), api, run: id }
    } else {
        Stream::End(end_event(&head))
    };
    let stream = futures_util::stream::unfold(first, next_event);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}

async fn next_event(state: Stream) -> Option<(Result<Event, Infallible>, Stream)> {
    match state {
        Stream::Done => None,
        Stream::End(e) => Some((Ok(e), Stream::Done)),
        Stream::Live { mut rx, api, run, mut stop } => loop {
            if *stop.borrow() {
                return None;
            }
            let got = tokio::select! {
                _ = stop.changed() => return None,
                got = tokio::time::timeout(RECHECK, rx.recv()) => got,
            };
            match got {
                Ok(Ok(note)) => {
                    let live = note.status == RunStatus::Live.as_str();
                    let step = Event::default().event("step").data(serde_json::to_string(&note).unwrap_or_default());
                    if live {
                        return Some((Ok(step), Stream::Live { rx, api, run, stop }));
                    }
                    let head = api.host().head(&run).await.ok().flatten();
                    return Some((Ok(step), head.map_or(Stream::Done, |h| Stream::End(end_event(&h)))));
                }
                Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => continue,
                // Closed, or nothing for a while: the run may have ended without a step's note.
                Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) | Err(_) => {
                    match api.host().head(&run).await.ok().flatten() {
                        Some(h) if h.status == RunStatus::Live => {
                            if rx.is_closed() {
                                rx = api.host().subscribe(&run);
                            }
                        }
                        Some(h) => return Some((Ok(end_event(&h)), Stream::Done)),
                        None => return None,
                    }
                }
            }
        },
    }
}

pub(crate) async fn cancel(State(api): State<Api>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    api.authorize(&headers)?;
    let head = api.host().head(&id).await?.ok_or_else(|| ApiError::not_found(format!("there is no run {id:?}")))?;
    if head.status != RunStatus::Live {
        return Err(ApiError::conflict(format!("the run {id:?} is not live: it is {}", head.status)));
    }
    api.host().cancel(&id).await?;
    let head = api.host().head(&id).await?.ok_or_else(|| ApiError::not_found(format!("there is no run {id:?}")))?;
    ok(StatusCode::OK, head_json(&head))
}

pub(crate) async fn answer(
    State(api): State<Api>,
    Path((id, gate)): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    api.authorize(&headers)?;
    let limits = api.options().limits;
    let event = body::json(&headers, body, limits.body, limits.depth).await?;
    let Some(obj) = event.as_object() else {
        return Err(ApiError::bad("an event is an object with a string `type`"));
    };
    let Some(ty) = obj.get("type").and_then(Value::as_str) else {
        return Err(
            ApiError::bad("an event is an object with a string `type`").with(vec![Line::new("/type", "missing")])
        );
    };
    if ty.starts_with("xstate.") {
        return Err(ApiError::bad(format!("the event type {ty:?} is reserved"))
            .with(vec![Line::new("/type", "a type that starts with `xstate.` is the runtime's")]));
    }
    let seen = api.host().inspect(&id).await?.ok_or_else(|| ApiError::not_found(format!("there is no run {id:?}")))?;
    let Some(waiting) = seen.gates.iter().find(|g| g.gate == gate) else {
        return Err(ApiError::conflict(format!("no Gate {gate:?} waits in the run {id:?}")));
    };
    let Some(item) = waiting.events.iter().find(|e| e.ty == ty) else {
        let may: Vec<&str> = waiting.events.iter().map(|e| e.ty.as_str()).collect();
        return Err(ApiError::bad(format!("the Gate {gate:?} may not send {ty:?} now"))
            .with(vec![Line::new("/type", format!("it may send: {}", may.join(", ")))]));
    };
    if let Some(schema) = &item.input {
        let validator = jsonschema::validator_for(schema)
            .map_err(|e| ApiError::internal(format!("the event {ty:?}'s schema does not load: {e}")))?;
        let mut payload: Map<String, Value> = obj.clone();
        payload.remove("type");
        let wrong = validate(&validator, &Value::Object(payload));
        if !wrong.is_empty() {
            return Err(ApiError::bad(format!("the payload does not fit the event {ty:?}")).with(wrong));
        }
    }
    let key = match headers.get("idempotency-key").map(|v| v.to_str()) {
        Some(Ok(k)) => format!("gate:{gate}:{k}"),
        Some(Err(_)) => return Err(ApiError::bad("the Idempotency-Key is not visible ASCII")),
        None => format!("gate:{gate}:{}", token::fresh().map_err(|e| ApiError::internal(e.to_string()))?),
    };
    let ty = ty.to_string();
    api.host().send_from(&id, &key, event, Some(&gate)).await?;
    ok(StatusCode::ACCEPTED, json!({ "runId": id, "gate": gate, "event": ty }))
}

pub(crate) async fn publish(State(api): State<Api>, headers: HeaderMap, body: Body) -> Answer {
    api.authorize(&headers)?;
    let limits = api.options().limits;
    let doc = body::json(&headers, body, limits.assembly, ASSEMBLY_DEPTH.max(limits.depth)).await?;
    let Some(list) = doc.get("workflows").and_then(Value::as_array) else {
        return Err(ApiError::bad("the body is `{ workflows: [...] }`").with(vec![Line::new("/workflows", "missing")]));
    };
    let mut published = Vec::new();
    let mut wrong = Vec::new();
    for (i, w) in list.iter().enumerate() {
        match serde_json::from_value::<Published>(w.clone()) {
            Ok(p) => published.push(p),
            Err(e) => wrong.push(Line::new(format!("/workflows/{i}"), format!("this server cannot load it: {e}"))),
        }
    }
    if !wrong.is_empty() {
        return Err(ApiError::bad("the Assembly holds what this server cannot load").with(wrong));
    }
    let next = Assembly::load(published)
        .map_err(|lines| ApiError::bad("the Assembly holds what this server cannot load").with(lines))?;
    let changed = api.publish(next);
    ok(StatusCode::OK, json!({ "workflows": changed }))
}
