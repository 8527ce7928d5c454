//! The runtime's core: an IR Machine runs in memory with xstate v5's semantics.
//!
//! A run is data: a [`Snapshot`] (the active states, the context, each pending timer with its
//! deadline, each actor in flight, what each history state remembers) at every macrostep's end.
//! [`Runtime::start`], [`Runtime::send`] and [`Runtime::fire`] are pure: from a snapshot, an event
//! and the host's clock reading they give the next snapshot and what the host is asked to do
//! ([`Request`]: start or stop an actor, schedule or cancel a timer, send an event to another
//! actor, emit, log). No clock is read and nothing is random, so a later step can commit each
//! macrostep and restore a run after a crash by loading its snapshot.
//!
//! The algorithm is xstate v5's (`packages/core/src/stateUtils.ts`), itself SCXML's: a macrostep
//! takes one event, then eventless transitions and the internal queue until neither has
//! anything; transitions are selected from each atomic state up, in document order, and
//! conflicting ones are removed (a transition from a deeper state wins, else the first); states
//! exit in reverse document order (history is recorded first), the transitions' actions run,
//! states enter in document order. Reaching a final state raises its parent's done event (and a
//! parallel state's whose regions are all final); a final state of the root ends the run `done`.
//! Events the machine sends itself (SCXML's `<send>` with no target) go on its external queue
//! (the snapshot's `queue`), which the host empties one macrostep at a time
//! ([`Runtime::take_queued`]) when the run is idle.
//!
//! An SCXML document ([`ir::Origin::Scxml`]) runs with its own vocabulary: done events are
//! `done.state.<id>` with their `data`, an error in executable content raises `error.execution`
//! (and stops that block) instead of ending the run, a state's matching transitions are its
//! candidates in document order (its descriptors are xstate's: the front end writes SCXML's
//! token prefixes as xstate wildcards), and `_event`, `_sessionid`, `_name` and `_ioprocessors`
//! are bound. `docs/reference/semantics.md` lists every difference.
//!
//! A named guard, action or delay runs its implementation from [`ir::Statechart::implementations`]
//! (the setup's, lowered where pure), with `params` the reference's own, as xstate's
//! `evaluateGuard` and `resolveActionsAndContext` bind them. What the IR does not carry runs as an
//! error of the run, naming it: a named guard or delay with no implementation there, an
//! [`ir::Action::Opaque`]. A named action with none is the host's (lent; none changes the context)
//! and is not run here.

mod actions;
mod bounds;
mod child;
mod encode;
mod js;
mod menu;
mod program;
mod set;
mod step;
#[cfg(test)]
mod tests;

pub use bounds::Bounds;
pub use encode::{read_value, write_value, Invalid, FORMAT};
use ir::eval::JsValue;
use ir::{Expr, Machine, Origin, SlotKind, StateId, StateKind, Statechart, Trigger};
pub use menu::{MenuItem, Waiting};
pub use program::{Program, Programs};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use set::StateSet;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// How many microsteps (and `foreach` iterations) one macrostep may take before the run ends
/// `error` (an eventless loop, a self-raising loop, a state that raises its own done event for
/// ever, a `foreach` over a huge array).
pub(crate) const DEFAULT_STEP_BOUND: usize = 10_000;
/// The session id of a run started with none ([`Runtime::start`]; [`Runtime::start_session`]
/// names one).
pub const DEFAULT_SESSION: &str = "jr2";
/// How many events of its own external queue a run may take ([`Runtime::take_queued`]) after
/// one event from outside, by default: an SCXML document that sends itself an event for each one
/// it takes would otherwise keep its host busy for ever.
pub(crate) const DEFAULT_QUEUE_BOUND: u64 = 10_000;

/// How deeply named implementations may run inside each other (a guard whose implementation
/// names a guard, ...) before the run ends `error`: a name that names itself.
pub(crate) const MAX_IMPLEMENTATION_DEPTH: usize = 64;

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    /// The root reached a final state: the work succeeded ([`Snapshot::output`] is the Machine's).
    Done,
    /// A Failure that nothing caught (ADR-0073): the Machine chose this end with the kit's
    /// `fail()`; [`Snapshot::output`] is the Failure's `{ reason, detail }`.
    Failed,
    /// A defect: an error the Machine did not choose ([`Snapshot::error`] says what).
    Error,
    /// The host cancelled the run ([`Runtime::cancel`]).
    Cancelled,
}

impl Status {
    /// Has the run ended (no more events, timers or outcomes for it)?
    pub fn is_final(self) -> bool {
        self != Status::Active
    }
}

/// Why a run ended `error`: what went wrong, in which event and in which states. A defect, never a
/// Failure (a Failure ends the run `failed`, its payload the output).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    /// What went wrong, for a person.
    pub reason: String,
    /// The type of the event the run was taking (`None` at start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The active atomic states when it happened, by name ([`Runtime::name`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<String>,
    /// The error value where the fault is an actor's error that nothing caught (xstate ends the
    /// parent with the child's error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)?;
        if let Some(e) = &self.event {
            write!(f, " (event {e:?}")?;
            if !self.states.is_empty() {
                write!(f, " in {}", self.states.join(", "))?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// Is an error value a Failure, a value the kit's `fail()` made (`isFailure`, `jr2.failure`)?
pub fn is_failure(error: &Value) -> bool {
    error.get("jr2").and_then(Value::as_str) == Some("failure")
}

/// A Failure's payload, the output of a run that ends `failed`: `{ reason, detail }` (`detail`
/// only where the Failure has one).
pub fn failure_payload(error: &Value) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("reason".into(), error.get("reason").cloned().unwrap_or(Value::Null));
    if let Some(d) = error.get("detail") {
        out.insert("detail".into(), d.clone());
    }
    Value::Object(out)
}

/// The Failure `fail()` raises for its input `{ reason, detail? }`: the error value an `onError`
/// reads, branded as the kit brands it (`isFailure` reads the brand).
pub fn failure_of(input: Option<&Value>) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("jr2".into(), Value::String("failure".into()));
    if let Value::Object(payload) = failure_payload(input.unwrap_or(&Value::Null)) {
        out.extend(payload);
    }
    Value::Object(out)
}

/// A timer the run waits for: its event fires at `deadline` (the host's clock, in ms).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timer {
    /// Its id: an `after` timer's is the event it sends, `xstate.after.<delay>.<state id>`; a
    /// delayed event's is its send id (the one `cancel` names).
    pub id: String,
    /// Its incarnation: the run's sequence number of the moment it was set. A state entered
    /// again sets a timer of the same id and a new incarnation; a firing of an old one is stale.
    /// Timers due at one instant fire in this order, the order they were set.
    #[serde(default)]
    pub incarnation: u64,
    pub deadline: u64,
    /// The state whose `after` it is: leaving the state cancels it. `None` for a delayed event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateId>,
    /// The event it sends; `None`: the `after` event named `id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<Value>,
    /// The actor it sends to (`#_parent` for the parent); `None`: the machine itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// A timer of the in-process child actor of this id (its own id there is the part after
    /// `<child>::`): firing it fires the child's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child: Option<String>,
}

impl Timer {
    /// The event the timer sends when it fires.
    pub fn event(&self) -> Value {
        self.event.clone().unwrap_or_else(|| json!({ "type": self.id }))
    }
}

/// An actor the run invoked and the host runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Actor {
    pub id: String,
    /// Its incarnation: the run's sequence number of its start. An outcome that names another
    /// incarnation (an actor of this id that a state exited and entered again) is stale.
    #[serde(default)]
    pub incarnation: u64,
    pub src: String,
    pub kind: SlotKind,
    /// The state whose invoke it is: leaving it stops the actor.
    pub state: StateId,
}

/// What a history state remembers: the states to enter again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Remembered {
    pub history: StateId,
    pub states: Vec<StateId>,
}

/// A run's context: a JavaScript value (what the evaluator reads, shared, not copied, from one
/// snapshot to the next), serialized as `JSON.stringify` writes it.
#[derive(Clone, Debug)]
pub struct Context(pub JsValue);

impl Context {
    /// Its JSON (`undefined` members left out, as `JSON.stringify` does).
    pub fn to_json(&self) -> Value {
        self.0.to_json().unwrap_or(Value::Null)
    }
}

impl PartialEq for Context {
    fn eq(&self, other: &Context) -> bool {
        self.to_json() == other.to_json()
    }
}

impl PartialEq<Value> for Context {
    fn eq(&self, other: &Value) -> bool {
        &self.to_json() == other
    }
}

impl std::fmt::Display for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

impl Serialize for Context {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Context {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Context, D::Error> {
        Ok(Context(JsValue::from_json(&Value::deserialize(d)?)))
    }
}

/// An inline child statechart the run invoked and runs itself (SCXML's `<invoke><content>`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Child {
    pub id: String,
    /// The state whose invoke it is, and the invoke's index there: leaving the state stops it.
    pub state: StateId,
    pub invoke: usize,
    pub snapshot: Box<Snapshot>,
}

/// A run at a macrostep's end. Its serde form is for people (`jr2 sim`, tests): the context as
/// `JSON.stringify` writes it. What a host stores is [`Runtime::encode`]'s, which loses nothing
/// and is checked against the IR when read back ([`Runtime::decode`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub status: Status,
    /// Every active state (atomic ones and their ancestors), in the order they were entered (as
    /// xstate keeps its configuration; [`Runtime::atomic`] gives the atomic ones in document
    /// order).
    pub configuration: Vec<StateId>,
    pub context: Context,
    pub timers: Vec<Timer>,
    pub actors: Vec<Actor>,
    /// The inline child statecharts running in the run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Child>,
    /// What each history state that was exited remembers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Remembered>,
    /// The Machine's output, once it is done (xstate's `output`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The events the machine sent its own external queue (SCXML's `<send>` with no target), not
    /// taken yet: the host gives each to [`Runtime::take_queued`] when the run is idle, before
    /// anything else happens to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queue: Vec<QueuedEvent>,
    /// How many send ids the run has made (`send.<n>`), so that the next one is new.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sends: u64,
    /// The last incarnation given to an actor or a timer (each start or schedule takes the next).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub incarnations: u64,
    /// The state of the run's `Math.random()` (mulberry32, for its functions carried as
    /// JavaScript), so that a restored run draws the numbers the live one would have.
    #[serde(default)]
    pub random: u32,
    /// The run's session id: the host's name for it ([`Runtime::start_session`]), SCXML's
    /// `_sessionid`; an inline child's is its parent's, a dot, and its invoke's id.
    #[serde(default = "default_session", skip_serializing_if = "is_default_session")]
    pub session: String,
    /// How many events of its own queue the run has taken since the last event from outside
    /// ([`Runtime::queue_bound`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub chained: u64,
    /// Why the run ended `error`.
    pub error: Option<Fault>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn default_session() -> String {
    DEFAULT_SESSION.to_string()
}

fn is_default_session(s: &str) -> bool {
    s == DEFAULT_SESSION
}

/// A `fail()` actor's Failure, waiting for its macrostep to end (xstate delivers an actor's error
/// after the macrostep that started it).
#[derive(Clone, Debug, PartialEq)]
struct Failing {
    pub actor: String,
    pub incarnation: u64,
    pub error: Value,
}

/// An event waiting on the external queue, with what SCXML's `_event` tells of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueuedEvent {
    pub event: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sendid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invokeid: Option<String>,
}

/// What the core asks of the host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "camelCase")]
pub enum Request {
    /// Start the actor of a slot; its outcome comes back as `xstate.done.actor.<id>` (with
    /// `output`) or `xstate.error.actor.<id>` (with `error`).
    ///
    /// The host answers with [`Runtime::outcome`], naming the actor and this incarnation.
    Start {
        id: String,
        incarnation: u64,
        src: String,
        kind: SlotKind,
        input: Option<Value>,
    },
    Stop {
        id: String,
        incarnation: u64,
    },
    /// Call [`Runtime::fire`] with the timer `id` and this incarnation at `deadline`.
    Schedule {
        id: String,
        incarnation: u64,
        deadline: u64,
    },
    Cancel {
        id: String,
        incarnation: u64,
    },
    /// Deliver `event` to the actor `to` (`#_parent`: the machine's parent).
    Send {
        to: String,
        event: Value,
    },
    /// xstate's `emit`: the event for the machine's listeners.
    Emit {
        event: Value,
    },
    /// xstate's `log`, SCXML's `<log>`.
    Log {
        label: Option<String>,
        value: Option<Value>,
    },
}

/// A macrostep's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub snapshot: Snapshot,
    pub requests: Vec<Request>,
}

/// How an actor the host ran ended ([`Runtime::outcome`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It finished with this output: the run takes `xstate.done.actor.<id>`.
    Done(Value),
    /// It failed with this error (a Failure or a defect): the run takes
    /// `xstate.error.actor.<id>`, and ends where no transition takes it.
    Error(Value),
}

impl Outcome {
    /// The event the run takes for the actor `actor`'s outcome, as xstate writes it.
    pub fn event(self, actor: &str) -> Value {
        match self {
            Outcome::Done(output) => {
                json!({ "type": format!("xstate.done.actor.{actor}"), "output": output, "actorId": actor })
            }
            Outcome::Error(error) => {
                json!({ "type": format!("xstate.error.actor.{actor}"), "error": error, "actorId": actor })
            }
        }
    }
}

/// Why the core took nothing of what the host gave it. The run is as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// An event from outside the run whose type starts with `xstate.`: that vocabulary is the
    /// run's own (an actor's outcome comes through [`Runtime::outcome`], a timer through
    /// [`Runtime::fire`]), so that no event forges an outcome.
    Reserved(String),
    /// An outcome or a timer of an incarnation the run no longer holds (the actor was stopped,
    /// the timer cancelled or set again since), or of an id it never held: dropped, for the
    /// host's log.
    Stale { id: String, incarnation: u64 },
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Reserved(ty) => write!(
                f,
                "the event type {ty:?} is reserved: a type that starts with `xstate.` is the run's own, not an event to send it"
            ),
            Refused::Stale { id, incarnation } => {
                write!(f, "{id:?} (incarnation {incarnation}) is not running: its outcome or firing is stale, and dropped")
            }
        }
    }
}

impl std::error::Error for Refused {}

/// Refuses an event from outside the run whose type is the run's own (`xstate.*`).
fn outside(ty: &str) -> Result<(), Refused> {
    if ty.starts_with("xstate.") {
        return Err(Refused::Reserved(ty.to_string()));
    }
    Ok(())
}

/// A run held in memory between macrosteps: events are applied to it in place
/// ([`Runtime::send_live`], [`Runtime::send_text`], [`Runtime::fire_live`],
/// [`Runtime::take_queued_live`]), and a [`Snapshot`] is made only where the host asks for one.
/// Each call leaves it as [`Runtime::resume`] of its snapshot would make it.
pub struct Live(Run);

impl Live {
    /// The run's snapshot (the context shared, not copied).
    pub fn snapshot(&self) -> Snapshot {
        let run = &self.0;
        Snapshot {
            status: run.status,
            configuration: run.order.clone(),
            context: Context(run.context.clone()),
            timers: run.timers.clone(),
            actors: run.actors.clone(),
            children: run.children.clone(),
            history: run
                .history
                .iter()
                .map(|(&history, states)| Remembered { history, states: states.clone() })
                .collect(),
            output: run.output.clone(),
            queue: run
                .external
                .iter()
                .map(|q| QueuedEvent { event: q.value.clone(), sendid: q.sendid.clone(), invokeid: q.invokeid.clone() })
                .collect(),
            sends: run.sends,
            incarnations: run.incarnations,
            random: run.js.0.random.load(std::sync::atomic::Ordering::Relaxed),
            chained: run.chained,
            session: run.session.to_string(),
            error: run.error.clone(),
        }
    }

    /// The run's snapshot, the run given up: nothing of it is copied.
    ///
    /// (A snapshot is only ever made between calls, so the call's own fields are not in it.)
    pub fn into_snapshot(self) -> Snapshot {
        let run = self.0;
        Snapshot {
            status: run.status,
            configuration: run.order,
            context: Context(run.context),
            timers: run.timers,
            actors: run.actors,
            children: run.children,
            history: run.history.into_iter().map(|(history, states)| Remembered { history, states }).collect(),
            output: run.output,
            queue: run
                .external
                .into_iter()
                .map(|q| QueuedEvent { event: q.value, sendid: q.sendid, invokeid: q.invokeid })
                .collect(),
            sends: run.sends,
            incarnations: run.incarnations,
            random: run.js.0.random.load(std::sync::atomic::Ordering::Relaxed),
            chained: run.chained,
            session: run.session.to_string(),
            error: run.error,
        }
    }

    pub fn status(&self) -> Status {
        self.0.status
    }

    /// Why the run ended `error`.
    pub fn error(&self) -> Option<&Fault> {
        self.0.error.as_ref()
    }

    /// The run's output: the Machine's once it is `done`, the Failure's `{ reason, detail }` once
    /// it is `failed`.
    pub fn output(&self) -> Option<&Value> {
        self.0.output.as_ref()
    }

    /// The context (shared, not copied).
    pub fn context(&self) -> Context {
        Context(self.0.context.clone())
    }

    pub fn timers(&self) -> &[Timer] {
        &self.0.timers
    }

    pub fn actors(&self) -> &[Actor] {
        &self.0.actors
    }

    /// The first event of the external queue, the next [`Runtime::take_queued_live`] takes.
    pub fn queued(&self) -> Option<&Value> {
        self.0.external.front().map(|q| &q.value)
    }

    /// The transitions (indices into the IR's `transitions`) that the last call's event took,
    /// in the order selected: empty where no transition took it (ADR-0074's unrouted
    /// `agent.fault`), and after a call that took no event.
    pub fn taken(&self) -> &[usize] {
        &self.0.taken
    }

    /// The run's last incarnation number (each actor start and timer set takes the next).
    pub fn incarnations(&self) -> u64 {
        self.0.incarnations
    }
}

/// A Machine, ready to run.
pub struct Runtime<'m> {
    machine: &'m Statechart,
    /// The runtimes of the inline child statecharts, by invoking state and invoke index.
    inline: Vec<(StateId, usize, Runtime<'m>)>,
    /// Each state's event-taking transitions, in document order.
    by_source: Vec<Vec<usize>>,
    /// Each history state's default transition, each compound state's initial transition.
    defaults: Vec<Option<usize>>,
    /// Each state's history children.
    histories: Vec<Vec<StateId>>,
    /// Each state's id as the run names it in events: its own `id`, else the machine's id and its
    /// path, dot-joined.
    node_ids: Vec<String>,
    /// Each state's key path from the root (`review.drafting`).
    paths: Vec<String>,
    scxml: bool,
    /// Does an expression of the machine read a run's named value (SCXML's `_event`,
    /// `_sessionid`, ...: an [`Expr::Global`], or a script given them, [`ir::expr::Script::run`])?
    /// Where none does, an event's globals are not made: no `_event` tree per event.
    globals: bool,
    /// Is this an inline child's runtime? A child takes the events it sends itself within the
    /// call that made them (its parent's host sees only the parent's queue).
    nested: bool,
    /// Has the machine any eventless transition? (Most have none: no search for one after each
    /// microstep.)
    eventless: bool,
    pub step_bound: usize,
    /// How many events of its own queue a run may take after one from outside
    /// ([`Runtime::take_queued`]); past it the run ends `error`.
    pub queue_bound: u64,
    /// The bounds of a run's context, past which the run ends `error`.
    pub bounds: Bounds,
    /// What the host answers for its runs: a named guard with no implementation in the IR (a
    /// Chart's lent guards, which its Open body's code decides) is asked of it.
    pub host: Option<Arc<dyn Host>>,
}

/// What a run asks of its host while it steps: the answers to what the IR holds no code for.
/// Called inside a step (the host answers at once, from what it has: the Open body's code, say);
/// the same question in the same run must get the same answer, or a restored run may differ.
pub trait Host: Send + Sync {
    /// The answer of the named guard `name` (with the reference's params, evaluated) in the run
    /// `session`; `None` where the host has none (the run ends `error`, naming the guard).
    fn guard(&self, session: &str, name: &str, params: Option<&JsValue>) -> Option<bool>;
}

/// Fixed answers by name (`jr2 sim --guards`): every evaluation of a guard is its one answer.
impl Host for std::collections::BTreeMap<String, bool> {
    fn guard(&self, _session: &str, name: &str, _params: Option<&JsValue>) -> Option<bool> {
        self.get(name).copied()
    }
}

/// How an event came (SCXML's `_event.type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Platform,
    Internal,
    External,
}

/// An event being processed: its JSON, its JavaScript value, and what SCXML's `_event` tells.
struct Ev<'e> {
    /// Its JSON: the host's value, or made at its first read from `text` (an event whose
    /// payload no expression reads is never made into a tree).
    value: std::cell::OnceCell<Value>,
    /// The JSON text it came as, where the host gave text ([`Runtime::send_text`]).
    text: Option<&'e str>,
    /// Has it a string `type`?
    typed: bool,
    /// Its type, in place where it is short (most are).
    ty: ir::Name,
    /// Its JavaScript value, made when an expression first reads it (most events are read by
    /// none: a transition that only moves).
    js: std::cell::OnceCell<JsValue>,
    /// The globals its expressions read (an SCXML document's `_event`, `_sessionid`, `_name`,
    /// `_ioprocessors`), made once for the event; none in a Machine.
    globals: Arc<[(ir::Name, JsValue)]>,
    /// Who sent it (the kit's `sentBy` reads it): the invoke id of the child that sent it, or the
    /// party the host names ([`Runtime::send_from`]); `None` for the machine's own events and for
    /// a host's event that names no sender.
    sender: Option<ir::Name>,
}

impl Ev<'_> {
    fn value(&self) -> &Value {
        self.value.get_or_init(|| self.text.and_then(|t| serde_json::from_str(t).ok()).unwrap_or(Value::Null))
    }

    fn js(&self) -> &JsValue {
        self.js.get_or_init(|| JsValue::from_json(self.value()))
    }
}

/// An event's `type`, where it is a string: a small object's keys are scanned (no hash made).
fn type_of(v: &Value) -> Option<&str> {
    match v {
        Value::Object(m) if m.len() <= 8 => m.iter().find(|(k, _)| k.as_str() == "type").and_then(|(_, t)| t.as_str()),
        _ => v.get("type").and_then(Value::as_str),
    }
}

/// An event waiting on a queue.
#[derive(Clone)]
struct Queued {
    value: Value,
    kind: Kind,
    sendid: Option<String>,
    invokeid: Option<String>,
}

impl Queued {
    fn new(value: Value, kind: Kind) -> Queued {
        Queued { value, kind, sendid: None, invokeid: None }
    }
}

/// The mutable run inside one call.
#[derive(Clone)]
struct Run {
    config: StateSet,
    /// The same states in the order they were entered, as xstate keeps its configuration: its
    /// eventless transitions are looked for from the atomic states in this order.
    order: Vec<StateId>,
    /// The active states as the evaluator reads them, made again when the configuration changes.
    active: Option<Arc<[StateId]>>,
    context: JsValue,
    input: JsValue,
    timers: Vec<Timer>,
    actors: Vec<Actor>,
    children: Vec<Child>,
    history: BTreeMap<StateId, Vec<StateId>>,
    status: Status,
    error: Option<Fault>,
    output: Option<Value>,
    /// The type of the event being taken, for a fault's report.
    event: Option<ir::Name>,
    internal: VecDeque<Queued>,
    external: VecDeque<Queued>,
    requests: Vec<Request>,
    now: u64,
    sends: u64,
    incarnations: u64,
    /// Events of its own queue taken since the last from outside.
    chained: u64,
    /// The `fail()` actors started in this call, their Failures to raise after the macrostep.
    failing: Vec<Failing>,
    /// The transitions the call's event took (the first macrostep's, not the ones after it).
    taken: Vec<usize>,
    /// Has the call's event been selected for yet?
    selected: bool,
    /// Microsteps and `foreach` iterations left in this call.
    budget: usize,
    /// The params of the named implementation being run ([`ir::expr::Root::Params`]), and how
    /// many implementations are being run inside each other (a guard named by a guard).
    params: JsValue,
    nesting: usize,
    /// The inline children started in this call (a state exited in the call that entered it
    /// takes none of its children's events, as xstate never starts them).
    started: Vec<String>,
    /// The run's handle on the JavaScript engine (its clock and its generator).
    js: JsHandle,
    /// The run's session id (the host's name for the run), for SCXML's `_sessionid` and its
    /// `#_scxml_<id>` target, and the seed of its generator.
    session: Arc<str>,
    /// An SCXML session's globals but `_event` (`_sessionid`, `_name`, `_ioprocessors`), made at
    /// their first read and the same values for the whole run (`_ioprocessors` is one object).
    session_globals: std::sync::OnceLock<Arc<[(ir::Name, JsValue)]>>,
}

/// A run's [`js::Js`], shared by the scopes of one call; a copy of a run gets a copy of it (its
/// generator goes on apart from the original's).
struct JsHandle(Arc<js::Js>);

impl Clone for JsHandle {
    fn clone(&self) -> JsHandle {
        use std::sync::atomic::Ordering::Relaxed;
        JsHandle(Arc::new(js::Js::new(self.0.now.load(Relaxed), self.0.random.load(Relaxed))))
    }
}

impl Run {
    /// The next incarnation, for an actor started or a timer set now.
    fn incarnation(&mut self) -> u64 {
        self.incarnations += 1;
        self.incarnations
    }

    /// A timer set now: its incarnation given, the host asked to schedule it. One of the same id
    /// is replaced (its firing, if the host still has it, is stale).
    fn set_timer(&mut self, mut timer: Timer) {
        timer.incarnation = self.incarnation();
        self.timers.retain(|t| t.id != timer.id);
        self.requests.push(Request::Schedule {
            id: timer.id.clone(),
            incarnation: timer.incarnation,
            deadline: timer.deadline,
        });
        self.timers.push(timer);
    }

    /// The request that stops an actor: none for a `fail()` actor, which the core settles itself.
    fn stopped(requests: &mut Vec<Request>, a: &Actor) {
        if a.kind != SlotKind::Fail {
            requests.push(Request::Stop { id: a.id.clone(), incarnation: a.incarnation });
        }
    }

    fn insert(&mut self, s: StateId) {
        if self.config.insert(s) {
            self.order.push(s);
        }
        self.active = None;
    }

    fn remove(&mut self, s: StateId) {
        self.config.remove(&s);
        self.order.retain(|&x| x != s);
        self.active = None;
    }

    fn active(&mut self) -> Arc<[StateId]> {
        self.active.get_or_insert_with(|| Arc::from(self.config.as_slice())).clone()
    }
}

impl<'m> Runtime<'m> {
    pub fn new(machine: &'m Machine) -> Self {
        Runtime::of(machine.statechart(), false)
    }

    fn of(machine: &'m Statechart, nested: bool) -> Self {
        let n = machine.states.len();
        let mut by_source = vec![Vec::new(); n];
        let mut defaults = vec![None; n];
        for (i, t) in machine.transitions.iter().enumerate() {
            let s = t.source.index();
            if s >= n {
                continue;
            }
            match t.trigger {
                Trigger::HistoryDefault | Trigger::Initial => defaults[s] = defaults[s].or(Some(i)),
                _ => by_source[s].push(i),
            }
        }
        let mut histories = vec![Vec::new(); n];
        for (i, s) in machine.states.iter().enumerate() {
            if let (StateKind::History, Some(p)) = (s.kind, s.parent) {
                histories[p.index()].push(StateId(i as u32));
            }
        }
        let mut paths: Vec<String> = Vec::with_capacity(n);
        for s in &machine.states {
            let path = match s.parent {
                None => String::new(),
                Some(p) if p == StateId::ROOT => s.key.to_string(),
                Some(p) => format!("{}.{}", paths[p.index()], s.key),
            };
            paths.push(path);
        }
        let node_ids = machine
            .states
            .iter()
            .zip(&paths)
            .map(|(s, p)| match (&s.id, s.parent) {
                (Some(id), _) => id.clone(),
                (None, None) => machine.id.clone(),
                (None, Some(_)) => format!("{}.{p}", machine.id),
            })
            .collect();
        // The children the run runs itself, in its own snapshot (one snapshot for the run's whole
        // tree, so that one commit covers a macrostep): an SCXML `<invoke><content>`, and an invoke
        // of a slot whose definition is a child Machine (its IR in the slot, imported or not).
        let mut inline = Vec::new();
        for (i, s) in machine.states.iter().enumerate() {
            for (k, inv) in s.invokes.iter().enumerate() {
                let of_slot = || match machine.slots.get(inv.src.as_str()).and_then(|slot| slot.definition.as_ref()) {
                    Some(ir::slot::Definition::Machine(child)) => Some(&**child),
                    _ => None,
                };
                if let Some(child) = inv.machine.as_deref().or_else(of_slot) {
                    inline.push((StateId(i as u32), k, Runtime::of(child, true)));
                }
            }
        }
        Runtime {
            machine,
            inline,
            by_source,
            defaults,
            histories,
            node_ids,
            paths,
            scxml: machine.origin == Origin::Scxml,
            globals: machine.origin == Origin::Scxml && reads_globals(machine),
            nested,
            eventless: machine.transitions.iter().any(|t| t.trigger == Trigger::Always),
            step_bound: DEFAULT_STEP_BOUND,
            queue_bound: DEFAULT_QUEUE_BOUND,
            bounds: Bounds::default(),
            host: None,
        }
    }

    /// A state's name for people and for `jr2 sim`: its `id` where it has one, its key path
    /// otherwise (the root: the machine's id).
    pub fn name(&self, s: StateId) -> String {
        let st = self.machine.state(s);
        match &st.id {
            Some(id) => id.clone(),
            None if st.parent.is_none() => self.machine.id.clone(),
            None => self.paths[s.index()].clone(),
        }
    }

    /// The active atomic states, in document order.
    pub fn atomic(&self, snapshot: &Snapshot) -> Vec<StateId> {
        let set: StateSet = snapshot.configuration.iter().copied().collect();
        self.atomic_of(&set)
    }

    /// The active atomic states of a live run, in document order.
    pub fn atomic_live(&self, live: &Live) -> Vec<StateId> {
        self.atomic_of(&live.0.config)
    }

    fn atomic_of(&self, config: &StateSet) -> Vec<StateId> {
        config.iter().copied().filter(|&s| !self.machine.state(s).children.iter().any(|c| config.contains(c))).collect()
    }

    fn run(&self, snapshot: Option<Snapshot>, now: u64) -> Run {
        let mut run = Run {
            config: StateSet::new(),
            order: Vec::new(),
            active: None,
            context: JsValue::Undefined,
            input: JsValue::Undefined,
            timers: Vec::new(),
            actors: Vec::new(),
            children: Vec::new(),
            history: BTreeMap::new(),
            status: Status::Active,
            error: None,
            output: None,
            event: None,
            internal: VecDeque::new(),
            external: VecDeque::new(),
            requests: Vec::new(),
            now,
            sends: 0,
            incarnations: 0,
            chained: 0,
            failing: Vec::new(),
            taken: Vec::new(),
            selected: false,
            budget: self.step_bound,
            params: JsValue::Undefined,
            nesting: 0,
            started: Vec::new(),
            js: JsHandle(Arc::new(js::Js::new(now, js::seed(DEFAULT_SESSION)))),
            session: Arc::from(DEFAULT_SESSION),
            session_globals: std::sync::OnceLock::new(),
        };
        if let Some(s) = snapshot {
            run.config = s.configuration.iter().copied().collect();
            run.order = s.configuration;
            run.context = s.context.0;
            run.timers = s.timers;
            run.actors = s.actors;
            run.children = s.children;
            run.history = s.history.into_iter().map(|r| (r.history, r.states)).collect();
            run.status = s.status;
            run.error = s.error;
            run.output = s.output;
            run.sends = s.sends;
            run.incarnations = s.incarnations;
            run.chained = s.chained;
            run.session = Arc::from(s.session);
            run.js.0.random.store(s.random, std::sync::atomic::Ordering::Relaxed);
            run.external = s
                .queue
                .into_iter()
                .map(|q| Queued { value: q.event, kind: Kind::External, sendid: q.sendid, invokeid: q.invokeid })
                .collect();
        }
        run
    }

    /// The run's first macrostep: the initial context, the initial states entered.
    pub fn start(&self, input: Option<Value>, now: u64) -> Step {
        let (live, requests) = self.start_live(input, now);
        Step { snapshot: live.into_snapshot(), requests }
    }

    /// [`Runtime::start`], the run kept live: events go to it in place ([`Runtime::send_live`])
    /// and a snapshot is made only where the host asks for one ([`Live::snapshot`]).
    pub fn start_live(&self, input: Option<Value>, now: u64) -> (Live, Vec<Request>) {
        self.start_session_live(DEFAULT_SESSION, input, now)
    }

    /// [`Runtime::start`] of a run the host names: `session` is SCXML's `_sessionid` and seeds the
    /// run's `Math.random()` (two runs of one program draw different numbers).
    pub fn start_session(&self, session: &str, input: Option<Value>, now: u64) -> Step {
        let (live, requests) = self.start_session_live(session, input, now);
        Step { snapshot: live.into_snapshot(), requests }
    }

    /// [`Runtime::start_session`], the run kept live.
    pub fn start_session_live(&self, session: &str, input: Option<Value>, now: u64) -> (Live, Vec<Request>) {
        let mut run = self.run(None, now);
        run.session = Arc::from(session);
        run.js.0.random.store(js::seed(session), std::sync::atomic::Ordering::Relaxed);
        run.input = input.as_ref().map_or(JsValue::Undefined, JsValue::from_json);
        let event = json!({ "type": "xstate.init", "input": input.clone().unwrap_or(Value::Null) });
        // SCXML's `_event` is not bound before the first event (its initial entry is no event's).
        let ev = self.ev_of(&run, Queued::new(event, Kind::Platform), false);
        let result = self.initial_context(&mut run, &ev, input.as_ref()).and_then(|()| {
            let mut enter = [StateId::ROOT].into_iter().collect::<StateSet>();
            let mut defaults = Vec::new();
            self.add_descendants(&run, StateId::ROOT, &mut enter, &mut defaults);
            self.enter(&mut run, &enter, &defaults, &ev)?;
            self.settle(&mut run, ev)?;
            self.drain(&mut run)
        });
        let requests = self.end_call(&mut run, result);
        (Live(run), requests)
    }

    /// A run made live from a snapshot (nothing of it copied).
    pub fn resume(&self, snapshot: Snapshot) -> Live {
        Live(self.run(Some(snapshot), 0))
    }

    /// One macrostep: `event` (an object with a string `type`) and what follows it, then each
    /// event the machine sent itself meanwhile. An event typed `xstate.*` is refused.
    pub fn send(&self, snapshot: &Snapshot, event: Value, now: u64) -> Result<Step, Refused> {
        self.send_owned(snapshot.clone(), event, now)
    }

    /// [`Runtime::send`] from a snapshot the host gives up (it keeps the next one): nothing of
    /// it is copied.
    pub fn send_owned(&self, snapshot: Snapshot, event: Value, now: u64) -> Result<Step, Refused> {
        let mut live = self.resume(snapshot);
        let requests = self.send_live(&mut live, event, now)?;
        Ok(Step { snapshot: live.into_snapshot(), requests })
    }

    /// [`Runtime::send`] to a live run, in place: what the host is asked to do.
    pub fn send_live(&self, live: &mut Live, event: Value, now: u64) -> Result<Vec<Request>, Refused> {
        outside(type_of(&event).unwrap_or_default())?;
        Ok(self.call_external(&mut live.0, Queued::new(event, Kind::External), now))
    }

    /// An event from inside the run's tree (a parent's to its inline child): taken whatever its
    /// type, as xstate's own events are.
    pub(crate) fn deliver(&self, snapshot: &Snapshot, event: Value, now: u64) -> Step {
        let mut live = self.resume(snapshot.clone());
        let requests = self.call_external(&mut live.0, Queued::new(event, Kind::External), now);
        Step { snapshot: live.into_snapshot(), requests }
    }

    /// An actor's outcome, as the host reports it for the incarnation it started: the actor's
    /// done or error event, from the actor (an Agent's party is its slot). An incarnation the run
    /// no longer holds is [`Refused::Stale`] and changes nothing.
    pub fn outcome(
        &self,
        live: &mut Live,
        actor: &str,
        incarnation: u64,
        outcome: Outcome,
        now: u64,
    ) -> Result<Vec<Request>, Refused> {
        let run = &mut live.0;
        let Some(a) = run.actors.iter().find(|a| a.id == actor && a.incarnation == incarnation) else {
            return Err(Refused::Stale { id: actor.to_string(), incarnation });
        };
        let party = if a.kind.is_agent() { a.src.clone() } else { a.id.clone() };
        let event = outcome.event(actor);
        let q = Queued { invokeid: Some(party), ..Queued::new(event, Kind::External) };
        Ok(self.call_external(run, q, now))
    }

    /// One call that takes the queued event `q`: a macrostep, then an inline child's queue.
    fn call_external(&self, run: &mut Run, q: Queued, now: u64) -> Vec<Request> {
        self.begin_call(run, now);
        let result = self.external(run, q).and_then(|()| self.drain(run));
        self.end_call(run, result)
    }

    /// [`Runtime::send_live`] of an event the host has as JSON text (an object whose `type` is
    /// the string `ty`, as the host read it): its tree is made only where something reads the
    /// event's payload.
    pub fn send_text(&self, live: &mut Live, ty: &str, text: &str, now: u64) -> Result<Vec<Request>, Refused> {
        outside(ty)?;
        if self.globals || !live.0.children.is_empty() {
            // `_event` and autoforwarding read the whole event: the tree is made now.
            let event = serde_json::from_str(text).unwrap_or(Value::Null);
            return self.send_live(live, event, now);
        }
        let run = &mut live.0;
        self.begin_call(run, now);
        let ev = Ev {
            value: std::cell::OnceCell::new(),
            text: Some(text),
            typed: true,
            ty: ir::Name::from(ty),
            js: std::cell::OnceCell::new(),
            globals: Arc::from([]),
            sender: None,
        };
        let result = self.external_ev(run, ev).and_then(|()| self.drain(run));
        Ok(self.end_call(run, result))
    }

    /// [`Runtime::send_owned`] of an event that the party `sender` sent (an Agent slot's key, a
    /// Gate's invoke id): the kit's `sentBy` guards read it.
    pub fn send_from(&self, snapshot: Snapshot, event: Value, sender: &str, now: u64) -> Result<Step, Refused> {
        let mut live = self.resume(snapshot);
        let requests = self.send_from_live(&mut live, event, sender, now)?;
        Ok(Step { snapshot: live.into_snapshot(), requests })
    }

    /// [`Runtime::send_from`] to a live run, in place.
    pub fn send_from_live(
        &self,
        live: &mut Live,
        event: Value,
        sender: &str,
        now: u64,
    ) -> Result<Vec<Request>, Refused> {
        outside(type_of(&event).unwrap_or_default())?;
        let q = Queued { invokeid: Some(sender.to_string()), ..Queued::new(event, Kind::External) };
        Ok(self.call_external(&mut live.0, q, now))
    }

    /// The timer `id` of this incarnation fires: its event goes to the machine (a macrostep) or,
    /// for a delayed send to another actor, to the host. A timer the run no longer holds (or
    /// holds in another incarnation: cancelled and set again) is [`Refused::Stale`].
    pub fn fire(&self, snapshot: &Snapshot, id: &str, incarnation: u64, now: u64) -> Result<Step, Refused> {
        let mut live = self.resume(snapshot.clone());
        let requests = self.fire_live(&mut live, id, incarnation, now)?;
        Ok(Step { snapshot: live.into_snapshot(), requests })
    }

    /// [`Runtime::fire`] in a live run, in place.
    pub fn fire_live(&self, live: &mut Live, id: &str, incarnation: u64, now: u64) -> Result<Vec<Request>, Refused> {
        let run = &mut live.0;
        let Some(at) = run.timers.iter().position(|t| t.id == id && t.incarnation == incarnation) else {
            return Err(Refused::Stale { id: id.to_string(), incarnation });
        };
        Ok(self.fire_at(run, at, now))
    }

    /// The run's timer at index `at` fires.
    fn fire_at(&self, run: &mut Run, at: usize, now: u64) -> Vec<Request> {
        self.begin_call(run, now);
        let timer = run.timers.remove(at);
        if let Some(child) = &timer.child {
            let inner = timer.id.strip_prefix(&format!("{child}::")).unwrap_or(&timer.id).to_string();
            let result = self.to_child(run, child, |rt, snapshot, now| {
                let mut live = rt.resume(snapshot.clone());
                // The child's own timer of that id, whichever incarnation it holds now.
                let requests = match live.0.timers.iter().position(|x| x.id == inner) {
                    Some(at) => rt.fire_at(&mut live.0, at, now),
                    None => Vec::new(),
                };
                Step { snapshot: live.into_snapshot(), requests }
            });
            let result = result.and_then(|()| self.drain(run));
            return self.end_call(run, result);
        }
        let result = match &timer.to {
            _ if run.status.is_final() => Ok(()),
            Some(to) if self.is_child(run, to) => {
                let event = timer.event();
                self.to_child(run, to, |rt, s, now| rt.deliver(s, event, now)).and_then(|()| self.drain(run))
            }
            Some(to) => {
                run.requests.push(Request::Send { to: to.clone(), event: timer.event() });
                Ok(())
            }
            None => {
                let sendid = timer.state.is_none().then(|| timer.id.clone());
                let kind = if timer.state.is_some() { Kind::Platform } else { Kind::External };
                let q = Queued { value: timer.event(), kind, sendid, invokeid: None };
                self.external(run, q).and_then(|()| self.drain(run))
            }
        };
        self.end_call(run, result)
    }

    /// The context at start: the IR's constant, with its expression's fields over it.
    fn initial_context(&self, run: &mut Run, ev: &Ev, input: Option<&Value>) -> Result<(), String> {
        let mut context = match &self.machine.context {
            Some(c) => JsValue::from_literal(c),
            None => JsValue::object_of(Vec::new()),
        };
        if let Some(e) = &self.machine.context_expr {
            run.context = context.clone();
            let computed = match (self.eval(run, e, ev), &e) {
                (Ok(v), _) => v,
                // SCXML: data whose expression cannot be evaluated raises `error.execution`, and
                // each field of it is evaluated alone, so that the others still get their values.
                (Err(_), Expr::Object(fields)) if self.scxml => {
                    let mut props = Vec::new();
                    for (k, x) in fields {
                        match self.eval(run, x, ev) {
                            Ok(v) => props.push((k.to_string(), v)),
                            // The variable is declared all the same, `undefined`.
                            Err(err) => {
                                self.raise_error(run, &err);
                                props.push((k.to_string(), JsValue::Undefined));
                            }
                        }
                    }
                    JsValue::object_of(props)
                }
                (Err(err), _) if self.scxml => {
                    self.raise_error(run, &err);
                    JsValue::Undefined
                }
                (Err(err), _) => return Err(err),
            };
            if let JsValue::Object(props) = computed {
                for (k, v) in props.iter() {
                    context.set(k, v.clone());
                }
            }
        } else if let Some(input) = input {
            // A Chart's context reads `input` through the context (`context.input`), as the kit
            // sets it.
            if self.machine.origin == Origin::Chart && matches!(context.member("input"), JsValue::Undefined) {
                context.set("input", JsValue::from_json(input));
            }
        }
        if let (Some(Value::Object(params)), Origin::Scxml) = (input, self.machine.origin) {
            // An SCXML child's `<param>`s and `namelist` set the data it declares, over the
            // values its `<data>` give.
            for (k, v) in params {
                if matches!(&context, JsValue::Object(props) if props.iter().any(|(key, _)| key == k)) {
                    context.set(k, JsValue::from_json(v));
                }
            }
        }
        run.context = context;
        match self.bounds.check(&run.context) {
            Some(reason) => Err(reason),
            None => Ok(()),
        }
    }

    /// An event from outside (or the external queue): one macrostep.
    fn external(&self, run: &mut Run, q: Queued) -> Result<(), String> {
        if run.status != Status::Active {
            return Ok(());
        }
        // SCXML's autoforward: every external event, a child's own too.
        if !run.children.is_empty() {
            self.autoforward(run, &q.value)?;
        }
        self.external_ev(run, self.ev(run, q))
    }

    /// An external event's macrostep, its event made.
    fn external_ev(&self, run: &mut Run, ev: Ev<'_>) -> Result<(), String> {
        if run.status != Status::Active {
            return Ok(());
        }
        // An actor's outcome: it is done, whatever a transition makes of it.
        let ty = ev.ty.as_str();
        if ty.starts_with("xstate.") || ty.starts_with("done.invoke.") {
            for prefix in ["xstate.done.actor.", "xstate.error.actor.", "done.invoke."] {
                if let Some(id) = ty.strip_prefix(prefix) {
                    run.actors.retain(|a| a.id != id);
                }
            }
            if ty.starts_with("xstate.after.") {
                run.timers.retain(|t| t.id != ty);
            }
        }
        run.event = Some(ev.ty.clone());
        let ts = self.select(run, &ev)?;
        if !run.selected {
            run.selected = true;
            run.taken.clone_from(&ts);
        }
        if ts.is_empty() && !self.scxml && ty.starts_with("xstate.error.actor.") {
            // xstate's `macrostep`: an actor's error that no transition takes ends the run, with
            // the actor's error: `failed` with its payload where it is a Failure, else `error`.
            self.uncaught(run, &ev);
            return Ok(());
        }
        if ts.is_empty() && !self.scxml && (ty == "agent.fault" || ty == "workspace.lost") {
            // ADR-0074: a mechanism event that no transition takes (a guard false when it came)
            // would leave the run waiting for ever with a dead Agent or no Sandbox.
            self.unrouted(run, &ev);
            return Ok(());
        }
        self.microstep(run, &ts, &ev)?;
        self.settle(run, ev)
    }

    /// A mechanism event (`agent.fault`, `workspace.lost`) that no transition took: the run
    /// ends `error`, never `failed` (ADR-0074: the Machine did not choose that end), its fault
    /// naming the event, the states and the event's `reason`.
    fn unrouted(&self, run: &mut Run, ev: &Ev) {
        let states: Vec<String> = self.atomic_of(&run.config).into_iter().map(|s| self.name(s)).collect();
        let why = match ev.value().get("reason") {
            Some(Value::String(s)) => s.clone(),
            Some(v) if !v.is_null() => v.to_string(),
            _ => "no reason given".to_string(),
        };
        let listed = states.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ");
        run.status = Status::Error;
        run.error = Some(Fault {
            reason: format!("no transition took {:?} in state {listed} (ADR-0074): {why}", ev.ty.as_str()),
            event: Some(ev.ty.to_string()),
            states,
            error: None,
        });
    }

    /// An actor's error that no transition took: the run ends (ADR-0073). A Failure passes up
    /// unchanged, so that a parent Machine's `isFailure` reads it as this one's did.
    fn uncaught(&self, run: &mut Run, ev: &Ev) {
        let error = ev.value().get("error").cloned().unwrap_or(Value::Null);
        if is_failure(&error) {
            run.status = Status::Failed;
            run.output = Some(failure_payload(&error));
            return;
        }
        let actor = ev.ty.strip_prefix("xstate.error.actor.").unwrap_or_default();
        let message = match &error {
            Value::String(s) => s.clone(),
            v => v.get("message").and_then(Value::as_str).map_or_else(|| v.to_string(), str::to_string),
        };
        run.status = Status::Error;
        run.error = Some(Fault {
            reason: format!("the actor {actor:?} failed and no transition took its error: {message}"),
            event: Some(ev.ty.to_string()),
            states: self.atomic_of(&run.config).into_iter().map(|s| self.name(s)).collect(),
            error: Some(error),
        });
    }

    /// The transitions `event` would take in the live run now (indices into the IR's
    /// `transitions`), conflicts removed, without taking it: nothing of the run changes. Empty
    /// where none would (or where a guard cannot be evaluated: taking the event would end the run
    /// `error`).
    pub fn takes(&self, live: &Live, event: &Value) -> Vec<usize> {
        if live.0.status != Status::Active {
            return Vec::new();
        }
        let mut run = live.0.clone();
        self.begin_call(&mut run, live.0.now);
        let ev = self.ev(&run, Queued::new(event.clone(), Kind::External));
        self.select(&mut run, &ev).unwrap_or_default()
    }

    /// The host cancels the run: it ends `cancelled`, and the host is asked to stop every actor
    /// it runs for the run's tree and to cancel every timer. No exit action runs (as xstate's
    /// `stop`). A run that has ended already is left as it is.
    pub fn cancel(&self, live: &mut Live) -> Vec<Request> {
        let run = &mut live.0;
        if run.status != Status::Active {
            return Vec::new();
        }
        self.begin_call(run, run.now);
        run.status = Status::Cancelled;
        self.end_call(run, Ok(()))
    }

    /// The first event of the run's external queue, taken: its macrostep; `None` where the queue
    /// is empty (or the run has ended).
    pub fn take_queued(&self, snapshot: &Snapshot, now: u64) -> Option<Step> {
        if snapshot.queue.is_empty() || snapshot.status != Status::Active {
            return None;
        }
        let mut live = self.resume(snapshot.clone());
        let requests = self.take_queued_live(&mut live, now)?;
        Some(Step { snapshot: live.into_snapshot(), requests })
    }

    /// [`Runtime::take_queued`] in a live run, in place.
    pub fn take_queued_live(&self, live: &mut Live, now: u64) -> Option<Vec<Request>> {
        let run = &mut live.0;
        if run.external.is_empty() || run.status != Status::Active {
            return None;
        }
        let chained = run.chained + 1;
        if chained > self.queue_bound {
            self.begin_call(run, now);
            let reason = format!(
                "the run took more than {} events it sent itself after one event from outside (a loop of sends)",
                self.queue_bound
            );
            return Some(self.end_call(run, Err(reason)));
        }
        let q = run.external.pop_front()?;
        let requests = self.call_external(run, q, now);
        run.chained = chained;
        Some(requests)
    }

    /// An inline child's queue, each event its own macrostep (a top-level run leaves its queue
    /// to the host: [`Runtime::take_queued`]).
    fn drain(&self, run: &mut Run) -> Result<(), String> {
        while self.nested && run.status == Status::Active {
            let Some(q) = run.external.pop_front() else { break };
            self.spend(run, "events the machine sends itself")?;
            self.external(run, q)?;
        }
        Ok(())
    }

    /// One microstep (or `foreach` iteration) of the call's budget.
    fn spend(&self, run: &mut Run, what: &str) -> Result<(), String> {
        if run.budget == 0 {
            return Err(format!(
                "the run took more than {} steps in one macrostep (a loop of {what})",
                self.step_bound
            ));
        }
        run.budget -= 1;
        Ok(())
    }

    /// A call's start on a live run: the host's clock, a new budget.
    fn begin_call(&self, run: &mut Run, now: u64) {
        run.now = now;
        // Any call but a queued event's own (which sets it again after) starts the count anew.
        run.chained = 0;
        run.js.0.now.store(now, std::sync::atomic::Ordering::Relaxed);
        run.budget = self.step_bound;
        run.taken.clear();
        run.selected = false;
    }

    /// An actor the run starts now, under a new incarnation: the host's to run, but for a
    /// `fail()` actor, which the core settles itself (ADR-0073: `fail()` does no work outside the
    /// Machine): its Failure is raised once the macrostep is done ([`Runtime::raise_failures`]).
    pub(crate) fn start_actor(
        &self,
        run: &mut Run,
        id: String,
        src: &str,
        kind: SlotKind,
        state: StateId,
        input: Option<Value>,
    ) {
        let incarnation = run.incarnation();
        if kind == SlotKind::Fail {
            run.failing.push(Failing { actor: id.clone(), incarnation, error: failure_of(input.as_ref()) });
        } else {
            run.requests.push(Request::Start { id: id.clone(), incarnation, src: src.to_string(), kind, input });
        }
        run.actors.push(Actor { id, incarnation, src: src.to_string(), kind, state });
    }

    /// The Failures of the `fail()` actors the call started, each its own macrostep after the
    /// one that started it (as xstate delivers a promise actor's rejection), while the actor is
    /// still there: a state exited in the macrostep that entered it raises nothing. Each is an
    /// event the run sends itself, within the call's bound.
    fn raise_failures(&self, run: &mut Run) -> Result<(), String> {
        while run.status == Status::Active && !run.failing.is_empty() {
            let f = run.failing.remove(0);
            if !run.actors.iter().any(|a| a.id == f.actor && a.incarnation == f.incarnation) {
                continue;
            }
            self.spend(run, "Failures the run raises itself")?;
            let event = Outcome::Error(f.error).event(&f.actor);
            let q = Queued { invokeid: Some(f.actor), ..Queued::new(event, Kind::External) };
            self.external(run, q)?;
            self.drain(run)?;
        }
        Ok(())
    }

    /// A call's end: an error ends the run, a run that ended stops what it started; what the
    /// host is asked to do. What lives only within a call is cleared, so that the live run is
    /// what a snapshot of it would restore.
    fn end_call(&self, run: &mut Run, result: Result<(), String>) -> Vec<Request> {
        let result = result.and_then(|()| self.raise_failures(run));
        if let Err(reason) = result {
            run.status = Status::Error;
            let states = self.atomic_of(&run.config).into_iter().map(|s| self.name(s)).collect();
            // A function that threw: its value, as xstate hands it to a parent.
            let error = run.js.0.take_thrown().and_then(|v| v.to_json());
            run.error = Some(Fault { reason, event: run.event.as_ref().map(ToString::to_string), states, error });
        }
        if run.status != Status::Active {
            // A run that ended stops what it started and waits for nothing.
            for a in std::mem::take(&mut run.actors) {
                Run::stopped(&mut run.requests, &a);
            }
            for t in std::mem::take(&mut run.timers) {
                run.requests.push(Request::Cancel { id: t.id, incarnation: t.incarnation });
            }
            run.failing.clear();
            for c in std::mem::take(&mut run.children) {
                stop_tree(&mut run.requests, &c.snapshot);
            }
        }
        run.internal.clear();
        run.event = None;
        run.input = JsValue::Undefined;
        run.params = JsValue::Undefined;
        run.nesting = 0;
        run.started.clear();
        cancel_pairs(std::mem::take(&mut run.requests))
    }

    /// An event as the evaluator reads it.
    fn ev(&self, run: &Run, q: Queued) -> Ev<'static> {
        self.ev_of(run, q, true)
    }

    /// An event as the evaluator reads it; `bound`: SCXML's `_event` is bound to it (it is not
    /// before the run's first event).
    fn ev_of(&self, run: &Run, q: Queued, bound: bool) -> Ev<'static> {
        let typed = type_of(&q.value);
        let (typed, ty) = (typed.is_some(), ir::Name::from(typed.unwrap_or_default()));
        let globals = if self.globals { self.scxml_globals(run, &q, &ty, bound) } else { Arc::from([]) };
        let sender = q.invokeid.as_deref().map(ir::Name::from);
        Ev {
            value: std::cell::OnceCell::from(q.value),
            text: None,
            typed,
            ty,
            js: std::cell::OnceCell::new(),
            globals,
            sender,
        }
    }

    /// A state's done event: xstate's `xstate.done.state.<id>`, with `output` (an SCXML
    /// document's with `data`; its `_event.name` is SCXML's `done.state.<id>`).
    fn done_event(&self, s: StateId, data: Option<Value>) -> Value {
        let id = &self.node_ids[s.index()];
        let (ty, key) = (format!("xstate.done.state.{id}"), if self.scxml { "data" } else { "output" });
        let mut e = json!({ "type": ty });
        if let Some(d) = data {
            e[key] = d;
        }
        e
    }
}

/// SCXML's event I/O processor's name.
/// Does an expression of `machine` (its children's included) read a run's named value: an
/// [`Expr::Global`], or a script given them ([`ir::expr::Script::run`])? Read from the IR's
/// serialized form, which holds every expression wherever it stands (a walk over the IR's types
/// would have to name each place one can be, and miss one added later); made once per program.
fn reads_globals(machine: &Statechart) -> bool {
    fn any(v: &Value) -> bool {
        match v {
            Value::Object(o) => {
                let global = o.get("kind").and_then(Value::as_str) == Some("global");
                let run = o.get("run") == Some(&Value::Bool(true)) && o.contains_key("code");
                global || run || o.values().any(any)
            }
            Value::Array(items) => items.iter().any(any),
            _ => false,
        }
    }
    // An IR that does not serialize cannot be read: its events get their globals, as before.
    serde_json::to_value(machine).map_or(true, |v| any(&v))
}

pub(crate) const SCXML_PROCESSOR: &str = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor";

/// xstate v5's event descriptor match: the type itself, `*`, or a prefix ending in `.*`.
pub(crate) fn matches_descriptor(ty: &str, descriptor: &str) -> bool {
    if descriptor == ty || descriptor == "*" {
        return true;
    }
    match descriptor.strip_suffix(".*") {
        Some(prefix) => ty == prefix || ty.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('.')),
        None => false,
    }
}

/// A delay as milliseconds: a number (`5000`, as `after` keys are written) or a CSS-style
/// duration (`5s`, `500ms`, `2m`, `1h`).
pub(crate) fn delay_ms(delay: &str) -> Option<u64> {
    let delay = delay.trim();
    if let Ok(ms) = delay.parse::<u64>() {
        return Some(ms);
    }
    let split = delay.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (n, unit) = delay.split_at(split);
    let n: f64 = n.parse().ok()?;
    let factor = match unit.trim() {
        "ms" => 1.0,
        "s" => 1_000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return None,
    };
    let ms = n * factor;
    (ms.is_finite() && ms >= 0.0 && ms < u64::MAX as f64).then_some(ms.round() as u64)
}

/// The host's actors of an inline child's tree, stopped (its timers are its parent's).
pub(crate) fn stop_tree(requests: &mut Vec<Request>, snapshot: &Snapshot) {
    for a in &snapshot.actors {
        Run::stopped(requests, a);
    }
    for c in &snapshot.children {
        stop_tree(requests, &c.snapshot);
    }
}

/// A start and a stop of one actor (or a schedule and a cancel of one timer) in one macrostep ask
/// the host for nothing: both go.
fn cancel_pairs(requests: Vec<Request>) -> Vec<Request> {
    let mut out: Vec<Request> = Vec::with_capacity(requests.len());
    for r in requests {
        let undone = match &r {
            Request::Stop { id, incarnation } => out.iter().rposition(
                |x| matches!(x, Request::Start { id: i, incarnation: n, .. } if i == id && n == incarnation),
            ),
            Request::Cancel { id, incarnation } => out.iter().rposition(
                |x| matches!(x, Request::Schedule { id: i, incarnation: n, .. } if i == id && n == incarnation),
            ),
            _ => None,
        };
        match undone {
            Some(at) => {
                out.remove(at);
            }
            None => out.push(r),
        }
    }
    out
}

/// A run and the loaded program can move between threads (a host steps each run on whichever
/// worker is free), and a program is shared by the runs of its Machine.
const _: () = {
    const fn send<T: Send>() {}
    const fn send_sync<T: Send + Sync>() {}
    send::<Snapshot>();
    send::<Live>();
    send::<Step>();
    send_sync::<Runtime<'static>>();
};
