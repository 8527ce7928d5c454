//! THE proof of ADR-0067 under SIGKILL: no Effect runs twice, and every run settles.
//!
//! The test binary runs itself again as a child host (`JR2_HOST_CHILD=<folder>`) over one SQLite
//! database: it restores what the last child left, starts runs (one each 25 ms) until the store
//! holds [`runs`] of them, and waits until none is live. Each run appends a line to one file with a `command`
//! Effect (non-idempotent, `/bin/sh`, no retry), waits 50 ms on a timer, and appends a second
//! line: each line names its run and Effect. The parent SIGKILLs the child at a random moment,
//! [`kills`] times (10, 50 under `JR2_SLOW`), then lets one child run to the end. Then: every
//! run is `done`; no line appears twice (an Effect whose outcome a kill lost was not run again:
//! its row settled `{ outcome: "unknown" }`); every Effect settled `exited` left its line; and
//! the counts are printed. `JR2_HOST_SEED` replays a run's random choices (it prints its seed).

#[allow(dead_code)]
mod common;

use serde_json::json;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::{Limits, Outcome, RunFilter, RunStatus, Store, MAX_PAGE};
use store_sqlite::SqliteStore;

/// Runs in the store at the end: 40, 150 under `JR2_SLOW` (so that its kills land among them).
fn runs() -> usize {
    if std::env::var_os("JR2_SLOW").is_some() {
        150
    } else {
        40
    }
}

fn kills() -> usize {
    if std::env::var_os("JR2_SLOW").is_some() {
        50
    } else {
        10
    }
}

const CHART: &str = r##"{ "id": "crash", "initial": "first", "states": {
    "first": { "invoke": { "src": "append",
        "input": { "line": { "$ref": "context.input.a" }, "file": { "$ref": "context.input.file" } }, "onDone": "pause" } },
    "pause": { "after": { "50": "second" } },
    "second": { "invoke": { "src": "append",
        "input": { "line": { "$ref": "context.input.b" }, "file": { "$ref": "context.input.file" } }, "onDone": "done" } },
    "done": { "type": "final" } } }"##;

/// The Effect: a pause, the line appended, a pause (so that kills land before, between and after).
const SCRIPT: &str = "sleep 0.02; echo \"$1\" >> \"$2\"; sleep 0.02";

fn main() {
    match std::env::var_os("JR2_HOST_CHILD") {
        Some(dir) => child(Path::new(&dir)),
        None => parent(),
    }
}

fn machine() -> ir::Machine {
    common::machine(CHART, "append", &["/bin/sh", "-c", SCRIPT, "sh", "{line}", "{file}"], false)
}

/// A child host: restore, start the runs still to start, wait for every run to settle.
fn child(dir: &Path) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let host = common::host(dir).with_executor("command", Arc::new(host::CommandExecutor::default()));
        host.restore().await.expect("restore");
        let filter = RunFilter { workflow: Some("crash".into()), limit: MAX_PAGE, ..RunFilter::default() };
        let have = host.store().read().unwrap().runs(&filter).unwrap().len();
        let file = dir.join("lines");
        for i in have..runs() {
            let token = format!("{}-{i}", std::process::id());
            let input = json!({ "a": format!("{token}/a"), "b": format!("{token}/b"), "file": file });
            host.start("crash", machine(), Some(input)).await.expect("a run starts");
            // Starts spread over a second: kills land among starts as well as Effects and timers.
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let live = host.store().read().unwrap().live_runs(None, MAX_PAGE).unwrap().len();
            if live == 0 {
                break;
            }
            assert!(Instant::now() < end, "{live} runs still live after 60 s: {:?}", host.log());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    println!("child: every run settled");
    std::process::exit(0);
}

/// A small xorshift generator: the kill points need variety and a replay, not statistics.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn parent() {
    let dir = common::TempDir::new();
    let seed = std::env::var("JR2_HOST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64) | 1
    });
    println!("crash: seed {seed} (JR2_HOST_SEED replays it)");
    let mut rng = Rng(seed);
    let spawn = || common::spawn_child(dir.path());
    let mut killed = 0;
    for round in 0..kills() {
        let mut child = spawn();
        std::thread::sleep(Duration::from_millis(20 + rng.next() % 300));
        if child.try_wait().expect("the child's status").is_some() {
            println!("round {round}: the child ended before its kill");
            continue;
        }
        child.kill().expect("SIGKILL");
        child.wait().expect("the killed child is reaped");
        killed += 1;
    }
    let mut last = spawn();
    let end = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = last.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > end {
            let _ = last.kill();
            panic!("the last child did not settle every run in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "the last child failed: {status}");
    // A command a kill orphaned may still be writing its line: it ends within its own pauses.
    std::thread::sleep(Duration::from_millis(200));

    let store = SqliteStore::open(&dir.path().join("jr2.db"), Limits::default()).expect("the store reopens");
    let read = store.read().unwrap();
    let runs = read.runs(&RunFilter { limit: MAX_PAGE, ..RunFilter::default() }).unwrap();
    assert_eq!(runs.len(), self::runs(), "every run was started once");
    let text = std::fs::read_to_string(dir.path().join("lines")).unwrap_or_default();
    let mut lines: HashMap<&str, usize> = HashMap::new();
    for line in text.lines() {
        *lines.entry(line).or_default() += 1;
    }
    let twice: Vec<_> = lines.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "Effects that ran twice: {twice:?}");
    let (mut exited, mut unknown) = (0, 0);
    for run in &runs {
        assert_eq!(run.status, RunStatus::Done, "run {} is {}", run.id, run.status);
        let intents = read.intents_of(&run.id).unwrap();
        assert_eq!(intents.len(), 2, "run {}: one intent per Effect: {intents:?}", run.id);
        for intent in intents {
            let input: serde_json::Value = serde_json::from_str(intent.input.as_deref().unwrap()).unwrap();
            let line = input["line"].as_str().unwrap();
            match intent.outcome {
                Some(Outcome::Done(ref o)) if o.contains("\"exited\"") => {
                    assert!(o.contains("\"code\":0"), "{o}");
                    assert_eq!(lines.get(line), Some(&1), "an Effect settled exited left its line once: {line}");
                    exited += 1;
                }
                Some(Outcome::Done(ref o)) if o == &host::unknown_outcome().to_string() => unknown += 1,
                ref other => panic!("intent {}: {other:?}", intent.id),
            }
        }
    }
    println!(
        "crash: {killed} kills, {} runs done, {} lines each once; {exited} Effects settled exited, {unknown} unknown (a kill lost their outcome)",
        runs.len(),
        lines.len()
    );
}
