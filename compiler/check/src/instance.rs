//! The Instance check: every Workflow of an Instance folder, every named Chart against its
//! wrapper's Open body, and every `dispatch` against the Assembly (ADR-0071).
//!
//! ```text
//! workflows/<name>.ts                 a Workflow, named by its stem
//! workflows/<wrapper>/<chart>.json    a named Chart, run as "<wrapper>/<chart>"
//! ```
//!
//! Two phases, each over the files in parallel (`std::thread::scope`, as many threads as cores,
//! at most 8): the Workflows compile, and each worker keeps of a Workflow only what is read later
//! (its door, its files; the values of a Workflow that makes a `dispatch`, for its calls, and of a
//! Chart wrapper) and drops the rest (a Workflow that makes no `dispatch` gets its Instance rules
//! there too: they read nothing of the others); then each named Chart is admitted by the door
//! against the lend manifest of its wrapper's Open body slot, while the Instance rules
//! (`rules::instance`) read each dispatching Workflow's dispatches and their callees' doors. The
//! report lists the files in a fixed order whatever the threads did: the Workflows by name (each
//! followed by the files it imports that have a diagnostic), then the Charts by name.

use crate::compile::{compile_file, compile_file_for_check, Compiled, Located};
use crate::doors::{CalleeDoor, Door, DoorSource, Doors};
use crate::rules::instance::{self, Assembly, ChartSubject, Dispatch, FileName, Subject, Wrapping};
use crate::rules::Sink;
use diagnostics::Diagnostic;
use kit::LendManifest;
use machine::lower::{arg, classify_actor, is_call, machine_parts, ActorClass};
use machine::module::SourceFile;
use machine::value::{Call, Callee, FileId, Value, ValueKind, Values};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// One checked file of the Instance.
#[derive(Clone, Debug)]
pub struct CheckedFile {
    /// The file's path: the Instance root joined with its place in it.
    pub path: PathBuf,
    /// The file's text, for rendering its diagnostics: empty for a clean Workflow's files in
    /// [`check_instance_with`]'s report (freed once its report was final; every compilation kept,
    /// [`check_instance_compiled`], keeps every text).
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// What `check_instance` found.
#[derive(Debug, Default)]
pub struct InstanceReport {
    /// Every file checked, in a fixed order (see the module doc).
    pub files: Vec<CheckedFile>,
    /// Files whose check hit an internal error (a bug in jr2); they are reported, not crashed on.
    pub internal_errors: Vec<PathBuf>,
    /// The distinct foreign doors (`target` url and callee name) not read: the check had no
    /// [`DoorSource`] (offline).
    pub foreign_skipped: usize,
    /// Each Workflow that compiled (its path, its compilation), by name, from
    /// [`check_instance_compiled`] only (empty otherwise): for callers that read the values
    /// further (the pre-flight), so nothing is evaluated twice.
    pub compiled: Vec<(PathBuf, Compiled)>,
    /// Every path the check could not read, sorted by path: a folder it could not list, a
    /// Workflow or named Chart it could not open or read (a FIFO, a socket or a device is not
    /// read), each with the system's reason. None of them is in `files`: an unreadable path is
    /// the caller's exit 2 (docs/reference/contract.md), not a refusal of what it holds.
    pub unreadable: Vec<Unreadable>,
}

/// A path the Instance check could not read, and why, in the system's words ("Permission denied
/// (os error 13)", "not a regular file (a FIFO)", "not UTF-8 (at byte 2)").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub path: PathBuf,
    pub why: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: {}", self.path.display(), self.why)
    }
}

impl InstanceReport {
    pub fn has_errors(&self) -> bool {
        self.files.iter().flat_map(|f| &f.diagnostics).any(Diagnostic::is_error)
    }

    /// The diagnostics of the file at `path`, if it was checked.
    pub fn file(&self, path: &Path) -> Option<&CheckedFile> {
        self.files.iter().find(|f| f.path == path)
    }
}

/// Does this folder look like an Instance (it has a `workflows/` folder)?
pub fn is_instance(root: &Path) -> bool {
    root.join("workflows").is_dir()
}

/// A named Chart file: its wrapper's name, its own stem, its path.
#[derive(Clone, Debug)]
struct ChartFile {
    wrapper: String,
    stem: String,
    path: PathBuf,
}

impl ChartFile {
    fn name(&self) -> String {
        format!("{}/{}", self.wrapper, self.stem)
    }
}

/// A Workflow file: its stem and path, and after phase one what is kept of its compilation
/// (`None`: the compilation crashed).
struct Workflow {
    stem: String,
    path: PathBuf,
    kept: Option<Kept>,
}

/// What phase one keeps of a Workflow's compilation: what phase two and the caller read of it,
/// worked out on the worker that compiled it. The rest (the IR, and the values of a Workflow whose
/// values phase two does not read; its door is a copy apart) is dropped there, so the next file on
/// that worker reuses the memory while it is hot, instead of the process holding every Workflow's
/// values to the end (1 000 generated Workflows: 97 MB resident before, the kernel zeroing fresh
/// pages 5-15% of the time).
struct Kept {
    /// The compilation: its files and diagnostics; its `values` only where phase two reads them (a
    /// Chart wrapper's, for its Open body; a dispatching Workflow's, for its dispatches) or the
    /// caller asked for every compilation, and its `machine` only then.
    compiled: Compiled,
    /// Its door, read by its callers' door compatibility.
    door: Door,
    /// Its diagnostics per file, found on the worker already where they need nothing of the other
    /// Workflows (it makes no `dispatch`): phase two has nothing left to do for it. `None` (until
    /// the report takes them): it dispatches, and its values are kept for phase two.
    found: Option<Vec<Vec<Diagnostic>>>,
}

/// Checks the Instance at `root`, offline: no foreign door is read.
pub fn check_instance(root: &Path) -> InstanceReport {
    check_instance_with(root, None)
}

/// Checks the Instance at `root`, reading each foreign dispatch target's door through `doors`
/// (`None`: offline, and [`InstanceReport::foreign_skipped`] counts them). The report's
/// `compiled` is empty: each Workflow's value and IR are dropped once read.
pub fn check_instance_with(root: &Path, doors: Option<&dyn DoorSource>) -> InstanceReport {
    check(root, doors, false)
}

/// [`check_instance_with`], and the report keeps every Workflow's compilation
/// ([`InstanceReport::compiled`]), for a caller that reads the values further (the pre-flight).
pub fn check_instance_compiled(root: &Path, doors: Option<&dyn DoorSource>) -> InstanceReport {
    check(root, doors, true)
}

fn check(root: &Path, doors: Option<&dyn DoorSource>, keep_compiled: bool) -> InstanceReport {
    let mut report = InstanceReport::default();
    let (workflow_paths, charts) = discover(root, &mut report.unreadable);
    // The Workflows whose values phase two reads for their Open body: each named Chart's wrapper.
    let wrappers: BTreeSet<&str> = charts.iter().map(|c| c.wrapper.as_str()).collect();

    // Phase one: compile every Workflow, and keep what is read later.
    let kept = parallel(&workflow_paths, |(stem, path)| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // A compilation the caller keeps is whole; else it is read by the checks alone.
            let mut compiled = if keep_compiled { compile_file(path) } else { compile_file_for_check(path) };
            let dispatches = !dispatches_of(&compiled).is_empty();
            let door = Door::of(compiled.value());
            // No dispatch: its Instance rules read nothing of the others, so they run here, and its
            // diagnostics move into the report (copied only when the compilation is kept whole).
            let found = (!dispatches).then(|| {
                let diagnostics = if keep_compiled {
                    compiled.diagnostics.clone()
                } else {
                    std::mem::take(&mut compiled.diagnostics)
                };
                own_diagnostics(root, stem, path, compiled.files.len(), diagnostics)
            });
            if !keep_compiled && found.as_ref().is_some_and(|per_file| per_file.iter().all(Vec::is_empty)) {
                // Its report is final and clean: no renderer reads a clean file's text, so it is
                // freed here and the next file on this worker reuses the memory (1 000 generated
                // Workflows held ~6 MB of texts to the end). A caller's door diagnostic that points
                // into one of these files reads it again ([`CalleeDoor`]).
                compiled.files.iter_mut().for_each(|f| f.text = String::new());
            }
            if !keep_compiled {
                compiled.machine = None;
                compiled.source_map = ir::SourceMap::default();
                // Phase two reads a wrapper's value and a dispatching Workflow's dispatches.
                if !dispatches && !wrappers.contains(stem.as_str()) {
                    compiled.values = Values::empty();
                }
            }
            Kept { compiled, door, found }
        }))
        .ok()
    });
    let mut workflows: Vec<Workflow> =
        workflow_paths.into_iter().zip(kept).map(|((stem, path), kept)| Workflow { stem, path, kept }).collect();
    let assembly = Assembly {
        workflows: workflows.iter().map(|w| w.stem.clone()).collect(),
        charts: charts.iter().map(ChartFile::name).collect(),
    };
    // The Workflows whose rules are phase two's (they dispatch, or crashed), each with its
    // dispatches, read once from its values: for the foreign doors and for its rules.
    let dispatching: Vec<(&Workflow, Vec<Value<'_>>)> = workflows
        .iter()
        .filter(|w| w.kept.as_ref().is_none_or(|k| k.found.is_none()))
        .map(|w| (w, w.kept.as_ref().map_or_else(Vec::new, |k| dispatches_of(&k.compiled))))
        .collect();
    // Each distinct foreign door once, before the Workflows' rules read them.
    let foreign = crate::doors::foreign_keys(dispatching.iter().flat_map(|(_, calls)| calls.iter().copied()));
    let foreign = match doors {
        Some(source) => crate::doors::fetch_all(foreign, source),
        None => {
            report.foreign_skipped = foreign.len();
            Default::default()
        }
    };
    let doors = Doors {
        callees: workflows
            .iter()
            .filter_map(|w| {
                let k = w.kept.as_ref()?;
                Some((w.stem.as_str(), CalleeDoor { door: &k.door, files: &k.compiled.files }))
            })
            .collect(),
        foreign,
    };

    // Phase two: the Workflows' Instance rules and the Charts' door, together.
    enum Job<'a> {
        /// A Workflow and its dispatches.
        Workflow(&'a Workflow, &'a [Value<'a>]),
        Chart(&'a ChartFile),
    }
    enum Found {
        /// A Workflow's diagnostics, per file of its compilation.
        Workflow(Vec<Vec<Diagnostic>>),
        Chart(CheckedFile),
        /// A Workflow or Chart file that could not be read.
        Unreadable(Unreadable),
    }
    // A Workflow's job only where phase one left its rules to do (it dispatches), and every Chart's.
    let jobs: Vec<Job> =
        dispatching.iter().map(|(w, calls)| Job::Workflow(w, calls)).chain(charts.iter().map(Job::Chart)).collect();
    let results = parallel(&jobs, |job| match job {
        Job::Workflow(w, dispatches) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let k = w.kept.as_ref()?;
            Some(Found::Workflow(workflow_diagnostics(
                root,
                &w.stem,
                &w.path,
                &k.compiled,
                dispatches,
                &assembly,
                &doors,
            )))
        }))
        .ok()
        .flatten(),
        Job::Chart(c) => {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match check_chart(root, c, &workflows) {
                Ok(file) => Found::Chart(file),
                Err(unread) => Found::Unreadable(unread),
            }))
            .ok()
        }
    });
    drop(jobs);
    drop(dispatching);
    drop(doors);
    // The files in the jobs' order: the Workflows', then the Charts'; a Workflow found in phase
    // one takes no result of phase two. A Workflow's texts move into the report, unless its
    // compilation is kept for the caller.
    let mut results = results.into_iter();
    let mut found = |found: Option<Vec<Vec<Diagnostic>>>| match found {
        Some(per_file) => Some(Found::Workflow(per_file)),
        None => results.next().flatten(),
    };
    let files: Vec<_> = workflows
        .iter_mut()
        .map(|w| {
            let result = found(w.kept.as_mut().and_then(|k| k.found.take()));
            (w.path.clone(), w.kept.as_mut(), result)
        })
        .collect();
    let charts_found: Vec<_> = charts.iter().map(|c| (c.path.clone(), None, found(None))).collect();
    let mut index = FxHashMap::default();
    for (path, kept, result) in files.into_iter().chain(charts_found) {
        // A Workflow whose own file could not be read: the path, not a refusal of its text.
        let unread = kept.as_ref().and_then(|k| k.compiled.unread.clone());
        let result = match unread {
            Some(why) => Some(Found::Unreadable(Unreadable { path: path.clone(), why })),
            None => result,
        };
        match (result, kept) {
            (Some(Found::Unreadable(unread)), _) => report.unreadable.push(unread),
            (Some(Found::Workflow(per_file)), Some(k)) => {
                let files: Vec<Cow<SourceFile>> = if keep_compiled {
                    k.compiled.files.iter().map(Cow::Borrowed).collect()
                } else {
                    std::mem::take(&mut k.compiled.files).into_iter().map(Cow::Owned).collect()
                };
                for file in checked_files(&path, files, per_file) {
                    merge(&mut report.files, &mut index, file);
                }
            }
            (Some(Found::Chart(file)), _) => merge(&mut report.files, &mut index, file),
            _ => {
                report.internal_errors.push(path.clone());
                let text = base::read::read_text(&path).unwrap_or_default();
                let file = CheckedFile { path, text, diagnostics: Vec::new() };
                merge(&mut report.files, &mut index, file);
            }
        }
    }
    report.unreadable.sort_by(|a, b| a.path.cmp(&b.path));
    if keep_compiled {
        report.compiled = workflows.into_iter().filter_map(|w| Some((w.path, w.kept?.compiled))).collect();
    }
    report
}

/// Adds a file's report; a file already there (imported by two Workflows) gains the new
/// diagnostics only. `index` is each path's place in `files`.
pub(crate) fn merge(files: &mut Vec<CheckedFile>, index: &mut FxHashMap<PathBuf, usize>, file: CheckedFile) {
    // One hash of the path (most files are new: the entry finds no place and takes one).
    match index.entry(file.path.clone()) {
        std::collections::hash_map::Entry::Occupied(mut at) => match files.get_mut(*at.get()) {
            Some(seen) => {
                // A clean Workflow's own file comes without its text (phase one freed it); the
                // same file with findings, imported by another Workflow, brings it.
                if seen.text.is_empty() && !file.text.is_empty() {
                    seen.text = file.text;
                }
                for d in file.diagnostics {
                    if !seen.diagnostics.contains(&d) {
                        seen.diagnostics.push(d);
                    }
                }
            }
            None => {
                at.insert(files.len());
                files.push(file);
            }
        },
        std::collections::hash_map::Entry::Vacant(at) => {
            at.insert(files.len());
            files.push(file);
        }
    }
}

/// Runs `f` over `items` on up to as many threads as the machine has cores (at most 8), and
/// returns the results in the items' order.
pub(crate) fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.is_empty() {
        return Vec::new();
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8).min(items.len());
    // Each worker runs on the evaluator's stack, so the files it compiles run there directly,
    // with no hand-off to an evaluator thread per file.
    use machine::eval::on_evaluator_stack;
    if threads <= 1 {
        return on_evaluator_stack(|| items.iter().map(&f).collect());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    on_evaluator_stack(|| {
                        let mut out = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(item) = items.get(i) else { break };
                            out.push((i, f(item)));
                        }
                        out
                    })
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

fn skipped(name: &str) -> bool {
    name.starts_with('.') || name == "node_modules"
}

/// Is this `.json` file a named Chart, and not a manifest or tool config?
fn is_chart_file(name: &str) -> bool {
    name.ends_with(".json") && !name.ends_with(".lends.json") && name != "lends.json"
}

/// The Workflows (stem, path) and the named Charts under `root/workflows`, each sorted by name;
/// what could not be listed or is no regular file goes to `unreadable`.
fn discover(root: &Path, unreadable: &mut Vec<Unreadable>) -> (Vec<(String, PathBuf)>, Vec<ChartFile>) {
    let dir = root.join("workflows");
    let mut workflows = Vec::new();
    let mut charts = Vec::new();
    let is_workflow = |name: &str| name.ends_with(".ts") && !name.ends_with(".d.ts");
    for (name, path, is_dir) in entries(&dir, unreadable, &|name| !skipped(name) && is_workflow(name)) {
        if skipped(&name) {
            continue;
        }
        if is_dir {
            let named_chart = |name: &str| !skipped(name) && is_chart_file(name);
            for (chart, chart_path, chart_is_dir) in entries(&path, unreadable, &named_chart) {
                if !chart_is_dir && !skipped(&chart) && is_chart_file(&chart) {
                    let stem = chart.trim_end_matches(".json").to_string();
                    charts.push(ChartFile { wrapper: name.clone(), stem, path: chart_path });
                }
            }
        } else if is_workflow(&name) {
            // The stem in the name's own buffer (no copy).
            let mut stem = name;
            stem.truncate(stem.trim_end_matches(".ts").len());
            workflows.push((stem, path));
        }
    }
    (workflows, charts)
}

/// A folder's entries (name, path, is a folder), sorted by name: folders and regular files only,
/// symlinks to files followed. A folder that cannot be listed, and an entry `read` would read
/// that is a FIFO, a socket or a device (reading one would block or never end), go to
/// `unreadable` with the reason; a symlink to a folder or to nothing is no Workflow or Chart.
fn entries(dir: &Path, unreadable: &mut Vec<Unreadable>, read: &dyn Fn(&str) -> bool) -> Vec<(String, PathBuf, bool)> {
    let mut cannot = |e: &std::io::Error| unreadable.push(Unreadable { path: dir.to_path_buf(), why: e.to_string() });
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(e) => {
            cannot(&e);
            return Vec::new();
        }
    };
    let mut out: Vec<(String, PathBuf, bool)> = Vec::new();
    let mut not_regular = Vec::new();
    for e in listing {
        let e = match e {
            Ok(e) => e,
            Err(e) => {
                cannot(&e);
                return Vec::new();
            }
        };
        let path = e.path();
        let Ok(kind) = e.file_type() else { continue };
        // The name as read, moved (copied only where it is no UTF-8, to its lossy text).
        let name = e.file_name().into_string().unwrap_or_else(|n| n.to_string_lossy().into_owned());
        let is_dir = if kind.is_symlink() {
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => false,
                Ok(m) if !m.is_dir() && read(&name) => {
                    not_regular.push(Unreadable { path, why: base::read::not_regular(m.file_type()).to_string() });
                    continue;
                }
                _ => continue,
            }
        } else if !kind.is_dir() && !kind.is_file() {
            if read(&name) {
                not_regular.push(Unreadable { path, why: base::read::not_regular(kind).to_string() });
            }
            continue;
        } else {
            kind.is_dir()
        };
        out.push((name, path, is_dir));
    }
    unreadable.extend(not_regular);
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The names a same-Instance dispatch can start.
/// A path relative to the Instance root, with `/`, for messages.
fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

/// A Workflow's diagnostics, per file of its compilation (the entry first, at least one): its
/// compile diagnostics, then the Instance rules'.
fn workflow_diagnostics(
    root: &Path,
    stem: &str,
    path: &Path,
    compiled: &Compiled,
    dispatches: &[Value<'_>],
    assembly: &Assembly,
    doors: &Doors<'_>,
) -> Vec<Vec<Diagnostic>> {
    let mut per_file = own_diagnostics(root, stem, path, compiled.files.len(), compiled.diagnostics.iter().cloned());
    let mut seen = BTreeSet::new();
    for call in dispatches {
        if !seen.insert((call.loc.file, call.loc.span.start, call.loc.span.end)) {
            continue;
        }
        for (file, d) in check_dispatch(call, assembly).into_iter().chain(doors.check(call, &compiled.files)) {
            if let Some(v) = per_file.get_mut(file.0 as usize) {
                v.push(d);
            }
        }
    }
    per_file
}

/// A Workflow's diagnostics that read nothing of the other Workflows, per file of its compilation
/// (`files` of them, at least one): its compile diagnostics, then its stem's.
fn own_diagnostics(
    root: &Path,
    stem: &str,
    path: &Path,
    files: usize,
    diagnostics: impl IntoIterator<Item = Located>,
) -> Vec<Vec<Diagnostic>> {
    let mut per_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); files.max(1)];
    for d in diagnostics {
        if let Some(v) = per_file.get_mut(d.file.0 as usize) {
            v.push(d.diagnostic);
        }
    }
    let shown = shown(root, path);
    let name = FileName { what: "Workflow", stem, shown: &shown, folder: "workflows", extension: "ts" };
    per_file[0].extend(rules_on(Subject::File(&name)));
    per_file
}

/// A Workflow's reported files: its own (at `path` with no text, if it could not be read at
/// all) and each imported file with a diagnostic. `files` are its compilation's files, taken
/// (their texts move into the report) or borrowed (copied).
fn checked_files<'f>(path: &Path, files: Vec<Cow<'f, SourceFile>>, per_file: Vec<Vec<Diagnostic>>) -> Vec<CheckedFile> {
    let mut files = files.into_iter();
    let mut out = Vec::new();
    for (i, diagnostics) in per_file.into_iter().enumerate() {
        let Some(file) = files.next() else {
            // A file that could not be read at all: report the Workflow's own path.
            if i == 0 {
                out.push(CheckedFile { path: path.to_path_buf(), text: String::new(), diagnostics });
            }
            continue;
        };
        if i == 0 || !diagnostics.is_empty() {
            let SourceFile { path, text } = file.into_owned();
            out.push(CheckedFile { path, text, diagnostics });
        }
    }
    out
}

/// The `dispatch(...)` calls in a compiled Workflow's value, depth first (each a copy of a few
/// words: its call is a reference into the compilation's arena).
fn dispatches_of(compiled: &Compiled) -> Vec<Value<'_>> {
    let mut calls = Vec::new();
    // No `dispatch(...)` was evaluated (most Workflows): no value to scan holds one.
    if let Some(value) = compiled.value().filter(|_| compiled.may_dispatch) {
        dispatch_calls(value, &mut calls);
    }
    calls.into_iter().copied().collect()
}

/// Every `dispatch(...)` call in a value, depth first.
pub(crate) fn dispatch_calls<'a, 'v>(v: &'a Value<'v>, out: &mut Vec<&'a Value<'v>>) {
    // Calls are shared nodes (a binding read twice is the same `&Call` in the arena): each is
    // walked once.
    let mut seen = rustc_hash::FxHashSet::default();
    dispatch_calls_in(v, out, &mut seen);
}

fn dispatch_calls_in<'a, 'v>(
    v: &'a Value<'v>,
    out: &mut Vec<&'a Value<'v>>,
    seen: &mut rustc_hash::FxHashSet<*const Call<'v>>,
) {
    match v.kind {
        ValueKind::Call(c) => {
            // A reference does not say whether it is shared: every call is looked up.
            if !seen.insert(std::ptr::from_ref(c)) {
                return;
            }
            if matches!(c.callee, Callee::Kit("dispatch")) {
                out.push(v);
            }
            if let Some(r) = &c.receiver {
                dispatch_calls_in(r, out, seen);
            }
            for a in c.args {
                dispatch_calls_in(a, out, seen);
            }
        }
        ValueKind::Array { items } => items.iter().for_each(|x| dispatch_calls_in(x, out, seen)),
        ValueKind::Object { props } => props.iter().for_each(|p| dispatch_calls_in(&p.value, out, seen)),
        _ => {}
    }
}

/// Is this the kit's `open` (as a value, or called with no argument)?
pub(crate) fn is_open(v: &Value<'_>) -> bool {
    matches!(v.kind, ValueKind::Imported { callee: Callee::Kit("open") })
        || (is_call(v, "open") && v.as_call().is_some_and(|c| c.args.is_empty()))
}

/// The Instance rules on one `dispatch(name, { input, wait, target })` call, each diagnostic in
/// its file.
fn check_dispatch(call: &Value<'_>, assembly: &Assembly) -> Vec<(FileId, Diagnostic)> {
    let mut sink = Sink::default();
    instance::run(Subject::Dispatch(&Dispatch { call, assembly }), &mut sink);
    sink.into_located().into_iter().map(|l| (l.file, l.diagnostic)).collect()
}

/// The Instance rules on a subject of one file (a file's name, a named Chart).
fn rules_on(subject: Subject<'_>) -> Vec<Diagnostic> {
    let mut sink = Sink::default();
    instance::run(subject, &mut sink);
    sink.into_diagnostics()
}

/// The door over one named Chart, against its wrapper's Open body; a Chart file that cannot be
/// read is the error, with the system's reason. One that is no UTF-8 text is read, and refused
/// (`json-syntax` at its first bad byte), as `jr2 check` refuses such a Chart outside an Instance.
fn check_chart(root: &Path, c: &ChartFile, workflows: &[Workflow]) -> Result<CheckedFile, Unreadable> {
    if !machine::module::within(root, &c.path) {
        let name = c.name();
        let chart = ChartSubject { name: &name, wrapper: &c.wrapper, wrapping: Wrapping::LeadsOut };
        let diagnostics = rules_on(Subject::Chart(&chart));
        return Ok(CheckedFile { path: c.path.clone(), text: String::new(), diagnostics });
    }
    let bytes = base::read::read_bytes(&c.path).map_err(|e| Unreadable { path: c.path.clone(), why: e.to_string() })?;
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let d = crate::rules::chart::json_syntax::not_utf8(&lossy, at);
            return Ok(CheckedFile { path: c.path.clone(), text: lossy, diagnostics: vec![d] });
        }
    };
    let wrapper =
        workflows.iter().find(|w| w.stem == c.wrapper).map(|w| w.kept.as_ref().and_then(|k| k.compiled.value()));
    Ok(check_chart_text(root, c, text, wrapper))
}

/// The door over one named Chart's text; `wrapper` is its wrapper Workflow (`None`: there is
/// none) and that Workflow's value (`None`: it did not compile, or crashed). The Instance rules
/// on the Chart come first, then the door's diagnostics against the Open body it is checked
/// against (none: without a manifest).
fn check_chart_text(root: &Path, c: &ChartFile, text: String, wrapper: Option<Option<&Value<'_>>>) -> CheckedFile {
    let shown = shown(root, &c.path);
    let folder = format!("workflows/{}", c.wrapper);
    let file = FileName { what: "Chart", stem: &c.stem, shown: &shown, folder: &folder, extension: "json" };
    let mut diagnostics = rules_on(Subject::File(&file));
    let name = c.name();
    let admit = |m: Option<&LendManifest>| crate::door::check(&text, m);
    let on_chart =
        |wrapping: Wrapping<'_>| rules_on(Subject::Chart(&ChartSubject { name: &name, wrapper: &c.wrapper, wrapping }));
    let value = match wrapper {
        None => Err(Wrapping::NoWrapper),
        Some(None) => Err(Wrapping::NotCompiled),
        Some(Some(value)) => Ok(value),
    };
    let slots: Vec<String> = match value {
        Ok(value) => match machine_parts(value) {
            Ok(parts) => parts
                .setup_entries("actors")
                .into_iter()
                .filter(|(_, a)| classify_actor(a) == ActorClass::Open && arg(a, 0).is_some())
                .map(|(n, _)| n.to_string())
                .collect(),
            Err(_) => Vec::new(),
        },
        Err(_) => Vec::new(),
    };
    let value = match value {
        Ok(_) if slots.is_empty() => Err(Wrapping::NoOpenBody),
        v => v,
    };
    let value = match value {
        Ok(value) => value,
        Err(wrapping) => {
            diagnostics.extend(on_chart(wrapping));
            diagnostics.extend(admit(None).diagnostics);
            return CheckedFile { path: c.path.clone(), text, diagnostics };
        }
    };
    let mut tried: Vec<(String, Result<LendManifest, String>)> =
        slots.iter().map(|s| (s.clone(), machine::parts::lend_manifest(value, s))).collect();
    if slots.len() == 1 {
        let (slot, manifest) = tried.pop().expect("one slot");
        match manifest {
            Ok(m) => {
                diagnostics.extend(on_chart(Wrapping::Fits));
                diagnostics.extend(admit(Some(&m)).diagnostics);
            }
            Err(error) => {
                diagnostics.extend(on_chart(Wrapping::NoManifest { slot: &slot, error: &error }));
                diagnostics.extend(admit(None).diagnostics);
            }
        }
        return CheckedFile { path: c.path.clone(), text, diagnostics };
    }
    // Several Open bodies: the Chart's slot is the one it fits.
    let admissions: Vec<(String, Vec<Diagnostic>, bool)> = tried
        .into_iter()
        .filter_map(|(slot, m)| m.ok().map(|m| (slot, m)))
        .map(|(slot, m)| {
            let a = admit(Some(&m));
            let ok = a.admitted();
            (slot, a.diagnostics, ok)
        })
        .collect();
    let fits: Vec<&(String, Vec<Diagnostic>, bool)> = admissions.iter().filter(|a| a.2).collect();
    match fits.as_slice() {
        [one] => {
            diagnostics.extend(on_chart(Wrapping::Fits));
            diagnostics.extend(one.1.iter().cloned());
        }
        [] => {
            let shown = admissions.first().map_or("", |a| a.0.as_str());
            diagnostics.extend(on_chart(Wrapping::FitsNone { slots: &slots, shown }));
            if let Some(first) = admissions.first() {
                diagnostics.extend(first.1.iter().cloned());
            }
        }
        several => {
            let names: Vec<&str> = several.iter().map(|a| a.0.as_str()).collect();
            diagnostics.extend(on_chart(Wrapping::FitsSeveral { slots: &names }));
        }
    }
    CheckedFile { path: c.path.clone(), text, diagnostics }
}

// Per-file entry points, for callers that hold the texts and compilations themselves (the
// compiler's database, `db/`, which the LSP reads). Each gives what `check_instance` gives for
// that file.

/// The Instance's Assembly by name: its Workflows' stems and its Charts' `wrapper/chart` names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssemblyNames {
    pub workflows: BTreeSet<String>,
    pub charts: BTreeSet<String>,
}

/// What `check_instance` lists under `root`: the Workflows (stem, path) and the named Charts
/// (wrapper, stem, path), each sorted by name. What cannot be listed or read is not listed (the
/// database reads each file itself, and says so of one it cannot).
#[allow(clippy::type_complexity)]
pub fn discover_files(root: &Path) -> (Vec<(String, PathBuf)>, Vec<(String, String, PathBuf)>) {
    let (workflows, charts) = discover(root, &mut Vec::new());
    (workflows, charts.into_iter().map(|c| (c.wrapper, c.stem, c.path)).collect())
}

/// The files of one compiled Workflow of the Instance at `root` with their diagnostics: its own
/// (compilation and Instance rules) first, then each imported file that has one.
pub fn check_workflow(
    root: &Path,
    stem: &str,
    path: &Path,
    compiled: &Compiled,
    names: &AssemblyNames,
    callees: &HashMap<&str, &Compiled>,
) -> Vec<CheckedFile> {
    let assembly = Assembly { workflows: names.workflows.clone(), charts: names.charts.clone() };
    let read: Vec<(&str, Door, &[SourceFile])> =
        callees.iter().map(|(name, c)| (*name, Door::of(c.value()), c.files.as_slice())).collect();
    // Foreign doors are the network's: a caller holding texts (the editor) does not read them.
    let doors = Doors {
        callees: read.iter().map(|(name, door, files)| (*name, CalleeDoor { door, files })).collect(),
        foreign: HashMap::new(),
    };
    let per_file = workflow_diagnostics(root, stem, path, compiled, &dispatches_of(compiled), &assembly, &doors);
    checked_files(path, compiled.files.iter().map(Cow::Borrowed).collect(), per_file)
}

/// The Workflows a compiled Workflow's same-Instance `dispatch`es name (a `wrapper/chart` callee
/// names its wrapper), whose compilations its door checks read.
pub fn dispatched_workflows(compiled: &Compiled) -> BTreeSet<String> {
    let mut calls = Vec::new();
    // No `dispatch(...)` was evaluated (most Workflows): no value to scan holds one.
    if let Some(value) = compiled.value().filter(|_| compiled.may_dispatch) {
        dispatch_calls(value, &mut calls);
    }
    calls
        .into_iter()
        .filter_map(|c| arg(c, 0).and_then(Value::as_str))
        .map(|name| name.split_once('/').map_or(name, |(w, _)| w).to_string())
        .collect()
}

/// The door over the named Chart `wrapper/stem` at `path` with its `text`, against its wrapper
/// Workflow's compilation (`None`: the Instance has no such Workflow).
pub fn check_named_chart(
    root: &Path,
    wrapper: &str,
    stem: &str,
    path: &Path,
    text: &str,
    wrapper_compiled: Option<&Compiled>,
) -> CheckedFile {
    let c = ChartFile { wrapper: wrapper.to_string(), stem: stem.to_string(), path: path.to_path_buf() };
    check_chart_text(root, &c, text.to_string(), wrapper_compiled.map(|w| w.value()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        base::workspace::root().join("examples").join("instance")
    }

    #[test]
    fn a_file_met_again_with_findings_brings_its_text_and_keeps_its_first_place() {
        let d =
            |code: &'static str| Diagnostic::new(code, diagnostics::Severity::Error, base::Span::new(1, 2), "found");
        let file = |name: &str, text: &str, diagnostics: Vec<Diagnostic>| CheckedFile {
            path: PathBuf::from(name),
            text: text.to_string(),
            diagnostics,
        };
        let (mut files, mut index) = (Vec::new(), FxHashMap::default());
        // A clean Workflow's own file, its text freed; then another file; then the first again,
        // imported by a Workflow that found something in it.
        merge(&mut files, &mut index, file("a.ts", "", Vec::new()));
        merge(&mut files, &mut index, file("b.ts", "b", vec![d("x")]));
        merge(&mut files, &mut index, file("a.ts", "a text", vec![d("y")]));
        merge(&mut files, &mut index, file("a.ts", "a text", vec![d("y")]));
        let seen: Vec<(&str, &str, usize)> =
            files.iter().map(|f| (f.path.to_str().unwrap(), f.text.as_str(), f.diagnostics.len())).collect();
        assert_eq!(seen, [("a.ts", "a text", 1), ("b.ts", "b", 1)]);
    }

    #[test]
    fn the_example_instance_checks_clean() {
        let report = check_instance(&root());
        let found: Vec<String> = report
            .files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |d| format!("{}: {} {}", f.path.display(), d.code, d.message)))
            .collect();
        assert!(found.is_empty(), "{found:#?}");
        assert!(report.internal_errors.is_empty());
        let names: Vec<String> = report.files.iter().map(|f| shown(&root(), &f.path)).collect();
        assert_eq!(
            names,
            [
                "workflows/fix-tests.ts",
                "workflows/notes.ts",
                "workflows/release-check.ts",
                "workflows/triage.ts",
                "workflows/notes/post.json",
                "workflows/notes/weekly.json"
            ]
        );
    }
}
