use super::repo_slot_key::repo_slots;
use super::Walk;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use machine::parts::is_open_sentinel;
use machine::value::{Callee, Value, ValueKind};

declare_rule! {
    /// Refuses a Repo Slot of a `workspace()` or `customize()` bound to a value of a wrong shape, or to an empty url: a slot is `open`, a url, `{ url, ref? }`, or a mapper over the door.
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
    /// and `ref`.
    ///
    /// An empty url, as a string or as `{ url }`, is the kit's other refusal of a value:
    /// `<where>: Repo Slot "<slot>" is bound to an empty url (got <value>) — a slot …`. The seed
    /// shows that text only up to "— a slot"; ours says it word for word, `<value>` the slot's
    /// value as JSON, and ends it in our words: `is bound to a git url, or left `open` for each
    /// run's door to bring one (ADR-0051).` A url of blanks only is empty too (ours). The kit's
    /// parse of a bound url (a relative path, an unknown scheme) is not judged here.
    ///
    /// ## Example
    /// ```ts
    /// export const machine = workspace(body, { repos: { app: { ref: "main" } } });
    /// ```
    /// is refused: `workspace(): Repo Slot "app" is an object with no `url` — a slot is `open`, a
    /// url, `{ url, ref? }`, or a mapper `({ input }) => url | { url, ref? }` over the door
    /// (ADR-0051).`
    ///
    /// And `workspace(body, { repos: { app: "" } })` is refused: `workspace(): Repo Slot "app" is
    /// bound to an empty url (got "") — a slot is bound to a git url, or left `open` for each
    /// run's door to bring one (ADR-0051).`
    ///
    /// ## Use instead
    /// `repos: { app: { url: "https://github.com/you/app.git", ref: "main" } }`, or `app: open`.
    pub static REPO_SLOT_VALUE = { code: "repo-slot-value", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    for (place, slot) in repo_slots(cx) {
        // The key as JSON, written only for a line.
        let name = || serde_json::to_string(&slot.key).unwrap_or_default();
        if let Some(url) = empty_url(&slot.value) {
            let name = name();
            let got = slot.value.to_json().map_or_else(|| "\"\"".to_string(), |j| j.to_string());
            sink.report(
                &REPO_SLOT_VALUE,
                url.loc,
                format!(
                    "{place}: Repo Slot {name} is bound to an empty url (got {got}) — a slot is bound to a git url, or left `open` for each run's door to bring one (ADR-0051)."
                ),
            );
            continue;
        }
        let Some(what) = wrong_shape(&slot.value) else { continue };
        let name = name();
        sink.report(
            &REPO_SLOT_VALUE,
            slot.value.loc,
            format!(
                "{place}: Repo Slot {name} is {what} — a slot is `open`, a url, `{{ url, ref? }}`, or a mapper `({{ input }}) => url | {{ url, ref? }}` over the door (ADR-0051)."
            ),
        );
    }
}

/// The empty url a slot is bound to (the string itself, or `{ url }`'s), if it is one.
fn empty_url<'a, 'v>(v: &'a Value<'v>) -> Option<&'a Value<'v>> {
    let url = match &v.kind {
        ValueKind::String { .. } => v,
        ValueKind::Object { .. } => v.get("url")?,
        _ => return None,
    };
    url.as_str().filter(|u| u.trim().is_empty()).map(|_| url)
}

/// What is wrong with a slot value, or `None` for a right shape or one the walk cannot judge.
fn wrong_shape(v: &Value<'_>) -> Option<String> {
    let got = |v: &Value<'_>| v.to_json().map(|j| format!(" (got {j})")).unwrap_or_default();
    match v.kind {
        ValueKind::String { .. } | ValueKind::Function(_) | ValueKind::Unknown { .. } | ValueKind::Call(_) => None,
        ValueKind::Imported { callee: Callee::Kit("open") } => None,
        ValueKind::Imported { .. } => None,
        ValueKind::Undefined => Some("undefined".into()),
        ValueKind::Null => Some("null".into()),
        ValueKind::Bool { .. } => Some(format!("a boolean{}", got(v))),
        ValueKind::Number { .. } => Some(format!("a number{}", got(v))),
        ValueKind::Array { .. } => Some(format!("an array{}", got(v))),
        ValueKind::Object { .. } => {
            let stringish = |x: &Value<'_>| {
                matches!(x.kind, ValueKind::String { .. } | ValueKind::Unknown { .. } | ValueKind::Call(_))
            };
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
