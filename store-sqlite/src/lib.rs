//! The store ([`store::Store`]) on an embedded SQLite database, the default backend of
//! `jr2 serve` (`INSTANCE/.jr2/jr2.db`).
//!
//! - **WAL** (`journal_mode=WAL`): readers never wait for the writer and the writer never waits
//!   for readers; a commit appends to the log.
//! - **`synchronous=FULL`**: a commit returns after the log is synced, so an acknowledged commit
//!   survives a crash of the process and a power cut (NORMAL keeps it across a process crash only).
//! - **One writer**: one connection behind a mutex writes; [`store::Store::begin`] takes it and
//!   opens `BEGIN IMMEDIATE`, so a second writer waits for the first to commit or roll back
//!   instead of failing with `SQLITE_BUSY` halfway through. Reads go to a few read-only
//!   connections of their own ([`READERS`]), each read view one deferred transaction (one
//!   committed state).
//! - **Foreign keys on**, STRICT tables: a row that names a run that does not exist, or a column
//!   of the wrong type, is refused by SQLite itself.
//! - **Numbered migrations**: `migrations/NNNN_name.sql`, applied in order at open, each in its
//!   own transaction with its row in `jr2_migrations`; a database whose migrations go past the
//!   ones this build knows is refused ([`store::Error::Version`]), never written.
//!
//! No rusqlite type appears in a public signature: every error is a [`store::Error`].

use rusqlite::types::Value;
use rusqlite::{params, Connection, ErrorCode, OpenFlags, Row};
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use store::{
    page, Error, Intent, IntentState, Limits, NewInboxEvent, NewRun, Outcome, Pushed, Read, Result, Run, RunFilter,
    RunHead, RunStatus, RunUpdate, Store, Timer, TimerCursor, TimerRow, Tx,
};

/// A numbered migration: `migrations/<version as 4 digits>_<name>.sql`.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

/// Every migration, in order; a test checks this list against the `migrations/` folder (the same
/// files, numbered from 1 with no gap).
pub const MIGRATIONS: &[Migration] = &[
    Migration { version: 1, name: "0001_init.sql", sql: include_str!("../migrations/0001_init.sql") },
    Migration { version: 2, name: "0002_inbox_sender.sql", sql: include_str!("../migrations/0002_inbox_sender.sql") },
];

/// How many read-only connections serve read views at once.
pub const READERS: usize = 4;

/// How long a connection waits for a lock another process holds before it is an error.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// What [`SqliteStore::settings`] reads back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `wal`.
    pub journal_mode: String,
    /// `synchronous` is FULL (2).
    pub synchronous_full: bool,
    pub foreign_keys: bool,
}

/// The store on one SQLite database file.
pub struct SqliteStore {
    writer: Mutex<Connection>,
    /// The thread that holds the writer ([`thread_token`]), 0 for none: a second `begin` on it
    /// would wait for itself for ever, and is refused instead.
    writer_holder: AtomicU64,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
    limits: Limits,
}

impl SqliteStore {
    /// Open (or create) the database at `path`: set its pragmas, apply the migrations it lacks,
    /// refuse one newer than this build.
    pub fn open(path: &Path, limits: Limits) -> Result<SqliteStore> {
        let mut writer = Connection::open(path).map_err(io)?;
        configure(&writer)?;
        let mode: String = writer.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).map_err(io)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::Io(format!("SQLite would not use WAL for {} (it kept {mode})", path.display())));
        }
        migrate(&mut writer)?;
        let readers = (0..READERS)
            .map(|_| {
                let reader = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
                )
                .map_err(io)?;
                configure(&reader)?;
                Ok(Mutex::new(reader))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(SqliteStore {
            writer: Mutex::new(writer),
            writer_holder: AtomicU64::new(0),
            readers,
            next_reader: AtomicUsize::new(0),
            limits,
        })
    }

    /// The settings the writer connection runs with, read back from SQLite.
    pub fn settings(&self) -> Result<Settings> {
        let conn = lock(&self.writer);
        let get =
            |pragma: &str| conn.query_row(&format!("PRAGMA {pragma}"), [], |r| r.get::<_, rusqlite::types::Value>(0));
        let journal_mode = match get("journal_mode").map_err(io)? {
            rusqlite::types::Value::Text(t) => t,
            other => return Err(Error::Io(format!("journal_mode reads {other:?}"))),
        };
        let int = |v: rusqlite::types::Value| match v {
            rusqlite::types::Value::Integer(n) => Ok(n),
            other => Err(Error::Io(format!("a pragma reads {other:?}"))),
        };
        Ok(Settings {
            journal_mode,
            synchronous_full: int(get("synchronous").map_err(io)?)? == 2,
            foreign_keys: int(get("foreign_keys").map_err(io)?)? == 1,
        })
    }

    /// The schema version of the database (its last migration applied).
    pub fn schema_version(&self) -> Result<u32> {
        version(&lock(&self.writer))
    }
}

/// The pragmas every connection runs with.
fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT).map_err(io)?;
    // Every statement the store runs stays prepared (there are about 30, a few per read filter).
    conn.set_prepared_statement_cache_capacity(64);
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;").map_err(io)?;
    Ok(())
}

/// The last migration applied (0 for a new database).
fn version(conn: &Connection) -> Result<u32> {
    let v: Option<i64> = conn.query_row("SELECT max(version) FROM jr2_migrations", [], |r| r.get(0)).map_err(io)?;
    let v = v.unwrap_or(0);
    u32::try_from(v).map_err(|_| Error::Corrupt(format!("jr2_migrations holds the version {v}")))
}

/// Apply the migrations the database lacks, each in one transaction with its row.
fn migrate(conn: &mut Connection) -> Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS jr2_migrations (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at INTEGER NOT NULL
        ) STRICT;",
    )
    .map_err(io)?;
    let known = MIGRATIONS.last().map_or(0, |m| m.version);
    let found = version(conn)?;
    if found > known {
        return Err(Error::Version { found, known });
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    for m in MIGRATIONS.iter().filter(|m| m.version > found) {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(io)?;
        tx.execute_batch(m.sql).map_err(|e| Error::Io(format!("migration {}: {e}", m.name)))?;
        tx.execute(
            "INSERT INTO jr2_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
            params![m.version, m.name, now],
        )
        .map_err(io)?;
        tx.commit().map_err(io)?;
    }
    Ok(())
}

/// A number of the calling thread, never 0: what `writer_holder` compares.
fn thread_token() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        static TOKEN: u64 = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    TOKEN.with(|t| *t)
}

/// A mutex's guard, also after a panic of a holder: a transaction it held was rolled back when it
/// was dropped, so the connection is sound.
fn lock(m: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Store for SqliteStore {
    fn begin(&self) -> Result<Box<dyn Tx + '_>> {
        let me = thread_token();
        if self.writer_holder.load(Ordering::Acquire) == me {
            return Err(Error::Conflict(
                "this thread holds the store's one writer already: commit or drop its transaction first".into(),
            ));
        }
        let conn = lock(&self.writer);
        conn.execute_batch("BEGIN IMMEDIATE").map_err(io)?;
        self.writer_holder.store(me, Ordering::Release);
        Ok(Box::new(SqliteTx { conn, holder: &self.writer_holder, limits: self.limits, open: true, savepoints: 0 }))
    }

    fn read(&self) -> Result<Box<dyn Read + '_>> {
        // A free reader if there is one, else wait for the next in turn.
        let conn = self.readers.iter().find_map(|m| m.try_lock().ok()).unwrap_or_else(|| {
            let n = self.next_reader.fetch_add(1, Ordering::Relaxed) % self.readers.len();
            lock(&self.readers[n])
        });
        conn.execute_batch("BEGIN DEFERRED").map_err(io)?;
        Ok(Box::new(SqliteRead { conn, limits: self.limits }))
    }

    fn limits(&self) -> Limits {
        self.limits
    }
}

/// A read view: one deferred transaction on a read-only connection, ended when dropped.
struct SqliteRead<'a> {
    conn: MutexGuard<'a, Connection>,
    limits: Limits,
}

impl Drop for SqliteRead<'_> {
    fn drop(&mut self) {
        // Ending a read transaction cannot lose anything; a failure leaves it to the next BEGIN,
        // which fails and reports it.
        let _ = self.conn.execute_batch("COMMIT");
    }
}

/// The write transaction, on the writer connection (held for its life).
struct SqliteTx<'a> {
    conn: MutexGuard<'a, Connection>,
    /// The store's record of the writer's thread, cleared when the transaction ends.
    holder: &'a AtomicU64,
    limits: Limits,
    /// Still to be committed or rolled back.
    open: bool,
    /// How many savepoints are open (`sp1` ... `spN`, the innermost last).
    savepoints: usize,
}

impl Drop for SqliteTx<'_> {
    fn drop(&mut self) {
        // Cleared before the guard is released (fields drop after this body).
        self.holder.store(0, Ordering::Release);
        if self.open {
            // Nothing of it is kept. A failed ROLLBACK means SQLite rolled back already (a full
            // disk, an I/O error end the transaction themselves).
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

/// The connection a read runs on.
trait Conn {
    fn conn(&self) -> &Connection;
    fn limits(&self) -> Limits;
}

impl Conn for SqliteRead<'_> {
    fn conn(&self) -> &Connection {
        &self.conn
    }

    fn limits(&self) -> Limits {
        self.limits
    }
}

impl Conn for SqliteTx<'_> {
    fn conn(&self) -> &Connection {
        &self.conn
    }

    fn limits(&self) -> Limits {
        self.limits
    }
}

/// A driver error as the store's: constraint violations as what they mean, unreadable values as
/// corrupt rows, the rest as I/O.
fn io(e: rusqlite::Error) -> Error {
    match &e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::ConstraintViolation => {
            const FOREIGN_KEY: i32 = 787;
            if f.extended_code == FOREIGN_KEY {
                Error::NotFound(format!("a row it names does not exist ({e})"))
            } else {
                Error::Conflict(format!("a row of this key exists already ({e})"))
            }
        }
        rusqlite::Error::FromSqlConversionFailure(..)
        | rusqlite::Error::InvalidColumnType(..)
        | rusqlite::Error::IntegralValueOutOfRange(..)
        | rusqlite::Error::Utf8Error(..) => Error::Corrupt(e.to_string()),
        _ => Error::Io(e.to_string()),
    }
}

/// A stored integer that must be a `u64` (a time, a step, an incarnation, a seq).
fn unsigned(row: &Row<'_>, column: &str, what: &str) -> Result<u64> {
    let v: i64 = row.get(column).map_err(|e| corrupt(what, e))?;
    u64::try_from(v).map_err(|_| Error::Corrupt(format!("{what}: {column} is {v}")))
}

fn opt_unsigned(row: &Row<'_>, column: &str, what: &str) -> Result<Option<u64>> {
    let v: Option<i64> = row.get(column).map_err(|e| corrupt(what, e))?;
    v.map(|v| u64::try_from(v).map_err(|_| Error::Corrupt(format!("{what}: {column} is {v}")))).transpose()
}

fn text(row: &Row<'_>, column: &str, what: &str) -> Result<String> {
    row.get(column).map_err(|e| corrupt(what, e))
}

fn opt_text(row: &Row<'_>, column: &str, what: &str) -> Result<Option<String>> {
    row.get(column).map_err(|e| corrupt(what, e))
}

/// A column that cannot be read as its type: the row names itself in `what`.
fn corrupt(what: &str, e: rusqlite::Error) -> Error {
    match io(e) {
        Error::Corrupt(m) => Error::Corrupt(format!("{what}: {m}")),
        other => other,
    }
}

/// A `u64` as SQLite's signed 64-bit integer; past `i64::MAX` it cannot be stored.
fn int(v: u64, what: &str) -> Result<i64> {
    i64::try_from(v).map_err(|_| Error::Io(format!("{what} {v} is past the largest integer SQLite stores")))
}

const HEAD: &str = "id, workflow, identity, status, step, created_at, updated_at, parent, dispatch_key";
const RUN: &str = "id, workflow, identity, status, step, created_at, updated_at, parent, dispatch_key, snapshot, input";
const INTENT: &str = "id, run, actor, incarnation, slot, kind, input, idempotent, state, outcome_kind, outcome, \
                      created_at, started_at, settled_at";
const TIMER: &str = "seq, run, id, incarnation, due, event";
const INBOX: &str = "seq, run, key, event, received_at, consumed, sender";

fn head(row: &Row<'_>) -> Result<RunHead> {
    let id = text(row, "id", "a run")?;
    let what = format!("run {id:?}");
    let status = text(row, "status", &what)?;
    Ok(RunHead {
        workflow: text(row, "workflow", &what)?,
        identity: text(row, "identity", &what)?,
        status: RunStatus::parse(&status)
            .ok_or_else(|| Error::Corrupt(format!("{what}: its status {status:?} is no run status")))?,
        step: unsigned(row, "step", &what)?,
        created_at: unsigned(row, "created_at", &what)?,
        updated_at: unsigned(row, "updated_at", &what)?,
        parent: opt_text(row, "parent", &what)?,
        dispatch_key: opt_text(row, "dispatch_key", &what)?,
        id,
    })
}

fn run(row: &Row<'_>) -> Result<Run> {
    let head = head(row)?;
    let what = format!("run {:?}", head.id);
    Ok(Run { snapshot: text(row, "snapshot", &what)?, input: opt_text(row, "input", &what)?, head })
}

fn intent(row: &Row<'_>) -> Result<Intent> {
    let id = text(row, "id", "an intent")?;
    let what = format!("intent {id:?}");
    let state = text(row, "state", &what)?;
    let state = IntentState::parse(&state)
        .ok_or_else(|| Error::Corrupt(format!("{what}: its state {state:?} is no intent state")))?;
    let kind = opt_text(row, "outcome_kind", &what)?;
    let body = opt_text(row, "outcome", &what)?;
    let outcome = match (kind.as_deref(), body) {
        (None, None) => None,
        (Some("done"), Some(b)) => Some(Outcome::Done(b)),
        (Some("error"), Some(b)) => Some(Outcome::Error(b)),
        (k, _) => return Err(Error::Corrupt(format!("{what}: its outcome kind {k:?} does not match its outcome"))),
    };
    if (state == IntentState::Settled) != outcome.is_some() {
        return Err(Error::Corrupt(format!(
            "{what}: {} with{} outcome",
            state.as_str(),
            ["", "out"][outcome.is_none() as usize]
        )));
    }
    let idempotent: i64 = row.get("idempotent").map_err(|e| corrupt(&what, e))?;
    Ok(Intent {
        run: text(row, "run", &what)?,
        actor: text(row, "actor", &what)?,
        incarnation: unsigned(row, "incarnation", &what)?,
        slot: text(row, "slot", &what)?,
        kind: text(row, "kind", &what)?,
        input: opt_text(row, "input", &what)?,
        idempotent: match idempotent {
            0 => false,
            1 => true,
            n => return Err(Error::Corrupt(format!("{what}: idempotent is {n}"))),
        },
        state,
        outcome,
        created_at: unsigned(row, "created_at", &what)?,
        started_at: opt_unsigned(row, "started_at", &what)?,
        settled_at: opt_unsigned(row, "settled_at", &what)?,
        id,
    })
}

fn timer(row: &Row<'_>) -> Result<TimerRow> {
    let run = text(row, "run", "a timer")?;
    let id = text(row, "id", "a timer")?;
    let what = format!("timer {id:?} of run {run:?}");
    Ok(TimerRow {
        seq: unsigned(row, "seq", &what)?,
        timer: Timer {
            incarnation: unsigned(row, "incarnation", &what)?,
            due: unsigned(row, "due", &what)?,
            event: opt_text(row, "event", &what)?,
            run,
            id,
        },
    })
}

fn inbox_row(row: &Row<'_>) -> Result<store::InboxEvent> {
    let run = text(row, "run", "an inbox row")?;
    let key = text(row, "key", "an inbox row")?;
    let what = format!("inbox row {key:?} of run {run:?}");
    let consumed: i64 = row.get("consumed").map_err(|e| corrupt(&what, e))?;
    Ok(store::InboxEvent {
        event: text(row, "event", &what)?,
        received_at: unsigned(row, "received_at", &what)?,
        seq: unsigned(row, "seq", &what)?,
        consumed: consumed != 0,
        sender: opt_text(row, "sender", &what)?,
        run,
        key,
    })
}

/// Every row of a query, each read by `read`.
fn rows<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    read: impl Fn(&Row<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    paged(conn, sql, params, read, |_| 0, usize::MAX)
}

/// The rows of a paged query, ending before the row that would take their payload (`size`) past
/// `budget` bytes; the first row is always taken.
fn paged<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    read: impl Fn(&Row<'_>) -> Result<T>,
    size: impl Fn(&T) -> usize,
    budget: usize,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql).map_err(io)?;
    let mut rows = stmt.query(params).map_err(io)?;
    let (mut out, mut bytes) = (Vec::new(), 0usize);
    while let Some(row) = rows.next().map_err(io)? {
        let item = read(row)?;
        bytes = bytes.saturating_add(size(&item));
        if bytes > budget && !out.is_empty() {
            break;
        }
        out.push(item);
    }
    Ok(out)
}

/// The row of a query, if any.
fn one<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    read: impl Fn(&Row<'_>) -> Result<T>,
) -> Result<Option<T>> {
    let mut stmt = conn.prepare_cached(sql).map_err(io)?;
    let mut rows = stmt.query(params).map_err(io)?;
    rows.next().map_err(io)?.map(read).transpose()
}

fn limit(n: usize) -> i64 {
    page(n) as i64
}

/// A query's `WHERE` clause, written from the conditions a read was given (only those, so that
/// SQLite plans each with its index), and its parameters.
#[derive(Default)]
struct Query {
    clause: String,
    params: Vec<Value>,
}

impl Query {
    fn and<const N: usize>(&mut self, condition: &str, params: [Value; N]) {
        self.clause.push_str(if self.clause.is_empty() { " WHERE " } else { " AND " });
        self.clause.push_str(condition);
        self.params.extend(params);
    }

    /// Its parameters, then the page's limit (the last `?`).
    fn limit(mut self, n: usize) -> rusqlite::ParamsFromIter<Vec<Value>> {
        self.params.push(Value::Integer(limit(n)));
        rusqlite::params_from_iter(self.params)
    }
}

/// The reads, the same on a read view and inside a transaction (which sees its own writes).
macro_rules! reads {
    ($t:ty) => {
        impl Read for $t {
            fn run(&self, id: &str) -> Result<Option<Run>> {
                one(self.conn(), &format!("SELECT {RUN} FROM runs WHERE id = ?1"), [id], run)
            }

            fn run_by_dispatch_key(&self, key: &str) -> Result<Option<RunHead>> {
                one(self.conn(), &format!("SELECT {HEAD} FROM runs WHERE dispatch_key = ?1"), [key], head)
            }

            fn runs(&self, filter: &RunFilter) -> Result<Vec<RunHead>> {
                let mut query = Query::default();
                if let Some(w) = &filter.workflow {
                    query.and("workflow = ?", [Value::Text(w.clone())]);
                }
                if let Some(status) = filter.status {
                    query.and("status = ?", [Value::Text(status.as_str().into())]);
                }
                if let Some((at, id)) = &filter.before {
                    query.and(
                        "(created_at, id) < (?, ?)",
                        [Value::Integer(int(*at, "a cursor's time")?), Value::Text(id.clone())],
                    );
                }
                let sql = format!("SELECT {HEAD} FROM runs{} ORDER BY created_at DESC, id DESC LIMIT ?", query.clause);
                rows(self.conn(), &sql, query.limit(filter.limit), head)
            }

            fn live_runs(&self, after: Option<&str>, n: usize) -> Result<Vec<Run>> {
                let mut query = Query::default();
                query.and("status = 'live'", []);
                if let Some(after) = after {
                    query.and("id > ?", [Value::Text(after.into())]);
                }
                // The partial index of the live runs, in id order (the planner would take `runs_status`
                // and sort).
                let sql = format!("SELECT {RUN} FROM runs INDEXED BY runs_live{} ORDER BY id LIMIT ?", query.clause);
                let size = |r: &Run| r.snapshot.len() + r.input.as_ref().map_or(0, String::len);
                paged(self.conn(), &sql, query.limit(n), run, size, self.limits().page)
            }

            fn ir(&self, identity: &str) -> Result<Option<String>> {
                one(self.conn(), "SELECT ir FROM irs WHERE identity = ?1", [identity], |r| {
                    text(r, "ir", &format!("the IR of {identity}"))
                })
            }

            fn intent(&self, id: &str) -> Result<Option<Intent>> {
                one(self.conn(), &format!("SELECT {INTENT} FROM intents WHERE id = ?1"), [id], intent)
            }

            fn intents_of(&self, run: &str) -> Result<Vec<Intent>> {
                rows(self.conn(), &format!("SELECT {INTENT} FROM intents WHERE run = ?1 ORDER BY seq"), [run], intent)
            }

            fn unsettled_intents(&self, after: Option<&str>, n: usize) -> Result<Vec<Intent>> {
                let mut query = Query::default();
                query.and("state <> 'settled'", []);
                if let Some(after) = after {
                    query.and("id > ?", [Value::Text(after.into())]);
                }
                let sql = format!("SELECT {INTENT} FROM intents{} ORDER BY id LIMIT ?", query.clause);
                let size = |i: &Intent| i.input.as_ref().map_or(0, String::len);
                paged(self.conn(), &sql, query.limit(n), intent, size, self.limits().page)
            }

            fn timers(&self, until: Option<u64>, after: Option<TimerCursor>, n: usize) -> Result<Vec<TimerRow>> {
                let mut query = Query::default();
                if let Some(until) = until {
                    // Past SQLite's largest integer, every timer is due.
                    if let Ok(until) = i64::try_from(until) {
                        query.and("due <= ?", [Value::Integer(until)]);
                    }
                }
                if let Some((due, seq)) = after {
                    query.and(
                        "(due, seq) > (?, ?)",
                        [Value::Integer(int(due, "a cursor's due time")?), Value::Integer(int(seq, "a cursor's seq")?)],
                    );
                }
                let sql = format!("SELECT {TIMER} FROM timers{} ORDER BY due, seq LIMIT ?", query.clause);
                let size = |t: &TimerRow| t.timer.event.as_ref().map_or(0, String::len);
                paged(self.conn(), &sql, query.limit(n), timer, size, self.limits().page)
            }

            fn timers_of(&self, run: &str) -> Result<Vec<TimerRow>> {
                rows(self.conn(), &format!("SELECT {TIMER} FROM timers WHERE run = ?1 ORDER BY due, seq"), [run], timer)
            }

            fn inbox(&self, run: &str, n: usize) -> Result<Vec<store::InboxEvent>> {
                let sql = format!("SELECT {INBOX} FROM inbox WHERE run = ?1 AND consumed = 0 ORDER BY seq LIMIT ?2");
                let size = |e: &store::InboxEvent| e.event.len();
                paged(self.conn(), &sql, params![run, limit(n)], inbox_row, size, self.limits().page)
            }
        }
    };
}

reads!(SqliteRead<'_>);
reads!(SqliteTx<'_>);

impl SqliteTx<'_> {
    /// Does a run of this id exist?
    fn has_run(&self, id: &str) -> Result<bool> {
        Ok(one(&self.conn, "SELECT 1 FROM runs WHERE id = ?1", [id], |_| Ok(()))?.is_some())
    }

    /// An intent's state, if it exists.
    fn intent_state(&self, id: &str) -> Result<Option<IntentState>> {
        let state = one(&self.conn, "SELECT state FROM intents WHERE id = ?1", [id], |r| {
            text(r, "state", &format!("intent {id:?}"))
        })?;
        state
            .map(|s| IntentState::parse(&s).ok_or_else(|| Error::Corrupt(format!("intent {id:?}: its state {s:?}"))))
            .transpose()
    }

    fn execute(&self, sql: &str, params: impl rusqlite::Params) -> Result<usize> {
        self.alive()?;
        self.conn.prepare_cached(sql).map_err(io)?.execute(params).map_err(io)
    }

    /// `Ok` while the transaction is open. SQLite ends a transaction itself on some errors (a full
    /// disk, an I/O error, out of memory); a write after that would commit on its own, outside any
    /// transaction, so it is refused instead.
    fn alive(&self) -> Result<()> {
        if self.conn.is_autocommit() {
            return Err(Error::Io(
                "SQLite rolled this transaction back after an earlier error: nothing of it is kept".into(),
            ));
        }
        Ok(())
    }
}

impl Tx for SqliteTx<'_> {
    fn put_ir(&mut self, identity: &str, ir: &str) -> Result<bool> {
        self.limits.check_ir(identity, ir)?;
        let n =
            self.execute("INSERT INTO irs (identity, ir) VALUES (?1, ?2) ON CONFLICT DO NOTHING", [identity, ir])?;
        Ok(n == 1)
    }

    fn create_run(&mut self, r: &NewRun) -> Result<()> {
        self.limits.check_new_run(r)?;
        if one(&self.conn, "SELECT 1 FROM irs WHERE identity = ?1", [&r.identity], |_| Ok(()))?.is_none() {
            return Err(Error::NotFound(format!("run {:?} names the IR {}, which is not stored", r.id, r.identity)));
        }
        let at = int(r.created_at, "a creation time")?;
        self.execute(
            "INSERT INTO runs (id, workflow, identity, status, step, snapshot, input, created_at, updated_at,
                               parent, dispatch_key)
             VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?7, ?8, ?9)",
            params![r.id, r.workflow, r.identity, r.status.as_str(), r.snapshot, r.input, at, r.parent, r.dispatch_key],
        )
        .map_err(|e| match e {
            Error::Conflict(m) => Error::Conflict(format!("run {:?}: its id or dispatch key is taken ({m})", r.id)),
            e => e,
        })?;
        Ok(())
    }

    fn update_run(&mut self, id: &str, step: u64, u: &RunUpdate) -> Result<u64> {
        self.limits.check_update(u)?;
        let next = step.checked_add(1).ok_or_else(|| Error::Conflict(format!("run {id:?} is at the last step")))?;
        let n = self.execute(
            "UPDATE runs SET status = ?1, snapshot = ?2, updated_at = ?3, step = ?4 WHERE id = ?5 AND step = ?6",
            params![
                u.status.as_str(),
                u.snapshot,
                int(u.updated_at, "an update time")?,
                int(next, "a step")?,
                id,
                int(step, "a step")?
            ],
        )?;
        if n == 1 {
            return Ok(next);
        }
        match self.run(id)? {
            None => Err(Error::NotFound(format!("no run {id:?}"))),
            Some(r) => {
                Err(Error::Conflict(format!("run {id:?} is at step {}, not {step}: it was saved since", r.head.step)))
            }
        }
    }

    fn delete_run(&mut self, id: &str) -> Result<bool> {
        // Intents, timers and inbox rows go with it (ON DELETE CASCADE, foreign keys on).
        Ok(self.execute("DELETE FROM runs WHERE id = ?1", [id])? == 1)
    }

    fn put_intent(&mut self, i: &Intent) -> Result<()> {
        self.limits.check_intent(i)?;
        if !self.has_run(&i.run)? {
            return Err(Error::NotFound(format!("intent {:?} names run {:?}, which does not exist", i.id, i.run)));
        }
        let (kind, body) = match &i.outcome {
            None => (None, None),
            Some(Outcome::Done(b)) => (Some("done"), Some(b.as_str())),
            Some(Outcome::Error(b)) => (Some("error"), Some(b.as_str())),
        };
        self.execute(
            "INSERT INTO intents (id, run, actor, incarnation, slot, kind, input, idempotent, state, outcome_kind,
                                  outcome, created_at, started_at, settled_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                i.id,
                i.run,
                i.actor,
                int(i.incarnation, "an incarnation")?,
                i.slot,
                i.kind,
                i.input,
                i.idempotent as i64,
                i.state.as_str(),
                kind,
                body,
                int(i.created_at, "a time")?,
                i.started_at.map(|t| int(t, "a time")).transpose()?,
                i.settled_at.map(|t| int(t, "a time")).transpose()?,
            ],
        )
        .map_err(|e| match e {
            Error::Conflict(m) => Error::Conflict(format!(
                "intent {:?}: its id, or actor {:?} incarnation {} of run {:?}, has a row already ({m})",
                i.id, i.actor, i.incarnation, i.run
            )),
            e => e,
        })?;
        Ok(())
    }

    fn start_intent(&mut self, id: &str, at: u64) -> Result<()> {
        match self.intent_state(id)? {
            None => Err(Error::NotFound(format!("no intent {id:?}"))),
            Some(IntentState::Settled) => Err(Error::Conflict(format!("intent {id:?} is settled already"))),
            Some(_) => {
                self.execute(
                    "UPDATE intents SET state = 'started', started_at = ?1 WHERE id = ?2",
                    params![int(at, "a time")?, id],
                )?;
                Ok(())
            }
        }
    }

    fn settle_intent(&mut self, id: &str, outcome: &Outcome, at: u64) -> Result<()> {
        self.limits.check_outcome(outcome)?;
        match self.intent_state(id)? {
            None => Err(Error::NotFound(format!("no intent {id:?}"))),
            Some(IntentState::Settled) => Err(Error::Conflict(format!("intent {id:?} is settled already"))),
            Some(_) => {
                let (kind, body) = match outcome {
                    Outcome::Done(b) => ("done", b),
                    Outcome::Error(b) => ("error", b),
                };
                self.execute(
                    "UPDATE intents SET state = 'settled', outcome_kind = ?1, outcome = ?2, settled_at = ?3
                     WHERE id = ?4",
                    params![kind, body, int(at, "a time")?, id],
                )?;
                Ok(())
            }
        }
    }

    fn put_timer(&mut self, t: &Timer) -> Result<()> {
        self.limits.check_timer(t)?;
        self.execute(
            "INSERT INTO timers (run, id, incarnation, due, event) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![t.run, t.id, int(t.incarnation, "an incarnation")?, int(t.due, "a due time")?, t.event],
        )
        .map_err(|e| match e {
            Error::Conflict(m) => Error::Conflict(format!(
                "timer {:?} incarnation {} of run {:?} is set already ({m})",
                t.id, t.incarnation, t.run
            )),
            Error::NotFound(_) => {
                Error::NotFound(format!("timer {:?} names run {:?}, which does not exist", t.id, t.run))
            }
            e => e,
        })?;
        Ok(())
    }

    fn delete_timer(&mut self, run: &str, id: &str, incarnation: u64) -> Result<bool> {
        let n = self.execute(
            "DELETE FROM timers WHERE run = ?1 AND id = ?2 AND incarnation = ?3",
            params![run, id, int(incarnation, "an incarnation")?],
        )?;
        Ok(n == 1)
    }

    fn push_inbox(&mut self, e: &NewInboxEvent) -> Result<Pushed> {
        self.limits.check_inbox(e)?;
        let seq = |r: &Row<'_>| unsigned(r, "seq", "an inbox row");
        if let Some(seq) = one(&self.conn, "SELECT seq FROM inbox WHERE run = ?1 AND key = ?2", [&e.run, &e.key], seq)?
        {
            return Ok(Pushed::Duplicate(seq));
        }
        if !self.has_run(&e.run)? {
            return Err(Error::NotFound(format!("an event for run {:?}, which does not exist", e.run)));
        }
        self.execute(
            "INSERT INTO inbox (run, key, event, received_at, sender) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![e.run, e.key, e.event, int(e.received_at, "a time")?, e.sender],
        )?;
        let seq = u64::try_from(self.conn.last_insert_rowid())
            .map_err(|_| Error::Corrupt("the inbox's last seq is negative".into()))?;
        Ok(Pushed::New(seq))
    }

    fn consume_inbox(&mut self, run: &str, seq: u64) -> Result<()> {
        let what = format!("inbox row {seq} of run {run:?}");
        let consumed = one(
            &self.conn,
            "SELECT consumed FROM inbox WHERE run = ?1 AND seq = ?2",
            params![run, int(seq, "a seq")?],
            |r| r.get::<_, i64>("consumed").map_err(|e| corrupt(&what, e)),
        )?;
        match consumed {
            None => Err(Error::NotFound(format!("no {what}"))),
            Some(0) => {
                self.execute("UPDATE inbox SET consumed = 1 WHERE seq = ?1", [int(seq, "a seq")?])?;
                Ok(())
            }
            Some(_) => Err(Error::Conflict(format!("{what} was consumed already"))),
        }
    }

    fn savepoint(&mut self) -> Result<()> {
        self.alive()?;
        self.conn.execute_batch(&format!("SAVEPOINT sp{}", self.savepoints + 1)).map_err(io)?;
        self.savepoints += 1;
        Ok(())
    }

    fn release_savepoint(&mut self) -> Result<()> {
        if self.savepoints == 0 {
            return Err(Error::NotFound("no savepoint is open to release".into()));
        }
        self.alive()?;
        self.conn.execute_batch(&format!("RELEASE sp{}", self.savepoints)).map_err(io)?;
        self.savepoints -= 1;
        Ok(())
    }

    fn rollback_savepoint(&mut self) -> Result<()> {
        if self.savepoints == 0 {
            return Err(Error::NotFound("no savepoint is open to roll back to".into()));
        }
        self.alive()?;
        // ROLLBACK TO undoes the writes and keeps the savepoint open; RELEASE closes it.
        let n = self.savepoints;
        self.conn.execute_batch(&format!("ROLLBACK TO sp{n}; RELEASE sp{n}")).map_err(io)?;
        self.savepoints -= 1;
        Ok(())
    }

    fn commit(mut self: Box<Self>) -> Result<()> {
        // On an error, `open` stays true and the drop rolls back what is left of it.
        self.conn.execute_batch("COMMIT").map_err(io)?;
        self.open = false;
        Ok(())
    }
}
