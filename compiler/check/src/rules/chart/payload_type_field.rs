use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an event payload with a field named `type`.
    ///
    /// ## Why
    /// jr2 builds the event a Chart receives as `{ type, ...payload }`: the event's name is its
    /// `type`, and a payload field of that name would overwrite it.
    ///
    /// ## Example
    /// ```json
    /// { "events": { "done": { "input": { "type": "object", "properties": { "type": { "type": "string" } } } } } }
    /// ```
    /// is refused: `events.done.input.properties.type: a payload field named `type` is refused:
    /// jr2 writes the event's type, and the payload never names it`.
    ///
    /// ## Use instead
    /// Another name: `kind`, `category`.
    pub static PAYLOAD_TYPE_FIELD = { code: "payload-type-field", rule: Some(4), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(events) = cx.chart.get("events") else { return };
    for ev in events.entries() {
        let Some(field) = ev.value.get("input").and_then(|i| i.get("properties")).and_then(|p| p.member("type")) else {
            continue;
        };
        let path = join(&join(&join("events", ev.key), "input"), "properties.type");
        sink.line(
            &PAYLOAD_TYPE_FIELD,
            field.key_span,
            &path,
            "a payload field named `type` is refused: jr2 writes the event's type, and the payload never names it",
        );
    }
}
