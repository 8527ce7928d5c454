//! What a durable macrostep costs the store, against a bare SQLite commit with the same settings
//! (WAL, `synchronous=FULL`), in one run on one disk; what group commit saves; how long a restore
//! of 10 000 live runs reads.
//!
//! usage: cargo bench -p store-sqlite --bench commit [-- N]
//! (N commits per measure, 300 by default). The database is in cargo's target temporary folder,
//! on the disk the target is on (not a tmpfs, whose fsync costs nothing). Prints one line per
//! measure: the median and the 99th percentile of one commit, in ms.

use rusqlite::Connection;
use std::path::Path;
use std::time::Instant;
use store::{Intent, Limits, NewRun, RunStatus, RunUpdate, Store, StoreExt, Timer};
use store_sqlite::SqliteStore;

const IDENTITY: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

fn main() {
    let n: usize = std::env::args().skip(1).find(|a| a != "--bench").and_then(|a| a.parse().ok()).unwrap_or(300);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("store-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the bench's folder");
    // A snapshot of about 2 KiB, as a small Workflow's is.
    let snapshot = format!("{{\"format\":1,\"context\":\"{}\"}}", "x".repeat(2000));

    let bare = bare_commits(&dir.join("bare.db"), &snapshot, n);
    report("bare SQLite commit (one UPDATE)", &bare, 1);

    let store = SqliteStore::open(&dir.join("store.db"), Limits::default()).expect("the store opens");
    store
        .transaction(|tx| {
            tx.put_ir(IDENTITY, "{}")?;
            for r in 0..64 {
                tx.create_run(&run(&format!("r{r}"), &snapshot))?;
            }
            Ok(())
        })
        .expect("seeded");
    let clock = &mut Clock { next: 0, timers: vec![None; 64] };
    let single = macrosteps(&store, &snapshot, n, 1, clock);
    report("store macrostep (read, save, intent, timer)", &single, 1);
    let grouped = macrosteps(&store, &snapshot, n / 4 + 1, 32, clock);
    report("store, 32 runs' macrosteps per commit", &grouped, 32);
    let ratio = median(&single) / median(&bare);
    println!("macrostep / bare commit: {ratio:.2}x (median)");

    restore(&dir.join("restore.db"), &snapshot);
    let _ = std::fs::remove_dir_all(&dir);
}

fn run(id: &str, snapshot: &str) -> NewRun {
    NewRun {
        id: id.into(),
        workflow: "bench".into(),
        identity: IDENTITY.into(),
        status: RunStatus::Live,
        snapshot: snapshot.into(),
        input: Some("{}".into()),
        created_at: 1,
        parent: None,
        dispatch_key: None,
    }
}

/// `n` commits of one UPDATE of a row as large as the snapshot, on a connection with the store's
/// settings: the floor a durable macrostep is measured against.
fn bare_commits(db: &Path, snapshot: &str, n: usize) -> Vec<f64> {
    let conn = Connection::open(db).expect("opens");
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).expect("WAL");
    conn.execute_batch(
        "PRAGMA synchronous = FULL;
         CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT;
         INSERT OR REPLACE INTO t VALUES (1, '');",
    )
    .expect("the table");
    (0..n)
        .map(|i| {
            let t = Instant::now();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            conn.execute("UPDATE t SET v = ?1 WHERE id = 1", [format!("{snapshot}{i}")]).unwrap();
            conn.execute_batch("COMMIT").unwrap();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

/// The incarnations the macrosteps have taken, and each run's timer.
struct Clock {
    next: u64,
    timers: Vec<Option<u64>>,
}

/// `n` commits, each the macrosteps of `runs` runs: read the run, save its snapshot, write an
/// intent, set a timer and delete the one before.
fn macrosteps(store: &SqliteStore, snapshot: &str, n: usize, runs: usize, clock: &mut Clock) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            store
                .transaction(|tx| {
                    for r in 0..runs {
                        clock.next += 1;
                        let next = clock.next;
                        let id = format!("r{r}");
                        let step = tx.run(&id)?.expect("seeded").head.step;
                        let update = RunUpdate { status: RunStatus::Live, snapshot: snapshot.into(), updated_at: next };
                        tx.update_run(&id, step, &update)?;
                        tx.put_intent(&Intent::new(
                            format!("i{next}"),
                            &id,
                            "0.a",
                            next,
                            "a",
                            "effect",
                            None,
                            false,
                            next,
                        ))?;
                        tx.put_timer(&Timer {
                            run: id.clone(),
                            id: "t".into(),
                            incarnation: next,
                            due: next,
                            event: None,
                        })?;
                        if let Some(before) = clock.timers[r].replace(next) {
                            tx.delete_timer(&id, "t", before)?;
                        }
                    }
                    Ok(())
                })
                .expect("a macrostep commits");
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

/// 10 000 live runs written, then read back as a host restores them at start (pages of 1 000).
fn restore(db: &Path, snapshot: &str) {
    let store = SqliteStore::open(db, Limits::default()).expect("opens");
    store
        .transaction(|tx| {
            tx.put_ir(IDENTITY, "{}")?;
            for r in 0..10_000 {
                tx.create_run(&run(&format!("r{r:05}"), snapshot))?;
            }
            Ok(())
        })
        .expect("10 000 runs");
    drop(store);
    let t = Instant::now();
    let store = SqliteStore::open(db, Limits::default()).expect("reopens");
    let read = store.read().expect("a read view");
    let (mut count, mut after) = (0, None::<String>);
    loop {
        let page = read.live_runs(after.as_deref(), 1000).expect("a page");
        let Some(last) = page.last() else { break };
        after = Some(last.head.id.clone());
        count += page.len();
    }
    println!("restore: open and read {count} live runs (2 KiB snapshots): {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
}

fn median(ms: &[f64]) -> f64 {
    percentile(ms, 0.5)
}

fn percentile(ms: &[f64], p: f64) -> f64 {
    let mut sorted = ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(what: &str, ms: &[f64], runs: usize) {
    let (p50, p99) = (median(ms), percentile(ms, 0.99));
    let per_second = runs as f64 * 1e3 / p50;
    println!("{what}: p50 {p50:.3} ms, p99 {p99:.3} ms per commit ({per_second:.0} run macrosteps/s at p50)");
}
