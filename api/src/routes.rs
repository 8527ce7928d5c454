//! The one table of routes ([`ROUTES`]): the router ([`router`]) and the OpenAPI 3.1 document
//! ([`openapi`]) are both made from it, so neither names a route the other lacks.
//!
//! A Workflow's name may hold one `/` (a named Chart, `notes/weekly`), so the routes under
//! `/workflows/{name}` are mounted together on `/workflows/{*rest}` and told apart by their last
//! segment (`/chart-schema`, `/runs`); the document shows each on its own path.

use crate::error::{code_of, ApiError};
use crate::{handlers, Api};
use axum::http::{Method, StatusCode};
use axum::routing::{MethodFilter, MethodRouter};
use axum::Router;
use serde_json::{json, Map, Value};

/// What a route does (its OpenAPI `operationId`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Health,
    Workflows,
    Workflow,
    ChartSchema,
    Runs,
    Run,
    Events,
    Start,
    Cancel,
    Answer,
    Publish,
}

/// One route.
#[derive(Clone, Copy, Debug)]
pub struct Route {
    pub method: &'static str,
    /// Its path as the OpenAPI document writes it (`{id}` a parameter).
    pub path: &'static str,
    pub op: Op,
    pub id: &'static str,
    pub summary: &'static str,
    /// Does it need the Instance token?
    pub control: bool,
    /// Its request body, where it takes one.
    pub body: Option<&'static str>,
    /// Its success status and what it returns.
    pub ok: (u16, &'static str),
    /// The error statuses it answers with, besides 500.
    pub errors: &'static [u16],
    /// Its success body's media type.
    pub media: &'static str,
}

const JSON: &str = "application/json";

/// Every route of the API.
pub const ROUTES: &[Route] = &[
    Route {
        method: "GET",
        path: "/health",
        op: Op::Health,
        id: "health",
        summary: "The server is up: its version and Instance.",
        control: false,
        body: None,
        ok: (200, "`{ ok, version, instance }`"),
        errors: &[],
        media: JSON,
    },
    Route {
        method: "GET",
        path: "/workflows",
        op: Op::Workflows,
        id: "listWorkflows",
        summary: "The Assembly's Workflows: name, identity, kind.",
        control: false,
        body: None,
        ok: (200, "`{ workflows: [ { name, identity, kind } ] }`"),
        errors: &[],
        media: JSON,
    },
    Route {
        method: "GET",
        path: "/workflows/{name}",
        op: Op::Workflow,
        id: "getWorkflow",
        summary: "A Workflow: its identity, door (JSON Schema), Gates, Effects and failing states.",
        control: false,
        body: None,
        ok: (200, "`{ name, identity, kind, input, gates, effects, failing }`"),
        errors: &[404],
        media: JSON,
    },
    Route {
        method: "GET",
        path: "/workflows/{name}/chart-schema",
        op: Op::ChartSchema,
        id: "getChartSchema",
        summary: "The Chart grammar narrowed to a Chart wrapper's Open body.",
        control: false,
        body: None,
        ok: (200, "a JSON Schema"),
        errors: &[404],
        media: JSON,
    },
    Route {
        method: "GET",
        path: "/runs",
        op: Op::Runs,
        id: "listRuns",
        summary: "Runs newest first, by Workflow and status, a page at a time.",
        control: false,
        body: None,
        ok: (200, "`{ runs: [RunHead], next }`"),
        errors: &[400],
        media: JSON,
    },
    Route {
        method: "GET",
        path: "/runs/{id}",
        op: Op::Run,
        id: "getRun",
        summary: "A run: its head, configuration, the Gates waiting with their events, its end.",
        control: false,
        body: None,
        ok: (200, "RunHead and `{ configuration, gates, output?, error? }`"),
        errors: &[404],
        media: JSON,
    },
    Route {
        method: "GET",
        path: "/runs/{id}/events",
        op: Op::Events,
        id: "runEvents",
        summary: "A run's macrosteps as Server-Sent Events (`step`), then its `end`.",
        control: false,
        body: None,
        ok: (200, "an event stream"),
        errors: &[404],
        media: "text/event-stream",
    },
    Route {
        method: "POST",
        path: "/workflows/{name}/runs",
        op: Op::Start,
        id: "startRun",
        summary: "Starts a run; the body is its input, validated against the door.",
        control: true,
        body: Some("the input (JSON); for a Chart wrapper `{ chart, ...input }`"),
        ok: (201, "`{ runId, workflow, status }`"),
        errors: &[400, 401, 404, 409, 413, 422],
        media: JSON,
    },
    Route {
        method: "POST",
        path: "/runs/{id}/cancel",
        op: Op::Cancel,
        id: "cancelRun",
        summary: "Cancels a live run.",
        control: true,
        body: None,
        ok: (200, "RunHead (status `cancelled`)"),
        errors: &[401, 404, 409],
        media: JSON,
    },
    Route {
        method: "POST",
        path: "/runs/{id}/gates/{gate}",
        op: Op::Answer,
        id: "answerGate",
        summary: "Answers a waiting Gate with an event it may send now.",
        control: true,
        body: Some("the event `{ type, ...payload }`"),
        ok: (202, "`{ runId, gate, event }`"),
        errors: &[400, 401, 404, 409, 413],
        media: JSON,
    },
    Route {
        method: "PUT",
        path: "/assembly",
        op: Op::Publish,
        id: "publishAssembly",
        summary: "Replaces the Assembly whole (`jr2 up`); live runs keep their IR.",
        control: true,
        body: Some("`{ workflows: [ { name, ir, input, listing } ] }`"),
        ok: (200, "`{ workflows: [ { name, identity, changed } ] }`"),
        errors: &[400, 401, 413],
        media: JSON,
    },
];

/// Where a route is mounted in the router.
fn mount(path: &'static str) -> &'static str {
    if path.starts_with("/workflows/{name}") {
        "/workflows/{*rest}"
    } else {
        path
    }
}

fn filter(method: &str) -> MethodFilter {
    match method {
        "POST" => MethodFilter::POST,
        "PUT" => MethodFilter::PUT,
        _ => MethodFilter::GET,
    }
}

fn add(mr: MethodRouter<Api>, route: &Route) -> MethodRouter<Api> {
    let f = filter(route.method);
    match route.op {
        Op::Health => mr.on(f, handlers::health),
        Op::Workflows => mr.on(f, handlers::workflows),
        // The three share one mount (see the module's header).
        Op::Workflow | Op::ChartSchema => mr.on(f, handlers::workflow_get),
        Op::Start => mr.on(f, handlers::workflow_post),
        Op::Runs => mr.on(f, handlers::runs),
        Op::Run => mr.on(f, handlers::run),
        Op::Events => mr.on(f, handlers::events),
        Op::Cancel => mr.on(f, handlers::cancel),
        Op::Answer => mr.on(f, handlers::answer),
        Op::Publish => mr.on(f, handlers::publish),
    }
}

/// The router of [`ROUTES`] over `api`: anything else is a JSON 404 (405 for a route's other
/// methods).
pub fn router(api: Api) -> Router {
    let mut mounted: Vec<(&'static str, MethodRouter<Api>, Vec<&'static str>)> = Vec::new();
    for route in ROUTES {
        let at = mount(route.path);
        let i = match mounted.iter().position(|(p, ..)| *p == at) {
            Some(i) => i,
            None => {
                mounted.push((at, MethodRouter::new(), Vec::new()));
                mounted.len() - 1
            }
        };
        let (_, mr, methods) = &mut mounted[i];
        if methods.contains(&route.method) {
            continue; // one handler per method and mount
        }
        methods.push(route.method);
        *mr = add(std::mem::take(mr), route);
    }
    let mut router = Router::new();
    for (at, mr, _) in mounted {
        router = router.route(at, mr);
    }
    router
        .fallback(|| async { ApiError::not_found("no such route") })
        .method_not_allowed_fallback(|method: Method| async move {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, format!("this route takes no {method}"))
        })
        // Bodies are read bounded by the handlers themselves (`body.rs`), not by axum's default.
        .layer(axum::extract::DefaultBodyLimit::disable())
        .with_state(api)
}

/// The OpenAPI 3.1 document of [`ROUTES`] (`docs/reference/openapi.json`; its version is this
/// crate's, so that it changes with the routes alone).
pub fn openapi() -> Value {
    let version = env!("CARGO_PKG_VERSION");
    let mut paths = Map::new();
    for r in ROUTES {
        let mut params: Vec<Value> = r
            .path
            .split('/')
            .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .map(|name| {
                let description = match name {
                    "name" => "The Workflow's name (its file stem); a named Chart's is `wrapper/chart`, its `/` written as is.",
                    "id" => "The run's id.",
                    _ => "The Gate's invoke id (the party that answers).",
                };
                json!({ "name": name, "in": "path", "required": true, "description": description, "schema": { "type": "string" } })
            })
            .collect();
        if r.op == Op::Runs {
            for (name, description, schema) in [
                ("workflow", "Only runs of this Workflow.", json!({ "type": "string" })),
                ("status", "Only runs of this status.", json!({ "$ref": "#/components/schemas/Status" })),
                (
                    "limit",
                    "At most this many (1 to 1000; 50 unless given).",
                    json!({ "type": "integer", "minimum": 1, "maximum": 1000 }),
                ),
                ("before", "The `next` of the page before.", json!({ "type": "string" })),
            ] {
                params.push(json!({ "name": name, "in": "query", "required": false, "description": description, "schema": schema }));
            }
        }
        if r.op == Op::Answer {
            params.push(json!({ "name": "Idempotency-Key", "in": "header", "required": false,
                "description": "One answer is taken once under its key (a new key per request unless given).",
                "schema": { "type": "string", "maxLength": 1024 } }));
        }
        let mut responses = Map::new();
        let ok_schema = match r.media {
            JSON => json!({ "type": "object" }),
            _ => json!({ "type": "string" }),
        };
        responses.insert(
            r.ok.0.to_string(),
            json!({ "description": r.ok.1, "content": { r.media: { "schema": ok_schema } } }),
        );
        let mut errors: Vec<u16> = r.errors.to_vec();
        errors.push(500);
        for code in errors {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            responses.insert(
                code.to_string(),
                json!({ "description": format!("`{}`", code_of(status)),
                    "content": { JSON: { "schema": { "$ref": "#/components/schemas/Error" } } } }),
            );
        }
        let mut op = Map::new();
        op.insert("operationId".into(), json!(r.id));
        op.insert("summary".into(), json!(r.summary));
        if !params.is_empty() {
            op.insert("parameters".into(), Value::Array(params));
        }
        if let Some(body) = r.body {
            op.insert(
                "requestBody".into(),
                json!({ "description": body, "required": r.op == Op::Answer || r.op == Op::Publish, "content": { JSON: { "schema": {} } } }),
            );
        }
        op.insert("security".into(), if r.control { json!([{ "bearer": [] }]) } else { json!([]) });
        op.insert("responses".into(), Value::Object(responses));
        let entry = paths.entry(r.path.to_string()).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = entry {
            m.insert(r.method.to_lowercase(), Value::Object(op));
        }
    }
    let statuses: Vec<&str> = store::RunStatus::ALL.iter().map(|s| s.as_str()).collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "jr2 serve",
            "version": version,
            "description": "The HTTP API of `jr2 serve` (docs/reference/api.md). Observation routes are open; control routes need the Instance token.",
        },
        "paths": paths,
        "components": {
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer", "description": "The Instance token: `JR2_TOKEN`, else `INSTANCE/.jr2/token`." } },
            "schemas": {
                "Status": { "type": "string", "enum": statuses },
                "Error": {
                    "type": "object",
                    "required": ["status", "error", "message", "report"],
                    "properties": {
                        "status": { "type": "integer" },
                        "error": { "type": "string", "enum": ["bad-input", "unauthorized", "not-found", "method-not-allowed", "conflict", "too-large", "refused", "internal"] },
                        "message": { "type": "string" },
                        "report": { "type": "array", "items": {
                            "type": "object", "required": ["path", "message"],
                            "properties": { "path": { "type": "string" }, "message": { "type": "string" }, "rule": { "type": "integer" } } } }
                    }
                },
                "RunHead": {
                    "type": "object",
                    "required": ["runId", "workflow", "status", "createdAt", "updatedAt", "dispatchedBy"],
                    "properties": {
                        "runId": { "type": "string" }, "workflow": { "type": "string" },
                        "status": { "$ref": "#/components/schemas/Status" },
                        "createdAt": { "type": "string", "format": "date-time" },
                        "updatedAt": { "type": "string", "format": "date-time" },
                        "dispatchedBy": { "type": ["string", "null"] }
                    }
                }
            }
        }
    })
}
