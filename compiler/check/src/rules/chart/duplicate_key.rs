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
/// One step of a value's dotted path: a key of its object or an index of its array.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Objects of up to this many keys are searched for a repeat pairwise (no allocation); larger
/// ones through a set.
const SMALL_OBJECT: usize = 16;

pub fn check(chart: &Json, sink: &mut Sink) {
    // Each value to visit with the index of its step in `steps`; a value's dotted path is made
    // only for an object that repeats a key (a walk that made every path spent most of its time
    // making them).
    const ROOT: usize = usize::MAX;
    let mut steps: Vec<(usize, Step)> = Vec::new();
    let mut stack: Vec<(&Json, usize)> = vec![(chart, ROOT)];
    let mut seen: rustc_hash::FxHashMap<&str, base::Span> = rustc_hash::FxHashMap::default();
    while let Some((value, at)) = stack.pop() {
        match &value.kind {
            JsonKind::Object(members) => {
                let mut path: Option<String> = None;
                let large = members.len() > SMALL_OBJECT;
                if large {
                    seen.clear();
                }
                for (i, m) in members.iter().enumerate() {
                    let first = if large {
                        match seen.get(m.key.as_str()) {
                            Some(&first) => Some(first),
                            None => {
                                seen.insert(m.key.as_str(), m.key_span);
                                None
                            }
                        }
                    } else {
                        members[..i].iter().find(|o| o.key == m.key).map(|o| o.key_span)
                    };
                    let Some(first) = first else { continue };
                    let path = path.get_or_insert_with(|| path_of(&steps, at));
                    let d = sink.line(
                        &DUPLICATE_KEY,
                        m.key_span,
                        path,
                        format!(
                            "the key {:?} is given twice in this object; the door keeps the last one, other readers may keep the first: keep one",
                            m.key
                        ),
                    );
                    d.label = Some("given again here".into());
                    d.secondary.push(diagnostics::Label { span: first, message: "first given here".into() });
                }
                for m in members.iter().rev() {
                    if matches!(m.value.kind, JsonKind::Object(_) | JsonKind::Array(_)) {
                        steps.push((at, Step::Key(m.key.as_str())));
                        stack.push((&m.value, steps.len() - 1));
                    }
                }
            }
            JsonKind::Array(items) => {
                for (i, item) in items.iter().enumerate().rev() {
                    if matches!(item.kind, JsonKind::Object(_) | JsonKind::Array(_)) {
                        steps.push((at, Step::Index(i)));
                        stack.push((item, steps.len() - 1));
                    }
                }
            }
            _ => {}
        }
    }

    /// The dotted path of the value at step `at`, as `base::path::join` makes it.
    fn path_of(steps: &[(usize, Step)], mut at: usize) -> String {
        let mut chain = Vec::new();
        while at != ROOT {
            let (parent, step) = steps[at];
            chain.push(step);
            at = parent;
        }
        chain.iter().rev().fold(String::new(), |path, step| match *step {
            Step::Key(k) => base::path::join(&path, k),
            Step::Index(i) => base::path::join(&path, i),
        })
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

    /// An object past [`SMALL_OBJECT`] keys is searched through a set, with the same findings.
    #[test]
    fn a_large_object_repeats_are_found_too() {
        let keys: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 30)).collect();
        let text = format!("{{ \"s\": [ {{ {} }} ] }}", keys.join(", "));
        let found = lines(&text);
        assert_eq!(found.len(), 10, "k0 to k9 again");
        assert!(found.iter().all(|(m, _)| m.starts_with("s.0: the key \"k")), "{found:?}");
        assert_eq!(found[0].1, text.find("\"k0\": 30").unwrap() as u32);
    }
}
