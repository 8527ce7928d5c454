//! `jr2 up [--check] [DIR]`: the pre-flight of an Instance (`check::preflight`), reported as
//! `jr2 check` reports (formats, exit codes), with what `jr2 up` would list for each Workflow:
//! printed before the diagnostics in the human format, the `up` field of the JSON document.
//! SARIF and GitHub annotations carry the diagnostics only.
//!
//! Without `--check`, a clean pre-flight is then published: each Workflow compiled for a run
//! (`serve::published`) goes to the Instance's running `jr2 serve` as the Assembly (`PUT
//! /assembly`). The server is the one `.jr2/server.json` names, if `/health` answers for this
//! Instance; where none does, `jr2 up` starts `jr2 serve DIR` in the background (its own process
//! group, its output appended to `.jr2/serve.log`) and waits for its `server.json` and `/health`.

use super::args::{FormatArg, UpArgs};
use super::check::exit_code;
use super::input::display;
use super::{Exit, Result, UsageError};
use check::preflight::{check_up_with, listing};
use diagnostics::Summary;
use render::Format;
use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// `jr2 up [--check] [DIR]`.
pub(super) fn up(args: UpArgs) -> Result<Exit> {
    let dir = &args.dir;
    let meta = std::fs::metadata(dir).map_err(|e| UsageError(format!("cannot read {}: {e}", display(dir))))?;
    if !meta.is_dir() || !check::instance::is_instance(dir) {
        return Err(UsageError(format!(
            "{} is not an Instance folder: `jr2 up --check` takes a folder with `workflows/` (and `jr2.config.ts`)",
            display(dir)
        )));
    }
    super::input::check_instance_files(dir, true)?;
    // Foreign doors are read over HTTP unless `--offline`, as `jr2 check` does.
    let doors = (!args.offline).then(super::doors::HttpDoors::new);
    let up = check_up_with(dir, doors.as_ref().map(|d| d as &dyn check::doors::DoorSource));
    super::check::unreadable(&up.report)?;
    super::check::say_skipped(up.report.foreign_skipped);
    for path in &up.report.internal_errors {
        eprintln!("jr2: internal error while checking {}; this is a bug in jr2, please report it", display(path));
    }
    let crashed = !up.report.internal_errors.is_empty();
    let mut reports = super::check::file_reports(up.report.files);
    if matches!(args.output.format, FormatArg::Human | FormatArg::Github) {
        super::terminal::reports(&mut reports);
    }
    let text = match args.output.format {
        FormatArg::Human => {
            let color = args.output.color.enabled(std::io::stdout().is_terminal());
            // The listing's names come from the Workflows; without colour it has no escape of
            // its own, so all of it is made printable (with colour, its names are not: see
            // issue 16's report).
            let mut listed = listing::human(&up.workflows, color);
            if !color {
                listed = super::terminal::printable(&listed).into_owned();
            }
            listed + &render::render(Format::Human { color }, &reports, &check::rules::all())
        }
        FormatArg::Json => {
            let mut doc = render::json::document(&reports);
            let workflows = serde_json::to_value(&up.workflows)
                .map_err(|e| UsageError(format!("cannot write the listing as JSON: {e}")))?;
            if let Some(o) = doc.as_object_mut() {
                o.insert("up".into(), serde_json::json!({ "workflows": workflows }));
            }
            let mut text =
                serde_json::to_string_pretty(&doc).map_err(|e| UsageError(format!("cannot write JSON: {e}")))?;
            text.push('\n');
            text
        }
        FormatArg::Sarif => render::render(Format::Sarif, &reports, &check::rules::all()),
        FormatArg::Github => render::render(Format::Github, &reports, &check::rules::all()),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
    drop(stdout);
    let exit = exit_code(Summary::of(&reports), args.output.deny_warnings, crashed);
    if args.check || exit != Exit::Clean {
        return Ok(exit);
    }
    let Some(workflows) = super::serve::published(dir, &up.workflows) else { return Ok(Exit::Refused) };
    publish(dir, &args, workflows)
}

/// How long `jr2 up` waits for a `jr2 serve` it started.
const STARTING: Duration = Duration::from_secs(30);

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(2)))
        .timeout_global(Some(Duration::from_secs(60)))
        .max_redirects(0)
        .http_status_as_error(false)
        .build()
        .into()
}

/// The url of the `jr2 serve` running for `dir` (absolute): the one its `server.json` names, if
/// its `/health` answers for this Instance.
fn running(agent: &ureq::Agent, dir: &Path) -> Option<(String, u64)> {
    let text = std::fs::read_to_string(dir.join(".jr2").join("server.json")).ok()?;
    let doc: Value = serde_json::from_str(&text).ok()?;
    let url = doc.get("url")?.as_str()?.trim_end_matches('/').to_string();
    let pid = doc.get("pid").and_then(Value::as_u64).unwrap_or(0);
    let mut r = agent.get(format!("{url}/health")).call().ok()?;
    if r.status().as_u16() != 200 {
        return None;
    }
    let health: Value = serde_json::from_slice(&r.body_mut().with_config().limit(1 << 20).read_to_vec().ok()?).ok()?;
    (health.get("instance").and_then(Value::as_str) == Some(&dir.display().to_string())).then_some((url, pid))
}

/// Starts `jr2 serve DIR` in the background and waits until it answers: its url.
fn start_server(agent: &ureq::Agent, dir: &Path, args: &UpArgs) -> Result<String> {
    let jr2 = dir.join(".jr2");
    std::fs::create_dir_all(&jr2).map_err(|e| UsageError(format!("cannot create {}: {e}", display(&jr2))))?;
    let _ = std::fs::remove_file(jr2.join("server.json"));
    let log_path = jr2.join("serve.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| UsageError(format!("cannot write {}: {e}", display(&log_path))))?;
    let err = log.try_clone().map_err(|e| UsageError(format!("cannot write {}: {e}", display(&log_path))))?;
    let exe = std::env::current_exe().map_err(|e| UsageError(format!("cannot find the jr2 binary: {e}")))?;
    let mut command = std::process::Command::new(exe);
    command.arg("serve").arg(dir).arg("--listen").arg(&args.listen);
    if args.offline {
        command.arg("--offline");
    }
    command.stdin(std::process::Stdio::null()).stdout(log).stderr(err);
    // Its own process group: a Ctrl-C at this terminal does not stop it.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().map_err(|e| UsageError(format!("cannot start jr2 serve: {e}")))?;
    let end = Instant::now() + STARTING;
    while Instant::now() < end {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(UsageError(format!(
                "jr2 serve {} exited ({status}) before it listened: see {}",
                display(dir),
                display(&log_path)
            )));
        }
        if let Some((url, pid)) = running(agent, dir) {
            if pid == u64::from(child.id()) {
                eprintln!("jr2 up: started jr2 serve (pid {pid}) on {url}; its output goes to {}", display(&log_path));
                return Ok(url);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(UsageError(format!(
        "jr2 serve {} did not answer within {} s: see {}",
        display(dir),
        STARTING.as_secs(),
        display(&log_path)
    )))
}

/// `PUT /assembly` of `workflows` to the Instance's server (started where none runs).
fn publish(dir: &Path, args: &UpArgs, workflows: Vec<api::Published>) -> Result<Exit> {
    let dir = std::path::absolute(dir).map_err(|e| UsageError(format!("cannot read {}: {e}", display(dir))))?;
    let agent = agent();
    let url = match running(&agent, &dir) {
        Some((url, _)) => url,
        None => start_server(&agent, &dir, args)?,
    };
    let token = match std::env::var("JR2_TOKEN") {
        Ok(t) if !t.trim().is_empty() => t.trim().to_string(),
        _ => {
            let path = dir.join(".jr2").join("token");
            std::fs::read_to_string(&path)
                .map(|t| t.trim().to_string())
                .map_err(|e| UsageError(format!("cannot read the Instance token {}: {e}", display(&path))))?
        }
    };
    let body = serde_json::json!({ "workflows": workflows }).to_string();
    let sent = agent
        .put(format!("{url}/assembly"))
        .header("Authorization", format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .send(body.as_bytes());
    let mut response = sent.map_err(|e| UsageError(format!("PUT {url}/assembly: {e}")))?;
    let status = response.status().as_u16();
    let bytes = response.body_mut().with_config().limit(16 << 20).read_to_vec().unwrap_or_default();
    let doc: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if status != 200 {
        let message = doc.get("message").and_then(Value::as_str).unwrap_or("no message");
        eprintln!("jr2: {url} refused the Assembly ({status}): {message}");
        for line in doc.get("report").and_then(Value::as_array).into_iter().flatten() {
            let f = |k: &str| line.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            eprintln!("  {}: {}", f("path"), f("message"));
        }
        return Ok(Exit::Refused);
    }
    let mut out = String::new();
    for w in doc.get("workflows").and_then(Value::as_array).into_iter().flatten() {
        let f = |k: &str| w.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        let changed = if w.get("changed").and_then(Value::as_bool) == Some(true) { "changed" } else { "unchanged" };
        let identity = f("identity");
        let short = if identity.is_empty() { "no IR".to_string() } else { identity.chars().take(12).collect() };
        out.push_str(&format!("jr2 up: published {} ({short}, {changed})\n", f("name")));
    }
    out.push_str(&format!("jr2 up: the Assembly is live on {url}\n"));
    let out = super::terminal::printable(&out);
    if matches!(args.output.format, FormatArg::Human) {
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
    } else {
        // stdout holds one document of the format asked for.
        eprint!("{out}");
    }
    Ok(Exit::Clean)
}
