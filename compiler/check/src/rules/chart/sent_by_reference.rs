use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses a `jr2.sentBy` id that is a reference rather than a literal party name.
    ///
    /// ## Why
    /// `jr2.sentBy` routes an event by the party that sent it (ADR-0015): the door checks the id
    /// against the Chart's parties before it runs, which it cannot do for a value known only at
    /// run time.
    ///
    /// ## Example
    /// ```json
    /// { "guard": { "type": "jr2.sentBy", "params": { "id": "{{context.who}}" } }, "target": "review" }
    /// ```
    /// is refused: `…guard.params.id: a sentBy id is a literal party name, never a reference`.
    ///
    /// ## Use instead
    /// The Agent's name or the Gate's invoke id: `"params": { "id": "writer" }`.
    pub static SENT_BY_REFERENCE = { code: "sent-by-reference", rule: Some(3), severity: Error };
}

/// Every `jr2.sentBy` guard's id: the guard's path (the id's is [`id_path`] of it) and the id's
/// value. The id's path is made only for a line: most guards have none.
pub fn sent_bys<'c, 'a>(cx: &'c Ctx<Chart<'a>>) -> Vec<(&'c str, &'a syntax::json::Json<'a>)> {
    cx.all_guards()
        .iter()
        .filter(|(_, g)| g.get("type").and_then(|t| t.as_str()) == Some("jr2.sentBy"))
        .filter_map(|(path, g)| g.get("params")?.get("id").map(|id| (path.as_str(), id)))
        .collect()
}

/// The path of a `jr2.sentBy` guard's id, from the guard's.
pub fn id_path(guard: &str) -> String {
    join(&join(guard, "params"), "id")
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    for (path, id) in sent_bys(cx) {
        if id.as_str().is_some_and(chart::lower::has_placeholder) || chart::lower::whole_ref(id).is_some() {
            sink.line(&SENT_BY_REFERENCE, id.span, &id_path(path), "a sentBy id is a literal party name, never a reference");
        }
    }
}
