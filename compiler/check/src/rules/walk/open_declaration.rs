//! The rule `open-declaration`: what it refuses, then its check and its tests.

use super::Walk;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use machine::lower::{arg, classify_actor, ActorClass};
use machine::parts::declaration_of;
use machine::value::{Value, ValueKind};

declare_rule! {
    /// Refuses an Open body whose declaration gives no lend manifest: a declaration that is no object, an `allows.workspace` that names no Workspace access, a `ceilings.wallClock` that is no duration.
    ///
    /// ## Why
    /// An Open body's declaration, `open({ lends, allows, ceilings }, ...)`, is its lend
    /// manifest: what a Chart run in the slot may name and how long it may take. The runtime
    /// reads the wall clock as a duration (digits and a unit: `"30m"`, `"90s"`, `"2h"`,
    /// `"500ms"`); a text that is none (`"30 parsecs"`) bounds nothing. A Chart of the slot is
    /// refused for it (`chart-wrapper`, "gives no lend manifest"); this rule says so at the
    /// declaration itself, so a Workflow checked alone (`jr2 check workflows/notes.ts`), or one
    /// whose slot has no Chart yet, is refused too, with the same words. A value the checker
    /// cannot know statically is not judged here (`not-static` says so).
    ///
    /// ## Example
    /// ```ts
    /// plan: open({ lends: { agents: ["writer"] }, ceilings: { wallClock: "30 parsecs" } }),
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// plan: open({ lends: { agents: ["writer"] }, ceilings: { wallClock: "30m" } }),
    /// ```
    pub static OPEN_DECLARATION = { code: "open-declaration", rule: None, severity: Error };
}

/// The walk runs this over each Machine: each Open body of its setup, its declaration read as
/// the lend manifest is (`machine::parts::declaration_of`).
pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    for (_, actor) in cx.parts.setup_entries("actors") {
        if classify_actor(actor) != ActorClass::Open {
            continue;
        }
        let Some(declaration) = arg(actor, 0) else { continue };
        let Err(message) = declaration_of(declaration) else { continue };
        let at = culprit(declaration, &message);
        if matches!(at.kind, ValueKind::Unknown { .. }) {
            continue;
        }
        sink.report(&OPEN_DECLARATION, at.loc, message);
    }
}

/// The value the refusal is about: the wall clock, the workspace list, or the declaration.
fn culprit<'a, 'v>(declaration: &'a Value<'v>, message: &str) -> &'a Value<'v> {
    let at = |outer: &str, inner: &str| declaration.get(outer).and_then(|o| o.get(inner));
    let found = if message.starts_with("`ceilings.wallClock`") {
        at("ceilings", "wallClock")
    } else if message.starts_with("`allows.workspace`") {
        at("allows", "workspace")
    } else {
        None
    };
    found.unwrap_or(declaration)
}
