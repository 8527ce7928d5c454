//! Reading what the commands are given: Chart texts, lend manifests, and the paths `check` walks.

use super::{Result, UsageError};
use kit::lends::LendManifest;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A path as shown to the user: as given, without a leading `./`, with `/` separators.
pub fn display(path: &Path) -> String {
    // One copy of the text, the one returned: `\` is replaced only where there is one (an
    // Instance's check shows every file it read).
    let text = path.to_string_lossy();
    let replaced;
    let mut s: &str = if text.contains('\\') {
        replaced = text.replace('\\', "/");
        &replaced
    } else {
        &text
    };
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    if s.is_empty() {
        ".".to_string()
    } else {
        s.to_string()
    }
}

/// The most `jr2` reads of one input (a Chart, a lend manifest, a schema, stdin): 64 MiB. The
/// door's own size ceiling is each Open body's (`ceilings.size`, a diagnostic); this bound is
/// for what no Chart comes near (`/dev/zero` as stdin), so a read ends, and says so.
pub(crate) const MAX_INPUT: u64 = 64 << 20;

/// The message for an input past [`MAX_INPUT`].
fn too_large(what: &str) -> UsageError {
    UsageError(format!("cannot read {what}: larger than {MAX_INPUT} bytes (64 MiB)"))
}

/// Reads at most [`MAX_INPUT`] bytes of `from`; more is an error naming `what`.
fn read_bounded(from: impl Read, what: &str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    from.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| UsageError(format!("cannot read {what}: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(too_large(what));
    }
    Ok(bytes)
}

/// The metadata of the regular file at `path` (a symlink followed): anything else is refused
/// before it is opened, as opening a FIFO waits for a writer.
pub(crate) fn regular_file(path: &Path) -> Result<std::fs::Metadata> {
    let meta = std::fs::metadata(path).map_err(|e| UsageError(format!("cannot read {}: {e}", display(path))))?;
    if !meta.is_file() {
        let kind = base::read::kind_of(meta.file_type());
        return Err(UsageError(format!("cannot read {}: not a regular file ({kind})", display(path))));
    }
    Ok(meta)
}

/// A file's bytes, at most [`MAX_INPUT`] of them; `-` reads stdin.
fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    if path == Path::new("-") {
        return read_bounded(std::io::stdin().lock(), "stdin");
    }
    regular_file(path)?;
    let shown = display(path);
    let file = std::fs::File::open(path).map_err(|e| UsageError(format!("cannot read {shown}: {e}")))?;
    read_bounded(file, &shown)
}

/// A file's text, UTF-8; `-` reads stdin.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let bytes = read_bytes(path)?;
    if path == Path::new("-") {
        return String::from_utf8(bytes).map_err(|_| UsageError("stdin is not UTF-8 text".to_string()));
    }
    String::from_utf8(bytes).map_err(|_| UsageError(format!("cannot read {}: not UTF-8 text", display(path))))
}

/// A Chart's text as `check` reads it: its text, or, where it is no UTF-8 text (so no JSON
/// text), its lossy text (each bad byte run one U+FFFD) and the offset of the first bad byte.
pub enum ChartText {
    Text(String),
    NotUtf8 { lossy: String, at: usize },
}

/// A Chart file for `check`: bounded and regular as [`read_text`], but a text that is not
/// UTF-8 is the Chart's refusal (a `json-syntax` diagnostic), not the run's end.
pub(crate) fn read_chart(path: &Path) -> Result<ChartText> {
    let bytes = read_bytes(path)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => ChartText::Text(text),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            ChartText::NotUtf8 { lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(), at }
        }
    })
}

/// Checks, before the Instance check reads them, the folders and files it will read under
/// `root` (as `check::instance` lists them: `workflows/*.ts`, `workflows/<wrapper>/*.json`,
/// and `jr2.config.ts` with `config`): a folder it cannot list, a file it cannot open, a FIFO,
/// socket or device, a file past [`MAX_INPUT`] is the run's end (exit 2), said as the system
/// says it. The Instance check itself would list nothing of an unreadable folder ("no
/// problems"), wait forever on a FIFO, and report a file it cannot open as one that is not UTF-8.
pub(crate) fn check_instance_files(root: &Path, config: bool) -> Result<()> {
    let skipped = |name: &str| name.starts_with('.') || name == "node_modules";
    for (name, path, file_type) in listed(&root.join("workflows"))? {
        if skipped(&name) {
            continue;
        }
        if file_type.is_dir() {
            for (chart, chart_path, chart_type) in listed(&path)? {
                let named_chart = chart.ends_with(".json") && !chart.ends_with(".lends.json") && chart != "lends.json";
                if !skipped(&chart) && named_chart && !chart_type.is_dir() {
                    check_readable(&chart_path, chart_type)?;
                }
            }
        } else if name.ends_with(".ts") && !name.ends_with(".d.ts") {
            check_readable(&path, file_type)?;
        }
    }
    let config_file = root.join("jr2.config.ts");
    if let (true, Ok(meta)) = (config, std::fs::symlink_metadata(&config_file)) {
        check_readable(&config_file, meta.file_type())?;
    }
    Ok(())
}

/// A folder's entries: name, path, type (a symlink not followed).
fn listed(dir: &Path) -> Result<Vec<(String, PathBuf, std::fs::FileType)>> {
    let cannot = |e: std::io::Error| UsageError(format!("cannot read {}: {e}", display(dir)));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let entry = entry.map_err(cannot)?;
        let file_type = entry.file_type().map_err(cannot)?;
        out.push((entry.file_name().to_string_lossy().into_owned(), entry.path(), file_type));
    }
    Ok(out)
}

/// A file the compiler will read (a Machine, an Instance's file), checked before it does: a
/// regular file, at most [`MAX_INPUT`] bytes, that opens. A symlink to anything but a file is
/// skipped by the Instance's listing, so it passes here.
pub(crate) fn check_readable(path: &Path, file_type: std::fs::FileType) -> Result<()> {
    let cannot = |e: std::io::Error| UsageError(format!("cannot read {}: {e}", display(path)));
    let meta = if file_type.is_symlink() {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_file() => meta,
            _ => return Ok(()),
        }
    } else if file_type.is_file() {
        std::fs::metadata(path).map_err(cannot)?
    } else {
        let kind = base::read::kind_of(file_type);
        return Err(UsageError(format!("cannot check {}: not a regular file ({kind})", display(path))));
    };
    if meta.len() > MAX_INPUT {
        return Err(too_large(&display(path)));
    }
    std::fs::File::open(path).map(drop).map_err(cannot)
}

/// A lend manifest; a bad one names the file and serde's line and column. A byte order mark
/// first is read past, as a Chart's is.
pub(crate) fn read_lends(path: &Path) -> Result<LendManifest> {
    lends_from_text(&read_text(path)?, &display(path))
}

/// A lend manifest's text read (`shown` names it in the message of a bad one).
pub fn lends_from_text(text: &str, shown: &str) -> Result<LendManifest> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    serde_json::from_str(text).map_err(|e| UsageError(format!("bad lend manifest {shown}: {e}")))
}

/// An optional lend manifest.
pub(crate) fn read_optional_lends(path: Option<&Path>) -> Result<Option<LendManifest>> {
    path.map(read_lends).transpose()
}

/// What `check` found under its paths.
#[derive(Debug, Default)]
pub(crate) struct Inputs {
    /// Chart files, in order: each path's files sorted, paths in the order given, no repeats.
    pub(crate) charts: Vec<PathBuf>,
    /// Machine files (`.ts`).
    pub(crate) machines: Vec<PathBuf>,
    /// Instance folders (a folder with a `workflows/` folder), checked by `check_instance`.
    pub(crate) instances: Vec<PathBuf>,
    /// Files of an Instance met without their Instance folder (`jr2 check
    /// workflows/notes/weekly.json`, a helper module `lib/format.ts`), each checked as the
    /// Instance check checks it: a named Chart against its wrapper's Open body, a Workflow with
    /// the Instance rules, a helper module as a module (reported by the Workflows that import
    /// it), `jr2.config.ts` as the config. A named Chart is here only without `--lends`, which
    /// checks it as a plain Chart file.
    pub(crate) in_instance: Vec<PathBuf>,
    /// `--lends` was given: named Charts are plain Chart files.
    lends: bool,
}

impl Inputs {
    /// A file found under the paths, by its kind and place.
    fn file(&mut self, path: PathBuf) {
        let of_instance = instance_root_of(&path).is_some() && !(self.lends && has_ext(&path, "json"));
        if of_instance {
            self.in_instance.push(path);
        } else if has_ext(&path, "json") {
            self.charts.push(path);
        } else {
            self.machines.push(path);
        }
    }
}

/// The Instance a file belongs to, where it is one of its files: a named Chart
/// (`<root>/workflows/<wrapper>/<chart>.json`), or a `.ts` file anywhere below a folder that has a
/// `workflows/` folder (a Workflow, a helper module, the config).
pub(crate) fn instance_root_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_string_lossy();
    if has_ext(path, "json") {
        let workflows = path.parent()?.parent()?;
        let root = workflows.parent()?;
        let named = is_chart_name(&name) && workflows.file_name().is_some_and(|n| n == "workflows");
        return (named && check::instance::is_instance(root)).then(|| root.to_path_buf());
    }
    if has_ext(path, "ts") && !name.ends_with(".d.ts") {
        return path.ancestors().skip(1).find(|d| check::instance::is_instance(d)).map(Path::to_path_buf);
    }
    None
}

/// Walks the paths: a folder with a `workflows/` folder is an Instance, a file of an Instance is
/// checked as its Instance checks it ([`Inputs::in_instance`]; a named Chart only without `lends`,
/// `--lends` given), another `.json` file is a Chart, another `.ts` file a Machine, any other
/// folder is walked.
pub(crate) fn collect(paths: &[PathBuf], lends: bool) -> Result<Inputs> {
    let mut inputs = Inputs { lends, ..Inputs::default() };
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| UsageError(format!("cannot read {}: {e}", display(path))))?;
        if meta.is_dir() && check::instance::is_instance(path) {
            if !inputs.instances.contains(path) {
                inputs.instances.push(path.clone());
            }
        } else if meta.is_dir() {
            walk(path, &mut inputs)?;
        } else if !meta.is_file() {
            let kind = base::read::kind_of(meta.file_type());
            return Err(UsageError(format!("cannot check {}: not a regular file ({kind})", display(path))));
        } else if has_ext(path, "json") || has_ext(path, "ts") {
            inputs.file(path.clone());
        } else {
            return Err(UsageError(format!(
                "cannot check {}: not a Chart (.json), a Machine (.ts) or a folder",
                display(path)
            )));
        }
    }
    let mut seen = std::collections::HashSet::new();
    inputs.charts.retain(|p| seen.insert(p.clone()));
    // A file of an Instance also given whole is checked with it, once.
    let whole: Vec<PathBuf> = inputs.instances.iter().map(|r| machine::module::normalize(r)).collect();
    let mut seen = std::collections::HashSet::new();
    inputs.in_instance.retain(|p| {
        let root = instance_root_of(p).map(|r| machine::module::normalize(&r));
        seen.insert(p.clone()) && !root.is_some_and(|r| whole.contains(&r))
    });
    Ok(inputs)
}

fn has_ext(path: &Path, ext: &str) -> bool {
    path.extension().is_some_and(|e| e == ext)
}

/// Whether a walked `.json` file is a Chart, not a manifest or tool config.
fn is_chart_name(name: &str) -> bool {
    name.ends_with(".json")
        && !name.ends_with(".lends.json")
        && name != "lends.json"
        && !name.starts_with("package")
        && !name.starts_with("tsconfig")
}

fn skipped_dir(name: &str) -> bool {
    name.starts_with('.') || name == "node_modules" || name == "target"
}

/// A FIFO, socket or device met in a walk, whose name says Chart or Machine: not read (it may
/// never end), said on stderr.
fn skip_not_regular(name: &str, path: &Path, file_type: std::fs::FileType) {
    if is_chart_name(name) || (name.ends_with(".ts") && !name.ends_with(".d.ts")) {
        eprintln!("jr2: skipped {}: not a regular file ({})", display(path), base::read::kind_of(file_type));
    }
}

fn walk(dir: &Path, inputs: &mut Inputs) -> Result<()> {
    let read = std::fs::read_dir(dir).map_err(|e| UsageError(format!("cannot read {}: {e}", display(dir))))?;
    let mut entries: Vec<(String, PathBuf, bool)> = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| UsageError(format!("cannot read {}: {e}", display(dir))))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(file_type) = entry.file_type() else { continue };
        let is_dir = if file_type.is_symlink() {
            // A symlink to a file is followed; to a folder, not (no cycles); a dangling one is skipped.
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_file() => false,
                Ok(meta) if !meta.is_dir() => {
                    skip_not_regular(&name, &path, meta.file_type());
                    continue;
                }
                _ => continue,
            }
        } else if !file_type.is_dir() && !file_type.is_file() {
            skip_not_regular(&name, &path, file_type);
            continue;
        } else {
            file_type.is_dir()
        };
        entries.push((name, path, is_dir));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, path, is_dir) in entries {
        if is_dir {
            if skipped_dir(&name) {
                continue;
            }
            // An Instance met in the walk is checked as one.
            if check::instance::is_instance(&path) {
                if !inputs.instances.contains(&path) {
                    inputs.instances.push(path);
                }
            } else {
                walk(&path, inputs)?;
            }
        } else if is_chart_name(&name) || (name.ends_with(".ts") && !name.ends_with(".d.ts")) {
            inputs.file(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_names() {
        assert!(is_chart_name("notes.json"));
        for name in ["lends.json", "x.lends.json", "package.json", "package-lock.json", "tsconfig.base.json", "a.ts"] {
            assert!(!is_chart_name(name), "{name}");
        }
    }

    #[test]
    fn display_strips_dot_slash() {
        assert_eq!(display(Path::new("./a/b.json")), "a/b.json");
        assert_eq!(display(Path::new(".")), ".");
        assert_eq!(display(Path::new("./")), ".");
    }
}
