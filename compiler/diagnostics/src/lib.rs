//! Diagnostics as data, and the metadata of the rules that make them.
//!
//! Invariant: rules build [`Diagnostic`] values and never format output; the `render` crate holds
//! one renderer per output format, the `lsp` crate the LSP's converter. A rule is declared once,
//! with [`declare_rule!`], whose doc comment is its documentation.

use base::line_index::{LineIndex, Position};
use base::Span;
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

/// A machine-applicable fix: what it does, its text edits, and a rename of the file.
///
/// Both kinds are data about the file of the diagnostic that carries the fix: `edits` are byte
/// spans in that file's text (none overlapping another), and `rename_to` is a new file name for
/// it in the same folder (a name, not a path), taken after the edits. A fix has edits, a rename or
/// both. The LSP offers a fix as a code action (a text edit, a file rename); `jr2 check --fix`
/// applies it and `--diff` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// What the fix does, as a short imperative: `start at "a"`, `rename the file to x.ts`.
    pub message: String,
    pub edits: Vec<Edit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rename_to: Option<String>,
}

impl Fix {
    /// A fix of text edits.
    pub fn edits(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix { message: message.into(), edits, rename_to: None }
    }

    /// A fix that renames the file to `name` (in its folder).
    pub fn rename(message: impl Into<String>, name: impl Into<String>) -> Fix {
        Fix { message: message.into(), edits: Vec::new(), rename_to: Some(name.into()) }
    }

    /// Do two fixes' edits touch the same text? Two edits overlap when their spans share a byte,
    /// or when both insert at one offset (their order would be a guess), or when one inserts
    /// strictly inside the other's span. Two renames of one file always conflict.
    pub fn overlaps(&self, other: &Fix) -> bool {
        (self.rename_to.is_some() && other.rename_to.is_some())
            || self.edits.iter().any(|a| other.edits.iter().any(|b| edits_overlap(a.span, b.span)))
    }
}

fn edits_overlap(a: Span, b: Span) -> bool {
    // Two insertions at one offset; else a shared byte, or an insertion strictly inside a span.
    (a.start == a.end && b.start == b.end && a.start == b.start) || (a.start < b.end && b.start < a.end)
}

/// The text with the edits of `fixes` applied, or `None` when an edit does not fit it (a span
/// past its end, off a character boundary) or two edits overlap ([`Fix::overlaps`]).
pub fn apply_fixes(text: &str, fixes: &[&Fix]) -> Option<String> {
    let mut edits: Vec<&Edit> = fixes.iter().flat_map(|f| &f.edits).collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    for pair in edits.windows(2) {
        if edits_overlap(pair[0].span, pair[1].span) {
            return None;
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in edits {
        let (start, end) = (e.span.start as usize, e.span.end as usize);
        if start < at || end < start || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return None;
        }
        out.push_str(text.get(at..start)?);
        out.push_str(&e.replacement);
        at = end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
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
    /// It says that part of its file was not checked (a Chart checked without an Open body):
    /// the run's summary line names it, so that a run never passes silently what it skipped.
    #[serde(skip)]
    pub unchecked: bool,
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
            unchecked: false,
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
        self.add_related(path, text, &LineIndex::new(text), span, message);
        self
    }

    /// [`Diagnostic::with_related`] on a diagnostic being built in place, with the line index of
    /// `text` (made once for all the places in one file).
    pub fn add_related(
        &mut self,
        path: impl Into<String>,
        text: &str,
        index: &LineIndex,
        span: Span,
        message: impl Into<String>,
    ) {
        let len = text.len() as u32;
        let (start, end) = (span.start.min(len), span.end.min(len).max(span.start.min(len)));
        self.related.push(Related {
            path: path.into(),
            span,
            start: index.position(text, start),
            end: index.position(text, end),
            message: message.into(),
        });
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Marks it as saying that part of its file was not checked ([`Diagnostic::unchecked`]).
    pub fn unchecked(mut self) -> Self {
        self.unchecked = true;
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
    /// Files with a diagnostic that says part of them was not checked.
    #[serde(skip)]
    pub unchecked: usize,
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut s = Summary { files: reports.len(), ..Summary::default() };
        s.unchecked = reports.iter().filter(|r| r.diagnostics.iter().any(|d| d.unchecked)).count();
        for d in reports.iter().flat_map(|r| &r.diagnostics) {
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
            }
        }
        s
    }
}

/// A rule's metadata. Its `doc` is the doc comment of its declaration.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case code, naming the bad pattern.
    pub code: &'static str,
    /// The Chart door's rule number, where the rule is one of the door's.
    pub rule: Option<u8>,
    pub severity: Severity,
    /// A one-line summary (the doc's first line).
    pub summary: &'static str,
    /// The whole doc comment, Markdown.
    pub doc: &'static str,
}

impl Rule {
    /// A diagnostic of this rule at `span`.
    pub fn at(&'static self, span: Span, message: impl Into<String>) -> Diagnostic {
        let d = Diagnostic::new(self.code, self.severity, span, message);
        match self.rule {
            Some(n) => d.with_rule(n),
            None => d,
        }
    }

    /// The documentation page, `docs/rules/<code>.md`.
    pub fn markdown(&'static self) -> String {
        let mut out = format!("# `{}`\n\n", self.code);
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match self.rule {
            Some(n) => out.push_str(&format!("Severity: {kind}. Chart door rule {n}.\n\n")),
            None => out.push_str(&format!("Severity: {kind}.\n\n")),
        }
        out.push_str(&unindent_doc(self.doc));
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out
    }
}

/// A doc comment's lines, each without the one space `///` leaves.
pub fn unindent_doc(doc: &str) -> String {
    doc.lines().map(|l| l.strip_prefix(' ').unwrap_or(l)).collect::<Vec<_>>().join("\n").trim().to_string() + "\n"
}

/// Declares a rule: its doc comment first, then its code, door rule number and severity.
///
/// ```text
/// declare_rule! {
///     /// Refuses ...
///     pub static UNKNOWN_TARGET = { code: "unknown-target", rule: Some(2), severity: Error };
/// }
/// ```
#[macro_export]
macro_rules! declare_rule {
    (
        #[doc = $first:literal]
        $(#[doc = $doc:literal])*
        $vis:vis static $name:ident = { code: $code:literal, rule: $rule:expr, severity: $sev:ident $(,)? };
    ) => {
        #[doc = $first]
        $(#[doc = $doc])*
        $vis static $name: $crate::Rule = $crate::Rule {
            code: $code,
            rule: $rule,
            severity: $crate::Severity::$sev,
            summary: $first,
            doc: concat!($first, "\n", $($doc, "\n",)*),
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: u32, end: u32, text: &str) -> Edit {
        Edit { span: Span::new(start, end), replacement: text.to_string() }
    }

    #[test]
    fn fixes_apply_together_unless_they_overlap() {
        let a = Fix::edits("a", vec![edit(0, 1, "A")]);
        let b = Fix::edits("b", vec![edit(2, 2, "+"), edit(3, 4, "")]);
        assert_eq!(apply_fixes("abcd", &[&b, &a]).as_deref(), Some("Ab+c"));
        assert!(!a.overlaps(&b));
        let inside = Fix::edits("c", vec![edit(1, 1, "x")]);
        let across = Fix::edits("d", vec![edit(0, 2, "")]);
        assert!(inside.overlaps(&across) && across.overlaps(&inside));
        assert!(!inside.overlaps(&a), "an insertion at a span's end is beside it");
        let same = Fix::edits("e", vec![edit(2, 2, "-")]);
        assert!(same.overlaps(&b), "two insertions at one offset");
        assert_eq!(apply_fixes("abcd", &[&b, &same]), None);
        assert_eq!(apply_fixes("ab", &[&Fix::edits("f", vec![edit(1, 9, "")])]), None, "past the end");
        assert_eq!(apply_fixes("é", &[&Fix::edits("g", vec![edit(1, 1, "x")])]), None, "off a boundary");
        let (r1, r2) = (Fix::rename("r", "x.ts"), Fix::rename("r", "y.ts"));
        assert!(r1.overlaps(&r2) && !r1.overlaps(&a));
    }
}
