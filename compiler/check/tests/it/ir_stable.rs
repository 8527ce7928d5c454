//! An IR says what runs, not where it was written: two texts that differ only in whitespace and
//! comments give IRs whose serialized form (what a runtime stores and hashes) is byte for byte the
//! same, while their source maps (which place each node) differ.

use std::path::Path;

/// The IR's JSON, as `jr2 ir` writes it and a runtime would store it.
fn bytes(m: &ir::Machine) -> Vec<u8> {
    serde_json::to_vec(m).expect("the IR serializes")
}

/// A Machine's IR and its source map, from a text at `path`.
fn machine_of(path: &Path, text: &str) -> (ir::Machine, ir::SourceMap) {
    let compiled = check::compile::compile_text(path, text);
    let errors: Vec<String> =
        compiled.diagnostics.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect();
    assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    let Some(check::compile::Ir::Full(machine)) = compiled.machine else { panic!("{}: no Machine", path.display()) };
    (machine, compiled.source_map)
}

/// A Chart's IR and its source map.
fn chart_of(text: &str) -> (ir::Machine, ir::SourceMap) {
    let admission = check::door::admit(text, None);
    let machine = admission.machine.unwrap_or_else(|| panic!("no IR: {:?}", admission.diagnostics));
    (machine, admission.source_map)
}

const COMPACT: &str = r#"import { z } from "zod";
import { agent, defineEvent, jr2Setup, sentBy } from "@jr2/orchestrator";
const done = defineEvent({ name: "done", description: "Done.", input: z.object({ note: z.string() }) });
export const machine = jr2Setup({ events: [done], actors: { writer: agent({ model: "anthropic/claude-haiku-5-5", instructions: "Write.", workspace: "none" }) } }).createMachine({ id: "m", context: { round: 1, tags: ["a", "b"] }, on: { "agent.fault": ".published" }, initial: "draft", states: { draft: { invoke: [{ src: "writer", input: ({ context }) => ({ prompt: `Round ${context.round}` }) }, { src: "gate", id: "editor" }], on: { done: [{ guard: sentBy("writer"), target: "review" }, { target: "published" }] } }, review: { invoke: { src: "gate" }, on: { done: "published" }, after: { 1000: "published" } }, published: { type: "final" } } });
"#;

const SPREAD: &str = r#"// The same Workflow, written out: every node moves, none changes.
import { z } from "zod";
import { agent, defineEvent, jr2Setup, sentBy } from "@jr2/orchestrator";

/** The writer's (or the editor's) word that the draft is done. */
const done = defineEvent({
  name: "done",
  description: "Done.",
  input: z.object({ note: z.string() }), // what the party says
});

export const machine = jr2Setup({
  events: [done],
  actors: {
    writer: agent({
      model: "anthropic/claude-haiku-5-5",
      instructions: "Write.",
      workspace: "none",
    }),
  },
}).createMachine({
  id: "m",
  context: { round: 1, tags: ["a", "b"] },
  on: { "agent.fault": ".published" },
  initial: "draft",
  states: {
    /* Drafting: the writer writes, the editor may skip review. */
    draft: {
      invoke: [
        {
          src: "writer",
          input: ({ context }) => ({
            prompt: `Round ${context.round}`,
          }),
        },
        { src: "gate", id: "editor" },
      ],
      on: {
        done: [
          { guard: sentBy("writer"), target: "review" }, // the writer's
          { target: "published" },
        ],
      },
    },
    review: {
      invoke: { src: "gate" },
      on: { done: "published" },
      after: { 1000: "published" },
    },
    published: { type: "final" },
  },
});
"#;

#[test]
fn a_machine_reformatted_and_commented_has_the_same_ir_bytes() {
    let path = base::workspace::root().join("tests/xstate/fixtures/stable.ts");
    let (a, map_a) = machine_of(&path, COMPACT);
    let (b, map_b) = machine_of(&path, SPREAD);
    assert_eq!(String::from_utf8(bytes(&a)).unwrap(), String::from_utf8(bytes(&b)).unwrap());
    assert!(a.context.is_some() && a.states.len() == 4 && a.transitions.len() == 5);
    // The map places the same nodes at other places, with the same paths.
    assert_ne!(map_a, map_b);
    assert_eq!(map_a.state_count(), map_b.state_count());
    for (x, y) in map_a.states().iter().zip(map_b.states()) {
        assert_eq!(x.path, y.path);
        assert_ne!(x.loc, y.loc);
    }
    for (x, y) in map_a.transitions().iter().zip(map_b.transitions()) {
        assert_eq!(x.path, y.path);
        assert_ne!(x.loc, y.loc);
    }
    assert_eq!(map_b.transition_path(1), "states.draft.on.done.0");
    assert_eq!(map_b.invoke_path(ir::StateId(1), 1), "states.draft.invoke.1");
}

/// Every seed Workflow, with a comment and blank lines before it and each line indented further:
/// the same IR bytes, another source map.
#[test]
fn every_seed_workflow_shifted_has_the_same_ir_bytes() {
    let root = base::workspace::root().join("tests/xstate/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .expect("tests/xstate/fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ts"))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a fixture");
        // No fixture has a template literal across lines: indenting a line changes no value.
        let shifted = format!(
            "/* a comment\n   over two lines */\n\n{}",
            text.lines()
                .map(|l| if l.is_empty() { String::new() } else { format!("  {l}  // ok") })
                .collect::<Vec<_>>()
                .join("\n")
        );
        let (a, map_a) = machine_of(&path, &text);
        let (b, map_b) = machine_of(&path, &shifted);
        assert!(bytes(&a) == bytes(&b), "{}: the IR changed", path.display());
        assert_ne!(map_a, map_b, "{}", path.display());
    }
}

/// Every admitted door fixture Chart, re-indented: the same IR bytes, another source map.
#[test]
fn a_chart_reindented_has_the_same_ir_bytes() {
    let dir = base::workspace::root().join("compiler/check/tests/fixtures/door/admitted");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("the admitted fixtures").flatten().map(|e| e.path()).collect();
    files.sort();
    let mut compared = 0;
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let text = std::fs::read_to_string(path).expect("a fixture");
        // The fixture's inline expectations are `//` lines after the Chart: the Chart is the rest.
        let chart: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let value: serde_json::Value = serde_json::from_str(&chart).expect("JSON");
        let compact = serde_json::to_string(&value).expect("JSON");
        let spread = format!("\n\n  {}\n", serde_json::to_string_pretty(&value).expect("JSON").replace('\n', "\n\t  "));
        let (a, map_a) = chart_of(&compact);
        let (b, map_b) = chart_of(&spread);
        assert!(bytes(&a) == bytes(&b), "{}: the IR changed", path.display());
        assert_ne!(map_a, map_b, "{}", path.display());
        compared += 1;
    }
    assert!(compared >= 3, "{compared} Charts compared");
}
