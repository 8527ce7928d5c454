//! The clients of `jr2 serve`'s HTTP API (issue 35 item 4; /work/api-contract.md, and
//! docs/reference/api.md): `jr2 run NAME [--input JSON|@FILE] [--detach]`, `jr2 runs`, `jr2 status
//! RUN`, `jr2 cancel RUN`, `jr2 answer RUN GATE EVENT [--payload JSON]`.
//!
//! **Finding the server.** `--server URL`, else the `.jr2/server.json` (`{ "url", "pid" }`) of the
//! Instance around the current folder: the nearest folder at or above it that holds `workflows/`
//! (`check::instance::is_instance`). **The token** (control routes only: start, cancel, answer) is
//! `JR2_TOKEN`, else that Instance's `.jr2/token`. The token is never printed: a message says where
//! it came from, never what it is.
//!
//! **Exit codes** (ADR-0073, seed 000): `jr2 run` exits 0 only for `done`, 1 for every other end
//! (`failed`, `error`, `cancelled`, `lost`, `drifted`), with the end named on stderr
//! (`jr2: run <id> ended failed: <reason>`), and 2 for a usage error (a bad argument, an `--input`
//! that is no JSON, no Instance and no `--server`, no token). Everything else that stops a command
//! is 1: a server that does not answer (the message names the url and says to start one with
//! `jr2 serve` or `jr2 up`), a refused token, an answer of 4xx/5xx (its `message` and `report`
//! lines printed), a run that is not there.
//!
//! **What goes where.** stdout carries what a script reads: the run id (`--detach`), the run's
//! output when it ends `done` (one JSON line), `jr2 runs`' table, `jr2 status`'s lines, the JSON of
//! `--json`. stderr carries the run as it goes: on a terminal one live status line, rewritten at
//! each macrostep (the run id, its status, its configuration, the Gates waiting); otherwise one plain
//! line per macrostep. Either way, each time a Gate starts waiting a line says how to answer it
//! (`jr2 answer <run> <gate> <event>`), and the end is one line. What the server sends is text from
//! outside: it is shown with its control characters made printable (`terminal::printable`).
//!
//! **Following a run.** `jr2 run` reads `GET /runs/<id>/events` (Server-Sent Events: one `step`
//! per macrostep, then one `end` with the final RunHead) line by line, each line at most
//! [`LINE_LIMIT`] bytes and each event's data at most [`EVENT_LIMIT`]: a server that sends more is
//! refused, never read into memory unbounded. At each step it reads `GET /runs/<id>` for the Gates
//! waiting. When the stream stops without an `end` (the server was killed or restarted), it
//! connects again every [`RETRY`] for up to [`RECONNECT`]: a restarted server restores the run and
//! serves its stream again (an ended run's `end` at once). Ctrl-C stops following; the run goes on.
//!
//! HTTP is ureq's (blocking), as `doors.rs` reads foreign doors: short connect timeouts, a bound for
//! each call but the event stream, every body read up to [`BODY_LIMIT`], no redirect followed.

use super::args::{AnswerArgs, CancelArgs, RunArgs, RunsArgs, ServerArgs, StatusArgs};
use super::input::display;
use super::terminal::printable;
use super::{Exit, Result, UsageError};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The time to connect to the server.
const CONNECT: Duration = Duration::from_secs(3);
/// The time for one call in all (but the event stream, which lasts as long as the run).
const CALL: Duration = Duration::from_secs(30);
/// The most of an answer's body read: a run's status with its output is small; a runaway answer
/// is not read.
const BODY_LIMIT: u64 = 16 << 20;
/// The longest line of the event stream.
pub(crate) const LINE_LIMIT: usize = 1 << 20;
/// The most data of one event of the stream (its `data:` lines together).
pub(crate) const EVENT_LIMIT: usize = 4 << 20;
/// The most of `.jr2/token` and `.jr2/server.json` read.
const FILE_LIMIT: u64 = 64 << 10;
/// How long `jr2 run` tries to reach a server that went away while it followed a run.
const RECONNECT: Duration = Duration::from_secs(60);
/// The pause between two tries.
const RETRY: Duration = Duration::from_millis(500);
/// The longest url taken from `--server` or `server.json`.
const URL_LIMIT: usize = 2048;

/// Why a client command stopped: a usage error (exit 2) or anything else (exit 1).
#[derive(Debug)]
enum Fail {
    Usage(String),
    Failed(String),
}

type Res<T> = std::result::Result<T, Fail>;

fn usage(message: impl Into<String>) -> Fail {
    Fail::Usage(message.into())
}

fn failed(message: impl Into<String>) -> Fail {
    Fail::Failed(message.into())
}

/// A command's end as the CLI reports it: a usage error goes up (exit 2, `main` prints it); any
/// other failure is printed here and is exit 1.
fn finish(result: Res<Exit>) -> Result<Exit> {
    match result {
        Ok(exit) => Ok(exit),
        Err(Fail::Usage(message)) => Err(UsageError(message)),
        Err(Fail::Failed(message)) => {
            eprintln!("jr2: {}", printable(&message));
            Ok(Exit::Refused)
        }
    }
}

/// `jr2 run NAME [--input JSON|@FILE] [--detach]`.
pub(super) fn run(args: RunArgs) -> Result<Exit> {
    finish(start_and_follow(&args))
}

/// `jr2 runs [--workflow W] [--status S] [--limit N] [--json]`.
pub(super) fn runs(args: RunsArgs) -> Result<Exit> {
    finish(list_runs(&args))
}

/// `jr2 status RUN [--json]`.
pub(super) fn status(args: StatusArgs) -> Result<Exit> {
    finish(show_status(&args))
}

/// `jr2 cancel RUN`.
pub(super) fn cancel(args: CancelArgs) -> Result<Exit> {
    finish((|| {
        let server = Server::locate(&args.server)?;
        let token = server.token()?;
        let path = format!("/runs/{}/cancel", segment(&args.run));
        let head = server.post(&path, None, &token, &format!("cannot cancel run {}", args.run))?;
        let status = head.get("status").and_then(Value::as_str).unwrap_or("cancelled");
        println!("run {} {}", printable(&args.run), printable(status));
        Ok(Exit::Clean)
    })())
}

/// `jr2 answer RUN GATE EVENT [--payload JSON|@FILE]`.
pub(super) fn answer(args: AnswerArgs) -> Result<Exit> {
    finish((|| {
        let mut event = match &args.payload {
            Some(text) => json_arg(text, "--payload")?,
            None => json!({}),
        };
        let Some(fields) = event.as_object_mut() else {
            return Err(usage("--payload is a JSON object: the event's fields besides its `type`"));
        };
        if fields.contains_key("type") {
            return Err(usage("--payload holds no `type`: the event's type is the EVENT argument"));
        }
        fields.insert("type".into(), Value::String(args.event.clone()));
        let server = Server::locate(&args.server)?;
        let token = server.token()?;
        let path = format!("/runs/{}/gates/{}", segment(&args.run), segment(&args.gate));
        let what = format!("cannot answer Gate {} of run {} with {}", args.gate, args.run, args.event);
        server.post(&path, Some(&event), &token, &what)?;
        println!("run {}: Gate {} sent {}", printable(&args.run), printable(&args.gate), printable(&args.event));
        Ok(Exit::Clean)
    })())
}

// ---- jr2 run ---------------------------------------------------------------------------------

fn start_and_follow(args: &RunArgs) -> Res<Exit> {
    check_name(&args.name)?;
    let input = match &args.input {
        Some(text) => json_arg(text, "--input")?,
        None => json!({}),
    };
    let server = Server::locate(&args.server)?;
    let token = server.token()?;
    let path = format!("/workflows/{}/runs", args.name.split('/').map(segment).collect::<Vec<_>>().join("/"));
    let started = server.post(&path, Some(&input), &token, &format!("cannot start a run of {}", args.name))?;
    let Some(id) = started.get("runId").and_then(Value::as_str).map(str::to_string) else {
        return Err(failed(format!("the answer of {} names no `runId`: is it a jr2 server?", server.url)));
    };
    if args.detach {
        println!("{}", printable(&id));
        return Ok(Exit::Clean);
    }
    let mut view = View::new(std::io::stderr().is_terminal(), &id);
    view.note(&format!("run {id} of {} started; following it (Ctrl-C stops following, the run goes on)", args.name));
    let head = follow(&server, &id, &mut view)?;
    view.clear();
    // The end's detail (a Failure's reason, an error's fault, the output) is the run's; the
    // stream's `end` says which end it was.
    let ended = head.get("status").cloned();
    let run = match server.get(&format!("/runs/{}", segment(&id)), "") {
        Ok(run) if ended.is_none() || run.get("status") == ended.as_ref() => run,
        _ => head,
    };
    let status = run.get("status").and_then(Value::as_str).unwrap_or("unknown").to_string();
    eprintln!("jr2: {}", printable(&end_line(&id, &run)));
    if status == "done" {
        if let Some(output) = run.get("output") {
            println!("{}", printable(&output.to_string()));
        }
        Ok(Exit::Clean)
    } else {
        Ok(Exit::Refused)
    }
}

/// The line that names a run's end: `run <id> ended failed: <reason>`, as the contract says it.
pub(crate) fn end_line(id: &str, run: &Value) -> String {
    let status = run.get("status").and_then(Value::as_str).unwrap_or("unknown");
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let why = match status {
        "failed" => text(run.pointer("/output/reason")),
        "error" => run.get("error").map(|e| {
            let mut why = text(e.get("reason")).unwrap_or_else(|| "a fault".into());
            if let Some(event) = text(e.get("event")) {
                why.push_str(&format!(" (event {event}"));
                if let Some(states) = e.get("states").and_then(Value::as_array) {
                    let states: Vec<&str> = states.iter().filter_map(Value::as_str).collect();
                    if !states.is_empty() {
                        why.push_str(&format!(" in {}", states.join(", ")));
                    }
                }
                why.push(')');
            }
            if let Some(error) = e.get("error").filter(|v| !v.is_null()) {
                why.push_str(&format!(": {}", text(Some(error)).unwrap_or_else(|| error.to_string())));
            }
            why
        }),
        _ => None,
    };
    match why {
        Some(why) => format!("run {id} ended {status}: {why}"),
        None => format!("run {id} ended {status}"),
    }
}

/// Follows a run's events to its end, reconnecting to a server that went away; the final RunHead.
fn follow(server: &Server, id: &str, view: &mut View) -> Res<Value> {
    let mut lost_since: Option<Instant> = None;
    loop {
        // Why the stream stopped, where it broke rather than ended.
        let mut broke: Option<String> = None;
        match server.events(id) {
            Ok(reader) => {
                if lost_since.take().is_some() {
                    view.note(&format!("the server at {} is back", server.url));
                }
                // The picture now, then each macrostep as it commits.
                if let Ok(run) = server.get(&format!("/runs/{}", segment(id)), "") {
                    view.run(&run);
                }
                let mut stream = Sse::new(reader);
                loop {
                    match stream.next() {
                        Ok(Some(event)) => {
                            let data: Value = serde_json::from_str(&event.data).unwrap_or(Value::Null);
                            match event.name.as_str() {
                                "end" => return Ok(data),
                                "step" => {
                                    view.step(&data);
                                    if data.get("status").and_then(Value::as_str) == Some("live") {
                                        if let Ok(run) = server.get(&format!("/runs/{}", segment(id)), "") {
                                            view.run(&run);
                                        }
                                    }
                                }
                                _ => {}
                            }
                        }
                        Ok(None) => break,
                        Err(SseError::TooLong(what)) => {
                            return Err(failed(format!("the event stream of run {id} at {}: {what}", server.url)))
                        }
                        Err(SseError::Io(e)) => {
                            broke = Some(e.to_string());
                            break;
                        }
                    }
                }
            }
            Err(Fail::Failed(message)) if message.starts_with(NO_ANSWER) => {}
            Err(other) => return Err(other),
        }
        // The stream stopped without an end: the server went away. A restarted one serves it again.
        let since = *lost_since.get_or_insert_with(|| {
            let why = broke.as_deref().map(|e| format!(" ({e})")).unwrap_or_default();
            view.note(&format!(
                "the server at {} stopped answering{why}; trying again for {} s",
                server.url,
                RECONNECT.as_secs()
            ));
            Instant::now()
        });
        if since.elapsed() >= RECONNECT {
            return Err(failed(format!(
                "{NO_ANSWER} {} for {} s while following run {id}: the run is in its store; `jr2 status {id}` reads it once a server runs again (`jr2 serve` or `jr2 up`)",
                server.url,
                RECONNECT.as_secs()
            )));
        }
        std::thread::sleep(RETRY);
    }
}

/// What `jr2 run` shows on stderr as the run goes: a live line on a terminal, plain lines otherwise.
struct View {
    tty: bool,
    id: String,
    /// The live line is on screen (to be cleared before another line).
    shown: bool,
    /// The last step's status and configuration.
    status: String,
    configuration: String,
    /// The Gates waiting, each with its events, as last read; a Gate's hint is printed when it
    /// starts waiting.
    gates: Vec<(String, String, Vec<String>)>,
    width: usize,
}

impl View {
    fn new(tty: bool, id: &str) -> View {
        let width = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).filter(|w| *w >= 20).unwrap_or(100);
        View {
            tty,
            id: id.to_string(),
            shown: false,
            status: "live".into(),
            configuration: String::new(),
            gates: Vec::new(),
            width,
        }
    }

    /// Clears the live line, if one is on screen.
    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }

    /// A line that stays: above the live line on a terminal.
    fn note(&mut self, text: &str) {
        self.clear();
        eprintln!("jr2: {}", printable(text));
        self.redraw();
    }

    fn redraw(&mut self) {
        if !self.tty || self.configuration.is_empty() {
            return;
        }
        let mut line = format!("run {}  {}  {}", self.id, self.status, self.configuration);
        if !self.gates.is_empty() {
            let names: Vec<&str> = self.gates.iter().map(|(g, _, _)| g.as_str()).collect();
            line.push_str(&format!("  waiting: {}", names.join(", ")));
        }
        let line = printable(&line).into_owned();
        let cut: String = line.chars().take(self.width.saturating_sub(1)).collect();
        eprint!("\r\x1b[K{cut}");
        let _ = std::io::stderr().flush();
        self.shown = true;
    }

    /// One macrostep, from the stream's `step` data.
    fn step(&mut self, note: &Value) {
        if let Some(status) = note.get("status").and_then(Value::as_str) {
            self.status = status.to_string();
        }
        if let Some(config) = note.get("configuration").and_then(Value::as_array) {
            self.configuration = config.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", ");
        }
        if self.tty {
            self.redraw();
        } else {
            let step = note.get("step").map(Value::to_string).unwrap_or_default();
            let event = note.get("event").and_then(Value::as_str).map(|e| format!(" on {e}")).unwrap_or_default();
            eprintln!(
                "jr2: run {} step {step}{event}: {} in {}",
                printable(&self.id),
                printable(&self.status),
                printable(&self.configuration)
            );
        }
    }

    /// The run as `GET /runs/<id>` gives it: its status, configuration and Gates.
    fn run(&mut self, run: &Value) {
        if let Some(status) = run.get("status").and_then(Value::as_str) {
            self.status = status.to_string();
        }
        if let Some(config) = run.get("configuration").and_then(Value::as_array) {
            self.configuration = config.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", ");
        }
        let gates = gates_of(run);
        for (gate, state, events) in &gates {
            if !self.gates.iter().any(|(g, s, _)| g == gate && s == state) {
                let hint = match events.as_slice() {
                    [] => "it may send no event now".to_string(),
                    [one] => format!("answer with `jr2 answer {} {gate} {one}`", self.id),
                    many => format!("answer with `jr2 answer {} {gate} <event>`: {}", self.id, many.join(", ")),
                };
                let text = format!("run {} waits at Gate {gate} in {state}: {hint}", self.id);
                self.clear();
                eprintln!("jr2: {}", printable(&text));
            }
        }
        self.gates = gates;
        self.redraw();
    }
}

/// The Gates of a run's status: `(gate, state, event types)`.
fn gates_of(run: &Value) -> Vec<(String, String, Vec<String>)> {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    run.get("gates")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|g| {
            let events =
                g.get("events").and_then(Value::as_array).into_iter().flatten().map(|e| s(e, "type")).collect();
            (s(g, "gate"), s(g, "state"), events)
        })
        .collect()
}

// ---- jr2 runs, jr2 status ----------------------------------------------------------------------

fn list_runs(args: &RunsArgs) -> Res<Exit> {
    if args.limit == 0 {
        return Err(usage("--limit is at least 1"));
    }
    let server = Server::locate(&args.server)?;
    let mut runs: Vec<Value> = Vec::new();
    let mut before: Option<String> = None;
    let mut next = Value::Null;
    // Page by page (`next`), until the limit or the last page.
    while runs.len() < args.limit {
        let mut query = vec![("limit", (args.limit - runs.len()).min(1000).to_string())];
        if let Some(w) = &args.workflow {
            query.push(("workflow", w.clone()));
        }
        if let Some(s) = &args.status {
            query.push(("status", s.clone()));
        }
        if let Some(b) = &before {
            query.push(("before", b.clone()));
        }
        let query: Vec<String> = query.iter().map(|(k, v)| format!("{k}={}", segment(v))).collect();
        let page = server.get(&format!("/runs?{}", query.join("&")), "cannot list the runs")?;
        let got = page.get("runs").and_then(Value::as_array).cloned().unwrap_or_default();
        let empty = got.is_empty();
        runs.extend(got);
        next = page.get("next").cloned().unwrap_or(Value::Null);
        match next.as_str() {
            Some(cursor) if !empty && before.as_deref() != Some(cursor) => before = Some(cursor.to_string()),
            _ => break,
        }
    }
    runs.truncate(args.limit);
    if args.json {
        let doc = json!({ "runs": runs, "next": if runs.len() == args.limit { next } else { Value::Null } });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return Ok(Exit::Clean);
    }
    print!("{}", printable(&runs_table(&runs)));
    Ok(Exit::Clean)
}

/// `jr2 runs`' table: the run, who dispatched it (after the id, ADR-0071), its Workflow, its
/// status, when it last changed.
pub(crate) fn runs_table(runs: &[Value]) -> String {
    if runs.is_empty() {
        return "no runs\n".into();
    }
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let mut rows = vec![["RUN".to_string(), "WORKFLOW".into(), "STATUS".into(), "UPDATED".into()]];
    for run in runs {
        let mut id = s(run, "runId");
        if let Some(by) = dispatched_by(run) {
            id.push_str(&format!(" (dispatched by {by})"));
        }
        rows.push([id, s(run, "workflow"), s(run, "status"), s(run, "updatedAt")]);
    }
    let widths: Vec<usize> = (0..4).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for row in rows {
        let line: Vec<String> = row.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A run's `dispatchedBy` as one phrase: `<run> (slot <slot>)`.
fn dispatched_by(run: &Value) -> Option<String> {
    let by = run.get("dispatchedBy").filter(|v| v.is_object())?;
    let caller = by.get("run").and_then(Value::as_str).unwrap_or("?");
    let mut text = caller.to_string();
    if let Some(slot) = by.get("slot").and_then(Value::as_str) {
        text.push_str(&format!(", slot {slot}"));
    }
    if let Some(instance) = by.get("instance").and_then(Value::as_str) {
        text.push_str(&format!(", of {instance}"));
    }
    Some(text)
}

fn show_status(args: &StatusArgs) -> Res<Exit> {
    let server = Server::locate(&args.server)?;
    let run = server.get(&format!("/runs/{}", segment(&args.run)), &format!("cannot read run {}", args.run))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&run).unwrap_or_default());
    } else {
        print!("{}", printable(&status_text(&run)));
    }
    Ok(Exit::Clean)
}

/// `jr2 status`'s lines: the seeds' fields of a run (`GET /runs/<id>`).
pub(crate) fn status_text(run: &Value) -> String {
    let s = |k: &str| run.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let id = s("runId");
    let mut out = String::new();
    let mut line = |k: &str, v: &str| out.push_str(&format!("{k:<15}{v}\n"));
    line("run:", &id);
    line("workflow:", &s("workflow"));
    line("status:", &s("status"));
    if let Some(config) = run.get("configuration").and_then(Value::as_array) {
        line("configuration:", &config.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "));
    }
    line("created:", &s("createdAt"));
    line("updated:", &s("updatedAt"));
    if let Some(by) = dispatched_by(run) {
        line("dispatched by:", &by);
    }
    for d in run.get("dispatched").and_then(Value::as_array).into_iter().flatten() {
        let f = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("?").to_string();
        line("dispatched:", &format!("{} (slot {}, at {})", f("run"), f("slot"), f("at")));
    }
    let gates = run.get("gates").and_then(Value::as_array).cloned().unwrap_or_default();
    if !gates.is_empty() {
        out.push_str("gates waiting:\n");
        for g in &gates {
            let f = |k: &str| g.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            out.push_str(&format!("  {} in {}\n", f("gate"), f("state")));
            for e in g.get("events").and_then(Value::as_array).into_iter().flatten() {
                let ty = e.get("type").and_then(Value::as_str).unwrap_or_default();
                let fields = payload_fields(e.get("input"));
                let payload = if fields.is_empty() {
                    String::new()
                } else {
                    format!(
                        " --payload '{{{}}}'",
                        fields.iter().map(|f| format!("\"{f}\": ...")).collect::<Vec<_>>().join(", ")
                    )
                };
                out.push_str(&format!("    {ty}: jr2 answer {id} {} {ty}{payload}\n", f("gate")));
                if let Some(d) = e.get("description").and_then(Value::as_str) {
                    out.push_str(&format!("      {d}\n"));
                }
            }
        }
    }
    if let Some(output) = run.get("output") {
        out.push_str(&format!("{:<15}{}\n", "output:", output));
    }
    if let Some(error) = run.get("error") {
        out.push_str(&format!("{:<15}{}\n", "error:", error));
    }
    out
}

/// The required fields of an event's input schema, in its order (what `--payload` must give).
fn payload_fields(schema: Option<&Value>) -> Vec<String> {
    schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

// ---- the server and its token --------------------------------------------------------------------

/// The start of a message for a server that does not answer (the follow loop tries again on it).
const NO_ANSWER: &str = "no jr2 server answers at";

/// A server to call: its url, and the Instance it was found from.
struct Server {
    url: String,
    /// The Instance around the current folder, where there is one.
    instance: Option<PathBuf>,
    /// The url came from that Instance's `.jr2/server.json` (not `--server`).
    from_file: bool,
    agent: ureq::Agent,
}

impl Server {
    /// `--server`, else the `.jr2/server.json` of the Instance around the current folder.
    fn locate(args: &ServerArgs) -> Res<Server> {
        let here = std::env::current_dir().map_err(|e| usage(format!("cannot read the current folder: {e}")))?;
        let instance = here.ancestors().find(|d| check::instance::is_instance(d)).map(Path::to_path_buf);
        let (url, from_file) = match &args.server {
            Some(url) => (server_url(url).map_err(|why| usage(format!("--server {why}")))?, false),
            None => {
                let Some(dir) = &instance else {
                    return Err(usage(format!(
                        "no Instance here: no folder at or above {} holds `workflows/`; run inside the Instance that `jr2 serve` serves, or give --server URL",
                        display(&here)
                    )));
                };
                (url_of_instance(dir)?, true)
            }
        };
        let agent = ureq::Agent::config_builder()
            .timeout_connect(Some(CONNECT))
            .timeout_global(Some(CALL))
            .max_redirects(0)
            .http_status_as_error(false)
            .user_agent(concat!("jr2/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(Server { url, instance, from_file, agent })
    }

    /// The token for control routes: `JR2_TOKEN`, else the Instance's `.jr2/token`. Never shown.
    fn token(&self) -> Res<String> {
        if let Some(token) = std::env::var_os("JR2_TOKEN").filter(|t| !t.is_empty()) {
            let token = token.into_string().map_err(|_| usage("JR2_TOKEN is not UTF-8 text"))?;
            return clean_token(&token).ok_or_else(|| usage("JR2_TOKEN is not one line of visible ASCII"));
        }
        let Some(dir) = &self.instance else {
            return Err(usage(
                "no token: set JR2_TOKEN to the server's token, or run inside its Instance (whose .jr2/token `jr2 serve` writes)",
            ));
        };
        let path = dir.join(".jr2").join("token");
        let text = read_small(&path).map_err(|e| {
            usage(format!(
                "no token: JR2_TOKEN is not set and {} cannot be read ({e}); `jr2 serve` writes it when it starts",
                display(&path)
            ))
        })?;
        clean_token(&text).ok_or_else(|| usage(format!("{} is not one line of visible ASCII", display(&path))))
    }

    fn get(&self, path: &str, what: &str) -> Res<Value> {
        let request = self.agent.get(format!("{}{path}", self.url)).header("Accept", "application/json");
        self.answer(request.call(), "GET", path, what, false)
    }

    fn post(&self, path: &str, body: Option<&Value>, token: &str, what: &str) -> Res<Value> {
        let request = self
            .agent
            .post(format!("{}{path}", self.url))
            .header("Accept", "application/json")
            .header("Authorization", format!("Bearer {token}"));
        let sent = match body {
            Some(body) => request.header("Content-Type", "application/json").send(body.to_string().as_bytes()),
            None => request.send_empty(),
        };
        self.answer(sent, "POST", path, what, true)
    }

    /// An answer's JSON body, or why there is none.
    fn answer(
        &self,
        sent: std::result::Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        method: &str,
        path: &str,
        what: &str,
        with_token: bool,
    ) -> Res<Value> {
        let mut response = sent.map_err(|e| self.unreachable(&e))?;
        let status = response.status().as_u16();
        let body = match response.body_mut().with_config().limit(BODY_LIMIT).read_to_vec() {
            Ok(bytes) => bytes,
            Err(ureq::Error::BodyExceedsLimit(_)) => {
                return Err(failed(format!(
                    "{method} {}{path}: the answer is larger than {} MiB",
                    self.url,
                    BODY_LIMIT >> 20
                )))
            }
            Err(e) => return Err(self.unreachable(&e)),
        };
        let value: Option<Value> = serde_json::from_slice(&body).ok();
        if (200..300).contains(&status) {
            return value.ok_or_else(|| {
                failed(format!("the answer of {method} {}{path} is not JSON: is {} a jr2 server?", self.url, self.url))
            });
        }
        if status == 401 && with_token {
            return Err(failed(format!(
                "{what}: the server at {} refused the token (401 unauthorized): {} is not this server's token",
                self.url,
                self.token_source()
            )));
        }
        let doc = value.unwrap_or(Value::Null);
        let field = |k: &str| doc.get(k).and_then(Value::as_str).map(str::to_string);
        let mut message = match (field("error"), field("message")) {
            (Some(code), Some(text)) => format!("{status} {code}: {text}"),
            (None, Some(text)) => format!("{status}: {text}"),
            _ => format!("{status} from {method} {}{path}", self.url),
        };
        for item in doc.get("report").and_then(Value::as_array).into_iter().flatten() {
            let f = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            let at = f("path");
            message.push_str(&format!(
                "\n  {}{}",
                if at.is_empty() { String::new() } else { format!("{at}: ") },
                f("message")
            ));
        }
        let what = if what.is_empty() { format!("{method} {path}") } else { what.to_string() };
        Err(failed(format!("{what}: {message}")))
    }

    /// Where the token came from, for a message (never the token).
    fn token_source(&self) -> String {
        if std::env::var_os("JR2_TOKEN").is_some_and(|t| !t.is_empty()) {
            "JR2_TOKEN".into()
        } else if let Some(dir) = &self.instance {
            display(&dir.join(".jr2").join("token"))
        } else {
            "the token".into()
        }
    }

    /// The event stream of a run, its body as a reader (no bound on the call's time: it lasts as
    /// long as the run).
    fn events(&self, id: &str) -> Res<impl BufRead> {
        let path = format!("/runs/{}/events", segment(id));
        let request = self
            .agent
            .get(format!("{}{path}", self.url))
            .header("Accept", "text/event-stream")
            .config()
            .timeout_global(None)
            .timeout_recv_response(Some(CALL))
            .build();
        let response = request.call().map_err(|e| self.unreachable(&e))?;
        let status = response.status().as_u16();
        if status != 200 {
            // An error's body is JSON, as every other route's.
            return Err(self
                .answer(Ok(response), "GET", &path, &format!("cannot follow run {id}"), false)
                .err()
                .unwrap_or_else(|| failed(format!("GET {}{path}: {status}", self.url))));
        }
        Ok(BufReader::new(response.into_body().into_reader()))
    }

    /// The message for a call that got no answer: the url, and how to start a server.
    fn unreachable(&self, e: &ureq::Error) -> Fail {
        let why = match e {
            ureq::Error::Timeout(_) => "no answer within the timeout".to_string(),
            ureq::Error::HostNotFound => "the host name does not resolve".to_string(),
            ureq::Error::ConnectionFailed => "the connection failed".to_string(),
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
                "connection refused".to_string()
            }
            ureq::Error::Io(io) => io.to_string(),
            other => other.to_string(),
        };
        let start = match (&self.instance, self.from_file) {
            (Some(dir), true) => format!(
                "its {} may be left from a server that stopped; start one with `jr2 serve {dir}` or `jr2 up {dir}`",
                display(&dir.join(".jr2").join("server.json")),
                dir = display(dir)
            ),
            _ => "start one with `jr2 serve [INSTANCE]` or `jr2 up [INSTANCE]`, or give --server URL".to_string(),
        };
        failed(format!("{NO_ANSWER} {} ({why}): {start}", self.url))
    }
}

/// The url of the server an Instance runs, from its `.jr2/server.json`.
fn url_of_instance(dir: &Path) -> Res<String> {
    let path = dir.join(".jr2").join("server.json");
    let text = match read_small(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(failed(format!(
                "no jr2 server runs for the Instance {dir} (no {file}): start one with `jr2 serve {dir}` or `jr2 up {dir}`, or give --server URL",
                dir = display(dir),
                file = display(&path)
            )))
        }
        Err(e) => return Err(failed(format!("cannot read {}: {e}", display(&path)))),
    };
    let url = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v.get("url").and_then(Value::as_str).map(str::to_string))
        .ok_or_else(|| failed(format!("{} holds no `url`", display(&path))))?;
    server_url(&url).map_err(|why| failed(format!("the url in {} {why}", display(&path))))
}

/// A server url as given: `http://` or `https://`, printable, bounded, without a trailing `/`.
pub(crate) fn server_url(url: &str) -> std::result::Result<String, String> {
    let url = url.trim();
    if url.len() > URL_LIMIT || url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("is no url: at most 2048 characters, no space or control character".into());
    }
    let Some(rest) = url.strip_prefix("http://").or_else(|| url.strip_prefix("https://")) else {
        return Err(format!("is no http url: {url:?} (as `http://127.0.0.1:7878`)"));
    };
    if rest.is_empty() || rest.starts_with('/') {
        return Err(format!("names no host: {url:?}"));
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// A token as read: trimmed, one line of visible ASCII (what a header may hold); else `None`.
fn clean_token(text: &str) -> Option<String> {
    let token = text.trim();
    (!token.is_empty() && token.bytes().all(|b| b.is_ascii_graphic())).then(|| token.to_string())
}

/// A small file (`.jr2/token`, `.jr2/server.json`): regular, at most [`FILE_LIMIT`] bytes.
fn read_small(path: &Path) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut text = String::new();
    std::fs::File::open(path)?.take(FILE_LIMIT).read_to_string(&mut text)?;
    Ok(text)
}

// ---- arguments -----------------------------------------------------------------------------------

/// A JSON argument: its text, or `@FILE` (`@-`: stdin).
fn json_arg(text: &str, flag: &str) -> Res<Value> {
    let (text, from) = match text.strip_prefix('@') {
        Some(file) => (super::input::read_text(Path::new(file)).map_err(|e| usage(e.0))?, format!("{flag} {file}")),
        None => (text.to_string(), flag.to_string()),
    };
    serde_json::from_str(&text).map_err(|e| usage(format!("{from} is not JSON: {e}")))
}

/// A Workflow's name as the Instance names it: a stem, or `wrapper/chart`.
fn check_name(name: &str) -> Res<()> {
    let ok = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let parts: Vec<&str> = name.split('/').collect();
    if parts.len() > 2 || !parts.iter().all(|p| ok(p)) {
        return Err(usage(format!(
            "{name:?} is no Workflow name: a Workflow's file stem (`release-check`), or a named Chart's `wrapper/chart`"
        )));
    }
    Ok(())
}

/// One path segment or query value, percent-encoded (RFC 3986: all but the unreserved bytes).
pub(crate) fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

// ---- Server-Sent Events --------------------------------------------------------------------------

/// One event of a stream: its name (`message` when it gives none) and its data.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct SseEvent {
    pub(crate) name: String,
    pub(crate) data: String,
}

#[derive(Debug)]
pub(crate) enum SseError {
    /// A line or an event past its bound.
    TooLong(String),
    /// The stream broke.
    Io(std::io::Error),
}

/// A reader of Server-Sent Events (the WHATWG's format: `event:` and `data:` fields, a blank line
/// ends an event, `:` a comment), line by line, bounded.
pub(crate) struct Sse<R> {
    reader: R,
    line: Vec<u8>,
}

impl<R: BufRead> Sse<R> {
    pub(crate) fn new(reader: R) -> Sse<R> {
        Sse { reader, line: Vec::new() }
    }

    /// The next event; `None` at the stream's end (an event cut off by the end is dropped, as the
    /// format says).
    pub(crate) fn next(&mut self) -> std::result::Result<Option<SseEvent>, SseError> {
        let mut name = String::new();
        let mut data = String::new();
        let mut has_data = false;
        loop {
            self.line.clear();
            let n = (&mut self.reader)
                .take(LINE_LIMIT as u64 + 1)
                .read_until(b'\n', &mut self.line)
                .map_err(SseError::Io)?;
            if n == 0 {
                return Ok(None);
            }
            if self.line.last() != Some(&b'\n') {
                if self.line.len() > LINE_LIMIT {
                    return Err(SseError::TooLong(format!("a line longer than {LINE_LIMIT} bytes")));
                }
                // The last line, with no line end: the stream ended inside an event.
                return Ok(None);
            }
            self.line.pop();
            if self.line.last() == Some(&b'\r') {
                self.line.pop();
            }
            if self.line.is_empty() {
                if has_data || !name.is_empty() {
                    let name = if name.is_empty() { "message".to_string() } else { name };
                    return Ok(Some(SseEvent { name, data }));
                }
                continue;
            }
            let line = String::from_utf8_lossy(&self.line);
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (&*line, ""),
            };
            match field {
                "event" => name = value.to_string(),
                "data" => {
                    if data.len() + value.len() + 1 > EVENT_LIMIT {
                        return Err(SseError::TooLong(format!("an event with more than {EVENT_LIMIT} bytes of data")));
                    }
                    if has_data {
                        data.push('\n');
                    }
                    data.push_str(value);
                    has_data = true;
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str) -> Vec<SseEvent> {
        let mut sse = Sse::new(text.as_bytes());
        std::iter::from_fn(|| sse.next().unwrap()).collect()
    }

    #[test]
    fn sse_reads_named_events_comments_and_multiline_data() {
        let text = ": hello\nevent: step\ndata: {\"step\":1}\n\nevent: end\r\ndata: a\r\ndata:b\r\n\r\ndata: plain\n\nevent: cut\ndata: x";
        assert_eq!(
            events(text),
            [
                SseEvent { name: "step".into(), data: "{\"step\":1}".into() },
                SseEvent { name: "end".into(), data: "a\nb".into() },
                SseEvent { name: "message".into(), data: "plain".into() },
            ]
        );
    }

    #[test]
    fn sse_refuses_a_line_past_its_bound() {
        let long = format!("data: {}\n\n", "x".repeat(LINE_LIMIT + 10));
        let mut sse = Sse::new(long.as_bytes());
        assert!(matches!(sse.next(), Err(SseError::TooLong(_))));
        // Many lines under the bound, together past the event's bound.
        let line = format!("data: {}\n", "y".repeat(LINE_LIMIT - 16));
        let many = line.repeat(EVENT_LIMIT / LINE_LIMIT + 2);
        let mut sse = Sse::new(many.as_bytes());
        assert!(matches!(sse.next(), Err(SseError::TooLong(_))));
    }

    #[test]
    fn urls_and_segments() {
        assert_eq!(server_url("http://127.0.0.1:7878/").unwrap(), "http://127.0.0.1:7878");
        assert!(server_url("127.0.0.1:7878").is_err());
        assert!(server_url("http://").is_err());
        assert!(server_url("http://a b").is_err());
        assert_eq!(segment("0.release-check.probing"), "0.release-check.probing");
        assert_eq!(segment("a/b c&d"), "a%2Fb%20c%26d");
        assert!(check_name("notes/weekly").is_ok());
        assert!(check_name("a/b/c").is_err() && check_name("../x").is_err() && check_name("").is_err());
        assert_eq!(clean_token(" abc\n").as_deref(), Some("abc"));
        assert_eq!(clean_token("a b"), None);
    }

    #[test]
    fn end_lines_name_the_end() {
        let failed = json!({ "status": "failed", "output": { "reason": "rejected at review: no notes" } });
        assert_eq!(end_line("r1", &failed), "run r1 ended failed: rejected at review: no notes");
        let error = json!({ "status": "error", "error": { "reason": "an unrouted agent.fault", "event": "agent.fault", "states": ["a.b"] } });
        assert_eq!(end_line("r1", &error), "run r1 ended error: an unrouted agent.fault (event agent.fault in a.b)");
        assert_eq!(end_line("r1", &json!({ "status": "cancelled" })), "run r1 ended cancelled");
        assert_eq!(end_line("r1", &json!({ "status": "done", "output": 1 })), "run r1 ended done");
    }

    #[test]
    fn status_lists_gates_with_how_to_answer() {
        let run = json!({
            "runId": "r1", "workflow": "release-check", "status": "live", "createdAt": "t0", "updatedAt": "t1",
            "dispatchedBy": { "run": "r0", "slot": "check" },
            "configuration": ["review"],
            "gates": [{ "gate": "reviewer", "state": "review", "events": [
                { "type": "approve", "description": "Release it." },
                { "type": "reject", "input": { "type": "object", "required": ["reason"] } }
            ] }]
        });
        let text = status_text(&run);
        assert!(text.contains("status:        live\n"), "{text}");
        assert!(text.contains("dispatched by: r0, slot check\n"), "{text}");
        assert!(text.contains("    approve: jr2 answer r1 reviewer approve\n      Release it.\n"), "{text}");
        assert!(text.contains("    reject: jr2 answer r1 reviewer reject --payload '{\"reason\": ...}'\n"), "{text}");
        let table = runs_table(&[run]);
        assert!(
            table.starts_with("RUN") && table.contains("r1 (dispatched by r0, slot check)  release-check  live"),
            "{table}"
        );
    }
}
