//! The foreign doors of `jr2 check`, over HTTP: `GET <url>/workflows/<name>` with no token and no
//! redirect followed (ADR-0071). The compiler knows no network; it reads doors through
//! [`DoorSource`], which this implements with ureq (blocking, small).
//!
//! Short timeouts (3 s to connect, 5 s in all): a check in CI must not hang on a host that drops
//! packets, and every outcome here is only a warning. Each distinct url and name is read once per
//! run, whatever the number of Instances or dispatches naming it. A body is read up to 1 MiB.

use check::doors::{door_url, DoorSource, Fetched};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// The most of a door's body read: a Workflow detail is small, and a runaway answer is not read.
const BODY_LIMIT: u64 = 1 << 20;

/// Reads foreign doors over HTTP, each `(url, name)` once.
pub(super) struct HttpDoors {
    agent: ureq::Agent,
    seen: Mutex<HashMap<(String, String), Fetched>>,
}

impl HttpDoors {
    pub(super) fn new() -> Self {
        let agent = ureq::Agent::config_builder()
            .timeout_connect(Some(Duration::from_secs(3)))
            .timeout_global(Some(Duration::from_secs(5)))
            .max_redirects(0)
            .max_redirects_will_error(false)
            .http_status_as_error(false)
            .user_agent(concat!("jr2/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        HttpDoors { agent, seen: Mutex::default() }
    }

    fn get(&self, address: &str) -> Fetched {
        let mut response = match self.agent.get(address).header("Accept", "application/json").call() {
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
