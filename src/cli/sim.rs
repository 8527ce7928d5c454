//! `jr2 sim FILE [--events EVENTS.jsonl] [--input JSON] [--final]`: runs a Machine, a Chart or an
//! SCXML document (`.scxml`) in memory with the runtime's core, on a simulated clock, and prints one
//! line per macrostep. A Chart's author sees what it would do before any model runs it.
//!
//! Each line of EVENTS is an event (`{"type": "done", ...payload}`), `{"after": MS}` (the clock
//! goes on by MS; every timer due by then fires, in deadline order, each its own macrostep), or
//! `{"outcome": {"actor": ID, "output": ...}}` / `{"outcome": {"actor": ID, "error": ...}}` (an
//! actor the run invoked settles), or `{"from": PARTY, "event": {...}}` (an event a party sent,
//! which the kit's `sentBy` reads), or `{"restore": true}` (the run is stored as a host stores it,
//! `Runtime::encode`, and read back, `Runtime::restore`, before the next line; it prints no line).
//! Blank lines are skipped. `--guards` answers the guards the
//! host decides (a Chart's lent guards).

use super::args::{SimArgs, SimFormat};
use super::input::{self, display};
use super::{Exit, Result, UsageError};
use runtime::{Live, Outcome, Refused, Request, Runtime, Status};
use serde_json::{json, Value};
use std::io::IsTerminal;

pub(super) fn sim(args: SimArgs) -> Result<Exit> {
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
    rt.host = Some(std::sync::Arc::new(host_guards(&machine, args.guards.as_deref(), &display(&args.file))?));
    let mut out = Lines {
        rt: &rt,
        format: args.format,
        last: None,
        every: !args.r#final,
        n: 0,
        origin: None,
        buffer: String::new(),
    };
    let mut now = 0u64;
    // The run is kept live: each event is applied in place, and a line is made from the run
    // itself (no snapshot per event).
    let (mut live, requests) = rt.start_live(input, now);
    out.push(Event::None, &live, requests);
    // The events the machine sends itself are taken when the run is idle: before the script's
    // next line, and at its end.
    let idle = |live: &mut Live, out: &mut Lines, now: u64| {
        while let Some(event) = live.queued().cloned() {
            let Some(requests) = rt.take_queued_live(live, now) else { break };
            out.origin = Some(("queued", Value::Bool(true)));
            out.push(Event::Value(event), live, requests);
        }
    };
    for (i, line) in events.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        idle(&mut live, &mut out, now);
        // Most lines are an event: its `type` is read without making the line's tree, which
        // the run makes only where an expression reads the event.
        let at = || format!("{} line {}", display(args.events.as_deref().unwrap_or(std::path::Path::new("-"))), i + 1);
        // An event typed `xstate.*` is the run's own: a script gives an outcome or `after`.
        let refused = |e: Refused| UsageError(format!("{}: {e}", at()));
        if let Some(ty) = event_type(line) {
            let requests = rt.send_text(&mut live, ty, line, now).map_err(refused)?;
            out.push(Event::Text(line), &live, requests);
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| UsageError(format!("{}: not JSON: {e}", at())))?;
        if v.get("restore") == Some(&Value::Bool(true)) {
            // The run as a host stores it: encoded, written out, read back against the IR, and
            // made live again. What follows must be what the live run would have done.
            let stored = rt.encode(&live.snapshot()).to_string();
            let read: Value =
                serde_json::from_str(&stored).map_err(|e| UsageError(format!("{}: the stored run: {e}", at())))?;
            live = rt.restore(&read).map_err(|e| UsageError(format!("{}: {e}", at())))?;
            continue;
        }
        if let Some(ms) = v.get("after") {
            let ms = ms.as_u64().ok_or_else(|| UsageError(format!("{}: `after` is a number of milliseconds", at())))?;
            now = now.saturating_add(ms);
            // Every timer due by now, earliest first; one that a fired timer schedules and that is
            // due too fires after it.
            // Those due at one instant fire in the order they were set (their incarnations).
            while let Some(t) =
                live.timers().iter().filter(|t| t.deadline <= now).min_by_key(|t| (t.deadline, t.incarnation)).cloned()
            {
                let requests = rt.fire_live(&mut live, &t.id, t.incarnation, t.deadline).map_err(refused)?;
                out.origin = Some(("timer", Value::String(t.id.clone())));
                out.push(Event::Value(t.event()), &live, requests);
                idle(&mut live, &mut out, t.deadline);
            }
            continue;
        }
        // An outcome settles the running actor of that id (the core reads its party and checks
        // its incarnation); one of an actor not running is dropped, as a host drops it.
        if let Some(outcome) = v.get("outcome") {
            let Some(actor) = outcome.get("actor").and_then(Value::as_str) else {
                return Err(UsageError(format!("{}: an outcome names its `actor`", at())));
            };
            let Some(incarnation) = live.actors().iter().find(|a| a.id == actor).map(|a| a.incarnation) else {
                let running: Vec<&str> = live.actors().iter().map(|a| a.id.as_str()).collect();
                eprintln!(
                    "jr2: {}: no actor {actor:?} is running (running: {}); its outcome is dropped",
                    at(),
                    if running.is_empty() { "none".to_string() } else { running.join(", ") }
                );
                continue;
            };
            let settled = match (outcome.get("output"), outcome.get("error")) {
                (_, Some(error)) => Outcome::Error(error.clone()),
                (output, None) => Outcome::Done(output.cloned().unwrap_or(Value::Null)),
            };
            // The line shows the event the run takes for it.
            let event = settled.clone().event(actor);
            let requests = rt.outcome(&mut live, actor, incarnation, settled, now).map_err(refused)?;
            out.push(Event::Value(event), &live, requests);
            continue;
        }
        let event = if v.get("type").is_some_and(Value::is_string) {
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
            let requests = rt.send_from_live(&mut live, event.clone(), from, now).map_err(refused)?;
            out.origin = Some(("from", Value::String(from.to_string())));
            out.push(Event::Value(event), &live, requests);
            continue;
        } else {
            return Err(UsageError(format!(
                "{}: a line is an event with a string `type`, `{{\"from\": PARTY, \"event\": ...}}`, `{{\"after\": MS}}` or `{{\"outcome\": ...}}`",
                at()
            )));
        };
        let requests = rt.send_live(&mut live, event.clone(), now).map_err(refused)?;
        out.push(Event::Value(event), &live, requests);
    }
    idle(&mut live, &mut out, now);
    out.flush(&live);
    // As `jr2 run`: only a run that did not end (the script's end) or ended `done` is not 1.
    Ok(match live.status() {
        Status::Error | Status::Failed | Status::Cancelled => Exit::Refused,
        Status::Active | Status::Done => exit,
    })
}

/// A line that is a flat event (a JSON object of keys without escapes whose values are strings
/// without escapes, short plain numbers, `true`, `false` or `null`, with a string `type` and no
/// `after` or `outcome` key): its type, read without making the line's tree. `None` for any
/// other line, which is read whole as before (so every error is serde_json's own): the scan
/// accepts only what serde_json reads the same.
fn event_type(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        while *i < b.len() && matches!(b[*i], b' ' | b'\t' | b'\n' | b'\r') {
            *i += 1;
        }
    };
    // A string with no escape and no control character: its contents.
    let string = |i: &mut usize| -> Option<&str> {
        if b.get(*i) != Some(&b'"') {
            return None;
        }
        let start = *i + 1;
        let len = b[start..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if b[start + len] != b'"' {
            return None;
        }
        *i = start + len + 1;
        line.get(start..start + len)
    };
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    // The keys seen (a line of more than eight is read whole).
    let (mut keys, mut n) = ([""; 8], 0);
    let mut ty = None;
    ws(&mut i);
    if b.get(i) == Some(&b'}') {
        return None;
    }
    loop {
        ws(&mut i);
        let key = string(&mut i)?;
        if n == keys.len() || keys[..n].contains(&key) || key == "after" || key == "outcome" {
            return None;
        }
        keys[n] = key;
        n += 1;
        ws(&mut i);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        ws(&mut i);
        match b.get(i)? {
            b'"' => {
                let v = string(&mut i)?;
                if key == "type" {
                    ty = Some(v);
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                if b[i] == b'-' {
                    i += 1;
                }
                let int = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                if int == 0 || (int > 1 && b[i] == b'0') {
                    return None;
                }
                i += int;
                if b.get(i) == Some(&b'.') {
                    let frac = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    if frac == 0 {
                        return None;
                    }
                    i += 1 + frac;
                }
                if i - start > 15 || matches!(b.get(i), Some(b'e' | b'E')) {
                    return None;
                }
            }
            _ => {
                let word = ["true", "false", "null"].into_iter().find(|w| b[i..].starts_with(w.as_bytes()))?;
                i += word.len();
            }
        }
        if key == "type" && ty.is_none() {
            return None;
        }
        ws(&mut i);
        match b.get(i)? {
            b',' => i += 1,
            b'}' => {
                i += 1;
                break;
            }
            _ => return None,
        }
    }
    ws(&mut i);
    (i == b.len()).then_some(ty).flatten()
}

/// A line's event: none (the run's start), the script's line as it was written, or a value.
enum Event<'t> {
    None,
    Text(&'t str),
    Value(Value),
}

impl Event<'_> {
    fn into_value(self) -> Value {
        match self {
            Event::None => Value::Null,
            Event::Text(t) => serde_json::from_str(t).unwrap_or(Value::Null),
            Event::Value(v) => v,
        }
    }
}

/// What made a line's step where the script did not: `("queued", true)` or `("timer", ID)`.
type Origin = Option<(&'static str, Value)>;

/// The printed lines: every macrostep's, or only the last with `--final`.
struct Lines<'r, 'm, 't> {
    rt: &'r Runtime<'m>,
    format: SimFormat,
    /// With `--final`: the last step's event, origin and requests (its line is written once, at
    /// the end).
    last: Option<(Event<'t>, Origin, Vec<Request>)>,
    every: bool,
    n: usize,
    /// What made the next line's step, where the script did not: `"queued": true` (an event the
    /// machine sent itself) or `"timer": ID` (a timer that fired).
    origin: Origin,
    /// Lines not written yet: stdout is written in large pieces, and at the end.
    buffer: String,
}

impl<'t> Lines<'_, '_, 't> {
    fn push(&mut self, event: Event<'t>, live: &Live, requests: Vec<Request>) {
        let origin = self.origin.take();
        if !self.every {
            // Only the last line is printed: it is made once, by `flush`.
            self.last = Some((event, origin, requests));
            self.n += 1;
            return;
        }
        let text = self.line(event, origin, live, &requests);
        self.n += 1;
        self.buffer.push_str(&text);
        self.buffer.push('\n');
        if self.buffer.len() >= 1 << 16 {
            self.write();
        }
    }

    fn write(&mut self) {
        if !self.buffer.is_empty() {
            super::other::print_out(&self.buffer);
            self.buffer.clear();
        }
    }

    fn line(&self, event: Event<'_>, origin: Origin, live: &Live, requests: &[Request]) -> String {
        let started: Vec<&str> = requests
            .iter()
            .filter_map(|r| match r {
                Request::Start { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let stopped: Vec<&str> = requests
            .iter()
            .filter_map(|r| match r {
                Request::Stop { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let configuration: Vec<String> = self.rt.atomic_live(live).into_iter().map(|s| self.rt.name(s)).collect();
        let event = event.into_value();
        let (context, status, error) = (live.context(), live.status(), live.error());
        let text = match self.format {
            SimFormat::Json => {
                let mut line = json!({
                    "step": self.n,
                    "event": event,
                    "configuration": configuration,
                    "context": context,
                    "started": started,
                    "stopped": stopped,
                    "status": status,
                });
                if let Some(e) = error {
                    line["error"] = json!(e);
                }
                if let Some(output) = live.output() {
                    line["output"] = output.clone();
                }
                if let Some((key, value)) = origin {
                    line[key] = value;
                }
                line.to_string()
            }
            SimFormat::Human => {
                let ty = event.get("type").and_then(Value::as_str).unwrap_or("(start)");
                let mut line = format!("{:>3}  {ty}  ->  {}", self.n, configuration.join(", "));
                if !started.is_empty() {
                    line += &format!("  started {}", started.join(", "));
                }
                if !stopped.is_empty() {
                    line += &format!("  stopped {}", stopped.join(", "));
                }
                line += &format!("  context {context}");
                match status {
                    Status::Active => {}
                    Status::Done => line += "  (done)",
                    Status::Failed => {
                        line += &format!("  (failed: {})", live.output().map_or(Value::Null, Value::clone))
                    }
                    Status::Cancelled => line += "  (cancelled)",
                    Status::Error => {
                        line += &format!("  (error: {})", error.map_or_else(String::new, ToString::to_string))
                    }
                }
                super::terminal::printable(&line).into_owned()
            }
        };
        text
    }

    fn flush(&mut self, live: &Live) {
        if let Some((event, origin, requests)) = self.last.take() {
            self.n -= 1;
            let text = self.line(event, origin, live, &requests);
            self.buffer.push_str(&text);
            self.buffer.push('\n');
        }
        self.write();
    }
}

impl Drop for Lines<'_, '_, '_> {
    /// The lines made before an error are written all the same.
    fn drop(&mut self) {
        self.write();
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

#[cfg(test)]
mod tests {
    use super::event_type;

    #[test]
    fn a_flat_event_line_is_read_without_its_tree_and_any_other_line_whole() {
        for (line, ty) in [
            (r#"{"type":"t","n":0}"#, Some("t")),
            (r#" { "n" : -12.5 , "type" : "go.on", "ok": true, "x": null } "#, Some("go.on")),
            (r#"{"type":"t","type":"u"}"#, None),
            (r#"{"type":"t","after":5}"#, None),
            (r#"{"type":"t","outcome":{}}"#, None),
            (r#"{"type":1}"#, None),
            (r#"{"n":1}"#, None),
            (r#"{"type":"a\"b"}"#, None),
            (r#"{"type":"t","p":{"q":1}}"#, None),
            (r#"{"type":"t","n":01}"#, None),
            (r#"{"type":"t","n":1e400}"#, None),
            (r#"{"type":"t","n":1.}"#, None),
            (r#"{"type":"t",}"#, None),
            (r#"{"type":"t"} x"#, None),
            (r#"{"type":"t""#, None),
            ("[1]", None),
        ] {
            assert_eq!(event_type(line), ty, "{line}");
            if let Some(ty) = ty {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(v["type"].as_str(), Some(ty), "{line}");
            }
        }
    }
}
