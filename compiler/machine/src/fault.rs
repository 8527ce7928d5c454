//! What the Machine front end could not read, as data: a [`Fault`] of a [`FaultKind`] at its
//! [`Loc`]. The front end names no rule; the check layer (`check::compile`) turns each kind into its
//! rule's diagnostic, with the rule's severity.

use crate::value::Loc;
use base::Span;
use serde::Serialize;

/// What went wrong, one kind per rule of the check layer (the kebab-case form is the rule's code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// The text is not TypeScript oxc can read, or nests past the parser's or the evaluator's
    /// budget.
    TsSyntax,
    /// A relative import names no readable file.
    UnresolvedImport,
    /// A value that is not known without running the file.
    NotStatic,
    /// The export `machine` is no Machine, or there is none.
    NotMachine,
    /// A value of the config is of the wrong kind (a list where an object goes, ...).
    NotObject,
    /// A function stays code where the IR wants data.
    NotLowered,
    /// A construct of xstate the IR does not hold yet.
    Unsupported,
    /// An event's zod schema that does not convert to JSON Schema.
    EventSchema,
    /// An invoke whose `src` is an inline actor, not a name of the setup.
    InlineSrc,
    /// A compound state with no `initial`.
    MissingInitial,
    /// An `initial` that names no child.
    UnknownInitial,
    /// A transition's target that names no state.
    UnknownTarget,
    /// A transition's target that names more than one state.
    AmbiguousTarget,
    /// An actor of the setup that is no Part of the kit.
    UnknownActor,
    /// An invoke `src` that names no actor of the setup.
    UnknownInvokeSrc,
    /// A `.json` file a Machine imports that is not JSON.
    JsonSyntax,
}

impl FaultKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [FaultKind] = &[
        FaultKind::TsSyntax,
        FaultKind::UnresolvedImport,
        FaultKind::NotStatic,
        FaultKind::NotMachine,
        FaultKind::NotObject,
        FaultKind::NotLowered,
        FaultKind::Unsupported,
        FaultKind::EventSchema,
        FaultKind::InlineSrc,
        FaultKind::MissingInitial,
        FaultKind::UnknownInitial,
        FaultKind::UnknownTarget,
        FaultKind::AmbiguousTarget,
        FaultKind::UnknownActor,
        FaultKind::UnknownInvokeSrc,
        FaultKind::JsonSyntax,
    ];
}

/// One thing the front end could not read or resolve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fault {
    pub loc: Loc,
    #[serde(rename = "code")]
    pub kind: FaultKind,
    pub message: String,
    /// The dotted path of the value in the `createMachine` config (`states.coding.invoke.0.src`);
    /// empty for the config itself and for faults of parsing and evaluation.
    pub path: String,
    /// What to write instead, where the front end knows (oxc's help for a syntax error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Fault {
    pub(crate) fn new(kind: FaultKind, loc: Loc, message: impl Into<String>) -> Self {
        Fault { loc, kind, message: message.into(), path: String::new(), help: None }
    }

    /// The fault's span in its file.
    pub fn span(&self) -> Span {
        self.loc.span
    }
}
