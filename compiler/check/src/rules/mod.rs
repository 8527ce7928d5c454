//! The rules: one file per rule, each starting with its documentation.
//!
//! A rule file declares its [`Rule`] with [`declare_rule!`], whose doc comment (what it refuses,
//! why, an example, the fix) is the single source of `docs/rules/<code>.md`, `jr2 explain <code>`
//! and the LSP hover. Then comes the check, then its tests. Each family's `mod.rs` lists its rules
//! once ([`family!`]); [`all`] is the registry, every family's rules.
//!
//! Every rule has one shape, whatever its family: `fn check(cx: &Ctx<Input>, sink: &mut Sink)`.
//! [`Ctx`] holds what the family's rules read (the door's `door::Chart`, the walk's `walk::Walk`,
//! ...), [`Sink`] collects what they find: each diagnostic made by its [`Rule`], so that its code,
//! severity and door rule number are the rule's, and placed in its file ([`Located`]).

use crate::compile::Located;
use base::{FileId, Loc, Span};
use diagnostics::Diagnostic;

/// What a rule reads: its family's input, which every rule of the family is given alike.
///
/// A family's input is a plain struct of what its rules read, collected once before they run
/// (the door's Chart, its IR and its invokes; the walk's Machine and its values; ...); `Ctx`
/// derefs to it, so a rule reads `cx.machine`, `cx.doc(s)`.
pub struct Ctx<T> {
    input: T,
}

impl<T> Ctx<T> {
    pub fn new(input: T) -> Self {
        Ctx { input }
    }
}

impl<T> std::ops::Deref for Ctx<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.input
    }
}

/// Where every rule's diagnostics go, in the order found. A diagnostic is made here from its
/// rule (code, severity, door rule number) and a message, in a file: given by its [`Loc`], or
/// the sink's own file (a Chart's rules write in the one file they read).
#[derive(Debug, Default)]
pub struct Sink {
    file: FileId,
    found: Vec<Located>,
}

impl Sink {
    /// A sink whose diagnostics given by a span alone are in `file`.
    pub fn new(file: FileId) -> Self {
        Sink { file, found: Vec::new() }
    }

    /// A diagnostic of `rule` at `loc`; the caller adds what else it says (help, notes, labels,
    /// a fix).
    pub fn report(&mut self, rule: &'static Rule, loc: Loc, message: impl Into<String>) -> &mut Diagnostic {
        self.found.push(Located { file: loc.file, diagnostic: rule.at(loc.span, message) });
        &mut self.found.last_mut().expect("just pushed").diagnostic
    }

    /// A diagnostic of `rule` at `span` of the sink's file.
    pub fn at(&mut self, rule: &'static Rule, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.report(rule, Loc::new(self.file, span), message)
    }

    /// A diagnostic of `rule` at `loc` with the dotted path of its value, where it has one.
    pub fn at_path(
        &mut self,
        rule: &'static Rule,
        loc: Loc,
        path: &str,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let d = self.report(rule, loc, message);
        if !path.is_empty() {
            d.path = Some(path.to_string());
        }
        d
    }

    /// A door line: `<path>: <text>` at `span`, with its path (`(chart)` for the root).
    pub fn line(
        &mut self,
        rule: &'static Rule,
        span: Span,
        path: &str,
        text: impl std::fmt::Display,
    ) -> &mut Diagnostic {
        let path = base::path::path_text(path);
        let d = self.at(rule, span, format!("{path}: {text}"));
        d.path = Some(path.to_string());
        d
    }

    /// Diagnostics another sink collected (a family's, run ahead of its rules).
    pub fn extend(&mut self, found: impl IntoIterator<Item = Located>) {
        self.found.extend(found);
    }

    /// The last diagnostic found, to add to it.
    pub fn last_mut(&mut self) -> Option<&mut Diagnostic> {
        self.found.last_mut().map(|l| &mut l.diagnostic)
    }

    pub fn found(&self) -> &[Located] {
        &self.found
    }

    pub fn has_errors(&self) -> bool {
        self.found.iter().any(|l| l.diagnostic.is_error())
    }

    /// What was found, each in its file.
    pub fn into_located(self) -> Vec<Located> {
        self.found
    }

    /// What was found, of a sink whose rules write in one file.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.found.into_iter().map(|l| l.diagnostic).collect()
    }
}

/// Declares a family of rules, each listed once: its file's module and its [`Rule`], and, after
/// `=> check`, that it has a pass the family runs. The list writes the family's `pub mod` items,
/// its `all()` (the rules in the order listed) and, with `checks: INPUT;` first, its `CHECKS`
/// (each `fn check(cx: &Ctx<INPUT>, sink: &mut Sink)`, in the order listed: the order they run
/// in). A new rule is one file and one line here (`scripts/new-rule.sh` writes both, with the
/// rule's fixture folder).
///
/// ```text
/// family! {
///     checks: Chart;
///     json_syntax::JSON_SYNTAX,                 // run by the door itself
///     unknown_target::UNKNOWN_TARGET => check,  // in CHECKS
/// }
/// ```
macro_rules! family {
    (checks: $input:ty; $( $module:ident :: $rule:ident $(=> $run:ident)? ),* $(,)?) => {
        family!($( $module :: $rule ),*);

        /// The passes of this family's rules, in the order they run.
        pub(crate) static CHECKS: &[fn(&$crate::rules::Ctx<$input>, &mut $crate::rules::Sink)] =
            &[ $( $( $module::$run, )? )* ];
    };
    ($( $module:ident :: $rule:ident ),* $(,)?) => {
        $( pub mod $module; )*

        /// Every rule of this family, in the order listed.
        pub fn all() -> Vec<&'static $crate::rules::Rule> {
            vec![ $( &$module::$rule ),* ]
        }
    };
}

pub mod chart;
pub mod compat;
pub mod config;
pub mod instance;
pub mod machine;
pub mod preflight;
pub mod walk;
pub mod walk_pick;

pub use diagnostics::{declare_rule, unindent_doc, Rule};

/// Every rule, in the order of the docs.
pub fn all() -> Vec<&'static Rule> {
    let mut rules = chart::all();
    rules.extend(compat::all());
    rules.extend(machine::all());
    rules.extend(instance::all());
    rules.extend(walk::all());
    rules.extend(walk_pick::all());
    rules.extend(preflight::all());
    rules.extend(config::all());
    rules.sort_by_key(|r| (r.rule.unwrap_or(0), r.code));
    rules
}

/// The rule with this code.
pub fn find(code: &str) -> Option<&'static Rule> {
    all().into_iter().find(|r| r.code == code)
}
