//! `jr2 schema`, `jr2 ir`, `jr2 explain` and `jr2 rules`.

use super::args::{ExplainArgs, IrArgs, LendsArg, PartsArgs, RulesArgs, RulesFormat};
use super::input::{self, display};
use super::{Exit, Result, UsageError};
use chart::{briefing, schema};
use diagnostics::FileReport;
use render::Format;
use std::io::IsTerminal;

/// Writes to stdout; a closed pipe (`jr2 schema chart | head`) is not worth a panic.
pub(super) fn print_out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}

fn pretty(value: &serde_json::Value) -> Result<String> {
    serde_json::to_string_pretty(value).map_err(|e| UsageError(format!("cannot write JSON: {e}")))
}

/// `jr2 schema chart [--lends L]`.
pub(super) fn schema_chart(args: LendsArg) -> Result<Exit> {
    let manifest = input::read_optional_lends(args.lends.as_deref())?;
    let value = match &manifest {
        Some(m) => schema::chart_schema_for(&m.declaration),
        None => schema::chart_schema(),
    };
    print_out(&(pretty(&value)? + "\n"));
    Ok(Exit::Clean)
}

/// `jr2 schema briefing [--lends L]`.
pub(super) fn schema_briefing(args: LendsArg) -> Result<Exit> {
    let manifest = input::read_optional_lends(args.lends.as_deref())?;
    let text = briefing::chart_briefing(manifest.as_ref().map(|m| &m.declaration));
    print_out(&text);
    if !text.ends_with('\n') {
        print_out("\n");
    }
    Ok(Exit::Clean)
}

/// The JSON `jr2 ir` prints of an IR: its identity (`ir::Machine::identity`) first, then the
/// IR's own fields, so that the document still reads as the IR.
pub(super) fn ir_document(machine: &ir::Machine) -> Result<serde_json::Value> {
    let value = serde_json::to_value(machine).map_err(|e| UsageError(format!("cannot write the IR: {e}")))?;
    let mut doc = serde_json::Map::new();
    doc.insert("identity".into(), serde_json::Value::String(machine.identity().to_string()));
    if let serde_json::Value::Object(fields) = value {
        doc.extend(fields);
    }
    Ok(serde_json::Value::Object(doc))
}

/// `jr2 ir CHART.json [--lends L]`: the IR of an admitted Chart; a refused one's diagnostics go
/// to stderr.
pub(super) fn ir(args: IrArgs) -> Result<Exit> {
    if super::scxml::is_scxml(&args.chart) {
        let (machine, exit) = super::scxml::load(&args.chart)?;
        let Some(machine) = machine else { return Ok(Exit::Refused) };
        print_out(&(pretty(&ir_document(&machine)?)? + "\n"));
        return Ok(exit);
    }
    if args.chart.extension().is_some_and(|e| e == "ts") {
        let (value, exit) = super::machine::ir(&args.chart, args.color.enabled(std::io::stderr().is_terminal()))?;
        if let Some(value) = value {
            print_out(&(pretty(&value)? + "\n"));
        }
        return Ok(exit);
    }
    let manifest = input::read_optional_lends(args.lends.as_deref())?;
    let text = input::read_text(&args.chart)?;
    let name = if args.chart.as_os_str() == "-" { "<stdin>".to_string() } else { display(&args.chart) };
    let Some(admission) = super::check::admit(&name, &text, manifest.as_ref()) else {
        return Ok(Exit::Refused);
    };
    let admitted = admission.admitted();
    let has_diagnostics = !admission.diagnostics.is_empty();
    let mut report = FileReport { path: name.clone(), text, diagnostics: admission.diagnostics };
    if has_diagnostics {
        let color = args.color.enabled(std::io::stderr().is_terminal());
        super::terminal::reports(std::slice::from_mut(&mut report));
        eprint!("{}", render::render(Format::Human { color }, std::slice::from_ref(&report), &check::rules::all()));
    }
    if !admitted {
        return Ok(Exit::Refused);
    }
    match admission.machine {
        Some(machine) => {
            print_out(&(pretty(&ir_document(&machine)?)? + "\n"));
            Ok(Exit::Clean)
        }
        None => {
            eprintln!("jr2: {name} was admitted but the door produced no IR for it");
            Ok(Exit::Refused)
        }
    }
}

/// `jr2 parts WORKFLOW.ts [--lends SLOT]`.
pub(super) fn parts(args: PartsArgs) -> Result<Exit> {
    let (value, exit) = super::machine::parts(&args)?;
    if let Some(value) = value {
        print_out(&(pretty(&value)? + "\n"));
    }
    Ok(exit)
}

/// `jr2 explain CODE`.
pub(super) fn explain(args: ExplainArgs) -> Result<Exit> {
    match check::rules::find(&args.code) {
        Some(rule) => {
            print_out(&rule.markdown());
            Ok(Exit::Clean)
        }
        None => {
            let known: Vec<&str> = check::rules::all().iter().map(|r| r.code).collect();
            let hint = base::suggest::did_you_mean(&args.code, &known);
            Err(UsageError(format!(
                "unknown code `{}`{hint}; known codes: {} (`jr2 rules` lists them with their summaries)",
                args.code,
                known.join(", ")
            )))
        }
    }
}

/// `jr2 rules [--format json]`: every rule of the registry (`check::rules::all()`), in the
/// docs' order, with its severity, door rule number and summary.
pub(super) fn rules(args: RulesArgs) -> Result<Exit> {
    let all = check::rules::all();
    match args.format {
        RulesFormat::Json => {
            let list: Vec<serde_json::Value> = all
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "code": r.code,
                        "severity": r.severity.as_str(),
                        "rule": r.rule,
                        "summary": r.summary.trim(),
                    })
                })
                .collect();
            print_out(&(pretty(&serde_json::Value::Array(list))? + "\n"));
        }
        RulesFormat::Human => {
            let width = all.iter().map(|r| r.code.len()).max().unwrap_or(0);
            let mut out = String::new();
            for r in &all {
                out.push_str(&format!("{:width$}  {:7}  {}\n", r.code, r.severity.as_str(), r.summary.trim()));
            }
            out.push_str(&format!("{} rules; `jr2 explain CODE` prints a rule's page\n", all.len()));
            print_out(&out);
        }
    }
    Ok(Exit::Clean)
}
