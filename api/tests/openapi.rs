//! The checked-in OpenAPI document is the one the route table makes (`JR2_BLESS=1` writes it), and
//! it names every route of the table once.

use serde_json::Value;

#[test]
fn the_checked_in_openapi_document_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reference/openapi.json");
    let made = serde_json::to_string_pretty(&api::openapi()).unwrap() + "\n";
    if std::env::var_os("JR2_BLESS").is_some() {
        std::fs::write(&path, &made).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(kept == made, "docs/reference/openapi.json is stale: run `JR2_BLESS=1 cargo test -p api --test openapi`");
    let doc: Value = serde_json::from_str(&kept).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut ops = 0;
    for r in api::ROUTES {
        let op = &doc["paths"][r.path][r.method.to_lowercase()];
        assert_eq!(op["operationId"], r.id, "{} {}", r.method, r.path);
        assert_eq!(op["security"].as_array().unwrap().is_empty(), !r.control);
        ops += 1;
    }
    let documented: usize = doc["paths"].as_object().unwrap().values().map(|p| p.as_object().unwrap().len()).sum();
    assert_eq!(documented, ops, "the document holds a route the table lacks");
}
