//! xstate's target resolution over the IR's state tree, for any front end.
//!
//! xstate v5 semantics (`resolveTarget`, `getStateNodeByPath`, `getStateNodeById`):
//! - A target's segments are split at each `.` that no `\` escapes (`toStatePath`): `foo\.bar`
//!   is the one key `foo.bar`. An empty segment ends the walk: `a.` is `a`.
//! - `#id.a.b` names the state whose id is the first segment, `id`, compared whole, then the
//!   child path `a.b` below it; a state's id is its own `id`, or else the machine's id and its
//!   key path joined with `.` (`fix-tests.coding.ready`, which `#fix-tests.coding.ready` reaches
//!   as the root and its keys). The root's id is the machine's. So `#foo.bar` is `bar` inside
//!   `#foo` even where another state's own id is `foo.bar` (which is `#foo\.bar`).
//! - `.a.b` is a descendant of the source state, and `.` the source state itself.
//! - `a.b` is a sibling of the source state (a child of its parent), then its child path; the
//!   root has no siblings, so a plain target from the root resolves to nothing.
//!
//! Unlike xstate, which keeps the last state of a duplicated id, two states claiming one id are
//! reported as ambiguous (`Err` with both).

use super::{State, StateId};
use smallvec::SmallVec;
use std::borrow::Cow;

/// The ids of a state tree, and a map by (parent, key) for its wide states, built once, so that
/// resolving every target of a Machine with many states stays linear in its size.
///
/// A child is found by its key among its parent's [`State::children`]: a scan of a few keys where
/// the parent has at most [`NARROW`] children (nearly always: it costs less than hashing the key),
/// else through the map, so that a state of 20 000 children is not scanned once per target.
///
/// A state's default id (the Machine's id and its keys) is not written out: `#m.a.b` is read by
/// walking the keys `a`, `b` down from the root, which gives the same answer as comparing it with
/// every default id whenever keys hold no `.` and siblings have distinct keys. A tree where that
/// does not hold (rare) has its ids written out and mapped, as xstate compares them.
pub struct Targets<'a> {
    states: &'a [State],
    machine_id: &'a str,
    /// The explicit ids (a state's own `id`), sorted by id, then state.
    explicit: Vec<(&'a str, StateId)>,
    /// Every id written out, where default ids cannot be read by their keys.
    written: Option<FxMap<String, Vec<StateId>>>,
    /// Each state's key, by state: read as a `&str` once (a `Name` is decoded at each read).
    keys: Vec<&'a str>,
    /// The children of the states with more than [`NARROW`] of them, by (parent, key).
    wide: FxMap<(StateId, &'a str), StateId>,
}

/// The most children a state has for its children to be found by a scan of their keys.
const NARROW: usize = 16;

impl<'a> Targets<'a> {
    /// `states` in pre-order with the root first, as [`super::Statechart::states`], each state's
    /// `children` listed in order.
    pub fn new(states: &'a [State], machine_id: &'a str) -> Self {
        Self::build(states, machine_id, false)
    }

    /// The states it resolves in (a "did you mean" reads their keys).
    pub fn states(&self) -> &'a [State] {
        self.states
    }

    /// [`Targets::new`] for a state tree whose siblings' keys are known to be unique, as a
    /// Machine's are (a state's children are the keys of one value-model object, each there
    /// once): their keys are not compared pair by pair.
    pub fn with_unique_siblings(states: &'a [State], machine_id: &'a str) -> Self {
        Self::build(states, machine_id, true)
    }

    fn build(states: &'a [State], machine_id: &'a str, unique_siblings: bool) -> Self {
        let keys: Vec<&'a str> = states.iter().map(|st| st.key.as_str()).collect();
        // A key is a few bytes: a plain loop, not `contains`'s searcher.
        let mut plain = states.iter().zip(&keys).all(|(st, k)| st.parent.is_none() || !k.bytes().any(|b| b == b'.'));
        let mut wide: FxMap<(StateId, &'a str), StateId> = FxMap::default();
        for (i, st) in states.iter().enumerate() {
            let parent = StateId(i as u32);
            let child_keys = || st.children.iter().filter_map(|c| keys.get(c.index()).copied());
            if st.children.len() > NARROW {
                wide.reserve(st.children.len());
                for (c, key) in st.children.iter().zip(child_keys()) {
                    // The first child of a key wins, as the scan of a narrow state finds it.
                    match wide.entry((parent, key)) {
                        std::collections::hash_map::Entry::Occupied(_) => plain = false,
                        std::collections::hash_map::Entry::Vacant(e) => {
                            e.insert(*c);
                        }
                    }
                }
            } else if plain && !unique_siblings {
                // At most NARROW² / 2 comparisons for this state: linear in the tree's size.
                plain = child_keys().enumerate().all(|(j, k)| child_keys().take(j).all(|earlier| earlier != k));
            }
        }
        let mut explicit: Vec<(&'a str, StateId)> =
            states.iter().enumerate().filter_map(|(i, st)| Some((st.id.as_deref()?, StateId(i as u32)))).collect();
        explicit.sort_unstable();
        let written = (!plain).then(|| {
            let mut by_id: FxMap<String, Vec<StateId>> = FxMap::default();
            for i in 0..states.len() {
                let sid = StateId(i as u32);
                by_id.entry(id_of(states, machine_id, sid).into_owned()).or_default().push(sid);
            }
            by_id
        });
        Targets { states, machine_id, explicit, written, keys, wide }
    }

    /// The xstate id of a state: its own `id`, or the Machine's id and its keys joined by `.`.
    pub fn id_of(&self, sid: StateId) -> Cow<'a, str> {
        id_of(self.states, self.machine_id, sid)
    }

    /// The descendant of `from` at the dotted key path `path`, its keys split at every `.` (a
    /// default id's keys, which xstate joins with no escaping).
    fn child_by_keys(&self, from: StateId, path: &str) -> Option<StateId> {
        let mut cur = from;
        let mut rest = path;
        // The segments split by hand: most paths are one short key, where `split`'s searcher
        // costs more than the lookup.
        loop {
            match rest.bytes().position(|b| b == b'.') {
                Some(dot) => {
                    cur = self.child(cur, &rest[..dot])?;
                    rest = &rest[dot + 1..];
                }
                None => return self.child(cur, rest),
            }
        }
    }

    /// The child of `parent` whose key is `key`, the key compared whole.
    pub fn child_by_key(&self, parent: StateId, key: &str) -> Option<StateId> {
        self.child(parent, key)
    }

    /// The first child of `parent` whose key is `key`.
    fn child(&self, parent: StateId, key: &str) -> Option<StateId> {
        let children = &self.states.get(parent.index())?.children;
        if children.len() > NARROW {
            return self.wide.get(&(parent, key)).copied();
        }
        children.iter().copied().find(|c| self.keys.get(c.index()) == Some(&key))
    }

    /// Resolves one target written on a transition of `source`, as xstate's `resolveTarget`
    /// does: the state, or the states that claim an ambiguous `#id` (empty: nothing matches).
    pub fn resolve(&self, source: StateId, target: &str) -> Result<StateId, Vec<StateId>> {
        if target.starts_with('#') {
            return self.by_id(target);
        }
        let parent = self.states.get(source.index()).and_then(|s| s.parent);
        if let Some(rel) = target.strip_prefix('.') {
            // `.a` from the root is its child `a` (`.` the root itself); from another state it is
            // the state's key and the target read from its parent (`.` the state itself), which
            // is the path below the state where the key is one plain segment that finds it.
            return match parent {
                None => self.by_path(source, rel),
                Some(parent) => {
                    let key = self.keys.get(source.index()).copied().unwrap_or_default();
                    let plain = !key.is_empty() && !key.bytes().any(|b| b == b'.' || b == b'\\');
                    if plain && self.child(parent, key) == Some(source) {
                        self.by_path(source, rel)
                    } else {
                        self.by_path(parent, &format!("{key}{target}"))
                    }
                }
            };
        }
        match parent {
            Some(parent) => self.by_path(parent, target),
            None => Err(Vec::new()),
        }
    }

    /// xstate's `getStateNodeByPath` from `from`: a `#id` path by its id, else its segments
    /// ([`state_path`]) down from `from`, where an empty segment ends the walk (`a.` is `a`, the
    /// empty path `from` itself) and a `#id` segment is read by its id.
    pub fn by_path(&self, from: StateId, path: &str) -> Result<StateId, Vec<StateId>> {
        if path.starts_with('#') {
            return self.by_id(path);
        }
        self.down(from, &state_path(path))
    }

    /// The state at `segments` below `from` (see [`Targets::by_path`]).
    fn down(&self, from: StateId, segments: &[Cow<'_, str>]) -> Result<StateId, Vec<StateId>> {
        let mut cur = from;
        for seg in segments {
            if seg.is_empty() {
                break;
            }
            cur = if seg.starts_with('#') { self.by_id(seg)? } else { self.child(cur, seg).ok_or_else(Vec::new)? };
        }
        Ok(cur)
    }

    /// xstate's `getStateNodeById`: `#id.a.b` split into segments ([`state_path`], `\.` an escaped
    /// dot), the first (without its `#`) an id compared whole, the rest a path below its state.
    /// So `#foo.bar` is the child `bar` of `#foo`, even where another state's id is `foo.bar`
    /// (that one is `#foo\.bar`).
    pub fn by_id(&self, target: &str) -> Result<StateId, Vec<StateId>> {
        let segments = state_path(target);
        let head = segments.first().map_or("", |s| s.strip_prefix('#').unwrap_or(s));
        let heads = self.matching(head);
        match heads.as_slice() {
            [] => Err(Vec::new()),
            [one] => self.down(*one, &segments[1..]),
            _ => Err(heads.into_vec()),
        }
    }

    /// The states whose id is `id`, in state order (nearly always one: inline, no allocation).
    fn matching(&self, id: &str) -> SmallVec<[StateId; 2]> {
        if let Some(written) = &self.written {
            return written.get(id).map(|v| SmallVec::from_slice(v)).unwrap_or_default();
        }
        let from = self.explicit.partition_point(|(x, _)| *x < id);
        let mut out: SmallVec<[StateId; 2]> =
            self.explicit[from..].iter().take_while(|(x, _)| *x == id).map(|(_, s)| *s).collect();
        // The state whose default id it is, if that state has no id of its own.
        let by_default = if id == self.machine_id {
            Some(StateId::ROOT)
        } else {
            id.strip_prefix(self.machine_id)
                .and_then(|rest| rest.strip_prefix('.'))
                .and_then(|keys| self.child_by_keys(StateId::ROOT, keys))
        };
        if let Some(s) = by_default.filter(|s| self.states.get(s.index()).is_some_and(|st| st.id.is_none())) {
            if let Err(at) = out.binary_search(&s) {
                out.insert(at, s);
            }
        }
        out
    }
}

/// xstate's `toStatePath`: a target's segments, split at each `.` that no `\` escapes (a `\`
/// takes the character after it as it is). Borrowed where a segment has no escape.
pub fn state_path(path: &str) -> SmallVec<[Cow<'_, str>; 4]> {
    let mut out = SmallVec::new();
    let bytes = path.as_bytes();
    let mut start = 0;
    let mut owned: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let seg = owned.get_or_insert_with(String::new);
                seg.push_str(&path[start..i]);
                // The character after it, whole (it may be more than one byte).
                let next = path[i + 1..].chars().next();
                if let Some(c) = next {
                    seg.push(c);
                }
                i += 1 + next.map_or(0, char::len_utf8);
                start = i;
            }
            b'.' => {
                out.push(match owned.take() {
                    Some(mut seg) => {
                        seg.push_str(&path[start..i]);
                        Cow::Owned(seg)
                    }
                    None => Cow::Borrowed(&path[start..i]),
                });
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    out.push(match owned.take() {
        Some(mut seg) => {
            seg.push_str(&path[start..]);
            Cow::Owned(seg)
        }
        None => Cow::Borrowed(&path[start..]),
    });
    out
}

/// A state's xstate id: its own `id`, or the Machine's id and the keys down to it.
fn id_of<'a>(states: &'a [State], machine_id: &'a str, sid: StateId) -> Cow<'a, str> {
    let Some(st) = states.get(sid.index()) else { return Cow::Borrowed(machine_id) };
    if let Some(id) = &st.id {
        return Cow::Borrowed(id);
    }
    let Some(parent) = st.parent else { return Cow::Borrowed(machine_id) };
    // The default id chains through the parent's default id, not its own `id`.
    let mut keys: Vec<&str> = vec![&st.key];
    let mut cur = parent;
    while let Some(p) = states.get(cur.index()).and_then(|s| s.parent) {
        keys.push(&states[cur.index()].key);
        cur = p;
    }
    let mut out = String::with_capacity(machine_id.len() + keys.iter().map(|k| k.len() + 1).sum::<usize>());
    out.push_str(machine_id);
    for k in keys.iter().rev() {
        out.push('.');
        out.push_str(k);
    }
    Cow::Owned(out)
}

/// A map with the Fx hash (rustc's): the keys are short, and no input picks them to collide.
type FxMap<K, V> = rustc_hash::FxHashMap<K, V>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateKind;

    /// A state tree from (key, parent, own id), in pre-order.
    fn tree(nodes: &[(&str, Option<u32>, Option<&str>)]) -> Vec<State> {
        let mut states: Vec<State> = nodes
            .iter()
            .map(|(key, parent, id)| State {
                id: id.map(str::to_string),
                ..State::new(crate::Name::from(*key), StateKind::Atomic, parent.map(StateId))
            })
            .collect();
        for i in 0..states.len() {
            if let Some(p) = states[i].parent {
                states[p.index()].children.push(StateId(i as u32));
            }
        }
        states
    }

    /// xstate's reading, written out (`resolveTarget`, `getStateNodeByPath`, `getStateNodeById`,
    /// `toStatePath`): every state's id compared whole with a target's first segment.
    fn by_every_id(states: &[State], machine_id: &str, source: StateId, target: &str) -> Result<StateId, Vec<StateId>> {
        let ids: Vec<String> =
            (0..states.len()).map(|i| id_of(states, machine_id, StateId(i as u32)).into_owned()).collect();
        fn split(path: &str) -> Vec<String> {
            let mut out = vec![String::new()];
            let mut chars = path.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => out.last_mut().unwrap().extend(chars.next()),
                    '.' => out.push(String::new()),
                    c => out.last_mut().unwrap().push(c),
                }
            }
            out
        }
        struct X<'a> {
            states: &'a [State],
            ids: Vec<String>,
        }
        impl X<'_> {
            fn by_id(&self, target: &str) -> Result<StateId, Vec<StateId>> {
                let segs = split(target);
                let head = segs[0].strip_prefix('#').unwrap_or(&segs[0]);
                let found: Vec<StateId> =
                    self.ids.iter().enumerate().filter(|(_, x)| *x == head).map(|(i, _)| StateId(i as u32)).collect();
                match found.as_slice() {
                    [one] => self.down(*one, &segs[1..]),
                    _ => Err(found),
                }
            }
            fn down(&self, from: StateId, segs: &[String]) -> Result<StateId, Vec<StateId>> {
                let mut cur = from;
                for seg in segs {
                    if seg.is_empty() {
                        break;
                    }
                    cur = if seg.starts_with('#') {
                        self.by_id(seg)?
                    } else {
                        self.states
                            .iter()
                            .enumerate()
                            .find(|(_, s)| s.parent == Some(cur) && s.key == seg.as_str())
                            .map(|(i, _)| StateId(i as u32))
                            .ok_or_else(Vec::new)?
                    };
                }
                Ok(cur)
            }
            fn by_path(&self, from: StateId, path: &str) -> Result<StateId, Vec<StateId>> {
                if path.starts_with('#') {
                    return self.by_id(path);
                }
                self.down(from, &split(path))
            }
        }
        let x = X { states, ids };
        if target.starts_with('#') {
            return x.by_id(target);
        }
        let st = &states[source.index()];
        match (target.strip_prefix('.'), st.parent) {
            (Some(rel), None) => x.by_path(source, rel),
            (Some(_), Some(parent)) => x.by_path(parent, &format!("{}{target}", st.key)),
            (None, Some(parent)) => x.by_path(parent, target),
            (None, None) => Err(Vec::new()),
        }
    }

    const TARGETS: &[&str] = &[
        "#m",
        "#m.a",
        "#m.a.b",
        "#m.a.b.c",
        "#m.c",
        "#m.x",
        "#x",
        "#x.c",
        "#m.b",
        "#m.b.c",
        "#shared",
        "#shared.c",
        "#m.a.b.c.d",
        "#m.",
        "#",
        "#m.d",
        "#m.d.e",
        "#n.a",
        "a",
        "a.b",
        ".a",
        ".a.b",
        "b",
        "x",
        "#m.b.b",
        "#m.a.x",
        ".",
        "a.",
        "#m.a.",
        "..",
        "a..b",
        "a\\.b",
        "#m.a\\.b",
        "#m\\.a",
        "#m\\.b.c",
        "#shared\\.c",
        "#m.a.#x",
        "#x.c.",
        "c\\",
    ];

    /// Reading default ids by their keys gives what comparing every id gives: explicit ids that
    /// equal another state's default id, ids claimed twice, and (written out) dotted or repeated keys.
    #[test]
    fn default_ids_by_keys_match_every_id_written_out() {
        let trees: Vec<Vec<State>> = vec![
            tree(&[
                ("", None, None),
                ("a", Some(0), None),
                ("b", Some(1), None),
                ("c", Some(2), None),
                ("b", Some(0), Some("x")),
            ]),
            // An explicit id equal to another state's default id: both claim it.
            tree(&[
                ("", None, None),
                ("a", Some(0), Some("m.b")),
                ("b", Some(0), None),
                ("c", Some(2), Some("shared")),
                ("d", Some(0), Some("shared")),
            ]),
            // A state with its own id has no default id, but its children's still chain through its keys.
            tree(&[("", None, None), ("a", Some(0), Some("x")), ("b", Some(1), None), ("c", Some(2), None)]),
            // A dotted key, and keys repeated among siblings: ids are written out.
            tree(&[
                ("", None, None),
                ("a.b", Some(0), None),
                ("a", Some(0), None),
                ("b", Some(2), None),
                ("c", Some(0), None),
            ]),
            tree(&[
                ("", None, None),
                ("a", Some(0), None),
                ("a", Some(0), None),
                ("b", Some(1), None),
                ("", Some(0), None),
            ]),
            // The root's own id.
            tree(&[("", None, Some("x")), ("a", Some(0), None), ("c", Some(1), None)]),
            // A wide state (its children found through the map), then the same with a key twice.
            wide(false),
            wide(true),
        ];
        for states in &trees {
            let targets = Targets::new(states, "m");
            for i in 0..states.len() {
                let source = StateId(i as u32);
                for t in TARGETS {
                    assert_eq!(targets.resolve(source, t), by_every_id(states, "m", source, t), "{t} from {i}");
                }
                assert_eq!(targets.id_of(source), by_every_id_name(states, source));
            }
        }
    }

    /// A root of more than `NARROW` children, among them `a` (with children `b`, `c`) and `b`;
    /// `repeated`: a second `a` (with a child `x`) after the first.
    fn wide(repeated: bool) -> Vec<State> {
        let keys: Vec<String> = (0..NARROW + 2).map(|i| format!("k{i}")).collect();
        let mut nodes: Vec<(&str, Option<u32>, Option<&str>)> = vec![("", None, None)];
        nodes.extend(keys.iter().map(|k| (k.as_str(), Some(0), None)));
        let a = nodes.len() as u32;
        nodes.extend([("a", Some(0), None), ("b", Some(a), None), ("c", Some(a), Some("x")), ("b", Some(0), None)]);
        if repeated {
            let again = nodes.len() as u32;
            nodes.extend([("a", Some(0), None), ("x", Some(again), None)]);
        }
        tree(&nodes)
    }

    fn by_every_id_name(states: &[State], sid: StateId) -> String {
        let st = &states[sid.index()];
        if let Some(id) = &st.id {
            return id.clone();
        }
        let mut keys = Vec::new();
        let mut cur = sid;
        while let Some(p) = states[cur.index()].parent {
            keys.push(states[cur.index()].key.as_str());
            cur = p;
        }
        keys.push("m");
        keys.reverse();
        keys.join(".")
    }
}
