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
pub fn check(args: CheckArgs) -> Result<Exit> {
    let manifest = input::read_optional_lends(args.lends.as_deref())?;
    let mut fix_crashed = false;
    if args.fix || args.diff {
        match fixes(&args, &input::collect(&args.paths)?, manifest.as_ref())? {
            Fixed::Diffed(exit) => return Ok(exit),
            Fixed::Written { crashed } => fix_crashed = crashed,
        }
    }
    // A rename moved files: the paths are walked after the fixes.
    let checked = check_paths(&args.paths, manifest.as_ref(), args.offline)?;
    say_skipped(checked.foreign_skipped);
    let exit = finish(checked.reports, &args.output);
    Ok(if fix_crashed { Exit::Refused } else { exit })
}

/// What `jr2 check PATH...` found, before it is printed: each file's report with whether its
/// check ran to the end (`false`: a bug stopped it), and how many foreign doors were not read.
/// The Node addon (`npm/napi`) returns the same reports.
pub struct Checked {
    pub reports: Vec<(FileReport, bool)>,
    pub foreign_skipped: usize,
}

/// Checks the paths as `jr2 check` does (no fixes): a path that cannot be read ends the run
/// before anything is checked. `offline`: no foreign dispatch target's door is read.
pub fn check_paths(paths: &[std::path::PathBuf], manifest: Option<&LendManifest>, offline: bool) -> Result<Checked> {
    let inputs = input::collect(paths)?;
    let texts = read_inputs(&inputs)?;
    let mut reports = check_all(texts, manifest);
    reports.extend(super::machine::check_machines(&inputs.machines));
    // An Instance's named Charts get their wrapper's manifest; `--lends` is for Charts outside one.
    // Foreign doors are read over HTTP unless `--offline`, each distinct one once in the run.
    let doors = (!offline && !inputs.instances.is_empty()).then(super::doors::HttpDoors::new);
    let source = doors.as_ref().map(|d| d as &dyn check::doors::DoorSource);
    let mut foreign_skipped = 0;
    for root in &inputs.instances {
        let report = check::instance::check_instance_with(root, source);
        foreign_skipped += report.foreign_skipped;
        for path in &report.internal_errors {
            eprintln!("jr2: internal error while checking {}; this is a bug in jr2, please report it", display(path));
        }
        for file in report.files {
            let crashed = report.internal_errors.contains(&file.path);
            reports.push((
                FileReport { path: display(&file.path), text: file.text, diagnostics: file.diagnostics },
                !crashed,
            ));
        }
    }
    Ok(Checked { reports, foreign_skipped })
}

/// Reads every Chart and checks that every other input can be read, so that an unreadable one
/// stops the run before any output. A Chart that is no UTF-8 text is refused (json-syntax) and
/// the rest checked.
fn read_inputs(inputs: &input::Inputs) -> Result<Vec<(String, ChartText)>> {
    let mut texts = Vec::with_capacity(inputs.charts.len());
    for path in &inputs.charts {
        texts.push((display(path), input::read_chart(path)?));
    }
    for path in &inputs.machines {
        let file_type = std::fs::metadata(path)
            .map_err(|e| super::UsageError(format!("cannot read {}: {e}", display(path))))?
            .file_type();
        input::check_readable(path, file_type)?;
    }
    for root in &inputs.instances {
        input::check_instance_files(root, false)?;
    }
    Ok(texts)
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
pub fn chart_check(args: ChartCheckArgs) -> Result<Exit> {
    let manifest = input::read_lends(&args.lends)?;
    let text = input::read_chart(&args.chart)?;
    let name = if args.chart.as_os_str() == "-" { "<stdin>".to_string() } else { display(&args.chart) };
    let reports = check_all(vec![(name, text)], Some(&manifest));
    Ok(finish(reports, &args.output))
}

/// Admits one Chart text. A panic in the door is a bug; it is reported, not a crash.
pub fn admit(path: &str, text: &str, manifest: Option<&LendManifest>) -> Option<check::door::Admission> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check::door::admit(text, manifest))) {
        Ok(admission) => Some(admission),
        Err(_) => {
            eprintln!("jr2: internal error while checking {path}; this is a bug in jr2, please report it");
            None
        }
    }
}

/// The refusal of a Chart that is no UTF-8 text (so no JSON text), at its first bad byte (in
/// its lossy text, the same offset: all before it is the same).
fn not_utf8(lossy: &str, at: usize) -> diagnostics::Diagnostic {
    let end = lossy[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let span = base::Span::new(at.min(u32::MAX as usize) as u32, end.min(u32::MAX as usize) as u32);
    check::rules::chart::json_syntax::JSON_SYNTAX.at(span, "the Chart file is not UTF-8 text, so it is no JSON text")
}

/// One Chart's report, as `jr2 check` and `jr2 chart check` make it (`false`: the door hit a
/// bug). `path` is the name the report gives the file.
pub fn check_chart(path: String, text: ChartText, manifest: Option<&LendManifest>) -> (FileReport, bool) {
    let text = match text {
        ChartText::Text(text) => text,
        ChartText::NotUtf8 { lossy, at } => {
            let diagnostics = vec![not_utf8(&lossy, at)];
            return (FileReport { path, text: lossy, diagnostics }, true);
        }
    };
    match admit(&path, &text, manifest) {
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

/// Prints the reports in the chosen format and picks the exit code.
pub(super) fn finish(checked: Vec<(FileReport, bool)>, output: &OutputArgs) -> Exit {
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
    exit_code(Summary::of(&reports), output.deny_warnings, crashed)
}

/// The exit code of a run: 1 on an error (or a warning under `--deny-warnings`, or a crash).
pub fn exit_code(summary: Summary, deny_warnings: bool, crashed: bool) -> Exit {
    if summary.errors > 0 || (deny_warnings && summary.warnings > 0) || crashed {
        Exit::Refused
    } else {
        Exit::Clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(errors: usize, warnings: usize) -> Summary {
        Summary { files: 1, errors, warnings }
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
