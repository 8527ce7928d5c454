//! rquickjs (QuickJS-ng): one run = one `Runtime` and one `Context` (both `Send` with the
//! `parallel` feature). The compiled functions and, in design a, the context are kept in the
//! engine under a global `__jr2` object rather than in `Persistent` handles: rquickjs's
//! `Persistent` holds a raw runtime pointer and is not `Send`, and a run must move between threads.

use crate::todos::{self, Transition, Update, FUNCTIONS, MERGE_JS, MULBERRY32_JS};
use rquickjs::{Array, Context, Ctx, Function, Object, Runtime};
use serde_json::Value;
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// a: the context lives in the engine; JSON only for a snapshot.
    InEngine,
    /// b: the context is a serde_json::Value; it crosses by walking the tree with the engine's API.
    RustTree,
    /// b': the same, crossing as JSON text (serde_json::to_string, JSON.parse; JSON.stringify, from_str).
    RustText,
}

/// The determinism hooks (design c), readable and settable from Rust.
pub struct Hooks {
    /// mulberry32's state: Math.random's, kept in the snapshot.
    pub rng: Arc<AtomicU32>,
    /// The macrostep's clock (ms since the epoch), what Date.now() and new Date() read.
    pub clock: Arc<AtomicI64>,
    /// The end of the current call, in ns since `epoch`: past it the interrupt handler stops the code.
    pub deadline: Arc<AtomicU64>,
    pub epoch: Instant,
    pub budget: Duration,
}

pub struct Run {
    pub rt: Runtime,
    pub ctx: Context,
    pub mode: Mode,
    pub context: Value,
    pub hooks: Option<Hooks>,
    table: &'static [(&'static str, Transition)],
}

/// Math.random and Date from the run, eval and every Function constructor gone.
const TAME_JS: &str = "(() => {
  const now = globalThis.__jr2_now; delete globalThis.__jr2_now;
  const D = Date;
  function Date2(...a) {
    if (!new.target) return new D(now()).toString();
    return a.length ? new D(...a) : new D(now());
  }
  Date2.prototype = D.prototype; Date2.now = now; Date2.UTC = D.UTC; Date2.parse = D.parse;
  Object.defineProperty(D.prototype, 'constructor', { value: Date2 });
  globalThis.Date = Date2;
  delete globalThis.eval;
  for (const f of [function () {}, async function () {}, function* () {}, async function* () {}])
    Object.defineProperty(Object.getPrototypeOf(f), 'constructor', { value: undefined });
  delete globalThis.Function;
})()";

pub const MEMORY_LIMIT: usize = 64 << 20;

impl Run {
    pub fn new(mode: Mode, hooks: bool, context: &Value) -> Run {
        let rt = Runtime::new().expect("runtime");
        let ctx = Context::full(&rt).expect("context");
        let hooks = hooks.then(|| Hooks {
            rng: Arc::new(AtomicU32::new(todos::SEED)),
            clock: Arc::new(AtomicI64::new(0)),
            deadline: Arc::new(AtomicU64::new(u64::MAX)),
            epoch: Instant::now(),
            budget: Duration::from_millis(100),
        });
        if let Some(h) = &hooks {
            rt.set_memory_limit(MEMORY_LIMIT);
            let (deadline, epoch) = (h.deadline.clone(), h.epoch);
            // Called by QuickJS every 10 000 ticks (calls, back jumps): true stops the code with an
            // uncatchable error.
            rt.set_interrupt_handler(Some(Box::new(move || {
                epoch.elapsed().as_nanos() as u64 > deadline.load(Relaxed)
            })));
        }
        ctx.with(|ctx| {
            let g = ctx.globals();
            if let Some(h) = &hooks {
                let rng = h.rng.clone();
                let random = Function::new(ctx.clone(), move || {
                    let mut s = rng.load(Relaxed);
                    let x = todos::mulberry32(&mut s);
                    rng.store(s, Relaxed);
                    x
                })
                .unwrap();
                let math: Object = g.get("Math").unwrap();
                math.set("random", random).unwrap();
                let clock = h.clock.clone();
                let now = Function::new(ctx.clone(), move || clock.load(Relaxed) as f64).unwrap();
                g.set("__jr2_now", now).unwrap();
                let _: () = ctx.eval(TAME_JS).unwrap();
            } else {
                let _: () = ctx.eval(MULBERRY32_JS).unwrap();
            }
            let fns = Array::new(ctx.clone()).unwrap();
            for (i, src) in FUNCTIONS.iter().enumerate() {
                let f: Function = ctx.eval(format!("({src})")).unwrap();
                fns.set(i, f).unwrap();
            }
            let state = Object::new(ctx.clone()).unwrap();
            state.set("fns", fns).unwrap();
            let merge: Function = ctx.eval(format!("({MERGE_JS})")).unwrap();
            state.set("merge", merge).unwrap();
            if mode == Mode::InEngine {
                state.set("context", to_js(&ctx, context).unwrap()).unwrap();
            }
            g.set("__jr2", state).unwrap();
        });
        Run { rt, ctx, mode, context: context.clone(), hooks, table: todos::table() }
    }

    /// One event: its guard, then its `assign`, as the core would call them.
    pub fn step(&mut self, transition: usize, event: &Value) {
        if let Some(h) = &self.hooks {
            // Per call: the clock of the macrostep (here a fixed epoch plus the step) and the deadline.
            h.clock.store(1_780_000_000_000, Relaxed);
            h.deadline.store((h.epoch.elapsed() + h.budget).as_nanos() as u64, Relaxed);
        }
        let tr: &Transition = &self.table[transition].1;
        let mode = self.mode;
        let rust_context = &mut self.context;
        self.ctx.with(|ctx| {
            let state: Object = ctx.globals().get("__jr2").unwrap();
            let fns: Array = state.get("fns").unwrap();
            let context: rquickjs::Value = match mode {
                Mode::InEngine => state.get("context").unwrap(),
                Mode::RustTree => to_js(&ctx, rust_context).unwrap(),
                Mode::RustText => ctx.json_parse(serde_json::to_string(rust_context).unwrap()).unwrap(),
            };
            let args = Object::new(ctx.clone()).unwrap();
            args.set("context", context.clone()).unwrap();
            args.set("event", to_js(&ctx, event).unwrap()).unwrap();
            if let Some(g) = tr.guard {
                let f: Function = fns.get(g).unwrap();
                let ok: rquickjs::Value = f.call((args.clone(),)).unwrap();
                if !ok.as_bool().unwrap_or(false) {
                    return;
                }
            }
            match mode {
                Mode::InEngine => {
                    let partial = Object::new(ctx.clone()).unwrap();
                    for (key, update) in &tr.assigns {
                        let v: rquickjs::Value = match update {
                            Update::Call(i) => fns.get::<Function>(*i).unwrap().call((args.clone(),)).unwrap(),
                            Update::Const(c) => to_js(&ctx, c).unwrap(),
                        };
                        partial.set(*key, v).unwrap();
                    }
                    let merge: Function = state.get("merge").unwrap();
                    let next: rquickjs::Value = merge.call((context, partial)).unwrap();
                    state.set("context", next).unwrap();
                }
                Mode::RustTree | Mode::RustText => {
                    let mut partial = Vec::with_capacity(tr.assigns.len());
                    for (key, update) in &tr.assigns {
                        let v = match update {
                            Update::Call(i) => {
                                let v: rquickjs::Value =
                                    fns.get::<Function>(*i).unwrap().call((args.clone(),)).unwrap();
                                if mode == Mode::RustTree {
                                    from_js(&v).unwrap()
                                } else {
                                    let s = ctx.json_stringify(v).unwrap().unwrap().to_string().unwrap();
                                    serde_json::from_str(&s).unwrap()
                                }
                            }
                            Update::Const(c) => c.clone(),
                        };
                        partial.push((*key, v));
                    }
                    let map = rust_context.as_object_mut().unwrap();
                    for (k, v) in partial {
                        map.insert(k.to_string(), v);
                    }
                }
            }
        });
    }

    /// The context as JSON: a snapshot (design a), or the Rust value (design b).
    pub fn snapshot(&mut self) -> Value {
        if self.mode != Mode::InEngine {
            return self.context.clone();
        }
        self.ctx.with(|ctx| {
            let state: Object = ctx.globals().get("__jr2").unwrap();
            let v: rquickjs::Value = state.get("context").unwrap();
            let s = ctx.json_stringify(v).unwrap().unwrap().to_string().unwrap();
            serde_json::from_str(&s).unwrap()
        })
    }

    /// serde_json → engine → serde_json, by tree or by text: the boundary's cost on its own.
    pub fn roundtrip(&mut self, v: &Value, text: bool) -> Value {
        self.ctx.with(|ctx| {
            if text {
                let j = ctx.json_parse(serde_json::to_string(v).unwrap()).unwrap();
                let s = ctx.json_stringify(j).unwrap().unwrap().to_string().unwrap();
                serde_json::from_str(&s).unwrap()
            } else {
                from_js(&to_js(&ctx, v).unwrap()).unwrap()
            }
        })
    }

    /// The floor (todos::floor_js) over `events` (a JSON array): its time and the final context.
    pub fn floor(&mut self, events: &str) -> (Duration, Duration, Value) {
        self.ctx.with(|ctx| {
            let f: Function = ctx.eval(format!("({})", todos::floor_js())).unwrap();
            let events = ctx.json_parse(events).unwrap();
            let (t0, c0) = (Instant::now(), crate::thread_cpu());
            let out: String = f.call((events,)).unwrap();
            (t0.elapsed(), crate::thread_cpu() - c0, serde_json::from_str(&out).unwrap())
        })
    }

    /// Runs `src` in the run's context: what a Machine's hostile function would do.
    pub fn try_eval(&self, src: &str) -> Result<String, String> {
        if let Some(h) = &self.hooks {
            h.clock.store(1_780_000_000_000, Relaxed);
            h.deadline.store((h.epoch.elapsed() + h.budget).as_nanos() as u64, Relaxed);
        }
        self.ctx.with(|ctx| match ctx.eval::<rquickjs::Value, _>(src) {
            Ok(v) => Ok(from_js(&v).map_or_else(|e| e.to_string(), |j| j.to_string()).chars().take(60).collect()),
            Err(rquickjs::Error::Exception) => {
                let e = ctx.catch();
                let msg = e.as_exception().and_then(|x| x.message()).unwrap_or_else(|| format!("{e:?}"));
                Err(msg.chars().take(60).collect())
            }
            Err(e) => Err(e.to_string().chars().take(60).collect()),
        })
    }
}

/// serde_json → QuickJS, walking the tree with rquickjs's API.
pub fn to_js<'js>(ctx: &Ctx<'js>, v: &Value) -> rquickjs::Result<rquickjs::Value<'js>> {
    Ok(match v {
        Value::Null => rquickjs::Value::new_null(ctx.clone()),
        Value::Bool(b) => rquickjs::Value::new_bool(ctx.clone(), *b),
        Value::Number(n) => match n.as_i64().and_then(|i| i32::try_from(i).ok()) {
            Some(i) => rquickjs::Value::new_int(ctx.clone(), i),
            None => rquickjs::Value::new_float(ctx.clone(), n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => rquickjs::String::from_str(ctx.clone(), s)?.into_value(),
        Value::Array(a) => {
            let arr = Array::new(ctx.clone())?;
            for (i, x) in a.iter().enumerate() {
                arr.set(i, to_js(ctx, x)?)?;
            }
            arr.into_value()
        }
        Value::Object(m) => {
            let o = Object::new(ctx.clone())?;
            for (k, x) in m {
                o.set(k.as_str(), to_js(ctx, x)?)?;
            }
            o.into_value()
        }
    })
}

/// QuickJS → serde_json (what JSON.stringify keeps: functions and undefined are dropped as null).
pub fn from_js(v: &rquickjs::Value) -> rquickjs::Result<Value> {
    Ok(if let Some(b) = v.as_bool() {
        Value::Bool(b)
    } else if let Some(i) = v.as_int() {
        Value::from(i)
    } else if let Some(f) = v.as_float() {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    } else if let Some(s) = v.as_string() {
        Value::String(s.to_string()?)
    } else if let Some(a) = v.as_array() {
        a.iter::<rquickjs::Value>().map(|x| from_js(&x?)).collect::<rquickjs::Result<Vec<_>>>()?.into()
    } else if let Some(o) = v.as_object().filter(|_| !v.is_function()) {
        let mut m = serde_json::Map::new();
        for p in o.props::<String, rquickjs::Value>() {
            let (k, x) = p?;
            m.insert(k, from_js(&x)?);
        }
        Value::Object(m)
    } else {
        Value::Null
    })
}
