//! The evaluator of [`Expr`]: given a mapper's arguments (`context`, `event`, `input`) as JSON, the
//! value the expression has, with JavaScript's semantics for every form the front ends lower.
//!
//! The runtime calls it; `tests/it/expr_crosscheck.rs` checks it against Node on fixture arrow
//! functions. What it follows of ECMAScript:
//! - values are `undefined`, `null`, booleans, numbers (`f64`: `NaN`, `-0` and the infinities
//!   too), strings, arrays and plain objects ([`JsValue`]); an object keeps its keys in
//!   JavaScript's order (integer-like keys first, ascending, then the others as inserted);
//! - `===`/`!==` (strict, `NaN` unequal to itself, `0 === -0`, objects by identity), `==`/`!=`
//!   (IsLooselyEqual: `null == undefined`, numbers and strings and booleans through ToNumber, an
//!   object through ToPrimitive), `<`/`<=`/`>`/`>=` (IsLessThan: two strings by UTF-16 code
//!   units, else numbers, `NaN` false), `+` (string concatenation when either primitive is a
//!   string), `-`, `*`, `/`, `%`, unary `!`, `typeof`, `-`, `+`; `&&`, `||`, `??` and the
//!   ternary short-circuit and give an operand's value, not a boolean;
//! - stringification as `String(x)` and templates do it: numbers as `Number.prototype.toString`
//!   (shortest round-trip digits, exponent past 1e21 and below 1e-6), `undefined`, `null`,
//!   arrays joined by `,` (`null`/`undefined` items empty), objects `[object Object]`;
//! - an object literal with spreads and computed keys (`{ ...a, [k]: v }`) is built in order as
//!   JavaScript builds it: a spread copies its value's own properties (an object's in their
//!   order, an array's and a string's indices; `undefined`, `null`, booleans and numbers add
//!   nothing), a computed key is its value's ToString, and a later key replaces an earlier
//!   one's value where that one stands; an array literal's spread (`[...a, x]`) takes an array's
//!   items or a string's characters (code points), and any other value is an evaluation error
//!   (JavaScript's TypeError: it is not iterable). A literal that would hold more than
//!   [`MAX_SPREAD`] items or properties is an evaluation error, a bound JavaScript does not have;
//! - the builtins as ECMAScript defines them: `Math.max`/`Math.min` (ToNumber of every argument,
//!   `NaN` if any, `+0` above `-0`), `startsWith`/`endsWith`/`includes` of a string (positions
//!   in UTF-16 code units, ToIntegerOrInfinity and clamped), `includes` of an array
//!   (SameValueZero, a negative `fromIndex` from the end), `join` (`null`/`undefined` items
//!   empty); a receiver that has no such method is an evaluation error (JavaScript's TypeError);
//! - a reference reads members leniently: a missing key is `undefined`, and so is any member of
//!   `undefined` or `null` (where JavaScript's `a.b` would throw; `a?.b` would not); arrays and
//!   strings have `length` and index members.
//!
//! Identity: an object or array read from the arguments is the same value each time it is read
//! (`context.a === context.a`); a literal makes a new one at each evaluation, as code does. A
//! module constant inlined as a literal is therefore a new object at each read, where JavaScript
//! would share one (`X === X`). The other known difference: a string's UTF-16 code units are
//! read as strings of their own (`s[i]`, `{ ...s }`), and a lone surrogate is U+FFFD, where
//! JavaScript keeps it.

use super::expr::{
    ArrayMethod, ArrayPart, BinaryOp, Builtin, Callback, Expr, LogicalOp, ObjectPart, Reference, Root, TemplatePart,
    UnaryOp,
};
use super::{Name, StateId};
use serde_json::Value as J;
use std::sync::Arc;

/// How deeply nested an expression may be; deeper is [`EvalError::TooDeep`].
pub(crate) const MAX_EVAL_DEPTH: usize = 256;

/// How many items an array literal with spreads, or properties an object literal with spreads,
/// may hold: past it, the literal is an evaluation error (spreads copy, and a context that
/// spreads itself into itself on every event would otherwise double without end).
pub const MAX_SPREAD: usize = 1 << 20;

/// How many callback calls and spread items one evaluation may make: past it, the expression is
/// an evaluation error (callbacks nested over large arrays would otherwise run for hours; JavaScript
/// has no such bound, the engine's calls have theirs).
pub const MAX_WORK: usize = 1 << 24;

/// A JavaScript value.
#[derive(Clone, Debug)]
pub enum JsValue {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    String(Arc<str>),
    Array(Arc<Vec<JsValue>>),
    /// Keys unique, in JavaScript's property order.
    Object(Arc<Vec<(String, JsValue)>>),
}

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// Nested deeper than [`MAX_EVAL_DEPTH`].
    TooDeep,
    /// A [`Expr::Global`] the run does not provide.
    Unbound(Name),
    /// A call whose arguments the function does not take (`paramsOf` of an event of another
    /// pick, say), with the reason.
    Call(String),
    /// A function carried as JavaScript ([`Expr::Js`]) threw, or gave what a run cannot hold (a
    /// Promise, a symbol, a cycle), or passed a bound of the engine: the reason, as the engine
    /// words it (a thrown error's `name: message`).
    Threw(String),
    /// A function carried as JavaScript, with no engine to run it (an evaluation outside a run).
    NoEngine,
}

/// What runs a function carried as JavaScript ([`Expr::Js`]): the runtime's embedded engine.
/// It is given the script and the scope the expression is evaluated in, and gives the
/// function's return value; anything the engine keeps between calls must not change what a
/// later call gives (the run's state is the scope's, and the engine's per-run state, such as
/// its random generator, the implementation's to keep in the run).
pub trait Engine: Send + Sync {
    fn call(&self, script: &super::expr::Script, scope: &Scope) -> Result<JsValue, EvalError>;

    /// The run's next `Math.random()` ([`Builtin::MathRandom`]): the generator the engine's own
    /// `Math.random` draws from, advanced once, so that a lowered draw and a carried one take
    /// the same sequence.
    fn random(&self) -> Result<f64, EvalError> {
        Err(EvalError::NoEngine)
    }
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::TooDeep => write!(f, "the expression is nested deeper than {MAX_EVAL_DEPTH}"),
            EvalError::Unbound(name) => write!(f, "`{name}` is not defined"),
            EvalError::Call(reason) | EvalError::Threw(reason) => f.write_str(reason),
            EvalError::NoEngine => f.write_str("a function carried as JavaScript has no engine to run it here"),
        }
    }
}

impl std::error::Error for EvalError {}

/// A mapper's arguments: `({ context, event, input }) => ...`.
#[derive(Clone, Debug)]
pub struct Scope {
    pub context: JsValue,
    pub event: JsValue,
    pub input: JsValue,
    /// The params of the implementation being evaluated ([`Root::Params`]); `undefined` outside
    /// one.
    pub params: JsValue,
    /// The run's named values ([`Expr::Global`]), by name: shared, as a run makes them once
    /// (per run or per event) for every expression it evaluates.
    pub globals: Arc<[(Name, JsValue)]>,
    /// The active states, ascending, for [`Expr::InState`]; empty outside a run.
    pub active: Arc<[StateId]>,
    /// What runs [`Expr::Js`]; `None` outside a run (such an expression is then
    /// [`EvalError::NoEngine`]).
    pub engine: Option<Arc<dyn Engine>>,
}

impl std::fmt::Debug for dyn Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Engine")
    }
}

impl Scope {
    /// The arguments from their JSON values; a missing one is `undefined`.
    pub fn new(context: Option<&J>, event: Option<&J>, input: Option<&J>) -> Scope {
        let js = |j: Option<&J>| j.map_or(JsValue::Undefined, JsValue::from_json);
        Scope {
            context: js(context),
            event: js(event),
            input: js(input),
            params: JsValue::Undefined,
            globals: Arc::from([]),
            active: Arc::from([]),
            engine: None,
        }
    }

    /// The arguments from one JSON object `{ context, event, input }`; a missing one is
    /// `undefined`.
    pub fn from_json(args: &J) -> Scope {
        Scope::new(args.get("context"), args.get("event"), args.get("input"))
    }

    fn root(&self, r: Root) -> &JsValue {
        match r {
            Root::Context => &self.context,
            Root::Event => &self.event,
            Root::Input => &self.input,
            Root::Params => &self.params,
        }
    }
}

/// The value of `e` over `scope`.
pub fn evaluate(e: &Expr, scope: &Scope) -> Result<JsValue, EvalError> {
    eval(e, scope, &mut Frame::default(), 0)
}

/// The value of `e` over the arguments `{ context, event, input }`, as `JSON.stringify` would
/// write it: `None` for `undefined`.
pub fn evaluate_json(e: &Expr, args: &J) -> Result<Option<J>, EvalError> {
    Ok(evaluate(e, &Scope::from_json(args))?.to_json())
}

fn eval(e: &Expr, scope: &Scope, fr: &mut Frame, depth: usize) -> Result<JsValue, EvalError> {
    if depth >= MAX_EVAL_DEPTH {
        return Err(EvalError::TooDeep);
    }
    let d = depth + 1;
    Ok(match e {
        Expr::Literal(j) => JsValue::from_literal(j),
        Expr::Undefined => JsValue::Undefined,
        Expr::Ref(r) => read(scope, r),
        Expr::Template(parts) => {
            let mut out = String::new();
            for p in parts {
                match p {
                    TemplatePart::Text(t) => out.push_str(t),
                    TemplatePart::Ref(r) => out.push_str(&read(scope, r).to_js_string()),
                    TemplatePart::Expr(x) => out.push_str(&eval(x, scope, fr, d)?.to_js_string()),
                }
            }
            JsValue::String(out.into())
        }
        Expr::Array(items) => {
            JsValue::Array(Arc::new(items.iter().map(|x| eval(x, scope, fr, d)).collect::<Result<_, _>>()?))
        }
        Expr::Object(fields) => {
            let mut props: Vec<(String, JsValue)> = Vec::with_capacity(fields.len());
            for (k, x) in fields {
                let v = eval(x, scope, fr, d)?;
                match props.iter_mut().find(|(q, _)| q == k) {
                    Some(slot) => slot.1 = v,
                    None => props.push((k.to_string(), v)),
                }
            }
            JsValue::object(props)
        }
        // Each in a function of its own, so that `eval`'s frame, which every level of nesting
        // takes, stays small.
        Expr::ObjectSpread(parts) => object_spread(parts, scope, fr, d)?,
        Expr::ArraySpread(parts) => array_spread(parts, scope, fr, d)?,
        Expr::Unary { op, arg } => {
            let v = eval(arg, scope, fr, d)?;
            match op {
                UnaryOp::Not => JsValue::Bool(!v.truthy()),
                UnaryOp::Typeof => JsValue::String(v.type_of().into()),
                UnaryOp::Neg => JsValue::Number(-v.to_number()),
                UnaryOp::Plus => JsValue::Number(v.to_number()),
            }
        }
        // `x === "text"`: compared with the literal as it is, no string made for it.
        Expr::Binary { op: op @ (BinaryOp::StrictEq | BinaryOp::StrictNe), left, right }
            if matches!(**right, Expr::Literal(super::Json::String(_))) =>
        {
            let a = eval(left, scope, fr, d)?;
            let Expr::Literal(super::Json::String(text)) = &**right else { unreachable!("matched above") };
            let eq = matches!(&a, JsValue::String(s) if &**s == text.as_str());
            JsValue::Bool(eq == (*op == BinaryOp::StrictEq))
        }
        Expr::Binary { op, left, right } => {
            // `todo.id !== event.id`: two values read in place, compared with no copy of either.
            if matches!(op, BinaryOp::StrictEq | BinaryOp::StrictNe) {
                if let (Some(a), Some(b)) = (place(left, scope, &fr.locals), place(right, scope, &fr.locals)) {
                    let eq = match (a, b) {
                        (Some(a), Some(b)) => strict_eq(a, b),
                        (a, b) => {
                            let undefined = |v: Option<&JsValue>| matches!(v, None | Some(JsValue::Undefined));
                            undefined(a) && undefined(b)
                        }
                    };
                    return Ok(JsValue::Bool(eq == (*op == BinaryOp::StrictEq)));
                }
            }
            let (a, b) = (eval(left, scope, fr, d)?, eval(right, scope, fr, d)?);
            if *op == BinaryOp::In {
                has_property(&b, &a.to_js_string())?
            } else {
                binary(*op, &a, &b)
            }
        }
        Expr::Logical { op, left, right } => {
            let a = eval(left, scope, fr, d)?;
            let take_left = match op {
                LogicalOp::And => !a.truthy(),
                LogicalOp::Or => a.truthy(),
                LogicalOp::Coalesce => !matches!(a, JsValue::Undefined | JsValue::Null),
            };
            if take_left {
                a
            } else {
                eval(right, scope, fr, d)?
            }
        }
        Expr::Conditional { test, consequent, alternate } => {
            if eval(test, scope, fr, d)?.truthy() {
                eval(consequent, scope, fr, d)?
            } else {
                eval(alternate, scope, fr, d)?
            }
        }
        Expr::Member { object, property } => match &**property {
            // `x.name` (the commonest member: a callback's `todo.id`): the key read as it is,
            // and a local's member read in place, with no string made and no value copied.
            Expr::Literal(super::Json::String(key)) => match &**object {
                Expr::Local(slot) => fr.locals.get(*slot as usize).map_or(JsValue::Undefined, |o| o.member(key)),
                object => eval(object, scope, fr, d)?.member(key),
            },
            property => {
                let o = eval(object, scope, fr, d)?;
                o.member(&eval(property, scope, fr, d)?.to_js_string())
            }
        },
        Expr::Global(name) => match scope.globals.iter().find(|(n, _)| n == name) {
            Some((_, v)) => v.clone(),
            None => return Err(EvalError::Unbound(name.clone())),
        },
        Expr::InState(id) => JsValue::Bool(scope.active.binary_search(id).is_ok()),
        Expr::Error(reason) => return Err(EvalError::Call(reason.clone())),
        Expr::Js(script) => match &scope.engine {
            Some(engine) => engine.call(script, scope)?,
            None => return Err(EvalError::NoEngine),
        },
        Expr::Call { func: Builtin::MathRandom, .. } => match &scope.engine {
            Some(engine) => JsValue::Number(engine.random()?),
            None => return Err(EvalError::NoEngine),
        },
        Expr::Call { func, args } => {
            let args = args.iter().map(|x| eval(x, scope, fr, d)).collect::<Result<Vec<_>, _>>()?;
            call(*func, &args)?
        }
        Expr::Local(slot) => fr.locals.get(*slot as usize).cloned().unwrap_or(JsValue::Undefined),
        Expr::Let { slot, value, body } => {
            let v = eval(value, scope, fr, d)?;
            fr.set(*slot, v);
            eval(body, scope, fr, d)?
        }
        Expr::Callback(c) => callback(c, scope, fr, d)?,
    })
}

/// What one evaluation keeps beside its scope: the locals of its callbacks and `let`s
/// ([`Expr::Local`]), and how many callback calls and spread items it has made so far.
#[derive(Default)]
struct Frame {
    locals: Vec<JsValue>,
    work: usize,
}

impl Frame {
    fn set(&mut self, slot: u32, v: JsValue) {
        let i = slot as usize;
        if self.locals.len() <= i {
            self.locals.resize(i + 1, JsValue::Undefined);
        }
        self.locals[i] = v;
    }

    /// Counts `n` more steps against [`MAX_WORK`].
    fn spend(&mut self, n: usize) -> Result<(), EvalError> {
        self.work = self.work.saturating_add(n);
        if self.work > MAX_WORK {
            return Err(EvalError::Call(format!(
                "the expression made more than {MAX_WORK} callback calls and spread items (callbacks nested over \
                 large arrays?)"
            )));
        }
        Ok(())
    }
}

/// An [`Expr::Callback`]'s value: the array method over its receiver, the body called per item.
#[inline(never)]
fn callback(c: &Callback, scope: &Scope, fr: &mut Frame, d: usize) -> Result<JsValue, EvalError> {
    let items = match eval(&c.array, scope, fr, d)? {
        JsValue::Array(items) => items,
        other => {
            return Err(EvalError::Call(format!("{} has no {}", describe(&other), method_name(c.method))));
        }
    };
    fr.spend(items.len())?;
    let slot = c.slot;
    // Room for the parameters made once, so that each call only writes them.
    let width = if c.method == ArrayMethod::Reduce { 3 } else { 2 };
    if fr.locals.len() < (slot + width) as usize {
        fr.locals.resize((slot + width) as usize, JsValue::Undefined);
    }
    // The body with the item (and its index) in its slots.
    let call = |fr: &mut Frame, at: u32, item: &JsValue, i: usize| -> Result<JsValue, EvalError> {
        fr.locals[at as usize] = item.clone();
        fr.locals[at as usize + 1] = JsValue::Number(i as f64);
        eval(&c.body, scope, fr, d)
    };
    Ok(match c.method {
        ArrayMethod::Map => {
            let mut out = Vec::with_capacity(items.len());
            for (i, x) in items.iter().enumerate() {
                out.push(call(fr, slot, x, i)?);
            }
            JsValue::Array(Arc::new(out))
        }
        ArrayMethod::Filter => {
            let mut out = Vec::new();
            for (i, x) in items.iter().enumerate() {
                if call(fr, slot, x, i)?.truthy() {
                    out.push(x.clone());
                }
            }
            // Nothing filtered out: a new array all the same (`filter` never gives its receiver).
            JsValue::Array(Arc::new(out))
        }
        ArrayMethod::Find | ArrayMethod::FindIndex => {
            let mut found = None;
            for (i, x) in items.iter().enumerate() {
                if call(fr, slot, x, i)?.truthy() {
                    found = Some(i);
                    break;
                }
            }
            match (c.method, found) {
                (ArrayMethod::Find, Some(i)) => items[i].clone(),
                (ArrayMethod::Find, None) => JsValue::Undefined,
                (_, Some(i)) => JsValue::Number(i as f64),
                (_, None) => JsValue::Number(-1.0),
            }
        }
        ArrayMethod::Some | ArrayMethod::Every => {
            let some = c.method == ArrayMethod::Some;
            let mut out = !some;
            for (i, x) in items.iter().enumerate() {
                if call(fr, slot, x, i)?.truthy() == some {
                    out = some;
                    break;
                }
            }
            JsValue::Bool(out)
        }
        ArrayMethod::Reduce => {
            let (mut acc, from) = match &c.init {
                Some(init) => (eval(init, scope, fr, d)?, 0),
                None => match items.first() {
                    Some(first) => (first.clone(), 1),
                    None => return Err(EvalError::Call("Reduce of empty array with no initial value".into())),
                },
            };
            for (i, x) in items.iter().enumerate().skip(from) {
                fr.locals[slot as usize] = acc;
                acc = call(fr, slot + 1, x, i)?;
            }
            acc
        }
    })
}

/// An array method's name as JavaScript writes it, for an error.
fn method_name(m: ArrayMethod) -> &'static str {
    match m {
        ArrayMethod::Map => "map",
        ArrayMethod::Filter => "filter",
        ArrayMethod::Find => "find",
        ArrayMethod::FindIndex => "findIndex",
        ArrayMethod::Some => "some",
        ArrayMethod::Every => "every",
        ArrayMethod::Reduce => "reduce",
    }
}

/// An [`Expr::ObjectSpread`]'s object.
#[inline(never)]
fn object_spread(parts: &[ObjectPart], scope: &Scope, fr: &mut Frame, d: usize) -> Result<JsValue, EvalError> {
    let mut out = Props::default();
    for p in parts {
        match p {
            ObjectPart::Field { key, value } => {
                let v = eval(value, scope, fr, d)?;
                out.put(key.as_str(), v)?;
            }
            ObjectPart::Computed { key, value } => {
                // The key is evaluated (and made a string) before the value, as in
                // JavaScript.
                let k = eval(key, scope, fr, d)?.to_js_string();
                let v = eval(value, scope, fr, d)?;
                out.put(&k, v)?;
            }
            ObjectPart::Spread(x) => match eval(x, scope, fr, d)? {
                JsValue::Object(props) => {
                    fr.spend(props.len())?;
                    for (k, v) in props.iter() {
                        out.put(k, v.clone())?;
                    }
                }
                JsValue::Array(items) => {
                    for (i, v) in items.iter().enumerate() {
                        out.put(&i.to_string(), v.clone())?;
                    }
                }
                JsValue::String(s) => {
                    for (i, unit) in s.encode_utf16().enumerate() {
                        out.put(&i.to_string(), JsValue::String(String::from_utf16_lossy(&[unit]).into()))?;
                    }
                }
                // `undefined`, `null`, a boolean, a number: no own enumerable property.
                _ => {}
            },
        }
    }
    Ok(JsValue::object(out.list))
}

/// An [`Expr::ArraySpread`]'s array.
#[inline(never)]
fn array_spread(parts: &[ArrayPart], scope: &Scope, fr: &mut Frame, d: usize) -> Result<JsValue, EvalError> {
    let mut out: Vec<JsValue> = Vec::with_capacity(parts.len());
    for p in parts {
        match p {
            ArrayPart::Item(x) => {
                let v = eval(x, scope, fr, d)?;
                out.push(v);
            }
            ArrayPart::Spread(x) => match eval(x, scope, fr, d)? {
                JsValue::Array(items) => {
                    spread_fits(out.len() + items.len())?;
                    fr.spend(items.len())?;
                    out.extend(items.iter().cloned());
                }
                JsValue::String(s) => {
                    spread_fits(out.len() + s.chars().count())?;
                    out.extend(s.chars().map(|c| JsValue::String(c.to_string().into())));
                }
                other => {
                    return Err(EvalError::Call(format!("{} is not iterable", describe(&other))));
                }
            },
        }
        spread_fits(out.len())?;
    }
    Ok(JsValue::Array(Arc::new(out)))
}

/// The properties of an object being built by an [`Expr::ObjectSpread`]: a key set again keeps
/// its place and takes the new value. Keys are found by a scan while there are few, then through
/// an index, so that spreading a large object stays linear.
#[derive(Default)]
struct Props {
    list: Vec<(String, JsValue)>,
    index: Option<rustc_hash::FxHashMap<String, usize>>,
}

impl Props {
    /// Past this many properties, keys are found through the index.
    const SCANNED: usize = 16;

    fn put(&mut self, key: &str, value: JsValue) -> Result<(), EvalError> {
        let at = match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.list.iter().position(|(k, _)| k == key),
        };
        if let Some(i) = at {
            self.list[i].1 = value;
            return Ok(());
        }
        spread_fits(self.list.len() + 1)?;
        self.list.push((key.to_string(), value));
        match &mut self.index {
            Some(index) => {
                index.insert(key.to_string(), self.list.len() - 1);
            }
            None if self.list.len() > Self::SCANNED => {
                self.index = Some(self.list.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect());
            }
            None => {}
        }
        Ok(())
    }
}

/// An evaluation error where a literal with spreads would hold more than [`MAX_SPREAD`] items.
fn spread_fits(len: usize) -> Result<(), EvalError> {
    if len > MAX_SPREAD {
        return Err(EvalError::Call(format!("a spread literal would hold more than {MAX_SPREAD} items")));
    }
    Ok(())
}

/// A value as an error message names it: `undefined`, `null`, `a number`, ...
fn describe(v: &JsValue) -> String {
    match v {
        JsValue::Undefined => "undefined".into(),
        JsValue::Null => "null".into(),
        JsValue::Object(_) => "an object".into(),
        other => format!("a {}", other.type_of()),
    }
}

/// A builtin's value. The kit's brands are the runtime's convention (the host writes them):
/// a Failure is an error object whose `"jr2"` member is `"failure"`; a ready output is an object
/// whose `ready` member is `true`.
fn call(func: Builtin, args: &[JsValue]) -> Result<JsValue, EvalError> {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(JsValue::Undefined);
    Ok(match func {
        Builtin::IsFailure => JsValue::Bool(strict_eq(&arg(0).member("jr2"), &JsValue::String("failure".into()))),
        Builtin::IsReady => JsValue::Bool(matches!(arg(0).member("ready"), JsValue::Bool(true))),
        Builtin::ParamsOf => {
            let (event, pick) = (arg(0), arg(1).to_js_string());
            let ty = event.member("type").to_js_string();
            if ty != pick {
                return Err(EvalError::Call(format!(
                    "state entered by \"{ty}\", but its input reads the params of pick \"{pick}\""
                )));
            }
            match &event {
                JsValue::Object(props) => JsValue::object(props.iter().filter(|(k, _)| k != "type").cloned().collect()),
                _ => JsValue::Undefined,
            }
        }
        Builtin::JsonStringify => match arg(0).to_json() {
            Some(j) => JsValue::String(j.to_string().into()),
            None => JsValue::Undefined,
        },
        Builtin::IsArray => JsValue::Bool(matches!(arg(0), JsValue::Array(_))),
        Builtin::String => JsValue::String(arg(0).to_js_string().into()),
        Builtin::Number => JsValue::Number(if args.is_empty() { 0.0 } else { arg(0).to_number() }),
        Builtin::Boolean => JsValue::Bool(arg(0).truthy()),
        Builtin::MathPow => JsValue::Number(pow(arg(0).to_number(), arg(1).to_number())),
        Builtin::MathMax | Builtin::MathMin => {
            // Every argument is made a number (in order) before any is compared.
            let ns: Vec<f64> = args.iter().map(JsValue::to_number).collect();
            let max = func == Builtin::MathMax;
            let mut out = if max { f64::NEG_INFINITY } else { f64::INFINITY };
            for n in ns {
                if n.is_nan() {
                    out = f64::NAN;
                    break;
                }
                // `+0` is above `-0` (`f64`'s comparison holds them equal).
                let above = n > out || (n == 0.0 && out == 0.0 && n.is_sign_positive() && out.is_sign_negative());
                let below = n < out || (n == 0.0 && out == 0.0 && n.is_sign_negative() && out.is_sign_positive());
                if (max && above) || (!max && below) {
                    out = n;
                }
            }
            JsValue::Number(out)
        }
        Builtin::StartsWith | Builtin::EndsWith => {
            let JsValue::String(s) = arg(0) else {
                return Err(EvalError::Call(format!("{} has no {}", describe(&arg(0)), builtin_name(func))));
            };
            let units: Vec<u16> = s.encode_utf16().collect();
            let search: Vec<u16> = arg(1).to_js_string().encode_utf16().collect();
            let len = units.len();
            let at = |v: JsValue, default: usize| match v {
                JsValue::Undefined => default,
                v => clamp_index(v.to_number(), len),
            };
            JsValue::Bool(if func == Builtin::StartsWith {
                let start = at(arg(2), 0);
                units[start..].starts_with(&search)
            } else {
                let end = at(arg(2), len);
                units[..end].ends_with(&search)
            })
        }
        Builtin::Includes => match arg(0) {
            JsValue::Array(items) => {
                let len = items.len();
                let from = relative_start(arg(2).to_number(), len);
                let x = arg(1);
                JsValue::Bool(items[from..].iter().any(|v| same_value_zero(v, &x)))
            }
            JsValue::String(s) => {
                let units: Vec<u16> = s.encode_utf16().collect();
                let search: Vec<u16> = arg(1).to_js_string().encode_utf16().collect();
                let start = match arg(2) {
                    JsValue::Undefined => 0,
                    v => clamp_index(v.to_number(), units.len()),
                };
                let found = search.is_empty() || units[start..].windows(search.len()).any(|w| w == search.as_slice());
                JsValue::Bool(found)
            }
            other => return Err(EvalError::Call(format!("{} has no includes", describe(&other)))),
        },
        Builtin::Join => match arg(0) {
            JsValue::Array(items) => {
                let sep = match arg(1) {
                    JsValue::Undefined => ",".to_string(),
                    v => v.to_js_string(),
                };
                let mut out = String::new();
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(&sep);
                    }
                    if !matches!(x, JsValue::Undefined | JsValue::Null) {
                        out.push_str(&x.to_js_string());
                    }
                }
                JsValue::String(out.into())
            }
            other => return Err(EvalError::Call(format!("{} has no join", describe(&other)))),
        },
        Builtin::Concat => match arg(0) {
            JsValue::Array(items) => {
                let mut out: Vec<JsValue> = items.as_ref().clone();
                for a in args.iter().skip(1) {
                    match a {
                        JsValue::Array(more) => out.extend(more.iter().cloned()),
                        other => out.push(other.clone()),
                    }
                }
                JsValue::Array(Arc::new(out))
            }
            JsValue::String(s) => {
                let mut out = s.to_string();
                for a in args.iter().skip(1) {
                    out.push_str(&a.to_js_string());
                }
                JsValue::String(out.into())
            }
            other => return Err(EvalError::Call(format!("a {} has no concat", other.type_of()))),
        },
        Builtin::Trim => match arg(0) {
            JsValue::String(s) => JsValue::String(s.trim_matches(js_space).into()),
            other => return Err(EvalError::Call(format!("{} has no trim", describe(&other)))),
        },
        Builtin::Substring => match arg(0) {
            JsValue::String(s) => {
                let units: Vec<u16> = s.encode_utf16().collect();
                let len = units.len();
                let start = clamp_index(arg(1).to_number(), len);
                let end = match arg(2) {
                    JsValue::Undefined => len,
                    v => clamp_index(v.to_number(), len),
                };
                let (from, to) = (start.min(end), start.max(end));
                JsValue::String(String::from_utf16_lossy(&units[from..to]).into())
            }
            other => return Err(EvalError::Call(format!("{} has no substring", describe(&other)))),
        },
        Builtin::Slice => {
            let range = |len: usize| {
                let from = relative_start(arg(1).to_number(), len);
                let to = match arg(2) {
                    JsValue::Undefined => len,
                    v => relative_start(v.to_number(), len),
                };
                from..to.max(from)
            };
            match arg(0) {
                JsValue::String(s) => {
                    let units: Vec<u16> = s.encode_utf16().collect();
                    JsValue::String(String::from_utf16_lossy(&units[range(units.len())]).into())
                }
                JsValue::Array(items) => JsValue::Array(Arc::new(items[range(items.len())].to_vec())),
                other => return Err(EvalError::Call(format!("{} has no slice", describe(&other)))),
            }
        }
        Builtin::ToString => match arg(0) {
            JsValue::Number(n) => {
                let radix = match arg(1) {
                    JsValue::Undefined => 10.0,
                    v => v.to_number().trunc(),
                };
                let radix = if radix.is_nan() { 0.0 } else { radix };
                if !(2.0..=36.0).contains(&radix) {
                    return Err(EvalError::Call("RangeError: toString() radix must be between 2 and 36".into()));
                }
                JsValue::String(number_to_radix_string(n, radix as u32).into())
            }
            JsValue::Undefined | JsValue::Null => {
                return Err(EvalError::Call(format!("{} has no toString", describe(&arg(0)))));
            }
            other => JsValue::String(other.to_js_string().into()),
        },
        // Drawn from the run's generator by `eval`, which has the scope.
        Builtin::MathRandom => return Err(EvalError::NoEngine),
    })
}

/// `Number.prototype.toString(radix)`: radix 10 as `String(n)`; another as V8 writes it (its
/// `DoubleToRadixCString`: the fraction's digits only up to the double's precision, rounded half
/// to even, the integer's digits past 2^53 written as zeros), which QuickJS-ng writes alike.
pub fn number_to_radix_string(value: f64, radix: u32) -> String {
    if radix == 10 || !value.is_finite() || value == 0.0 {
        return number_to_string(value);
    }
    const CHARS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let r = f64::from(radix);
    let negative = value < 0.0;
    let value = value.abs();
    let next_up = |x: f64| f64::from_bits(x.to_bits() + 1);
    let mut integer = value.floor();
    let mut fraction = value - integer;
    // Digits of the fraction only as far as the double's precision goes.
    let mut delta = (0.5 * (next_up(value) - value)).max(next_up(0.0));
    let mut frac: Vec<u8> = Vec::new();
    if fraction >= delta {
        loop {
            fraction *= r;
            delta *= r;
            let digit = fraction as u32;
            frac.push(CHARS[digit as usize]);
            fraction -= f64::from(digit);
            // Round half to even; a carry runs back through the digits written.
            if (fraction > 0.5 || (fraction == 0.5 && digit & 1 == 1)) && fraction + delta > 1.0 {
                loop {
                    match frac.pop() {
                        None => {
                            integer += 1.0;
                            break;
                        }
                        Some(c) => {
                            let d = if c > b'9' { u32::from(c - b'a') + 10 } else { u32::from(c - b'0') };
                            if d + 1 < radix {
                                frac.push(CHARS[(d + 1) as usize]);
                                break;
                            }
                        }
                    }
                }
                break;
            }
            if fraction < delta {
                break;
            }
        }
    }
    // The integer's digits, from the last; those past the double's precision (the value over the
    // radix at or above 2^53) are zeros.
    let mut int_digits: Vec<u8> = Vec::new();
    while integer / r >= 9_007_199_254_740_992.0 {
        integer /= r;
        int_digits.push(b'0');
    }
    loop {
        let rem = integer % r;
        int_digits.push(CHARS[rem as usize]);
        integer = (integer - rem) / r;
        if integer <= 0.0 {
            break;
        }
    }
    let mut out = String::with_capacity(int_digits.len() + frac.len() + 2);
    if negative {
        out.push('-');
    }
    out.extend(int_digits.iter().rev().map(|&b| b as char));
    // A carry back through every fraction digit leaves none, and no point.
    if !frac.is_empty() {
        out.push('.');
        out.extend(frac.iter().map(|&b| b as char));
    }
    out
}

/// A method's name as JavaScript writes it, for an error.
fn builtin_name(func: Builtin) -> &'static str {
    match func {
        Builtin::StartsWith => "startsWith",
        Builtin::EndsWith => "endsWith",
        _ => "such method",
    }
}

/// ToIntegerOrInfinity of a position, clamped to `0..=len` (`String.prototype.startsWith`'s and
/// `includes`'s position, `endsWith`'s end): `NaN` is 0.
fn clamp_index(n: f64, len: usize) -> usize {
    if n.is_nan() || n <= 0.0 {
        0
    } else if n >= len as f64 {
        len
    } else {
        n.trunc() as usize
    }
}

/// `Array.prototype.includes`'s `fromIndex` (ToIntegerOrInfinity, `undefined` and `NaN` 0): a
/// negative one counts from the end; clamped to `0..=len`.
fn relative_start(n: f64, len: usize) -> usize {
    if n.is_nan() {
        return 0;
    }
    let k = n.trunc();
    if k < 0.0 {
        let from_end = len as f64 + k;
        if from_end <= 0.0 {
            0
        } else {
            from_end as usize
        }
    } else {
        clamp_index(k, len)
    }
}

/// SameValueZero: `===`, except that `NaN` is itself.
fn same_value_zero(a: &JsValue, b: &JsValue) -> bool {
    match (a, b) {
        (JsValue::Number(x), JsValue::Number(y)) if x.is_nan() && y.is_nan() => true,
        _ => strict_eq(a, b),
    }
}

/// ECMAScript's `HasProperty` for `key in object`: an object's own keys, an array's indices and
/// `length`; any other value is a TypeError.
fn has_property(object: &JsValue, key: &str) -> Result<JsValue, EvalError> {
    Ok(JsValue::Bool(match object {
        JsValue::Object(props) => props.iter().any(|(k, _)| k == key),
        JsValue::Array(items) => {
            key == "length" || key.parse::<usize>().is_ok_and(|i| i < items.len() && key == i.to_string())
        }
        other => {
            return Err(EvalError::Call(format!("cannot use 'in' to search for '{key}' in a {}", other.type_of())))
        }
    }))
}

/// `Math.pow` / `**` (Number::exponentiate): as `f64::powf`, except that a base of ±1 to an
/// infinite or NaN power is NaN, not 1.
fn pow(x: f64, y: f64) -> f64 {
    if y.is_nan() || (x.abs() == 1.0 && y.is_infinite()) {
        f64::NAN
    } else {
        x.powf(y)
    }
}

/// ToInt32.
fn to_int32(x: f64) -> i32 {
    if !x.is_finite() {
        return 0;
    }
    (x.trunc().rem_euclid(4294967296.0) as u32) as i32
}

/// The value an expression reads in place, where it is one of the run's (or a local's) or a
/// member of one by name: `Some(Some(v))`, or `Some(None)` for `undefined` (a missing member);
/// `None` where the expression is of another form, or its value is made (a string's `length`).
fn place<'x>(e: &Expr, scope: &'x Scope, locals: &'x [JsValue]) -> Option<Option<&'x JsValue>> {
    match e {
        Expr::Local(slot) => Some(locals.get(*slot as usize)),
        Expr::Ref(r) => {
            let mut v = Some(scope.root(r.root));
            for key in &r.path {
                v = member_in_place(v?, key)?;
            }
            Some(v)
        }
        Expr::Member { object, property } => match &**property {
            Expr::Literal(super::Json::String(key)) => member_in_place(place(object, scope, locals)??, key),
            _ => None,
        },
        _ => None,
    }
}

/// `v[key]` in place ([`place`]): an object's property, an array's item; `Some(None)` where
/// the member is `undefined`, `None` where it is made (`length`, a string's unit).
fn member_in_place<'x>(v: &'x JsValue, key: &str) -> Option<Option<&'x JsValue>> {
    match v {
        JsValue::Object(props) => Some(props.iter().find(|(k, _)| k == key).map(|(_, x)| x)),
        JsValue::Array(items) if key != "length" => Some(array_index(key).and_then(|i| items.get(i))),
        JsValue::Undefined | JsValue::Null | JsValue::Bool(_) | JsValue::Number(_) => Some(None),
        _ => None,
    }
}

fn read(scope: &Scope, r: &Reference) -> JsValue {
    // Down the objects' and arrays' members in place; only the value reached is copied (a
    // string's `length` or unit, a member of neither, are made as `member` makes them).
    let mut v = scope.root(r.root);
    for (i, key) in r.path.iter().enumerate() {
        let next = match v {
            JsValue::Object(props) => props.iter().find(|(k, _)| k == key.as_str()).map(|(_, x)| x),
            JsValue::Array(items) if key.as_str() != "length" => array_index(key).and_then(|i| items.get(i)),
            _ => {
                let mut out = v.member(key);
                for key in &r.path[i + 1..] {
                    out = out.member(key);
                }
                return out;
            }
        };
        match next {
            Some(x) => v = x,
            None => return JsValue::Undefined,
        }
    }
    v.clone()
}

fn binary(op: BinaryOp, a: &JsValue, b: &JsValue) -> JsValue {
    use BinaryOp::*;
    match op {
        StrictEq => JsValue::Bool(strict_eq(a, b)),
        StrictNe => JsValue::Bool(!strict_eq(a, b)),
        LooseEq => JsValue::Bool(loose_eq(a, b)),
        LooseNe => JsValue::Bool(!loose_eq(a, b)),
        Lt => JsValue::Bool(less_than(a, b) == Some(true)),
        Gt => JsValue::Bool(less_than(b, a) == Some(true)),
        Le => JsValue::Bool(less_than(b, a) == Some(false)),
        Ge => JsValue::Bool(less_than(a, b) == Some(false)),
        Add => {
            let (pa, pb) = (a.to_primitive(), b.to_primitive());
            if matches!(pa, JsValue::String(_)) || matches!(pb, JsValue::String(_)) {
                let mut s = pa.to_js_string();
                s.push_str(&pb.to_js_string());
                JsValue::String(s.into())
            } else {
                JsValue::Number(pa.to_number() + pb.to_number())
            }
        }
        Sub => JsValue::Number(a.to_number() - b.to_number()),
        Mul => JsValue::Number(a.to_number() * b.to_number()),
        Div => JsValue::Number(a.to_number() / b.to_number()),
        // `f64`'s `%` is C's fmod, which is ECMAScript's Number::remainder.
        Rem => JsValue::Number(a.to_number() % b.to_number()),
        Exp => JsValue::Number(pow(a.to_number(), b.to_number())),
        BitAnd => JsValue::Number(f64::from(to_int32(a.to_number()) & to_int32(b.to_number()))),
        BitOr => JsValue::Number(f64::from(to_int32(a.to_number()) | to_int32(b.to_number()))),
        BitXor => JsValue::Number(f64::from(to_int32(a.to_number()) ^ to_int32(b.to_number()))),
        Shl => JsValue::Number(f64::from(to_int32(a.to_number()).wrapping_shl(to_int32(b.to_number()) as u32 & 31))),
        Shr => JsValue::Number(f64::from(to_int32(a.to_number()) >> (to_int32(b.to_number()) as u32 & 31))),
        UShr => JsValue::Number(f64::from((to_int32(a.to_number()) as u32) >> (to_int32(b.to_number()) as u32 & 31))),
        // Evaluated by `eval`, which may fail (see [`has_property`]).
        In => JsValue::Bool(false),
    }
}

/// IsStrictlyEqual.
pub(crate) fn strict_eq(a: &JsValue, b: &JsValue) -> bool {
    match (a, b) {
        (JsValue::Undefined, JsValue::Undefined) | (JsValue::Null, JsValue::Null) => true,
        (JsValue::Bool(x), JsValue::Bool(y)) => x == y,
        (JsValue::Number(x), JsValue::Number(y)) => x == y,
        (JsValue::String(x), JsValue::String(y)) => x == y,
        (JsValue::Array(x), JsValue::Array(y)) => Arc::ptr_eq(x, y),
        (JsValue::Object(x), JsValue::Object(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

/// IsLooselyEqual.
pub(crate) fn loose_eq(a: &JsValue, b: &JsValue) -> bool {
    use JsValue::*;
    match (a, b) {
        (Undefined | Null, Undefined | Null) => true,
        (Undefined | Null, _) | (_, Undefined | Null) => false,
        (Number(x), String(_)) => *x == b.to_number(),
        (String(_), Number(y)) => a.to_number() == *y,
        (Bool(_), _) => loose_eq(&Number(a.to_number()), b),
        (_, Bool(_)) => loose_eq(a, &Number(b.to_number())),
        (Array(_) | Object(_), Number(_) | String(_)) => loose_eq(&a.to_primitive(), b),
        (Number(_) | String(_), Array(_) | Object(_)) => loose_eq(a, &b.to_primitive()),
        _ => strict_eq(a, b),
    }
}

/// IsLessThan (left first): `None` where a number is `NaN` (JavaScript's `undefined`).
fn less_than(a: &JsValue, b: &JsValue) -> Option<bool> {
    let (pa, pb) = (a.to_primitive(), b.to_primitive());
    if let (JsValue::String(x), JsValue::String(y)) = (&pa, &pb) {
        return Some(x.encode_utf16().lt(y.encode_utf16()));
    }
    let (x, y) = (pa.to_number(), pb.to_number());
    if x.is_nan() || y.is_nan() {
        None
    } else {
        Some(x < y)
    }
}

impl JsValue {
    /// A JSON value as JavaScript's `JSON.parse` gives it.
    pub fn from_json(j: &J) -> JsValue {
        match j {
            J::Null => JsValue::Null,
            J::Bool(b) => JsValue::Bool(*b),
            J::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
            J::String(s) => JsValue::String(s.as_str().into()),
            J::Array(items) => JsValue::Array(Arc::new(items.iter().map(JsValue::from_json).collect())),
            J::Object(m) => JsValue::object(m.iter().map(|(k, v)| (k.clone(), JsValue::from_json(v))).collect()),
        }
    }

    /// An IR literal ([`super::Json`]) as JavaScript's `JSON.parse` gives it: [`JsValue::from_json`]
    /// for the IR's own JSON type (a mapper's arguments arrive as `serde_json`, its literals as
    /// `ir::Json`; neither is converted into the other to be read).
    pub fn from_literal(j: &super::Json) -> JsValue {
        use super::Json as L;
        match j {
            L::Null => JsValue::Null,
            L::Bool(b) => JsValue::Bool(*b),
            L::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
            L::String(s) => JsValue::String(s.as_str().into()),
            L::Array(items) => JsValue::Array(Arc::new(items.iter().map(JsValue::from_literal).collect())),
            L::Object(m) => JsValue::object(m.iter().map(|(k, v)| (k.to_string(), JsValue::from_literal(v))).collect()),
        }
    }

    /// An object of these properties (keys unique), in JavaScript's property order.
    pub fn object_of(props: Vec<(String, JsValue)>) -> JsValue {
        JsValue::object(props)
    }

    /// `v[key] = value` on an object or an array, as JavaScript's assignment does (a new key of
    /// an object goes where JavaScript's property order puts it; an index past an array's end
    /// fills the gap with `undefined`). Anything else is left as it is, and `false` says so.
    pub fn set(&mut self, key: &str, value: JsValue) -> bool {
        match self {
            JsValue::Object(props) => {
                let props = Arc::make_mut(props);
                match props.iter_mut().find(|(k, _)| k == key) {
                    Some(slot) => slot.1 = value,
                    None => {
                        props.push((key.to_string(), value));
                        if array_index(key).is_some() {
                            props.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |i| (0, i)));
                        }
                    }
                }
                true
            }
            JsValue::Array(items) => match array_index(key) {
                // A bound on a gap's size: an index far past the end is not made.
                Some(i) if i <= items.len() + 65_536 => {
                    let items = Arc::make_mut(items);
                    if i >= items.len() {
                        items.resize(i + 1, JsValue::Undefined);
                    }
                    items[i] = value;
                    true
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// An object of unique keys, put in JavaScript's property order.
    fn object(mut props: Vec<(String, JsValue)>) -> JsValue {
        if props.iter().any(|(k, _)| array_index(k).is_some()) {
            // Stable: the other keys keep their insertion order.
            props.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |i| (0, i)));
        }
        JsValue::Object(Arc::new(props))
    }

    /// The value as `JSON.stringify` writes it: `None` for `undefined`; an `undefined` property is
    /// left out and an `undefined` item is `null`; a non-finite number is `null`.
    pub fn to_json(&self) -> Option<J> {
        Some(match self {
            JsValue::Undefined => return None,
            JsValue::Null => J::Null,
            JsValue::Bool(b) => J::Bool(*b),
            JsValue::Number(n) => number_json(*n),
            JsValue::String(s) => J::String(s.to_string()),
            JsValue::Array(items) => J::Array(items.iter().map(|x| x.to_json().unwrap_or(J::Null)).collect()),
            JsValue::Object(props) => {
                J::Object(props.iter().filter_map(|(k, v)| Some((k.clone(), v.to_json()?))).collect())
            }
        })
    }

    /// ToBoolean.
    pub fn truthy(&self) -> bool {
        match self {
            JsValue::Undefined | JsValue::Null => false,
            JsValue::Bool(b) => *b,
            JsValue::Number(n) => *n != 0.0 && !n.is_nan(),
            JsValue::String(s) => !s.is_empty(),
            JsValue::Array(_) | JsValue::Object(_) => true,
        }
    }

    /// `typeof`.
    pub fn type_of(&self) -> &'static str {
        match self {
            JsValue::Undefined => "undefined",
            JsValue::Bool(_) => "boolean",
            JsValue::Number(_) => "number",
            JsValue::String(_) => "string",
            JsValue::Null | JsValue::Array(_) | JsValue::Object(_) => "object",
        }
    }

    /// ToPrimitive: an array is its items joined, a plain object `[object Object]`.
    pub(crate) fn to_primitive(&self) -> JsValue {
        match self {
            JsValue::Array(_) | JsValue::Object(_) => JsValue::String(self.to_js_string().into()),
            other => other.clone(),
        }
    }

    /// ToNumber.
    pub(crate) fn to_number(&self) -> f64 {
        match self {
            JsValue::Undefined => f64::NAN,
            JsValue::Null => 0.0,
            JsValue::Bool(b) => f64::from(u8::from(*b)),
            JsValue::Number(n) => *n,
            JsValue::String(s) => string_to_number(s),
            JsValue::Array(_) | JsValue::Object(_) => self.to_primitive().to_number(),
        }
    }

    /// ToString (`String(x)`, a template's `${x}`).
    pub fn to_js_string(&self) -> String {
        match self {
            JsValue::Undefined => "undefined".into(),
            JsValue::Null => "null".into(),
            JsValue::Bool(b) => b.to_string(),
            JsValue::Number(n) => number_to_string(*n),
            JsValue::String(s) => s.to_string(),
            JsValue::Array(items) => {
                let mut out = String::new();
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if !matches!(x, JsValue::Undefined | JsValue::Null) {
                        out.push_str(&x.to_js_string());
                    }
                }
                out
            }
            JsValue::Object(_) => "[object Object]".into(),
        }
    }

    /// `v[key]`, leniently: `undefined` where there is none.
    pub fn member(&self, key: &str) -> JsValue {
        match self {
            JsValue::Object(props) => {
                props.iter().find(|(k, _)| k == key).map_or(JsValue::Undefined, |(_, v)| v.clone())
            }
            JsValue::Array(items) => match key {
                "length" => JsValue::Number(items.len() as f64),
                _ => array_index(key).and_then(|i| items.get(i)).cloned().unwrap_or(JsValue::Undefined),
            },
            JsValue::String(s) => match key {
                "length" => JsValue::Number(s.encode_utf16().count() as f64),
                _ => match array_index(key).and_then(|i| s.encode_utf16().nth(i)) {
                    Some(unit) => JsValue::String(String::from_utf16_lossy(&[unit]).into()),
                    None => JsValue::Undefined,
                },
            },
            _ => JsValue::Undefined,
        }
    }
}

/// A canonical array index (`"0"`, `"12"`; not `"012"` or `"-1"`).
fn array_index(key: &str) -> Option<usize> {
    let ok = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) && (key == "0" || !key.starts_with('0'));
    if !ok {
        return None;
    }
    key.parse::<u32>().ok().filter(|i| *i < u32::MAX).map(|i| i as usize)
}

/// A number as JSON: an integer where it is one (and exact), `null` where it is not finite.
fn number_json(n: f64) -> J {
    if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
        J::Number((n as i64).into())
    } else {
        serde_json::Number::from_f64(n).map_or(J::Null, J::Number)
    }
}

/// `Number.prototype.toString()`: the shortest digits that read back as `n`, in ECMAScript's
/// layout (Number::toString, radix 10).
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n == 0.0 {
        return "0".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if n < 0.0 {
        return format!("-{}", number_to_string(-n));
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `1.2345e-7`.
    let sci = format!("{n:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i64;
    let point = exp + 1; // ECMAScript's n: the decimal point after `point` digits.
    if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let e = point - 1;
        let sign = if e < 0 { '-' } else { '+' };
        match digits.split_at(1) {
            (first, "") => format!("{first}e{sign}{}", e.abs()),
            (first, rest) => format!("{first}.{rest}e{sign}{}", e.abs()),
        }
    }
}

/// ECMAScript's WhiteSpace and LineTerminator, which StringToNumber and `trim` trim.
fn js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// StringToNumber: `""` and blanks are 0; `0x`/`0o`/`0b` integers; a decimal literal with an
/// optional sign, or `Infinity`; anything else is `NaN`.
pub(crate) fn string_to_number(s: &str) -> f64 {
    let t = s.trim_matches(js_space);
    if t.is_empty() {
        return 0.0;
    }
    let radix = match t.get(..2) {
        Some("0x" | "0X") => Some(16),
        Some("0o" | "0O") => Some(8),
        Some("0b" | "0B") => Some(2),
        _ => None,
    };
    if let Some(radix) = radix {
        let body = &t[2..];
        if body.is_empty() {
            return f64::NAN;
        }
        let mut v = 0.0f64;
        for c in body.chars() {
            match c.to_digit(radix) {
                Some(d) => v = v * f64::from(radix) + f64::from(d),
                None => return f64::NAN,
            }
        }
        return v;
    }
    let (sign, body) = match t.as_bytes()[0] {
        b'+' => (1.0, &t[1..]),
        b'-' => (-1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body == "Infinity" {
        return sign * f64::INFINITY;
    }
    // digits [. digits] [e [+-] digits], at least one digit before the exponent.
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) || (int.is_empty() && frac.is_empty()) {
        return f64::NAN;
    }
    let mut norm = format!("{}.{}", if int.is_empty() { "0" } else { int }, if frac.is_empty() { "0" } else { frac });
    if let Some(e) = exponent {
        let e_digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e_digits.is_empty() || !digits(e_digits) {
            return f64::NAN;
        }
        norm.push('e');
        norm.push_str(e);
    }
    norm.parse::<f64>().map_or(f64::NAN, |v| sign * v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::parse_reference;
    use serde_json::json;

    fn lit(j: J) -> Box<Expr> {
        Box::new(Expr::Literal(j.into()))
    }

    fn r(t: &str) -> Box<Expr> {
        Box::new(Expr::Ref(parse_reference(t).expect("a reference")))
    }

    /// An `Expr::Error` is an evaluation error with its reason, wherever it is (an operand whose
    /// `||` that does not read its right side does not meet it).
    #[test]
    fn an_error_expression_is_an_evaluation_error() {
        let e = Expr::Binary { op: BinaryOp::Add, left: lit(json!(1)), right: Box::new(Expr::Error("bad".into())) };
        assert_eq!(evaluate_json(&e, &json!({})), Err(EvalError::Call("bad".into())));
        let short =
            Expr::Logical { op: LogicalOp::Or, left: lit(json!(true)), right: Box::new(Expr::Error("x".into())) };
        assert_eq!(evaluate_json(&short, &json!({})), Ok(Some(json!(true))));
    }

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (n, text) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (2.5e25, "2.5e+25"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ] {
            assert_eq!(number_to_string(n), text, "{n:e}");
        }
    }

    #[test]
    fn strings_read_as_numbers_as_javascript_reads_them() {
        for (s, n) in [
            ("", 0.0),
            ("  \n", 0.0),
            (" 12 ", 12.0),
            ("0x1F", 31.0),
            ("0b101", 5.0),
            ("0o17", 15.0),
            ("-Infinity", f64::NEG_INFINITY),
            (".5", 0.5),
            ("5.", 5.0),
            ("-1e3", -1000.0),
            ("+2E-1", 0.2),
        ] {
            assert_eq!(string_to_number(s), n, "{s:?}");
        }
        for s in ["abc", "1_000", "0x", "-0x10", "inf", "NaN", ".", "1e", "e5", "1.2.3", "12px"] {
            assert!(string_to_number(s).is_nan(), "{s:?}");
        }
    }

    #[test]
    fn operators_follow_javascript() {
        let scope =
            Scope::from_json(&json!({ "context": { "tries": 2, "name": "ab", "list": [1, null, 2], "o": {} } }));
        let run = |e: Expr| evaluate(&e, &scope).expect("evaluates").to_json();
        let bin = |op, l, r| Expr::Binary { op, left: l, right: r };
        assert_eq!(run(bin(BinaryOp::Lt, r("context.tries"), lit(json!(3)))), Some(json!(true)));
        assert_eq!(run(bin(BinaryOp::LooseEq, lit(json!("1")), lit(json!(1)))), Some(json!(true)));
        assert_eq!(run(bin(BinaryOp::StrictEq, lit(json!("1")), lit(json!(1)))), Some(json!(false)));
        assert_eq!(run(bin(BinaryOp::LooseEq, lit(json!(null)), Box::new(Expr::Undefined))), Some(json!(true)));
        assert_eq!(run(bin(BinaryOp::LooseEq, lit(json!(null)), lit(json!(0)))), Some(json!(false)));
        assert_eq!(run(bin(BinaryOp::Add, r("context.list"), lit(json!(1)))), Some(json!("1,,21")));
        assert_eq!(run(bin(BinaryOp::Add, lit(json!(true)), lit(json!(1)))), Some(json!(2)));
        assert_eq!(run(bin(BinaryOp::StrictEq, r("context.o"), r("context.o"))), Some(json!(true)));
        assert_eq!(run(bin(BinaryOp::StrictEq, lit(json!({})), lit(json!({})))), Some(json!(false)));
        assert_eq!(run(bin(BinaryOp::Lt, lit(json!("10")), lit(json!("9")))), Some(json!(true)));
        assert_eq!(run(bin(BinaryOp::Ge, Box::new(Expr::Undefined), lit(json!(0)))), Some(json!(false)));
        // `0 / 0` is NaN, which JSON writes as null.
        assert_eq!(run(bin(BinaryOp::Div, lit(json!(0)), lit(json!(0)))), Some(J::Null));
        let coalesce = Expr::Logical { op: LogicalOp::Coalesce, left: lit(json!(0)), right: lit(json!(5)) };
        assert_eq!(run(coalesce), Some(json!(0)));
        let or = Expr::Logical { op: LogicalOp::Or, left: lit(json!(0)), right: lit(json!(5)) };
        assert_eq!(run(or), Some(json!(5)));
        let typeof_null = Expr::Unary { op: UnaryOp::Typeof, arg: lit(json!(null)) };
        assert_eq!(run(typeof_null), Some(json!("object")));
        assert_eq!(run(*r("context.name.length")), Some(json!(2)));
        assert_eq!(run(*r("context.name.1")), Some(json!("b")));
        // Lenient reads: a member of a missing value is undefined.
        assert_eq!(run(*r("context.missing.deeper")), None);
        let t = Expr::Template(vec![
            TemplatePart::Text("n=".into()),
            TemplatePart::Ref(parse_reference("context.missing").expect("a reference")),
            TemplatePart::Expr(Expr::Binary { op: BinaryOp::Div, left: lit(json!(1)), right: lit(json!(3)) }),
        ]);
        assert_eq!(run(t), Some(json!("n=undefined0.3333333333333333")));
    }

    #[test]
    fn in_bit_operators_pow_and_concat_follow_javascript() {
        let scope = Scope::from_json(&json!({ "context": { "o": { "a": null }, "list": [1, 2], "s": "ab" } }));
        let eval = |e: Expr| evaluate(&e, &scope).map(|v| v.to_json());
        let run = |e: Expr| eval(e).expect("evaluates");
        let bin = |op, l, r| Expr::Binary { op, left: l, right: r };
        let call = |func, args: Vec<Expr>| Expr::Call { func, args };
        // `in`: own keys, array indices and `length`; a non-object is a TypeError.
        assert_eq!(run(bin(BinaryOp::In, lit(json!("a")), r("context.o"))), Some(json!(true)));
        assert_eq!(run(bin(BinaryOp::In, lit(json!("b")), r("context.o"))), Some(json!(false)));
        assert_eq!(run(bin(BinaryOp::In, lit(json!(1)), r("context.list"))), Some(json!(true)));
        assert_eq!(run(bin(BinaryOp::In, lit(json!("01")), r("context.list"))), Some(json!(false)));
        assert_eq!(run(bin(BinaryOp::In, lit(json!("length")), r("context.list"))), Some(json!(true)));
        assert!(eval(bin(BinaryOp::In, lit(json!("length")), r("context.s"))).is_err());
        // Bit operators over ToInt32.
        assert_eq!(run(bin(BinaryOp::BitOr, lit(json!(5)), lit(json!(2)))), Some(json!(7)));
        assert_eq!(run(bin(BinaryOp::BitAnd, lit(json!(-1)), lit(json!(4294967301.0)))), Some(json!(5)));
        assert_eq!(run(bin(BinaryOp::BitXor, lit(json!(6)), lit(json!("3")))), Some(json!(5)));
        assert_eq!(run(bin(BinaryOp::Shl, lit(json!(1)), lit(json!(33)))), Some(json!(2)));
        assert_eq!(run(bin(BinaryOp::Shr, lit(json!(-8)), lit(json!(1)))), Some(json!(-4)));
        assert_eq!(run(bin(BinaryOp::UShr, lit(json!(-1)), lit(json!(28)))), Some(json!(15)));
        // `**` and `Math.pow`: 1 to an infinite power is NaN (null in JSON).
        assert_eq!(run(bin(BinaryOp::Exp, lit(json!(2)), lit(json!(10)))), Some(json!(1024)));
        assert_eq!(run(call(Builtin::MathPow, vec![*lit(json!(3)), *lit(json!(3))])), Some(json!(27)));
        let infinity = bin(BinaryOp::Div, lit(json!(1)), lit(json!(0)));
        assert_eq!(run(call(Builtin::MathPow, vec![*lit(json!(1)), infinity])), Some(J::Null));
        // `concat`: arrays spread one level, other values pushed; a string's joined.
        let concat =
            call(Builtin::Concat, vec![*lit(json!([])), *r("context.list"), *lit(json!([[3]])), *lit(json!(4))]);
        assert_eq!(run(concat), Some(json!([1, 2, [3], 4])));
        assert_eq!(run(call(Builtin::Concat, vec![*r("context.s"), *lit(json!(1))])), Some(json!("ab1")));
        assert!(eval(call(Builtin::Concat, vec![*r("context.o"), *lit(json!(1))])).is_err());
    }

    #[test]
    fn objects_keep_javascripts_key_order_and_drop_undefined() {
        let e = Expr::Object(vec![
            ("b".into(), Expr::Literal(json!(1).into())),
            ("2".into(), Expr::Undefined),
            ("10".into(), Expr::Literal(json!("x").into())),
            ("1".into(), Expr::Literal(json!("y").into())),
            ("a".into(), Expr::Literal(json!(2).into())),
        ]);
        let v = evaluate(&e, &Scope::from_json(&json!({}))).expect("evaluates");
        let JsValue::Object(props) = &v else { panic!("an object") };
        let keys: Vec<&str> = props.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["1", "2", "10", "b", "a"]);
        assert_eq!(v.to_json(), Some(json!({ "1": "y", "10": "x", "b": 1, "a": 2 })));
    }

    /// Object spreads copy own properties in order (a key set again keeps its first place, integer
    /// keys first), spread nothing of `null`, numbers and booleans, and a string's and an array's
    /// indices; computed keys are strings; array spreads take arrays' items and strings' code
    /// points, and a non-iterable is an error.
    #[test]
    fn spreads_and_computed_keys_build_as_javascript_does() {
        use crate::expr::{ArrayPart, ObjectPart};
        let scope = Scope::from_json(&json!({
            "context": { "o": { "b": 1, "a": 2, "5": "five" }, "list": ["x", "y"], "n": 3, "s": "h\u{e9}\u{1F600}" },
            "event": { "key": "b", "k": 2 }
        }));
        let eval = |e: Expr| evaluate(&e, &scope).map(|v| v.to_json());
        let field = |k: &str, v: Box<Expr>| ObjectPart::Field { key: k.into(), value: *v };
        let spread = |v: Box<Expr>| ObjectPart::Spread(*v);
        let obj = |parts: Vec<ObjectPart>| Expr::ObjectSpread(parts);
        // `{ z: 0, ...o, a: 9, [event.key]: 7, [event.k]: "two" }`
        let e = obj(vec![
            field("z", lit(json!(0))),
            spread(r("context.o")),
            field("a", lit(json!(9))),
            ObjectPart::Computed { key: *r("event.key"), value: *lit(json!(7)) },
            ObjectPart::Computed { key: *r("event.k"), value: *lit(json!("two")) },
        ]);
        let v = evaluate(&e, &scope).expect("evaluates");
        let JsValue::Object(props) = &v else { panic!("an object") };
        let keys: Vec<&str> = props.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["2", "5", "z", "b", "a"]);
        assert_eq!(v.to_json(), Some(json!({ "2": "two", "5": "five", "z": 0, "b": 7, "a": 9 })));
        // Spreads of values with no own properties add nothing; an array and a string their indices.
        let e = obj(vec![
            spread(lit(json!(null))),
            spread(Box::new(Expr::Undefined)),
            spread(r("context.n")),
            spread(lit(json!(true))),
            spread(r("context.list")),
        ]);
        assert_eq!(eval(e), Ok(Some(json!({ "0": "x", "1": "y" }))));
        assert_eq!(eval(obj(vec![spread(lit(json!("ab")))])), Ok(Some(json!({ "0": "a", "1": "b" }))));
        // A computed key of an object or an array is its string.
        let e = obj(vec![ObjectPart::Computed { key: *r("context.list"), value: *lit(json!(1)) }]);
        assert_eq!(eval(e), Ok(Some(json!({ "x,y": 1 }))));
        // `[...list, n, ...s]`: a string spreads its code points.
        let e = Expr::ArraySpread(vec![
            ArrayPart::Spread(*r("context.list")),
            ArrayPart::Item(*r("context.n")),
            ArrayPart::Spread(*r("context.s")),
        ]);
        assert_eq!(eval(e), Ok(Some(json!(["x", "y", 3, "h", "\u{e9}", "\u{1F600}"]))));
        for bad in [r("context.n"), r("context.o"), lit(json!(null)), Box::new(Expr::Undefined)] {
            assert!(eval(Expr::ArraySpread(vec![ArrayPart::Spread(*bad)])).is_err());
        }
        // The form is its own kind, its parts tagged as the other forms are.
        let text = serde_json::to_value(obj(vec![field("a", lit(json!(1))), spread(r("context.o"))])).expect("json");
        assert_eq!(
            text,
            json!({ "kind": "objectSpread", "value": [
                { "kind": "field", "value": { "key": "a", "value": { "kind": "literal", "value": 1 } } },
                { "kind": "spread", "value": { "kind": "ref", "value": { "root": "context", "path": ["o"] } } }
            ] })
        );
        assert_eq!(
            serde_json::from_value::<Expr>(text).ok(),
            Some(obj(vec![field("a", lit(json!(1))), spread(r("context.o"))]))
        );
    }

    /// A spread that would build more than [`MAX_SPREAD`] items is an error, not a large value;
    /// a large object spread is built in linear time (through the index).
    #[test]
    fn spreads_are_bounded() {
        use crate::expr::{ArrayPart, ObjectPart};
        let big: Vec<u32> = (0..(MAX_SPREAD as u32 / 2 + 1)).collect();
        let scope = Scope::from_json(&json!({ "context": { "big": big } }));
        let twice = Expr::ArraySpread(vec![ArrayPart::Spread(*r("context.big")), ArrayPart::Spread(*r("context.big"))]);
        assert!(matches!(evaluate(&twice, &scope), Err(EvalError::Call(_))));
        let once = Expr::ObjectSpread(vec![ObjectPart::Spread(*r("context.big"))]);
        let JsValue::Object(props) = evaluate(&once, &scope).expect("fits") else { panic!("an object") };
        assert_eq!(props.len(), MAX_SPREAD / 2 + 1);
        assert_eq!(props.last().map(|(k, _)| k.as_str()), Some((MAX_SPREAD / 2).to_string().as_str()));
    }

    /// `Number#toString(radix)` as V8 writes it (the expression cross-check compares many more
    /// with Node): integers, fractions cut at the double's precision, a carry, signs.
    #[test]
    fn numbers_print_in_a_radix_as_v8_prints_them() {
        for (n, radix, text) in [
            (255.0, 16, "ff"),
            (-255.5, 2, "-11111111.1"),
            (0.5, 2, "0.1"),
            (0.5, 3, "0.1111111111111111111111111111111112"),
            (35.0, 36, "z"),
            (0.0, 36, "0"),
            (-0.0, 2, "0"),
            (f64::NAN, 7, "NaN"),
            (f64::NEG_INFINITY, 36, "-Infinity"),
            (1e21, 36, "5v1j4f4ds7c000"),
            (0.1, 10, "0.1"),
        ] {
            assert_eq!(number_to_radix_string(n, radix), text, "{n} in radix {radix}");
        }
    }

    /// Callbacks see their item and index in their slots, closures see the scope, a `let` is
    /// evaluated once, and the work of one evaluation is bounded.
    #[test]
    fn callbacks_and_lets_evaluate_in_their_slots() {
        use crate::expr::{ArrayMethod, Callback};
        let scope = Scope::from_json(&json!({ "context": { "list": [3, 4, 5], "k": 10 } }));
        let cb = |method, body: Expr, init: Option<Expr>| {
            Expr::Callback(Box::new(Callback { method, array: *r("context.list"), slot: 0, body, init }))
        };
        let local = |i| Box::new(Expr::Local(i));
        let add = |l, r| Expr::Binary { op: BinaryOp::Add, left: l, right: r };
        let run = |e: &Expr| evaluate(e, &scope).map(|v| v.to_json());
        // `list.map((x, i) => x + i + context.k)`
        let map = cb(ArrayMethod::Map, add(Box::new(add(local(0), local(1))), r("context.k")), None);
        assert_eq!(run(&map), Ok(Some(json!([13, 15, 17]))));
        // `list.reduce((a, x, i) => a + x * i, 0)`
        let times = Expr::Binary { op: BinaryOp::Mul, left: local(1), right: local(2) };
        let reduce = cb(ArrayMethod::Reduce, add(local(0), Box::new(times)), Some(*lit(json!(0))));
        assert_eq!(run(&reduce), Ok(Some(json!(14))));
        let find =
            cb(ArrayMethod::FindIndex, Expr::Binary { op: BinaryOp::Gt, left: local(0), right: lit(json!(3)) }, None);
        assert_eq!(run(&find), Ok(Some(json!(1))));
        // A receiver that is not an array is an error.
        let mut bad = cb(ArrayMethod::Some, *local(0), None);
        if let Expr::Callback(c) = &mut bad {
            c.array = *r("context.k");
        }
        assert!(run(&bad).is_err());
        // `const y = list.map(...); [y, y]`: the same array twice.
        let twice = Expr::Let {
            slot: 5,
            value: Box::new(map),
            body: Box::new(Expr::Binary { op: BinaryOp::StrictEq, left: local(5), right: local(5) }),
        };
        assert_eq!(run(&twice), Ok(Some(json!(true))));
        // Nested over a large array: past MAX_WORK, an error, not hours of work.
        let big: Vec<u32> = (0..5000).collect();
        let scope = Scope::from_json(&json!({ "context": { "list": big } }));
        let inner = cb(ArrayMethod::Map, *local(2), None);
        let inner = match inner {
            Expr::Callback(mut c) => {
                c.slot = 2;
                Expr::Callback(c)
            }
            e => e,
        };
        let nested = cb(ArrayMethod::Map, cb(ArrayMethod::Some, inner, None), None);
        assert!(matches!(evaluate(&nested, &scope), Err(EvalError::Call(m)) if m.contains("callback calls")));
    }

    #[test]
    fn too_deep_is_an_error_not_an_overflow() {
        let mut e = Expr::Literal(json!(1).into());
        for _ in 0..(MAX_EVAL_DEPTH + 5) {
            e = Expr::Unary { op: UnaryOp::Not, arg: Box::new(e) };
        }
        assert_eq!(evaluate(&e, &Scope::from_json(&json!({}))).err(), Some(EvalError::TooDeep));
    }

    #[test]
    fn forms_serialize_as_kind_and_value() {
        let e = Expr::Conditional {
            test: Box::new(Expr::Binary { op: BinaryOp::StrictEq, left: r("event.output.code"), right: lit(json!(0)) }),
            consequent: lit(json!("pass")),
            alternate: Box::new(Expr::Undefined),
        };
        let text = serde_json::to_value(&e).expect("serializes");
        assert_eq!(
            text,
            json!({ "kind": "conditional", "value": {
                "test": { "kind": "binary", "value": { "op": "===",
                    "left": { "kind": "ref", "value": { "root": "event", "path": ["output", "code"] } },
                    "right": { "kind": "literal", "value": 0 } } },
                "consequent": { "kind": "literal", "value": "pass" },
                "alternate": { "kind": "undefined" } } })
        );
        let back: Expr = serde_json::from_value(text).expect("reads back");
        assert_eq!(back, e);
    }
}
