use super::repo_slot_key::repo_slots;
use super::Ctx;
use crate::declare_rule;
use crate::machine::compile::Located;
use crate::machine::parts::is_open_sentinel;
use crate::machine::value::{Callee, Value, ValueKind};

declare_rule! {
    /// Refuses a Repo Slot of a `workspace()` or `customize()` bound to a value of a wrong shape: a slot is `open`, a url, `{ url, ref? }`, or a mapper over the door.
    ///
    /// ## Why
    /// A Repo Slot is bound (a url, or `{ url, ref? }`), open (`open`: each run's door brings
    /// it), or per-run (a function of the run input, `({ input }) => url | { url, ref? }`)
    /// (ADR-0051). The kit's `assertRepoSlot` refuses any other value in `workspace()` and
    /// `customize()` by name, at build time, and so does the walk, with the kit's text. The kit
    /// gives `<what>` no fixed words; ours name the value's kind and, where it is a literal, the
    /// value: `a number (got 3)`, `null`, `an array (got [...])`, `an object with no \`url\``, `an
    /// object whose \`url\` is not a string (got ...)`, `an object whose \`ref\` is not a string (got ...)`.
    /// A value the walk cannot know (a call, an unknown) is not judged, nor are keys beside `url`
    /// and `ref`; an empty url is the kit's other refusal.
    ///
    /// ## Example
    /// ```ts
    /// export const machine = workspace(body, { repos: { app: { ref: "main" } } });
    /// ```
    /// is refused: `workspace(): Repo Slot "app" is an object with no `url` — a slot is `open`, a
    /// url, `{ url, ref? }`, or a mapper `({ input }) => url | { url, ref? }` over the door
    /// (ADR-0051).`
    ///
    /// ## Use instead
    /// `repos: { app: { url: "https://github.com/you/app.git", ref: "main" } }`, or `app: open`.
    pub static REPO_SLOT_VALUE = { code: "repo-slot-value", rule: None, severity: Error };
}

pub fn check(cx: &Ctx, out: &mut Vec<Located>) {
    for (place, slot) in repo_slots(cx) {
        let Some(what) = wrong_shape(&slot.value) else { continue };
        let name = serde_json::to_string(&slot.key).unwrap_or_default();
        out.push(Located {
            file: slot.value.loc.file,
            diagnostic: REPO_SLOT_VALUE.at(
                slot.value.loc.span,
                format!(
                    "{place}: Repo Slot {name} is {what} — a slot is `open`, a url, `{{ url, ref? }}`, or a mapper `({{ input }}) => url | {{ url, ref? }}` over the door (ADR-0051)."
                ),
            ),
        });
    }
}

/// What is wrong with a slot value, or `None` for a right shape or one the walk cannot judge.
fn wrong_shape(v: &Value) -> Option<String> {
    let got = |v: &Value| v.to_json().map(|j| format!(" (got {j})")).unwrap_or_default();
    match &v.kind {
        ValueKind::String { .. } | ValueKind::Function(_) | ValueKind::Unknown { .. } | ValueKind::Call(_) => None,
        ValueKind::Imported { callee: Callee::Kit(n) } if n == "open" => None,
        ValueKind::Imported { .. } => None,
        ValueKind::Undefined => Some("undefined".into()),
        ValueKind::Null => Some("null".into()),
        ValueKind::Bool { .. } => Some(format!("a boolean{}", got(v))),
        ValueKind::Number { .. } => Some(format!("a number{}", got(v))),
        ValueKind::Array { .. } => Some(format!("an array{}", got(v))),
        ValueKind::Object { .. } => {
            let stringish =
                |x: &Value| matches!(x.kind, ValueKind::String { .. } | ValueKind::Unknown { .. } | ValueKind::Call(_));
            match v.get("url") {
                None | Some(Value { kind: ValueKind::Undefined, .. }) => return Some("an object with no `url`".into()),
                Some(url) if !stringish(url) => {
                    return Some(format!("an object whose `url` is not a string{}", got(url)))
                }
                _ => {}
            }
            match v.get("ref") {
                None | Some(Value { kind: ValueKind::Undefined, .. }) => None,
                Some(r) if !stringish(r) => Some(format!("an object whose `ref` is not a string{}", got(r))),
                _ => None,
            }
        }
    }
    .filter(|_| !is_open_sentinel(v))
}
