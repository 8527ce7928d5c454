//! Cross-check of the Machine front end against REAL xstate 5.
//!
//! `tests/xstate/` (at the repository root) builds each fixture Workflow,
//! `tests/xstate/fixtures/<name>.ts`, with xstate 5 from npm through a small shim of the kit, and
//! commits the state tree xstate made as `tests/xstate/expected/<name>.json` (`tests/xstate/run.sh`
//! re-dumps and checks them; `tests/xstate/README.md` tells the shape). This test compiles each
//! fixture with our front end, `check::compile::compile_file`, maps the IR to the same
//! normalized shape, and asserts equality, so it runs without Node.
//!
//! The normalized shape (the same on both sides):
//! - `machine`: the Machine's id.
//! - `states`, in pre-order: `{ path, id, type, initial, invokes }`. `path` is the key path joined
//!   by "." (the root is ""); `id` is xstate's `node.id`: the written `id`, else the Machine id and
//!   the key path joined by "."; `type` is `atomic|compound|parallel|final` (`history` on the
//!   xstate side only); `initial` is the initial child's key or null; each invoke is `{ src, id }`,
//!   `id` null where none is written (xstate's generated `<index>.<state id>` counts as none).
//! - `transitions`, by source in pre-order, then by `event` (a stable sort: the candidates of one
//!   event keep their order): `{ source, event, targets, guard, reenter }`. `event` is an `on`
//!   event's name, `always`, `after:<delay>` (ms or the delay's name), `done.invoke:<i>`,
//!   `error.invoke:<i>` (the state's i-th invoke), or `done.state`; `targets` are key paths;
//!   `guard` is a named guard's name, `jr2.sentBy(<id>)`, `and(<g>, <g>)`, `or(..)`, `not(<g>)`,
//!   `stateIn(<key path>, ..)` (the states it names), or `inline` for a function (params of named
//!   guards are not compared). A history state's default `target` is a `history.default`
//!   transition (xstate's side reads it off the config as `resolveHistoryDefaultTransition` does).

use ir::{self, Guard, StateId, StateKind, Trigger};
use serde_json::{json, Value};
use std::path::PathBuf;

fn root() -> PathBuf {
    base::workspace::root().join("tests/xstate")
}

/// The key path of a state: its keys from the root, joined by "."; the root is "".
fn key_path(m: &ir::Statechart, id: StateId) -> String {
    let mut keys: Vec<&str> = std::iter::once(id)
        .chain(m.ancestors(id))
        .filter(|s| *s != StateId::ROOT)
        .map(|s| m.state(s).key.as_str())
        .collect();
    keys.reverse();
    keys.join(".")
}

/// xstate's `node.id`: the written id, else the Machine id and the key path.
fn xstate_id(m: &ir::Statechart, id: StateId) -> String {
    if let Some(written) = &m.state(id).id {
        return written.clone();
    }
    let path = key_path(m, id);
    if path.is_empty() {
        m.id.clone()
    } else {
        format!("{}.{path}", m.id)
    }
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

/// The states of a `stateIn` guard's expression (an `InState`, or an `&&` of them), as key paths.
fn in_states(m: &ir::Statechart, e: &ir::Expr, out: &mut Vec<String>) -> bool {
    match e {
        ir::Expr::InState(s) => {
            out.push(key_path(m, *s));
            true
        }
        ir::Expr::Logical { op: ir::expr::LogicalOp::And, left, right } => {
            in_states(m, left, out) && in_states(m, right, out)
        }
        _ => false,
    }
}

fn guard_text(m: &ir::Statechart, guard: &Guard) -> String {
    let list = |gs: &[Guard]| gs.iter().map(|g| guard_text(m, g)).collect::<Vec<_>>().join(", ");
    let mut states = Vec::new();
    #[allow(unreachable_patterns)]
    match guard {
        Guard::Expr { expr } if in_states(m, expr, &mut states) => format!("stateIn({})", states.join(", ")),
        Guard::Named { name, .. } => name.to_string(),
        Guard::SentBy { id } => format!("jr2.sentBy({id})"),
        Guard::Not { guard } => format!("not({})", guard_text(m, guard)),
        Guard::And { guards } => format!("and({})", list(guards)),
        Guard::Or { guards } => format!("or({})", list(guards)),
        // An expression guard (a function's body) or a kind added later: xstate shows a function.
        _ => "inline".to_string(),
    }
}

/// Our IR in the normalized shape.
fn ir_dump(m: &ir::Statechart) -> Value {
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
                    json!({ "src": inv.src, "id": id })
                })
                .collect();
            json!({
                "path": key_path(m, sid),
                "id": state_id,
                "type": kind_text(s.kind),
                "initial": s.initial.map(|c| m.state(c).key.clone()),
                "invokes": invokes,
            })
        })
        .collect();
    let mut transitions = Vec::new();
    for sid in m.ids() {
        let mut own: Vec<Value> = m
            .transitions_from(sid)
            .map(|t| {
                json!({
                    "source": key_path(m, sid),
                    "event": trigger_text(&t.trigger),
                    "targets": t.targets.iter().map(|&x| key_path(m, x)).collect::<Vec<_>>(),
                    "guard": t.guard.as_ref().map(|g| guard_text(m, g)),
                    "reenter": t.reenter,
                })
            })
            .collect();
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

/// Compare one dump of ours with xstate's; `None` when equal, else the readable diff.
fn compare(name: &str, expected: &Value, ours: &Value) -> Option<String> {
    let mut expected = expected.clone();
    if let Some(obj) = expected.as_object_mut() {
        obj.remove("fixture");
    }
    if &expected == ours {
        return None;
    }
    Some(format!(
        "{name}: our IR differs from xstate's tree (- xstate only, + ours only)\n{}",
        diff(&lines(&expected), &lines(ours))
    ))
}

#[test]
fn machines_match_xstate() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("expected"))
        .expect("tests/xstate/expected")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no tests/xstate/expected/*.json");
    let mut failures = Vec::new();
    for name in &names {
        let text = std::fs::read_to_string(root().join(format!("expected/{name}.json"))).unwrap();
        let expected: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("expected/{name}.json: {e}"));
        let fixture = root().join(format!("fixtures/{name}.ts"));
        let compiled = check::compile::compile_file(&fixture);
        let errors: Vec<String> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("  error[{}]: {}", d.code, d.message))
            .collect();
        let Some(machine) = compiled.machine else {
            failures.push(format!("{name}: compile_file gave no Machine\n{}", errors.join("\n")));
            continue;
        };
        if !errors.is_empty() {
            failures.push(format!("{name}: compile_file gave errors\n{}", errors.join("\n")));
        }
        if let Some(d) = compare(name, &expected, &ir_dump(&machine)) {
            failures.push(d);
        }
    }
    assert!(failures.is_empty(), "{} of {} fixtures:\n\n{}", failures.len(), names.len(), failures.join("\n"));
}

/// The normalization itself, on a Chart: the Chart door's IR of `notes` (the fixture's tree, its
/// functions left out, which `notes` has none of) must map to xstate's `expected/notes.json`.
#[test]
fn normalization_of_a_chart_matches_xstate() {
    let chart = r##"{
      "id": "notes",
      "on": { "agent.fault": ".failed" },
      "initial": "drafting",
      "states": {
        "drafting": {
          "invoke": [
            { "src": "writer", "input": { "prompt": "Draft the release notes." } },
            { "src": "gate", "id": "editor" }
          ],
          "on": {
            "done": [
              { "guard": { "type": "jr2.sentBy", "params": { "id": "writer" } }, "target": "review" },
              { "target": "published" }
            ]
          }
        },
        "review": { "invoke": { "src": "gate" }, "on": { "done": "published" } },
        "published": { "type": "final" },
        "failed": { "invoke": { "src": "fail", "input": { "reason": "the Agent's Turn could not go on" } } }
      }
    }"##;
    let admission = check::door::admit(chart, None);
    let machine = admission.machine.unwrap_or_else(|| panic!("the Chart door refused: {:?}", admission.diagnostics));
    // A Chart's IR may carry its own id; the comparison is of the tree.
    let mut machine = machine.statechart().clone();
    machine.id = "notes".to_string();
    let text = std::fs::read_to_string(root().join("expected/notes.json")).unwrap();
    let expected: Value = serde_json::from_str(&text).unwrap();
    if let Some(d) = compare("notes (as a Chart)", &expected, &ir_dump(&machine)) {
        panic!("{d}");
    }
}
