//! Restore of a timer under SIGKILL (issue 35's must-show; statelyai/xstate#5331 loses a pending
//! delay on restore): a run waiting on a 2 s `after` survives a SIGKILL of its host process at
//! 1 s and a restart, and fires about 1 s after the restart, not 2.
//!
//! The test binary runs itself again as the host (`JR2_HOST_CHILD=<folder>`, as crash.rs does):
//! the child restores what the store holds, starts the run where there is none, and exits once
//! no run is live. The parent starts a child, SIGKILLs it 1 s after the run's start, starts a
//! second child, and reads the run's end from the store.

#[allow(dead_code)]
mod common;

use std::path::Path;
use std::time::{Duration, Instant};
use store::{Limits, RunFilter, RunStatus, Store, MAX_PAGE};
use store_sqlite::SqliteStore;

const CHART: &str = r##"{ "id": "wait", "initial": "waiting", "states": {
    "waiting": { "after": { "2000": "fired" } },
    "fired": { "type": "final" } } }"##;

fn main() {
    match std::env::var_os("JR2_HOST_CHILD") {
        Some(dir) => child(Path::new(&dir)),
        None => parent(),
    }
}

fn child(dir: &Path) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        let host = common::host(dir);
        let restored = host.restore().await.expect("restore");
        println!("restored {} runs, {} timers", restored.runs, restored.timers);
        let filter = RunFilter { limit: MAX_PAGE, ..RunFilter::default() };
        if host.store().read().unwrap().runs(&filter).unwrap().is_empty() {
            let m = common::machine_with(CHART, vec![]);
            host.start("wait", m, None).await.expect("the run starts");
        }
        let end = Instant::now() + Duration::from_secs(20);
        while !host.store().read().unwrap().live_runs(None, MAX_PAGE).unwrap().is_empty() {
            assert!(Instant::now() < end, "the run is still live after 20 s: {:?}", host.log());
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });
    std::process::exit(0);
}

fn parent() {
    let dir = common::TempDir::new();
    let spawn = || common::spawn_child(dir.path());
    let db = dir.path().join("jr2.db");
    let mut first = spawn();
    // The run's start, as the store has it (the host's clock: ms since the epoch).
    let deadline = Instant::now() + Duration::from_secs(20);
    let started = loop {
        if db.exists() {
            if let Ok(store) = SqliteStore::open(&db, Limits::default()) {
                let runs = store.read().unwrap().runs(&RunFilter { limit: 10, ..RunFilter::default() }).unwrap();
                if let Some(r) = runs.first() {
                    break r.created_at;
                }
            }
        }
        assert!(Instant::now() < deadline, "the first child started no run");
        std::thread::sleep(Duration::from_millis(5));
    };
    let kill_at = started + 1_000;
    std::thread::sleep(Duration::from_millis(kill_at.saturating_sub(host::now())));
    assert!(first.try_wait().unwrap().is_none(), "the first child ended before its kill");
    first.kill().expect("SIGKILL");
    first.wait().unwrap();
    let killed = host::now();
    let store = SqliteStore::open(&db, Limits::default()).unwrap();
    let run = store.read().unwrap().runs(&RunFilter { limit: 10, ..RunFilter::default() }).unwrap().remove(0);
    assert_eq!(run.status, RunStatus::Live, "the kill came before the timer fired");
    drop(store);

    let restarted = host::now();
    let mut second = spawn();
    let status = second.wait().unwrap();
    assert!(status.success(), "the second child: {status}");
    let store = SqliteStore::open(&db, Limits::default()).unwrap();
    let run = store.read().unwrap().runs(&RunFilter { limit: 10, ..RunFilter::default() }).unwrap().remove(0);
    assert_eq!(run.status, RunStatus::Done);
    let fired = run.updated_at;
    let after_start = fired - started;
    let after_restart = fired - restarted;
    println!(
        "timer_restore: killed at {} ms, restarted at {} ms, fired at {after_start} ms after the start, {after_restart} ms after the restart",
        killed - started,
        restarted - started
    );
    assert!((1_950..2_400).contains(&after_start), "fires at its deadline, 2 s after the start: {after_start} ms");
    assert!(after_restart < 1_400, "about 1 s after the restart, not 2: {after_restart} ms");
}
