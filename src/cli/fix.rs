//! `jr2 check --fix` and `--diff`: the rules' mechanical fixes (`Diagnostic::fix`: text edits in
//! the diagnostic's file, a rename of it) applied to the files, as `ruff check --fix` / `--diff`.
//!
//! The fixes are worked out in memory, over the compiler's database (`db::Database`, whose file
//! texts and Instance listings take the fixed texts and renames without the disk), in passes:
//!
//! 1. check every input; in each file take each fix whose edits overlap no fix taken before it
//!    (one fix that several diagnostics carry, as the root route of two unrouted states, once),
//!    and a rename whose new name is free;
//! 2. apply them and check again. Where a file, fixed or not, has an error it did not have, the
//!    pass goes back: a fix applied alone is then not tried again, and else the next passes take
//!    one fix each, so that the one to blame is known. Where a fixed file still has a diagnostic
//!    its fixes fixed, that file goes back: its fix is not tried again (fixes that failed
//!    together are tried there one a pass);
//! 3. repeat while there is a fix to try (one that overlapped another is worked out again over
//!    the fixed text), at most [`MAX_PASSES`] times.
//!
//! `--fix` then writes the fixed files (and renames), `--diff` prints them as a unified diff. A
//! diagnostic is matched across passes by its file, code, message and dotted path, none of which
//! is a position. A rename does not follow what names the file elsewhere (a `dispatch` of its old
//! name, a wrapper's Charts folder): such a fix makes an error in another file, and is not kept.

use super::input::{display, Inputs};
use db::{Database, Db};
use diagnostics::{Diagnostic, Fix};
use kit::LendManifest;
use machine::module::normalize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The most passes of one run.
const MAX_PASSES: usize = 100;

/// What the fixes change: each file with its text before and after, and where it goes.
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub changes: Vec<Change>,
    /// How many diagnostics the applied fixes fix.
    pub fixed: usize,
    /// The fixable diagnostics left, each with why its fix was not applied.
    pub left: Vec<Left>,
}

#[derive(Debug)]
pub(super) struct Change {
    /// The file as it is on disk.
    pub path: PathBuf,
    /// Where it goes: `path` unless the fixes rename it.
    pub to: PathBuf,
    pub before: String,
    pub after: String,
}

#[derive(Debug)]
pub(super) struct Left {
    pub path: PathBuf,
    pub code: &'static str,
    pub why: String,
}

impl Plan {
    /// The unified diff of every change.
    pub(super) fn diff(&self) -> String {
        self.changes
            .iter()
            .map(|c| render::diff::unified(&display(&c.path), &display(&c.to), &c.before, &c.after))
            .collect()
    }

    /// Writes every change: the text, then the rename. A new name that was taken meanwhile stops
    /// it before anything is written.
    pub(super) fn write(&self) -> std::io::Result<()> {
        if let Some(c) = self.changes.iter().find(|c| c.to != c.path && c.to.exists()) {
            let taken = format!("{} exists", display(&c.to));
            return Err(std::io::Error::new(std::io::ErrorKind::AlreadyExists, taken));
        }
        for c in &self.changes {
            if c.after != c.before {
                std::fs::write(&c.path, &c.after)?;
            }
            if c.to != c.path {
                std::fs::rename(&c.path, &c.to)?;
            }
        }
        Ok(())
    }

    /// The files the changes touch.
    pub(super) fn files(&self) -> usize {
        self.changes.len()
    }
}

/// A diagnostic as it is matched across passes, which move text: its code, message and dotted
/// path, no position. Two alike are counted.
type Id = (&'static str, String, Option<String>);

fn id(d: &Diagnostic) -> Id {
    (d.code, d.message.clone(), d.path.clone())
}

/// A diagnostic of a file (as on disk).
type Key = (PathBuf, Id);

/// One fix of one file, and the diagnostics that carry it.
struct Group {
    fix: Fix,
    fixes: Vec<Id>,
}

/// A file the fixes touched: where it is now and its text there.
#[derive(Clone)]
struct Edited {
    path: PathBuf,
    text: String,
}

/// Every file's diagnostics, by path (normalized).
type Report = BTreeMap<PathBuf, Vec<Diagnostic>>;

/// The files as the fixes see them: checked, read, edited and renamed in memory.
trait Files {
    /// Every file's diagnostics, as the files are now.
    fn report(&mut self) -> Report;
    fn text(&self, path: &Path) -> Option<String>;
    fn set_text(&mut self, path: &Path, text: String);
    fn rename(&mut self, from: &Path, to: &Path);
    /// The text of the file on disk.
    fn disk(&self, path: &Path) -> Option<String>;
}

/// The files of the run in the compiler's database: each Instance, each lone Machine and Chart,
/// checked as `jr2 check` checks them.
struct DbFiles<'a> {
    db: Database,
    manifest: Option<&'a LendManifest>,
    inputs: &'a Inputs,
    /// Where each renamed file is now, by its path on disk.
    moved: HashMap<PathBuf, PathBuf>,
}

impl DbFiles<'_> {
    fn now(&self, path: &Path) -> PathBuf {
        let path = normalize(path);
        self.moved.get(&path).cloned().unwrap_or(path)
    }
}

impl DbFiles<'_> {
    /// Each file's diagnostics as `jr2 check` reports them, through the one path of
    /// `check::suppress` (its `jr2c.toml`'s ignored rules and `[[suppress]]` entries, its inline
    /// `jr2-ignore[...]` in the text as fixed so far): a suppressed diagnostic is not fixed. The
    /// configs were read before the fixes ([`check_configs`]); one that no longer parses leaves
    /// its files' diagnostics with no fix.
    fn suppressed(&self, report: Report) -> Report {
        let mut run = check::suppress::Suppressions::new();
        report
            .into_iter()
            .map(|(path, found)| {
                let text = self.db.text(&path).unwrap_or_default();
                let kept = match run.report(&path, &text, found.clone()) {
                    Ok(kept) => kept,
                    Err(_) => found.into_iter().map(|d| Diagnostic { fix: None, ..d }).collect(),
                };
                (path, kept)
            })
            .collect()
    }
}

/// Reads the config (`jr2c.toml`) of every input before anything is fixed: a config that does
/// not parse ends the run (exit 2) with nothing written, as `jr2 check` does.
pub(super) fn check_configs(inputs: &Inputs) -> Result<(), check::suppress::ConfigError> {
    let mut run = check::suppress::Suppressions::new();
    for path in inputs.machines.iter().chain(&inputs.charts).chain(&inputs.in_instance) {
        run.config_of(path)?;
    }
    for root in &inputs.instances {
        run.config_of(&root.join("workflows").join("_"))?;
    }
    Ok(())
}

impl Files for DbFiles<'_> {
    fn report(&mut self) -> Report {
        let mut out: Report = BTreeMap::new();
        let add = |out: &mut Report, path: PathBuf, diagnostics: Vec<Diagnostic>| {
            let seen = out.entry(path).or_default();
            for d in diagnostics {
                if !seen.contains(&d) {
                    seen.push(d);
                }
            }
        };
        for root in &self.inputs.instances {
            for f in self.db.instance_diagnostics(root) {
                add(&mut out, normalize(&f.path), f.diagnostics);
            }
        }
        for path in &self.inputs.machines {
            let file = self.db.file(&self.now(path));
            let compiled = db::compile(&self.db, file);
            for (i, f) in compiled.files.iter().enumerate() {
                let found =
                    compiled.diagnostics.iter().filter(|d| d.file.0 as usize == i).map(|d| d.diagnostic.clone());
                add(&mut out, normalize(&f.path), found.collect());
            }
        }
        for path in &self.inputs.charts {
            let path = self.now(path);
            let text = self.db.text(&path).unwrap_or_default();
            add(&mut out, path, check::door::check_lone(&text, self.manifest).diagnostics);
        }
        for path in &self.inputs.in_instance {
            let path = self.now(path);
            let found = self.db.diagnostics(&path);
            add(&mut out, normalize(&path), found);
        }
        self.suppressed(out)
    }

    fn text(&self, path: &Path) -> Option<String> {
        self.db.text(path)
    }

    fn set_text(&mut self, path: &Path, text: String) {
        self.db.set_text(path, Some(text));
    }

    fn rename(&mut self, from: &Path, to: &Path) {
        self.db.rename(from, to);
        let (from, to) = (normalize(from), normalize(to));
        match self.moved.iter_mut().find(|(_, now)| **now == from) {
            Some((_, now)) => *now = to,
            None => {
                self.moved.insert(from, to);
            }
        }
    }

    fn disk(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
}

/// The fixes' work: the files, and what the fixes changed in them.
struct Engine<F> {
    files: F,
    /// Each file the fixes touched, by its path on disk.
    edited: BTreeMap<PathBuf, Edited>,
}

impl<F: Files> Engine<F> {
    fn now(&self, original: &Path) -> PathBuf {
        self.edited.get(original).map_or_else(|| original.to_path_buf(), |e| e.path.clone())
    }

    /// The path on disk of what is at `path` now.
    fn original(&self, path: &Path) -> PathBuf {
        self.edited.iter().find(|(_, e)| e.path == path).map_or_else(|| path.to_path_buf(), |(o, _)| o.clone())
    }

    /// Puts the file at `original` back as it was before a pass (`was`: where it was and its text).
    fn restore(&mut self, original: &Path, was: Option<Edited>) {
        let now = self.now(original);
        let back = was.clone().unwrap_or_else(|| Edited {
            path: original.to_path_buf(),
            text: self.files.disk(original).unwrap_or_default(),
        });
        if now != back.path {
            self.files.rename(&now, &back.path);
        }
        self.files.set_text(&back.path, back.text);
        match was {
            Some(e) => self.edited.insert(original.to_path_buf(), e),
            None => self.edited.remove(original),
        };
    }
}

/// Works out the fixes of the inputs (see the module doc), writing nothing.
pub(super) fn plan(inputs: &Inputs, manifest: Option<&LendManifest>) -> Plan {
    machine::eval::on_evaluator_stack(|| {
        let files = DbFiles { db: Database::new(), manifest, inputs, moved: HashMap::new() };
        run(&mut Engine { files, edited: BTreeMap::new() })
    })
}

/// How many diagnostics of `ds` are `id`.
fn count(ds: Option<&Vec<Diagnostic>>, of: &Id) -> usize {
    ds.into_iter().flatten().filter(|d| d.code == of.0 && d.message == of.1 && d.path == of.2).count()
}

/// The first error of `after` that `before` has fewer of: one the fixes made.
fn new_error<'d>(before: Option<&Vec<Diagnostic>>, after: Option<&'d Vec<Diagnostic>>) -> Option<&'d Diagnostic> {
    after.into_iter().flatten().filter(|d| d.is_error()).find(|d| {
        let of = id(d);
        count(after, &of) > count(before, &of)
    })
}

fn run<F: Files>(cx: &mut Engine<F>) -> Plan {
    let mut rejected: HashMap<Key, String> = HashMap::new();
    let mut deferred: HashSet<Key> = HashSet::new();
    // Files whose fixes failed together: one fix a pass there. All files: one fix a pass.
    let mut single: HashSet<PathBuf> = HashSet::new();
    let mut one_at_a_time = false;
    let mut fixed = 0;
    for _ in 0..MAX_PASSES {
        deferred.clear();
        let before = cx.files.report();
        // 1. The fixes to apply: per file (as it is now), each fix that overlaps none taken
        // before it; one fix that several diagnostics carry, once.
        let mut taken: Vec<(PathBuf, Vec<Group>)> = Vec::new();
        let mut targets: HashSet<PathBuf> = HashSet::new();
        for (path, ds) in &before {
            let original = cx.original(path);
            let mut groups: Vec<Group> = Vec::new();
            for d in ds {
                let Some(fix) = &d.fix else { continue };
                let key = (original.clone(), id(d));
                if rejected.contains_key(&key) {
                    continue;
                }
                if let Some(g) = groups.iter_mut().find(|g| g.fix == *fix) {
                    g.fixes.push(id(d));
                    continue;
                }
                let full = (one_at_a_time || single.contains(&original)) && !groups.is_empty();
                if full || groups.iter().any(|g| g.fix.overlaps(fix)) {
                    deferred.insert(key);
                    continue;
                }
                if let Some(name) = &fix.rename_to {
                    let to = path.parent().map(|p| p.join(name)).unwrap_or_else(|| PathBuf::from(name));
                    let taken_elsewhere = cx.files.text(&to).is_some() || targets.contains(&to);
                    if name.is_empty() || name.contains(['/', '\\']) || to == *path || taken_elsewhere {
                        rejected.insert(key, format!("{} exists", display(&to)));
                        continue;
                    }
                    targets.insert(to);
                }
                groups.push(Group { fix: fix.clone(), fixes: vec![id(d)] });
            }
            if !groups.is_empty() {
                taken.push((path.clone(), groups));
            }
        }
        if one_at_a_time {
            taken.truncate(1);
        }
        if taken.is_empty() {
            break;
        }
        // 2. Apply them.
        let mut was: Vec<(PathBuf, PathBuf, Option<Edited>, &Vec<Group>)> = Vec::new();
        for (path, groups) in &taken {
            let original = cx.original(path);
            let text = cx.files.text(path).unwrap_or_default();
            let fixes: Vec<&Fix> = groups.iter().map(|g| &g.fix).collect();
            let Some(after) = diagnostics::apply_fixes(&text, &fixes) else {
                for of in groups.iter().flat_map(|g| &g.fixes) {
                    rejected.insert((original.clone(), of.clone()), "its edits do not fit the file".into());
                }
                continue;
            };
            was.push((original.clone(), path.clone(), cx.edited.get(&original).cloned(), groups));
            cx.files.set_text(path, after.clone());
            let mut now = path.clone();
            if let Some(name) = groups.iter().find_map(|g| g.fix.rename_to.as_ref()) {
                now = path.parent().map(|p| p.join(name)).unwrap_or_else(|| PathBuf::from(name));
                cx.files.rename(path, &now);
            }
            cx.edited.insert(original, Edited { path: now, text: after });
        }
        if was.is_empty() {
            continue;
        }
        // 3. Check again. A new error anywhere: the fix that made it is known only where one
        // fix was applied; else every file goes back, and the next passes take one fix each.
        let after = cx.files.report();
        let moved: HashMap<PathBuf, &PathBuf> = was.iter().map(|(o, then, _, _)| (cx.now(o), then)).collect();
        let made = after.iter().find_map(|(path, _)| {
            let then = moved.get(path).copied().unwrap_or(path);
            new_error(before.get(then), after.get(path)).map(|d| (path.clone(), d))
        });
        let applied: usize = was.iter().map(|(_, _, _, g)| g.len()).sum();
        if let Some((path, d)) = made {
            for (original, _, previous, groups) in was.iter().rev() {
                cx.restore(original, previous.clone());
                if applied == 1 {
                    let why = if moved.contains_key(&path) {
                        format!("the fix makes a new error here: {}: {}", d.code, d.message)
                    } else {
                        format!("the fix makes an error in {}", display(&path))
                    };
                    for of in &groups[0].fixes {
                        rejected.insert((original.clone(), of.clone()), why.clone());
                    }
                }
            }
            one_at_a_time |= applied > 1;
            continue;
        }
        // A diagnostic left in place: that file goes back.
        for (original, then, previous, groups) in &was {
            let (found, had) = (after.get(&cx.now(original)), before.get(then));
            let left = |g: &Group| {
                let mut ids: Vec<&Id> = g.fixes.iter().collect();
                ids.sort();
                ids.dedup();
                ids.into_iter()
                    .any(|of| count(found, of) + g.fixes.iter().filter(|x| *x == of).count() > count(had, of))
            };
            if !groups.iter().any(left) {
                fixed += groups.iter().map(|g| g.fixes.len()).sum::<usize>();
                continue;
            }
            cx.restore(original, previous.clone());
            if groups.len() == 1 {
                for of in &groups[0].fixes {
                    rejected.insert((original.clone(), of.clone()), "the diagnostic remains after the fix".into());
                }
            } else {
                single.insert(original.clone());
            }
        }
    }
    // What is left: each fixable diagnostic still found, and why.
    let last = cx.files.report();
    let mut left = Vec::new();
    for (path, ds) in &last {
        let original = cx.original(path);
        for d in ds.iter().filter(|d| d.fix.is_some()) {
            let key = (original.clone(), id(d));
            let why = match rejected.get(&key) {
                Some(why) => why.clone(),
                None if deferred.contains(&key) => "its edits overlap another fix's".to_string(),
                None => format!("not reached in {MAX_PASSES} passes"),
            };
            left.push(Left { path: path.clone(), code: d.code, why });
        }
    }
    let changes = cx
        .edited
        .iter()
        .filter_map(|(original, e)| {
            let before = cx.files.disk(original)?;
            (before != e.text || *original != e.path).then(|| Change {
                path: original.clone(),
                to: e.path.clone(),
                before,
                after: e.text.clone(),
            })
        })
        .collect();
    Plan { changes, fixed, left }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base::Span;
    use diagnostics::Edit;

    /// Files in memory, checked by `rules`: each file's diagnostics from the texts of all.
    struct Fake {
        disk: BTreeMap<PathBuf, String>,
        now: BTreeMap<PathBuf, String>,
        rules: fn(&Path, &str, &BTreeMap<PathBuf, String>) -> Vec<Diagnostic>,
    }

    impl Files for Fake {
        fn report(&mut self) -> Report {
            self.now.iter().map(|(p, t)| (p.clone(), (self.rules)(p, t, &self.now))).collect()
        }
        fn text(&self, path: &Path) -> Option<String> {
            self.now.get(path).cloned()
        }
        fn set_text(&mut self, path: &Path, text: String) {
            self.now.insert(path.to_path_buf(), text);
        }
        fn rename(&mut self, from: &Path, to: &Path) {
            if let Some(t) = self.now.remove(from) {
                self.now.insert(to.to_path_buf(), t);
            }
        }
        fn disk(&self, path: &Path) -> Option<String> {
            self.disk.get(path).cloned()
        }
    }

    /// A diagnostic at each `word` of the text, whose fix replaces it with `with`.
    fn found(text: &str, word: &str, with: &str) -> Vec<Diagnostic> {
        text.match_indices(word)
            .map(|(at, _)| {
                let span = Span::new(at as u32, (at + word.len()) as u32);
                let fix = Fix::edits(format!("say {with}"), vec![Edit { span, replacement: with.to_string() }]);
                Diagnostic::error("word", span, word).with_fix(fix)
            })
            .collect()
    }

    /// `bad` is fixed to `good`; `stuck` to `stuck!` (still there); `worse` to `oops`, an error
    /// of its own; `link` to `linked`, which is an error in every other file; two `<>` insert at
    /// one place; `Upper.txt` is renamed.
    fn rules(path: &Path, text: &str, all: &BTreeMap<PathBuf, String>) -> Vec<Diagnostic> {
        let mut out = found(text, "bad", "good");
        out.extend(found(text, "stuck", "stuck!"));
        out.extend(found(text, "worse", "oops"));
        out.extend(found(text, "link", "linked").into_iter().filter(|_| !text.contains("linked")));
        out.extend(
            text.match_indices("oops")
                .map(|(at, _)| Diagnostic::error("oops", Span::new(at as u32, at as u32 + 4), "oops")),
        );
        if all.iter().any(|(p, t)| p != path && t.contains("linked")) {
            out.push(Diagnostic::error("other", Span::new(0, 0), "another file is linked"));
        }
        for (i, (at, _)) in text.match_indices("<>").enumerate() {
            let fix = Fix::edits("fill", vec![Edit { span: Span::empty_at(at as u32 + 1), replacement: "x".into() }]);
            out.push(
                Diagnostic::error("empty", Span::new(at as u32, at as u32 + 2), format!("empty {i}"))
                    .with_fix(fix.clone()),
            );
            out.push(Diagnostic::error("empty", Span::new(at as u32, at as u32 + 2), format!("again {i}")).with_fix(
                Fix::edits("fill", vec![Edit { span: Span::empty_at(at as u32 + 1), replacement: "y".into() }]),
            ));
        }
        if path.file_name().is_some_and(|n| n == "Upper.txt") {
            out.push(
                Diagnostic::error("stem", Span::new(0, 0), "a capital").with_fix(Fix::rename("rename", "upper.txt")),
            );
        }
        out
    }

    fn plan_of(files: &[(&str, &str)]) -> (Plan, BTreeMap<PathBuf, String>) {
        let disk: BTreeMap<PathBuf, String> = files.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())).collect();
        let mut engine = Engine { files: Fake { disk: disk.clone(), now: disk, rules }, edited: BTreeMap::new() };
        let plan = run(&mut engine);
        (plan, engine.files.now)
    }

    fn whys(plan: &Plan) -> Vec<String> {
        plan.left.iter().map(|l| format!("{}: {}: {}", l.path.display(), l.code, l.why)).collect()
    }

    #[test]
    fn a_fix_that_works_is_applied_and_one_that_does_not_is_not() {
        let (plan, now) = plan_of(&[("a.txt", "bad stuck bad"), ("b.txt", "worse")]);
        assert_eq!(now[Path::new("a.txt")], "good stuck good");
        assert_eq!(now[Path::new("b.txt")], "worse", "its fix makes a new error");
        assert_eq!(plan.fixed, 2);
        assert_eq!(
            whys(&plan),
            [
                "a.txt: word: the diagnostic remains after the fix",
                "b.txt: word: the fix makes a new error here: oops: oops",
            ]
        );
        let [change] = &plan.changes[..] else { panic!("{:?}", plan.changes) };
        assert_eq!((change.before.as_str(), change.after.as_str()), ("bad stuck bad", "good stuck good"));
    }

    #[test]
    fn a_fix_that_breaks_another_file_is_not_applied() {
        let (plan, now) = plan_of(&[("a.txt", "link bad"), ("b.txt", "bad")]);
        assert_eq!(now[Path::new("a.txt")], "link good");
        assert_eq!(now[Path::new("b.txt")], "good");
        assert_eq!(whys(&plan), ["a.txt: word: the fix makes an error in b.txt"]);
        assert_eq!(plan.fixed, 2);
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_pass_and_renames_move_the_file() {
        let (plan, now) = plan_of(&[("Upper.txt", "<> bad")]);
        // One of the two insertions at one place per pass, each worked out again: `<x>` has none.
        assert_eq!(now.get(Path::new("upper.txt")).map(String::as_str), Some("<x> good"), "{now:?}");
        assert!(!now.contains_key(Path::new("Upper.txt")));
        assert!(plan.left.is_empty(), "{:?}", whys(&plan));
        let [change] = &plan.changes[..] else { panic!("{:?}", plan.changes) };
        assert_eq!((change.path.as_path(), change.to.as_path()), (Path::new("Upper.txt"), Path::new("upper.txt")));
        assert!(plan.diff().contains("rename from Upper.txt\nrename to upper.txt\n"), "{}", plan.diff());
    }
}
