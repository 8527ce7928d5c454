//! Diagnostics as data, and one renderer per output format.
//!
//! Invariant: rules build [`Diagnostic`] values and never format output. Every output format is
//! one module here, reading the same data: `human` (ariadne), `json`, `sarif`, `github`. The LSP
//! converter lives in the `lsp` crate, the only one that knows LSP.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use crate::syntax::line_index::{LineIndex, Position};
use crate::Span;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A secondary place that explains the primary one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A place in another file that explains the primary one (the LSP's related information): its
/// path as the report names files, its span there, and its position, since a renderer of the
/// primary file does not hold that file's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Related {
    pub path: String,
    pub span: Span,
    pub start: Position,
    pub end: Position,
    pub message: String,
}

/// One text edit of a fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

/// A machine-applicable fix: what it does, and its edits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub message: String,
    pub edits: Vec<Edit>,
}

/// One finding, as data. Renderers turn it into text; rules only build it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The stable kebab-case code; `docs/rules/<code>.md` explains it.
    pub code: &'static str,
    pub severity: Severity,
    /// One line. Where a seed gives a refusal's text, this is that text, placeholders filled.
    pub message: String,
    /// The primary span, the smallest that shows the fault.
    pub span: Span,
    /// The primary label's text, if any beyond the message.
    pub label: Option<String>,
    /// For Chart diagnostics: the dotted path of the value, as the door's lines name it.
    pub path: Option<String>,
    /// The door's rule number, where the rule has one.
    pub rule: Option<u8>,
    pub secondary: Vec<Label>,
    /// Places in other files (a dispatch's callee's door), for the LSP's related information.
    pub related: Vec<Related>,
    pub notes: Vec<String>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    pub fn new(code: &'static str, severity: Severity, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span,
            label: None,
            path: None,
            rule: None,
            secondary: Vec::new(),
            related: Vec::new(),
            notes: Vec::new(),
            help: None,
            fix: None,
        }
    }

    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, span, message)
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, span, message)
    }

    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    pub fn with_rule(mut self, rule: u8) -> Self {
        self.rule = Some(rule);
        self
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    /// A place in another file: `path` as the report names it, `text` that file's text (for the
    /// position).
    pub fn with_related(mut self, path: impl Into<String>, text: &str, span: Span, message: impl Into<String>) -> Self {
        let index = LineIndex::new(text);
        let len = text.len() as u32;
        let (start, end) = (span.start.min(len), span.end.min(len).max(span.start.min(len)));
        self.related.push(Related {
            path: path.into(),
            span,
            start: index.position(text, start),
            end: index.position(text, end),
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// One checked file: its name as shown to the user, its text, and what was found in it.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The path as the user named it (relative where it can be).
    pub path: String,
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
}

impl FileReport {
    pub fn line_index(&self) -> LineIndex {
        LineIndex::new(&self.text)
    }
}

/// Totals over a run, for the summary lines and the exit code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut s = Summary { files: reports.len(), ..Summary::default() };
        for d in reports.iter().flat_map(|r| &r.diagnostics) {
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
            }
        }
        s
    }
}

/// The output formats of `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human { color: bool },
    Json,
    Sarif,
    Github,
}

/// Renders reports in one format. Each format is one module of this folder.
pub fn render(format: Format, reports: &[FileReport]) -> String {
    match format {
        Format::Human { color } => human::render(reports, color),
        Format::Json => json::render(reports),
        Format::Sarif => sarif::render(reports),
        Format::Github => github::render(reports),
    }
}
