//! The rule `duplicate-key`: what it warns of, then its check and its tests.

use crate::door::Tree;
use crate::rules::{Ctx, Sink};
use diagnostics::declare_rule;
use syntax::json::PathStep;

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

/// Warns of every key given again in its object, anywhere in the Chart, from the repeats the
/// parser noted as it read each object (`duplicates`, as [`syntax::json::Parsed::duplicates`] or
/// [`syntax::json::duplicate_keys`] give them): no walk of the Chart of its own. A repeating
/// object's dotted path is looked up only for it.
pub(crate) fn check(cx: &Ctx<Tree>, sink: &mut Sink) {
    let (chart, duplicates) = (cx.chart, cx.duplicates);
    let mut i = 0;
    while i < duplicates.len() {
        let object = duplicates[i].object;
        let same = duplicates[i..].iter().take_while(|d| d.object == object).count();
        let Some((found, steps)) = chart.find_object(object) else {
            i += same;
            continue;
        };
        let members = found.as_object().unwrap_or(&[]);
        let path = steps.iter().fold(String::new(), |path, step| match *step {
            PathStep::Key(k) => base::path::join(&path, k),
            PathStep::Index(i) => base::path::join(&path, i),
        });
        for d in &duplicates[i..i + same] {
            let (Some(m), Some(first)) = (members.get(d.again as usize), members.get(d.first as usize)) else {
                continue;
            };
            let line = sink.line(
                &DUPLICATE_KEY,
                m.key_span,
                &path,
                format!(
                    "the key {:?} is given twice in this object; the door keeps the last one, other readers may keep the first: keep one",
                    m.key
                ),
            );
            line.label = Some("given again here".into());
            line.secondary.push(diagnostics::Label { span: first.key_span, message: "first given here".into() });
        }
        i += same;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(String, u32)> {
        let arena = syntax::json::Arena::new();
        let parsed = syntax::json::parse(text, &arena);
        assert!(parsed.errors.is_empty());
        assert_eq!(parsed.duplicates, syntax::json::duplicate_keys(&parsed.value), "the parser and the walk agree");
        let mut sink = Sink::default();
        let cx = Ctx::new(Tree { chart: &parsed.value, duplicates: &parsed.duplicates, size: text.len(), manifest: None });
        check(&cx, &mut sink);
        sink.into_diagnostics().iter().map(|d| (d.message.clone(), d.span.start)).collect()
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

    /// An object past a few keys is searched through a set, with the same findings.
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
