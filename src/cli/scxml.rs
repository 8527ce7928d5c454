//! An SCXML document (`.scxml`) through the SCXML front end, for `jr2 ir`, `jr2 sim` and
//! `jr2 graph`: its IR, with each of the front end's faults printed on stderr as
//! `FILE:LINE:COL: warning: MESSAGE` (or `error` where no IR came of the document).

use super::input::{self, display};
use super::{Exit, Result};
use std::path::Path;

/// Is `path` an SCXML document (by its extension)?
pub(super) fn is_scxml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "scxml" || e == "scxml.xml")
}

/// The IR of the SCXML document at `path`, its faults printed; `Exit::Refused` where it has any.
pub(super) fn load(path: &Path) -> Result<(Option<ir::Machine>, Exit)> {
    let text = input::read_text(path)?;
    // Its `src`s name files of its folder.
    let lowered = scxml::lower_in(&text, path.parent());
    let name = display(path);
    let severity = if lowered.machine.is_some() { "warning" } else { "error" };
    let index = base::line_index::LineIndex::new(&text);
    for f in &lowered.faults {
        let at = index.position(&text, f.span.start);
        let line = format!("{name}:{}:{}: {severity}: {}", at.line, at.column, f.message);
        eprintln!("{}", super::terminal::printable(&line));
    }
    let exit = if lowered.faults.is_empty() { Exit::Clean } else { Exit::Refused };
    Ok((lowered.machine, exit))
}
