//! The conformance suite: what every backend of [`Store`] must do, as test functions any backend
//! runs from its own tests (as atuin's server database and DBOS's system database are tested
//! once per backend).
//!
//! A backend implements [`Backend`] (open its one database, again after a drop for a reopen; damage
//! a row behind the store's back) and writes `store::conformance_tests!(|| MyBackend::fresh());`
//! in a test file: one `#[test]` per function below, each on a fresh backend. The functions
//! panic on a broken guarantee, as tests do; the store's own calls never may.

use crate::{
    within, Error, Intent, IntentState, Limits, NewInboxEvent, NewRun, Outcome, Pushed, Read, RunFilter, RunStatus,
    RunUpdate, Store, StoreExt, Timer, KEY_LIMIT,
};
use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};

/// A backend under test: one database, opened as often as a test asks.
pub trait Backend {
    type Store: Store + 'static;
    /// Open the backend's database with these limits. Each call opens the same database: a call
    /// after the last store was dropped is a reopen, and must see every commit before it.
    fn open(&self, limits: Limits) -> Result<Self::Store, Error>;
    /// Damage a stored row as a faulty disk or a foreign writer would, with no store open.
    fn corrupt(&self, damage: &Damage) -> Result<(), Error>;
}

/// A row damaged behind the store's back ([`Backend::corrupt`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The run's status is a word no status has (`"sleeping"`).
    RunStatus { run: String },
    /// The run's snapshot is bytes that are not UTF-8 (`0xff 0xfe`).
    RunSnapshot { run: String },
    /// The run's step is negative (-1), or what the backend's integer type cannot hold as a step.
    RunStep { run: String },
    /// The intent's state is a word no state has.
    IntentState { id: String },
    /// The timer's due time is negative (-5).
    TimerDue { run: String, id: String },
}

/// One `#[test]` per conformance function, each on a fresh backend made by `$new` (a closure).
#[macro_export]
macro_rules! conformance_tests {
    ($new:expr) => {
        $crate::conformance_tests!(@each $new;
            commit_is_visible_after_reopen,
            a_failed_transaction_leaves_nothing,
            a_dropped_transaction_leaves_nothing,
            inbox_takes_each_key_once,
            an_inbox_row_keeps_its_sender,
            timers_come_by_due_time_then_set_order,
            a_stale_step_is_a_conflict,
            racing_writers_one_wins,
            payloads_over_their_limit_are_refused,
            corrupt_rows_are_errors,
            the_ledger_settles_once,
            runs_are_listed_and_found,
            one_transaction_holds_many_runs,
            payloads_come_back_byte_for_byte,
            a_page_ends_at_its_byte_budget,
            random_transactions_match_a_model,
            a_deleted_run_takes_its_rows_and_frees_its_keys,
            a_savepoint_rolls_back_alone,
            a_failed_macrostep_in_a_group_is_rolled_back_alone,
        );
    };
    (@each $new:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $crate::conformance::$name(&($new)());
            }
        )*
    };
}

/// The identity the suite's runs name (64 hex digits, as `Machine::identity()` shows one).
pub const IDENTITY: &str = "1111111111111111111111111111111111111111111111111111111111111111";

fn open<B: Backend>(backend: &B) -> B::Store {
    backend.open(Limits::default()).unwrap_or_else(|e| panic!("the backend opens: {e}"))
}

/// A live run of Workflow `workflow`, created at `at`, its snapshot naming it.
pub fn new_run(id: &str, workflow: &str, at: u64) -> NewRun {
    NewRun {
        id: id.into(),
        workflow: workflow.into(),
        identity: IDENTITY.into(),
        status: RunStatus::Live,
        snapshot: format!(r#"{{"format":1,"run":"{id}"}}"#),
        input: Some(r#"{"n":1}"#.into()),
        created_at: at,
        parent: None,
        dispatch_key: None,
    }
}

fn intent(id: &str, run: &str, incarnation: u64, idempotent: bool) -> Intent {
    Intent::new(id, run, "0.call", incarnation, "call", "effect", Some(r#"{"arg":1}"#.into()), idempotent, 100)
}

fn timer(run: &str, id: &str, incarnation: u64, due: u64) -> Timer {
    Timer { run: run.into(), id: id.into(), incarnation, due, event: None }
}

fn inbox(run: &str, key: &str, event: &str) -> NewInboxEvent {
    NewInboxEvent { run: run.into(), key: key.into(), event: event.into(), received_at: 7, sender: None }
}

fn update(snapshot: &str, status: RunStatus, at: u64) -> RunUpdate {
    RunUpdate { status, snapshot: snapshot.into(), updated_at: at }
}

/// Store the IR and create `ids` as live runs of Workflow `w`, one commit.
fn seed(store: &dyn Store, ids: &[&str]) {
    store
        .transaction(|tx| {
            tx.put_ir(IDENTITY, r#"{"states":[]}"#)?;
            for (n, id) in ids.iter().enumerate() {
                tx.create_run(&new_run(id, "w", 1000 + n as u64))?;
            }
            Ok(())
        })
        .expect("seeding commits");
}

fn read(store: &dyn Store) -> Box<dyn Read + '_> {
    store.read().expect("a read view opens")
}

/// A commit, with every kind of row, is there after the store is dropped and opened again.
pub fn commit_is_visible_after_reopen<B: Backend>(backend: &B) {
    {
        let store = open(backend);
        store
            .transaction(|tx| {
                assert!(tx.put_ir(IDENTITY, r#"{"ir":1}"#)?, "a new IR is new");
                tx.create_run(&new_run("r1", "w", 1000))?;
                let step = tx.update_run("r1", 0, &update(r#"{"s":1}"#, RunStatus::Live, 1001))?;
                assert_eq!(step, 1);
                tx.put_intent(&intent("i1", "r1", 1, false))?;
                tx.put_timer(&timer("r1", "t", 2, 5000))?;
                tx.push_inbox(&inbox("r1", "k", r#"{"type":"go"}"#))?;
                // Inside the transaction, its own writes are read back.
                assert_eq!(tx.run("r1")?.expect("its own run").head.step, 1);
                Ok(())
            })
            .expect("the transaction commits");
    }
    let store = open(backend);
    let r = read(&store);
    let run = r.run("r1").unwrap().expect("the run is there after a reopen");
    assert_eq!(run.head.step, 1);
    assert_eq!(run.head.status, RunStatus::Live);
    assert_eq!(run.head.workflow, "w");
    assert_eq!(run.head.identity, IDENTITY);
    assert_eq!(run.head.created_at, 1000);
    assert_eq!(run.head.updated_at, 1001);
    assert_eq!(run.snapshot, r#"{"s":1}"#);
    assert_eq!(run.input.as_deref(), Some(r#"{"n":1}"#));
    assert_eq!(r.ir(IDENTITY).unwrap().as_deref(), Some(r#"{"ir":1}"#));
    assert_eq!(r.intent("i1").unwrap(), Some(intent("i1", "r1", 1, false)));
    let timers = r.timers_of("r1").unwrap();
    assert_eq!(timers.len(), 1);
    assert_eq!(timers[0].timer, timer("r1", "t", 2, 5000));
    let waiting = r.inbox("r1", 10).unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].event, r#"{"type":"go"}"#);
    assert!(!waiting[0].consumed);
}

/// A transaction that fails midway (its last write a conflict) leaves none of its writes.
pub fn a_failed_transaction_leaves_nothing<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r1"]);
    let failed = store.transaction(|tx| {
        tx.put_ir("2222222222222222222222222222222222222222222222222222222222222222", "{}")?;
        tx.create_run(&new_run("r2", "w", 2000))?;
        tx.update_run("r1", 0, &update(r#"{"changed":true}"#, RunStatus::Done, 2001))?;
        tx.put_intent(&intent("i1", "r1", 1, false))?;
        tx.put_timer(&timer("r1", "t", 2, 10))?;
        tx.push_inbox(&inbox("r1", "k", "{}"))?;
        // The run exists: this write fails, and so does the transaction.
        tx.create_run(&new_run("r1", "w", 2002))?;
        Ok(())
    });
    assert!(matches!(failed, Err(Error::Conflict(_))), "a taken run id is a conflict: {failed:?}");
    drop(store);
    let store = open(backend);
    let r = read(&store);
    assert!(r.run("r2").unwrap().is_none(), "a run of the failed transaction was kept");
    let r1 = r.run("r1").unwrap().expect("the seeded run");
    assert_eq!((r1.head.step, r1.head.status), (0, RunStatus::Live), "the failed update was kept");
    assert!(r.ir("2222222222222222222222222222222222222222222222222222222222222222").unwrap().is_none());
    assert!(r.intent("i1").unwrap().is_none());
    assert!(r.timers(None, None, 100).unwrap().is_empty());
    assert!(r.inbox("r1", 100).unwrap().is_empty());
}

/// A transaction dropped without a commit leaves nothing, and the store goes on.
pub fn a_dropped_transaction_leaves_nothing<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r1"]);
    {
        let mut tx = store.begin().unwrap();
        tx.update_run("r1", 0, &update("{}", RunStatus::Done, 5)).unwrap();
        tx.put_intent(&intent("i1", "r1", 1, false)).unwrap();
    }
    let r = read(&store);
    assert_eq!(r.run("r1").unwrap().unwrap().head.step, 0);
    assert!(r.intent("i1").unwrap().is_none());
    drop(r);
    // The next transaction is not blocked by the dropped one.
    store.transaction(|tx| tx.update_run("r1", 0, &update("{}", RunStatus::Done, 6))).expect("a later transaction");
}

/// An event under a key is taken once: a repeat is a duplicate, before and after it is consumed;
/// each run has its own keys; the inbox comes in arrival order.
pub fn inbox_takes_each_key_once<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r1", "r2"]);
    let (a, b) = store
        .transaction(|tx| Ok((tx.push_inbox(&inbox("r1", "a", "1"))?, tx.push_inbox(&inbox("r1", "b", "2"))?)))
        .unwrap();
    let (Pushed::New(a), Pushed::New(b)) = (a, b) else { panic!("two new keys: {a:?} {b:?}") };
    assert!(a < b, "seq grows with arrival");
    let again = store.transaction(|tx| tx.push_inbox(&inbox("r1", "a", "other"))).unwrap();
    assert_eq!(again, Pushed::Duplicate(a), "a repeated key adds nothing");
    // The same key for another run is that run's own.
    assert!(matches!(store.transaction(|tx| tx.push_inbox(&inbox("r2", "a", "3"))).unwrap(), Pushed::New(_)));
    let waiting = read(&store).inbox("r1", 10).unwrap();
    assert_eq!(waiting.iter().map(|e| e.event.as_str()).collect::<Vec<_>>(), ["1", "2"], "the first event kept");
    store.transaction(|tx| tx.consume_inbox("r1", a)).unwrap();
    assert_eq!(read(&store).inbox("r1", 10).unwrap().len(), 1, "a consumed row is not waiting");
    assert_eq!(store.transaction(|tx| tx.push_inbox(&inbox("r1", "a", "late"))).unwrap(), Pushed::Duplicate(a));
    assert!(matches!(store.transaction(|tx| tx.consume_inbox("r1", a)), Err(Error::Conflict(_))));
    assert!(matches!(store.transaction(|tx| tx.consume_inbox("r1", b + 1000)), Err(Error::NotFound(_))));
    assert!(matches!(store.transaction(|tx| tx.consume_inbox("r2", a)), Err(Error::NotFound(_))));
    assert!(matches!(store.transaction(|tx| tx.push_inbox(&inbox("nobody", "k", "1"))), Err(Error::NotFound(_))));
    assert_eq!(read(&store).inbox("r1", 0).unwrap().len(), 0, "a limit of 0 reads nothing");
}

/// An inbox row keeps the party that sent it (a Gate's answer), and one with none reads back
/// `None`; a repeat under the key keeps the first row's sender; a sender over [`KEY_LIMIT`] is
/// refused.
pub fn an_inbox_row_keeps_its_sender<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r1"]);
    let from =
        |key: &str, sender: Option<&str>| NewInboxEvent { sender: sender.map(Into::into), ..inbox("r1", key, "{}") };
    store.transaction(|tx| tx.push_inbox(&from("gate", Some("review")))).unwrap();
    store.transaction(|tx| tx.push_inbox(&from("none", None))).unwrap();
    let again = store.transaction(|tx| tx.push_inbox(&from("gate", Some("other")))).unwrap();
    assert!(matches!(again, Pushed::Duplicate(_)), "the repeat adds nothing: {again:?}");
    let waiting = read(&store).inbox("r1", 10).unwrap();
    let senders: Vec<_> = waiting.iter().map(|e| (e.key.as_str(), e.sender.as_deref())).collect();
    assert_eq!(senders, [("gate", Some("review")), ("none", None)]);
    let long = "s".repeat(crate::KEY_LIMIT + 1);
    let e = store.transaction(|tx| tx.push_inbox(&from("long", Some(&long)))).unwrap_err();
    assert!(matches!(e, Error::TooLarge { .. }), "{e:?}");
}

/// Timers come by due time, those due at one instant in the order they were set, whatever their
/// runs; `until` and the cursor page them; a deleted one is gone.
pub fn timers_come_by_due_time_then_set_order<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r1", "r2"]);
    store
        .transaction(|tx| {
            tx.put_timer(&timer("r2", "late", 1, 300))?;
            tx.put_timer(&timer("r1", "b", 2, 100))?;
            tx.put_timer(&timer("r2", "a", 3, 100))?;
            tx.put_timer(&timer("r1", "early", 4, 50))?;
            Ok(())
        })
        .unwrap();
    store.transaction(|tx| tx.put_timer(&timer("r1", "c", 5, 100))).unwrap();
    let r = read(&store);
    let order = |rows: Vec<crate::TimerRow>| rows.into_iter().map(|t| t.timer.id).collect::<Vec<_>>();
    assert_eq!(order(r.timers(None, None, 100).unwrap()), ["early", "b", "a", "c", "late"]);
    assert_eq!(order(r.timers(Some(100), None, 100).unwrap()), ["early", "b", "a", "c"], "due at or before 100");
    let first = r.timers(None, None, 2).unwrap();
    assert_eq!(order(first.clone()), ["early", "b"]);
    let last = first.last().unwrap();
    assert_eq!(order(r.timers(None, Some((last.timer.due, last.seq)), 2).unwrap()), ["a", "c"]);
    assert_eq!(order(r.timers_of("r1").unwrap()), ["early", "b", "c"]);
    drop(r);
    // One timer id may be set again with a new incarnation; the same incarnation is a conflict.
    store.transaction(|tx| tx.put_timer(&timer("r1", "b", 9, 400))).unwrap();
    assert!(matches!(store.transaction(|tx| tx.put_timer(&timer("r1", "b", 9, 400))), Err(Error::Conflict(_))));
    assert!(store.transaction(|tx| tx.delete_timer("r1", "b", 2)).unwrap());
    assert!(!store.transaction(|tx| tx.delete_timer("r1", "b", 2)).unwrap(), "deleted already");
    let r = read(&store);
    assert_eq!(order(r.timers(None, None, 100).unwrap()), ["early", "a", "c", "late", "b"]);
    assert_eq!(r.timers(None, None, 100).unwrap().last().unwrap().timer.incarnation, 9);
}

/// Optimistic concurrency: a save that names a step the run has left is a conflict, and its
/// transaction keeps nothing.
pub fn a_stale_step_is_a_conflict<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r1"]);
    let step = read(&store).run("r1").unwrap().unwrap().head.step;
    assert_eq!(store.transaction(|tx| tx.update_run("r1", step, &update("first", RunStatus::Live, 2))).unwrap(), 1);
    let second = store.transaction(|tx| {
        tx.put_intent(&intent("i1", "r1", 1, false))?;
        tx.update_run("r1", step, &update("second", RunStatus::Live, 3))
    });
    assert!(matches!(second, Err(Error::Conflict(_))), "{second:?}");
    let r = read(&store);
    assert_eq!(r.run("r1").unwrap().unwrap().snapshot, "first");
    assert!(r.intent("i1").unwrap().is_none(), "the loser's intent was kept");
    drop(r);
    assert!(matches!(
        store.transaction(|tx| tx.update_run("nobody", 0, &update("x", RunStatus::Live, 3))),
        Err(Error::NotFound(_))
    ));
}

/// Two threads read one run at one step and save it: one wins, the other is a conflict.
pub fn racing_writers_one_wins<B: Backend>(backend: &B) {
    let store = Arc::new(open(backend));
    seed(&*store, &["r1"]);
    for round in 0..8u64 {
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = (0..2)
            .map(|n| {
                let (store, barrier) = (Arc::clone(&store), Arc::clone(&barrier));
                std::thread::spawn(move || {
                    let step = store.read()?.run("r1")?.expect("the run").head.step;
                    barrier.wait();
                    store.transaction(|tx| tx.update_run("r1", step, &update(&format!("{n}"), RunStatus::Live, round)))
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().expect("no panic")).collect();
        let won = results.iter().filter(|r| r.is_ok()).count();
        let lost = results.iter().filter(|r| matches!(r, Err(Error::Conflict(_)))).count();
        assert_eq!((won, lost), (1, 1), "round {round}: {results:?}");
        assert_eq!(read(&*store).run("r1").unwrap().unwrap().head.step, round + 1);
    }
}

/// Each payload over its configured limit is refused with [`Error::TooLarge`], naming what and
/// how large, and nothing of its transaction is kept; at the limit it is taken.
pub fn payloads_over_their_limit_are_refused<B: Backend>(backend: &B) {
    let limits = Limits { snapshot: 4096, ir: 2048, payload: 1024, page: 1 << 20 };
    let store = backend.open(limits).expect("opens with limits");
    assert_eq!(store.limits(), limits);
    seed(&store, &["r1"]);
    let big = |n: usize| format!("\"{}\"", "x".repeat(n - 2));
    let refused = store.transaction(|tx| {
        tx.push_inbox(&inbox("r1", "k", "{}"))?;
        tx.update_run("r1", 0, &update(&big(4097), RunStatus::Live, 1))
    });
    match refused {
        Err(e @ Error::TooLarge { size: 4097, limit: 4096, .. }) => {
            assert!(e.to_string().contains("snapshot") && e.to_string().contains("4096"), "{e}")
        }
        other => panic!("a snapshot over the limit: {other:?}"),
    }
    assert!(read(&store).inbox("r1", 10).unwrap().is_empty(), "the refused transaction's inbox row was kept");
    store.transaction(|tx| tx.update_run("r1", 0, &update(&big(4096), RunStatus::Live, 1))).expect("at the limit");
    let too_large = |r: Result<(), Error>| matches!(r, Err(Error::TooLarge { .. }));
    let mut run = new_run("r2", "w", 1);
    run.snapshot = big(4097);
    assert!(too_large(store.transaction(|tx| tx.create_run(&run))));
    let mut run = new_run("r2", "w", 1);
    run.input = Some(big(1025));
    assert!(too_large(store.transaction(|tx| tx.create_run(&run))));
    let run = new_run(&"r".repeat(KEY_LIMIT + 1), "w", 1);
    assert!(too_large(store.transaction(|tx| tx.create_run(&run))));
    assert!(too_large(store.transaction(|tx| tx.put_ir("3", &big(2049)).map(drop))));
    let mut i = intent("i1", "r1", 1, false);
    i.input = Some(big(1025));
    assert!(too_large(store.transaction(|tx| tx.put_intent(&i))));
    store.transaction(|tx| tx.put_intent(&intent("i1", "r1", 1, false))).unwrap();
    assert!(too_large(store.transaction(|tx| tx.settle_intent("i1", &Outcome::Done(big(1025)), 2))));
    let mut t = timer("r1", "t", 1, 1);
    t.event = Some(big(1025));
    assert!(too_large(store.transaction(|tx| tx.put_timer(&t))));
    assert!(too_large(store.transaction(|tx| tx.push_inbox(&inbox("r1", "k", &big(1025))).map(drop))));
    let r = read(&store);
    assert!(r.run("r2").unwrap().is_none());
    assert_eq!(r.intent("i1").unwrap().unwrap().state, IntentState::Intended);
    assert!(r.timers(None, None, 10).unwrap().is_empty());
}

/// A damaged row is [`Error::Corrupt`] on every read that meets it, never a panic; the other rows
/// read as before.
pub fn corrupt_rows_are_errors<B: Backend>(backend: &B) {
    {
        let store = open(backend);
        seed(&store, &["a", "b", "c", "d", "ok"]);
        store
            .transaction(|tx| {
                tx.put_intent(&intent("i1", "a", 1, false))?;
                tx.put_intent(&intent("i2", "ok", 1, false))?;
                tx.put_timer(&timer("b", "t", 1, 10))?;
                tx.put_timer(&timer("ok", "t", 1, 20))
            })
            .unwrap();
    }
    for damage in [
        Damage::RunStatus { run: "a".into() },
        Damage::RunSnapshot { run: "b".into() },
        Damage::RunStep { run: "c".into() },
        Damage::IntentState { id: "i1".into() },
        Damage::TimerDue { run: "b".into(), id: "t".into() },
    ] {
        backend.corrupt(&damage).unwrap_or_else(|e| panic!("the backend damages {damage:?}: {e}"));
    }
    let store = open(backend);
    let r = read(&store);
    let corrupt = |what: &str, e: Result<(), Error>| match e {
        Err(Error::Corrupt(m)) => assert!(!m.is_empty()),
        other => panic!("{what}: expected a corrupt row, got {other:?}"),
    };
    corrupt("a run's status", r.run("a").map(drop));
    corrupt("a run's snapshot", r.run("b").map(drop));
    corrupt("a run's step", r.run("c").map(drop));
    corrupt("the live runs", r.live_runs(None, 100).map(drop));
    corrupt("the runs", r.runs(&RunFilter { limit: 100, ..RunFilter::default() }).map(drop));
    corrupt("an intent's state", r.intent("i1").map(drop));
    corrupt("the unsettled intents", r.unsettled_intents(None, 100).map(drop));
    corrupt("a timer's due time", r.timers(None, None, 100).map(drop));
    assert_eq!(r.run("ok").unwrap().unwrap().head.id, "ok");
    assert!(r.run("d").unwrap().is_some());
    assert_eq!(r.intent("i2").unwrap().unwrap().run, "ok");
    assert_eq!(r.timers_of("ok").unwrap().len(), 1);
    drop(r);
    // A write to a damaged run goes through the same checks (the step is read back first).
    let e = store.transaction(|tx| tx.update_run("c", 0, &update("{}", RunStatus::Live, 1)));
    assert!(matches!(e, Err(Error::Corrupt(_) | Error::Conflict(_))), "{e:?}");
}

/// The ledger: an intent is written, started and settled once; the unsettled ones are what a
/// restore reads; one run's actor incarnation has one row.
pub fn the_ledger_settles_once<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r1", "r2"]);
    store
        .transaction(|tx| {
            tx.put_intent(&intent("i1", "r1", 1, false))?;
            tx.put_intent(&intent("i2", "r1", 2, true))?;
            tx.put_intent(&intent("i3", "r2", 1, false))
        })
        .unwrap();
    assert!(matches!(store.transaction(|tx| tx.put_intent(&intent("i1", "r2", 9, false))), Err(Error::Conflict(_))));
    assert!(matches!(store.transaction(|tx| tx.put_intent(&intent("i9", "r1", 1, false))), Err(Error::Conflict(_))));
    assert!(matches!(
        store.transaction(|tx| tx.put_intent(&intent("i9", "nobody", 1, false))),
        Err(Error::NotFound(_))
    ));
    store.transaction(|tx| tx.start_intent("i1", 200)).unwrap();
    let done = Outcome::Done(r#"{"outcome":"exited","code":0}"#.into());
    store.transaction(|tx| tx.settle_intent("i1", &done, 300)).unwrap();
    assert!(matches!(store.transaction(|tx| tx.settle_intent("i1", &done, 301)), Err(Error::Conflict(_))));
    assert!(matches!(store.transaction(|tx| tx.start_intent("i1", 302)), Err(Error::Conflict(_))));
    assert!(matches!(store.transaction(|tx| tx.settle_intent("nobody", &done, 1)), Err(Error::NotFound(_))));
    assert!(matches!(store.transaction(|tx| tx.start_intent("nobody", 1)), Err(Error::NotFound(_))));
    let error = Outcome::Error(r#"{"message":"boom"}"#.into());
    store.transaction(|tx| tx.settle_intent("i3", &error, 310)).unwrap();
    let r = read(&store);
    let i1 = r.intent("i1").unwrap().unwrap();
    assert_eq!(i1.state, IntentState::Settled);
    assert_eq!((i1.created_at, i1.started_at, i1.settled_at), (100, Some(200), Some(300)));
    assert_eq!(i1.outcome, Some(done));
    assert_eq!(r.intent("i3").unwrap().unwrap().outcome, Some(error));
    let unsettled = r.unsettled_intents(None, 100).unwrap();
    assert_eq!(unsettled.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(), ["i2"]);
    assert!(unsettled[0].idempotent);
    assert_eq!(r.intents_of("r1").unwrap().iter().map(|i| i.id.as_str()).collect::<Vec<_>>(), ["i1", "i2"]);
    assert!(r.unsettled_intents(Some("i2"), 100).unwrap().is_empty(), "paged after i2");
}

/// Runs are found by id and by dispatch key, listed by Workflow and status newest first with a
/// limit and a cursor, and the live ones paged by id; an IR is stored once; a run needs its IR.
pub fn runs_are_listed_and_found<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["a", "b", "c"]);
    let mut other = new_run("d", "v", 5000);
    other.parent = Some("a".into());
    other.dispatch_key = Some("a/i1".into());
    store.transaction(|tx| tx.create_run(&other)).unwrap();
    let mut clash = new_run("e", "v", 5001);
    clash.dispatch_key = Some("a/i1".into());
    assert!(matches!(store.transaction(|tx| tx.create_run(&clash)), Err(Error::Conflict(_))), "a taken dispatch key");
    let mut orphan = new_run("e", "v", 5001);
    orphan.identity = "9".repeat(64);
    assert!(matches!(store.transaction(|tx| tx.create_run(&orphan)), Err(Error::NotFound(_))), "an IR not stored");
    assert!(!store.transaction(|tx| tx.put_ir(IDENTITY, "{\"second\":true}")).unwrap(), "an IR is stored once");
    store.transaction(|tx| tx.update_run("b", 0, &update("{}", RunStatus::Done, 6000))).unwrap();
    let r = read(&store);
    assert_eq!(r.ir(IDENTITY).unwrap().as_deref(), Some(r#"{"states":[]}"#), "the first text is kept");
    assert!(r.ir("nothing").unwrap().is_none());
    let found = r.run_by_dispatch_key("a/i1").unwrap().expect("by its dispatch key");
    assert_eq!((found.id.as_str(), found.parent.as_deref()), ("d", Some("a")));
    assert!(r.run_by_dispatch_key("zzz").unwrap().is_none());
    assert!(r.run("zzz").unwrap().is_none());
    let ids = |rows: Vec<crate::RunHead>| rows.into_iter().map(|h| h.id).collect::<Vec<_>>();
    let all = RunFilter { limit: 100, ..RunFilter::default() };
    assert_eq!(ids(r.runs(&all).unwrap()), ["d", "c", "b", "a"], "newest first");
    let w = RunFilter { workflow: Some("w".into()), ..all.clone() };
    assert_eq!(ids(r.runs(&w).unwrap()), ["c", "b", "a"]);
    let live_w = RunFilter { status: Some(RunStatus::Live), ..w.clone() };
    assert_eq!(ids(r.runs(&live_w).unwrap()), ["c", "a"]);
    let done = RunFilter { status: Some(RunStatus::Done), ..all.clone() };
    assert_eq!(ids(r.runs(&done).unwrap()), ["b"]);
    let page = r.runs(&RunFilter { limit: 2, ..w.clone() }).unwrap();
    assert_eq!(ids(page.clone()), ["c", "b"]);
    let last = page.last().unwrap();
    let rest = RunFilter { before: Some((last.created_at, last.id.clone())), ..w.clone() };
    assert_eq!(ids(r.runs(&rest).unwrap()), ["a"]);
    assert_eq!(r.runs(&RunFilter { limit: usize::MAX, ..all.clone() }).unwrap().len(), 4, "a huge limit is a page");
    let live = r.live_runs(None, 2).unwrap();
    assert_eq!(live.iter().map(|r| r.head.id.as_str()).collect::<Vec<_>>(), ["a", "c"]);
    assert_eq!(live[0].snapshot, r#"{"format":1,"run":"a"}"#);
    let live = r.live_runs(Some("c"), 2).unwrap();
    assert_eq!(live.iter().map(|r| r.head.id.as_str()).collect::<Vec<_>>(), ["d"]);
}

/// Group commit: one transaction saves the macrosteps of many runs, each whole.
pub fn one_transaction_holds_many_runs<B: Backend>(backend: &B) {
    let store = open(backend);
    let ids: Vec<String> = (0..50).map(|n| format!("r{n:02}")).collect();
    seed(&store, &ids.iter().map(String::as_str).collect::<Vec<_>>());
    store
        .transaction(|tx| {
            for (n, id) in ids.iter().enumerate() {
                let run = tx.run(id)?.expect("seeded");
                tx.update_run(id, run.head.step, &update(&format!("{{\"n\":{n}}}"), RunStatus::Live, 9))?;
                tx.put_intent(&intent(&format!("{id}/i"), id, 1, false))?;
                tx.put_timer(&timer(id, "t", 2, 100 + n as u64))?;
            }
            Ok(())
        })
        .unwrap();
    let r = read(&store);
    for (n, id) in ids.iter().enumerate() {
        let run = r.run(id).unwrap().unwrap();
        assert_eq!((run.head.step, run.snapshot), (1, format!("{{\"n\":{n}}}")));
        assert!(r.intent(&format!("{id}/i")).unwrap().is_some());
    }
    assert_eq!(r.timers(None, None, 1000).unwrap().len(), 50);
    assert_eq!(r.unsettled_intents(None, 1000).unwrap().len(), 50);
}

/// Payloads come back exactly as written: JSON 300 levels deep (past a JSON parser's usual
/// depth), every Unicode plane, the runtime's tagged `-0`, whitespace.
pub fn payloads_come_back_byte_for_byte<B: Backend>(backend: &B) {
    let store = open(backend);
    let deep = format!("{}0{}", "[".repeat(300), "]".repeat(300));
    let odd = "{ \"a\" : \"é\u{1F600}\\u0000\", \"z\":{\"$js\":\"-0\"} }\n".to_string();
    let mut run = new_run("r1", "w", 1);
    run.snapshot = odd.clone();
    run.input = Some(deep.clone());
    store
        .transaction(|tx| {
            tx.put_ir(IDENTITY, &deep)?;
            tx.create_run(&run)?;
            tx.put_intent(&Intent { input: Some(deep.clone()), ..intent("i1", "r1", 1, true) })?;
            tx.settle_intent("i1", &Outcome::Done(odd.clone()), 2)?;
            tx.put_timer(&Timer { event: Some(odd.clone()), ..timer("r1", "t", 1, 1) })?;
            tx.push_inbox(&inbox("r1", "ké\u{1F600}", &deep))
        })
        .unwrap();
    drop(store);
    let store = open(backend);
    let r = read(&store);
    let got = r.run("r1").unwrap().unwrap();
    assert_eq!((got.snapshot.as_str(), got.input.as_deref()), (odd.as_str(), Some(deep.as_str())));
    assert_eq!(r.ir(IDENTITY).unwrap().as_deref(), Some(deep.as_str()));
    let i = r.intent("i1").unwrap().unwrap();
    assert_eq!((i.input.as_deref(), i.outcome), (Some(deep.as_str()), Some(Outcome::Done(odd.clone()))));
    assert_eq!(r.timers_of("r1").unwrap()[0].timer.event.as_deref(), Some(odd.as_str()));
    let e = &r.inbox("r1", 1).unwrap()[0];
    assert_eq!((e.key.as_str(), e.event.as_str()), ("ké\u{1F600}", deep.as_str()));
}

/// A paged read stops before the row that would take its payload past [`Limits::page`], holds one
/// row at least, and reads on from its last row to the end.
pub fn a_page_ends_at_its_byte_budget<B: Backend>(backend: &B) {
    let limits = Limits { snapshot: 4096, ir: 4096, payload: 4096, page: 10_000 };
    let store = backend.open(limits).expect("opens with limits");
    let big = "x".repeat(3990);
    store
        .transaction(|tx| {
            tx.put_ir(IDENTITY, "{}")?;
            for n in 0..5 {
                let id = format!("r{n}");
                let mut run = new_run(&id, "w", n);
                run.snapshot = format!("\"{big}\"");
                tx.create_run(&run)?;
                tx.put_intent(&Intent {
                    input: Some(format!("\"{big}\"")),
                    ..intent(&format!("i{n}"), &id, 1, false)
                })?;
                tx.put_timer(&Timer { event: Some(format!("\"{big}\"")), ..timer(&id, "t", 1, n) })?;
                tx.push_inbox(&inbox("r0", &format!("k{n}"), &format!("\"{big}\"")))?;
            }
            Ok(())
        })
        .unwrap();
    let r = read(&store);
    // Each row's payload is about 4 000 bytes: two fit in 10 000, a third would not.
    let live = r.live_runs(None, 100).unwrap();
    assert_eq!(live.len(), 2, "a page of runs past its byte budget");
    let mut seen = live.len();
    let mut after = live.last().map(|l| l.head.id.clone());
    loop {
        let page = r.live_runs(after.as_deref(), 100).unwrap();
        let Some(last) = page.last() else { break };
        assert!(page.len() <= 2);
        after = Some(last.head.id.clone());
        seen += page.len();
    }
    assert_eq!(seen, 5, "paging reads every live run");
    assert_eq!(r.unsettled_intents(None, 100).unwrap().len(), 2);
    assert_eq!(r.timers(None, None, 100).unwrap().len(), 2);
    assert_eq!(r.inbox("r0", 100).unwrap().len(), 2);
    drop(r);
    drop(store);
    // A budget smaller than one row still gives that row.
    let store = backend.open(Limits { page: 10, ..limits }).expect("reopens");
    let r = read(&store);
    assert_eq!(r.live_runs(None, 100).unwrap().len(), 1);
    assert_eq!(r.timers(None, None, 100).unwrap().len(), 1);
}

/// What the suite's model of a store holds: each run's step and snapshot, its intents (id to
/// settled?), timers ((id, incarnation) to due) and inbox ((key) to (seq, consumed)).
#[derive(Clone, Debug, Default, PartialEq)]
struct Model {
    runs: BTreeMap<String, (u64, String)>,
    intents: BTreeMap<String, (String, u64, bool)>,
    timers: BTreeMap<(String, String, u64), u64>,
    inbox: BTreeMap<(String, String), (u64, bool)>,
}

/// The suite's random numbers (xorshift): no dependency, and a seed replays a run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// What a call returned, as the model predicts it: which error, or the value.
fn kind<T: std::fmt::Debug>(r: &Result<T, Error>) -> String {
    match r {
        Ok(v) => format!("ok {v:?}"),
        Err(Error::Conflict(_)) => "conflict".into(),
        Err(Error::NotFound(_)) => "not found".into(),
        Err(e) => format!("{e:?}"),
    }
}

/// Random transactions of random writes (stale steps, repeated ids and keys, runs that do not
/// exist among them), each committed or, at its first error or by chance, dropped; after each,
/// the store reads back as a model that applied the same writes says.
pub fn random_transactions_match_a_model<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["r0", "r1", "r2"]);
    let mut model = Model::default();
    for id in ["r0", "r1", "r2"] {
        model.runs.insert(id.into(), (0, format!(r#"{{"format":1,"run":"{id}"}}"#)));
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // What the rounds met, so that the test is known to exercise each outcome.
    let (mut commits, mut seen) = (0, BTreeMap::<String, usize>::new());
    for round in 0..600 {
        let mut next = model.clone();
        let mut tx = store.begin().expect("begins");
        let mut failed = false;
        for _ in 0..1 + rng.below(4) {
            let run = format!("r{}", rng.below(4));
            let n = rng.below(6);
            let (expected, got) = match rng.below(7) {
                0 => {
                    let step = next.runs.get(&run).map_or(0, |r| r.0).saturating_sub(rng.below(2));
                    let snapshot = format!("{{\"round\":{round}}}");
                    let expected = match next.runs.get_mut(&run) {
                        None => "not found".to_string(),
                        Some(r) if r.0 != step => "conflict".into(),
                        Some(r) => {
                            *r = (step + 1, snapshot.clone());
                            format!("ok {}", step + 1)
                        }
                    };
                    (expected, kind(&tx.update_run(&run, step, &update(&snapshot, RunStatus::Live, round))))
                }
                1 => {
                    let id = format!("i{n}");
                    let expected = if !next.runs.contains_key(&run) {
                        "not found".to_string()
                    } else if next.intents.contains_key(&id)
                        || next.intents.values().any(|(r, inc, _)| *r == run && *inc == n)
                    {
                        "conflict".into()
                    } else {
                        next.intents.insert(id.clone(), (run.clone(), n, false));
                        "ok ()".into()
                    };
                    (expected, kind(&tx.put_intent(&intent(&id, &run, n, false))))
                }
                2 => {
                    let id = format!("i{n}");
                    let expected = match next.intents.get_mut(&id) {
                        None => "not found".to_string(),
                        Some((_, _, true)) => "conflict".into(),
                        Some(i) => {
                            i.2 = true;
                            "ok ()".into()
                        }
                    };
                    (expected, kind(&tx.settle_intent(&id, &Outcome::Done("{}".into()), round)))
                }
                3 => {
                    let key = (run.clone(), "t".to_string(), n);
                    let expected = if next.timers.contains_key(&key) {
                        "conflict".to_string()
                    } else if !next.runs.contains_key(&run) {
                        "not found".into()
                    } else {
                        next.timers.insert(key, round);
                        "ok ()".into()
                    };
                    (expected, kind(&tx.put_timer(&timer(&run, "t", n, round))))
                }
                4 => {
                    let expected = format!("ok {}", next.timers.remove(&(run.clone(), "t".into(), n)).is_some());
                    (expected, kind(&tx.delete_timer(&run, "t", n)))
                }
                5 => {
                    let key = (run.clone(), format!("k{n}"));
                    let got = tx.push_inbox(&inbox(&run, &key.1, "{}"));
                    let expected = match (next.inbox.get(&key), &got) {
                        (Some((seq, _)), _) => format!("ok {:?}", Pushed::Duplicate(*seq)),
                        (None, _) if !next.runs.contains_key(&run) => "not found".into(),
                        (None, Ok(Pushed::New(seq))) => {
                            next.inbox.insert(key, (*seq, false));
                            format!("ok {:?}", Pushed::New(*seq))
                        }
                        (None, other) => format!("a new row, not {other:?}"),
                    };
                    (expected, kind(&got))
                }
                _ => {
                    let key = (run.clone(), format!("k{n}"));
                    let seq = next.inbox.get(&key).map_or(1 << 40, |e| e.0);
                    let expected = match next.inbox.get_mut(&key) {
                        None => "not found".to_string(),
                        Some((_, true)) => "conflict".into(),
                        Some(e) => {
                            e.1 = true;
                            "ok ()".into()
                        }
                    };
                    (expected, kind(&tx.consume_inbox(&run, seq)))
                }
            };
            assert_eq!(got, expected, "round {round}: a call of the transaction");
            *seen.entry(got.split_whitespace().next().unwrap_or("").to_string()).or_default() += 1;
            if !got.starts_with("ok") {
                failed = true;
                break;
            }
        }
        if failed || rng.below(5) == 0 {
            drop(tx);
        } else {
            tx.commit().expect("commits");
            model = next;
            commits += 1;
        }
        let r = read(&store);
        for (id, (step, snapshot)) in &model.runs {
            let run = r.run(id).unwrap().expect("a run of the model");
            assert_eq!((run.head.step, &run.snapshot), (*step, snapshot), "round {round}: run {id}");
            let intents: Vec<_> =
                r.intents_of(id).unwrap().into_iter().map(|i| (i.id, i.state == IntentState::Settled)).collect();
            let expected: Vec<_> =
                model.intents.iter().filter(|(_, (r, _, _))| r == id).map(|(i, (_, _, s))| (i.clone(), *s)).collect();
            let mut sorted = intents.clone();
            sorted.sort();
            assert_eq!(sorted, expected, "round {round}: the intents of {id}");
            let timers: Vec<_> =
                r.timers_of(id).unwrap().into_iter().map(|t| (t.timer.incarnation, t.timer.due)).collect();
            let mut expected: Vec<_> =
                model.timers.iter().filter(|((r, _, _), _)| r == id).map(|((_, _, inc), due)| (*inc, *due)).collect();
            expected.sort_by_key(|(inc, due)| (*due, *inc));
            let mut timers_by_due = timers.clone();
            timers_by_due.sort_by_key(|(inc, due)| (*due, *inc));
            assert_eq!(timers_by_due, expected, "round {round}: the timers of {id}");
            let waiting: Vec<_> = r.inbox(id, 100).unwrap().into_iter().map(|e| e.key).collect();
            let expected: Vec<_> = model
                .inbox
                .iter()
                .filter(|((r, _), (_, consumed))| r == id && !consumed)
                .map(|((_, k), (seq, _))| (*seq, k.clone()))
                .collect::<BTreeMap<_, _>>()
                .into_values()
                .collect();
            assert_eq!(waiting, expected, "round {round}: the inbox of {id}");
        }
        let unsettled: Vec<_> = r.unsettled_intents(None, 1000).unwrap().into_iter().map(|i| i.id).collect();
        let expected: Vec<_> = model.intents.iter().filter(|(_, (_, _, s))| !s).map(|(i, _)| i.clone()).collect();
        assert_eq!(unsettled, expected, "round {round}: the unsettled intents");
    }
    let met = |k: &str| seen.get(k).copied().unwrap_or(0);
    assert!(
        commits >= 80 && met("ok") >= 200 && met("conflict") >= 40 && met("not") >= 40,
        "the rounds met too little: {commits} commits, {seen:?}"
    );
}

/// A deleted run takes its intents, timers and inbox rows with it; its id and dispatch key are
/// free again; its IR and the other runs stay.
pub fn a_deleted_run_takes_its_rows_and_frees_its_keys<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["keep"]);
    let mut run = new_run("gone", "w", 5);
    run.dispatch_key = Some("caller/i1".into());
    store
        .transaction(|tx| {
            tx.create_run(&run)?;
            for id in ["gone", "keep"] {
                tx.put_intent(&intent(&format!("{id}/i"), id, 1, false))?;
                tx.put_timer(&timer(id, "t", 1, 10))?;
                tx.push_inbox(&inbox(id, "k", "{}"))?;
            }
            Ok(())
        })
        .unwrap();
    assert!(store.transaction(|tx| tx.delete_run("gone")).unwrap());
    assert!(!store.transaction(|tx| tx.delete_run("gone")).unwrap(), "deleted already");
    let r = read(&store);
    assert!(r.run("gone").unwrap().is_none());
    assert!(r.run_by_dispatch_key("caller/i1").unwrap().is_none());
    assert!(r.intent("gone/i").unwrap().is_none());
    assert!(r.timers_of("gone").unwrap().is_empty());
    assert!(r.inbox("gone", 10).unwrap().is_empty());
    assert_eq!(r.timers(None, None, 10).unwrap().len(), 1, "the other run's timer stays");
    assert_eq!(r.unsettled_intents(None, 10).unwrap().len(), 1);
    assert_eq!(r.inbox("keep", 10).unwrap().len(), 1);
    assert!(r.ir(IDENTITY).unwrap().is_some(), "the IR stays");
    drop(r);
    // The id and the key start a new run, whose inbox key is new again.
    store.transaction(|tx| tx.create_run(&run)).expect("the id and the dispatch key are free");
    assert!(matches!(store.transaction(|tx| tx.push_inbox(&inbox("gone", "k", "{}"))).unwrap(), Pushed::New(_)));
}

/// Savepoints: a rollback undoes the writes since its savepoint and keeps those before it, the
/// transaction reads as it was, savepoints nest, a released one's writes commit with the rest, and
/// closing a savepoint when none is open is an error that leaves the transaction usable.
pub fn a_savepoint_rolls_back_alone<B: Backend>(backend: &B) {
    let store = open(backend);
    seed(&store, &["a"]);
    let mut tx = store.begin().expect("a transaction");
    assert!(matches!(tx.release_savepoint(), Err(Error::NotFound(_))), "no savepoint is open");
    assert!(matches!(tx.rollback_savepoint(), Err(Error::NotFound(_))), "no savepoint is open");
    tx.create_run(&new_run("kept", "w", 1)).unwrap();
    tx.savepoint().unwrap();
    tx.create_run(&new_run("undone", "w", 2)).unwrap();
    tx.put_intent(&intent("i-undone", "undone", 1, false)).unwrap();
    tx.update_run("a", 0, &update("{\"undone\":1}", RunStatus::Done, 3)).unwrap();
    // A nested savepoint, released into the outer one: undone with it.
    tx.savepoint().unwrap();
    tx.put_timer(&timer("undone", "t", 1, 5)).unwrap();
    tx.release_savepoint().unwrap();
    tx.rollback_savepoint().unwrap();
    assert!(tx.run("undone").unwrap().is_none(), "the rolled-back run is gone inside the transaction");
    assert!(tx.intent("i-undone").unwrap().is_none());
    assert!(tx.timers(None, None, 10).unwrap().is_empty());
    assert_eq!(tx.run("a").unwrap().unwrap().head.step, 0, "the rolled-back update is undone");
    assert!(tx.run("kept").unwrap().is_some(), "what came before the savepoint stays");
    // The run saved again at the step it is at after the rollback.
    tx.savepoint().unwrap();
    tx.update_run("a", 0, &update("{\"second\":1}", RunStatus::Live, 4)).unwrap();
    tx.release_savepoint().unwrap();
    tx.commit().unwrap();
    let r = read(&store);
    assert!(r.run("kept").unwrap().is_some());
    assert!(r.run("undone").unwrap().is_none());
    let a = r.run("a").unwrap().unwrap();
    assert_eq!((a.head.step, a.head.status, a.snapshot.as_str()), (1, RunStatus::Live, "{\"second\":1}"));
    drop(r);
    // A transaction dropped with a released savepoint keeps nothing of it.
    let mut tx = store.begin().unwrap();
    tx.savepoint().unwrap();
    tx.create_run(&new_run("dropped", "w", 6)).unwrap();
    tx.release_savepoint().unwrap();
    drop(tx);
    assert!(read(&store).run("dropped").unwrap().is_none());
}

/// Group commit: several runs' macrosteps in one transaction, each in a savepoint ([`within`]);
/// those whose writes fail (a stale step, an intent written twice, a run that does not exist, a
/// payload over its limit) are rolled back alone, and the others commit whole.
pub fn a_failed_macrostep_in_a_group_is_rolled_back_alone<B: Backend>(backend: &B) {
    let store = open(backend);
    let ids: Vec<String> = (0..8).map(|n| format!("r{n}")).collect();
    seed(&store, &ids.iter().map(String::as_str).collect::<Vec<_>>());
    let huge = "x".repeat(Limits::default().snapshot + 1);
    let mut tx = store.begin().unwrap();
    let mut results = Vec::new();
    for (n, id) in ids.iter().enumerate() {
        let r = within(&mut *tx, |tx| {
            let run = tx.run(id)?.expect("seeded");
            // r1 and r5 name a step they did not read: a conflict, after a write of their own.
            tx.put_timer(&timer(id, "t", 1, 10))?;
            tx.push_inbox(&inbox(id, "k", "{\"type\":\"go\"}"))?;
            let step = if n % 4 == 1 { run.head.step + 1 } else { run.head.step };
            tx.update_run(id, step, &update(&format!("{{\"n\":{n}}}"), RunStatus::Live, 9))?;
            // r2's intent is written twice: a conflict.
            tx.put_intent(&intent(&format!("{id}/i"), id, 1, false))?;
            if n == 2 {
                tx.put_intent(&intent(&format!("{id}/i"), id, 1, false))?;
            }
            // r3's second timer names a run that does not exist.
            if n == 3 {
                tx.put_timer(&timer("nobody", "t", 1, 10))?;
            }
            // r6's snapshot is over its limit.
            if n == 6 {
                tx.update_run(id, step + 1, &update(&huge, RunStatus::Live, 9))?;
            }
            Ok(())
        });
        results.push(r);
    }
    tx.commit().unwrap();
    let failed: Vec<usize> = results.iter().enumerate().filter(|(_, r)| r.is_err()).map(|(n, _)| n).collect();
    assert_eq!(failed, [1, 2, 3, 5, 6], "{results:?}");
    let r = read(&store);
    for (n, id) in ids.iter().enumerate() {
        let run = r.run(id).unwrap().unwrap();
        let timers = r.timers_of(id).unwrap();
        let waiting = r.inbox(id, 10).unwrap();
        if failed.contains(&n) {
            assert_eq!(run.head.step, 0, "{id}: its macrostep is rolled back whole");
            assert_eq!(run.snapshot, format!(r#"{{"format":1,"run":"{id}"}}"#));
            assert!(timers.is_empty() && waiting.is_empty(), "{id}: {timers:?} {waiting:?}");
            assert!(r.intent(&format!("{id}/i")).unwrap().is_none(), "{id}");
        } else {
            assert_eq!((run.head.step, run.snapshot), (1, format!("{{\"n\":{n}}}")), "{id}: kept whole");
            assert_eq!((timers.len(), waiting.len()), (1, 1), "{id}");
            assert!(r.intent(&format!("{id}/i")).unwrap().is_some(), "{id}");
        }
    }
    assert!(r.run("nobody").unwrap().is_none());
}
