//! `jr2 schema compat --slot SLOT.json --door DOOR.json`: ADR-0071's door compatibility of two
//! JSON Schemas, a dispatch slot's `input` against its callee's door. The findings are reported
//! on both files, each in its own report.

use super::args::CompatArgs;
use super::check::finish;
use super::input::{self, display};
use super::{Exit, Result, UsageError};
use check::rules::compat;
use diagnostics::FileReport;
use std::path::Path;
use syntax::json::{self, Json};

/// `jr2 schema compat`: exit 0 when the pair is compatible (warnings allowed), 1 on a mismatch,
/// 2 when a file cannot be read or is not a JSON Schema object.
pub fn schema_compat(args: CompatArgs) -> Result<Exit> {
    let slot_text = input::read_text(&args.slot)?;
    let door_text = input::read_text(&args.door)?;
    let slot = schema(&args.slot, &slot_text)?;
    let door = schema(&args.door, &door_text)?;
    let report = compat::check(&slot, &door);
    let reports = vec![
        (FileReport { path: name(&args.slot), text: slot_text, diagnostics: report.slot }, true),
        (FileReport { path: name(&args.door), text: door_text, diagnostics: report.door }, true),
    ];
    Ok(finish(reports, &args.output))
}

fn name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        display(path)
    }
}

/// A schema file's spanned tree: valid JSON, an object or a boolean at the root (`true` is the
/// JSON Schema every value meets, `false` the one none does).
fn schema(path: &Path, text: &str) -> Result<Json> {
    if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
        return Err(UsageError(format!("cannot read {}: not valid JSON: {e}", name(path))));
    }
    let parsed = json::parse(text);
    if let Some(e) = parsed.errors.first() {
        return Err(UsageError(format!("cannot read {}: {}", name(path), e.message)));
    }
    if !parsed.value.is_object() && !matches!(parsed.value.kind, json::JsonKind::Bool(_)) {
        return Err(UsageError(format!(
            "cannot read {}: not a JSON Schema: its root is {}, not an object or a boolean",
            name(path),
            parsed.value.type_name()
        )));
    }
    Ok(parsed.value)
}
