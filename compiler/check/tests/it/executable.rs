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
    // The list is docs/reference/semantics.md's, between its `refused` markers: the page says
    // why each is refused, and the two stay the same list.
    let page = std::fs::read_to_string(base::workspace::root().join("docs/reference/semantics.md")).unwrap();
    let listed: Vec<&str> = page
        .split("<!-- refused -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- /refused -->").next())
        .expect("docs/reference/semantics.md lists the refused corpus machines between <!-- refused --> markers")
        .lines()
        .filter_map(|l| l.strip_prefix("- `")?.split('`').next())
        .collect();
    assert!(!listed.is_empty(), "no machine listed between the markers: is the list read right?");
    let known: Vec<String> = listed
        .iter()
        .map(|name| {
            format!(
                "{}: the entry of state \"running\" cannot run: its `assign` cannot run: the update of \
                 `context.ref` cannot be carried: it reads `spawn` off its argument, an actor reference that a run \
                 in the engine cannot have",
                base::workspace::root().join(format!("tests/xstate/corpus/machines/{name}.ts")).display()
            )
        })
        .collect();
    assert_eq!(refused, known, "{} lines refuse a run:\n{}", refused.len(), refused.join("\n"));
}

/// Issue 34: nothing a run needs is dropped silently. Every function of a Machine that a run
/// would call (a guard, an action or an `assign`'s update, a delay, an `input` or `output`
/// mapper, the `context` factory, a final state's `output`, params, an implementation of the
/// setup that the Machine names) either lowers into an `ir::Expr`, or is carried as JavaScript
/// (its script is in the IR: an `Expr::Js` holds its code), or is refused by `not-executable` at
/// it or at the node that holds it (a line whose path is a prefix of the function's; for the
/// setup's implementations, a line naming it). The functions are found in the values as
/// written, not in what lowering kept, so a place that lowering forgets fails here. The count of
/// each outcome is printed (`--nocapture`), the refused with their reasons.
#[test]
fn every_function_a_run_needs_lowers_or_is_carried_or_is_refused() {
    use machine::value::{Value, ValueKind};
    let folders = ["examples/instance/workflows", "tests/xstate/fixtures", "tests/xstate/corpus/machines"];
    let (mut functions, mut lowered, mut carried, mut refused_n) = (0, 0, 0, 0);
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    let mut dropped = Vec::new();
    for folder in folders {
        for path in workflows(folder) {
            let ev = machine::eval::evaluate_file(&path);
            let Some(value) = ev.exports.get("machine") else { continue };
            let Ok(parts) = machine::lower::machine_parts(value) else { continue };
            let compiled = compile_file(&path);
            let in_ir = scripts(&compiled);
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
                if let Some(Ok(script)) = &f.carried {
                    if in_ir.contains(&script.code) {
                        carried += 1;
                    } else {
                        dropped.push(format!("{}: {fpath} (carried, and its script is not in the IR)", path.display()));
                    }
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
                    continue;
                }
                refused_n += 1;
                let why = match &f.carried {
                    Some(Err(why)) => why.to_string(),
                    _ => "not carried (no script)".to_string(),
                };
                *reasons.entry(why).or_default() += 1;
            }
        }
    }
    println!("{functions} functions a run calls: {lowered} lowered, {carried} carried, {refused_n} refused");
    for (why, n) in &reasons {
        println!("  refused {n}: {why}");
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

/// The code of every script (`Expr::Js`) of a compilation's IR, child Machines' included.
fn scripts(compiled: &check::compile::Compiled) -> std::collections::HashSet<String> {
    fn walk(v: &serde_json::Value, out: &mut std::collections::HashSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                if m.get("kind").and_then(|k| k.as_str()) == Some("js") {
                    if let Some(code) = m.get("value").and_then(|x| x.get("code")).and_then(|c| c.as_str()) {
                        out.insert(code.to_string());
                    }
                }
                m.values().for_each(|x| walk(x, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = std::collections::HashSet::new();
    if let Some(check::compile::Ir::Full(m)) = &compiled.machine {
        walk(&serde_json::to_value(m).expect("an IR serializes"), &mut out);
    }
    out
}

/// Issue 34: every script the front end carries is one closed JavaScript expression whose value
/// is a function. Each script of the IRs of the examples, the cross-check's Workflows and the
/// check's own fixtures (`compiler/check/tests/fixtures`, where the carried forms are) is
/// evaluated by `node` (`typeof (<code>) === "function"`); a script that does not parse, throws
/// as it is made (a capture in the wrong order, a name it does not close over) or is no function
/// fails, named. Without `node` the test says so and passes, but under `CI=true` it fails.
#[test]
fn every_carried_script_evaluates_to_a_function_in_node() {
    let folders = ["examples/instance/workflows", "tests/xstate/fixtures", "tests/xstate/corpus/machines"];
    let mut all: Vec<(String, String)> = Vec::new();
    let mut paths: Vec<PathBuf> = folders.iter().flat_map(|f| workflows(f)).collect();
    paths.extend(fixtures(&base::workspace::root().join("compiler/check/tests/fixtures")));
    {
        for path in paths {
            let compiled = compile_file(&path);
            let mut codes: Vec<String> = scripts(&compiled).into_iter().collect();
            codes.sort();
            all.extend(codes.into_iter().map(|c| (path.display().to_string(), c)));
        }
    }
    assert!(all.len() >= 10, "only {} scripts carried", all.len());
    let program = format!(
        "const scripts = {};\nconst bad = [];\nfor (const [file, code] of scripts) {{\n  try {{\n    const f = (0, eval)(code);\n    if (typeof f !== \"function\") bad.push(`${{file}}: ${{typeof f}}\\n${{code}}`);\n  }} catch (e) {{\n    bad.push(`${{file}}: ${{e}}\\n${{code}}`);\n  }}\n}}\nconsole.log(JSON.stringify({{ checked: scripts.length, bad }}));\n",
        serde_json::to_string(&all).expect("strings serialize")
    );
    let dir = std::env::temp_dir().join(format!("jr2-carried-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("scripts.cjs");
    std::fs::write(&file, program).expect("write");
    let out = match std::process::Command::new("node").arg(&file).output() {
        Ok(out) => out,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            assert!(std::env::var("CI").as_deref() != Ok("true"), "node is needed under CI=true: {e}");
            eprintln!("skipped: no node ({e})");
            return;
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "node failed: {}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("node's report");
    let bad = report["bad"].as_array().cloned().unwrap_or_default();
    println!("{} scripts evaluated by node, {} not a function", report["checked"], bad.len());
    let bad: Vec<String> = bad.iter().filter_map(|b| b.as_str().map(str::to_string)).collect();
    assert!(bad.is_empty(), "{} scripts are not a function:\n{}", bad.len(), bad.join("\n\n"));
}

/// The `.ts` files below a folder, sorted.
fn fixtures(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(fixtures(&p));
        } else if p.extension().is_some_and(|x| x == "ts") {
            out.push(p);
        }
    }
    out.sort();
    out
}
