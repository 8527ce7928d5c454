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
        std::fs::read_to_string(path).ok()
    }
    fn is_file(&self, path: &Path) -> bool {
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
/// written when it ends in `.ts`; `x.js` as `x.ts` then `x.js`; otherwise `x.ts`, `x/index.ts`
/// and `x` itself.
pub fn candidates(from_dir: &Path, spec: &str) -> Vec<PathBuf> {
    let base = normalize(&from_dir.join(spec));
    let s = base.to_string_lossy().to_string();
    if s.ends_with(".ts") || s.ends_with(".mts") || s.ends_with(".tsx") {
        vec![base]
    } else if let Some(stem) = s.strip_suffix(".js").or_else(|| s.strip_suffix(".mjs")) {
        vec![PathBuf::from(format!("{stem}.ts")), base]
    } else {
        vec![PathBuf::from(format!("{s}.ts")), base.join("index.ts"), base]
    }
}

/// The file a relative specifier names, if one exists.
pub fn resolve(sources: &dyn Sources, from_dir: &Path, spec: &str) -> Option<PathBuf> {
    candidates(from_dir, spec).into_iter().find(|p| sources.is_file(p))
}

/// `a/./b/../c` as `a/c`, without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
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
            vec![
                PathBuf::from("/w/flows/parts.ts"),
                PathBuf::from("/w/flows/parts/index.ts"),
                PathBuf::from("/w/flows/parts")
            ]
        );
    }
}
