//! What a picture shows, read off the IR once for both writers: the states in view (a subtree),
//! each state's title and its invokes' lines, and the transitions as edges with their labels.
//!
//! Everything is in the IR's order (states in pre-order, transitions as listed), so a picture is
//! the same text for the same Machine.

use crate::{Error, Notes};
use ir::{Guard, Invoke, SlotKind, State, StateId, StateKind, Statechart as Machine, Transition, Trigger};

/// One end of an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// A state in view.
    State(StateId),
    /// "Any state inside" a compound or parallel state: the source of the state's own transitions
    /// to itself or below it, and of its targetless ones.
    Any(StateId),
    /// A state outside the subtree in view (`--state`), drawn as a stub: an index into
    /// [`View::outside`].
    Outside(usize),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    pub(crate) from: End,
    pub(crate) to: End,
    pub(crate) label: String,
    /// A targetless transition (drawn as a loop: it exits nothing).
    pub(crate) targetless: bool,
}

/// What a state is, for how it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Look {
    Plain,
    Final,
    /// It invokes `fail()`: entering it fails the run.
    Failing,
}

pub(crate) struct View<'m> {
    pub(crate) machine: &'m Machine,
    /// The state the picture is of: the root, or the `--state` one.
    pub(crate) top: StateId,
    in_view: Vec<bool>,
    /// States that have an [`End::Any`] node.
    has_any: Vec<bool>,
    pub(crate) edges: Vec<Edge>,
    /// The stubs' titles (a state's dotted key path).
    pub(crate) outside: Vec<String>,
    notes: &'m Notes,
}

impl<'m> View<'m> {
    pub(crate) fn new(machine: &'m Machine, state: Option<&str>, notes: &'m Notes) -> Result<Self, Error> {
        if machine.states.is_empty() {
            return Err(Error::Empty);
        }
        let top = match state {
            None => StateId::ROOT,
            Some(path) => find(machine, path).ok_or_else(|| Error::UnknownState {
                path: path.to_string(),
                known: machine.ids().skip(1).map(|id| key_path(machine, id)).collect(),
            })?,
        };
        let in_view: Vec<bool> = machine.ids().map(|id| machine.is_ancestor_or_self(top, id)).collect();
        let mut view = View {
            machine,
            top,
            has_any: vec![false; in_view.len()],
            in_view,
            edges: Vec::new(),
            outside: Vec::new(),
            notes,
        };
        for t in &machine.transitions {
            view.add(t);
        }
        Ok(view)
    }

    pub(crate) fn in_view(&self, id: StateId) -> bool {
        self.in_view.get(id.index()).copied().unwrap_or(false)
    }

    pub(crate) fn has_any(&self, id: StateId) -> bool {
        self.has_any.get(id.index()).copied().unwrap_or(false)
    }

    pub(crate) fn state(&self, id: StateId) -> &'m State {
        self.machine.state(id)
    }

    /// Is this state drawn as a box with states inside (a cluster, a composite)?
    pub(crate) fn is_container(&self, id: StateId) -> bool {
        let st = self.state(id);
        matches!(st.kind, StateKind::Compound | StateKind::Parallel) && !st.children.is_empty()
    }

    pub(crate) fn look(&self, id: StateId) -> Look {
        let st = self.state(id);
        if st.invokes.iter().any(|i| i.kind == SlotKind::Fail) {
            Look::Failing
        } else if st.kind == StateKind::Final {
            Look::Final
        } else {
            Look::Plain
        }
    }

    /// A state's title: its key, the Machine's id for the root.
    pub(crate) fn title(&self, id: StateId) -> String {
        let st = self.state(id);
        if st.parent.is_none() {
            self.machine.id.clone()
        } else {
            st.key.to_string()
        }
    }

    /// The lines under a state's title: `parallel` where it is one, then one per invoke.
    pub(crate) fn lines(&self, id: StateId) -> Vec<String> {
        let st = self.state(id);
        let parallel = (st.kind == StateKind::Parallel).then(|| "parallel".to_string());
        parallel.into_iter().chain(st.invokes.iter().map(|i| self.invoke_line(i))).collect()
    }

    fn invoke_line(&self, i: &Invoke) -> String {
        let note = self.notes.slots.get(i.src.as_str());
        let model = note.and_then(|n| n.model.as_deref());
        let with = |head: String, tail: Option<&str>| match tail {
            Some(t) => format!("{head} · {t}"),
            None => head,
        };
        match i.kind {
            SlotKind::Agent => with(format!("agent {}", i.src), model),
            SlotKind::Minted => with(format!("agent {} (minted)", i.src), model),
            SlotKind::Effect => {
                let kind = self.machine.slots.get(&i.src).and_then(|s| s.effect.as_deref()).unwrap_or("effect");
                with(format!("{kind} {}", i.src), note.and_then(|n| n.placement.as_deref()))
            }
            SlotKind::Machine if note.is_some_and(|n| n.open) => format!("open body {}", i.src),
            SlotKind::Machine => format!("machine {}", i.src),
            SlotKind::Gate => match &i.id {
                Some(id) if *id != i.src => format!("gate {id}"),
                _ => "gate".to_string(),
            },
            SlotKind::Fail => "fail()".to_string(),
            SlotKind::Unknown => format!("{}?", i.src),
        }
    }

    fn outside(&mut self, id: StateId) -> End {
        let title = key_path(self.machine, id);
        let title = if title.is_empty() { self.machine.id.clone() } else { title };
        match self.outside.iter().position(|t| *t == title) {
            Some(i) => End::Outside(i),
            None => {
                self.outside.push(title);
                End::Outside(self.outside.len() - 1)
            }
        }
    }

    fn add(&mut self, t: &Transition) {
        let source = t.source;
        let label = self.label(t);
        let source_in = self.in_view(source);
        if t.targets.is_empty() {
            if !source_in {
                return;
            }
            let at = self.source_end(source, None);
            self.edges.push(Edge { from: at, to: at, label, targetless: true });
            return;
        }
        for &target in &t.targets {
            let target_in = self.in_view(target);
            let (from, to) = match (source_in, target_in) {
                (true, true) => (self.source_end(source, Some(target)), End::State(target)),
                (true, false) => (self.source_end(source, None), self.outside(target)),
                (false, true) => (self.outside(source), End::State(target)),
                (false, false) => continue,
            };
            self.edges.push(Edge { from, to, label: label.clone(), targetless: false });
        }
    }

    /// Where a transition of `source` starts: the state, or its "any state" node where it goes
    /// to the state itself or below it (an edge cannot leave a box to reach its own inside).
    fn source_end(&mut self, source: StateId, target: Option<StateId>) -> End {
        let inward = target.is_none_or(|t| self.machine.is_ancestor_or_self(source, t));
        if self.is_container(source) && inward {
            self.has_any[source.index()] = true;
            End::Any(source)
        } else {
            End::State(source)
        }
    }

    fn label(&self, t: &Transition) -> String {
        let st = self.state(t.source);
        let invoke = |i: usize| st.invokes.get(i).map_or("invoke", |inv| inv.src.as_str());
        let mut text = match &t.trigger {
            Trigger::Event(name) => match self.machine.events.get(name) {
                Some(decl) if decl.audience.as_deref() == Some("external") => format!("{name} (Gate answer)"),
                _ => name.to_string(),
            },
            Trigger::After(name) => format!("after {}", duration(name)),
            Trigger::Always => "always".to_string(),
            Trigger::InvokeDone(i) => format!("{} onDone", invoke(*i)),
            Trigger::InvokeError(i) => format!("{} onError", invoke(*i)),
            Trigger::StateDone => "onDone".to_string(),
            Trigger::HistoryDefault => "default".to_string(),
            Trigger::Initial => "initial".to_string(),
        };
        if let Some(g) = &t.guard {
            text.push_str(" [");
            text.push_str(&guard_of(g, false, self.machine.origin == ir::Origin::Chart));
            text.push(']');
        }
        if t.reenter {
            text.push_str(" (reenter)");
        }
        text
    }
}

/// A delay's text: milliseconds as `5s`, `2m`, `1h` (`1500ms` where it is not whole), a name as is.
pub(crate) fn duration(name: &str) -> String {
    let Ok(ms) = name.parse::<u64>() else { return name.to_string() };
    const UNITS: [(u64, &str); 4] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1_000, "s")];
    match UNITS.iter().find(|(n, _)| ms > 0 && ms % n == 0) {
        Some((n, unit)) => format!("{}{unit}", ms / n),
        None => format!("{ms}ms"),
    }
}

/// A guard as a short expression: `approved`, `sentBy writer`, `!a`, `a && b`, `a || b`.
#[cfg(test)]
fn guard(g: &Guard, nested: bool) -> String {
    guard_of(g, nested, false)
}

/// A guard's label; in a Chart (`kit`), the kit's guards by the names the Chart wrote
/// (`jr2.failure` and `jr2.ready`, which the Chart front end lowers to the IR's calls).
fn guard_of(g: &Guard, nested: bool, kit: bool) -> String {
    let joined = |gs: &[Guard], op: &str| {
        let text = gs.iter().map(|g| guard_of(g, true, kit)).collect::<Vec<_>>().join(op);
        if nested && gs.len() > 1 {
            format!("({text})")
        } else {
            text
        }
    };
    match g {
        Guard::Named { name, .. } if name == "inline" => "inline guard".to_string(),
        Guard::Named { name, params: Some(_) } => format!("{name}(…)"),
        Guard::Named { name, params: None } => name.to_string(),
        Guard::SentBy { id } => format!("sentBy {id}"),
        Guard::Expr { expr } if kit => kit_guard(expr).unwrap_or("inline guard").to_string(),
        Guard::Expr { .. } => "inline guard".to_string(),
        Guard::Not { guard: inner } => format!("!{}", guard_of(inner, true, kit)),
        Guard::And { guards } => joined(guards, " && "),
        Guard::Or { guards } => joined(guards, " || "),
    }
}

/// A Chart's kit guard, as the Chart front end lowers it: `isFailure(event.error)` is
/// `jr2.failure`, `isReady(event.output)` `jr2.ready`.
fn kit_guard(e: &ir::Expr) -> Option<&'static str> {
    let ir::Expr::Call { func, args } = e else { return None };
    let [ir::Expr::Ref(r)] = args.as_slice() else { return None };
    let field = match (&r.root, r.path.as_slice()) {
        (ir::expr::Root::Event, [field]) => field.as_str(),
        _ => return None,
    };
    match (func, field) {
        (ir::Builtin::IsFailure, "error") => Some("jr2.failure"),
        (ir::Builtin::IsReady, "output") => Some("jr2.ready"),
        _ => None,
    }
}

/// A state's keys from the root joined with `.` (`triaging.ready`); empty for the root.
pub(crate) fn key_path(m: &Machine, id: StateId) -> String {
    let mut keys: Vec<&str> = std::iter::once(id).chain(m.ancestors(id)).map(|s| m.state(s).key.as_str()).collect();
    keys.pop(); // the root's empty key
    keys.reverse();
    keys.join(".")
}

/// The state at a dotted key path (`triaging.ready`), or at an IR path (`states.triaging.states.ready`),
/// or with an explicit id (`#done`).
fn find(m: &Machine, path: &str) -> Option<StateId> {
    if let Some(id) = path.strip_prefix('#') {
        return m.ids().find(|&s| m.state(s).id.as_deref() == Some(id));
    }
    if path.is_empty() {
        return Some(StateId::ROOT);
    }
    // The IR path is the key path with `states.` before each key (the source map holds it too;
    // the picture reads the IR alone).
    let ir_path = |s: StateId| format!("states.{}", key_path(m, s).replace('.', ".states."));
    m.ids().skip(1).find(|&s| ir_path(s) == path).or_else(|| m.ids().skip(1).find(|&s| key_path(m, s) == path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_writes_them() {
        assert_eq!(duration("5000"), "5s");
        assert_eq!(duration("60000"), "1m");
        assert_eq!(duration("5400000"), "90m");
        assert_eq!(duration("1500"), "1500ms");
        assert_eq!(duration("0"), "0ms");
        assert_eq!(duration("patience"), "patience");
    }

    #[test]
    fn guards_read_as_expressions() {
        let named = |n: &str| Guard::Named { name: n.into(), params: None };
        let g = Guard::Or {
            guards: vec![
                Guard::Not { guard: Box::new(named("a")) },
                Guard::And { guards: vec![named("b"), named("c")] },
            ],
        };
        assert_eq!(guard(&g, false), "!a || (b && c)");
        assert_eq!(guard(&Guard::SentBy { id: "writer".into() }, false), "sentBy writer");
        assert_eq!(guard(&named("inline"), false), "inline guard");
    }
}
