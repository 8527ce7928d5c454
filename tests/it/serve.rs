//! `jr2 serve` and `jr2 up` as processes, over loopback: a server SIGKILLed with one run waiting
//! at a Gate and one on an `after`, restarted on the same database, finishes both; SIGTERM stops
//! it cleanly (`server.json` removed); `jr2 up` starts a server where none runs and publishes,
//! and a second `jr2 up` of an edited Workflow leaves a live run on its old IR; an Instance
//! `jr2 check` refuses is refused, exit 1.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = r#"import { defineConfig } from "@jr2/orchestrator";
export default defineConfig({});
"#;

/// `review` waits on the Gate `approver`; `approve` ends the run in `final`.
fn gated(final_state: &str) -> String {
    format!(
        r#"import {{ z }} from "zod";
import {{ defineEvent, jr2Setup }} from "@jr2/orchestrator";

const approve = defineEvent({{ name: "approve", description: "Approve it.", input: z.object({{}}) }});

export const machine = jr2Setup({{
  types: {{}} as {{ context: {{}}; input: {{ topic: string }} }},
  schemas: {{ input: z.object({{ topic: z.string() }}) }},
  events: [approve],
}}).createMachine({{
  id: "gated",
  initial: "review",
  states: {{
    review: {{ invoke: {{ src: "gate", id: "approver" }}, on: {{ approve: "{final_state}" }} }},
    {final_state}: {{ type: "final" }},
  }},
}});
"#
    )
}

const TIMER: &str = r#"import { jr2Setup } from "@jr2/orchestrator";

export const machine = jr2Setup({}).createMachine({
  id: "timer",
  initial: "wait",
  states: { wait: { after: { 1500: "done" } }, done: { type: "final" } },
});
"#;

struct Instance(PathBuf);

impl Instance {
    fn new(name: &str) -> Instance {
        let dir = std::env::temp_dir().join(format!("jr2-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("workflows")).unwrap();
        std::fs::write(dir.join("jr2.config.ts"), CONFIG).unwrap();
        std::fs::write(dir.join("workflows/gated.ts"), gated("approved")).unwrap();
        std::fs::write(dir.join("workflows/timer.ts"), TIMER).unwrap();
        Instance(dir)
    }

    fn token(&self) -> String {
        std::fs::read_to_string(self.0.join(".jr2/token")).unwrap().trim().to_string()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn jr2() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_jr2"));
    c.env_remove("JR2_TOKEN").env("NO_COLOR", "1");
    c
}

/// `jr2 serve DIR --listen 127.0.0.1:0`: the process and the url of its one stdout line.
fn serve(dir: &Path) -> (Child, String) {
    let mut child = jr2()
        .args(["serve", "--offline", "--listen", "127.0.0.1:0"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("jr2 serve: listening on ").unwrap_or_else(|| {
        let mut err = String::new();
        let _ = child.stderr.take().unwrap().read_to_string(&mut err);
        panic!("not the URL line: {line:?}\n{err}")
    });
    (child, url.to_string())
}

/// One request: status and JSON body.
fn call(url: &str, method: &str, path: &str, token: Option<&str>, body: Option<&Value>) -> (u16, Value) {
    let addr = url.strip_prefix("http://").unwrap();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let status = raw.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap();
    let text = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(text).unwrap_or(Value::Null))
}

fn settled(url: &str, run: &str, within: Duration) -> Value {
    let end = Instant::now() + within;
    loop {
        let (_, r) = call(url, "GET", &format!("/runs/{run}"), None, None);
        if r["status"] != "live" || Instant::now() > end {
            return r;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn terminate(child: &mut Child) -> std::process::ExitStatus {
    let ok = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(ok.success());
    child.wait().unwrap()
}

#[test]
fn a_killed_server_restarts_on_its_database_and_finishes_its_runs() {
    let i = Instance::new("kill");
    let (mut first, url) = serve(&i.0);
    let token = i.token();
    assert_eq!(token.len(), 64);
    let server_json: Value =
        serde_json::from_str(&std::fs::read_to_string(i.0.join(".jr2/server.json")).unwrap()).unwrap();
    assert_eq!(server_json["url"], url.as_str());
    assert_eq!(server_json["pid"], first.id());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for f in ["token", "server.json"] {
            let mode = std::fs::metadata(i.0.join(".jr2").join(f)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{f}");
        }
    }
    let (code, gate) = call(&url, "POST", "/workflows/gated/runs", Some(&token), Some(&json!({ "topic": "t" })));
    assert_eq!(code, 201, "{gate}");
    let (code, timer) = call(&url, "POST", "/workflows/timer/runs", Some(&token), None);
    assert_eq!(code, 201, "{timer}");
    let (gate, timer) = (gate["runId"].as_str().unwrap().to_string(), timer["runId"].as_str().unwrap().to_string());
    let (code, _) = call(&url, "POST", "/workflows/gated/runs", Some(&token), Some(&json!({ "topic": 1 })));
    assert_eq!(code, 400, "the door of the Workflow's schemas.input");
    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    let killed_at = Instant::now();
    let (mut second, url) = serve(&i.0);
    let t = settled(&url, &timer, Duration::from_secs(10));
    assert_eq!(t["status"], "done", "{t}");
    assert!(killed_at.elapsed() < Duration::from_secs(8));
    let (_, g) = call(&url, "GET", &format!("/runs/{gate}"), None, None);
    assert_eq!(g["status"], "live", "{g}");
    assert_eq!(g["gates"][0]["gate"], "approver", "{g}");
    assert_eq!(g["gates"][0]["events"][0]["type"], "approve", "{g}");
    let (code, a) =
        call(&url, "POST", &format!("/runs/{gate}/gates/approver"), Some(&token), Some(&json!({ "type": "approve" })));
    assert_eq!(code, 202, "{a}");
    assert_eq!(settled(&url, &gate, Duration::from_secs(10))["status"], "done");
    let status = terminate(&mut second);
    assert!(status.success(), "{status}");
    assert!(!i.0.join(".jr2/server.json").exists(), "a clean stop removes server.json");
}

#[test]
fn jr2_up_starts_a_server_and_publishing_an_edit_keeps_a_live_run_on_its_ir() {
    let i = Instance::new("up");
    let up = jr2().args(["up", "--offline", "--listen", "127.0.0.1:0"]).arg(&i.0).output().unwrap();
    assert_eq!(
        up.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&up.stdout),
        String::from_utf8_lossy(&up.stderr)
    );
    let out = String::from_utf8_lossy(&up.stdout);
    assert!(out.contains("jr2 up: published gated (") && out.contains("changed)"), "{out}");
    let server_json: Value =
        serde_json::from_str(&std::fs::read_to_string(i.0.join(".jr2/server.json")).unwrap()).unwrap();
    let url = server_json["url"].as_str().unwrap().to_string();
    let pid = server_json["pid"].as_u64().unwrap();
    assert!(i.0.join(".jr2/serve.log").exists());
    let token = i.token();
    let (_, old) = call(&url, "POST", "/workflows/gated/runs", Some(&token), Some(&json!({ "topic": "t" })));
    let old = old["runId"].as_str().unwrap().to_string();
    std::fs::write(i.0.join("workflows/gated.ts"), gated("edited")).unwrap();
    let again = jr2().args(["up", "--offline"]).arg(&i.0).output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", String::from_utf8_lossy(&again.stderr));
    let out = String::from_utf8_lossy(&again.stdout);
    assert!(out.contains("published gated (") && out.contains(", changed)"), "{out}");
    assert!(out.contains("published timer (") && out.contains(", unchanged)"), "{out}");
    let (_, new) = call(&url, "POST", "/workflows/gated/runs", Some(&token), Some(&json!({ "topic": "t" })));
    let new = new["runId"].as_str().unwrap().to_string();
    for run in [&old, &new] {
        let (code, _) = call(
            &url,
            "POST",
            &format!("/runs/{run}/gates/approver"),
            Some(&token),
            Some(&json!({ "type": "approve" })),
        );
        assert_eq!(code, 202);
    }
    assert_eq!(settled(&url, &old, Duration::from_secs(10))["configuration"], json!(["approved"]));
    assert_eq!(settled(&url, &new, Duration::from_secs(10))["configuration"], json!(["edited"]));
    let ok = Command::new("kill").args(["-TERM", &pid.to_string()]).status().unwrap();
    assert!(ok.success());
    let end = Instant::now() + Duration::from_secs(10);
    while i.0.join(".jr2/server.json").exists() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!i.0.join(".jr2/server.json").exists(), "the background server stopped");
}

#[test]
fn an_instance_jr2_check_refuses_is_not_served() {
    let i = Instance::new("refused");
    std::fs::write(i.0.join("workflows/timer.ts"), TIMER.replace("\"done\" }", "\"nowhere\" }")).unwrap();
    let o = jr2().args(["serve", "--offline", "--listen", "127.0.0.1:0"]).arg(&i.0).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "no URL line");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("error[") && err.contains("timer.ts"), "{err}");
    assert!(!i.0.join(".jr2/server.json").exists());
}
