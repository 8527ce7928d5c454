//! A set of states as a sorted list: a configuration, an exit or an entry set holds a few states
//! (a toggle's one, a parallel machine's dozen), where a `BTreeSet` spends a heap node on each
//! change. Up to [`INLINE`] states are held in place; ascending order is document order.

use ir::StateId;
use smallvec::SmallVec;

const INLINE: usize = 8;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StateSet(SmallVec<[StateId; INLINE]>);

impl StateSet {
    pub(crate) fn new() -> StateSet {
        StateSet(SmallVec::new())
    }

    pub(crate) fn contains(&self, s: &StateId) -> bool {
        self.0.binary_search(s).is_ok()
    }

    /// Adds `s`; `false` where it was there.
    pub(crate) fn insert(&mut self, s: StateId) -> bool {
        match self.0.binary_search(&s) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, s);
                true
            }
        }
    }

    pub(crate) fn remove(&mut self, s: &StateId) {
        if let Ok(at) = self.0.binary_search(s) {
            self.0.remove(at);
        }
    }

    /// The states in ascending (document) order.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, StateId> {
        self.0.iter()
    }

    pub(crate) fn extend(&mut self, other: &StateSet) {
        for &s in other.iter() {
            self.insert(s);
        }
    }

    /// Do the two share a state?
    pub(crate) fn intersects(&self, other: &StateSet) -> bool {
        let (mut a, mut b) = (self.0.iter().peekable(), other.0.iter().peekable());
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            match x.cmp(y) {
                std::cmp::Ordering::Less => {
                    a.next();
                }
                std::cmp::Ordering::Greater => {
                    b.next();
                }
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    pub(crate) fn as_slice(&self) -> &[StateId] {
        &self.0
    }
}

impl FromIterator<StateId> for StateSet {
    fn from_iter<I: IntoIterator<Item = StateId>>(iter: I) -> StateSet {
        let mut v: SmallVec<[StateId; INLINE]> = iter.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        StateSet(v)
    }
}

impl<'a> IntoIterator for &'a StateSet {
    type Item = &'a StateId;
    type IntoIter = std::slice::Iter<'a, StateId>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_keeps_its_states_sorted_and_unique() {
        let mut s: StateSet = [StateId(5), StateId(1), StateId(5), StateId(3)].into_iter().collect();
        assert_eq!(s.as_slice(), [StateId(1), StateId(3), StateId(5)]);
        assert!(!s.insert(StateId(3)));
        assert!(s.insert(StateId(2)));
        s.remove(&StateId(5));
        assert_eq!(s.as_slice(), [StateId(1), StateId(2), StateId(3)]);
        let t: StateSet = [StateId(4), StateId(2)].into_iter().collect();
        assert!(s.intersects(&t));
        assert!(!s.intersects(&[StateId(4), StateId(9)].into_iter().collect()));
    }
}
