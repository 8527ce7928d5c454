//! The transitions as a petgraph graph, for passes that walk it.

use super::{StateId, Statechart};
use petgraph::graph::{DiGraph, NodeIndex};

impl Statechart {
    /// The transition graph: a node per state (node `i` is `StateId(i)`), an edge per
    /// (transition, target) weighted by the transition's index in [`Statechart::transitions`].
    /// A targetless transition has no edge.
    pub fn graph(&self) -> DiGraph<StateId, usize> {
        let mut g = DiGraph::with_capacity(self.states.len(), self.transitions.len());
        for id in self.ids() {
            g.add_node(id);
        }
        for (i, t) in self.transitions.iter().enumerate() {
            for target in &t.targets {
                g.add_edge(NodeIndex::new(t.source.index()), NodeIndex::new(target.index()), i);
            }
        }
        g
    }
}
