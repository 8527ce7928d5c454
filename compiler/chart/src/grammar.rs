//! The Chart grammar as Rust types: the seed's `ChartText` and its parts (`chart.ts`).
//!
//! These types are the single source of the JSON Schema (`chart::schema`, generated with
//! schemars, Draft 2020-12): their doc comments are its descriptions. Every object is strict
//! (`deny_unknown_fields`, `additionalProperties: false`). A few parts have hand-written schemas
//! where a derive cannot say it: names (a pattern and a length), maps keyed by names, delays,
//! context paths, and templates (any JSON, where `{ "$ref": ... }` is exactly one key).
//!
//! The rule `chart-grammar` (`rules::chart::grammar`) checks the spanned JSON tree against this
//! grammar and accepts exactly what the schema accepts; a test holds the two together.
//!
//! Some types are newtypes only so that the schema has one `$defs` entry per narrowable part:
//! `chart_schema_for` replaces [`Src`], [`GuardName`], [`ParamGuardName`], [`ActionName`],
//! [`Delay`], [`Model`] and [`Workspace`] with the names one Open body lends or allows.

use indexmap::IndexMap;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The pattern of a name: a state key, an event name, an Agent's name, an invoke id.
pub(crate) const NAME_PATTERN: &str = "^[A-Za-z_][A-Za-z0-9_-]*$";
/// The longest name, in characters.
pub(crate) const NAME_MAX: usize = 64;
/// The pattern of a duration: integer milliseconds, or an integer with `ms`, `s`, `m` or `h`.
pub(crate) const DURATION_PATTERN: &str = "^[0-9]+(ms|s|m|h)?$";
/// The pattern of a context path without its `context.` root: dot-separated segments, the first
/// an identifier.
pub(crate) const CONTEXT_PATH_PATTERN: &str = "^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z0-9_$]+)*$";
/// The kit's routing guard (ADR-0015): `{ "type": "jr2.sentBy", "params": { "id": party } }`.
pub const SENT_BY: &str = "jr2.sentBy";
/// The kit's test for a Failure on an `onError` (ADR-0073).
pub const FAILURE_GUARD: &str = "jr2.failure";
/// The kit's test for a cut that settled `ready`.
pub const READY_GUARD: &str = "jr2.ready";

/// Is `s` a name: `^[A-Za-z_][A-Za-z0-9_-]*$`, at most 64 characters?
pub fn is_name(s: &str) -> bool {
    // Every byte of a name is ASCII: its length in bytes is its length in characters, and a
    // string of more bytes than that is no name whatever it holds.
    let bytes = s.as_bytes();
    bytes.len() <= NAME_MAX
        && matches!(bytes.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && bytes[1..].iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
}

/// Is `s` a duration: digits, then optionally `ms`, `s`, `m` or `h`?
pub(crate) fn is_duration(s: &str) -> bool {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(&s[digits..], "" | "ms" | "s" | "m" | "h")
}

/// Is `s` a delay: a name (a lent delay) or a duration?
pub fn is_delay(s: &str) -> bool {
    is_name(s) || is_duration(s)
}

/// Is `s` a context path without the `context.` root, like `round` or `ticket.notes`?
pub fn is_context_path(s: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut segments = s.split('.');
    let first = segments.next().unwrap_or("");
    let first_ok = matches!(first.chars().next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && first.chars().all(ident);
    first_ok && segments.all(|seg| !seg.is_empty() && seg.chars().all(ident)) && !s.starts_with("context.")
}

const NAME_DESCRIPTION: &str = "A name: a letter or `_`, then letters, digits, `_` or `-`; at most 64 characters. \
It has no `.`: xstate joins state keys with dots.";

// --- names and maps ---------------------------------------------------------------------------

/// A name (state keys, event names, Agent names, invoke ids): `^[A-Za-z_][A-Za-z0-9_-]*$`, at most
/// 64 characters. A state key has no `.`, which xstate uses to join a state's path.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Name(pub(crate) String);

impl JsonSchema for Name {
    fn schema_name() -> Cow<'static, str> {
        "Name".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": NAME_PATTERN,
            "maxLength": NAME_MAX,
            "description": NAME_DESCRIPTION,
        })
    }
}

/// A map keyed by names, in the text's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct NameMap<V>(pub(crate) IndexMap<String, V>);

impl<V: JsonSchema> JsonSchema for NameMap<V> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("NameMap_{}", V::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "propertyNames": generator.subschema_for::<Name>(),
            "additionalProperties": generator.subschema_for::<V>(),
        })
    }
}

/// The states of a Chart or of a compound or parallel state: at least one, keyed by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct States(pub(crate) IndexMap<String, State>);

impl JsonSchema for States {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "States".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "The states, by key: at least one.",
            "minProperties": 1,
            "propertyNames": generator.subschema_for::<Name>(),
            "additionalProperties": generator.subschema_for::<State>(),
        })
    }
}

/// `on`: an event's name (a Chart event, or a mechanism event such as `agent.fault`) to its
/// transitions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct On(pub(crate) IndexMap<String, Transitions>);

impl JsonSchema for On {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "On".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "An event's name to its transitions, in xstate's order: one of this Chart's `events`, or a mechanism event such as `agent.fault`.",
            "propertyNames": { "minLength": 1 },
            "additionalProperties": generator.subschema_for::<Transitions>(),
        })
    }
}

/// A delay: a lent delay's name, or a duration (`"500ms"`, `"30s"`, `"5m"`, `"1h"`, or integer
/// milliseconds like `"1000"`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Delay(pub(crate) String);

impl JsonSchema for Delay {
    fn schema_name() -> Cow<'static, str> {
        "Delay".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A lent delay's name, or a duration: \"500ms\", \"30s\", \"5m\", \"1h\", or integer milliseconds like \"1000\".",
            "anyOf": [
                generator.subschema_for::<Name>(),
                { "type": "string", "pattern": DURATION_PATTERN },
            ],
        })
    }
}

/// `after`: a delay to the transitions taken when it has passed in the state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct After(pub(crate) IndexMap<String, Transitions>);

impl JsonSchema for After {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "After".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "A delay (a lent delay's name or a duration) to the transitions taken when it has passed in the state.",
            "propertyNames": generator.subschema_for::<Delay>(),
            "additionalProperties": generator.subschema_for::<Transitions>(),
        })
    }
}

// --- templates ----------------------------------------------------------------------------------

/// A template: any JSON value. `{ "$ref": "context.round" }` as a whole value is a reference, and
/// must be exactly that one key with a string; `{{input.topic}}` inside a string is a placeholder.
/// A reference's root is `context`, `input` or `event`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Template(pub(crate) serde_json::Value);

impl JsonSchema for Template {
    fn schema_name() -> Cow<'static, str> {
        "ChartTemplate".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let me = generator.subschema_for::<Template>();
        json_schema!({
            "description": "Any JSON value. `{ \"$ref\": \"context.round\" }` as a whole value is a reference (exactly that one key, a string); `{{input.topic}}` inside a string is a placeholder. A reference's root is `context`, `input` or `event`.",
            "anyOf": [
                { "type": ["null", "boolean", "number", "string"] },
                { "type": "array", "items": me },
                {
                    "type": "object",
                    "properties": { "$ref": { "type": "string" } },
                    "required": ["$ref"],
                    "additionalProperties": false,
                },
                { "type": "object", "not": { "required": ["$ref"] }, "additionalProperties": me },
            ],
        })
    }
}

// --- the Chart ------------------------------------------------------------------------------------

/// A Chart: a workflow written as data (the seed's `ChartText`). The generated schema's root
/// description is the Chart briefing instead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(title = "ChartText")]
pub(crate) struct ChartText {
    /// The Chart's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<Name>,
    /// What the Chart does, for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    /// The key of the state the Chart starts in; absent, the first of `states`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) initial: Option<Name>,
    /// `"parallel"`: every top-level state is a region, active at once.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub(crate) kind: Option<RootType>,
    /// The Chart's own data at its start: an object of any JSON. `assign` changes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) context: Option<serde_json::Map<String, serde_json::Value>>,
    /// The picks: an Agent's Turn ends only when it picks one of these (or a Gate's outside answer,
    /// with `audience: "external"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) events: Option<NameMap<EventDef>>,
    /// The Agents this Chart mints, by name; a lent Agent needs no entry here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) agents: Option<NameMap<MintedAgent>>,
    /// The top-level states, by key: at least one.
    pub(crate) states: States,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on: Option<On>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<After>,
    /// Transitions taken as soon as their guard holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) always: Option<Transitions>,
    /// Taken when the Chart's states reached their final state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on_done: Option<Transitions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) invoke: Option<Invokes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) entry: Option<Actions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) exit: Option<Actions>,
    /// The Chart's output when it is done: a template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) output: Option<Template>,
}

/// A root Chart's `type`: only `"parallel"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RootType {
    Parallel,
}

/// A state's `type`: `"parallel"` (its child states are regions, active at once) or `"final"`
/// (reaching it means done). Absent: atomic, or compound when it has `states`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum StateType {
    Parallel,
    Final,
}

/// A pick: an event an Agent's Turn ends with, or a Gate's outside answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct EventDef {
    /// What the pick means, for whoever picks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    /// The pick's payload as a JSON Schema object, such as
    /// `{ "type": "object", "properties": { "ok": { "type": "boolean" } }, "required": ["ok"] }`.
    #[schemars(with = "serde_json::Map<String, serde_json::Value>")]
    pub(crate) input: serde_json::Value,
    /// Who picks it: `"agent"` (an Agent's Turn) or `"external"` (an outside answer a Gate waits for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) audience: Option<Audience>,
}

/// Who picks an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Audience {
    Agent,
    External,
}

/// An Agent this Chart mints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct MintedAgent {
    pub(crate) model: Model,
    /// Its standing instructions.
    pub(crate) instructions: String,
    pub(crate) workspace: Workspace,
}

/// A minted Agent's model: one the Open body allows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub(crate) struct Model(pub(crate) String);

/// A minted Agent's access to the Workspace: `"none"`, `"read"` or `"write"`, as the Open body allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Workspace {
    None,
    Read,
    Write,
}

/// A state of a Chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(rename = "ChartState")]
#[schemars(extend("dependentSchemas" = {
    "output": { "required": ["type"], "properties": { "type": { "const": "final" } } }
}))]
pub(crate) struct State {
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<StateType>,
    /// An id a transition can target as `#id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    /// The key of the child state a compound state starts in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<Name>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) states: Option<States>,
    /// What runs while the state is active: one invoke or a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) invoke: Option<Invokes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on: Option<On>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<After>,
    /// Transitions taken as soon as their guard holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) always: Option<Transitions>,
    /// Actions on entering the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<Actions>,
    /// Actions on leaving the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<Actions>,
    /// Taken when a compound state reached its final state, or every region of a parallel one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on_done: Option<Transitions>,
    /// A final state's output: a template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Template>,
}

// --- transitions --------------------------------------------------------------------------------

/// One transition or a list, in xstate's order: the first whose guard holds is taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "ChartTransitions")]
pub(crate) enum Transitions {
    One(Box<Transition>),
    Many(Vec<Transition>),
}

/// A transition: a target, or an object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "ChartTransition")]
pub(crate) enum Transition {
    /// The target: a sibling's key, `.child`, `sibling.child`, or `#id`.
    Target(String),
    Object(Box<TransitionObject>),
}

/// A transition as an object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct TransitionObject {
    /// The target: a sibling's key, `.child`, `sibling.child`, or `#id`; absent, the state stays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) guard: Option<Guard>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) actions: Option<Actions>,
    /// Leave and enter the target again even when it is the state itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) reenter: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
}

// --- invokes ------------------------------------------------------------------------------------

/// One invoke or a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Invokes {
    One(Box<Invoke>),
    Many(Vec<Invoke>),
}

/// An invoke: a lent Agent, Effect or Machine, a minted Agent, or the kit's `gate` or `fail`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schemars(rename = "ChartInvoke")]
pub(crate) struct Invoke {
    pub src: Src,
    /// The invoke's id: a name (a Gate's id is a party `jr2.sentBy` can name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Name>,
    /// An Agent takes `{ prompt }`; an Effect or a Machine takes its own input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Template>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on_done: Option<Transitions>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on_error: Option<Transitions>,
}

/// What an invoke runs, by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Src(pub(crate) String);

/// The seed's `src` description where `fail` may be lent (the whole grammar, and a narrowed one
/// that lends it).
pub(crate) const SRC_DESCRIPTION: &str = "A lent Agent, Effect or Machine by its name; the kit's `gate` (waits for an outside answer: a human, a webhook) or `fail` (ends the run as a Failure, with `input: { reason }`) where the body lends it; or a key of this Chart's `agents`.";
/// The seed's `src` description in a narrowed grammar that does not lend `fail`.
pub(crate) const SRC_DESCRIPTION_NO_FAIL: &str = "A lent Agent, Effect or Machine by its name; the kit's `gate` (waits for an outside answer: a human, a webhook) where the body lends it; or a key of this Chart's `agents`.";

impl JsonSchema for Src {
    fn schema_name() -> Cow<'static, str> {
        "Src".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "description": SRC_DESCRIPTION })
    }
}

// --- guards -------------------------------------------------------------------------------------

/// A guard: a lent guard by name, with or without params, `jr2.sentBy`, `jr2.failure`,
/// `jr2.ready`, or `not`/`and`/`or`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "ChartGuard")]
#[schemars(description = "A lent guard by name, `jr2.sentBy`, `jr2.failure`, `jr2.ready`, or not/and/or of guards.")]
pub(crate) enum Guard {
    Name(GuardName),
    SentBy(SentByGuard),
    Kit(KitGuard),
    Params(ParamGuard),
    Not(NotGuard),
    And(AndGuard),
    Or(OrGuard),
}

/// A guard by name: a lent guard, `jr2.failure` or `jr2.ready`. `"jr2.sentBy"` takes params `{ id }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct GuardName(pub(crate) String);

impl JsonSchema for GuardName {
    fn schema_name() -> Cow<'static, str> {
        "GuardName".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "A lent guard's name, `jr2.failure` or `jr2.ready`.",
            "not": { "const": SENT_BY },
        })
    }
}

/// The kit's routing guard: the event was sent by the party `id` (an Agent's name, a Gate's id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SentByGuard {
    #[serde(rename = "type")]
    pub(crate) kind: SentByTag,
    pub(crate) params: SentByParams,
}

/// `"jr2.sentBy"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub(crate) enum SentByTag {
    #[serde(rename = "jr2.sentBy")]
    SentBy,
}

/// The party: a literal name, never a reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SentByParams {
    pub(crate) id: String,
}

/// `jr2.failure` (an `onError` caught a Failure) or `jr2.ready` (a cut settled ready): no params.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct KitGuard {
    #[serde(rename = "type")]
    pub(crate) kind: KitGuardTag,
}

/// `"jr2.failure"` or `"jr2.ready"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub(crate) enum KitGuardTag {
    #[serde(rename = "jr2.failure")]
    Failure,
    #[serde(rename = "jr2.ready")]
    Ready,
}

/// A lent guard with params.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ParamGuard {
    #[serde(rename = "type")]
    pub(crate) kind: ParamGuardName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) params: Option<Template>,
}

/// A lent guard's name, where it takes params: not a kit guard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct ParamGuardName(pub(crate) String);

impl JsonSchema for ParamGuardName {
    fn schema_name() -> Cow<'static, str> {
        "ParamGuardName".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "A lent guard's name.",
            "not": { "enum": [SENT_BY, FAILURE_GUARD, READY_GUARD] },
        })
    }
}

/// Holds when its guard does not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NotGuard {
    pub(crate) not: Box<Guard>,
}

/// Holds when each of its guards holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AndGuard {
    pub(crate) and: Vec<Guard>,
}

/// Holds when one of its guards holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OrGuard {
    pub(crate) or: Vec<Guard>,
}

// --- actions ------------------------------------------------------------------------------------

/// One action or a list, run in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Actions {
    One(Action),
    Many(Vec<Action>),
}

/// An action: a lent action by name, with or without params, or `assign`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "ChartAction")]
pub(crate) enum Action {
    Name(ActionName),
    Typed(TypedAction),
    Assign(AssignAction),
}

/// A lent action's name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct ActionName(pub(crate) String);

impl JsonSchema for ActionName {
    fn schema_name() -> Cow<'static, str> {
        "ActionName".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "description": "A lent action's name." })
    }
}

/// A lent action with params.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TypedAction {
    #[serde(rename = "type")]
    pub(crate) kind: ActionName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) params: Option<Template>,
}

/// Sets context: each key a context path without the `context.` root, each value a template.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AssignAction {
    pub(crate) assign: Assignments,
}

/// A context path (without the `context.` root, like `round` or `ticket.notes`) to its new value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct Assignments(pub(crate) IndexMap<String, Template>);

impl JsonSchema for Assignments {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Assignments".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "propertyNames": {
                "description": "A context path without the \"context.\" root, like \"round\" or \"ticket.notes\".",
                "pattern": CONTEXT_PATH_PATTERN,
                "not": { "pattern": "^context\\." },
            },
            "additionalProperties": generator.subschema_for::<Template>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_name("review"));
        assert!(is_name("_a-b_9"));
        assert!(!is_name("9a"));
        assert!(!is_name("a.b"));
        assert!(!is_name(""));
        assert!(is_name(&"a".repeat(64)));
        assert!(!is_name(&"a".repeat(65)));
    }

    #[test]
    fn delays_and_paths() {
        for d in ["500ms", "30s", "5m", "1h", "1000", "soon"] {
            assert!(is_delay(d), "{d}");
        }
        for d in ["", "5d", "1.5s", "5 s", "-1"] {
            assert!(!is_delay(d), "{d}");
        }
        assert!(is_context_path("round"));
        assert!(is_context_path("ticket.notes"));
        assert!(is_context_path("items.0"));
        assert!(!is_context_path("context.round"));
        assert!(!is_context_path("a..b"));
        assert!(!is_context_path("0a"));
    }

    #[test]
    fn the_contract_example_deserializes() {
        let chart: ChartText = serde_json::from_str(crate::schema::tests_support::CONTRACT_EXAMPLE).unwrap();
        assert_eq!(chart.states.0.len(), 3);
    }
}
