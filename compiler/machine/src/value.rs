//! The static value model of a Machine source: what the evaluator (`eval.rs`) makes of the
//! TypeScript, with nothing executed.
//!
//! Every value keeps where it came from ([`Loc`]). The authoring surface's calls are not
//! interpreted here: `agent({...})`, `z.object({...}).optional()` or
//! `jr2Setup({...}).createMachine({...})` are [`ValueKind::Call`]s with their callee and arguments,
//! and the passes that need them (`zod.rs`, `lower.rs`, `parts.rs`) read them by name. What the
//! evaluator cannot know statically is [`ValueKind::Unknown`], with the reason, and the rest of the
//! Machine goes on (a `not-static` warning at its span).
//!
//! Memory: an evaluation's values live in one [`Arena`] (`'v`): a [`Value`] is a few words, `Copy`,
//! and its strings, lists and calls are references into the arena, so a value is copied without
//! its tree, a call read through two names is one node, and the tree is freed at once with its
//! arena, not dropped node by node (that drop walk and the per-node heap blocks were ~6% of a
//! `jr2 check`, docs/benchmarks.md). The arena and the values kept of it (an evaluation's
//! exports) are one owned [`Values`], which a compilation holds; a caller that keeps a part past
//! it copies that part into an arena of its own ([`Value::copy_into`]).
//!
//! Invariant: plain data; no oxc type appears here, so the passes after evaluation know no parser.
//! No node of the tree needs a drop (checked at compile time): an arena frees without one.

use ir::Expr;
use serde::Serialize;
use std::sync::Arc;

/// An IR name ([`ir::Name`]): what a key or a string of the value model becomes in the IR.
pub use ir::Name;

/// A source file of the Instance, by index into the evaluator's file table; a place in one
/// (`base`'s, which the IR's source map uses too).
pub use base::{FileId, Loc};

/// A value with its place. It lives in its evaluation's [`Arena`] (`'v`), and is a copy of a
/// few words: its strings, lists and calls are references into the arena, so copying one copies
/// no tree, and nothing of it is dropped node by node (the arena goes at once).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Value<'v> {
    pub kind: ValueKind<'v>,
    pub loc: Loc,
    /// How many values its tree has with a shared one counted in each place it is used (itself
    /// included; at most `u32::MAX`): what a pass that walks the tree walks. Made with the value
    /// ([`Value::new`]), from its children's, so that a tree sharing one object twice per level
    /// (forty levels: 2^40 values) is measured without being walked.
    #[serde(skip)]
    size: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ValueKind<'v> {
    Undefined,
    Null,
    Bool {
        value: bool,
    },
    Number {
        value: f64,
    },
    String {
        value: &'v str,
    },
    Array {
        items: &'v [Value<'v>],
    },
    /// An object literal, its properties in source order (a later key replaces an earlier one,
    /// as in JavaScript; spreads of known objects are already merged in). Invariant: each key
    /// once, which its readers rely on to build their own maps without a search per key (zod's
    /// shapes, `to_ir_json`).
    Object {
        props: &'v [Prop<'v>],
    },
    /// A call of the authoring surface (jr2, xstate or zod), or a method called on one. Shared:
    /// a binding read by name (`workspace(body, ...)`, an event def in `events` and in
    /// `paramsOf`) is the same call, not a copy of its tree.
    Call(&'v Call<'v>),
    /// An arrow function or function expression: code, with the facts the analysis read off it.
    Function(&'v Function),
    /// An export of a known module used as a value, not called: `guard: isReady`, `actors: {
    /// gate }`, `z.string` without its call. Calling it makes a [`ValueKind::Call`] with this
    /// callee.
    Imported {
        callee: Callee<'v>,
    },
    /// What the evaluator could not know statically.
    Unknown {
        reason: &'v str,
    },
}

/// One property of an object literal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Prop<'v> {
    pub key: &'v str,
    /// The key's place (for a diagnostic that points at the key).
    pub key_loc: Loc,
    pub value: Value<'v>,
}

/// What a call calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "camelCase")]
pub enum Callee<'v> {
    /// An export of `@jr2/orchestrator`, by its exported name: `agent`, `jr2Setup`, `sentBy`, ...
    Kit(&'v str),
    /// An export of `xstate`: `setup`, `assign`, `and`, `or`, `not`, ...
    Xstate(&'v str),
    /// A member of zod's `z`: `z.object` is `Zod("object")`.
    Zod(&'v str),
    /// A method called on the receiver: `.createMachine`, `.optional`, `.describe`, `.pick`, ...
    Method(&'v str),
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Call<'v> {
    pub callee: Callee<'v>,
    /// For a [`Callee::Method`]: the value it is called on.
    pub receiver: Option<Value<'v>>,
    pub args: &'v [Value<'v>],
}

/// A function: it stays code, and carries what it statically reads. Owned (its facts are lists,
/// its lowering an IR expression), so its arena keeps it apart and drops it ([`Arena`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Function {
    /// The parameter names as written (a destructured one is written out, e.g. `{ context, event }`);
    /// inline up to one, as most functions have one (`({ context }) => ...`).
    pub(crate) params: smallvec::SmallVec<[Name; 1]>,
    pub facts: Facts,
    /// Where the body is a pure expression the runtime can evaluate: its lowering.
    pub lowered: Option<Arc<Expr>>,
    /// Where it did not lower: the function carried as JavaScript, or why it cannot be (what it
    /// reaches that no run can have). `None` where it lowered. (Not in a value's serialized
    /// form, which shows what the evaluator read; the IR holds the script.)
    #[serde(skip)]
    pub carried: Option<Carried>,
}

/// A function carried as JavaScript (its script: `args` are the context and the event, as for
/// every place but the `context` factory), or the reason it is refused.
pub type Carried = Result<Arc<ir::expr::Script>, Arc<str>>;

/// What a function reads, as far as the analysis can see.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Facts {
    /// The pick params it reads: `paramsOf(event, def).x`, a destructured `paramsOf`, or a
    /// `fromPick` by name. Each is (the pick's event name, the param).
    pub pick_params: Vec<(Name, Name)>,
    /// The context keys it reads (`context.x`, the first segment); inline up to two.
    pub(crate) context_keys: smallvec::SmallVec<[Name; 2]>,
    /// Did the analysis see all of it? False where the body does something it cannot follow
    /// (the seed's "could not probe the input mapper").
    pub complete: bool,
    /// The kit's Part constructors called in its body (`agent(...)`, `command(...)`, ...): each
    /// the kit export's name and the call's span, in the function's file. A Part belongs in the
    /// setup's `actors` (the `inline-parts` rule reads these).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<(Name, base::Span)>,
}

// No node of the tree needs dropping: the arena frees them all at once. (A field that needed a
// drop, a `String` or an `Arc`, would leak from a bump arena: this keeps one from being added.)
const _: () = assert!(!std::mem::needs_drop::<Value<'static>>());
const _: () = assert!(!std::mem::needs_drop::<Call<'static>>());

/// Where an evaluation's values live: a bump arena for the tree (strings, lists, calls: no drop),
/// and a typed arena for its functions (each has lists and an `Arc`, dropped with the arena, in
/// one pass over a flat list, not by a walk of the tree).
pub struct Arena {
    bump: bumpalo::Bump,
    functions: typed_arena::Arena<Function>,
}

impl Default for Arena {
    /// An arena that has allocated nothing yet (its chunks come with its first values).
    fn default() -> Self {
        Arena::with_capacity(0)
    }
}

impl Arena {
    /// An arena whose first chunk holds `bytes` of values (and room for a function per
    /// [`BYTES_PER_FUNCTION`] of them, as the generated Workflows have).
    pub(crate) fn with_capacity(bytes: usize) -> Arena {
        Arena {
            bump: bumpalo::Bump::with_capacity(bytes),
            functions: typed_arena::Arena::with_capacity(bytes / BYTES_PER_FUNCTION),
        }
    }

    pub(crate) fn str<'v>(&'v self, s: &str) -> &'v str {
        if s.is_empty() {
            ""
        } else {
            self.bump.alloc_str(s)
        }
    }

    pub fn values<'v>(&'v self, items: &[Value<'v>]) -> &'v [Value<'v>] {
        if items.is_empty() {
            &[]
        } else {
            self.bump.alloc_slice_copy(items)
        }
    }

    pub fn props<'v>(&'v self, props: &[Prop<'v>]) -> &'v [Prop<'v>] {
        if props.is_empty() {
            &[]
        } else {
            self.bump.alloc_slice_copy(props)
        }
    }

    /// A list growing in the arena, with room for `n` made at once: a list written there while
    /// other values are made (its items' own lists) is not copied as long as it stays within `n`.
    pub(crate) fn list<T>(&self, n: usize) -> List<'_, T> {
        bumpalo::collections::Vec::with_capacity_in(n, &self.bump)
    }

    pub fn call<'v>(&'v self, call: Call<'v>) -> &'v Call<'v> {
        self.bump.alloc(call)
    }

    pub(crate) fn function(&self, f: Function) -> &Function {
        self.functions.alloc(f)
    }
}

/// A list being written in an arena ([`Arena::list`]); `into_bump_slice` ends it as a slice of
/// the arena.
pub(crate) type List<'v, T> = bumpalo::collections::Vec<'v, T>;

/// How many bytes of values come with one function, about (see [`Arena::with_capacity`]).
const BYTES_PER_FUNCTION: usize = 2048;

/// An arena that no one allocates in any more: the owner of a [`Values`] cell.
pub(crate) struct Frozen(Arena);

// SAFETY: `Arena` is not `Sync` because allocating takes `&self` (a bump pointer in a `Cell`).
// A `Frozen` arena is one no one can allocate in: its field is private, and this module reads it
// only in [`Values::build`], while the cell is being built on one thread, before it can be shared.
// After that, all that is reachable through it is the values, which are plain shared data.
unsafe impl Sync for Frozen {}

impl std::fmt::Debug for Frozen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Arena({} bytes)", self.0.bump.allocated_bytes())
    }
}

/// What an evaluation's values are kept in: the named values (a file's exports) with their
/// arena.
pub type Named<'v> = indexmap::IndexMap<String, Value<'v>>;

self_cell::self_cell!(
    /// An evaluation's values with the arena they live in, as one owned thing (a [`Compiled`]
    /// keeps one; the LSP's database caches it): `get` reads a value by name.
    ///
    /// [`Compiled`]: check::compile::Compiled
    pub struct Values {
        owner: Frozen,
        #[covariant]
        dependent: Named,
    }

    impl {Debug}
);

impl Values {
    /// Builds the values in a fresh arena: `f` allocates them in it and names the ones kept;
    /// whatever else it returns comes out beside them.
    pub fn build<T>(arena: Arena, f: impl for<'v> FnOnce(&'v Arena) -> (Named<'v>, T)) -> (Values, T) {
        let mut out = None;
        let values = Values::new(Frozen(arena), |frozen| {
            let (named, other) = f(&frozen.0);
            out = Some(other);
            named
        });
        (values, out.expect("the builder ran"))
    }

    /// No values (and an empty arena).
    pub fn empty() -> Values {
        Values::new(Frozen(Arena::default()), |_| Named::default())
    }

    /// The value named `name`.
    pub fn get(&self, name: &str) -> Option<&Value<'_>> {
        self.borrow_dependent().get(name)
    }

    /// Every named value, in order.
    pub fn named(&self) -> &Named<'_> {
        self.borrow_dependent()
    }
}

impl Serialize for Values {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.borrow_dependent().serialize(s)
    }
}

impl Default for Values {
    fn default() -> Self {
        Values::empty()
    }
}

impl<'v> Value<'v> {
    pub fn new(kind: ValueKind<'v>, loc: Loc) -> Self {
        // Summed in u64 (no overflow below 2^32 children of u32 sizes), saturated once.
        let size = match kind {
            ValueKind::Array { items } => items.iter().map(|v| u64::from(v.size)).sum::<u64>(),
            ValueKind::Object { props } => props.iter().map(|p| u64::from(p.value.size)).sum::<u64>(),
            ValueKind::Call(c) => {
                c.args.iter().map(|v| u64::from(v.size)).sum::<u64>() + c.receiver.map_or(0, |r| u64::from(r.size))
            }
            _ => 0,
        };
        let size = u32::try_from(size + 1).unwrap_or(u32::MAX);
        Value { kind, loc, size }
    }

    /// How many values its tree has, a shared one counted in each place it is used (itself
    /// included; saturating at `u32::MAX`): what a pass that walks the tree walks.
    pub(crate) fn tree_size(&self) -> usize {
        self.size as usize
    }

    pub fn as_str(&self) -> Option<&'v str> {
        match self.kind {
            ValueKind::String { value } => Some(value),
            _ => None,
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self.kind {
            ValueKind::Bool { value } => Some(value),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&'v [Value<'v>]> {
        match self.kind {
            ValueKind::Array { items } => Some(items),
            _ => None,
        }
    }

    pub fn as_call(&self) -> Option<&'v Call<'v>> {
        match self.kind {
            ValueKind::Call(c) => Some(c),
            _ => None,
        }
    }

    pub fn as_function(&self) -> Option<&'v Function> {
        match self.kind {
            ValueKind::Function(f) => Some(f),
            _ => None,
        }
    }

    /// The properties of an object literal.
    pub fn props(&self) -> Option<&'v [Prop<'v>]> {
        match self.kind {
            ValueKind::Object { props } => Some(props),
            _ => None,
        }
    }

    /// The value of `key` in an object literal (the last one, as in JavaScript).
    pub fn get(&self, key: &str) -> Option<&'v Value<'v>> {
        self.props()?.iter().rev().find(|p| p.key == key).map(|p| &p.value)
    }

    /// Is this a call of the kit export `name`?
    pub fn is_kit_call(&self, name: &str) -> bool {
        self.as_call().is_some_and(|c| matches!(c.callee, Callee::Kit(n) if n == name))
    }

    /// The reason, for an unknown value.
    #[cfg(test)]
    pub(crate) fn unknown_reason(&self) -> Option<&'v str> {
        match self.kind {
            ValueKind::Unknown { reason } => Some(reason),
            _ => None,
        }
    }

    pub(crate) fn is_unknown(&self) -> bool {
        matches!(self.kind, ValueKind::Unknown { .. })
    }

    /// A copy of this value in `arena`, whole: its strings, lists, calls and functions, for a
    /// caller that keeps a part of a tree past the tree's own arena (the Instance check keeps a
    /// Workflow's door so). A call held twice (a shared node) is copied once and stays shared.
    pub fn copy_into<'a>(&self, arena: &'a Arena) -> Value<'a> {
        self.copy_with(arena, &mut rustc_hash::FxHashMap::default())
    }

    /// [`Value::copy_into`], with the calls copied so far (by address, each to its copy).
    fn copy_with<'a>(&self, arena: &'a Arena, calls: &mut rustc_hash::FxHashMap<*const (), &'a Call<'a>>) -> Value<'a> {
        let callee_into = |callee: Callee<'_>| match callee {
            Callee::Kit(n) => Callee::Kit(arena.str(n)),
            Callee::Xstate(n) => Callee::Xstate(arena.str(n)),
            Callee::Zod(n) => Callee::Zod(arena.str(n)),
            Callee::Method(n) => Callee::Method(arena.str(n)),
        };
        let kind = match self.kind {
            ValueKind::Undefined => ValueKind::Undefined,
            ValueKind::Null => ValueKind::Null,
            ValueKind::Bool { value } => ValueKind::Bool { value },
            ValueKind::Number { value } => ValueKind::Number { value },
            ValueKind::String { value } => ValueKind::String { value: arena.str(value) },
            ValueKind::Array { items } => {
                let items: Vec<Value<'a>> = items.iter().map(|x| x.copy_with(arena, calls)).collect();
                ValueKind::Array { items: arena.values(&items) }
            }
            ValueKind::Object { props } => {
                let props: Vec<Prop<'a>> = props
                    .iter()
                    .map(|p| Prop { key: arena.str(p.key), key_loc: p.key_loc, value: p.value.copy_with(arena, calls) })
                    .collect();
                ValueKind::Object { props: arena.props(&props) }
            }
            ValueKind::Call(c) => {
                let at = std::ptr::from_ref(c).cast::<()>();
                match calls.get(&at) {
                    Some(copied) => ValueKind::Call(copied),
                    None => {
                        let receiver = c.receiver.map(|r| r.copy_with(arena, calls));
                        let args: Vec<Value<'a>> = c.args.iter().map(|a| a.copy_with(arena, calls)).collect();
                        let copied =
                            arena.call(Call { callee: callee_into(c.callee), receiver, args: arena.values(&args) });
                        calls.insert(at, copied);
                        ValueKind::Call(copied)
                    }
                }
            }
            ValueKind::Function(f) => ValueKind::Function(arena.function(f.clone())),
            ValueKind::Imported { callee } => ValueKind::Imported { callee: callee_into(callee) },
            ValueKind::Unknown { reason } => ValueKind::Unknown { reason: arena.str(reason) },
        };
        Value::new(kind, self.loc)
    }

    /// The plain JSON of a value made only of literals, or `None` if it holds a call, a function
    /// or an unknown.
    pub fn to_json(&self) -> Option<serde_json::Value> {
        self.to_ir_json().map(serde_json::Value::from)
    }

    /// [`Value::to_json`] as the IR keeps a literal ([`ir::Json`]: no hash map per object,
    /// keys and short strings inline).
    pub(crate) fn to_ir_json(self) -> Option<ir::Json> {
        use ir::{Json as J, JsonMap};
        Some(match self.kind {
            ValueKind::Undefined | ValueKind::Null => J::Null,
            ValueKind::Bool { value } => J::Bool(value),
            ValueKind::Number { value } => serde_json::Number::from_f64(value).map_or(J::Null, |n| {
                if value.fract() == 0.0 && value.abs() < 9.0e15 {
                    J::from(value as i64)
                } else {
                    J::Number(n)
                }
            }),
            ValueKind::String { value } => J::String(Name::from(value)),
            ValueKind::Array { items } => {
                J::Array(items.iter().copied().map(Value::to_ir_json).collect::<Option<_>>()?)
            }
            ValueKind::Object { props } => {
                let mut map = JsonMap::with_capacity(props.len());
                for p in props {
                    if matches!(p.value.kind, ValueKind::Undefined) {
                        continue;
                    }
                    // An object's keys are unique here (a later one replaced an earlier one).
                    map.push(Name::from(p.key), p.value.to_ir_json()?);
                }
                J::Object(map)
            }
            ValueKind::Call(_) | ValueKind::Function(_) | ValueKind::Imported { .. } | ValueKind::Unknown { .. } => {
                return None
            }
        })
    }
}

// A compilation's values cross threads (the Instance check's workers) and are shared by the LSP's
// database.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<Values>();
};

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy lives in its own arena, past the source's, and a call held twice stays one call.
    #[test]
    fn a_copy_outlives_its_source_and_keeps_a_shared_call_shared() {
        let target = Arena::default();
        let copy = {
            let source = Arena::default();
            let call = source.call(Call { callee: Callee::Kit(source.str("agent")), receiver: None, args: &[] });
            let call = Value::new(ValueKind::Call(call), Loc::default());
            let props = [
                Prop { key: source.str("a"), key_loc: Loc::default(), value: call },
                Prop { key: source.str("b"), key_loc: Loc::default(), value: call },
            ];
            Value::new(ValueKind::Object { props: source.props(&props) }, Loc::default()).copy_into(&target)
        };
        let (a, b) = (copy.get("a").and_then(Value::as_call), copy.get("b").and_then(Value::as_call));
        assert!(std::ptr::eq(a.expect("a call"), b.expect("a call")));
        assert_eq!(a.map(|c| c.callee), Some(Callee::Kit("agent")));
    }

    /// `Values::build` keeps what its builder names, and gives back the rest.
    #[test]
    fn values_keep_the_named_values_with_their_arena() {
        let (values, files) = Values::build(Arena::default(), |arena| {
            let s = Value::new(ValueKind::String { value: arena.str("hello") }, Loc::default());
            (Named::from_iter([("greeting".to_string(), s)]), 1)
        });
        assert_eq!(files, 1);
        assert_eq!(values.get("greeting").and_then(Value::as_str), Some("hello"));
        assert!(values.get("other").is_none());
        assert!(Values::empty().named().is_empty());
    }
}
