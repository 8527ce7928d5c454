//! The normalized state tree that `tests/xstate/dump.mjs` writes of a Machine real xstate 5
//! built, and the same shape of our IR, for the tests that compare the two
//! (`xstate_crosscheck`: the fixture Workflows; `xstate_corpus`: the differential corpus).
//! `tests/xstate/README.md` tells the shape; in short:
//!
//! - `machine`: the Machine's id.
//! - `states`, in pre-order: `{ path, id, type, initial, invokes }`, and `history` (`shallow` or
//!   `deep`) on a history state, `tags` on a state that has some. `path` is the key path, each key
//!   with its "." (and "\") escaped by "\", joined by "." (the root is ""); `id` is xstate's
//!   `node.id`: the written `id`, else the Machine id and the keys (unescaped) joined by ".";
//!   `type` is `atomic|compound|parallel|final|history`; `initial` is the initial child's key or
//!   null; each invoke is `{ src, id }`, `id` null where none is written (xstate's generated
//!   `<index>.<state id>` counts as none).
//! - `transitions`, by source in pre-order, then by `event` (a stable sort: the candidates of one
//!   event keep their order): `{ source, event, targets, guard, reenter }`. `event` is an `on`
//!   event's name, `always`, `after:<delay>` (ms or the delay's name), `done.invoke:<i>`,
//!   `error.invoke:<i>` (the state's i-th invoke), `done.state`, or `history.default`: a history
//!   state's default as xstate resolves it (its `target`, else its parent's initial state, or the
//!   parent where that is parallel); `targets` are key paths; `guard` is a named guard's name,
//!   `jr2.sentBy(<id>)`, `and(<g>, <g>)`, `or(..)`, `not(<g>)`, `stateIn(<path>, ..)` (the states it
//!   asks to be active), or `inline` for a function (params of named guards are not compared).

use ir::{self, Expr, Guard, StateId, StateKind, Trigger};
use serde_json::{json, Value};
use std::path::PathBuf;

/// `tests/xstate` at the repository root.
pub(crate) fn root() -> PathBuf {
    base::workspace::root().join("tests/xstate")
}

/// A key as a segment of a key path: "." and "\" escaped by "\".
fn segment(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for c in key.chars() {
        if c == '.' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The keys of a state from the root (the root has none).
fn keys(m: &ir::Statechart, id: StateId) -> Vec<&str> {
    let mut keys: Vec<&str> = std::iter::once(id)
        .chain(m.ancestors(id))
        .filter(|s| *s != StateId::ROOT)
        .map(|s| m.state(s).key.as_str())
        .collect();
    keys.reverse();
    keys
}

/// The key path of a state: its keys from the root, escaped, joined by "."; the root is "".
pub(crate) fn key_path(m: &ir::Statechart, id: StateId) -> String {
    keys(m, id).into_iter().map(segment).collect::<Vec<_>>().join(".")
}

/// xstate's `node.id`: the written id, else the Machine id and the keys.
fn xstate_id(m: &ir::Statechart, id: StateId) -> String {
    if let Some(written) = &m.state(id).id {
        return written.clone();
    }
    std::iter::once(m.id.as_str()).chain(keys(m, id)).collect::<Vec<_>>().join(".")
}

fn kind_text(kind: StateKind) -> &'static str {
    match kind {
        StateKind::Atomic => "atomic",
        StateKind::Compound => "compound",
        StateKind::Parallel => "parallel",
        StateKind::Final => "final",
        StateKind::History => "history",
    }
}

fn trigger_text(trigger: &Trigger) -> String {
    match trigger {
        Trigger::Event(name) => name.to_string(),
        Trigger::After(delay) => format!("after:{delay}"),
        Trigger::Always => "always".to_string(),
        Trigger::InvokeDone(i) => format!("done.invoke:{i}"),
        Trigger::InvokeError(i) => format!("error.invoke:{i}"),
        Trigger::StateDone => "done.state".to_string(),
        Trigger::HistoryDefault => "history.default".to_string(),
        Trigger::Initial => "initial".to_string(),
    }
}

/// The states a guard expression asks to be active, where it is only that: `InState`, or an
/// `&&` of them (the lowering of `stateIn` of a state value with several leaves).
fn in_states(m: &ir::Statechart, expr: &Expr, out: &mut Vec<String>) -> bool {
    match expr {
        Expr::InState(sid) => {
            out.push(key_path(m, *sid));
            true
        }
        Expr::Logical { op: ir::expr::LogicalOp::And, left, right } => {
            in_states(m, left, out) && in_states(m, right, out)
        }
        _ => false,
    }
}

fn guard_text(m: &ir::Statechart, guard: &Guard) -> String {
    let list = |gs: &[Guard]| gs.iter().map(|g| guard_text(m, g)).collect::<Vec<_>>().join(", ");
    #[allow(unreachable_patterns)]
    match guard {
        Guard::Named { name, .. } => name.to_string(),
        Guard::SentBy { id } => format!("jr2.sentBy({id})"),
        Guard::Not { guard } => format!("not({})", guard_text(m, guard)),
        Guard::And { guards } => format!("and({})", list(guards)),
        Guard::Or { guards } => format!("or({})", list(guards)),
        Guard::Expr { expr } => {
            let mut paths = Vec::new();
            if in_states(m, expr, &mut paths) {
                format!("stateIn({})", paths.join(", "))
            } else {
                // A function lowered to its expression: xstate shows it as a function.
                "inline".to_string()
            }
        }
        // A kind added later (a function kept as code): xstate shows it as a function.
        _ => "inline".to_string(),
    }
}

/// Our IR in the normalized shape.
pub(crate) fn ir_dump(m: &ir::Statechart) -> Value {
    let states: Vec<Value> = m
        .ids()
        .map(|sid| {
            let s = m.state(sid);
            let state_id = xstate_id(m, sid);
            let invokes: Vec<Value> = s
                .invokes
                .iter()
                .enumerate()
                .map(|(i, inv)| {
                    let generated = format!("{i}.{state_id}");
                    let id = inv.id.as_ref().filter(|id| **id != generated);
                    // The front end's name of logic written in place (refused as `inline-src`).
                    let src = if inv.src == "(inline)" { "inline" } else { inv.src.as_str() };
                    json!({ "src": src, "id": id })
                })
                .collect();
            let mut state = json!({
                "path": key_path(m, sid),
                "id": state_id,
                "type": kind_text(s.kind),
                "initial": s.initial.map(|c| m.state(c).key.clone()),
                "invokes": invokes,
            });
            if s.kind == StateKind::History {
                state["history"] = match s.history {
                    Some(ir::HistoryKind::Deep) => json!("deep"),
                    Some(ir::HistoryKind::Shallow) => json!("shallow"),
                    None => Value::Null,
                };
            }
            if !s.tags.is_empty() {
                state["tags"] = json!(s.tags);
            }
            state
        })
        .collect();
    let mut transitions = Vec::new();
    for sid in m.ids() {
        let source = key_path(m, sid);
        let entry = |event: String, targets: Vec<String>, guard: Option<String>, reenter: bool| json!({ "source": source, "event": event, "targets": targets, "guard": guard, "reenter": reenter });
        let mut own: Vec<Value> = m
            .transitions_from(sid)
            .map(|t| {
                entry(
                    trigger_text(&t.trigger),
                    t.targets.iter().map(|&x| key_path(m, x)).collect(),
                    t.guard.as_ref().map(|g| guard_text(m, g)),
                    t.reenter,
                )
            })
            .collect();
        // A history state with no default transition defaults as xstate's does: to its parent's
        // initial state, or to the parent where that is parallel.
        let state = m.state(sid);
        if state.kind == StateKind::History && !m.transitions_from(sid).any(|t| t.trigger == Trigger::HistoryDefault) {
            let parent = state.parent.unwrap_or(StateId::ROOT);
            let default = match m.state(parent).kind {
                StateKind::Parallel => Some(parent),
                _ => m.state(parent).initial,
            };
            own.push(entry(
                "history.default".into(),
                default.map(|d| key_path(m, d)).into_iter().collect(),
                None,
                false,
            ));
        }
        own.sort_by(|a, b| a["event"].as_str().cmp(&b["event"].as_str()));
        transitions.extend(own);
    }
    json!({ "machine": m.id, "states": states, "transitions": transitions })
}

/// One line a state or transition, as `dump.mjs` writes them.
fn lines(dump: &Value) -> Vec<String> {
    let mut out = vec![format!("machine {}", dump["machine"])];
    for key in ["states", "transitions"] {
        out.push(format!("{key}:"));
        for entry in dump[key].as_array().into_iter().flatten() {
            out.push(format!("  {entry}"));
        }
    }
    out
}

/// A line diff (LCS): `-` xstate's (expected) only, `+` ours only.
fn diff(expected: &[String], actual: &[String]) -> String {
    let (n, m) = (expected.len(), actual.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if expected[i] == actual[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < n || j < m {
        if i < n && j < m && expected[i] == actual[j] {
            out.push_str(&format!("  {}\n", expected[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("- {}\n", expected[i]));
            i += 1;
        } else {
            out.push_str(&format!("+ {}\n", actual[j]));
            j += 1;
        }
    }
    out
}

/// xstate's dump without what is not compared (the `fixture` name).
pub(crate) fn comparable(expected: &Value) -> Value {
    let mut expected = expected.clone();
    if let Some(obj) = expected.as_object_mut() {
        obj.remove("fixture");
    }
    expected
}

/// Compare one dump of ours with xstate's; `None` when equal, else the readable diff.
pub(crate) fn compare(name: &str, expected: &Value, ours: &Value) -> Option<String> {
    let expected = comparable(expected);
    if &expected == ours {
        return None;
    }
    Some(format!(
        "{name}: our IR differs from xstate's tree (- xstate only, + ours only)\n{}",
        diff(&lines(&expected), &lines(ours))
    ))
}
