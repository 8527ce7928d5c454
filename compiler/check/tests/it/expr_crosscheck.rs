//! Differential test of the lowering of arrow functions (`machine::eval`) and the evaluator of the
//! IR's expressions (`ir::eval`) against Node.
//!
//! `tests/fixtures/expr/cases.ts` holds arrow functions in plain JavaScript syntax, one export
//! each; `args.json` holds argument sets `{ context, event, input }`. Every export must lower
//! completely (no `not-static`, `facts.complete`, a `lowered` expression). Then Node runs the
//! same file and calls each function on each argument set, and our evaluator evaluates each
//! lowering on the same sets; the two results must be equal, compared in an encoding that keeps
//! what JSON loses (`undefined`, `NaN`, `-0`, the infinities, key order): a number is its
//! `String(n)` text. A function named `throws_...` may throw in Node (JavaScript's TypeError of a
//! spread that is not iterable): there, ours must be an evaluation error.
//!
//! Without `node` on the PATH the Node half is skipped with a note, unless `CI=true`, where it
//! fails.

use ir::eval::{evaluate, Engine, EvalError, JsValue, Scope};
use ir::Expr;
use machine::value::ValueKind;
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Arc;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/expr")
}

/// The encoding both sides print: JSON, with `{"$": "undefined"}`, `{"$n": "<String(n)>"}` (and
/// `"-0"`), and an object as `{"$o": [[key, value], ...]}` in its key order.
fn encode(v: &JsValue) -> J {
    match v {
        JsValue::Undefined => json!({ "$": "undefined" }),
        JsValue::Null => J::Null,
        JsValue::Bool(b) => J::Bool(*b),
        JsValue::Number(n) if *n == 0.0 && n.is_sign_negative() => json!({ "$n": "-0" }),
        JsValue::Number(n) => json!({ "$n": ir::eval::number_to_string(*n) }),
        JsValue::String(s) => J::String(s.to_string()),
        JsValue::Array(items) => J::Array(items.iter().map(encode).collect()),
        JsValue::Object(props) => json!({ "$o": props.iter().map(|(k, v)| json!([k, encode(v)])).collect::<Vec<_>>() }),
    }
}

const NODE_RUNNER: &str = r#"
const enc = (v) => {
  if (v === undefined) return { $: "undefined" };
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") return { $n: Object.is(v, -0) ? "-0" : String(v) };
  if (Array.isArray(v)) return v.map(enc);
  if (typeof v === "object") return { $o: Object.entries(v).map(([k, x]) => [k, enc(x)]) };
  return { $: typeof v };
};
const mulberry32 = (seed) => {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
const out = {};
for (const [name, f] of Object.entries(__cases)) {
  out[name] = __args.map((a) => {
    Math.random = mulberry32(SEED);
    try {
      return enc(f(a));
    } catch (e) {
      return { $throw: String(e) };
    }
  });
}
process.stdout.write(JSON.stringify(out));
"#;

/// The names of the `export const NAME =` lines, in order.
fn export_names(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| l.strip_prefix("export const "))
        .filter_map(|rest| rest.split_once(' ').map(|(name, _)| name.to_string()))
        .collect()
}

/// The generator's seed both sides start each call from: the run's generator (mulberry32, as
/// the runtime's engine draws it) for a lowered `Math.random()`, and the same in Node.
const SEED: u32 = 34;

/// The run's generator, for `Math.random()` (`ir::eval::Engine::random`), as the runtime's
/// engine advances it (runtime/src/js.rs); it runs no carried function.
struct Seeded(AtomicU32);

impl Engine for Seeded {
    fn call(&self, _: &ir::expr::Script, _: &Scope) -> Result<JsValue, EvalError> {
        Err(EvalError::NoEngine)
    }

    fn random(&self) -> Result<f64, EvalError> {
        let s = self.0.load(Relaxed).wrapping_add(0x6D2B_79F5);
        self.0.store(s, Relaxed);
        let mut t = (s ^ (s >> 15)).wrapping_mul(s | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        Ok(f64::from(t ^ (t >> 14)) / 4_294_967_296.0)
    }
}

fn node_available() -> bool {
    Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Node's results: `{ name: [encoded result per argument set] }`.
fn run_node(src: &str, names: &[String], args: &J) -> serde_json::Map<String, J> {
    let script = format!(
        "{src}\nconst __cases = {{ {} }};\nconst __args = {};\nconst SEED = {SEED};\n{NODE_RUNNER}",
        names.join(", "),
        serde_json::to_string(args).expect("args serialize")
    );
    let out = Command::new("node").args(["--input-type=module", "-e", &script]).output().expect("node runs");
    assert!(out.status.success(), "node failed:\n{}", String::from_utf8_lossy(&out.stderr));
    match serde_json::from_slice(&out.stdout) {
        Ok(J::Object(m)) => m,
        other => panic!("node printed no object: {other:?}"),
    }
}

#[test]
fn lowered_arrow_functions_evaluate_as_node_runs_them() {
    let path = dir().join("cases.ts");
    let src = std::fs::read_to_string(&path).expect("cases.ts");
    let args: J = serde_json::from_str(&std::fs::read_to_string(dir().join("args.json")).expect("args.json"))
        .expect("args.json is JSON");
    let arg_sets = args.as_array().expect("args.json is a list");
    assert!(arg_sets.len() >= 5, "a few argument sets");
    let names = export_names(&src);
    assert!(names.len() >= 40, "at least 40 fixture functions, got {}", names.len());

    // Every fixture lowers completely.
    let ev = machine::evaluate_text(&path, &src);
    let diags: Vec<String> = ev.faults.iter().map(|d| format!("{:?}: {}", d.kind, d.message)).collect();
    assert!(diags.is_empty(), "{diags:?}");
    let mut lowered: Vec<(String, Expr)> = Vec::new();
    let mut not_lowered = Vec::new();
    for name in &names {
        match ev.exports.get(name).map(|v| &v.kind) {
            Some(ValueKind::Function(f)) if f.facts.complete && f.lowered.is_some() => {
                lowered.push((name.clone(), f.lowered.as_deref().cloned().expect("checked")));
            }
            other => not_lowered.push(format!("{name}: {other:?}")),
        }
    }
    assert!(not_lowered.is_empty(), "not lowered completely:\n{}", not_lowered.join("\n"));

    // Ours.
    let scopes: Vec<Scope> = arg_sets.iter().map(Scope::from_json).collect();
    let ours: Vec<(String, Vec<J>)> = lowered
        .iter()
        .map(|(name, e)| {
            let results = scopes
                .iter()
                .map(|s| {
                    // Each call draws from the generator seeded anew, as Node's does.
                    let s = Scope { engine: Some(Arc::new(Seeded(AtomicU32::new(SEED)))), ..s.clone() };
                    evaluate(e, &s).map_or_else(|err| json!({ "$error": err.to_string() }), |v| encode(&v))
                })
                .collect();
            (name.clone(), results)
        })
        .collect();

    if !node_available() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI=true and `node` is not on the PATH: the Node half of the expression cross-check cannot run");
        }
        eprintln!("note: `node` is not on the PATH; the Node half of expr_crosscheck is skipped");
        return;
    }
    let node = run_node(&src, &names, &args);
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for (name, results) in &ours {
        let theirs = node.get(name).and_then(J::as_array).cloned().unwrap_or_default();
        assert_eq!(theirs.len(), results.len(), "{name}: node gave {} results", theirs.len());
        for (i, (a, b)) in results.iter().zip(&theirs).enumerate() {
            compared += 1;
            // A function named `throws_...` may throw: where Node throws, ours must be an error.
            if b.get("$throw").is_some() {
                assert!(
                    name.starts_with("throws_"),
                    "{name} throws in Node on argument set {i}: {b} (fix the fixture)"
                );
                if a.get("$error").is_none() {
                    mismatches.push(format!("{name} on argument set {i}:\n  node: {b}\n  ours: {a}"));
                }
                continue;
            }
            if a != b {
                mismatches.push(format!("{name} on argument set {i}:\n  node: {b}\n  ours: {a}"));
            }
        }
    }
    assert!(mismatches.is_empty(), "{} of {compared} differ:\n{}", mismatches.len(), mismatches.join("\n"));
    eprintln!(
        "expr_crosscheck: {} functions × {} argument sets = {compared} results equal to Node's",
        ours.len(),
        arg_sets.len()
    );
}
