//! `jr2 sim FILE [--events EVENTS.jsonl] [--input JSON] [--final]`: runs a Machine, a Chart or an
//! SCXML document (`.scxml`) in memory with the runtime's core, on a simulated clock, and prints one
//! line per macrostep. A Chart's author sees what it would do before any model runs it.
//!
//! Each line of EVENTS is an event (`{"type": "done", ...payload}`), `{"after": MS}` (the clock
//! goes on by MS; every timer due by then fires, in deadline order, each its own macrostep), or
//! `{"outcome": {"actor": ID, "output": ...}}` / `{"outcome": {"actor": ID, "error": ...}}` (an
//! actor the run invoked settles), or `{"from": PARTY, "event": {...}}` (an event a party sent,
//! which the kit's `sentBy` reads). Blank lines are skipped. `--guards` answers the guards the
//! host decides (a Chart's lent guards).

use super::args::{SimArgs, SimFormat};
use super::input::{self, display};
use super::{Exit, Result, UsageError};
use runtime::{Request, Runtime, Status, Step};
use serde_json::{json, Value};
use std::io::IsTerminal;

pub fn sim(args: SimArgs) -> Result<Exit> {
    let color = args.color.enabled(std::io::stderr().is_terminal());
    let (machine, _, exit) = super::graph::load_for_run(&args.file, args.lends.as_deref(), color)?;
    let Some(machine) = machine else { return Ok(Exit::Refused) };
    if exit == Exit::Refused {
        eprintln!("jr2: {} has errors; it runs as far as its IR goes", display(&args.file));
    }
    let input = match &args.input {
        Some(text) => {
            Some(serde_json::from_str::<Value>(text).map_err(|e| UsageError(format!("--input is not JSON: {e}")))?)
        }
        None => None,
    };
    let events = match &args.events {
        Some(path) => input::read_text(path)?,
        None => String::new(),
    };
    let mut rt = Runtime::new(&machine);
    if let Some(bound) = args.step_bound {
        rt.step_bound = bound;
    }
    rt.host_guards = host_guards(&machine, args.guards.as_deref(), &display(&args.file))?;
    let mut out = Lines { rt: &rt, format: args.format, last: None, every: !args.r#final, n: 0, origin: None };
    let mut now = 0u64;
    let mut step = rt.start(input, now);
    out.push(None, &step);
    // The events the machine sends itself are taken when the run is idle: before the script's
    // next line, and at its end.
    let idle = |step: &mut Step, out: &mut Lines, now: u64| {
        while let Some(next) = rt.take_queued(&step.snapshot, now) {
            let event = step.snapshot.queue[0].event.clone();
            *step = next;
            out.origin = Some(("queued", Value::Bool(true)));
            out.push(Some(event), step);
        }
    };
    for (i, line) in events.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        idle(&mut step, &mut out, now);
        let at = || format!("{} line {}", display(args.events.as_deref().unwrap_or(std::path::Path::new("-"))), i + 1);
        let v: Value = serde_json::from_str(line).map_err(|e| UsageError(format!("{}: not JSON: {e}", at())))?;
        if let Some(ms) = v.get("after") {
            let ms = ms.as_u64().ok_or_else(|| UsageError(format!("{}: `after` is a number of milliseconds", at())))?;
            now = now.saturating_add(ms);
            // Every timer due by now, earliest first; one that a fired timer schedules and that is
            // due too fires after it.
            while let Some(t) = step
                .snapshot
                .timers
                .iter()
                .filter(|t| t.deadline <= now)
                .min_by_key(|t| (t.deadline, t.id.clone()))
                .cloned()
            {
                step = rt.fire(&step.snapshot, &t.id, t.deadline);
                out.origin = Some(("timer", Value::String(t.id.clone())));
                out.push(Some(t.event()), &step);
                idle(&mut step, &mut out, t.deadline);
            }
            continue;
        }
        // An outcome is its actor's event: an Agent's party is its slot, any other's its id.
        let party = v.get("outcome").and_then(|o| o.get("actor")).and_then(Value::as_str).map(|actor| {
            match step.snapshot.actors.iter().find(|a| a.id == actor) {
                Some(a) if matches!(a.kind, ir::SlotKind::Agent | ir::SlotKind::Minted) => a.src.clone(),
                _ => actor.to_string(),
            }
        });
        let event = if let Some(outcome) = v.get("outcome") {
            let Some(actor) = outcome.get("actor").and_then(Value::as_str) else {
                return Err(UsageError(format!("{}: an outcome names its `actor`", at())));
            };
            if !step.snapshot.actors.iter().any(|a| a.id == actor) {
                let running: Vec<&str> = step.snapshot.actors.iter().map(|a| a.id.as_str()).collect();
                eprintln!(
                    "jr2: {}: no actor {actor:?} is running (running: {})",
                    at(),
                    if running.is_empty() { "none".to_string() } else { running.join(", ") }
                );
            }
            match (outcome.get("output"), outcome.get("error")) {
                (_, Some(error)) => {
                    json!({ "type": format!("xstate.error.actor.{actor}"), "error": error, "actorId": actor })
                }
                (output, None) => json!({
                    "type": format!("xstate.done.actor.{actor}"),
                    "output": output.cloned().unwrap_or(Value::Null),
                    "actorId": actor,
                }),
            }
        } else if v.get("type").is_some_and(Value::is_string) {
            v
        } else if let (Some(from), Some(event), 2) =
            (v.get("from"), v.get("event"), v.as_object().map_or(0, |o| o.len()))
        {
            // An event a party sent (`sentBy` reads it): `{"from": PARTY, "event": {...}}`.
            let (Some(from), true) = (from.as_str(), event.get("type").is_some_and(Value::is_string)) else {
                return Err(UsageError(format!(
                    "{}: `from` is a party's name and `event` an event with a string `type`",
                    at()
                )));
            };
            let event = event.clone();
            step = rt.send_from(step.snapshot, event.clone(), from, now);
            out.origin = Some(("from", Value::String(from.to_string())));
            out.push(Some(event), &step);
            continue;
        } else {
            return Err(UsageError(format!(
                "{}: a line is an event with a string `type`, `{{\"from\": PARTY, \"event\": ...}}`, `{{\"after\": MS}}` or `{{\"outcome\": ...}}`",
                at()
            )));
        };
        step = match party {
            Some(party) => rt.send_from(step.snapshot, event.clone(), &party, now),
            None => rt.send_owned(step.snapshot, event.clone(), now),
        };
        out.push(Some(event), &step);
    }
    idle(&mut step, &mut out, now);
    out.flush(&step);
    Ok(match step.snapshot.status {
        Status::Error => Exit::Refused,
        Status::Active | Status::Done => exit,
    })
}

/// What made a line's step where the script did not: `("queued", true)` or `("timer", ID)`.
type Origin = Option<(&'static str, Value)>;

/// The printed lines: every macrostep's, or only the last with `--final`.
struct Lines<'r, 'm> {
    rt: &'r Runtime<'m>,
    format: SimFormat,
    /// With `--final`: the last step's event and origin (its line is written once, at the end).
    last: Option<(Option<Value>, Origin)>,
    every: bool,
    n: usize,
    /// What made the next line's step, where the script did not: `"queued": true` (an event the
    /// machine sent itself) or `"timer": ID` (a timer that fired).
    origin: Origin,
}

impl Lines<'_, '_> {
    fn push(&mut self, event: Option<Value>, step: &Step) {
        let origin = self.origin.take();
        if !self.every {
            // Only the last line is printed: it is made once, by `flush`.
            self.last = Some((event, origin));
            self.n += 1;
            return;
        }
        let text = self.line(event, origin, step);
        self.n += 1;
        super::other::print_out(&(text + "\n"));
    }

    fn line(&self, event: Option<Value>, origin: Origin, step: &Step) -> String {
        let started: Vec<&str> = step
            .requests
            .iter()
            .filter_map(|r| match r {
                Request::Start { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let stopped: Vec<&str> = step
            .requests
            .iter()
            .filter_map(|r| match r {
                Request::Stop { id } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let configuration: Vec<String> = self.rt.atomic(&step.snapshot).into_iter().map(|s| self.rt.name(s)).collect();
        let s = &step.snapshot;
        let text = match self.format {
            SimFormat::Json => {
                let mut line = json!({
                    "step": self.n,
                    "event": event.unwrap_or(Value::Null),
                    "configuration": configuration,
                    "context": s.context,
                    "started": started,
                    "stopped": stopped,
                    "status": s.status,
                });
                if let Some(e) = &s.error {
                    line["error"] = json!(e);
                }
                if let Some((key, value)) = origin {
                    line[key] = value;
                }
                line.to_string()
            }
            SimFormat::Human => {
                let ty = event.as_ref().and_then(|e| e.get("type")).and_then(Value::as_str).unwrap_or("(start)");
                let mut line = format!("{:>3}  {ty}  ->  {}", self.n, configuration.join(", "));
                if !started.is_empty() {
                    line += &format!("  started {}", started.join(", "));
                }
                if !stopped.is_empty() {
                    line += &format!("  stopped {}", stopped.join(", "));
                }
                line += &format!("  context {}", s.context);
                match s.status {
                    Status::Active => {}
                    Status::Done => line += "  (done)",
                    Status::Error => line += &format!("  (error: {})", s.error.as_deref().unwrap_or("")),
                }
                super::terminal::printable(&line).into_owned()
            }
        };
        text
    }

    fn flush(&mut self, step: &Step) {
        if let Some((event, origin)) = self.last.take() {
            self.n -= 1;
            let text = self.line(event, origin, step);
            super::other::print_out(&(text + "\n"));
        }
    }
}

/// The host's answers to the guards a run cannot evaluate itself, from `--guards`: the names of
/// no implementation in the IR (a Chart's lent guards, whose code is the Open body's). Each such
/// guard the Workflow uses needs one, else the run is refused before it starts.
fn host_guards(
    machine: &ir::Machine,
    given: Option<&str>,
    file: &str,
) -> Result<std::collections::BTreeMap<String, bool>> {
    let mut answers = std::collections::BTreeMap::new();
    if let Some(text) = given {
        let v: Value = serde_json::from_str(text).map_err(|e| UsageError(format!("--guards is not JSON: {e}")))?;
        let Some(map) = v.as_object() else {
            return Err(UsageError("--guards is an object of guard names and booleans".into()));
        };
        for (name, value) in map {
            let Some(b) = value.as_bool() else {
                return Err(UsageError(format!("--guards: the answer of `{name}` is a boolean, not {value}")));
            };
            answers.insert(name.clone(), b);
        }
    }
    if machine.origin == ir::Origin::Scxml {
        return Ok(answers);
    }
    let mut needed = Vec::new();
    for t in &machine.transitions {
        if let Some(g) = &t.guard {
            host_guard_names(machine, g, &mut needed);
        }
    }
    needed.retain(|n| !answers.contains_key(n));
    if let Some(first) = needed.first() {
        let names: Vec<String> = needed.iter().map(|n| format!("`{n}`")).collect();
        return Err(UsageError(format!(
            "{file}: the run cannot decide the guard{} {}: {} lent by the Open body, whose code decides {} on the host; \
             give this run's answer{} with --guards '{{\"{first}\": true}}'",
            if needed.len() == 1 { "" } else { "s" },
            names.join(", "),
            if needed.len() == 1 { "it is" } else { "they are" },
            if needed.len() == 1 { "it" } else { "them" },
            if needed.len() == 1 { "" } else { "s" },
        )));
    }
    Ok(answers)
}

/// The named guards of `g` with no implementation in the IR, each once.
fn host_guard_names(machine: &ir::Machine, g: &ir::Guard, out: &mut Vec<String>) {
    match g {
        ir::Guard::Named { name, .. } => {
            if let Some(imp) = machine.implementations.guards.get(name.as_str()) {
                // A name naming itself is the runtime's to end; one level is enough here.
                if !matches!(imp, ir::Guard::Named { name: n, .. } if n == name) {
                    host_guard_names(machine, imp, out);
                }
            } else if !name.starts_with("jr2.") && !out.iter().any(|n| n == name.as_str()) {
                out.push(name.to_string());
            }
        }
        ir::Guard::Not { guard } => host_guard_names(machine, guard, out),
        ir::Guard::And { guards } | ir::Guard::Or { guards } => {
            guards.iter().for_each(|g| host_guard_names(machine, g, out))
        }
        ir::Guard::SentBy { .. } | ir::Guard::Expr { .. } => {}
    }
}
