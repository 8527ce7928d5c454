//! Where each IR node was written: its file, its span and its dotted path, beside the IR rather
//! than in it (as rust-analyzer's `BodySourceMap` is beside its `Body`).
//!
//! The IR is what a runtime stores and hashes: it says what runs, not where it was written, so
//! its serialized form does not change when only whitespace or comments do. Everything a
//! diagnostic points at is here, by the node's id: a state by its [`StateId`], a transition by its
//! index in [`Statechart::transitions`](crate::Statechart), an invoke by its state and its index in the
//! state's invokes (what [`Trigger::InvokeDone`](crate::Trigger) names). A front end returns one
//! beside each IR it lowers, and fills it as it adds each node.
//!
//! Parallel lists indexed by id: no block per node (a path of up to 24 bytes is inline in its
//! [`Name`], as it was in the IR).

use crate::{Name, StateId};
use base::{Loc, Span};
use serde::{Deserialize, Serialize};

/// Where a state was written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateSource {
    /// Its dotted path from the root, as the door's lines name it (`states.review`); empty for
    /// the root.
    pub path: Name,
    /// Its value (the object).
    pub loc: Loc,
    /// Its key, where it has one (every state but the root).
    pub key: Option<Loc>,
}

impl StateSource {
    /// Where a line about the state points: its key, or its value for the root.
    pub fn key_or_value(&self) -> Loc {
        self.key.unwrap_or(self.loc)
    }
}

/// Where a transition or an invoke was written: its value and its dotted path
/// (`states.review.on.done.0`, `states.review.invoke`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeSource {
    pub path: Name,
    pub loc: Loc,
}

impl NodeSource {
    pub fn span(&self) -> Span {
        self.loc.span
    }
}

/// The source map of one IR (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceMap {
    /// By [`StateId`].
    states: Vec<StateSource>,
    /// Where each state's invokes start in `invokes`, by [`StateId`].
    first_invoke: Vec<u32>,
    /// Every state's invokes, state after state, each state's in order.
    invokes: Vec<NodeSource>,
    /// By transition index.
    transitions: Vec<NodeSource>,
}

impl SourceMap {
    /// A map with room for `states` states (and as many invokes) and `transitions` transitions.
    pub fn with_capacity(states: usize, transitions: usize) -> Self {
        SourceMap {
            states: Vec::with_capacity(states),
            first_invoke: Vec::with_capacity(states),
            invokes: Vec::with_capacity(states),
            transitions: Vec::with_capacity(transitions),
        }
    }

    /// Room for `n` more transitions.
    pub fn reserve_transitions(&mut self, n: usize) {
        self.transitions.reserve_exact(n);
    }

    /// Where the next state's invokes start: what [`SourceMap::push_state`] takes, read before
    /// the state's invokes are pushed.
    pub fn next_invoke(&self) -> u32 {
        self.invokes.len() as u32
    }

    /// Adds the next state (`StateId(n)` for the n-th pushed), whose invokes were pushed from
    /// `first_invoke` on ([`SourceMap::next_invoke`] before them).
    pub fn push_state(&mut self, source: StateSource, first_invoke: u32) {
        self.states.push(source);
        self.first_invoke.push(first_invoke);
    }

    /// Adds the next invoke of the state being added.
    pub fn push_invoke(&mut self, source: NodeSource) {
        self.invokes.push(source);
    }

    /// Adds the next transition.
    pub fn push_transition(&mut self, source: NodeSource) {
        self.transitions.push(source);
    }

    /// The state's source.
    pub fn state(&self, id: StateId) -> &StateSource {
        &self.states[id.index()]
    }

    /// A state's dotted path (empty for the root).
    pub fn state_path(&self, id: StateId) -> &str {
        &self.states[id.index()].path
    }

    /// The source of the transition at index `ti`.
    pub fn transition(&self, ti: usize) -> &NodeSource {
        &self.transitions[ti]
    }

    /// The dotted path of the transition at index `ti`.
    pub fn transition_path(&self, ti: usize) -> &str {
        &self.transitions[ti].path
    }

    /// The dotted path of a state's `k`-th invoke (empty where it has none).
    pub fn invoke_path(&self, state: StateId, k: usize) -> &str {
        self.invoke(state, k).map_or("", |x| x.path.as_str())
    }

    /// The source of a state's `k`-th invoke, where it has one.
    pub fn invoke(&self, state: StateId, k: usize) -> Option<&NodeSource> {
        self.invokes.get(self.invoke_index(state, k)?)
    }

    /// The index of a state's `k`-th invoke among every invoke of the Machine, state after state
    /// (for a table a front end keeps beside this one, in the same order).
    pub fn invoke_index(&self, state: StateId, k: usize) -> Option<usize> {
        let i = state.index();
        let start = *self.first_invoke.get(i)? as usize;
        let end = self.first_invoke.get(i + 1).map_or(self.invokes.len(), |&e| e as usize);
        Some(start + k).filter(|&x| x < end)
    }

    /// How many states it places.
    pub fn state_count(&self) -> usize {
        self.states.len()
    }

    /// How many transitions it places.
    pub fn transition_count(&self) -> usize {
        self.transitions.len()
    }

    /// Every state's source, by [`StateId`].
    pub fn states(&self) -> &[StateSource] {
        &self.states
    }

    /// Every transition's source, by index.
    pub fn transitions(&self) -> &[NodeSource] {
        &self.transitions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base::FileId;

    fn at(start: u32) -> Loc {
        Loc::new(FileId(0), Span::new(start, start + 1))
    }

    /// A state's invokes are the run pushed before it; a state with none has an empty run, and
    /// the last state's run ends with the list.
    #[test]
    fn invokes_by_state_and_index() {
        let mut map = SourceMap::default();
        let first = map.next_invoke();
        map.push_invoke(NodeSource { path: "invoke.0".into(), loc: at(1) });
        map.push_invoke(NodeSource { path: "invoke.1".into(), loc: at(2) });
        map.push_state(StateSource { path: "".into(), loc: at(0), key: None }, first);
        let first = map.next_invoke();
        map.push_state(StateSource { path: "states.a".into(), loc: at(3), key: Some(at(4)) }, first);
        let first = map.next_invoke();
        map.push_invoke(NodeSource { path: "states.b.invoke".into(), loc: at(6) });
        map.push_state(StateSource { path: "states.b".into(), loc: at(5), key: Some(at(7)) }, first);
        assert_eq!(map.invoke(StateId(0), 1).map(|s| s.path.as_str()), Some("invoke.1"));
        assert_eq!(map.invoke(StateId(0), 2), None);
        assert_eq!(map.invoke(StateId(1), 0), None);
        assert_eq!(map.invoke(StateId(2), 0).map(|s| s.path.as_str()), Some("states.b.invoke"));
        assert_eq!(map.invoke(StateId(3), 0), None);
        assert_eq!(map.state(StateId(2)).key_or_value(), at(7));
        assert_eq!(map.state(StateId(0)).key_or_value(), at(0));
    }
}
