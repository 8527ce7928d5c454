//! The clients against the real `jr2 serve`: the example Instance's `release-check` (a command, a
//! timer, a Gate; no model, no network) run with `jr2 run`, answered with `jr2 answer`, read with
//! `jr2 status` and `jr2 runs`, cancelled with `jr2 cancel`; each client finds the server and the
//! token from the Instance's `.jr2/` as a person at a terminal would.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == ".jr2") {
            continue;
        }
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

/// A running `jr2 serve` over a copy of the example Instance; killed when dropped.
struct Served {
    dir: PathBuf,
    child: Child,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn serve(name: &str) -> Served {
    let dir = std::env::temp_dir().join(format!("jr2-serve-client-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&base::workspace::root().join("examples/instance"), &dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .arg(&dir)
        .env_remove("JR2_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start jr2 serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.starts_with("jr2 serve: listening on http://127.0.0.1:"), "{line:?}");
    assert!(dir.join(".jr2/server.json").is_file() && dir.join(".jr2/token").is_file());
    Served { dir, child }
}

fn jr2(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(args)
        .current_dir(dir)
        .env_remove("JR2_TOKEN")
        .output()
        .expect("run jr2")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The newest run's id, once there are `n` runs.
fn newest(dir: &Path, n: usize) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let o = jr2(dir, &["runs", "--json"]);
        let doc: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
        let runs = doc["runs"].as_array().cloned().unwrap_or_default();
        if runs.len() >= n {
            return runs[0]["runId"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < until, "no run {n}: {}", text(&o.stderr));
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until the run waits at its `reviewer` Gate (the command ran, the 1 s timer fired).
fn at_gate(dir: &Path, id: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let o = jr2(dir, &["status", id, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let run: Value = serde_json::from_slice(&o.stdout).unwrap();
        if run["gates"].as_array().is_some_and(|g| g.iter().any(|g| g["gate"] == "reviewer")) {
            return run;
        }
        assert!(Instant::now() < until, "the run never waited at its Gate: {run}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn follow(dir: &Path, input: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_jr2"))
        .args(["run", "release-check", "--input", input])
        .current_dir(dir)
        .env_remove("JR2_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `jr2 run` follows release-check to `done` (exit 0, its output on stdout) once `jr2 answer`
/// approves at its Gate; a `reject` ends the next run `failed` with its reason (exit 1, the end
/// named on stderr); `jr2 cancel` ends a third `cancelled`, and a second cancel is refused.
#[test]
fn release_check_runs_on_jr2_serve() {
    let served = serve("release");
    let dir = served.dir.join("workflows");

    let run = follow(&dir, r#"{"version":"1.2.0"}"#);
    let id = newest(&dir, 1);
    let waiting = at_gate(&dir, &id);
    assert_eq!(waiting["status"], "live");
    let types: Vec<&str> =
        waiting["gates"][0]["events"].as_array().unwrap().iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(types, ["approve", "reject"]);
    let human = text(&jr2(&dir, &["status", &id]).stdout);
    assert!(human.contains(&format!("approve: jr2 answer {id} reviewer approve")), "{human}");
    let o = jr2(&dir, &["answer", &id, "reviewer", "approve"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = run.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains(&format!("run {id} waits at Gate reviewer")), "{err}");
    assert_eq!(err.lines().last(), Some(format!("jr2: run {id} ended done").as_str()), "{err}");
    let output: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((output["version"].as_str(), output["approved"].as_bool()), (Some("1.2.0"), Some(true)), "{output}");
    assert_eq!(output["git"]["outcome"], "exited", "{output}");

    let run = follow(&dir, r#"{"version":"1.3.0"}"#);
    let id = newest(&dir, 2);
    at_gate(&dir, &id);
    let o = jr2(&dir, &["answer", &id, "reviewer", "reject", "--payload", r#"{"reason":"no changelog"}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = run.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(
        err.lines().last(),
        Some(format!("jr2: run {id} ended failed: rejected at review: no changelog").as_str()),
        "{err}"
    );
    let o = jr2(&dir, &["answer", &id, "reviewer", "approve"]);
    assert_eq!(o.status.code(), Some(1), "the Gate no longer waits: {}", text(&o.stderr));

    let o = jr2(&dir, &["run", "release-check", "--detach", "--input", r#"{"version":"1.4.0"}"#]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let id = text(&o.stdout).trim().to_string();
    assert_eq!(text(&jr2(&dir, &["cancel", &id]).stdout), format!("run {id} cancelled\n"));
    assert_eq!(jr2(&dir, &["cancel", &id]).status.code(), Some(1));
    let o = jr2(&dir, &["runs", "--status", "done"]);
    assert_eq!(text(&o.stdout).lines().count(), 2, "a header and one done run: {}", text(&o.stdout));
}
