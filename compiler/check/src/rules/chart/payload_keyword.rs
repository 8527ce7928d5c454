use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use chart::payload::{subset_faults, PAYLOAD_KEYWORDS};
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a JSON Schema keyword in an event's `input` that a Chart event's payload may not use.
    ///
    /// ## Why
    /// The Orchestrator checks every pick against its event's schema in its own process, before
    /// the Allowed check, so a keyword whose cost the door cannot bound is refused by name:
    /// `pattern` (a backtracking regex), `patternProperties`, `$ref`, the combinators (`oneOf`,
    /// `anyOf`, `allOf`, `not`) and the conditionals (`if`/`then`/`else`). A list-form `items`
    /// is refused too: a payload's list holds one kind of item.
    ///
    /// ## Example
    /// ```json
    /// { "events": { "done": { "input": { "type": "object", "properties": { "id": { "type": "string", "pattern": "^[a-z]+$" } } } } } }
    /// ```
    /// is refused: `events.done.input.properties.id.pattern: "pattern" is not a keyword a Chart
    /// event's payload may use; it may use type, properties, required, …`.
    ///
    /// ## Use instead
    /// `enum`, `minLength`/`maxLength`, `format`, or a plain string that the Agent's prompt
    /// describes.
    pub static PAYLOAD_KEYWORD = { code: "payload-keyword", rule: Some(4), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(events) = cx.chart.get("events") else { return };
    for ev in events.entries() {
        let Some(input) = ev.value.get("input") else { continue };
        let base = join(&join("events", ev.key), "input");
        for fault in subset_faults(input) {
            let path = fault.path.iter().fold(base.clone(), |p, s| join(&p, s));
            let text = if fault.list_items {
                "\"items\" takes one schema for every item of a Chart event's payload, not a list".to_string()
            } else {
                format!(
                    "\"{}\" is not a keyword a Chart event's payload may use; it may use {}",
                    fault.key,
                    PAYLOAD_KEYWORDS.join(", ")
                )
            };
            sink.line(&PAYLOAD_KEYWORD, fault.span, &path, text);
        }
    }
}
