//! What each actor slot runs: its definition, as plain data ([`Definition`], held by
//! [`crate::Slot::definition`]), so that a host that loads a stored IR runs the slot with the IR
//! alone: an Effect's kind and parts (argv, url, method, auth, ...), `idempotent`, its timeout and
//! the Held secrets it names; an Agent's model and the rest of its `agent({...})`; the Gate;
//! `fail()`; an Open body's lend manifest; a child Machine as its own IR ([`crate::Statechart`]).
//!
//! A definition holds what its front end read statically. A value the kit leaves to be bound is
//! [`Part::Open`]; a function whose body lowered is its [`Part::Expr`]; what could not be read
//! (an argv made by code, a mapper whose body did not lower) is kept as [`Part::Unknown`] with the
//! reason, never dropped: a host refuses to run such a slot, a check reads past it.
//!
//! Secrets: the IR names a Held secret by its name only ([`Part::Secret`], [`Effect::secrets`]),
//! never its value: the value is the host's, placed in the Effect that names it.

use crate::{FxIndexMap, Json, Name, Statechart};
use serde::{Deserialize, Serialize};

/// A slot's definition, by the kind of actor it is (serialized externally tagged:
/// `{ "effect": {...} }`, `{ "agent": {...} }`, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Definition {
    /// An Agent: `agent({...})` (a Machine's), a lent Agent as its lend manifest gives it, or an
    /// Agent a Chart mints in its `agents`.
    Agent(Agent),
    /// An Effect: `command`, `worktree()`, `http`, `push`, `dispatch`, `mcp`.
    Effect(Effect),
    /// The kit's Gate (`gate`, or `src: "gate"` with no actor of that name).
    Gate(Options),
    /// The kit's `fail()`: invoking it ends the run as a Failure with its input.
    Fail(Options),
    /// A child Machine: its own IR, lowered whole (one imported from another file of the
    /// Instance included), its `workspace()` options in [`Statechart::workspace`].
    Machine(Box<Statechart>),
    /// An Open body, `open(declaration, { input })`: it runs a Chart that its lend manifest
    /// admits. The parts it lends are slots of the same Machine, each with its definition.
    Open(Open),
    /// A slot whose actor the front end could not read (an actor made by code, a name that
    /// names no actor, xstate's `fromPromise(...)`), with the reason.
    Unknown { reason: String },
}

/// A value of a definition, as the front end read it: a JSON value, or what the kit makes of a
/// value that is no plain JSON (serialized externally tagged: `{ "value": "POST" }`, `"open"`,
/// `{ "secret": "jira" }`, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Part {
    /// A value known statically: a literal, or a zod schema as JSON Schema.
    Value(Json),
    /// The kit's `open`: left for a `customize()` or each run's door to bind.
    Open,
    /// `secret("NAME")`: a Held secret, by name only.
    Secret(Name),
    /// A call of the kit other than `secret` (`bearer(secret("jira"))`), its arguments as parts.
    Call { name: Name, args: Vec<Part> },
    /// An object holding a value that is no plain JSON (`{ url, token: secret("ops") }`), its
    /// entries in the order written.
    Object(FxIndexMap<Name, Part>),
    /// A list holding a value that is no plain JSON.
    Array(Vec<Part>),
    /// A function whose body lowered: evaluated when the slot runs, over the arguments the kit
    /// gives it (an http `request` mapper over the Effect's input, ...).
    Expr(crate::Expr),
    /// A value the front end could not read statically, with the reason (a function whose body
    /// did not lower, a value made by code).
    Unknown(String),
}

impl Part {
    /// The string, where the part is a string known statically.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Part::Value(Json::String(s)) => Some(s),
            _ => None,
        }
    }
}

/// A call's options object, each value a [`Part`], in the order written (empty where the call
/// has none).
pub type Options = FxIndexMap<Name, Part>;

/// An Agent's definition: the fields of `agent({...})`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Agent {
    /// Its model (`"anthropic/claude-haiku-5-5"`), or [`Part::Open`] for one a `customize()`
    /// binds; `None` where it states none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Part>,
    /// Its standing instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<Part>,
    /// Where its Turns run: `"none"`, `"read"` or `"write"` (the kit's default: `"write"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<Part>,
    /// Every other field it states (`mcp`, `thinkingLevel`, ...), as written.
    #[serde(default, skip_serializing_if = "FxIndexMap::is_empty")]
    pub options: Options,
}

/// An Effect's definition: what it does ([`EffectRun`], by kind) and how the host runs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Effect {
    /// Its kind and that kind's parts.
    pub run: EffectRun,
    /// May the host run it again after a restore that finds it unsettled? The kit's default:
    /// no, it settles `{ outcome: "unknown" }` (ADR-0067, at most once).
    pub idempotent: bool,
    /// Its `timeout` in milliseconds, as written; `None` where it sets none (the host's or the
    /// MCP server's default applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Part>,
    /// The Held secrets it names, by name, in order, each once: a `command`'s `secrets` list
    /// and every `secret("NAME")` among its parts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<Name>,
    /// Its call's options that no field above reads, as written.
    #[serde(default, skip_serializing_if = "FxIndexMap::is_empty")]
    pub options: Options,
    /// What of it is not known, by the part's name, with the reason (a lent Effect's `timeout`,
    /// which its lend manifest does not carry).
    #[serde(default, skip_serializing_if = "FxIndexMap::is_empty")]
    pub unread: FxIndexMap<Name, String>,
}

/// What an Effect does, by kind (serialized with its `kind`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum EffectRun {
    /// `command(argv, options)`: a program run in the Workspace.
    Command {
        argv: Argv,
        /// `pin`: the kit pins the program's image.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pin: bool,
    },
    /// `worktree({ expect })`: the cut, a new Worktree (its input: `path`, one of `branch` /
    /// `detach`, `from`).
    Worktree {
        /// `"new"` or `"existing"`; `None` where it states none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expect: Option<Part>,
    },
    /// `http({ method, url, input, auth, request, ... })`: a request.
    Http {
        /// `GET` where it states none.
        method: Part,
        /// `None` where it states none (a `file` body's, or one left open).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<Part>,
        /// Its input as JSON Schema (from the zod `input`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<Part>,
        /// `auth`: `bearer(secret("NAME"))`, ...
        #[serde(default, skip_serializing_if = "Option::is_none")]
        auth: Option<Part>,
        /// `request`: the mapper from its input to the request (`path`, `json`, ...).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<Part>,
    },
    /// `push({ slot, sign, squash, force, pin })`: a cut Worktree's branch to its Repo.
    Push {
        /// The Repo Slot it pushes to; `None` where it states none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slot: Option<Part>,
        sign: bool,
        squash: bool,
        force: bool,
        pin: bool,
    },
    /// `dispatch(workflow, { input, wait, target })`: a run of another Workflow.
    Dispatch {
        /// The callee, as `jr2 run` names it.
        workflow: Part,
        /// The slot's input as JSON Schema (checked against the callee's door).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<Part>,
        /// Does the Effect wait for the callee's run to end (its output the outcome)?
        wait: bool,
        /// A foreign Instance (`{ url, token: secret(...) }`, or open); `None`: this Instance.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Part>,
    },
    /// `mcp({ op, server, tool, input })`: a call to an MCP server of `jr2.config.ts`.
    Mcp {
        /// `call` (the default), `read` or `prompt`.
        op: Part,
        /// The server, by its name in the config's `mcp` block.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server: Option<Part>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool: Option<Part>,
        /// Its input as JSON Schema.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<Part>,
    },
}

impl EffectRun {
    /// The kit's name of the Effect's kind (`worktree` for a cut).
    pub fn kind(&self) -> &'static str {
        match self {
            EffectRun::Command { .. } => "command",
            EffectRun::Worktree { .. } => "worktree",
            EffectRun::Http { .. } => "http",
            EffectRun::Push { .. } => "push",
            EffectRun::Dispatch { .. } => "dispatch",
            EffectRun::Mcp { .. } => "mcp",
        }
    }
}

/// A command's argv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Argv {
    /// Its elements, as written.
    List(Vec<ArgvItem>),
    /// The kit's `open`: an argv a `customize()` binds.
    Open,
    /// An argv the front end could not read (made by code), with the reason.
    Unknown(String),
}

/// One argv element: a literal, `arg("name")` (a placeholder the Effect's input fills), or one
/// the front end could not read (serialized as the lend manifest writes them: `"npm"`,
/// `{ "arg": "file" }`, `{ "unknown": "<reason>" }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ArgvItem {
    Literal(String),
    Arg { arg: Name },
    Unknown { unknown: String },
}

/// An Open body's definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Open {
    /// Its lend manifest (its declaration — `lends`, `allows`, `ceilings` — and what it lends
    /// now), what the door admits a Chart against.
    pub manifest: kit::LendManifest,
    /// Its run input as JSON Schema (the second argument's `input`), where it states one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Part>,
}

/// A Machine's `workspace(body, options)`: the Sandbox it runs in ([`Statechart::workspace`]),
/// its options with any `customize()` layered over them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workspace {
    /// The options as written: `repos` (each Repo Slot's binding: a url, `{ url, ref }`, open, a
    /// mapper), `image`, `resources`, `secrets`, `effector`, `workGroup`, ...
    #[serde(default, skip_serializing_if = "FxIndexMap::is_empty")]
    pub options: Options,
    /// Why the options are not read, where they are no object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
}
