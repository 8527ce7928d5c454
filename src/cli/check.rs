//! `jr2 check` and `jr2 chart check`: the Chart door over files, one report per file; an Instance
//! folder's check, with its foreign dispatch targets' doors read over HTTP unless `--offline`.

use super::args::{ChartCheckArgs, CheckArgs, FormatArg, OutputArgs};
use super::input::{self, display, ChartText};
use super::{Exit, Result};
use diagnostics::{FileReport, Summary};
use kit::LendManifest;
use render::Format;
use std::io::{IsTerminal, Write};

/// `jr2 check [PATH...]`; with `--fix`, the fixes first (then the check of the fixed files), with
/// `--diff` the fixes alone, printed.
pub(crate) fn check(args: CheckArgs) -> Result<Exit> {
    let manifest = input::read_optional_lends(args.lends.as_deref())?;
    let mut fix_crashed = false;
    if args.fix || args.diff {
        match fixes(&args, &input::collect(&args.paths, manifest.is_some())?, manifest.as_ref())? {
            Fixed::Diffed(exit) => return Ok(exit),
            Fixed::Written { crashed } => fix_crashed = crashed,
        }
    }
    // A rename moved files: the paths are walked after the fixes.
    let checked = check_paths(&args.paths, manifest.as_ref(), args.offline)?;
    say_skipped(checked.foreign_skipped);
    let exit = finish_denying(checked.reports, &args.output, args.output.deny_warnings || checked.deny_warnings);
    Ok(if fix_crashed { Exit::Refused } else { exit })
}

/// What `jr2 check PATH...` found, before it is printed: each file's report with whether its
/// check ran to the end (`false`: a bug stopped it), suppressions applied; how many foreign doors
/// were not read; whether a `jr2c.toml` denies warnings. The Node addon (`npm/napi`) returns the
/// same reports.
pub struct Checked {
    pub reports: Vec<(FileReport, bool)>,
    pub foreign_skipped: usize,
    pub deny_warnings: bool,
}

/// Checks the paths as `jr2 check` does (no fixes): a path that cannot be read ends the run
/// before anything is checked. `offline`: no foreign dispatch target's door is read.
pub fn check_paths(paths: &[std::path::PathBuf], manifest: Option<&LendManifest>, offline: bool) -> Result<Checked> {
    let inputs = input::collect(paths, manifest.is_some())?;
    let texts = read_inputs(&inputs)?;
    let mut reports = check_all(texts, manifest);
    reports.extend(super::machine::check_machines(&inputs.machines)?);
    for (report, ok) in check_in_instance(&inputs.in_instance) {
        merge_report(&mut reports, report, ok);
    }
    // An Instance's named Charts get their wrapper's manifest; `--lends` is for Charts outside one.
    // Foreign doors are read over HTTP unless `--offline`, each distinct one once in the run.
    let doors = (!offline && !inputs.instances.is_empty()).then(super::doors::HttpDoors::new);
    let source = doors.as_ref().map(|d| d as &dyn check::doors::DoorSource);
    let mut foreign_skipped = 0;
    for root in &inputs.instances {
        reports.extend(config_reports(root));
        let report = check::instance::check_instance_with(root, source);
        unreadable(&report)?;
        foreign_skipped += report.foreign_skipped;
        for path in &report.internal_errors {
            eprintln!("jr2: internal error while checking {}; this is a bug in jr2, please report it", display(path));
        }
        for file in report.files {
            let crashed = report.internal_errors.contains(&file.path);
            reports.push((file_report(file), !crashed));
        }
    }
    let (reports, deny_warnings) = suppressed(reports)?;
    Ok(Checked { reports, foreign_skipped, deny_warnings })
}

/// The Instance's config, `jr2.config.ts`, where it has one, as `jr2 check jr2.config.ts` and
/// `jr2 up --check` read it: its own report first, then each file it imports that has a
/// diagnostic. What it names of the Workflows (MCP servers, secrets, credentials) is the
/// pre-flight's (`jr2 up --check`). So `jr2 check DIR` counts the files `jr2 up --check DIR` does.
fn config_reports(root: &std::path::Path) -> Vec<(FileReport, bool)> {
    if !root.join(check::preflight::config::CONFIG_FILE).is_file() {
        return Vec::new();
    }
    let read = check::preflight::config::read_config(root);
    let mut reports = Vec::new();
    for (i, file) in read.files.into_iter().enumerate() {
        let diagnostics: Vec<_> =
            read.diagnostics.iter().filter(|d| d.file.0 as usize == i).map(|d| d.diagnostic.clone()).collect();
        if i == 0 || !diagnostics.is_empty() {
            reports.push((FileReport { path: display(&file.path), text: file.text, diagnostics }, true));
        }
    }
    reports
}

/// The paths an Instance check could not read (what the check before it did not catch: a
/// Workflow that is no UTF-8 text, a file gone or changed since): the run's end, exit 2, one line
/// each.
pub(crate) fn unreadable(report: &check::instance::InstanceReport) -> Result<()> {
    if report.unreadable.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> =
        report.unreadable.iter().map(|u| format!("cannot read {}: {}", display(&u.path), u.why)).collect();
    Err(super::UsageError(lines.join("\njr2: ")))
}

/// Reads every Chart and checks that every other input can be read, so that an unreadable one
/// stops the run before any output. A Chart that is no UTF-8 text is refused (json-syntax) and
/// the rest checked.
fn read_inputs(inputs: &input::Inputs) -> Result<Vec<(String, ChartText)>> {
    let mut texts = Vec::with_capacity(inputs.charts.len());
    for path in &inputs.charts {
        texts.push((display(path), input::read_chart(path)?));
    }
    for path in inputs.machines.iter().chain(&inputs.in_instance) {
        let file_type = std::fs::metadata(path)
            .map_err(|e| super::UsageError(format!("cannot read {}: {e}", display(path))))?
            .file_type();
        input::check_readable(path, file_type)?;
        // A source file of an Instance given alone that is no UTF-8 text cannot be read (exit 2),
        // as the Instance check says of it; a named Chart's bytes are its json-syntax refusal.
        let chart = path.extension().is_some_and(|e| e == "json");
        if inputs.in_instance.contains(path) && !chart {
            base::read::read_text(path)
                .map_err(|e| super::UsageError(format!("cannot read {}: {e}", display(path))))?;
        }
    }
    for root in &inputs.instances {
        input::check_instance_files(root, true)?;
    }
    Ok(texts)
}

/// The files of an Instance given without their Instance folder ([`input::Inputs::in_instance`]),
/// each as the Instance check reports it, over one compiler database (so the Instance is
/// checked once for all of them): a named Chart against its wrapper's Open body, a Workflow
/// with the Instance rules, followed by the files it imports that have a diagnostic, a helper
/// module with what its importers found in it, the config as the config.
fn check_in_instance(paths: &[std::path::PathBuf]) -> Vec<(FileReport, bool)> {
    if paths.is_empty() {
        return Vec::new();
    }
    machine::eval::on_evaluator_stack(|| {
        let mut db = db::Database::new();
        let mut out: Vec<(FileReport, bool)> = Vec::new();
        for path in paths {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut files = vec![(path.clone(), db.diagnostics(path))];
                // A Workflow's imported files with a diagnostic, as `jr2 check FILE.ts` lists them.
                if let Some(compiled) = db.checked_compilation(path) {
                    for file in compiled.files.iter().skip(1) {
                        let found = db.diagnostics(&file.path);
                        if !found.is_empty() {
                            files.push((file.path.clone(), found));
                        }
                    }
                }
                files
                    .into_iter()
                    .map(|(p, diagnostics)| {
                        let text = db.text(&p).unwrap_or_default();
                        FileReport { path: display(&p), text, diagnostics }
                    })
                    .collect::<Vec<_>>()
            }));
            match found {
                Ok(files) => files.into_iter().for_each(|f| merge_report(&mut out, f, true)),
                Err(_) => {
                    eprintln!(
                        "jr2: internal error while checking {}; this is a bug in jr2, please report it",
                        display(path)
                    );
                    out.push((FileReport { path: display(path), text: String::new(), diagnostics: Vec::new() }, false));
                }
            }
        }
        out
    })
}

/// Adds a file's report; a file reported already gains the new diagnostics only.
fn merge_report(reports: &mut Vec<(FileReport, bool)>, report: FileReport, ok: bool) {
    match reports.iter_mut().find(|(r, _)| r.path == report.path) {
        Some((seen, seen_ok)) => {
            *seen_ok &= ok;
            for d in report.diagnostics {
                if !seen.diagnostics.contains(&d) {
                    seen.diagnostics.push(d);
                }
            }
        }
        None => reports.push((report, ok)),
    }
}

/// What `--fix` / `--diff` did.
enum Fixed {
    /// `--diff` printed the fixes: the run ends with this exit code.
    Diffed(Exit),
    /// `--fix` wrote them (`crashed`: working them out hit a bug, and nothing was fixed).
    Written { crashed: bool },
}

/// `--fix`: works the fixes out and writes them; `--diff` prints them instead.
fn fixes(args: &CheckArgs, inputs: &input::Inputs, manifest: Option<&LendManifest>) -> Result<Fixed> {
    read_inputs(inputs)?;
    super::fix::check_configs(inputs).map_err(|e| super::UsageError(e.0))?;
    let flag = if args.diff { "--diff" } else { "--fix" };
    // A panic while working the fixes out is a bug: nothing is fixed, and the run says so.
    let worked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| super::fix::plan(inputs, manifest)));
    let crashed = worked.is_err();
    if crashed {
        eprintln!("jr2: {flag}: internal error while working out the fixes; this is a bug in jr2, please report it");
    }
    let plan = worked.unwrap_or_default();
    say_left(&plan, flag);
    let (n, files) = (plan.fixed, plan.files());
    if args.diff {
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(plan.diff().as_bytes()).and_then(|()| stdout.flush());
        eprintln!("jr2: --diff: would fix {} in {}", diagnostics_n(n), files_n(files));
        return Ok(Fixed::Diffed(if plan.changes.is_empty() && !crashed { Exit::Clean } else { Exit::Refused }));
    }
    plan.write().map_err(|e| super::UsageError(format!("cannot write the fixes: {e}")))?;
    eprintln!("jr2: --fix: fixed {} in {}", diagnostics_n(n), files_n(files));
    Ok(Fixed::Written { crashed })
}

fn diagnostics_n(n: usize) -> String {
    if n == 1 {
        "1 diagnostic".into()
    } else {
        format!("{n} diagnostics")
    }
}

fn files_n(n: usize) -> String {
    if n == 1 {
        "1 file".into()
    } else {
        format!("{n} files")
    }
}

/// One line on stderr per fixable diagnostic whose fix was not applied, and why (`flag`: `--fix`
/// or `--diff`).
fn say_left(plan: &super::fix::Plan, flag: &str) {
    for l in &plan.left {
        eprintln!("jr2: {flag}: not fixed: {}: {}: {}", display(&l.path), l.code, l.why);
    }
}

/// With `--offline`, one line on stderr: how many foreign doors were not read.
pub(super) fn say_skipped(skipped: usize) {
    if skipped > 0 {
        let doors = if skipped == 1 { "door is" } else { "doors are" };
        eprintln!("jr2: --offline: {skipped} foreign dispatch target {doors} not read, so not compared");
    }
}

/// `jr2 chart check CHART.json --lends LENDS.json`.
pub(crate) fn chart_check(args: ChartCheckArgs) -> Result<Exit> {
    let manifest = input::read_lends(&args.lends)?;
    let text = input::read_chart(&args.chart)?;
    let name = if args.chart.as_os_str() == "-" { "<stdin>".to_string() } else { display(&args.chart) };
    let reports = check_all(vec![(name, text)], Some(&manifest));
    Ok(finish(reports, &args.output))
}

/// Admits one Chart text. A panic in the door is a bug; it is reported, not a crash.
pub(crate) fn admit(path: &str, text: &str, manifest: Option<&LendManifest>) -> Option<check::door::Admission> {
    caught(path, || check::door::admit(text, manifest))
}

/// A door's run over the Chart at `path`; a panic is reported as a bug, not a crash.
fn caught<M>(path: &str, run: impl FnOnce() -> check::door::Admission<M>) -> Option<check::door::Admission<M>> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(admission) => Some(admission),
        Err(_) => {
            eprintln!("jr2: internal error while checking {path}; this is a bug in jr2, please report it");
            None
        }
    }
}

/// One Chart's report, as `jr2 check` and `jr2 chart check` make it (`false`: the door hit a
/// bug). `path` is the name the report gives the file. A Chart with no Open body says what was
/// not checked (`door::check_lone`).
pub fn check_chart(path: String, text: ChartText, manifest: Option<&LendManifest>) -> (FileReport, bool) {
    let text = match text {
        ChartText::Text(text) => text,
        ChartText::NotUtf8 { lossy, at } => {
            let diagnostics = vec![check::rules::chart::json_syntax::not_utf8(&lossy, at)];
            return (FileReport { path, text: lossy, diagnostics }, true);
        }
    };
    match caught(&path, || check::door::check_lone(&text, manifest)) {
        Some(a) => (FileReport { path, text, diagnostics: a.diagnostics }, true),
        None => (FileReport { path, text, diagnostics: Vec::new() }, false),
    }
}

/// Checks the texts on up to two threads (or as many as the machine has), keeping their order.
fn check_all(texts: Vec<(String, ChartText)>, manifest: Option<&LendManifest>) -> Vec<(FileReport, bool)> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let check_one = |(path, text): (String, ChartText)| check_chart(path, text, manifest);
    if threads == 1 || texts.len() < 2 {
        return texts.into_iter().map(check_one).collect();
    }
    let chunk = texts.len().div_ceil(threads);
    let mut chunks: Vec<Vec<(String, ChartText)>> = Vec::new();
    let mut rest = texts.into_iter().peekable();
    while rest.peek().is_some() {
        chunks.push(rest.by_ref().take(chunk).collect());
    }
    std::thread::scope(|s| {
        let handles: Vec<_> =
            chunks.into_iter().map(|c| s.spawn(move || c.into_iter().map(check_one).collect::<Vec<_>>())).collect();
        // `admit` panics are caught inside `check_one`, so a join error cannot happen; should
        // one, its files are simply missing from the run rather than crashing it.
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// The reports as the run reports them, after each file's suppressions and config
/// (`check::suppress`: the `jr2c.toml` above each file, its inline `jr2-ignore[...]`), with each
/// config's unused `[[suppress]]` entries reported in the config file; and whether a config sets
/// `deny-warnings`. A bad config ends the run (exit 2), naming its line.
fn suppressed(reports: Vec<(FileReport, bool)>) -> Result<(Vec<(FileReport, bool)>, bool)> {
    let mut run = check::suppress::Suppressions::new();
    let mut out = Vec::with_capacity(reports.len());
    for (mut report, ok) in reports {
        let path = std::path::PathBuf::from(&report.path);
        // A clean Workflow of an Instance comes without its text: its inline suppressions are
        // read from disk (each is then unused).
        if report.text.is_empty() && report.path.ends_with(".ts") {
            if let Ok(text) = base::read::read_text(&path) {
                if text.contains("jr2-ignore[") {
                    report.text = text;
                }
            }
        }
        let diagnostics = std::mem::take(&mut report.diagnostics);
        report.diagnostics = run.report(&path, &report.text, diagnostics).map_err(|e| super::UsageError(e.0))?;
        out.push((report, ok));
    }
    for (path, text, diagnostics) in run.unused() {
        if !diagnostics.is_empty() {
            out.push((FileReport { path: display(&path), text, diagnostics }, true));
        }
    }
    Ok((out, run.deny_warnings()))
}

/// Prints the reports in the chosen format and picks the exit code.
pub(super) fn finish(checked: Vec<(FileReport, bool)>, output: &OutputArgs) -> Exit {
    finish_denying(checked, output, output.deny_warnings)
}

/// [`finish`], with warnings refused when `deny_warnings` (the flag, or a config's).
fn finish_denying(checked: Vec<(FileReport, bool)>, output: &OutputArgs, deny_warnings: bool) -> Exit {
    let crashed = checked.iter().any(|(_, ok)| !ok);
    let mut reports: Vec<FileReport> = checked.into_iter().map(|(r, _)| r).collect();
    if matches!(output.format, FormatArg::Human | FormatArg::Github) {
        super::terminal::reports(&mut reports);
    }
    let format = match output.format {
        FormatArg::Human => Format::Human { color: output.color.enabled(std::io::stdout().is_terminal()) },
        FormatArg::Json => Format::Json,
        FormatArg::Sarif => Format::Sarif,
        FormatArg::Github => Format::Github,
    };
    let text = render::render(format, &reports, &check::rules::all());
    let mut stdout = std::io::stdout().lock();
    // A closed stdout (`jr2 check | head`) is not an error worth a panic.
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
    exit_code(Summary::of(&reports), deny_warnings, crashed)
}

/// The exit code of a run: 1 on an error (or a warning under `--deny-warnings`, or a crash).
pub fn exit_code(summary: Summary, deny_warnings: bool, crashed: bool) -> Exit {
    if summary.errors > 0 || (deny_warnings && summary.warnings > 0) || crashed {
        Exit::Refused
    } else {
        Exit::Clean
    }
}

/// A checked file of an Instance as the renderers take it: its path as shown, its text, its
/// diagnostics (`jr2 check`, `jr2 up`, `jr2 serve`).
pub(super) fn file_report(file: check::instance::CheckedFile) -> FileReport {
    FileReport { path: display(&file.path), text: file.text, diagnostics: file.diagnostics }
}

/// [`file_report`] of each.
pub(super) fn file_reports(files: Vec<check::instance::CheckedFile>) -> Vec<FileReport> {
    files.into_iter().map(file_report).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(errors: usize, warnings: usize) -> Summary {
        Summary { files: 1, errors, warnings, unchecked: 0 }
    }

    #[test]
    fn exit_codes() {
        assert_eq!(exit_code(summary(0, 0), false, false), Exit::Clean);
        assert_eq!(exit_code(summary(0, 2), false, false), Exit::Clean);
        assert_eq!(exit_code(summary(0, 2), true, false), Exit::Refused);
        assert_eq!(exit_code(summary(1, 0), false, false), Exit::Refused);
        assert_eq!(exit_code(summary(0, 0), false, true), Exit::Refused);
    }
}
