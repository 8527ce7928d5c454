//! Hover and code actions: what the editor offers on a diagnostic or an invoke's `src`.
//!
//! Code actions exist where the fix is mechanical: a route for `agent.fault` / `workspace.lost`
//! on the root, a Workflow (or Chart) file renamed to a valid stem, an unread pick param dropped
//! from its event's def, and any fix a diagnostic carries.

use check::compile::Compiled;
use check::rules::instance::workflow_stem;
use diagnostics::Diagnostic;
use machine::lower::machine_parts;
use machine::value::{Value, ValueKind};
use std::path::Path;

/// A text edit in the file a code action is asked for: byte range and replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// What a code action does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Edits {
        title: String,
        edits: Vec<Edit>,
    },
    /// Rename the file to this name (same folder).
    Rename {
        title: String,
        to: String,
    },
}

/// The code actions of one diagnostic of the file at `path` with `text`.
pub fn actions(path: &Path, text: &str, d: &Diagnostic, compiled: Option<&Compiled>) -> Vec<Action> {
    let mut out = Vec::new();
    if let Some(fix) = &d.fix {
        let edits = fix
            .edits
            .iter()
            .map(|e| Edit { start: e.span.start as usize, end: e.span.end as usize, text: e.replacement.clone() })
            .collect();
        out.push(Action::Edits { title: fix.message.clone(), edits });
    }
    match d.code {
        "agent-fault-unrouted" => out.extend(root_route(text, compiled, "agent.fault")),
        "workspace-lost-unrouted" => out.extend(root_route(text, compiled, "workspace.lost")),
        "workflow-stem" => {
            let (Some(stem), Some(ext)) = (path.file_stem(), path.extension()) else { return out };
            let to = format!("{}.{}", workflow_stem::suggested(&stem.to_string_lossy()), ext.to_string_lossy());
            out.push(Action::Rename { title: format!("Rename the file to {to}"), to });
        }
        "unread-pick-param" => out.extend(drop_property(text, d.span.start as usize)),
        _ => {}
    }
    out
}

/// `on: { "<event>": "<target>" }` on the root, to a top-level state that handles failure (one
/// named for it, or else a final one); none when the Machine has no such state.
fn root_route(text: &str, compiled: Option<&Compiled>, event: &str) -> Option<Action> {
    let value = compiled?.value()?;
    let parts = machine_parts(value).ok()?;
    let config = parts.config;
    if config.loc.file.0 != 0 {
        return None;
    }
    let states = config.get("states")?.props()?;
    let word = if event == "workspace.lost" { "lost" } else { "fail" };
    let target = states
        .iter()
        .find(|p| p.key.to_lowercase().contains(word))
        .or_else(|| states.iter().find(|p| p.value.get("type").and_then(Value::as_str) == Some("final")))?;
    let route = format!("\"{event}\": \".{}\"", target.key);
    let opening = |v: &Value| {
        let at = v.loc.span.start as usize;
        (v.loc.file.0 == 0 && text.as_bytes().get(at) == Some(&b'{')).then_some(at + 1)
    };
    let edit = match config.get("on") {
        Some(on) if matches!(on.kind, ValueKind::Object { .. }) => {
            Edit { start: opening(on)?, end: opening(on)?, text: format!(" {route},") }
        }
        Some(_) => return None,
        None => Edit { start: opening(config)?, end: opening(config)?, text: format!("\n  on: {{ {route} }},") },
    };
    Some(Action::Edits { title: format!("Route `{event}` on the root to \".{}\"", target.key), edits: vec![edit] })
}

/// Deletes the object property that starts at `at` (`key: value`), with one comma beside it.
fn drop_property(text: &str, at: usize) -> Option<Action> {
    let bytes = text.as_bytes();
    if at >= bytes.len() {
        return None;
    }
    // The property ends at the first `,` or closing bracket outside brackets and strings.
    let (mut depth, mut end, mut quote) = (0i32, None, None::<u8>);
    let mut i = at;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' | b'`' => quote = Some(b),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                _ => {}
            },
        }
        i += 1;
    }
    let end = end?;
    let (start, end) = if bytes[end] == b',' {
        // `a, b` → drop `a, `.
        let mut e = end + 1;
        while e < bytes.len() && bytes[e] == b' ' {
            e += 1;
        }
        (at, e)
    } else {
        // The last property: drop the comma before it, if any, and the spaces after the value.
        let mut s = at;
        while s > 0 && bytes[s - 1].is_ascii_whitespace() {
            s -= 1;
        }
        let s = if s > 0 && bytes[s - 1] == b',' { s - 1 } else { at };
        let mut e = end;
        while e > at && bytes[e - 1] == b' ' {
            e -= 1;
        }
        (s, e)
    };
    Some(Action::Edits {
        title: "Drop the unread param from the event's def".to_string(),
        edits: vec![Edit { start, end, text: String::new() }],
    })
}

/// The hover of an invoke's `src` at `offset`: the slot's name, kind and definition, as Markdown.
pub fn src_hover(compiled: &Compiled, offset: usize) -> Option<(usize, usize, String)> {
    let value = compiled.value()?;
    let src = find_src(value, offset)?;
    let name = src.as_str()?;
    let parts = machine_parts(value).ok()?;
    let kind = compiled
        .machine
        .as_ref()
        .and_then(|m| m.states.iter().flat_map(|s| &s.invokes).find(|i| i.src == name).map(|i| format!("{:?}", i.kind)))
        .unwrap_or_else(|| "Unknown".to_string());
    let mut md = format!("**{name}**: {kind} slot");
    if let Some(actor) = parts.actor(name) {
        if let Some(file) = compiled.files.get(actor.loc.file.0 as usize) {
            let (a, b) = (actor.loc.span.start as usize, actor.loc.span.end as usize);
            if let Some(definition) = file.text.get(a..b) {
                md.push_str(&format!("\n\n```ts\n{name}: {definition}\n```"));
            }
        }
    } else {
        md.push_str("\n\nno actor of this name in the Machine's setup");
    }
    Some((src.loc.span.start as usize, src.loc.span.end as usize, md))
}

/// The `src: "<name>"` string of the entry file that holds `offset`.
fn find_src<'v>(v: &'v Value<'v>, offset: usize) -> Option<&'v Value<'v>> {
    let inside =
        |v: &Value| v.loc.file.0 == 0 && (v.loc.span.start as usize) <= offset && offset <= v.loc.span.end as usize;
    match &v.kind {
        ValueKind::Object { props } => props.iter().find_map(|p| {
            if p.key == "src" && matches!(p.value.kind, ValueKind::String { .. }) && inside(&p.value) {
                Some(&p.value)
            } else {
                find_src(&p.value, offset)
            }
        }),
        ValueKind::Array { items } => items.iter().find_map(|x| find_src(x, offset)),
        ValueKind::Call(c) => c.receiver.iter().chain(c.args.iter()).find_map(|x| find_src(x, offset)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, a: &Action) -> String {
        let Action::Edits { edits, .. } = a else { panic!("{a:?}") };
        let mut out = text.to_string();
        for e in edits.iter().rev() {
            out.replace_range(e.start..e.end, &e.text);
        }
        out
    }

    #[test]
    fn a_property_is_dropped_with_one_comma() {
        let text = "z.object({ module: z.string(), verbose: z.boolean() })";
        let at = text.find("verbose").unwrap();
        assert_eq!(apply(text, &drop_property(text, at).unwrap()), "z.object({ module: z.string() })");
        let at = text.find("module").unwrap();
        assert_eq!(apply(text, &drop_property(text, at).unwrap()), "z.object({ verbose: z.boolean() })");
    }
}
