//! Every refusal text `chart.ts` shows (seed 004) appears, placeholders filled, in a reviewed
//! snapshot of the door: each entry is the text's fixed parts in order, and some snapshot line
//! must hold them all, in that order. A text the door cannot reach through `admit` (the grammar
//! refuses first) is snapshot by its rule's unit test, which runs the rule below the grammar.

/// The fixed parts of each refusal text of the seed, in order.
const SEED_TEXTS: &[&[&str]] = &[
    // rule 3
    &["\"fail\" is the kit's Part that ends the run as a Failure, and this Open body does not lend it (`lends.fail: true` would); lent: "],
    &["is not a lent actor or an Agent of this Chart; lent: ", "; kit: ", "; minted: "],
    &["is not a lent guard; lent guards: ", " (and jr2.sentBy with params { id }, jr2.failure and jr2.ready)"],
    &["a sentBy id is a literal party name, never a reference"],
    // only below the grammar, which refuses it first: kit_guard_params's unit test snapshots it
    &[".params: \"jr2.ready\" takes no params"],
    // the grammar's refinements
    &["\"jr2.sentBy\" takes params { id }"],
    &["that guard takes no params"],
    // rule 4
    &["is not a keyword a Chart event's payload may use; it may use type, properties, required"],
    &["a payload field named `type` is refused: jr2 writes the event's type, and the payload never names it"],
    // rule 6
    &["would run two Turns at once: these states invoke it and can be active together (in parallel regions, one inside the other, or one state twice); an Agent runs one Turn at a time: invoke another Agent in one of them"],
    // rule 8
    &["takes an object, the run's body — the callee's door checks it"],
    &["an Effect's input slot takes a string or a reference"],
    &["has no input keys the door can read (an Open argv nobody bound)"],
    &["does not state `expect`, so a Chart cannot use it; use a lent cut with `expect: \"new\"`: "],
    &["does not state `expect`, so a Chart cannot use it; the Open body must state it (`worktree({ expect: \"new\" })` would); lent: "],
    &["states `expect: \"existing\"` beside the lent force push", "and together they can force-push any existing branch; use a lent cut with `expect: \"new\"`: "],
    &["states `expect: \"existing\"` beside the lent force push", "this Open body lends no cut with `expect: \"new\"`, so a Chart cannot cut here (`worktree({ expect: \"new\" })` would); lent: "],
    &["the lent Effect", "takes an object: "],
    &["the lent Effect", "; missing: "],
    &["the lent Effect", "; not its input: "],
    &["the lent Effect", "; give one of branch, detach"],
    &["a detached cut takes no `from`"],
    &["is not a Worktree path: /work/<slot>/<name>"],
    &["names no Repo Slot of this Workspace; its Repo Slots: "],
    &["is a Repo Slot's folder, not a Worktree; `cwd` is a Worktree that a cut made, \"/work/", "/<name>\", or \"/work/", "/default\" to read, or \"/work\""],
    &["`fail` takes { reason, detail? }: reason is a text for a person"],
    &["`fail` takes reason and detail only"],
    &["`fail` needs a reason, a text for a person"],
    &["a reason is a string that is not empty, or a reference"],
    &["a Gate's input is an object of gate (a name) and meta"],
    &["a prompt is a string (placeholders inside it are fine)"],
    &["a cwd is a string"],
    &["works under a Workspace with Repo Slots, and a Turn there says where: `cwd` is a Worktree, or \"/work\""],
    &["`continue` is true or absent"],
];

fn snapshot_lines() -> Vec<String> {
    let root = base::workspace::root();
    let mut out = Vec::new();
    for dir in [
        root.join("snapshots/door"),
        root.join("compiler/check/src/rules/chart/snapshots"),
        root.join("compiler/chart/src/snapshots"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == "snap") {
                out.extend(std::fs::read_to_string(e.path()).unwrap().lines().map(str::to_string));
            }
        }
    }
    out
}

fn holds_in_order(line: &str, parts: &[&str]) -> bool {
    let mut rest = line;
    for p in parts {
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    true
}

#[test]
fn every_seed_refusal_text_is_in_a_snapshot() {
    let lines = snapshot_lines();
    assert!(!lines.is_empty(), "no snapshots found");
    let missing: Vec<String> = SEED_TEXTS
        .iter()
        .filter(|parts| !lines.iter().any(|l| holds_in_order(l, parts)))
        .map(|parts| parts.join(" … "))
        .collect();
    assert!(missing.is_empty(), "seed texts with no snapshot line:\n{}", missing.join("\n"));
}
