//! The binary-size baseline: what size_quickjs and size_boa do, with no engine (serde_json only).
fn main() {
    let v: serde_json::Value = serde_json::from_str(&std::env::args().nth(1).unwrap_or("{\"n\":1}".into())).unwrap();
    println!("{}", v["n"]);
}
