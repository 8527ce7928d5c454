use super::Walk;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use machine::lower::WrapperKind;
use machine::value::Prop;

declare_rule! {
    /// Refuses a Repo Slot of a `workspace()` or `customize()` whose key is not a directory name: it must match `/^[A-Za-z][A-Za-z0-9._-]*$/`.
    ///
    /// ## Why
    /// A Repo Slot becomes the directory `/work/<slot>` of the Sandbox, `/work/.jr2/` is reserved
    /// for jr2, and the slots keep their declaration order, which a Machine may give a meaning to
    /// (ADR-0051, ADR-0075). So a key starts with a letter, never with `.`, and holds only letters,
    /// digits, `.`, `_` and `-`. The kit's `assertRepoSlot` refuses any other key in `workspace()`
    /// and `customize()`, and so does the walk, with the kit's text; the line starts with the
    /// wrapper that names the slot (`workspace()` or `customize()`).
    ///
    /// ## Example
    /// ```ts
    /// export const machine = workspace(body, {
    ///   repos: { "my app": "https://github.com/you/app.git" },
    /// });
    /// ```
    /// is refused: `workspace(): Repo Slot key "my app" is not a directory name — a slot becomes
    /// `/work/<slot>`, `/work/.jr2/` is reserved for jr2, and its order matters, so it starts with
    /// a letter and matches /^[A-Za-z][A-Za-z0-9._-]*$/ (ADR-0051, ADR-0075).`
    ///
    /// ## Use instead
    /// A directory name that starts with a letter: `repos: { app: "https://github.com/you/app.git" }`.
    pub static REPO_SLOT_KEY = { code: "repo-slot-key", rule: None, severity: Error };
}

pub(crate) fn check(cx: &Ctx<Walk>, sink: &mut Sink) {
    for (place, slot) in repo_slots(cx) {
        if is_directory_name(slot.key) {
            continue;
        }
        let key = serde_json::to_string(&slot.key).unwrap_or_default();
        sink.report(
            &REPO_SLOT_KEY,
            slot.key_loc,
            format!(
                "{place}: Repo Slot key {key} is not a directory name — a slot becomes `/work/<slot>`, `/work/.jr2/` is reserved for jr2, and its order matters, so it starts with a letter and matches /^[A-Za-z][A-Za-z0-9._-]*$/ (ADR-0051, ADR-0075)."
            ),
        );
    }
}

/// Every Repo Slot of the Machine's wrappers, outermost first, with the wrapper that names it
/// (`workspace()` or `customize()`, the kit's `<where>`): an iterator, not a list, so that the
/// two rules that read them allocate nothing.
pub(crate) fn repo_slots<'a, 'c>(cx: &'c Ctx<Walk<'a>>) -> impl Iterator<Item = (&'static str, &'a Prop<'a>)> + 'c {
    cx.parts.wrappers.iter().flat_map(|w| {
        let place = match w.kind {
            WrapperKind::Workspace => "workspace()",
            WrapperKind::Customize => "customize()",
        };
        let repos = w.options.and_then(|o| o.get("repos")).and_then(|r| r.props()).unwrap_or_default();
        repos.iter().map(move |p| (place, p))
    })
}

/// `/^[A-Za-z][A-Za-z0-9._-]*$/`.
fn is_directory_name(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

#[cfg(test)]
mod tests {
    use super::is_directory_name;

    #[test]
    fn keys_match_the_kit_pattern() {
        for ok in ["app", "App2", "a.b_c-d", "x"] {
            assert!(is_directory_name(ok), "{ok}");
        }
        for bad in ["", ".jr2", "2app", "my app", "a/b", "_a", "-a", "é"] {
            assert!(!is_directory_name(bad), "{bad}");
        }
    }
}
