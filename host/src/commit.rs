//! Where the host's transactions are committed: one at a time, or grouped (issue 35's load goal).
//!
//! Every write of the host goes through [`Commits::write`]: a closure over one [`store::Tx`]
//! whose value the caller gets only once the transaction holding its writes has committed. So
//! "commit, then act" holds however the writes are committed: a caller acts on what its closure
//! returned (starts executors, arms timers) only after that commit.
//!
//! # Group commit
//!
//! As Restate's partition processor and DBOS's system database do it: one committer, a thread of
//! its own that owns the store's one writer, takes every closure sent to it while it was busy (at
//! most [`MAX_BATCH`]), applies each inside a savepoint of one transaction ([`store::Tx::savepoint`]),
//! commits once, and then answers every caller. A closure that returns an error (its writes
//! failed: a stale step, a row over its limit) or panics is rolled back to its savepoint alone: its
//! caller gets its error, and the others' writes are kept. When the commit fails, no caller's
//! writes are kept and each gets the commit's error. A batch is what came while the last commit
//! was syncing: one caller alone waits for no one, and under load one `fsync` serves many runs.
//!
//! A closure runs on the committer's thread, one after another: it must not wait on anything that
//! waits for the committer (another write, a run's lock), nor begin a transaction of its own.

use crate::{Error, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use store::{Store, Tx};
use tokio::sync::oneshot;

/// The most closures one grouped transaction applies: a bound on how long the first of them waits
/// behind the others.
pub const MAX_BATCH: usize = 256;

/// What the host's commits did since it started ([`crate::Host::commit_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommitStats {
    /// Transactions committed.
    pub transactions: u64,
    /// Writes (a run's step, the marks of its Effects `started`) kept by those commits: more than
    /// `transactions` where commits were grouped.
    pub writes: u64,
    /// Writes that failed and were rolled back alone (to their savepoint, or their own
    /// transaction).
    pub rolled_back: u64,
    /// The most writes one transaction held.
    pub largest: u64,
}

#[derive(Default)]
struct Counters {
    transactions: AtomicU64,
    writes: AtomicU64,
    rolled_back: AtomicU64,
    largest: AtomicU64,
}

impl Counters {
    fn committed(&self, writes: u64) {
        self.transactions.fetch_add(1, Ordering::Relaxed);
        self.writes.fetch_add(writes, Ordering::Relaxed);
        self.largest.fetch_max(writes, Ordering::Relaxed);
    }
}

/// How the host commits its writes, and what its commits did.
pub(crate) struct Commits {
    mode: Mode,
    counters: Arc<Counters>,
}

enum Mode {
    /// Each write its own transaction, on a blocking thread (the host before group commit: one
    /// `fsync` per write).
    Single(Arc<dyn Store>),
    /// One committer thread groups the writes sent meanwhile into one transaction.
    Grouped(Sender<Box<dyn Job>>),
}

impl Commits {
    /// Commits of `store`, grouped by a committer thread of their own or not. The thread ends when
    /// the last handle of the host is dropped (its channel closes).
    pub(crate) fn new(store: Arc<dyn Store>, grouped: bool) -> Commits {
        let counters = Arc::new(Counters::default());
        if !grouped {
            return Commits { mode: Mode::Single(store), counters };
        }
        let (send, receive) = mpsc::channel::<Box<dyn Job>>();
        let c = counters.clone();
        std::thread::Builder::new()
            .name("jr2-committer".into())
            .spawn(move || committer(&*store, &receive, &c))
            .expect("the committer thread starts");
        Commits { mode: Mode::Grouped(send), counters }
    }

    pub(crate) fn stats(&self) -> CommitStats {
        let c = &self.counters;
        CommitStats {
            transactions: c.transactions.load(Ordering::Relaxed),
            writes: c.writes.load(Ordering::Relaxed),
            rolled_back: c.rolled_back.load(Ordering::Relaxed),
            largest: c.largest.load(Ordering::Relaxed),
        }
    }

    /// Runs `f` in a transaction and answers with its value once that transaction committed: its
    /// error (nothing of it kept) when it failed, the commit's error when the commit did.
    pub(crate) async fn write<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn Tx) -> Result<T> + Send + 'static,
    {
        match &self.mode {
            Mode::Single(store) => {
                let (store, counters) = (store.clone(), self.counters.clone());
                crate::blocking(move || {
                    let mut tx = store.begin()?;
                    let value = f(&mut *tx).inspect_err(|_| {
                        counters.rolled_back.fetch_add(1, Ordering::Relaxed);
                    })?;
                    tx.commit()?;
                    counters.committed(1);
                    Ok(value)
                })
                .await
            }
            Mode::Grouped(jobs) => {
                let (answer, answered) = oneshot::channel();
                let job = Box::new(Write { f: Some(f), value: None, answer });
                jobs.send(job).map_err(|_| Error::Stopped("the committer has stopped".into()))?;
                answered.await.map_err(|_| Error::Stopped("the committer stopped before it answered".into()))?
            }
        }
    }
}

/// A write waiting in the committer's queue.
pub(crate) trait Job: Send {
    /// Applies the write inside the open savepoint: `true` to keep it, `false` to roll it back.
    fn apply(&mut self, tx: &mut dyn Tx) -> bool;
    /// Answers the caller: `committed` is the batch's end (its commit's result, or why the batch
    /// was abandoned).
    fn answer(self: Box<Self>, committed: Result<(), store::Error>);
}

struct Write<T, F> {
    f: Option<F>,
    /// What `f` returned; `None` when it was not applied, or panicked.
    value: Option<Result<T>>,
    answer: oneshot::Sender<Result<T>>,
}

impl<T, F> Job for Write<T, F>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn Tx) -> Result<T> + Send + 'static,
{
    fn apply(&mut self, tx: &mut dyn Tx) -> bool {
        let Some(f) = self.f.take() else { return false };
        let value = f(tx);
        let keep = value.is_ok();
        self.value = Some(value);
        keep
    }

    fn answer(self: Box<Self>, committed: Result<(), store::Error>) {
        let answer = match (self.value, committed) {
            // Its own error: its writes were rolled back, whatever became of the batch.
            (Some(Err(e)), _) => Err(e),
            (Some(Ok(value)), Ok(())) => Ok(value),
            (_, Err(e)) => Err(Error::Store(e)),
            (None, Ok(())) => Err(Error::Stopped("the step panicked; its writes were rolled back".into())),
        };
        // A caller that stopped waiting (its task was dropped) needs no answer.
        let _ = self.answer.send(answer);
    }
}

/// The committer's loop: a batch of what is waiting, applied and committed, until the channel
/// closes.
fn committer(store: &dyn Store, jobs: &Receiver<Box<dyn Job>>, counters: &Counters) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        commit_batch(store, batch, counters);
    }
}

/// One transaction: each job in a savepoint, one commit, then every answer.
fn commit_batch(store: &dyn Store, mut batch: Vec<Box<dyn Job>>, counters: &Counters) {
    let mut tx = match store.begin() {
        Ok(tx) => tx,
        Err(e) => return answer_all(batch, &Err(e)),
    };
    let (mut lost, mut kept) = (None, 0);
    for job in &mut batch {
        if let Err(e) = tx.savepoint() {
            lost = Some(e);
            break;
        }
        // A panic is a failed step: its savepoint is rolled back, the batch goes on.
        let keep = catch_unwind(AssertUnwindSafe(|| job.apply(&mut *tx))).unwrap_or(false);
        let closed = if keep {
            kept += 1;
            tx.release_savepoint()
        } else {
            counters.rolled_back.fetch_add(1, Ordering::Relaxed);
            tx.rollback_savepoint()
        };
        if let Err(e) = closed {
            // The transaction is lost: nothing of the batch is kept.
            lost = Some(e);
            break;
        }
    }
    let committed = match lost {
        Some(e) => {
            drop(tx);
            Err(store::Error::Io(format!("the group's transaction was lost, nothing of it is kept: {e}")))
        }
        None => tx.commit().inspect(|()| counters.committed(kept)),
    };
    answer_all(batch, &committed);
}

fn answer_all(batch: Vec<Box<dyn Job>>, committed: &Result<(), store::Error>) {
    for job in batch {
        job.answer(committed.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::{Limits, RunStatus};

    fn new_run(id: &str) -> store::NewRun {
        store::NewRun {
            id: id.into(),
            workflow: "w".into(),
            identity: "ab".repeat(32),
            status: RunStatus::Live,
            snapshot: "{}".into(),
            input: None,
            created_at: 1,
            parent: None,
            dispatch_key: None,
        }
    }

    /// With the writer held, five writes queue into one batch: the one that panics and the one that
    /// fails are rolled back alone and answered with their errors, the three others commit.
    #[test]
    fn a_panic_or_an_error_in_a_batch_rolls_back_that_write_alone() {
        let dir =
            std::env::temp_dir().join(format!("jr2-commit-{}-{:?}", std::process::id(), std::thread::current().id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store: Arc<dyn Store> =
            Arc::new(store_sqlite::SqliteStore::open(&dir.join("jr2.db"), Limits::default()).unwrap());
        store::StoreExt::transaction(&*store, |tx| tx.put_ir(&"ab".repeat(32), "{}").map(|_| ())).unwrap();
        let commits = Arc::new(Commits::new(store.clone(), true));
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let held = store.begin().unwrap();
        let calls: Vec<_> = (0..5)
            .map(|n| {
                let commits = commits.clone();
                rt.spawn(async move {
                    commits
                        .write(move |tx| {
                            tx.create_run(&new_run(&format!("r{n}")))?;
                            match n {
                                1 => panic!("a step's bug"),
                                3 => Err(Error::Invalid("a step's own error".into())),
                                _ => Ok(n),
                            }
                        })
                        .await
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(200));
        drop(held);
        let answers: Vec<Result<usize>> = calls.into_iter().map(|c| rt.block_on(c).unwrap()).collect();
        for (n, answer) in answers.iter().enumerate() {
            match n {
                1 => assert!(matches!(answer, Err(Error::Stopped(_))), "{n}: {answer:?}"),
                3 => assert_eq!(answer, &Err(Error::Invalid("a step's own error".into()))),
                _ => assert_eq!(answer, &Ok(n)),
            }
        }
        let read = store.read().unwrap();
        for n in 0..5 {
            assert_eq!(read.run(&format!("r{n}")).unwrap().is_some(), n != 1 && n != 3, "r{n}");
        }
        let stats = commits.stats();
        assert_eq!((stats.writes, stats.rolled_back), (3, 2), "{stats:?}");
        assert!(stats.transactions <= 2, "at most the first write alone, then one batch: {stats:?}");
        drop(read);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
