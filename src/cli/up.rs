//! `jr2 up --check [DIR]`: the pre-flight of an Instance (`check::preflight`), reported as
//! `jr2 check` reports (formats, exit codes), with what `jr2 up` would list for each Workflow:
//! printed before the diagnostics in the human format, the `up` field of the JSON document.
//! SARIF and GitHub annotations carry the diagnostics only.

use super::args::{FormatArg, UpArgs};
use super::check::exit_code;
use super::input::display;
use super::{Exit, Result, UsageError};
use check::preflight::{check_up_with, listing};
use diagnostics::{FileReport, Summary};
use render::Format;
use std::io::{IsTerminal, Write};

/// `jr2 up [--check] [DIR]`.
pub(super) fn up(args: UpArgs) -> Result<Exit> {
    if !args.check {
        return Err(UsageError(
            "this version of jr2 does not run an Instance yet: `jr2 up --check [DIR]` checks it and lists what each Workflow would run"
                .into(),
        ));
    }
    let dir = &args.dir;
    let meta = std::fs::metadata(dir).map_err(|e| UsageError(format!("cannot read {}: {e}", display(dir))))?;
    if !meta.is_dir() || !check::instance::is_instance(dir) {
        return Err(UsageError(format!(
            "{} is not an Instance folder: `jr2 up --check` takes a folder with `workflows/` (and `jr2.config.ts`)",
            display(dir)
        )));
    }
    super::input::check_instance_files(dir, true)?;
    // Foreign doors are read over HTTP unless `--offline`, as `jr2 check` does.
    let doors = (!args.offline).then(super::doors::HttpDoors::new);
    let up = check_up_with(dir, doors.as_ref().map(|d| d as &dyn check::doors::DoorSource));
    super::check::unreadable(&up.report)?;
    super::check::say_skipped(up.report.foreign_skipped);
    for path in &up.report.internal_errors {
        eprintln!("jr2: internal error while checking {}; this is a bug in jr2, please report it", display(path));
    }
    let crashed = !up.report.internal_errors.is_empty();
    let mut reports: Vec<FileReport> = up
        .report
        .files
        .into_iter()
        .map(|f| FileReport { path: display(&f.path), text: f.text, diagnostics: f.diagnostics })
        .collect();
    if matches!(args.output.format, FormatArg::Human | FormatArg::Github) {
        super::terminal::reports(&mut reports);
    }
    let text = match args.output.format {
        FormatArg::Human => {
            let color = args.output.color.enabled(std::io::stdout().is_terminal());
            // The listing's names come from the Workflows; without colour it has no escape of
            // its own, so all of it is made printable (with colour, its names are not: see
            // issue 16's report).
            let mut listed = listing::human(&up.workflows, color);
            if !color {
                listed = super::terminal::printable(&listed).into_owned();
            }
            listed + &render::render(Format::Human { color }, &reports, &check::rules::all())
        }
        FormatArg::Json => {
            let mut doc = render::json::document(&reports);
            let workflows = serde_json::to_value(&up.workflows)
                .map_err(|e| UsageError(format!("cannot write the listing as JSON: {e}")))?;
            if let Some(o) = doc.as_object_mut() {
                o.insert("up".into(), serde_json::json!({ "workflows": workflows }));
            }
            let mut text =
                serde_json::to_string_pretty(&doc).map_err(|e| UsageError(format!("cannot write JSON: {e}")))?;
            text.push('\n');
            text
        }
        FormatArg::Sarif => render::render(Format::Sarif, &reports, &check::rules::all()),
        FormatArg::Github => render::render(Format::Github, &reports, &check::rules::all()),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
    Ok(exit_code(Summary::of(&reports), args.output.deny_warnings, crashed))
}
