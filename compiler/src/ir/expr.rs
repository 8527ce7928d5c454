//! Expressions as data: literals, references to `context`, `input` and `event`, and templates.

use serde::{Deserialize, Serialize};

/// A value the runtime evaluates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum Expr {
    /// A JSON value with no reference in it.
    Literal(serde_json::Value),
    /// `{ "$ref": "context.round" }`: the value at a path.
    Ref(Reference),
    /// A string with `{{ path }}` placeholders.
    Template(Vec<TemplatePart>),
    Array(Vec<Expr>),
    Object(Vec<(String, Expr)>),
}

/// The root a reference reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Root {
    Context,
    Input,
    Event,
}

impl Root {
    pub fn parse(s: &str) -> Option<Root> {
        match s {
            "context" => Some(Root::Context),
            "input" => Some(Root::Input),
            "event" => Some(Root::Event),
            _ => None,
        }
    }
}

/// A dotted path under a root: `context.ticket.notes` is `Context` and `["ticket", "notes"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    pub root: Root,
    pub path: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "camelCase")]
pub enum TemplatePart {
    Text(String),
    Ref(Reference),
}

/// The `{{ ... }}` placeholders of a string, each with its byte range inside the string and its
/// trimmed inner text. An unclosed `{{` is not a placeholder.
pub fn placeholders(s: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(open) = s[rest..].find("{{") {
        let start = rest + open;
        let Some(close) = s[start + 2..].find("}}") else { break };
        let end = start + 2 + close + 2;
        out.push((start..end, s[start + 2..end - 2].trim()));
        rest = end;
    }
    out
}

/// Parses `context.a.b` into a reference, or `None` if the root is not one of the three or a
/// segment is empty.
pub fn parse_reference(text: &str) -> Option<Reference> {
    let mut parts = text.split('.');
    let root = Root::parse(parts.next()?)?;
    let path: Vec<String> = parts.map(str::to_string).collect();
    if path.iter().any(|p| p.is_empty()) {
        return None;
    }
    Some(Reference { root, path })
}
