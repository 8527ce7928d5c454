use crate::door::Chart;
use crate::rules::{Ctx, Sink};
use base::path::names;
use chart::lower::SrcClass;
use diagnostics::declare_rule;
use ir::SlotKind;
use syntax::json::Json;

use super::input_shape::{inputs, repo_slots, InputAt};

declare_rule! {
    /// Refuses an Agent invoke whose input is not a Turn's Frame and Dials (`prompt`, `cwd`, ...).
    ///
    /// A Turn's Frame and Dials are `prompt` (a string), and optionally `cwd` (a string),
    /// `continue: true`, a `model` the Open body allows, and a `thinkingLevel`.
    ///
    /// ## Why
    /// An Agent invoke starts a Turn (ADR-0057). Its input is all the Turn reads: the prompt, where
    /// it works, whether it goes on with the Agent's conversation, and its model and thinking
    /// level. Any other key would be dropped. Where the Workspace has Repo Slots, a Turn of an
    /// Agent that works in the Workspace (its `workspace` is not `"none"`) says where: `cwd` is a
    /// Worktree, or `"/work"`.
    ///
    /// The seed gives the lines for `prompt` that is not a string, `cwd` that is not a string, a
    /// missing `cwd` under Repo Slots, and `continue`. The lines for an input that is not an
    /// object, another key, a missing `prompt`, `model` and `thinkingLevel` are ours, in the same
    /// voice; the thinking levels are off, minimal, low, medium, high, xhigh.
    ///
    /// ## Example
    /// With `"repoSlots": ["app"]`:
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Fix the tests.", "continue": false } } }
    /// ```
    /// is refused with two lines: `` states.a.invoke.input: the lent Agent "writer" works under a
    /// Workspace with Repo Slots, and a Turn there says where: `cwd` is a Worktree, or "/work" ``
    /// and `` states.a.invoke.input.continue: `continue` is true or absent ``. The other lines:
    /// - `states.a.invoke.input: the lent Agent "writer" takes an object: prompt, and optionally
    ///   cwd, continue, model, thinkingLevel` (no input, or not an object; ours);
    /// - `states.a.invoke.input.tools: "tools" is not an Agent's input; it takes prompt, cwd,
    ///   continue, model, thinkingLevel` (ours);
    /// - `states.a.invoke.input: the lent Agent "writer" needs a prompt, a string` (ours);
    /// - `states.a.invoke.input.prompt: a prompt is a string (placeholders inside it are fine)`;
    /// - `states.a.invoke.input.cwd: a cwd is a string`;
    /// - `states.a.invoke.input.model: "openai/gpt-9" is not a model this Open body allows;
    ///   allowed models: anthropic/claude-haiku-5-5` (ours);
    /// - `states.a.invoke.input.thinkingLevel: a thinkingLevel is one of off, minimal, low,
    ///   medium, high, xhigh` (ours).
    ///
    /// ## Use instead
    /// ```json
    /// { "invoke": { "src": "writer", "input": { "prompt": "Fix the tests.", "cwd": "/work/app/fix-1" } } }
    /// ```
    pub static AGENT_INPUT = { code: "agent-input", rule: Some(8), severity: Error };
}

/// The keys of an Agent invoke's input.
pub const AGENT_INPUT_KEYS: [&str; 5] = ["prompt", "cwd", "continue", "model", "thinkingLevel"];

/// The thinking levels a Turn takes.
pub const THINKING_LEVELS: [&str; 6] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/// The seed's `worksInWorkspace`: does this Agent read `/work`? A `workspace: "none"` one frames
/// nothing.
pub fn works_in_workspace(cx: &Ctx<Chart>, at: &InputAt) -> bool {
    let src = at.inv.src;
    let workspace = if at.class == SrcClass::Minted {
        cx.chart.get("agents").and_then(|a| a.get(src)).and_then(|a| a.get("workspace")).and_then(Json::as_str)
    } else {
        cx.manifest.and_then(|m| m.lent.agents.get(src)).and_then(|a| a.workspace.as_deref())
    };
    workspace != Some("none")
}

/// The Agent invokes rule 8 reads: lent and minted.
pub fn agent_inputs<'c, 'a>(cx: &'c Ctx<Chart<'a>>) -> impl Iterator<Item = &'c InputAt<'a>> {
    inputs(cx).iter().filter(|at| matches!(at.class, SrcClass::Lent(SlotKind::Agent) | SrcClass::Minted))
}

pub(crate) fn check(cx: &Ctx<Chart>, sink: &mut Sink) {
    let Some(m) = cx.manifest else { return };
    let allowed = &m.declaration.allows.models;
    for at in agent_inputs(cx) {
        let who = match at.class {
            SrcClass::Minted => format!("the minted Agent \"{}\"", at.inv.src),
            _ => format!("the lent Agent \"{}\"", at.inv.src),
        };
        if !at.is_object() {
            sink.line(
                &AGENT_INPUT,
                at.span(),
                &at.ipath,
                format!("{who} takes an object: prompt, and optionally cwd, continue, model, thinkingLevel"),
            );
            continue;
        }
        for (key, value) in at.given_values() {
            if !AGENT_INPUT_KEYS.contains(&key) {
                sink.line(
                    &AGENT_INPUT,
                    value.span,
                    &at.key_path(key),
                    format!("\"{key}\" is not an Agent's input; it takes {}", AGENT_INPUT_KEYS.join(", ")),
                );
            }
        }
        match at.value("prompt") {
            None => {
                sink.line(&AGENT_INPUT, at.span(), &at.ipath, format!("{who} needs a prompt, a string"));
            }
            Some(p) if p.as_str().is_none() => {
                sink.line(
                    &AGENT_INPUT,
                    p.span,
                    &at.key_path("prompt"),
                    "a prompt is a string (placeholders inside it are fine)",
                );
            }
            Some(_) => {}
        }
        let cwd = at.value("cwd");
        if let Some(c) = cwd.filter(|c| c.as_str().is_none()) {
            sink.line(&AGENT_INPUT, c.span, &at.key_path("cwd"), "a cwd is a string");
        }
        if cwd.is_none() && repo_slots(cx).is_some_and(|s| !s.is_empty()) && works_in_workspace(cx, at) {
            sink.line(
                &AGENT_INPUT,
                at.span(),
                &at.ipath,
                format!("{who} works under a Workspace with Repo Slots, and a Turn there says where: `cwd` is a Worktree, or \"/work\""),
            );
        }
        if let Some(c) = at.value("continue").filter(|c| c.as_bool() != Some(true)) {
            sink.line(&AGENT_INPUT, c.span, &at.key_path("continue"), "`continue` is true or absent");
        }
        if let Some(model) = at.value("model") {
            let text = match model.as_str() {
                None => "a model is a string".to_string(),
                Some(name) if !allowed.iter().any(|a| a == name) => {
                    format!("\"{name}\" is not a model this Open body allows; allowed models: {}", names(allowed))
                }
                Some(_) => String::new(),
            };
            if !text.is_empty() {
                sink.line(&AGENT_INPUT, model.span, &at.key_path("model"), text);
            }
        }
        if let Some(level) = at.value("thinkingLevel") {
            if !level.as_str().is_some_and(|l| THINKING_LEVELS.contains(&l)) {
                sink.line(
                    &AGENT_INPUT,
                    level.span,
                    &at.key_path("thinkingLevel"),
                    format!("a thinkingLevel is one of {}", THINKING_LEVELS.join(", ")),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::input_shape::testing::{chart_with, lends_with, lines_of};

    fn lines(invoke: &str, extra: &str) -> Vec<String> {
        lines_of("agent-input", &chart_with(invoke), &lends_with("", extra))
    }

    const SLOTS: &str = r#""repoSlots": ["app"]"#;

    #[test]
    fn refuses_an_input_that_is_not_an_object() {
        for invoke in [
            r#"{ "src": "writer" }"#,
            r#"{ "src": "writer", "input": "Draft." }"#,
            r#"{ "src": "writer", "input": { "$ref": "context.i" } }"#,
        ] {
            assert_eq!(
                lines(invoke, ""),
                ["agent-input: states.a.invoke.input: the lent Agent \"writer\" takes an object: prompt, and optionally cwd, continue, model, thinkingLevel"]
            );
        }
    }

    #[test]
    fn refuses_other_keys_and_a_missing_prompt() {
        assert_eq!(
            lines(r#"{ "src": "writer", "input": { "tools": "all" } }"#, ""),
            [
                "agent-input: states.a.invoke.input.tools: \"tools\" is not an Agent's input; it takes prompt, cwd, continue, model, thinkingLevel",
                "agent-input: states.a.invoke.input: the lent Agent \"writer\" needs a prompt, a string",
            ]
        );
    }

    #[test]
    fn refuses_wrong_values() {
        assert_eq!(
            lines(
                r#"{ "src": "writer", "input": { "prompt": 3, "cwd": 1, "continue": false, "model": "openai/gpt-9", "thinkingLevel": "max" } }"#,
                ""
            ),
            [
                "agent-input: states.a.invoke.input.prompt: a prompt is a string (placeholders inside it are fine)",
                "agent-input: states.a.invoke.input.cwd: a cwd is a string",
                "agent-input: states.a.invoke.input.continue: `continue` is true or absent",
                "agent-input: states.a.invoke.input.model: \"openai/gpt-9\" is not a model this Open body allows; allowed models: anthropic/claude-haiku-5-5",
                "agent-input: states.a.invoke.input.thinkingLevel: a thinkingLevel is one of off, minimal, low, medium, high, xhigh",
            ]
        );
        assert_eq!(
            lines(r#"{ "src": "writer", "input": { "prompt": "x", "model": 5 } }"#, ""),
            ["agent-input: states.a.invoke.input.model: a model is a string"]
        );
    }

    #[test]
    fn requires_cwd_under_repo_slots_for_an_agent_in_the_workspace() {
        assert_eq!(
            lines(r#"{ "src": "writer", "input": { "prompt": "Fix." } }"#, SLOTS),
            ["agent-input: states.a.invoke.input: the lent Agent \"writer\" works under a Workspace with Repo Slots, and a Turn there says where: `cwd` is a Worktree, or \"/work\""]
        );
        // `reader` has `workspace: "none"`.
        assert!(lines(r#"{ "src": "reader", "input": { "prompt": "Read." } }"#, SLOTS).is_empty());
        assert!(lines(r#"{ "src": "writer", "input": { "prompt": "Fix." } }"#, r#""repoSlots": []"#).is_empty());
        assert!(lines(r#"{ "src": "writer", "input": { "prompt": "Fix.", "cwd": "/work" } }"#, SLOTS).is_empty());
    }

    #[test]
    fn names_a_minted_agent() {
        let chart = r#"{ "initial": "a",
          "agents": { "critic": { "model": "anthropic/claude-haiku-5-5", "instructions": "You critique.", "workspace": "read" },
                      "muse": { "model": "anthropic/claude-haiku-5-5", "instructions": "You muse.", "workspace": "none" } },
          "states": { "a": { "invoke": [{ "src": "critic", "input": { "prompt": "Look." } }, { "src": "muse", "input": { "prompt": "Think." } }],
                             "on": { "next": "done" } },
                      "done": { "type": "final" } } }"#;
        assert_eq!(
            lines_of("agent-input", chart, &lends_with("", SLOTS)),
            ["agent-input: states.a.invoke.0.input: the minted Agent \"critic\" works under a Workspace with Repo Slots, and a Turn there says where: `cwd` is a Worktree, or \"/work\""]
        );
    }

    #[test]
    fn admits_a_full_turn() {
        assert!(lines(
            r#"{ "src": "writer", "input": { "prompt": "Go on with {{context.topic}}.", "cwd": "/work/app/fix-1", "continue": true, "model": "anthropic/claude-haiku-5-5", "thinkingLevel": "high" } }"#,
            SLOTS
        )
        .is_empty());
    }
}
