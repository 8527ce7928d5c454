//! `jr2 serve [INSTANCE]` (issue 35 item 2, docs/reference/serve.md): the Instance's Workflows
//! loaded as its Assembly (refused, with `jr2 check`'s lines on stderr and exit 1, where
//! `jr2 check` refuses them or the runtime cannot run one), its store at `INSTANCE/.jr2/jr2.db`,
//! every live run restored, then the HTTP API (`api`) on loopback until SIGTERM or SIGINT.
//!
//! stdout gets one line, `jr2 serve: listening on http://127.0.0.1:PORT`; everything else goes
//! to stderr. `INSTANCE/.jr2/server.json` (`{ url, pid }`, mode 0600) says where it listens, and
//! is removed on a clean stop. The token is `JR2_TOKEN`, else `INSTANCE/.jr2/token` (made where
//! missing); it is never printed. The Effects it runs are the host's defaults (`command`,
//! `http`), with the Held secrets of `--secrets FILE` and `JR2_SECRET_<NAME>`.

use super::args::ServeArgs;
use super::input::display;
use super::{Exit, Result, UsageError};
use api::Published;
use check::compile::compile_file;
use diagnostics::FileReport;
use render::Format;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How long a stop waits for the host's in-flight work before leaving it to the next restore.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(2);

/// `jr2 serve [INSTANCE]`.
pub(super) fn serve(args: ServeArgs) -> Result<Exit> {
    let dir = instance_dir(&args.dir)?;
    let Some(workflows) = assembly_of(&dir, !args.offline)? else { return Ok(Exit::Refused) };
    // The Held secrets: the file's, then `JR2_SECRET_<NAME>`; never printed (the error names
    // the file and the line, not a value).
    let secrets = host::Secrets::load(args.secrets.as_deref()).map_err(|e| UsageError(format!("{e}")))?;
    let jr2 = dir.join(".jr2");
    std::fs::create_dir_all(&jr2).map_err(|e| UsageError(format!("cannot create {}: {e}", display(&jr2))))?;
    let db = args.db.clone().unwrap_or_else(|| jr2.join("jr2.db"));
    let token = match std::env::var("JR2_TOKEN") {
        Ok(t) if !t.trim().is_empty() => t.trim().to_string(),
        _ => {
            let path = jr2.join("token");
            api::token::read_or_create(&path)
                .map_err(|e| UsageError(format!("cannot read or write {}: {e}", display(&path))))?
        }
    };
    let assembly = api::Assembly::load(workflows).map_err(|lines| {
        let said: Vec<String> = lines.iter().map(|l| format!("{}: {}", l.path, l.message)).collect();
        UsageError(format!("the Assembly does not load: {}", said.join("; ")))
    })?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| UsageError(format!("cannot start the server's runtime: {e}")))?;
    let options = api::Options {
        token,
        limits: api::Limits::default(),
        instance: dir.clone(),
        version: env!("JR2_VERSION").into(),
    };
    let result = rt.block_on(run(&args.listen, &db, &jr2, assembly, options, secrets));
    rt.shutdown_timeout(DRAIN);
    result
}

/// The absolute Instance folder, or a usage error.
pub(super) fn instance_dir(dir: &Path) -> Result<PathBuf> {
    let meta = std::fs::metadata(dir).map_err(|e| UsageError(format!("cannot read {}: {e}", display(dir))))?;
    if !meta.is_dir() || !check::instance::is_instance(dir) {
        return Err(UsageError(format!("{} is not an Instance folder (one with `workflows/`)", display(dir))));
    }
    std::path::absolute(dir).map_err(|e| UsageError(format!("cannot read {}: {e}", display(dir))))
}

async fn run(
    listen: &str,
    db: &Path,
    jr2: &Path,
    assembly: api::Assembly,
    options: api::Options,
    secrets: host::Secrets,
) -> Result<Exit> {
    let store = store_sqlite::SqliteStore::open(db, store::Limits::default())
        .map_err(|e| UsageError(format!("cannot open the store {}: {e}", display(db))))?;
    let host = host::Host::new(Arc::new(store), host::Config { work_dir: jr2.join("effects") })
        .with_defaults(Arc::new(secrets))
        .map_err(|e| UsageError(format!("cannot start the Effects' executors: {e}")))?;
    let restored = host.restore().await.map_err(|e| UsageError(format!("cannot restore the live runs: {e}")))?;
    if restored.runs > 0 {
        eprintln!(
            "jr2 serve: restored {} live run(s): {} Effect(s) started, {} run again, {} settled unknown, {} timer(s) armed",
            restored.runs, restored.started, restored.rerun, restored.unknown, restored.timers
        );
    }
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| UsageError(format!("cannot listen on {listen}: {e}")))?;
    let addr = listener.local_addr().map_err(|e| UsageError(format!("cannot listen on {listen}: {e}")))?;
    let url = format!("http://{addr}");
    let server_json = jr2.join("server.json");
    write_private(&server_json, &(serde_json::json!({ "url": url, "pid": std::process::id() }).to_string() + "\n"))
        .map_err(|e| UsageError(format!("cannot write {}: {e}", display(&server_json))))?;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "jr2 serve: listening on {url}").and_then(|()| stdout.flush());
    drop(stdout);
    let api = api::Api::new(host, assembly, options);
    let served = api::serve(listener, api, stop_signal()).await;
    let _ = std::fs::remove_file(&server_json);
    served.map_err(|e| UsageError(format!("the server stopped: {e}")))?;
    eprintln!("jr2 serve: stopped");
    Ok(Exit::Clean)
}

/// SIGTERM or SIGINT (Ctrl-C).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            _ => std::future::pending::<()>().await,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Writes `text` to `path`, readable by its owner only.
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

/// The Instance's Workflows as the Assembly publishes them: the pre-flight first (`jr2 up
/// --check`'s; its lines on stderr, `None` where it refuses), then each Workflow compiled for a
/// run (`None` where one cannot run: `not-executable`, or no executable IR), its door as JSON
/// Schema and its listing; each named Chart by `wrapper/chart`, with no IR (the runtime cannot
/// run an Open body's Chart yet).
pub(super) fn assembly_of(dir: &Path, online: bool) -> Result<Option<Vec<Published>>> {
    super::input::check_instance_files(dir, true)?;
    let doors = online.then(super::doors::HttpDoors::new);
    let up = check::preflight::check_up_with(dir, doors.as_ref().map(|d| d as &dyn check::doors::DoorSource));
    super::check::unreadable(&up.report)?;
    let mut reports = super::check::file_reports(up.report.files);
    let refused =
        !up.report.internal_errors.is_empty() || reports.iter().any(|r| r.diagnostics.iter().any(|d| d.is_error()));
    print_reports(&mut reports);
    if refused {
        eprintln!("jr2: the Instance {} is refused: `jr2 check` refuses it", display(dir));
        return Ok(None);
    }
    Ok(published(dir, &up.workflows))
}

/// The Workflows of a pre-flight's listings compiled for a run, and the Instance's named Charts
/// (see [`assembly_of`]); `None`, their lines on stderr, where one cannot run.
pub(super) fn published(dir: &Path, listings: &[check::preflight::listing::Listing]) -> Option<Vec<Published>> {
    let mut out = Vec::new();
    let mut unrunnable = false;
    for listing in listings {
        let path = dir.join(&listing.file);
        let mut compiled = compile_file(&path);
        let refused = compiled.refuse_for_run();
        let ir = compiled.machine.as_ref().and_then(|m| m.executable()).cloned();
        if refused || compiled.has_errors() || ir.is_none() {
            let mut reports = super::machine::reports_of(&compiled);
            print_reports(&mut reports);
            eprintln!("jr2: {} cannot run: the IR does not hold a part the run needs", display(&path));
            unrunnable = true;
            continue;
        }
        let input = door_schema(compiled.value());
        out.push(Published { name: listing.workflow.clone(), ir, input, listing: serde_json::to_value(listing).ok() });
    }
    if unrunnable {
        return None;
    }
    let (_, charts) = check::instance::discover_files(dir);
    for (wrapper, stem, _) in charts {
        out.push(Published { name: format!("{wrapper}/{stem}"), ir: None, input: None, listing: None });
    }
    Some(out)
}

/// A Workflow's door: the JSON Schema of its `jr2Setup({ schemas: { input } })`, where it
/// declares one that converts.
fn door_schema(value: Option<&machine::value::Value<'_>>) -> Option<serde_json::Value> {
    match check::doors::Door::of(value) {
        check::doors::Door::Declared { schema, .. } => {
            let v = schema.get("input")?;
            machine::zod::to_json_schema_io(v, machine::zod::Io::Input).ok()
        }
        _ => None,
    }
}

/// The lines `jr2 check` prints, on stderr (stdout is the URL line's).
fn print_reports(reports: &mut [FileReport]) {
    if reports.iter().all(|r| r.diagnostics.is_empty()) {
        return;
    }
    super::terminal::reports(reports);
    eprint!("{}", render::render(Format::Human { color: false }, reports, &check::rules::all()));
}
