//! The parallel-region clash: one Agent slot active twice.
//!
//! An Agent runs one Turn at a time: one sender and one conversation cannot hold two. Two states
//! that invoke the same Agent clash when they can be active together: in parallel regions, one
//! inside the other, or one state invoking it twice. The Chart door reports a clash with its own
//! line (rule 6); Machines report it with theirs (`party.ts`).

use crate::ir::{Machine, StateId, StateKind};
use indexmap::{IndexMap, IndexSet};

/// One Agent slot and every state of it that can be active with another of them, in state order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clash {
    pub slot: String,
    pub states: Vec<StateId>,
}

/// The clashes of a Machine, one per Agent slot, in the order the slots are first invoked.
pub fn slot_clashes(m: &Machine) -> Vec<Clash> {
    let mut slot_states: IndexMap<&str, Vec<StateId>> = IndexMap::new();
    for id in m.ids() {
        for inv in m.state(id).invokes.iter().filter(|i| i.kind.is_agent()) {
            slot_states.entry(inv.src.as_str()).or_default().push(id);
        }
    }
    let mut out = Vec::new();
    for (slot, states) in slot_states {
        let mut clash: IndexSet<StateId> = IndexSet::new();
        for i in 0..states.len() {
            for j in i + 1..states.len() {
                let (a, b) = (states[i], states[j]);
                let together = a == b
                    || m.is_ancestor_or_self(a, b)
                    || m.is_ancestor_or_self(b, a)
                    || m.state(m.nearest_common(a, b)).kind == StateKind::Parallel;
                if together {
                    clash.insert(a);
                    clash.insert(b);
                }
            }
        }
        if !clash.is_empty() {
            out.push(Clash { slot: slot.to_string(), states: clash.into_iter().collect() });
        }
    }
    out
}
