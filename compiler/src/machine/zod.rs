//! PLACEHOLDER (branch wt-lower): zod schemas to JSON Schema.
//!
//! Another engineer writes the real `zod.rs`; this stub only fixes the signature that
//! `lower.rs` and `parts.rs` call, and is replaced at merge. It converts nothing: every schema is
//! "not converted" (an empty fault list), and callers treat that as "schema unknown".

use crate::machine::value::Value;

/// One problem converting a zod schema (placeholder: the real type is zod.rs's).
#[derive(Clone, Debug, PartialEq)]
pub struct ZodFault;

/// A zod schema value (`z.object({...})`, ...) as JSON Schema.
pub fn to_json_schema(_schema: &Value) -> Result<serde_json::Value, Vec<ZodFault>> {
    Err(Vec::new())
}
