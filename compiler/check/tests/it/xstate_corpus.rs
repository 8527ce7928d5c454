//! The differential corpus: hundreds of xstate v5 machines (`tests/xstate/corpus/machines/*.ts`,
//! written by `corpus/gen.mjs`), each built by REAL xstate 5 and dumped in the normalized shape
//! (`xstate_shape`) as `tests/xstate/corpus/expected/<name>.json` (`node dump.mjs --corpus`;
//! `tests/xstate/run.sh` checks the dumps are still what xstate builds). This test compiles each
//! machine with our front end (`check::compile::compile_file`, what `jr2 ir` prints) and compares
//! the two state by state: keys, kinds, children order, initial, invokes, history kinds, tags, and
//! every transition's trigger, targets, guard and `reenter`.
//!
//! Every difference is printed, one line a machine and field: what xstate has, what jr2 has. Then
//! a summary by field, with the families of the machines (a name is `<family>-<nn>`), so a cause
//! is seen at once.
//!
//! Pass or fail:
//! - `JR2_CORPUS_STRICT=1`: any difference fails.
//! - otherwise, a ratchet: it fails only when a machine listed in `corpus/matched.txt` (the
//!   machines that matched once) no longer matches. A machine that matches and is not listed is
//!   named, to be added: `JR2_CORPUS_BLESS=1` writes the list again, with every machine that
//!   matches now added (it never drops one).
//!
//! Errors `compile_file` gives are printed too (by code, with the machines), but they are not a
//! difference of the tree: some are the jr2 authoring rules an xstate Machine may break.

use crate::xstate_shape::{comparable, ir_dump, root};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The corpus must stay at least this big (issue 18: at least 300 machines).
const AT_LEAST: usize = 300;

struct Difference {
    machine: String,
    field: String,
    xstate: String,
    jr2: String,
}

fn show(v: &Value) -> String {
    match v {
        Value::Null => "none".to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A state's parent path: its path up to the last unescaped "." ("" for a child of the root).
fn parent_path(path: &str) -> Option<String> {
    if path.is_empty() {
        return None;
    }
    let (mut cut, mut escaped) = (None, false);
    for (i, c) in path.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '.' => cut = Some(i),
            _ => {}
        }
    }
    Some(cut.map_or(String::new(), |i| path[..i].to_string()))
}

/// The states of a dump by path, in order.
fn states(dump: &Value) -> States<'_> {
    dump["states"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| Some((s["path"].as_str()?.to_string(), s.as_object()?)))
        .collect()
}

type States<'a> = Vec<(String, &'a serde_json::Map<String, Value>)>;

fn find<'a>(list: &States<'a>, path: &str) -> Option<&'a serde_json::Map<String, Value>> {
    list.iter().find(|(q, _)| q == path).map(|(_, s)| *s)
}

/// The transitions of a dump by (source, event), each group's candidates in order.
fn transitions(dump: &Value) -> Vec<((String, String), Vec<&Value>)> {
    let mut out: Vec<((String, String), Vec<&Value>)> = Vec::new();
    for t in dump["transitions"].as_array().into_iter().flatten() {
        let key = (show(&t["source"]), show(&t["event"]));
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(t),
            None => out.push((key, vec![t])),
        }
    }
    out
}

/// A transition candidate as text: `-> a, b [guard g] [reenter]`, or `(no target)`.
fn candidate(t: &Value) -> String {
    let targets: Vec<String> = t["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| if p == "" { "(root)".to_string() } else { show(p) })
        .collect();
    let mut s = if targets.is_empty() { "(no target)".to_string() } else { format!("-> {}", targets.join(", ")) };
    if !t["guard"].is_null() {
        let _ = write!(s, " [guard {}]", show(&t["guard"]));
    }
    if t["reenter"] == Value::Bool(true) {
        s.push_str(" [reenter]");
    }
    s
}

fn candidates(list: &[&Value]) -> String {
    list.iter().map(|t| candidate(t)).collect::<Vec<_>>().join(" | ")
}

/// Which part of one group of candidates differs, for the summary: `targets`, `guard`,
/// `reenter`, or `candidates` (their number).
fn transition_field(x: &[&Value], j: &[&Value]) -> &'static str {
    if x.len() != j.len() {
        return "candidates";
    }
    for part in ["targets", "guard", "reenter"] {
        if x.iter().zip(j).any(|(a, b)| a[part] != b[part]) {
            return part;
        }
    }
    "candidates"
}

/// Every difference of our dump from xstate's, one a field.
fn differences(name: &str, expected: &Value, ours: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut push = |field: String, xstate: String, jr2: String| {
        out.push(Difference { machine: name.to_string(), field, xstate, jr2 });
    };
    if expected["machine"] != ours["machine"] {
        push("machine id".into(), show(&expected["machine"]), show(&ours["machine"]));
    }
    let (xs, js) = (states(expected), states(ours));
    for (path, x) in &xs {
        match find(&js, path) {
            None => push(format!("state \"{path}\""), Value::Object((*x).clone()).to_string(), "no such state".into()),
            Some(j) => {
                let fields: BTreeSet<&String> = x.keys().chain(j.keys()).collect();
                for f in fields {
                    let (a, b) = (x.get(f).unwrap_or(&Value::Null), j.get(f).unwrap_or(&Value::Null));
                    if a != b {
                        push(format!("state \"{path}\" {f}"), show(a), show(b));
                    }
                }
            }
        }
    }
    for (path, j) in &js {
        if find(&xs, path).is_none() {
            push(format!("state \"{path}\""), "no such state".into(), Value::Object((*j).clone()).to_string());
        }
    }
    // Children order, where both have the same children.
    let children = |list: &States<'_>| {
        let mut by: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (path, _) in list {
            if let Some(parent) = parent_path(path) {
                by.entry(parent).or_default().push(path.clone());
            }
        }
        by
    };
    let (xc, jc) = (children(&xs), children(&js));
    for (parent, xk) in &xc {
        if let Some(jk) = jc.get(parent) {
            let same: BTreeSet<_> = xk.iter().collect::<BTreeSet<_>>();
            if xk != jk && same == jk.iter().collect::<BTreeSet<_>>() {
                push(format!("children order of \"{parent}\""), xk.join(", "), jk.join(", "));
            }
        }
    }
    let (xt, jt) = (transitions(expected), transitions(ours));
    for ((source, event), x) in &xt {
        match jt.iter().find(|(k, _)| k.0 == *source && k.1 == *event) {
            None => push(format!("transition \"{source}\" on {event}: missing"), candidates(x), "none".into()),
            Some((_, j)) if x != j => push(
                format!("transition \"{source}\" on {event}: {}", transition_field(x, j)),
                candidates(x),
                candidates(j),
            ),
            Some(_) => {}
        }
    }
    for ((source, event), j) in &jt {
        if !xt.iter().any(|(k, _)| k.0 == *source && k.1 == *event) {
            push(format!("transition \"{source}\" on {event}: extra"), "none".into(), candidates(j));
        }
    }
    out
}

/// A difference's field without its state or source, for the summary (`state type`,
/// `transition on always: targets`).
fn field_kind(field: &str) -> String {
    let unquoted: String = {
        let mut out = String::new();
        let mut inside = false;
        for c in field.chars() {
            if c == '"' {
                inside = !inside;
                continue;
            }
            if !inside {
                out.push(c);
            }
        }
        out
    };
    let words: Vec<&str> = unquoted.split_whitespace().collect();
    let mut s = words.join(" ");
    // `on go:` → `on <event>:`, `on after:1000:` → `on after:`, `done.invoke:0` → `done.invoke`.
    if let Some(rest) = s.strip_prefix("transition on ") {
        let (event, tail) = rest.rsplit_once(": ").unwrap_or((rest, ""));
        let kind = match event {
            "always" | "done.state" | "history.default" | "xstate.route" => event.to_string(),
            e if e.starts_with("after:") => "after".into(),
            e if e.starts_with("done.invoke:") => "done.invoke".into(),
            e if e.starts_with("error.invoke:") => "error.invoke".into(),
            _ => "<event>".into(),
        };
        s = format!("transition on {kind}: {tail}");
    }
    s
}

fn family(name: &str) -> &str {
    name.rsplit_once('-').map_or(name, |(f, _)| f)
}

fn matched_file() -> std::path::PathBuf {
    root().join("corpus/matched.txt")
}

fn read_matched() -> BTreeSet<String> {
    std::fs::read_to_string(matched_file())
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn write_matched(names: &BTreeSet<String>) {
    let mut text = String::from(
        "# The corpus machines whose jr2 IR matched real xstate's tree (compiler/check/tests/it/xstate_corpus.rs).\n\
         # A ratchet: the test fails when one of these no longer matches. It only grows:\n\
         # JR2_CORPUS_BLESS=1 cargo test -p check --test it xstate_corpus  adds the machines that match now.\n",
    );
    for n in names {
        text.push_str(n);
        text.push('\n');
    }
    std::fs::write(matched_file(), text).expect("write tests/xstate/corpus/matched.txt");
}

#[test]
fn corpus_matches_xstate() {
    let dir = root().join("corpus");
    let names_in = |sub: &str, ext: &str| -> BTreeSet<String> {
        std::fs::read_dir(dir.join(sub))
            .unwrap_or_else(|e| panic!("tests/xstate/corpus/{sub}: {e}"))
            .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(ext).map(str::to_string))
            .collect()
    };
    let machines = names_in("machines", ".ts");
    let expected = names_in("expected", ".json");
    assert!(machines.len() >= AT_LEAST, "the corpus has {} machines, fewer than {AT_LEAST}", machines.len());
    let unpaired: Vec<String> = machines
        .symmetric_difference(&expected)
        .map(|n| {
            if machines.contains(n) {
                format!("machines/{n}.ts has no expected/{n}.json")
            } else {
                format!("expected/{n}.json has no machine")
            }
        })
        .collect();
    assert!(unpaired.is_empty(), "run `node dump.mjs --corpus --update` in tests/xstate:\n{}", unpaired.join("\n"));

    let mut all: Vec<Difference> = Vec::new();
    let mut matching: BTreeSet<String> = BTreeSet::new();
    let mut errors: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in &machines {
        let text = std::fs::read_to_string(dir.join(format!("expected/{name}.json"))).unwrap();
        let xstate: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("expected/{name}.json: {e}"));
        let compiled = check::compile::compile_file(&dir.join(format!("machines/{name}.ts")));
        for d in compiled.diagnostics.iter().filter(|d| d.is_error()) {
            errors.entry(format!("error[{}]", d.code)).or_default().insert(name.clone());
        }
        let Some(machine) = compiled.machine else {
            all.push(Difference {
                machine: name.clone(),
                field: "IR".into(),
                xstate: "a Machine".into(),
                jr2: "no IR (compile_file gave no Machine)".into(),
            });
            continue;
        };
        let found = differences(name, &comparable(&xstate), &ir_dump(&machine));
        if found.is_empty() {
            matching.insert(name.clone());
        }
        all.extend(found);
    }

    let mut report = String::new();
    for d in &all {
        let _ = writeln!(report, "{}: {}: xstate {}; jr2 {}", d.machine, d.field, d.xstate, d.jr2);
    }
    // The summary: each field, how many machines, of which families.
    let mut by_field: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for d in &all {
        by_field.entry(field_kind(&d.field)).or_default().insert(&d.machine);
    }
    let _ = writeln!(report, "\nby field (machines, and their families):");
    for (field, ms) in &by_field {
        let mut fams: BTreeMap<&str, usize> = BTreeMap::new();
        for m in ms {
            *fams.entry(family(m)).or_default() += 1;
        }
        let fams: Vec<String> = fams.iter().map(|(f, n)| format!("{f} {n}")).collect();
        let _ = writeln!(report, "  {field}: {} machines ({})", ms.len(), fams.join(", "));
    }
    if !errors.is_empty() {
        let _ = writeln!(report, "\nerrors compile_file gives (not a tree difference):");
        for (code, ms) in &errors {
            let ms: Vec<&str> = ms.iter().map(String::as_str).collect();
            let _ = writeln!(report, "  {code}: {} machines: {}", ms.len(), ms.join(" "));
        }
    }
    let differing: BTreeSet<&str> = all.iter().map(|d| d.machine.as_str()).collect();
    let _ = writeln!(
        report,
        "\ncorpus: {} machines, {} match xstate, {} differ ({} differences)",
        machines.len(),
        matching.len(),
        differing.len(),
        all.len()
    );
    println!("{report}");

    let listed = read_matched();
    let lost: Vec<&String> = listed.iter().filter(|n| !matching.contains(*n)).collect();
    let new: Vec<&String> = matching.iter().filter(|n| !listed.contains(*n)).collect();
    if std::env::var_os("JR2_CORPUS_BLESS").is_some() {
        write_matched(&listed.union(&matching).cloned().collect());
    } else if !new.is_empty() {
        println!(
            "{} machines match and are not in corpus/matched.txt (JR2_CORPUS_BLESS=1 adds them): {}",
            new.len(),
            new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
        );
    }
    assert!(
        lost.is_empty(),
        "{} machines of corpus/matched.txt no longer match xstate: {}\n(the differences are above)",
        lost.len(),
        lost.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    );
    if std::env::var("JR2_CORPUS_STRICT").as_deref() == Ok("1") {
        assert!(all.is_empty(), "JR2_CORPUS_STRICT=1: {} machines differ from xstate (above)", differing.len());
    }
}

#[test]
fn parent_paths_read_escaped_dots() {
    assert_eq!(parent_path(""), None);
    assert_eq!(parent_path("a").as_deref(), Some(""));
    assert_eq!(parent_path("a.b").as_deref(), Some("a"));
    assert_eq!(parent_path("a\\.b").as_deref(), Some(""));
    assert_eq!(parent_path("a\\.b.c").as_deref(), Some("a\\.b"));
    assert_eq!(parent_path("x.a\\.b").as_deref(), Some("x"));
}

#[test]
fn field_kinds_group_by_trigger() {
    assert_eq!(field_kind("state \"a.b\" type"), "state type");
    assert_eq!(field_kind("transition \"a\" on go: targets"), "transition on <event>: targets");
    assert_eq!(field_kind("transition \"\" on after:1000: missing"), "transition on after: missing");
    assert_eq!(field_kind("transition \"h\" on history.default: missing"), "transition on history.default: missing");
}
