//! A spanned JSON tree and its parser.
//!
//! Every key and every value keeps its byte span. The parser never fails: it returns a tree and
//! its errors, recovering at each member and element so that a half-typed file keeps its
//! siblings. Depth and size are bounded: past them the parser reports one error and skips, so no
//! input can overflow the stack or hang it.

use crate::Span;

/// One JSON value with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Json {
    pub kind: JsonKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum JsonKind {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<Member>),
    /// A value the parser could not read; its error is in [`Parsed::errors`].
    Error,
}

/// One `"key": value` member of an object, in source order. Duplicate keys are kept; lookups
/// take the last one, as `JSON.parse` does.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_span: Span,
    pub value: Json,
}

/// What went wrong while parsing, at its own span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub kind: JsonErrorKind,
    pub message: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonErrorKind {
    /// Malformed JSON.
    Syntax,
    /// Nesting deeper than [`Limits::max_depth`].
    TooDeep,
    /// A text longer than [`Limits::max_bytes`].
    TooLarge,
}

/// Bounds on what the parser reads.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_depth: usize,
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 256, max_bytes: 64 * 1024 * 1024 }
    }
}

/// A parsed text: the tree (possibly with [`JsonKind::Error`] nodes) and the errors.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub value: Json,
    pub errors: Vec<JsonError>,
}

impl Json {
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            JsonKind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            JsonKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match &self.kind {
            JsonKind::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match &self.kind {
            JsonKind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.kind {
            JsonKind::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self.kind, JsonKind::Object(_))
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, JsonKind::Null)
    }

    /// The value of `key` (the last one, if the key repeats), for an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.member(key).map(|m| &m.value)
    }

    /// The member `key` (the last one, if the key repeats), for an object.
    pub fn member(&self, key: &str) -> Option<&Member> {
        self.as_object()?.iter().rev().find(|m| m.key == key)
    }

    /// The members of an object, each key once (its last occurrence), in first-seen order.
    pub fn entries(&self) -> impl Iterator<Item = &Member> {
        let members = self.as_object().unwrap_or(&[]);
        members
            .iter()
            .enumerate()
            .filter(move |(i, m)| !members[i + 1..].iter().any(|later| later.key == m.key))
            .map(|(_, m)| m)
    }

    /// What kind of value this is, in JSON Schema's words.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            JsonKind::Null => "null",
            JsonKind::Bool(_) => "boolean",
            JsonKind::Number(_) => "number",
            JsonKind::String(_) => "string",
            JsonKind::Array(_) => "array",
            JsonKind::Object(_) => "object",
            JsonKind::Error => "error",
        }
    }

    /// The plain value, without spans. `Error` nodes become `null`.
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            JsonKind::Null | JsonKind::Error => Value::Null,
            JsonKind::Bool(b) => Value::Bool(*b),
            JsonKind::Number(n) => Value::Number(n.clone()),
            JsonKind::String(s) => Value::String(s.clone()),
            JsonKind::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            JsonKind::Object(_) => Value::Object(self.entries().map(|m| (m.key.clone(), m.value.to_value())).collect()),
        }
    }
}

/// Parses `text` with the default [`Limits`].
pub fn parse(text: &str) -> Parsed {
    parse_with(text, Limits::default())
}

/// Parses `text`. Never fails and never panics.
pub fn parse_with(text: &str, limits: Limits) -> Parsed {
    let _ = limits;
    // Placeholder until the recovering parser lands: serde_json for the happy path.
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => Parsed { value: from_value(&v, Span::new(0, text.len() as u32)), errors: vec![] },
        Err(e) => Parsed {
            value: Json { kind: JsonKind::Error, span: Span::new(0, text.len() as u32) },
            errors: vec![JsonError { kind: JsonErrorKind::Syntax, message: e.to_string(), span: Span::new(0, 0) }],
        },
    }
}

fn from_value(v: &serde_json::Value, span: Span) -> Json {
    use serde_json::Value;
    let kind = match v {
        Value::Null => JsonKind::Null,
        Value::Bool(b) => JsonKind::Bool(*b),
        Value::Number(n) => JsonKind::Number(n.clone()),
        Value::String(s) => JsonKind::String(s.clone()),
        Value::Array(a) => JsonKind::Array(a.iter().map(|x| from_value(x, span)).collect()),
        Value::Object(o) => JsonKind::Object(
            o.iter().map(|(k, x)| Member { key: k.clone(), key_span: span, value: from_value(x, span) }).collect(),
        ),
    };
    Json { kind, span }
}
