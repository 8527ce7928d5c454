//! Issue 20's must-show for an executable IR: every Workflow of `examples/instance` and every
//! Workflow the xstate cross-check builds (`tests/xstate/run.sh`: the fixtures and the
//! differential corpus) loads for a run with no `not-executable` refusal. Each is compiled as
//! `jr2 sim` compiles it (`compile_file`, then `Compiled::refuse_for_run`), and the test fails
//! naming every line a run would refuse, but the two known ones (an actor ref in a context).

use check::compile::compile_file;
use std::path::PathBuf;

/// The `.ts` files of a folder of the workspace, sorted.
fn workflows(dir: &str) -> Vec<PathBuf> {
    let dir = base::workspace::root().join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ts"))
        .collect();
    out.sort();
    out
}

#[test]
fn every_example_and_crosscheck_workflow_loads_for_a_run() {
    let folders = ["examples/instance/workflows", "tests/xstate/fixtures", "tests/xstate/corpus/machines"];
    let mut checked = 0;
    let mut refused = Vec::new();
    for folder in folders {
        let files = workflows(folder);
        assert!(!files.is_empty(), "no Workflow in {folder}");
        for path in files {
            let mut compiled = compile_file(&path);
            assert!(compiled.machine.is_some(), "{}: no Machine", path.display());
            checked += 1;
            if compiled.refuse_for_run() {
                for d in compiled.diagnostics.iter().filter(|d| d.code == "not-executable") {
                    refused.push(format!("{}: {}", path.display(), d.message));
                }
            }
        }
    }
    assert!(checked > 400, "only {checked} Workflows found");
    // The two corpus Machines that `assign` an actor `spawn` makes: the IR holds no actor ref in
    // a context, so the update stays code, and a run that took the rest of the `assign` would
    // leave `context.ref` as it was without saying so (it did, before `not-executable` refused a
    // partial `assign`). Each must still be refused; any other refusal fails.
    let known: Vec<String> = ["spawn-08", "spawn-09"]
        .iter()
        .map(|name| {
            format!(
                "{}: the entry of state \"running\" cannot run: its `assign` cannot run whole: the update of \
                 `context.ref` stays code (not an expression the runtime can evaluate), and a run takes none of \
                 an `assign` or all of it",
                base::workspace::root().join(format!("tests/xstate/corpus/machines/{name}.ts")).display()
            )
        })
        .collect();
    assert_eq!(refused, known, "{} lines refuse a run:\n{}", refused.len(), refused.join("\n"));
}
