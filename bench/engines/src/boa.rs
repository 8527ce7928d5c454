//! boa_engine: one run = one `Context` (not `Send`: it holds `Rc`s and `Gc`s). Its `JsObject`s
//! live as long as the context, so the compiled functions are kept in Rust as they are.

use crate::qjs::Mode;
use crate::todos::{self, Transition, Update, FUNCTIONS, MERGE_JS, MULBERRY32_JS};
use boa_engine::context::time::JsInstant;
use boa_engine::context::{Clock, ContextBuilder, HostHooks};
use boa_engine::realm::Realm;
use boa_engine::{js_string, Context, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction, Source};
use serde_json::Value;
use std::cell::Cell;
use std::rc::Rc;

/// eval, `Function(...)` and the other constructors from strings refused (HostEnsureCanCompileStrings).
struct NoEval;

impl HostHooks for NoEval {
    fn ensure_can_compile_strings(
        &self,
        _realm: Realm,
        _parameters: &[JsString],
        _body: &JsString,
        _direct: bool,
        _context: &mut Context,
    ) -> JsResult<()> {
        Err(JsNativeError::typ().with_message("eval and Function are not available").into())
    }
}

/// The macrostep's clock: Date.now() and new Date() read it (boa asks its `Clock` for both).
struct RunClock(Rc<Cell<i64>>);

impl Clock for RunClock {
    fn now(&self) -> JsInstant {
        let ms = self.0.get().max(0) as u64;
        JsInstant::new(ms / 1000, (ms % 1000) as u32 * 1_000_000)
    }
    fn system_time_millis(&self) -> i64 {
        self.0.get()
    }
}

pub struct Hooks {
    pub rng: Rc<Cell<u32>>,
    pub clock: Rc<Cell<i64>>,
}

pub struct Run {
    pub ctx: Context,
    pub mode: Mode,
    pub context: Value,
    js_context: JsValue,
    fns: Vec<JsObject>,
    merge: JsObject,
    parse: JsObject,
    stringify: JsObject,
    pub hooks: Option<Hooks>,
    table: &'static [(&'static str, Transition)],
}

/// boa has no interrupt handler and no memory limit: what it bounds is loop iterations, recursion
/// and the VM's stack. These are the limits set with the hooks.
pub const LOOP_LIMIT: u64 = 10_000_000;

fn eval_fn(ctx: &mut Context, src: &str) -> JsObject {
    ctx.eval(Source::from_bytes(&format!("({src})"))).unwrap().as_object().unwrap()
}

impl Run {
    pub fn new(mode: Mode, hooks: bool, context: &Value) -> Run {
        let (mut ctx, hooks) = if hooks {
            let h = Hooks { rng: Rc::new(Cell::new(todos::SEED)), clock: Rc::new(Cell::new(0)) };
            let mut ctx = ContextBuilder::new()
                .host_hooks(Rc::new(NoEval))
                .clock(Rc::new(RunClock(h.clock.clone())))
                .build()
                .unwrap();
            ctx.runtime_limits_mut().set_loop_iteration_limit(LOOP_LIMIT);
            let rng = h.rng.clone();
            // SAFETY: the closure captures no garbage-collected value (an Rc<Cell<u32>>).
            let random = unsafe {
                NativeFunction::from_closure(move |_, _, _| {
                    let mut s = rng.get();
                    let x = todos::mulberry32(&mut s);
                    rng.set(s);
                    Ok(JsValue::new(x))
                })
            };
            let random = random.to_js_function(ctx.realm());
            let math = ctx.global_object().get(js_string!("Math"), &mut ctx).unwrap().as_object().unwrap();
            math.set(js_string!("random"), random, false, &mut ctx).unwrap();
            (ctx, Some(h))
        } else {
            let mut ctx = Context::default();
            ctx.eval(Source::from_bytes(MULBERRY32_JS)).unwrap();
            (ctx, None)
        };
        let fns = FUNCTIONS.iter().map(|src| eval_fn(&mut ctx, src)).collect();
        let merge = eval_fn(&mut ctx, MERGE_JS);
        let parse = eval_fn(&mut ctx, "JSON.parse");
        let stringify = eval_fn(&mut ctx, "JSON.stringify");
        let js_context =
            if mode == Mode::InEngine { JsValue::from_json(context, &mut ctx).unwrap() } else { JsValue::undefined() };
        Run {
            ctx,
            mode,
            context: context.clone(),
            js_context,
            fns,
            merge,
            parse,
            stringify,
            hooks,
            table: todos::table(),
        }
    }

    fn text_to_js(&mut self, v: &Value) -> JsValue {
        let s = JsString::from(serde_json::to_string(v).unwrap().as_str());
        self.parse.call(&JsValue::undefined(), &[s.into()], &mut self.ctx).unwrap()
    }

    fn js_to_text(&mut self, v: JsValue) -> Value {
        let s = self.stringify.call(&JsValue::undefined(), &[v], &mut self.ctx).unwrap();
        serde_json::from_str(&s.as_string().unwrap().to_std_string_escaped()).unwrap()
    }

    pub fn step(&mut self, transition: usize, event: &Value) {
        if let Some(h) = &self.hooks {
            h.clock.set(1_780_000_000_000);
        }
        let tr: &Transition = &self.table[transition].1;
        let ctx = &mut self.ctx;
        let context = match self.mode {
            Mode::InEngine => self.js_context.clone(),
            Mode::RustTree => JsValue::from_json(&self.context, ctx).unwrap(),
            Mode::RustText => {
                let s = JsString::from(serde_json::to_string(&self.context).unwrap().as_str());
                self.parse.call(&JsValue::undefined(), &[s.into()], ctx).unwrap()
            }
        };
        let args = JsObject::with_object_proto(ctx.intrinsics());
        args.create_data_property_or_throw(js_string!("context"), context.clone(), ctx).unwrap();
        let event = JsValue::from_json(event, ctx).unwrap();
        args.create_data_property_or_throw(js_string!("event"), event, ctx).unwrap();
        let args = [JsValue::from(args)];
        if let Some(g) = tr.guard {
            let ok = self.fns[g].call(&JsValue::undefined(), &args, ctx).unwrap();
            if !ok.to_boolean() {
                return;
            }
        }
        if self.mode == Mode::InEngine {
            let partial = JsObject::with_object_proto(ctx.intrinsics());
            for (key, update) in &tr.assigns {
                let v = match update {
                    Update::Call(i) => self.fns[*i].call(&JsValue::undefined(), &args, ctx).unwrap(),
                    Update::Const(c) => JsValue::from_json(c, ctx).unwrap(),
                };
                partial.create_data_property_or_throw(JsString::from(*key), v, ctx).unwrap();
            }
            self.js_context = self.merge.call(&JsValue::undefined(), &[context, partial.into()], ctx).unwrap();
            return;
        }
        let mut partial = Vec::with_capacity(tr.assigns.len());
        for (key, update) in &tr.assigns {
            let v = match update {
                Update::Call(i) => {
                    let v = self.fns[*i].call(&JsValue::undefined(), &args, &mut self.ctx).unwrap();
                    if self.mode == Mode::RustTree {
                        v.to_json(&mut self.ctx).unwrap().unwrap_or(Value::Null)
                    } else {
                        self.js_to_text(v)
                    }
                }
                Update::Const(c) => c.clone(),
            };
            partial.push((*key, v));
        }
        let map = self.context.as_object_mut().unwrap();
        for (k, v) in partial {
            map.insert(k.to_string(), v);
        }
    }

    pub fn snapshot(&mut self) -> Value {
        if self.mode != Mode::InEngine {
            return self.context.clone();
        }
        self.js_to_text(self.js_context.clone())
    }

    /// serde_json → engine → serde_json, by tree or by text: the boundary's cost on its own.
    pub fn roundtrip(&mut self, v: &Value, text: bool) -> Value {
        if text {
            let j = self.text_to_js(v);
            self.js_to_text(j)
        } else {
            let j = JsValue::from_json(v, &mut self.ctx).unwrap();
            j.to_json(&mut self.ctx).unwrap().unwrap_or(Value::Null)
        }
    }

    /// The floor (todos::floor_js) over `events` (a JSON array): its time and the final context.
    pub fn floor(&mut self, events: &str) -> (std::time::Duration, std::time::Duration, Value) {
        let f = eval_fn(&mut self.ctx, &todos::floor_js());
        let s = JsString::from(events);
        let events = self.parse.call(&JsValue::undefined(), &[s.into()], &mut self.ctx).unwrap();
        let (t0, c0) = (std::time::Instant::now(), crate::thread_cpu());
        let out = f.call(&JsValue::undefined(), &[events], &mut self.ctx).unwrap();
        let (t, c) = (t0.elapsed(), crate::thread_cpu() - c0);
        (t, c, serde_json::from_str(&out.as_string().unwrap().to_std_string_escaped()).unwrap())
    }

    pub fn try_eval(&mut self, src: &str) -> Result<String, String> {
        if let Some(h) = &self.hooks {
            h.clock.set(1_780_000_000_000);
        }
        match self.ctx.eval(Source::from_bytes(src)) {
            Ok(v) => Ok(v.display().to_string().chars().take(60).collect()),
            Err(e) => Err(e.to_string().split(" (unknown at").next().unwrap_or("").chars().take(60).collect()),
        }
    }
}
