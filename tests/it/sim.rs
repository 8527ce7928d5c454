//! `jr2 sim`: a Machine and a Chart run in memory with scripted events, timers and outcomes; the
//! lines are reviewed snapshots (`snapshots/sim/`), and the exits are the contract's.

use std::path::PathBuf;
use std::process::Command;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sim")
}

fn sim(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_jr2")).arg("sim").args(args).current_dir(fixtures()).output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap(), out.status.code().unwrap_or(-1))
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(base::workspace::root().join("snapshots/sim"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// `assign` over context and event, a timer that is not due yet and then is, a final state.
#[test]
fn a_machine_counts_waits_and_ends() {
    let (out, err, code) = sim(&["counter.ts", "--events", "counter.events.jsonl"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    snapshot("counter", &out);
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["status"], "done");
    assert_eq!(last["context"]["count"], 5);
    let (fin, _, _) = sim(&["counter.ts", "--events", "counter.events.jsonl", "--final"]);
    assert_eq!(fin.trim(), out.lines().last().unwrap());
}

/// An invoke settled by a scripted outcome, then a parallel state whose regions both end.
#[test]
fn a_chart_settles_its_actor_and_its_regions() {
    let (out, err, code) = sim(&["invoke.json", "--events", "invoke.events.jsonl"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    snapshot("invoke", &out);
    let (human, _, _) = sim(&["invoke.json", "--events", "invoke.events.jsonl", "--format", "human"]);
    assert!(human.lines().last().unwrap().ends_with("(done)"), "{human}");
}

/// A loop ends the run `error` (exit 1) at the step bound; a bad script line is a usage error.
#[test]
fn a_loop_is_an_error_and_a_bad_line_a_usage_error() {
    let dir = tempdir();
    std::fs::write(
        dir.join("loop.json"),
        r#"{ "id": "l", "initial": "a", "states": { "a": { "always": "b" }, "b": { "always": "a" } } }"#,
    )
    .unwrap();
    std::fs::write(dir.join("bad.jsonl"), "{\"nope\": 1}\n").unwrap();
    let loop_path = dir.join("loop.json");
    let (out, _, code) = sim(&[loop_path.to_str().unwrap(), "--step-bound", "50"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("more than 50 microsteps"), "{out}");
    let bad = dir.join("bad.jsonl");
    let (_, err, code) = sim(&["invoke.json", "--events", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 1"), "{err}");
}

fn tempdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jr2-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The seeds' `fix-tests` runs to `done` on scripted outcomes: the Worktree cut ready (its
/// `isReady` guard, lowered), the Agent's `run_tests` pick, the tests exiting 0, `finished`, the
/// push; its context from the input (`context: ({ input }) => input`).
#[test]
fn fix_tests_runs_to_done_on_scripted_outcomes() {
    let workflow = base::workspace::root().join("examples/instance/workflows/fix-tests.ts");
    let input = r#"{"ticket":"T-1","workspace":{"repos":{"app":"/w/app"}}}"#;
    let (out, err, code) = sim(&[workflow.to_str().unwrap(), "--input", input, "--events", "fix-tests.events.jsonl"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    snapshot("fix-tests", &out);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let configs: Vec<&serde_json::Value> = lines.iter().map(|l| &l["configuration"]).collect();
    assert_eq!(configs[1], &serde_json::json!(["coding.ready"]), "the cut was ready: the Agent codes");
    assert_eq!(configs[2], &serde_json::json!(["coding.testing"]));
    let last = lines.last().unwrap();
    assert_eq!(last["status"], "done");
    assert_eq!(last["configuration"], serde_json::json!(["done"]));
    assert_eq!(last["context"]["ticket"], "T-1");
}

/// The setup's implementations run from the IR (xstate's `evaluateGuard` and
/// `resolveActionsAndContext`): a parameterized action adds its `params.by`, a parameterized guard
/// (its body a module helper, inlined) lets `go` through only at 4, a named delay waits the
/// context's count times 100 ms, and a named `raise` is taken in the same macrostep.
#[test]
fn named_implementations_run_with_their_params() {
    let (out, err, code) = sim(&["implementations.ts", "--events", "implementations.events.jsonl"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    snapshot("implementations", &out);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[1]["context"], serde_json::json!({ "count": 2, "last": "add", "pinged": 1 }));
    assert_eq!(lines[2]["configuration"], serde_json::json!(["counting"]), "2 < 4: the guard holds it");
    assert_eq!(lines[4]["configuration"], serde_json::json!(["waiting"]));
    // 300 ms fire nothing (the delay is 4 * 100); 100 more fire it. Real xstate 5 with a
    // `SimulatedClock` gives the same configurations and contexts.
    assert_eq!(lines.len(), 6, "{out}");
    assert_eq!(lines[5]["timer"], "xstate.after.backoff.implementations.waiting");
    assert_eq!(lines[5]["status"], "done");
}

/// Issue 34: a context factory that spreads its input (`({ input }) => ({ ...input, ticks: 0 })`)
/// makes the context from `--input` (it was dropped, and the run's context was `{}`), and the
/// `assign`s that spread lists and objects, with a computed key, give what xstate gives.
#[test]
fn a_spread_context_and_spreading_assigns_run() {
    let input = r#"{"name":"first","ticks":9,"seen":{"z":0}}"#;
    let (out, err, code) = sim(&["ticks.ts", "--input", input, "--events", "ticks.events.jsonl"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    snapshot("ticks", &out);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // The input's keys, then `ticks` (given again, it keeps its place and takes 0).
    assert_eq!(lines[0]["context"], serde_json::json!({ "name": "first", "ticks": 0, "seen": { "z": 0 } }));
    assert_eq!(lines[2]["context"]["ticks"], 2);
    let last = lines.last().unwrap();
    assert_eq!(last["status"], "done");
    assert_eq!(
        last["context"],
        serde_json::json!({
            "name": "later", "ticks": 3, "seen": { "z": 0, "a": 2, "b": 3 }, "tags": ["a", "b"]
        })
    );
}

/// A context factory that reaches what no run has (`process`) is refused for a run, at the
/// factory (it was dropped with no line, and the run went on with `{}`).
#[test]
fn a_context_factory_that_does_not_lower_is_refused() {
    let dir = tempdir();
    let path = dir.join("factory.ts");
    std::fs::write(
        &path,
        r#"import { setup } from "xstate";
export const machine = setup({}).createMachine({
  id: "factory",
  initial: "a",
  context: ({ input }) => ({ ticks: input.list.map((x) => x + 1), home: process.env.HOME }),
  states: { a: {} },
});
"#,
    )
    .unwrap();
    let (out, err, code) = sim(&[path.to_str().unwrap(), "--input", r#"{"list":[1]}"#]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "nothing runs: {out}");
    assert!(err.contains("error[not-executable]"), "{err}");
    assert!(err.contains("the context cannot be made: its factory cannot run: it reads `process`"), "{err}");
}

/// A part the run needs that the IR does not hold is refused for a run: the `not-executable` lines
/// as errors on stderr, nothing run, exit 1 (`jr2 check` keeps them warnings).
#[test]
fn a_machine_the_ir_cannot_run_is_refused() {
    let dir = tempdir();
    let path = dir.join("opaque.ts");
    std::fs::write(
        &path,
        r#"import { setup } from "xstate";
export const machine = setup({ guards: { ready: ({ context }) => fetch(context.url) !== null } }).createMachine({
  id: "opaque",
  initial: "a",
  context: { tags: [] },
  states: { a: { on: { go: { guard: "ready", target: "b" } } }, b: {} },
});
"#,
    )
    .unwrap();
    let (out, err, code) = sim(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "nothing runs: {out}");
    assert!(err.contains("error[not-executable]"), "{err}");
    assert!(err.contains("the guard `ready` cannot run: it reads `fetch`"), "{err}");
    let check = Command::new(env!("CARGO_BIN_EXE_jr2")).arg("check").arg(&path).output().unwrap();
    assert_eq!(check.status.code(), Some(0), "a warning in a check");
    assert!(String::from_utf8_lossy(&check.stdout).contains("warning[not-executable]"));
}

/// The kit's `sentBy` reads who sent an event (`{"from": PARTY, "event": ...}`): the writer's
/// `done` goes to review, the editor Gate's skips it, and one with no sender is the Machine's
/// own (the guard holds). A lent guard is the host's to decide: without `--guards` the run is
/// refused before it starts, naming it; with it, each evaluation is the answer given.
#[test]
fn sent_by_reads_the_sender_and_lent_guards_take_the_hosts_answer() {
    let lends = ["--lends", "notes.lends.json"];
    let (out, err, code) = sim(&["notes.json", lends[0], lends[1]]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("the guard `approved`") && err.contains("--guards"), "{err}");
    let guards = ["--guards", r#"{"approved": true}"#];
    let run = |events: &str| {
        let (out, err, code) = sim(&["notes.json", lends[0], lends[1], guards[0], guards[1], "--events", events]);
        assert_eq!((code, err.as_str()), (0, ""), "{out}");
        out
    };
    let writer = run("notes-writer.events.jsonl");
    snapshot("notes-writer", &writer);
    let lines: Vec<serde_json::Value> = writer.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[1]["configuration"], serde_json::json!(["review"]), "the writer's done: sentBy holds");
    assert_eq!(lines[1]["from"], "writer");
    assert_eq!(lines[2]["configuration"], serde_json::json!(["published"]), "approved: the host said true");
    let editor = run("notes-editor.events.jsonl");
    let last: serde_json::Value = serde_json::from_str(editor.lines().last().unwrap()).unwrap();
    assert_eq!(last["configuration"], serde_json::json!(["published"]), "the editor's done skips review: {editor}");
    let dir = tempdir();
    let own = dir.join("own.jsonl");
    std::fs::write(&own, "{\"type\": \"done\"}\n").unwrap();
    let unsent = run(own.to_str().unwrap());
    let last: serde_json::Value = serde_json::from_str(unsent.lines().last().unwrap()).unwrap();
    assert_eq!(last["configuration"], serde_json::json!(["review"]), "no sender: sentBy holds: {unsent}");
    let (_, err, code) = sim(&[
        "notes.json",
        lends[0],
        lends[1],
        "--guards",
        r#"{"approved": "yes"}"#,
        "--events",
        "notes-writer.events.jsonl",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a boolean"), "{err}");
}

/// ADR-0073: a Machine that invokes `fail()` ends `failed` with no script line (the core settles
/// `fail()` itself), its output the Failure's payload, and `jr2 sim` exits 1 as `jr2 run` will.
#[test]
fn a_machine_that_fails_ends_failed_with_its_payload() {
    let (out, err, code) = sim(&["fails.ts"]);
    assert_eq!(code, 1, "{out}{err}");
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["status"], "failed", "{out}");
    assert_eq!(last["output"], serde_json::json!({ "reason": "too few tries", "detail": { "tries": 2 } }));
    assert!(last.get("error").is_none(), "a Failure is no fault: {out}");
    let (human, _, _) = sim(&["fails.ts", "--format", "human"]);
    assert!(human.lines().last().unwrap().contains("(failed: {"), "{human}");
}

/// An event line typed `xstate.*` would forge an outcome: a usage error naming the line; an
/// outcome for an actor that is not running is dropped with a word on stderr.
#[test]
fn a_forged_xstate_event_is_refused_and_a_stale_outcome_dropped() {
    let dir = tempdir();
    let forged = dir.join("forged.jsonl");
    std::fs::write(&forged, "{\"type\": \"xstate.done.actor.0.checks.testing\", \"output\": 1}\n").unwrap();
    let (out, err, code) = sim(&["invoke.json", "--events", forged.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("line 1") && err.contains("reserved"), "{err}");
    let stale = dir.join("stale.jsonl");
    std::fs::write(&stale, "{\"outcome\": {\"actor\": \"nobody\", \"output\": 1}}\n").unwrap();
    let (out, err, code) = sim(&["invoke.json", "--events", stale.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("no actor \"nobody\" is running") && err.contains("dropped"), "{err}");
    assert_eq!(out.lines().count(), 1, "only the start: {out}");
}

/// `{"restore": true}` stores the run as a host does (encoded, written out, read back against the
/// IR) wherever it stands in the script: with a timer pending, an actor running, a parallel state
/// half done. What follows is what the live run prints.
#[test]
fn a_run_restored_anywhere_goes_on_as_the_live_one() {
    let dir = tempdir();
    for (file, events) in [("counter.ts", "counter.events.jsonl"), ("invoke.json", "invoke.events.jsonl")] {
        let (live, _, code) = sim(&[file, "--events", events]);
        assert_eq!(code, 0, "{live}");
        let script = std::fs::read_to_string(fixtures().join(events)).unwrap();
        let lines: Vec<&str> = script.lines().collect();
        for cut in 0..=lines.len() {
            let mut with = lines.clone();
            with.insert(cut, r#"{"restore": true}"#);
            let path = dir.join(format!("restore-{cut}.jsonl"));
            std::fs::write(&path, with.join("\n")).unwrap();
            let (restored, err, code) = sim(&[file, "--events", path.to_str().unwrap()]);
            assert_eq!((code, err.as_str()), (0, ""), "{file} cut at {cut}");
            assert_eq!(restored, live, "{file} cut at {cut}");
        }
    }
}

/// Issue 34 item 5: an invoked child Machine (a slot whose definition is its IR) runs inside the
/// parent's run, in its snapshot: its timers are the parent's, its `sendParent` events the
/// parent's to take, its output the parent's `onDone` — with no script line but the clock's.
#[test]
fn a_child_machine_runs_inside_its_parent() {
    let (out, err, code) = sim(&["child.ts", "--events", "child.events.jsonl"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    snapshot("child", &out);
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["status"], "done");
    assert_eq!(last["context"], serde_json::json!({ "ticks": 3, "counted": 3 }));
}

/// The example Instance's `release-check` (no model, no network) runs to `done`: its `git`
/// command exits, its one-second timer fires at 1000 ms and not before, and the `reviewer` Gate's
/// `approve` ends it with the Machine's output. A `reject` with a reason ends it `failed` with
/// that reason (exit code 1), and an `{ outcome: "unknown" }` (a restore that lost the command's
/// outcome) still goes on.
#[test]
fn release_check_runs_to_done_with_no_model() {
    let workflow = base::workspace::root().join("examples/instance/workflows/release-check.ts");
    let input = r#"{"version":"1.2.0"}"#;
    let (out, err, code) =
        sim(&[workflow.to_str().unwrap(), "--input", input, "--events", "release-check.events.jsonl"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    snapshot("release-check", &out);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let configs: Vec<&serde_json::Value> = lines.iter().map(|l| &l["configuration"]).collect();
    assert_eq!(
        configs,
        [
            &serde_json::json!(["probing"]),
            &serde_json::json!(["settling"]),
            &serde_json::json!(["review"]),
            &serde_json::json!(["released"])
        ]
    );
    assert_eq!(lines[2]["timer"], "xstate.after.1000.release-check.settling", "999 ms fire nothing, 1000 do");
    assert_eq!(lines[2]["started"], serde_json::json!(["reviewer"]));
    let last = lines.last().unwrap();
    assert_eq!(last["status"], "done");
    assert_eq!(last["output"]["version"], "1.2.0");
    assert_eq!(last["output"]["approved"], true);
    assert_eq!(last["output"]["git"]["code"], 0);

    let (out, _, code) = sim(&[
        workflow.to_str().unwrap(),
        "--input",
        input,
        "--events",
        "release-check-rejected.events.jsonl",
        "--final",
    ]);
    assert_eq!(code, 1, "{out}");
    let last: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(last["status"], "failed");
    assert_eq!(last["output"]["reason"], "rejected at review: the changelog is empty");
}
