//! The runtime's core: an IR Machine runs in memory with xstate v5's semantics.
//!
//! A run is data: a [`Snapshot`] (the active states, the context, each pending timer with its
//! deadline, each actor in flight) at every macrostep's end. [`Runtime::start`] and
//! [`Runtime::send`] are pure: from a snapshot, an event and the host's clock reading they give
//! the next snapshot and what the host is asked to do ([`Request`]: start or stop an actor,
//! schedule or cancel a timer). No clock is read and nothing is random, so a later step can commit
//! each macrostep and restore a run after a crash by loading its snapshot.
//!
//! The algorithm is xstate v5's (`packages/core/src/stateUtils.ts`), itself SCXML's: a macrostep
//! takes one event, then eventless transitions and the internal queue until neither has
//! anything; transitions are selected from each atomic state up, in document order, and
//! conflicting ones are removed (a transition from a deeper state wins, else the first); states
//! exit in reverse document order, the transitions' actions run, states enter in document order.
//! Reaching a final state raises `xstate.done.state.<id>` for its parent (and for a parallel state
//! whose regions are all final); a final state of the root ends the run `done`.
//!
//! What the IR does not carry yet runs as an error of the run, naming it: a named guard (its
//! implementation is code the IR does not hold), a named delay. Named actions other than `assign`
//! are the host's (none changes the context) and are not run here. History states, `raise` and
//! `sendTo` come with the IR that holds them.

use ir::eval::{evaluate, Scope};
use ir::{Action, Guard, Machine, SlotKind, StateId, StateKind, Trigger};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::{BTreeSet, VecDeque};

/// How many microsteps one macrostep may take before the run ends `error` (an eventless loop, a
/// state that raises its own done event for ever).
pub const DEFAULT_STEP_BOUND: usize = 10_000;

/// Where a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Done,
    Error,
}

/// A timer the run waits for: its event fires at `deadline` (the host's clock, in ms).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timer {
    /// The event it sends, `xstate.after.<delay>.<state id>`; also the timer's id.
    pub id: String,
    pub deadline: u64,
    pub state: StateId,
}

/// An actor the run invoked and the host runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Actor {
    pub id: String,
    pub src: String,
    pub kind: SlotKind,
    /// The state whose invoke it is: leaving it stops the actor.
    pub state: StateId,
}

/// A run at a macrostep's end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub status: Status,
    /// Every active state (atomic ones and their ancestors), in document order.
    pub configuration: Vec<StateId>,
    pub context: Value,
    pub timers: Vec<Timer>,
    pub actors: Vec<Actor>,
    /// Why the run ended `error`.
    pub error: Option<String>,
}

/// What the core asks of the host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "camelCase")]
pub enum Request {
    /// Start the actor of a slot; its outcome comes back as `xstate.done.actor.<id>` (with
    /// `output`) or `xstate.error.actor.<id>` (with `error`).
    Start {
        id: String,
        src: String,
        kind: SlotKind,
        input: Option<Value>,
    },
    Stop {
        id: String,
    },
    /// Send the event `id` back at `deadline`.
    Schedule {
        id: String,
        deadline: u64,
    },
    Cancel {
        id: String,
    },
}

/// Where a transition exits and enters (xstate's transition domain).
enum Domain {
    /// A targetless transition exits and enters nothing.
    Targetless,
    /// A re-entering transition of the root: no state contains it.
    Outside,
    /// The states below this one.
    In(StateId),
}

/// A macrostep's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub snapshot: Snapshot,
    pub requests: Vec<Request>,
}

/// A Machine, ready to run.
pub struct Runtime<'m> {
    machine: &'m Machine,
    /// Each state's transitions, in document order.
    by_source: Vec<Vec<usize>>,
    /// Each state's xstate id: its own `id`, else the machine's id and its path, dot-joined.
    node_ids: Vec<String>,
    /// Each state's key path from the root (`review.drafting`).
    paths: Vec<String>,
    pub step_bound: usize,
}

/// The mutable run inside one macrostep.
struct Run {
    config: BTreeSet<StateId>,
    context: Value,
    timers: Vec<Timer>,
    actors: Vec<Actor>,
    status: Status,
    error: Option<String>,
    internal: VecDeque<Value>,
    requests: Vec<Request>,
    now: u64,
}

impl<'m> Runtime<'m> {
    pub fn new(machine: &'m Machine) -> Self {
        let mut by_source = vec![Vec::new(); machine.states.len()];
        for (i, t) in machine.transitions.iter().enumerate() {
            if let Some(list) = by_source.get_mut(t.source.index()) {
                list.push(i);
            }
        }
        let mut paths: Vec<String> = Vec::with_capacity(machine.states.len());
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
        Runtime { machine, by_source, node_ids, paths, step_bound: DEFAULT_STEP_BOUND }
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
        let set: BTreeSet<StateId> = snapshot.configuration.iter().copied().collect();
        self.atomic_of(&set)
    }

    fn atomic_of(&self, config: &BTreeSet<StateId>) -> Vec<StateId> {
        config.iter().copied().filter(|&s| !self.machine.state(s).children.iter().any(|c| config.contains(c))).collect()
    }

    /// The run's first macrostep: the initial context, the initial states entered.
    pub fn start(&self, input: Option<Value>, now: u64) -> Step {
        let mut context = self.machine.context.clone().map(Value::from).unwrap_or(Value::Object(Map::new()));
        if let (Some(input), Value::Object(map)) = (input.as_ref(), &mut context) {
            map.entry("input").or_insert_with(|| input.clone());
        }
        let mut run = Run {
            config: BTreeSet::new(),
            context,
            timers: Vec::new(),
            actors: Vec::new(),
            status: Status::Active,
            error: None,
            internal: VecDeque::new(),
            requests: Vec::new(),
            now,
        };
        let event = json!({ "type": "xstate.init", "input": input.unwrap_or(Value::Null) });
        let mut enter = BTreeSet::from([StateId::ROOT]);
        self.add_descendants(StateId::ROOT, &mut enter);
        let result = self.enter(&mut run, &enter, &event).and_then(|()| self.settle(&mut run, event));
        self.finish(run, result)
    }

    /// One macrostep: `event` (an object with a string `type`) and what follows it.
    pub fn send(&self, snapshot: &Snapshot, event: Value, now: u64) -> Step {
        let mut run = Run {
            config: snapshot.configuration.iter().copied().collect(),
            context: snapshot.context.clone(),
            timers: snapshot.timers.clone(),
            actors: snapshot.actors.clone(),
            status: snapshot.status,
            error: snapshot.error.clone(),
            internal: VecDeque::new(),
            requests: Vec::new(),
            now,
        };
        if run.status != Status::Active {
            return self.finish(run, Ok(()));
        }
        // An actor's outcome: it is done, whatever a transition makes of it.
        if let Some(ty) = event.get("type").and_then(Value::as_str) {
            for prefix in ["xstate.done.actor.", "xstate.error.actor."] {
                if let Some(id) = ty.strip_prefix(prefix) {
                    run.actors.retain(|a| a.id != id);
                }
            }
            if ty.starts_with("xstate.after.") {
                run.timers.retain(|t| t.id != ty);
            }
        }
        let result = self.select(&run, &event).and_then(|ts| {
            self.microstep(&mut run, &ts, &event)?;
            self.settle(&mut run, event)
        });
        self.finish(run, result)
    }

    fn finish(&self, mut run: Run, result: Result<(), String>) -> Step {
        if let Err(e) = result {
            run.status = Status::Error;
            run.error = Some(e);
        }
        if run.status != Status::Active {
            // A run that ended stops what it started and waits for nothing.
            for a in std::mem::take(&mut run.actors) {
                run.requests.push(Request::Stop { id: a.id });
            }
            for t in std::mem::take(&mut run.timers) {
                run.requests.push(Request::Cancel { id: t.id });
            }
        }
        let requests = cancel_pairs(run.requests);
        Step {
            snapshot: Snapshot {
                status: run.status,
                configuration: run.config.into_iter().collect(),
                context: run.context,
                timers: run.timers,
                actors: run.actors,
                error: run.error,
            },
            requests,
        }
    }

    /// Eventless transitions and the internal queue, until neither has anything.
    fn settle(&self, run: &mut Run, mut event: Value) -> Result<(), String> {
        let mut steps = 0usize;
        while run.status == Status::Active {
            let mut ts = self.select_eventless(run, &event)?;
            if ts.is_empty() {
                let Some(next) = run.internal.pop_front() else { break };
                event = next;
                ts = self.select(run, &event)?;
            }
            steps += 1;
            if steps > self.step_bound {
                let from: Vec<String> = ts.iter().map(|&t| self.name(self.machine.transitions[t].source)).collect();
                return Err(format!(
                    "the run took more than {} microsteps in one macrostep (a loop of eventless transitions or internal events, last from {})",
                    self.step_bound,
                    from.join(", ")
                ));
            }
            self.microstep(run, &ts, &event)?;
        }
        Ok(())
    }

    /// The transitions an event enables, conflicts removed: xstate's `transitionNode` from the
    /// root down the configuration. A state's own transitions are tried only where nothing below
    /// it took the event, and a parallel state's only where none of its regions did (so, unlike
    /// SCXML, one region's transition keeps its siblings from reaching the ancestors' ones).
    fn select(&self, run: &Run, event: &Value) -> Result<Vec<usize>, String> {
        let Some(ty) = event.get("type").and_then(Value::as_str) else {
            return Err(format!("an event has no string `type`: {event}"));
        };
        let enabled = self.transition_node(StateId::ROOT, run, event, ty)?;
        Ok(self.remove_conflicts(&run.config, enabled))
    }

    fn transition_node(&self, s: StateId, run: &Run, event: &Value, ty: &str) -> Result<Vec<usize>, String> {
        let st = self.machine.state(s);
        let below = match st.kind {
            StateKind::Atomic | StateKind::Final | StateKind::History => Vec::new(),
            StateKind::Compound => match st.children.iter().find(|c| run.config.contains(c)) {
                Some(&child) => self.transition_node(child, run, event, ty)?,
                None => Vec::new(),
            },
            StateKind::Parallel => {
                let mut all = Vec::new();
                for &region in st.children.iter().filter(|c| run.config.contains(c)) {
                    all.extend(self.transition_node(region, run, event, ty)?);
                }
                all
            }
        };
        if !below.is_empty() {
            return Ok(below);
        }
        Ok(self.next(s, run, event, ty)?.into_iter().collect())
    }

    /// xstate's `StateNode.next`: the first of a state's candidates for the event whose guard
    /// passes. The candidates are the transitions on the event's own type; where there are none,
    /// those of the wildcard descriptors that match it, the longest descriptor first.
    fn next(&self, s: StateId, run: &Run, event: &Value, ty: &str) -> Result<Option<usize>, String> {
        let own = &self.by_source[s.index()];
        let exact: Vec<usize> = own
            .iter()
            .copied()
            .filter(|&t| match &self.machine.transitions[t].trigger {
                Trigger::Event(name) => name == ty,
                Trigger::Always => false,
                other => self.matches(s, other, ty),
            })
            .collect();
        let candidates = if exact.is_empty() {
            let mut wild: Vec<(usize, usize)> = own
                .iter()
                .copied()
                .filter_map(|t| match &self.machine.transitions[t].trigger {
                    Trigger::Event(name) if name != ty && matches_descriptor(ty, name) => Some((name.len(), t)),
                    _ => None,
                })
                .collect();
            // Stable: among descriptors of one length, in the order written.
            wild.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
            wild.into_iter().map(|(_, t)| t).collect()
        } else {
            exact
        };
        for t in candidates {
            let pass = match &self.machine.transitions[t].guard {
                None => true,
                Some(g) => self.guard(g, &run.context, event)?,
            };
            if pass {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// The eventless transitions enabled, conflicts removed: xstate's
    /// `selectEventlessTransitions`, from each atomic state up, in document order.
    fn select_eventless(&self, run: &Run, event: &Value) -> Result<Vec<usize>, String> {
        let fits = |trigger: &Trigger| matches!(trigger, Trigger::Always);
        let mut enabled: Vec<usize> = Vec::new();
        for atomic in self.atomic_of(&run.config) {
            'up: for s in std::iter::once(atomic).chain(self.machine.ancestors(atomic)) {
                for &t in &self.by_source[s.index()] {
                    let tr = &self.machine.transitions[t];
                    if !fits(&tr.trigger) {
                        continue;
                    }
                    let pass = match &tr.guard {
                        None => true,
                        Some(g) => self.guard(g, &run.context, event)?,
                    };
                    if pass {
                        if !enabled.contains(&t) {
                            enabled.push(t);
                        }
                        break 'up;
                    }
                }
            }
        }
        Ok(self.remove_conflicts(&run.config, enabled))
    }

    /// Does a transition of state `s` with this trigger take an event of type `ty`?
    fn matches(&self, s: StateId, trigger: &Trigger, ty: &str) -> bool {
        match trigger {
            Trigger::Event(name) => matches_descriptor(ty, name),
            Trigger::After(delay) => ty == self.after_id(s, delay),
            Trigger::InvokeDone(i) => ty.strip_prefix("xstate.done.actor.") == Some(self.invoke_id(s, *i).as_str()),
            Trigger::InvokeError(i) => ty.strip_prefix("xstate.error.actor.") == Some(self.invoke_id(s, *i).as_str()),
            Trigger::StateDone => ty.strip_prefix("xstate.done.state.") == Some(self.node_ids[s.index()].as_str()),
            Trigger::Always | Trigger::HistoryDefault | Trigger::Initial => false,
        }
    }

    fn after_id(&self, s: StateId, delay: &str) -> String {
        format!("xstate.after.{delay}.{}", self.node_ids[s.index()])
    }

    /// An invoke's actor id: its `id`, else xstate's `<state id>:invocation[<i>]`.
    fn invoke_id(&self, s: StateId, i: usize) -> String {
        match self.machine.state(s).invokes.get(i).and_then(|inv| inv.id.as_ref()) {
            Some(id) => id.to_string(),
            None => format!("{}:invocation[{i}]", self.node_ids[s.index()]),
        }
    }

    // The context and the event are for the guards the IR will hold as expressions (issue 20).
    #[allow(clippy::only_used_in_recursion)]
    fn guard(&self, g: &Guard, context: &Value, event: &Value) -> Result<bool, String> {
        Ok(match g {
            Guard::Not { guard } => !self.guard(guard, context, event)?,
            Guard::And { guards } => {
                for g in guards {
                    if !self.guard(g, context, event)? {
                        return Ok(false);
                    }
                }
                true
            }
            Guard::Or { guards } => {
                for g in guards {
                    if self.guard(g, context, event)? {
                        return Ok(true);
                    }
                }
                false
            }
            Guard::Named { name, .. } => {
                return Err(format!("the guard {name:?} is code the IR does not hold, so this run cannot evaluate it"))
            }
            Guard::Expr { expr } => value_of(expr, context, event)?.is_some_and(|v| truthy(&v)),
            Guard::SentBy { id } => {
                return Err(format!(
                    "the guard jr2.sentBy({id:?}) needs the Turn's sender, which this run does not know"
                ))
            }
        })
    }

    /// The states a transition exits (none for a targetless one), xstate's `computeExitSet`.
    fn exit_set(&self, config: &BTreeSet<StateId>, t: usize) -> BTreeSet<StateId> {
        let tr = &self.machine.transitions[t];
        match self.domain(t) {
            Domain::Targetless => BTreeSet::new(),
            // A re-entering transition of the root: xstate exits nothing (and enters the root again).
            Domain::Outside => BTreeSet::new(),
            Domain::In(domain) => {
                let mut out: BTreeSet<StateId> =
                    config.iter().copied().filter(|&s| self.is_descendant(s, domain)).collect();
                if tr.reenter && tr.source == domain {
                    out.insert(domain);
                }
                out
            }
        }
    }

    /// Is `a` a proper descendant of `b`?
    fn is_descendant(&self, a: StateId, b: StateId) -> bool {
        a != b && self.machine.is_ancestor_or_self(b, a)
    }

    /// xstate's `getTransitionDomain`: the state whose descendants the transition exits and
    /// enters.
    fn domain(&self, t: usize) -> Domain {
        let tr = &self.machine.transitions[t];
        if tr.targets.is_empty() {
            return Domain::Targetless;
        }
        if !tr.reenter && tr.targets.iter().all(|&x| x == tr.source || self.is_descendant(x, tr.source)) {
            return Domain::In(tr.source);
        }
        // The least common ancestor of the targets and the source: a proper ancestor of the first
        // target that holds the rest below it.
        let head = tr.targets[0];
        let rest: Vec<StateId> = tr.targets[1..].iter().copied().chain(std::iter::once(tr.source)).collect();
        match self.machine.ancestors(head).find(|&a| rest.iter().all(|&s| self.is_descendant(s, a))) {
            Some(lca) => Domain::In(lca),
            None if tr.reenter => Domain::Outside,
            None => Domain::In(StateId::ROOT),
        }
    }

    /// xstate's `removeConflictingTransitions`.
    fn remove_conflicts(&self, config: &BTreeSet<StateId>, enabled: Vec<usize>) -> Vec<usize> {
        let mut kept: Vec<usize> = Vec::new();
        for t1 in enabled {
            let exit1 = self.exit_set(config, t1);
            let mut preempted = false;
            let mut remove = Vec::new();
            for &t2 in &kept {
                let exit2 = self.exit_set(config, t2);
                if exit1.intersection(&exit2).next().is_some() {
                    let (s1, s2) = (self.machine.transitions[t1].source, self.machine.transitions[t2].source);
                    if self.is_descendant(s1, s2) {
                        remove.push(t2);
                    } else {
                        preempted = true;
                        break;
                    }
                }
            }
            if !preempted {
                kept.retain(|t| !remove.contains(t));
                kept.push(t1);
            }
        }
        kept
    }

    /// What entering a state enters below it (xstate's `addDescendantStatesToEnter`; the state
    /// itself is its caller's to add).
    fn add_descendants(&self, s: StateId, out: &mut BTreeSet<StateId>) {
        let st = self.machine.state(s);
        match st.kind {
            StateKind::Compound => {
                if let Some(initial) = st.initial.or_else(|| st.children.first().copied()) {
                    out.insert(initial);
                    self.add_descendants(initial, out);
                    self.add_ancestors(&self.proper_ancestors(initial, Some(s)), None, out);
                }
            }
            StateKind::Parallel => self.add_regions(s, out),
            StateKind::Atomic | StateKind::Final | StateKind::History => {}
        }
    }

    /// Each region of a parallel state that nothing entered yet, with what it enters.
    fn add_regions(&self, s: StateId, out: &mut BTreeSet<StateId>) {
        for &c in &self.machine.state(s).children {
            if !out.iter().any(|&x| self.is_descendant(x, c)) {
                out.insert(c);
                self.add_descendants(c, out);
            }
        }
    }

    /// The ancestors of `s` up to `to` (not included; all of them when `to` is `None`), nearest
    /// first: xstate's `getProperAncestors`.
    fn proper_ancestors(&self, s: StateId, to: Option<StateId>) -> Vec<StateId> {
        if to == Some(s) {
            return Vec::new();
        }
        self.machine.ancestors(s).take_while(|&a| Some(a) != to).collect()
    }

    /// xstate's `addAncestorStatesToEnter`: each ancestor inside the re-entrancy domain (all, with
    /// none), and each parallel one's regions that nothing entered yet.
    fn add_ancestors(&self, ancestors: &[StateId], domain: Option<StateId>, out: &mut BTreeSet<StateId>) {
        for &a in ancestors {
            if domain.is_none_or(|d| self.is_descendant(a, d)) {
                out.insert(a);
            }
            if self.machine.state(a).kind == StateKind::Parallel {
                self.add_regions(a, out);
            }
        }
    }

    /// One microstep: exit, the transitions' actions, enter.
    fn microstep(&self, run: &mut Run, ts: &[usize], event: &Value) -> Result<(), String> {
        if ts.is_empty() {
            return Ok(());
        }
        let mut exit = BTreeSet::new();
        for &t in ts {
            exit.extend(self.exit_set(&run.config, t));
        }
        for &s in exit.iter().rev() {
            self.actions(run, &self.machine.state(s).exit, event)?;
            for a in run.actors.iter().filter(|a| a.state == s) {
                run.requests.push(Request::Stop { id: a.id.clone() });
            }
            run.actors.retain(|a| a.state != s);
            for t in run.timers.iter().filter(|t| t.state == s) {
                run.requests.push(Request::Cancel { id: t.id.clone() });
            }
            run.timers.retain(|t| t.state != s);
            run.config.remove(&s);
        }
        for &t in ts {
            self.actions(run, &self.machine.transitions[t].actions, event)?;
        }
        // xstate's `computeEntrySet`.
        let mut enter = BTreeSet::new();
        for &t in ts {
            let tr = &self.machine.transitions[t];
            let domain = match self.domain(t) {
                Domain::Targetless => continue,
                Domain::Outside => None,
                Domain::In(d) => Some(d),
            };
            for &target in &tr.targets {
                // A transition to its own source that does not re-enter it enters only below it.
                if tr.source != target || domain != Some(tr.source) || tr.reenter {
                    enter.insert(target);
                }
                self.add_descendants(target, &mut enter);
            }
            for &target in &tr.targets {
                let mut ancestors = self.proper_ancestors(target, domain);
                if let Some(d) = domain.filter(|&d| self.machine.state(d).kind == StateKind::Parallel) {
                    ancestors.push(d);
                }
                let reentrancy = if tr.source == StateId::ROOT && tr.reenter { None } else { domain };
                self.add_ancestors(&ancestors, reentrancy, &mut enter);
            }
        }
        self.enter(run, &enter, event)
    }

    /// Enters states in document order: entry actions, invokes, timers, done events.
    fn enter(&self, run: &mut Run, enter: &BTreeSet<StateId>, event: &Value) -> Result<(), String> {
        let mut completed = BTreeSet::new();
        for &s in enter {
            run.config.insert(s);
            let st = self.machine.state(s);
            self.actions(run, &st.entry, event)?;
            for (i, inv) in st.invokes.iter().enumerate() {
                let id = self.invoke_id(s, i);
                let input = match &inv.input {
                    Some(e) => value_of(e, &run.context, event)?,
                    None => None,
                };
                run.requests.push(Request::Start { id: id.clone(), src: inv.src.to_string(), kind: inv.kind, input });
                run.actors.push(Actor { id, src: inv.src.to_string(), kind: inv.kind, state: s });
            }
            for &t in &self.by_source[s.index()] {
                if let Trigger::After(delay) = &self.machine.transitions[t].trigger {
                    let id = self.after_id(s, delay);
                    if run.timers.iter().any(|x| x.id == id) {
                        continue;
                    }
                    let ms = delay_ms(delay).ok_or_else(|| {
                        format!("the delay {delay:?} of state {:?} is not a duration (a named delay is code the IR does not hold)", self.name(s))
                    })?;
                    let deadline = run.now.saturating_add(ms);
                    run.requests.push(Request::Schedule { id: id.clone(), deadline });
                    run.timers.push(Timer { id, deadline, state: s });
                }
            }
            if st.kind == StateKind::Final {
                let Some(parent) = st.parent else {
                    run.status = Status::Done;
                    continue;
                };
                let p = self.machine.state(parent);
                let mut marker = if p.kind == StateKind::Parallel { Some(parent) } else { p.parent };
                if p.kind == StateKind::Compound {
                    run.internal
                        .push_back(json!({ "type": format!("xstate.done.state.{}", self.node_ids[parent.index()]) }));
                }
                while let Some(m) = marker {
                    if self.machine.state(m).kind != StateKind::Parallel
                        || completed.contains(&m)
                        || !self.in_final(&run.config, m)
                    {
                        break;
                    }
                    completed.insert(m);
                    run.internal
                        .push_back(json!({ "type": format!("xstate.done.state.{}", self.node_ids[m.index()]) }));
                    marker = self.machine.state(m).parent;
                }
                if marker.is_none() {
                    run.status = Status::Done;
                }
            }
        }
        Ok(())
    }

    /// Is a compound or parallel state in its final state (xstate's `isInFinalState`)?
    fn in_final(&self, config: &BTreeSet<StateId>, s: StateId) -> bool {
        let st = self.machine.state(s);
        match st.kind {
            StateKind::Compound => {
                st.children.iter().any(|&c| config.contains(&c) && self.machine.state(c).kind == StateKind::Final)
            }
            StateKind::Parallel => st.children.iter().all(|&c| self.in_final(config, c)),
            StateKind::Final => true,
            StateKind::Atomic | StateKind::History => false,
        }
    }

    fn actions(&self, run: &mut Run, actions: &[Action], event: &Value) -> Result<(), String> {
        for a in actions {
            if let Action::Assign { updates } = a {
                // xstate's assign: every update reads the context as it was before this assign.
                let before = run.context.clone();
                let mut values = Vec::with_capacity(updates.len());
                for (key, e) in updates {
                    values.push((key.to_string(), value_of(e, &before, event)?));
                }
                if !run.context.is_object() {
                    run.context = Value::Object(Map::new());
                }
                if let Value::Object(map) = &mut run.context {
                    for (key, v) in values {
                        // `undefined` is a property with no JSON value: it is left out.
                        match v {
                            Some(v) => map.insert(key, v),
                            None => map.remove(&key),
                        };
                    }
                }
            }
        }
        Ok(())
    }
}

/// An expression's value over the context and the event (`None`: `undefined`).
fn value_of(e: &ir::Expr, context: &Value, event: &Value) -> Result<Option<Value>, String> {
    let scope = Scope::new(Some(context), Some(event), None);
    evaluate(e, &scope).map(|v| v.to_json()).map_err(|e| e.to_string())
}

/// JavaScript's truthiness of a JSON value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// xstate v5's event descriptor match: the type itself, `*`, or a prefix ending in `.*`.
pub fn matches_descriptor(ty: &str, descriptor: &str) -> bool {
    if descriptor == ty || descriptor == "*" {
        return true;
    }
    let Some(prefix) = descriptor.strip_suffix(".*") else { return false };
    let mut tokens = ty.split('.');
    for want in prefix.split('.') {
        if tokens.next() != Some(want) {
            return false;
        }
    }
    true
}

/// A delay written as a duration: milliseconds (`1000`), or a number with `ms`, `s`, `m` or `h`.
pub fn delay_ms(delay: &str) -> Option<u64> {
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

/// A start and a stop of one actor (or a schedule and a cancel of one timer) in one macrostep ask
/// the host for nothing: both go.
fn cancel_pairs(requests: Vec<Request>) -> Vec<Request> {
    let mut out: Vec<Request> = Vec::with_capacity(requests.len());
    for r in requests {
        let undone = match &r {
            Request::Stop { id } => out.iter().rposition(|x| matches!(x, Request::Start { id: i, .. } if i == id)),
            Request::Cancel { id } => out.iter().rposition(|x| matches!(x, Request::Schedule { id: i, .. } if i == id)),
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

#[cfg(test)]
mod tests;
