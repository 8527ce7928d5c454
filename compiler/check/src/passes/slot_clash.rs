//! The parallel-region clash: one Agent slot active twice.
//!
//! An Agent runs one Turn at a time: one sender and one conversation cannot hold two. Two states
//! that invoke the same Agent clash when they can be active together: in parallel regions, one
//! inside the other, or one state invoking it twice. The Chart door reports a clash with its own
//! line (rule 6); Machines report it with theirs (`party.ts`).

use ir::{StateId, StateKind, Statechart};

/// One Agent slot and every state of it that can be active with another of them, in state order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clash {
    pub slot: String,
    pub states: Vec<StateId>,
}

/// Two invokes of one Agent slot whose states can be active together: `a` before `b` in state
/// order, and `a == b` where one state invokes it twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClashPair {
    pub slot: String,
    pub a: StateId,
    pub b: StateId,
    /// Where `b` invokes the slot: the index of that invoke in `b`'s invokes.
    pub b_invoke: usize,
}

/// Every clashing pair of a Machine, slot by slot in the order the slots are first invoked, then
/// in state order (the order `party.ts`'s `refuseSlotActiveTwice` tries them in); a pair of states
/// is listed once.
pub(crate) fn slot_clash_pairs(m: &Statechart) -> Vec<ClashPair> {
    // Every Agent invoke in state order, in one list (not a map of a list per slot: one
    // allocation, not one per slot and two for the map); a slot's are found by a scan of it.
    let invokes: Vec<(&str, StateId, usize)> = m
        .ids()
        .flat_map(|id| {
            let invokes = m.state(id).invokes.iter().enumerate();
            invokes.filter(|(_, i)| i.kind.is_agent()).map(move |(k, i)| (i.src.as_str(), id, k))
        })
        .collect();
    let mut out: Vec<ClashPair> = Vec::new();
    for (n, &(slot, ..)) in invokes.iter().enumerate() {
        // Each slot once, at its first invoke.
        if invokes[..n].iter().any(|(s, ..)| *s == slot) {
            continue;
        }
        let of_slot = || invokes[n..].iter().filter(|(s, ..)| *s == slot);
        for (i, &(_, a, _)) in of_slot().enumerate() {
            for &(_, b, b_invoke) in of_slot().skip(i + 1) {
                let together = a == b
                    || m.is_ancestor_or_self(a, b)
                    || m.is_ancestor_or_self(b, a)
                    || m.state(m.nearest_common(a, b)).kind == StateKind::Parallel;
                if together && !out.iter().any(|p| p.slot == slot && p.a == a && p.b == b) {
                    out.push(ClashPair { slot: slot.to_string(), a, b, b_invoke });
                }
            }
        }
    }
    out
}

/// The clashes of a Machine, one per Agent slot, in the order the slots are first invoked.
pub(crate) fn slot_clashes(m: &Statechart) -> Vec<Clash> {
    let mut out: Vec<Clash> = Vec::new();
    for pair in slot_clash_pairs(m) {
        if out.last().is_none_or(|c| c.slot != pair.slot) {
            out.push(Clash { slot: pair.slot.clone(), states: Vec::new() });
        }
        let clash = out.last_mut().expect("pushed above");
        for s in [pair.a, pair.b] {
            if !clash.states.contains(&s) {
                clash.states.push(s);
            }
        }
    }
    out
}
