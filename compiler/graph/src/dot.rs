//! The DOT writer: a compound state is a `cluster_` subgraph with an invisible anchor node that
//! its transitions leave from and arrive at (clipped at the cluster's border by `ltail`/`lhead`,
//! `compound=true`), its initial arrow from a dot, and its "any state" node where it has one.
//!
//! Escaping: ids and plain labels are DOT quoted strings (`\` and `"` escaped, a newline `\n`),
//! a state's label is an HTML-like label (`&`, `<`, `>`, `"` as entities, a newline `<br/>`).

use crate::view::{End, Look, View};
use ir::{StateId, StateKind};
use std::collections::BTreeSet;
use std::fmt::Write;

const FAIL: &str = "#b03a2e";
const FAIL_FILL: &str = "#fbe9e7";

pub(crate) fn write(view: &View<'_>) -> String {
    let ids = Ids::new(view);
    let mut out = String::new();
    let m = view.machine;
    let _ = writeln!(out, "digraph {} {{", quote(&m.id));
    let mut title = html_title(&m.id, &[]);
    if view.top != StateId::ROOT {
        title = html_title(&m.id, &[format!("at {}", crate::view::key_path(m, view.top))]);
    } else if !view.lines(StateId::ROOT).is_empty() {
        title = html_title(&m.id, &view.lines(StateId::ROOT));
    }
    let _ = writeln!(
        out,
        "  graph [compound=true, rankdir=TB, newrank=true, labelloc=t, fontname=\"Helvetica\", fontsize=14, nodesep=0.35, ranksep=0.45, label=<{title}>];"
    );
    out.push_str(
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f6f8fa\", color=\"#57606a\", fontname=\"Helvetica\", fontsize=12];\n",
    );
    out.push_str("  edge [color=\"#57606a\", fontname=\"Helvetica\", fontsize=10, arrowsize=0.7];\n");
    if view.top == StateId::ROOT {
        inside(view, &ids, StateId::ROOT, 1, &mut out);
    } else {
        state(view, &ids, view.top, 1, &mut out);
    }
    for (i, title) in view.outside.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {} [label={}, style=\"rounded,dashed\", fillcolor=white, fontcolor=\"#57606a\"];",
            quote(&ids.stub[i]),
            quote(title)
        );
    }
    for e in &view.edges {
        let (from, ltail) = from_end(view, &ids, e.from);
        let (to, lhead) = to_end(view, &ids, e.from, e.to, e.targetless);
        let mut attrs = vec![format!("label={}", quote(&e.label))];
        if let Some(c) = ltail {
            attrs.push(format!("ltail={}", quote(&c)));
        }
        if let Some(c) = lhead {
            attrs.push(format!("lhead={}", quote(&c)));
        }
        if e.targetless {
            attrs.push("style=dashed".into());
        }
        if let End::State(t) = e.to {
            if view.look(t) == Look::Failing {
                attrs.push(format!("color=\"{FAIL}\", fontcolor=\"{FAIL}\""));
            }
        }
        let _ = writeln!(out, "  {} -> {} [{}];", quote(&from), quote(&to), attrs.join(", "));
    }
    out.push_str("}\n");
    out
}

/// The node ids: a state's dotted key path (the root's children by their keys), its helpers
/// that path and a suffix; each made unique against all the others.
struct Ids {
    node: Vec<String>,
    anchor: Vec<String>,
    init: Vec<String>,
    any: Vec<String>,
    cluster: Vec<String>,
    stub: Vec<String>,
}

impl Ids {
    fn new(view: &View<'_>) -> Self {
        let m = view.machine;
        let mut used = BTreeSet::new();
        let mut fresh = |want: String| {
            let mut id = want;
            while !used.insert(id.clone()) {
                id.push('\'');
            }
            id
        };
        let paths: Vec<String> =
            m.ids().map(|id| if id == StateId::ROOT { m.id.clone() } else { crate::view::key_path(m, id) }).collect();
        let node: Vec<String> = paths.iter().map(|p| fresh(p.clone())).collect();
        let anchor = paths.iter().map(|p| fresh(format!("{p}:anchor"))).collect();
        let init = paths.iter().map(|p| fresh(format!("{p}:initial"))).collect();
        let any = paths.iter().map(|p| fresh(format!("{p}:any"))).collect();
        let cluster = paths.iter().map(|p| fresh(format!("cluster_{p}"))).collect();
        let stub = view.outside.iter().map(|t| fresh(format!("outside:{t}"))).collect();
        Ids { node, anchor, init, any, cluster, stub }
    }
}

fn pad(depth: usize) -> String {
    "  ".repeat(depth)
}

/// A state: a node, or a cluster with its inside.
fn state(view: &View<'_>, ids: &Ids, id: StateId, depth: usize, out: &mut String) {
    let p = pad(depth);
    let i = id.index();
    let look = view.look(id);
    let title = html_title(&view.title(id), &view.lines(id));
    if !view.is_container(id) {
        let mut attrs = vec![format!("label=<{title}>")];
        match look {
            Look::Final => attrs.push("peripheries=2".into()),
            Look::Failing => attrs.push(format!("color=\"{FAIL}\", fillcolor=\"{FAIL_FILL}\", fontcolor=\"{FAIL}\"")),
            Look::Plain => {}
        }
        let _ = writeln!(out, "{p}{} [{}];", quote(&ids.node[i]), attrs.join(", "));
        return;
    }
    let st = view.state(id);
    let region = st.parent.is_some_and(|parent| view.state(parent).kind == StateKind::Parallel);
    let _ = writeln!(out, "{p}subgraph {} {{", quote(&ids.cluster[i]));
    let style = if region { "rounded,dashed" } else { "rounded" };
    let (color, fill) = match look {
        Look::Failing => (FAIL, FAIL_FILL),
        _ if st.kind == StateKind::Parallel => ("#57606a", "#eef2f7"),
        _ => ("#57606a", "#ffffff"),
    };
    let _ = writeln!(
        out,
        "{p}  graph [label=<{title}>, style=\"{style},filled\", color=\"{color}\", fillcolor=\"{fill}\", fontsize=12, labeljust=l];"
    );
    inside(view, ids, id, depth + 1, out);
    let _ = writeln!(out, "{p}}}");
}

/// What is inside a compound or parallel state (or at the top, the root): its anchor, its initial
/// arrow, its "any state" node, its children.
fn inside(view: &View<'_>, ids: &Ids, id: StateId, depth: usize, out: &mut String) {
    let p = pad(depth);
    let i = id.index();
    let st = view.state(id);
    if id != StateId::ROOT {
        let _ =
            writeln!(out, "{p}{} [shape=point, style=invis, width=0, height=0, label=\"\"];", quote(&ids.anchor[i]));
    }
    if let Some(initial) = st.initial.filter(|_| st.kind == StateKind::Compound) {
        let _ = writeln!(
            out,
            "{p}{} [shape=point, width=0.12, height=0.12, style=filled, fillcolor=\"#24292f\", color=\"#24292f\", label=\"\"];",
            quote(&ids.init[i])
        );
        let (to, lhead) = if view.is_container(initial) {
            (&ids.anchor[initial.index()], Some(&ids.cluster[initial.index()]))
        } else {
            (&ids.node[initial.index()], None)
        };
        let lhead = lhead.map(|c| format!(" [lhead={}]", quote(c))).unwrap_or_default();
        let _ = writeln!(out, "{p}{} -> {}{lhead};", quote(&ids.init[i]), quote(to));
    }
    if view.has_any(id) {
        let _ = writeln!(
            out,
            "{p}{} [label=\"any state\", style=\"rounded,dashed\", fillcolor=white, fontsize=10, fontcolor=\"#57606a\"];",
            quote(&ids.any[i])
        );
    }
    for &child in &st.children {
        state(view, ids, child, depth, out);
    }
}

fn from_end(view: &View<'_>, ids: &Ids, end: End) -> (String, Option<String>) {
    match end {
        End::State(s) if view.is_container(s) => (ids.anchor[s.index()].clone(), Some(ids.cluster[s.index()].clone())),
        End::State(s) => (ids.node[s.index()].clone(), None),
        End::Any(s) => (ids.any[s.index()].clone(), None),
        End::Outside(i) => (ids.stub[i].clone(), None),
    }
}

fn to_end(view: &View<'_>, ids: &Ids, from: End, to: End, targetless: bool) -> (String, Option<String>) {
    if targetless {
        return (from_end(view, ids, from).0, None);
    }
    match to {
        End::State(t) if view.is_container(t) => {
            let source = match from {
                End::State(s) | End::Any(s) => Some(s),
                End::Outside(_) => None,
            };
            // Arriving from inside its own box: at its initial dot (a re-entry), else its anchor.
            if source.is_some_and(|s| view.machine.is_ancestor_or_self(t, s)) {
                let st = view.state(t);
                if st.kind == StateKind::Compound && st.initial.is_some() {
                    return (ids.init[t.index()].clone(), None);
                }
                return (ids.anchor[t.index()].clone(), None);
            }
            (ids.anchor[t.index()].clone(), Some(ids.cluster[t.index()].clone()))
        }
        End::State(t) => (ids.node[t.index()].clone(), None),
        End::Any(t) => (ids.any[t.index()].clone(), None),
        End::Outside(i) => (ids.stub[i].clone(), None),
    }
}

/// A DOT quoted string.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text for an HTML-like label.
pub(crate) fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("<br/>"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A bold title and smaller lines under it.
fn html_title(title: &str, lines: &[String]) -> String {
    let mut out = format!("<b>{}</b>", html(title));
    for line in lines {
        let _ = write!(out, "<br/><font point-size=\"10\">{}</font>", html(line));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_and_html_labels_escape_what_dot_reads() {
        assert_eq!(quote("a \"b\" \\ c\nd"), "\"a \\\"b\\\" \\\\ c\\nd\"");
        assert_eq!(html("<a & \"b\">\nc"), "&lt;a &amp; &quot;b&quot;&gt;<br/>c");
    }
}
