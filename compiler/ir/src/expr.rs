//! Expressions as data: literals, references to `context`, `input` and `event`, templates, and
//! the operators of a pure JavaScript expression (comparisons, `!`, `typeof`, arithmetic, `&&`,
//! `||`, `??` and the ternary), members of any value, the run's globals, state membership and
//! calls of the kit's predicates. `super::eval` evaluates them with JavaScript's semantics.
//!
//! Every form serializes as `{ "kind": ..., "value": ... }`; an operator's `value` is an object
//! that names its operator as JavaScript writes it (`"==="`, `"??"`, `"typeof"`).
//!
//! An object or array literal with a spread or a computed key is a form of its own, so that the
//! plain literals (`Object`, `Array`) keep their serialized form:
//! - `{ ...a, k: v, [key]: w }` is `{ "kind": "objectSpread", "value": [parts] }`, each part
//!   `{ "kind": "field", "value": { "key": "k", "value": <expr> } }`,
//!   `{ "kind": "computed", "value": { "key": <expr>, "value": <expr> } }` or
//!   `{ "kind": "spread", "value": <expr> }`, in the order written;
//! - `[...a, x]` is `{ "kind": "arraySpread", "value": [parts] }`, each part
//!   `{ "kind": "item", "value": <expr> }` or `{ "kind": "spread", "value": <expr> }`.

use super::Name;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

/// A value the runtime evaluates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum Expr {
    /// A JSON value with no reference in it ([`super::Json`]: serializes as `serde_json::Value`).
    Literal(super::Json),
    /// JavaScript's `undefined`, which JSON has no literal for.
    Undefined,
    /// `{ "$ref": "context.round" }`: the value at a path. A member of a missing value is
    /// `undefined` (as `?.` reads it).
    Ref(Reference),
    /// A string with `{{ path }}` placeholders, or a JavaScript template literal.
    Template(Vec<TemplatePart>),
    Array(Vec<Expr>),
    /// Its fields in order, each key a [`Name`] (inline up to 24 bytes: no block per key).
    Object(Vec<(Name, Expr)>),
    /// An object literal with a spread or a computed key (`{ ...context, [event.id]: 1 }`): its
    /// parts in the order written, evaluated as JavaScript builds the object.
    ObjectSpread(Vec<ObjectPart>),
    /// An array literal with a spread (`[...context.list, event.item]`): its parts in order.
    ArraySpread(Vec<ArrayPart>),
    /// `!x`, `typeof x`, `-x`, `+x`.
    Unary {
        op: UnaryOp,
        arg: Box<Expr>,
    },
    /// A comparison or an arithmetic operator: `a === b`, `a < b`, `a + b`, ...
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `a && b`, `a || b`, `a ?? b`: the right side is evaluated only when needed.
    Logical {
        op: LogicalOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `test ? consequent : alternate`.
    Conditional {
        test: Box<Expr>,
        consequent: Box<Expr>,
        alternate: Box<Expr>,
    },
    /// `object[property]` or `object.name` (the property a string literal): a member of any
    /// value, read as a [`Expr::Ref`]'s path is (leniently: `undefined` of a missing one).
    Member {
        object: Box<Expr>,
        property: Box<Expr>,
    },
    /// A value the run provides by name, not one of the three roots: SCXML's `_event`,
    /// `_sessionid`, `_name` and `_ioprocessors`. An unknown name is an evaluation error.
    Global(Name),
    /// Is this state active? xstate's `stateIn("#id")` and SCXML's `In("id")`, resolved to the
    /// state when lowered.
    InState(super::StateId),
    /// A call of one of the kit's (or the run's) functions, by name.
    Call {
        func: Builtin,
        args: Vec<Expr>,
    },
    /// An expression whose evaluation is an error, with the reason: SCXML's expression that
    /// does not parse (`expr="return"`), which the run meets as `error.execution`, not as a
    /// document it refuses.
    Error(String),
    /// A function the front end could not lower into the forms above, carried as JavaScript and
    /// run by the runtime's embedded engine ([`super::eval::Engine`]): its value is the
    /// function's return value, called as xstate calls it ([`Script`]).
    Js(std::sync::Arc<Script>),
    /// A local of a lowered function body, by its slot: a callback's parameter
    /// ([`Expr::Callback`]) or a `const` bound by [`Expr::Let`]. Slots are numbered from 0 in each
    /// lowered function, each binding taking the next one free where it is made, so a slot read
    /// is always one set by an enclosing form.
    Local(u32),
    /// `const x = value; ...body`: `value` evaluated once, into `slot`, then `body`. The front end
    /// binds a `const` so only where reading its expression twice could differ from reading it
    /// once (it draws `Math.random()`, or runs a callback); any other `const` is inlined.
    Let {
        slot: u32,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// `array.map((item, index) => body)` and the other array methods with an arrow callback
    /// ([`ArrayMethod`]): `body` evaluated for each item in order with the item in `slot` and its
    /// index in `slot + 1` (for `reduce`, the accumulator in `slot`, the item in `slot + 1`, the
    /// index in `slot + 2`; `init` its initial value, `None` for none). A receiver that is not
    /// an array is an evaluation error (JavaScript's TypeError), and so is an error of the body.
    Callback(Box<Callback>),
}

/// An [`Expr::Callback`]: boxed, so that an [`Expr`] does not grow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Callback {
    pub method: ArrayMethod,
    pub array: Expr,
    pub slot: u32,
    pub body: Expr,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Expr>,
}

/// The array methods an [`Expr::Callback`] calls, as ECMAScript defines them over an array with
/// no holes (a run's arrays have none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ArrayMethod {
    /// The body's value for each item.
    Map,
    /// The items whose body's value is truthy.
    Filter,
    /// The first item whose body's value is truthy, else `undefined`.
    Find,
    /// The index of the first item whose body's value is truthy, else -1.
    FindIndex,
    /// Is the body's value truthy for some item? (Stops at the first.)
    Some,
    /// Is the body's value truthy for every item? (Stops at the first falsy.)
    Every,
    /// The accumulator after every item (the first item its start where there is no `init`; an
    /// empty array with no `init` is JavaScript's TypeError).
    Reduce,
}

/// A function carried as JavaScript (issue 34: every function runs).
///
/// `code` is one JavaScript expression, closed (it names no free variable but the engine's
/// standard globals), whose value is the function: the front end strips its TypeScript types and
/// puts before it everything it closes over (module `const`s and functions, helpers of the
/// Instance's own files), as `(() => { "use strict"; const H = ...; return (<fn>); })()`. The
/// engine evaluates it once and calls the function as xstate calls the one written:
/// `f(args, params)`, where `args` is an object holding the roots `args` names (`context` and
/// `event` for a guard, an action, an `assign`'s update, a delay, an `input` or `output` mapper;
/// `input` for the `context` factory), each the run's value, and `params` the reference's params
/// ([`Root::Params`], `undefined` outside a named implementation).
///
/// SCXML's ECMAScript data model asks two things more of a script, each a flag: `run`, a third
/// argument `{ globals, active }` (the run's named values, [`Expr::Global`]'s `_event`,
/// `_sessionid`, `_name`, `_ioprocessors`, by name; and the active states' indices, for `In()`);
/// and `writes`, the context written back after the call (the function may change
/// `args.context` in place: `<script>`, `++x` in a condition), as the data model is the
/// context. Both are off for a Machine's functions, whose only effect is their value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Script {
    pub code: String,
    /// The roots the function's first argument holds, in order.
    pub args: Vec<Root>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub run: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub writes: bool,
}

/// A part of an [`Expr::ObjectSpread`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum ObjectPart {
    /// `key: value`.
    Field { key: Name, value: Expr },
    /// `[key]: value`: the key's value made a property key (ToPropertyKey: its string).
    Computed { key: Expr, value: Expr },
    /// `...value`: its own enumerable properties, in their order.
    Spread(Expr),
}

/// A part of an [`Expr::ArraySpread`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum ArrayPart {
    /// One item.
    Item(Expr),
    /// `...value`: the items it iterates (an array's, a string's characters).
    Spread(Expr),
}

/// The functions an expression may call: the kit's predicates, and what xstate's and
/// ECMAScript's pure surface give that the front ends lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Builtin {
    /// The kit's `isFailure(error)`: is the error a Failure (a value the kit's `fail()` threw),
    /// not a defect?
    IsFailure,
    /// The kit's `isReady(output)`: did a Gate's or a cut's output say ready?
    IsReady,
    /// The kit's `paramsOf(event, pick)`: the params of a pick's event.
    ParamsOf,
    /// `JSON.stringify(x)`.
    JsonStringify,
    /// `Array.isArray(x)`.
    IsArray,
    /// `String(x)`.
    String,
    /// `Number(x)`.
    Number,
    /// `Boolean(x)`.
    Boolean,
    /// `Math.pow(x, y)`.
    MathPow,
    /// `Math.max(a, ...)`: each argument's ToNumber; `NaN` if any is, `-Infinity` of none, `+0`
    /// above `-0`.
    MathMax,
    /// `Math.min(a, ...)`: as [`Builtin::MathMax`], the least; `Infinity` of none.
    MathMin,
    /// `s.startsWith(search, position?)`, the receiver first: a string receiver only (any other
    /// is an evaluation error: it has no such method), positions in UTF-16 code units.
    StartsWith,
    /// `s.endsWith(search, end?)`, the receiver first, as [`Builtin::StartsWith`].
    EndsWith,
    /// `a.includes(x, from?)`, the receiver first: an array's (SameValueZero: `NaN` finds `NaN`)
    /// or a string's (`search` made a string); any other receiver is an evaluation error.
    Includes,
    /// `a.join(separator?)`, the receiver first: an array's items as `String` makes them
    /// (`null`/`undefined` empty), between separators (`,` by default); any other receiver is an
    /// evaluation error.
    Join,
    /// `a.concat(b, ...)`, the receiver first: an array's items, then each argument's (an
    /// array's items, any other value itself); a string receiver's strings joined. Any other
    /// receiver is an evaluation error (it has no `concat`).
    Concat,
    /// `s.trim()`, the receiver first: a string's, without the white space and line terminators
    /// ECMAScript's `trim` removes at both ends; any other receiver is an evaluation error.
    Trim,
    /// `s.substring(start, end?)`, the receiver first: a string's UTF-16 code units between the
    /// two positions (each ToIntegerOrInfinity, clamped, swapped if reversed).
    Substring,
    /// `x.slice(start?, end?)`, the receiver first: a string's code units or an array's items,
    /// a negative position counting from the end.
    Slice,
    /// `x.toString(radix?)`, the receiver first: a number in the radix (2 to 36, 10 by default;
    /// another is JavaScript's RangeError), digits as V8 writes them; a string, a boolean or an
    /// array as `String` makes it; `undefined` and `null` an evaluation error.
    ToString,
    /// `Math.random()`: the run's seeded generator ([`super::eval::Engine::random`]), the same one
    /// the engine's `Math.random` draws from; an evaluation outside a run has none.
    MathRandom,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnaryOp {
    #[serde(rename = "!")]
    Not,
    #[serde(rename = "typeof")]
    Typeof,
    #[serde(rename = "-")]
    Neg,
    #[serde(rename = "+")]
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinaryOp {
    #[serde(rename = "===")]
    StrictEq,
    #[serde(rename = "!==")]
    StrictNe,
    #[serde(rename = "==")]
    LooseEq,
    #[serde(rename = "!=")]
    LooseNe,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "+")]
    Add,
    #[serde(rename = "-")]
    Sub,
    #[serde(rename = "*")]
    Mul,
    #[serde(rename = "/")]
    Div,
    #[serde(rename = "%")]
    Rem,
    #[serde(rename = "**")]
    Exp,
    #[serde(rename = "&")]
    BitAnd,
    #[serde(rename = "|")]
    BitOr,
    #[serde(rename = "^")]
    BitXor,
    #[serde(rename = "<<")]
    Shl,
    #[serde(rename = ">>")]
    Shr,
    #[serde(rename = ">>>")]
    UShr,
    /// `key in object`: does the object (or array) have the property? The right side not an
    /// object is an evaluation error (ECMAScript's TypeError).
    #[serde(rename = "in")]
    In,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogicalOp {
    #[serde(rename = "&&")]
    And,
    #[serde(rename = "||")]
    Or,
    #[serde(rename = "??")]
    Coalesce,
}

impl Expr {
    /// Calls `f` with every reference the expression reads, in order, inside templates and
    /// operators too.
    pub fn for_each_ref<'a>(&'a self, f: &mut dyn FnMut(&'a Reference)) {
        match self {
            Expr::Literal(_) | Expr::Undefined => {}
            Expr::Ref(r) => f(r),
            Expr::Template(parts) => {
                for p in parts {
                    match p {
                        TemplatePart::Text(_) => {}
                        TemplatePart::Ref(r) => f(r),
                        TemplatePart::Expr(e) => e.for_each_ref(f),
                    }
                }
            }
            Expr::Array(items) => items.iter().for_each(|x| x.for_each_ref(f)),
            Expr::Object(fields) => fields.iter().for_each(|(_, x)| x.for_each_ref(f)),
            Expr::ObjectSpread(parts) => {
                for p in parts {
                    match p {
                        ObjectPart::Field { value, .. } => value.for_each_ref(f),
                        ObjectPart::Computed { key, value } => {
                            key.for_each_ref(f);
                            value.for_each_ref(f);
                        }
                        ObjectPart::Spread(x) => x.for_each_ref(f),
                    }
                }
            }
            Expr::ArraySpread(parts) => {
                for p in parts {
                    match p {
                        ArrayPart::Item(x) | ArrayPart::Spread(x) => x.for_each_ref(f),
                    }
                }
            }
            Expr::Unary { arg, .. } => arg.for_each_ref(f),
            Expr::Binary { left, right, .. } | Expr::Logical { left, right, .. } => {
                left.for_each_ref(f);
                right.for_each_ref(f);
            }
            Expr::Conditional { test, consequent, alternate } => {
                test.for_each_ref(f);
                consequent.for_each_ref(f);
                alternate.for_each_ref(f);
            }
            Expr::Member { object, property } => {
                object.for_each_ref(f);
                property.for_each_ref(f);
            }
            // A script's reads are its own: the IR does not see into it.
            Expr::Global(_) | Expr::InState(_) | Expr::Error(_) | Expr::Js(_) | Expr::Local(_) => {}
            Expr::Call { args, .. } => args.iter().for_each(|x| x.for_each_ref(f)),
            Expr::Let { value, body, .. } => {
                value.for_each_ref(f);
                body.for_each_ref(f);
            }
            Expr::Callback(c) => {
                c.array.for_each_ref(f);
                if let Some(init) = &c.init {
                    init.for_each_ref(f);
                }
                c.body.for_each_ref(f);
            }
        }
    }

    /// Does `pred` hold of this expression or of one inside it (a script's inside is not seen)?
    pub fn any(&self, pred: &mut dyn FnMut(&Expr) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        match self {
            Expr::Literal(_)
            | Expr::Undefined
            | Expr::Ref(_)
            | Expr::Global(_)
            | Expr::InState(_)
            | Expr::Error(_)
            | Expr::Js(_)
            | Expr::Local(_) => false,
            Expr::Template(parts) => parts.iter().any(|p| matches!(p, TemplatePart::Expr(e) if e.any(pred))),
            Expr::Array(items) => items.iter().any(|x| x.any(pred)),
            Expr::Object(fields) => fields.iter().any(|(_, x)| x.any(pred)),
            Expr::ObjectSpread(parts) => parts.iter().any(|p| match p {
                ObjectPart::Field { value, .. } => value.any(pred),
                ObjectPart::Computed { key, value } => key.any(pred) || value.any(pred),
                ObjectPart::Spread(x) => x.any(pred),
            }),
            Expr::ArraySpread(parts) => parts.iter().any(|p| match p {
                ArrayPart::Item(x) | ArrayPart::Spread(x) => x.any(pred),
            }),
            Expr::Unary { arg, .. } => arg.any(pred),
            Expr::Binary { left, right, .. } | Expr::Logical { left, right, .. } => left.any(pred) || right.any(pred),
            Expr::Conditional { test, consequent, alternate } => {
                test.any(pred) || consequent.any(pred) || alternate.any(pred)
            }
            Expr::Member { object, property } => object.any(pred) || property.any(pred),
            Expr::Call { args, .. } => args.iter().any(|x| x.any(pred)),
            Expr::Let { value, body, .. } => value.any(pred) || body.any(pred),
            Expr::Callback(c) => c.array.any(pred) || c.init.as_ref().is_some_and(|x| x.any(pred)) || c.body.any(pred),
        }
    }
}

/// The root a reference reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Root {
    Context,
    Input,
    Event,
    /// The params of the reference that names an implementation (xstate's second argument of a
    /// guard, an action or a delay: `({ context }, params) => ...`); `undefined` elsewhere.
    Params,
}

impl Root {
    pub fn parse(s: &str) -> Option<Root> {
        match s {
            "context" => Some(Root::Context),
            "input" => Some(Root::Input),
            "event" => Some(Root::Event),
            _ => None,
        }
    }
}

/// A dotted path under a root: `context.ticket.notes` is `Context` and `["ticket", "notes"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    pub root: Root,
    /// Its keys, each a [`Name`].
    pub path: RefPath,
}

/// A reference's keys: inline up to two (most paths are `context.ticket`, `event.output`), so
/// that a path is no heap block at all; it serializes as a list, as a `Vec` would. Two inline
/// keys keep a [`Reference`] smaller than a literal, so [`Expr`] does not grow (a test checks it).
pub type RefPath = SmallVec<[Name; 2]>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum TemplatePart {
    /// A text, a [`Name`]: inline up to 24 bytes (most are short: `"test/"`, `"."`).
    Text(Name),
    Ref(Reference),
    /// `${ a ? b : c }` in a template literal: any expression, stringified as JavaScript does.
    Expr(Expr),
}

/// The `{{ ... }}` placeholders of a string, each with its byte range inside the string and its
/// trimmed inner text. An unclosed `{{` is not a placeholder.
pub fn placeholders(s: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(open) = find_pair(&s.as_bytes()[rest..], b'{') {
        let start = rest + open;
        let Some(close) = find_pair(&s.as_bytes()[start + 2..], b'}') else { break };
        let end = start + 2 + close + 2;
        out.push((start..end, s[start + 2..end - 2].trim()));
        rest = end;
    }
    out
}

/// Where `bb` (`{{` or `}}`) first starts in `bytes`: `str::find` of the same two bytes, without
/// the substring searcher it sets up per call (the door runs this on every string of a Chart).
fn find_pair(bytes: &[u8], b: u8) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = bytes[from..].iter().position(|&c| c == b) {
        let at = from + i;
        match bytes.get(at + 1) {
            Some(&c) if c == b => return Some(at),
            // `x{y`: the next pair starts after the second byte at the earliest.
            Some(_) => from = at + 2,
            None => return None,
        }
    }
    None
}

/// Parses `context.a.b` into a reference, or `None` if the root is not one of the three or a
/// segment is empty.
pub fn parse_reference(text: &str) -> Option<Reference> {
    let mut parts = text.split('.');
    let root = Root::parse(parts.next()?)?;
    let path: RefPath = parts.map(Name::from).collect();
    if path.iter().any(|p| p.is_empty()) {
        return None;
    }
    Some(Reference { root, path })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An inline path must not make every expression larger: an expression, a reference with
    /// two segments inline among its forms, stays at 64 bytes on a 64-bit target (a literal is an
    /// `ir::Json`, 32 bytes; `serde_json::Value` with its ordered map took 72).
    /// The byte scan finds what `str::find` finds, in every string of `{`, `}` and `x` up to six
    /// long.
    #[test]
    fn find_pair_is_str_find() {
        let mut texts = vec![String::new()];
        for _ in 0..6 {
            let longer: Vec<String> = texts.iter().flat_map(|t| ['{', '}', 'x'].map(|c| format!("{t}{c}"))).collect();
            texts.extend(longer);
        }
        for t in &texts {
            assert_eq!(find_pair(t.as_bytes(), b'{'), t.find("{{"), "{t:?}");
            assert_eq!(find_pair(t.as_bytes(), b'}'), t.find("}}"), "{t:?}");
        }
        assert_eq!(placeholders("a {{ x }} b {{y}}} {{z"), vec![(2..9, "x"), (12..17, "y")]);
    }

    #[test]
    fn a_reference_does_not_grow_an_expression() {
        assert!(std::mem::size_of::<Reference>() <= 64);
        assert_eq!(std::mem::size_of::<Expr>(), 64);
    }
}
