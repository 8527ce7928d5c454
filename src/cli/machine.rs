//! Machines (`.ts` Workflows) in the CLI: `jr2 check`, `jr2 ir` and `jr2 parts` on them.

use super::args::PartsArgs;
use super::input::display;
use super::{Exit, Result, UsageError};
use check::compile::{compile_file, Compiled};
use diagnostics::{Diagnostic, FileReport};
use std::path::{Path, PathBuf};

/// The reports of one compiled Workflow: its own file always, each imported file that has a
/// diagnostic.
pub(super) fn reports_of(compiled: &Compiled) -> Vec<FileReport> {
    let mut reports: Vec<FileReport> = Vec::new();
    for (i, file) in compiled.files.iter().enumerate() {
        let diagnostics: Vec<Diagnostic> =
            compiled.diagnostics.iter().filter(|d| d.file.0 as usize == i).map(|d| d.diagnostic.clone()).collect();
        if i == 0 || !diagnostics.is_empty() {
            reports.push(FileReport { path: display(&file.path), text: file.text.clone(), diagnostics });
        }
    }
    reports
}

/// Checks Workflows; a file two Workflows import is reported once. A Workflow the compiler could
/// not read (no UTF-8 text, or gone since it was checked) is the run's end, exit 2.
pub(super) fn check_machines(paths: &[PathBuf]) -> Result<Vec<(FileReport, bool)>> {
    // One big-stack evaluator thread for the whole batch, not a hand-off per file.
    machine::eval::on_evaluator_stack(|| check_each(paths))
}

fn check_each(paths: &[PathBuf]) -> Result<Vec<(FileReport, bool)>> {
    let mut out: Vec<(FileReport, bool)> = Vec::new();
    for path in paths {
        let compiled = match std::panic::catch_unwind(|| compile_file(path)) {
            Ok(c) => c,
            Err(_) => {
                eprintln!(
                    "jr2: internal error while checking {}; this is a bug in jr2, please report it",
                    display(path)
                );
                out.push((FileReport { path: display(path), text: String::new(), diagnostics: Vec::new() }, false));
                continue;
            }
        };
        unread(path, &compiled)?;
        for report in reports_of(&compiled) {
            match out.iter_mut().find(|(r, _)| r.path == report.path) {
                Some((seen, _)) => {
                    for d in report.diagnostics {
                        if !seen.diagnostics.contains(&d) {
                            seen.diagnostics.push(d);
                        }
                    }
                }
                None => out.push((report, true)),
            }
        }
    }
    Ok(out)
}

/// An entry file the compiler could not read: an unreadable path (exit 2), said as the system
/// says it, not the unresolved import the compilation reports it as.
fn unread(path: &Path, compiled: &Compiled) -> Result<()> {
    match &compiled.unread {
        Some(why) => Err(UsageError(format!("cannot read {}: {why}", display(path)))),
        None => Ok(()),
    }
}

fn compiled(path: &Path) -> Result<Compiled> {
    let meta = super::input::regular_file(path)?;
    // An entry file it cannot open is the run's end before the compiler reads it.
    super::input::check_readable(path, meta.file_type())?;
    let compiled = compile_file(path);
    unread(path, &compiled)?;
    Ok(compiled)
}

/// `jr2 ir WORKFLOW.ts`: the IR as JSON; diagnostics go to stderr.
pub(super) fn ir(path: &Path, color: bool) -> Result<(Option<serde_json::Value>, Exit)> {
    let compiled = compiled(path)?;
    let mut reports = reports_of(&compiled);
    super::terminal::reports(&mut reports);
    if reports.iter().any(|r| !r.diagnostics.is_empty()) {
        eprint!("{}", render::render(render::Format::Human { color }, &reports, &check::rules::all()));
    }
    let exit = if compiled.has_errors() { Exit::Refused } else { Exit::Clean };
    let value = match compiled.machine.as_ref().and_then(|m| m.executable()) {
        Some(m) => Some(super::other::ir_document(m)?),
        None => None,
    };
    Ok((value, exit))
}

/// `jr2 parts WORKFLOW.ts [--lends SLOT]`.
pub(super) fn parts(args: &PartsArgs) -> Result<(Option<serde_json::Value>, Exit)> {
    let compiled = compiled(&args.workflow)?;
    let Some(value) = compiled.value() else {
        let mut reports = reports_of(&compiled);
        super::terminal::reports(&mut reports);
        eprint!("{}", render::render(render::Format::Human { color: false }, &reports, &check::rules::all()));
        return Ok((None, Exit::Refused));
    };
    let json = match &args.lends {
        Some(slot) => match machine::parts::lend_manifest(value, slot) {
            Ok(m) => serde_json::to_value(m),
            Err(e) => return Err(UsageError(format!("{}: {e}", display(&args.workflow)))),
        },
        None => serde_json::to_value(machine::parts::parts_of(value)).map(|mut parts| {
            let pods = machine::parts::workspace_pods_of(value);
            if let (Some(obj), Ok(pods)) = (parts.as_object_mut(), serde_json::to_value(pods)) {
                obj.insert("workspacePods".into(), pods);
            }
            parts
        }),
    }
    .map_err(|e| UsageError(format!("cannot write JSON: {e}")))?;
    Ok((Some(json), Exit::Clean))
}
