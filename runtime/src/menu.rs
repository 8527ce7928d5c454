//! The Menu: the events a party (a Gate, later an Agent) may send a live run now (issue 35 item 6,
//! issue 37). Pure: it reads the IR and the run, and changes nothing.
//!
//! A party's Menu is the `on` keys of the state that invoked it and of that state's ancestors
//! (all of them active while the party runs), deepest first and each state's transitions in
//! document order, that the party may take: a transition whose guard is a `sentBy` naming another
//! party (alone, or as one conjunct of an `and`) is not the party's; an event is on the Menu when
//! one of its transitions is. Reserved (`xstate.*`) and wildcard (`*`, `a.*`) keys are not events
//! a party sends, and are left out. Each item carries the event's `defineEvent` description and
//! input schema ([`ir::Statechart::events`]), where it declares them.

use crate::{Live, Runtime};
use ir::{Guard, SlotKind, Trigger};
use serde::Serialize;
use serde_json::Value;

/// One event a party may send now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MenuItem {
    /// The event's type.
    #[serde(rename = "type")]
    pub ty: String,
    /// Its `defineEvent` description, where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its payload's JSON Schema, where it declares one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
}

/// A Gate waiting in a live run: its invoke id (the party that answers it), the state that
/// invoked it and the events it may send now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Waiting {
    pub gate: String,
    /// The invoking state's name ([`Runtime::name`]: its `id`, or its key path).
    pub state: String,
    pub events: Vec<MenuItem>,
}

/// Does `guard` hand the transition to another party than `party`?
fn excludes(guard: &Guard, party: &str) -> bool {
    match guard {
        Guard::SentBy { id } => id != party,
        Guard::And { guards } => guards.iter().any(|g| excludes(g, party)),
        _ => false,
    }
}

impl Runtime<'_> {
    /// The events `party` (an actor's invoke id: a Gate's) may send the live run now; empty where
    /// the run is not active or holds no actor of that id.
    pub fn menu(&self, live: &Live, party: &str) -> Vec<MenuItem> {
        if live.status() != crate::Status::Active {
            return Vec::new();
        }
        let Some(actor) = live.actors().iter().find(|a| a.id == party) else { return Vec::new() };
        let mut out: Vec<MenuItem> = Vec::new();
        let mut at = Some(actor.state);
        while let Some(s) = at {
            for t in self.machine.transitions.iter().filter(|t| t.source == s) {
                let Trigger::Event(name) = &t.trigger else { continue };
                if name.starts_with("xstate.") || name.as_str() == "*" || name.ends_with(".*") {
                    continue;
                }
                if t.guard.as_ref().is_some_and(|g| excludes(g, party)) || out.iter().any(|i| i.ty == name.as_str()) {
                    continue;
                }
                let decl = self.machine.events.get(name.as_str());
                out.push(MenuItem {
                    ty: name.to_string(),
                    description: decl.and_then(|d| d.description.clone()),
                    input: decl.and_then(|d| d.input.as_ref()).and_then(|j| serde_json::to_value(j).ok()),
                });
            }
            at = self.machine.state(s).parent;
        }
        out
    }

    /// The Gates waiting in the live run (each running actor whose slot is the kit's Gate), in
    /// the order they were started, each with its [`Runtime::menu`].
    pub fn gates(&self, live: &Live) -> Vec<Waiting> {
        if live.status() != crate::Status::Active {
            return Vec::new();
        }
        let is_gate = |src: &str, kind: SlotKind| {
            kind == SlotKind::Gate
                || matches!(
                    self.machine.slots.get(src).and_then(|s| s.definition.as_ref()),
                    Some(ir::Definition::Gate(_))
                )
        };
        live.actors()
            .iter()
            .filter(|a| is_gate(&a.src, a.kind))
            .map(|a| Waiting { gate: a.id.clone(), state: self.name(a.state), events: self.menu(live, &a.id) })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{EventDecl, Machine, SlotKind};
    use serde_json::json;

    /// A Chart lowered, its `gate` invokes made the kit's Gate and `events` declared.
    fn gated(text: &str, events: &[(&str, Option<&str>, Option<Value>)]) -> Machine {
        let arena = syntax::json::Arena::new();
        let parsed = syntax::json::parse(text, &arena);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let mut chart = chart::lower::lower(&parsed.value, None).machine.statechart().clone();
        for s in &mut chart.states {
            for i in s.invokes.iter_mut().filter(|i| i.src == "gate") {
                i.kind = SlotKind::Gate;
            }
        }
        chart.slots.insert(
            "gate".into(),
            ir::Slot { kind: SlotKind::Gate, effect: None, definition: Some(ir::Definition::Gate(Default::default())) },
        );
        for (name, description, input) in events {
            chart.events.insert(
                (*name).into(),
                EventDecl {
                    description: description.map(str::to_string),
                    input: input.clone().map(ir::Json::from),
                    audience: None,
                },
            );
        }
        Machine::lowered(chart)
    }

    const REVIEW: &str = r##"{ "id": "m", "initial": "work", "on": { "abort": ".aborted", "xstate.done.actor.x": ".aborted" },
        "states": {
            "work": { "initial": "review", "on": { "nudge": {} },
              "states": {
                "review": {
                  "invoke": { "src": "gate", "id": "approver" },
                  "on": {
                    "approve": { "guard": { "type": "jr2.sentBy", "params": { "id": "approver" } }, "target": "#m.done" },
                    "reject": { "guard": { "type": "jr2.sentBy", "params": { "id": "legal" } }, "target": "#m.done" },
                    "comment": {},
                    "*": {},
                    "nudge": { "guard": { "type": "jr2.sentBy", "params": { "id": "legal" } } }
                  } } } },
            "aborted": { "type": "final" },
            "done": { "type": "final" } } }"##;

    #[test]
    fn a_gates_menu_is_its_states_and_ancestors_events_it_may_take() {
        let schema = json!({ "type": "object", "properties": { "note": { "type": "string" } } });
        let m = gated(REVIEW, &[("approve", Some("Approve the change."), Some(schema.clone()))]);
        let rt = Runtime::new(&m);
        let (live, _) = rt.start_live(None, 0);
        let menu = rt.menu(&live, "approver");
        let types: Vec<&str> = menu.iter().map(|i| i.ty.as_str()).collect();
        // `reject` is legal's; `nudge` is legal's in `review`, and the ancestor's own `nudge`
        // (no guard) puts it back; `*` and `xstate.*` are no party's events.
        assert_eq!(types, ["approve", "comment", "nudge", "abort"]);
        assert_eq!(menu[0].description.as_deref(), Some("Approve the change."));
        assert_eq!(menu[0].input.as_ref(), Some(&schema));
        assert_eq!(menu[1], MenuItem { ty: "comment".into(), description: None, input: None });
        assert!(rt.menu(&live, "legal").is_empty(), "no actor of that id runs");
        let gates = rt.gates(&live);
        assert_eq!(gates.len(), 1);
        assert_eq!((gates[0].gate.as_str(), gates[0].events.len()), ("approver", 4));
        assert_eq!(gates[0].state, rt.name(live.actors()[0].state));
    }

    #[test]
    fn an_ended_run_has_no_gates_and_the_menu_changes_nothing() {
        let m = gated(REVIEW, &[]);
        let rt = Runtime::new(&m);
        let (mut live, _) = rt.start_live(None, 0);
        let before = rt.encode(&live.snapshot());
        let _ = rt.menu(&live, "approver");
        assert_eq!(rt.encode(&live.snapshot()), before, "the Menu is read only");
        rt.send_from_live(&mut live, json!({ "type": "approve" }), "approver", 0).unwrap();
        assert_eq!(live.status(), crate::Status::Done);
        assert!(rt.gates(&live).is_empty());
        assert!(rt.menu(&live, "approver").is_empty());
    }
}
