//! One renderer per output format, each reading the same data ([`diagnostics::FileReport`]):
//! `human` (ariadne), `json`, `sarif`, `github`; and `diff`, the unified diff of what
//! `jr2 check --diff` would change. The LSP's converter lives in the `lsp` crate, the only one
//! that knows LSP.

pub mod diff;
mod github;
pub mod human;
pub mod json;
pub mod sarif;

use diagnostics::{FileReport, Rule};

/// The output formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human { color: bool },
    Json,
    Sarif,
    Github,
}

/// Renders reports in one format. Each format is one module of this folder. `rules` is the
/// registry whose metadata SARIF describes each code with (`check::rules::all()`): a renderer
/// knows no rule of its own.
pub fn render(format: Format, reports: &[FileReport], rules: &[&'static Rule]) -> String {
    match format {
        Format::Human { color } => human::render(reports, color),
        Format::Json => json::render(reports),
        Format::Sarif => sarif::render(reports, rules),
        Format::Github => github::render(reports),
    }
}
