//! The binary size rquickjs adds: one function compiled and called with a JSON argument.
fn main() {
    let arg = std::env::args().nth(1).unwrap_or("{\"n\":1}".into());
    let rt = rquickjs::Runtime::new().unwrap();
    let ctx = rquickjs::Context::full(&rt).unwrap();
    ctx.with(|ctx| {
        let f: rquickjs::Function = ctx.eval("(({ n }) => `${n + 1}`)").unwrap();
        let v = ctx.json_parse(arg).unwrap();
        let r: String = f.call((v,)).unwrap();
        println!("{r}");
    });
}
