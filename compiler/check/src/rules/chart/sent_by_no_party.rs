use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::names;
use base::small_set::SmallSet;
use diagnostics::declare_rule;
use ir::SlotKind;

declare_rule! {
    /// Refuses a `jr2.sentBy` id that names no party of the Chart.
    ///
    /// ## Why
    /// `jr2.sentBy` is true for an event one party sent. The parties of a Chart are its Agents
    /// (lent or minted, by name) and its Gates (by invoke `id`; an unnamed Gate is named by its
    /// state's key path, as `jr2Setup` names it). An id that is none of them never matches, and
    /// the transition would never run.
    ///
    /// ## Example
    /// ```json
    /// { "guard": { "type": "jr2.sentBy", "params": { "id": "editr" } }, "target": "published" }
    /// ```
    /// is refused: `…params.id: sentBy "editr" names no party of this Chart (Agent slots: writer;
    /// Gate invoke ids: editor)`.
    ///
    /// ## Use instead
    /// An Agent's name or a Gate's invoke id: `"id": "editor"`.
    pub static SENT_BY_NO_PARTY = { code: "sent-by-no-party", rule: Some(6), severity: Error };
}

/// The Chart's parties: its Agent slots and its Gates' invoke ids, in state order.
pub fn parties(cx: &Ctx<Chart>) -> (Vec<String>, Vec<String>) {
    parties_of(cx.machine, cx.map)
}

/// A Machine's parties (a Chart's or a TypeScript Machine's): its Agent slots and its Gates'
/// invoke ids, in state order.
/// (An unnamed Gate's id is its state's key path, read off the state's path in `map`.)
pub fn parties_of(machine: &ir::Statechart, map: &ir::SourceMap) -> (Vec<String>, Vec<String>) {
    let mut agents: Vec<String> = Vec::new();
    let mut gates: Vec<String> = Vec::new();
    // Each once, in state order (a set beside each list: a search per push is quadratic).
    let (mut seen_agents, mut seen_gates) = (SmallSet::default(), SmallSet::default());
    for id in machine.ids() {
        let st = machine.state(id);
        let unnamed = st.invokes.iter().filter(|i| i.kind == SlotKind::Gate && i.id.is_none()).count();
        let mut ordinal = 0;
        for inv in &st.invokes {
            if inv.kind == SlotKind::Gate {
                let gid = match &inv.id {
                    Some(gid) => gid.to_string(),
                    // The state's key path: its dotted path without the `states` segments.
                    None if unnamed > 1 => {
                        ordinal += 1;
                        format!("{}.{}", key_path(map.state_path(id)), ordinal - 1)
                    }
                    None => key_path(map.state_path(id)),
                };
                if seen_gates.insert(gid.clone()) {
                    gates.push(gid);
                }
            } else if inv.kind.is_agent() && seen_agents.insert(inv.src.as_str()) {
                agents.push(inv.src.to_string());
            }
        }
    }
    (agents, gates)
}

/// The parties of [`parties_of`] that need no list to tell: each Agent invoke's `src` and each
/// Gate invoke's own `id` (an unnamed Gate's id is its state's key path, which only `parties_of`
/// writes out). Allocates nothing for a Machine of a few parties: a rule asks this first and makes
/// the lists only for an id it does not hold.
pub fn named_parties(machine: &ir::Statechart) -> SmallSet<&str> {
    let mut named = SmallSet::default();
    for inv in machine.states.iter().flat_map(|st| &st.invokes) {
        match inv.kind {
            SlotKind::Gate => {
                if let Some(id) = &inv.id {
                    named.insert(id.as_str());
                }
            }
            kind if kind.is_agent() => {
                named.insert(inv.src.as_str());
            }
            _ => {}
        }
    }
    named
}

/// `states.a.states.b` → `a.b`.
fn key_path(path: &str) -> String {
    path.split('.').skip(1).step_by(2).collect::<Vec<_>>().join(".")
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let sent_bys = super::sent_by_reference::sent_bys(cx);
    if sent_bys.is_empty() {
        return;
    }
    let (agents, gates) = parties(cx);
    let mut known = SmallSet::default();
    for party in agents.iter().chain(&gates) {
        known.insert(party.as_str());
    }
    for (path, id) in sent_bys {
        let Some(text) = id.as_str() else { continue };
        if chart::lower::has_placeholder(text) || known.contains(text) {
            continue;
        }
        sink.line(
            &SENT_BY_NO_PARTY,
            id.span,
            &super::sent_by_reference::id_path(path),
            format!(
                "sentBy \"{text}\" names no party of this Chart (Agent slots: {}; Gate invoke ids: {})",
                names(&agents),
                names(&gates)
            ),
        );
    }
}
