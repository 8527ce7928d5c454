//! The Language Server: the protocol side (`Backend`, async) and the worker (sync, salsa).

use crate::actions::{self, Action};
use crate::framing::{self, Incoming};
use crate::text::{self, Lines};
use check::compile::Compiled;
use db::Database;
use diagnostics::{Diagnostic, Severity};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc as tmpsc, oneshot};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The client asked for `shutdown` before it said `exit` (or closed the input).
    Clean,
    /// `exit`, or the end of the input, with no `shutdown` before: the protocol's exit status 1.
    Unclean,
}

/// How many frames wait for the output at most.
const OUTPUT_QUEUE: usize = 64;

/// Serves one client on `input` / `output` until it says `exit` or its input ends.
///
/// ```text
/// input ─► framing::Reader ─► well-formed messages ─► tower-lsp-server ─► its frames ─┐
///                 └─► malformed ones' error answers ───────────────────────────────────┴─► output
/// ```
///
/// A malformed message is answered here and the next one read (tower-lsp-server's own reader
/// would end the session at it); one writer puts each frame on the output whole.
pub async fn serve<I, O>(input: I, output: O) -> Ending
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let (service, socket) = LspService::new(Backend::new);
    let (server_in, mut feed) = tokio::io::duplex(1 << 16);
    let (server_frames, server_out) = tokio::io::duplex(1 << 16);
    // Frames for the output; `None`: the server's output ended, so does the session's.
    let (out, mut queued) = tmpsc::channel::<Option<Vec<u8>>>(OUTPUT_QUEUE);
    let shutdown = AtomicBool::new(false);

    let server = Server::new(server_in, server_out, socket).serve(service);
    let server_output = {
        let out = out.clone();
        async move {
            let mut frames = tokio::io::BufReader::new(server_frames);
            while let Some(frame) = server_frame(&mut frames).await {
                if out.send(Some(frame)).await.is_err() {
                    break;
                }
            }
            let _ = out.send(None).await;
        }
    };
    let write = async move {
        let mut output = output;
        while let Some(Some(frame)) = queued.recv().await {
            if output.write_all(&frame).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    };
    let read = async {
        let mut reader = framing::Reader::new(input);
        while let Some(incoming) = reader.next().await {
            match incoming {
                Incoming::Message { frame, method } => {
                    if feed.write_all(&frame).await.is_err() {
                        break;
                    }
                    match method.as_deref() {
                        Some("shutdown") => shutdown.store(true, Ordering::Relaxed),
                        // Nothing is read after `exit`.
                        Some("exit") => break,
                        _ => {}
                    }
                }
                Incoming::Malformed { frame, why } => {
                    eprintln!("jr2 lsp: answered a malformed message: {why}");
                    if out.send(Some(frame)).await.is_err() {
                        break;
                    }
                }
            }
        }
        // The server's input ends with ours.
        drop(feed);
    };
    let session = async { tokio::join!(server, server_output, write) };
    tokio::pin!(session, read);
    tokio::select! {
        _ = &mut session => {}
        // The input ended (or `exit` came): the server ends with it.
        _ = &mut read => {
            session.await;
        }
    }
    if shutdown.load(Ordering::Relaxed) {
        Ending::Clean
    } else {
        Ending::Unclean
    }
}

/// The next frame tower-lsp-server wrote (its header block, then as many bytes as its
/// `Content-Length` says), whole; `None` at the end of its output.
async fn server_frame<R: AsyncBufRead + Unpin>(from: &mut R) -> Option<Vec<u8>> {
    let mut frame = Vec::new();
    let mut length = None;
    loop {
        let start = frame.len();
        if from.read_until(b'\n', &mut frame).await.ok()? == 0 {
            return None;
        }
        let line = std::str::from_utf8(&frame[start..]).ok()?.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let start = frame.len();
    frame.resize(start + length?, 0);
    from.read_exact(&mut frame[start..]).await.ok()?;
    Some(frame)
}

/// A request's answer, sent back from the worker.
type Reply<T> = oneshot::Sender<Result<T>>;

enum Job {
    Folders(Vec<PathBuf>),
    Open {
        uri: Uri,
        text: String,
        version: i32,
    },
    Change {
        uri: Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    },
    Save {
        uri: Uri,
        text: Option<String>,
    },
    Close {
        uri: Uri,
    },
    /// Files created, changed or deleted on disk.
    Disk(Vec<FileEvent>),
    Hover {
        uri: Uri,
        at: Position,
        reply: Reply<Option<Hover>>,
    },
    Actions {
        uri: Uri,
        range: Range,
        reply: Reply<Option<CodeActionResponse>>,
    },
    Graph {
        request: GraphRequest,
        reply: Reply<Option<LSPAny>>,
    },
}

/// The command that draws a Workflow (`jr2 graph`'s picture of the Machine the document holds).
pub(crate) const GRAPH_COMMAND: &str = "jr2.graph";

/// `jr2.graph`'s argument: a document's URI, or `{ "uri", "format"?: "svg" | "mermaid" | "dot",
/// "state"?: PATH }`. SVG by default.
struct GraphRequest {
    uri: Uri,
    format: String,
    state: Option<String>,
}

impl GraphRequest {
    fn parse(arguments: &[LSPAny]) -> Option<GraphRequest> {
        let first = arguments.first()?;
        let field = |k: &str| first.get(k).and_then(|v| v.as_str());
        let uri = first.as_str().or_else(|| field("uri"))?.parse().ok()?;
        let format = field("format").unwrap_or("svg").to_string();
        Some(GraphRequest { uri, format, state: field("state").map(str::to_string) })
    }
}

/// One publication: a document's diagnostics at a version.
type Publication = (Uri, Vec<LspDiagnostic>, Option<i32>);
type LspDiagnostic = tower_lsp_server::ls_types::Diagnostic;

pub(crate) struct Backend {
    client: Client,
    jobs: mpsc::Sender<Job>,
}

impl Backend {
    pub(crate) fn new(client: Client) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let (publish, mut published) = tmpsc::unbounded_channel::<Publication>();
        // The worker: the database lives on one thread with the evaluator's stack.
        let spawned = std::thread::Builder::new()
            .name("jr2-lsp-worker".into())
            .spawn(move || machine::eval::on_evaluator_stack(move || Worker::new(publish).run(queue)));
        if let Err(e) = spawned {
            eprintln!("jr2 lsp: cannot start the worker: {e}");
        }
        // The publisher: sends the worker's diagnostics in the order they were made.
        let to = client.clone();
        tokio::spawn(async move {
            while let Some((uri, diagnostics, version)) = published.recv().await {
                to.publish_diagnostics(uri, diagnostics, version).await;
            }
        });
        Backend { client, jobs }
    }

    fn send(&self, job: Job) {
        // A stopped worker (it cannot be: its loop ends with the channel) leaves the editor
        // without diagnostics, not the server down.
        let _ = self.jobs.send(job);
    }

    async fn ask<T>(&self, make: impl FnOnce(Reply<T>) -> Job) -> Result<T> {
        let (reply, answer) = oneshot::channel();
        self.send(make(reply));
        answer.await.unwrap_or_else(|_| Err(Error::internal_error()))
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let mut roots: Vec<PathBuf> = params
            .workspace_folders
            .unwrap_or_default()
            .iter()
            .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
            .collect();
        #[allow(deprecated)]
        if let Some(root) = params.root_uri.as_ref().and_then(|u| u.to_file_path()) {
            if roots.is_empty() {
                roots.push(root.into_owned());
            }
        }
        self.send(Job::Folders(roots));
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(true) })),
                    ..Default::default()
                })),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: vec![GRAPH_COMMAND.to_string()],
                    ..Default::default()
                }),
                position_encoding: Some(PositionEncodingKind::UTF16),
                workspace: Some(WorkspaceServerCapabilities {
                    workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(OneOf::Left(true)),
                    }),
                    file_operations: None,
                }),
                ..Default::default()
            },
            server_info: Some(ServerInfo { name: "jr2".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.client.log_message(MessageType::INFO, "jr2 lsp: ready").await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        let added = params.event.added.iter().filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned())).collect();
        self.send(Job::Folders(added));
    }

    async fn did_open(&self, p: DidOpenTextDocumentParams) {
        let d = p.text_document;
        self.send(Job::Open { uri: d.uri, text: d.text, version: d.version });
    }

    async fn did_change(&self, p: DidChangeTextDocumentParams) {
        let d = p.text_document;
        self.send(Job::Change { uri: d.uri, version: d.version, changes: p.content_changes });
    }

    async fn did_save(&self, p: DidSaveTextDocumentParams) {
        self.send(Job::Save { uri: p.text_document.uri, text: p.text });
    }

    async fn did_close(&self, p: DidCloseTextDocumentParams) {
        self.send(Job::Close { uri: p.text_document.uri });
    }

    async fn did_change_watched_files(&self, p: DidChangeWatchedFilesParams) {
        self.send(Job::Disk(p.changes));
    }

    async fn hover(&self, p: HoverParams) -> Result<Option<Hover>> {
        let at = p.text_document_position_params;
        self.ask(|reply| Job::Hover { uri: at.text_document.uri, at: at.position, reply }).await
    }

    async fn code_action(&self, p: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        self.ask(|reply| Job::Actions { uri: p.text_document.uri, range: p.range, reply }).await
    }

    async fn execute_command(&self, p: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        if p.command != GRAPH_COMMAND {
            return Err(Error::invalid_params(format!("unknown command {:?}", p.command)));
        }
        let Some(request) = GraphRequest::parse(&p.arguments) else {
            return Err(Error::invalid_params(format!(
                "{GRAPH_COMMAND} takes a document's URI, or {{ uri, format?, state? }}"
            )));
        };
        self.ask(|reply| Job::Graph { request, reply }).await
    }
}

/// An open document.
struct Doc {
    path: PathBuf,
    version: i32,
}

/// The worker's state: the database, the open documents, what was published.
struct Worker {
    db: Database,
    docs: HashMap<Uri, Doc>,
    /// What each open document was last published with.
    published: HashMap<Uri, Vec<LspDiagnostic>>,
    /// A Workflow's diagnostics at its last text that parsed: shown, beside the syntax error,
    /// while its text does not parse.
    last_good: HashMap<PathBuf, Vec<LspDiagnostic>>,
    publish: tmpsc::UnboundedSender<Publication>,
    /// The compilations of the published Workflows, held so that the last reference to an old
    /// one is ours, not salsa's: see [`Worker::release`].
    held: Vec<Arc<Compiled>>,
    /// The thread that frees what [`Worker::release`] hands it (`None`: it could not start, and
    /// the worker frees them itself).
    dropper: Option<mpsc::Sender<Vec<Arc<Compiled>>>>,
}

impl Worker {
    fn new(publish: tmpsc::UnboundedSender<Publication>) -> Self {
        Worker {
            db: Database::new(),
            docs: HashMap::new(),
            published: HashMap::new(),
            last_good: HashMap::new(),
            publish,
            held: Vec::new(),
            dropper: dropper(),
        }
    }

    /// Hands the compilations that only the worker still holds (salsa dropped its memo of them
    /// when the edits of this round made a new revision) to the dropper thread: freeing a
    /// 2 000-line Workflow's values and IR is a tenth of an edit's time, and no part of what the
    /// editor waits for.
    fn release(&mut self) {
        let (gone, kept): (Vec<_>, Vec<_>) = self.held.drain(..).partition(|c| Arc::strong_count(c) == 1);
        self.held = kept;
        if let (false, Some(dropper)) = (gone.is_empty(), &self.dropper) {
            let _ = dropper.send(gone);
        }
    }

    /// Holds the compilation that the diagnostics of `path` just read (see [`Worker::release`]).
    fn hold(&mut self, path: &Path) {
        if let Some(c) = self.db.checked_compilation(path) {
            if !self.held.iter().any(|h| Arc::ptr_eq(h, &c)) {
                self.held.push(c);
            }
        }
    }

    fn run(mut self, queue: mpsc::Receiver<Job>) {
        while let Ok(job) = queue.recv() {
            let mut jobs = vec![job];
            jobs.extend(queue.try_iter());
            let mut edited: Vec<Uri> = Vec::new();
            for job in jobs {
                // A request sees every edit before it, published.
                if matches!(job, Job::Hover { .. } | Job::Actions { .. } | Job::Graph { .. }) && !edited.is_empty() {
                    self.publish_all(&std::mem::take(&mut edited));
                }
                // A panic while applying an edit is a bug: the edit is lost, the server goes on.
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.handle(job)));
                if let Ok(Some(uri)) = outcome {
                    if !edited.contains(&uri) {
                        edited.push(uri);
                    }
                }
            }
            self.release();
            if !edited.is_empty() {
                self.publish_all(&edited);
            }
        }
    }

    /// Applies a job; answers a request. The document an edit touched, if any.
    fn handle(&mut self, job: Job) -> Option<Uri> {
        match job {
            Job::Folders(roots) => {
                for root in roots {
                    self.db.add_instance(&root);
                }
                None
            }
            Job::Open { uri, text, version } => {
                let path = path_of(&uri)?;
                let new_file = self.db.text(&path).is_none();
                self.db.set_text(&path, Some(text));
                if new_file {
                    self.db.rescan();
                }
                self.docs.insert(uri.clone(), Doc { path, version });
                Some(uri)
            }
            Job::Change { uri, version, changes } => {
                let doc = self.docs.get_mut(&uri)?;
                doc.version = version;
                let path = doc.path.clone();
                // The last good diagnostics (shown, stale, while the text does not parse) move
                // with the text; a whole-text change leaves no place to move them to.
                if let Some(stale) = self.last_good.get_mut(&path) {
                    let mut ranges: Vec<&mut Range> = Vec::new();
                    for d in stale.iter_mut() {
                        ranges.push(&mut d.range);
                        for r in d.related_information.iter_mut().flatten().filter(|r| r.location.uri == uri) {
                            ranges.push(&mut r.location.range);
                        }
                    }
                    if !text::shift(&mut ranges, &changes) {
                        self.last_good.remove(&path);
                    }
                }
                let mut text = self.db.text(&path).unwrap_or_default();
                text::apply(&mut text, &changes);
                self.db.set_text(&path, Some(text));
                Some(uri)
            }
            Job::Save { uri, text } => {
                let path = self.docs.get(&uri)?.path.clone();
                if let Some(text) = text {
                    self.db.set_text(&path, Some(text));
                }
                Some(uri)
            }
            Job::Close { uri } => {
                let doc = self.docs.remove(&uri)?;
                self.db.reload(&doc.path);
                self.last_good.remove(&doc.path);
                self.published.remove(&uri);
                let _ = self.publish.send((uri.clone(), Vec::new(), None));
                Some(uri)
            }
            Job::Disk(events) => {
                let mut listing = false;
                for e in events {
                    let Some(path) = path_of(&e.uri) else { continue };
                    listing |= e.typ != FileChangeType::CHANGED;
                    // An open document's buffer wins over the disk.
                    if !self.docs.values().any(|d| d.path == path) {
                        self.db.reload(&path);
                    }
                }
                if listing {
                    self.db.rescan();
                }
                self.docs.keys().next().cloned()
            }
            Job::Hover { uri, at, reply } => {
                let answer = self.guarded(|w| w.hover(&uri, at));
                let _ = reply.send(answer);
                None
            }
            Job::Actions { uri, range, reply } => {
                let answer = self.guarded(|w| w.code_actions(&uri, range));
                let _ = reply.send(answer);
                None
            }
            Job::Graph { request, reply } => {
                let answer = self.guarded(|w| w.graph(&request)).and_then(|r| r);
                let _ = reply.send(answer);
                None
            }
        }
    }

    /// Runs a request: a panic answers an internal error.
    fn guarded<T>(&mut self, f: impl FnOnce(&mut Worker) -> T) -> Result<T> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self))).map_err(|_| {
            let mut e = Error::internal_error();
            e.message = "jr2 lsp: internal error while answering this request (a bug in jr2)".into();
            e
        })
    }

    /// Checks every open document (the edited ones first) and publishes what changed.
    fn publish_all(&mut self, edited: &[Uri]) {
        let mut order: Vec<Uri> = edited.iter().filter(|u| self.docs.contains_key(*u)).cloned().collect();
        let mut rest: Vec<Uri> = self.docs.keys().filter(|u| !edited.contains(u)).cloned().collect();
        rest.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        order.extend(rest);
        for uri in order {
            let diagnostics = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.diagnostics(&uri))) {
                Ok(Some(d)) => d,
                Ok(None) => continue,
                Err(_) => vec![LspDiagnostic {
                    severity: Some(DiagnosticSeverity::ERROR),
                    source: Some("jr2".into()),
                    message: "internal error while checking this file (a bug in jr2)".into(),
                    ..Default::default()
                }],
            };
            // An edited document is always published (its version moved); another only when
            // its diagnostics changed (an edit elsewhere re-checked it).
            if !edited.contains(&uri) && self.published.get(&uri) == Some(&diagnostics) {
                continue;
            }
            let version = self.docs.get(&uri).map(|d| d.version);
            self.published.insert(uri.clone(), diagnostics.clone());
            let _ = self.publish.send((uri.clone(), diagnostics, version));
            if let Some(path) = self.docs.get(&uri).map(|d| d.path.clone()) {
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.hold(&path)));
            }
        }
    }

    /// The diagnostics of the file at `path`, as `jr2 check` reports them (suppressions and
    /// `jr2c.toml` applied, `check::suppress`); for a new file of an
    /// Instance that is not on disk yet (an editor's unsaved buffer, which the Instance's
    /// listing, read from disk, does not hold), those of the file alone, as `jr2 check FILE`
    /// gives them: its own compilation (a Workflow) or the door with no lend manifest (a Chart).
    fn found(&mut self, path: &Path) -> Vec<Diagnostic> {
        let found = self.found_unsuppressed(path);
        let text = self.db.text(path).unwrap_or_default();
        if found.is_empty() && !text.contains("jr2-ignore[") {
            return found;
        }
        // The path `jr2 check` reports through: the `jr2c.toml` above the file (from disk) and
        // the inline suppressions of the buffer's text. A config that does not parse (an exit 2
        // in `jr2 check`) suppresses nothing here, and the server's log says why.
        let mut run = check::suppress::Suppressions::new();
        match run.report(path, &text, found.clone()) {
            Ok(kept) => kept,
            Err(e) => {
                eprintln!("jr2 lsp: {}", e.0);
                found
            }
        }
    }

    /// [`Worker::found`] before suppressions and the config.
    fn found_unsuppressed(&mut self, path: &Path) -> Vec<Diagnostic> {
        let unlisted = std::fs::symlink_metadata(path).is_err() && self.db.instance_of(path).is_some();
        if !unlisted {
            return self.db.diagnostics(path);
        }
        if path.extension().is_some_and(|e| e == "ts") {
            let Some(compiled) = self.db.compiled(path) else { return Vec::new() };
            return compiled.diagnostics.iter().filter(|d| d.file.0 == 0).map(|d| d.diagnostic.clone()).collect();
        }
        match self.db.text(path) {
            Some(text) if path.extension().is_some_and(|e| e == "json") => check::door::check(&text, None).diagnostics,
            _ => Vec::new(),
        }
    }

    /// An open document's diagnostics in LSP terms.
    fn diagnostics(&mut self, uri: &Uri) -> Option<Vec<LspDiagnostic>> {
        let path = self.docs.get(uri)?.path.clone();
        let found = self.found(&path);
        let recovered =
            if path.extension().is_some_and(|e| e == "json") { self.db.recovered_chart(&path) } else { Vec::new() };
        let mut out: Vec<LspDiagnostic> = Vec::new();
        // The text and its line index only where there is something to place (a clean file,
        // the common case, needs neither).
        if !found.is_empty() || !recovered.is_empty() {
            let text = self.db.text(&path).unwrap_or_default();
            let lines = Lines::new(&text);
            let text_of = |p: &Path| self.db.text(p);
            let others = OtherFiles::new(&text_of);
            out.extend(found.iter().map(|d| convert(uri, &lines, d, &others)));
            out.extend(recovered.iter().map(|d| tagged(convert(uri, &lines, d, &others), "recovered")));
        }
        if path.extension().is_some_and(|e| e == "ts") {
            let is_syntax = |d: &LspDiagnostic| d.code == Some(NumberOrString::String("ts-syntax".into()));
            if out.iter().any(is_syntax) {
                // Keep the last good text's other diagnostics, beside what this text gives.
                let stale = self.last_good.get(&path).cloned().unwrap_or_default();
                let fresh: Vec<(Option<NumberOrString>, String)> =
                    out.iter().map(|d| (d.code.clone(), d.message.clone())).collect();
                let kept = stale
                    .into_iter()
                    .filter(|d| !is_syntax(d) && !fresh.contains(&(d.code.clone(), d.message.clone())))
                    .map(|d| tagged(d, "stale"));
                out.extend(kept);
            } else {
                self.last_good.insert(path, out.clone());
            }
        }
        Some(out)
    }

    fn hover(&mut self, uri: &Uri, at: Position) -> Option<Hover> {
        let path = path_of(uri)?;
        let text = self.db.text(&path)?;
        let lines = Lines::new(&text);
        let offset = lines.offset(at);
        if let Some(compiled) = self.db.compiled(&path) {
            if let Some((a, b, md)) = actions::src_hover(&compiled, offset) {
                return Some(markdown(md, Some(lines.range(a as u32, b as u32))));
            }
        }
        let found = self.found(&path);
        let d = found.iter().find(|d| d.span.start as usize <= offset && offset <= d.span.end as usize)?;
        let rule = check::rules::find(d.code)?;
        Some(markdown(rule.markdown(), Some(lines.range(d.span.start, d.span.end))))
    }

    /// `jr2.graph`: the picture of the Machine in a `.ts` document (its editor text), as
    /// `jr2 graph` draws it; an error says why there is none.
    fn graph(&mut self, request: &GraphRequest) -> Result<Option<LSPAny>> {
        let fail = |message: String| {
            let mut e = Error::invalid_params(message);
            e.message = format!("{GRAPH_COMMAND}: {}", e.message).into();
            e
        };
        let path = path_of(&request.uri).ok_or_else(|| fail("not a file URI".into()))?;
        let compiled = self.db.compiled(&path).ok_or_else(|| {
            fail(format!("{} is not a Workflow (.ts): for a Chart, run `jr2 graph FILE`", path.display()))
        })?;
        let machine =
            compiled.machine.as_ref().ok_or_else(|| fail(format!("{} has no Machine to draw", path.display())))?;
        let notes = compiled
            .value()
            .and_then(|v| serde_json::to_value(machine::parts::parts_of(v)).ok())
            .map(|parts| graph::Notes::from_parts(&parts))
            .unwrap_or_default();
        let options = graph::Options { state: request.state.as_deref(), notes: Some(&notes) };
        let drawn = match request.format.as_str() {
            "svg" => graph::svg(machine, options),
            "mermaid" => graph::mermaid(machine, options),
            "dot" => graph::dot(machine, options),
            other => return Err(fail(format!("unknown format {other:?}: svg, mermaid or dot"))),
        };
        drawn.map(|text| Some(LSPAny::String(text))).map_err(|e| fail(e.to_string()))
    }

    fn code_actions(&mut self, uri: &Uri, range: Range) -> Option<CodeActionResponse> {
        let path = path_of(uri)?;
        let text = self.db.text(&path)?;
        let lines = Lines::new(&text);
        let (a, b) = (lines.offset(range.start), lines.offset(range.end));
        let mut out = Vec::new();
        for d in self.found(&path) {
            let (s, e) = (d.span.start as usize, d.span.end as usize);
            if e < a || s > b {
                continue;
            }
            let Some(Action { title, edits, rename_to }) = actions::action(&d) else { continue };
            let lsp = convert(uri, &lines, &d, &OtherFiles::new(&|p: &Path| self.db.text(p)));
            let edits: Vec<TextEdit> = edits
                .into_iter()
                .map(|e| TextEdit { range: lines.range(e.start as u32, e.end as u32), new_text: e.text })
                .collect();
            let edit = match rename_to {
                None => WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..Default::default() },
                // The edits (if any) in the file, then the file renamed in its folder.
                Some(to) => {
                    let Some(new_uri) = path.parent().and_then(|d| Uri::from_file_path(d.join(&to))) else {
                        continue;
                    };
                    let mut ops = Vec::new();
                    if !edits.is_empty() {
                        ops.push(DocumentChangeOperation::Edit(TextDocumentEdit {
                            text_document: OptionalVersionedTextDocumentIdentifier { uri: uri.clone(), version: None },
                            edits: edits.into_iter().map(OneOf::Left).collect(),
                        }));
                    }
                    ops.push(DocumentChangeOperation::Op(ResourceOp::Rename(RenameFile {
                        old_uri: uri.clone(),
                        new_uri,
                        options: None,
                        annotation_id: None,
                    })));
                    WorkspaceEdit { document_changes: Some(DocumentChanges::Operations(ops)), ..Default::default() }
                }
            };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![lsp]),
                edit: Some(edit),
                is_preferred: Some(true),
                ..Default::default()
            }));
        }
        Some(out)
    }
}

/// The thread that frees old compilations off the worker's path.
fn dropper() -> Option<mpsc::Sender<Vec<Arc<Compiled>>>> {
    let (send, freed) = mpsc::channel::<Vec<Arc<Compiled>>>();
    let spawned = std::thread::Builder::new().name("jr2-lsp-drop".into()).spawn(move || {
        for batch in freed {
            drop(batch);
        }
    });
    spawned.ok().map(|_| send)
}

fn markdown(value: String, range: Option<Range>) -> Hover {
    Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range }
}

/// Marks an editor-only diagnostic: `recovered` (a half-typed Chart's recovered tree) or `stale`
/// (from the Workflow's last text that parsed). `jr2 check` reports neither.
fn tagged(mut d: LspDiagnostic, why: &str) -> LspDiagnostic {
    if d.data.is_none() {
        d.data = Some(serde_json::json!({ "jr2": why }));
        if why == "stale" {
            d.message.push_str("\n(from the last version of this file that parsed)");
        }
    }
    d
}

fn path_of(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| machine::module::normalize(Path::new(&*p)))
}

/// The other files that diagnostics place related information in (a dispatch's callee door),
/// each read and indexed once per publish: read per related place, many door findings into one
/// large callee took time of the findings times the callee's size.
struct OtherFiles<'a> {
    text_of: &'a dyn Fn(&Path) -> Option<String>,
    seen: std::cell::RefCell<HashMap<PathBuf, Option<(String, base::line_index::LineIndex)>>>,
}

impl<'a> OtherFiles<'a> {
    fn new(text_of: &'a dyn Fn(&Path) -> Option<String>) -> Self {
        OtherFiles { text_of, seen: Default::default() }
    }

    /// The UTF-16 range of a span of the file at `path`, or `None` where it cannot be read.
    fn range(&self, path: &Path, start: u32, end: u32) -> Option<Range> {
        let mut seen = self.seen.borrow_mut();
        let entry = seen.entry(path.to_path_buf()).or_insert_with(|| {
            (self.text_of)(path).map(|text| {
                let index = base::line_index::LineIndex::new(&text);
                (text, index)
            })
        });
        let (text, index) = entry.as_ref()?;
        let at = |offset: u32| {
            let p = index.utf16(text, offset as usize);
            Position { line: p.line, character: p.character }
        };
        Some(Range { start: at(start), end: at(end) })
    }
}

/// A diagnostic in LSP terms: UTF-16 range, code, secondary labels (the other half of a pair)
/// as related information. The message is worded as `jr2 check` words it: its `message` (a
/// door line starts with its dotted path, as the CLI's does), then a `help: ` line and a `note: `
/// line each (`tests/lsp/same.rs` compares them with `--format json`).
/// `others` gives another file's text (the editor's buffer where open), for related places.
fn convert(uri: &Uri, lines: &Lines, d: &Diagnostic, others: &OtherFiles<'_>) -> LspDiagnostic {
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    for note in &d.notes {
        message.push_str(&format!("\nnote: {note}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location { uri: uri.clone(), range: lines.range(l.span.start, l.span.end) },
            message: l.message.clone(),
        })
        .chain(d.related.iter().filter_map(|r| {
            // A place in another file (a dispatch's callee door): its own text gives the UTF-16 range.
            let path = PathBuf::from(&r.path);
            let uri = Uri::from_file_path(&path)?;
            let range = others.range(&path, r.span.start, r.span.end)?;
            Some(DiagnosticRelatedInformation { location: Location { uri, range }, message: r.message.clone() })
        }))
        .collect();
    LspDiagnostic {
        range: lines.range(d.span.start, d.span.end),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("jr2".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base::Span;

    /// A place in another file (a dispatch's callee door) becomes related information at that
    /// file's UTF-16 range, read from the text the database holds.
    #[test]
    fn a_related_place_in_another_file_is_related_information() {
        let here = "dispatch(\"b\", { input })\n";
        let there = "x\nconst é = { input: door }\n";
        let d = Diagnostic::new("door-mismatch", Severity::Error, Span::new(16, 21), "mismatch").with_related(
            "/i/workflows/b.ts",
            there,
            Span::new(22, 26),
            "the door of \"b\"",
        );
        let uri = Uri::from_file_path("/i/workflows/a.ts").unwrap();
        let text_of = |p: &Path| (p == Path::new("/i/workflows/b.ts")).then(|| there.to_string());
        let lsp = convert(&uri, &Lines::new(here), &d, &OtherFiles::new(&text_of));
        let related = lsp.related_information.expect("related information");
        assert_eq!(related.len(), 1);
        assert_eq!(related[0].location.uri, Uri::from_file_path("/i/workflows/b.ts").unwrap());
        assert_eq!(related[0].location.range, Range::new(Position::new(1, 19), Position::new(1, 23)));
        assert_eq!(related[0].message, "the door of \"b\"");
    }

    /// Related places in one other file read and index that file once per publish, however many
    /// diagnostics point into it, and each is placed in it.
    #[test]
    fn related_places_in_one_file_read_it_once() {
        let there = "x\nconst é = { input: door }\n";
        let reads = std::cell::Cell::new(0);
        let text_of = |p: &Path| {
            reads.set(reads.get() + 1);
            (p == Path::new("/i/workflows/b.ts")).then(|| there.to_string())
        };
        let others = OtherFiles::new(&text_of);
        let uri = Uri::from_file_path("/i/workflows/a.ts").unwrap();
        let here = "dispatch(\"b\", { input })\n";
        for (start, character) in [(2u32, 0u32), (22, 19)] {
            let d = Diagnostic::new("door-mismatch", Severity::Error, Span::new(16, 21), "mismatch").with_related(
                "/i/workflows/b.ts",
                there,
                Span::new(start, start + 4),
                "the door of \"b\"",
            );
            let lsp = convert(&uri, &Lines::new(here), &d, &others);
            let range = lsp.related_information.expect("related information")[0].location.range;
            assert_eq!(range.start, Position::new(1, character));
        }
        assert_eq!(reads.get(), 1);
    }
}
