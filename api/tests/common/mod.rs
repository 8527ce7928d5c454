//! What the API's tests share: a real server on port 0 over loopback (its own tokio runtime, its
//! store in SQLite in a fresh folder), a small HTTP/1.1 client over a socket (so that a test can
//! send what no client library would: a 100 MB body, a malformed one), and the Workflows it runs.

use api::{Api, Assembly, Limits, Options, Published};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub(crate) const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// A folder of its own, removed when dropped.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    pub(crate) fn new() -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "jr2-api-{}-{}-{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A server running; stopped when dropped.
pub(crate) struct Server {
    pub(crate) addr: SocketAddr,
    pub(crate) api: Api,
    pub(crate) rt: tokio::runtime::Runtime,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    _dir: TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

pub(crate) fn server(workflows: Vec<Published>) -> Server {
    let dir = TempDir::new();
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let (addr, api) = rt.block_on(async {
        let store = store_sqlite::SqliteStore::open(&dir.0.join("jr2.db"), store::Limits::default()).unwrap();
        let host = host::Host::new(Arc::new(store), host::Config { work_dir: dir.0.join("effects") });
        let assembly = Assembly::load(workflows).expect("the test's Assembly loads");
        let options = Options {
            token: TOKEN.into(),
            limits: Limits::default(),
            instance: dir.0.clone(),
            version: "0.0.0-test".into(),
        };
        let api = Api::new(host, assembly, options);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let served = api.clone();
        tokio::spawn(async move {
            api::serve(listener, served, async {
                let _ = rx.await;
            })
            .await
            .unwrap()
        });
        (addr, api)
    });
    Server { addr, api, rt, stop: Some(tx), _dir: dir }
}

/// A response: status, headers (lower-cased names) and body.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: String,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", String::from_utf8_lossy(&self.body)))
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl Server {
    /// One request on its own connection (`Connection: close`), its whole response read.
    pub(crate) fn call(&self, method: &str, path: &str, token: Option<&str>, body: Option<&[u8]>) -> Reply {
        let mut s = TcpStream::connect(self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n");
        if let Some(t) = token {
            head.push_str(&format!("Authorization: Bearer {t}\r\n"));
        }
        if let Some(b) = body {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", b.len()));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        if let Some(b) = body {
            s.write_all(b).unwrap();
        }
        read_reply(&mut s)
    }

    pub(crate) fn get(&self, path: &str) -> Reply {
        self.call("GET", path, None, None)
    }

    pub(crate) fn post(&self, path: &str, body: &Value) -> Reply {
        self.call("POST", path, Some(TOKEN), Some(body.to_string().as_bytes()))
    }

    /// Waits (at most 10 s) until the run is not live: its status.
    pub(crate) fn settled(&self, run: &str) -> String {
        for _ in 0..1000 {
            let r = self.get(&format!("/runs/{run}")).json();
            if r["status"] != "live" {
                return r["status"].as_str().unwrap().to_string();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        "live".into()
    }
}

pub(crate) fn read_reply(s: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
    let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    let mut body = raw[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        body = unchunk(&body);
    }
    Reply { status, headers: head, body }
}

fn unchunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let n = usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.extend_from_slice(&b[eol + 2..(eol + 2 + n).min(b.len())]);
        b = &b[(eol + 4 + n).min(b.len())..];
    }
    out
}

/// A Chart lowered, `edit` applied.
pub(crate) fn chart(text: &str, edit: impl FnOnce(&mut ir::Statechart)) -> ir::Machine {
    let arena = syntax::json::Arena::new();
    let parsed = syntax::json::parse(text, &arena);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let lowered = chart::lower::lower(&parsed.value, None);
    let mut sc = lowered.machine.statechart().clone();
    edit(&mut sc);
    ir::Machine::lowered(sc)
}

/// `review` waits on the Gate `approver`; its `approve` (the approver's, with a `note`) ends the
/// run `done`, and `output` says which edition ran.
pub(crate) fn gated(edition: &str) -> ir::Machine {
    let text = format!(
        r##"{{ "id": "gated", "initial": "review",
        "states": {{
          "review": {{ "invoke": {{ "src": "gate", "id": "approver" }},
            "on": {{ "approve": [ {{ "guard": {{ "type": "jr2.sentBy", "params": {{ "id": "approver" }} }}, "target": "{edition}" }} ] }} }},
          "{edition}": {{ "type": "final" }} }} }}"##
    );
    chart(&text, |sc| {
        sc.slots.insert(
            "gate".into(),
            ir::Slot {
                kind: ir::SlotKind::Gate,
                effect: None,
                definition: Some(ir::Definition::Gate(Default::default())),
            },
        );
        for s in &mut sc.states {
            for i in s.invokes.iter_mut() {
                i.kind = ir::SlotKind::Gate;
            }
        }
        let schema = json!({ "type": "object", "required": ["note"], "properties": { "note": { "type": "string" } } });
        sc.events.insert(
            "approve".into(),
            ir::EventDecl {
                description: Some("Approve it.".into()),
                input: Some(ir::Json::from(schema)),
                audience: None,
            },
        );
    })
}

/// `wait` leaves after `ms` for `done`.
pub(crate) fn timer(ms: u64) -> ir::Machine {
    chart(
        &format!(
            r#"{{ "id": "timer", "initial": "wait", "states": {{ "wait": {{ "after": {{ "{ms}": "done" }} }}, "done": {{ "type": "final" }} }} }}"#
        ),
        |_| {},
    )
}

pub(crate) fn published(name: &str, ir: Option<ir::Machine>, input: Option<Value>) -> Published {
    Published { name: name.into(), ir, input, listing: None }
}

/// The usual Assembly: `gated` (door: `{ topic: string }`), `timer`, the named Chart
/// `notes/weekly`.
pub(crate) fn assembly() -> Vec<Published> {
    let door = json!({ "type": "object", "required": ["topic"], "properties": { "topic": { "type": "string" } } });
    vec![
        published("gated", Some(gated("approved")), Some(door)),
        published("timer", Some(timer(200)), None),
        published("notes/weekly", None, None),
    ]
}

pub(crate) fn workspace_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}
