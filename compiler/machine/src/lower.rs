//! Lowers a Machine's `createMachine` config (as the evaluator's [`Value`]s) into the IR.
//!
//! Input: `jr2Setup(setup).createMachine(config)` or xstate's `setup(setup).createMachine(config)`,
//! or xstate's `createMachine(config, implementations)`, each possibly followed by
//! `.provide(implementations)` and wrapped in `workspace(body, options)` and `customize(machine,
//! options)` (any depth). The implementations given outside the setup name actors as the setup's do
//! ([`MachineParts::implementations`]).
//! Output: an [`ir::Machine`] (or, for a check, an [`ir::CheckedMachine`]) with `origin: Machine`, in the conventions of `chart/lower.rs`: states
//! in pre-order with dotted paths (`states.coding.states.ready`), transitions in the order
//! `on`, `after`, `always`, `onDone`, then each invoke's `onDone`/`onError`, then a history
//! state's default `target` ([`Trigger::HistoryDefault`]) and, on the root, the `xstate.route`
//! transitions of every state with an `id` and a `route`; targets resolved as xstate resolves
//! them ([`ir::targets`]: `.`, escaped dots, `#id` then a path).
//!
//! Lowering never panics and never gives up on the whole Machine: a value of the wrong shape is a
//! [`Fault`] at its [`Loc`], and lowering goes on without it. Only a value that is no Machine at all
//! (or whose config is no object) gives `machine: None`.
//!
//! How the authoring surface's values read (decisions, see also the tests):
//! - A function a run calls is its lowering (`Function::lowered`, the fast path, and what the
//!   passes read), else its script carried as JavaScript (`Function::carried`: an `Expr::Js`,
//!   [`fn_expr`]), else it is refused: its place keeps the old marker (an `inline` name, an
//!   `Opaque` action with the refusal's reason, an empty mapper), which the walk's
//!   `not-executable` reports with the reason ([`refusal`]). One implementation's script is one
//!   `Arc`, shared by its uses.
//! - A state's kind is xstate's: its `type`, else `compound` with children, else `history` where
//!   `history` is truthy (`{ history: "deep" }`, `{ history: true }`), else `atomic`. A history
//!   state is `Deep` for `history: "deep"`, else `Shallow`.
//! - A guard: `"name"` → `Named`; `sentBy(id)` or `{ type: "jr2.sentBy", params: { id } }` →
//!   `SentBy`; `and([..])`, `or([..])`, `not(g)` (xstate's or the kit's) → `And`/`Or`/`Not`;
//!   `{ type, params }` → `Named` with params; `stateIn("#id")` or `stateIn(stateValue)` → `Expr`
//!   of an `InState` (several leaves of a state value: an `&&` of them); an inline function →
//!   `Expr` of its lowering or its script, a refused one → `Named { name: "inline" }`.
//! - An action: `"name"` → `Named`; `assign({ k: v })` → `Assign` where each `v` is a literal or a
//!   function that lowered or is carried (one refused makes the whole `assign` `Opaque`: a run
//!   takes none of an `assign` or all of it); `assign(fn)` whose body lowered to an object →
//!   `Assign` of its fields, or to `{ ...context, k: v }` → `Assign` of the fields after the
//!   context's spread; any other `assign(fn)` that lowered or is carried →
//!   `AssignContext { ...context, ...fn(args) }` (xstate merges the partial context it gives), a
//!   refused one → `Opaque`; `answer(fn)` → `Named { name: "jr2.answer", params: fn's
//!   expression }`; `{ type, params }` → `Named` (params written that do not lower → `Opaque`); an
//!   inline function whose body lowered (a pure expression, `() => {}`) has no effect and is no
//!   action, one carried → `Run` (called for what it does), one refused → `Opaque` with why;
//!   xstate's `raise`, `sendTo`, `sendParent`, `cancel`, `emit` and `log` → `Raise`, `Send`,
//!   `Cancel`, `Emit`, `Log` where each argument is a literal or a function that lowered or is
//!   carried, else `Opaque` with the reason; another xstate action creator (`spawnChild`,
//!   `stopChild`, ...) → `Named { name: "xstate.<creator>" }`.
//! - An invoke's `input`: a literal → `Literal`; a function → its expression (refused: no input
//!   and a `not-lowered` warning); `fromPick(def, fill?)` → an object of `{ param: event.param }`
//!   for each key of the pick's `z.object({...})`, then `fill`'s lowered object fields.
//! - `slots`: every actor of the setup, in the setup's order, then the names that invokes use and
//!   the setup does not declare (the kit's implicit `gate`, unknown names); each with its
//!   definition, read by [`crate::slots`] (a child Machine lowered whole into it), and the
//!   Machine's `workspace()` options beside them (`Statechart::workspace`).
//! - `implementations`: the setup's `guards`, `actions` and `delays` (then the implementations'
//!   given outside it, a later name replacing an earlier one): a guard function → `Expr` of its
//!   lowering or script (its second parameter is `params`, `Root::Params`), a guard written as
//!   data → that guard; an action function whose body lowered → no action, one carried → `Run`,
//!   an action creator's call → its action; a delay's number or a function → its expression. A
//!   reference keeps its name; a name whose implementation is refused is left out.
//! - `context`: its JSON when it is a literal; a function (`({ input }) => input`) gives `None`, and
//!   its lowering, or its script called with `{ input }` (`args: [input]`), is `context_expr`. A
//!   mapper (the context factory, an `output`, an invoke's `input`) that is refused leaves its
//!   place in the IR empty: the walk's `not-executable` finds it written and missing, and refuses
//!   a run (nothing is dropped silently). The root's `output` is the Machine's `output`; a final
//!   state's `output` (a literal or a function) its own; `tags` a state's.
//! - An invoke's `onSnapshot` is not lowered (the IR has no snapshot events): an `unsupported`
//!   warning.

use crate::fault::{Fault, FaultKind};
use crate::value::{Callee, Loc, Prop, Value, ValueKind};
use base::path::{join, push_segment, Path};
use ir::expr::{Reference, Root};
use ir::targets::Targets;
use ir::{
    self, Action, EventDecl, Expr, FxIndexMap, Guard, HistoryKind, Invoke, InvokeList, Name, NodeSource, Origin, Slot,
    SlotKind, SourceMap, State, StateId, StateKind, StateSource, TargetList, Transition, Trigger,
};
use serde::Serialize;
use std::fmt::Display;
use std::sync::Arc;

/// The IR of a Machine, where each of its nodes was written, the value each was lowered from,
/// and what lowering could not read. (Serialized, it is the IR and the faults.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lowered<'v, M = ir::Machine> {
    /// The IR: an executable [`ir::Machine`], or an [`ir::CheckedMachine`] lowered for a check.
    pub machine: Option<M>,
    /// Each state's, transition's and invoke's file, span and path (empty without a Machine).
    #[serde(skip)]
    pub source_map: SourceMap,
    /// The config value of each node (empty without a Machine).
    #[serde(skip)]
    pub values: NodeValues<'v>,
    pub faults: Vec<Fault>,
}

/// The value each IR node was lowered from, by the node's id, as lowering read it: what a reader
/// of the values beside the IR (the walk) pairs a node with, with no search. Borrowed from the
/// evaluation's arena.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeValues<'v> {
    /// A state's object, by [`StateId`].
    pub(crate) states: Vec<&'v Value<'v>>,
    /// Every state's invokes' objects, state after state (index: [`SourceMap::invoke_index`]).
    pub(crate) invokes: Vec<&'v Value<'v>>,
    /// A transition's value (a target string, `undefined` or an object), by its index.
    pub(crate) transitions: Vec<&'v Value<'v>>,
}

impl<'v> NodeValues<'v> {
    /// A state's object.
    pub fn state(&self, s: StateId) -> Option<&'v Value<'v>> {
        self.states.get(s.index()).copied()
    }

    /// A state's `k`-th invoke's object (`map` is the same lowering's).
    pub fn invoke(&self, map: &SourceMap, s: StateId, k: usize) -> Option<&'v Value<'v>> {
        self.invokes.get(map.invoke_index(s, k)?).copied()
    }

    /// The value of the transition at index `ti`.
    pub fn transition(&self, ti: usize) -> Option<&'v Value<'v>> {
        self.transitions.get(ti).copied()
    }
}

/// A wrapper around a Machine body: `workspace(body, options)` or `customize(machine, options)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WrapperKind {
    Workspace,
    Customize,
}

#[derive(Clone, Debug)]
pub struct Wrapper<'v> {
    pub kind: WrapperKind,
    /// The options object, as written (`{ repos, image, resources, ... }`).
    pub options: Option<&'v Value<'v>>,
    pub loc: Loc,
}

/// A Machine value taken apart: the setup object, the config, and its wrappers, outermost first.
#[derive(Clone, Debug)]
pub struct MachineParts<'v> {
    /// The object given to `jr2Setup(...)` / `setup(...)`; `None` for a bare `createMachine`.
    pub setup: Option<&'v Value<'v>>,
    /// The object given to `.createMachine(...)`.
    pub config: &'v Value<'v>,
    /// The implementations given outside the setup, in the order they apply (a later one's name
    /// replaces an earlier one's): xstate's `createMachine(config, { actors, guards, actions,
    /// delays })`, then each `machine.provide({...})` from the innermost out.
    pub(crate) implementations: Vec<&'v Value<'v>>,
    pub wrappers: Vec<Wrapper<'v>>,
    /// The `createMachine` call (for its loc).
    pub loc: Loc,
}

impl<'v> MachineParts<'v> {
    /// The innermost `workspace()` options, where the Machine composes a Sandbox.
    pub(crate) fn workspace(&self) -> Option<&'v Value<'v>> {
        self.wrappers.iter().rev().find(|w| w.kind == WrapperKind::Workspace).and_then(|w| w.options)
    }

    pub fn composes_sandbox(&self) -> bool {
        self.wrappers.iter().any(|w| w.kind == WrapperKind::Workspace)
    }

    /// The setup's `actors`, `guards`, ... object entries, in order (empty where absent or odd),
    /// then those of the [`MachineParts::implementations`]: a name given again keeps its place
    /// and takes the later value, as xstate merges them.
    pub fn setup_entries(&self, field: &str) -> Vec<(&'v str, &'v Value<'v>)> {
        let mut out: Vec<(&'v str, &'v Value<'v>)> = self
            .setup
            .and_then(|s| s.get(field))
            .and_then(Value::props)
            .map(|ps| ps.iter().map(|p| (p.key, &p.value)).collect())
            .unwrap_or_default();
        for imp in &self.implementations {
            for p in imp.get(field).and_then(Value::props).unwrap_or_default() {
                match out.iter_mut().find(|(k, _)| *k == p.key) {
                    Some(slot) => slot.1 = &p.value,
                    None => out.push((p.key, &p.value)),
                }
            }
        }
        out
    }

    /// The actor named `name`: the last implementations' that names it, else the setup's.
    pub fn actor(&self, name: &str) -> Option<&'v Value<'v>> {
        self.implementations
            .iter()
            .rev()
            .find_map(|imp| imp.get("actors").and_then(|a| a.get(name)))
            .or_else(|| self.setup.and_then(|s| s.get("actors")).and_then(|a| a.get(name)))
    }
}

/// The name of a kit or xstate call (`agent`, `and`), or `None`.
pub fn kit_name<'v>(v: &Value<'v>) -> Option<&'v str> {
    match v.as_call()?.callee {
        Callee::Kit(n) | Callee::Xstate(n) => Some(n),
        _ => None,
    }
}

/// Is this a call of the kit (or xstate) export `name`?
pub fn is_call(v: &Value, name: &str) -> bool {
    kit_name(v) == Some(name)
}

/// The `i`th argument of a call.
pub fn arg<'v>(v: &Value<'v>, i: usize) -> Option<&'v Value<'v>> {
    v.as_call()?.args.get(i)
}

/// Takes a Machine value apart, or says why it is none.
pub fn machine_parts<'v>(v: &Value<'v>) -> Result<MachineParts<'v>, Fault> {
    split_machine(v).map_err(not_machine)
}

/// Takes a Machine value apart, or gives the value that is no Machine (no message is made: the
/// walk asks this of every value it scans).
fn split_machine<'a, 'v: 'a>(v: &'a Value<'v>) -> Result<MachineParts<'v>, &'a Value<'v>> {
    let mut wrappers = Vec::new();
    // `machine.provide(...)`s, outermost first (reversed at the end: innermost first).
    let mut provided: Vec<&'v Value<'v>> = Vec::new();
    let mut cur = v;
    loop {
        let Some(call) = cur.as_call() else {
            return Err(cur);
        };
        match call.callee {
            Callee::Method("provide") if call.receiver.as_ref().is_some_and(is_machine) => {
                if let Some(imp) = call.args.first() {
                    provided.push(imp);
                }
                match call.receiver.as_ref() {
                    Some(r) => cur = r,
                    None => return Err(cur),
                }
            }
            Callee::Kit(n) if n == "workspace" || n == "customize" => {
                let kind = if n == "workspace" { WrapperKind::Workspace } else { WrapperKind::Customize };
                wrappers.push(Wrapper { kind, options: call.args.get(1), loc: cur.loc });
                match call.args.first() {
                    Some(body) => cur = body,
                    None => return Err(cur),
                }
            }
            Callee::Method("createMachine") => {
                let setup = match call.receiver.as_ref() {
                    Some(r) if is_call(r, "jr2Setup") || is_call(r, "setup") => {
                        r.as_call().and_then(|c| c.args.first())
                    }
                    _ => None,
                };
                let Some(config) = call.args.first() else { return Err(cur) };
                provided.reverse();
                return Ok(MachineParts { setup, config, implementations: provided, wrappers, loc: cur.loc });
            }
            Callee::Xstate("createMachine") => {
                let Some(config) = call.args.first() else { return Err(cur) };
                let mut implementations: Vec<&'v Value<'v>> = call.args.get(1).into_iter().collect();
                provided.reverse();
                implementations.extend(provided);
                return Ok(MachineParts { setup: None, config, implementations, wrappers, loc: cur.loc });
            }
            _ => return Err(cur),
        }
    }
}

/// Is this value a Machine (a `createMachine`, or one wrapped)? Allocates nothing.
pub fn is_machine(v: &Value) -> bool {
    let mut cur = v;
    loop {
        let Some(call) = cur.as_call() else { return false };
        match call.callee {
            Callee::Kit(n) if n == "workspace" || n == "customize" => match call.args.first() {
                Some(body) => cur = body,
                None => return false,
            },
            Callee::Method("createMachine") => return !call.args.is_empty(),
            Callee::Xstate("createMachine") => return !call.args.is_empty(),
            Callee::Method("provide") => match call.receiver.as_ref() {
                Some(r) => cur = r,
                None => return false,
            },
            _ => return false,
        }
    }
}

fn not_machine(v: &Value) -> Fault {
    Fault::new(
        FaultKind::NotMachine,
        v.loc,
        format!(
            "expected a Machine (`jr2Setup({{...}}).createMachine({{...}})`, or one in `workspace()` or `customize()`), got {}",
            describe(v)
        ),
    )
}

/// A short description of a value's kind, for messages.
pub fn describe(v: &Value) -> String {
    match &v.kind {
        ValueKind::Undefined => "undefined".into(),
        ValueKind::Null => "null".into(),
        ValueKind::Bool { value } => format!("the boolean {value}"),
        ValueKind::Number { value } => format!("the number {value}"),
        ValueKind::String { value } => format!("the string {value:?}"),
        ValueKind::Array { .. } => "an array".into(),
        ValueKind::Object { .. } => "an object".into(),
        ValueKind::Call(c) => match &c.callee {
            Callee::Kit(n) | Callee::Xstate(n) => format!("a call of `{n}()`"),
            Callee::Zod(n) => format!("a call of `z.{n}()`"),
            Callee::Method(n) => format!("a call of `.{n}()`"),
        },
        ValueKind::Function(_) => "a function".into(),
        ValueKind::Imported { callee } => match callee {
            Callee::Kit(n) | Callee::Xstate(n) | Callee::Method(n) => format!("the import `{n}`"),
            Callee::Zod(n) => format!("the import `z.{n}`"),
        },
        ValueKind::Unknown { reason } => format!("a value not known statically ({reason})"),
    }
}

/// What a setup actor is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActorClass {
    Agent,
    /// An Effect, with its kind (`command` for a `worktree()` cut).
    Effect(&'static str),
    Gate,
    Fail,
    /// A nested Machine (`createMachine`, `workspace()`, `customize()`).
    Machine,
    /// An Open body (`open({ lends, allows, ceilings }, ...)`): a Machine slot.
    Open,
    Unknown,
}

impl ActorClass {
    /// The kind of the slot this actor fills.
    pub(crate) fn slot_kind(&self) -> SlotKind {
        match self {
            ActorClass::Agent => SlotKind::Agent,
            ActorClass::Effect(_) => SlotKind::Effect,
            ActorClass::Gate => SlotKind::Gate,
            ActorClass::Fail => SlotKind::Fail,
            ActorClass::Machine | ActorClass::Open => SlotKind::Machine,
            ActorClass::Unknown => SlotKind::Unknown,
        }
    }

    pub(crate) fn slot(&self) -> Slot {
        let (kind, effect) = match self {
            ActorClass::Agent => (SlotKind::Agent, None),
            ActorClass::Effect(k) => (SlotKind::Effect, Some(Name::const_new(k))),
            ActorClass::Gate => (SlotKind::Gate, None),
            ActorClass::Fail => (SlotKind::Fail, None),
            ActorClass::Machine | ActorClass::Open => (SlotKind::Machine, None),
            ActorClass::Unknown => (SlotKind::Unknown, None),
        };
        Slot { kind, effect, definition: None }
    }
}

/// Classifies a setup actor's value.
pub fn classify_actor(v: &Value) -> ActorClass {
    // The kit's own actors may be named without a call: `actors: { gate }`.
    let imported = match &v.kind {
        ValueKind::Imported { callee: Callee::Kit(n) } => Some(*n),
        _ => None,
    };
    match kit_name(v).or(imported) {
        Some("agent") => ActorClass::Agent,
        Some("command") | Some("worktree") => ActorClass::Effect("command"),
        Some("http") => ActorClass::Effect("http"),
        Some("push") => ActorClass::Effect("push"),
        Some("dispatch") => ActorClass::Effect("dispatch"),
        Some("mcp") => ActorClass::Effect("mcp"),
        Some("gate") => ActorClass::Gate,
        Some("fail") => ActorClass::Fail,
        Some("open") => ActorClass::Open,
        _ if is_machine(v) => ActorClass::Machine,
        _ => ActorClass::Unknown,
    }
}

/// What of the IR its caller reads: all of it, or what the check reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Purpose {
    /// The whole IR, an [`ir::Machine`] (`jr2 ir`, the LSP, the pre-flight, the runtime).
    #[default]
    Full,
    /// What `jr2 check` reads, an [`ir::CheckedMachine`]: the same IR but for the events' input
    /// schemas, which are read (a schema with no JSON Schema reading is the same `event-schema`
    /// warning) and not written, as no check reads them ([`EventDecl::input`] is `None`). Writing
    /// them was ~2.4% of a check's cost (docs/benchmarks.md). Nor are the slots' definitions
    /// ([`ir::Slot::definition`] is `None`) or the `workspace()` options, which no check reads.
    Check,
}

/// Is `v` an actor made by one of xstate's own actor creators (`fromPromise(...)`,
/// `fromCallback(...)`, ...)? The seeds allow them beside the kit's parts: xstate runs them, and
/// jr2 checks the rest of the Machine with that slot's kind unknown, with no warning.
fn is_xstate_actor(v: &Value) -> bool {
    matches!(
        v.as_call().map(|c| c.callee),
        Some(Callee::Xstate(
            "fromPromise" | "fromCallback" | "fromObservable" | "fromEventObservable" | "fromTransition"
        ))
    )
}

/// Lowers a Machine value.
pub fn lower_machine<'v>(value: &'v Value<'v>) -> Lowered<'v> {
    match machine_parts(value) {
        Ok(parts) => lower_parts(&parts),
        Err(f) => Lowered::none(vec![f]),
    }
}

/// Lowers a Machine already taken apart.
pub fn lower_parts<'v>(parts: &MachineParts<'v>) -> Lowered<'v> {
    lower_statechart(parts, Purpose::Full, 0).map(ir::Machine::lowered)
}

/// Lowers a Machine already taken apart for a check only ([`Purpose::Check`]): an
/// [`ir::CheckedMachine`], with the same faults as [`lower_parts`].
pub fn lower_parts_for_check<'v>(parts: &MachineParts<'v>) -> Lowered<'v, ir::CheckedMachine> {
    lower_statechart(parts, Purpose::Check, 0).map(ir::CheckedMachine::lowered_for_check)
}

/// Lowers a child Machine whole, `depth` Machines below a Workflow's root, for its parent's slot
/// ([`crate::slots`]).
pub(crate) fn lower_child<'v>(parts: &MachineParts<'v>, depth: usize) -> Lowered<'v, ir::Statechart> {
    lower_statechart(parts, Purpose::Full, depth)
}

impl<'v, M> Lowered<'v, M> {
    /// No Machine: only faults.
    fn none(faults: Vec<Fault>) -> Self {
        Lowered { machine: None, source_map: SourceMap::default(), values: NodeValues::default(), faults }
    }

    /// The same lowering with its IR made another type (the map and the values are the IR's).
    pub fn map<N>(self, f: impl FnOnce(M) -> N) -> Lowered<'v, N> {
        Lowered { machine: self.machine.map(f), source_map: self.source_map, values: self.values, faults: self.faults }
    }
}

/// Lowers a Machine already taken apart, for `purpose`, into a statechart; `depth` is how many
/// Machines it is below a Workflow's root (its slots' child Machines are lowered one deeper).
fn lower_statechart<'v>(parts: &MachineParts<'v>, purpose: Purpose, depth: usize) -> Lowered<'v, ir::Statechart> {
    let config = parts.config;
    // The state vectors are allocated once, at their size (about one invoke a state).
    let n = if config.props().is_some() { count_states(config) } else { 0 };
    let mut lw = Lowerer {
        parts,
        purpose,
        depth,
        states: Vec::with_capacity(n),
        map: SourceMap::with_capacity(n, 0),
        values: Vec::with_capacity(n),
        invoke_groups: Vec::with_capacity(n),
        invoke_values: Vec::with_capacity(n),
        transition_values: Vec::new(),
        undeclared_srcs: Vec::new(),
        transition_count: 0,
        faults: Vec::new(),
        buf: String::with_capacity(128),
    };
    if config.props().is_none() {
        lw.fault(
            config,
            FaultKind::NotObject,
            "",
            format!("the `createMachine` config is {}, not an object", describe(config)),
        );
        return Lowered::none(lw.faults);
    }
    let id = match config.get("id") {
        Some(v) => match v.as_str() {
            Some(s) => s.to_string(),
            None => {
                lw.fault(v, FaultKind::NotStatic, "id", format!("the Machine's `id` is {}, not a string", describe(v)));
                "(machine)".to_string()
            }
        },
        None => "(machine)".to_string(),
    };

    // The setup's actors: their slots, in order (a key written twice keeps its first place), then
    // those of the implementations given outside it (`createMachine(config, { actors })`,
    // `.provide({ actors })`), a name given again taking the later actor.
    let mut actors: Vec<(&str, ActorClass)> =
        Vec::with_capacity(parts.setup.and_then(|s| s.get("actors")).and_then(Value::props).map_or(0, <[_]>::len));
    let mut sources: Vec<(&'v Value<'v>, &str)> = Vec::with_capacity(1 + parts.implementations.len());
    if let Some(setup) = parts.setup {
        if setup.props().is_none() {
            lw.fault(setup, FaultKind::NotObject, "", format!("the setup is {}, not an object", describe(setup)));
        }
        sources.push((setup, "the setup's"));
    }
    for imp in &parts.implementations {
        if imp.props().is_none() {
            lw.odd(imp, "", "the Machine's implementations", "an object");
        }
        sources.push((imp, "the implementations'"));
    }
    for (source, whose) in sources {
        if let Some(av) = source.get("actors") {
            match av.props() {
                None => lw.fault(
                    av,
                    FaultKind::NotObject,
                    "",
                    format!("{whose} `actors` is {}, not an object", describe(av)),
                ),
                Some(props) => {
                    for p in props {
                        let class = classify_actor(&p.value);
                        if class == ActorClass::Unknown && !is_xstate_actor(&p.value) {
                            lw.fault(
                                &p.value,
                                FaultKind::UnknownActor,
                                "",
                                format!("actor \"{}\" is {}, which is no Part of the kit (agent, an Effect, gate, fail, open, a Machine)", p.key, describe(&p.value)),
                            );
                        }
                        match actors.iter_mut().find(|(k, _)| *k == p.key) {
                            Some(slot) => slot.1 = class,
                            None => actors.push((p.key, class)),
                        }
                    }
                }
            }
        }
    }
    lw.add_state(config, Name::default(), Name::default(), None, None, &actors);
    // The root's `id` is the Machine's id, in `Machine::id`.
    if let Some(root) = lw.states.first_mut() {
        root.id = None;
    }
    lw.resolve_initials();
    // The states are final here: lowering the transitions reads them beside the lowerer.
    let states = std::mem::take(&mut lw.states);
    // A state's children are the keys of its `states` object, each there once.
    let targets = Targets::with_unique_siblings(&states, &id);
    let mut transitions = Vec::with_capacity(lw.transition_count);
    lw.map.reserve_transitions(lw.transition_count);
    lw.transition_values.reserve_exact(lw.transition_count);
    // The buffer the transitions' paths are written in (the states' one, free now): no
    // allocation of its own.
    let mut buf = std::mem::take(&mut lw.buf);
    for sid in 0..states.len() {
        lw.lower_transitions(&states, StateId(sid as u32), &targets, &mut buf, &mut transitions);
    }
    let implementations = lw.implementations(&targets);
    drop(targets);
    lw.states = states;

    // Each slot with its definition (`crate::slots`), as `customize()` leaves its actor; an IR for
    // a check holds none (no check reads them).
    let full = purpose == Purpose::Full;
    let custom = full.then(|| crate::parts::Customized::new(parts));
    let mut slots: FxIndexMap<Name, Slot> = FxIndexMap::with_capacity_and_hasher(actors.len() + 1, Default::default());
    for (k, c) in &actors {
        let mut slot = c.slot();
        slot.definition = custom.as_ref().map(|custom| crate::slots::definition(parts, custom, k, c, depth));
        slots.insert(Name::from(*k), slot);
    }
    // The invokes whose src names no setup actor (`invokes` listed them, in order): the others
    // have their slot already.
    for &(sid, i) in &lw.undeclared_srcs {
        let inv = &lw.states[sid.index()].invokes[i];
        if !slots.contains_key(inv.src.as_str()) {
            // The `src` as written, where it is no name (an actor written in place).
            let written = lw
                .map
                .invoke_index(sid, i)
                .and_then(|k| lw.invoke_values.get(k))
                .and_then(|v| v.get("src"))
                .filter(|v| v.as_str().is_none());
            let definition = full.then(|| crate::slots::undeclared(&inv.src, written, depth));
            slots.insert(inv.src.clone(), Slot { kind: inv.kind, effect: None, definition });
        }
    }
    let workspace = custom.as_ref().and_then(|custom| crate::slots::workspace(parts, custom));
    drop(custom);

    let events = lw.events();
    let context_value = config.get("context");
    let context = context_value.copied().and_then(Value::to_ir_json);
    // A context function over the input (`({ input }) => ({ ... })`), where its body lowered.
    // One that does not lower is carried as JavaScript, called with `{ input }`.
    let context_expr = context_value.filter(|_| context.is_none()).and_then(Value::as_function).and_then(|f| {
        f.lowered.as_deref().cloned().or_else(|| {
            let script = f.carried.as_ref()?.as_ref().ok()?;
            Some(Expr::Js(Arc::new(ir::expr::Script { args: vec![Root::Input], ..ir::expr::Script::clone(script) })))
        })
    });
    // The Machine's `output` mapper (xstate reads the root's `output` as the Machine's).
    let output = config.get("output").and_then(value_expr);
    let machine = ir::Statechart {
        id,
        origin: Origin::Machine,
        states: lw.states,
        transitions,
        events,
        slots,
        context,
        context_expr,
        output,
        implementations,
        workspace,
    };
    let values = NodeValues {
        states: lw.values.iter().map(|(v, _, _)| *v).collect(),
        invokes: lw.invoke_values,
        transitions: lw.transition_values,
    };
    Lowered { machine: Some(machine), source_map: lw.map, values, faults: lw.faults }
}

/// How many states a config holds: what `add_state` pushes, or a few more where a child is no
/// object (counted, then skipped), so that the state vectors are allocated once.
fn count_states(v: &Value) -> usize {
    1 + v.get("states").and_then(Value::props).map_or(0, |ps| ps.iter().map(|p| count_states(&p.value)).sum())
}

/// [`push_segment`] of a list's index: one of a single digit (nearly all) is pushed as one char,
/// not formatted.
fn push_index(buf: &mut String, i: usize) -> usize {
    if i >= 10 {
        return push_segment(buf, i);
    }
    let len = buf.len();
    if len != 0 {
        buf.push('.');
    }
    buf.push(char::from(b'0' + i as u8));
    len
}

/// The actor class of a setup actor by name.
fn actor_class<'a>(actors: &'a [(&str, ActorClass)], name: &str) -> Option<&'a ActorClass> {
    actors.iter().find(|(k, _)| *k == name).map(|(_, c)| c)
}

/// What the transitions of one state are lowered with: the state, the targets, the buffer their
/// paths are written in, and where they go.
struct GroupCx<'a, 't> {
    sid: StateId,
    targets: &'a Targets<'t>,
    buf: &'a mut String,
    out: &'a mut Vec<Transition>,
}

/// The path of a group of transitions, below its state's path (`<state>.on.<event>`) or below its
/// invoke's (`<invoke>.onDone`): written out, into one buffer, only for each transition it gives.
#[derive(Clone, Copy)]
enum GroupPath<'v> {
    State(&'static str, Option<&'v str>),
    Invoke(usize, &'static str),
}

/// A struct of the fields of an object literal that a reader needs, each `Some(value)` where the
/// object has that key, found in one pass over its properties rather than a [`Value::get`] (a
/// scan) each; a later key replaces an earlier one, as `get` reads them. All `None` for a value
/// that is no object.
macro_rules! object_fields {
    ($(#[$doc:meta])* $vis:vis struct $name:ident { $($field:ident: $key:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Default)]
        $vis struct $name<'v> {
            $(pub $field: Option<&'v Value<'v>>,)*
        }

        impl<'v> $name<'v> {
            $vis fn of(v: &Value<'v>) -> Self {
                let mut f = Self::default();
                for p in v.props().unwrap_or_default() {
                    let field = match p.key {
                        $($key => &mut f.$field,)*
                        _ => continue,
                    };
                    *field = Some(&p.value);
                }
                f
            }
        }
    };
}

object_fields! {
    /// The fields of a state's config object that lowering reads.
    struct StateFields {
        states: "states",
        ty: "type",
        id: "id",
        initial: "initial",
        invoke: "invoke",
        entry: "entry",
        exit: "exit",
        on: "on",
        after: "after",
        always: "always",
        on_done: "onDone",
        history: "history",
        target: "target",
        route: "route",
        tags: "tags",
        output: "output",
    }
}

object_fields! {
    /// The fields of an invoke's object that lowering reads.
    struct InvokeFields {
        id: "id",
        src: "src",
        input: "input",
        on_done: "onDone",
        on_error: "onError",
        on_snapshot: "onSnapshot",
    }
}

object_fields! {
    /// The fields of a transition's object that lowering reads.
    struct TransitionFields { target: "target", guard: "guard", actions: "actions", reenter: "reenter" }
}

struct Lowerer<'p, 'v> {
    parts: &'p MachineParts<'v>,
    purpose: Purpose,
    /// How many Machines this one is below a Workflow's root (its inline children are one deeper).
    depth: usize,
    states: Vec<State>,
    /// Where each state, invoke and transition was written, as they are added.
    map: SourceMap,
    /// The config value of each state, its fields, and where its invokes' groups start in
    /// `invoke_groups`.
    values: Vec<(&'v Value<'v>, StateFields<'v>, usize)>,
    /// The `onDone` and `onError` of every invoke kept in the IR, in the order of the states and
    /// their invokes: read when the invoke is, lowered with the state's transitions.
    invoke_groups: Vec<(Option<&'v Value<'v>>, Option<&'v Value<'v>>)>,
    /// The object of every invoke kept in the IR, in the same order.
    invoke_values: Vec<&'v Value<'v>>,
    /// The value of every transition, in order.
    transition_values: Vec<&'v Value<'v>>,
    /// The invokes (state, index) whose `src` names no actor of the setup, in order.
    undeclared_srcs: Vec<(StateId, usize)>,
    /// At least the number of transitions the states hold (each item of each group), so that the
    /// transitions' vector is allocated once.
    transition_count: usize,
    faults: Vec<Fault>,
    /// A buffer the paths of states and invokes are written in before they become `Name`s.
    buf: String,
}

impl<'p, 'v> Lowerer<'p, 'v> {
    /// A fault at `at`; `path` is written out only here (a path that names no fault is never
    /// written: see [`Path`]).
    fn fault(&mut self, at: &Value, kind: FaultKind, path: impl Display, message: String) {
        self.faults.push(Fault { loc: at.loc, kind, message, path: path.to_string(), help: None });
    }

    /// A value of the wrong shape: `not-static` (a warning) for an unknown, `not-object` otherwise.
    fn odd(&mut self, v: &Value, path: impl Display, what: &str, expected: &str) {
        if let ValueKind::Unknown { reason } = &v.kind {
            self.fault(v, FaultKind::NotStatic, path, format!("{what} is not known statically ({reason})"));
        } else {
            self.fault(v, FaultKind::NotObject, path, format!("{what} is {}, not {expected}", describe(v)));
        }
    }

    fn add_state(
        &mut self,
        v: &'v Value<'v>,
        key: Name,
        path: Name,
        parent: Option<StateId>,
        key_loc: Option<Loc>,
        actors: &[(&str, ActorClass)],
    ) -> Option<StateId> {
        let at = Path::ROOT.child(path.as_str());
        if v.props().is_none() {
            self.odd(v, at, &format!("state \"{}\"", if key.is_empty() { "(root)" } else { &key }), "an object");
            return None;
        }
        let sid = StateId(self.states.len() as u32);
        let f = StateFields::of(v);
        let children = f.states.and_then(|c| {
            if c.props().is_none() {
                self.odd(c, at.child("states"), "`states`", "an object");
                None
            } else {
                Some(c)
            }
        });
        let has_children = children.and_then(Value::props).is_some_and(|p| !p.is_empty());
        let ty = f.ty;
        // xstate's `type`: the written one, else `compound` with children, else `history` where
        // `history` is truthy, else `atomic` (StateNode.ts).
        let history_written = f.history.is_some_and(truthy);
        let kind = match ty.and_then(Value::as_str) {
            Some("final") => StateKind::Final,
            Some("parallel") => StateKind::Parallel,
            Some("history") => StateKind::History,
            None if !has_children && history_written => StateKind::History,
            Some("compound") | Some("atomic") | None => {
                if has_children {
                    StateKind::Compound
                } else {
                    StateKind::Atomic
                }
            }
            Some(other) => {
                let t = ty.unwrap_or(v);
                self.fault(
                    t,
                    FaultKind::NotObject,
                    at.child("type"),
                    format!("state type {other:?} is none of xstate's (atomic, compound, parallel, final, history)"),
                );
                if has_children {
                    StateKind::Compound
                } else {
                    StateKind::Atomic
                }
            }
        };
        // What a history state remembers: `history: "deep"`, else its parent's children (`true`,
        // `"shallow"`, or none written, which xstate reads as shallow too).
        let history = (kind == StateKind::History).then(|| match f.history {
            Some(h) if h.as_str() == Some("deep") => HistoryKind::Deep,
            Some(h) if matches!(h.as_str(), Some("shallow")) || matches!(h.kind, ValueKind::Bool { .. }) => {
                HistoryKind::Shallow
            }
            None => HistoryKind::Shallow,
            Some(h) => {
                self.odd(h, at.child("history"), "`history`", "\"shallow\", \"deep\" or a boolean");
                HistoryKind::Shallow
            }
        });
        if kind == StateKind::History {
            self.transition_count += f.target.map_or(0, |t| items(t).len());
        }
        let tags = self.tags(f.tags, at.child("tags"));
        // A final state's output (the root's is the Machine's, read by the caller).
        let output = match f.output {
            Some(o) if kind == StateKind::Final && parent.is_some() => value_expr(o),
            _ => None,
        };
        for group in [f.always, f.on_done].into_iter().flatten() {
            self.transition_count += items(group).len();
        }
        for map in [f.on, f.after].into_iter().flatten() {
            self.transition_count +=
                map.props().unwrap_or_default().iter().map(|p| items(&p.value).len()).sum::<usize>();
        }
        let invoke_start = self.invoke_groups.len();
        let first_invoke = self.map.next_invoke();
        let invokes = self.invokes(sid, f.invoke, &path, actors);
        let entry = self.actions(f.entry, at.child("entry"));
        let exit = self.actions(f.exit, at.child("exit"));
        let id = match f.id {
            Some(x) if parent.is_some() => match x.as_str() {
                Some(s) => Some(s.to_string()),
                None => {
                    self.odd(x, at.child("id"), "a state's `id`", "a string");
                    None
                }
            },
            _ => None,
        };
        let child_props = children.and_then(Value::props).unwrap_or_default();
        self.states.push(State {
            key,
            id,
            kind,
            parent,
            children: Vec::with_capacity(child_props.len()),
            initial: None,
            invokes,
            entry,
            exit,
            history,
            output,
            tags,
        });
        self.map.push_state(StateSource { path, loc: v.loc, key: key_loc }, first_invoke);
        self.values.push((v, f, invoke_start));
        for p in child_props {
            // A child's path, `<path>.states.<key>`, written in the lowerer's buffer: a path of up
            // to 24 bytes is inline in its `Name`, no allocation.
            self.buf.clear();
            self.buf.push_str(&self.map.state(sid).path);
            push_segment(&mut self.buf, "states");
            push_segment(&mut self.buf, p.key);
            let cpath = Name::from(self.buf.as_str());
            if let Some(child) = self.add_state(&p.value, Name::from(p.key), cpath, Some(sid), Some(p.key_loc), actors)
            {
                self.states[sid.index()].children.push(child);
            }
        }
        Some(sid)
    }

    fn invokes(
        &mut self,
        sid: StateId,
        inv: Option<&'v Value<'v>>,
        path: &str,
        actors: &[(&str, ActorClass)],
    ) -> InvokeList {
        let Some(inv) = inv else { return InvokeList::new() };
        let list = inv.as_array().is_some();
        let list_items = items(inv);
        let mut out = InvokeList::with_capacity(list_items.len());
        for (i, item) in list_items.iter().enumerate() {
            self.buf.clear();
            self.buf.push_str(path);
            push_segment(&mut self.buf, "invoke");
            if list {
                push_index(&mut self.buf, i);
            }
            let ipath = Name::from(self.buf.as_str());
            let at = Path::ROOT.child(ipath.as_str());
            if item.props().is_none() {
                self.odd(item, at, "an invoke", "an object");
                continue;
            }
            let fields = InvokeFields::of(item);
            if let Some(snap) = fields.on_snapshot {
                self.fault(
                    snap,
                    FaultKind::Unsupported,
                    at.child("onSnapshot"),
                    "an invoke's `onSnapshot` is not lowered: the IR has no snapshot events, so its transitions are left out".into(),
                );
            }
            for group in [fields.on_done, fields.on_error].into_iter().flatten() {
                self.transition_count += items(group).len();
            }
            self.invoke_groups.push((fields.on_done, fields.on_error));
            let id = fields.id.and_then(Value::as_str).map(Name::from);
            let mut declared = false;
            let (src, kind) = match fields.src {
                Some(sv) => match sv.as_str() {
                    Some(name) => {
                        let kind = match actor_class(actors, name) {
                            Some(c) => {
                                declared = true;
                                c.slot_kind()
                            }
                            None if name == "gate" => SlotKind::Gate,
                            None => {
                                let known: Vec<&str> = actors.iter().map(|(k, _)| *k).collect();
                                let help =
                                    base::suggest::closest(name, &known).map(|c| format!("did you mean \"{c}\"?"));
                                self.fault(
                                    sv,
                                    FaultKind::UnknownInvokeSrc,
                                    at.child("src"),
                                    format!(
                                        "invoke src \"{name}\" names no actor of the setup (actors: {}; kit: gate)",
                                        if known.is_empty() { "none".to_string() } else { known.join(", ") }
                                    ),
                                );
                                if let Some(f) = self.faults.last_mut() {
                                    f.help = help;
                                }
                                SlotKind::Unknown
                            }
                        };
                        (Name::from(name), kind)
                    }
                    None => {
                        let class = classify_actor(sv);
                        self.fault(
                            sv,
                            FaultKind::InlineSrc,
                            at.child("src"),
                            format!("invoke src is {}, written inline; name it in the setup's `actors` and invoke it by name", describe(sv)),
                        );
                        (id.clone().unwrap_or(Name::const_new("(inline)")), class.slot_kind())
                    }
                },
                None => {
                    self.fault(item, FaultKind::UnknownInvokeSrc, at.child("src"), "an invoke with no `src`".into());
                    (Name::default(), SlotKind::Unknown)
                }
            };
            let input = fields.input.and_then(|iv| self.input(iv, at.child("input")));
            if !declared {
                self.undeclared_srcs.push((sid, out.len()));
            }
            self.map.push_invoke(NodeSource { path: ipath, loc: item.loc });
            self.invoke_values.push(item);
            out.push(Invoke { src, id, kind, input, machine: None, autoforward: false, id_location: None });
        }
        out
    }

    /// An invoke's input as an expression.
    fn input(&mut self, v: &Value, path: Path<'_>) -> Option<Arc<Expr>> {
        if is_call(v, "fromPick") {
            return self.pick_input(v, path).map(Arc::new);
        }
        // A mapper's lowering (or its script) is shared with the IR, not copied.
        if let Some(e) = v.as_function().and_then(fn_expr) {
            return Some(e);
        }
        match value_expr(v) {
            Some(e) => Some(Arc::new(e)),
            None => {
                self.not_lowered(v, path, "this input");
                None
            }
        }
    }

    fn not_lowered(&mut self, v: &Value, path: impl Display, what: &str) {
        let why = match &v.kind {
            ValueKind::Function(_) => "its body is not an expression the runtime can evaluate".to_string(),
            ValueKind::Unknown { reason } => format!("it is not known statically ({reason})"),
            _ => format!("it is {}", describe(v)),
        };
        self.fault(v, FaultKind::NotLowered, path, format!("{what} stays code and is not lowered: {why}"));
    }

    /// A state's `tags`: a string or a list of them.
    fn tags(&mut self, v: Option<&Value>, path: Path<'_>) -> Vec<Name> {
        let Some(v) = v else { return Vec::new() };
        let list = v.as_array().is_some();
        let mut out = Vec::new();
        for (i, t) in items(v).iter().enumerate() {
            match t.as_str() {
                Some(tag) => out.push(Name::from(tag)),
                None if list => self.odd(t, path.child(i), "a tag", "a string"),
                None => self.odd(t, path, "`tags`", "a string or a list of strings"),
            }
        }
        out
    }

    /// `fromPick(def, fill?)`: `{ param: event.param, ...fill }`.
    fn pick_input(&mut self, v: &Value, path: Path<'_>) -> Option<Expr> {
        let def = arg(v, 0);
        let keys = def.and_then(pick_param_props);
        let fill = arg(v, 1);
        let mut fields: Vec<(Name, Expr)> = match keys {
            Some(keys) => {
                // The fill's fields come after the params: the list is allocated once for both.
                let fill_len = match fill.and_then(Value::as_function).and_then(|f| f.lowered.as_deref()) {
                    Some(Expr::Object(fs)) => fs.len(),
                    Some(Expr::Literal(ir::Json::Object(m))) => m.len(),
                    _ => 0,
                };
                let mut fields = Vec::with_capacity(keys.len() + fill_len);
                fields.extend(keys.iter().map(|p| {
                    let key = Name::from(p.key);
                    let r = Expr::Ref(Reference { root: Root::Event, path: smallvec::smallvec![key.clone()] });
                    (key, r)
                }));
                fields
            }
            None => {
                self.not_lowered(
                    def.unwrap_or(v),
                    path,
                    "this `fromPick` (its pick's `input` is not a literal `z.object({...})`)",
                );
                return None;
            }
        };
        if let Some(fill) = fill {
            match fill.as_function().and_then(|f| f.lowered.as_deref()) {
                Some(Expr::Object(fs)) => fields.extend(fs.iter().cloned()),
                Some(Expr::Literal(ir::Json::Object(m))) => {
                    fields.extend(m.iter().map(|(k, x)| (k.clone(), Expr::Literal(x.clone()))));
                }
                _ => {
                    self.not_lowered(fill, path, "this `fromPick`'s `fill`");
                    return None;
                }
            }
        }
        Some(Expr::Object(fields))
    }

    /// The actions of a field (`entry`, `exit`, `actions`) at `path`.
    fn actions(&mut self, v: Option<&'v Value<'v>>, path: Path<'_>) -> Vec<Action> {
        let Some(v) = v else { return Vec::new() };
        match v.as_array() {
            Some(list) => list.iter().enumerate().filter_map(|(i, a)| self.action(a, path.child(i))).collect(),
            None => self.action(v, path).into_iter().collect(),
        }
    }

    fn action(&mut self, a: &Value<'v>, path: Path<'_>) -> Option<Action> {
        if let Some(name) = a.as_str() {
            return Some(Action::Named { name: Name::from(name), params: None });
        }
        match &a.kind {
            // A function whose body lowered (a pure expression, or nothing) has no effect: no
            // action. Other code stays a named `inline` action.
            ValueKind::Function(f) if f.lowered.is_some() => return None,
            // Other code is carried as JavaScript and called for what it does, or refused.
            ValueKind::Function(f) => {
                return Some(match &f.carried {
                    Some(Ok(script)) => Action::Run { value: Expr::Js(script.clone()) },
                    Some(Err(reason)) => Action::Opaque { reason: format!("an action cannot run: {reason}") },
                    None => Action::Named { name: "inline".into(), params: None },
                })
            }
            ValueKind::Object { .. } => {
                return match a.get("type").and_then(Value::as_str) {
                    // Params written that do not lower: a run would call the action without them.
                    Some(name) if params_not_lowered(a) => Some(Action::Opaque {
                        reason: match a.get("params").and_then(refusal) {
                            Some(why) => format!("the params of the action `{name}` cannot run: {why}"),
                            None => format!("the params of the action `{name}` are code jr2 cannot lower"),
                        },
                    }),
                    Some(name) => {
                        Some(Action::Named { name: Name::from(name), params: a.get("params").and_then(value_expr) })
                    }
                    None => {
                        self.fault(a, FaultKind::NotObject, path, "an action object with no string `type`".into());
                        None
                    }
                };
            }
            _ => {}
        }
        match kit_name(a) {
            Some("assign") => {
                let Some(arg0) = arg(a, 0) else {
                    self.fault(a, FaultKind::NotObject, path, "`assign()` with no argument".into());
                    return None;
                };
                if let Some(props) = arg0.props() {
                    let mut updates = FxIndexMap::with_capacity_and_hasher(props.len(), Default::default());
                    let mut stays = Vec::new();
                    let mut refused = None;
                    for p in props {
                        if refused.is_none() {
                            refused = refusal(&p.value).map(|why| (p.key, why));
                        }
                        match shared_value_expr(&p.value) {
                            Some(e) => {
                                updates.insert(Name::from(p.key), e);
                            }
                            None => {
                                self.not_lowered(
                                    &p.value,
                                    path.child(p.key),
                                    &format!("the update of `context.{}`", p.key),
                                );
                                stays.push(p.key);
                            }
                        }
                    }
                    // A run never takes part of an `assign`: one with an update that stays code
                    // runs none of it (the walk's `not-executable` names the update).
                    if let Some((key, why)) = refused {
                        return Some(Action::Opaque {
                            reason: format!(
                                "its `assign` cannot run: the update of `context.{key}` cannot be carried: {why}"
                            ),
                        });
                    }
                    if let Some(reason) = partial_assign_reason(&stays) {
                        return Some(Action::Opaque { reason });
                    }
                    return Some(Action::Assign { updates });
                }
                match arg0.as_function().and_then(|f| f.lowered.as_deref()) {
                    Some(Expr::Object(fields)) => Some(Action::Assign {
                        updates: fields.iter().map(|(k, x)| (k.clone(), Arc::new(x.clone()))).collect(),
                    }),
                    Some(Expr::Literal(ir::Json::Object(m))) => Some(Action::Assign {
                        updates: m.iter().map(|(k, x)| (k.clone(), Arc::new(Expr::Literal(x.clone())))).collect(),
                    }),
                    // `({ context }) => ({ ...context, k: v })`: xstate merges the object into the
                    // context, so a leading spread of the context itself changes nothing, and the
                    // fields after it are the updates. Any other spread or a computed key makes
                    // keys only the run knows: the whole new context, the old one spread first.
                    Some(Expr::ObjectSpread(parts)) => match context_spread_updates(parts) {
                        Some(updates) => Some(Action::Assign { updates }),
                        None => Some(merged_context(Expr::ObjectSpread(parts.clone()))),
                    },
                    // Another value (a ternary of objects, ...), or a body carried as JavaScript:
                    // xstate merges the partial context it gives into the context.
                    Some(other) => Some(merged_context(other.clone())),
                    None if matches!(arg0.as_function().and_then(|f| f.carried.as_ref()), Some(Ok(_))) => {
                        arg0.as_function().and_then(fn_expr).map(|e| merged_context(Expr::clone(&e)))
                    }
                    None if refusal(arg0).is_some() => {
                        self.not_lowered(arg0, path, "this `assign`");
                        Some(Action::Opaque {
                            reason: format!("this `assign` cannot run: {}", refusal(arg0).unwrap_or_default()),
                        })
                    }
                    _ => {
                        self.not_lowered(arg0, path, "this `assign`");
                        Some(Action::Opaque {
                            reason: "this `assign` stays code: its body is not an expression the runtime can evaluate"
                                .into(),
                        })
                    }
                }
            }
            Some("answer") => {
                let params = arg(a, 0).and_then(|f| f.as_function()).and_then(fn_expr).map(|e| Expr::clone(&e));
                if params.is_none() {
                    if let Some(f) = arg(a, 0) {
                        self.not_lowered(f, path, "this `answer`");
                    }
                }
                Some(Action::Named { name: "jr2.answer".into(), params })
            }
            Some(creator @ ("raise" | "sendTo" | "sendParent" | "cancel" | "emit" | "log"))
                if matches!(a.as_call().map(|c| c.callee), Some(Callee::Xstate(_))) =>
            {
                Some(creator_action(creator, a).unwrap_or_else(|reason| Action::Opaque { reason }))
            }
            Some("spawnChild") if matches!(a.as_call().map(|c| c.callee), Some(Callee::Xstate(_))) => {
                let action = self.spawn(a).unwrap_or_else(|reason| Action::Opaque { reason });
                let logic = arg(a, 0).unwrap_or(a);
                if !is_machine(logic) && logic.as_str().is_none() {
                    // A Part of the kit written in place is the walk's `inline-parts`.
                    if classify_actor(logic) == ActorClass::Unknown {
                        let message = format!(
                            "`spawnChild()` spawns {}, written inline; name it in the setup's `actors` and spawn it by name",
                            describe(logic)
                        );
                        self.fault(logic, FaultKind::InlineSrc, path, message);
                    }
                } else if let Action::Spawn { src, machine: None, .. } = &action {
                    // xstate throws where the name is no actor of the Machine's.
                    if src != "gate" && self.parts.actor(src).is_none() {
                        let known: Vec<&str> = self.parts.setup_entries("actors").iter().map(|(k, _)| *k).collect();
                        let at = arg(a, 0).unwrap_or(a);
                        self.fault(
                            at,
                            FaultKind::UnknownInvokeSrc,
                            path,
                            format!(
                                "`spawnChild(\"{src}\")` names no actor of the setup (actors: {}; kit: gate)",
                                if known.is_empty() { "none".to_string() } else { known.join(", ") }
                            ),
                        );
                    }
                }
                Some(action)
            }
            Some(other) => Some(Action::Named { name: compact_str::format_compact!("xstate.{other}"), params: None }),
            None => {
                self.odd(a, path, "an action", "a name, an object or a call");
                None
            }
        }
    }

    /// The setup's (and the other implementations') named guards, actions and delays, lowered
    /// where pure; a name whose implementation is code jr2 cannot lower is left out (the walk's
    /// `not-executable` names it where the Machine uses it).
    fn implementations(&mut self, targets: &Targets<'_>) -> ir::Implementations {
        let mut out = ir::Implementations::default();
        for (name, v) in self.parts.setup_entries("guards") {
            if let Some(g) = self.implementation_guard(v, targets) {
                out.guards.insert(Name::from(name), g);
            }
        }
        for (name, v) in self.parts.setup_entries("actions") {
            if let Some(a) = self.implementation_actions(v) {
                out.actions.insert(Name::from(name), a);
            }
        }
        for (name, v) in self.parts.setup_entries("delays") {
            if let Some(d) = implementation_delay(v) {
                out.delays.insert(Name::from(name), d);
            }
        }
        out
    }

    /// A named guard's implementation: a function whose body lowered, or a guard written as
    /// data (a name, `{ type, params }`, `and`/`or`/`not`/`stateIn`/`sentBy`).
    fn implementation_guard(&mut self, v: &Value<'v>, targets: &Targets<'_>) -> Option<Guard> {
        if let Some(f) = v.as_function() {
            return fn_expr(f).map(|e| Guard::Expr { expr: Expr::clone(&e) });
        }
        let data = v.as_str().is_some()
            || (v.props().is_some() && v.get("type").and_then(Value::as_str).is_some())
            || matches!(kit_name(v), Some("and" | "or" | "not" | "stateIn" | "sentBy"));
        if !data {
            return None;
        }
        self.guard(v, Path::ROOT, targets)
    }

    /// A named action's implementation: a function with no effect (its body lowered: a pure
    /// expression, or nothing) runs no action; an action creator's call (`assign`, `raise`, ...)
    /// its action.
    fn implementation_actions(&mut self, v: &'v Value<'v>) -> Option<Vec<Action>> {
        if let Some(f) = v.as_function() {
            if f.lowered.is_some() {
                return Some(Vec::new());
            }
            return fn_expr(f).map(|e| vec![Action::Run { value: Expr::clone(&e) }]);
        }
        kit_name(v)?;
        self.action(v, Path::ROOT).map(|a| vec![a])
    }

    /// `spawnChild(src, { id, input })`: an actor slot by its name, or a child Machine written in
    /// place (lowered as one, into the action; its own faults are not this Machine's).
    fn spawn(&mut self, a: &Value<'v>) -> Result<Action, String> {
        let args = a.as_call().map_or(&[][..], |c| c.args);
        let Some(logic) = args.first() else { return Err("`spawnChild()` has no actor".into()) };
        let options = args.get(1).filter(|o| !matches!(o.kind, ValueKind::Undefined));
        if let Some(o) = options.filter(|o| o.props().is_none()) {
            return Err(format!("the options of `spawnChild()` are {}, not an object", describe(o)));
        }
        let field = |k: &str| options.and_then(|o| o.get(k)).filter(|x| !matches!(x.kind, ValueKind::Undefined));
        let id = match field("id") {
            Some(x) => Some(value_expr(x).ok_or_else(|| format!("the id of `spawnChild()` is {}", describe(x)))?),
            None => None,
        };
        let input = match field("input") {
            Some(x) => Some(value_expr(x).ok_or_else(|| {
                format!(
                    "the input of `spawnChild()` is {}, whose body is not an expression the runtime can evaluate",
                    describe(x)
                )
            })?),
            None => None,
        };
        if let Some(src) = logic.as_str() {
            return Ok(Action::Spawn { src: Name::from(src), id, input, machine: None });
        }
        let src = match &id {
            Some(Expr::Literal(ir::Json::String(s))) => Name::from(s.as_str()),
            _ => Name::const_new("(inline)"),
        };
        // Other logic written in place (a Part, `fromPromise(...)`): refused where it is written
        // (`inline-parts`, `inline-src`); the run asks the host to start it, as an inline invoke.
        let Ok(parts) = machine_parts(logic) else {
            return Ok(Action::Spawn { src, id, input, machine: None });
        };
        if self.depth + 1 >= crate::slots::MAX_NESTING {
            return Err(format!(
                "the Machine `spawnChild()` spawns is nested more than {} Machines deep",
                crate::slots::MAX_NESTING
            ));
        }
        let child = lower_statechart(&parts, self.purpose, self.depth + 1)
            .machine
            .ok_or_else(|| "the Machine `spawnChild()` spawns does not lower".to_string())?;
        Ok(Action::Spawn { src, id, input, machine: Some(Box::new(child)) })
    }

    fn guard(&mut self, g: &Value, path: Path<'_>, targets: &Targets<'_>) -> Option<Guard> {
        if let Some(name) = g.as_str() {
            return Some(Guard::Named { name: Name::from(name), params: None });
        }
        if let Some(f) = g.as_function() {
            // A pure body is its expression; other code stays a named `inline` guard.
            // Other code is carried as JavaScript, or (refused) a named `inline` guard.
            return Some(match fn_expr(f) {
                Some(expr) => Guard::Expr { expr: Expr::clone(&expr) },
                None => Guard::Named { name: "inline".into(), params: None },
            });
        }
        if g.props().is_some() {
            let name = g.get("type").and_then(Value::as_str);
            let Some(name) = name else {
                self.fault(g, FaultKind::NotObject, path, "a guard object with no string `type`".into());
                return None;
            };
            if name == "jr2.sentBy" {
                let id = g.get("params").and_then(|p| p.get("id")).and_then(Value::as_str);
                return match id {
                    Some(id) => Some(Guard::SentBy { id: Name::from(id) }),
                    None => {
                        self.fault(
                            g,
                            FaultKind::NotObject,
                            path,
                            "a `jr2.sentBy` guard with no string `params.id`".into(),
                        );
                        None
                    }
                };
            }
            return Some(Guard::Named { name: Name::from(name), params: g.get("params").and_then(value_expr) });
        }
        match kit_name(g) {
            Some("sentBy") => match arg(g, 0).and_then(Value::as_str) {
                Some(id) => Some(Guard::SentBy { id: Name::from(id) }),
                None => {
                    self.odd(arg(g, 0).unwrap_or(g), path, "the party of `sentBy()`", "a string");
                    None
                }
            },
            Some(op @ ("and" | "or")) => {
                let list = arg(g, 0).and_then(Value::as_array);
                let Some(list) = list else {
                    self.odd(arg(g, 0).unwrap_or(g), path, &format!("the argument of `{op}()`"), "an array");
                    return None;
                };
                let guards =
                    list.iter().enumerate().filter_map(|(i, x)| self.guard(x, path.child(i), targets)).collect();
                Some(if op == "and" { Guard::And { guards } } else { Guard::Or { guards } })
            }
            Some("stateIn") => self.state_in(g, path, targets),
            Some("not") => {
                let inner = arg(g, 0).and_then(|x| self.guard(x, path, targets))?;
                Some(Guard::Not { guard: Box::new(inner) })
            }
            _ => {
                self.odd(g, path, "a guard", "a name, `{ type, params }`, a function or a guard call");
                None
            }
        }
    }

    /// xstate's `stateIn(value)`: `"#id"` is that state; a state value (`"a.b"`, `{ a: "b", c:
    /// "d" }`) is read from the root, as `snapshot.matches` reads it: each of its leaves active.
    /// One state is an [`Expr::InState`], several an `&&` of them.
    fn state_in(&mut self, g: &Value, path: Path<'_>, targets: &Targets<'_>) -> Option<Guard> {
        let Some(value) = arg(g, 0) else {
            self.fault(g, FaultKind::NotObject, path, "`stateIn()` with no state".into());
            return None;
        };
        let mut leaves = Vec::new();
        if let Some(id) = value.as_str().filter(|s| s.starts_with('#')) {
            match targets.by_id(id) {
                Ok(s) => leaves.push(s),
                Err(which) => {
                    self.target_fault(value, path, (StateId::ROOT, targets.states()), id, &which);
                    return None;
                }
            }
        } else if !self.state_value_leaves(value, StateId::ROOT, path, targets, &mut leaves) {
            return None;
        }
        let mut states = leaves.into_iter().map(Expr::InState);
        let first = states.next()?;
        let expr = states.fold(first, |left, right| Expr::Logical {
            op: ir::expr::LogicalOp::And,
            left: Box::new(left),
            right: Box::new(right),
        });
        Some(Guard::Expr { expr })
    }

    /// The states a state value names below `from`, pushed in its order: a string is a key path
    /// (`a.b`), an object's keys are children and their values state values below them. False
    /// (with a fault) where it names no state or is no state value.
    fn state_value_leaves(
        &mut self,
        value: &Value,
        from: StateId,
        path: Path<'_>,
        targets: &Targets<'_>,
        out: &mut Vec<StateId>,
    ) -> bool {
        if let Some(p) = value.as_str() {
            return match targets.by_path(from, p).ok().filter(|_| !p.starts_with('#')) {
                Some(s) => {
                    out.push(s);
                    true
                }
                None => {
                    let msg = format!("`stateIn(\"{p}\")` names no state");
                    self.fault(value, FaultKind::UnknownTarget, path, msg);
                    false
                }
            };
        }
        match value.props() {
            Some(props) if !props.is_empty() => props.iter().all(|p| match targets.child_by_key(from, p.key) {
                Some(child) => self.state_value_leaves(&p.value, child, path, targets, out),
                None => {
                    let msg = format!("`stateIn()` names no state \"{}\"", p.key);
                    self.fault(&p.value, FaultKind::UnknownTarget, path, msg);
                    false
                }
            }),
            _ => {
                self.odd(value, path, "the state of `stateIn()`", "an `#id`, a state path or a state value object");
                false
            }
        }
    }

    fn resolve_initials(&mut self) {
        for i in 0..self.states.len() {
            if self.states[i].kind != StateKind::Compound {
                continue;
            }
            let (v, f, _) = self.values[i];
            match f.initial {
                None => self.fault(
                    v,
                    FaultKind::MissingInitial,
                    self.map.state(StateId(i as u32)).path.clone(),
                    format!("compound state \"{}\" has no `initial`", self.name_of(i)),
                ),
                Some(init) => {
                    let Some(name) = init.as_str() else {
                        let path = join(&self.map.state(StateId(i as u32)).path, "initial");
                        self.odd(init, path, "`initial`", "a string");
                        continue;
                    };
                    let found = self.states[i].children.iter().copied().find(|c| self.states[c.index()].key == name);
                    match found {
                        Some(c) => self.states[i].initial = Some(c),
                        None => {
                            let path = join(&self.map.state(StateId(i as u32)).path, "initial");
                            let msg = format!("initial state \"{name}\" is no child of \"{}\"", self.name_of(i));
                            self.fault(init, FaultKind::UnknownInitial, path, msg);
                        }
                    }
                }
            }
        }
    }

    fn name_of(&self, i: usize) -> String {
        name_of(&self.map, i)
    }

    /// The transitions of a state, in the order `on`, `after`, `always`, `onDone`, then each
    /// invoke's `onDone` and `onError`.
    /// `buf` (where each transition's path is written, then copied out at its exact length) is a
    /// buffer, reused from state to state.
    fn lower_transitions(
        &mut self,
        states: &[State],
        sid: StateId,
        targets: &Targets<'_>,
        buf: &mut String,
        out: &mut Vec<Transition>,
    ) {
        let (_, f, invoke_start) = self.values[sid.index()];
        let state = &states[sid.index()];
        // An `on` or `after` that is no object is reported before any transition's fault.
        for (field, value) in [("on", f.on), ("after", f.after)] {
            if let Some(map) = value.filter(|m| m.props().is_none()) {
                let spath = self.map.state(sid).path.clone();
                self.odd(map, Path::ROOT.child(spath.as_str()).child(field), &format!("`{field}`"), "an object");
            }
        }
        // Each group is lowered as it is found (no list of groups is made first).
        let mut cx = GroupCx { sid, targets, buf, out };
        for (field, value, make) in
            [("on", f.on, Trigger::Event as fn(Name) -> Trigger), ("after", f.after, Trigger::After)]
        {
            for p in value.and_then(Value::props).unwrap_or_default() {
                self.lower_group(&mut cx, make(Name::from(p.key)), GroupPath::State(field, Some(p.key)), &p.value);
            }
        }
        if let Some(x) = f.always {
            self.lower_group(&mut cx, Trigger::Always, GroupPath::State("always", None), x);
        }
        if let Some(x) = f.on_done {
            self.lower_group(&mut cx, Trigger::StateDone, GroupPath::State("onDone", None), x);
        }
        // The invokes kept in the IR, in order, as `invokes` read them.
        for i in 0..state.invokes.len() {
            let (on_done, on_error) = self.invoke_groups[invoke_start + i];
            if let Some(x) = on_done {
                self.lower_group(&mut cx, Trigger::InvokeDone(i), GroupPath::Invoke(i, "onDone"), x);
            }
            if let Some(x) = on_error {
                self.lower_group(&mut cx, Trigger::InvokeError(i), GroupPath::Invoke(i, "onError"), x);
            }
        }
        if state.kind == StateKind::History {
            if let Some(target) = f.target {
                self.history_default(&mut cx, states, target);
            }
        }
        if sid == StateId::ROOT {
            self.routes(&mut cx, states);
        }
    }

    /// A history state's default `target` (a key path from its parent, an `#id`, or a list of
    /// them), as one [`Trigger::HistoryDefault`] transition; none (its parent's initial) when it
    /// names no state.
    fn history_default(&mut self, cx: &mut GroupCx<'_, '_>, states: &[State], target: &'v Value<'v>) {
        let sid = cx.sid;
        let Some(parent) = states[sid.index()].parent else { return };
        let path = Name::from(join(&self.map.state(sid).path, "target"));
        let at = Path::ROOT.child(path.as_str());
        let list = target.as_array().is_some();
        let mut resolved = TargetList::new();
        for (k, tv) in items(target).iter().enumerate() {
            let tp = if list { at.child(k) } else { at };
            let Some(t) = tv.as_str() else {
                self.odd(tv, tp, "a history state's `target`", "a string");
                continue;
            };
            // xstate reads it from the parent (`getStateNodeByPath(parent, target)`).
            match cx.targets.by_path(parent, t) {
                Ok(s) => resolved.push(s),
                Err(which) => self.target_fault(tv, tp, (sid, cx.targets.states()), t, &which),
            }
        }
        if resolved.is_empty() {
            return;
        }
        cx.out.push(Transition {
            source: sid,
            trigger: Trigger::HistoryDefault,
            targets: resolved,
            guard: None,
            actions: Vec::new(),
            reenter: false,
        });
        self.map.push_transition(NodeSource { path, loc: target.loc });
        self.transition_values.push(target);
    }

    /// xstate's `route`: each state below the root with its own `id` and a `route` object gets a
    /// root transition on `xstate.route` to itself, guarded by `event.to === "#<id>"` (and the
    /// route's own `guard`), with the route's `actions` and `reenter`, in document order
    /// (`formatRouteTransitions`). A `route` on a state with no `id` of its own is none, as
    /// xstate reads it.
    fn routes(&mut self, cx: &mut GroupCx<'_, '_>, states: &[State]) {
        for (i, state) in states.iter().enumerate().skip(1) {
            let (_, f, _) = self.values[i];
            let Some(route) = f.route else { continue };
            let Some(id) = state.id.clone() else { continue };
            let path = Name::from(join(&self.map.state(StateId(i as u32)).path, "route"));
            let at = Path::ROOT.child(path.as_str());
            if route.props().is_none() {
                self.odd(route, at, "`route`", "an object");
                continue;
            }
            let tf = TransitionFields::of(route);
            let to = Expr::Binary {
                op: ir::expr::BinaryOp::StrictEq,
                left: Box::new(Expr::Ref(Reference {
                    root: Root::Event,
                    path: smallvec::smallvec![Name::const_new("to")],
                })),
                right: Box::new(Expr::Literal(ir::Json::String(format!("#{id}").into()))),
            };
            let matches = Guard::Expr { expr: to };
            let guard = match tf.guard.and_then(|g| self.guard(g, at.child("guard"), cx.targets)) {
                Some(user) => Guard::And { guards: vec![matches, user] },
                None => matches,
            };
            let actions = self.actions(tf.actions, at.child("actions"));
            cx.out.push(Transition {
                source: StateId::ROOT,
                trigger: Trigger::Event(Name::const_new("xstate.route")),
                targets: smallvec::smallvec![StateId(i as u32)],
                guard: Some(guard),
                actions,
                reenter: tf.reenter.and_then(Value::as_bool).unwrap_or(false),
            });
            self.map.push_transition(NodeSource { path, loc: route.loc });
            self.transition_values.push(route);
        }
    }

    /// The fault of a target that names no state, or more than one.
    /// `states` is the tree the target was resolved in (for a "did you mean").
    fn target_fault(
        &mut self,
        tv: &Value,
        tp: Path<'_>,
        (sid, states): (StateId, &[State]),
        target: &str,
        which_states: &[StateId],
    ) {
        if which_states.len() > 1 {
            let which: Vec<&str> = which_states.iter().map(|s| self.map.state_path(*s)).collect();
            let msg = format!("target \"{target}\" names more than one state ({})", which.join(", "));
            self.fault(tv, FaultKind::AmbiguousTarget, tp, msg);
        } else {
            let from = name_of(&self.map, sid.index());
            self.fault(tv, FaultKind::UnknownTarget, tp, format!("target \"{target}\" of \"{from}\" names no state"));
            // "Did you mean", as a Chart's `unknown-target` says it: among the children for a
            // `.child` target, else among the siblings.
            let keys = |of: Option<StateId>| -> Vec<&str> {
                of.and_then(|s| states.get(s.index()))
                    .map(|s| s.children.iter().filter_map(|c| states.get(c.index())).map(|c| c.key.as_str()).collect())
                    .unwrap_or_default()
            };
            let candidates = match target.chars().next() {
                Some('.') => keys(Some(sid)),
                Some('#') => Vec::new(),
                _ => keys(states.get(sid.index()).and_then(|s| s.parent)),
            };
            let help = base::suggest::closest(target.trim_start_matches(['#', '.']), &candidates)
                .map(|c| format!("did you mean \"{c}\"?"));
            if let Some(f) = self.faults.last_mut() {
                f.help = help;
            }
        }
    }

    /// The transitions of one group (one item, or each item of a list) of a state.
    fn lower_group(&mut self, cx: &mut GroupCx<'_, '_>, trigger: Trigger, gpath: GroupPath<'_>, value: &'v Value<'v>) {
        let GroupCx { sid, targets, ref mut buf, ref mut out } = *cx;
        let mut trigger = Some(trigger);
        let list = value.as_array();
        let n = list.map_or(1, <[Value]>::len);
        buf.clear();
        match gpath {
            GroupPath::State(field, key) => {
                buf.push_str(&self.map.state(sid).path);
                push_segment(buf, field);
                if let Some(key) = key {
                    push_segment(buf, key);
                }
            }
            GroupPath::Invoke(i, field) => {
                buf.push_str(self.map.invoke(sid, i).map_or("", |x| x.path.as_str()));
                push_segment(buf, field);
            }
        }
        // The group's path goes to its one transition; a list's items get their index.
        for (i, t) in items(value).iter().enumerate() {
            let tpath = match list {
                Some(_) => {
                    let len = push_index(buf, i);
                    let tpath = Name::from(buf.as_str());
                    buf.truncate(len);
                    tpath
                }
                None => Name::from(buf.as_str()),
            };
            let at = Path::ROOT.child(tpath.as_str());
            let tf = TransitionFields::of(t);
            let (target_values, target_list, obj): (&[Value], bool, bool) = match &t.kind {
                ValueKind::String { .. } => (std::slice::from_ref(t), false, false),
                ValueKind::Undefined => (&[], false, false),
                ValueKind::Object { .. } => match tf.target {
                    None => (&[], false, true),
                    Some(tv) => match &tv.kind {
                        ValueKind::Array { items } => (items, true, true),
                        ValueKind::Undefined => (&[], false, true),
                        _ => (std::slice::from_ref(tv), false, true),
                    },
                },
                _ => {
                    self.odd(t, at, "a transition", "a target string or an object");
                    continue;
                }
            };
            let mut resolved = TargetList::with_capacity(target_values.len());
            for (k, tv) in target_values.iter().enumerate() {
                // The path of a target: the transition's own for a string, else its `target`
                // (and index); written only for a fault.
                let target_at = at.child("target");
                let tp = match (obj, target_list) {
                    (false, _) => at,
                    (true, false) => target_at,
                    (true, true) => target_at.child(k),
                };
                let Some(target) = tv.as_str() else {
                    self.odd(tv, tp, "a target", "a string");
                    continue;
                };
                // An empty target is none (xstate's `normalizeTarget`): a targetless transition.
                if target.is_empty() {
                    continue;
                }
                match targets.resolve(sid, target) {
                    Ok(s) => resolved.push(s),
                    Err(which_states) => self.target_fault(tv, tp, (sid, targets.states()), target, &which_states),
                }
            }
            let (guard, actions, reenter) = if obj {
                let guard = tf.guard.and_then(|g| self.guard(g, at.child("guard"), targets));
                let actions = self.actions(tf.actions, at.child("actions"));
                (guard, actions, tf.reenter.and_then(Value::as_bool).unwrap_or(false))
            } else {
                (None, Vec::new(), false)
            };
            // The last transition of the group takes the trigger itself; the others a copy.
            let this = if i + 1 == n { trigger.take() } else { trigger.clone() };
            out.push(Transition {
                source: sid,
                trigger: this.unwrap_or(Trigger::Always),
                targets: resolved,
                guard,
                actions,
                reenter,
            });
            self.map.push_transition(NodeSource { path: tpath, loc: t.loc });
            self.transition_values.push(t);
        }
    }

    /// The `defineEvent`s of `setup.events`.
    fn events(&mut self) -> FxIndexMap<Name, EventDecl> {
        let Some(ev) = self.parts.setup.and_then(|s| s.get("events")) else { return FxIndexMap::default() };
        let Some(items) = ev.as_array() else {
            self.odd(ev, "events", "the setup's `events`", "an array of `defineEvent(...)`");
            return FxIndexMap::default();
        };
        let mut out = FxIndexMap::with_capacity_and_hasher(items.len(), Default::default());
        let events = Path::ROOT.child("events");
        for (i, item) in items.iter().enumerate() {
            let path = events.child(i);
            let def = if is_call(item, "defineEvent") { arg(item, 0) } else { None };
            let Some(def) = def.filter(|d| d.props().is_some()) else {
                self.odd(def.unwrap_or(item), path, "an event", "`defineEvent({ name, description, input })`");
                continue;
            };
            // The fields read, in one pass (a later key replaces an earlier one, as `get` reads).
            let [mut name_v, mut input_v, mut description, mut audience] = [None; 4];
            for p in def.props().unwrap_or_default() {
                let field = match p.key {
                    "name" => &mut name_v,
                    "input" => &mut input_v,
                    "description" => &mut description,
                    "audience" => &mut audience,
                    _ => continue,
                };
                *field = Some(&p.value);
            }
            let Some(name) = name_v.and_then(Value::as_str) else {
                self.odd(name_v.unwrap_or(def), path.child("name"), "an event's `name`", "a string");
                continue;
            };
            let purpose = self.purpose;
            let schema = |iv| match purpose {
                Purpose::Full => crate::zod::to_schema(iv).map(Some),
                Purpose::Check => crate::zod::check_schema(iv).map(|()| None),
            };
            let input = input_v.and_then(|iv| match schema(iv) {
                Ok(schema) => schema,
                Err(faults) => {
                    let msg = if faults.is_empty() {
                        format!("the `input` of event \"{name}\" was not converted to JSON Schema")
                    } else {
                        format!(
                            "the `input` of event \"{name}\" was not converted to JSON Schema ({} problems)",
                            faults.len()
                        )
                    };
                    self.fault(iv, FaultKind::EventSchema, path.child("input"), msg);
                    None
                }
            });
            let decl = EventDecl {
                description: description.and_then(Value::as_str).map(str::to_string),
                input,
                audience: audience.and_then(Value::as_str).map(str::to_string),
            };
            out.insert(Name::from(name), decl);
        }
        out
    }
}

/// A state's path for a message: `(root)` for the root.
fn name_of(map: &SourceMap, i: usize) -> String {
    let p = map.state_path(StateId(i as u32));
    if p.is_empty() {
        "(root)".into()
    } else {
        p.to_string()
    }
}

/// One of xstate's action creators (`raise`, `sendTo`, `sendParent`, `cancel`, `emit`, `log`) as
/// its IR action, where each argument is a literal or a function whose body lowered; else why
/// not (the action is then [`Action::Opaque`]).
fn creator_action(creator: &str, a: &Value) -> Result<Action, String> {
    let args = a.as_call().map_or(&[][..], |c| c.args);
    // An argument as an expression, or why it is none.
    let expr = |v: &Value, what: &str| -> Result<Expr, String> {
        value_expr(v).ok_or_else(|| {
            let why = match &v.kind {
                ValueKind::Function(_) => match refusal(v) {
                    Some(why) => format!("a function that cannot run: {why}"),
                    None => "a function whose body is not an expression the runtime can evaluate".to_string(),
                },
                ValueKind::Unknown { reason } => format!("not known statically ({reason})"),
                _ => describe(v),
            };
            format!("the {what} of `{creator}()` is {why}")
        })
    };
    // An event: an object literal with its `type`, or a function that makes one.
    let event = |v: Option<&Value>| -> Result<Expr, String> {
        let Some(v) = v else { return Err(format!("`{creator}()` has no event")) };
        if v.props().is_none() && v.as_function().is_none() {
            return Err(format!("the event of `{creator}()` is {}, not an event object or a function", describe(v)));
        }
        expr(v, "event")
    };
    // The options' `delay` and `id` (`{ delay, id }`), each where written.
    let options = |v: Option<&Value>| -> Result<(Option<Expr>, Option<Expr>), String> {
        let Some(v) = v.filter(|v| !matches!(v.kind, ValueKind::Undefined)) else { return Ok((None, None)) };
        if v.props().is_none() {
            return Err(format!("the options of `{creator}()` are {}, not an object", describe(v)));
        }
        let field =
            |k: &str| v.get(k).filter(|x| !matches!(x.kind, ValueKind::Undefined)).map(|x| expr(x, k)).transpose();
        Ok((field("delay")?, field("id")?))
    };
    Ok(match creator {
        "raise" => {
            let (delay, id) = options(args.get(1))?;
            Action::Raise { event: event(args.first())?, delay, id }
        }
        "sendTo" => {
            let to = args.first().ok_or_else(|| "`sendTo()` has no actor".to_string())?;
            let to = expr(to, "actor")?;
            let (delay, id) = options(args.get(2))?;
            Action::Send { to: ir::SendTo::Actor(to), event: event(args.get(1))?, delay, id, id_location: None }
        }
        "sendParent" => {
            let (delay, id) = options(args.get(1))?;
            Action::Send { to: ir::SendTo::Parent, event: event(args.first())?, delay, id, id_location: None }
        }
        "cancel" => {
            let id = args.first().ok_or_else(|| "`cancel()` has no id".to_string())?;
            Action::Cancel { id: expr(id, "id")? }
        }
        "emit" => Action::Emit { event: event(args.first())? },
        _ => {
            // `log(value?, label?)`: xstate logs `{ context, event }` where no value is written.
            let value = match args.first().filter(|v| !matches!(v.kind, ValueKind::Undefined)) {
                Some(v) => Some(expr(v, "value")?),
                None => None,
            };
            let label = match args.get(1).filter(|v| !matches!(v.kind, ValueKind::Undefined)) {
                Some(l) => Some(
                    l.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("the label of `log()` is {}, not a string", describe(l)))?,
                ),
                None => None,
            };
            Action::Log { label, value }
        }
    })
}

/// Is the value truthy, as JavaScript reads it? (An unknown value is not.)
fn truthy(v: &Value) -> bool {
    match &v.kind {
        ValueKind::Undefined | ValueKind::Null | ValueKind::Unknown { .. } => false,
        ValueKind::Bool { value } => *value,
        ValueKind::Number { value } => *value != 0.0 && !value.is_nan(),
        ValueKind::String { value } => !value.is_empty(),
        _ => true,
    }
}

/// The items of a value that is one item or a list of them.
pub fn items<'a, 'v>(value: &'a Value<'v>) -> &'a [Value<'v>] {
    match value.as_array() {
        Some(items) => items,
        None => std::slice::from_ref(value),
    }
}

/// The items of a value that is one item or a list of them, each with its path.
pub fn one_or_many<'a, 'v>(value: &'a Value<'v>, path: &str) -> Vec<(String, &'a Value<'v>)> {
    match value.as_array() {
        Some(items) => items.iter().enumerate().map(|(i, v)| (join(path, i), v)).collect(),
        None => vec![(path.to_string(), value)],
    }
}

/// A value as an IR expression: a literal as `Literal`, a function as its `lowered`, arrays and
/// objects by their items; `None` where any part cannot be lowered.
/// A named delay's implementation: a number of milliseconds (or a duration string), or a function
/// of the context and the event whose body lowered.
fn implementation_delay(v: &Value) -> Option<Expr> {
    match &v.kind {
        ValueKind::Number { .. } | ValueKind::String { .. } => value_expr(v),
        ValueKind::Function(f) => fn_expr(f).map(|e| Expr::clone(&e)),
        _ => None,
    }
}

pub(crate) fn value_expr(v: &Value) -> Option<Expr> {
    match &v.kind {
        // A function a run calls (a mapper, params, an action creator's argument): its lowering,
        // or its script carried as JavaScript. (One inside an object or a list is a value xstate
        // does not call: its lowering alone, as before.)
        ValueKind::Function(f) => fn_expr(f).map(|e| Expr::clone(&e)),
        _ => nested_value_expr(v),
    }
}

/// A function's expression for a run: its lowering, else its script carried as JavaScript
/// (shared, not copied); `None` for a function refused (or read outside a Workflow).
pub fn fn_expr(f: &crate::value::Function) -> Option<Arc<Expr>> {
    if let Some(e) = &f.lowered {
        return Some(e.clone());
    }
    let script = f.carried.as_ref()?.as_ref().ok()?;
    Some(Arc::new(Expr::Js(script.clone())))
}

/// Why a function is refused (what it reaches that no run can have), where it neither lowers
/// nor is carried; `None` for anything else.
pub fn refusal<'a>(v: &'a Value) -> Option<&'a str> {
    match v.as_function()?.carried.as_ref()? {
        Err(why) => Some(why),
        Ok(_) => None,
    }
}

/// `assign(fn)` where the function gives a partial context: the context with it merged in, as
/// xstate merges it (`{ ...context, ...fn(args) }`).
fn merged_context(partial: Expr) -> Action {
    let context = Expr::Ref(Reference { root: Root::Context, path: Default::default() });
    Action::AssignContext {
        value: Expr::ObjectSpread(vec![ir::expr::ObjectPart::Spread(context), ir::expr::ObjectPart::Spread(partial)]),
    }
}

fn nested_value_expr(v: &Value) -> Option<Expr> {
    if let Some(j) = v.to_ir_json() {
        return Some(Expr::Literal(j));
    }
    match &v.kind {
        ValueKind::Function(f) => f.lowered.as_deref().cloned(),
        ValueKind::Array { items } => items.iter().map(nested_value_expr).collect::<Option<Vec<_>>>().map(Expr::Array),
        ValueKind::Object { props } => props
            .iter()
            .filter(|p| !matches!(p.value.kind, ValueKind::Undefined))
            .map(|p| Some((Name::from(p.key), nested_value_expr(&p.value)?)))
            .collect::<Option<Vec<_>>>()
            .map(Expr::Object),
        _ => None,
    }
}

/// The updates of an `assign(fn)` whose body lowered to an object with a spread: its fields, where
/// the object is a spread of the whole context (`...context`, first) then fields, as xstate's
/// merge of `{ ...context, k: v }` into the context changes only `k`; `None` for any other
/// object (another spread, a computed key: keys only the run knows).
fn context_spread_updates(parts: &[ir::expr::ObjectPart]) -> Option<FxIndexMap<Name, Arc<Expr>>> {
    use ir::expr::ObjectPart;
    let (first, rest) = parts.split_first()?;
    if !matches!(first, ObjectPart::Spread(Expr::Ref(Reference { root: Root::Context, path })) if path.is_empty()) {
        return None;
    }
    let mut updates = FxIndexMap::with_capacity_and_hasher(rest.len(), Default::default());
    for p in rest {
        let ObjectPart::Field { key, value } = p else { return None };
        updates.insert(key.clone(), Arc::new(value.clone()));
    }
    Some(updates)
}

/// Does an action or a guard written as `{ type, params }` have `params` that do not lower (a
/// function whose body is other code, a value not known)? A run would call it without them.
pub fn params_not_lowered(v: &Value) -> bool {
    v.get("params").is_some_and(|p| !matches!(p.kind, ValueKind::Undefined) && value_expr(p).is_none())
}

/// The updates of an `assign({ k: v, ... })` call that do not lower (each key with its value,
/// where the value is written): a run cannot take such an `assign` whole. Empty for any other
/// value.
pub fn assign_updates_not_lowered<'v>(a: &'v Value<'v>) -> Vec<&'v Prop<'v>> {
    if kit_name(a) != Some("assign") {
        return Vec::new();
    }
    let Some(props) = arg(a, 0).and_then(Value::props) else { return Vec::new() };
    props.iter().filter(|p| shared_value_expr(&p.value).is_none()).collect()
}

/// Why an `assign` whose updates of `stays` stay code cannot run (`None` where every one lowered).
fn partial_assign_reason(stays: &[&str]) -> Option<String> {
    let (first, rest) = stays.split_first()?;
    let updates = if rest.is_empty() {
        format!("the update of `context.{first}` stays code")
    } else {
        let keys: Vec<String> = stays.iter().map(|k| format!("`context.{k}`")).collect();
        format!("the updates of {} stay code", keys.join(", "))
    };
    Some(format!(
        "its `assign` cannot run whole: {updates} (not an expression the runtime can evaluate), and a run takes none of an `assign` or all of it"
    ))
}

/// [`value_expr`], where a function's lowering is shared (an `Arc` clone), not copied.
fn shared_value_expr(v: &Value) -> Option<Arc<Expr>> {
    match &v.kind {
        ValueKind::Function(f) => fn_expr(f),
        _ => value_expr(v).map(Arc::new),
    }
}

/// The params of a pick: the properties of its `defineEvent({ input: z.object({...}) })`'s shape.
fn pick_param_props<'v>(def: &Value<'v>) -> Option<&'v [Prop<'v>]> {
    let input = arg(def, 0).filter(|_| is_call(def, "defineEvent"))?.get("input")?;
    zod_object_props(input)
}

/// The keys of a literal `z.object({...})` (through `.describe()`/`.strict()`-like methods that
/// keep its keys).
pub(crate) fn zod_object_keys(v: &Value) -> Option<Vec<String>> {
    zod_object_props(v).map(|props| props.iter().map(|p| p.key.to_string()).collect())
}

/// The properties of a literal `z.object({...})`'s shape, as [`zod_object_keys`] reads them.
fn zod_object_props<'v>(v: &Value<'v>) -> Option<&'v [Prop<'v>]> {
    let call = v.as_call()?;
    match call.callee {
        Callee::Zod("object") => call.args.first()?.props(),
        Callee::Method("describe" | "strict" | "passthrough" | "strip" | "meta") => {
            zod_object_props(call.receiver.as_ref()?)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use crate::value::Arena;
    use serde_json::json;

    fn lowered(v: &Value) -> serde_json::Value {
        serde_json::to_value(lower_machine(v)).expect("serializes")
    }

    #[test]
    fn fix_tests_example() {
        reset();
        let v = fix_tests();
        let low = lower_machine(&v);
        let m = low.machine.as_ref().expect("a machine");
        // Only the zod placeholder's warnings: the example lowers with no error.
        assert!(low.faults.iter().all(|f| f.kind == FaultKind::EventSchema), "{:#?}", low.faults);
        assert_eq!(m.states.len(), 9);
        insta::assert_json_snapshot!("fix_tests_ir", low);
    }

    #[test]
    fn notes_sent_by_and_gate() {
        reset();
        let v = notes();
        let low = lower_machine(&v);
        let m = low.machine.as_ref().expect("a machine");
        let done: Vec<_> = m.transitions.iter().filter(|t| t.trigger == Trigger::Event("done".into())).collect();
        assert_eq!(done[0].guard, Some(Guard::SentBy { id: "writer".into() }));
        assert_eq!(m.slots["gate"].kind, SlotKind::Gate);
        insta::assert_json_snapshot!("notes_ir", low);
    }

    /// A parallel root, guards of every form, `after`/`always`/`onDone`/`onError`, `#id` and
    /// multiple targets, entry/exit and assign actions.
    fn parallel() -> Value<'static> {
        let region = |name: &str, other: &str| {
            obj(vec![
                ("initial", s("idle")),
                (
                    "states",
                    obj(vec![
                        (
                            "idle",
                            obj(vec![
                                (
                                    "entry",
                                    arr(vec![
                                        s("note"),
                                        xs(
                                            "assign",
                                            vec![obj(vec![("round", func(Some(r("event.round")))), ("tag", s(name))])],
                                        ),
                                    ]),
                                ),
                                (
                                    "on",
                                    obj(vec![(
                                        "go",
                                        obj(vec![
                                            ("target", s("busy")),
                                            (
                                                "guard",
                                                xs(
                                                    "and",
                                                    vec![arr(vec![
                                                        s("green"),
                                                        xs(
                                                            "not",
                                                            vec![obj(vec![
                                                                ("type", s("big")),
                                                                ("params", obj(vec![("max", n(3.0))])),
                                                            ])],
                                                        ),
                                                    ])],
                                                ),
                                            ),
                                            (
                                                "actions",
                                                obj(vec![
                                                    ("type", s("note")),
                                                    ("params", obj(vec![("at", func(Some(r("context.round"))))])),
                                                ]),
                                            ),
                                        ]),
                                    )]),
                                ),
                                (
                                    "after",
                                    obj(vec![
                                        ("1000", s("busy")),
                                        ("soon", obj(vec![("target", s(&format!("#{other}")))])),
                                    ]),
                                ),
                            ]),
                        ),
                        (
                            "busy",
                            obj(vec![
                                (
                                    "invoke",
                                    obj(vec![
                                        ("src", s("tests")),
                                        ("onDone", s("idle")),
                                        ("onError", obj(vec![("target", s("#main.failed")), ("reenter", b(true))])),
                                    ]),
                                ),
                                (
                                    "always",
                                    arr(vec![obj(vec![
                                        ("guard", xs("or", vec![arr(vec![s("a"), func(None)])])),
                                        ("target", s("done")),
                                    ])]),
                                ),
                            ]),
                        ),
                        (
                            "done",
                            obj(vec![
                                ("type", s("final")),
                                ("exit", kit("answer", vec![func(Some(lit(json!("ok"))))])),
                            ]),
                        ),
                    ]),
                ),
                ("onDone", obj(vec![("actions", xs("raise", vec![obj(vec![("type", s("x"))])]))])),
            ])
        };
        machine(
            obj(vec![("actors", obj(vec![("tests", kit("command", vec![arr(vec![s("npm"), s("test")])]))]))]),
            obj(vec![
                ("id", s("main")),
                ("type", s("parallel")),
                ("on", obj(vec![("reset", obj(vec![("target", arr(vec![s(".left.idle"), s(".right.idle")]))]))])),
                (
                    "states",
                    obj(vec![
                        ("left", region("left", "right-done")),
                        ("right", region("right", "main.left.done")),
                        ("failed", obj(vec![("type", s("final"))])),
                    ]),
                ),
            ]),
        )
    }

    /// The object `v` with `f` applied to a copy of its properties, made in `arena`.
    fn edit(arena: &'static Arena, v: &Value<'static>, f: impl FnOnce(&mut Vec<Prop<'static>>)) -> Value<'static> {
        let mut props = v.props().expect("an object").to_vec();
        f(&mut props);
        Value::new(ValueKind::Object { props: arena.props(&props) }, v.loc)
    }

    #[test]
    fn parallel_machine() {
        reset();
        let v = parallel();
        // Give the right region's `done` an id, for the left region's `#right-done`: the tree is
        // not changed in place (it is shared), the path down to `done` is made anew.
        let id = s("right-done");
        let arena: &'static Arena = Box::leak(Box::default());
        let call = v.as_call().unwrap();
        let config = edit(arena, &call.args[0], |props| {
            let states = props.iter_mut().find(|p| p.key == "states").unwrap();
            states.value = edit(arena, &states.value, |regions| {
                regions[1].value = edit(arena, &regions[1].value, |right| {
                    let rstates = right.iter_mut().find(|p| p.key == "states").unwrap();
                    rstates.value = edit(arena, &rstates.value, |rstates| {
                        rstates[2].value = edit(arena, &rstates[2].value, |done| {
                            done.push(Prop { key: "id", key_loc: Loc::default(), value: id });
                        });
                    });
                });
            });
        });
        let call = arena.call(crate::value::Call { args: arena.values(&[config]), ..*call });
        let v = Value::new(ValueKind::Call(call), v.loc);
        let low = lower_machine(&v);
        // `#main.left.done` is the default id of left's `done`; `#right-done` its explicit id;
        // `#main.failed` the root's id and a child path.
        assert!(
            low.faults.iter().all(|f| f.kind != FaultKind::UnknownTarget && f.kind != FaultKind::AmbiguousTarget),
            "{:#?}",
            low.faults
        );
        let m = low.machine.as_ref().unwrap();
        assert_eq!(m.states[0].kind, StateKind::Parallel);
        let reset_t = m.transitions.iter().find(|t| t.trigger == Trigger::Event("reset".into())).unwrap();
        assert_eq!(reset_t.targets.len(), 2);
        insta::assert_json_snapshot!("parallel_ir", low);
    }

    #[test]
    fn faults_go_on() {
        reset();
        let v = machine(
            obj(vec![("actors", obj(vec![("odd", unknown("an import of a package"))]))]),
            obj(vec![
                ("id", s("faulty")),
                ("initial", s("nowhere")),
                (
                    "states",
                    obj(vec![
                        (
                            "a",
                            obj(vec![
                                ("invoke", obj(vec![("src", s("ghost"))])),
                                ("on", obj(vec![("e", s("b")), ("f", s("missing")), ("g", n(4.0))])),
                            ]),
                        ),
                        ("b", s("not a state")),
                        (
                            "c",
                            obj(vec![
                                ("states", obj(vec![("x", obj(vec![]))])),
                                ("invoke", arr(vec![n(1.0), obj(vec![("src", func(None))])])),
                            ]),
                        ),
                        ("d", unknown("a call of an unknown function")),
                        (
                            "e",
                            obj(vec![
                                ("on", s("not an object")),
                                ("entry", n(2.0)),
                                ("invoke", obj(vec![("src", s("odd")), ("input", func(None))])),
                            ]),
                        ),
                    ]),
                ),
            ]),
        );
        let low = lower_machine(&v);
        let m = low.machine.as_ref().expect("lowering goes on");
        assert_eq!(m.states.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(), ["", "a", "c", "x", "e"]);
        let kinds: Vec<FaultKind> = low.faults.iter().map(|f| f.kind).collect();
        for kind in [
            FaultKind::UnknownInvokeSrc,
            FaultKind::NotObject,
            FaultKind::NotStatic,
            FaultKind::UnknownTarget,
            FaultKind::MissingInitial,
            FaultKind::UnknownInitial,
            FaultKind::InlineSrc,
            FaultKind::UnknownActor,
            FaultKind::NotLowered,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} in {kinds:?}");
        }
        insta::assert_json_snapshot!("faults_ir", lowered(&v));
    }

    #[test]
    fn not_a_machine() {
        reset();
        assert_eq!(lowered(&s("x"))["faults"][0]["code"], "not-machine");
        assert_eq!(lowered(&kit("workspace", vec![]))["faults"][0]["code"], "not-machine");
        let v = machine(obj(vec![]), arr(vec![]));
        let low = lower_machine(&v);
        assert!(low.machine.is_none());
        assert_eq!(low.faults[0].kind, FaultKind::NotObject);
        // customize(workspace(body)) unwraps to the body.
        let wrapped = kit("customize", vec![kit("workspace", vec![notes(), obj(vec![])]), obj(vec![])]);
        assert_eq!(lower_machine(&wrapped).machine.unwrap().id, "notes");
    }

    #[test]
    fn from_pick_input() {
        reset();
        let post = event("post_note", "Post a note.", &["text"]);
        let v = machine(
            obj(vec![("actors", obj(vec![("note", kit("http", vec![obj(vec![("method", s("POST"))])]))]))]),
            obj(vec![
                ("id", s("note")),
                ("initial", s("posting")),
                (
                    "states",
                    obj(vec![(
                        "posting",
                        obj(vec![(
                            "invoke",
                            obj(vec![
                                ("src", s("note")),
                                (
                                    "input",
                                    kit(
                                        "fromPick",
                                        vec![post, func(Some(eobj(vec![("ticket", r("context.ticket"))])))],
                                    ),
                                ),
                            ]),
                        )]),
                    )]),
                ),
            ]),
        );
        let m = lower_machine(&v).machine.unwrap();
        let input = serde_json::to_value(&m.states[1].invokes[0].input).unwrap();
        assert_eq!(
            input,
            json!({"kind": "object", "value": [["text", {"kind": "ref", "value": {"root": "event", "path": ["text"]}}],
                                                ["ticket", {"kind": "ref", "value": {"root": "context", "path": ["ticket"]}}]]})
        );
        assert_eq!(m.slots["note"].effect.as_deref(), Some("http"));
    }
}
