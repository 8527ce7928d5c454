use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::join;
use chart::lower::SrcClass;
use diagnostics::declare_rule;

declare_rule! {
    /// Refuses an invoke whose `src` is not a lent actor or an Agent of this Chart.
    ///
    /// ## Why
    /// A Chart runs only what its Open body lends it (its Agents, Effects and Machines), the
    /// kit's parts the body lends, and the Agents it mints in `agents`. A name the body declares
    /// in `lends` but does not lend now cannot run either: the line says so, so that the Machine
    /// author lends it.
    ///
    /// ## Example
    /// With `lends.agents: ["writer"]`:
    /// ```json
    /// { "invoke": { "src": "ghostwriter", "input": { "prompt": "Draft." } } }
    /// ```
    /// is refused: `states.a.invoke.src: "ghostwriter" is not a lent actor or an Agent of this
    /// Chart; lent: writer (agent); kit: none; minted: none`.
    ///
    /// ## Use instead
    /// A lent name, or mint the Agent in `agents`:
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Draft." } } }
    /// ```
    pub static UNKNOWN_SRC = { code: "unknown-src", rule: Some(3), severity: Error };
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    if cx.manifest.is_none() {
        return;
    }
    for inv in cx.invokes() {
        let Some(src_json) = inv.json.get("src") else { continue };
        let text = match inv.class {
            SrcClass::DeclaredNotLent => format!(
                "\"{}\" is declared in the Open body's `lends`, but the body does not lend it now; {}",
                inv.src,
                cx.lent_text()
            ),
            SrcClass::Unknown => {
                format!("\"{}\" is not a lent actor or an Agent of this Chart; {}", inv.src, cx.lent_text())
            }
            _ => continue,
        };
        // The path is made only for a line: most invokes have none.
        sink.line(&UNKNOWN_SRC, src_json.span, &join(inv.path, "src"), text);
    }
}
