use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::names;
use chart::lower::LowerFault;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a transition whose target names no state.
    ///
    /// ## Why
    /// xstate resolves a target when the machine is built and throws on one it cannot find; a
    /// Chart that names a state it does not have cannot run. Targets resolve as xstate's do: a
    /// plain key is a sibling of the state (`"review"`, or a path below one, `"review.left"`),
    /// `".child"` is a state below the state itself, and `"#id"` is the state with that `id` (or
    /// the default id, the Chart's `id` and the key path: `"#notes.review"`).
    ///
    /// ## Example
    /// ```json
    /// { "initial": "a", "states": { "a": { "on": { "go": "reveiw" } }, "review": { "type": "final" } } }
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// { "initial": "a", "states": { "a": { "on": { "go": "review" } }, "review": { "type": "final" } } }
    /// ```
    pub static UNKNOWN_TARGET = { code: "unknown-target", rule: Some(2), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for fault in cx.faults {
        let LowerFault::UnknownTarget { path, span, target, source } = fault else { continue };
        let m = cx.machine;
        let siblings: Vec<&str> = match m.state(*source).parent {
            Some(p) => m.state(p).children.iter().map(|c| m.state(*c).key.as_str()).collect(),
            None => Vec::new(),
        };
        let text = if target.starts_with('#') {
            format!("\"{target}\" names no state: no state has that id")
        } else if target.starts_with('.') {
            let children: Vec<&str> = m.state(*source).children.iter().map(|c| m.state(*c).key.as_str()).collect();
            format!("\"{target}\" names no state below {}; its states: {}", cx.doc(*source), names(&children))
        } else if m.state(*source).parent.is_none() {
            format!("\"{target}\" names no state: a target of the Chart's own transitions is \".<state>\" or \"#<id>\"")
        } else {
            format!("\"{target}\" names no state beside {}; its siblings: {}", cx.doc(*source), names(&siblings))
        };
        let children: Vec<&str> = m.state(*source).children.iter().map(|c| m.state(*c).key.as_str()).collect();
        let candidates = match target.chars().next() {
            Some('.') => children,
            Some('#') => Vec::new(),
            _ => siblings,
        };
        let d = sink.line(&UNKNOWN_TARGET, *span, path, text);
        if let Some(close) = closest(target.trim_start_matches(['#', '.']), &candidates) {
            d.help = Some(format!("did you mean \"{close}\"?"));
        }
    }
}

/// The name closest to `name`, if it is close enough to be a typo (the one suggestion helper).
pub use base::suggest::closest;
