//! The binary size boa_engine adds: one function compiled and called with a JSON argument.
use boa_engine::{Context, JsValue, Source};
fn main() {
    let arg = std::env::args().nth(1).unwrap_or("{\"n\":1}".into());
    let mut ctx = Context::default();
    let f = ctx.eval(Source::from_bytes("(({ n }) => `${n + 1}`)")).unwrap().as_object().unwrap();
    let v = JsValue::from_json(&serde_json::from_str(&arg).unwrap(), &mut ctx).unwrap();
    let r = f.call(&JsValue::undefined(), &[v], &mut ctx).unwrap();
    println!("{}", r.display());
}
