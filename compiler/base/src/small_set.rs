//! A set for the rules' bookkeeping on big input: a short list scanned while it is short (most
//! Workflows and Charts put a few items in it: fewer instructions than a hash each), hashed past
//! [`SCANNED_SET`] items, so that a wide Machine or Chart stays linear.

use smallvec::SmallVec;

/// How many items a [`SmallSet`] scans before it hashes them.
const SCANNED_SET: usize = 16;

/// The set (see the module doc).
pub struct SmallSet<T> {
    few: SmallVec<[T; SCANNED_SET]>,
    many: rustc_hash::FxHashSet<T>,
}

impl<T> Default for SmallSet<T> {
    fn default() -> Self {
        SmallSet { few: SmallVec::new(), many: Default::default() }
    }
}

impl<T: Eq + std::hash::Hash> SmallSet<T> {
    /// Is `x` in? (Asked by anything the items borrow as: a `&str` of a set of `&str`s.)
    pub fn contains<Q: Eq + std::hash::Hash + ?Sized>(&self, x: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
    {
        if self.many.is_empty() {
            self.few.iter().any(|t| t.borrow() == x)
        } else {
            self.many.contains(x)
        }
    }

    /// Adds `x`; false when it was in already.
    pub fn insert(&mut self, x: T) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&x) {
                return false;
            }
            if self.few.len() < SCANNED_SET {
                self.few.push(x);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(x)
    }
}

/// Membership in a list that is already made: the list itself scanned while it is short, a hash
/// of its items made once past [`SCANNED_SET`] of them.
pub enum Lookup<'a, S> {
    Few(&'a [S]),
    Many(rustc_hash::FxHashSet<&'a str>),
}

impl<'a, S: AsRef<str>> Lookup<'a, S> {
    pub fn new(list: &'a [S]) -> Self {
        if list.len() <= SCANNED_SET {
            Lookup::Few(list)
        } else {
            Lookup::Many(list.iter().map(AsRef::as_ref).collect())
        }
    }

    pub fn contains(&self, x: &str) -> bool {
        match self {
            Lookup::Few(list) => list.iter().any(|s| s.as_ref() == x),
            Lookup::Many(set) => set.contains(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lookup_answers_alike_below_and_past_the_scanned_length() {
        for n in [0, 3, SCANNED_SET, SCANNED_SET + 1, 100] {
            let list: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            let lookup = Lookup::new(&list);
            assert_eq!(matches!(lookup, Lookup::Many(_)), n > SCANNED_SET);
            assert!((0..n).all(|i| lookup.contains(&format!("k{i}"))), "{n}");
            assert!(!lookup.contains("k-1") && !lookup.contains(&format!("k{n}")), "{n}");
        }
    }

    #[test]
    fn each_item_once_below_and_past_the_scanned_length() {
        let mut set = SmallSet::default();
        for i in 0..40u32 {
            assert!(set.insert(i), "{i}");
        }
        for i in 0..40u32 {
            assert!(!set.insert(i) && set.contains(&i), "{i}");
        }
        assert!(!set.contains(&40));
    }
}
