//! What `jr2 up` lists for a Workflow: its Gates, its Effects with their placement, and the states
//! that can fail the run. The Effects and the failing states are `machine::parts`'s own
//! (`parts_of`: the seed's `carriedEffectOf` and `failingStatesOf`); the Gates are the states that
//! invoke the kit's Gate, read off the same walk, and the Open bodies that lend a Chart the Gate or
//! `fail()`.

use ir::targets::Targets;
use ir::SlotKind;
use machine::lower::machine_parts;
use machine::parts::{self, Failure};
use machine::value::Value;
use serde::Serialize;
use serde_json::Value as J;
use std::path::Path;

/// One Workflow's listing (the `up.workflows[]` of `jr2 up --check --format json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    /// The Workflow's name, as `jr2 run` names it: its file's stem.
    pub workflow: String,
    /// Its file, relative to the Instance root.
    pub file: String,
    /// Does it export a Machine? When not, the rest is empty.
    pub compiles: bool,
    pub gates: Vec<Gate>,
    /// Each Effect slot as `carriedEffectOf` reports it: `name`, `path`, `kind`, `placement`
    /// (`harness`, `sandbox`, `instance` or `orchestrator`) and its kind's fields.
    pub effects: Vec<J>,
    /// The states that can fail the run (they invoke a `fail()` slot).
    pub failing: Vec<Failure>,
    /// The Open body slots that lend a Chart the Gate or `fail()`: a Chart run there may wait on
    /// a Gate, or fail the run, from states no file of the Instance shows.
    pub open_bodies: Vec<OpenBodyLends>,
}

/// A state that invokes the kit's Gate: it waits for an outside answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gate {
    /// The Machine's id.
    pub machine: String,
    /// The state's xstate id (`review.waiting`).
    pub state: String,
    /// The Gate slot it invokes.
    pub slot: String,
    /// The actor slots from the root Machine to this one.
    pub path: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenBodyLends {
    pub slot: String,
    pub path: Vec<String>,
    pub gate: bool,
    pub fail: bool,
}

/// The listing of the Workflow at `path`, from its `machine` export.
pub fn of(root: &Path, path: &Path, machine: Option<&Value>) -> Listing {
    let workflow = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let file = path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/");
    let mut listing = Listing {
        workflow,
        file,
        compiles: false,
        gates: Vec::new(),
        effects: Vec::new(),
        failing: Vec::new(),
        open_bodies: Vec::new(),
    };
    let Some(value) = machine.filter(|v| machine_parts(v).is_ok()) else { return listing };
    listing.compiles = true;
    let carried = parts::parts_of(value);
    listing.effects = carried.effects;
    listing.failing = carried.failures;
    listing.open_bodies = carried
        .open_bodies
        .iter()
        .filter(|b| b.declaration.lends.gate || b.declaration.lends.fail)
        .map(|b| OpenBodyLends {
            slot: b.slot.clone(),
            path: b.path.clone(),
            gate: b.declaration.lends.gate,
            fail: b.declaration.lends.fail,
        })
        .collect();
    parts::walk(value, &[], &mut |m, _, path| {
        let Some(m) = m else { return };
        let targets = Targets::new(&m.states, &m.id);
        for sid in m.ids() {
            for inv in m.state(sid).invokes.iter().filter(|i| i.kind == SlotKind::Gate) {
                listing.gates.push(Gate {
                    machine: m.id.clone(),
                    state: targets.id_of(sid).to_string(),
                    slot: inv.src.to_string(),
                    path: path.to_vec(),
                });
            }
        }
    });
    listing
}

/// One Effect as a line of the human listing: `name`, `kind`, `placement`, and what it does.
pub fn effect_line(e: &J) -> (String, String, String, String) {
    let s = |k: &str| e.get(k).and_then(J::as_str).unwrap_or_default().to_string();
    let mut name = s("name");
    if let Some(path) = e.get("path").and_then(J::as_array).filter(|p| !p.is_empty()) {
        let hops: Vec<&str> = path.iter().filter_map(J::as_str).collect();
        name = format!("{}/{name}", hops.join("/"));
    }
    let kind = s("kind");
    let detail = match kind.as_str() {
        "command" if e.get("cut").is_some() => match e["cut"].get("expect").and_then(J::as_str) {
            Some(x) => format!("cut a Worktree (expect {x})"),
            None => "cut a Worktree".to_string(),
        },
        "command" => {
            let argv: Vec<&str> =
                e.get("argv").and_then(J::as_array).into_iter().flatten().filter_map(J::as_str).collect();
            argv.join(" ")
        }
        "http" => format!("{} {}", s("method"), e.get("url").and_then(J::as_str).unwrap_or("<open url>")),
        "push" => match e.get("slot").and_then(J::as_str) {
            Some(slot) => format!("push to Repo Slot {slot}"),
            None => "push".to_string(),
        },
        "dispatch" => {
            let to = e.get("workflow").and_then(J::as_str).unwrap_or("<?>");
            match e.get("target").and_then(J::as_str) {
                Some(t) => format!("start a run of {to} at {t}"),
                None => format!("start a run of {to}"),
            }
        }
        "mcp" => format!(
            "{} {}/{}",
            s("op"),
            e.get("server").and_then(J::as_str).unwrap_or("<open server>"),
            e.get("tool").and_then(J::as_str).unwrap_or("<open tool>")
        ),
        _ => String::new(),
    };
    let mut detail = detail;
    if let Some(secrets) = e.get("secrets").and_then(J::as_array).filter(|x| !x.is_empty()) {
        let names: Vec<&str> = secrets.iter().filter_map(J::as_str).collect();
        detail.push_str(&format!(" (secrets: {})", names.join(", ")));
    }
    (name, kind, s("placement"), detail.trim().to_string())
}

/// The listing as text for a terminal: per Workflow, its Gates, its Effects (a table: slot,
/// kind, placement, what it does) and the states that can fail the run.
pub fn human(listings: &[Listing], color: bool) -> String {
    let bold = |s: &str| if color { format!("\x1b[1m{s}\x1b[0m") } else { s.to_string() };
    let mut out = String::new();
    let n = listings.len();
    out.push_str(&format!("jr2 up would run {n} Workflow{}:\n", if n == 1 { "" } else { "s" }));
    for l in listings {
        out.push_str(&format!("\n{}  {}\n", bold(&l.workflow), l.file));
        if !l.compiles {
            out.push_str("  (it exports no Machine: see the diagnostics)\n");
            continue;
        }
        let gates: Vec<String> = l.gates.iter().map(|g| format!("{} (slot {})", g.state, g.slot)).collect();
        let mut gates = if gates.is_empty() { "none".to_string() } else { gates.join(", ") };
        for b in l.open_bodies.iter().filter(|b| b.gate) {
            gates.push_str(&format!("; a Chart in Open body {:?} may place one", slot_name(&b.path, &b.slot)));
        }
        out.push_str(&format!("  gates     {gates}\n"));
        if l.effects.is_empty() {
            out.push_str("  effects   none\n");
        } else {
            let rows: Vec<(String, String, String, String)> = l.effects.iter().map(effect_line).collect();
            let w0 = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
            let w1 = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
            let w2 = rows.iter().map(|r| r.2.chars().count()).max().unwrap_or(0);
            for (i, (name, kind, placement, detail)) in rows.iter().enumerate() {
                let head = if i == 0 { "  effects   " } else { "            " };
                let line = format!("{head}{name:<w0$}  {kind:<w1$}  {placement:<w2$}  {detail}");
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        let failing: Vec<String> = l.failing.iter().map(|f| format!("{} (slot {})", f.state, f.slot)).collect();
        let mut failing = if failing.is_empty() { "none".to_string() } else { failing.join(", ") };
        for b in l.open_bodies.iter().filter(|b| b.fail) {
            failing.push_str(&format!("; a Chart in Open body {:?} may too", slot_name(&b.path, &b.slot)));
        }
        out.push_str(&format!("  can fail  {failing}\n"));
    }
    out.push('\n');
    out
}

/// A slot as the listing names it: its path from the root Machine, then its name.
fn slot_name(path: &[String], slot: &str) -> String {
    if path.is_empty() {
        slot.to_string()
    } else {
        format!("{}/{slot}", path.join("/"))
    }
}
