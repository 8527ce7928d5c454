//! The foreign doors of `jr2 check`, over HTTP: `GET <url>/workflows/<name>` with no token and no
//! redirect followed (ADR-0071). The compiler knows no network; it reads doors through
//! [`DoorSource`], which this implements with ureq (blocking, small).
//!
//! Short timeouts (3 s to connect, 5 s in all), and one budget for all the foreign doors of a run
//! ([`BUDGET`], from its first fetch): a check in CI must not hang on a host that drops packets
//! (20 doors on a server that never answers took 51 s), and every outcome here is only a warning.
//! A door not read within the budget is `foreign-door-unreachable`, saying so. Each distinct url
//! and name is read once per run, whatever the number of Instances or dispatches naming it. A body
//! is read up to 1 MiB.

use check::doors::{door_url, DoorSource, Fetched};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The most of a door's body read: a Workflow detail is small, and a runaway answer is not read.
const BODY_LIMIT: u64 = 1 << 20;

/// The time to connect to one door's host, and to read one door in all.
const CONNECT: Duration = Duration::from_secs(3);
const PER_DOOR: Duration = Duration::from_secs(5);

/// The time for all the foreign doors of one run, from its first fetch: each fetch gets what is
/// left of it (at most [`PER_DOOR`]), and once it is spent the doors not read yet are not tried.
pub(super) const BUDGET: Duration = Duration::from_secs(10);

/// Reads foreign doors over HTTP, each `(url, name)` once.
pub(super) struct HttpDoors {
    agent: ureq::Agent,
    seen: Mutex<HashMap<(String, String), Fetched>>,
    /// When the first fetch began: the start of [`BUDGET`].
    started: OnceLock<Instant>,
}

impl HttpDoors {
    pub(super) fn new() -> Self {
        let agent = ureq::Agent::config_builder()
            .timeout_connect(Some(CONNECT))
            .timeout_global(Some(PER_DOOR))
            .max_redirects(0)
            .max_redirects_will_error(false)
            .http_status_as_error(false)
            .user_agent(concat!("jr2/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        HttpDoors { agent, seen: Mutex::default(), started: OnceLock::new() }
    }

    /// What is left of [`BUDGET`] (zero once spent).
    fn left(&self) -> Duration {
        BUDGET.saturating_sub(self.started.get_or_init(Instant::now).elapsed())
    }

    fn get(&self, address: &str) -> Fetched {
        let left = self.left();
        if left.is_zero() {
            return Fetched::Unreachable { reason: spent() };
        }
        let request = self
            .agent
            .get(address)
            .header("Accept", "application/json")
            .config()
            .timeout_connect(Some(CONNECT.min(left)))
            .timeout_global(Some(PER_DOOR.min(left)))
            .build();
        let mut response = match request.call() {
            Err(ureq::Error::Timeout(_)) if self.left().is_zero() && left < PER_DOOR => {
                return Fetched::Unreachable { reason: spent() }
            }
            Ok(r) => r,
            Err(e) => return Fetched::Unreachable { reason: reason(&e) },
        };
        let status = response.status().as_u16();
        if (300..400).contains(&status) {
            let location = response.headers().get("location").and_then(|l| l.to_str().ok()).map(str::to_string);
            return Fetched::Redirect { status, location };
        }
        match response.body_mut().with_config().limit(BODY_LIMIT).read_to_vec() {
            Ok(bytes) => Fetched::Answer { status, body: String::from_utf8_lossy(&bytes).into_owned() },
            Err(e) => Fetched::Unreachable { reason: format!("the answer's body could not be read: {}", reason(&e)) },
        }
    }
}

impl DoorSource for HttpDoors {
    fn fetch(&self, url: &str, name: &str) -> Fetched {
        let key = (url.to_string(), name.to_string());
        if let Some(seen) = self.seen.lock().ok().and_then(|s| s.get(&key).cloned()) {
            return seen;
        }
        let fetched = self.get(&door_url(url, name));
        if let Ok(mut seen) = self.seen.lock() {
            seen.insert(key, fetched.clone());
        }
        fetched
    }
}

/// Why a door was not read once [`BUDGET`] is spent.
fn spent() -> String {
    format!("not read within the {} s a run gives all foreign doors together; `--offline` reads none", BUDGET.as_secs())
}

/// Why no answer came, in a few words.
fn reason(e: &ureq::Error) -> String {
    match e {
        ureq::Error::Timeout(_) => "no answer within the timeout".to_string(),
        ureq::Error::HostNotFound => "the host name does not resolve".to_string(),
        ureq::Error::ConnectionFailed => "the connection failed".to_string(),
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => "connection refused".to_string(),
        ureq::Error::Io(io) => io.to_string(),
        other => other.to_string(),
    }
}
