//! The IR: one statechart form for Charts now and Machines next.
//!
//! Plain data (serde), no borrowed source trees: the state tree, transitions (and their petgraph
//! view), invokes with their actor slot kinds, expressions and references as data. Where each
//! node was written (its file, span and dotted path) is not in it but beside it, in its
//! [`SourceMap`]: an IR says what runs, so its serialized form (what the durable runtime stores
//! and hashes) does not change when only whitespace or comments do.
//!
//! Invariant: the IR knows no parser and no rule. Front ends lower into it; passes read it.
//!
//! Its maps are [`FxIndexMap`]s: insertion order (which is what the JSON shows), Fx hashing
//! (their keys are the Workflow's own names, so no denial-of-service hashing is needed). Short
//! names (state keys, event and actor names, guard and action names) are [`Name`]s, stored inline
//! up to 24 bytes: lowering a Workflow makes hundreds of them, and most then touch no heap. Both
//! serialize as `IndexMap` and `String` do. A transition's targets (one, nearly always) are
//! stored inline too ([`TargetList`]), and so is a state's one invoke ([`InvokeList`]), each
//! serialized as a list.

pub mod eval;
pub mod expr;
mod graph;
pub mod identity;
pub mod json;
pub mod slot;
pub mod source_map;
pub mod targets;

pub use expr::{Builtin, Expr};
pub use identity::{Identity, IDENTITY_FORMAT};
pub use json::{Json, JsonMap};
pub use slot::Definition;
pub use source_map::{NodeSource, SourceMap, StateSource};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// An insertion-ordered map with Fx hashing, the IR's map.
pub type FxIndexMap<K, V> = IndexMap<K, V, rustc_hash::FxBuildHasher>;

/// The compiler's string for names, keys and short texts (a state's key, an event's, an
/// actor's; a reference's path segment; the value model's keys and strings, `machine::value::Name`
/// is this type): up to 24 bytes inline, no allocation; serialized as a plain string.
pub type Name = compact_str::CompactString;

/// A transition's resolved targets: up to two inline (in a `Vec`'s size), more on the heap.
pub type TargetList = smallvec::SmallVec<[StateId; 2]>;

/// A state's invokes: one (the usual count) inline, more on the heap.
pub type InvokeList = smallvec::SmallVec<[Invoke; 1]>;

/// An index into [`Statechart::states`]; the root is `StateId(0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StateId(pub u32);

impl StateId {
    pub const ROOT: StateId = StateId(0);

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a Machine came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A JSON Chart.
    Chart,
    /// A TypeScript Machine.
    Machine,
    /// An SCXML document. Its events carry their payload in `data` (`{ "type": "t", "data":
    /// ... }`), its data model is the context, and `_event`, `_sessionid`, `_name` and
    /// `_ioprocessors` are [`Expr::Global`]s.
    Scxml,
}

/// One statechart, as every reader reads it (a check, a pass, the runtime). An IR comes as an
/// executable [`Machine`] (lowered whole) or as a [`CheckedMachine`] (lowered for a check only);
/// both read as this.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Statechart {
    pub id: String,
    pub origin: Origin,
    /// The state tree in pre-order; `states[0]` is the root.
    pub states: Vec<State>,
    pub transitions: Vec<Transition>,
    /// Declared events (a Chart's `events`, a Machine's `defineEvent`s), by name.
    pub events: FxIndexMap<Name, EventDecl>,
    /// The actor slots that invokes name, by `src`.
    pub slots: FxIndexMap<Name, Slot>,
    /// The initial context ([`Json`], the IR's one JSON type: serializes as `serde_json::Value`
    /// does).
    pub context: Option<Json>,
    /// The initial context as an expression of the input, where it is not a constant (xstate's
    /// `context: ({ input }) => ...`, SCXML's `<data expr>`); it is evaluated at start, over
    /// `input`, and its fields are set over [`Statechart::context`]'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_expr: Option<Expr>,
    /// The Machine's output when its root reaches a final state (xstate's `output` mapper, over
    /// `context` and the done event); `None` is no output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Expr>,
    /// What the Machine's named guards, actions and delays do, where their implementations are
    /// pure: xstate's `setup({ guards, actions, delays })`, `createMachine`'s second argument and
    /// `.provide(...)`, a later one's name replacing an earlier one's. A reference keeps its name
    /// ([`Guard::Named`], [`Action::Named`], [`Trigger::After`]) and the run looks it up here; a
    /// name lent by the host (a Chart's, an Open body's) is not here.
    #[serde(default, skip_serializing_if = "Implementations::is_empty")]
    pub implementations: Implementations,
    /// The `workspace(body, options)` the Machine is the body of (the innermost, with any
    /// `customize()` layered over its options); `None` for a Machine that composes no Sandbox.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<slot::Workspace>,
}

/// The named implementations of a Machine, lowered ([`Statechart::implementations`]). Each is
/// evaluated as xstate evaluates it: over the `context` and `event` of the place that names it,
/// with `params` ([`expr::Root::Params`]) the reference's own params, evaluated there
/// (`{ type: "atLeast", params: { n: 2 } }`); a name given without params has `params`
/// `undefined`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Implementations {
    /// A named guard: a pure function's expression (a [`Guard::Expr`]), or a guard written as
    /// data (`stateIn(...)`, `and([...])`, another name).
    #[serde(default, skip_serializing_if = "FxIndexMap::is_empty")]
    pub guards: FxIndexMap<Name, Guard>,
    /// A named action: the actions it runs (an action creator's one; none for a function whose
    /// body has no effect, `() => {}`).
    #[serde(default, skip_serializing_if = "FxIndexMap::is_empty")]
    pub actions: FxIndexMap<Name, Vec<Action>>,
    /// A named delay: its milliseconds (a number, or a duration string) as an expression (a
    /// literal, or a pure function's expression over `context` and `event`).
    #[serde(default, skip_serializing_if = "FxIndexMap::is_empty")]
    pub delays: FxIndexMap<Name, Expr>,
}

impl Implementations {
    /// Has the Machine no implementation lowered?
    pub(crate) fn is_empty(&self) -> bool {
        self.guards.is_empty() && self.actions.is_empty() && self.delays.is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StateKind {
    Atomic,
    Compound,
    Parallel,
    Final,
    /// A history pseudo-state ([`State::history`] says which); never active itself.
    History,
}

/// What a history state remembers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HistoryKind {
    /// The parent's active children.
    Shallow,
    /// The parent's active atomic descendants.
    Deep,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Its key in its parent's `states`; empty for the root. (Its dotted path, `states.review`,
    /// is in the [`SourceMap`].)
    pub key: Name,
    /// Its `id`, for `#id` targets.
    pub id: Option<String>,
    pub kind: StateKind,
    pub parent: Option<StateId>,
    pub children: Vec<StateId>,
    /// The initial child of a compound state.
    pub initial: Option<StateId>,
    pub invokes: InvokeList,
    pub entry: Vec<Action>,
    pub exit: Vec<Action>,
    /// A history state's kind; `None` for every other state. Its default (where its parent has
    /// no history yet) is its [`Trigger::HistoryDefault`] transition, or its parent's initial
    /// state where it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<HistoryKind>,
    /// A final state's output (xstate's `output`, SCXML's `<donedata>`): the data of the done
    /// event its parent raises, over `context` and the event that entered it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Expr>,
    /// Its tags (xstate's `tags`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<Name>,
}

impl State {
    /// A state with nothing in it yet: no id, children, invokes or actions.
    pub fn new(key: Name, kind: StateKind, parent: Option<StateId>) -> State {
        State {
            key,
            id: None,
            kind,
            parent,
            children: Vec::new(),
            initial: None,
            invokes: InvokeList::new(),
            entry: Vec::new(),
            exit: Vec::new(),
            history: None,
            output: None,
            tags: Vec::new(),
        }
    }
}

/// What a transition waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "on", content = "name", rename_all = "camelCase")]
pub enum Trigger {
    /// An event by name (`on`).
    Event(Name),
    /// A delay by name or a duration in milliseconds (`after`).
    After(Name),
    /// An eventless transition (`always`).
    Always,
    /// The `onDone` of the state's invoke with this index.
    InvokeDone(usize),
    /// The `onError` of the state's invoke with this index.
    InvokeError(usize),
    /// The state's own `onDone` (a compound or parallel state that reached its final).
    StateDone,
    /// A history state's default transition: taken when the history state is entered and its
    /// parent has no history yet. Never selected by an event.
    HistoryDefault,
    /// A compound state's initial transition (SCXML's `<initial>` or an `initial` naming deeper
    /// or several states): where it has one, entering the state with no target below it takes
    /// this transition's targets and runs its actions, instead of [`State::initial`].
    Initial,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    pub source: StateId,
    pub trigger: Trigger,
    /// Resolved targets; empty for a targetless transition.
    pub targets: TargetList,
    pub guard: Option<Guard>,
    pub actions: Vec<Action>,
    pub reenter: bool,
}

/// A guard as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Guard {
    /// A named guard (lent, or a kit guard such as `jr2.failure`), with params.
    Named {
        name: Name,
        params: Option<Expr>,
    },
    /// The kit's `jr2.sentBy` routing guard.
    SentBy {
        id: Name,
    },
    /// A pure function guard (`({ context, event }) => ...`), lowered to its expression, or an
    /// SCXML `cond`: true where its value is truthy.
    Expr {
        expr: Expr,
    },
    Not {
        guard: Box<Guard>,
    },
    And {
        guards: Vec<Guard>,
    },
    Or {
        guards: Vec<Guard>,
    },
}

/// An action as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Action {
    /// A named action (lent), with params.
    Named { name: Name, params: Option<Expr> },
    /// Context updates: each context path gets a value (shared with the function it was lowered
    /// from, where it was one, as an invoke's input is).
    Assign { updates: FxIndexMap<Name, std::sync::Arc<Expr>> },
    /// A whole new context: `assign(({ context }) => ({ ...context, a: 1 }))`'s value.
    AssignContext { value: Expr },
    /// SCXML's `<assign location expr>`: the value at a location, a [`Expr::Ref`] of `context`
    /// or a [`Expr::Member`] chain over one (its keys evaluated at the assignment).
    AssignTo { location: Expr, value: Expr },
    /// xstate's `raise` and SCXML's `<raise>`: an event (an object with its `type`) to the
    /// machine itself: on the internal queue, or after `delay` (a number of milliseconds or a
    /// duration string) as a scheduled event that `id` can cancel.
    Raise {
        event: Expr,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delay: Option<Expr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Expr>,
    },
    /// xstate's `sendTo` / `sendParent` and SCXML's `<send>`: an event to another actor (or to
    /// the machine's own external queue), now or after `delay`.
    Send {
        to: SendTo,
        event: Expr,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delay: Option<Expr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Expr>,
        /// SCXML's `idlocation`: where the run writes the id it makes for this send.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id_location: Option<Expr>,
    },
    /// xstate's `cancel` and SCXML's `<cancel>`: the delayed event with this id is not sent.
    Cancel { id: Expr },
    /// xstate's `emit`: an event to the machine's listeners (the host).
    Emit { event: Expr },
    /// xstate's `log` and SCXML's `<log>`.
    Log {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<Expr>,
    },
    /// SCXML's `<if>/<elseif>/<else>`: the first branch whose condition is truthy (`None` is
    /// `<else>`) runs.
    If { branches: Vec<Branch> },
    /// SCXML's `<foreach array item index>`: the actions once per item of a copy of the array,
    /// with `item` (and `index`) set in the context first.
    Foreach {
        array: Expr,
        item: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<Name>,
        actions: Vec<Action>,
    },
    /// xstate's `spawnChild(src, { id, input })`: a child actor started by an action, by the
    /// name of an actor slot, or an inline child Machine (`machine`, its `src` then the `id` or
    /// `(inline)`).
    Spawn {
        src: Name,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Expr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<Expr>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        machine: Option<Box<Statechart>>,
    },
    /// One block of SCXML executable content among several (one `<onentry>` or `<onexit>` of a
    /// state that has more than one): an error in it stops the rest of it, not the blocks after.
    Block { actions: Vec<Action> },
    /// An action written as a function (`({ context }) => { ... }`) that is none of xstate's
    /// action creators: it is called for what it does and its value is dropped, as xstate drops
    /// it (a run's only effect of one is an error it throws; the engine gives it no I/O).
    Run { value: Expr },
    /// An action the IR cannot run, kept with the reason (a run refuses the Machine; a check
    /// reads past it).
    Opaque { reason: String },
}

/// One branch of an [`Action::If`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Branch {
    /// `None` for `<else>`.
    pub cond: Option<Expr>,
    pub actions: Vec<Action>,
}

/// Where an [`Action::Send`] sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum SendTo {
    /// The machine's own external queue (SCXML's `<send>` with no target).
    Own,
    /// The machine's parent (`sendParent`, `#_parent`).
    Parent,
    /// A child actor by its id (`sendTo("child")`, `#_<invokeid>`), or an SCXML target
    /// expression the run resolves (`#_internal`, `#_scxml_<session>`, `#_parent`).
    Actor(Expr),
}

/// What kind of actor an invoke's `src` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SlotKind {
    /// A lent (or declared) Agent.
    Agent,
    /// An Agent the Chart mints in its `agents`.
    Minted,
    Effect,
    Machine,
    /// The kit's Gate.
    Gate,
    /// The kit's `fail()`.
    Fail,
    /// A name the front end could not resolve.
    Unknown,
}

impl SlotKind {
    /// Does this slot run an Agent's Turns?
    pub fn is_agent(self) -> bool {
        matches!(self, SlotKind::Agent | SlotKind::Minted)
    }
}

/// An actor slot: a `src`, its kind, and what it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    pub kind: SlotKind,
    /// The Effect's kind (`command`, `http`, ...) where the slot is an Effect (`command` for a
    /// `worktree()` cut too: its [`slot::EffectRun::Worktree`] tells it apart).
    pub effect: Option<Name>,
    /// Its definition ([`slot`]): an Effect's parts, an Agent's model, a child Machine's IR, ...
    /// `None` where the front end gives none: an IR lowered for a check only, an SCXML document's
    /// slot (its child is the invoke's inline [`Invoke::machine`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<Definition>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Invoke {
    pub src: Name,
    pub id: Option<Name>,
    pub kind: SlotKind,
    /// Shared with the function it was lowered from (a mapper's `lowered`), not copied.
    pub input: Option<std::sync::Arc<Expr>>,
    /// An inline child statechart (SCXML's `<invoke><content><scxml>`), run as the child
    /// actor; a named child Machine is its [`Slot`] instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<Box<Statechart>>,
    /// SCXML's `autoforward`: every external event the machine takes is sent to the child too.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub autoforward: bool,
    /// SCXML's `<invoke idlocation>`: where the run writes the id of the actor it starts (a
    /// location as [`Action::AssignTo`]'s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_location: Option<Expr>,
}

/// A declared event (a pick).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventDecl {
    pub description: Option<String>,
    /// Its payload as JSON Schema ([`Json`]: serializes as `serde_json::Value` does). `None` where
    /// it has none, and in an IR lowered for a check only (a [`CheckedMachine`], whose lowering
    /// reads the schema for its faults and writes none).
    pub input: Option<Json>,
    pub audience: Option<String>,
}

/// An executable IR: a statechart lowered whole, with everything the runtime reads (the events'
/// input schemas too). What `jr2 ir` prints and a runtime stores; it serializes as its
/// statechart does, and reads as one ([`std::ops::Deref`]). A [`CheckedMachine`] is never one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Machine(Statechart);

impl Machine {
    /// A statechart lowered whole, as an executable IR: what a front end lowering for the runtime
    /// gives (`chart::lower`, `machine::lower::lower_parts`), never one lowered for a check.
    pub fn lowered(chart: Statechart) -> Machine {
        Machine(chart)
    }

    /// The statechart it is.
    pub fn statechart(&self) -> &Statechart {
        &self.0
    }

    /// Its identity: a hash of a versioned canonical form of everything that changes how it runs
    /// (its child Machines' IRs too), not its descriptions and not where it was written
    /// ([`identity`](crate::identity) says the form). Equal IRs have equal identities; an edit of
    /// whitespace, comments or descriptions keeps it.
    pub fn identity(&self) -> Identity {
        identity::of(&self.0)
    }
}

impl std::ops::Deref for Machine {
    type Target = Statechart;
    fn deref(&self) -> &Statechart {
        &self.0
    }
}

/// An IR lowered for a check only: what the check reads was written, and the rest was not. A
/// Machine's (`machine::lower::lower_parts_for_check`) lacks the events' input schemas, read for
/// their faults ([`EventDecl::input`] is `None`); a Chart's (`chart::lower::lower_for_check`, the
/// door's) lacks every expression (invokes' inputs, guards, actions, `entry`, `exit`), the events,
/// the context and the slots, which the door's rules read from the Chart's JSON. A type of its
/// own, so that it is never taken for an executable [`Machine`]: it reads as a statechart
/// ([`std::ops::Deref`]) and nothing makes a `Machine` of it; it does not serialize either.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedMachine(Statechart);

impl CheckedMachine {
    /// A statechart lowered for a check.
    pub fn lowered_for_check(chart: Statechart) -> CheckedMachine {
        CheckedMachine(chart)
    }
}

impl std::ops::Deref for CheckedMachine {
    type Target = Statechart;
    fn deref(&self) -> &Statechart {
        &self.0
    }
}

impl Statechart {
    pub fn state(&self, id: StateId) -> &State {
        &self.states[id.index()]
    }

    pub fn ids(&self) -> impl Iterator<Item = StateId> {
        (0..self.states.len() as u32).map(StateId)
    }

    /// The ancestors of a state, nearest first, without the state itself.
    pub fn ancestors(&self, id: StateId) -> impl Iterator<Item = StateId> + '_ {
        std::iter::successors(self.state(id).parent, move |p| self.state(*p).parent)
    }

    /// Is `a` the state `b` or a state above it?
    pub fn is_ancestor_or_self(&self, a: StateId, b: StateId) -> bool {
        a == b || self.ancestors(b).any(|x| x == a)
    }

    /// The nearest state at or above both.
    pub fn nearest_common(&self, a: StateId, b: StateId) -> StateId {
        std::iter::once(a).chain(self.ancestors(a)).find(|&x| self.is_ancestor_or_self(x, b)).unwrap_or(StateId::ROOT)
    }

    /// The transitions out of a state.
    pub fn transitions_from(&self, id: StateId) -> impl Iterator<Item = &Transition> {
        self.transitions.iter().filter(move |t| t.source == id)
    }
}
