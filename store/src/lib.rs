//! The rows a durable host keeps and the traits a store implements (issue 35, ADR-0067's ledger).
//!
//! Laid out as Restate's `storage-api` and DBOS's `SystemDatabase`: this crate names the rows and
//! the reads and writes over them, and knows no database; each backend is a crate of its own
//! (`store-sqlite`, later a PostgreSQL one) that implements [`Store`] and runs the
//! [`conformance`] suite from its tests. No driver type appears in any signature here.
//!
//! # The rows
//!
//! - A [`Run`]: its id, Workflow name, IR identity, [`RunStatus`], its snapshot (the runtime's
//!   stored form, `Runtime::encode`, as JSON text), its input, when it was created and last
//!   updated, its step number (how many times it was saved since its creation: the column
//!   optimistic concurrency compares), and where given the run that dispatched it and the
//!   dispatch's idempotency key (a column of its own, unique, so a re-sent start finds its run).
//! - The IR of each identity ([`Tx::put_ir`]), stored once: a run keeps the IR it started with.
//! - An Effect's [`Intent`]: the ledger row written before the Effect starts (run, actor,
//!   incarnation, slot, kind, input, `idempotent`, [`IntentState`]), settled once by its
//!   [`Outcome`].
//! - A [`Timer`]: run, timer id, incarnation, due time, event.
//! - The [`InboxEvent`]s of a run: events from outside (a Gate's answer, ...), each under an
//!   idempotency key, so one answer is taken once however often it is sent.
//!
//! # The transaction
//!
//! [`Store::begin`] gives a [`Tx`], on which the host reads a run and writes its new snapshot,
//! its new intents and timers, the settled intents, the fired timers and the consumed inbox rows;
//! [`Tx::commit`] makes all of it durable at once, and a `Tx` dropped without a commit (an error
//! midway, a panic) leaves nothing. [`StoreExt::transaction`] wraps the two. One transaction may
//! hold the macrosteps of several runs (group commit), each still whole: each in a savepoint of
//! its own ([`Tx::savepoint`]), so that one whose writes fail is rolled back alone ([`within`]).
//!
//! Optimistic concurrency: [`Tx::update_run`] names the step it read; a run saved since then is a
//! [`Error::Conflict`], and nothing of that transaction is kept once it is dropped.
//!
//! # Sync, not async
//!
//! The traits are synchronous and [`Store`] is `Send + Sync`; the host (tokio) calls them from a
//! blocking thread (`spawn_blocking`, or its one writer thread that groups commits). Why:
//! rusqlite is synchronous, and a commit is a `fsync`, blocking work that must not sit on an async
//! worker anyway; a synchronous trait is object-safe (`Arc<dyn Store>`) without boxed futures;
//! and a PostgreSQL backend implements it as well, with the `postgres` crate (a synchronous client
//! over tokio-postgres) or tokio-postgres driven from that blocking thread. An async trait would
//! have made SQLite's every call a `spawn_blocking` inside the backend, and a group commit would
//! still need the one writer.
//!
//! # Payloads
//!
//! A snapshot, an input, an event, an output or an error is JSON text the host wrote
//! (`serde_json`), kept as given: the store checks its size against [`Limits`], not its meaning
//! (the runtime's decoder checks a snapshot against its IR). Keeping text, not a parsed value,
//! means a deep value (a 200-level input) is stored and read back without a parser's depth limit,
//! and JavaScript's `-0` or `undefined` (the runtime's tagged forms) are not rewritten by a JSON
//! column type.
//!
//! # Errors
//!
//! Every call returns [`Error`], never panics: a row the store cannot read back (an unknown
//! status, a negative number, text that is not UTF-8) is [`Error::Corrupt`] naming the row.

use std::fmt;

pub mod conformance;

/// What a store call returns.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a store call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Another write won: the run was saved since the step the caller read, or a row of that key
    /// exists already (a run id, a dispatch key, an intent id), or an intent was settled already.
    /// Nothing of the transaction is kept once it is dropped; the caller reads again and retries.
    Conflict(String),
    /// The row the call names does not exist (a run, an intent, an inbox row, the IR a new run
    /// names).
    NotFound(String),
    /// A stored row cannot be read back as its type: it was written by something else, or damaged.
    Corrupt(String),
    /// A payload over its limit ([`Limits`]); nothing was written.
    TooLarge { what: &'static str, size: usize, limit: usize },
    /// The database was written by a newer version of the store than this one knows (its
    /// migrations go past ours); it is not opened, so nothing of it is misread or damaged.
    Version { found: u32, known: u32 },
    /// The backend failed: a disk, a lock, a driver error, the database's own message.
    Io(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Conflict(m) => write!(f, "conflict: {m}"),
            Error::NotFound(m) => write!(f, "not found: {m}"),
            Error::Corrupt(m) => write!(f, "corrupt row: {m}"),
            Error::TooLarge { what, size, limit } => {
                write!(f, "{what} is {size} bytes, over the store's limit of {limit} bytes")
            }
            Error::Version { found, known } => write!(
                f,
                "the database is at schema version {found}, newer than this store knows ({known}): \
                 open it with a newer jr2"
            ),
            Error::Io(m) => write!(f, "store I/O: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// The sizes past which a write is refused with [`Error::TooLarge`] (bytes of JSON text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A run's snapshot. The runtime bounds a context at 16 MiB; a snapshot holds a context and
    /// the rest of the run, so its default is four times that.
    pub snapshot: usize,
    /// An IR (`jr2 ir`'s JSON, child Machines inside).
    pub ir: usize,
    /// Any other payload: a run's input, an intent's input, an outcome, a timer's or an inbox
    /// event, and each key and name.
    pub payload: usize,
    /// The payload one paged read returns ([`Read::live_runs`], [`Read::unsettled_intents`],
    /// [`Read::timers`], [`Read::inbox`]): a page ends before the row that would take it past
    /// this many bytes (it holds one row at least), so that a page of large snapshots does not
    /// hold `limit` times the largest in memory.
    pub page: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { snapshot: 64 << 20, ir: 64 << 20, payload: 16 << 20, page: 64 << 20 }
    }
}

impl Limits {
    /// `Ok` when `text` is at most `limit` bytes, else [`Error::TooLarge`] naming `what`.
    pub fn check(what: &'static str, text: &str, limit: usize) -> Result<()> {
        if text.len() > limit {
            return Err(Error::TooLarge { what, size: text.len(), limit });
        }
        Ok(())
    }

    /// A new run's payloads against these limits.
    pub fn check_new_run(&self, run: &NewRun) -> Result<()> {
        Limits::check("a run's snapshot", &run.snapshot, self.snapshot)?;
        if let Some(input) = &run.input {
            Limits::check("a run's input", input, self.payload)?;
        }
        for (what, text) in
            [("a run id", &run.id), ("a Workflow name", &run.workflow), ("an IR identity", &run.identity)]
        {
            Limits::check(what, text, KEY_LIMIT)?;
        }
        for (what, text) in [("a parent run id", &run.parent), ("a dispatch key", &run.dispatch_key)] {
            if let Some(text) = text {
                Limits::check(what, text, KEY_LIMIT)?;
            }
        }
        Ok(())
    }

    /// A run's update against these limits.
    pub fn check_update(&self, update: &RunUpdate) -> Result<()> {
        Limits::check("a run's snapshot", &update.snapshot, self.snapshot)
    }

    /// An IR against these limits.
    pub fn check_ir(&self, identity: &str, ir: &str) -> Result<()> {
        Limits::check("an IR identity", identity, KEY_LIMIT)?;
        Limits::check("an IR", ir, self.ir)
    }

    /// An intent against these limits.
    pub fn check_intent(&self, intent: &Intent) -> Result<()> {
        for (what, text) in [
            ("an intent id", &intent.id),
            ("a run id", &intent.run),
            ("an actor id", &intent.actor),
            ("a slot name", &intent.slot),
            ("a slot kind", &intent.kind),
        ] {
            Limits::check(what, text, KEY_LIMIT)?;
        }
        if let Some(input) = &intent.input {
            Limits::check("an Effect's input", input, self.payload)?;
        }
        if let Some(outcome) = &intent.outcome {
            self.check_outcome(outcome)?;
        }
        Ok(())
    }

    /// An outcome against these limits.
    pub fn check_outcome(&self, outcome: &Outcome) -> Result<()> {
        Limits::check("an Effect's outcome", outcome.text(), self.payload)
    }

    /// A timer against these limits.
    pub fn check_timer(&self, timer: &Timer) -> Result<()> {
        Limits::check("a run id", &timer.run, KEY_LIMIT)?;
        Limits::check("a timer id", &timer.id, KEY_LIMIT)?;
        if let Some(event) = &timer.event {
            Limits::check("a timer's event", event, self.payload)?;
        }
        Ok(())
    }

    /// An inbox event against these limits.
    pub fn check_inbox(&self, event: &NewInboxEvent) -> Result<()> {
        Limits::check("a run id", &event.run, KEY_LIMIT)?;
        Limits::check("an idempotency key", &event.key, KEY_LIMIT)?;
        if let Some(sender) = &event.sender {
            Limits::check("an event's sender", sender, KEY_LIMIT)?;
        }
        Limits::check("an inbox event", &event.event, self.payload)
    }
}

/// The longest id, name or key a row holds (bytes): they are indexed, and no honest one is near.
pub const KEY_LIMIT: usize = 1024;

/// The most rows one read returns; a larger `limit` is read as this one (page with the cursor).
pub const MAX_PAGE: usize = 10_000;

/// Where a run is (RUNTIME.md's statuses: ADR-0025, ADR-0073).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunStatus {
    /// Still running: restored at start.
    Live,
    /// The root reached a final state: the work succeeded.
    Done,
    /// A Failure nothing caught (ADR-0073).
    Failed,
    /// A defect.
    Error,
    /// Cancelled from outside.
    Cancelled,
    /// A run the host could not go on with (its snapshot does not fit its IR).
    Lost,
    /// A run whose IR can no longer be loaded.
    Drifted,
}

impl RunStatus {
    /// Every status, in this order.
    pub const ALL: [RunStatus; 7] = [
        RunStatus::Live,
        RunStatus::Done,
        RunStatus::Failed,
        RunStatus::Error,
        RunStatus::Cancelled,
        RunStatus::Lost,
        RunStatus::Drifted,
    ];

    /// Its stored (and API) name.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Live => "live",
            RunStatus::Done => "done",
            RunStatus::Failed => "failed",
            RunStatus::Error => "error",
            RunStatus::Cancelled => "cancelled",
            RunStatus::Lost => "lost",
            RunStatus::Drifted => "drifted",
        }
    }

    /// The status of a stored name; `None` for any other text.
    pub fn parse(name: &str) -> Option<RunStatus> {
        RunStatus::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A run as the host creates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRun {
    pub id: String,
    /// The Workflow's name, as `jr2 run` names it.
    pub workflow: String,
    /// The identity of the IR it runs (`Machine::identity()`, 64 hex digits); its IR must be
    /// stored already ([`Tx::put_ir`], in the same transaction or before).
    pub identity: String,
    pub status: RunStatus,
    /// The runtime's stored form of its first snapshot (JSON text).
    pub snapshot: String,
    /// Its input (JSON text), where it was given one.
    pub input: Option<String>,
    /// The host's clock, in ms since the Unix epoch.
    pub created_at: u64,
    /// The run that dispatched it, where one did.
    pub parent: Option<String>,
    /// The dispatch's idempotency key (the caller's ledger row id, ADR-0071): unique, so a start
    /// sent again finds this run ([`Read::run_by_dispatch_key`]).
    pub dispatch_key: Option<String>,
}

/// A run's row without its snapshot and input: what a list shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunHead {
    pub id: String,
    pub workflow: String,
    pub identity: String,
    pub status: RunStatus,
    /// How many times the run was saved since its creation (0 at creation).
    pub step: u64,
    pub created_at: u64,
    pub updated_at: u64,
    pub parent: Option<String>,
    pub dispatch_key: Option<String>,
}

/// A run's whole row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub head: RunHead,
    pub snapshot: String,
    pub input: Option<String>,
}

/// A run's new state, written by [`Tx::update_run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunUpdate {
    pub status: RunStatus,
    pub snapshot: String,
    /// The host's clock, in ms since the Unix epoch.
    pub updated_at: u64,
}

/// Which runs [`Read::runs`] lists: newest first (by creation, then id), after the cursor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunFilter {
    pub workflow: Option<String>,
    pub status: Option<RunStatus>,
    /// Only runs older than this one (its `(created_at, id)`): the last row of the page before.
    pub before: Option<(u64, String)>,
    /// At most this many ([`MAX_PAGE`] at most).
    pub limit: usize,
}

/// Where an Effect's ledger row is (ADR-0067).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntentState {
    /// Written before the Effect starts; nothing has started it yet (as far as the store knows).
    Intended,
    /// The host started it.
    Started,
    /// Its outcome is known ([`Intent::outcome`]).
    Settled,
}

impl IntentState {
    pub fn as_str(self) -> &'static str {
        match self {
            IntentState::Intended => "intended",
            IntentState::Started => "started",
            IntentState::Settled => "settled",
        }
    }

    pub fn parse(name: &str) -> Option<IntentState> {
        [IntentState::Intended, IntentState::Started, IntentState::Settled].into_iter().find(|s| s.as_str() == name)
    }
}

/// How an Effect ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It finished; its output (JSON text), what `xstate.done.actor.<id>` carries. An Effect whose
    /// end a kill lost settles here with `{ "outcome": "unknown" }` (ADR-0067).
    Done(String),
    /// It failed; its error (JSON text), what `xstate.error.actor.<id>` carries.
    Error(String),
}

impl Outcome {
    /// Its JSON text, either kind.
    pub fn text(&self) -> &str {
        match self {
            Outcome::Done(t) | Outcome::Error(t) => t,
        }
    }
}

/// An Effect's ledger row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intent {
    /// The row's id, the host's: an Effect that runs again (an idempotent one on restore) runs
    /// under it, and a dispatch sends it as its idempotency key.
    pub id: String,
    pub run: String,
    /// The actor's id in the run, and its incarnation: an outcome names both.
    pub actor: String,
    pub incarnation: u64,
    /// The slot it runs (the invoke's `src`) and the slot's kind (`effect`, `agent`, ...).
    pub slot: String,
    pub kind: String,
    /// Its input (JSON text), where it has one.
    pub input: Option<String>,
    /// May it run again after a restart that cannot tell whether it ran (ADR-0067)?
    pub idempotent: bool,
    pub state: IntentState,
    /// Its outcome, once settled.
    pub outcome: Option<Outcome>,
    /// The row's first write (ms): an Effect's bound counts from it.
    pub created_at: u64,
    pub started_at: Option<u64>,
    pub settled_at: Option<u64>,
}

impl Intent {
    /// A new row, [`IntentState::Intended`], created `at`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: impl Into<String>,
        run: impl Into<String>,
        actor: impl Into<String>,
        incarnation: u64,
        slot: impl Into<String>,
        kind: impl Into<String>,
        input: Option<String>,
        idempotent: bool,
        at: u64,
    ) -> Intent {
        Intent {
            id: id.into(),
            run: run.into(),
            actor: actor.into(),
            incarnation,
            slot: slot.into(),
            kind: kind.into(),
            input,
            idempotent,
            state: IntentState::Intended,
            outcome: None,
            created_at: at,
            started_at: None,
            settled_at: None,
        }
    }
}

/// A timer a run waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timer {
    pub run: String,
    /// The runtime's timer id (`xstate.after.<delay>.<state>`, a send id).
    pub id: String,
    pub incarnation: u64,
    /// When it fires (the host's clock, ms since the Unix epoch).
    pub due: u64,
    /// The event it sends (JSON text), where it is not the `after` event its id names.
    pub event: Option<String>,
}

/// Where a timer read starts: the `(due, seq)` of the last row of the page before.
pub type TimerCursor = (u64, u64);

/// A stored timer with its place in the order timers were written (`seq`, increasing across the
/// store): timers due at one instant fire in the order they were set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimerRow {
    pub timer: Timer,
    pub seq: u64,
}

/// An event from outside a run, under its idempotency key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewInboxEvent {
    pub run: String,
    /// One answer is taken once: a second event under this key for this run is not added.
    pub key: String,
    /// The event (JSON text).
    pub event: String,
    pub received_at: u64,
    /// The party that sent it (a Gate's invoke id, an Agent slot's key), where one did: the run
    /// takes it as that party's event (the kit's `sentBy` guards read it).
    pub sender: Option<String>,
}

/// A stored inbox row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboxEvent {
    pub run: String,
    pub key: String,
    pub event: String,
    pub received_at: u64,
    /// Its place in the store's order of arrival.
    pub seq: u64,
    /// Has the run taken it ([`Tx::consume_inbox`])? A consumed row is kept, so that its key still
    /// refuses a repeat.
    pub consumed: bool,
    /// The party that sent it ([`NewInboxEvent::sender`]).
    pub sender: Option<String>,
}

/// What [`Tx::push_inbox`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// A new row, at this `seq`.
    New(u64),
    /// The key was there already (taken or waiting), at this `seq`: nothing was added.
    Duplicate(u64),
}

/// The reads, on a store ([`Store::read`]) and inside a transaction ([`Tx`], which sees its own
/// writes).
///
/// A paged read returns at most `limit` rows ([`MAX_PAGE`] at most), and fewer where their
/// payload reaches [`Limits::page`]; the next page starts after its last row. An empty page is the
/// end.
pub trait Read {
    /// A run by id.
    fn run(&self, id: &str) -> Result<Option<Run>>;
    /// The run a dispatch started under this idempotency key.
    fn run_by_dispatch_key(&self, key: &str) -> Result<Option<RunHead>>;
    /// Runs by Workflow and status, newest first ([`RunFilter`]).
    fn runs(&self, filter: &RunFilter) -> Result<Vec<RunHead>>;
    /// Every live run, whole, by id after `after`, at most `limit`: what a host restores at start.
    fn live_runs(&self, after: Option<&str>, limit: usize) -> Result<Vec<Run>>;
    /// The IR stored for an identity (JSON text).
    fn ir(&self, identity: &str) -> Result<Option<String>>;
    /// An intent by id.
    fn intent(&self, id: &str) -> Result<Option<Intent>>;
    /// A run's intents, in the order they were written.
    fn intents_of(&self, run: &str) -> Result<Vec<Intent>>;
    /// Every intent not settled, by id after `after`, at most `limit`: what a host settles or runs
    /// again at start.
    fn unsettled_intents(&self, after: Option<&str>, limit: usize) -> Result<Vec<Intent>>;
    /// Timers by due time (then the order they were set), due at or before `until` (every one for
    /// `None`), after the cursor, at most `limit`.
    fn timers(&self, until: Option<u64>, after: Option<TimerCursor>, limit: usize) -> Result<Vec<TimerRow>>;
    /// A run's timers, by due time and the order they were set.
    fn timers_of(&self, run: &str) -> Result<Vec<TimerRow>>;
    /// A run's inbox rows not consumed yet, in the order they arrived, at most `limit`.
    fn inbox(&self, run: &str, limit: usize) -> Result<Vec<InboxEvent>>;
}

/// A transaction: its writes are kept all together by [`Tx::commit`], or not at all (dropped).
///
/// After a call returns an error, drop the transaction, or roll it back to a savepoint opened
/// before the call ([`Tx::rollback_savepoint`]): a backend may refuse every later call of it
/// otherwise (PostgreSQL aborts a transaction at its first error), and a write that failed may
/// have left part of itself in it. [`StoreExt::transaction`] drops it with `?`; the host's group
/// commit rolls one run's macrostep back to its savepoint and keeps the others'.
pub trait Tx: Read {
    /// Store the IR of an identity once. `Ok(true)` when it is new; `Ok(false)` when the identity
    /// is stored already, which keeps the first text (an identity is the hash of what runs, so a
    /// later text of it differs only in what does not: descriptions).
    fn put_ir(&mut self, identity: &str, ir: &str) -> Result<bool>;
    /// Create a run at step 0. [`Error::Conflict`] when its id or its dispatch key is taken,
    /// [`Error::NotFound`] when its IR is not stored.
    fn create_run(&mut self, run: &NewRun) -> Result<()>;
    /// Save a run that the caller read at step `step`: it is now at `step + 1` (returned).
    /// [`Error::Conflict`] when it is at another step (saved since), [`Error::NotFound`] when
    /// there is no such run.
    fn update_run(&mut self, id: &str, step: u64, update: &RunUpdate) -> Result<u64>;
    /// Remove a run with its intents, timers and inbox rows (the history sweep, ADR-0065): its id
    /// and its dispatch key are free again. `Ok(false)` when there was none. The IR it named
    /// stays (other runs may name it).
    fn delete_run(&mut self, id: &str) -> Result<bool>;
    /// Write an Effect's ledger row, as given (usually [`IntentState::Intended`]).
    /// [`Error::NotFound`] when its run does not exist; else [`Error::Conflict`] when its id, or
    /// its run's actor incarnation, has a row already.
    fn put_intent(&mut self, intent: &Intent) -> Result<()>;
    /// The host started the Effect `at`. [`Error::Conflict`] when it is settled already.
    fn start_intent(&mut self, id: &str, at: u64) -> Result<()>;
    /// Settle an intent with its outcome `at`. [`Error::Conflict`] when it is settled already: an
    /// outcome settles it once.
    fn settle_intent(&mut self, id: &str, outcome: &Outcome, at: u64) -> Result<()>;
    /// Set a timer. [`Error::Conflict`] when this run has this timer id and incarnation already.
    fn put_timer(&mut self, timer: &Timer) -> Result<()>;
    /// Remove a timer (fired or cancelled): `Ok(false)` when there was none.
    fn delete_timer(&mut self, run: &str, id: &str, incarnation: u64) -> Result<bool>;
    /// Add an event to a run's inbox, once per key ([`Pushed`]). [`Error::NotFound`] when the run
    /// does not exist.
    fn push_inbox(&mut self, event: &NewInboxEvent) -> Result<Pushed>;
    /// The run took the inbox row `seq`. [`Error::NotFound`] when the run has no such row,
    /// [`Error::Conflict`] when it was consumed already.
    fn consume_inbox(&mut self, run: &str, seq: u64) -> Result<()>;
    /// Open a savepoint: a mark that [`Tx::rollback_savepoint`] undoes the transaction's writes
    /// back to, while the writes before it stay. Savepoints nest; each is closed by a release or a
    /// rollback, the innermost first. The host's group commit applies each run's macrostep in one,
    /// so that a step whose writes fail is rolled back alone.
    fn savepoint(&mut self) -> Result<()>;
    /// Close the innermost savepoint, keeping its writes in the transaction (they are still kept
    /// only by [`Tx::commit`]). [`Error::NotFound`] when no savepoint is open.
    fn release_savepoint(&mut self) -> Result<()>;
    /// Undo every write since the innermost savepoint and close it: the transaction goes on as it
    /// was when the savepoint was opened, also after a call inside it returned an error.
    /// [`Error::NotFound`] when no savepoint is open; an error when the backend lost the whole
    /// transaction (a full disk, an I/O error end it), after which the transaction is dropped.
    fn rollback_savepoint(&mut self) -> Result<()>;
    /// Make every write of this transaction durable, together. Once it returns `Ok`, a crash
    /// keeps them; when it returns an error, none is kept.
    fn commit(self: Box<Self>) -> Result<()>;
}

/// Run `f` inside a savepoint of `tx`: its writes are released into the transaction when it
/// returns `Ok`, rolled back alone when it returns an error (which is returned). When the
/// rollback itself fails, that error is returned instead: the transaction is lost, drop it.
pub fn within<T>(tx: &mut dyn Tx, f: impl FnOnce(&mut dyn Tx) -> Result<T>) -> Result<T> {
    tx.savepoint()?;
    match f(tx) {
        Ok(value) => {
            tx.release_savepoint()?;
            Ok(value)
        }
        Err(e) => {
            tx.rollback_savepoint()?;
            Err(e)
        }
    }
}

/// A store: transactions and reads over one database. `Send + Sync`, so one handle serves the
/// host's threads; its calls block (see the module's "Sync, not async").
pub trait Store: Send + Sync {
    /// Begin a write transaction. A backend with one writer makes a second caller wait here until
    /// the first commits or drops its transaction; a thread that holds the one writer and begins
    /// again gets [`Error::Conflict`] rather than waiting for itself.
    fn begin(&self) -> Result<Box<dyn Tx + '_>>;
    /// A read view: its reads see one committed state of the store, and never wait for a writer.
    fn read(&self) -> Result<Box<dyn Read + '_>>;
    /// The limits its writes are checked against.
    fn limits(&self) -> Limits;
}

/// What every store (and `dyn Store`) can do with its transactions.
pub trait StoreExt: Store {
    /// Run `f` in a transaction: commit when it returns `Ok`, roll back (drop) when it returns an
    /// error, which is returned.
    fn transaction<T>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T>) -> Result<T> {
        let mut tx = self.begin()?;
        let value = f(&mut *tx)?;
        tx.commit()?;
        Ok(value)
    }
}

impl<S: Store + ?Sized> StoreExt for S {}

/// The page size a read uses for `limit`: at most [`MAX_PAGE`].
pub fn page(limit: usize) -> usize {
    limit.min(MAX_PAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_and_states_read_back_their_names_only() {
        for s in RunStatus::ALL {
            assert_eq!(RunStatus::parse(s.as_str()), Some(s));
        }
        for s in [IntentState::Intended, IntentState::Started, IntentState::Settled] {
            assert_eq!(IntentState::parse(s.as_str()), Some(s));
        }
        assert_eq!(RunStatus::parse("Live"), None);
        assert_eq!(RunStatus::parse(""), None);
        assert_eq!(IntentState::parse("done"), None);
    }

    #[test]
    fn a_payload_over_its_limit_names_what_and_how_large() {
        assert_eq!(Limits::check("a run's snapshot", "12345", 5), Ok(()));
        let e = Limits::check("a run's snapshot", "123456", 5).unwrap_err();
        assert_eq!(e, Error::TooLarge { what: "a run's snapshot", size: 6, limit: 5 });
        assert_eq!(e.to_string(), "a run's snapshot is 6 bytes, over the store's limit of 5 bytes");
        assert_eq!(page(usize::MAX), MAX_PAGE);
        assert_eq!(page(0), 0);
    }
}
