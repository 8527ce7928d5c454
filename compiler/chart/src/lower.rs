//! Lowers a Chart the grammar admitted into the IR.
//!
//! Lowering never fails: what it cannot resolve (a target, an initial state) becomes a
//! [`LowerFault`], which the rule files of rule 2 turn into diagnostics, and the IR keeps going
//! without it.

use crate::Json;
use base::path::{join, push_segment};
use base::{FileId, Loc, Span};
use ir::expr::{parse_reference, placeholders, TemplatePart};
use ir::{
    Action, CheckedMachine, Definition, EventDecl, Expr, FxIndexMap, Guard, Invoke, Machine, Name, NodeSource, Origin,
    Slot, SlotKind, SourceMap, State, StateId, StateKind, StateSource, Statechart, TargetList, Transition, Trigger,
};
use kit::lends::LendManifest;
use syntax::json::{same_key, JsonKind};

/// What lowering could not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LowerFault {
    /// A target names no state.
    UnknownTarget { path: String, span: Span, target: String, source: StateId },
    /// A `#id` target that more than one state claims.
    AmbiguousTarget { path: String, span: Span, target: String, states: Vec<StateId> },
    /// A compound state with no `initial`.
    MissingInitial { state: StateId },
    /// An `initial` that names no child.
    UnknownInitial { state: StateId, span: Span, initial: String },
}

/// The IR of a Chart, its source map and the faults of lowering. `state_json[i]` is the JSON of
/// `StateId(i)`. The IR is an executable [`Machine`] ([`lower`]), or a [`CheckedMachine`]
/// lowered for the door's rules only ([`lower_for_check`]).
pub struct Lowered<'a, M = Machine> {
    pub machine: M,
    /// Where each state, transition and invoke is (a Chart is one file: `FileId(0)`).
    pub source_map: SourceMap,
    pub state_json: Vec<&'a Json<'a>>,
    /// `transition_json[i]` is the JSON of `machine.transitions[i]`.
    pub transition_json: Vec<&'a Json<'a>>,
    /// What each invoke's `src` names, state by state and in each state's order (the source
    /// map's order of invokes): classified once, for lowering and for the door's rules.
    pub invoke_class: Vec<SrcClass>,
    pub faults: Vec<LowerFault>,
}

/// What an invoke's `src` names, against a manifest (rule 3). Without a manifest a name is an
/// Agent of the Chart if the Chart mints it, and unknown otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcClass {
    Lent(SlotKind),
    Minted,
    Gate,
    Fail,
    /// Declared in `lends` but not lent now.
    DeclaredNotLent,
    GateNotLent,
    FailNotLent,
    Unknown,
}

impl SrcClass {
    pub fn slot_kind(self) -> SlotKind {
        match self {
            SrcClass::Lent(k) => k,
            SrcClass::Minted => SlotKind::Minted,
            SrcClass::Gate => SlotKind::Gate,
            SrcClass::Fail => SlotKind::Fail,
            _ => SlotKind::Unknown,
        }
    }
}

/// Classifies an invoke's `src`, in the seed's order (`srcKind`): a name the Open body declares
/// is lent (of the first list of agents, effects and machines that declares it) if it is lent now,
/// and `DeclaredNotLent` if not; then the kit's Gate and `fail()`, then the Chart's own Agents.
/// (Whether the Chart mints it, and whether the body lends it now, are looked up only where the
/// answer turns on them: the door classifies every invoke.)
pub fn classify_src(chart: &Json, manifest: Option<&LendManifest>, src: &str) -> SrcClass {
    let minted = || chart.get("agents").and_then(|a| a.member(src)).is_some();
    let Some(m) = manifest else {
        return match src {
            "gate" => SrcClass::Gate,
            "fail" => SrcClass::Fail,
            _ if minted() => SrcClass::Minted,
            _ => SrcClass::Unknown,
        };
    };
    let lends = &m.declaration.lends;
    let lent = &m.lent;
    let declared =
        [(&lends.agents, SlotKind::Agent), (&lends.effects, SlotKind::Effect), (&lends.machines, SlotKind::Machine)]
            .into_iter()
            .find(|(names, _)| names.iter().any(|n| n == src));
    if let Some((_, kind)) = declared {
        // Lent now under any of the three kinds; its own kind's map first, the likely one.
        let lent_now = match kind {
            SlotKind::Agent => lent.agents.contains_key(src) || lent.effects.contains_key(src),
            SlotKind::Effect => lent.effects.contains_key(src) || lent.agents.contains_key(src),
            _ => lent.agents.contains_key(src) || lent.effects.contains_key(src),
        } || lent.machines.contains_key(src);
        return if lent_now { SrcClass::Lent(kind) } else { SrcClass::DeclaredNotLent };
    }
    if src == "gate" {
        return if lends.gate { SrcClass::Gate } else { SrcClass::GateNotLent };
    }
    if src == "fail" {
        return if lends.fail { SrcClass::Fail } else { SrcClass::FailNotLent };
    }
    if minted() {
        return SrcClass::Minted;
    }
    SrcClass::Unknown
}

/// The items of a value that is one item or a list of them, each with its path.
pub fn one_or_many<'a>(value: &'a Json<'a>, path: &str) -> Vec<(String, &'a Json<'a>)> {
    match value.as_array() {
        Some(items) => items.iter().enumerate().map(|(i, v)| (join(path, i), v)).collect(),
        None => vec![(path.to_string(), value)],
    }
}

/// The items of a value that is one item or a list of them, without paths.
pub fn items<'a>(value: &'a Json<'a>) -> impl Iterator<Item = &'a Json<'a>> {
    let (list, one) = match value.as_array() {
        Some(list) => (list, None),
        None => (&[][..], Some(value)),
    };
    list.iter().chain(one)
}

/// What of the IR its caller reads: all of it, or what the door's rules read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The whole IR, an executable [`Machine`] (`jr2 ir`, `jr2 sim`, `jr2 graph`, the runtime).
    Full,
    /// What the door's rules read (`check::door::check`), a [`CheckedMachine`]: the states (keys,
    /// kinds, parents, children, initials, ids) with their invokes' `src`, kind and `id`, and the
    /// transitions' sources, triggers and targets, with the same source map and faults as
    /// [`Purpose::Full`]. Not written, as no rule reads them (each rule reads the Chart's JSON
    /// for them): the expressions (invokes' inputs, guards, actions, `entry`, `exit`), the
    /// events' declarations, the context and the slots.
    Check,
}

/// Lowers a Chart into an executable IR.
pub fn lower<'a>(chart: &'a Json<'a>, manifest: Option<&LendManifest>) -> Lowered<'a> {
    let (chart, lowered) = lower_statechart(chart, manifest, Purpose::Full);
    lowered.with(Machine::lowered(chart))
}

/// Lowers a Chart for the door's rules only ([`Purpose::Check`]): a [`CheckedMachine`], with the
/// same source map and faults as [`lower`].
pub fn lower_for_check<'a>(chart: &'a Json<'a>, manifest: Option<&LendManifest>) -> Lowered<'a, CheckedMachine> {
    let (chart, lowered) = lower_statechart(chart, manifest, Purpose::Check);
    lowered.with(CheckedMachine::lowered_for_check(chart))
}

impl<'a> Lowered<'a, ()> {
    fn with<M>(self, machine: M) -> Lowered<'a, M> {
        let Lowered { machine: (), source_map, state_json, transition_json, invoke_class, faults } = self;
        Lowered { machine, source_map, state_json, transition_json, invoke_class, faults }
    }
}

fn lower_statechart<'a>(
    chart: &'a Json<'a>,
    manifest: Option<&LendManifest>,
    purpose: Purpose,
) -> (Statechart, Lowered<'a, ()>) {
    let full = purpose == Purpose::Full;
    // The lists by state are sized once, by a count of the states (a `State` is large: growing
    // the list by doubling copied it five or six times for a Chart of ~60 states), and the
    // transitions' for two a state, which a list of more grows from.
    let states = count_states(chart);
    let mut lw = Lowerer {
        chart,
        manifest,
        full,
        states: Vec::with_capacity(states),
        map: SourceMap::with_capacity(states, 2 * states),
        state_json: Vec::with_capacity(states),
        transition_json: Vec::with_capacity(2 * states),
        invoke_class: Vec::with_capacity(states),
        faults: Vec::new(),
    };
    let mut path = String::with_capacity(128);
    lw.add_state(chart, Name::default(), &mut path, None, None);
    let id = chart.get("id").and_then(Json::as_str).unwrap_or("(machine)").to_string();
    lw.resolve_initials();
    let mut transitions = Vec::with_capacity(2 * states);
    for sid in 0..lw.states.len() {
        lw.lower_transitions(StateId(sid as u32), &id, &mut path, &mut transitions);
    }
    // The slots the Chart invokes, each with its definition: a lent part's as its lend manifest
    // gives it, a minted Agent's from the Chart's `agents`.
    let mut slots: FxIndexMap<Name, Slot> = FxIndexMap::default();
    let invokes = lw.states.iter().filter(|_| full).flat_map(|st| st.invokes.iter());
    for (inv, class) in invokes.zip(lw.invoke_class.iter()) {
        if slots.contains_key(inv.src.as_str()) {
            continue;
        }
        let effect = manifest.and_then(|m| m.lent.effects.get(inv.src.as_str())).map(|e| Name::const_new(e.kind()));
        let definition = Some(definition(chart, manifest, &inv.src, *class));
        slots.insert(inv.src.clone(), Slot { kind: inv.kind, effect, definition });
    }
    let events = chart
        .get("events")
        .filter(|_| full)
        .map(|ev| {
            ev.entries()
                .map(|m| {
                    let d = &m.value;
                    let decl = EventDecl {
                        description: d.get("description").and_then(Json::as_str).map(str::to_string),
                        input: d.get("input").map(|i| ir::Json::from(i.to_value())),
                        audience: d.get("audience").and_then(Json::as_str).map(str::to_string),
                    };
                    (Name::from(m.key), decl)
                })
                .collect()
        })
        .unwrap_or_default();
    let statechart = Statechart {
        id,
        origin: Origin::Chart,
        states: lw.states,
        transitions,
        events,
        slots,
        context: chart.get("context").filter(|_| full).map(|c| ir::Json::from(c.to_value())),
        context_expr: None,
        output: None,
        implementations: ir::Implementations::default(),
        workspace: None,
    };
    let lowered = Lowered {
        machine: (),
        source_map: lw.map,
        state_json: lw.state_json,
        transition_json: lw.transition_json,
        invoke_class: lw.invoke_class,
        faults: lw.faults,
    };
    (statechart, lowered)
}

/// What the slot `src` (of class `class`) runs: a lent part as the lend manifest says it (an
/// Agent's model, instructions and workspace; an Effect's parts), the kit's Gate and `fail()`, an
/// Agent the Chart mints as its `agents` entry says it. What the manifest does not carry (a lent
/// Effect's `idempotent`, timeout and secrets; a lent Machine's IR: the Open body's own slots hold
/// them) is said in the definition, never made up.
fn definition(chart: &Json, manifest: Option<&LendManifest>, src: &str, class: SrcClass) -> Definition {
    use ir::slot::{Agent, Part};
    let text = |s: &Option<String>| s.as_deref().map(|s| Part::Value(ir::Json::String(s.into())));
    let lent = manifest.map(|m| &m.lent);
    match class {
        SrcClass::Lent(_) => {
            if let Some(a) = lent.and_then(|l| l.agents.get(src)) {
                return Definition::Agent(Agent {
                    model: text(&a.model),
                    instructions: text(&a.instructions),
                    workspace: text(&a.workspace),
                    options: Default::default(),
                });
            }
            if let Some(e) = lent.and_then(|l| l.effects.get(src)) {
                return Definition::Effect(lent_effect(e));
            }
            Definition::Unknown {
                reason: format!(
                    "{src:?} is a lent Machine: the lend manifest holds no IR of it (the Open body's own slot does)"
                ),
            }
        }
        SrcClass::Gate => Definition::Gate(Default::default()),
        SrcClass::Fail => Definition::Fail(Default::default()),
        SrcClass::Minted => {
            let minted = chart.get("agents").and_then(|a| a.member(src));
            let field =
                |k: &str| minted.and_then(|m| m.value.get(k)).map(|v| Part::Value(ir::Json::from(v.to_value())));
            Definition::Agent(Agent {
                model: field("model"),
                instructions: field("instructions"),
                workspace: field("workspace"),
                options: Default::default(),
            })
        }
        SrcClass::DeclaredNotLent => {
            Definition::Unknown { reason: format!("{src:?} is declared in `lends` and not lent now") }
        }
        SrcClass::GateNotLent => Definition::Unknown { reason: "the Open body does not lend `gate`".into() },
        SrcClass::FailNotLent => Definition::Unknown { reason: "the Open body does not lend `fail`".into() },
        SrcClass::Unknown => {
            Definition::Unknown { reason: format!("{src:?} names no lent part and no Agent of the Chart") }
        }
    }
}

/// A lent Effect's definition from its lend manifest's parts.
fn lent_effect(e: &kit::lends::EffectParts) -> ir::slot::Effect {
    use ir::slot::{Argv, ArgvItem, Effect, EffectRun, Part};
    use kit::lends::{ArgvPart, CutExpect, EffectParts};
    let text = |s: &Option<String>| s.as_deref().map(|s| Part::Value(ir::Json::String(s.into())));
    let schema = |s: &Option<serde_json::Value>| s.clone().map(|s| Part::Value(ir::Json::from(s)));
    let run = match e {
        EffectParts::Command { cut: Some(cut), .. } => EffectRun::Worktree {
            expect: cut.expect.map(|x| {
                Part::Value(ir::Json::String(match x {
                    CutExpect::New => "new".into(),
                    CutExpect::Existing => "existing".into(),
                }))
            }),
        },
        EffectParts::Command { argv, cut: None } => EffectRun::Command {
            argv: match argv {
                Some(items) => Argv::List(
                    items
                        .iter()
                        .map(|p| match p {
                            ArgvPart::Literal(s) => ArgvItem::Literal(s.clone()),
                            ArgvPart::Arg { arg } => ArgvItem::Arg { arg: arg.as_str().into() },
                        })
                        .collect(),
                ),
                None => Argv::Unknown("an Open argv nobody bound".into()),
            },
            pin: false,
        },
        EffectParts::Http { method, url, input } => EffectRun::Http {
            method: text(method).unwrap_or_else(|| Part::Value(ir::Json::String("GET".into()))),
            url: text(url),
            input: schema(input),
            auth: None,
            request: None,
        },
        EffectParts::Push { force } => {
            EffectRun::Push { slot: None, sign: false, squash: false, force: *force, pin: false }
        }
        EffectParts::Dispatch { workflow, input } => EffectRun::Dispatch {
            workflow: text(workflow).unwrap_or_else(|| Part::Unknown("the lend manifest names no Workflow".into())),
            input: schema(input),
            wait: false,
            target: None,
        },
        EffectParts::Mcp { op, server, tool, input } => EffectRun::Mcp {
            op: text(op).unwrap_or_else(|| Part::Value(ir::Json::String("call".into()))),
            server: text(server),
            tool: text(tool),
            input: schema(input),
        },
    };
    // What a lend manifest does not carry: the Open body's own slot of this name holds it.
    let mut unread = FxIndexMap::default();
    let not_carried = "the lend manifest does not carry it (the Open body's own slot holds it)";
    let parts: &[&str] = match e {
        EffectParts::Http { .. } => &["idempotent", "timeout", "secrets", "auth", "request"],
        EffectParts::Push { .. } => &["idempotent", "timeout", "secrets", "slot", "sign", "squash", "pin"],
        EffectParts::Dispatch { .. } => &["idempotent", "timeout", "secrets", "wait", "target"],
        EffectParts::Command { cut: None, .. } => &["idempotent", "timeout", "secrets", "pin"],
        _ => &["idempotent", "timeout", "secrets"],
    };
    for part in parts {
        unread.insert(Name::from(*part), not_carried.to_string());
    }
    Effect { run, idempotent: false, timeout: None, secrets: Vec::new(), options: Default::default(), unread }
}

/// How many states lowering adds for a Chart: itself and every member of a `states` object, at
/// every depth (as [`Lowerer::add_state`] walks them).
fn count_states(chart: &Json) -> usize {
    let mut count = 1;
    let mut todo = vec![chart];
    while let Some(node) = todo.pop() {
        for state in node.get("states").filter(|s| s.is_object()).into_iter().flat_map(|s| s.entries()) {
            count += 1;
            todo.push(&state.value);
        }
    }
    count
}

/// A place in the Chart, its one file.
fn at(span: Span) -> Loc {
    Loc::new(FileId(0), span)
}

struct Lowerer<'a, 'm> {
    chart: &'a Json<'a>,
    manifest: Option<&'m LendManifest>,
    /// [`Purpose::Full`]: the expressions are written too.
    full: bool,
    states: Vec<State>,
    map: SourceMap,
    state_json: Vec<&'a Json<'a>>,
    transition_json: Vec<&'a Json<'a>>,
    invoke_class: Vec<SrcClass>,
    faults: Vec<LowerFault>,
}

impl<'a> Lowerer<'a, '_> {
    /// Adds the state `json` and its descendants; `path` holds the state's dotted path on entry
    /// and on return, and is the buffer every path below it is built in (a path is copied out
    /// only into the source map, once).
    fn add_state(
        &mut self,
        json: &'a Json<'a>,
        key: Name,
        path: &mut String,
        parent: Option<StateId>,
        key_span: Option<Span>,
    ) -> StateId {
        let sid = StateId(self.states.len() as u32);
        let children_json = json.get("states").filter(|s| s.is_object());
        let kind = match json.get("type").and_then(Json::as_str) {
            Some("final") => StateKind::Final,
            Some("parallel") => StateKind::Parallel,
            _ if children_json.is_some_and(|c| c.entries().next().is_some()) => StateKind::Compound,
            _ => StateKind::Atomic,
        };
        let first_invoke = self.map.next_invoke();
        let invokes: ir::InvokeList = match json.get("invoke") {
            None => Default::default(),
            Some(v) => {
                let len = push_segment(path, "invoke");
                let invokes = match v.as_array() {
                    Some(list) => list
                        .iter()
                        .enumerate()
                        .map(|(i, inv)| {
                            let l = push_segment(path, i);
                            let invoke = self.add_invoke(inv, path);
                            path.truncate(l);
                            invoke
                        })
                        .collect(),
                    None => std::iter::once(self.add_invoke(v, path)).collect(),
                };
                path.truncate(len);
                invokes
            }
        };
        let entry = actions_of(json.get("entry").filter(|_| self.full));
        let exit = actions_of(json.get("exit").filter(|_| self.full));
        self.states.push(State {
            key,
            id: json.get("id").and_then(Json::as_str).map(str::to_string),
            kind,
            parent,
            children: Vec::new(),
            initial: None,
            invokes,
            entry,
            exit,
            history: None,
            output: None,
            tags: Vec::new(),
        });
        self.map.push_state(
            StateSource { path: path.as_str().into(), loc: at(json.span), key: key_span.map(at) },
            first_invoke,
        );
        self.state_json.push(json);
        if let Some(children) = children_json {
            let len = push_segment(path, "states");
            for m in children.entries() {
                let l = push_segment(path, m.key);
                let child = self.add_state(&m.value, Name::from(m.key), path, Some(sid), Some(m.key_span));
                path.truncate(l);
                self.states[sid.index()].children.push(child);
            }
            path.truncate(len);
        }
        sid
    }

    /// One invoke of the state being added, at `path`.
    fn add_invoke(&mut self, inv: &'a Json<'a>, path: &str) -> Invoke {
        let src = Name::from(inv.get("src").and_then(Json::as_str).unwrap_or_default());
        self.map.push_invoke(NodeSource { path: path.into(), loc: at(inv.span) });
        let class = classify_src(self.chart, self.manifest, &src);
        self.invoke_class.push(class);
        Invoke {
            kind: class.slot_kind(),
            src,
            id: inv.get("id").and_then(Json::as_str).map(Name::from),
            input: inv.get("input").filter(|_| self.full).map(|i| std::sync::Arc::new(expr(i))),
            machine: None,
            autoforward: false,
            id_location: None,
        }
    }

    fn resolve_initials(&mut self) {
        for i in 0..self.states.len() {
            let json = self.state_json[i];
            let st = &self.states[i];
            if st.kind != StateKind::Compound {
                continue;
            }
            match json.get("initial") {
                None => self.faults.push(LowerFault::MissingInitial { state: StateId(i as u32) }),
                Some(init) => {
                    let name = init.as_str().unwrap_or_default();
                    match st.children.iter().find(|c| self.states[c.index()].key == name) {
                        Some(c) => self.states[i].initial = Some(*c),
                        None => self.faults.push(LowerFault::UnknownInitial {
                            state: StateId(i as u32),
                            span: init.span,
                            initial: name.to_string(),
                        }),
                    }
                }
            }
        }
    }

    /// The xstate id of a state: its `id`, or the Chart's id and its key path.
    fn state_ids(&self, chart_id: &str, sid: StateId) -> Vec<String> {
        let st = &self.states[sid.index()];
        let mut keys = Vec::new();
        let mut cur = Some(sid);
        while let Some(c) = cur {
            let s = &self.states[c.index()];
            if s.parent.is_some() {
                keys.push(s.key.as_str());
            }
            cur = s.parent;
        }
        keys.push(chart_id);
        keys.reverse();
        let mut ids = vec![keys.join(".")];
        if let Some(id) = &st.id {
            ids.push(id.clone());
        }
        ids
    }

    fn child_by_path(&self, from: StateId, path: &str) -> Option<StateId> {
        let child = |of: StateId, key: &str| {
            self.states[of.index()].children.iter().copied().find(|c| same_key(&self.states[c.index()].key, key))
        };
        // Most targets name a sibling: one key, no split.
        if !path.contains('.') {
            return child(from, path);
        }
        path.split('.').try_fold(from, child)
    }

    fn resolve_target(&self, chart_id: &str, source: StateId, target: &str) -> Result<StateId, Vec<StateId>> {
        if let Some(id) = target.strip_prefix('#') {
            // `#id` or `#id.child.path`: the longest id that matches a prefix.
            let mut found = Vec::new();
            for sid in (0..self.states.len() as u32).map(StateId) {
                for sid_name in self.state_ids(chart_id, sid) {
                    if id == sid_name {
                        found.push(sid);
                    } else if let Some(rest) = id.strip_prefix(&sid_name).and_then(|r| r.strip_prefix('.')) {
                        if let Some(t) = self.child_by_path(sid, rest) {
                            found.push(t);
                        }
                    }
                }
            }
            found.sort();
            found.dedup();
            return match found.as_slice() {
                [one] => Ok(*one),
                _ => Err(found),
            };
        }
        if let Some(rel) = target.strip_prefix('.') {
            return self.child_by_path(source, rel).ok_or_default();
        }
        match self.states[source.index()].parent {
            Some(parent) => self.child_by_path(parent, target).ok_or_default(),
            None => Err(Vec::new()),
        }
    }

    /// The state's transitions, in the order of their fields (`on`, `after`, `always`,
    /// `onDone`, then each invoke's `onDone` and `onError`); `path` is a buffer for their paths.
    fn lower_transitions(&mut self, sid: StateId, chart_id: &str, path: &mut String, out: &mut Vec<Transition>) {
        let json = self.state_json[sid.index()];
        path.clear();
        path.push_str(self.map.state_path(sid));
        for (field, make) in [("on", Trigger::Event as fn(Name) -> Trigger), ("after", Trigger::After)] {
            if let Some(map) = json.get(field) {
                let len = push_segment(path, field);
                for m in map.entries() {
                    let l = push_segment(path, m.key);
                    self.lower_group(sid, chart_id, make(Name::from(m.key)), &m.value, path, out);
                    path.truncate(l);
                }
                path.truncate(len);
            }
        }
        for (field, trigger) in [("always", Trigger::Always), ("onDone", Trigger::StateDone)] {
            if let Some(v) = json.get(field) {
                let len = push_segment(path, field);
                self.lower_group(sid, chart_id, trigger, v, path, out);
                path.truncate(len);
            }
        }
        if let Some(inv) = json.get("invoke") {
            // The invokes' paths are the IR's, made when the state was added.
            for (i, inv) in items(inv).enumerate() {
                let Some(ipath) = self.map.invoke(sid, i) else { break };
                path.clear();
                path.push_str(&ipath.path);
                for (field, trigger) in [("onDone", Trigger::InvokeDone(i)), ("onError", Trigger::InvokeError(i))] {
                    if let Some(v) = inv.get(field) {
                        let len = push_segment(path, field);
                        self.lower_group(sid, chart_id, trigger, v, path, out);
                        path.truncate(len);
                    }
                }
            }
        }
    }

    /// The transitions of one trigger, a transition or a list of them, at `path`.
    fn lower_group(
        &mut self,
        sid: StateId,
        chart_id: &str,
        trigger: Trigger,
        value: &'a Json<'a>,
        path: &mut String,
        out: &mut Vec<Transition>,
    ) {
        match value.as_array() {
            Some(list) => {
                for (i, t) in list.iter().enumerate() {
                    let l = push_segment(path, i);
                    self.lower_transition(sid, chart_id, trigger.clone(), t, path, out);
                    path.truncate(l);
                }
            }
            None => self.lower_transition(sid, chart_id, trigger, value, path, out),
        }
    }

    /// One transition, at `tpath`.
    fn lower_transition(
        &mut self,
        sid: StateId,
        chart_id: &str,
        trigger: Trigger,
        t: &'a Json<'a>,
        tpath: &str,
        out: &mut Vec<Transition>,
    ) {
        let (target, target_span) = match &t.kind {
            JsonKind::String(s) => (Some(*s), t.span),
            _ => match t.get("target") {
                Some(tv) => (tv.as_str(), tv.span),
                None => (None, t.span),
            },
        };
        let mut targets = TargetList::new();
        if let Some(target) = target {
            match self.resolve_target(chart_id, sid, target) {
                Ok(s) => targets.push(s),
                Err(states) if states.len() > 1 => self.faults.push(LowerFault::AmbiguousTarget {
                    path: join(tpath, if t.is_object() { "target" } else { "" }).trim_end_matches('.').to_string(),
                    span: target_span,
                    target: target.to_string(),
                    states,
                }),
                Err(_) => self.faults.push(LowerFault::UnknownTarget {
                    path: if t.is_object() { join(tpath, "target") } else { tpath.to_string() },
                    span: target_span,
                    target: target.to_string(),
                    source: sid,
                }),
            }
        }
        self.transition_json.push(t);
        out.push(Transition {
            source: sid,
            trigger,
            targets,
            guard: t.get("guard").filter(|_| self.full).map(guard),
            actions: actions_of(t.get("actions").filter(|_| self.full)),
            reenter: t.get("reenter").and_then(Json::as_bool).unwrap_or(false),
        });
        self.map.push_transition(NodeSource { path: tpath.into(), loc: at(t.span) });
    }
}

trait OkOrDefault<T> {
    fn ok_or_default(self) -> Result<T, Vec<StateId>>;
}

impl<T> OkOrDefault<T> for Option<T> {
    fn ok_or_default(self) -> Result<T, Vec<StateId>> {
        self.ok_or_else(Vec::new)
    }
}

/// The kit's guards of a Chart as the IR's calls, as the Machine front end lowers `isFailure`
/// and `isReady`: `jr2.failure` (on an `onError`: is the error a Failure?) is
/// `isFailure(event.error)`, `jr2.ready` (on an `onDone`: did the cut settle ready?)
/// `isReady(event.output)`. (`kit-guard-params` refuses params on them.)
fn kit_guard(name: &str) -> Option<Guard> {
    let (func, field) = match name {
        crate::grammar::FAILURE_GUARD => (ir::Builtin::IsFailure, "error"),
        crate::grammar::READY_GUARD => (ir::Builtin::IsReady, "output"),
        _ => return None,
    };
    let arg =
        Expr::Ref(ir::expr::Reference { root: ir::expr::Root::Event, path: [Name::from(field)].into_iter().collect() });
    Some(Guard::Expr { expr: Expr::Call { func, args: vec![arg] } })
}

/// A guard as data.
pub(crate) fn guard(g: &Json) -> Guard {
    if let Some(name) = g.as_str() {
        if let Some(kit) = kit_guard(name) {
            return kit;
        }
        return Guard::Named { name: Name::from(name), params: None };
    }
    if let Some(inner) = g.get("not") {
        return Guard::Not { guard: Box::new(guard(inner)) };
    }
    for (key, make) in [("and", true), ("or", false)] {
        if let Some(list) = g.get(key) {
            let guards = list.as_array().unwrap_or(&[]).iter().map(guard).collect();
            return if make { Guard::And { guards } } else { Guard::Or { guards } };
        }
    }
    let name = Name::from(g.get("type").and_then(Json::as_str).unwrap_or_default());
    if let Some(kit) = kit_guard(&name) {
        return kit;
    }
    if name == "jr2.sentBy" {
        let id = g.get("params").and_then(|p| p.get("id")).and_then(Json::as_str).unwrap_or_default();
        return Guard::SentBy { id: Name::from(id) };
    }
    Guard::Named { name, params: g.get("params").map(expr) }
}

fn actions_of(v: Option<&Json>) -> Vec<Action> {
    let Some(v) = v else { return Vec::new() };
    items(v).map(action).collect()
}

fn action(a: &Json) -> Action {
    if let Some(name) = a.as_str() {
        return Action::Named { name: Name::from(name), params: None };
    }
    if let Some(assign) = a.get("assign") {
        return Action::Assign {
            updates: assign.entries().map(|m| (Name::from(m.key), std::sync::Arc::new(expr(&m.value)))).collect(),
        };
    }
    Action::Named {
        name: Name::from(a.get("type").and_then(Json::as_str).unwrap_or_default()),
        params: a.get("params").map(expr),
    }
}

/// A template value as an expression: references and `{{ }}` placeholders become data.
pub(crate) fn expr(v: &Json) -> Expr {
    if let Some(r) = whole_ref(v) {
        if let Some(r) = parse_reference(r) {
            return Expr::Ref(r);
        }
    }
    match &v.kind {
        JsonKind::String(s) if !has_placeholder(s) => Expr::Literal(v.to_value().into()),
        JsonKind::String(s) => {
            let holes = placeholders(s);
            let refs: Vec<_> =
                holes.iter().filter_map(|(range, inner)| Some((range.clone(), parse_reference(inner)?))).collect();
            if refs.is_empty() {
                return Expr::Literal(v.to_value().into());
            }
            let mut parts = Vec::new();
            let mut at = 0;
            for (range, r) in refs {
                if range.start > at {
                    parts.push(TemplatePart::Text(s[at..range.start].into()));
                }
                parts.push(TemplatePart::Ref(r));
                at = range.end;
            }
            if at < s.len() {
                parts.push(TemplatePart::Text(s[at..].into()));
            }
            Expr::Template(parts)
        }
        JsonKind::Array(items) => {
            let exprs: Vec<Expr> = items.iter().map(expr).collect();
            if exprs.iter().all(|e| matches!(e, Expr::Literal(_))) {
                Expr::Literal(v.to_value().into())
            } else {
                Expr::Array(exprs)
            }
        }
        JsonKind::Object(_) => {
            let fields: Vec<(Name, Expr)> = v.entries().map(|m| (Name::from(m.key), expr(&m.value))).collect();
            if fields.iter().all(|(_, e)| matches!(e, Expr::Literal(_))) {
                Expr::Literal(v.to_value().into())
            } else {
                Expr::Object(fields)
            }
        }
        _ => Expr::Literal(v.to_value().into()),
    }
}

/// Whether `s` may hold a `{{ }}` placeholder (it has a `{{`): a test that finds the first `{`
/// with `memchr` where `str::contains("{{")` sets up a substring search per call.
pub fn has_placeholder(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut from = 0;
    while let Some(i) = bytes[from..].iter().position(|&b| b == b'{') {
        let at = from + i;
        if bytes.get(at + 1) == Some(&b'{') {
            return true;
        }
        from = at + 1;
    }
    false
}

/// The `$ref` text of a whole-value reference `{ "$ref": "..." }`.
pub fn whole_ref<'a>(v: &Json<'a>) -> Option<&'a str> {
    let members = v.as_object()?;
    if members.len() != 1 || members[0].key != "$ref" {
        return None;
    }
    members[0].value.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::slot::{Argv, EffectRun, Part};

    /// A Chart that invokes every kind of part an Open body lends (an Agent, each Effect kind, a
    /// Machine, `gate`, `fail`) and an Agent it mints, against the door fixtures' lend manifest.
    const CHART: &str = r#"{
      "id": "everything",
      "initial": "writing",
      "agents": { "helper": { "model": "anthropic/claude-haiku-5-5", "instructions": "You help.", "workspace": "read" } },
      "states": {
        "writing": { "invoke": [{ "src": "writer", "input": { "prompt": "Write." } }, { "src": "helper", "input": { "prompt": "Help." } }] },
        "testing": { "invoke": { "src": "tests", "onDone": "checking" } },
        "checking": { "invoke": { "src": "check", "input": { "file": "a.js" }, "onDone": "cutting" } },
        "cutting": { "invoke": { "src": "cut", "input": { "path": "/work/app/x", "branch": "x" }, "onDone": "posting" } },
        "posting": { "invoke": { "src": "post", "input": { "text": "hi" }, "onDone": "publishing" } },
        "publishing": { "invoke": { "src": "publish", "onDone": "reviewing" } },
        "reviewing": { "invoke": { "src": "review", "onDone": "looking" } },
        "looking": { "invoke": { "src": "lookup", "onDone": "sub" } },
        "sub": { "invoke": { "src": "subtask", "onDone": "waiting" } },
        "waiting": { "invoke": { "src": "gate", "id": "editor" } },
        "failed": { "invoke": { "src": "fail", "input": { "reason": "no" } } },
        "odd": { "invoke": { "src": "nobody" } }
      }
    }"#;

    fn manifest() -> LendManifest {
        let path = base::workspace::root().join("compiler/check/tests/fixtures/door/lends.json");
        serde_json::from_str(&std::fs::read_to_string(path).expect("the door's lend manifest")).expect("a manifest")
    }

    #[test]
    fn each_slot_holds_what_its_lend_manifest_says() {
        let arena = syntax::json::Arena::new();
        let parsed = syntax::json::parse(CHART, &arena);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let manifest = manifest();
        let lowered = lower(&parsed.value, Some(&manifest));
        let m = &lowered.machine;
        let def = |slot: &str| m.slots[slot].definition.clone().unwrap_or_else(|| panic!("{slot}"));
        let Definition::Agent(writer) = def("writer") else { panic!("{:?}", def("writer")) };
        assert_eq!(writer.model.as_ref().and_then(Part::as_str), Some("anthropic/claude-haiku-5-5"));
        let Definition::Agent(helper) = def("helper") else { panic!("{:?}", def("helper")) };
        assert_eq!(helper.workspace.as_ref().and_then(Part::as_str), Some("read"), "a minted Agent's own entry");
        let Definition::Effect(check) = def("check") else { panic!("{:?}", def("check")) };
        assert!(matches!(&check.run, EffectRun::Command { argv: Argv::List(items), .. } if items.len() == 3));
        assert!(check.unread.contains_key("timeout"), "what the manifest does not carry is said: {:?}", check.unread);
        assert!(
            matches!(def("cut"), Definition::Effect(e) if matches!(e.run, EffectRun::Worktree { expect: Some(_) }))
        );
        assert!(matches!(def("gate"), Definition::Gate(_)));
        assert!(matches!(def("fail"), Definition::Fail(_)));
        assert!(matches!(def("subtask"), Definition::Unknown { reason } if reason.contains("lent Machine")));
        assert!(matches!(def("nobody"), Definition::Unknown { .. }));
        insta::assert_json_snapshot!(
            "everything_chart_slots",
            serde_json::json!({ "identity": m.identity(), "slots": m.slots })
        );
    }

    /// The Chart's whitespace does not change its identity; a target does.
    #[test]
    fn a_chart_identity_follows_what_runs() {
        let identity = |text: &str| {
            let arena = syntax::json::Arena::new();
            let parsed = syntax::json::parse(text, &arena);
            lower(&parsed.value, Some(&manifest())).machine.identity()
        };
        let base = identity(CHART);
        assert_eq!(identity(&CHART.replace(",\n", ",\n\n   ")), base);
        assert_ne!(identity(&CHART.replace("\"onDone\": \"checking\"", "\"onDone\": \"cutting\"")), base);
    }
}
