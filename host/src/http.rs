//! The `http` Effect's executor: one request from the slot's method and url, its body the
//! invoke's input as JSON, `bearer(secret("NAME"))` as its `Authorization`, bounded by the slot's
//! `timeout` counted from the intent row's first write, its answer's body read up to a limit.
//!
//! Outcomes (every outcome is output, as the seeds say of an Effect: the Machine routes them):
//! - `{ "outcome": "answered", "status", "body" }`: an answer came, whatever its status. `body`
//!   is the parsed JSON where the answer says it is JSON (`application/json`, `*+json`) and parses,
//!   else its text (lossy UTF-8); an empty body is `""`. A body over [`BODY_LIMIT`] bytes is cut
//!   there, kept as text, and the outcome says so with `"truncated": true`. A redirect to another
//!   origin is not followed: its 3xx is the answer.
//! - `{ "outcome": "unreachable", "reason" }`: no whole answer came: the connection was refused,
//!   the name did not resolve, TLS failed, the answer broke off, or the bound ran out first (a
//!   bound that ran out while the host was down settles so without sending anything).
//!
//! An error (the invoke's `onError`, kept for defects): a slot that is no `http` Effect, a method
//! or url that is open or not known statically (a url that is no `http(s)` url), an `auth` other
//! than `bearer(secret(...))`, a `request` mapper (not run by this host yet), a Held secret the
//! host does not hold (named, never its value).
//!
//! Secrets: the request carries only the secrets the slot names, and the outcome (body, reason,
//! error) has every occurrence of their values replaced by `[secret]` ([`crate::secrets`]).

use crate::secrets::{Placed, Secrets};
use crate::{BoxFuture, Executor, Job};
use ir::slot::{Definition, EffectRun, Part};
use reqwest::{Method, Url};
use runtime::Outcome;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// The bytes of an answer's body an outcome keeps (its first ones).
pub const BODY_LIMIT: usize = 256 * 1024;
/// The bound of a request whose slot sets no `timeout`.
pub const TIMEOUT: Duration = Duration::from_secs(30);
/// The most redirects followed (each to the request's own origin).
const REDIRECTS: usize = 10;

/// Runs `http` Effects.
#[derive(Clone)]
pub struct HttpExecutor {
    client: reqwest::Client,
    secrets: Arc<Secrets>,
    /// The bound of a request whose slot sets no `timeout`.
    pub timeout: Duration,
    /// The bytes of a body kept.
    pub body_limit: usize,
}

impl std::fmt::Debug for HttpExecutor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpExecutor").field("timeout", &self.timeout).field("body_limit", &self.body_limit).finish()
    }
}

/// What a slot asks: its request, and the names of the secrets it carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub method: Method,
    pub url: Url,
    /// The secret `bearer(secret(NAME))` sends, by name.
    pub bearer: Option<String>,
    /// The slot's `timeout` (ms), where it sets one.
    pub timeout: Option<u64>,
    /// Every secret the slot names (`ir::slot::Effect::secrets`).
    pub secrets: Vec<String>,
}

/// The request of an `http` slot; else why the slot cannot run.
pub fn call(slot: Option<&ir::Slot>) -> Result<Call, String> {
    let Some(Definition::Effect(effect)) = slot.and_then(|s| s.definition.as_ref()) else {
        return Err("the slot has no Effect definition".into());
    };
    let EffectRun::Http { method, url, auth, request, .. } = &effect.run else {
        return Err(format!("the slot is a `{}` Effect, not an `http`", effect.run.kind()));
    };
    let method = match method {
        Part::Value(ir::Json::String(m)) => Method::from_bytes(m.to_ascii_uppercase().as_bytes())
            .map_err(|_| format!("the method {:?} is no HTTP method", m.as_str()))?,
        other => return Err(format!("the method is not known statically ({})", part_kind(other))),
    };
    let url = match url {
        Some(Part::Value(ir::Json::String(u))) => {
            let url = Url::parse(u).map_err(|e| format!("the url {:?} does not parse: {e}", u.as_str()))?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err(format!("the url {:?} is no http(s) url", u.as_str()));
            }
            url
        }
        Some(other) => return Err(format!("the url is not known statically ({})", part_kind(other))),
        None => return Err("the slot states no url".into()),
    };
    let bearer = match auth {
        None => None,
        Some(Part::Call { name, args }) if name == "bearer" => match args.as_slice() {
            [Part::Secret(s)] => Some(s.to_string()),
            _ => return Err("`bearer(...)` takes one `secret(\"NAME\")` here".into()),
        },
        Some(other) => {
            return Err(format!("the auth is no `bearer(secret(...))` this host sends ({})", part_kind(other)));
        }
    };
    match request {
        None => {}
        Some(Part::Unknown(why)) => return Err(format!("the slot's `request` mapper could not be read: {why}")),
        Some(_) => return Err("the slot's `request` mapper is not run by this host yet".into()),
    }
    let timeout = match &effect.timeout {
        Some(Part::Value(ir::Json::Number(n))) => n.as_f64().filter(|n| *n >= 0.0).map(|n| n as u64),
        _ => None,
    };
    let mut secrets: Vec<String> = effect.secrets.iter().map(|s| s.to_string()).collect();
    if let Some(b) = &bearer {
        if !secrets.contains(b) {
            secrets.push(b.clone());
        }
    }
    Ok(Call { method, url, bearer, timeout, secrets })
}

fn part_kind(p: &Part) -> &'static str {
    match p {
        Part::Value(_) => "a value of another type",
        Part::Open => "open: no `customize()` bound it",
        Part::Secret(_) => "a secret",
        Part::Call { .. } => "a call",
        Part::Object(_) | Part::Array(_) => "a value made of parts",
        Part::Expr(_) => "a function",
        Part::Unknown(_) => "not read",
    }
}

fn defect(reason: impl Into<String>) -> Outcome {
    Outcome::Error(json!({ "reason": reason.into() }))
}

fn unreachable(reason: String) -> Outcome {
    Outcome::Done(json!({ "outcome": "unreachable", "reason": reason }))
}

/// An error and its sources, one line.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(s) = next {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        next = s.source();
    }
    out
}

impl HttpExecutor {
    /// An executor whose requests carry secrets of `secrets` (each only where its slot names it).
    /// TLS is rustls on `ring` with the Mozilla roots (`webpki-roots`); no proxy is used; a
    /// redirect is followed only to the request's own origin, at most [`REDIRECTS`] times.
    pub fn new(secrets: Arc<Secrets>) -> Result<HttpExecutor, String> {
        let mut roots = rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("the TLS config: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let redirects = reqwest::redirect::Policy::custom(|attempt| {
            let same = attempt.previous().first().is_some_and(|first| first.origin() == attempt.url().origin());
            if !same {
                attempt.stop()
            } else if attempt.previous().len() > REDIRECTS {
                attempt.error(format!("more than {REDIRECTS} redirects"))
            } else {
                attempt.follow()
            }
        });
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .redirect(redirects)
            .no_proxy()
            .build()
            .map_err(|e| format!("the http client: {}", chain(&e)))?;
        Ok(HttpExecutor { client, secrets, timeout: TIMEOUT, body_limit: BODY_LIMIT })
    }

    async fn request(&self, job: Job) -> Outcome {
        let call = match call(job.slot.as_ref()) {
            Ok(c) => c,
            Err(why) => return defect(why),
        };
        let placed = match self.secrets.place(&call.secrets) {
            Ok(p) => p,
            Err(missing) => return defect(missing.to_string()),
        };
        let bound = call.timeout.map_or(self.timeout, Duration::from_millis);
        let left = crate::bound_left(bound, job.intent.created_at, crate::now());
        if left.is_zero() {
            return unreachable(format!(
                "the bound of {} ms ran out before an answer (it counts from the intent's first write; nothing was sent)",
                bound.as_millis()
            ));
        }
        let mut rb = self.client.request(call.method.clone(), call.url.clone());
        if let Some(name) = &call.bearer {
            // `place` above made sure it is held.
            rb = rb.bearer_auth(placed.get(name).unwrap_or_default());
        }
        if let Some(input) = &job.input {
            if call.method != Method::GET && call.method != Method::HEAD {
                rb = rb.header(reqwest::header::CONTENT_TYPE, "application/json").body(input.to_string());
            }
        }
        let limit = self.body_limit;
        let outcome = match tokio::time::timeout(left, answer(rb, limit)).await {
            Ok(o) => o,
            Err(_) => unreachable(format!("no whole answer came within the bound of {} ms", bound.as_millis())),
        };
        redact(&placed, outcome)
    }
}

/// The outcome with every placed value redacted; a cut body's edge too.
fn redact(placed: &Placed, outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Done(mut v) if v.get("truncated") == Some(&Value::Bool(true)) => {
            if let Some(Value::String(body)) = v.get_mut("body") {
                *body = placed.redact_cut(body, false);
            }
            Outcome::Done(placed.redact_value(v))
        }
        o => placed.redact_outcome(o),
    }
}

/// Sends the request and reads its answer, the body up to `limit` bytes.
async fn answer(rb: reqwest::RequestBuilder, limit: usize) -> Outcome {
    let mut resp = match rb.send().await {
        Ok(r) => r,
        Err(e) => return unreachable(chain(&e.without_url())),
    };
    let status = resp.status().as_u16();
    let json_type = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
        .is_some_and(|m| m == "application/json" || m.ends_with("+json"));
    let mut body: Vec<u8> = Vec::new();
    let mut truncated = false;
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => {
                let room = limit - body.len();
                if chunk.len() > room {
                    body.extend_from_slice(&chunk[..room]);
                    truncated = true;
                    break;
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => break,
            Err(e) => {
                return unreachable(format!(
                    "the answer broke off after its status {status}: {}",
                    chain(&e.without_url())
                ))
            }
        }
    }
    let parsed = if json_type && !truncated { serde_json::from_slice::<Value>(&body).ok() } else { None };
    let body = parsed.unwrap_or_else(|| Value::String(String::from_utf8_lossy(&body).into_owned()));
    let mut out = json!({ "outcome": "answered", "status": status, "body": body });
    if truncated {
        out["truncated"] = Value::Bool(true);
    }
    Outcome::Done(out)
}

impl Executor for HttpExecutor {
    fn run(&self, job: Job) -> BoxFuture<Outcome> {
        let this = self.clone();
        Box::pin(async move { this.request(job).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::slot::Effect;

    fn slot(method: &str, url: Option<Part>, auth: Option<Part>) -> ir::Slot {
        ir::Slot {
            kind: ir::SlotKind::Effect,
            effect: Some("http".into()),
            definition: Some(Definition::Effect(Effect {
                run: EffectRun::Http {
                    method: Part::Value(ir::Json::String(method.into())),
                    url,
                    input: None,
                    auth,
                    request: None,
                },
                idempotent: false,
                timeout: None,
                secrets: vec!["jira".into()],
                options: Default::default(),
                unread: Default::default(),
            })),
        }
    }

    fn url(u: &str) -> Option<Part> {
        Some(Part::Value(ir::Json::String(u.into())))
    }

    #[test]
    fn a_slot_reads_as_its_call_and_what_cannot_run_is_named() {
        let bearer = Part::Call { name: "bearer".into(), args: vec![Part::Secret("jira".into())] };
        let c = call(Some(&slot("post", url("https://x.example/a"), Some(bearer)))).unwrap();
        assert_eq!(c.method, Method::POST);
        assert_eq!(c.bearer.as_deref(), Some("jira"));
        assert_eq!(c.secrets, ["jira"]);
        assert_eq!(
            call(Some(&slot("GET", Some(Part::Open), None))).unwrap_err(),
            "the url is not known statically (open: no `customize()` bound it)"
        );
        assert_eq!(
            call(Some(&slot("GET", url("ftp://x/"), None))).unwrap_err(),
            "the url \"ftp://x/\" is no http(s) url"
        );
        assert_eq!(call(Some(&slot("GET", None, None))).unwrap_err(), "the slot states no url");
        let mut mapped = slot("POST", url("http://x/"), None);
        if let Some(Definition::Effect(Effect { run: EffectRun::Http { request, .. }, .. })) = &mut mapped.definition {
            *request = Some(Part::Unknown("a function whose body is not lowered".into()));
        }
        assert_eq!(
            call(Some(&mapped)).unwrap_err(),
            "the slot's `request` mapper could not be read: a function whose body is not lowered"
        );
        let basic = Part::Call { name: "basic".into(), args: vec![] };
        assert!(call(Some(&slot("GET", url("http://x/"), Some(basic)))).unwrap_err().contains("no `bearer"));
    }
}
