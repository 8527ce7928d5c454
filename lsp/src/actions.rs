//! Hover and code actions: what the editor offers on a diagnostic or an invoke's `src`.
//!
//! A code action is a diagnostic's mechanical fix (`Diagnostic::fix`, which its rule made): its
//! text edits in the diagnostic's file, and the file's rename where the fix has one. No rule is
//! named here.

use check::compile::Compiled;
use diagnostics::Diagnostic;
use machine::lower::machine_parts;
use machine::value::{Value, ValueKind};

/// A text edit in the file a code action is asked for: byte range and replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// What a code action does: its edits, then the rename of the file to `rename_to` (a name in the
/// same folder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Action {
    pub title: String,
    pub edits: Vec<Edit>,
    pub rename_to: Option<String>,
}

/// The code action of one diagnostic: its fix, titled as the fix says (capitalised, as editors
/// show titles); `None` for a diagnostic with no fix.
pub(crate) fn action(d: &Diagnostic) -> Option<Action> {
    let fix = d.fix.as_ref()?;
    let edits = fix
        .edits
        .iter()
        .map(|e| Edit { start: e.span.start as usize, end: e.span.end as usize, text: e.replacement.clone() })
        .collect();
    let mut chars = fix.message.chars();
    let title = chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
    Some(Action { title, edits, rename_to: fix.rename_to.clone() })
}

/// The hover of an invoke's `src` at `offset`: the slot's name, kind and definition, as Markdown.
pub(crate) fn src_hover(compiled: &Compiled, offset: usize) -> Option<(usize, usize, String)> {
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
    use base::Span;
    use diagnostics::Fix;

    #[test]
    fn a_fix_is_the_action_with_its_title_capitalised() {
        let d = Diagnostic::error("x", Span::new(0, 1), "m").with_fix(Fix::edits(
            "start at \"a\"",
            vec![diagnostics::Edit { span: Span::new(1, 1), replacement: "y".into() }],
        ));
        let a = action(&d).expect("an action");
        assert_eq!(a.title, "Start at \"a\"");
        assert_eq!(a.edits, [Edit { start: 1, end: 1, text: "y".into() }]);
        assert_eq!(a.rename_to, None);
        let r = action(&Diagnostic::error("x", Span::new(0, 0), "m").with_fix(Fix::rename("rename", "b.ts")));
        assert_eq!(r.and_then(|a| a.rename_to).as_deref(), Some("b.ts"));
        assert_eq!(action(&Diagnostic::error("x", Span::new(0, 0), "m")), None);
    }
}
