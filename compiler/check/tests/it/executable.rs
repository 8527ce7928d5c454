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

/// Issue 34: nothing a run needs is dropped silently. Every function of a Machine that a run
/// would call (a guard, an action or an `assign`'s update, a delay, an `input` or `output`
/// mapper, the `context` factory, a final state's `output`, params, an implementation of the
/// setup that the Machine names) either lowers into an `ir::Expr`, or is refused by
/// `not-executable` at it or at the node that holds it (a line whose path is a prefix of the
/// function's; for the setup's implementations, a line naming it). The functions are found in
/// the values as written, not in what lowering kept, so a place that lowering forgets fails
/// here. (Later a function the engine carries will be a third outcome.)
#[test]
fn every_function_a_run_needs_lowers_or_is_refused() {
    use machine::value::{Value, ValueKind};
    let folders = ["examples/instance/workflows", "tests/xstate/fixtures", "tests/xstate/corpus/machines"];
    let (mut functions, mut lowered) = (0, 0);
    let mut dropped = Vec::new();
    for folder in folders {
        for path in workflows(folder) {
            let ev = machine::eval::evaluate_file(&path);
            let Some(value) = ev.exports.get("machine") else { continue };
            let Ok(parts) = machine::lower::machine_parts(value) else { continue };
            let compiled = compile_file(&path);
            let lines: Vec<(&str, &str)> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.code == "not-executable")
                .map(|d| (d.path.as_deref().unwrap_or(""), d.message.as_str()))
                .collect();
            // The config's functions, each with its path.
            let mut found: Vec<(String, &Value)> = Vec::new();
            collect(parts.config, String::new(), &mut found);
            // The names the config uses (strings and keys): an implementation of the setup that
            // no name reaches is one a run never calls.
            let mut names = Vec::new();
            used_names(parts.config, &mut names);
            for field in ["guards", "actions", "delays"] {
                for (name, v) in parts.setup_entries(field) {
                    if names.contains(&name) {
                        let mut inner = Vec::new();
                        collect(v, format!("{field}.{name}"), &mut inner);
                        found.extend(inner);
                    }
                }
            }
            for (fpath, v) in found {
                let ValueKind::Function(f) = &v.kind else { continue };
                functions += 1;
                if f.lowered.is_some() {
                    lowered += 1;
                    continue;
                }
                let refused = match fpath.split_once('.') {
                    Some(("guards" | "actions" | "delays", rest)) => {
                        let name = rest.split('.').next().unwrap_or(rest);
                        lines.iter().any(|(_, m)| m.contains(&format!("`{name}`")))
                    }
                    _ => lines.iter().any(|(p, _)| covers(p, &fpath)),
                };
                if !refused {
                    dropped.push(format!("{}: {fpath}", path.display()));
                }
            }
        }
    }
    assert!(functions > 500 && lowered > 500, "only {functions} functions ({lowered} lowered)");
    assert!(dropped.is_empty(), "{} functions neither lower nor are refused:\n{}", dropped.len(), dropped.join("\n"));

    /// Every function value under `v` (in objects, lists and calls' arguments), with its path;
    /// not what a run never calls: `meta`, `description`, an invoke's `src` (an actor, whose
    /// inline forms have rules of their own), and the Machines written in place.
    fn collect<'v>(v: &'v Value<'v>, path: String, out: &mut Vec<(String, &'v Value<'v>)>) {
        match &v.kind {
            ValueKind::Function(_) => out.push((path, v)),
            ValueKind::Object { props } => {
                for p in props.iter() {
                    if matches!(p.key, "meta" | "description" | "src") {
                        continue;
                    }
                    collect(&p.value, base::path::join(&path, p.key), out);
                }
            }
            ValueKind::Array { items } => {
                for (i, x) in items.iter().enumerate() {
                    collect(x, base::path::join(&path, i), out);
                }
            }
            _ => {
                if machine::lower::is_machine(v) {
                    return;
                }
                if let Some(call) = v.as_call() {
                    for a in call.args.iter() {
                        collect(a, path.clone(), out);
                    }
                }
            }
        }
    }

    fn used_names<'v>(v: &'v Value<'v>, out: &mut Vec<&'v str>) {
        match &v.kind {
            ValueKind::String { value } => out.push(value),
            ValueKind::Object { props } => {
                for p in props.iter() {
                    out.push(p.key);
                    used_names(&p.value, out);
                }
            }
            ValueKind::Array { items } => items.iter().for_each(|x| used_names(x, out)),
            _ => {
                if let Some(call) = v.as_call() {
                    call.args.iter().for_each(|a| used_names(a, out));
                }
            }
        }
    }

    /// Is a line at `line` (a node's path) at or above `function`'s path? The root's line (no
    /// path) covers its own `entry` and `exit` only.
    fn covers(line: &str, function: &str) -> bool {
        if line.is_empty() {
            return function.starts_with("entry") || function.starts_with("exit");
        }
        function == line || function.strip_prefix(line).is_some_and(|rest| rest.starts_with('.'))
    }
}
