//! The rule `duplicate-key`: what it warns of, then its check and its tests.

use crate::door::Sink;
use diagnostics::declare_rule;
use syntax::json::{Json, JsonKind};

declare_rule! {
    /// Warns of a key given twice in one object of a Chart: which of the two counts is a guess.
    ///
    /// ## Why
    /// JSON leaves a repeated key's meaning open (RFC 8259, 4: "the names within an object
    /// SHOULD be unique"). `JSON.parse`, and the door after it, keep the last one; other
    /// readers keep the first, or refuse the text. A Chart that a planner wrote with a state or
    /// a key twice was most likely meant otherwise, and what runs is the one the reader guessed.
    /// Each key after its first is warned of, at the key, with where the first one is.
    ///
    /// ## Example
    /// ```json
    /// { "initial": "a", "states": { "a": { "type": "final" }, "a": { "on": { "GO": "a" } } } }
    /// ```
    /// warns, at the second `"a"`: `states: the key "a" is given twice in this object; the door keeps the last one, other
    /// readers may keep the first: keep one`.
    ///
    /// ## Use instead
    /// ```json
    /// { "initial": "a", "states": { "a": { "type": "final" }, "b": { "on": { "GO": "a" } } } }
    /// ```
    pub static DUPLICATE_KEY = { code: "duplicate-key", rule: Some(1), severity: Warning };
}

/// Warns of every key given again in its object, anywhere in the Chart. One pass over the
/// tree, with a stack (no recursion) and, per object past a few keys, a set of the keys seen.
pub fn check(chart: &Json, sink: &mut Sink) {
    let mut stack: Vec<(&Json, String)> = vec![(chart, String::new())];
    while let Some((value, path)) = stack.pop() {
        match &value.kind {
            JsonKind::Object(members) => {
                let mut seen: rustc_hash::FxHashMap<&str, base::Span> = rustc_hash::FxHashMap::default();
                for m in members {
                    match seen.get(m.key.as_str()) {
                        Some(&first) => {
                            let d = sink.line(
                                &DUPLICATE_KEY,
                                m.key_span,
                                &path,
                                format!(
                                    "the key {:?} is given twice in this object; the door keeps the last one, other readers may keep the first: keep one",
                                    m.key
                                ),
                            );
                            d.label = Some("given again here".into());
                            d.secondary.push(diagnostics::Label { span: first, message: "first given here".into() });
                        }
                        None => {
                            seen.insert(m.key.as_str(), m.key_span);
                        }
                    }
                }
                for m in members.iter().rev() {
                    stack.push((&m.value, base::path::join(&path, m.key.as_str())));
                }
            }
            JsonKind::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push((item, base::path::join(&path, i)));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(String, u32)> {
        let parsed = syntax::json::parse(text);
        assert!(parsed.errors.is_empty());
        let mut sink = Sink::default();
        check(&parsed.value, &mut sink);
        sink.diagnostics.iter().map(|d| (d.message.clone(), d.span.start)).collect()
    }

    #[test]
    fn each_repeat_is_warned_of_at_its_key() {
        let text = r#"{ "a": 1, "b": { "c": [ { "d": 1, "d": 2, "d": 3 } ] }, "a": 2 }"#;
        let found = lines(text);
        let msg = |path: &str, key: &str| {
            let at = if path.is_empty() { "(chart): ".to_string() } else { format!("{path}: ") };
            format!("{at}the key \"{key}\" is given twice in this object; the door keeps the last one, other readers may keep the first: keep one")
        };
        assert_eq!(
            found,
            [
                (msg("", "a"), text.rfind("\"a\"").unwrap() as u32),
                (msg("b.c.0", "d"), text.find("\"d\": 2").unwrap() as u32),
                (msg("b.c.0", "d"), text.find("\"d\": 3").unwrap() as u32),
            ]
        );
        assert!(lines(r#"{ "a": { "a": { "a": 1 } }, "b": [{ "a": 1 }, { "a": 2 }] }"#).is_empty());
    }
}
