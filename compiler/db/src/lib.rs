//! The compiler's database (salsa): the file texts are inputs, everything else is derived, so
//! an edit recomputes only what reads the edited text.
//!
//! ```text
//! File (path, text)  ─► compile(file)           every file a Workflow's graph reads is a File,
//!                       (machine::compile_with)  read through `DbSources`: salsa records it
//! Instance (root, Workflows, Charts) ─► assembly(instance)
//!   compile + assembly ─► workflow_report(instance, file)    (instance::check_workflow)
//!   text + compile(wrapper) ─► chart_report(instance, file)  (instance::check_named_chart)
//!   every report ─► instance_report(instance)                 what `check_instance` reports
//! ```
//!
//! An edit to a Workflow re-runs its `compile`, then the reports that read it: its own, its
//! named Charts' (a wrapper's Open body is their manifest) and the Instance's merge; every other
//! Workflow's compilation is reused. Texts read from disk (and the Instances' listings) have
//! HIGH durability, editor buffers LOW: after a keystroke, a report that reads only the disk is
//! known unchanged in one step, without walking the files its compilation read. This module knows no LSP: `lsp/` holds a [`Database`],
//! sets texts on it and reads [`Database::diagnostics`]. Everything runs on the evaluator's stack
//! ([`machine::eval::on_evaluator_stack`]): the caller runs its work there once.

use base::Span;
use check::compile::{compile_with, Compiled};
use check::instance::{self, AssemblyNames, CheckedFile};
use check::rules::machine::not_static::NOT_STATIC;
use diagnostics::Diagnostic;
use machine::module::{normalize, Sources};
use salsa::{Durability, Setter};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A file's text: `None` when there is no such file.
#[salsa::input]
pub struct File {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: Option<String>,
}

/// An Instance folder: its root and what its `workflows/` folder lists.
#[salsa::input]
pub struct Instance {
    #[returns(ref)]
    pub root: PathBuf,
    /// The Workflows (stem, file), by stem.
    #[returns(ref)]
    pub workflows: Vec<(String, File)>,
    /// The named Charts (wrapper, stem, file), by name.
    #[returns(ref)]
    pub charts: Vec<(String, String, File)>,
}

/// The diagnostics of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct FileDiagnostics {
    pub path: PathBuf,
    pub diagnostics: Vec<Diagnostic>,
}

#[salsa::db]
pub trait Db: salsa::Database {
    /// The file at `path` (normalized), read from disk the first time it is asked for.
    fn file(&self, path: &Path) -> File;
}

/// The database: salsa's storage and the file table.
#[salsa::db]
#[derive(Clone, Default)]
pub struct Database {
    storage: salsa::Storage<Self>,
    files: Arc<Mutex<HashMap<PathBuf, File>>>,
    instances: Vec<Instance>,
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn file(&self, path: &Path) -> File {
        let path = normalize(path);
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = files.get(&path) {
            return *f;
        }
        // A file read from disk changes seldom (a save elsewhere, a checkout): HIGH durability,
        // so an edit to an open buffer (LOW) does not re-verify what reads only the disk.
        // Bounded, regular files only: a FIFO in `workflows/` would block the worker for ever.
        let text = base::read::read_text(&path).ok();
        let f = File::builder(path.clone(), text).durability(Durability::HIGH).new(self);
        files.insert(path, f);
        f
    }
}

/// The evaluator's view of the database: every read is a salsa input read, so a compilation
/// depends on exactly the files it read (its imports, and the candidates it tried).
struct DbSources<'a> {
    db: &'a dyn Db,
}

// SAFETY: `Sources` asks for `Sync` because the evaluator may run on a thread of its own. It
// runs either on the calling thread (which `Database`'s callers ensure: they run on the
// evaluator's stack) or on a scoped thread that the calling thread waits for, so the database is
// never used by two threads at once.
unsafe impl Sync for DbSources<'_> {}

impl Sources for DbSources<'_> {
    fn read(&self, path: &Path) -> Option<String> {
        self.db.file(path).text(self.db).clone()
    }
    fn is_file(&self, path: &Path) -> bool {
        self.db.file(path).text(self.db).is_some()
    }
}

/// A Workflow file compiled with every file read from the database.
#[salsa::tracked(no_eq)]
pub fn compile(db: &dyn Db, file: File) -> Arc<Compiled> {
    let path = file.path(db).clone();
    Arc::new(compile_with(&DbSources { db }, &path))
}

/// The Instance's Assembly by name.
#[salsa::tracked]
pub(crate) fn assembly(db: &dyn Db, inst: Instance) -> AssemblyNames {
    AssemblyNames {
        workflows: inst.workflows(db).iter().map(|(s, _)| s.clone()).collect(),
        charts: inst.charts(db).iter().map(|(w, s, _)| format!("{w}/{s}")).collect(),
    }
}

/// An internal error (a panic in a check) as a diagnostic on the file, not a crash.
fn internal_error(path: &Path) -> FileDiagnostics {
    FileDiagnostics {
        path: path.to_path_buf(),
        diagnostics: vec![NOT_STATIC.at(Span::new(0, 0), "internal error: jr2 stopped while checking this file")],
    }
}

fn plain(files: Vec<CheckedFile>) -> Vec<FileDiagnostics> {
    files.into_iter().map(|f| FileDiagnostics { path: f.path, diagnostics: f.diagnostics }).collect()
}

/// A Workflow of the Instance: its files' diagnostics, as `check_instance` gives them.
#[salsa::tracked]
pub(crate) fn workflow_report(db: &dyn Db, inst: Instance, file: File) -> Arc<Vec<FileDiagnostics>> {
    let path = file.path(db).clone();
    let Some((stem, _)) = inst.workflows(db).iter().find(|(_, f)| *f == file) else { return Arc::default() };
    let compiled = compile(db, file);
    let names = assembly(db, inst);
    let root = inst.root(db);
    // The callees' compilations, read through the database: an edit to a callee's door re-checks
    // its callers' dispatches.
    let callees: Vec<(&String, Arc<Compiled>)> = instance::dispatched_workflows(compiled)
        .into_iter()
        .filter_map(|name| {
            let (stem, callee) = inst.workflows(db).iter().find(|(s, _)| *s == name)?;
            Some((stem, compile(db, *callee).clone()))
        })
        .collect();
    let callees: HashMap<&str, &Compiled> = callees.iter().map(|(s, c)| (s.as_str(), &**c)).collect();
    let run = || instance::check_workflow(root, stem, &path, compiled, names, &callees);
    Arc::new(match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(files) => plain(files),
        Err(_) => vec![internal_error(&path)],
    })
}

/// A named Chart of the Instance, against its wrapper's Open body.
#[salsa::tracked]
pub(crate) fn chart_report(db: &dyn Db, inst: Instance, file: File) -> Arc<FileDiagnostics> {
    let path = file.path(db).clone();
    let Some((wrapper, stem, _)) = inst.charts(db).iter().find(|(_, _, f)| *f == file) else {
        return Arc::new(FileDiagnostics { path, diagnostics: Vec::new() });
    };
    let wrapper_file = inst.workflows(db).iter().find(|(s, _)| s == wrapper).map(|(_, f)| *f);
    let compiled = wrapper_file.map(|f| compile(db, f));
    let text = file.text(db).clone().unwrap_or_default();
    let root = inst.root(db);
    let run = || instance::check_named_chart(root, wrapper, stem, &path, &text, compiled.map(|c| &**c));
    Arc::new(match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(f) => FileDiagnostics { path: f.path, diagnostics: f.diagnostics },
        Err(_) => internal_error(&path),
    })
}

/// Every file of the Instance with its diagnostics, in `check_instance`'s order: the Workflows
/// by name (each followed by its imported files with a diagnostic), then the Charts by name. A
/// file two Workflows import gets the diagnostics of both, once each.
#[salsa::tracked]
pub(crate) fn instance_report(db: &dyn Db, inst: Instance) -> Arc<Vec<FileDiagnostics>> {
    let mut out: Vec<FileDiagnostics> = Vec::new();
    let mut at: HashMap<PathBuf, usize> = HashMap::new();
    let mut merge = |f: &FileDiagnostics| match at.get(&f.path) {
        Some(&i) => {
            for d in &f.diagnostics {
                if !out[i].diagnostics.contains(d) {
                    out[i].diagnostics.push(d.clone());
                }
            }
        }
        None => {
            at.insert(f.path.clone(), out.len());
            out.push(f.clone());
        }
    };
    for (_, file) in inst.workflows(db) {
        for f in workflow_report(db, inst, *file).iter() {
            merge(f);
        }
    }
    for (_, _, file) in inst.charts(db) {
        merge(chart_report(db, inst, *file));
    }
    Arc::new(out)
}

/// An Instance's `jr2.config.ts`: what reading it finds (the config diagnostics of `jr2 up
/// --check`), in the config file and the files it imports.
#[salsa::tracked]
pub(crate) fn config_report(db: &dyn Db, file: File) -> Arc<Vec<FileDiagnostics>> {
    let path = file.path(db).clone();
    let run = || check::preflight::config::read_config_with(&DbSources { db }, &path);
    Arc::new(match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(read) => read
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| FileDiagnostics {
                path: f.path.clone(),
                diagnostics: read
                    .diagnostics
                    .iter()
                    .filter(|d| d.file.0 as usize == i)
                    .map(|d| d.diagnostic.clone())
                    .collect(),
            })
            .collect(),
        Err(_) => vec![internal_error(&path)],
    })
}

/// A file outside any Instance: a Workflow compiled alone, or a Chart admitted with the door's
/// defaults (no lend manifest, which `chart-without-lends` says), as `jr2 check FILE` does.
#[salsa::tracked]
pub(crate) fn lone_report(db: &dyn Db, file: File) -> Arc<Vec<FileDiagnostics>> {
    let path = file.path(db).clone();
    let Some(text) = file.text(db) else { return Arc::default() };
    let is_ts = path.extension().is_some_and(|e| e == "ts");
    let run = || {
        if is_ts {
            let compiled = compile(db, file);
            let mut out: Vec<FileDiagnostics> = Vec::new();
            for (i, f) in compiled.files.iter().enumerate() {
                let diagnostics: Vec<Diagnostic> = compiled
                    .diagnostics
                    .iter()
                    .filter(|d| d.file.0 as usize == i)
                    .map(|d| d.diagnostic.clone())
                    .collect();
                if i == 0 || !diagnostics.is_empty() {
                    out.push(FileDiagnostics { path: f.path.clone(), diagnostics });
                }
            }
            out
        } else {
            vec![FileDiagnostics { path: path.clone(), diagnostics: check::door::check_lone(text, None).diagnostics }]
        }
    };
    Arc::new(match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(files) => files,
        Err(_) => vec![internal_error(&path)],
    })
}

/// What a half-typed Chart's recovered tree allows beyond its JSON errors: the door's checks
/// over the tree the parser recovered (no manifest), except where they land on a JSON error.
/// Empty for a Chart that parses. For editors, where a Chart is half typed most of the time.
#[salsa::tracked]
pub(crate) fn recovered_chart(db: &dyn Db, file: File) -> Arc<Vec<Diagnostic>> {
    let Some(text) = file.text(db) else { return Arc::default() };
    let run = || {
        let arena = syntax::json::arena_for(text);
        let parsed = syntax::json::parse(text, &arena);
        if parsed.errors.is_empty() {
            return Vec::new();
        }
        let errors: Vec<Diagnostic> = parsed.errors.iter().map(check::rules::chart::json_syntax::diagnostic).collect();
        let overlaps = |d: &Diagnostic| {
            errors.iter().any(|e| d.span.start <= e.span.end.max(e.span.start + 1) && e.span.start <= d.span.end)
        };
        check::door::check_parsed(&parsed.value, &parsed.duplicates, text.len(), None)
            .diagnostics
            .into_iter()
            .filter(|d| !overlaps(d))
            .collect()
    };
    Arc::new(std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_default())
}

/// An Instance's Workflows (stem, file) and named Charts (wrapper, stem, file).
type Listing = (Vec<(String, File)>, Vec<(String, String, File)>);

/// Where a file's diagnostics come from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    Instance(Instance),
    Lone(File),
}

impl Database {
    pub fn new() -> Self {
        Self::default()
    }

    /// A database that writes the name of every query it executes (not reuses) to `log`, as
    /// `compile(Id(..))`: what the tests of incrementality read.
    #[cfg(test)]
    pub(crate) fn with_execution_log(log: Arc<Mutex<Vec<String>>>) -> Self {
        let on_event = move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                log.lock().unwrap_or_else(|e| e.into_inner()).push(format!("{database_key:?}"));
            }
        };
        Database { storage: salsa::Storage::new(Some(Box::new(on_event))), ..Self::default() }
    }

    /// A database that writes, besides every query it executes, every memo it validates
    /// (reuses after checking it), as `validated compile(Id(..))`: what the tests of
    /// durability read.
    #[cfg(test)]
    pub(crate) fn with_validation_log(log: Arc<Mutex<Vec<String>>>) -> Self {
        let on_event = move |event: salsa::Event| {
            let line = match event.kind {
                salsa::EventKind::WillExecute { database_key } => format!("{database_key:?}"),
                salsa::EventKind::DidValidateMemoizedValue { database_key } => format!("validated {database_key:?}"),
                _ => return,
            };
            log.lock().unwrap_or_else(|e| e.into_inner()).push(line);
        };
        Database { storage: salsa::Storage::new(Some(Box::new(on_event))), ..Self::default() }
    }

    /// Sets the text of the file at `path` (an editor's buffer); `None`: there is no such file.
    /// Unchanged text is no new revision.
    ///
    /// An edited buffer's text has LOW durability (the disk's has HIGH): what reads only files
    /// that no edit touched (every other Workflow's compilation and report) is then verified in
    /// one step per query, not by walking its inputs, after each keystroke.
    pub fn set_text(&mut self, path: &Path, text: Option<String>) {
        self.set(path, text, Durability::LOW);
    }

    fn set(&mut self, path: &Path, text: Option<String>, durability: Durability) {
        let file = self.file(path);
        if file.text(self).as_ref() != text.as_ref() {
            file.set_text(self).with_durability(durability).to(text);
        }
    }

    /// Reads the file at `path` from disk again (a closed buffer, a file changed on disk).
    pub fn reload(&mut self, path: &Path) {
        let text = base::read::read_text(path).ok();
        self.set(path, text, Durability::HIGH);
    }

    /// The current text of the file at `path`.
    pub fn text(&self, path: &Path) -> Option<String> {
        self.file(path).text(self).clone()
    }

    /// Adds the Instance at `root` (a folder with `workflows/`), listing its files from disk.
    pub fn add_instance(&mut self, root: &Path) -> Option<Instance> {
        let root = normalize(root);
        if let Some(i) = self.instances.iter().find(|i| *i.root(self) == root) {
            return Some(*i);
        }
        if !instance::is_instance(&root) {
            return None;
        }
        let (workflows, charts) = self.listing(&root);
        // The listing changes when a file is created, renamed or deleted: seldom.
        let inst = Instance::builder(root, workflows, charts).durability(Durability::HIGH).new(self);
        self.instances.push(inst);
        Some(inst)
    }

    fn listing(&self, root: &Path) -> Listing {
        let (workflows, charts) = instance::discover_files(root);
        (
            workflows.into_iter().map(|(s, p)| (s, self.file(&p))).collect(),
            charts.into_iter().map(|(w, s, p)| (w, s, self.file(&p))).collect(),
        )
    }

    /// Lists every Instance's files again (a file was created, renamed or deleted).
    pub fn rescan(&mut self) {
        for inst in self.instances.clone() {
            let root = inst.root(self).clone();
            let (workflows, charts) = self.listing(&root);
            if *inst.workflows(self) != workflows {
                inst.set_workflows(self).with_durability(Durability::HIGH).to(workflows);
            }
            if *inst.charts(self) != charts {
                inst.set_charts(self).with_durability(Durability::HIGH).to(charts);
            }
        }
    }

    /// Moves the file at `from` to `to` in the database, not on disk (a fix's rename, before it
    /// is written, or instead): its text, and its entry in its Instance's listing, which names it
    /// by its new stem, in the order `rescan` would list it.
    pub fn rename(&mut self, from: &Path, to: &Path) {
        let (from, to) = (normalize(from), normalize(to));
        let text = self.text(&from);
        self.set(&from, None, Durability::LOW);
        self.set(&to, text, Durability::LOW);
        let (old, new) = (self.file(&from), self.file(&to));
        let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let (name, stem) = (name(&to), to.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
        for inst in self.instances.clone() {
            let mut workflows = inst.workflows(self).clone();
            if let Some(entry) = workflows.iter_mut().find(|(_, f)| *f == old) {
                *entry = (stem.clone(), new);
                workflows.sort_by_cached_key(|(s, f)| if *f == new { name.clone() } else { format!("{s}.ts") });
                inst.set_workflows(self).with_durability(Durability::LOW).to(workflows);
            }
            let mut charts = inst.charts(self).clone();
            if let Some(entry) = charts.iter_mut().find(|(_, _, f)| *f == old) {
                entry.1 = stem.clone();
                entry.2 = new;
                charts.sort_by_cached_key(|(w, s, f)| {
                    (w.clone(), if *f == new { name.clone() } else { format!("{s}.json") })
                });
                inst.set_charts(self).with_durability(Durability::LOW).to(charts);
            }
        }
    }

    /// The Instance the file at `path` belongs to: the nearest folder above it whose
    /// `workflows/` folder holds it, or for a `.ts` file, the nearest Instance root above it (a
    /// helper module); added on first use.
    pub fn instance_of(&mut self, path: &Path) -> Option<Instance> {
        let path = normalize(path);
        let mut dir = path.parent();
        while let Some(d) = dir {
            if d.file_name().is_some_and(|n| n == "workflows") {
                if let Some(root) = d.parent() {
                    if let Some(inst) = self.add_instance(root) {
                        return Some(inst);
                    }
                }
            }
            dir = d.parent();
        }
        // A `.ts` file elsewhere under an Instance's root (a helper module, `lib/format.ts`) is
        // one of its modules, not a Workflow: the Workflows that import it report it.
        if path.extension().is_some_and(|e| e == "ts") {
            let mut dir = path.parent();
            while let Some(d) = dir {
                if instance::is_instance(d) {
                    return self.add_instance(d);
                }
                dir = d.parent();
            }
        }
        None
    }

    /// Where the diagnostics of the file at `path` come from.
    pub(crate) fn owner(&mut self, path: &Path) -> Owner {
        match self.instance_of(path) {
            Some(inst) => Owner::Instance(inst),
            None => Owner::Lone(self.file(path)),
        }
    }

    /// The diagnostics of the file at `path`, as `jr2 check` reports them: over its Instance
    /// (every Workflow that imports it, its wrapper for a Chart) or alone.
    pub fn diagnostics(&mut self, path: &Path) -> Vec<Diagnostic> {
        let path = normalize(path);
        // An Instance's config is read as the config, not compiled as a Workflow.
        let is_config = path.file_name().is_some_and(|n| n == check::preflight::config::CONFIG_FILE)
            && path.parent().is_some_and(instance::is_instance);
        if is_config {
            let report = config_report(self, self.file(&path));
            return report.iter().find(|f| f.path == path).map(|f| f.diagnostics.clone()).unwrap_or_default();
        }
        let report = match self.owner(&path) {
            Owner::Instance(inst) => instance_report(self, inst),
            Owner::Lone(file) => lone_report(self, file),
        };
        report.iter().find(|f| f.path == path).map(|f| f.diagnostics.clone()).unwrap_or_default()
    }

    /// Every file of the Instance `root` and its diagnostics (the database's `check_instance`).
    pub fn instance_diagnostics(&mut self, root: &Path) -> Vec<FileDiagnostics> {
        match self.add_instance(root) {
            Some(inst) => instance_report(self, inst).as_ref().clone(),
            None => Vec::new(),
        }
    }

    /// What the recovered tree of a half-typed Chart allows (see [`recovered_chart`]).
    pub fn recovered_chart(&self, path: &Path) -> Vec<Diagnostic> {
        recovered_chart(self, self.file(path)).as_ref().clone()
    }

    /// The compilation [`Database::diagnostics`] read for the file at `path`, when it read one:
    /// a Workflow of its Instance, or a lone `.ts` file (not an Instance's config, not a file
    /// that Workflows import). A memo hit after `diagnostics`; it never compiles what that did not.
    pub fn checked_compilation(&mut self, path: &Path) -> Option<Arc<Compiled>> {
        let path = normalize(path);
        if path.extension().is_none_or(|e| e != "ts") {
            return None;
        }
        let is_config = path.file_name().is_some_and(|n| n == check::preflight::config::CONFIG_FILE)
            && path.parent().is_some_and(instance::is_instance);
        if is_config {
            return None;
        }
        let file = match self.owner(&path) {
            Owner::Instance(inst) => {
                let file = self.file(&path);
                inst.workflows(self).iter().find(|(_, f)| *f == file)?.1
            }
            Owner::Lone(file) => file,
        };
        Some(compile(self, file).clone())
    }

    /// The compilation of the Workflow at `path` (`None` for a file that is not `.ts`).
    pub fn compiled(&self, path: &Path) -> Option<Arc<Compiled>> {
        path.extension().is_some_and(|e| e == "ts").then(|| compile(self, self.file(path)).clone())
    }
}

#[cfg(test)]
mod tests;
