//! The durable host (issue 35 item 1): runs kept in a [`store::Store`], stepped by the pure core
//! (`runtime`), their Effects run by [`Executor`]s, their timers armed on tokio.
//!
//! # Commit, then act
//!
//! Every change to a run is one call of the host's loop ([`Host::start`], [`Host::send`], an
//! Effect's outcome, a timer's firing, [`Host::cancel`], a restore's settlement): it takes the
//! run's lock (one task drives a run at a time; tokio's mutex is fair, so a run's events are taken
//! in the order they came), loads the run (its snapshot decoded against its program, which
//! [`runtime::Programs`] keeps once per IR identity), steps the core, and writes in ONE
//! transaction the new snapshot, one intent row per Effect started (its incarnation, its
//! `idempotent` flag), the timers set and cancelled, the intent settled or the timer fired that
//! caused the step, and the inbox row it took (for [`Host::send`], the inbox row written too: a
//! durable macrostep is one commit). Only after that commit returns does it act: stop the
//! executors the step stopped, cancel and arm timers, and start executors. Nothing leaves the
//! process before the commit that decided it.
//!
//! # Group commit
//!
//! The step runs on the committer's thread (the `commit` module), inside a savepoint of a
//! transaction that holds every step sent while the last commit was syncing: one `fsync` for many
//! runs' macrosteps, each whole. A step whose writes fail is rolled back alone and its caller gets
//! the error; the others are kept. Each caller acts only once the batch has committed.
//! [`Host::with_group_commit`] turns it off (one transaction per step), [`Host::commit_stats`]
//! counts what the commits held.
//!
//! # At most once (ADR-0067)
//!
//! Before an executor runs an intent, the row is committed `started` (a second, small write, grouped
//! with the others).
//! At [`Host::restore`]:
//! - an intent only `intended` (the host died between the step's commit and the start) is started;
//! - an intent `started` and not settled whose Effect is `idempotent` runs again under its row id;
//! - one that is not idempotent never runs again: the run takes the outcome
//!   `{ "outcome": "unknown" }` as the Effect's output (its `xstate.done.actor.<id>`), which the
//!   Machine routes (RUNTIME.md: "an unsettled non-idempotent Effect settles `{ outcome:
//!   "unknown" }`, never runs again");
//! - an intent whose actor the run no longer holds (stopped while the host was down) settles
//!   `{ "outcome": "stopped" }` and nothing runs. A step that stops an actor settles its row so too.
//!
//! An outcome comes back as an event tagged with the actor's id and incarnation
//! ([`runtime::Runtime::outcome`]); a stale one (the run left the state, or entered it again) still
//! settles its row, is logged ([`Host::log`]) and changes nothing else.
//!
//! # Timers
//!
//! Each `Schedule` is a timer row, armed after the commit; each `Cancel` deletes its row in the
//! step's commit. A firing goes through [`runtime::Runtime::fire_live`] with its incarnation and
//! deletes its row in the commit of the step it causes. At restore every timer row is armed again;
//! one already due fires at once. A timer sleeps in steps of at most a day, so a deadline weeks
//! away holds.
//!
//! # Bounds
//!
//! Every payload the host writes is checked by the store against its `Limits`; an inbox is taken
//! [`INBOX_PAGE`] rows a call; restore reads its rows in pages; a command's output is kept as its
//! last [`command::TAIL`] bytes; the log keeps its last [`LOG_LINES`] lines. A snapshot that does
//! not fit its IR ends the run `lost`, an IR that cannot be loaded `drifted`: neither panics.

pub mod command;
mod commit;
pub mod http;
pub mod secrets;
pub mod watch;

pub use command::CommandExecutor;
use commit::Commits;
pub use commit::{CommitStats, MAX_BATCH};
pub use http::HttpExecutor;
use runtime::{Live, Outcome, Program, Programs, Request, Status};
pub use secrets::Secrets;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{Intent, IntentState, NewInboxEvent, NewRun, RunStatus, RunUpdate, Store, Timer};
use tokio::task::AbortHandle;
pub use watch::{Inspected, StepNote};

/// How many inbox rows one call of the loop takes.
pub const INBOX_PAGE: usize = 64;
/// How many lines [`Host::log`] keeps.
pub const LOG_LINES: usize = 1024;
/// How many rows a restore reads at a time.
const RESTORE_PAGE: usize = 1000;
/// The longest one sleep of a timer: a later deadline is reached in several.
const TIMER_STEP: Duration = Duration::from_secs(24 * 60 * 60);

/// A future an executor gives back.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// What an executor is given: the intent row, its input, the slot it runs and a folder of its own.
#[derive(Clone, Debug)]
pub struct Job {
    pub intent: Intent,
    /// The intent's input, parsed.
    pub input: Option<Value>,
    /// The slot of the run's IR the invoke names (`intent.slot`), its definition inside.
    pub slot: Option<ir::Slot>,
    /// A folder for the Effect to run in (not created: an executor that needs it creates it).
    pub dir: PathBuf,
}

/// Runs one kind of Effect (`command`, later `http`, ...): its outcome, which the host gives the
/// run as `xstate.done.actor.<id>` (output) or `xstate.error.actor.<id>` (a defect). Dropping the
/// future stops the Effect (the state that invoked it was exited).
pub trait Executor: Send + Sync {
    fn run(&self, job: Job) -> BoxFuture<Outcome>;
}

/// An executor made of a function: the tests' executor, and any in-process Effect.
pub struct FnExecutor<F>(pub F);

impl<F, Fut> Executor for FnExecutor<F>
where
    F: Fn(Job) -> Fut + Send + Sync,
    Fut: Future<Output = Outcome> + Send + 'static,
{
    fn run(&self, job: Job) -> BoxFuture<Outcome> {
        Box::pin((self.0)(job))
    }
}

/// Why a call of the host failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The store failed (the run is as it was before the call).
    Store(store::Error),
    /// No such run.
    NotFound(String),
    /// The core took nothing: an event typed `xstate.*`, an event that is no object with a type.
    Refused(String),
    /// The host could not go on with the run (its IR or snapshot does not load).
    Invalid(String),
    /// The loop's task ended without an answer (the runtime is shutting down).
    Stopped(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Store(e) => write!(f, "store: {e}"),
            Error::NotFound(id) => write!(f, "no run {id:?}"),
            Error::Refused(why) => write!(f, "refused: {why}"),
            Error::Invalid(why) => write!(f, "invalid: {why}"),
            Error::Stopped(why) => write!(f, "stopped: {why}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<store::Error> for Error {
    fn from(e: store::Error) -> Error {
        Error::Store(e)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What the host is given besides its store.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where each Effect gets a folder of its own (`<work_dir>/<intent id>`).
    pub work_dir: PathBuf,
}

/// What [`Host::restore`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restored {
    /// Live runs found.
    pub runs: usize,
    /// Intents started that had been only intended.
    pub started: usize,
    /// Idempotent intents run again.
    pub rerun: usize,
    /// Non-idempotent intents settled `{ outcome: "unknown" }`.
    pub unknown: usize,
    /// Timers armed again.
    pub timers: usize,
}

/// The host: a store, the programs loaded, its executors, and the tasks it runs. Cheap to clone
/// (one shared state).
#[derive(Clone)]
pub struct Host {
    inner: Arc<Inner>,
}

type Key = (String, String, u64);

struct Inner {
    store: Arc<dyn Store>,
    /// Where every write is committed: grouped by the committer thread, or one by one.
    commits: Commits,
    programs: Programs,
    executors: HashMap<String, Arc<dyn Executor>>,
    config: Config,
    /// Each run's lock: held while a call steps it, commits and acts.
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// The executors running, by run, actor and incarnation.
    actors: Mutex<HashMap<Key, AbortHandle>>,
    /// The timers armed, by run, timer id and incarnation.
    timers: Mutex<HashMap<Key, AbortHandle>>,
    log: Mutex<VecDeque<String>>,
    next: AtomicU64,
    /// Who is told of each committed step ([`Host::subscribe`]).
    watchers: watch::Watchers,
}

/// What the loop is asked to do to a run.
enum Input {
    Start {
        workflow: String,
        program: Arc<Program>,
        /// The IR as the store keeps it ([`Loaded`]'s text, shared by every start).
        ir: Arc<str>,
        input: Option<Value>,
    },
    Inbox,
    /// An event written to the run's inbox in the step's own commit, then taken with the rest.
    Send(NewInboxEvent),
    Outcome {
        actor: String,
        incarnation: u64,
        outcome: Outcome,
    },
    Fire {
        id: String,
        incarnation: u64,
    },
    Cancel,
    /// An intent found unsettled at restore.
    Recover(Intent),
}

/// A step committed: what to do now.
#[derive(Default)]
struct Stepped {
    requests: Vec<Request>,
    /// Intents to start (their rows committed `intended`, or found so at restore).
    starts: Vec<Intent>,
    program: Option<Arc<Program>>,
    /// Did the step settle a non-idempotent intent `unknown` (a restore)?
    unknown: bool,
    /// Did the run end?
    ended: bool,
    /// The run's status after a start's first macrostep ([`Host::start_loaded`] answers it).
    status: Option<RunStatus>,
    /// What its subscribers are told once the step is committed.
    note: Option<StepNote>,
}

/// Executors by the kind of Effect each runs.
pub type Executors = Vec<(&'static str, Arc<dyn Executor>)>;

/// The executors of the Effects this host runs, by kind: `command` ([`CommandExecutor`]) and
/// `http` ([`HttpExecutor`]), each placing in an Effect only the secrets of `secrets` that its
/// slot names. The error: the http client could not be built (its TLS config).
pub fn executors(secrets: Arc<Secrets>) -> std::result::Result<Executors, String> {
    Ok(vec![
        ("command", Arc::new(CommandExecutor::new(secrets.clone())) as Arc<dyn Executor>),
        ("http", Arc::new(HttpExecutor::new(secrets)?)),
    ])
}

/// What is left at `now` (ms) of an Effect's `bound` whose intent row was first written at
/// `created` (ms, [`Intent::created_at`]): a restore never starts a bound over. A clock that went
/// back leaves the whole bound.
pub fn bound_left(bound: Duration, created: u64, now: u64) -> Duration {
    bound.saturating_sub(Duration::from_millis(now.saturating_sub(created)))
}

/// A Machine loaded for starts: its program (the core's tables, made once) and its IR as the
/// store keeps it (serialized once). A server loads each published Workflow once and starts all
/// its runs from it ([`Host::start_loaded`]).
#[derive(Clone)]
pub struct Loaded {
    program: Arc<Program>,
    ir: Arc<str>,
}

impl Loaded {
    pub fn new(machine: ir::Machine) -> Result<Loaded> {
        let ir = serde_json::to_string(&machine).map_err(|e| Error::Invalid(e.to_string()))?;
        Ok(Loaded { program: Arc::new(Program::new(machine)), ir: ir.into() })
    }

    pub fn machine(&self) -> &ir::Machine {
        self.program.machine()
    }

    /// The IR's identity, made once when it was loaded.
    pub fn identity(&self) -> ir::Identity {
        self.program.identity()
    }
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded").field("identity", &self.identity().to_string()).finish()
    }
}

/// The host's clock: ms since the Unix epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// An intent's row id: its run, actor and incarnation (one row each, so a step committed twice
/// could not write two).
pub fn intent_id(run: &str, actor: &str, incarnation: u64) -> String {
    format!("{run}/{actor}/{incarnation}")
}

/// The store's status of a run the core left in `status`.
pub fn run_status(status: Status) -> RunStatus {
    match status {
        Status::Active => RunStatus::Live,
        Status::Done => RunStatus::Done,
        Status::Failed => RunStatus::Failed,
        Status::Error => RunStatus::Error,
        Status::Cancelled => RunStatus::Cancelled,
    }
}

/// The output of a non-idempotent Effect whose outcome a restart lost (ADR-0067).
pub fn unknown_outcome() -> Value {
    json!({ "outcome": "unknown" })
}

fn stopped_outcome() -> store::Outcome {
    store::Outcome::Done(json!({ "outcome": "stopped" }).to_string())
}

fn to_store(outcome: &Outcome) -> store::Outcome {
    match outcome {
        Outcome::Done(v) => store::Outcome::Done(v.to_string()),
        Outcome::Error(v) => store::Outcome::Error(v.to_string()),
    }
}

/// The effect definition of the slot a `Start` names, where it is an Effect.
fn effect_of<'p>(program: &'p Program, src: &str) -> Option<&'p ir::slot::Effect> {
    match program.machine().slots.get(src)?.definition.as_ref()? {
        ir::slot::Definition::Effect(e) => Some(e),
        _ => None,
    }
}

impl Host {
    /// A host over `store`, with no executor yet ([`Host::with_executor`]).
    pub fn new(store: Arc<dyn Store>, config: Config) -> Host {
        Host {
            inner: Arc::new(Inner {
                commits: Commits::new(store.clone(), true),
                store,
                programs: Programs::new(),
                executors: HashMap::new(),
                config,
                locks: Mutex::default(),
                actors: Mutex::default(),
                timers: Mutex::default(),
                log: Mutex::default(),
                next: AtomicU64::new(0),
                watchers: watch::Watchers::default(),
            }),
        }
    }

    /// Runs the Effects of `kind` (`command`, ...) with `executor`. Before the host is cloned or
    /// restored (it panics otherwise: a setup mistake, not input).
    pub fn with_executor(mut self, kind: &str, executor: Arc<dyn Executor>) -> Host {
        Arc::get_mut(&mut self.inner)
            .expect("executors are added before the host is shared")
            .executors
            .insert(kind.to_string(), executor);
        self
    }

    /// Commits each write in a transaction of its own (`false`) instead of grouping the writes of
    /// many runs into one (`true`, the default: see the `commit` module). Before the host is
    /// cloned or restored (it panics otherwise: a setup mistake, not input).
    pub fn with_group_commit(mut self, grouped: bool) -> Host {
        let inner = Arc::get_mut(&mut self.inner).expect("the commit mode is set before the host is shared");
        inner.commits = Commits::new(inner.store.clone(), grouped);
        self
    }

    /// The host with [`executors`] of `secrets` (`command`, `http`): what `jr2 serve` runs.
    pub fn with_defaults(self, secrets: Arc<Secrets>) -> std::result::Result<Host, String> {
        Ok(executors(secrets)?.into_iter().fold(self, |host, (kind, e)| host.with_executor(kind, e)))
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The host's last [`LOG_LINES`] notes: stale outcomes dropped, refused inbox events, the
    /// runs' `log` and `emit` requests.
    pub fn log(&self) -> Vec<String> {
        lock(&self.inner.log).iter().cloned().collect()
    }

    /// What the host's commits did: how many transactions, how many writes they held.
    pub fn commit_stats(&self) -> CommitStats {
        self.inner.commits.stats()
    }

    /// How many executors and timers are in flight.
    pub fn in_flight(&self) -> (usize, usize) {
        (lock(&self.inner.actors).len(), lock(&self.inner.timers).len())
    }

    /// Starts a run of `machine` (its IR stored by identity, once) with `input`: its id. A caller
    /// that starts one Machine many times loads it once ([`Loaded::new`]) and calls
    /// [`Host::start_loaded`].
    pub async fn start(&self, workflow: &str, machine: ir::Machine, input: Option<Value>) -> Result<String> {
        let loaded = Loaded::new(machine)?;
        self.start_loaded(workflow, &loaded, input).await.map(|(id, _)| id)
    }

    /// Starts a run of a loaded Machine with `input`: its id and the status its first macrostep
    /// left it in. Nothing of the IR is made again per start (no serialization, no hash).
    pub async fn start_loaded(
        &self,
        workflow: &str,
        loaded: &Loaded,
        input: Option<Value>,
    ) -> Result<(String, RunStatus)> {
        let program = self.inner.programs.share(loaded.program.clone());
        let n = self.inner.next.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let id = format!("run-{nanos:x}-{:x}-{n}", std::process::id());
        let start = Input::Start { workflow: workflow.to_string(), program, ir: loaded.ir.clone(), input };
        let stepped = self.drive_counted(&id, start).await?;
        Ok((id, stepped.and_then(|s| s.status).unwrap_or(RunStatus::Live)))
    }

    /// Sends `event` (an object with a string `type`) to a run: it is written to the run's inbox
    /// and taken in one commit (a durable macrostep: the inbox row, the step, the snapshot). An
    /// event typed `xstate.*` is refused before anything is written.
    pub async fn send(&self, run: &str, event: Value) -> Result<()> {
        let n = self.inner.next.fetch_add(1, Ordering::Relaxed);
        let key = format!("send-{}-{}-{n}", now(), std::process::id());
        self.send_keyed(run, &key, event).await
    }

    /// [`Host::send`] under an idempotency key: a second event under the key is not taken.
    pub async fn send_keyed(&self, run: &str, key: &str, event: Value) -> Result<()> {
        self.send_from(run, key, event, None).await
    }

    /// [`Host::send_keyed`] of an event that the party `sender` sent (a Gate's invoke id): the run
    /// takes it as that party's ([`runtime::Runtime::send_from_live`]; the kit's `sentBy` guards
    /// read it). The sender is kept in the inbox row, so a restore takes it the same way.
    pub async fn send_from(&self, run: &str, key: &str, event: Value, sender: Option<&str>) -> Result<()> {
        let ty = event
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::Refused("an event is an object with a string `type`".into()))?;
        if ty.starts_with("xstate.") {
            return Err(Error::Refused(format!("the event type {ty:?} is reserved")));
        }
        let row = NewInboxEvent {
            run: run.to_string(),
            key: key.to_string(),
            event: event.to_string(),
            received_at: now(),
            sender: sender.map(str::to_string),
        };
        self.drive(run, Input::Send(row)).await
    }

    /// Cancels a run: it ends `cancelled`, its executors are stopped and its timers cancelled.
    pub async fn cancel(&self, run: &str) -> Result<()> {
        self.drive(run, Input::Cancel).await
    }

    /// An actor's outcome for the incarnation it was started in: the path every executor's
    /// outcome takes. A stale one settles its row, is logged and changes nothing else.
    pub async fn outcome(&self, run: &str, actor: &str, incarnation: u64, outcome: Outcome) -> Result<()> {
        self.drive(run, Input::Outcome { actor: actor.to_string(), incarnation, outcome }).await
    }

    /// A run's row without its snapshot.
    pub async fn head(&self, run: &str) -> Result<Option<store::RunHead>> {
        let inner = self.inner.clone();
        let run = run.to_string();
        blocking(move || Ok(inner.store.read()?.run(&run)?.map(|r| r.head))).await
    }

    /// A run's row, whole.
    pub async fn run(&self, run: &str) -> Result<Option<store::Run>> {
        let inner = self.inner.clone();
        let run = run.to_string();
        blocking(move || Ok(inner.store.read()?.run(&run)?)).await
    }

    /// Restores every live run: its unsettled intents as ADR-0067 says (see the module's header),
    /// its timers armed again, its inbox taken. Call once, before new work comes.
    ///
    /// Only what has something to do is driven: each unsettled intent (the intents of one run in
    /// the order they were written, the runs' side by side, so that group commit settles many in
    /// one commit), each run whose inbox holds an event, and each run whose IR no longer loads (it
    /// ends `drifted`; each identity's program is loaded once here). A run that only waits (for a
    /// timer, an Effect, a Gate) is not loaded, and its timers are armed from their rows; a
    /// snapshot that no longer fits its IR is found at the run's next step (it ends `lost`).
    pub async fn restore(&self) -> Result<Restored> {
        let mut out = Restored::default();
        let inner = self.inner.clone();
        let (runs, waiting, intents, timers) = blocking(move || {
            let read = inner.store.read()?;
            let (mut runs, mut waiting) = (0, Vec::new());
            let mut by_identity: HashMap<String, Vec<String>> = HashMap::new();
            let mut after: Option<String> = None;
            loop {
                let page = read.live_runs(after.as_deref(), RESTORE_PAGE)?;
                let Some(last) = page.last() else { break };
                after = Some(last.head.id.clone());
                runs += page.len();
                for run in page {
                    if !read.inbox(&run.head.id, 1)?.is_empty() {
                        waiting.push(run.head.id);
                    } else {
                        by_identity.entry(run.head.identity).or_default().push(run.head.id);
                    }
                }
            }
            for (identity, ids) in by_identity {
                if inner.program(&*read, &identity).is_err() {
                    // Its step marks it `drifted`, naming why.
                    waiting.extend(ids);
                }
            }
            let mut intents = Vec::new();
            let mut after: Option<String> = None;
            loop {
                let page = read.unsettled_intents(after.as_deref(), RESTORE_PAGE)?;
                let Some(last) = page.last() else { break };
                after = Some(last.id.clone());
                intents.extend(page);
            }
            let mut timers = Vec::new();
            let mut after = None;
            loop {
                let page = read.timers(None, after, RESTORE_PAGE)?;
                let Some(last) = page.last() else { break };
                after = Some((last.timer.due, last.seq));
                timers.extend(page.into_iter().map(|t| t.timer));
            }
            Ok((runs, waiting, intents, timers))
        })
        .await?;
        out.runs = runs;
        // Each run's intents in the order they were written.
        let mut by_run: std::collections::BTreeMap<String, Vec<Intent>> = Default::default();
        for intent in intents {
            by_run.entry(intent.run.clone()).or_default().push(intent);
        }
        for list in by_run.values_mut() {
            list.sort_by_key(|i| (i.created_at, i.incarnation));
        }
        let mut tasks = tokio::task::JoinSet::new();
        for (run, list) in by_run {
            let host = self.clone();
            tasks.spawn(async move {
                let mut out = Restored::default();
                for intent in list {
                    let (state, idempotent) = (intent.state, intent.idempotent);
                    match host.drive_counted(&run, Input::Recover(intent)).await {
                        Ok(Some(s)) if s.unknown => out.unknown += 1,
                        Ok(Some(s)) if !s.starts.is_empty() => {
                            if state == IntentState::Intended {
                                out.started += 1
                            } else if idempotent {
                                out.rerun += 1
                            }
                        }
                        Ok(_) => {}
                        Err(e) => host.note(format!("restore of an intent of {run}: {e}")),
                    }
                }
                out
            });
        }
        while let Some(done) = tasks.join_next().await {
            let done = done.map_err(|e| Error::Stopped(format!("a restore task: {e}")))?;
            out.unknown += done.unknown;
            out.started += done.started;
            out.rerun += done.rerun;
        }
        for t in timers {
            out.timers += 1;
            self.arm(&t.run, &t.id, t.incarnation, t.due);
        }
        let mut tasks = tokio::task::JoinSet::new();
        for run in waiting {
            let host = self.clone();
            tasks.spawn(async move {
                if let Err(e) = host.drive(&run, Input::Inbox).await {
                    host.note(format!("restore of {run}'s inbox: {e}"));
                }
            });
        }
        while let Some(done) = tasks.join_next().await {
            done.map_err(|e| Error::Stopped(format!("a restore task: {e}")))?;
        }
        Ok(out)
    }

    fn note(&self, line: String) {
        let mut log = lock(&self.inner.log);
        if log.len() == LOG_LINES {
            log.pop_front();
        }
        log.push_back(line);
    }

    fn run_lock(&self, run: &str) -> Arc<tokio::sync::Mutex<()>> {
        lock(&self.inner.locks).entry(run.to_string()).or_default().clone()
    }

    async fn drive(&self, run: &str, input: Input) -> Result<()> {
        self.drive_counted(run, input).await.map(|_| ())
    }

    /// One call of the loop: lock, step and commit (on a blocking thread), then act.
    async fn drive_counted(&self, run: &str, input: Input) -> Result<Option<Stepped>> {
        let lock = self.run_lock(run);
        let guard = lock.lock().await;
        let inner = self.inner.clone();
        let id = run.to_string();
        let stepped = self.inner.commits.write(move |tx| inner.step(tx, &id, input)).await?;
        let Some(mut stepped) = stepped else { return Ok(None) };
        // Committed: the run's watchers are told.
        if let Some(note) = stepped.note.take() {
            self.inner.watchers.tell(note, stepped.ended);
        }
        self.act(run, &stepped).await?;
        drop(guard);
        if stepped.ended {
            // A run that ended takes nothing more: its lock is not kept.
            lock_forget(&self.inner.locks, run, &lock);
        }
        Ok(Some(stepped))
    }

    /// After the commit: stop, cancel, arm, and start (each start's row committed `started`
    /// first).
    async fn act(&self, run: &str, stepped: &Stepped) -> Result<()> {
        for r in &stepped.requests {
            match r {
                Request::Stop { id, incarnation } => {
                    if let Some(h) = lock(&self.inner.actors).remove(&(run.to_string(), id.clone(), *incarnation)) {
                        h.abort();
                    }
                }
                Request::Cancel { id, incarnation } => {
                    if let Some(h) = lock(&self.inner.timers).remove(&(run.to_string(), id.clone(), *incarnation)) {
                        h.abort();
                    }
                }
                Request::Schedule { id, incarnation, deadline } => self.arm(run, id, *incarnation, *deadline),
                Request::Log { label, value } => self.note(format!("{run}: log {label:?} {value:?}")),
                Request::Emit { event } => self.note(format!("{run}: emit {event}")),
                Request::Send { to, event } => {
                    self.note(format!("{run}: send to {to:?} dropped (no such actor here): {event}"))
                }
                Request::Start { .. } => {}
            }
        }
        if stepped.starts.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = stepped.starts.iter().map(|i| i.id.clone()).collect();
        self.inner
            .commits
            .write(move |tx| {
                let at = now();
                for id in &ids {
                    tx.start_intent(id, at)?;
                }
                Ok(())
            })
            .await?;
        let program = stepped.program.clone();
        for intent in &stepped.starts {
            self.spawn_executor(intent.clone(), program.clone());
        }
        Ok(())
    }

    fn spawn_executor(&self, intent: Intent, program: Option<Arc<Program>>) {
        let executor = self.inner.executors.get(&intent.kind).cloned();
        let slot = program.as_ref().and_then(|p| p.machine().slots.get(intent.slot.as_str()).cloned());
        let input = intent.input.as_deref().and_then(|t| serde_json::from_str(t).ok());
        let dir = self.inner.config.work_dir.join(sanitize(&intent.id));
        let key = (intent.run.clone(), intent.actor.clone(), intent.incarnation);
        let host = self.clone();
        let job = Job { intent, input, slot, dir };
        let map_key = key.clone();
        // The map is locked while the task is spawned, so that its removal below comes after the
        // insert whatever the scheduler does.
        let mut actors = lock(&self.inner.actors);
        let handle = tokio::spawn(async move {
            let (run, actor, incarnation) = key;
            let outcome = match executor {
                Some(e) => e.run(job).await,
                None => Outcome::Error(json!({
                    "reason": format!("this host runs no `{}` Effect", job.intent.kind),
                })),
            };
            lock(&host.inner.actors).remove(&(run.clone(), actor.clone(), incarnation));
            if let Err(e) = host.outcome(&run, &actor, incarnation, outcome).await {
                host.note(format!("{run}: the outcome of {actor:?} (incarnation {incarnation}) was not taken: {e}"));
            }
        });
        actors.insert(map_key, handle.abort_handle());
    }

    /// Arms a timer (after the commit that set it); its firing drives the run.
    fn arm(&self, run: &str, id: &str, incarnation: u64, due: u64) {
        let key = (run.to_string(), id.to_string(), incarnation);
        let host = self.clone();
        let (run, id) = (run.to_string(), id.to_string());
        let mut timers = lock(&self.inner.timers);
        if timers.contains_key(&key) {
            return;
        }
        let handle = tokio::spawn(async move {
            loop {
                let left = due.saturating_sub(now());
                if left == 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(left).min(TIMER_STEP)).await;
            }
            lock(&host.inner.timers).remove(&(run.clone(), id.clone(), incarnation));
            if let Err(e) = host.drive(&run, Input::Fire { id: id.clone(), incarnation }).await {
                host.note(format!("{run}: the timer {id:?} (incarnation {incarnation}) did not fire: {e}"));
            }
        });
        timers.insert(key, handle.abort_handle());
    }
}

impl Inner {
    fn note(&self, line: String) {
        let mut log = lock(&self.log);
        if log.len() == LOG_LINES {
            log.pop_front();
        }
        log.push_back(line);
    }

    fn program(&self, read: &dyn store::Read, identity: &str) -> Result<Arc<Program>> {
        let id: ir::Identity = serde_json::from_value(Value::String(identity.to_string()))
            .map_err(|e| Error::Invalid(format!("the identity {identity:?}: {e}")))?;
        self.programs.get_or_load(
            id,
            || {
                let text = read.ir(identity)?.ok_or_else(|| Error::Invalid(format!("no IR stored for {identity}")))?;
                let machine: ir::Machine =
                    serde_json::from_str(&text).map_err(|e| Error::Invalid(format!("the IR {identity}: {e}")))?;
                Ok(Program::new(machine))
            },
            |got| Error::Invalid(format!("the IR stored for {identity} hashes to {got}")),
        )
    }

    /// The step, its writes in `tx` (committed by the caller, [`Commits::write`], alone or with
    /// other runs' steps: an error rolls back this step's writes only). `None`: nothing to act on.
    fn step(&self, tx: &mut dyn store::Tx, id: &str, input: Input) -> Result<Option<Stepped>> {
        let now = now();
        if let Input::Start { workflow, program, ir, input } = input {
            let rt = program.runtime();
            let (live, requests) = rt.start_session_live(id, input.clone(), now);
            let identity = program.identity().to_string();
            tx.put_ir(&identity, &ir)?;
            let snapshot = rt.encode(&live.snapshot()).to_string();
            tx.create_run(&NewRun {
                id: id.to_string(),
                workflow,
                identity,
                status: run_status(live.status()),
                snapshot,
                input: input.map(|v| v.to_string()),
                created_at: now,
                parent: None,
                dispatch_key: None,
            })?;
            let note = StepNote {
                run_id: id.to_string(),
                step: 0,
                status: run_status(live.status()).as_str().to_string(),
                configuration: rt.atomic_live(&live).into_iter().map(|s| rt.name(s)).collect(),
                event: None,
            };
            let mut stepped = Stepped {
                program: Some(program.clone()),
                ended: live.status().is_final(),
                status: Some(run_status(live.status())),
                note: Some(note),
                ..Stepped::default()
            };
            self.rows(tx, id, &program, &requests, &mut stepped, now)?;
            stepped.requests = requests;
            return Ok(Some(stepped));
        }
        let Some(run) = tx.run(id)? else { return Err(Error::NotFound(id.to_string())) };
        let mut stepped = Stepped::default();
        // What the input settles or removes is written whatever the run does with it.
        match &input {
            Input::Outcome { actor, incarnation, outcome } => {
                match tx.settle_intent(&intent_id(id, actor, *incarnation), &to_store(outcome), now) {
                    Ok(()) | Err(store::Error::NotFound(_)) => {}
                    Err(store::Error::Conflict(_)) => {
                        // Settled already (stopped, or an outcome given twice): the run took it.
                        self.note(format!("{id}: a second outcome of {actor:?} (incarnation {incarnation}) dropped"));
                        return Ok(None);
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            Input::Fire { id: timer, incarnation } => {
                tx.delete_timer(id, timer, *incarnation)?;
            }
            // An event for a run that has ended stays in its inbox, taken by nothing.
            Input::Send(row) => {
                tx.push_inbox(row)?;
            }
            _ => {}
        }
        if run.head.status != RunStatus::Live {
            if let Input::Recover(intent) = &input {
                tx.settle_intent(&intent.id, &stopped_outcome(), now)?;
            }
            return Ok(None);
        }
        let program = match self.program(tx, &run.head.identity) {
            Ok(p) => p,
            Err(e) => {
                self.note(format!("{id}: drifted: {e}"));
                let update = RunUpdate { status: RunStatus::Drifted, snapshot: run.snapshot, updated_at: now };
                tx.update_run(id, run.head.step, &update)?;
                return Ok(None);
            }
        };
        let rt = program.runtime();
        let restored = serde_json::from_str::<Value>(&run.snapshot)
            .map_err(|e| e.to_string())
            .and_then(|v| rt.restore(&v).map_err(|e| e.to_string()));
        let mut live: Live = match restored {
            Ok(live) => live,
            Err(e) => {
                self.note(format!("{id}: lost: {e}"));
                let update = RunUpdate { status: RunStatus::Lost, snapshot: run.snapshot, updated_at: now };
                tx.update_run(id, run.head.step, &update)?;
                return Ok(None);
            }
        };
        stepped.program = Some(program.clone());
        let mut requests = Vec::new();
        // The type of the event the step takes, for its note.
        let mut took: Option<String> = None;
        match input {
            // Taken above, before the run was read.
            Input::Start { .. } => return Ok(None),
            Input::Inbox | Input::Send(_) => {
                let rows = tx.inbox(id, INBOX_PAGE)?;
                if rows.is_empty() {
                    return Ok(None);
                }
                for row in rows {
                    tx.consume_inbox(id, row.seq)?;
                    if live.status().is_final() {
                        continue;
                    }
                    let event: Value = serde_json::from_str(&row.event).unwrap_or(Value::Null);
                    took = event.get("type").and_then(Value::as_str).map(str::to_string);
                    let sent = match &row.sender {
                        Some(sender) => rt.send_from_live(&mut live, event, sender, now),
                        None => rt.send_live(&mut live, event, now),
                    };
                    match sent {
                        Ok(r) => requests.extend(r),
                        Err(e) => self.note(format!("{id}: inbox event {} refused: {e}", row.key)),
                    }
                    while let Some(r) = rt.take_queued_live(&mut live, now) {
                        requests.extend(r);
                    }
                }
            }
            Input::Outcome { actor, incarnation, outcome } => {
                took = Some(match &outcome {
                    Outcome::Done(_) => format!("xstate.done.actor.{actor}"),
                    Outcome::Error(_) => format!("xstate.error.actor.{actor}"),
                });
                match rt.outcome(&mut live, &actor, incarnation, outcome, now) {
                    Ok(r) => requests = r,
                    Err(e) => {
                        self.note(format!("{id}: {e}"));
                        return Ok(None);
                    }
                }
            }
            Input::Fire { id: timer, incarnation } => {
                let fired = rt.fire_live(&mut live, &timer, incarnation, now);
                took = Some(timer);
                match fired {
                    Ok(r) => requests = r,
                    Err(e) => {
                        self.note(format!("{id}: {e}"));
                        return Ok(None);
                    }
                }
            }
            Input::Cancel => requests = rt.cancel(&mut live),
            Input::Recover(intent) => {
                let held = live.actors().iter().any(|a| a.id == intent.actor && a.incarnation == intent.incarnation);
                if !held {
                    tx.settle_intent(&intent.id, &stopped_outcome(), now)?;
                    return Ok(None);
                }
                if intent.state == IntentState::Intended || intent.idempotent {
                    // Nothing of the run changes: the executor starts under the same row.
                    stepped.starts.push(intent);
                    return Ok(Some(stepped));
                }
                // It may have run: it never runs again, and the run is told so.
                let output = unknown_outcome();
                tx.settle_intent(&intent.id, &store::Outcome::Done(output.to_string()), now)?;
                stepped.unknown = true;
                match rt.outcome(&mut live, &intent.actor, intent.incarnation, Outcome::Done(output), now) {
                    Ok(r) => requests = r,
                    Err(e) => self.note(format!("{id}: {e}")),
                }
            }
        }
        while let Some(r) = rt.take_queued_live(&mut live, now) {
            requests.extend(r);
        }
        self.rows(tx, id, &program, &requests, &mut stepped, now)?;
        let snapshot = rt.encode(&live.snapshot()).to_string();
        let status = run_status(live.status());
        let step = tx.update_run(id, run.head.step, &RunUpdate { status, snapshot, updated_at: now })?;
        stepped.note = Some(StepNote {
            run_id: id.to_string(),
            step,
            status: status.as_str().to_string(),
            configuration: rt.atomic_live(&live).into_iter().map(|s| rt.name(s)).collect(),
            event: took,
        });
        stepped.ended = live.status().is_final();
        stepped.requests = requests;
        Ok(Some(stepped))
    }

    /// The rows a step's requests write: an intent per Effect started, a timer per schedule, a
    /// timer removed per cancel, a stopped Effect's row settled.
    fn rows(
        &self,
        tx: &mut dyn store::Tx,
        run: &str,
        program: &Program,
        requests: &[Request],
        stepped: &mut Stepped,
        now: u64,
    ) -> Result<()> {
        for r in requests {
            match r {
                Request::Start { id, incarnation, src, input, .. } => {
                    let Some(effect) = effect_of(program, src) else {
                        if !matches!(
                            program.machine().slots.get(src.as_str()).map(|s| s.kind),
                            Some(ir::SlotKind::Gate)
                        ) {
                            self.note(format!("{run}: {src:?} is no Effect this host runs; its actor {id:?} waits"));
                        }
                        continue;
                    };
                    let intent = Intent::new(
                        intent_id(run, id, *incarnation),
                        run,
                        id.clone(),
                        *incarnation,
                        src.clone(),
                        effect.run.kind(),
                        input.as_ref().map(Value::to_string),
                        effect.idempotent,
                        now,
                    );
                    tx.put_intent(&intent)?;
                    stepped.starts.push(intent);
                }
                Request::Stop { id, incarnation } => {
                    let row = intent_id(run, id, *incarnation);
                    match tx.intent(&row)? {
                        Some(i) if i.state != IntentState::Settled => {
                            tx.settle_intent(&row, &stopped_outcome(), now)?
                        }
                        _ => {}
                    }
                    stepped.starts.retain(|i| i.id != row);
                }
                Request::Schedule { id, incarnation, deadline } => {
                    tx.put_timer(&Timer {
                        run: run.to_string(),
                        id: id.clone(),
                        incarnation: *incarnation,
                        due: *deadline,
                        event: None,
                    })?;
                }
                Request::Cancel { id, incarnation } => {
                    tx.delete_timer(run, id, *incarnation)?;
                }
                Request::Send { .. } | Request::Emit { .. } | Request::Log { .. } => {}
            }
        }
        Ok(())
    }
}

/// An id as one folder name: what is not ASCII alphanumeric, `-` or `_` becomes `_`.
fn sanitize(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding one of these maps leaves it whole: go on with it.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Forgets a run's lock where no other call holds or waits for it.
fn lock_forget(
    locks: &Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    run: &str,
    held: &Arc<tokio::sync::Mutex<()>>,
) {
    let mut map = lock(locks);
    // Two references: the map's and `held`; a waiter holds a third.
    if Arc::strong_count(held) == 2 {
        map.remove(run);
    }
}

/// Runs store work on a blocking thread.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| Error::Stopped(e.to_string()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_counts_from_the_first_write() {
        let b = Duration::from_millis(2000);
        assert_eq!(bound_left(b, 10_000, 10_500), Duration::from_millis(1500));
        assert_eq!(bound_left(b, 10_000, 13_000), Duration::ZERO);
        assert_eq!(bound_left(b, 10_000, 9_000), b, "a clock that went back leaves the whole bound");
    }
}
