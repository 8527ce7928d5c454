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
//! Invariant: plain data; no oxc type appears here, so the passes after evaluation know no parser.

use crate::ir::Expr;
use crate::Span;
use serde::Serialize;
use std::sync::Arc;

/// Serializes a shared node as its contents.
fn shared<T: Serialize, S: serde::Serializer>(v: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
    T::serialize(v, s)
}

/// A string of the value model: a property key, a string value, a callee's name; the IR's
/// [`crate::ir::Name`], so a key or a string moves into the IR without a copy. Strings up to 24
/// bytes are stored inline, so making, cloning and dropping one does not touch the heap (every
/// callee, most keys and many string values are that short: a Workflow's values took a fifth
/// fewer heap blocks than with `String`).
pub use crate::ir::Name;

/// A source file of the Instance, by index into the evaluator's file table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct FileId(pub u32);

/// A place in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Loc {
    pub file: FileId,
    pub span: Span,
}

/// A value with its place.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Value {
    pub kind: ValueKind,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ValueKind {
    Undefined,
    Null,
    Bool {
        value: bool,
    },
    Number {
        value: f64,
    },
    String {
        value: Name,
    },
    Array {
        items: Vec<Value>,
    },
    /// An object literal, its properties in source order (a later key replaces an earlier one,
    /// as in JavaScript; spreads of known objects are already merged in). Invariant: each key
    /// once, which its readers rely on to build their own maps without a search per key (zod's
    /// shapes, `to_ir_json`).
    Object {
        props: Vec<Prop>,
    },
    /// A call of the authoring surface (jr2, xstate or zod), or a method called on one. Shared:
    /// a binding read by name (`workspace(body, ...)`, an event def in `events` and in
    /// `paramsOf`) is the same call, not a copy of its tree.
    Call(#[serde(serialize_with = "shared")] Arc<Call>),
    /// An arrow function or function expression: code, with the facts the analysis read off it.
    Function(#[serde(serialize_with = "shared")] Arc<Function>),
    /// An export of a known module used as a value, not called: `guard: isReady`, `actors: {
    /// gate }`, `z.string` without its call. Calling it makes a [`ValueKind::Call`] with this
    /// callee.
    Imported {
        callee: Callee,
    },
    /// What the evaluator could not know statically.
    Unknown {
        reason: String,
    },
}

/// One property of an object literal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prop {
    pub key: Name,
    /// The key's place (for a diagnostic that points at the key).
    pub key_loc: Loc,
    pub value: Value,
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "camelCase")]
pub enum Callee {
    /// An export of `@jr2/orchestrator`, by its exported name: `agent`, `jr2Setup`, `sentBy`, ...
    Kit(Name),
    /// An export of `xstate`: `setup`, `assign`, `and`, `or`, `not`, ...
    Xstate(Name),
    /// A member of zod's `z`: `z.object` is `Zod("object")`.
    Zod(Name),
    /// A method called on the receiver: `.createMachine`, `.optional`, `.describe`, `.pick`, ...
    Method(Name),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Call {
    pub callee: Callee,
    /// For a [`Callee::Method`]: the value it is called on.
    pub receiver: Option<Value>,
    /// Inline up to one argument (most calls of the authoring surface have one, and zod's
    /// chains of `.min(1).max(9).describe(..)` one each), so such a call is one heap block.
    pub args: Args,
}

/// A call's arguments.
pub type Args = smallvec::SmallVec<[Value; 1]>;

/// A function: it stays code, and carries what it statically reads.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Function {
    /// The parameter names as written (a destructured one is written out, e.g. `{ context, event }`);
    /// inline up to one, as most functions have one (`({ context }) => ...`).
    pub params: smallvec::SmallVec<[Name; 1]>,
    pub facts: Facts,
    /// Where the body is a pure expression the runtime can evaluate: its lowering.
    pub lowered: Option<Arc<Expr>>,
}

/// What a function reads, as far as the analysis can see.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Facts {
    /// The pick params it reads: `paramsOf(event, def).x`, a destructured `paramsOf`, or a
    /// `fromPick` by name. Each is (the pick's event name, the param).
    pub pick_params: Vec<(Name, Name)>,
    /// The context keys it reads (`context.x`, the first segment); inline up to two.
    pub context_keys: smallvec::SmallVec<[Name; 2]>,
    /// Did the analysis see all of it? False where the body does something it cannot follow
    /// (the seed's "could not probe the input mapper").
    pub complete: bool,
    /// The kit's Part constructors called in its body (`agent(...)`, `command(...)`, ...): each
    /// the kit export's name and the call's span, in the function's file. A Part belongs in the
    /// setup's `actors` (the `inline-parts` rule reads these).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<(Name, crate::Span)>,
}

impl Value {
    pub fn new(kind: ValueKind, loc: Loc) -> Self {
        Value { kind, loc }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::String { value } => Some(value),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            ValueKind::Bool { value } => Some(value),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match &self.kind {
            ValueKind::Array { items } => Some(items),
            _ => None,
        }
    }

    pub fn as_call(&self) -> Option<&Call> {
        match &self.kind {
            ValueKind::Call(c) => Some(c),
            _ => None,
        }
    }

    pub fn as_function(&self) -> Option<&Function> {
        match &self.kind {
            ValueKind::Function(f) => Some(f),
            _ => None,
        }
    }

    /// The properties of an object literal.
    pub fn props(&self) -> Option<&[Prop]> {
        match &self.kind {
            ValueKind::Object { props } => Some(props),
            _ => None,
        }
    }

    /// The value of `key` in an object literal (the last one, as in JavaScript).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.props()?.iter().rev().find(|p| p.key == key).map(|p| &p.value)
    }

    /// Is this a call of the kit export `name`?
    pub fn is_kit_call(&self, name: &str) -> bool {
        self.as_call().is_some_and(|c| matches!(&c.callee, Callee::Kit(n) if n == name))
    }

    /// The reason, for an unknown value.
    pub fn unknown_reason(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::Unknown { reason } => Some(reason),
            _ => None,
        }
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self.kind, ValueKind::Unknown { .. })
    }

    /// The plain JSON of a value made only of literals, or `None` if it holds a call, a function
    /// or an unknown.
    pub fn to_json(&self) -> Option<serde_json::Value> {
        self.to_ir_json().map(serde_json::Value::from)
    }

    /// [`Value::to_json`] as the IR keeps a literal ([`crate::ir::Json`]: no hash map per object,
    /// keys and short strings inline).
    pub fn to_ir_json(&self) -> Option<crate::ir::Json> {
        use crate::ir::{Json as J, JsonMap};
        Some(match &self.kind {
            ValueKind::Undefined | ValueKind::Null => J::Null,
            ValueKind::Bool { value } => J::Bool(*value),
            ValueKind::Number { value } => serde_json::Number::from_f64(*value).map_or(J::Null, |n| {
                if value.fract() == 0.0 && value.abs() < 9.0e15 {
                    J::from(*value as i64)
                } else {
                    J::Number(n)
                }
            }),
            ValueKind::String { value } => J::String(value.clone()),
            ValueKind::Array { items } => J::Array(items.iter().map(Value::to_ir_json).collect::<Option<_>>()?),
            ValueKind::Object { props } => {
                let mut map = JsonMap::with_capacity(props.len());
                for p in props {
                    if matches!(p.value.kind, ValueKind::Undefined) {
                        continue;
                    }
                    // An object's keys are unique here (a later one replaced an earlier one).
                    map.push(p.key.clone(), p.value.to_ir_json()?);
                }
                J::Object(map)
            }
            ValueKind::Call(_) | ValueKind::Function(_) | ValueKind::Imported { .. } | ValueKind::Unknown { .. } => {
                return None
            }
        })
    }
}
