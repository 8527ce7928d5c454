//! The Mermaid writer (`stateDiagram-v2`): a compound state is a composite (`state id { ... }`),
//! a parallel state's regions are its sections (`--`), each final state ends at `[*]`, and the
//! Machine's id is the diagram's title.
//!
//! Ids are `s_` and the state's keys, each character outside `[A-Za-z0-9]` an `_` (so no id is
//! one of Mermaid's words, `end`, `state`, `note`...), made unique. Labels are quoted state
//! descriptions and transition texts with Mermaid's entity codes (`#quot;`, `#35;`...) for every
//! character its grammar reads (quotes, `<`, `>`, `:`, `;`, `#`, `{`, `}`, `%`...), a newline
//! `<br/>`.
//!
//! Mermaid cannot draw an edge from inside a composite to the composite itself (its layout does
//! not end), so a transition that re-enters a state it is inside goes to the state's initial
//! child (where xstate's re-entry lands), down to the first state it is not inside.

use crate::view::{End, Look, View};
use ir::{StateId, StateKind};
use std::collections::BTreeSet;
use std::fmt::Write;

pub(crate) fn write(view: &View<'_>) -> String {
    let ids = Ids::new(view);
    let m = view.machine;
    let mut out = String::new();
    let title = if view.top == StateId::ROOT {
        m.id.clone()
    } else {
        format!("{} at {}", m.id, crate::view::key_path(m, view.top))
    };
    let _ = writeln!(out, "---\ntitle: {}\n---\nstateDiagram-v2", yaml(&title));
    out.push_str("  classDef failing fill:#fbe9e7,stroke:#b03a2e,color:#b03a2e\n");
    out.push_str("  classDef final stroke-width:3px\n");
    out.push_str("  classDef aside fill:#ffffff,stroke-dasharray:4 3,color:#57606a\n");

    // Each edge is written in the innermost block that holds both of its ends.
    let mut blocks: Vec<Vec<String>> = vec![Vec::new(); m.states.len()];
    let mut top_edges: Vec<String> = Vec::new();
    for e in &view.edges {
        let target = if e.targetless { e.from } else { landing(view, e.from, e.to) };
        let (from, to) = (end_id(&ids, e.from), end_id(&ids, target));
        let line = if e.label.is_empty() {
            format!("{from} --> {to}")
        } else {
            format!("{from} --> {to} : {}", text(&e.label))
        };
        // The block of the ends as drawn: Mermaid moves a state into the block of an edge that
        // names it on both sides (a loop), out of its composite.
        match block_of(view, e.from, target) {
            Some(b) => blocks[b.index()].push(line),
            None => top_edges.push(line),
        }
    }
    let mut classes: Vec<(&str, Vec<String>)> =
        vec![("failing", Vec::new()), ("final", Vec::new()), ("aside", Vec::new())];
    let mut w = Writer { view, ids: &ids, blocks: &blocks, classes: &mut classes, out: &mut out };
    if view.top == StateId::ROOT {
        w.inside(StateId::ROOT, 1);
    } else {
        w.state(view.top, 1);
    }
    for (i, title) in view.outside.iter().enumerate() {
        let _ = writeln!(out, "  state \"{}\" as {}", text(title), ids.stub[i]);
        classes[2].1.push(ids.stub[i].clone());
    }
    for line in top_edges {
        let _ = writeln!(out, "  {line}");
    }
    for (class, members) in &classes {
        if !members.is_empty() {
            let _ = writeln!(out, "  class {} {class}", members.join(","));
        }
    }
    out
}

struct Writer<'a, 'v> {
    view: &'a View<'v>,
    ids: &'a Ids,
    blocks: &'a [Vec<String>],
    classes: &'a mut Vec<(&'static str, Vec<String>)>,
    out: &'a mut String,
}

impl Writer<'_, '_> {
    fn state(&mut self, id: StateId, depth: usize) {
        let p = "  ".repeat(depth);
        let view = self.view;
        let sid = &self.ids.node[id.index()];
        let mut label = text(&view.title(id));
        for line in view.lines(id) {
            label.push_str("<br/>");
            label.push_str(&text(&line));
        }
        let _ = writeln!(self.out, "{p}state \"{label}\" as {sid}");
        if view.is_container(id) {
            let _ = writeln!(self.out, "{p}state {sid} {{");
            self.inside(id, depth + 1);
            let _ = writeln!(self.out, "{p}}}");
            return;
        }
        match view.look(id) {
            Look::Final => {
                let _ = writeln!(self.out, "{p}{sid} --> [*]");
                self.classes[1].1.push(sid.clone());
            }
            Look::Failing => self.classes[0].1.push(sid.clone()),
            Look::Plain => {}
        }
    }

    /// A composite's inside (or at the top, the root's): its initial arrow, its "any state"
    /// node, its children (a parallel state's as sections), the edges it holds.
    fn inside(&mut self, id: StateId, depth: usize) {
        let p = "  ".repeat(depth);
        let view = self.view;
        let st = view.state(id);
        if let Some(initial) = st.initial.filter(|_| st.kind == StateKind::Compound) {
            let _ = writeln!(self.out, "{p}[*] --> {}", self.ids.node[initial.index()]);
        }
        if view.has_any(id) {
            let any = &self.ids.any[id.index()];
            let _ = writeln!(self.out, "{p}state \"any state\" as {any}");
            self.classes[2].1.push(any.clone());
        }
        for (n, &child) in st.children.iter().enumerate() {
            if st.kind == StateKind::Parallel && n > 0 {
                let _ = writeln!(self.out, "{p}--");
            }
            self.state(child, depth);
        }
        for line in &self.blocks[id.index()] {
            let _ = writeln!(self.out, "{p}{line}");
        }
    }
}

/// The block an edge is written in: the innermost composite in view around both ends (not a
/// parallel one, whose inside is its regions), `None` for the diagram itself.
fn block_of(view: &View<'_>, from: End, to: End) -> Option<StateId> {
    let place = |end: End| -> Option<StateId> {
        match end {
            End::State(s) if s == view.top => None,
            End::State(s) => view.state(s).parent,
            End::Any(s) => Some(s),
            End::Outside(_) => None,
        }
    };
    let (a, b) = (place(from)?, place(to)?);
    let mut block = view.machine.nearest_common(a, b);
    while view.state(block).kind == StateKind::Parallel {
        block = view.state(block).parent?;
    }
    (block != StateId::ROOT && view.in_view(block)).then_some(block)
}

/// Where an edge from `from` to `to` is drawn to: `to`, or where it re-enters a composite that
/// `from` is inside, the composite's initial child, and down to the first state `from` is not
/// inside (or `from` itself: a loop).
fn landing(view: &View<'_>, from: End, to: End) -> End {
    let (End::State(source) | End::Any(source)) = from else { return to };
    let End::State(mut t) = to else { return to };
    while view.is_container(t) && view.machine.is_ancestor_or_self(t, source) {
        let st = view.state(t);
        match st.initial.or_else(|| st.children.first().copied()) {
            Some(n) if n != t => t = n,
            _ => break,
        }
    }
    End::State(t)
}

/// The id an edge's end is drawn at.
fn end_id(ids: &Ids, end: End) -> String {
    match end {
        End::State(t) => ids.node[t.index()].clone(),
        End::Any(s) => ids.any[s.index()].clone(),
        End::Outside(i) => ids.stub[i].clone(),
    }
}

struct Ids {
    node: Vec<String>,
    any: Vec<String>,
    stub: Vec<String>,
}

impl Ids {
    fn new(view: &View<'_>) -> Self {
        let m = view.machine;
        let mut used = BTreeSet::new();
        let mut fresh = |want: String| {
            let mut id = want.clone();
            let mut n = 2;
            while !used.insert(id.clone()) {
                id = format!("{want}_{n}");
                n += 1;
            }
            id
        };
        let paths: Vec<String> = m
            .ids()
            .map(|id| if id == StateId::ROOT { "root".to_string() } else { crate::view::key_path(m, id) })
            .collect();
        let node = paths.iter().map(|p| fresh(format!("s_{}", ident(p)))).collect();
        let any = paths.iter().map(|p| fresh(format!("any_{}", ident(p)))).collect();
        let stub = view.outside.iter().map(|t| fresh(format!("outside_{}", ident(t)))).collect();
        Ids { node, any, stub }
    }
}

/// A Mermaid id: ASCII letters and digits, every other character `_`.
fn ident(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

/// A label's text with Mermaid's entity codes for what its grammar reads; a newline `<br/>`.
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '\n' => out.push_str("<br/>"),
            '#' | ';' | ':' | '{' | '}' | '%' | '`' | '\\' | '[' | ']' => {
                let _ = write!(out, "#{};", c as u32);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A YAML double-quoted scalar.
fn yaml(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_escape_what_mermaid_reads() {
        assert_eq!(text("a \"b\" <c> d: e; #f"), "a #quot;b#quot; #lt;c#gt; d#58; e#59; #35;f");
        assert_eq!(text("x\ny"), "x<br/>y");
        assert_eq!(ident("a.b-c d"), "a_b_c_d");
        assert_eq!(yaml("a \"b\""), "\"a \\\"b\\\"\"");
    }
}
