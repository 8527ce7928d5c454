//! The lend manifest: what the door knows about one Open body, as data (`--lends LENDS.json`).
//!
//! It carries the declaration (`lends`, `allows`, `ceilings`), the parts lent now, and the door's
//! options (`inputKeys`, `repoSlots`). See `CONTRACT.md`, "The lend manifest".

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Ordered maps keep the manifest's own order in every line the door writes.
pub type IndexMap<V> = indexmap::IndexMap<String, V>;

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
    /// A duration such as `"30m"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    let optional = schema
        .get("properties")
        .and_then(|p| p.as_object())
        .map(|p| p.keys().filter(|k| !required.contains(k)).cloned().collect())
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
                let mut required: Vec<String> = Vec::new();
                for part in argv {
                    if let ArgvPart::Arg { arg } = part {
                        if !required.contains(arg) {
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
