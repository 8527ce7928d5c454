//! The JSON Schema subset a Chart event's payload may use (rule 4), which is also the subset a
//! dispatch's slot schema and its callee's door are compared within (ADR-0071).

use base::Span;
use syntax::json::Json;

/// The JSON Schema keywords a Chart event's payload may use (the seed's `PAYLOAD_KEYWORDS`). The
/// Orchestrator checks every pick against the schema in its own process, so a keyword whose cost
/// the door cannot bound is refused by name: `pattern` (a backtracking regex),
/// `patternProperties`, `$ref`, the combinators and the conditionals.
pub const PAYLOAD_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "description",
    "title",
    "default",
    "examples",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
];

/// One keyword outside the subset: its path below the schema, and the span of its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubsetFault {
    pub path: Vec<String>,
    pub span: Span,
    pub key: String,
    /// A list-form `items` rather than an unknown keyword.
    pub list_items: bool,
}

/// The keywords of a schema outside [`PAYLOAD_KEYWORDS`], and list-form `items`, in order.
pub fn subset_faults(schema: &Json) -> Vec<SubsetFault> {
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out);
    out
}

fn walk(node: &Json, path: &mut Vec<String>, out: &mut Vec<SubsetFault>) {
    let Some(members) = node.as_object() else { return };
    for m in members {
        let key = m.key;
        if !PAYLOAD_KEYWORDS.contains(&key) {
            out.push(SubsetFault { path: with(path, key), span: m.key_span, key: key.to_string(), list_items: false });
            continue;
        }
        path.push(key.to_string());
        match key {
            "properties" => {
                for p in m.value.as_object().unwrap_or(&[]) {
                    path.push(p.key.to_string());
                    walk(&p.value, path, out);
                    path.pop();
                }
            }
            "items" if m.value.as_array().is_some() => {
                path.pop();
                out.push(SubsetFault {
                    path: with(path, key),
                    span: m.key_span,
                    key: key.to_string(),
                    list_items: true,
                });
                continue;
            }
            "items" | "additionalProperties" => walk(&m.value, path, out),
            _ => {}
        }
        path.pop();
    }
}

fn with(path: &[String], key: &str) -> Vec<String> {
    let mut p = path.to_vec();
    p.push(key.to_string());
    p
}
