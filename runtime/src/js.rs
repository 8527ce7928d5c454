//! The embedded JavaScript engine: the functions the front end carried as JavaScript
//! ([`ir::Expr::Js`]), run in QuickJS-ng through rquickjs (issue 34; the engine was chosen by
//! measurement in `bench/engines`, `docs/benchmarks.md`).
//!
//! What a function sees is the run's, and nothing else (as Temporal's TypeScript SDK runs workflow
//! code), so that the same call over the same scope gives the same value on any machine, after any
//! restore:
//! - `Date.now()` and `new Date()` read the macrostep's clock (the host's reading, [`Js::now`]);
//!   `Date` with arguments, `Date.UTC` and `Date.parse` are the standard ones;
//! - `Math.random()` is mulberry32, whose state is the run's ([`Js::random`], in the snapshot),
//!   seeded per run;
//! - there is no I/O, no timer, no module loader, no `eval`, no `Function` constructor (nor one
//!   reached through a function's `constructor`), and `console`'s methods do nothing;
//! - the standard library is frozen before any function runs (every intrinsic reachable from the
//!   global object), so a function cannot leave state in it for a later call, of this run or of
//!   another run on the same thread;
//! - each call has a bound of [`MAX_POLLS`] interrupt polls (QuickJS polls its handler every
//!   10 000 or so instructions: the bound is a count, not a time, so it stops the same code at the
//!   same place on any machine), a memory bound ([`MEMORY`]) and a stack bound ([`STACK`]); past
//!   one the call is an error naming it.
//!
//! The engine itself is one QuickJS runtime per thread, made on the thread's first call and kept
//! (its compiled functions with it) for later calls of any run, so that the [`super::Runtime`] and a
//! run stay `Send` (rquickjs's values are not) and a run may move between threads: nothing of a
//! run is in the engine between calls. A call's values cross both ways as trees: the arguments
//! from [`JsValue`]s, the result back into one (`undefined`, `-0`, NaN and the infinities kept; an
//! object with a `toJSON` method, such as a `Date`, as `JSON.stringify` writes it; a function, a
//! symbol, a bigint or a Promise refused, as a run cannot keep one).
//!
//! Code is compiled as a script, sloppy unless it says `"use strict"` (a Machine's functions do,
//! as their modules are strict; SCXML's scripts read the data model through `with`). A script may
//! ask for the run's globals and active states as a third argument ([`Script::run`]) and have the
//! context it changed in place taken back ([`Script::writes`], [`Js::take_written`]).
//!
//! A function that throws is an [`EvalError::Threw`] with the error's `name: message`, which the
//! run meets as any evaluation error of its kind (xstate's: a throwing guard or action ends the
//! actor `error`; SCXML's: `error.execution`).

use ir::eval::{Engine, EvalError, JsValue, Scope};
use ir::expr::{Root, Script};
use rquickjs::context::EvalOptions;
use rquickjs::{Array, Context, Ctx, Function, Object, Persistent, Runtime, Type, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// How many times QuickJS may poll the interrupt handler in one call (about 10 000 instructions
/// a poll: some 0.3 s of a tight loop here) before the call is stopped.
pub(crate) const MAX_POLLS: u32 = 2_000;
/// The engine's memory, for all the functions a thread keeps and the call's values.
pub(crate) const MEMORY: usize = 128 << 20;
/// The native stack a call may use (deep recursion is a `RangeError`, not a crash).
pub(crate) const STACK: usize = 512 << 10;
/// How many compiled functions a thread keeps before it starts its engine again.
const MAX_FUNCTIONS: usize = 4096;
/// How many values a result may hold (items and properties, all levels), and how deep.
const MAX_NODES: usize = 1 << 20;
const MAX_DEPTH: usize = 64;
/// How much of a thrown error's text is kept.
const MAX_MESSAGE: usize = 500;

/// A run's handle on the engine: the macrostep's clock and the run's random generator.
#[derive(Debug)]
pub(crate) struct Js {
    /// The host's clock at the call, in milliseconds since the epoch.
    pub(crate) now: AtomicU64,
    /// mulberry32's state.
    pub(crate) random: AtomicU32,
    /// The context a script that `writes` left (SCXML's data model changed in place), for the
    /// run to take after the evaluation.
    written: Mutex<Option<JsValue>>,
    /// Is there a context in `written`? (Read on every evaluation: no lock where none is.)
    wrote: std::sync::atomic::AtomicBool,
    /// The value the last function that threw threw (an `Error` as `{ name, message }`), for the
    /// run's fault: xstate hands a child's thrown error to its parent as the error event's.
    thrown: Mutex<Option<JsValue>>,
}

impl Js {
    pub(crate) fn new(now: u64, random: u32) -> Js {
        Js {
            now: AtomicU64::new(now),
            random: AtomicU32::new(random),
            written: Mutex::new(None),
            wrote: std::sync::atomic::AtomicBool::new(false),
            thrown: Mutex::new(None),
        }
    }

    /// The value the last function that threw threw, taken.
    pub(crate) fn take_thrown(&self) -> Option<JsValue> {
        self.thrown.lock().ok().and_then(|mut t| t.take())
    }

    /// The context the last evaluation's scripts wrote, if any did.
    pub(crate) fn take_written(&self) -> Option<JsValue> {
        if !self.wrote.swap(false, Relaxed) {
            return None;
        }
        self.written.lock().ok().and_then(|mut w| w.take())
    }
}

/// A run's generator's first state: FNV-1a of its session id, so that two runs differ and the
/// same run (restored) goes on where it was.
pub(crate) fn seed(session: &str) -> u32 {
    session.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// mulberry32: the next number in [0, 1), and the state advanced.
fn mulberry32(state: &Cell<u32>) -> f64 {
    let s = state.get().wrapping_add(0x6D2B_79F5);
    state.set(s);
    let mut t = (s ^ (s >> 15)).wrapping_mul(s | 1);
    t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
    f64::from(t ^ (t >> 14)) / 4_294_967_296.0
}

impl Engine for Js {
    /// A lowered `Math.random()`: the same generator, the same state, as the engine's.
    fn random(&self) -> Result<f64, EvalError> {
        let state = Cell::new(self.random.load(Relaxed));
        let n = mulberry32(&state);
        self.random.store(state.get(), Relaxed);
        Ok(n)
    }

    fn call(&self, script: &Script, scope: &Scope) -> Result<JsValue, EvalError> {
        THREAD.with(|slot| {
            // A call never re-enters the engine (no function calls back into the run), but if one
            // did it would be an error, not a panic.
            let Ok(mut slot) = slot.try_borrow_mut() else {
                return Err(EvalError::Threw("the engine is busy (a function called back into the run)".into()));
            };
            if slot.as_ref().is_some_and(|q| q.functions.len() >= MAX_FUNCTIONS) {
                *slot = None;
            }
            if slot.is_none() {
                *slot = Some(Quick::new().map_err(|e| EvalError::Threw(format!("the engine did not start: {e}")))?);
            }
            let Some(q) = slot.as_mut() else { unreachable!("made above") };
            q.hooks.now.set(self.now.load(Relaxed) as f64);
            q.hooks.random.set(self.random.load(Relaxed));
            q.hooks.polls.set(0);
            let out = q.call(script, scope);
            self.random.store(q.hooks.random.get(), Relaxed);
            if let (Some(v), Ok(mut slot)) = (q.hooks.thrown.take(), self.thrown.lock()) {
                *slot = Some(v);
            }
            let out = out.map(|(value, written)| {
                if let (Some(w), Ok(mut slot)) = (written, self.written.lock()) {
                    *slot = Some(w);
                    self.wrote.store(true, Relaxed);
                }
                value
            });
            // An engine stopped by a bound may be left half way through something: start again.
            if let Err(Failed::Fatal(_)) = &out {
                *slot = None;
            }
            out.map_err(|f| EvalError::Threw(f.into_message()))
        })
    }
}

thread_local! {
    static THREAD: RefCell<Option<Quick>> = const { RefCell::new(None) };
}

/// What the engine's hooks read: set before each call.
#[derive(Default)]
struct Hooks {
    now: Cell<f64>,
    random: Cell<u32>,
    polls: Cell<u32>,
    thrown: Cell<Option<JsValue>>,
}

/// One thread's engine: a QuickJS runtime, its context, and the functions compiled so far.
struct Quick {
    // Dropped in this order: the functions, then the context, then the runtime (QuickJS asserts
    // that no value outlives its runtime).
    functions: HashMap<String, Persistent<Function<'static>>>,
    ctx: Context,
    _rt: Runtime,
    hooks: Rc<Hooks>,
}

/// Why a call gave no value.
enum Failed {
    /// The function threw (or gave what a run cannot keep): the engine is fine.
    Threw(String),
    /// A bound stopped it: the engine is made again.
    Fatal(String),
}

impl Failed {
    fn into_message(self) -> String {
        match self {
            Failed::Threw(m) | Failed::Fatal(m) => m,
        }
    }
}

/// The run's `Date`, no `eval` or `Function`, a `console` that does nothing, then every intrinsic
/// frozen. `__jr2_now` is the native clock, taken off the global object here.
const LOCKDOWN: &str = r#"(() => {
  "use strict";
  const now = globalThis.__jr2_now;
  delete globalThis.__jr2_now;
  const OriginalDate = Date;
  function RunDate(...args) {
    if (!new.target) return new OriginalDate(now()).toString();
    return args.length ? new OriginalDate(...args) : new OriginalDate(now());
  }
  RunDate.prototype = OriginalDate.prototype;
  RunDate.now = now;
  RunDate.UTC = OriginalDate.UTC;
  RunDate.parse = OriginalDate.parse;
  Object.defineProperty(OriginalDate.prototype, "constructor", { value: RunDate });
  Object.defineProperty(globalThis, "Date", { value: RunDate, writable: true, configurable: true });
  delete globalThis.eval;
  for (const f of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: undefined });
  }
  delete globalThis.Function;
  const nothing = () => undefined;
  globalThis.console = { log: nothing, info: nothing, warn: nothing, error: nothing, debug: nothing };
  const seen = new Set();
  const freeze = (o) => {
    if ((typeof o !== "object" && typeof o !== "function") || o === null || seen.has(o)) return;
    seen.add(o);
    Object.freeze(o);
    for (const k of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, k);
      if (d === undefined) continue;
      if ("value" in d) freeze(d.value);
      else { freeze(d.get); freeze(d.set); }
    }
    freeze(Object.getPrototypeOf(o));
  };
  freeze(globalThis);
})()"#;

impl Quick {
    fn new() -> rquickjs::Result<Quick> {
        let rt = Runtime::new()?;
        rt.set_memory_limit(MEMORY);
        rt.set_max_stack_size(STACK);
        let hooks = Rc::new(Hooks::default());
        let polls = hooks.clone();
        rt.set_interrupt_handler(Some(Box::new(move || {
            let n = polls.polls.get() + 1;
            polls.polls.set(n);
            n > MAX_POLLS
        })));
        let ctx = Context::full(&rt)?;
        ctx.with(|ctx| -> rquickjs::Result<()> {
            let g = ctx.globals();
            let random = hooks.clone();
            let math: Object = g.get("Math")?;
            math.set("random", Function::new(ctx.clone(), move || mulberry32(&random.random))?)?;
            let clock = hooks.clone();
            g.set("__jr2_now", Function::new(ctx.clone(), move || clock.now.get())?)?;
            ctx.eval::<(), _>(LOCKDOWN)
        })?;
        Ok(Quick { functions: HashMap::new(), ctx, _rt: rt, hooks })
    }

    /// The function's value, and the context it left where the script `writes`.
    fn call(&mut self, script: &Script, scope: &Scope) -> Result<(JsValue, Option<JsValue>), Failed> {
        let hooks = self.hooks.clone();
        let functions = &mut self.functions;
        self.ctx.with(|ctx| {
            let f = match functions.get(&script.code) {
                Some(f) => f.clone().restore(&ctx).map_err(|e| Failed::Fatal(e.to_string()))?,
                None => {
                    // Sloppy unless the code says "use strict" (a Machine's functions do: their
                    // modules are strict); SCXML's scripts read the data model through `with`.
                    let mut options = EvalOptions::default();
                    options.strict = false;
                    let f: Function = match ctx.eval_with_options::<Value, _>(script.code.as_str(), options) {
                        Ok(v) => match v.into_function() {
                            Some(f) => f,
                            None => return Err(Failed::Threw("the carried code is not a function".into())),
                        },
                        Err(e) => return Err(caught(&ctx, e, &hooks)),
                    };
                    functions.insert(script.code.clone(), Persistent::save(&ctx, f.clone()));
                    f
                }
            };
            let args = Object::new(ctx.clone()).map_err(|e| Failed::Fatal(e.to_string()))?;
            for root in &script.args {
                let (name, value) = match root {
                    Root::Context => ("context", &scope.context),
                    Root::Event => ("event", &scope.event),
                    Root::Input => ("input", &scope.input),
                    Root::Params => ("params", &scope.params),
                };
                let v = to_js(&ctx, value).map_err(|e| caught(&ctx, e, &hooks))?;
                args.set(name, v).map_err(|e| caught(&ctx, e, &hooks))?;
            }
            let params = to_js(&ctx, &scope.params).map_err(|e| caught(&ctx, e, &hooks))?;
            let run = if script.run {
                run_arg(&ctx, scope).map_err(|e| caught(&ctx, e, &hooks))?
            } else {
                Value::new_undefined(ctx.clone())
            };
            let out: Value = f.call((args.clone(), params, run)).map_err(|e| caught(&ctx, e, &hooks))?;
            let back = |v: &Value| {
                from_js(v, 0, &mut 0).map_err(|e| match e {
                    Convert::Threw(e) => caught(&ctx, e, &hooks),
                    Convert::Refused(m) => Failed::Threw(m),
                })
            };
            let written = if script.writes {
                let context: Value = args.get("context").map_err(|e| caught(&ctx, e, &hooks))?;
                Some(back(&context)?)
            } else {
                None
            };
            Ok((back(&out)?, written))
        })
    }
}

/// The error a failed engine call is, with its message: the thrown value's, or the bound's.
fn caught(ctx: &Ctx<'_>, e: rquickjs::Error, hooks: &Hooks) -> Failed {
    if hooks.polls.get() > MAX_POLLS {
        let _ = ctx.catch();
        return Failed::Fatal(format!(
            "the function ran past its bound of {MAX_POLLS} interrupt polls (some 20 000 000 instructions): a loop \
             that does not end?"
        ));
    }
    let message = match e {
        rquickjs::Error::Exception => {
            let thrown = ctx.catch();
            match thrown.as_exception() {
                Some(x) => {
                    let name: Option<String> = x.get("name").ok();
                    let message = x.message().unwrap_or_default();
                    hooks.thrown.set(Some(JsValue::object_of(vec![
                        ("name".into(), JsValue::String(name.clone().unwrap_or_default().into())),
                        (
                            "message".into(),
                            JsValue::String(message.chars().take(MAX_MESSAGE).collect::<String>().into()),
                        ),
                    ])));
                    match name {
                        Some(n) if !n.is_empty() => format!("{n}: {message}"),
                        _ => message,
                    }
                }
                None => {
                    hooks.thrown.set(from_js(&thrown, 0, &mut 0).ok());
                    let text = thrown.as_string().and_then(|s| s.to_string().ok());
                    match text {
                        Some(s) => s,
                        None => format!("the function threw a value of type {}", thrown.type_name()),
                    }
                }
            }
        }
        other => other.to_string(),
    };
    let message: String = message.chars().take(MAX_MESSAGE).collect();
    if message.contains("out of memory") {
        Failed::Fatal(format!("the function ran out of the engine's memory ({} MiB)", MEMORY >> 20))
    } else if message.contains("stack overflow") || message.contains("Maximum call stack") {
        Failed::Fatal(format!("{message} (the engine's stack is {} KiB)", STACK >> 10))
    } else {
        Failed::Threw(message)
    }
}

/// A script's third argument: `{ globals, active }` ([`Script::run`]).
fn run_arg<'js>(ctx: &Ctx<'js>, scope: &Scope) -> rquickjs::Result<Value<'js>> {
    let globals = Object::new(ctx.clone())?;
    for (name, value) in scope.globals.iter() {
        globals.set(name.as_str(), to_js(ctx, value)?)?;
    }
    let active = Array::new(ctx.clone())?;
    for (i, s) in scope.active.iter().enumerate() {
        active.set(i, s.0)?;
    }
    let run = Object::new(ctx.clone())?;
    run.set("globals", globals)?;
    run.set("active", active)?;
    Ok(run.into_value())
}

/// A run's value in the engine.
fn to_js<'js>(ctx: &Ctx<'js>, v: &JsValue) -> rquickjs::Result<Value<'js>> {
    Ok(match v {
        JsValue::Undefined => Value::new_undefined(ctx.clone()),
        JsValue::Null => Value::new_null(ctx.clone()),
        JsValue::Bool(b) => Value::new_bool(ctx.clone(), *b),
        JsValue::Number(n) => {
            let i = *n as i32;
            if f64::from(i) == *n && !(i == 0 && n.is_sign_negative()) {
                Value::new_int(ctx.clone(), i)
            } else {
                Value::new_float(ctx.clone(), *n)
            }
        }
        JsValue::String(s) => rquickjs::String::from_str(ctx.clone(), s)?.into_value(),
        JsValue::Array(items) => {
            let a = Array::new(ctx.clone())?;
            for (i, x) in items.iter().enumerate() {
                a.set(i, to_js(ctx, x)?)?;
            }
            a.into_value()
        }
        JsValue::Object(props) => {
            let o = Object::new(ctx.clone())?;
            for (k, x) in props.iter() {
                o.set(k.as_str(), to_js(ctx, x)?)?;
            }
            o.into_value()
        }
    })
}

enum Convert {
    Threw(rquickjs::Error),
    Refused(String),
}

impl From<rquickjs::Error> for Convert {
    fn from(e: rquickjs::Error) -> Convert {
        Convert::Threw(e)
    }
}

/// A value the engine gave, as a run keeps it.
fn from_js<'js>(v: &Value<'js>, depth: usize, nodes: &mut usize) -> Result<JsValue, Convert> {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return Err(Convert::Refused(format!("the function gave a value of more than {MAX_NODES} parts")));
    }
    if depth > MAX_DEPTH {
        return Err(Convert::Refused(format!(
            "the function gave a value nested deeper than {MAX_DEPTH} levels (a cycle?)"
        )));
    }
    Ok(match v.type_of() {
        Type::Uninitialized | Type::Undefined => JsValue::Undefined,
        Type::Null => JsValue::Null,
        Type::Bool => JsValue::Bool(v.as_bool().unwrap_or(false)),
        Type::Int => JsValue::Number(f64::from(v.as_int().unwrap_or(0))),
        Type::Float => JsValue::Number(v.as_float().unwrap_or(f64::NAN)),
        Type::String => {
            let s = v.as_string().map(|s| s.to_string()).transpose()?.unwrap_or_default();
            JsValue::String(s.into())
        }
        Type::Array => {
            let Some(a) = v.as_array() else { return Err(Convert::Refused("an array that is not one".into())) };
            let mut out = Vec::with_capacity(a.len().min(1024));
            for i in 0..a.len() {
                let x: Value = a.get(i)?;
                out.push(from_js(&x, depth + 1, nodes)?);
            }
            JsValue::Array(Arc::new(out))
        }
        Type::Object | Type::Exception | Type::Proxy => {
            let Some(o) = v.as_object() else { return Err(Convert::Refused("an object that is not one".into())) };
            // `JSON.stringify`'s rule: a `toJSON` method gives the value (a `Date`'s ISO string).
            if let Ok(to_json) = o.get::<_, Function>("toJSON") {
                let x: Value = to_json.call((rquickjs::function::This(o.clone()),))?;
                return from_js(&x, depth + 1, nodes);
            }
            let mut props = Vec::new();
            for p in o.props::<String, Value>() {
                let (k, x) = p?;
                props.push((k, from_js(&x, depth + 1, nodes)?));
            }
            JsValue::Object(Arc::new(props))
        }
        Type::Promise => {
            return Err(Convert::Refused(
                "the function gave a Promise (an async function?): a run's functions give their value at once".into(),
            ))
        }
        other => {
            return Err(Convert::Refused(format!(
                "the function gave a {}, which a run's value cannot hold",
                other.as_str()
            )))
        }
    })
}

#[cfg(test)]
mod tests;
