//! Door compatibility in an Instance (`check::doors`): mini Instances written to a temporary
//! folder, each dispatch checked against its callee's door; foreign doors through a canned
//! `DoorSource` that counts its reads.

use check::doors::{DoorSource, Fetched};
use check::instance::{check_instance, check_instance_with, InstanceReport};
use diagnostics::Diagnostic;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A fresh Instance folder with these files (paths relative to it).
fn instance(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("doors").join(name);
    let _ = std::fs::remove_dir_all(&root);
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create the folder");
        std::fs::write(&path, text).expect("write a file");
    }
    root
}

/// A Workflow whose setup declares `schemas` (`""` for none) and one dispatch slot `go`
/// (`dispatch_args` as written after `dispatch(`), which its one state invokes.
fn workflow(id: &str, schemas: &str, dispatch_args: &str) -> String {
    let actors = if dispatch_args.is_empty() { String::new() } else { format!("go: dispatch({dispatch_args}),") };
    let states = if dispatch_args.is_empty() {
        r#"initial: "done", states: { done: { type: "final" } },"#.to_string()
    } else {
        r#"initial: "going",
  states: {
    going: { invoke: { src: "go", input: ({ context }) => ({ ticket: context.ticket }), onDone: "done" } },
    done: { type: "final" },
  },"#
        .to_string()
    };
    format!(
        r#"import {{ z }} from "zod";
import {{ chartSchema, dispatch, jr2Setup, open, secret }} from "@jr2/orchestrator";

export const machine = jr2Setup({{
  types: {{}} as {{ context: {{ ticket: string }}; input: {{ ticket: string }} }},
  {schemas}
  actors: {{ {actors} }},
}}).createMachine({{
  id: "{id}",
  context: ({{ input }}) => input,
  {states}
}});
"#
    )
}

/// Every diagnostic of a report: (file name, diagnostic).
fn all(report: &InstanceReport) -> Vec<(String, &Diagnostic)> {
    report
        .files
        .iter()
        .flat_map(|f| {
            let name = f.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            f.diagnostics.iter().map(move |d| (name.clone(), d))
        })
        .collect()
}

/// The diagnostics whose code is about doors, as `file code: message`; any other diagnostic fails
/// the test (the mini Instances are clean apart from their doors).
fn door_lines(report: &InstanceReport) -> Vec<String> {
    let mut out = Vec::new();
    for (file, d) in all(report) {
        assert!(d.code.contains("door"), "an unexpected diagnostic in {file}: {} {}", d.code, d.message);
        out.push(format!("{file} {}: {}", d.code, d.message));
    }
    assert!(report.internal_errors.is_empty());
    out
}

/// The text a span covers in a file of the report.
fn covered(report: &InstanceReport, file: &str, d: &Diagnostic) -> String {
    let f = report.files.iter().find(|f| f.path.ends_with(file)).expect("the file");
    f.text[d.span.range()].to_string()
}

#[test]
fn a_matching_pair_checks_clean() {
    let root = instance(
        "matching",
        &[
            (
                "workflows/caller.ts",
                &workflow("caller", "", r#""callee", { input: z.object({ ticket: z.string(), depth: z.number().int().min(1).default(1) }) }"#),
            ),
            (
                "workflows/callee.ts",
                &workflow(
                    "callee",
                    "schemas: { input: z.object({ ticket: z.string().optional(), depth: z.number().min(0), note: z.string().optional() }) },",
                    "",
                ),
            ),
        ],
    );
    let report = check_instance(&root);
    assert_eq!(door_lines(&report), Vec::<String>::new());
    assert_eq!(report.foreign_skipped, 0);
}

#[test]
fn a_mismatch_is_refused_at_the_input_with_the_door_as_related_information() {
    let root = instance(
        "mismatch",
        &[
            (
                "workflows/caller.ts",
                &workflow("caller", "", r#""callee", { input: z.object({ ticket: z.number(), extra: z.string() }) }"#),
            ),
            (
                "workflows/callee.ts",
                &workflow("callee", "schemas: { input: z.object({ ticket: z.string(), branch: z.string() }) },", ""),
            ),
        ],
    );
    let report = check_instance(&root);
    let lines = door_lines(&report);
    assert_eq!(
        lines,
        [
            r#"caller.ts door-mismatch: dispatch("callee"): properties.branch: the door requires "branch", and the slot's schema does not send it"#,
            r#"caller.ts door-mismatch: dispatch("callee"): properties.ticket: the slot may send type "number", and the door takes only type "string""#,
            r#"caller.ts door-mismatch: dispatch("callee"): properties.extra: the slot sends "extra", and the door's schema has no such field: a zod door strips it silently"#,
        ]
    );
    assert!(report.has_errors());
    let found = all(&report);
    for (_, d) in &found {
        assert_eq!(covered(&report, "caller.ts", d), "input", "each is at the dispatch's `input`");
    }
    // A slot finding also points at the slot's field, in the caller's file.
    let ticket = found[1].1;
    assert_eq!(ticket.secondary.len(), 1);
    let caller = report.files.iter().find(|f| f.path.ends_with("caller.ts")).unwrap();
    assert_eq!(&caller.text[ticket.secondary[0].span.range()], "ticket");
    // A door finding names the door's place in the callee's file. The callee is clean, so the
    // check freed its text once its report was final: the related place is read from the file.
    let callee = report.files.iter().find(|f| f.path.ends_with("callee.ts")).unwrap();
    assert!(callee.text.is_empty() && callee.diagnostics.is_empty());
    let branch = found[0].1;
    assert_eq!(branch.related.len(), 1, "{branch:#?}");
    let related = &branch.related[0];
    assert!(related.path.ends_with("workflows/callee.ts"), "{}", related.path);
    let callee_text = std::fs::read_to_string(root.join("workflows/callee.ts")).unwrap();
    assert_eq!(&callee_text[related.span.range()], "branch");
    assert_eq!(related.message, "the door of \"callee\"");
    let line = callee_text.lines().position(|l| l.contains("branch: z.string()")).unwrap() as u32 + 1;
    assert_eq!(related.start.line, line);
}

#[test]
fn a_keyword_outside_the_subset_is_not_compared() {
    let root = instance(
        "not_compared",
        &[
            (
                "workflows/caller.ts",
                &workflow("caller", "", r#""callee", { input: z.object({ ticket: z.string(), code: z.string() }) }"#),
            ),
            (
                "workflows/callee.ts",
                &workflow(
                    "callee",
                    r#"schemas: { input: z.object({ ticket: z.string(), code: z.string().regex("^[A-Z]+$") }) },"#,
                    "",
                ),
            ),
        ],
    );
    let report = check_instance(&root);
    let lines = door_lines(&report);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].starts_with(
            r#"caller.ts door-not-compared: dispatch("callee"), in the door: properties.code.pattern: "pattern" is outside the JSON Schema subset jr2 compares"#
        ),
        "{lines:#?}"
    );
    assert!(!report.has_errors(), "not compared is a warning");
}

#[test]
fn a_callee_without_a_declared_door_is_not_compared() {
    let root = instance(
        "undeclared",
        &[
            (
                "workflows/caller.ts",
                &workflow("caller", "", r#""callee", { input: z.object({ ticket: z.string() }) }"#),
            ),
            ("workflows/callee.ts", &workflow("callee", "", "")),
        ],
    );
    let report = check_instance(&root);
    let lines = door_lines(&report);
    assert_eq!(
        lines,
        [
            r#"caller.ts door-not-compared: dispatch("callee"): "callee" declares no input schema, so the slot's schema is not compared with its door"#
        ]
    );
    // A dispatch with no `input` schema compares nothing: the door alone checks.
    let root = instance(
        "no_slot_schema",
        &[
            ("workflows/caller.ts", &workflow("caller", "", r#""callee""#)),
            ("workflows/callee.ts", &workflow("callee", "schemas: { input: z.object({ branch: z.string() }) },", "")),
        ],
    );
    assert_eq!(door_lines(&check_instance(&root)), Vec::<String>::new());
}

/// A Chart wrapper with an Open body and a Chart field in its door, and one named Chart.
fn chart_instance(name: &str, slot: &str) -> PathBuf {
    let wrapper = r#"import { z } from "zod";
import { agent, chartSchema, defineEvent, fail, jr2Setup, open } from "@jr2/orchestrator";

const done = defineEvent({ name: "done", description: "The draft is ready.", input: z.object({}) });

export const machine = jr2Setup({
  types: {} as { context: { topic: string }; input: { topic: string } },
  schemas: { input: z.object({ topic: z.string(), chart: chartSchema }) },
  events: [done],
  actors: {
    writer: agent({ model: "anthropic/claude-haiku-5-5", instructions: "You write notes.", workspace: "none" }),
    plan: open(
      {
        lends: { agents: ["writer"], fail: true },
        allows: { models: ["anthropic/claude-haiku-5-5"], workspace: ["none"] },
        ceilings: { turns: 12, wallClock: "30m", transitions: 500, fanOut: 2, size: 65536 },
      },
      { input: z.object({ topic: z.string() }) },
    ),
    fail: fail(),
  },
}).createMachine({
  id: "notes",
  context: ({ input }) => input,
  on: { "agent.fault": ".failed" },
  initial: "planning",
  states: {
    planning: { invoke: { src: "plan", input: ({ context }) => ({ topic: context.topic }), onDone: "done" } },
    done: { type: "final" },
    failed: { invoke: { src: "fail", input: { reason: "the Agent's Turn could not go on" } } },
  },
});
"#;
    let chart = r#"{
  "id": "post",
  "initial": "drafting",
  "events": { "done": { "description": "The draft is ready.", "input": { "type": "object", "properties": {}, "required": [] } } },
  "states": {
    "drafting": { "invoke": { "src": "writer", "input": { "prompt": "Draft notes on {{input.topic}}." } }, "on": { "done": "published" } },
    "published": { "type": "final" }
  }
}
"#;
    instance(
        name,
        &[
            ("workflows/notes.ts", wrapper),
            ("workflows/notes/post.json", chart),
            ("workflows/caller.ts", &workflow("caller", "", &format!(r#""notes/post", {{ input: {slot} }}"#))),
        ],
    )
}

#[test]
fn a_named_chart_s_door_is_its_wrapper_s_without_the_chart_field() {
    let report = check_instance(&chart_instance("chart_ok", "z.object({ topic: z.string() })"));
    assert_eq!(door_lines(&report), Vec::<String>::new());

    let report = check_instance(&chart_instance("chart_mismatch", "z.object({ subject: z.string() })"));
    let lines = door_lines(&report);
    assert_eq!(
        lines,
        [
            r#"caller.ts door-mismatch: dispatch("notes/post"): properties.topic: the door requires "topic", and the slot's schema does not send it"#,
            r#"caller.ts door-mismatch: dispatch("notes/post"): properties.subject: the slot sends "subject", and the door's schema has no such field: a zod door strips it silently"#,
        ]
    );
    let (_, topic) = &all(&report)[0];
    assert_eq!(topic.related[0].message, "the door of the wrapper \"notes\" of the named Chart \"notes/post\"");
    assert!(topic.related[0].path.ends_with("workflows/notes.ts"));
}

/// Canned foreign doors by url, counting the reads of each `(url, name)`.
struct Canned {
    answers: BTreeMap<String, Fetched>,
    reads: Mutex<BTreeMap<(String, String), usize>>,
    total: AtomicUsize,
}

impl DoorSource for Canned {
    fn fetch(&self, url: &str, name: &str) -> Fetched {
        self.total.fetch_add(1, Ordering::SeqCst);
        *self.reads.lock().unwrap().entry((url.to_string(), name.to_string())).or_default() += 1;
        self.answers.get(url).cloned().unwrap_or(Fetched::Unreachable { reason: "no such host".into() })
    }
}

fn answer(status: u16, body: &str) -> Fetched {
    Fetched::Answer { status, body: body.to_string() }
}

#[path = "../support/foreign_caller.rs"]
mod foreign_caller;

/// A caller with one foreign dispatch of "review" per url, each with the slot `{ ticket: string }`.
fn foreign_instance(name: &str, urls: &[&str]) -> PathBuf {
    let targets: Vec<(&str, &str)> = urls.iter().map(|u| ("review", *u)).collect();
    instance(name, &[("workflows/caller.ts", &foreign_caller::foreign_caller(&targets))])
}

#[test]
fn every_foreign_outcome_is_a_warning() {
    let good = r#"{ "name": "review", "input": { "type": "object", "properties": { "ticket": { "type": "string" } }, "required": ["ticket"] } }"#;
    let mismatching = r#"{ "name": "review", "input": { "type": "object", "properties": { "ticket": { "type": "number" } }, "required": ["ticket"] } }"#;
    let urls = [
        "http://good.test",
        "http://missing.test",
        "http://mismatch.test",
        "http://html.test",
        "http://redirect.test",
        "http://down.test",
        "http://other.test",
        "http://error.test",
        "http://good.test/",
    ];
    let canned = Canned {
        answers: BTreeMap::from([
            ("http://good.test".to_string(), answer(200, good)),
            ("http://missing.test".to_string(), answer(404, "not found")),
            ("http://mismatch.test".to_string(), answer(200, mismatching)),
            ("http://html.test".to_string(), answer(200, "<!doctype html><p>hello</p>")),
            (
                "http://redirect.test".to_string(),
                Fetched::Redirect { status: 301, location: Some("https://redirect.test/workflows/review".into()) },
            ),
            ("http://other.test".to_string(), answer(200, r#"{ "name": "deploy", "input": {} }"#)),
            ("http://error.test".to_string(), answer(500, "{}")),
        ]),
        reads: Mutex::default(),
        total: AtomicUsize::new(0),
    };
    let root = foreign_instance("foreign", &urls);
    let report = check_instance_with(&root, Some(&canned));
    assert!(!report.has_errors(), "a foreign target is never refused");
    let lines = door_lines(&report);
    let want = [
        r#"caller.ts foreign-door-missing: dispatch("review"): GET http://missing.test/workflows/review answered 404: the Instance there has no Workflow "review" now, so its door is not checked"#,
        r#"caller.ts foreign-door-mismatch: dispatch("review") to http://mismatch.test/workflows/review: properties.ticket: the slot may send type "string", and the door takes only type "number""#,
        r#"caller.ts foreign-door-not-detail: dispatch("review"): GET http://html.test/workflows/review answered a body that is not JSON ("<!doctype html><p>hello</p>"), not a Workflow detail ({ name, input }), so its door is not checked"#,
        r#"caller.ts foreign-door-redirect: dispatch("review"): GET http://redirect.test/workflows/review answered a redirect (301 to https://redirect.test/workflows/review), which jr2 does not follow, so its door is not checked"#,
        r#"caller.ts foreign-door-unreachable: dispatch("review"): GET http://down.test/workflows/review reached no Instance (no such host), so its door is not checked"#,
        r#"caller.ts foreign-door-not-detail: dispatch("review"): GET http://other.test/workflows/review answered the detail of another Workflow ("deploy" as its "name"), not a Workflow detail ({ name, input }), so its door is not checked"#,
        r#"caller.ts foreign-door-not-detail: dispatch("review"): GET http://error.test/workflows/review answered status 500, not a Workflow detail ({ name, input }), so its door is not checked"#,
    ];
    assert_eq!(lines, want);
    // Each distinct door once: `http://good.test/` is `http://good.test`.
    assert_eq!(canned.total.load(Ordering::SeqCst), 8);
    assert!(canned.reads.lock().unwrap().values().all(|n| *n == 1));
    // A reach is placed at the url, a mismatch at the input.
    for (_, d) in all(&report) {
        let at = covered(&report, "caller.ts", d);
        if d.code == "foreign-door-mismatch" {
            assert_eq!(at, "input");
        } else {
            assert!(at.starts_with("\"http://"), "{at}");
        }
    }

    // Offline: nothing is read, nothing is said, and the distinct doors are counted.
    let report = check_instance(&root);
    assert_eq!(door_lines(&report), Vec::<String>::new());
    assert_eq!(report.foreign_skipped, 8);
}

#[test]
fn the_example_instance_checks_its_dispatch_pair_clean() {
    let root = base::workspace::root().join("examples").join("instance");
    let report = check_instance(&root);
    assert_eq!(door_lines(&report), Vec::<String>::new());
}
