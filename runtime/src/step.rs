//! A macrostep's algorithm: selecting transitions, the exit and entry sets (with history),
//! microsteps, done events. xstate v5's `stateUtils.ts`, function by function where the names
//! say so.

use super::set::StateSet;
use super::{Ev, Kind, Queued, Request, Run, Runtime, Status, Timer};
use ir::{Guard, StateId, StateKind, Trigger};

/// Where a transition exits and enters (xstate's transition domain).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Domain {
    /// A targetless transition exits and enters nothing.
    Targetless,
    /// A re-entering transition of the root: no state contains it.
    Outside,
    /// The states below this one.
    In(StateId),
}

/// Content to run after a state's own entry actions: its `<initial>` transition's, or the
/// default transition's of a history state below it (SCXML's `defaultHistoryContent`).
pub(crate) type Defaults = Vec<(StateId, usize)>;

/// A few states, in place.
type Nodes = smallvec::SmallVec<[StateId; 16]>;

/// Orders a JavaScript object's keys as `Object.keys` gives them: integer-like keys first,
/// ascending, then the others in insertion order.
fn js_key_order<'a>(kids: &mut Nodes, key: impl Fn(StateId) -> &'a str) {
    let index = |k: &str| -> Option<u32> {
        let n: u32 = k.parse().ok()?;
        (n != u32::MAX && n.to_string() == k).then_some(n)
    };
    if kids.iter().any(|&k| index(key(k)).is_some()) {
        kids.sort_by_key(|&k| index(key(k)).map_or((1, 0), |n| (0, n)));
    }
}

impl Runtime<'_> {
    /// Eventless transitions and the internal queue, until neither has anything.
    pub(crate) fn settle(&self, run: &mut Run, mut ev: Ev<'_>) -> Result<(), String> {
        while run.status == Status::Active {
            let mut ts = self.select_eventless(run, &ev)?;
            if ts.is_empty() {
                let Some(next) = run.internal.pop_front() else { break };
                ev = self.ev(run, next);
                run.event = Some(ev.ty.clone());
                ts = self.select(run, &ev)?;
            }
            if run.budget == 0 {
                let from: Vec<String> = ts.iter().map(|&t| self.name(self.machine.transitions[t].source)).collect();
                return Err(format!(
                    "the run took more than {} microsteps in one macrostep (a loop of eventless transitions or internal events, last from {})",
                    self.step_bound,
                    if from.is_empty() { "none".to_string() } else { from.join(", ") }
                ));
            }
            run.budget -= 1;
            self.microstep(run, &ts, &ev)?;
        }
        Ok(())
    }

    /// The transitions an event enables, conflicts removed: xstate's `transitionNode` from the
    /// root down its state value. A state's own transitions are tried only where nothing below
    /// it took the event, and a parallel state's only where none of its regions did (so, unlike
    /// SCXML, one region's transition keeps its siblings from reaching the ancestors' ones).
    pub(crate) fn select(&self, run: &mut Run, ev: &Ev) -> Result<Vec<usize>, String> {
        if !ev.typed {
            return Err(format!("an event has no string `type`: {}", ev.value()));
        }
        let nodes = self.value_nodes(run);
        let mut enabled = Vec::new();
        self.transition_node(StateId::ROOT, &nodes, run, ev, &mut enabled)?;
        Ok(self.remove_conflicts(run, enabled))
    }

    /// The states xstate's state value is made of (`getStateValue` over the snapshot's nodes):
    /// the configuration in the order it was entered, closed as `getAllStateNodes` closes it.
    /// A configuration no statechart may be in arises inside a macrostep, where a history state
    /// enters what it remembers although the remembered states' ancestors are exited (xstate
    /// enters no ancestor above the history state's parent): `y`, without its region and
    /// parallel state. xstate's next selection then reads those ancestors as active, with their
    /// initial states where they have no active child, and so does this one.
    fn value_nodes(&self, run: &Run) -> Nodes {
        let mut nodes: Nodes = run.order.iter().copied().collect();
        if self.is_closed(&run.config) {
            return nodes;
        }
        let original = run.config.clone();
        let has_child = |s: StateId| self.machine.state(s).children.iter().any(|c| original.contains(c));
        // Descendants, over the nodes added meanwhile too (as a JavaScript `Set` is iterated).
        let mut i = 0;
        while i < nodes.len() {
            let s = nodes[i];
            let st = self.machine.state(s);
            match st.kind {
                // A compound state with no child among the original nodes: its initial states.
                StateKind::Compound if !has_child(s) => {
                    self.add_initial_nodes(s, &mut nodes);
                }
                StateKind::Parallel => {
                    for &c in &st.children {
                        if self.machine.state(c).kind != StateKind::History && !nodes.contains(&c) {
                            self.add_initial_nodes(c, &mut nodes);
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        // Ancestors.
        let mut i = 0;
        while i < nodes.len() {
            let mut m = self.machine.state(nodes[i]).parent;
            while let Some(p) = m {
                if !nodes.contains(&p) {
                    nodes.push(p);
                }
                m = self.machine.state(p).parent;
            }
            i += 1;
        }
        nodes
    }

    /// Is a configuration closed as `getAllStateNodes` closes one (each state's parent in it,
    /// each compound state with a child in it, each parallel state with all of its regions)?
    /// Every configuration between macrosteps is.
    fn is_closed(&self, config: &StateSet) -> bool {
        config.iter().all(|&s| {
            let st = self.machine.state(s);
            st.parent.is_none_or(|p| config.contains(&p))
                && match st.kind {
                    StateKind::Compound => st.children.iter().any(|c| config.contains(c)),
                    StateKind::Parallel => st
                        .children
                        .iter()
                        .all(|c| self.machine.state(*c).kind == StateKind::History || config.contains(c)),
                    _ => true,
                }
        })
    }

    /// xstate's `getInitialStateNodesWithTheirAncestors`: `s`, its initial states down to atomic
    /// ones (every region of a parallel one), each added to `nodes` where it is not there.
    fn add_initial_nodes(&self, s: StateId, nodes: &mut Nodes) {
        if !nodes.contains(&s) {
            nodes.push(s);
        }
        let st = self.machine.state(s);
        match st.kind {
            StateKind::Compound => {
                if let Some(first) = self.initial_child(s) {
                    self.add_initial_nodes(first, nodes);
                }
            }
            StateKind::Parallel => {
                for &c in &st.children {
                    if self.machine.state(c).kind != StateKind::History {
                        self.add_initial_nodes(c, nodes);
                    }
                }
            }
            _ => {}
        }
    }

    /// A compound state's initial state (its `<initial>`'s first target, else `initial`, else its
    /// first child that is not a history state).
    fn initial_child(&self, s: StateId) -> Option<StateId> {
        let st = self.machine.state(s);
        match self.defaults[s.index()] {
            Some(t) => self.machine.transitions[t].targets.first().copied(),
            None => st
                .initial
                .or_else(|| st.children.iter().copied().find(|&c| self.machine.state(c).kind != StateKind::History)),
        }
    }

    /// xstate's `transitionNode` of state `s` over the state value of `nodes`: its children there,
    /// in the order they were entered (a compound state whose first one is atomic reads only
    /// that one, its value being that child's key), each region's transitions in turn; the
    /// state's own where none of them took the event. The transitions go on `out`.
    fn transition_node(
        &self,
        s: StateId,
        nodes: &[StateId],
        run: &mut Run,
        ev: &Ev,
        out: &mut Vec<usize>,
    ) -> Result<(), String> {
        let st = self.machine.state(s);
        let before = out.len();
        if !st.children.is_empty() {
            let mut kids: Nodes = nodes.iter().copied().filter(|&n| self.machine.state(n).parent == Some(s)).collect();
            if st.kind == StateKind::Compound && kids.first().is_some_and(|&k| self.is_atomic(k)) {
                kids.truncate(1);
            }
            if kids.len() > 1 {
                js_key_order(&mut kids, |k| self.machine.state(k).key.as_ref());
            }
            for k in kids {
                self.transition_node(k, nodes, run, ev, out)?;
            }
        }
        if out.len() == before {
            out.extend(self.next(s, run, ev)?);
        }
        Ok(())
    }

    /// xstate's `isAtomicStateNode`: an atomic or a final state.
    pub(crate) fn is_atomic(&self, s: StateId) -> bool {
        matches!(self.machine.state(s).kind, StateKind::Atomic | StateKind::Final)
    }

    /// xstate's `StateNode.next`: the first of a state's candidates for the event whose guard
    /// passes. The candidates are the transitions on the event's own type; where there are none,
    /// those of the wildcard descriptors that match it, the longest descriptor first. (An SCXML
    /// document's are every matching descriptor's, in document order.)
    fn next(&self, s: StateId, run: &mut Run, ev: &Ev) -> Result<Option<usize>, String> {
        let own = &self.by_source[s.index()];
        let ty = ev.ty.as_str();
        if self.scxml {
            for &t in own {
                if self.matches(s, &self.machine.transitions[t].trigger, ty) && self.passes(run, t, ev)? {
                    return Ok(Some(t));
                }
            }
            return Ok(None);
        }
        // The transitions on the event's own type, in the order written, with no list made.
        let mut exact = false;
        for &t in own {
            let matched = match &self.machine.transitions[t].trigger {
                Trigger::Event(name) => name == ty,
                other => self.matches(s, other, ty),
            };
            if matched {
                exact = true;
                if self.passes(run, t, ev)? {
                    return Ok(Some(t));
                }
            }
        }
        if exact {
            return Ok(None);
        }
        let mut wild: Vec<(usize, usize)> = own
            .iter()
            .copied()
            .filter_map(|t| match &self.machine.transitions[t].trigger {
                Trigger::Event(name) if name != ty && super::matches_descriptor(ty, name) => Some((name.len(), t)),
                _ => None,
            })
            .collect();
        // Stable: among descriptors of one length, in the order written.
        wild.sort_by_key(|&(len, _)| std::cmp::Reverse(len));
        for (_, t) in wild {
            if self.passes(run, t, ev)? {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// Does transition `t`'s guard pass?
    fn passes(&self, run: &mut Run, t: usize, ev: &Ev) -> Result<bool, String> {
        match &self.machine.transitions[t].guard {
            None => Ok(true),
            Some(g) => self.guard(run, g, ev),
        }
    }

    /// The eventless transitions enabled, conflicts removed: xstate's
    /// `selectEventlessTransitions`, from each atomic state up, in document order.
    fn select_eventless(&self, run: &mut Run, ev: &Ev) -> Result<Vec<usize>, String> {
        let mut enabled: Vec<usize> = Vec::new();
        if !self.eventless {
            return Ok(enabled);
        }
        // xstate looks from the atomic states in the order its configuration holds them: the
        // order they were entered, not document order.
        let atomic: Nodes = run.order.iter().copied().filter(|&s| self.is_atomic(s)).collect();
        for atomic in atomic {
            'up: for s in std::iter::once(atomic).chain(self.machine.ancestors(atomic)) {
                for &t in &self.by_source[s.index()] {
                    if !matches!(self.machine.transitions[t].trigger, Trigger::Always) {
                        continue;
                    }
                    if self.passes(run, t, ev)? {
                        if !enabled.contains(&t) {
                            enabled.push(t);
                        }
                        break 'up;
                    }
                }
            }
        }
        Ok(self.remove_conflicts(run, enabled))
    }

    /// Does a transition of state `s` with this trigger take an event of type `ty`?
    fn matches(&self, s: StateId, trigger: &Trigger, ty: &str) -> bool {
        match trigger {
            // An SCXML document's descriptors too: its front end writes them as xstate's.
            Trigger::Event(name) => super::matches_descriptor(ty, name),
            Trigger::After(delay) => ty == self.after_id(s, delay),
            Trigger::InvokeDone(i) => {
                let id = self.invoke_id(s, *i);
                ty.strip_prefix("xstate.done.actor.") == Some(id.as_str())
                    || ty.strip_prefix("done.invoke.") == Some(id.as_str())
            }
            Trigger::InvokeError(i) => ty.strip_prefix("xstate.error.actor.") == Some(self.invoke_id(s, *i).as_str()),
            Trigger::StateDone => {
                let id = self.node_ids[s.index()].as_str();
                ty.strip_prefix("xstate.done.state.") == Some(id) || ty.strip_prefix("done.state.") == Some(id)
            }
            Trigger::Always | Trigger::HistoryDefault | Trigger::Initial => false,
        }
    }

    pub(crate) fn after_id(&self, s: StateId, delay: &str) -> String {
        format!("xstate.after.{delay}.{}", self.node_ids[s.index()])
    }

    /// An invoke's actor id: its `id`, else xstate 5's `createInvokeId`, `<i>.<state id>` (an
    /// SCXML document's is SCXML's `<state id>.<platform id>`, the platform id being `<i>`).
    pub(crate) fn invoke_id(&self, s: StateId, i: usize) -> String {
        match self.machine.state(s).invokes.get(i).and_then(|inv| inv.id.as_ref()) {
            Some(id) => id.to_string(),
            None if self.scxml => format!("{}.{i}", self.node_ids[s.index()]),
            None => format!("{i}.{}", self.node_ids[s.index()]),
        }
    }

    fn guard(&self, run: &mut Run, g: &Guard, ev: &Ev) -> Result<bool, String> {
        Ok(match g {
            Guard::Not { guard } => !self.guard(run, guard, ev)?,
            Guard::And { guards } => {
                for g in guards {
                    if !self.guard(run, g, ev)? {
                        return Ok(false);
                    }
                }
                true
            }
            Guard::Or { guards } => {
                for g in guards {
                    if self.guard(run, g, ev)? {
                        return Ok(true);
                    }
                }
                false
            }
            Guard::Expr { expr } => match self.eval(run, expr, ev) {
                Ok(v) => v.truthy(),
                // SCXML: a condition that cannot be evaluated is false, and raises
                // `error.execution`.
                Err(e) if self.scxml => {
                    self.raise_error(run, &e);
                    false
                }
                Err(e) => return Err(e),
            },
            // xstate's `evaluateGuard`: a named guard's implementation, with the reference's
            // params.
            Guard::Named { name, params } if self.machine.implementations.guards.contains_key(name.as_str()) => {
                let params = match params {
                    Some(e) => self.eval(run, e, ev)?,
                    None => ir::eval::JsValue::Undefined,
                };
                let saved = self.enter_implementation(run, "guard", name, params)?;
                let passes = self.guard(run, &self.machine.implementations.guards[name.as_str()], ev);
                self.leave_implementation(run, saved);
                passes?
            }
            // SCXML: a condition the front end could not lower cannot be evaluated: it is false,
            // and raises `error.execution`.
            Guard::Named { name, .. } if self.scxml => {
                self.raise_error(run, &format!("the condition {name:?} cannot be evaluated"));
                false
            }
            // A guard the host implements (a Chart's lent guard, the Open body's code): asked
            // of the host, with the reference's params; no answer ends the run.
            Guard::Named { name, params } => {
                let answer = match &self.host {
                    Some(host) => {
                        let params = match params {
                            Some(e) => Some(self.eval(run, e, ev)?),
                            None => None,
                        };
                        host.guard(&run.session, name, params.as_ref())
                    }
                    None => None,
                };
                match answer {
                    Some(b) => b,
                    None => {
                        return Err(format!(
                            "the guard {name:?} has no implementation in the IR (code jr2 could not lower, or none), so this run cannot evaluate it"
                        ))
                    }
                }
            }
            // The kit's `sentBy`: true for an event the party sent and for one with no sender
            // (the machine's own), false for another party's.
            Guard::SentBy { id } => ev.sender.as_ref().is_none_or(|sender| sender == id),
        })
    }

    /// xstate's `getEffectiveTargetStates`: a transition's targets with each history state
    /// replaced by what it remembers, or by its default's targets.
    fn effective_targets<'t>(&self, run: &Run, targets: &'t [StateId]) -> std::borrow::Cow<'t, [StateId]> {
        if targets.iter().all(|&t| self.machine.state(t).kind != StateKind::History) {
            return std::borrow::Cow::Borrowed(targets);
        }
        let mut out = Vec::new();
        let mut stack: Vec<StateId> = targets.iter().rev().copied().collect();
        // A bound on history defaults that name history states (a cycle of them is possible).
        let mut hops = 0usize;
        while let Some(s) = stack.pop() {
            if self.machine.state(s).kind != StateKind::History {
                if !out.contains(&s) {
                    out.push(s);
                }
                continue;
            }
            hops += 1;
            if hops > self.machine.states.len() {
                break;
            }
            stack.extend(self.history_targets(run, s).into_iter().rev());
        }
        std::borrow::Cow::Owned(out)
    }

    /// What entering a history state enters: what it remembers, else its default's targets,
    /// else its parent's initial state.
    fn history_targets(&self, run: &Run, h: StateId) -> Vec<StateId> {
        if let Some(states) = run.history.get(&h) {
            return states.clone();
        }
        if let Some(t) = self.defaults[h.index()] {
            return self.machine.transitions[t].targets.to_vec();
        }
        let parent = self.machine.state(h).parent.unwrap_or(StateId::ROOT);
        let p = self.machine.state(parent);
        p.initial
            .or_else(|| p.children.iter().copied().find(|&c| self.machine.state(c).kind != StateKind::History))
            .into_iter()
            .collect()
    }

    /// The states a transition exits (none for a targetless one), xstate's `computeExitSet`.
    fn exit_set(&self, run: &Run, t: usize) -> StateSet {
        let tr = &self.machine.transitions[t];
        match self.domain(run, t) {
            Domain::Targetless => StateSet::new(),
            // A re-entering transition of the root: xstate exits nothing (and enters the root again).
            Domain::Outside => StateSet::new(),
            Domain::In(domain) => {
                let mut out: StateSet = run.config.iter().copied().filter(|&s| self.is_descendant(s, domain)).collect();
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
    fn domain(&self, run: &Run, t: usize) -> Domain {
        let tr = &self.machine.transitions[t];
        if tr.targets.is_empty() {
            return Domain::Targetless;
        }
        let targets = self.effective_targets(run, &tr.targets);
        let Some(&head) = targets.first() else { return Domain::Targetless };
        if !tr.reenter && targets.iter().all(|&x| x == tr.source || self.is_descendant(x, tr.source)) {
            return Domain::In(tr.source);
        }
        // The least common ancestor of the targets and the source: a proper ancestor of the first
        // target that holds the rest below it.
        let rest = || targets[1..].iter().copied().chain(std::iter::once(tr.source));
        match self.machine.ancestors(head).find(|&a| rest().all(|s| self.is_descendant(s, a))) {
            Some(lca) => Domain::In(lca),
            None if tr.reenter => Domain::Outside,
            None => Domain::In(StateId::ROOT),
        }
    }

    /// xstate's `removeConflictingTransitions`.
    fn remove_conflicts(&self, run: &Run, enabled: Vec<usize>) -> Vec<usize> {
        if enabled.len() < 2 {
            return enabled;
        }
        let mut kept: Vec<usize> = Vec::new();
        for t1 in enabled {
            let exit1 = self.exit_set(run, t1);
            let mut preempted = false;
            let mut remove = Vec::new();
            for &t2 in &kept {
                let exit2 = self.exit_set(run, t2);
                if exit1.intersects(&exit2) {
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
    /// itself is its caller's to add). A compound state's `<initial>` transition's content is
    /// noted in `defaults`, to run after the state's entry.
    pub(crate) fn add_descendants(&self, run: &Run, s: StateId, out: &mut StateSet, defaults: &mut Defaults) {
        let st = self.machine.state(s);
        match st.kind {
            StateKind::Compound => {
                let targets = match self.defaults[s.index()] {
                    Some(t) => {
                        defaults.push((s, t));
                        self.machine.transitions[t].targets.to_vec()
                    }
                    None => st
                        .initial
                        .or_else(|| {
                            st.children.iter().copied().find(|&c| self.machine.state(c).kind != StateKind::History)
                        })
                        .into_iter()
                        .collect(),
                };
                // Every target (SCXML's initial may name one in each region of a parallel state
                // below) with what it enters, before any target's ancestors fill the regions that
                // nothing entered: xstate's history loops, SCXML's `addDescendantStatesToEnter`.
                for &target in &targets {
                    self.enter_target(run, target, out, defaults);
                }
                for &target in &targets {
                    self.add_ancestors(run, &self.proper_ancestors(target, Some(s)), None, out, defaults);
                }
            }
            StateKind::Parallel => self.add_regions(run, s, out, defaults),
            StateKind::Atomic | StateKind::Final | StateKind::History => {}
        }
    }

    /// A state entered as a target: itself and what it enters below it; a history state, what it
    /// remembers (or its default).
    fn enter_target(&self, run: &Run, t: StateId, out: &mut StateSet, defaults: &mut Defaults) {
        if self.machine.state(t).kind == StateKind::History {
            self.add_history(run, t, out, defaults);
        } else {
            out.insert(t);
            self.add_descendants(run, t, out, defaults);
        }
    }

    /// xstate's `addDescendantStatesToEnter` of a history state: each state it remembers (else its
    /// default's targets, whose content is noted to run after its parent's entry, else its
    /// parent's initial state) is entered, with the states between it and the history's parent.
    /// A remembered state is entered even where it is active and not exited, as xstate does.
    fn add_history(&self, run: &Run, h: StateId, out: &mut StateSet, defaults: &mut Defaults) {
        let parent = self.machine.state(h).parent;
        if !run.history.contains_key(&h) {
            if let (Some(d), Some(p)) = (self.defaults[h.index()], parent) {
                defaults.push((p, d));
            }
        }
        let states = self.history_targets(run, h);
        for &s in &states {
            if s != h {
                self.enter_target(run, s, out, defaults);
            }
        }
        for &s in &states {
            self.add_ancestors(run, &self.proper_ancestors(s, parent), None, out, defaults);
        }
    }

    /// Each region of a parallel state that nothing entered yet, with what it enters.
    fn add_regions(&self, run: &Run, s: StateId, out: &mut StateSet, defaults: &mut Defaults) {
        for &c in &self.machine.state(s).children {
            if self.machine.state(c).kind == StateKind::History {
                continue;
            }
            if !out.iter().any(|&x| x == c || self.is_descendant(x, c)) {
                out.insert(c);
                self.add_descendants(run, c, out, defaults);
            }
        }
    }

    /// The ancestors of `s` up to `to` (not included; all of them when `to` is `None`), nearest
    /// first: xstate's `getProperAncestors`.
    fn proper_ancestors(&self, s: StateId, to: Option<StateId>) -> Nodes {
        if to == Some(s) {
            return Nodes::new();
        }
        self.machine.ancestors(s).take_while(|&a| Some(a) != to).collect()
    }

    /// xstate's `addAncestorStatesToEnter`: each ancestor inside the re-entrancy domain (all, with
    /// none), and each parallel one's regions that nothing entered yet.
    fn add_ancestors(
        &self,
        run: &Run,
        ancestors: &[StateId],
        domain: Option<StateId>,
        out: &mut StateSet,
        defaults: &mut Defaults,
    ) {
        for &a in ancestors {
            if domain.is_none_or(|d| self.is_descendant(a, d)) {
                out.insert(a);
            }
            if self.machine.state(a).kind == StateKind::Parallel {
                self.add_regions(run, a, out, defaults);
            }
        }
    }

    /// One microstep: history recorded, exit, the transitions' actions, enter.
    pub(crate) fn microstep(&self, run: &mut Run, ts: &[usize], ev: &Ev) -> Result<(), String> {
        if ts.is_empty() {
            return Ok(());
        }
        let mut exit = StateSet::new();
        for &t in ts {
            exit.extend(&self.exit_set(run, t));
        }
        // xstate keeps its configuration's order where a microstep leaves the same states active
        // and records no history (it keeps the snapshot's node list), else the entry order.
        let before: (StateSet, Nodes) = (run.config.clone(), run.order.iter().copied().collect());
        let mut recorded = false;
        // xstate's `exitStates`: each history state of an exited state remembers, first.
        for &s in &exit {
            for &h in &self.histories[s.index()] {
                let deep = self.machine.state(h).history == Some(ir::HistoryKind::Deep);
                let remembered: Vec<StateId> = if deep {
                    run.config.iter().copied().filter(|&a| self.is_atomic(a) && self.is_descendant(a, s)).collect()
                } else {
                    run.config.iter().copied().filter(|&c| self.machine.state(c).parent == Some(s)).collect()
                };
                run.history.insert(h, remembered);
                recorded = true;
            }
        }
        for &s in exit.iter().rev() {
            self.block(run, &self.machine.state(s).exit, ev)?;
            for a in run.actors.iter().filter(|a| a.state == s) {
                Run::stopped(&mut run.requests, a);
            }
            run.actors.retain(|a| a.state != s);
            for t in run.timers.iter().filter(|t| t.state == Some(s)) {
                run.requests.push(Request::Cancel { id: t.id.clone(), incarnation: t.incarnation });
            }
            run.timers.retain(|t| t.state != Some(s));
            if !self.machine.state(s).invokes.is_empty() {
                self.stop_children(run, s);
            }
            run.remove(s);
        }
        for &t in ts {
            self.block(run, &self.machine.transitions[t].actions, ev)?;
        }
        // xstate's `computeEntrySet`.
        let mut enter = StateSet::new();
        let mut defaults = Defaults::new();
        for &t in ts {
            let tr = &self.machine.transitions[t];
            let domain = match self.domain(run, t) {
                Domain::Targetless => continue,
                Domain::Outside => None,
                Domain::In(d) => Some(d),
            };
            // xstate's `computeEntrySet`, over the targets as written: a history state enters what
            // it remembers (all of it, entered again even where active), any other state itself
            // and below it.
            for &target in &tr.targets {
                if self.machine.state(target).kind == StateKind::History {
                    self.add_history(run, target, &mut enter, &mut defaults);
                    continue;
                }
                // A transition to its own source that does not re-enter it enters only below it.
                if tr.source != target || domain != Some(tr.source) || tr.reenter {
                    enter.insert(target);
                }
                self.add_descendants(run, target, &mut enter, &mut defaults);
            }
            let targets = self.effective_targets(run, &tr.targets);
            for &target in targets.iter() {
                let mut ancestors = self.proper_ancestors(target, domain);
                if let Some(d) = domain.filter(|&d| self.machine.state(d).kind == StateKind::Parallel) {
                    ancestors.push(d);
                }
                let reentrancy = if tr.source == StateId::ROOT && tr.reenter { None } else { domain };
                self.add_ancestors(run, &ancestors, reentrancy, &mut enter, &mut defaults);
            }
        }
        self.enter(run, &enter, &defaults, ev)?;
        if !recorded && run.config == before.0 {
            run.order.clear();
            run.order.extend(before.1);
        }
        Ok(())
    }

    /// Enters states in document order: entry actions (then an `<initial>`'s or a history
    /// default's content), invokes, timers, done events.
    pub(crate) fn enter(&self, run: &mut Run, enter: &StateSet, defaults: &Defaults, ev: &Ev) -> Result<(), String> {
        let was_done = run.status == Status::Done;
        let mut completed = StateSet::new();
        for &s in enter {
            run.insert(s);
            let st = self.machine.state(s);
            self.block(run, &st.entry, ev)?;
            for &(_, t) in defaults.iter().filter(|(p, _)| *p == s) {
                self.block(run, &self.machine.transitions[t].actions, ev)?;
            }
            for (i, inv) in st.invokes.iter().enumerate() {
                let id = self.invoke_id(s, i);
                let Some(input) = self.invoke_input(run, inv, &id, ev)? else { continue };
                if self.start_child(run, s, i, input.clone(), ev)? {
                    continue;
                }
                self.start_actor(run, id, &inv.src, inv.kind, s, input);
            }
            for &t in &self.by_source[s.index()] {
                if let Trigger::After(delay) = &self.machine.transitions[t].trigger {
                    let id = self.after_id(s, delay);
                    if run.timers.iter().any(|x| x.id == id) {
                        continue;
                    }
                    let ms = match super::delay_ms(delay) {
                        Some(ms) => ms,
                        None => self.named_delay(run, delay, ev).unwrap_or_else(|| {
                            Err(format!("the delay {delay:?} of state {:?} is not a duration, and the Machine has no implementation of it", self.name(s)))
                        })?,
                    };
                    let deadline = run.now.saturating_add(ms);
                    run.set_timer(Timer {
                        id,
                        incarnation: 0,
                        deadline,
                        state: Some(s),
                        event: None,
                        to: None,
                        child: None,
                    });
                }
            }
            if st.kind == StateKind::Final {
                self.reached_final(run, s, ev, &mut completed)?;
            }
        }
        if !was_done && run.status == Status::Done {
            self.exit_all(run, ev)?;
        }
        Ok(())
    }

    /// The run is done: every active state's exit actions, in reverse document order (xstate's
    /// `microstep` once its snapshot is `done`; SCXML's `exitInterpreter`). The states stay the
    /// configuration.
    fn exit_all(&self, run: &mut Run, ev: &Ev) -> Result<(), String> {
        let active: Vec<StateId> = run.config.iter().copied().collect();
        for s in active.into_iter().rev() {
            self.block(run, &self.machine.state(s).exit, ev)?;
        }
        Ok(())
    }

    /// A final state was entered: its parent's done event (with the final state's output), each
    /// parallel ancestor's whose regions are all final now, and the run's end at the root.
    fn reached_final(&self, run: &mut Run, s: StateId, ev: &Ev, completed: &mut StateSet) -> Result<(), String> {
        let st = self.machine.state(s);
        let output = match &st.output {
            Some(e) => match self.eval(run, e, ev) {
                Ok(v) => v.to_json(),
                Err(e) if self.scxml => {
                    self.raise_error(run, &e);
                    None
                }
                Err(e) => return Err(e),
            },
            None => None,
        };
        let Some(parent) = st.parent else {
            return self.done(run, ev, None);
        };
        let p = self.machine.state(parent);
        let mut marker = if p.kind == StateKind::Parallel { Some(parent) } else { p.parent };
        if p.kind == StateKind::Compound {
            if p.parent.is_none() {
                return self.done(run, ev, output);
            }
            run.internal.push_back(Queued::new(self.done_event(parent, output), Kind::Platform));
        }
        while let Some(m) = marker {
            if self.machine.state(m).kind != StateKind::Parallel
                || completed.contains(&m)
                || !self.in_final(&run.config, m)
            {
                break;
            }
            completed.insert(m);
            if self.machine.state(m).parent.is_none() {
                return self.done(run, ev, None);
            }
            run.internal.push_back(Queued::new(self.done_event(m, None), Kind::Platform));
            marker = self.machine.state(m).parent;
        }
        Ok(())
    }

    /// The root reached a final state: the run is done, with the Machine's output.
    fn done(&self, run: &mut Run, ev: &Ev, final_output: Option<serde_json::Value>) -> Result<(), String> {
        run.status = Status::Done;
        if let Some(e) = &self.machine.output {
            let done = self.ev(run, Queued::new(self.done_event(StateId::ROOT, final_output), Kind::Platform));
            let _ = ev;
            run.output = self.eval(run, e, &done)?.to_json();
        }
        Ok(())
    }

    /// Is a compound or parallel state in its final state (xstate's `isInFinalState`)?
    fn in_final(&self, config: &StateSet, s: StateId) -> bool {
        let st = self.machine.state(s);
        match st.kind {
            StateKind::Compound => {
                st.children.iter().any(|&c| config.contains(&c) && self.machine.state(c).kind == StateKind::Final)
            }
            StateKind::Parallel => st
                .children
                .iter()
                .filter(|&&c| self.machine.state(c).kind != StateKind::History)
                .all(|&c| self.in_final(config, c)),
            StateKind::Final => true,
            StateKind::Atomic | StateKind::History => false,
        }
    }
}
