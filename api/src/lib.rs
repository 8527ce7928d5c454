//! The HTTP API of `jr2 serve` (issue 35 item 3; `docs/reference/api.md`): axum routes over a
//! durable [`host::Host`] and the Instance's [`Assembly`]. The only crate that knows HTTP serving.
//!
//! - [`routes::ROUTES`] is the one table of routes: the router ([`router`]) and the OpenAPI 3.1
//!   document ([`routes::openapi`], checked in at `docs/reference/openapi.json`) are both made
//!   from it.
//! - Observation routes are open; control routes need the Instance token (`Authorization:
//!   Bearer`), compared in constant time ([`token::same`]) and never logged nor echoed.
//! - Every body is read bounded ([`Limits::body`]; 413 past it, before more is read) and checked
//!   for its nesting before it is parsed ([`Limits::depth`]; a 200-deep body is a 400, not a
//!   stack overflow); every 4xx/5xx is the contract's JSON ([`error::ApiError`]).
//! - A run keeps the IR it started with (the host stores it by identity): [`Api::publish`]
//!   replaces the Assembly whole, and new runs take the new IRs.
//! - The runtime cannot run an Open body's Chart yet: a named Chart's start, and a Chart wrapper's
//!   start with a `chart` the door admits, are 409 "unrunnable named Chart".

pub mod assembly;
mod body;
pub mod error;
mod handlers;
pub mod routes;
pub mod time;
pub mod token;

pub use assembly::{Assembly, Kind, Published, Workflow};
pub use error::ApiError;
pub use routes::{openapi, router, ROUTES};

use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

/// The bounds of what a client may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A request body (an input, an event), in bytes: 1 MiB.
    pub body: usize,
    /// A `PUT /assembly` body (every Workflow's IR), in bytes: 64 MiB.
    pub assembly: usize,
    /// How deeply a body's arrays and objects may nest: 64 (an IR in `PUT /assembly`: 128,
    /// serde_json's own bound).
    pub depth: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { body: 1 << 20, assembly: 64 << 20, depth: 64 }
    }
}

/// What the server is given besides its host and Assembly.
#[derive(Clone)]
pub struct Options {
    /// The Instance token control routes need.
    pub token: String,
    pub limits: Limits,
    /// The Instance's folder (absolute), as `/health` shows it.
    pub instance: PathBuf,
    /// `jr2 --version`'s version, as `/health` shows it.
    pub version: String,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is never printed.
        f.debug_struct("Options")
            .field("limits", &self.limits)
            .field("instance", &self.instance)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// The server's state: cheap to clone (one shared state).
#[derive(Clone)]
pub struct Api {
    inner: Arc<State>,
}

struct State {
    host: host::Host,
    assembly: RwLock<Arc<Assembly>>,
    options: Options,
    /// Set once the server stops: open event streams end.
    stop: tokio::sync::watch::Sender<bool>,
}

/// A Workflow of a `PUT /assembly`, with whether its IR changed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Changed {
    pub name: String,
    pub identity: String,
    pub changed: bool,
}

impl Api {
    pub fn new(host: host::Host, assembly: Assembly, options: Options) -> Api {
        Api {
            inner: Arc::new(State {
                host,
                assembly: RwLock::new(Arc::new(assembly)),
                options,
                stop: tokio::sync::watch::channel(false).0,
            }),
        }
    }

    pub fn host(&self) -> &host::Host {
        &self.inner.host
    }

    pub fn options(&self) -> &Options {
        &self.inner.options
    }

    /// The Assembly now.
    pub fn assembly(&self) -> Arc<Assembly> {
        self.inner.assembly.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Replaces the Assembly whole; says of each new Workflow whether its identity changed.
    pub fn publish(&self, next: Assembly) -> Vec<Changed> {
        let mut slot = self.inner.assembly.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let changed = next
            .workflows
            .values()
            .map(|w| Changed {
                name: w.name.clone(),
                identity: w.identity.clone(),
                changed: slot.workflows.get(&w.name).is_none_or(|old| old.identity != w.identity),
            })
            .collect();
        *slot = Arc::new(next);
        changed
    }

    /// Ends the open event streams (the server is stopping).
    pub fn stop(&self) {
        self.inner.stop.send_replace(true);
    }

    fn stopping(&self) -> tokio::sync::watch::Receiver<bool> {
        self.inner.stop.subscribe()
    }
}

/// Serves the API on `listener` until `shutdown` resolves: then it stops accepting, ends the
/// event streams and waits for the requests in flight.
pub async fn serve(
    listener: tokio::net::TcpListener,
    api: Api,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = router(api.clone());
    let stopper = api.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            stopper.stop();
        })
        .await
}
