//! Cross-check of the Machine front end against REAL xstate 5.
//!
//! `tests/xstate/` (at the repository root) builds each fixture Workflow,
//! `tests/xstate/fixtures/<name>.ts`, with xstate 5 from npm through a small shim of the kit, and
//! commits the state tree xstate made as `tests/xstate/expected/<name>.json` (`tests/xstate/run.sh`
//! re-dumps and checks them; `tests/xstate/README.md` tells the shape). This test compiles each
//! fixture with our front end, `check::compile::compile_file`, maps the IR to the same
//! normalized shape, and asserts equality, so it runs without Node.
//!
//! The normalized shape (the same on both sides) and its IR side are in `xstate_shape`.

use crate::xstate_shape::{compare, ir_dump, root};
use serde_json::Value;

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
