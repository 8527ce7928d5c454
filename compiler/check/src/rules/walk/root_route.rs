//! The mechanical fix of the two unrouted-event rules (`agent-fault-unrouted`,
//! `workspace-lost-unrouted`): one route of the event on the Machine's root, which satisfies the
//! rule for every state, to a top-level state that handles the failure.

use super::Walk;
use crate::rules::Ctx;
use diagnostics::{Edit, Fix};
use machine::value::{FileId, Value, ValueKind};

/// `on: { "<event>": ".<state>" }` on the root of the walked Machine, to the first top-level
/// state whose key holds `word` (any case: `failed`, `Lost`), or else the first final one; `None`
/// when it has no such state, or where the config is not an object literal written in `file` (the
/// diagnostic's file, which a fix's edits are in).
pub(crate) fn fix(cx: &Ctx<Walk>, file: FileId, event: &str, word: &str) -> Option<Fix> {
    let config = cx.parts.config;
    let text = cx.files.get(file.0 as usize)?.text.as_str();
    let states = config.get("states")?.props()?;
    let target = states
        .iter()
        .find(|p| p.key.to_lowercase().contains(word))
        .or_else(|| states.iter().find(|p| p.value.get("type").and_then(Value::as_str) == Some("final")))?;
    let route = format!("\"{event}\": \".{}\"", target.key);
    // Just inside the `{` of an object literal in this file (a value made otherwise, as by a
    // namespace import or a rest pattern, has a span that does not open with one).
    let opening = |v: &Value| {
        let at = v.loc.span.start;
        (v.loc.file == file && text.as_bytes().get(at as usize) == Some(&b'{')).then_some(at + 1)
    };
    let edit = match config.get("on") {
        Some(on) if matches!(on.kind, ValueKind::Object { .. }) => {
            Edit { span: base::Span::empty_at(opening(on)?), replacement: format!(" {route},") }
        }
        Some(_) => return None,
        None => {
            let at = opening(config)?;
            Edit {
                span: base::Span::empty_at(at),
                replacement: format!("{}on: {{ {route} }},", lead(text, at as usize)),
            }
        }
    };
    Some(Fix::edits(format!("route `{event}` on the root to \".{}\"", target.key), vec![edit]))
}

/// What goes before a property inserted at `at`, just inside a `{`: a new line with the next
/// property's indentation (a comment line's does not count) where the `{` ends its line, else one
/// space.
fn lead(text: &str, at: usize) -> String {
    let rest = text.get(at..).unwrap_or_default();
    let Some((line, after)) = rest.split_once('\n') else { return " ".into() };
    if !line.trim().is_empty() {
        return " ".into();
    }
    let next = after.lines().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//")).unwrap_or_default();
    format!("\n{}", &next[..next.len() - next.trim_start().len()])
}

#[cfg(test)]
mod tests {
    use super::lead;

    #[test]
    fn an_inserted_property_is_indented_as_the_next() {
        assert_eq!(lead("({\n    id: 1 })", 2), "\n    ");
        assert_eq!(lead("({ id: 1 })", 2), " ");
        assert_eq!(lead("({\n\n\tid: 1 })", 2), "\n\t");
        assert_eq!(lead("({\n// a note\n  id: 1 })", 2), "\n  ");
    }
}
