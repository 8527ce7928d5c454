//! The rule `not-executable`: a part a run needs that the IR does not hold.
//!
//! It reads what lowering left: a guard or an action the IR names as code (`inline`, `Opaque`),
//! a name with no implementation, and a mapper written in the config whose place in the IR is
//! empty (lowering leaves it empty where the function neither lowered nor was carried as
//! JavaScript). Each function a run calls is lowered, carried, or refused here, with the
//! refusal's reason (`machine::lower::refusal`: what it reaches that no run can have);
//! `tests/it/executable.rs` checks it over the corpus.

use super::Walk;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use base::Loc;
use ir::{Action, Guard, Trigger};
use machine::value::{Value, ValueKind};

declare_rule! {
    /// Warns of a part of the Machine that a run needs and cannot have: a function that reaches what no run has (a package, `fetch`, `process`, a module `let`, an actor reference), or a name with no implementation.
    ///
    /// ## Why
    /// jr2 reads a Workflow without running it, and the runtime runs the IR it lowered, not the
    /// TypeScript. A function a run calls (a guard, an action, an `assign` or one of its updates,
    /// a delay, params, an invoke's `input`, an `output`, the `context` factory, and the
    /// implementations of `setup({ guards, actions, delays })`, `createMachine`'s second argument
    /// or `.provide(...)` that the Machine names) is lowered into the IR where its body is a pure
    /// expression jr2 reads (the fast path); any other is carried as JavaScript, which the
    /// runtime's embedded engine runs: its own text with its TypeScript types stripped, with what
    /// it closes over (the module's `const`s, functions and classes, and what it imports from the
    /// Instance's own files by a relative import). The engine has no I/O, no timers, no host and
    /// no package, and a run keeps no state outside its snapshot.
    ///
    /// So a function is refused, with this rule's line at it naming the thing, only where it
    /// reaches what no run can have:
    /// - a binding imported from a package (the kit, xstate and zod too: the engine has none of
    ///   them), or a dynamic `import()`;
    /// - a free name that is not a standard ECMAScript global (`Object`, `Array`, `Math`, `JSON`,
    ///   `Number`, `String`, `Boolean`, `Date`, `RegExp`, `Map`, `Set`, `Symbol`, `BigInt`, the
    ///   `Error`s, `parseInt`, `encodeURIComponent`, `console`, ... are): `fetch`, `process`,
    ///   `require`, `window`, `document`, `setTimeout`, ...;
    /// - a module `let` or `var` it reads or changes (a run keeps no module state: use a `const`,
    ///   or the context);
    /// - the mapper argument's `self`, `system`, `spawn` or `enqueue` (actor references, which a
    ///   run in the engine cannot have);
    /// - TypeScript that is not erasable (an `enum`, a `namespace`, a parameter property, a
    ///   decorator): write an `as const` object, a module, a field.
    ///
    /// And a name with no implementation: a named guard or delay that the Machine does not
    /// implement (xstate throws on the first, and has no delay for the second; a named action
    /// the setup does not implement is the host's, and no warning); `stopChild`,
    /// `enqueueActions` and the other action creators jr2 does not lower; params written as data
    /// that do not lower. An `assign({ ... })` with one update refused is refused whole (a run
    /// takes none of an `assign` or all of it), at that update.
    ///
    /// `jr2 check` says so as a warning, since a check needs no run; loading the Workflow for a
    /// run (`jr2 sim`) refuses it with the same line as an error.
    ///
    /// ## Example
    /// ```ts
    /// jr2Setup({
    ///   guards: { ready: async ({ context }) => (await fetch(context.url)).ok },
    /// }).createMachine({
    ///   initial: "waiting",
    ///   context: { url: "https://example.com/ready" },
    ///   states: {
    ///     waiting: { on: { check: { guard: "ready", target: "finished" } } },
    ///     finished: { type: "final" },
    ///   },
    /// });
    /// ```
    ///
    /// ## Use instead
    /// ```ts
    /// jr2Setup({
    ///   guards: { ready: ({ context }) => context.tags.some((t) => t === "ready") },
    /// }).createMachine({
    ///   initial: "waiting",
    ///   context: { tags: [] },
    ///   states: {
    ///     waiting: { on: { check: { guard: "ready", target: "finished" } } },
    ///     finished: { type: "final" },
    ///   },
    /// });
    /// ```
    pub static NOT_EXECUTABLE = { code: "not-executable", rule: None, severity: Warning };
}

/// How deeply a named implementation's own names are followed (a guard naming a guard ...).
const MAX_DEPTH: usize = 16;

/// The walk runs this over each Machine.
pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    let m = cx.machine;
    mapper_faults(cx, sink);
    for (ti, t) in m.transitions.iter().enumerate() {
        let mut why = Vec::new();
        let guard_value = cx.values.transition(ti).and_then(|v| v.get("guard"));
        if let Some(g) = &t.guard {
            guard_faults(cx, g, guard_value.and_then(machine::lower::refusal), 0, &mut why);
        }
        // A guard `{ type, params }` whose params do not lower (the IR keeps its name alone).
        if guard_value.is_some_and(machine::lower::params_not_lowered) {
            let params = guard_value.and_then(|g| g.get("params")).and_then(machine::lower::refusal);
            push(
                &mut why,
                match params {
                    Some(reason) => format!("the params of its guard cannot run: {reason}"),
                    None => "the params of its guard are code jr2 cannot lower".into(),
                },
            );
        }
        action_faults(cx, &t.actions, 0, &mut why);
        if let Trigger::After(delay) = &t.trigger {
            delay_faults(cx, delay, &mut why);
        }
        if why.is_empty() {
            continue;
        }
        let source = cx.map.transition(ti);
        // An `assign` that cannot run whole: at the update that stays code.
        let at = partial_assign_at(cx, cx.values.transition(ti).and_then(|v| v.get("actions")), 0)
            .unwrap_or(source.loc);
        sink.at_path(&NOT_EXECUTABLE, at, &source.path, format!("this transition cannot run: {}", why.join("; ")));
    }
    for s in m.ids() {
        let st = m.state(s);
        for (place, actions) in [("entry", &st.entry), ("exit", &st.exit)] {
            let mut why = Vec::new();
            action_faults(cx, actions, 0, &mut why);
            if why.is_empty() {
                continue;
            }
            let message = format!("the {place} of {} cannot run: {}", cx.name(s), why.join("; "));
            let at = partial_assign_at(cx, cx.state_value(s).and_then(|v| v.get(place)), 0)
                .unwrap_or_else(|| cx.state_at(s));
            sink.at_path(&NOT_EXECUTABLE, at, cx.map.state_path(s), message);
        }
    }
}

/// The mappers a run calls, each where it is written: a Machine's `context` factory and `output`,
/// a final state's `output`, an invoke's `input`. Lowering leaves the IR's place empty where a
/// function did not lower (the IR holds what a run evaluates, nothing else), so a mapper written
/// and missing from the IR is one a run would drop: the line is at the function, naming the part.
fn mapper_faults(cx: &Ctx<Walk>, sink: &mut Sink) {
    let m = cx.machine;
    let config = cx.parts.config;
    if let Some(v) = written(config.get("context")) {
        if m.context.is_none() && m.context_expr.is_none() {
            sink.at_path(
                &NOT_EXECUTABLE,
                v.loc,
                "context",
                format!("the context cannot be made: {}", why_not(v, "its factory")),
            );
        }
    }
    if let Some(v) = written(config.get("output")) {
        if m.output.is_none() {
            sink.at_path(&NOT_EXECUTABLE, v.loc, "output", format!("the Machine's output cannot be made: {}", why_not(v, "its `output`")));
        }
    }
    for s in m.ids() {
        let st = m.state(s);
        let Some(value) = cx.state_value(s) else { continue };
        if s != ir::StateId::ROOT && st.kind == ir::StateKind::Final {
            if let Some(v) = written(value.get("output")) {
                if st.output.is_none() {
                    let path = base::path::join(cx.map.state_path(s), "output");
                    let message = format!("the output of {} cannot be made: {}", cx.name(s), why_not(v, "its `output`"));
                    sink.at_path(&NOT_EXECUTABLE, v.loc, &path, message);
                }
            }
        }
        for (k, inv) in st.invokes.iter().enumerate() {
            let Some(v) = cx.values.invoke(cx.map, s, k).and_then(|iv| written(iv.get("input"))) else { continue };
            if inv.input.is_none() {
                let path = base::path::join(cx.map.invoke_path(s, k), "input");
                let message = format!(
                    "the input of the invoke of `{}` in {} cannot be made: {}",
                    inv.src,
                    cx.name(s),
                    why_not(v, "its `input`")
                );
                sink.at_path(&NOT_EXECUTABLE, v.loc, &path, message);
            }
        }
    }
}

/// A field as written: present and not `undefined`.
fn written<'a, 'v>(v: Option<&'a Value<'v>>) -> Option<&'a Value<'v>> {
    v.filter(|v| !matches!(v.kind, ValueKind::Undefined))
}

/// Why a mapper as written has no IR: a function whose body jr2 does not lower (`what` names
/// it), or a value that is not known or holds something that is not (a call, a global).
fn why_not(v: &Value, what: &str) -> String {
    match &v.kind {
        ValueKind::Function(_) => match machine::lower::refusal(v) {
            Some(reason) => format!("{what} cannot run: {reason}"),
            None => format!("{what} is a function jr2 cannot lower (not one pure expression)"),
        },
        ValueKind::Unknown { reason } => format!("its value is not known statically ({reason})"),
        _ => "its value holds what jr2 cannot lower (a value not known statically, a call)".into(),
    }
}

/// Where an action list as written (one action or a list of them; a name is followed into the
/// setup's implementation) has an `assign` with an update that does not lower: that update's key.
fn partial_assign_at(cx: &Ctx<Walk>, actions: Option<&Value>, depth: usize) -> Option<Loc> {
    let actions = actions?;
    let items = actions.as_array().unwrap_or(std::slice::from_ref(actions));
    items.iter().find_map(|a| {
        if let Some(p) = machine::lower::assign_updates_not_lowered(a).first() {
            return Some(p.key_loc);
        }
        let name = a.as_str()?;
        let imp = cx.parts.setup_entries("actions").into_iter().find(|(k, _)| *k == name)?.1;
        (depth < MAX_DEPTH).then(|| partial_assign_at(cx, Some(imp), depth + 1)).flatten()
    })
}

/// Is `name` a key of the setup's (or the implementations') `field`?
fn in_setup(cx: &Ctx<Walk>, field: &str, name: &str) -> bool {
    cx.parts.setup_entries(field).iter().any(|(k, _)| *k == name)
}

/// Why the setup's implementation `name` of `field` did not lower: what it reaches that no run
/// can have (a function refused), or the old words for other code.
fn implemented_by(cx: &Ctx<Walk>, field: &str, what: &str, name: &str) -> String {
    let imp = cx.parts.setup_entries(field).into_iter().rev().find(|(k, _)| *k == name).map(|(_, v)| v);
    match imp.and_then(machine::lower::refusal) {
        Some(reason) => format!("the {what} `{name}` cannot run: {reason}"),
        None => format!("the {what} `{name}` is implemented by code jr2 cannot lower"),
    }
}

fn push(why: &mut Vec<String>, reason: String) {
    if !why.contains(&reason) {
        why.push(reason);
    }
}

/// Why a guard has no IR to evaluate, for each part of it that has none; `refused` is why the
/// transition's own guard function is refused, where it is one.
fn guard_faults(cx: &Ctx<Walk>, g: &Guard, refused: Option<&str>, depth: usize, why: &mut Vec<String>) {
    match g {
        Guard::Named { name, .. } if name == "inline" => match refused {
            Some(reason) => push(why, format!("its guard cannot run: {reason}")),
            None => push(why, "its guard is a function jr2 cannot lower (not one pure expression)".into()),
        },
        Guard::Named { name, .. } if name.starts_with("jr2.") => {}
        Guard::Named { name, .. } => match cx.machine.implementations.guards.get(name.as_str()) {
            Some(imp) if depth < MAX_DEPTH => guard_faults(cx, imp, None, depth + 1, why),
            Some(_) => {}
            None if in_setup(cx, "guards", name) => push(why, implemented_by(cx, "guards", "guard", name)),
            None => push(why, format!("the guard `{name}` has no implementation (no `guards.{name}` in the setup)")),
        },
        Guard::Not { guard } => guard_faults(cx, guard, None, depth, why),
        Guard::And { guards } | Guard::Or { guards } => {
            guards.iter().for_each(|g| guard_faults(cx, g, None, depth, why))
        }
        Guard::SentBy { .. } | Guard::Expr { .. } => {}
    }
}

/// Why actions have no IR to run, for each that has none (a named action the setup does not
/// implement is the host's).
fn action_faults(cx: &Ctx<Walk>, actions: &[Action], depth: usize, why: &mut Vec<String>) {
    for a in actions {
        match a {
            Action::Named { name, .. } if name == "inline" => {
                push(why, "an action is a function jr2 cannot lower".into())
            }
            Action::Named { name, .. } if name.starts_with("xstate.") => {
                push(why, format!("the action `{}` is not lowered", &name["xstate.".len()..]))
            }
            Action::Named { name, params: None } if name == "jr2.answer" => {
                push(why, "its `answer` is a function jr2 cannot lower".into())
            }
            Action::Named { name, .. } if name.starts_with("jr2.") => {}
            Action::Named { name, .. } => match cx.machine.implementations.actions.get(name.as_str()) {
                Some(imp) if depth < MAX_DEPTH => {
                    let mut inner = Vec::new();
                    action_faults(cx, imp, depth + 1, &mut inner);
                    for reason in inner {
                        push(why, format!("the action `{name}`: {reason}"));
                    }
                }
                Some(_) => {}
                None if in_setup(cx, "actions", name) => push(why, implemented_by(cx, "actions", "action", name)),
                None => {}
            },
            Action::Opaque { reason } => push(why, reason.clone()),
            Action::If { branches } => branches.iter().for_each(|b| action_faults(cx, &b.actions, depth, why)),
            Action::Foreach { actions, .. } => action_faults(cx, actions, depth, why),
            _ => {}
        }
    }
}

/// Why an `after` delay has no milliseconds: a name with no implementation jr2 lowered.
fn delay_faults(cx: &Ctx<Walk>, delay: &str, why: &mut Vec<String>) {
    if is_duration(delay) || cx.machine.implementations.delays.contains_key(delay) {
        return;
    }
    if in_setup(cx, "delays", delay) {
        push(why, implemented_by(cx, "delays", "delay", delay));
    } else {
        push(why, format!("the delay `{delay}` has no implementation (no `delays.{delay}` in the setup)"));
    }
}

/// An `after` key the runtime reads as milliseconds or a duration (`5000`, `5s`).
fn is_duration(delay: &str) -> bool {
    runtime_delay_ms(delay).is_some()
}

/// The runtime's reading of a delay (`runtime::delay_ms`; the check layer does not depend on the
/// runtime): a number of milliseconds, or a number with a unit.
fn runtime_delay_ms(delay: &str) -> Option<f64> {
    let d = delay.trim();
    if let Ok(ms) = d.parse::<u64>() {
        return Some(ms as f64);
    }
    let split = d.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let n: f64 = d[..split].parse().ok()?;
    matches!(d[split..].trim(), "ms" | "s" | "m" | "min" | "h").then_some(n)
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
