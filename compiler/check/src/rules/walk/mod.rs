//! The walk: the kit's load-time refusals of a Machine (`jr2Setup().createMachine`,
//! `workspace()`), one rule per file, each a pass over the IR and, where it needs them, the
//! Machine's parts as values (its setup's actors, its wrappers).
//!
//! [`check`] runs every rule over the compiled Machine and each Machine its setup names as an
//! actor, or the implementations given outside it (`createMachine`'s second argument,
//! `.provide`) do (the kit refuses at every `createMachine`), and places each line in its file.

use super::{Ctx, Rule, Sink};
use crate::compile::{Located, Lowering};
use diagnostics::Diagnostic;
use ir::{self, SourceMap, StateId, StateKind, Trigger};
use machine::lower::{is_machine, lower_parts, machine_parts, MachineParts, NodeValues};
use machine::module::SourceFile;
use machine::value::Value;

// One line per rule, each with its source, so that rules added in parallel merge line by line.
family! {
    checks: Walk;
    agent_fault_unrouted::AGENT_FAULT_UNROUTED => check, // ADR-0074
    workspace_lost_unrouted::WORKSPACE_LOST_UNROUTED => check, // ADR-0074
    repo_slot_key::REPO_SLOT_KEY => check, // parts.ts assertRepoSlot
    repo_slot_value::REPO_SLOT_VALUE => check, // parts.ts assertRepoSlot
    unrouted_outcome::UNROUTED_OUTCOME => check, // parts.ts refuseUnroutedOutcome (ours)
    lost_output::LOST_OUTPUT => check, // parts.ts refuseLostOutput (ours)
    inline_parts::INLINE_PARTS => check, // parts.ts refuseInlineParts (ours)
    not_executable::NOT_EXECUTABLE => check,
    open_declaration::OPEN_DECLARATION => check,
}

/// The fix of the two unrouted-event rules (a route on the root): not a rule.
pub mod root_route;

/// Runs every walk rule over a lowered Machine and the Machines its setup names as actors.
pub fn check(lowering: &Lowering<'_>) -> Vec<Located> {
    let mut sink = Sink::default();
    walk(lowering, false, &mut sink);
    let mut out = sink.into_located();
    // A child Machine that two actors name is walked twice: one line each.
    let mut seen = std::collections::HashSet::new();
    out.retain(|d| seen.insert((d.file, d.span, d.code)));
    out
}

fn walk(lowering: &Lowering<'_>, nested: bool, sink: &mut Sink) {
    let cx = Ctx::new(Walk::new(lowering, nested));
    for check in CHECKS {
        check(&cx, sink);
    }
    let parts = lowering.parts;
    // The setup's actors, then those given outside it (`createMachine(config, { actors })`,
    // `.provide({ actors })`), a name given again taking the later actor.
    for (_, actor) in parts.setup_entries("actors") {
        // `classify_actor` says `Machine` of exactly what `is_machine` accepts (no Part's kit name
        // is a Machine's call): asked directly, with no kit name compared.
        if !is_machine(actor) {
            continue;
        }
        let Ok(child) = machine_parts(actor) else { continue };
        let lowered = lower_parts(&child);
        if let Some(m) = &lowered.machine {
            let lowering = Lowering {
                parts: &child,
                machine: m,
                map: &lowered.source_map,
                values: &lowered.values,
                files: lowering.files,
            };
            walk(&lowering, true, sink);
        }
    }
}

/// What a walk rule reads: one Machine's IR, its parts, where each of its states is (the source
/// map) and the value each was lowered from.
pub(crate) struct Walk<'a> {
    pub machine: &'a ir::Statechart,
    pub parts: &'a MachineParts<'a>,
    pub map: &'a SourceMap,
    values: &'a NodeValues<'a>,
    /// Is this a Machine that the compiled one's setup names as an actor? Its lines name it.
    pub nested: bool,
    /// The files of the compilation, by [`FileId`]: for a fix's edits.
    pub files: &'a [SourceFile],
    /// The `inline-parts` lines of the config, found by the walk of the config
    /// ([`inline_parts::scan_config`]); [`inline_parts::check`] gives them in its turn.
    inline_parts: Vec<Located>,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(lowering: &Lowering<'a>, nested: bool) -> Self {
        let mut inline = Sink::default();
        inline_parts::scan_config(lowering.parts.config, &mut inline);
        let Lowering { machine, parts, map, values, files } = *lowering;
        Walk { machine, parts, map, values, files, nested, inline_parts: inline.into_located() }
    }

    /// A state's value as written (its object in the config).
    pub(crate) fn state_value(&self, s: StateId) -> Option<&'a Value<'a>> {
        self.values.state(s)
    }

    /// Where a diagnostic at a state is: its key, or its value for the root.
    pub(crate) fn state_at(&self, s: StateId) -> machine::value::Loc {
        self.map.state(s).key_or_value()
    }

    /// A diagnostic of `rule` at a state ([`Walk::state_at`]), with its path.
    pub(crate) fn at_state<'s>(
        &self,
        sink: &'s mut Sink,
        rule: &'static Rule,
        s: StateId,
        message: String,
    ) -> &'s mut Diagnostic {
        sink.at_path(rule, self.state_at(s), self.map.state_path(s), message)
    }

    /// A state as a line names it: its keys from the root (`coding.ready`), or the root; and its
    /// Machine, in a nested one.
    pub(crate) fn name(&self, s: StateId) -> String {
        if s == StateId::ROOT {
            return format!("the root of Machine \"{}\"", self.machine.id);
        }
        let mut keys: Vec<&str> = std::iter::once(s)
            .chain(self.machine.ancestors(s))
            .filter(|x| *x != StateId::ROOT)
            .map(|x| self.machine.state(x).key.as_str())
            .collect();
        keys.reverse();
        if self.nested {
            format!("state \"{}\" of Machine \"{}\"", keys.join("."), self.machine.id)
        } else {
            format!("state \"{}\"", keys.join("."))
        }
    }

    /// Where the route goes: the state or a state above it, or the root.
    pub(crate) fn route_place(&self, s: StateId) -> String {
        if s == StateId::ROOT {
            "the root".into()
        } else {
            format!("{} or a state above it", self.name(s))
        }
    }

    /// That nothing routes `event`: from the state or above it, or from the root.
    pub(crate) fn unrouted(&self, s: StateId, event: &str) -> String {
        if s == StateId::ROOT {
            format!("and it does not route `{event}`")
        } else {
            format!("and neither it nor any state above it routes `{event}`")
        }
    }

    /// Does the state, or a state above it, route `event` (by name, or by a wildcard that matches
    /// it: `*`, `agent.*`)? A guarded route counts: the walk cannot judge a guard.
    pub(crate) fn routed(&self, s: StateId, event: &str) -> bool {
        std::iter::once(s).chain(self.machine.ancestors(s)).any(|x| {
            self.machine
                .transitions_from(x)
                .any(|t| matches!(&t.trigger, Trigger::Event(name) if matches_event(name, event)))
        })
    }

    /// Is this a leaf that is not final (a state with no children: an atomic state, or an empty
    /// compound or parallel one)?
    pub(crate) fn is_open_leaf(&self, s: StateId) -> bool {
        let st = self.machine.state(s);
        st.children.is_empty() && st.kind != StateKind::Final
    }
}

/// Does an `on` key take this event? xstate's descriptors: the name, `*`, and a partial wildcard
/// `prefix.*`.
fn matches_event(descriptor: &str, event: &str) -> bool {
    descriptor == event
        || descriptor == "*"
        || descriptor.strip_suffix(".*").is_some_and(|p| event.strip_prefix(p).is_some_and(|r| r.starts_with('.')))
}

#[cfg(test)]
mod tests {
    use super::matches_event;

    #[test]
    fn wildcards_match_as_xstate_does() {
        assert!(matches_event("agent.fault", "agent.fault"));
        assert!(matches_event("*", "agent.fault"));
        assert!(matches_event("agent.*", "agent.fault"));
        assert!(!matches_event("agent.*", "agentx.fault"));
        assert!(!matches_event("workspace.*", "agent.fault"));
        assert!(!matches_event("agent.faults", "agent.fault"));
    }
}
