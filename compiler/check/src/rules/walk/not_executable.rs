//! The rule `not-executable`: a part a run needs that the IR does not hold.

use super::Ctx;
use crate::compile::Located;
use diagnostics::declare_rule;
use ir::{Action, Guard, StateId, Trigger};

declare_rule! {
    /// Warns of a part of the Machine that a run needs and the IR does not hold: a guard or an
    /// action written as code jr2 cannot lower, or a delay by name.
    ///
    /// ## Why
    /// jr2 reads a Workflow without running it, and the runtime runs the IR it lowered, not the
    /// TypeScript. A guard whose function is not one pure expression over `context`, `event` and
    /// the kit's predicates (a statement body, a call of the author's own code, a method call),
    /// an action kept as code, or an `after` delay named in `setup({ delays })` has no IR, so a
    /// run would stop at it. `jr2 check` says so as a warning (a check needs no run); loading the
    /// Workflow for a run (`jr2 sim`) refuses it.
    ///
    /// ## Example
    /// ```ts
    /// states: {
    ///   waiting: {
    ///     on: { done: { guard: ({ event }) => { return event.ok; }, target: "finished" } },
    ///   },
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// states: {
    ///   waiting: {
    ///     on: { done: { guard: ({ event }) => event.ok, target: "finished" } },
    ///   },
    /// }
    /// ```
    pub static NOT_EXECUTABLE = { code: "not-executable", rule: None, severity: Warning };
}

/// The walk runs this over each Machine.
pub fn check(cx: &Ctx, out: &mut Vec<Located>) {
    let m = cx.machine;
    for (ti, t) in m.transitions.iter().enumerate() {
        let mut why = Vec::new();
        if let Some(g) = &t.guard {
            guard_faults(g, &mut why);
        }
        action_faults(&t.actions, &mut why);
        if let Trigger::After(delay) = &t.trigger {
            if !is_duration(delay) {
                why.push(format!("the delay `{delay}` is named, and its implementation is not in the IR"));
            }
        }
        if why.is_empty() {
            continue;
        }
        let source = cx.map.transition(ti);
        let mut d = NOT_EXECUTABLE.at(source.loc.span, format!("this transition cannot run: {}", why.join("; ")));
        if !source.path.is_empty() {
            d = d.with_path(source.path.clone());
        }
        out.push(Located { file: source.loc.file, diagnostic: d });
    }
    for s in m.ids() {
        let st = m.state(s);
        for (place, actions) in [("entry", &st.entry), ("exit", &st.exit)] {
            let mut why = Vec::new();
            action_faults(actions, &mut why);
            if !why.is_empty() {
                out.push(at_state(cx, s, format!("the {place} of {} cannot run: {}", cx.name(s), why.join("; "))));
            }
        }
    }
}

fn at_state(cx: &Ctx, s: StateId, message: String) -> Located {
    cx.at_state(&NOT_EXECUTABLE, s, message)
}

/// Why a guard has no IR to evaluate, for each part of it that has none.
fn guard_faults(g: &Guard, why: &mut Vec<String>) {
    match g {
        Guard::Named { name, .. } if name == "inline" => {
            why.push("its guard is a function jr2 cannot lower (not one pure expression)".into())
        }
        Guard::Named { name, .. } if name.starts_with("jr2.") => {}
        Guard::Named { name, .. } => why.push(format!("the guard `{name}` is an implementation the IR does not hold")),
        Guard::Not { guard } => guard_faults(guard, why),
        Guard::And { guards } | Guard::Or { guards } => guards.iter().for_each(|g| guard_faults(g, why)),
        Guard::SentBy { .. } | Guard::Expr { .. } => {}
    }
}

/// Why actions have no IR to run, for each that has none (a named action is the host's).
fn action_faults(actions: &[Action], why: &mut Vec<String>) {
    for a in actions {
        match a {
            Action::Named { name, .. } if name == "inline" => {
                why.push("an action is a function jr2 cannot lower".into())
            }
            Action::Named { name, .. } if name.starts_with("xstate.") => {
                why.push(format!("the action `{}` is not lowered", &name["xstate.".len()..]))
            }
            Action::Opaque { reason } => why.push(reason.clone()),
            Action::If { branches } => branches.iter().for_each(|b| action_faults(&b.actions, why)),
            Action::Foreach { actions, .. } => action_faults(actions, why),
            _ => {}
        }
    }
}

/// An `after` key the runtime reads as milliseconds or a duration (`5000`, `5s`).
fn is_duration(delay: &str) -> bool {
    let d = delay.trim();
    if d.parse::<u64>().is_ok() {
        return true;
    }
    let split = d.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(d.len());
    split > 0 && matches!(d[split..].trim(), "ms" | "s" | "m" | "min" | "h")
}

#[cfg(test)]
mod tests {
    use super::is_duration;

    #[test]
    fn durations_are_numbers_or_numbers_with_a_unit() {
        assert!(is_duration("5000"));
        assert!(is_duration("1.5s"));
        assert!(!is_duration("timeout"));
        assert!(!is_duration("s"));
    }
}
