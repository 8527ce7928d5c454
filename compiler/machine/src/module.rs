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
pub enum KnownModule {
    /// `@jr2/orchestrator`
    Kit,
    Xstate,
    Zod,
}

/// What an import specifier names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Specifier {
    Known(KnownModule),
    /// `./x`, `../y/z`: a file of the Instance.
    Relative(String),
    /// Any other package: not evaluated.
    Package(String),
}

pub fn classify(spec: &str) -> Specifier {
    match spec {
        "@jr2/orchestrator" => Specifier::Known(KnownModule::Kit),
        "xstate" => Specifier::Known(KnownModule::Xstate),
        "zod" | "zod/v4" => Specifier::Known(KnownModule::Zod),
        s if s.starts_with("./") || s.starts_with("../") || s == "." || s == ".." => Specifier::Relative(s.to_string()),
        s => Specifier::Package(s.to_string()),
    }
}

/// The candidate files of a relative specifier, in the order they are tried: the path as
/// written when it ends in `.ts` (`.mts`, `.tsx`); `x.js` as `x.ts` then `x.js` (`.mjs` so);
/// otherwise `x.ts` and `x/index.ts`. Only source files: a specifier naming any other file
/// (`../../etc/passwd`) has no candidate it could be.
pub fn candidates(from_dir: &Path, spec: &str) -> Vec<PathBuf> {
    let base = normalize(&from_dir.join(spec));
    let s = base.to_string_lossy().to_string();
    if s.ends_with(".ts") || s.ends_with(".mts") || s.ends_with(".tsx") {
        vec![base]
    } else if let Some(stem) = s.strip_suffix(".js").or_else(|| s.strip_suffix(".mjs")) {
        vec![PathBuf::from(format!("{stem}.ts")), base]
    } else {
        vec![PathBuf::from(format!("{s}.ts")), base.join("index.ts")]
    }
}

/// The file a relative specifier names, if one exists.
pub fn resolve(sources: &dyn Sources, from_dir: &Path, spec: &str) -> Option<PathBuf> {
    candidates(from_dir, spec).into_iter().find(|p| sources.is_file(p))
}

/// The folder a module graph's imports stay in: the Instance folder, which is the entry file's
/// folder's parent when that folder is `workflows` (a Workflow, checked alone or in its Instance),
/// and the entry file's own folder otherwise (`jr2.config.ts` at an Instance's root, a lone file:
/// its folder and those under it). An import that leads out of it (by `..` or by a symbolic
/// link) is not read.
pub fn root_of(entry: &Path) -> PathBuf {
    let dir = entry.parent().map(Path::to_path_buf).unwrap_or_default();
    let root = match (dir.file_name(), dir.parent()) {
        (Some(name), Some(parent)) if name == "workflows" => parent.to_path_buf(),
        _ => dir,
    };
    if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root
    }
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
pub fn identity(path: &Path) -> PathBuf {
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

    #[test]
    fn candidates_follow_the_extension_rules() {
        let d = Path::new("/w/flows");
        assert_eq!(candidates(d, "./a.ts"), vec![PathBuf::from("/w/flows/a.ts")]);
        assert_eq!(candidates(d, "../lib/a.js"), vec![PathBuf::from("/w/lib/a.ts"), PathBuf::from("/w/lib/a.js")]);
        assert_eq!(
            candidates(d, "./parts"),
            vec![PathBuf::from("/w/flows/parts.ts"), PathBuf::from("/w/flows/parts/index.ts")]
        );
        // No file but a source file is a candidate.
        assert_eq!(
            candidates(d, "../../../../proc/self/environ"),
            vec![PathBuf::from("/proc/self/environ.ts"), PathBuf::from("/proc/self/environ/index.ts")]
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
        assert_eq!(root_of(Path::new("/i/workflows/a.ts")), PathBuf::from("/i"));
        assert_eq!(root_of(Path::new("/i/jr2.config.ts")), PathBuf::from("/i"));
        assert_eq!(root_of(Path::new("/tmp/lone.ts")), PathBuf::from("/tmp"));
        assert_eq!(root_of(Path::new("workflows/a.ts")), PathBuf::from("."));
        assert_eq!(root_of(Path::new("lone.ts")), PathBuf::from("."));
        assert!(within(Path::new("/i"), Path::new("/i/lib/x.ts")));
        assert!(!within(Path::new("/i"), Path::new("/proc/self/environ.ts")));
        assert!(!within(Path::new("/i"), Path::new("/i2/x.ts")));
    }
}
