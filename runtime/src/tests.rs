//! The core over small Charts (lowered by the Chart front end, a dev-dependency): each test names
//! the semantic rule of xstate v5 it pins.

use super::*;
use ir::eval::JsValue;
use ir::expr::{BinaryOp, Root};

fn machine(text: &str) -> Machine {
    let arena = syntax::json::Arena::new();
    let parsed = syntax::json::parse(text, &arena);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let lowered = chart::lower::lower(&parsed.value, None);
    assert!(lowered.faults.is_empty(), "{:?}", lowered.faults);
    lowered.machine
}

fn ev(ty: &str) -> Value {
    json!({ "type": ty })
}

/// The actor `id`'s outcome, for the incarnation the snapshot runs.
fn settle(rt: &Runtime, s: &Snapshot, id: &str, outcome: Outcome) -> Step {
    let mut live = rt.resume(s.clone());
    let n = live.actors().iter().find(|a| a.id == id).unwrap_or_else(|| panic!("no actor {id}")).incarnation;
    let requests = rt.outcome(&mut live, id, n, outcome, 0).unwrap();
    Step { snapshot: live.into_snapshot(), requests }
}

/// The timer `id` fires, in the incarnation the snapshot holds.
fn fire(rt: &Runtime, s: &Snapshot, id: &str, now: u64) -> Step {
    let n = s.timers.iter().find(|t| t.id == id).unwrap_or_else(|| panic!("no timer {id}")).incarnation;
    rt.fire(s, id, n, now).unwrap()
}

/// The active atomic states by name.
fn at(rt: &Runtime, step: &Step) -> Vec<String> {
    rt.atomic(&step.snapshot).into_iter().map(|s| rt.name(s)).collect()
}

#[test]
fn a_toggle_goes_back_and_forth_and_ignores_what_it_does_not_take() {
    let m = machine(
        r##"{ "id": "t", "initial": "off", "states": { "off": { "on": { "flip": "on" } }, "on": { "on": { "flip": "off" } } } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    assert_eq!(at(&rt, &s0), ["off"]);
    let s1 = rt.send(&s0.snapshot, ev("flip"), 0).unwrap();
    assert_eq!(at(&rt, &s1), ["on"]);
    let s2 = rt.send(&s1.snapshot, ev("nothing"), 0).unwrap();
    assert_eq!(s2.snapshot, s1.snapshot);
    assert_eq!(at(&rt, &rt.send(&s2.snapshot, ev("flip"), 0).unwrap()), ["off"]);
}

/// Entering a compound state enters its initial child, down to an atomic state; a transition to a
/// sibling exits the whole subtree.
#[test]
fn compound_states_enter_their_initial_child_and_exit_their_subtree() {
    let m = machine(
        r##"{ "id": "n", "initial": "a", "states": {
            "a": { "initial": "a1", "states": { "a1": { "initial": "deep", "states": { "deep": {} } }, "a2": {} }, "on": { "go": "b" } },
            "b": { "on": { "back": "a.a2" } } } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    assert_eq!(at(&rt, &s0), ["a.a1.deep"]);
    assert_eq!(s0.snapshot.configuration.len(), 4, "root, a, a1, deep");
    let s1 = rt.send(&s0.snapshot, ev("go"), 0).unwrap();
    assert_eq!(at(&rt, &s1), ["b"]);
    assert_eq!(s1.snapshot.configuration.len(), 2);
    assert_eq!(at(&rt, &rt.send(&s1.snapshot, ev("back"), 0).unwrap()), ["a.a2"]);
}

/// A parallel state has every region active; one event moves each region that takes it; when every
/// region is final, the parallel state is done and its `onDone` is taken.
#[test]
fn parallel_regions_move_together_and_are_done_together() {
    let m = machine(
        r##"{ "id": "p", "initial": "work", "states": {
            "work": { "type": "parallel", "onDone": "after", "states": {
                "left": { "initial": "l1", "states": { "l1": { "on": { "step": "l2" } }, "l2": { "type": "final" } } },
                "right": { "initial": "r1", "states": { "r1": { "on": { "step": "r2" } }, "r2": { "on": { "finish": "r3" } }, "r3": { "type": "final" } } } } },
            "after": { "type": "final" } } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    assert_eq!(at(&rt, &s0), ["work.left.l1", "work.right.r1"]);
    let s1 = rt.send(&s0.snapshot, ev("step"), 0).unwrap();
    assert_eq!(at(&rt, &s1), ["work.left.l2", "work.right.r2"]);
    assert_eq!(s1.snapshot.status, Status::Active);
    let s2 = rt.send(&s1.snapshot, ev("finish"), 0).unwrap();
    assert_eq!(at(&rt, &s2), ["after"]);
    assert_eq!(s2.snapshot.status, Status::Done, "a final state of the root ends the run");
}

/// Two regions taking one event to one target outside the parallel state conflict: the first in
/// document order wins, and the target is entered once.
#[test]
fn conflicting_transitions_keep_the_first_in_document_order() {
    let m = machine(
        r##"{ "id": "c", "initial": "par", "states": {
            "par": { "type": "parallel", "states": {
                "x": { "initial": "x1", "states": { "x1": { "on": { "go": "#c.out" } } } },
                "y": { "initial": "y1", "states": { "y1": { "on": { "go": "#c.other" } } } } } },
            "out": {}, "other": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s1 = rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap();
    assert_eq!(at(&rt, &s1), ["out"]);
}

/// A transition of a deeper state preempts one of its ancestor for the same event.
#[test]
fn the_deepest_state_that_takes_an_event_takes_it() {
    let m = machine(
        r##"{ "id": "d", "initial": "a", "states": {
            "a": { "initial": "inner", "on": { "go": "c" }, "states": { "inner": { "on": { "go": "#d.b" } } } },
            "b": {}, "c": {} } }"##,
    );
    let rt = Runtime::new(&m);
    assert_eq!(at(&rt, &rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap()), ["b"]);
}

/// `after` schedules a timer with a deadline on the host's clock when its state is entered, and
/// cancels it when the state is left first; the timer's event takes the transition.
#[test]
fn after_schedules_a_deadline_and_cancels_it_on_exit() {
    let m = machine(
        r##"{ "id": "w", "initial": "wait", "states": {
            "wait": { "after": { "5000": "late" }, "on": { "hurry": "early" } }, "late": {}, "early": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 1_000);
    assert_eq!(
        s0.requests,
        [Request::Schedule { id: "xstate.after.5000.w.wait".into(), incarnation: 1, deadline: 6_000 }]
    );
    assert_eq!(s0.snapshot.timers[0].deadline, 6_000);
    let fired = fire(&rt, &s0.snapshot, "xstate.after.5000.w.wait", 6_000);
    assert_eq!(at(&rt, &fired), ["late"]);
    assert!(fired.snapshot.timers.is_empty());
    let hurried = rt.send(&s0.snapshot, ev("hurry"), 2_000).unwrap();
    assert_eq!(at(&rt, &hurried), ["early"]);
    assert_eq!(hurried.requests, [Request::Cancel { id: "xstate.after.5000.w.wait".into(), incarnation: 1 }]);
    assert_eq!(delay_ms("2s"), Some(2_000));
    assert_eq!(delay_ms("10m"), Some(600_000));
    assert_eq!(delay_ms("soon"), None);
}

/// An invoke asks the host to start its actor on entry (input evaluated over context and event),
/// its outcome event takes `onDone`, and leaving the state another way stops it.
#[test]
fn invokes_start_on_entry_settle_by_outcome_and_stop_on_exit() {
    let m = machine(
        r##"{ "id": "i", "initial": "run", "context": { "who": "ada" }, "states": {
            "run": { "invoke": { "src": "tests", "input": { "name": { "$ref": "context.who" } }, "onDone": "ok", "onError": "bad" }, "on": { "cancel": "stopped" } },
            "ok": { "type": "final" }, "bad": {}, "stopped": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    let id = "0.i.run".to_string();
    assert_eq!(
        s0.requests,
        [Request::Start {
            id: id.clone(),
            incarnation: 1,
            src: "tests".into(),
            kind: SlotKind::Unknown,
            input: Some(json!({ "name": "ada" }))
        }]
    );
    let done = settle(&rt, &s0.snapshot, &id, Outcome::Done(json!(0)));
    assert_eq!(at(&rt, &done), ["ok"]);
    assert_eq!(done.snapshot.status, Status::Done);
    assert!(done.requests.is_empty(), "a settled actor is not stopped: {:?}", done.requests);
    let failed = settle(&rt, &s0.snapshot, &id, Outcome::Error(json!("boom")));
    assert_eq!(at(&rt, &failed), ["bad"]);
    let cancelled = rt.send(&s0.snapshot, ev("cancel"), 0).unwrap();
    assert_eq!(cancelled.requests, [Request::Stop { id, incarnation: 1 }]);
    assert!(cancelled.snapshot.actors.is_empty());
}

/// Eventless transitions are taken in the same macrostep, until none is enabled; an actor started
/// and stopped within one macrostep asks the host for nothing.
#[test]
fn always_runs_to_completion_within_the_macrostep() {
    let m = machine(
        r##"{ "id": "e", "initial": "a", "states": {
            "a": { "on": { "go": "b" } },
            "b": { "invoke": { "src": "tests" }, "always": "c" },
            "c": { "always": { "target": "d" } }, "d": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s = rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap();
    assert_eq!(at(&rt, &s), ["d"]);
    assert!(s.requests.is_empty(), "{:?}", s.requests);
}

/// An eventless loop ends the run `error` at the step bound, naming where it loops.
#[test]
fn an_eventless_loop_ends_the_run_at_the_step_bound() {
    let m = machine(r##"{ "id": "l", "initial": "a", "states": { "a": { "always": "b" }, "b": { "always": "a" } } }"##);
    let mut rt = Runtime::new(&m);
    rt.step_bound = 100;
    let s = rt.start(None, 0);
    assert_eq!(s.snapshot.status, Status::Error);
    let error = s.snapshot.error.unwrap();
    assert!(error.reason.contains("more than 100 microsteps"), "{error:?}");
}

/// `assign` writes the context from the event; a re-entering self-transition exits and enters.
#[test]
fn assign_reads_the_event_and_reenter_reenters() {
    let m = machine(
        r##"{ "id": "a", "initial": "idle", "context": { "n": 0 }, "states": {
            "idle": { "invoke": { "src": "tests" }, "on": {
                "set": { "actions": [{ "assign": { "n": { "$ref": "event.n" } } }] },
                "again": { "target": "idle", "reenter": true },
                "stay": { "target": "idle" } } } } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    let s1 = rt.send(&s0.snapshot, json!({ "type": "set", "n": 7 }), 0).unwrap();
    assert_eq!(s1.snapshot.context, json!({ "n": 7 }));
    assert!(s1.requests.is_empty(), "a targetless transition exits nothing");
    let id = "0.a.idle".to_string();
    let again = rt.send(&s1.snapshot, ev("again"), 0).unwrap();
    assert_eq!(again.requests.len(), 2, "stopped and started again: {:?}", again.requests);
    assert!(matches!(&again.requests[0], Request::Stop { id: i, incarnation: 1 } if *i == id));
    assert!(matches!(&again.requests[1], Request::Start { id: i, incarnation: 2, .. } if *i == id));
    let stay = rt.send(&s1.snapshot, ev("stay"), 0).unwrap();
    assert!(stay.requests.is_empty(), "a transition to itself without reenter exits nothing: {:?}", stay.requests);
}

/// A named guard with no implementation in the IR: the run says so instead of guessing.
#[test]
fn a_named_guard_ends_the_run_error_naming_it() {
    let m = machine(
        r##"{ "id": "g", "initial": "a", "states": { "a": { "on": { "go": { "target": "b", "guard": "isReady" } } }, "b": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s = rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap();
    assert_eq!(s.snapshot.status, Status::Error);
    let fault = s.snapshot.error.unwrap();
    assert!(fault.reason.contains("\"isReady\""), "{fault:?}");
    assert_eq!((fault.event.as_deref(), fault.states.as_slice()), (Some("go"), ["a".to_string()].as_slice()));
}

#[test]
fn event_descriptors_match_as_xstate_matches_them() {
    assert!(matches_descriptor("a.b", "a.b"));
    assert!(matches_descriptor("anything", "*"));
    assert!(matches_descriptor("a.b.c", "a.*"));
    assert!(matches_descriptor("a", "a.*"));
    assert!(!matches_descriptor("ab.c", "a.*"));
    assert!(!matches_descriptor("a.b", "a"));
}

/// A snapshot is data: it goes to JSON and back unchanged, and a run goes on from the copy.
#[test]
fn a_snapshot_round_trips_through_json() {
    let m = machine(
        r##"{ "id": "s", "initial": "wait", "states": { "wait": { "after": { "10": "next" } }, "next": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    let copy: Snapshot = serde_json::from_str(&serde_json::to_string(&s0.snapshot).unwrap()).unwrap();
    assert_eq!(copy, s0.snapshot);
    assert_eq!(at(&rt, &fire(&rt, &copy, "xstate.after.10.s.wait", 10)), ["next"]);
}

/// A Chart's IR, changed by `edit` into what Charts cannot write (history states, raise, ...).
fn edited(text: &str, edit: impl FnOnce(&mut ir::Statechart)) -> Machine {
    let mut chart = machine(text).statechart().clone();
    edit(&mut chart);
    Machine::lowered(chart)
}

/// The state of this key path.
fn sid(chart: &ir::Statechart, path: &str) -> StateId {
    let mut at = StateId::ROOT;
    for key in path.split('.') {
        at = *chart.state(at).children.iter().find(|&&c| chart.state(c).key == key).expect(path);
    }
    at
}

fn history(chart: &mut ir::Statechart, path: &str, kind: ir::HistoryKind) {
    let h = sid(chart, path);
    chart.states[h.index()].kind = StateKind::History;
    chart.states[h.index()].history = Some(kind);
}

const REMEMBERS: &str = r##"{ "id": "h", "initial": "a", "states": {
    "a": { "initial": "a1", "on": { "out": "b" }, "states": {
        "a1": { "on": { "next": "a2" } },
        "a2": { "initial": "x", "states": { "x": { "on": { "deeper": "y" } }, "y": {} } },
        "hist": {} } },
    "b": { "on": { "back": "a.hist" } } } }"##;

/// A shallow history state enters again the child its parent had when it was exited (and that
/// child's initial state below it); before any exit, its parent's initial state.
#[test]
fn shallow_history_enters_the_remembered_child_again() {
    let m = edited(REMEMBERS, |c| history(c, "a.hist", ir::HistoryKind::Shallow));
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    let first = rt.send(&rt.send(&s0.snapshot, ev("out"), 0).unwrap().snapshot, ev("back"), 0).unwrap();
    assert_eq!(at(&rt, &first), ["a.a1"], "no history yet: the parent's initial state");
    let mut s = s0.snapshot;
    for e in ["next", "deeper", "out"] {
        s = rt.send(&s, ev(e), 0).unwrap().snapshot;
    }
    assert_eq!(at(&rt, &rt.send(&s, ev("back"), 0).unwrap()), ["a.a2.x"], "shallow: a2 again, from its initial");
}

/// A deep history state enters again the atomic states its parent had.
#[test]
fn deep_history_enters_the_remembered_atomic_states_again() {
    let m = edited(REMEMBERS, |c| history(c, "a.hist", ir::HistoryKind::Deep));
    let rt = Runtime::new(&m);
    let mut s = rt.start(None, 0).snapshot;
    for e in ["next", "deeper", "out"] {
        s = rt.send(&s, ev(e), 0).unwrap().snapshot;
    }
    assert_eq!(s.history.len(), 1);
    let back = rt.send(&s, ev("back"), 0).unwrap();
    assert_eq!(at(&rt, &back), ["a.a2.y"]);
    assert!(!back.snapshot.configuration.contains(&sid(&m, "a.hist")), "a history state is never active");
}

fn raise(ty: &str) -> ir::Action {
    ir::Action::Raise { event: ir::Expr::Literal(ir::Json::String(ty.into())), delay: None, id: None }
}

/// A raised event goes on the internal queue: it is taken in the same macrostep, after the
/// current microstep, before any external event, in the order raised.
#[test]
fn raised_events_are_taken_in_order_within_the_macrostep() {
    let m = edited(
        r##"{ "id": "r", "initial": "a", "states": {
            "a": { "on": { "go": "b" } },
            "b": { "on": { "one": "c" } },
            "c": { "on": { "two": "d", "one": "a" } },
            "d": {} } }"##,
        |c| {
            let b = sid(c, "b");
            c.states[b.index()].entry = vec![raise("one"), raise("two")];
        },
    );
    let rt = Runtime::new(&m);
    let s = rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap();
    assert_eq!(at(&rt, &s), ["d"]);
}

/// A delayed raise is a timer with the send's id; `cancel` by that id drops it.
#[test]
fn a_delayed_raise_is_a_timer_that_cancel_drops() {
    let m = edited(
        r##"{ "id": "d", "initial": "a", "states": {
            "a": { "on": { "late": "b", "stop": "c" } }, "b": {}, "c": { "on": { "late": "b" } } } }"##,
        |c| {
            let lit = |s: &str| ir::Expr::Literal(ir::Json::String(s.into()));
            let a = sid(c, "a");
            c.states[a.index()].entry = vec![ir::Action::Raise {
                event: lit("late"),
                delay: Some(ir::Expr::Literal(ir::Json::String("2s".into()))),
                id: Some(lit("t1")),
            }];
            let stop = c.transitions.iter().position(|t| t.trigger == Trigger::Event("stop".into())).unwrap();
            c.transitions[stop].actions = vec![ir::Action::Cancel { id: lit("t1") }];
        },
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 100);
    assert_eq!(s0.requests, [Request::Schedule { id: "t1".into(), incarnation: 1, deadline: 2_100 }]);
    assert_eq!(at(&rt, &fire(&rt, &s0.snapshot, "t1", 2_100)), ["b"]);
    let stopped = rt.send(&s0.snapshot, ev("stop"), 500).unwrap();
    assert_eq!(stopped.requests, [Request::Cancel { id: "t1".into(), incarnation: 1 }]);
    assert!(stopped.snapshot.timers.is_empty());
    assert_eq!(
        rt.fire(&stopped.snapshot, "t1", 1, 2_100),
        Err(Refused::Stale { id: "t1".into(), incarnation: 1 }),
        "a cancelled timer is stale"
    );
}

/// An expression guard reads the context and the event; `InState` reads the configuration.
#[test]
fn expression_guards_read_context_event_and_the_configuration() {
    let text = r##"{ "id": "g", "type": "parallel", "states": {
        "left": { "initial": "off", "states": { "off": { "on": { "flip": "on" } }, "on": {} } },
        "right": { "initial": "wait", "states": { "wait": { "on": { "go": [ { "target": "big" }, { "target": "small" } ] } }, "big": {}, "small": {} } } } }"##;
    let m = edited(text, |c| {
        let on = sid(c, "left.on");
        let go = c.transitions.iter().position(|t| t.trigger == Trigger::Event("go".into())).unwrap();
        let n = ir::Expr::Ref(ir::expr::parse_reference("event.n").unwrap());
        let big = ir::Expr::Binary {
            op: ir::expr::BinaryOp::Gt,
            left: Box::new(n),
            right: Box::new(ir::Expr::Literal(ir::Json::Number(10.into()))),
        };
        let both = ir::Expr::Logical {
            op: ir::expr::LogicalOp::And,
            left: Box::new(big),
            right: Box::new(ir::Expr::InState(on)),
        };
        c.transitions[go].guard = Some(ir::Guard::Expr { expr: both });
    });
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    let small = rt.send(&s0, json!({ "type": "go", "n": 50 }), 0).unwrap();
    assert_eq!(at(&rt, &small), ["left.off", "right.small"], "left is not on");
    let on = rt.send(&s0, ev("flip"), 0).unwrap().snapshot;
    assert_eq!(at(&rt, &rt.send(&on, json!({ "type": "go", "n": 50 }), 0).unwrap()), ["left.on", "right.big"]);
    assert_eq!(at(&rt, &rt.send(&on, json!({ "type": "go", "n": 5 }), 0).unwrap()), ["left.on", "right.small"]);
}

/// In an SCXML document an action that cannot run raises `error.execution` and stops its
/// block; in a Machine it ends the run.
#[test]
fn an_action_error_is_error_execution_in_scxml_and_ends_a_machine() {
    let text = r##"{ "id": "e", "initial": "a", "states": {
        "a": { "on": { "error.execution": "failed", "go": "b" } }, "b": {}, "failed": {} } }"##;
    let broken = |c: &mut ir::Statechart| {
        let a = sid(c, "a");
        c.states[a.index()].entry = vec![ir::Action::Opaque { reason: "a script".into() }, raise("go")];
    };
    let scxml = edited(text, |c| {
        broken(c);
        c.origin = ir::Origin::Scxml;
    });
    let rt = Runtime::new(&scxml);
    let s = rt.start(None, 0);
    assert_eq!(at(&rt, &s), ["failed"], "the raise after the error did not run");
    let m = edited(text, broken);
    let rt = Runtime::new(&m);
    let s = rt.start(None, 0);
    assert_eq!(s.snapshot.status, Status::Error);
    assert_eq!(s.snapshot.error.map(|f| f.reason).as_deref(), Some("a script"));
}

/// A `foreach` over a huge array, or a state that raises its own event for ever, ends the run at
/// the step bound, naming the loop.
#[test]
fn foreach_and_self_raising_loops_end_at_the_step_bound() {
    let text = r##"{ "id": "l", "initial": "a", "states": { "a": { "on": { "again": { "target": "a", "reenter": true } } } } }"##;
    let m = edited(text, |c| {
        let a = sid(c, "a");
        c.states[a.index()].entry = vec![raise("again")];
    });
    let mut rt = Runtime::new(&m);
    rt.step_bound = 50;
    let s = rt.start(None, 0);
    assert_eq!(s.snapshot.status, Status::Error);
    assert!(s.snapshot.error.as_ref().unwrap().reason.contains("more than 50 microsteps"), "{:?}", s.snapshot.error);
    let m = edited(r##"{ "id": "f", "initial": "a", "context": { "n": 0 }, "states": { "a": {} } }"##, |c| {
        let items =
            ir::Expr::Literal(ir::Json::Array((0..1000).map(|i| ir::Json::Number((i as u64).into())).collect()));
        c.states[0].entry =
            vec![ir::Action::Foreach { array: items, item: "x".into(), index: None, actions: Vec::new() }];
    });
    let mut rt = Runtime::new(&m);
    rt.step_bound = 100;
    let s = rt.start(None, 0);
    assert_eq!(s.snapshot.status, Status::Error);
    assert!(s.snapshot.error.as_ref().unwrap().reason.contains("a foreach over 1000 items"), "{:?}", s.snapshot.error);
}

/// An inline child statechart runs in the run: it starts on entry, its events to `#_parent` come
/// back as external events, the parent's sends reach it, and its end is the invoke's done event.
#[test]
fn an_inline_child_runs_in_the_run_and_its_end_is_the_invokes_done() {
    let child = machine(
        r##"{ "id": "kid", "initial": "x", "states": { "x": { "on": { "ping": "y" } }, "y": { "type": "final" } } }"##,
    );
    let m = edited(
        r##"{ "id": "p", "initial": "a", "states": {
            "a": { "invoke": { "src": "kid", "id": "kid", "onDone": "b" }, "on": { "hello": "a2", "poke": {} } },
            "a2": { "invoke": { "src": "kid", "id": "kid2", "onDone": "b" }, "on": { "poke": {} } },
            "b": {} } }"##,
        |c| {
            let mut kid = child.statechart().clone();
            let x = sid(&kid, "x");
            kid.states[x.index()].entry = vec![ir::Action::Send {
                to: ir::SendTo::Parent,
                event: ir::Expr::Literal(ir::Json::String("hello".into())),
                delay: None,
                id: None,
                id_location: None,
            }];
            for path in ["a", "a2"] {
                let s = sid(c, path);
                c.states[s.index()].invokes[0].machine = Some(Box::new(kid.clone()));
            }
            let a = sid(c, "a");
            for t in c.transitions.iter_mut().filter(|t| t.trigger == Trigger::Event("poke".into())) {
                let to = if t.source == a { "kid" } else { "kid2" };
                t.actions = vec![ir::Action::Send {
                    to: ir::SendTo::Actor(ir::Expr::Literal(ir::Json::String(to.into()))),
                    event: ir::Expr::Literal(ir::Json::String("ping".into())),
                    delay: None,
                    id: None,
                    id_location: None,
                }];
            }
        },
    );
    let rt = Runtime::new(&m);
    let started = rt.start(None, 0);
    assert_eq!(at(&rt, &started), ["a"]);
    assert_eq!(started.snapshot.queue.len(), 1, "the child's hello waits on the parent's queue");
    // The child's hello moves the parent to a2 (stopping kid), and a2 starts kid2, whose hello
    // the parent takes in a2 with no transition.
    let mut s0 = started;
    let mut taken = 0;
    while let Some(next) = rt.take_queued(&s0.snapshot, 0) {
        s0 = next;
        taken += 1;
    }
    assert_eq!(taken, 2);
    assert_eq!(at(&rt, &s0), ["a2"]);
    assert_eq!(s0.snapshot.children.len(), 1);
    assert_eq!(s0.snapshot.children[0].id, "kid2");
    assert!(s0.requests.is_empty(), "the host is asked nothing: {:?}", s0.requests);
    assert!(s0.snapshot.queue.is_empty());
    let sent = rt.send(&s0.snapshot, ev("poke"), 0).unwrap();
    assert_eq!(sent.snapshot.queue.len(), 1, "kid2's end waits on the parent's queue");
    let poked = rt.take_queued(&sent.snapshot, 0).unwrap();
    assert_eq!(at(&rt, &poked), ["b"], "kid2 reached its final state: the invoke's onDone");
    assert!(poked.snapshot.children.is_empty());
}

/// A Chart's kit guards run: `jr2.failure` tells a Failure (the host brands it) from a defect,
/// `jr2.ready` a ready output.
#[test]
fn the_kits_guards_read_the_outcome() {
    let m = machine(
        r##"{ "id": "k", "initial": "cut", "states": {
            "cut": { "invoke": { "src": "worktree", "id": "cut",
                "onDone": [ { "guard": { "type": "jr2.ready" }, "target": "coding" }, { "target": "notCut" } ],
                "onError": [ { "guard": { "type": "jr2.failure" }, "target": "failed" }, { "target": "defect" } ] } },
            "coding": {}, "notCut": {}, "failed": {}, "defect": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    let done = |output: Value| settle(&rt, &s0, "cut", Outcome::Done(output));
    let error = |error: Value| settle(&rt, &s0, "cut", Outcome::Error(error));
    assert_eq!(at(&rt, &done(json!({ "ready": true }))), ["coding"]);
    assert_eq!(at(&rt, &done(json!({ "ready": false }))), ["notCut"]);
    assert_eq!(at(&rt, &error(json!({ "jr2": "failure", "reason": "no" }))), ["failed"]);
    assert_eq!(at(&rt, &error(json!("boom"))), ["defect"]);
}

/// The kit's `sentBy` (the seeds' party.ts): true for the party's event and for one with no
/// sender (the machine's own, a raise here), false for another party's; a lent guard is the
/// host's answer, and without one the run says it cannot evaluate it.
#[test]
fn sent_by_reads_the_sender_and_a_lent_guard_the_hosts_answer() {
    let m = machine(
        r##"{ "id": "p", "initial": "drafting", "states": {
            "drafting": { "on": {
                "done": [ { "guard": { "type": "jr2.sentBy", "params": { "id": "writer" } }, "target": "review" }, { "target": "skipped" } ],
                "answer": [ { "guard": "approved", "target": "review" }, { "target": "skipped" } ] } },
            "review": {}, "skipped": {} } }"##,
    );
    let mut rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    assert_eq!(at(&rt, &rt.send_from(s0.clone(), ev("done"), "writer", 0).unwrap()), ["review"]);
    assert_eq!(at(&rt, &rt.send_from(s0.clone(), ev("done"), "editor", 0).unwrap()), ["skipped"]);
    assert_eq!(at(&rt, &rt.send(&s0, ev("done"), 0).unwrap()), ["review"], "no sender: the machine's own");
    let unanswered = rt.send(&s0, ev("answer"), 0).unwrap().snapshot;
    assert_eq!(unanswered.status, Status::Error);
    assert!(unanswered.error.unwrap().reason.contains("\"approved\""));
    rt.host = Some(Arc::new(std::collections::BTreeMap::from([("approved".to_string(), false)])));
    assert_eq!(at(&rt, &rt.send(&s0, ev("answer"), 0).unwrap()), ["skipped"]);
}

/// `root.a.b` as an expression.
fn path_ref(root: ir::expr::Root, path: &[&str]) -> ir::Expr {
    ir::Expr::Ref(ir::expr::Reference { root, path: path.iter().map(|k| ir::Name::from(*k)).collect() })
}

fn num(n: f64) -> ir::Expr {
    ir::Expr::Literal(ir::Json::from(json!(n)))
}

/// xstate's `evaluateGuard` and `resolveActionsAndContext`: a named guard or action runs its
/// implementation, with `params` the reference's own params (evaluated where it is named), and
/// `undefined` where the reference has none.
#[test]
fn named_guards_and_actions_run_their_implementations_with_params() {
    use ir::expr::{BinaryOp, Root};
    let m = edited(
        r##"{ "id": "p", "initial": "a", "context": { "n": 1 }, "states": {
            "a": { "on": {
                "bump": { "actions": { "type": "add", "params": { "by": 2 } } },
                "plain": { "actions": "add" },
                "go": [ { "guard": { "type": "atLeast", "params": { "n": 3 } }, "target": "b" } ] } },
            "b": {} } }"##,
        |c| {
            let by = path_ref(Root::Params, &["by"]);
            let n = path_ref(Root::Context, &["n"]);
            let sum = ir::Expr::Binary { op: BinaryOp::Add, left: Box::new(n.clone()), right: Box::new(by) };
            c.implementations.actions.insert(
                "add".into(),
                vec![ir::Action::Assign { updates: [("n".into(), std::sync::Arc::new(sum))].into_iter().collect() }],
            );
            let at_least = ir::Expr::Binary {
                op: BinaryOp::Ge,
                left: Box::new(n),
                right: Box::new(path_ref(Root::Params, &["n"])),
            };
            c.implementations.guards.insert("atLeast".into(), ir::Guard::Expr { expr: at_least });
        },
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    assert_eq!(at(&rt, &rt.send(&s0, ev("go"), 0).unwrap()), ["a"], "1 >= 3 is false");
    let s1 = rt.send(&s0, ev("bump"), 0).unwrap().snapshot;
    assert_eq!(s1.context, json!({ "n": 3 }));
    assert_eq!(at(&rt, &rt.send(&s1, ev("go"), 0).unwrap()), ["b"], "3 >= 3");
    // No params: `params.by` is undefined, and 3 + undefined is NaN (JSON's null).
    let s2 = rt.send(&s1, ev("plain"), 0).unwrap().snapshot;
    assert_eq!(s2.status, Status::Active);
    assert_eq!(s2.context, json!({ "n": null }));
}

/// A named delay's implementation gives its milliseconds, evaluated on entry over the context; a
/// `raise` with a named delay reads the same implementation.
#[test]
fn named_delays_are_their_implementations_milliseconds() {
    use ir::expr::{BinaryOp, Root};
    let m = edited(
        r##"{ "id": "d", "initial": "wait", "context": { "tries": 3 }, "states": {
            "wait": { "after": { "backoff": "next" } }, "next": {} } }"##,
        |c| {
            let ms = ir::Expr::Binary {
                op: BinaryOp::Mul,
                left: Box::new(path_ref(Root::Context, &["tries"])),
                right: Box::new(num(100.0)),
            };
            c.implementations.delays.insert("backoff".into(), ms);
        },
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    assert_eq!(s0.snapshot.timers.len(), 1);
    assert_eq!(s0.snapshot.timers[0].deadline, 300);
    let fired = fire(&rt, &s0.snapshot, &s0.snapshot.timers[0].id, 300);
    assert_eq!(at(&rt, &fired), ["next"]);
    // With no implementation, the run ends `error`, naming the delay.
    let bare = machine(
        r##"{ "id": "d", "initial": "wait", "states": { "wait": { "after": { "backoff": "next" } }, "next": {} } }"##,
    );
    let rt = Runtime::new(&bare);
    let s = rt.start(None, 0).snapshot;
    assert_eq!(s.status, Status::Error);
    assert!(s.error.unwrap().reason.contains("\"backoff\""));
}

/// A guard whose implementation names itself ends the run `error` at the nesting bound, not in a
/// stack overflow.
#[test]
fn a_guard_that_names_itself_ends_the_run_error() {
    let m = edited(
        r##"{ "id": "g", "initial": "a", "states": { "a": { "on": { "go": { "target": "b", "guard": "loop" } } }, "b": {} } }"##,
        |c| {
            c.implementations.guards.insert("loop".into(), ir::Guard::Named { name: "loop".into(), params: None });
        },
    );
    let rt = Runtime::new(&m);
    let s = rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap().snapshot;
    assert_eq!(s.status, Status::Error);
    assert!(s.error.unwrap().reason.contains("\"loop\""));
}

/// Reaching a final state of the root runs the exit actions of every state still active, the
/// final one first, then the root (xstate's `microstep` once its snapshot is `done`, SCXML's
/// `exitInterpreter`): the context keeps what they assign.
#[test]
fn reaching_the_roots_final_state_runs_the_active_states_exit_actions() {
    let assign = |key: &str, value: &str| {
        let mut updates = ir::FxIndexMap::default();
        updates.insert(ir::Name::from(key), std::sync::Arc::new(ir::Expr::Literal(ir::Json::String(value.into()))));
        ir::Action::Assign { updates }
    };
    let m = edited(
        r##"{ "id": "f", "initial": "a", "states": { "a": { "on": { "go": "end" } }, "end": { "type": "final" } } }"##,
        |c| {
            let end = sid(c, "end");
            c.states[end.index()].exit = vec![assign("last", "end")];
            c.states[StateId::ROOT.index()].exit = vec![assign("last", "root"), assign("end", "exited")];
        },
    );
    let rt = Runtime::new(&m);
    let s = rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap();
    assert_eq!(s.snapshot.status, Status::Done);
    assert_eq!(at(&rt, &s), ["end"], "the final configuration stays");
    assert_eq!(
        s.snapshot.context,
        json!({ "last": "root", "end": "exited" }),
        "the final state's exit ran before the root's"
    );
}

/// An SCXML state's `<onentry>` elements are blocks of their own: an error stops the rest of its
/// block (and raises `error.execution`), not the next block.
#[test]
fn an_error_in_one_scxml_block_does_not_stop_the_next() {
    let m = edited(
        r##"{ "id": "b", "initial": "a", "states": { "a": { "on": { "go": "b", "never": "c" } }, "b": {}, "c": {} } }"##,
        |c| {
            let a = sid(c, "a");
            c.states[a.index()].entry = vec![
                ir::Action::Block { actions: vec![ir::Action::Opaque { reason: "a script".into() }, raise("never")] },
                ir::Action::Block { actions: vec![raise("go")] },
            ];
            c.origin = ir::Origin::Scxml;
        },
    );
    let rt = Runtime::new(&m);
    let s = rt.start(None, 0);
    assert_eq!(s.snapshot.status, Status::Active);
    assert_eq!(at(&rt, &s), ["b"], "the second block ran, the rest of the first did not");
}

/// A deep history state of one region and a transition out of the parallel state in another,
/// taken together: their exit sets do not meet (the history state's effective target is its
/// transition's own source), so xstate takes both. The history state enters what it remembers
/// (`y`) without its region or parallel state, a configuration no statechart may be in; xstate's
/// next selection reads its state value, in which `y`'s ancestors are active again (added after
/// the states entered before them), so the raised `again` is taken from `y` where `out` is
/// compound; where `out` is atomic, the root's value is `out` alone and nothing takes it.
/// (Real xstate 5.33 gives both: runtime-diff's seed 1006750 found it.)
#[test]
fn a_history_entered_beside_an_exit_of_its_parallel_state_reads_as_xstate_does() {
    for (out, expected) in [
        (
            r##"{ "id": "out", "initial": "o1", "on": { "enter": "#p" }, "states": { "o1": {} } }"##,
            vec!["p.r1.x", "p.r2.y"],
        ),
        (r##"{ "id": "out", "on": { "enter": "#p" } }"##, vec!["p.r2.y", "out"]),
    ] {
        let text = format!(
            r##"{{ "id": "h", "initial": "p", "states": {{
                "p": {{ "id": "p", "type": "parallel", "on": {{ "leave": "#out" }}, "states": {{
                    "r1": {{ "initial": "x", "states": {{ "x": {{ "on": {{ "go": "#out" }} }} }} }},
                    "r2": {{ "initial": "y", "states": {{ "y": {{ "on": {{ "go": "hist", "again": "#p" }} }}, "hist": {{}} }} }} }} }},
                "out": {out} }} }}"##
        );
        let m = edited(&text, |c| {
            history(c, "p.r2.hist", ir::HistoryKind::Deep);
            let y = sid(c, "p.r2.y");
            let go = c
                .transitions
                .iter_mut()
                .find(|t| t.source == y && t.trigger == Trigger::Event("go".into()))
                .expect("y's go");
            go.actions = vec![raise("again")];
        });
        let rt = Runtime::new(&m);
        let mut s = rt.start(None, 0).snapshot;
        for e in ["leave", "enter"] {
            s = rt.send(&s, ev(e), 0).unwrap().snapshot;
        }
        assert_eq!(s.history.len(), 1, "the deep history remembers y");
        let go = rt.send(&s, ev("go"), 0).unwrap();
        assert_eq!(at(&rt, &go), expected, "{out}");
    }
}

/// The invoke of state `path` made the kit's `fail()` (a Chart lends it; here the IR is edited).
fn failing(chart: &mut ir::Statechart, path: &str) {
    let s = sid(chart, path);
    chart.states[s.index()].invokes[0].kind = SlotKind::Fail;
}

/// ADR-0073: `fail()` does no work outside the Machine, so the core settles it: its Failure is
/// the actor's error one macrostep later, with no request to the host; uncaught, the run ends
/// `failed` with the Failure's `{ reason, detail }` as its output, stopping nothing it need not.
#[test]
fn an_uncaught_failure_ends_the_run_failed_with_its_payload() {
    let m = edited(
        r##"{ "id": "f", "initial": "work", "states": {
            "work": { "invoke": { "src": "tests" }, "on": { "give-up": "giving-up" } },
            "giving-up": { "invoke": { "src": "fail", "input": { "reason": "no luck", "detail": { "tries": 3 } } } } } }"##,
        |c| failing(c, "giving-up"),
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    let s1 = rt.send(&s0.snapshot, ev("give-up"), 0).unwrap();
    assert_eq!(s1.snapshot.status, Status::Failed);
    assert_eq!(s1.snapshot.output, Some(json!({ "reason": "no luck", "detail": { "tries": 3 } })));
    assert_eq!(s1.snapshot.error, None, "a Failure is no fault");
    // The host's actor of `work` was stopped on exit; `fail()` never reached the host.
    assert_eq!(s1.requests, [Request::Stop { id: "0.f.work".into(), incarnation: 1 }]);
    assert!(s1.snapshot.actors.is_empty());
}

/// A Failure an `onError` catches is a route like any other (`jr2.failure` tells it from a
/// defect); a defect nothing catches ends the run `error`, its fault naming the actor, the event,
/// the state and carrying the error.
#[test]
fn a_caught_failure_routes_and_an_uncaught_defect_ends_the_run_error() {
    let m = edited(
        r##"{ "id": "c", "initial": "a", "states": {
            "a": { "invoke": { "src": "fail", "id": "f", "input": { "reason": "bad plan" },
                   "onError": [ { "guard": { "type": "jr2.failure" }, "target": "replan" }, { "target": "defect" } ] } },
            "replan": { "invoke": { "src": "tests", "id": "t" } }, "defect": {} } }"##,
        |c| failing(c, "a"),
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0);
    assert_eq!(at(&rt, &s0), ["replan"], "the Failure was raised and caught within the start");
    assert_eq!(s0.snapshot.status, Status::Active);
    let e = settle(&rt, &s0.snapshot, "t", Outcome::Error(json!({ "message": "exit 3" })));
    assert_eq!(e.snapshot.status, Status::Error);
    let fault = e.snapshot.error.unwrap();
    assert_eq!(fault.event.as_deref(), Some("xstate.error.actor.t"));
    assert_eq!(fault.states, ["replan"]);
    assert!(fault.reason.contains("\"t\"") && fault.reason.contains("exit 3"), "{fault:?}");
    assert_eq!(fault.error, Some(json!({ "message": "exit 3" })));
}

/// A `fail()` state left in the macrostep that entered it raises nothing: its actor is gone
/// before the macrostep ends (xstate never starts it).
#[test]
fn a_fail_state_passed_through_raises_nothing() {
    let m = edited(
        r##"{ "id": "p", "initial": "a", "states": {
            "a": { "on": { "go": "f" } },
            "f": { "invoke": { "src": "fail", "input": { "reason": "x" } }, "always": "b" }, "b": {} } }"##,
        |c| failing(c, "f"),
    );
    let rt = Runtime::new(&m);
    let s = rt.send(&rt.start(None, 0).snapshot, ev("go"), 0).unwrap();
    assert_eq!((s.snapshot.status, at(&rt, &s)), (Status::Active, vec!["b".to_string()]));
}

/// Incarnations: a state entered again starts its actor and sets its timer under new
/// incarnations; a late outcome of the stopped actor, or a firing of the cancelled timer, is
/// stale and changes nothing.
#[test]
fn a_stale_outcome_or_timer_of_a_state_entered_again_is_dropped() {
    let m = machine(
        r##"{ "id": "soak", "initial": "calling", "states": {
            "calling": { "invoke": { "src": "tests", "onDone": "done" }, "after": { "300": "late" },
                         "on": { "again": { "target": "calling", "reenter": true } } },
            "late": {}, "done": { "type": "final" } } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    let (actor, timer) = (s0.actors[0].clone(), s0.timers[0].clone());
    let s1 = rt.send(&s0, ev("again"), 100).unwrap().snapshot;
    assert_eq!((s1.actors[0].id.as_str(), s1.timers[0].id.as_str()), (actor.id.as_str(), timer.id.as_str()));
    assert!(s1.actors[0].incarnation > actor.incarnation && s1.timers[0].incarnation > timer.incarnation);
    let mut live = rt.resume(s1.clone());
    let stale = rt.outcome(&mut live, &actor.id, actor.incarnation, Outcome::Done(json!(1)), 200);
    assert_eq!(stale, Err(Refused::Stale { id: actor.id.clone(), incarnation: actor.incarnation }));
    assert_eq!(
        rt.fire_live(&mut live, &timer.id, timer.incarnation, 300),
        Err(Refused::Stale { id: timer.id.clone(), incarnation: timer.incarnation })
    );
    assert_eq!(live.snapshot(), s1, "nothing changed");
    // The new incarnation's outcome is taken.
    let n = s1.actors[0].incarnation;
    rt.outcome(&mut live, &actor.id, n, Outcome::Done(json!(1)), 250).unwrap();
    assert_eq!(live.status(), Status::Done);
}

/// An event from outside typed `xstate.*` is refused: it would forge an outcome or a timer.
#[test]
fn an_outside_event_typed_xstate_is_refused() {
    let m = machine(
        r##"{ "id": "x", "initial": "a", "states": { "a": { "invoke": { "src": "tests", "id": "x", "onDone": "b" } }, "b": {} } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    let forged = json!({ "type": "xstate.done.actor.x", "output": 1 });
    assert_eq!(rt.send(&s0, forged.clone(), 0), Err(Refused::Reserved("xstate.done.actor.x".into())));
    let mut live = rt.resume(s0.clone());
    assert!(rt.send_text(&mut live, "xstate.done.actor.x", &forged.to_string(), 0).is_err());
    assert!(rt.send_from_live(&mut live, forged, "x", 0).is_err());
    assert_eq!(live.into_snapshot(), s0);
}

/// Timers due at the same instant carry the order they were set in (their incarnations), which
/// is the order a host fires them in (`docs/reference/semantics.md`), whatever their ids.
#[test]
fn timers_of_one_deadline_are_ordered_as_they_were_set() {
    let m = machine(
        r##"{ "id": "o", "type": "parallel", "states": {
            "z": { "initial": "w", "states": { "w": { "after": { "100": "x" } }, "x": {} } },
            "a": { "initial": "w", "states": { "w": { "after": { "100": "x" } }, "x": {} } } } }"##,
    );
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    let mut due: Vec<&Timer> = s0.timers.iter().collect();
    due.sort_by_key(|t| (t.deadline, t.incarnation));
    let ids: Vec<&str> = due.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["xstate.after.100.o.z.w", "xstate.after.100.o.a.w"], "document order, not the ids' order");
}

/// What a host asks of a run without stepping it (`takes`), the transitions an event took
/// (`taken`: empty for an event no transition takes), and `cancel`, which ends the run `cancelled`
/// and stops the whole tree.
#[test]
fn takes_taken_and_cancel() {
    let m = machine(
        r##"{ "id": "t", "initial": "a", "states": {
            "a": { "invoke": { "src": "tests" }, "after": { "50": "b" }, "on": { "go": [ { "guard": "never", "target": "b" }, { "target": "b" } ] } },
            "b": {} } }"##,
    );
    let mut rt = Runtime::new(&m);
    rt.host = Some(Arc::new(std::collections::BTreeMap::from([("never".to_string(), false)])));
    let (mut live, _) = rt.start_live(None, 0);
    let before = live.snapshot();
    assert_eq!(rt.takes(&live, &ev("go")), [1], "the second candidate");
    assert!(rt.takes(&live, &ev("agent.fault")).is_empty());
    assert_eq!(live.snapshot(), before, "takes steps nothing");
    rt.send_live(&mut live, ev("nothing"), 0).unwrap();
    assert!(live.taken().is_empty(), "no transition took it");
    let requests = rt.cancel(&mut live);
    assert_eq!(live.status(), Status::Cancelled);
    assert_eq!(
        requests,
        [
            Request::Stop { id: "0.t.a".into(), incarnation: 1 },
            Request::Cancel { id: "xstate.after.50.t.a".into(), incarnation: 2 }
        ]
    );
    assert!(rt.cancel(&mut live).is_empty(), "once");
    let (mut live, _) = rt.start_live(None, 0);
    rt.send_live(&mut live, ev("go"), 0).unwrap();
    assert_eq!(live.taken(), [1]);
}

/// A context is bounded: an `assign` of `s + s` on every event (SCXML's `<assign location="s"
/// expr="s + s"/>`) ends the run `error` naming the bound once it passes 16 MiB, in bounded time
/// and memory; so does a context nested in itself on every event, at the depth bound.
#[test]
fn a_context_that_doubles_or_nests_ends_the_run_at_its_bound() {
    let text = r##"{ "id": "d", "initial": "a", "context": { "s": "ab" }, "states": { "a": { "on": { "grow": { "actions": [] } } } } }"##;
    let grow = |value: ir::Expr| {
        edited(text, move |c| {
            let t = c.transitions.iter().position(|t| t.trigger == Trigger::Event("grow".into())).unwrap();
            c.transitions[t].actions =
                vec![ir::Action::Assign { updates: [("s".into(), std::sync::Arc::new(value))].into_iter().collect() }];
        })
    };
    let doubled = grow(ir::Expr::Binary {
        op: BinaryOp::Add,
        left: Box::new(path_ref(Root::Context, &["s"])),
        right: Box::new(path_ref(Root::Context, &["s"])),
    });
    let rt = Runtime::new(&doubled);
    let (mut live, _) = rt.start_live(None, 0);
    let mut events = 0;
    while live.status() == Status::Active && events < 100 {
        rt.send_live(&mut live, ev("grow"), 0).unwrap();
        events += 1;
    }
    assert_eq!(live.status(), Status::Error);
    assert!(events < 30, "ended after {events} events");
    let fault = live.error().unwrap();
    assert!(fault.reason.contains("past its bound of 16777216 bytes"), "{fault:?}");
    assert_eq!(fault.event.as_deref(), Some("grow"));
    // `{ s: { inner: context } }` nests one level deeper on each event.
    let nested = grow(ir::Expr::Object(vec![("inner".into(), path_ref(Root::Context, &[]))]));
    let rt = Runtime::new(&nested);
    let (mut live, _) = rt.start_live(None, 0);
    let mut events = 0;
    while live.status() == Status::Active && events < 1_000 {
        rt.send_live(&mut live, ev("grow"), 0).unwrap();
        events += 1;
    }
    assert_eq!(live.status(), Status::Error);
    assert!(live.error().unwrap().reason.contains("deeper than its bound of 64 levels"), "{:?}", live.error());
    assert_eq!(events, 32, "two levels an event (`s`, `inner`), 64 levels");
}

/// A context that shares one value in many places is measured as it is written out: doubling by
/// sharing (`{ l: x, r: x }` on each event) is caught as doubling by copying is.
#[test]
fn a_context_doubling_by_sharing_is_caught_too() {
    let text = r##"{ "id": "d", "initial": "a", "context": { "s": "abcdefgh" }, "states": { "a": { "on": { "grow": { "actions": [] } } } } }"##;
    let m = edited(text, |c| {
        let t = c.transitions.iter().position(|t| t.trigger == Trigger::Event("grow".into())).unwrap();
        let pair = ir::Expr::Object(vec![
            ("l".into(), path_ref(Root::Context, &["s"])),
            ("r".into(), path_ref(Root::Context, &["s"])),
        ]);
        c.transitions[t].actions =
            vec![ir::Action::Assign { updates: [("s".into(), std::sync::Arc::new(pair))].into_iter().collect() }];
    });
    let mut rt = Runtime::new(&m);
    rt.bounds.context_depth = 1_000;
    let (mut live, _) = rt.start_live(None, 0);
    let mut events = 0;
    while live.status() == Status::Active && events < 200 {
        rt.send_live(&mut live, ev("grow"), 0).unwrap();
        events += 1;
    }
    assert_eq!(live.status(), Status::Error, "after {events} events");
    assert!(live.error().unwrap().reason.contains("bytes"), "{:?}", live.error());
}

/// The stored form loses nothing JSON cannot say: `undefined`, NaN, ±Infinity, -0, an object
/// with a `$js` key of its own, and which parts of the context are one value (`===`).
#[test]
fn the_stored_form_keeps_every_javascript_value_and_shared_identity() {
    let shared = JsValue::object_of(vec![("k".into(), JsValue::Number(1.0))]);
    let context = JsValue::object_of(vec![
        ("u".into(), JsValue::Undefined),
        ("nan".into(), JsValue::Number(f64::NAN)),
        ("inf".into(), JsValue::Number(f64::INFINITY)),
        ("ninf".into(), JsValue::Number(f64::NEG_INFINITY)),
        ("nz".into(), JsValue::Number(-0.0)),
        ("big".into(), JsValue::Number(1e300)),
        ("third".into(), JsValue::Number(1.0 / 3.0)),
        ("tagged".into(), JsValue::object_of(vec![("$js".into(), JsValue::String("ref".into()))])),
        ("a".into(), shared.clone()),
        ("b".into(), JsValue::Array(std::sync::Arc::new(vec![shared.clone(), JsValue::Undefined]))),
        ("copy".into(), JsValue::object_of(vec![("k".into(), JsValue::Number(1.0))])),
    ]);
    let text = write_value(&context).to_string();
    let back = read_value(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(write_value(&back).to_string(), text, "the same form again");
    let m = |k: &str| back.member(k);
    assert!(matches!(m("u"), JsValue::Undefined));
    assert!(matches!(m("nan"), JsValue::Number(n) if n.is_nan()));
    assert!(matches!(m("nz"), JsValue::Number(n) if n == 0.0 && n.is_sign_negative()));
    assert!(matches!(m("inf"), JsValue::Number(n) if n == f64::INFINITY));
    assert!(matches!(m("ninf"), JsValue::Number(n) if n == f64::NEG_INFINITY));
    assert!(matches!(m("third"), JsValue::Number(n) if n == 1.0 / 3.0));
    assert!(matches!(m("big"), JsValue::Number(n) if n == 1e300));
    assert!(matches!(m("tagged").member("$js"), JsValue::String(s) if &*s == "ref"));
    let (JsValue::Object(a), JsValue::Object(b0), JsValue::Object(copy)) = (m("a"), m("b").member("0"), m("copy"))
    else {
        panic!("{back:?}")
    };
    assert!(std::sync::Arc::ptr_eq(&a, &b0), "one value, as it was");
    assert!(!std::sync::Arc::ptr_eq(&a, &copy), "an equal copy stays a copy");
    // Malformed stored values are errors, never panics.
    for bad in [
        json!({ "$js": "ref", "id": 0 }),
        json!({ "$js": "what" }),
        json!({ "$js": 1 }),
        json!({ "$js": "object" }),
        json!({ "$js": "def", "id": 0, "value": { "$js": "ref", "id": 0 } }),
        json!([{ "$js": "def", "id": 0, "value": 1 }, { "$js": "def", "id": 0, "value": 2 }]),
    ] {
        assert!(read_value(&bad).is_err(), "{bad}");
    }
}

/// A run encoded at any macrostep and decoded goes on as the live one does; a stored form that
/// does not fit the IR (another format, a state that moved or is not there, a configuration no
/// run can be in, an actor of an inactive state) is an error naming why, never a panic.
#[test]
fn a_stored_run_goes_on_as_the_live_one_and_one_that_does_not_fit_is_refused() {
    let m = edited(REMEMBERS, |c| history(c, "a.hist", ir::HistoryKind::Deep));
    let rt = Runtime::new(&m);
    let script = ["next", "deeper", "out", "back", "out"];
    for cut in 0..=script.len() {
        let (mut live, _) = rt.start_live(None, 0);
        for e in &script[..cut] {
            rt.send_live(&mut live, ev(e), 0).unwrap();
        }
        let text = rt.encode(&live.snapshot()).to_string();
        let mut restored = rt.restore(&serde_json::from_str(&text).unwrap()).unwrap();
        for e in &script[cut..] {
            let a = rt.send_live(&mut live, ev(e), 0).unwrap();
            let b = rt.send_live(&mut restored, ev(e), 0).unwrap();
            assert_eq!(a, b);
            assert_eq!(live.snapshot(), restored.snapshot(), "cut at {cut}, then {e}");
        }
    }
    let s0 = rt.start(None, 0).snapshot;
    let good = rt.encode(&s0);
    assert_eq!(rt.decode(&good).unwrap(), s0);
    let broken = |edit: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        edit(&mut v);
        rt.decode(&v).unwrap_err().0
    };
    assert!(broken(&|v| v["format"] = json!(99)).contains("format is 99"));
    assert!(broken(&|v| v["configuration"][1]["path"] = json!("b")).contains("not \"b\""));
    assert!(broken(&|v| v["configuration"][1] = json!({ "id": 999, "path": "x" })).contains("no state 999"));
    assert!(broken(&|v| {
        v["configuration"].as_array_mut().unwrap().pop();
    })
    .contains("active children"));
    assert!(broken(&|v| v["status"] = json!("paused")).contains("status"));
    assert!(broken(&|v| v["context"] = json!({ "$js": "ref", "id": 3 })).contains("shared value 3"));
    let b = sid(&m, "b");
    assert!(broken(&|v| v["actors"] =
        json!([{ "id": "x", "incarnation": 1, "src": "s", "kind": "effect", "state": { "id": b.0, "path": "b" } }]))
    .contains("not active"));
    assert!(broken(&|v| v["actors"] =
        json!([{ "id": "x", "incarnation": 7, "src": "s", "kind": "effect", "state": { "id": 0, "path": "" } }]))
    .contains("past the run's count"));
    // A snapshot made by hand that names a state the IR lacks: validate, not a panic.
    let mut wrong = s0.clone();
    wrong.configuration.push(StateId(4_000));
    assert!(rt.validate(&wrong).is_err());
}

fn carried(code: &str) -> ir::Expr {
    ir::Expr::Js(Arc::new(ir::expr::Script {
        code: code.into(),
        args: vec![Root::Context, Root::Event],
        ..ir::expr::Script::default()
    }))
}

/// Issue 34: a function carried as JavaScript runs in the engine as a guard, an `assign`'s update
/// and an action; its `Math.random()` is the run's (the snapshot keeps the generator, so a
/// restored run draws what the live one draws); a throwing guard ends the run `error` with the
/// thrown error's text, as xstate ends an actor whose guard throws.
#[test]
fn carried_functions_run_in_the_engine_and_their_randomness_is_the_runs() {
    let text = r##"{ "id": "c", "initial": "idle", "context": { "items": [] }, "states": {
        "idle": { "on": { "add": { "target": "idle" }, "boom": "idle", "done": "over" } }, "over": {} } }"##;
    let m = edited(text, |c| {
        let on = |c: &ir::Statechart, ty: &str| {
            c.transitions.iter().position(|t| t.trigger == Trigger::Event(ty.into())).unwrap()
        };
        let (add, boom) = (on(c, "add"), on(c, "boom"));
        c.transitions[add].guard = Some(ir::Guard::Expr {
            expr: carried("({ context, event }) => !context.items.some((i) => i.name === event.name)"),
        });
        let mut updates = ir::FxIndexMap::default();
        updates.insert(
            "items".into(),
            Arc::new(carried("({ context, event }) => [...context.items, { name: event.name, roll: Math.random() }]")),
        );
        c.transitions[add].actions =
            vec![ir::Action::Assign { updates }, ir::Action::Run { value: carried("() => { console.log('x'); }") }];
        c.transitions[boom].guard =
            Some(ir::Guard::Expr { expr: carried("({ event }) => event.payload.missing.deeper") });
    });
    let rt = Runtime::new(&m);
    let s0 = rt.start(None, 0).snapshot;
    let s1 = rt.send(&s0, json!({ "type": "add", "name": "a" }), 0).unwrap().snapshot;
    let s2 = rt.send(&s1, json!({ "type": "add", "name": "a" }), 0).unwrap().snapshot;
    assert_eq!(s2.context.0.to_json(), s1.context.0.to_json(), "the guard refused a second `a`");
    let live = rt.send(&s2, json!({ "type": "add", "name": "b" }), 0).unwrap().snapshot;
    let items = live.context.0.to_json().unwrap()["items"].clone();
    assert_eq!(items.as_array().map(Vec::len), Some(2));
    assert_ne!(items[0]["roll"], items[1]["roll"]);
    assert_ne!(s0.random, s1.random, "the generator moved on");
    // The same run restored from its snapshot draws the same next number.
    let encoded = rt.encode(&s1);
    let restored = rt.decode(&encoded).unwrap();
    let again = rt.send(&restored, json!({ "type": "add", "name": "b" }), 0).unwrap().snapshot;
    assert_eq!(again.context.0.to_json(), live.context.0.to_json());
    // A guard that throws ends the run `error`, with the thrown error.
    let broken = rt.send(&s1, ev("boom"), 0).unwrap().snapshot;
    assert_eq!(broken.status, Status::Error);
    let fault = broken.error.unwrap();
    assert!(fault.reason.contains("TypeError"), "{}", fault.reason);
    // The thrown error is the fault's value, as xstate hands it to a parent.
    assert_eq!(fault.error.as_ref().and_then(|e| e.get("name")), Some(&json!("TypeError")));
}

/// Issue 34 item 8: a run that sends itself an event for each one it takes (SCXML's `<send>` with
/// no target) ends `error` at the queue bound after one event from outside, instead of keeping
/// its host busy for ever; the count is in the snapshot (a host may store the run between two
/// queued events) and an event from outside starts it anew.
#[test]
fn a_run_that_feeds_its_own_queue_ends_at_the_queue_bound() {
    let text =
        r##"{ "id": "q", "initial": "a", "states": { "a": { "on": { "ping": { "target": "a" }, "poke": {} } } } }"##;
    let m = edited(text, |c| {
        c.origin = ir::Origin::Scxml;
        let ping = c.transitions.iter().position(|t| t.trigger == Trigger::Event("ping".into())).unwrap();
        c.transitions[ping].actions = vec![ir::Action::Send {
            to: ir::SendTo::Own,
            event: ir::Expr::Literal(ir::Json::String("ping".into())),
            delay: None,
            id: None,
            id_location: None,
        }];
    });
    let mut rt = Runtime::new(&m);
    rt.queue_bound = 50;
    let s0 = rt.start(None, 0).snapshot;
    let mut s = rt.send(&s0, ev("ping"), 0).unwrap().snapshot;
    let mut taken = 0;
    while let Some(step) = rt.take_queued(&s, 0) {
        s = step.snapshot;
        taken += 1;
        if taken == 20 {
            // Stored and read back between two queued events: the count goes on.
            s = rt.decode(&rt.encode(&s)).unwrap();
            assert_eq!(s.chained, 20);
            // An event from outside starts it anew.
            s = rt.send(&s, ev("poke"), 0).unwrap().snapshot;
            assert_eq!(s.chained, 0);
        }
        assert!(taken < 1000, "the queue never ended");
    }
    assert_eq!(s.status, Status::Error);
    assert_eq!(taken, 20 + 51, "50 taken after the poke, the 51st refused");
    assert!(s.error.unwrap().reason.contains("more than 50 events it sent itself"));
}

/// Issue 34 item 7: one program, loaded once by identity, drives runs on several threads; what
/// belongs to a run (its session, SCXML's `_sessionid`, its generator's seed) is in its snapshot,
/// and a lent guard is asked of the host with the run's session.
#[test]
fn a_program_is_loaded_once_and_shared_by_runs_on_any_thread() {
    let text = r##"{ "id": "p", "initial": "a", "states": { "a": { "on": { "go": { "target": "b", "guard": "lent" } } }, "b": {} } }"##;
    struct Asked(std::sync::Mutex<Vec<String>>);
    impl Host for Asked {
        fn guard(&self, session: &str, name: &str, _params: Option<&JsValue>) -> Option<bool> {
            self.0.lock().unwrap().push(format!("{session}:{name}"));
            Some(session.ends_with('1'))
        }
    }
    let programs = Programs::new();
    let m = machine(text);
    let identity = m.identity();
    let asked = Arc::new(Asked(std::sync::Mutex::new(Vec::new())));
    let load = || -> Result<Program, String> {
        let mut p = Program::new(machine(text));
        let host: Arc<dyn Host> = asked.clone();
        p.configure(|rt| rt.host = Some(host));
        Ok(p)
    };
    let program = programs.get_or_load(identity, load, |i| format!("hashes to {i}")).unwrap();
    let again = programs.get_or_load(identity, || Err("not loaded again".to_string()), |i| i.to_string()).unwrap();
    assert!(Arc::ptr_eq(&program, &again));
    let threads: Vec<_> = (0..2)
        .map(|i| {
            let program = program.clone();
            std::thread::spawn(move || {
                let rt = program.runtime();
                let s = rt.start_session(&format!("run-{i}"), None, 0).snapshot;
                let s = rt.decode(&rt.encode(&s)).unwrap();
                let s = rt.send(&s, ev("go"), 0).unwrap();
                (s.snapshot.session.clone(), at(rt, &s))
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(results, [("run-0".to_string(), vec!["a".to_string()]), ("run-1".to_string(), vec!["b".to_string()])]);
    let mut asked = asked.0.lock().unwrap().clone();
    asked.sort();
    assert_eq!(asked, ["run-0:lent", "run-1:lent"]);
    // An IR that hashes otherwise than the identity it was stored under is refused.
    let other = Programs::new();
    let wrong = other.get_or_load(<ir::Identity as std::str::FromStr>::from_str(&"0".repeat(64)).unwrap(), load, |i| {
        format!("hashes to {i}")
    });
    assert_eq!(wrong.err(), Some(format!("hashes to {identity}")));
    drop((program, again));
    assert!(programs.is_empty(), "a program no run holds is dropped");
}

/// ADR-0074 at runtime: an `agent.fault` or `workspace.lost` that no transition takes (here a
/// guard false when it comes) ends the run `error`, its fault naming the event, the state and the
/// event's reason, and stops what the run ran; a routed one is taken as any event, and another
/// event that no transition takes is dropped as xstate drops it.
#[test]
fn an_unrouted_mechanism_event_faults_the_run() {
    let m = machine(
        r##"{ "id": "m", "initial": "a", "states": {
            "a": { "invoke": { "src": "coder" }, "on": {
                "agent.fault": { "guard": "never", "target": "b" }, "routed": "c" } },
            "b": {}, "c": { "on": { "workspace.lost": "b" } } } }"##,
    );
    let mut rt = Runtime::new(&m);
    rt.host = Some(Arc::new(std::collections::BTreeMap::from([("never".to_string(), false)])));
    for ty in ["agent.fault", "workspace.lost"] {
        let (mut live, _) = rt.start_live(None, 0);
        rt.send_live(&mut live, ev("ignored"), 0).unwrap();
        assert_eq!(live.status(), Status::Active, "an ordinary event is dropped");
        let event = serde_json::json!({ "type": ty, "reason": "the Turn's process died" });
        let requests = rt.send_live(&mut live, event, 0).unwrap();
        assert_eq!(live.status(), Status::Error, "{ty}");
        let fault = live.error().unwrap();
        assert_eq!(fault.event.as_deref(), Some(ty));
        assert_eq!(fault.states, ["a"]);
        assert_eq!(
            fault.reason,
            format!("no transition took {ty:?} in state \"a\" (ADR-0074): the Turn's process died")
        );
        assert_eq!(requests, [Request::Stop { id: "0.m.a".into(), incarnation: 1 }], "{ty}");
    }
    let (mut live, _) = rt.start_live(None, 0);
    rt.send_live(&mut live, ev("routed"), 0).unwrap();
    rt.send_live(&mut live, ev("workspace.lost"), 0).unwrap();
    assert_eq!(live.status(), Status::Active, "a routed one is taken");
    assert_eq!(live.taken().len(), 1);
}
