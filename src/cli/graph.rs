//! `jr2 graph FILE [--format mermaid|dot|svg] [--state PATH]`: a picture of a Machine (`.ts`) or
//! a Chart (`.json`) from its IR, drawn by the `graph` crate.
//!
//! The IR comes as `jr2 ir` makes it. What the picture names beyond the IR (an Agent's model, an
//! Effect's placement, which Machine slot is an Open body) the CLI reads here, into
//! `graph::Notes`: from the Machine's carried parts, or for a Chart from its lend manifest, its
//! wrapper's parts and its own minted `agents`. A named Chart of an Instance
//! (`workflows/<wrapper>/<chart>.json`) is admitted against its wrapper's Open body, as
//! `jr2 check DIR` admits it; `--lends` gives the manifest of a Chart outside one.

use super::args::{GraphArgs, GraphFormat};
use super::input::{self, display};
use super::{Exit, Result, UsageError};
use check::compile::{compile_file, Compiled};
use diagnostics::FileReport;
use kit::LendManifest;
use machine::parts::{self, CarriedParts};
use render::Format;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

pub(super) fn graph(args: GraphArgs) -> Result<Exit> {
    let color = args.color.enabled(std::io::stderr().is_terminal());
    let (machine, notes, exit) = load(&args.file, args.lends.as_deref(), color)?;
    let Some(machine) = machine else { return Ok(Exit::Refused) };
    let options = graph::Options { state: args.state.as_deref(), notes: Some(&notes) };
    let drawn = match args.format {
        GraphFormat::Mermaid => graph::mermaid(&machine, options),
        GraphFormat::Dot => graph::dot(&machine, options),
        GraphFormat::Svg => graph::svg(&machine, options),
    };
    match drawn {
        Ok(text) => {
            super::other::print_out(&text);
            Ok(exit)
        }
        // No such state, no Graphviz: the command cannot run as asked (exit 2).
        Err(e) => Err(UsageError(format!("{}: {e}", display(&args.file)))),
    }
}

type Drawn = (Option<ir::Machine>, graph::Notes, Exit);

/// The IR of a Machine (`.ts`) or a Chart (`.json`, `-`: stdin), with what it was found to be
/// (its diagnostics printed on stderr) and the notes of its slots; `jr2 sim` runs the same IR.
pub(super) fn load(file: &Path, lends: Option<&Path>, color: bool) -> Result<Drawn> {
    load_as(file, lends, color, false)
}

/// [`load`] for a run (`jr2 sim`): a Machine with a part the run needs and the IR does not hold
/// (`not-executable`) is refused, its lines printed as errors, and no IR is given.
pub(super) fn load_for_run(file: &Path, lends: Option<&Path>, color: bool) -> Result<Drawn> {
    load_as(file, lends, color, true)
}

fn load_as(file: &Path, lends: Option<&Path>, color: bool, run: bool) -> Result<Drawn> {
    if super::scxml::is_scxml(file) {
        let (machine, exit) = super::scxml::load(file)?;
        return Ok((machine, graph::Notes::default(), exit));
    }
    if file.extension().is_some_and(|e| e == "ts") {
        machine(file, color, run)
    } else {
        chart(file, lends, color)
    }
}

fn report(reports: &[FileReport], color: bool) {
    if reports.iter().any(|r| !r.diagnostics.is_empty()) {
        eprint!("{}", render::render(Format::Human { color }, reports, &check::rules::all()));
    }
}

/// A Machine: its IR (drawn even where the walk refused it, as `jr2 ir` prints it, exit 1) and
/// notes from its carried parts.
fn machine(path: &Path, color: bool, run: bool) -> Result<Drawn> {
    let mut compiled = compile(path)?;
    let refused = run && compiled.refuse_for_run();
    report(&super::machine::reports_of(&compiled), color);
    if refused {
        eprintln!("jr2: {} cannot run: the IR does not hold a part the run needs (not-executable)", display(path));
        return Ok((None, graph::Notes::default(), Exit::Refused));
    }
    let exit = if compiled.has_errors() { Exit::Refused } else { Exit::Clean };
    let notes = compiled.value().map(|v| notes_of_parts(&parts::parts_of(v))).unwrap_or_default();
    Ok((compiled.machine.as_ref().and_then(|ir| ir.executable()).cloned(), notes, exit))
}

fn compile(path: &Path) -> Result<Compiled> {
    if !path.is_file() {
        return Err(UsageError(format!("cannot read {}: no such file", display(path))));
    }
    Ok(compile_file(path))
}

/// What a Machine's parts say of its slots, read from their JSON (`jr2 parts`'s).
fn notes_of_parts(p: &CarriedParts) -> graph::Notes {
    serde_json::to_value(p).map(|v| graph::Notes::from_parts(&v)).unwrap_or_default()
}

/// A Chart: admitted with `--lends`, or as a named Chart against its wrapper's Open body, or
/// with no manifest; its IR and notes from the manifest, the wrapper and its own `agents`.
fn chart(file: &Path, lends: Option<&Path>, color: bool) -> Result<Drawn> {
    let text = input::read_text(file)?;
    let name = if file.as_os_str() == "-" { "<stdin>".to_string() } else { display(file) };
    let mut wrapper_parts = None;
    let manifest = match lends {
        Some(path) => Some(input::read_lends(path)?),
        None => match named_chart_wrapper(file) {
            Some(wrapper) => {
                let compiled = compile(&wrapper)?;
                let Some(value) = compiled.value() else {
                    report(&super::machine::reports_of(&compiled), color);
                    eprintln!("jr2: {name}: its wrapper {} does not compile", display(&wrapper));
                    return Ok((None, graph::Notes::default(), Exit::Refused));
                };
                let carried = parts::parts_of(value);
                let manifests: Vec<LendManifest> = carried
                    .open_bodies
                    .iter()
                    .filter(|o| o.path.is_empty())
                    .filter_map(|o| parts::lend_manifest(value, &o.slot).ok())
                    .collect();
                wrapper_parts = Some(carried);
                // The Open body the Chart fits; the first where it fits none (its refusals follow).
                let fits = manifests.iter().position(|m| check::door::check(&text, Some(m)).admitted());
                fits.or((!manifests.is_empty()).then_some(0)).map(|i| manifests[i].clone())
            }
            None => None,
        },
    };
    let Some(admission) = super::check::admit(&name, &text, manifest.as_ref()) else {
        return Ok((None, graph::Notes::default(), Exit::Refused));
    };
    let admitted = admission.admitted();
    let report_of = FileReport { path: name, text: text.clone(), diagnostics: admission.diagnostics };
    report(std::slice::from_ref(&report_of), color);
    if !admitted {
        return Ok((None, graph::Notes::default(), Exit::Refused));
    }
    let mut notes = wrapper_parts.as_ref().map(notes_of_parts).unwrap_or_default();
    notes.lend(&manifest.as_ref().and_then(|m| serde_json::to_value(m).ok()).unwrap_or_default());
    if let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) {
        notes.mint(&doc);
    }
    Ok((admission.machine, notes, Exit::Clean))
}

/// `ROOT/workflows/WRAPPER.ts` for a Chart at `ROOT/workflows/WRAPPER/CHART.json` in an Instance.
fn named_chart_wrapper(path: &Path) -> Option<PathBuf> {
    if path.as_os_str() == "-" {
        return None; // stdin is no named Chart
    }
    let path = std::path::absolute(path).ok()?;
    let wrapper_dir = path.parent()?;
    let workflows = wrapper_dir.parent()?;
    let root = workflows.parent()?;
    if workflows.file_name()? != "workflows" || !check::instance::is_instance(root) {
        return None;
    }
    let wrapper = workflows.join(format!("{}.ts", wrapper_dir.file_name()?.to_str()?));
    wrapper.is_file().then_some(wrapper)
}
