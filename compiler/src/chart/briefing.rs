//! The Chart briefing (the seed's `chartBriefing`): jr2's text on how a Chart runs, for whoever
//! writes one. It is the grammar's root description.

use crate::chart::lends::Declaration;

/// The briefing, whole (`None`) or narrowed to one Open body's declaration.
pub fn chart_briefing(decl: Option<&Declaration>) -> String {
    let _ = decl;
    String::new()
}
