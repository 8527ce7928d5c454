use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses params on the kit guards `jr2.failure` and `jr2.ready`.
    ///
    /// ## Why
    /// `jr2.failure` tests an `onError` for a Failure (ADR-0073) and `jr2.ready` a cut that
    /// settled ready: each reads the event alone, and params would be silently ignored.
    ///
    /// ## Example
    /// ```json
    /// { "guard": { "type": "jr2.failure", "params": { "reason": "x" } }, "target": "replan" }
    /// ```
    /// is refused: `states.a.invoke.onError.0.guard.params: "jr2.failure" takes no params`.
    ///
    /// ## Use instead
    /// ```json
    /// { "guard": "jr2.failure", "target": "replan" }
    /// ```
    pub static KIT_GUARD_PARAMS = { code: "kit-guard-params", rule: Some(3), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for (path, g) in cx.all_guards() {
        let Some(t) = g.get("type").and_then(|t| t.as_str()) else { continue };
        if t != "jr2.failure" && t != "jr2.ready" {
            continue;
        }
        if let Some(params) = g.get("params") {
            sink.line(&KIT_GUARD_PARAMS, params.span, &join(path, "params"), format!("\"{t}\" takes no params"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::door::run_check;

    // The grammar (rule 1) refuses these first, as the seed's zod does ("that guard takes no
    // params"); the door keeps its own line for a Chart the grammar let through.
    #[test]
    fn params_on_a_kit_guard() {
        let chart = r#"{ "initial": "a", "states": {
            "a": { "invoke": { "src": "tests", "onError": [{ "guard": { "type": "jr2.ready", "params": {} }, "target": "b" }] } },
            "b": { "type": "final" } } }"#;
        let lines: Vec<String> = run_check(chart, None, super::check).into_iter().map(|d| d.message).collect();
        assert_eq!(lines, vec![r#"states.a.invoke.onError.0.guard.params: "jr2.ready" takes no params"#]);
        // In a snapshot too, with the seed's other texts (tests/it/seed_texts.rs).
        insta::assert_snapshot!(lines.join("\n"));
    }

    #[test]
    fn no_params_no_line() {
        let chart = r#"{ "initial": "a", "states": {
            "a": { "invoke": { "src": "tests", "onError": [{ "guard": "jr2.failure", "target": "b" }, { "guard": { "type": "jr2.ready" }, "target": "b" }] } },
            "b": { "type": "final" } } }"#;
        assert!(run_check(chart, None, super::check).is_empty());
    }
}
