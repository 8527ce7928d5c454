//! One writer: a second transaction waits for the first to end; a thread that holds the writer
//! and begins again is refused, not left waiting for itself.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use store::conformance::{new_run, Backend, IDENTITY};
use store::{Error, Limits, Store, StoreExt};

#[test]
fn a_second_writer_waits_for_the_first_to_commit() {
    let backend = common::Sqlite::fresh();
    let store = Arc::new(backend.open(Limits::default()).unwrap());
    let committing = Arc::new(AtomicBool::new(false));
    let tx = store.begin().unwrap();
    let waiter = {
        let (store, committing) = (Arc::clone(&store), Arc::clone(&committing));
        std::thread::spawn(move || {
            store.transaction(|tx| {
                // Only once the first transaction ended does this one begin.
                assert!(committing.load(Ordering::SeqCst), "two writers at once");
                tx.put_ir(IDENTITY, "{}")
            })
        })
    };
    std::thread::sleep(Duration::from_millis(100));
    committing.store(true, Ordering::SeqCst);
    tx.commit().unwrap();
    assert_eq!(waiter.join().expect("no panic"), Ok(true));
}

#[test]
fn a_thread_that_holds_the_writer_is_refused_a_second() {
    let backend = common::Sqlite::fresh();
    let store = backend.open(Limits::default()).unwrap();
    let mut tx = store.begin().unwrap();
    tx.put_ir(IDENTITY, "{}").unwrap();
    match store.begin() {
        Err(Error::Conflict(m)) => assert!(m.contains("commit or drop"), "{m}"),
        other => panic!("a second begin on the writer's thread: {:?}", other.map(|_| ())),
    }
    tx.create_run(&new_run("r1", "w", 1)).unwrap();
    tx.commit().unwrap();
    // Once it ended, the thread begins again; the commit is there.
    store.transaction(|tx| tx.run("r1").map(|r| assert!(r.is_some()))).unwrap();
    drop(store.begin().unwrap());
    store.transaction(|tx| tx.put_ir("2", "{}")).unwrap();
}
