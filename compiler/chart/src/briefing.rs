//! The Chart briefing (the seed's `chartBriefing`, ADR-0070): jr2's text on how a Chart runs, for
//! whoever writes one. It is the grammar's root description, so it rides the schema a planner's
//! pick gets as its tool parameters.
//!
//! Where the seed shows a sentence, it is here word for word: the opening, `agents`, `gate`,
//! `fail`, the cut, and the start of the picks. The seed does not show how it builds `lent` and
//! whether the Chart mints, nor the end of the text; those are reconstructed (see each comment).

use crate::grammar::{FAILURE_GUARD, READY_GUARD};
use kit::lends::Declaration;

/// The seed's `Narrow`, as far as the briefing reads it.
struct Narrow<'a> {
    lent_agents: &'a [String],
    lends_effects: bool,
    gate: bool,
    fail: bool,
    /// The Open body allows no model, so this Chart cannot mint an Agent.
    mints_none: bool,
}

impl<'a> Narrow<'a> {
    fn of(decl: &'a Declaration) -> Self {
        Narrow {
            lent_agents: &decl.lends.agents,
            lends_effects: !decl.lends.effects.is_empty(),
            gate: decl.lends.gate,
            fail: decl.lends.fail,
            mints_none: decl.allows.models.is_empty(),
        }
    }
}

/// The briefing, whole (`None`) or narrowed to one Open body's declaration.
pub fn chart_briefing(decl: Option<&Declaration>) -> String {
    let narrow = decl.map(Narrow::of);
    let narrow = narrow.as_ref();

    // Reconstructed: the seed's branch whose text is "This Chart mints no Agent of its own" is
    // taken where the Chart cannot mint one: narrowed to an Open body that allows no model. The
    // whole briefing cannot know, so it names both ways.
    let mints_none = narrow.is_some_and(|n| n.mints_none);
    // Reconstructed: the lent Agents' names in parentheses, where a narrowed briefing knows some.
    let lent = match narrow {
        Some(n) if !n.lent_agents.is_empty() => format!(" ({})", n.lent_agents.join(", ")),
        _ => String::new(),
    };

    // The seed's `gate` paragraph. Its condition is not shown; it is read as the `fail` one is
    // written (`narrow?.fail`): where a narrowed body lends it.
    let gate = if narrow.is_some_and(|n| n.gate) {
        " `src: \"gate\"` is the kit's Gate: the Chart waits there for an outside answer (a human, a webhook), \
one of its `events` with `audience: \"external\"`, not an Agent's Turn."
    } else {
        ""
    };
    let fail = if narrow.is_some_and(|n| n.fail) {
        format!(
            " `src: \"fail\"` with `input: {{ reason }}` ends the run as a Failure: work that did not succeed, with \
the reason for a person; an `onError` with the guard `{FAILURE_GUARD}` catches it. A final state means done."
        )
    } else {
        String::new()
    };
    // A declaration is names alone, so this says "a lent Effect that cuts".
    let cut = if narrow.is_none_or(|n| n.lends_effects) {
        format!(
            " In a Workspace with Repo Slots, work happens in a Worktree. A lent Effect that cuts one takes `input: {{ path: \"/work/<slot>/<name>\", \
branch: \"<branch>\" }}`: `<name>` is one folder name that you choose, and it is not the branch. The Open body sets the cut's `expect`, \
so its input has no `expect`. Give its `onDone` two edges: the guard \
`{READY_GUARD}` on the one that goes on, and one with no guard for a refused cut. Then write that same literal path as `cwd` in an \
Agent's `input` and as `worktree` in an Effect's `input`: each Turn and each Effect there must say where it works. \
The slot's folder `/work/<slot>` is not a Worktree."
        )
    } else {
        String::new()
    };
    let agents = if mints_none {
        format!(
            "A state runs an Agent with `invoke: {{ src, input: {{ prompt }} }}`: `src` is a lent Agent's name{lent}. \
This Chart mints no Agent of its own: there is no `agents`."
        )
    } else {
        // Reconstructed: the seed shows this branch's end only.
        format!(
            "A state runs an Agent with `invoke: {{ src, input: {{ prompt }} }}`: `src` is a lent Agent's name{lent} or \
a key of `agents`; a lent Agent needs no entry in `agents`, which mints new ones."
        )
    };
    let opening = format!(
        "A Chart is a workflow written as data: states, the events its Agents pick{}. ",
        if mints_none { "" } else { ", and the Agents it mints" }
    );

    let mut text = opening;
    text.push_str(&agents);
    text.push_str(gate);
    text.push_str(&fail);
    text.push_str(&cut);
    text.push_str(
        " An Agent's Turn ends only when it \
picks one of the Chart's `events`: declare each pick in `events` with an `input` schema \
(`{ \"type\": \"object\", \"properties\": { \"<field>\": { \"type\": \"string\" } }, \"required\": [\"<field>\"] }`; a field not in \
`required` may be absent), and ",
    );
    // Reconstructed from here on: the seed does not show the end of the text.
    text.push_str(
        "route it with `on` in the state that invokes the Agent or in a state above it: \
`on: { \"<event>\": \"<target>\" }`, or a list of transitions tried in order, the first whose `guard` holds taken. \
Where two parties can send one event, route by the sender with the guard \
`{ \"type\": \"jr2.sentBy\", \"params\": { \"id\": \"<party>\" } }`: a party is an Agent's name or a Gate's invoke id. \
An Agent's invoke has no `onDone` (its Turn ends with a pick), and an Agent runs one Turn at a time; \
an Effect or a Machine ends with `onDone`, or `onError` when it fails. \
A value reads the run with `{{input.<key>}}`, `{{context.<path>}}` or `{{event.<field>}}` inside a string, \
or `{ \"$ref\": \"context.<path>\" }` as a whole value; `assign` sets `context`. \
The run is done when the Chart reaches a top-level state with `type: \"final\"`.",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use kit::lends::{Allows, Lends, WorkspaceAccess};

    fn decl(lends: Lends, models: &[&str]) -> Declaration {
        Declaration {
            lends,
            allows: Allows {
                models: models.iter().map(|s| s.to_string()).collect(),
                workspace: vec![WorkspaceAccess::None, WorkspaceAccess::Read],
            },
            ..Declaration::default()
        }
    }

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn whole() {
        insta::assert_snapshot!(chart_briefing(None));
    }

    #[test]
    fn narrowed_gate_fail_effects() {
        let lends = Lends {
            agents: strings(&["writer", "critic"]),
            effects: strings(&["tests", "cut"]),
            guards: strings(&["green"]),
            gate: true,
            fail: true,
            ..Lends::default()
        };
        insta::assert_snapshot!(chart_briefing(Some(&decl(lends, &["anthropic/claude-haiku-5-5"]))));
    }

    #[test]
    fn narrowed_nothing_lent() {
        insta::assert_snapshot!(chart_briefing(Some(&decl(Lends::default(), &[]))));
    }

    #[test]
    fn seed_sentences_are_where_they_belong() {
        let whole = chart_briefing(None);
        assert!(whole.starts_with(
            "A Chart is a workflow written as data: states, the events its Agents pick, and the Agents it mints. "
        ));
        assert!(whole.contains("A lent Effect that cuts one"));
        assert!(!whole.contains("`src: \"fail\"`"));
        let none = chart_briefing(Some(&decl(Lends::default(), &[])));
        assert!(none.contains("This Chart mints no Agent of its own: there is no `agents`."));
        assert!(!none.contains("Worktree. A lent Effect"));
    }
}
