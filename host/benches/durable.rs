//! The durable host's figures (issue 35's "What it must show"), in one run on one disk:
//!
//! 1. **A durable macrostep against a bare SQLite commit**: an event sent to a live run through
//!    [`Host::send`] (its inbox row, the step, the snapshot saved: one commit), one after another,
//!    interleaved with commits of one UPDATE of a row as large as the run's snapshot on a bare
//!    connection with the store's settings (WAL, `synchronous=FULL`). Goal: at most 1.25x.
//! 2. **Restore of 10 000 live runs**: a store holding 10 000 live runs (most waiting for an
//!    event, some on a timer an hour away, some with an Effect started and unsettled, idempotent
//!    or not, some with an event waiting in the inbox), opened and restored ([`Host::restore`]) by
//!    a new host. Goal: under 1 s.
//! 3. **Load**: 32 concurrent tasks each starting runs, then each sending an event to each of its
//!    runs; starts and events per second and the p50/p99 of one call, with and without group
//!    commit.
//!
//! usage: cargo bench -p host --bench durable [-- N]
//! (N macrosteps for 1, 300 by default; 3 starts 32 x N/4 runs, at least 32 x 32). The databases
//! are in cargo's target temporary folder, on the disk the target is on (not a tmpfs, whose
//! `fsync` costs nothing).

// The host's tests' helpers: Charts lowered with their Effect slots put in.
#[allow(dead_code)]
#[path = "../tests/common/mod.rs"]
mod common;

use host::{Config, FnExecutor, Host, Job};
use runtime::Outcome;
use rusqlite::Connection;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use store::{Limits, NewInboxEvent, Store};
use store_sqlite::SqliteStore;

/// A run that counts the events it takes and stays live.
const COUNTER: &str = r##"{ "id": "counter", "initial": "on", "context": { "n": 0 },
    "states": { "on": { "on": { "inc": { "actions": [{ "assign": { "n": { "$ref": "event.n" } } }] } } } } }"##;

/// A run that waits for `go`.
const WAITS: &str = r##"{ "id": "waits", "initial": "idle",
    "states": { "idle": { "on": { "go": "gone" } }, "gone": { "type": "final" } } }"##;

/// A run that waits an hour.
const TIMER: &str = r##"{ "id": "timer", "initial": "wait",
    "states": { "wait": { "after": { "3600000": "late" } }, "late": { "type": "final" } } }"##;

/// A run that invokes an Effect, which never ends in this bench.
const EFFECT: &str = r##"{ "id": "effect", "initial": "work",
    "states": { "work": { "invoke": { "src": "effect", "onDone": "ok", "onError": "ok" } },
      "ok": { "type": "final" } } }"##;

fn main() {
    let n: usize = std::env::args().skip(1).find(|a| a != "--bench").and_then(|a| a.parse().ok()).unwrap_or(300);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("host-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the bench's folder");
    println!("load average at start: {}", load_average());
    macrostep(&dir.join("macrostep"), n);
    for grouped in [true, false] {
        restore(&dir.join(format!("restore-{grouped}")), 10_000, grouped);
    }
    let per_task = (n / 4).max(32);
    for grouped in [true, false] {
        load(&dir.join(format!("load-{grouped}")), 32, per_task, grouped);
    }
    println!("load average at end: {}", load_average());
    let _ = std::fs::remove_dir_all(&dir);
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime")
}

fn host(dir: &Path, grouped: bool) -> (Host, Arc<SqliteStore>) {
    std::fs::create_dir_all(dir).expect("a folder");
    let store = Arc::new(SqliteStore::open(&dir.join("jr2.db"), Limits::default()).expect("the store opens"));
    let pending = FnExecutor(|_job: Job| std::future::pending::<Outcome>());
    let host = Host::new(store.clone(), Config { work_dir: dir.join("effects") })
        .with_executor("command", Arc::new(pending))
        .with_group_commit(grouped);
    (host, store)
}

/// A Chart lowered; its slot `effect` (where it invokes one) a `command` Effect running `true`.
fn machine(chart: &str, idempotent: bool) -> ir::Machine {
    common::machine(chart, "effect", &["true"], idempotent)
}

/// 1: `n` durable macrosteps through the host, each after one bare commit of a row as large as
/// the run's snapshot, on a connection with the store's settings.
fn macrostep(dir: &Path, n: usize) {
    let rt = runtime();
    let (host, store) = host(dir, true);
    let run = rt.block_on(host.start("counter", machine(COUNTER, false), None)).expect("a run starts");
    let size = store.read().unwrap().run(&run).unwrap().unwrap().snapshot.len();
    let bare = bare_connection(&dir.join("bare.db"));
    let (mut bare_ms, mut step_ms) = (Vec::new(), Vec::new());
    for i in 0..n {
        let t = Instant::now();
        bare_commit(&bare, &format!("{}{i}", "x".repeat(size)));
        bare_ms.push(ms(t));
        let t = Instant::now();
        rt.block_on(host.send(&run, json!({ "type": "inc", "n": i }))).expect("a macrostep commits");
        step_ms.push(ms(t));
    }
    let head = store.read().unwrap().run(&run).unwrap().unwrap().head;
    assert_eq!(head.step as usize, n, "every event was a macrostep saved");
    report(&format!("bare SQLite commit (one UPDATE of {size} bytes)"), &bare_ms);
    report("durable macrostep (Host::send: inbox row, step, snapshot, one commit)", &step_ms);
    println!("durable macrostep / bare commit: {:.2}x (median)", percentile(&step_ms, 0.5) / percentile(&bare_ms, 0.5));
}

fn bare_connection(db: &Path) -> Connection {
    let conn = Connection::open(db).expect("opens");
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).expect("WAL");
    conn.execute_batch(
        "PRAGMA synchronous = FULL;
         CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT;
         INSERT OR REPLACE INTO t VALUES (1, '');",
    )
    .expect("the table");
    conn
}

fn bare_commit(conn: &Connection, value: &str) {
    conn.execute_batch("BEGIN IMMEDIATE").unwrap();
    conn.execute("UPDATE t SET v = ?1 WHERE id = 1", [value]).unwrap();
    conn.execute_batch("COMMIT").unwrap();
}

/// 2: `total` live runs written through a host (32 tasks starting them), then a new host opens
/// the store and restores them, its commits grouped or not.
fn restore(dir: &Path, total: usize, grouped: bool) {
    let effects = total / 10;
    let timers = total / 5;
    let inbox = total / 100;
    {
        let rt = runtime();
        let (host, store) = host(dir, true);
        let plan: Vec<(&str, ir::Machine)> = (0..total)
            .map(|i| match i % 10 {
                0 if i / 10 % 2 == 0 => ("effect", machine(EFFECT, false)),
                0 => ("effect", machine(EFFECT, true)),
                1 | 2 => ("timer", machine(TIMER, false)),
                _ => ("waits", machine(WAITS, false)),
            })
            .collect();
        let plan = Arc::new(plan);
        let t = Instant::now();
        let ids: Vec<String> = rt.block_on(async {
            let mut tasks = Vec::new();
            for task in 0..32 {
                let (host, plan) = (host.clone(), plan.clone());
                tasks.push(tokio::spawn(async move {
                    let mut ids = Vec::new();
                    for (name, m) in plan.iter().skip(task).step_by(32) {
                        ids.push(host.start(name, m.clone(), Some(json!({ "task": task }))).await.expect("a start"));
                    }
                    ids
                }));
            }
            let mut ids = Vec::new();
            for t in tasks {
                ids.extend(t.await.expect("a task"));
            }
            ids
        });
        // Events waiting in some runs' inboxes, as a host that died before taking them left them.
        let waiting: Vec<&String> = ids.iter().step_by(100).collect();
        store::StoreExt::transaction(&*store, |tx| {
            for (k, id) in waiting.iter().enumerate() {
                tx.push_inbox(&NewInboxEvent {
                    run: (*id).clone(),
                    key: format!("left-{k}"),
                    event: json!({ "type": "nothing" }).to_string(),
                    received_at: host::now(),
                    sender: None,
                })?;
            }
            Ok(())
        })
        .expect("inbox rows");
        println!(
            "restore: {total} live runs written by 32 tasks in {:.0} ms ({} transactions)",
            ms(t),
            host.commit_stats().transactions
        );
        drop(host);
        rt.shutdown_background();
    }
    let rt = runtime();
    let t = Instant::now();
    let (host, _store) = host(dir, grouped);
    let restored = rt.block_on(host.restore()).expect("restore");
    let took = ms(t);
    assert_eq!(restored.runs, total, "{restored:?}");
    assert_eq!(restored.timers, timers, "{restored:?}");
    assert_eq!(restored.unknown + restored.rerun, effects, "{restored:?}");
    let mode = if grouped { "group commit" } else { "one commit per step" };
    println!(
        "restore, {mode}: open the store and restore {} live runs ({} timers armed, {} Effects settled unknown, {} run \
         again, {inbox} inboxes taken): {took:.0} ms ({} transactions)",
        restored.runs,
        restored.timers,
        restored.unknown,
        restored.rerun,
        host.commit_stats().transactions
    );
    rt.shutdown_background();
}

/// 3: `tasks` concurrent tasks, each starting `per_task` runs and then sending an event to each.
fn load(dir: &Path, tasks: usize, per_task: usize, grouped: bool) {
    let rt = runtime();
    let (host, _store) = host(dir, grouped);
    let m = machine(WAITS, false);
    let (starts, start_ms, events, event_ms) = rt.block_on(async {
        let t = Instant::now();
        let mut handles = Vec::new();
        for task in 0..tasks {
            let (host, m) = (host.clone(), m.clone());
            handles.push(tokio::spawn(async move {
                let mut out = Vec::new();
                for i in 0..per_task {
                    let t = Instant::now();
                    let id =
                        host.start("waits", m.clone(), Some(json!({ "task": task, "i": i }))).await.expect("a start");
                    out.push((id, ms(t)));
                }
                out
            }));
        }
        let mut runs: Vec<Vec<String>> = Vec::new();
        let mut start_ms = Vec::new();
        for h in handles {
            let (ids, took): (Vec<String>, Vec<f64>) = h.await.expect("a task").into_iter().unzip();
            runs.push(ids);
            start_ms.extend(took);
        }
        let starts = start_ms.len() as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut handles = Vec::new();
        for ids in runs {
            let host = host.clone();
            handles.push(tokio::spawn(async move {
                let mut took = Vec::new();
                for id in ids {
                    let t = Instant::now();
                    host.send(&id, json!({ "type": "go" })).await.expect("an event");
                    took.push(ms(t));
                }
                took
            }));
        }
        let mut event_ms = Vec::new();
        for h in handles {
            event_ms.extend(h.await.expect("a task"));
        }
        let events = event_ms.len() as f64 / t.elapsed().as_secs_f64();
        (starts, start_ms, events, event_ms)
    });
    let stats = host.commit_stats();
    let mode = if grouped { "group commit" } else { "one commit per step" };
    println!(
        "load, {mode}: {tasks} tasks x {per_task} runs: {starts:.0} starts/s (p50 {:.2} ms, p99 {:.2} ms), \
         {events:.0} events/s (p50 {:.2} ms, p99 {:.2} ms); {} transactions for {} writes (at most {} in one)",
        percentile(&start_ms, 0.5),
        percentile(&start_ms, 0.99),
        percentile(&event_ms, 0.5),
        percentile(&event_ms, 0.99),
        stats.transactions,
        stats.writes,
        stats.largest,
    );
    rt.shutdown_background();
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn percentile(ms: &[f64], p: f64) -> f64 {
    let mut sorted = ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(what: &str, ms: &[f64]) {
    println!("{what}: p50 {:.3} ms, p99 {:.3} ms", percentile(ms, 0.5), percentile(ms, 0.99));
}

/// The machine's load average (1, 5, 15 minutes), as `/proc/loadavg` gives it.
fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}
