//! The engine's contract (the module header): values both ways, the run's clock and generator, no
//! escape, and each bound an error, not a crash or a hang.

use super::*;
use ir::eval::Scope;
use serde_json::json;

fn script(code: &str) -> Script {
    Script { code: code.into(), args: vec![Root::Context, Root::Event], ..Script::default() }
}

fn scope(context: serde_json::Value) -> Scope {
    Scope::new(Some(&context), Some(&json!({ "type": "go", "n": 2 })), None)
}

fn call(js: &Js, code: &str) -> Result<JsValue, EvalError> {
    js.call(&script(code), &scope(json!({ "list": [1, 2, 3], "name": "ada" })))
}

fn value(js: &Js, code: &str) -> serde_json::Value {
    call(js, code).unwrap_or_else(|e| panic!("{code}: {e}")).to_json().unwrap_or(serde_json::Value::Null)
}

fn threw(js: &Js, code: &str) -> String {
    match call(js, code) {
        Err(EvalError::Threw(m)) => m,
        other => panic!("{code}: expected a throw, got {other:?}"),
    }
}

#[test]
fn a_function_gets_its_arguments_and_gives_its_value() {
    let js = Js::new(0, 1);
    assert_eq!(
        value(&js, "({ context, event }) => context.list.filter((x) => x > 1).map((x) => x * event.n)"),
        json!([4, 6])
    );
    assert_eq!(
        value(&js, "(() => { const LIMIT = 2; return ({ context }) => context.list.length > LIMIT; })()"),
        json!(true)
    );
    // `params` is the second argument.
    let s = Script { code: "(_, params) => params.k + 1".into(), args: vec![], ..Script::default() };
    let mut sc = scope(json!({}));
    sc.params = JsValue::from_json(&json!({ "k": 41 }));
    assert_eq!(js.call(&s, &sc).unwrap().to_json(), Some(json!(42)));
    // Only the roots the script names are in its first argument.
    let s = Script { code: "(args) => Object.keys(args)".into(), args: vec![Root::Input], ..Script::default() };
    assert_eq!(js.call(&s, &sc).unwrap().to_json(), Some(json!(["input"])));
}

#[test]
fn values_cross_without_loss() {
    let js = Js::new(0, 1);
    let v = call(&js, "() => [undefined, -0, NaN, Infinity, 1.5, 2 ** 40, 'é', null]").unwrap();
    let JsValue::Array(items) = v else { panic!("not an array") };
    assert!(matches!(items[0], JsValue::Undefined));
    assert!(matches!(items[1], JsValue::Number(n) if n == 0.0 && n.is_sign_negative()));
    assert!(matches!(items[2], JsValue::Number(n) if n.is_nan()));
    assert!(matches!(items[3], JsValue::Number(n) if n == f64::INFINITY));
    assert_eq!(items[5].to_json(), Some(json!(1_099_511_627_776_i64)));
    // And in: -0 and undefined reach the function as themselves.
    let s = Script {
        code: "({ context }) => [Object.is(context.z, -0), context.u === undefined, 'u' in context]".into(),
        args: vec![Root::Context],
        ..Script::default()
    };
    let mut sc = scope(json!({}));
    sc.context = JsValue::object_of(vec![("z".into(), JsValue::Number(-0.0)), ("u".into(), JsValue::Undefined)]);
    assert_eq!(js.call(&s, &sc).unwrap().to_json(), Some(json!([true, true, true])));
    // Keys in JavaScript's order; a Date as JSON writes it.
    assert_eq!(value(&js, "() => ({ b: 1, 2: 'x', a: 2, 1: 'y' })"), json!({ "1": "y", "2": "x", "b": 1, "a": 2 }));
    assert_eq!(value(&js, "() => new Date(0)"), json!("1970-01-01T00:00:00.000Z"));
}

#[test]
fn what_a_run_cannot_keep_is_refused() {
    let js = Js::new(0, 1);
    assert!(threw(&js, "() => () => 1").contains("function"));
    assert!(threw(&js, "async () => 1").contains("Promise"));
    assert!(threw(&js, "() => Symbol('s')").contains("symbol"));
    assert!(threw(&js, "() => { const o = {}; o.o = o; return o; }").contains("deeper than"));
}

#[test]
fn a_throw_is_its_name_and_message() {
    let js = Js::new(0, 1);
    assert_eq!(threw(&js, "() => { throw new TypeError('no way'); }"), "TypeError: no way");
    assert_eq!(
        threw(&js, "({ context }) => context.missing.deeper"),
        "TypeError: cannot read property 'deeper' of undefined"
    );
    assert_eq!(threw(&js, "() => { throw 'plain'; }"), "plain");
    assert!(threw(&js, "(() => {").starts_with("SyntaxError"));
}

#[test]
fn the_clock_and_the_generator_are_the_runs() {
    let js = Js::new(1_780_000_000_000, 7);
    assert_eq!(
        value(&js, "() => [Date.now(), new Date().getTime(), new Date(5).getTime()]"),
        json!([1_780_000_000_000_i64, 1_780_000_000_000_i64, 5])
    );
    let first = value(&js, "() => [Math.random(), Math.random()]");
    let state = js.random.load(Relaxed);
    assert_ne!(state, 7, "the generator's state moved on");
    // The same state gives the same numbers: a restored run goes on as the live one.
    let again = Js::new(0, 7);
    assert_eq!(value(&again, "() => [Math.random(), Math.random()]"), first);
    assert_eq!(again.random.load(Relaxed), state);
    assert_ne!(seed("run-1"), seed("run-2"));
}

#[test]
fn nothing_escapes_and_nothing_stays() {
    let js = Js::new(0, 1);
    assert!(threw(&js, "() => eval('1')").starts_with("ReferenceError"));
    assert!(threw(&js, "() => Function('return 1')()").starts_with("ReferenceError"));
    assert!(threw(&js, "() => (() => {}).constructor('return 1')()").starts_with("TypeError"));
    assert!(threw(&js, "() => (async () => {}).constructor('return 1')()").starts_with("TypeError"));
    for name in ["require", "process", "fetch", "setTimeout", "std", "os"] {
        assert_eq!(value(&js, &format!("() => typeof {name}")), json!("undefined"), "{name}");
    }
    // The standard library is frozen: a change is refused (strict) or has no effect (sloppy), so a
    // later call, of this run or another, sees the standard one.
    assert!(threw(&js, "() => { 'use strict'; Array.prototype.sneaky = 1; }").starts_with("TypeError"));
    // Strict code (a Machine's: its wrapper says "use strict") throws at each change; sloppy code
    // (SCXML's scripts) changes nothing.
    assert!(threw(&js, "(() => { 'use strict'; return () => { Math.random = () => 0; }; })()").starts_with("TypeError"));
    assert!(threw(&js, "(() => { 'use strict'; return () => { globalThis.leak = 1; }; })()").starts_with("TypeError"));
    value(&js, "() => { Math.random = () => 0; globalThis.leak = 1; Array.prototype.sneaky = 2; return 0; }");
    assert_eq!(
        value(&js, "() => [typeof globalThis.leak, Math.random() !== 0, [].sneaky]"),
        json!(["undefined", true, null])
    );
    assert_eq!(value(&js, "() => { console.log('x'); return 1; }"), json!(1));
}

#[test]
fn each_bound_is_an_error_and_the_engine_goes_on() {
    let js = Js::new(0, 1);
    let t = std::time::Instant::now();
    assert!(threw(&js, "() => { for (;;) {} }").contains("bound of"));
    assert!(t.elapsed() < std::time::Duration::from_secs(10), "the loop ran {:?}", t.elapsed());
    let m = threw(&js, "() => { const a = []; for (;;) a.push(new Array(10000).fill(1.5)); }");
    assert!(m.contains("memory"), "{m}");
    assert!(threw(&js, "() => { const f = (n) => f(n + 1) + 1; return f(0); }").contains("stack"));
    // After each, the next call runs in a fresh engine.
    assert_eq!(value(&js, "({ context }) => context.name"), json!("ada"));
}

#[test]
fn a_run_moves_between_threads() {
    let js = Arc::new(Js::new(0, 3));
    let here = value(&js, "() => Math.random()");
    let there = {
        let js = js.clone();
        std::thread::spawn(move || value(&js, "() => Math.random()")).join().unwrap()
    };
    let again = Js::new(0, 3);
    assert_eq!(value(&again, "() => [Math.random(), Math.random()]"), json!([here, there]));
}

/// SCXML's scripts: the run's globals and active states as a third argument, and the context
/// they change in place taken back.
#[test]
fn a_script_of_the_data_model_reads_the_run_and_writes_the_context() {
    let js = Js::new(0, 1);
    let s = Script {
        code: "(function (args, params, run) { with (run.globals) with (args.context) { x = x + 1; return _sessionid + ':' + run.active.join(','); } })".into(),
        args: vec![Root::Context],
        run: true,
        writes: true,
    };
    let mut sc = scope(json!({ "x": 1 }));
    sc.globals = Arc::from(vec![("_sessionid".into(), JsValue::String("s1".into()))]);
    sc.active = Arc::from(vec![ir::StateId(0), ir::StateId(3)]);
    assert_eq!(js.call(&s, &sc).unwrap().to_json(), Some(json!("s1:0,3")));
    assert_eq!(js.take_written().and_then(|c| c.to_json()), Some(json!({ "x": 2 })));
    assert!(js.take_written().is_none(), "taken once");
}
