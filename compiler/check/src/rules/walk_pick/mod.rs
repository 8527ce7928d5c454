//! The walk's `party.ts` and `pick.ts` refusals, over Machines: one Agent slot active twice,
//! `sentBy` naming no party, pick params that nothing reads, the three `fromPick` refusals and an
//! `answer` below no Agent's state.
//!
//! Each rule reads the IR for the state tree and the evaluator's [`Value`]s for what the IR does
//! not keep: the place (file and span) of each value, functions and their [`Facts`], the pick
//! defs. [`Picks`] has both: the config value of an IR state, invoke or transition is the one
//! lowering made it from (`machine::lower::NodeValues`), and its place and path are in the
//! source map (a rule asks the IR first, and reads the values only where it may find
//! something).

use super::{Ctx, Sink};
use crate::compile::Located;
use crate::compile::Lowering;
use base::small_set::SmallSet;
use ir::expr::Root;
use ir::{self, Expr, SourceMap, StateId, StateKind, Trigger};
use machine::lower::{arg, is_call, items, MachineParts, NodeValues};
use machine::module::SourceFile;
use machine::value::{Callee, Facts, Loc, Value, ValueKind};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::rc::Rc;

family! {
    checks: Picks;
    slot_active_twice::SLOT_ACTIVE_TWICE => check,
    sent_by_unknown_party::SENT_BY_UNKNOWN_PARTY => check,
    unread_pick_param::UNREAD_PICK_PARAM => check,
    unprobed_mapper::UNPROBED_INPUT_MAPPER, // reported by unread-pick-param's pass
    from_pick_unknown_key::FROM_PICK_UNKNOWN_KEY => check,
    from_pick_fill_sets_param::FROM_PICK_FILL_SETS_PARAM => check,
    from_pick_other_event::FROM_PICK_OTHER_EVENT => check,
    answer_below_no_agent::ANSWER_BELOW_NO_AGENT => check,
}

/// Runs every rule over a lowered Machine.
pub fn check(lowering: &Lowering<'_>) -> Vec<Located> {
    let cx = Ctx::new(Picks::new(lowering));
    let mut sink = Sink::default();
    for check in CHECKS {
        check(&cx, &mut sink);
    }
    sink.into_located()
}

/// An event of the setup's `events`: its name, its def object, and its pick once read.
type EventPick<'v> = (&'v str, &'v Value<'v>, OnceCell<Option<Rc<Pick<'v>>>>);

/// A lowered Machine beside its values: each IR state, invoke and transition with the value
/// lowering made it from ([`NodeValues`]), and its place and path ([`SourceMap`]).
pub(crate) struct Picks<'v> {
    pub m: &'v ir::Statechart,
    pub map: &'v SourceMap,
    pub parts: &'v MachineParts<'v>,
    values: &'v NodeValues<'v>,
    /// The files of the compilation, by `FileId`: for a fix's edits.
    pub files: &'v [SourceFile],
    /// The picks of the setup's `events`, read once: each name (its first `defineEvent`), its
    /// def object, and its pick where its `input` is a `z.object` the analysis can read.
    picks: Vec<EventPick<'v>>,
    /// Every `fromPick` input of an Effect invoke, found once for the rules that read them.
    from_picks: OnceCell<Vec<FromPick<'v>>>,
    /// What a transition to each state enters (see [`Picks::entered`]), every state's found at once
    /// into one list, state after state: two allocations, not one per state asked.
    entered: Vec<StateId>,
    /// Where each state's run starts in `entered`, by [`StateId`], and where the last one ends.
    entered_at: Vec<u32>,
    /// The transitions to each state (see [`Picks::incoming`]), found when first asked.
    incoming: OnceCell<(Vec<u32>, Vec<u32>)>,
}

impl<'v> Picks<'v> {
    pub(crate) fn new(lowering: &Lowering<'v>) -> Picks<'v> {
        let Lowering { parts, machine: m, map, values, files } = *lowering;
        let mut picks: Vec<EventPick> = Vec::new();
        let events = parts.setup.and_then(|s| s.get("events")).and_then(Value::as_array).unwrap_or_default();
        for item in events {
            let Some(def) = arg(item, 0).filter(|_| is_call(item, "defineEvent")) else { continue };
            let Some(name) = def.get("name").and_then(Value::as_str) else { continue };
            if picks.iter().all(|(n, _, _)| *n != name) {
                picks.push((name, def, OnceCell::new()));
            }
        }
        let (entered, entered_at) = entering(m);
        Picks {
            m,
            map,
            parts,
            values,
            files,
            picks,
            from_picks: OnceCell::new(),
            entered,
            entered_at,
            incoming: OnceCell::new(),
        }
    }

    /// A state's config value.
    pub(crate) fn state_value(&self, s: StateId) -> Option<&'v Value<'v>> {
        self.values.state(s)
    }

    /// A state's `entry` (one action or a list), as written.
    pub(crate) fn entry(&self, s: StateId) -> Option<&'v Value<'v>> {
        self.state_value(s)?.get("entry")
    }

    /// A state's `exit` (one action or a list), as written.
    pub(crate) fn exit(&self, s: StateId) -> Option<&'v Value<'v>> {
        self.state_value(s)?.get("exit")
    }

    /// A state's id as xstate gives it: its own `id`, or the Machine's id and the keys down to it.
    pub(crate) fn node_id(&self, sid: StateId) -> Cow<'v, str> {
        if sid == StateId::ROOT {
            return Cow::Borrowed(&self.m.id);
        }
        let st = self.m.state(sid);
        if let Some(id) = &st.id {
            return Cow::Borrowed(id);
        }
        // The keys from the root down, written straight into one String sized first (no list of
        // the keys): `m.coding.ready`.
        let len: usize = std::iter::once(sid)
            .chain(self.m.ancestors(sid))
            .filter(|s| *s != StateId::ROOT)
            .map(|s| self.m.state(s).key.len() + 1)
            .sum();
        let mut out = String::with_capacity(self.m.id.len() + len);
        out.push_str(&self.m.id);
        push_keys(self.m, sid, &mut out);
        Cow::Owned(out)
    }

    /// The states a transition to `target` enters below it: the target, then the initial states
    /// down from it (every region of a parallel state).
    pub(crate) fn entered(&self, target: StateId) -> &[StateId] {
        let i = target.index();
        match (self.entered_at.get(i), self.entered_at.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.entered[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The transitions that name `target` among their targets (indices into `m.transitions`), in
    /// order: every state's found at once into one list, state after state.
    pub(crate) fn incoming(&self, target: StateId) -> &[u32] {
        let (list, at) = self.incoming.get_or_init(|| {
            let ts = &self.m.transitions;
            // Counted first, then each placed at its state's next free place.
            let n = self.m.states.len();
            let targets = || ts.iter().enumerate().flat_map(|(ti, t)| t.targets.iter().map(move |x| (ti, x.index())));
            let mut at = vec![0u32; n + 1];
            for (_, x) in targets().filter(|&(_, x)| x < n) {
                at[x + 1] += 1;
            }
            for i in 1..at.len() {
                at[i] += at[i - 1];
            }
            let mut next = at.clone();
            let mut list = vec![0u32; at.last().map_or(0, |&n| n as usize)];
            for (ti, x) in targets().filter(|&(_, x)| x < n) {
                list[next[x] as usize] = ti as u32;
                next[x] += 1;
            }
            (list, at)
        });
        let i = target.index();
        match (at.get(i), at.get(i + 1)) {
            (Some(&a), Some(&b)) => &list[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The value of the IR transition `ti` (its index in `m.transitions`).
    pub(crate) fn transition(&self, ti: usize) -> Option<&'v Value<'v>> {
        self.values.transition(ti)
    }

    /// A state's `k`-th invoke item (the object lowering made its `k`-th IR invoke from).
    pub(crate) fn invoke(&self, s: StateId, k: usize) -> Option<&'v Value<'v>> {
        self.values.invoke(self.map, s, k)
    }

    /// The event a transition is taken on, as xstate names it; `None` for an eventless one.
    pub(crate) fn event_of(&self, t: &ir::Transition) -> Option<String> {
        let source = self.node_id(t.source);
        let invoke_id = |i: usize| {
            self.m
                .state(t.source)
                .invokes
                .get(i)
                .and_then(|inv| inv.id.as_ref().map(ToString::to_string))
                .unwrap_or_else(|| format!("{i}.{source}"))
        };
        Some(match &t.trigger {
            Trigger::Event(name) => name.to_string(),
            Trigger::After(delay) => format!("xstate.after.{delay}.{source}"),
            Trigger::Always | Trigger::HistoryDefault | Trigger::Initial => return None,
            Trigger::InvokeDone(i) => format!("xstate.done.actor.{}", invoke_id(*i)),
            Trigger::InvokeError(i) => format!("xstate.error.actor.{}", invoke_id(*i)),
            Trigger::StateDone => format!("xstate.done.state.{source}"),
        })
    }

    /// Is a transition taken on the event `name` ([`Picks::event_of`]'s name, without writing it
    /// where it can be told by a look: an event's own name, or no `xstate.` name)? `None` for an
    /// eventless one.
    pub(crate) fn is_event(&self, t: &ir::Transition, name: &str) -> Option<bool> {
        match &t.trigger {
            Trigger::Event(e) => Some(e == name),
            Trigger::Always => None,
            _ if !name.starts_with("xstate.") => Some(false),
            _ => self.event_of(t).map(|e| e == name),
        }
    }

    /// The pick of the setup's `events` named `name`, where its `input` is a `z.object` with keys
    /// the analysis can read.
    pub(crate) fn pick(&self, name: &str) -> Option<Rc<Pick<'v>>> {
        let (_, def, pick) = self.picks.iter().find(|(n, _, _)| *n == name)?;
        pick.get_or_init(|| Pick::of_def(def).map(Rc::new)).clone()
    }

    /// The pick a `defineEvent({...})` call (or its def object) makes: the one read already when
    /// it is one of the setup's `events`.
    pub(crate) fn pick_of_def(&self, def: &'v Value<'v>) -> Option<Rc<Pick<'v>>> {
        let inner = if is_call(def, "defineEvent") { arg(def, 0)? } else { def };
        match self.picks.iter().find(|(_, d, _)| std::ptr::eq(*d, inner)) {
            Some((_, d, pick)) => pick.get_or_init(|| Pick::of_def(d).map(Rc::new)).clone(),
            None => Pick::of_def(inner).map(Rc::new),
        }
    }

    /// A setup action by name (`entry: "remember"` resolves to `actions.remember`).
    pub(crate) fn named_action(&self, name: &str) -> Option<&'v Value<'v>> {
        self.parts.setup?.get("actions")?.get(name)
    }

    /// The actions written in `v` (one or a list), each resolved through the setup's `actions`
    /// when it is a name.
    pub(crate) fn actions_of(&self, v: Option<&'v Value<'v>>) -> impl Iterator<Item = &'v Value<'v>> + '_ {
        let written = v.map(items).unwrap_or_default();
        written.iter().map(|a| a.as_str().and_then(|n| self.named_action(n)).unwrap_or(a))
    }
}

/// A pick: its name, its params with the place of each key, read off `defineEvent`.
#[derive(Debug)]
pub(crate) struct Pick<'v> {
    pub name: &'v str,
    /// Each param and the place of its key: borrowed from the `z.object({...})` literal, owned
    /// where the keys are read through zod's methods (`.extend()`, `.pick()`, ...).
    pub params: Vec<(Cow<'v, str>, Loc)>,
}

impl<'v> Pick<'v> {
    /// The pick a `defineEvent({...})` def object makes (`fromPick`'s first argument is the call).
    pub(crate) fn of_def(def: &'v Value<'v>) -> Option<Pick<'v>> {
        let def = if is_call(def, "defineEvent") { arg(def, 0)? } else { def };
        let name = def.get("name")?.as_str()?;
        let input = def.get("input")?;
        let props = zod_object_literal(input).and_then(Value::props).unwrap_or_default();
        // Each key at the place of its writing in the literal: for a plain `z.object` the i-th
        // key is the literal's i-th (no scan); a key from zod's methods is looked for.
        let params = machine::zod::object_key_names(input)?
            .into_iter()
            .enumerate()
            .map(|(i, k)| {
                let at = props.get(i).filter(|p| *p.key == *k).or_else(|| props.iter().rev().find(|p| *p.key == *k));
                (k, at.map_or(input.loc, |p| p.key_loc))
            })
            .collect();
        Some(Pick { name, params })
    }
}

/// The object literal of a `z.object({...})` (through methods called on it).
fn zod_object_literal<'v>(v: &Value<'v>) -> Option<&'v Value<'v>> {
    let call = v.as_call()?;
    match call.callee {
        Callee::Zod("object") => call.args.first(),
        Callee::Method(_) => zod_object_literal(call.receiver.as_ref()?),
        _ => None,
    }
}

/// Writes `.key` for each state from below the root down to `s` (nothing for the root).
fn push_keys(m: &ir::Statechart, s: StateId, out: &mut String) {
    if s == StateId::ROOT {
        return;
    }
    if let Some(parent) = m.state(s).parent {
        push_keys(m, parent, out);
    }
    out.push('.');
    out.push_str(&m.state(s).key);
}

/// What a transition to each state enters ([`Picks::entered`]): the state, then the initial states
/// down from it (every region of a parallel state); every state's run in one list, and where each
/// run starts (one more entry: where the last ends).
fn entering(m: &ir::Statechart) -> (Vec<StateId>, Vec<u32>) {
    let mut out = Vec::with_capacity(m.states.len() * 2);
    let mut at = Vec::with_capacity(m.states.len() + 1);
    for target in m.ids() {
        let mut i = out.len();
        at.push(i as u32);
        out.push(target);
        while i < out.len() {
            let st = m.state(out[i]);
            match st.kind {
                StateKind::Compound => out.extend(st.initial),
                StateKind::Parallel => out.extend(st.children.iter().copied()),
                _ => {}
            }
            i += 1;
        }
    }
    at.push(out.len() as u32);
    (out, at)
}

/// The states whose entering enters `s` (the inverse of [`entering`], by the same rule): `s`, and
/// each ancestor it is entered from, up through initial children of compounds and regions of
/// parallels. Walks up (not a search of every state's entered list: linear in the depth).
pub fn entered_from(m: &ir::Statechart, s: StateId) -> SmallVec<[StateId; 8]> {
    let mut from: SmallVec<[StateId; 8]> = smallvec::smallvec![s];
    let mut y = s;
    while let Some(p) = m.state(y).parent {
        let ps = m.state(p);
        let enters = match ps.kind {
            StateKind::Compound => ps.initial == Some(y),
            StateKind::Parallel => true,
            _ => false,
        };
        if !enters {
            break;
        }
        from.push(p);
        y = p;
    }
    from
}

/// What some values read of a pick's params.
#[derive(Default)]
pub(crate) struct Reads<'v> {
    /// The params read (by `paramsOf`, `event.<param>`, a `fill`'s `params.<param>`).
    params: SmallSet<&'v str>,
    /// A function the analysis could not see all of.
    pub incomplete: Vec<Loc>,
}

impl<'v> Reads<'v> {
    /// Adds what `v` reads of pick `pick`: every function in it (its facts and its lowering).
    pub(crate) fn add(&mut self, v: &'v Value<'v>, pick: &str) {
        match v.kind {
            ValueKind::Function(f) => {
                self.facts(&f.facts, pick);
                if !f.facts.complete {
                    self.incomplete.push(v.loc);
                }
                if let Some(e) = &f.lowered {
                    self.expr(e);
                }
            }
            ValueKind::Array { items } => items.iter().for_each(|x| self.add(x, pick)),
            ValueKind::Object { props } => props.iter().for_each(|p| self.add(&p.value, pick)),
            ValueKind::Call(c) => {
                // `fromPick(def, fill)`: the def is the pick's, not a read; the fill may read.
                let from_pick = is_call(v, "fromPick");
                for (i, a) in c.args.iter().enumerate() {
                    let the_def = (from_pick && i == 0) || is_call(a, "defineEvent");
                    if !the_def {
                        self.add(a, pick);
                    }
                }
                if let Some(r) = &c.receiver {
                    self.add(r, pick);
                }
            }
            _ => {}
        }
    }

    fn facts(&mut self, facts: &'v Facts, pick: &str) {
        for (p, param) in &facts.pick_params {
            if p == pick {
                self.read(param);
            }
        }
    }

    fn read(&mut self, param: &'v str) {
        self.params.insert(param);
    }

    fn expr(&mut self, e: &'v Expr) {
        // Every reference, inside templates, operators and ternaries too.
        e.for_each_ref(&mut |r| {
            if r.root == Root::Event {
                if let Some(first) = r.path.first() {
                    self.read(first);
                }
            }
        });
    }

    /// Are all of `pick`'s params read?
    pub(crate) fn reads_all(&self, pick: &Pick<'_>) -> bool {
        pick.params.iter().all(|(p, _)| self.reads(p))
    }

    pub(crate) fn reads(&self, param: &str) -> bool {
        self.params.contains(param)
    }
}

/// Where a pick enters a state that invokes an Effect: the transition, the state, its invoke.
pub(crate) struct PickEntry<'c> {
    pub transition: usize,
    pub pick: Rc<Pick<'c>>,
    /// The states the transition enters (the target and its initial states), as [`Picks::entered`]
    /// keeps them: borrowed, not copied per entry.
    pub entered: &'c [StateId],
    pub state: StateId,
    pub invoke: usize,
}

/// Every place a pick (an event of `setup.events` with `z.object` params) enters a state that
/// invokes an Effect, once per (pick, state, invoke).
pub(crate) fn pick_entries<'c>(cx: &'c Ctx<Picks<'_>>) -> Vec<PickEntry<'c>> {
    let mut out: Vec<PickEntry<'c>> = Vec::new();
    // What is in `out` already, and each (pick, target) whose entered states were looked at (a
    // second transition on the pick to the target adds nothing), a pick by its index in the
    // setup's `events`.
    let mut have: SmallSet<(u32, StateId, u32)> = SmallSet::default();
    let mut targets: SmallSet<(u32, StateId)> = SmallSet::default();
    for (ti, t) in cx.m.transitions.iter().enumerate() {
        let Trigger::Event(name) = &t.trigger else { continue };
        // An event that is no pick enters nothing here.
        let Some(p) = cx.picks.iter().position(|(n, _, _)| *n == name) else { continue };
        let p = p as u32;
        for &target in &t.targets {
            if !targets.insert((p, target)) {
                continue;
            }
            let entered = cx.entered(target);
            for &s in entered {
                for (k, inv) in cx.m.state(s).invokes.iter().enumerate() {
                    if inv.kind != ir::SlotKind::Effect || !have.insert((p, s, k as u32)) {
                        continue;
                    }
                    // Read only for a pick that enters an Effect's state.
                    let Some(pick) = cx.pick(name) else { continue };
                    out.push(PickEntry { transition: ti, pick, entered, state: s, invoke: k });
                }
            }
        }
    }
    out
}

/// The most params of a pick for which [`reads_on_entry`] stops early once all are read.
const FEW_PARAMS: usize = 8;

/// What is read of `pick`'s params where it enters `entered`: the actions of every transition on
/// the pick into them, their `entry` actions and every invoke's `input` of theirs. It stops once
/// every param of a pick of a few is read: what the rules ask then (is any param unread, where
/// no reader is opaque?) has its answer, no.
pub(crate) fn reads_on_entry<'v>(cx: &Ctx<Picks<'v>>, pick: &Pick<'_>, entered: &[StateId]) -> Reads<'v> {
    let mut reads = Reads::default();
    // Asked after each reader only of a pick of a few params (asking costs a look-up per param).
    let done = |reads: &Reads| pick.params.len() <= FEW_PARAMS && reads.reads_all(pick);
    // The transitions on the pick into these states, each once, in their order: found by their
    // targets (not a scan of every transition per entry).
    let mut on_pick: SmallVec<[usize; 8]> = SmallVec::new();
    for &s in entered {
        for &ti in cx.incoming(s) {
            if matches!(&cx.m.transitions[ti as usize].trigger, Trigger::Event(name) if name == pick.name) {
                on_pick.push(ti as usize);
            }
        }
    }
    on_pick.sort_unstable();
    on_pick.dedup();
    for ti in on_pick {
        if let Some(tv) = cx.transition(ti) {
            for a in cx.actions_of(tv.get("actions")) {
                reads.add(a, pick.name);
            }
            if done(&reads) {
                return reads;
            }
        }
    }
    for &s in entered {
        for a in cx.actions_of(cx.entry(s)) {
            reads.add(a, pick.name);
        }
        for k in 0..cx.m.state(s).invokes.len() {
            if let Some(input) = cx.invoke(s, k).and_then(|item| item.get("input")) {
                reads.add(input, pick.name);
            }
        }
        if done(&reads) {
            return reads;
        }
    }
    reads
}

/// A state's invoke whose `input` is `fromPick(def, fill?)`, and the slot it invokes.
pub(crate) struct FromPick<'v> {
    pub state: StateId,
    pub invoke: usize,
    pub call: &'v Value<'v>,
    pub pick: Rc<Pick<'v>>,
}

/// Every `fromPick` input of an Effect invoke (found once per [`Picks`]).
pub(crate) fn from_picks<'c, 'v>(cx: &'c Ctx<Picks<'v>>) -> &'c [FromPick<'v>] {
    cx.from_picks.get_or_init(|| {
        let mut out = Vec::new();
        for sid in cx.m.ids() {
            for (k, inv) in cx.m.state(sid).invokes.iter().enumerate() {
                if inv.kind != ir::SlotKind::Effect {
                    continue;
                }
                let input = cx.invoke(sid, k).and_then(|item| item.get("input"));
                let Some(call) = input.filter(|i| is_call(i, "fromPick")) else {
                    continue;
                };
                let Some(pick) = arg(call, 0).and_then(|d| cx.pick_of_def(d)) else { continue };
                out.push(FromPick { state: sid, invoke: k, call, pick });
            }
        }
        out
    })
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::compile::compile_text;
    use std::path::Path;

    #[test]
    fn entered_from_is_the_inverse_of_entering() {
        let compiled = compile_text(
            Path::new("/virtual/workflow.ts"),
            r#"import { setup } from "xstate";
export const machine = setup({}).createMachine({
  id: "m",
  initial: "a",
  states: {
    a: { initial: "a1", states: { a1: { initial: "x", states: { x: {}, y: {} } }, a2: {} } },
    p: { type: "parallel", states: { r1: { initial: "i", states: { i: {}, j: {} } }, r2: {} } },
    z: { type: "final" },
  },
});
"#,
        );
        let m = compiled.machine.as_ref().expect("a Machine");
        let (entered, at) = super::entering(m);
        let entered_by = |target: ir::StateId| &entered[at[target.index()] as usize..at[target.index() + 1] as usize];
        for s in m.ids() {
            let from = super::entered_from(m, s);
            for t in m.ids() {
                assert_eq!(
                    from.contains(&t),
                    entered_by(t).contains(&s),
                    "{} from {}",
                    compiled.source_map.state_path(s),
                    compiled.source_map.state_path(t)
                );
            }
        }
    }

    /// The (code, message) of each of this walk's diagnostics of a Workflow's text (the
    /// compilation's, of this walk's rules, in order).
    pub(crate) fn walk(text: &str) -> Vec<(String, String)> {
        let compiled = compile_text(Path::new("/virtual/workflow.ts"), text);
        let codes: Vec<&str> = super::all().iter().map(|r| r.code).collect();
        compiled
            .diagnostics
            .iter()
            .filter(|d| codes.contains(&d.code))
            .map(|d| (d.code.to_string(), d.message.clone()))
            .collect()
    }
}
