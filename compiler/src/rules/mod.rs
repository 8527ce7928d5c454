//! The rules: one file per rule, each starting with its documentation.
//!
//! A rule file declares its [`Rule`] with [`declare_rule!`], whose doc comment (what it refuses,
//! why, an example, the fix) is the single source of `docs/rules/<code>.md`, `jr2 explain <code>`
//! and the LSP hover. Then comes the check, then its tests. [`ALL`] lists every rule.

pub mod chart;
pub mod compat;
pub mod instance;
pub mod machine;
pub mod preflight;
pub mod small_set;
pub mod walk;
pub mod walk_pick;

use crate::diagnostics::{Diagnostic, Severity};
use crate::Span;

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
        $vis static $name: $crate::rules::Rule = $crate::rules::Rule {
            code: $code,
            rule: $rule,
            severity: $crate::diagnostics::Severity::$sev,
            summary: $first,
            doc: concat!($first, "\n", $($doc, "\n",)*),
        };
    };
}

/// Every rule, in the order of the docs.
pub fn all() -> Vec<&'static Rule> {
    let mut rules = chart::all();
    rules.extend(compat::all());
    rules.extend(machine::all());
    rules.extend(instance::all());
    rules.extend(walk::all());
    rules.extend(walk_pick::all());
    rules.extend(preflight::all());
    rules.sort_by_key(|r| (r.rule.unwrap_or(0), r.code));
    rules
}

/// The rule with this code.
pub fn find(code: &str) -> Option<&'static Rule> {
    all().into_iter().find(|r| r.code == code)
}
