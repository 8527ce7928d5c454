//! Durability under SIGKILL: every acknowledged commit is there after a reopen, and no commit is
//! torn.
//!
//! The test binary runs itself again as a child (`JR2_STORE_CHILD=<db>`), which commits
//! transactions in a loop on the store and, after each `commit` returns, writes the commit's
//! number to its stdout (a pipe): that line is the acknowledgement. Each transaction saves the
//! `counter` run (its step is the number of commits), creates run `r<n>` and writes an intent, a
//! timer and an inbox row of it: a torn commit would leave one without the others, or a counter
//! that disagrees with the runs. The parent kills the child with SIGKILL at a random moment (after
//! a random number of acknowledgements and a random pause), reads every acknowledgement the pipe
//! holds, reopens the database and checks it: the commits since the last check whole, the counts
//! of every run and intent. 20 rounds on one database (100 under `JR2_SLOW`), each child going on
//! from where the last was killed. `JR2_STORE_SEED` replays a run's random choices (it prints its seed).
//!
//! A SIGKILL tests a crash of the process; a power cut is what `synchronous=FULL` is for, which no
//! test here can make.

#[allow(dead_code)]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use store::{Intent, Limits, NewInboxEvent, NewRun, RunStatus, RunUpdate, Store, StoreExt, Timer};
use store_sqlite::SqliteStore;

/// Kills per run; 100 under `JR2_SLOW` (CI's slow tests).
fn rounds() -> usize {
    if std::env::var_os("JR2_SLOW").is_some() {
        100
    } else {
        20
    }
}
const IDENTITY: &str = "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd";

fn main() {
    match std::env::var_os("JR2_STORE_CHILD") {
        Some(db) => child(Path::new(&db)),
        None => parent(),
    }
}

fn new_run(id: &str, at: u64) -> NewRun {
    NewRun {
        id: id.into(),
        workflow: "soak".into(),
        identity: IDENTITY.into(),
        status: RunStatus::Live,
        snapshot: format!("{{\"run\":\"{id}\"}}"),
        input: None,
        created_at: at,
        parent: None,
        dispatch_key: None,
    }
}

/// Commit for ever, acknowledging each commit on stdout once it returned.
fn child(db: &Path) {
    let store = SqliteStore::open(db, Limits::default()).expect("the child opens the store");
    store
        .transaction(|tx| {
            tx.put_ir(IDENTITY, "{}")?;
            if tx.run("counter")?.is_none() {
                tx.create_run(&new_run("counter", 0))?;
            }
            Ok(())
        })
        .expect("the child's first commit");
    let mut out = std::io::stdout().lock();
    loop {
        let n = store
            .transaction(|tx| {
                let counter = tx.run("counter")?.expect("the counter run");
                let n = counter.head.step + 1;
                let update = RunUpdate { status: RunStatus::Live, snapshot: format!("{{\"n\":{n}}}"), updated_at: n };
                tx.update_run("counter", counter.head.step, &update)?;
                let id = format!("r{n}");
                tx.create_run(&new_run(&id, n))?;
                tx.put_intent(&Intent::new(format!("i{n}"), &id, "0.call", n, "call", "effect", None, false, n))?;
                tx.put_timer(&Timer { run: id.clone(), id: "t".into(), incarnation: n, due: n, event: None })?;
                tx.push_inbox(&NewInboxEvent {
                    run: id,
                    key: "k".into(),
                    event: "{}".into(),
                    received_at: n,
                    sender: None,
                })?;
                Ok(n)
            })
            .expect("a commit");
        writeln!(out, "{n}").and_then(|()| out.flush()).expect("the acknowledgement is written");
    }
}

/// A small xorshift generator: the kill points need no statistics, only variety and a replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn parent() {
    let seed = std::env::var("JR2_STORE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64) | 1
    });
    println!("durability: seed {seed} (JR2_STORE_SEED replays it)");
    let mut rng = Rng(seed);
    let dir = common::TempDir::new();
    let db = dir.path().join("jr2.db");
    let exe = std::env::current_exe().expect("the test binary's path");
    let (mut acknowledged, mut checked) = (0u64, 0u64);
    let rounds = rounds();
    for round in 0..rounds {
        let mut child = Command::new(&exe)
            .env("JR2_STORE_CHILD", &db)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the child starts");
        let mut lines = BufReader::new(child.stdout.take().expect("its stdout"));
        let wait_for = 1 + rng.below(60);
        let started = Instant::now();
        let mut line = String::new();
        let mut seen = 0;
        while seen < wait_for {
            line.clear();
            let read = lines.read_line(&mut line).expect("the pipe reads");
            assert!(read > 0, "round {round}: the child ended before it was killed");
            acknowledged = acknowledged.max(line.trim().parse().expect("an acknowledgement is a number"));
            seen += 1;
            assert!(started.elapsed() < Duration::from_secs(60), "round {round}: the child commits too slowly");
        }
        std::thread::sleep(Duration::from_micros(rng.below(5_000)));
        child.kill().expect("SIGKILL");
        child.wait().expect("the child is reaped");
        // Every whole line in the pipe was written after its commit returned: each is an
        // acknowledgement too. A line cut by the kill is not.
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut lines, &mut rest).expect("the rest of the pipe");
        for l in rest.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
            acknowledged = acknowledged.max(l.trim().parse().expect("an acknowledgement is a number"));
        }
        let committed = check(&db, round, checked + 1);
        checked = committed;
        assert!(
            committed >= acknowledged,
            "round {round}: {acknowledged} commits were acknowledged, the database holds {committed}"
        );
        println!("round {round}: killed after {acknowledged} acknowledged commits; {committed} are there, whole");
    }
    println!("durability: {rounds} kills, {acknowledged} acknowledged commits, every one there and none torn");
}

/// Reopen the database and check that the commits from `from` on are whole and that it holds as
/// many runs and intents as commits; the number of commits it holds.
fn check(db: &Path, round: usize, from: u64) -> u64 {
    let store = SqliteStore::open(db, Limits::default()).expect("the database reopens after a kill");
    let r = store.read().expect("a read view");
    let Some(counter) = r.run("counter").expect("the counter reads") else { return 0 };
    let n = counter.head.step;
    assert_eq!(counter.snapshot, if n == 0 { "{\"run\":\"counter\"}".to_string() } else { format!("{{\"n\":{n}}}") });
    for i in from.min(n.max(1))..=n {
        let id = format!("r{i}");
        let whole = r.run(&id).expect("reads").is_some()
            && r.intent(&format!("i{i}")).expect("reads").is_some_and(|x| x.run == id)
            && r.timers_of(&id).expect("reads").len() == 1
            && r.inbox(&id, 10).expect("reads").len() == 1;
        assert!(whole, "round {round}: commit {i} of {n} is torn or missing");
    }
    assert!(r.run(&format!("r{}", n + 1)).expect("reads").is_none(), "round {round}: a run past the counter");
    let (mut live, mut after) = (0u64, None);
    loop {
        let page = r.live_runs(after.as_deref(), 1000).expect("the live runs read");
        let Some(last) = page.last() else { break };
        after = Some(last.head.id.clone());
        live += page.len() as u64;
    }
    assert_eq!(live, n + 1, "round {round}: the runs and the counter disagree");
    let (mut intents, mut after) = (0u64, None);
    loop {
        let page = r.unsettled_intents(after.as_deref(), 1000).expect("the intents read");
        let Some(last) = page.last() else { break };
        after = Some(last.id.clone());
        intents += page.len() as u64;
    }
    assert_eq!(intents, n, "round {round}: the intents and the counter disagree");
    n
}
