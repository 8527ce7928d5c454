//! xstate's target resolution over the IR's state tree, for any front end.
//!
//! xstate v5 semantics (`resolveTarget`, `getStateNodeByPath`, `getStateNodeById`):
//! - `#id` names the state whose id is `id`; a state's id is its own `id`, or else the machine's
//!   id and its key path joined with `.` (`fix-tests.coding.ready`). The root's id is the
//!   machine's. When no id matches whole, `#id.a.b` is the state `id` and then the child path.
//! - `.a.b` is a descendant of the source state.
//! - `a.b` is a sibling of the source state (a child of its parent), then its child path; the
//!   root has no siblings, so a plain target from the root resolves to nothing.
//!
//! Unlike xstate, which keeps the last state of a duplicated id, two states claiming one id are
//! reported as ambiguous (`Err` with both).

use super::{State, StateId};
use std::collections::HashMap;

/// The ids of a state tree, computed once, and maps by id and by (parent, key), so that resolving
/// every target of a Machine with many states stays linear in its size.
pub struct Targets<'a> {
    states: &'a [State],
    ids: Vec<String>,
    by_id: HashMap<String, Vec<StateId>>,
    by_key: HashMap<(StateId, &'a str), StateId>,
}

impl<'a> Targets<'a> {
    /// `states` in pre-order with the root first, as [`super::Machine::states`].
    pub fn new(states: &'a [State], machine_id: &str) -> Self {
        let mut ids: Vec<String> = Vec::with_capacity(states.len());
        // The default id of a state: the default id of its parent and its key (pre-order: the
        // parent's is already there). Kept apart from the explicit ids, which do not chain.
        let mut default_ids: Vec<String> = Vec::with_capacity(states.len());
        for st in states {
            let default = match st.parent {
                None => machine_id.to_string(),
                Some(p) => format!("{}.{}", default_ids[p.index()], st.key),
            };
            ids.push(st.id.clone().unwrap_or_else(|| default.clone()));
            default_ids.push(default);
        }
        let mut by_id: HashMap<String, Vec<StateId>> = HashMap::with_capacity(ids.len());
        for (i, id) in ids.iter().enumerate() {
            by_id.entry(id.clone()).or_default().push(StateId(i as u32));
        }
        let mut by_key = HashMap::with_capacity(states.len());
        for (i, st) in states.iter().enumerate() {
            if let Some(parent) = st.parent {
                // The first child of a key wins, as the scan this replaces found it.
                by_key.entry((parent, st.key.as_str())).or_insert(StateId(i as u32));
            }
        }
        Targets { states, ids, by_id, by_key }
    }

    /// The xstate id of a state.
    pub fn id_of(&self, sid: StateId) -> &str {
        &self.ids[sid.index()]
    }

    /// The descendant of `from` at the dotted key path `path`.
    pub fn child_by_path(&self, from: StateId, path: &str) -> Option<StateId> {
        let mut cur = from;
        for seg in path.split('.') {
            cur = *self.by_key.get(&(cur, seg))?;
        }
        Some(cur)
    }

    /// Resolves one target written on a transition of `source`: the state, or the states that
    /// claim an ambiguous `#id` (empty: nothing matches).
    pub fn resolve(&self, source: StateId, target: &str) -> Result<StateId, Vec<StateId>> {
        if let Some(id) = target.strip_prefix('#') {
            let whole: Vec<StateId> = self.matching(id);
            if !whole.is_empty() {
                return one(whole);
            }
            let Some((head, rest)) = id.split_once('.') else { return Err(Vec::new()) };
            let heads = self.matching(head);
            if heads.len() > 1 {
                return Err(heads);
            }
            return heads.first().and_then(|h| self.child_by_path(*h, rest)).ok_or_else(Vec::new);
        }
        if let Some(rel) = target.strip_prefix('.') {
            return self.child_by_path(source, rel).ok_or_else(Vec::new);
        }
        match self.states.get(source.index()).and_then(|s| s.parent) {
            Some(parent) => self.child_by_path(parent, target).ok_or_else(Vec::new),
            None => Err(Vec::new()),
        }
    }

    fn matching(&self, id: &str) -> Vec<StateId> {
        self.by_id.get(id).cloned().unwrap_or_default()
    }
}

fn one(found: Vec<StateId>) -> Result<StateId, Vec<StateId>> {
    match found.as_slice() {
        [one] => Ok(*one),
        _ => Err(found),
    }
}
