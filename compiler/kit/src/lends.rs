//! The lend manifest: what the door knows about one Open body, as data (`--lends LENDS.json`).
//!
//! It carries the declaration (`lends`, `allows`, `ceilings`), the parts lent now, and the door's
//! options (`inputKeys`, `repoSlots`). See `CONTRACT.md`, "The lend manifest".

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Ordered maps keep the manifest's own order in every line the door writes.
pub(crate) type IndexMap<V> = indexmap::IndexMap<String, V>;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LendManifest {
    pub declaration: Declaration,
    #[serde(default)]
    pub lent: Lent,
    /// The keys of the Open body's run input; absent means unknown, and `input.<key>` references
    /// are not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_keys: Option<Vec<String>>,
    /// The Repo Slots of the Workspace around the Open body; absent means unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo_slots: Option<Vec<String>>,
}

impl LendManifest {
    /// The guards the body declares and lends now, in the declaration's order.
    pub fn lent_guards(&self) -> Vec<&String> {
        lent_now(&self.declaration.lends.guards, &self.lent.guards)
    }

    /// The actions the body declares and lends now, in the declaration's order.
    pub fn lent_actions(&self) -> Vec<&String> {
        lent_now(&self.declaration.lends.actions, &self.lent.actions)
    }

    /// The delays the body declares and lends now, in the declaration's order.
    pub fn lent_delays(&self) -> Vec<&String> {
        lent_now(&self.declaration.lends.delays, &self.lent.delays)
    }
}

/// The declared names that are lent now.
/// A literal duration in milliseconds, as the kit writes one: digits, then `ms`, `s`, `m` or `h`
/// (none: milliseconds): `"500"`, `"500ms"`, `"30s"`, `"5m"`, `"1h"`. `None` for any other text
/// (`"30 parsecs"`) or one past `u64` milliseconds.
pub fn duration_ms(text: &str) -> Option<u64> {
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    if digits == 0 {
        return None;
    }
    let n: u64 = text[..digits].parse().ok()?;
    let unit = match &text[digits..] {
        "" | "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        _ => return None,
    };
    n.checked_mul(unit)
}

/// The message for a `ceilings.wallClock` that is no duration.
pub fn wall_clock_refusal(shown: &str) -> String {
    format!("`ceilings.wallClock` is {shown}, which is no duration: write digits and a unit, such as \"30m\", \"90s\", \"2h\" or \"500ms\"")
}

/// `ceilings.wallClock` read: a duration ([`duration_ms`]), else the manifest is refused.
fn wall_clock<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = Option::<String>::deserialize(d)?;
    match &text {
        Some(t) if duration_ms(t).is_none() => Err(serde::de::Error::custom(wall_clock_refusal(&format!("{t:?}")))),
        _ => Ok(text),
    }
}

fn lent_now<'a>(declared: &'a [String], lent: &[String]) -> Vec<&'a String> {
    declared.iter().filter(|n| lent.contains(n)).collect()
}

/// An Open body's declaration: what it lends, what it allows, its ceilings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Declaration {
    #[serde(default)]
    pub lends: Lends,
    #[serde(default)]
    pub allows: Allows,
    #[serde(default)]
    pub ceilings: Ceilings,
}

/// The names an Open body lends to its Charts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lends {
    #[serde(default)]
    pub agents: Vec<String>,
    #[serde(default)]
    pub effects: Vec<String>,
    #[serde(default)]
    pub machines: Vec<String>,
    #[serde(default)]
    pub guards: Vec<String>,
    #[serde(default)]
    pub actions: Vec<String>,
    #[serde(default)]
    pub delays: Vec<String>,
    /// The kit's Gate.
    #[serde(default)]
    pub gate: bool,
    /// The kit's `fail()`.
    #[serde(default)]
    pub fail: bool,
}

/// What a Chart's own Agents may use.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Allows {
    #[serde(default)]
    pub models: Vec<String>,
    #[serde(default)]
    pub workspace: Vec<WorkspaceAccess>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum WorkspaceAccess {
    None,
    Read,
    Write,
}

impl WorkspaceAccess {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkspaceAccess::None => "none",
            WorkspaceAccess::Read => "read",
            WorkspaceAccess::Write => "write",
        }
    }
}

/// The ceilings of one Open body run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ceilings {
    /// Agent Turns, in all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<u64>,
    /// A duration such as `"30m"` ([`duration_ms`]); a manifest with any other text is refused.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "wall_clock")]
    #[schemars(with = "Option<String>")]
    pub wall_clock: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transitions: Option<u64>,
    /// Agents active at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fan_out: Option<u64>,
    /// The Chart text's size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// The parts the body lends now, by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lent {
    #[serde(default)]
    pub agents: IndexMap<AgentDef>,
    #[serde(default)]
    pub effects: IndexMap<EffectParts>,
    #[serde(default)]
    pub machines: IndexMap<serde_json::Value>,
    #[serde(default)]
    pub guards: Vec<String>,
    #[serde(default)]
    pub actions: Vec<String>,
    #[serde(default)]
    pub delays: Vec<String>,
}

/// A lent Agent's definition, as far as the door reads it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
}

/// A lent Effect's parts, by kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum EffectParts {
    /// A program run in the Workspace, or a cut (`worktree()`) when `cut` is set.
    Command {
        /// Absent: an Open argv nobody bound; the door cannot read its input keys.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        argv: Option<Vec<ArgvPart>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cut: Option<Cut>,
    },
    Http {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        method: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<serde_json::Value>,
    },
    Push {
        #[serde(default)]
        force: bool,
    },
    Dispatch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        workflow: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<serde_json::Value>,
    },
    Mcp {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        op: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<serde_json::Value>,
    },
}

/// One argv element: a literal, or `{ "arg": name }`, a slot the Effect's input fills.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ArgvPart {
    Literal(String),
    Arg { arg: String },
}

/// A cut's static settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cut {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<CutExpect>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CutExpect {
    New,
    Existing,
}

/// What an Effect's input takes: required keys, optional keys, and keys of which exactly one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InputShape {
    pub required: Vec<String>,
    pub optional: Vec<String>,
    pub one_of: Option<Vec<String>>,
}

impl InputShape {
    /// Every key the input may have.
    pub fn keys(&self) -> Vec<String> {
        let mut keys = self.required.clone();
        keys.extend(self.one_of.iter().flatten().cloned());
        keys.extend(self.optional.iter().cloned());
        keys
    }
}

fn schema_shape(schema: &serde_json::Value) -> (Vec<String>, Vec<String>) {
    let required: Vec<String> = schema
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| r.iter().filter_map(|k| k.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    // A long `required` through a set, a short one scanned.
    let set: std::collections::HashSet<&str> =
        if required.len() > 16 { required.iter().map(String::as_str).collect() } else { Default::default() };
    let is_required = |k: &str| if required.len() > 16 { set.contains(k) } else { required.iter().any(|r| r == k) };
    let optional = schema
        .get("properties")
        .and_then(|p| p.as_object())
        .map(|p| p.keys().filter(|k| !is_required(k)).cloned().collect())
        .unwrap_or_default();
    (required, optional)
}

impl EffectParts {
    pub fn kind(&self) -> &'static str {
        match self {
            EffectParts::Command { .. } => "command",
            EffectParts::Http { .. } => "http",
            EffectParts::Push { .. } => "push",
            EffectParts::Dispatch { .. } => "dispatch",
            EffectParts::Mcp { .. } => "mcp",
        }
    }

    pub fn cut(&self) -> Option<&Cut> {
        match self {
            EffectParts::Command { cut, .. } => cut.as_ref(),
            _ => None,
        }
    }

    /// The input shape (see `docs/reference/effects.md`), or `None` where the door cannot read
    /// one: a command whose argv nobody bound, a dispatch with no `input` schema.
    pub fn input_shape(&self) -> Option<InputShape> {
        let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match self {
            EffectParts::Command { cut: Some(_), .. } => Some(InputShape {
                required: strings(&["path"]),
                optional: strings(&["from"]),
                one_of: Some(strings(&["branch", "detach"])),
            }),
            EffectParts::Command { argv: Some(argv), cut: None } => {
                // Each slot once, in argv order: a short argv scanned, a long one through a set.
                let mut required: Vec<String> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for part in argv {
                    if let ArgvPart::Arg { arg } = part {
                        let new = if argv.len() <= 16 { !required.contains(arg) } else { seen.insert(arg.as_str()) };
                        if new {
                            required.push(arg.clone());
                        }
                    }
                }
                Some(InputShape { required, optional: strings(&["worktree"]), one_of: None })
            }
            EffectParts::Command { argv: None, cut: None } => None,
            EffectParts::Http { input, .. } => {
                let (required, optional) = input.as_ref().map(schema_shape).unwrap_or_default();
                Some(InputShape { required, optional, one_of: None })
            }
            EffectParts::Push { .. } => {
                Some(InputShape { required: vec![], optional: strings(&["worktree"]), one_of: None })
            }
            EffectParts::Dispatch { input: None, .. } => None,
            EffectParts::Dispatch { input: Some(schema), .. } => {
                let (required, optional) = schema_shape(schema);
                Some(InputShape { required, optional, one_of: None })
            }
            EffectParts::Mcp { input, .. } => {
                let (required, optional) = input.as_ref().map(schema_shape).unwrap_or_default();
                Some(InputShape { required, optional, one_of: None })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_a_wall_clock_that_is_none() {
        for (text, ms) in [("500", Some(500)), ("500ms", Some(500)), ("30s", Some(30_000)), ("5m", Some(300_000))] {
            assert_eq!(duration_ms(text), ms, "{text}");
        }
        for text in ["", "m", "30 parsecs", "30 m", "1.5h", "-1s", "99999999999999999999h"] {
            assert_eq!(duration_ms(text), None, "{text}");
        }
        let manifest = |w: &str| {
            serde_json::from_str::<LendManifest>(&format!(
                r#"{{ "declaration": {{ "ceilings": {{ "wallClock": {w} }} }} }}"#
            ))
        };
        assert_eq!(manifest("\"30m\"").expect("a duration").declaration.ceilings.wall_clock.as_deref(), Some("30m"));
        let refused = manifest("\"30 parsecs\"").expect_err("no duration").to_string();
        assert!(refused.starts_with("`ceilings.wallClock` is \"30 parsecs\", which is no duration"), "{refused}");
    }
}
