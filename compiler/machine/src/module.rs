//! The module graph's plain parts: the file table, what an import specifier names, and where a
//! relative import's file is on disk.
//!
//! The evaluator (`eval.rs`) walks the graph: it starts from one `.ts` file, evaluates each
//! relative import's file before the importing file's body (as ES modules do), and keeps each
//! file's exports. A cycle is cut where it closes: a binding imported from a file still being
//! evaluated is `Unknown` (JavaScript would throw a `ReferenceError` there too).

use super::value::{FileId, Value, Values};
use crate::fault::Fault;
use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// A source file the evaluator read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

/// What evaluating a Workflow file made: the files it read (index = [`FileId`]; the entry file
/// is `FileId(0)`), the entry file's exports, and the faults of every file (each names its file).
#[derive(Debug, Default, Serialize)]
pub struct Evaluated {
    pub files: Vec<SourceFile>,
    /// The entry file's exports, with the arena every value of the evaluation lives in.
    pub exports: Values,
    pub faults: Vec<Fault>,
    /// Was a `dispatch(...)` call evaluated, in any file? When not, no value of this evaluation
    /// holds one, and a scan for them (the Instance check's) has nothing to find.
    pub may_dispatch: bool,
    /// Why the entry file itself could not be read (the system's words: "Permission denied (os
    /// error 13)", or "not UTF-8 (at byte 2)"); `None` when it was read. A caller that owes an
    /// unreadable path its own exit (the Instance check) reads this, not the fault beside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
}

impl Evaluated {
    /// The Machine of a Workflow: its export `machine`.
    pub fn machine(&self) -> Option<&Value<'_>> {
        self.exports.get("machine")
    }

    pub fn file(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }
}

/// Where the evaluator reads files: the disk ([`Disk`]), or an editor's open buffers over it (the
/// LSP's database). Every read of the module graph goes through this, so a caller that records
/// the reads (salsa) knows what a file's evaluation depends on.
pub trait Sources: Sync {
    /// The text of the file at `path`, `None` if there is none.
    fn read(&self, path: &Path) -> Option<String>;
    /// Is there a file at `path`?
    fn is_file(&self, path: &Path) -> bool;
    /// The identity of a file in the graph (two paths of one file give one identity).
    fn identity(&self, path: &Path) -> PathBuf {
        normalize(path)
    }
}

/// The files on disk.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

impl Sources for Disk {
    fn read(&self, path: &Path) -> Option<String> {
        base::read::read_text(path).ok()
    }
    fn is_file(&self, path: &Path) -> bool {
        // Regular files only (a link followed): a FIFO or a device is no source.
        path.is_file()
    }
    fn identity(&self, path: &Path) -> PathBuf {
        identity(path)
    }
}

/// A module the evaluator knows without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KnownModule {
    /// `@jr2/orchestrator`
    Kit,
    Xstate,
    Zod,
}

/// What an import specifier names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Specifier {
    Known(KnownModule),
    /// `./x`, `../y/z`: a file of the Instance.
    Relative(String),
    /// Any other package: not evaluated.
    Package(String),
}

pub(crate) fn classify(spec: &str) -> Specifier {
    match spec {
        "@jr2/orchestrator" => Specifier::Known(KnownModule::Kit),
        "xstate" => Specifier::Known(KnownModule::Xstate),
        "zod" | "zod/v4" => Specifier::Known(KnownModule::Zod),
        s if s.starts_with("./") || s.starts_with("../") || s == "." || s == ".." => Specifier::Relative(s.to_string()),
        s => Specifier::Package(s.to_string()),
    }
}

/// How the evaluator reads a module's file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ModuleKind {
    /// TypeScript or JavaScript (`.ts`, `.tsx`, `.mts`, `.cts`, `.js`, `.jsx`, `.mjs`, `.cjs`),
    /// parsed as its extension says.
    Code,
    /// A `.json` file: parsed as JSON (never as TypeScript), its value the module's default
    /// export and each key of a top-level object a named one, as a bundler gives them.
    Json,
    /// Any other file a bundler loads (`./style.css`, `./App.vue`, `./logo.svg`): not read, its
    /// exports not known statically.
    Opaque,
}

/// A file a relative specifier may name, and how it would be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) path: PathBuf,
    pub(crate) kind: ModuleKind,
}

/// The candidate files of a relative specifier, in the order they are tried, as TypeScript's
/// `bundler` resolution tries them (`moduleResolution: "bundler"`, with `allowImportingTsExtensions`,
/// `allowJs` and `resolveJsonModule`):
/// - a TypeScript extension as written: `./a.ts`, `./a.tsx`, `./a.mts`, `./a.cts`;
/// - a JavaScript one as TypeScript's first: `./a.js` is `a.ts`, `a.tsx`, then `a.js`
///   (`.jsx` is `.tsx` then `.jsx`; `.mjs` is `.mts` then `.mjs`; `.cjs` is `.cts` then `.cjs`);
/// - `./a.json` as written, read as JSON;
/// - otherwise `a.ts`, `a.tsx`, `a/index.ts`, `a/index.tsx`, then `a.js`, `a.jsx`, `a/index.js`,
///   `a/index.jsx`; and where the name has an extension of no code (`./style.css`), last the
///   file as written, an [`ModuleKind::Opaque`] module that a bundler loads.
///
/// Declaration files (`.d.ts`) are not tried: they hold types, and no value. A folder's
/// `package.json` is not read (its `index` file is). Nothing else is a candidate: a specifier
/// naming no file of these kinds (`../../etc/passwd`) has no candidate it could be.
pub(crate) fn candidates(from_dir: &Path, spec: &str) -> Vec<Candidate> {
    let base = normalize(&from_dir.join(spec));
    let code = |path: PathBuf| Candidate { path, kind: ModuleKind::Code };
    let with = |stem: &str, ext: &str| code(PathBuf::from(format!("{stem}.{ext}")));
    let s = base.to_string_lossy().to_string();
    // The extension as written, by the last name's last `.` (`.d.ts` ends in `.ts`; `.`, `..`
    // and `./dir/` have none).
    let name = spec.rsplit('/').next().unwrap_or_default();
    let ext = Path::new(name).extension().and_then(|e| e.to_str());
    match ext {
        Some("ts" | "tsx" | "mts" | "cts") => vec![code(base)],
        Some(e @ ("js" | "jsx" | "mjs" | "cjs")) => {
            let stem = &s[..s.len() - e.len() - 1];
            let ts = match e {
                "js" => &["ts", "tsx"][..],
                "jsx" => &["tsx"][..],
                "mjs" => &["mts"][..],
                _ => &["cts"][..],
            };
            ts.iter().map(|t| with(stem, t)).chain([code(base.clone())]).collect()
        }
        Some("json") => vec![Candidate { path: base, kind: ModuleKind::Json }],
        other => {
            let index = base.join("index").to_string_lossy().to_string();
            let mut out = Vec::with_capacity(9);
            for exts in [["ts", "tsx"], ["js", "jsx"]] {
                for stem in [s.as_str(), index.as_str()] {
                    out.extend(exts.iter().map(|e| with(stem, e)));
                }
            }
            if other.is_some() {
                out.push(Candidate { path: base, kind: ModuleKind::Opaque });
            }
            out
        }
    }
}

/// The candidates of a relative specifier, for a message: each path, or for the folder and file
/// forms of a name, the two TypeScript ones and the extensions also tried.
pub(crate) fn tried(from_dir: &Path, spec: &str) -> String {
    let all = candidates(from_dir, spec);
    let show = |c: &Candidate| c.path.display().to_string();
    if all.len() < 8 {
        return all.iter().map(show).collect::<Vec<_>>().join(", ");
    }
    // `a.ts`, `a.tsx`, `a/index.ts`, `a/index.tsx`, then the `.js` and `.jsx` ones.
    let (file, index) = (show(&all[0]), show(&all[2]));
    match all.iter().find(|c| c.kind == ModuleKind::Opaque) {
        Some(opaque) => format!("{file}, {index} (each also as .tsx, .js and .jsx), {}", show(opaque)),
        None => format!("{file}, {index}, each also as .tsx, .js and .jsx"),
    }
}

/// The file a relative specifier names, if one exists.
pub(crate) fn resolve(sources: &dyn Sources, from_dir: &Path, spec: &str) -> Option<Candidate> {
    candidates(from_dir, spec).into_iter().find(|c| sources.is_file(&c.path))
}

/// The folder a module graph's imports stay in, and what that folder is (said when an import
/// leads out of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Root {
    pub(crate) path: PathBuf,
    pub(crate) kind: RootKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RootKind {
    /// The folder holding `workflows/`.
    Instance,
    /// The nearest folder above the file with one of [`PROJECT_MARKERS`].
    Project,
    /// The file's own folder: no Instance and no project above it.
    Folder,
}

impl RootKind {
    /// What the folder is called in a message.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RootKind::Instance => "the Instance folder",
            RootKind::Project => "the project folder",
            RootKind::Folder => "the folder of the file checked",
        }
    }
}

/// What makes a folder a project's root, as TypeScript's and Node's tools find one.
pub(crate) const PROJECT_MARKERS: [&str; 3] = ["package.json", "tsconfig.json", ".git"];

/// The folder a module graph's imports stay in. In an Instance, the Instance folder: the entry
/// file's folder's parent when that folder is `workflows` (a Workflow, checked alone or in its
/// Instance), else the nearest folder above the file that holds `workflows/` (`jr2.config.ts`
/// at an Instance's root, a helper module). Outside one, the project's root: the nearest folder
/// above the file with a `package.json`, `tsconfig.json` or `.git` (a Machine in `src/machines/`
/// imports `../utils`). Else the file's own folder and those under it. The file system's root is
/// never one (it holds `/proc`). An import that leads out of it (by `..` or by a symbolic link)
/// is not read.
pub(crate) fn root_of(entry: &Path) -> Root {
    let dir = match entry.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if let (Some(name), Some(parent)) = (dir.file_name(), dir.parent()) {
        if name == "workflows" {
            let path = if parent.as_os_str().is_empty() { PathBuf::from(".") } else { parent.to_path_buf() };
            return Root { path, kind: RootKind::Instance };
        }
    }
    // Up from the file's folder as the disk has it (`lone.ts` has a folder above `.`), at most
    // as many folders as its path has.
    let absolute = identity(&dir);
    for folder in absolute.ancestors().take_while(|f| f.parent().is_some()) {
        if folder.join("workflows").is_dir() {
            return Root { path: folder.to_path_buf(), kind: RootKind::Instance };
        }
        if PROJECT_MARKERS.iter().any(|m| folder.join(m).exists()) {
            return Root { path: folder.to_path_buf(), kind: RootKind::Project };
        }
    }
    Root { path: dir, kind: RootKind::Folder }
}

/// Is `path` inside `root`? Both as the disk has them ([`identity`]: a symbolic link is followed,
/// a relative path made absolute), so a link inside the root that leads out of it is out.
pub fn within(root: &Path, path: &Path) -> bool {
    identity(path).starts_with(identity(root))
}

/// `a/./b/../c` as `a/c`, without touching the disk: `..` takes off the last name, stays at the
/// root (`/..` is `/`), and is kept where there is no name to take off (`../../a`).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// The identity of a file in the graph: its canonical path where the disk has it.
pub(crate) fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| normalize(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers_are_classified() {
        assert_eq!(classify("@jr2/orchestrator"), Specifier::Known(KnownModule::Kit));
        assert_eq!(classify("xstate"), Specifier::Known(KnownModule::Xstate));
        assert_eq!(classify("zod"), Specifier::Known(KnownModule::Zod));
        assert_eq!(classify("./a"), Specifier::Relative("./a".into()));
        assert_eq!(classify("../a/b.ts"), Specifier::Relative("../a/b.ts".into()));
        assert_eq!(classify("node:path"), Specifier::Package("node:path".into()));
    }

    fn paths(d: &Path, spec: &str) -> Vec<(String, ModuleKind)> {
        candidates(d, spec).into_iter().map(|c| (c.path.display().to_string(), c.kind)).collect()
    }

    #[test]
    fn candidates_follow_the_bundler_resolution() {
        use ModuleKind::{Code, Json, Opaque};
        let d = Path::new("/w/flows");
        let code = |ps: &[&str]| ps.iter().map(|p| (p.to_string(), Code)).collect::<Vec<_>>();
        // A TypeScript extension as written.
        for spec in ["./a.ts", "./a.tsx", "./a.mts", "./a.cts"] {
            assert_eq!(paths(d, spec), code(&[&format!("/w/flows/{}", &spec[2..])]), "{spec}");
        }
        // A JavaScript one as the TypeScript file first.
        assert_eq!(paths(d, "../lib/a.js"), code(&["/w/lib/a.ts", "/w/lib/a.tsx", "/w/lib/a.js"]));
        assert_eq!(paths(d, "./a.jsx"), code(&["/w/flows/a.tsx", "/w/flows/a.jsx"]));
        assert_eq!(paths(d, "./a.mjs"), code(&["/w/flows/a.mts", "/w/flows/a.mjs"]));
        assert_eq!(paths(d, "./a.cjs"), code(&["/w/flows/a.cts", "/w/flows/a.cjs"]));
        // JSON as written.
        assert_eq!(paths(d, "./data.json"), vec![("/w/flows/data.json".to_string(), Json)]);
        // No extension: the file, then the folder's index, TypeScript before JavaScript.
        let parts = [
            "/w/flows/parts.ts",
            "/w/flows/parts.tsx",
            "/w/flows/parts/index.ts",
            "/w/flows/parts/index.tsx",
            "/w/flows/parts.js",
            "/w/flows/parts.jsx",
            "/w/flows/parts/index.js",
            "/w/flows/parts/index.jsx",
        ];
        assert_eq!(paths(d, "./parts"), code(&parts));
        assert_eq!(paths(d, "./parts/"), code(&parts));
        // An extension of no code: the same, then the file itself, opaque.
        let css_paths = parts.map(|p| p.replace("parts", "style.css"));
        let mut css = code(&css_paths.iter().map(String::as_str).collect::<Vec<_>>());
        css.push(("/w/flows/style.css".to_string(), Opaque));
        assert_eq!(paths(d, "./style.css"), css);
        assert!(paths(d, ".").iter().all(|(_, k)| *k == Code), "a folder is no opaque module");
        // No file but a source file is a candidate.
        assert!(paths(d, "../../../../proc/self/environ").iter().all(|(p, k)| *k == Code
            && (p.ends_with(".ts") || p.ends_with(".tsx") || p.ends_with(".js") || p.ends_with(".jsx"))));
    }

    #[test]
    fn what_was_tried_is_said_briefly() {
        let d = Path::new("/w/flows");
        assert_eq!(tried(d, "./a.js"), "/w/flows/a.ts, /w/flows/a.tsx, /w/flows/a.js");
        assert_eq!(tried(d, "./names"), "/w/flows/names.ts, /w/flows/names/index.ts, each also as .tsx, .js and .jsx");
        assert_eq!(
            tried(d, "./App.vue"),
            "/w/flows/App.vue.ts, /w/flows/App.vue/index.ts (each also as .tsx, .js and .jsx), /w/flows/App.vue"
        );
    }

    /// `..` past the root stays at the root; past a relative path's start it is kept, each one.
    #[test]
    fn normalize_cleans_every_parent() {
        let n = |s: &str| normalize(Path::new(s));
        assert_eq!(n("/w/flows/../../../../proc/self/environ"), PathBuf::from("/proc/self/environ"));
        assert_eq!(n("/.."), PathBuf::from("/"));
        assert_eq!(n("../../a"), PathBuf::from("../../a"));
        assert_eq!(n("a/../../b"), PathBuf::from("../b"));
        assert_eq!(n("a/./b/../c"), PathBuf::from("a/c"));
        assert_eq!(n("./a/b/../../.."), PathBuf::from(".."));
    }

    #[test]
    fn the_root_is_the_instance_folder() {
        let root = |p: &str| root_of(Path::new(p));
        let at = |p: &str, kind| Root { path: PathBuf::from(p), kind };
        assert_eq!(root("/i/workflows/a.ts"), at("/i", RootKind::Instance));
        assert_eq!(root("workflows/a.ts"), at(".", RootKind::Instance));
        assert!(within(Path::new("/i"), Path::new("/i/lib/x.ts")));
        assert!(!within(Path::new("/i"), Path::new("/proc/self/environ.ts")));
        assert!(!within(Path::new("/i"), Path::new("/i2/x.ts")));
    }

    /// Outside a `workflows/` folder the root is the nearest Instance or project above the file
    /// (issue 40, item 1), else its own folder; never the file system's root.
    #[test]
    fn the_root_of_a_file_outside_an_instance_is_its_project() {
        let scratch = std::env::temp_dir().join(format!("jr2-module-root-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let make = |p: &str| std::fs::create_dir_all(scratch.join(p)).expect("mkdir");
        let touch = |p: &str| std::fs::write(scratch.join(p), "{}").expect("write");
        make("app/src/machines");
        touch("app/package.json");
        make("tsapp/src");
        touch("tsapp/tsconfig.json");
        make("repo/.git");
        make("repo/a/b");
        make("inst/workflows");
        make("inst/lib");
        make("inst/sub/package");
        touch("inst/sub/package/package.json");
        make("loose/deeper");
        let s = identity(&scratch);
        let root = |p: &str| root_of(&scratch.join(p));
        let at = |p: &str, kind| Root { path: s.join(p), kind };
        assert_eq!(root("app/src/machines/flight.ts"), at("app", RootKind::Project));
        assert_eq!(root("app/lone.ts"), at("app", RootKind::Project));
        assert_eq!(root("tsapp/src/m.ts"), at("tsapp", RootKind::Project));
        assert_eq!(root("repo/a/b/m.ts"), at("repo", RootKind::Project));
        assert_eq!(root("inst/jr2.config.ts"), at("inst", RootKind::Instance));
        assert_eq!(root("inst/lib/helper.ts"), at("inst", RootKind::Instance));
        // The nearest wins: a package inside an Instance is its own project.
        assert_eq!(root("inst/sub/package/m.ts"), at("inst/sub/package", RootKind::Project));
        // No marker above (the temporary folder has none, as `/` has none here): its own folder.
        if !std::env::temp_dir().ancestors().any(|f| PROJECT_MARKERS.iter().any(|m| f.join(m).exists())) {
            let loose = scratch.join("loose/deeper");
            assert_eq!(root("loose/deeper/m.ts"), Root { path: loose, kind: RootKind::Folder });
        }
        // `/` is never a root, whatever it holds: a file at the top is its own folder.
        assert_eq!(root_of(Path::new("/m.ts")), Root { path: PathBuf::from("/"), kind: RootKind::Folder });
        let _ = std::fs::remove_dir_all(&scratch);
    }
}
