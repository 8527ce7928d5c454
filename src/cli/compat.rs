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
pub(crate) fn schema_compat(args: CompatArgs) -> Result<Exit> {
    let slot = (name(&args.slot), input::read_text(&args.slot)?);
    let door = (name(&args.door), input::read_text(&args.door)?);
    Ok(finish(compat_reports(slot, door)?, &args.output))
}

/// The two reports of a compatibility check, the slot's and the door's, each given as the name
/// its report shows and its text (the Node addon's `compat` too); a text that is not a JSON
/// Schema object is a usage error naming it.
pub fn compat_reports(slot: (String, String), door: (String, String)) -> Result<Vec<(FileReport, bool)>> {
    let arena = json::Arena::new();
    let report = compat::check(&schema(&slot.0, &slot.1, &arena)?, &schema(&door.0, &door.1, &arena)?);
    Ok(vec![
        (FileReport { path: slot.0, text: slot.1, diagnostics: report.slot }, true),
        (FileReport { path: door.0, text: door.1, diagnostics: report.door }, true),
    ])
}

fn name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        display(path)
    }
}

/// A schema's spanned tree (`name` as messages give it): valid JSON, an object or a boolean at
/// the root (`true` is the JSON Schema every value meets, `false` the one none does).
fn schema<'a>(name: &str, text: &'a str, arena: &'a json::Arena) -> Result<Json<'a>> {
    if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
        return Err(UsageError(format!("cannot read {name}: not valid JSON: {e}")));
    }
    let parsed = json::parse(text, arena);
    if let Some(e) = parsed.errors.first() {
        return Err(UsageError(format!("cannot read {name}: {}", e.message)));
    }
    if !parsed.value.is_object() && !matches!(parsed.value.kind, json::JsonKind::Bool(_)) {
        return Err(UsageError(format!(
            "cannot read {name}: not a JSON Schema: its root is {}, not an object or a boolean",
            parsed.value.type_name()
        )));
    }
    Ok(parsed.value)
}
