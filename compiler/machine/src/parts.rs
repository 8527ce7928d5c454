//! What a Machine carries (`jr2 parts`), read statically off its values: the shapes of the seed's
//! `parts.ts` (`partsOf` → [`CarriedParts`], `workspacePodsOf` → [`WorkspacePod`]), and the lend
//! manifest of one Open body slot (`jr2 parts WRAPPER.ts --lends SLOT` → [`lend_manifest`]).
//!
//! The walk goes from the root Machine value down every setup actor that is a Machine
//! (`createMachine`, `workspace()`, `customize()`), in setup order. `path` and `route` are the slot
//! names from the root to the Machine (in this value model a `workspace()` body is no slot of its
//! own, so no body hop is skipped).
//!
//! `customize(m, options)` is layered over the parts of the Machine it wraps before they are
//! read ([`Customized`]), innermost `customize()` first, each as an object spread (`{ ...a, ...b }`):
//! - `agents: { <slot>: { model, instructions, workspace, mcp, thinkingLevel, ... } }` over that
//!   Agent's `agent({...})` definition (a shipped Machine's Agent picks its model here);
//! - `effects: { <slot>: { ... } }` over that Effect's options: the seed's
//!   `customize(m, { effects: { task: { target: { url, token } } } })` binds a dispatch's Open
//!   target; a `command`'s `argv` replaces its argv and its other keys go over its options;
//! - `repos: { <slot>: binding }` over the `workspace()`'s Repo Slots (binding an `open` one), and
//!   `resources` over its Size (the seed's "the `workspace()`'s, with any `customize()` layered
//!   over it").
//!
//! A key naming no slot of the Machine changes nothing here. Other `customize()` keys, and options
//! that reach into a child Machine, are not applied (the seed shows neither).
//!
//! Where the seed does not show a field's exact form, the choice is documented at the field.

use crate::lower::{
    arg, classify_actor, is_call, kit_name, lower_parts_for_check, machine_parts, zod_object_keys, ActorClass,
    MachineParts, WrapperKind,
};
use crate::value::{Arena, Call, Prop, Value, ValueKind};
use ir::targets::Targets;
use ir::{self, SlotKind};
use kit::lends::{
    Allows, ArgvPart, Ceilings, Cut, CutExpect, Declaration, EffectParts, LendManifest, Lends, Lent, WorkspaceAccess,
};
use serde::Serialize;
use serde_json::{json, Map, Value as J};
use std::collections::BTreeSet;

/// `partsOf`'s `CarriedParts`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CarriedParts {
    pub(crate) agents: Vec<CarriedAgent>,
    pub failures: Vec<Failure>,
    pub effects: Vec<J>,
    pub(crate) open_effects: Vec<OpenEffect>,
    pub(crate) sizes: Vec<CarriedSize>,
    pub(crate) composes_sandbox: bool,
    pub open_bodies: Vec<OpenBody>,
    /// Every bound model of an Agent, and every model an Open body allows; sorted, deduped.
    pub(crate) models: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) instance_harness: Option<InstanceHarness>,
    pub(crate) mcp_agents: Vec<McpAgent>,
}

/// An Agent slot and its definition (the static fields of `agent({...})`, as written).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct CarriedAgent {
    pub(crate) slot: String,
    pub(crate) path: Vec<String>,
    pub(crate) definition: J,
}

/// A state that can fail the run: it invokes a `fail()` slot. `state` is the state's xstate id
/// (`fix-tests.failed`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    pub(crate) machine: String,
    pub state: String,
    pub slot: String,
    pub(crate) path: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct OpenEffect {
    pub(crate) slot: String,
    pub(crate) path: Vec<String>,
    pub parts: Vec<String>,
}

/// The Size a `workspace()` states: its `resources`, as written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct CarriedSize {
    pub(crate) machine: String,
    pub(crate) path: Vec<String>,
    pub(crate) resources: J,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenBody {
    pub slot: String,
    pub declaration: Declaration,
    pub path: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct InstanceHarness {
    pub(crate) models: Vec<String>,
    pub(crate) servers: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct McpAgent {
    pub(crate) slot: String,
    pub(crate) path: Vec<String>,
    pub(crate) workspace: String,
    pub(crate) mcp: J,
}

/// `workspacePodsOf`'s `WorkspacePod`: one per `workspace()`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkspacePod {
    pub(crate) machine: String,
    pub(crate) path: Vec<String>,
    /// The Repo Slots, in order.
    pub(crate) repos: Vec<String>,
    pub(crate) secrets: Vec<String>,
    pub(crate) models: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) mcp: Vec<PodMcp>,
    pub(crate) effects: Vec<J>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) cuts: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) effector: Option<J>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) image: Option<J>,
    /// Each bound Repo Slot's url; an open or per-run slot has none (as `JSON.stringify` drops
    /// `undefined`).
    pub(crate) bindings: indexmap::IndexMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) resources: Option<J>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) work_group: Option<J>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct PodMcp {
    pub(crate) slot: String,
    pub(crate) path: Vec<String>,
    pub(crate) entry: J,
}

/// Is this the kit's `open` sentinel? The evaluator gives the bare `open` export as a call of
/// `Kit("open")` with no arguments (an assumption this module states; `open({...})` with a
/// declaration is an Open body).
pub fn is_open_sentinel(v: &Value) -> bool {
    is_call(v, "open") && v.as_call().is_some_and(|c| c.args.is_empty())
}

/// The parts a Machine carries, down its whole tree.
pub fn parts_of(root: &Value) -> CarriedParts {
    let mut out = CarriedParts::default();
    let mut models = BTreeSet::new();
    let mut harness_models = BTreeSet::new();
    let mut harness_servers = BTreeSet::new();
    let mut harness = false;
    walk(root, &[], &mut |m, parts, path| {
        let id = m.map_or_else(|| "(machine)".to_string(), |m| m.id.clone());
        let custom = Customized::new(parts);
        if parts.composes_sandbox() {
            out.composes_sandbox = true;
            if let Some(r) = custom.workspace().and_then(|w| w.get("resources").and_then(Value::to_json)) {
                out.sizes.push(CarriedSize { machine: id.clone(), path: path.to_vec(), resources: r });
            }
        }
        if let Some(m) = m {
            for (state, slot) in failing_states_of(m) {
                out.failures.push(Failure { machine: id.clone(), state, slot, path: path.to_vec() });
            }
        }
        for (name, actor) in custom.actors() {
            let actor = &actor;
            match classify_actor(actor) {
                ActorClass::Agent => {
                    let def = agent_definition(actor);
                    let workspace = def.get("workspace").and_then(J::as_str).unwrap_or("write").to_string();
                    let model = def.get("model").and_then(J::as_str).map(str::to_string);
                    if let Some(m) = &model {
                        models.insert(m.clone());
                    }
                    let mcp = def.get("mcp").filter(|x| x.as_array().is_some_and(|a| !a.is_empty())).cloned();
                    if workspace == "none" {
                        harness = true;
                        harness_models.extend(model);
                        for e in mcp.iter().flat_map(|x| x.as_array().into_iter().flatten()) {
                            if let Some(s) = e.get("server").and_then(J::as_str) {
                                harness_servers.insert(s.to_string());
                            }
                        }
                    }
                    if let Some(mcp) = mcp {
                        out.mcp_agents.push(McpAgent {
                            slot: name.into(),
                            path: path.to_vec(),
                            workspace: workspace.clone(),
                            mcp,
                        });
                    }
                    out.agents.push(CarriedAgent { slot: name.into(), path: path.to_vec(), definition: def });
                }
                ActorClass::Open => {
                    let declaration = arg(actor, 0).map(declaration_of).and_then(Result::ok).unwrap_or_default();
                    models.extend(declaration.allows.models.iter().cloned());
                    if declaration.allows.workspace.contains(&WorkspaceAccess::None) {
                        harness = true;
                        harness_models.extend(declaration.allows.models.iter().cloned());
                    }
                    out.open_bodies.push(OpenBody { slot: name.into(), declaration, path: path.to_vec() });
                }
                ActorClass::Effect(_) => {
                    let effect = carried_effect(name, path, actor);
                    if effect.get("kind").and_then(J::as_str) != Some("push") {
                        if let Some(open) = effect.get("open").and_then(J::as_array) {
                            let parts = open.iter().filter_map(|x| x.as_str().map(str::to_string)).collect();
                            out.open_effects.push(OpenEffect { slot: name.into(), path: path.to_vec(), parts });
                        }
                    }
                    out.effects.push(effect);
                }
                _ => {}
            }
        }
    });
    out.models = models.into_iter().collect();
    if harness {
        out.instance_harness = Some(InstanceHarness {
            models: harness_models.into_iter().collect(),
            servers: harness_servers.into_iter().collect(),
        });
    }
    out
}

/// Visits every Machine of the tree in pre-order, with its lowered IR (when it lowers), its parts
/// and its slot path.
/// What [`walk`] calls for each Machine: its IR (when it lowers), its parts, its slot path.
pub(crate) type Visit<'a> = dyn FnMut(Option<&ir::Statechart>, &MachineParts<'_>, &[String]) + 'a;

pub fn walk(v: &Value, path: &[String], visit: &mut Visit<'_>) {
    let Ok(parts) = machine_parts(v) else { return };
    // Lowered for a check: the visits read the states and invokes, and each child Machine is
    // walked (and lowered) once, here, not again inside its parent's slot.
    let lowered = lower_parts_for_check(&parts);
    visit(lowered.machine.as_deref(), &parts, path);
    for (name, actor) in parts.setup_entries("actors") {
        if classify_actor(actor) == ActorClass::Machine {
            let mut p = path.to_vec();
            p.push(name.to_string());
            walk(actor, &p, visit);
        }
    }
}

/// `failingStatesOf`: every state of the Machine's own tree that invokes a `fail()` slot, in
/// document order, with the slot key. A state is named by its xstate id.
pub(crate) fn failing_states_of(m: &ir::Statechart) -> Vec<(String, String)> {
    let targets = Targets::new(&m.states, &m.id);
    let mut out = Vec::new();
    for sid in m.ids() {
        for inv in &m.state(sid).invokes {
            if inv.kind == SlotKind::Fail {
                out.push((targets.id_of(sid).to_string(), inv.src.to_string()));
            }
        }
    }
    out
}

/// `workspacePodsOf`: one pod per `workspace()` of the tree, with what runs in it, down to the
/// next `workspace()`.
pub fn workspace_pods_of(root: &Value) -> Vec<WorkspacePod> {
    let mut pods = Vec::new();
    walk(root, &[], &mut |m, parts, path| {
        if !parts.composes_sandbox() {
            return;
        }
        let custom = Customized::new(parts);
        let opts = custom.workspace();
        let get = |k: &str| opts.as_ref().and_then(|o| o.get(k));
        let mut pod = WorkspacePod {
            machine: m.map_or_else(|| "(machine)".to_string(), |m| m.id.clone()),
            path: path.to_vec(),
            repos: Vec::new(),
            secrets: get("secrets").map(string_list).unwrap_or_default(),
            models: Vec::new(),
            mcp: Vec::new(),
            effects: Vec::new(),
            cuts: Vec::new(),
            effector: get("effector").and_then(Value::to_json),
            image: get("image").and_then(Value::to_json),
            bindings: indexmap::IndexMap::new(),
            resources: get("resources").and_then(Value::to_json),
            work_group: get("workGroup").and_then(Value::to_json),
        };
        if let Some(repos) = get("repos").and_then(Value::props) {
            for p in repos {
                pod.repos.push(p.key.to_string());
                let url = match &p.value.kind {
                    ValueKind::String { value } => Some(value.to_string()),
                    ValueKind::Object { .. } => p.value.get("url").and_then(Value::as_str).map(str::to_string),
                    _ => None,
                };
                if let Some(url) = url {
                    pod.bindings.insert(p.key.to_string(), url);
                }
            }
        }
        let mut models = BTreeSet::new();
        pod_parts(parts, path, &mut models, &mut pod);
        pod.models = models.into_iter().collect();
        pods.push(pod);
    });
    pods
}

/// `modelsIn`: what of one Machine runs in the pod, and its child Machines that compose no
/// Sandbox of their own.
fn pod_parts(parts: &MachineParts<'_>, path: &[String], models: &mut BTreeSet<String>, pod: &mut WorkspacePod) {
    let custom = Customized::new(parts);
    for (name, actor) in custom.actors() {
        let actor = &actor;
        match classify_actor(actor) {
            ActorClass::Agent => {
                let def = agent_definition(actor);
                if def.get("workspace").and_then(J::as_str) == Some("none") {
                    continue;
                }
                if let Some(m) = def.get("model").and_then(J::as_str) {
                    models.insert(m.to_string());
                }
                for entry in def.get("mcp").and_then(J::as_array).into_iter().flatten() {
                    pod.mcp.push(PodMcp { slot: name.into(), path: path.to_vec(), entry: entry.clone() });
                }
            }
            ActorClass::Open => {
                let decl = arg(actor, 0).map(declaration_of).and_then(Result::ok).unwrap_or_default();
                if decl.allows.workspace.iter().any(|w| *w != WorkspaceAccess::None) {
                    models.extend(decl.allows.models.iter().cloned());
                }
            }
            ActorClass::Effect(_) => {
                let effect = carried_effect(name, path, actor);
                if effect.get("placement").and_then(J::as_str) == Some("sandbox") {
                    pod.effects.push(effect);
                }
                if is_call(actor, "worktree") {
                    pod.cuts.push(name.to_string());
                }
            }
            ActorClass::Machine => {
                if let Ok(child) = machine_parts(actor) {
                    if !child.composes_sandbox() {
                        let mut p = path.to_vec();
                        p.push(name.to_string());
                        pod_parts(&child, &p, models, pod);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The static fields of `agent({...})`: `model`, `instructions`, `workspace`, `mcp`,
/// `thinkingLevel` and any other literal one, as written; a field not known statically is left out.
pub(crate) fn agent_definition(actor: &Value) -> J {
    let mut map = Map::new();
    for p in arg(actor, 0).and_then(Value::props).unwrap_or(&[]) {
        if let Some(j) = p.value.to_json() {
            map.insert(p.key.to_string(), j);
        }
    }
    J::Object(map)
}

/// The strings of a list of names or `secret(name)` calls.
pub(crate) fn string_list(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or(&[])
        .iter()
        .filter_map(|x| x.as_str().map(str::to_string).or_else(|| secret_name(x)))
        .collect()
}

fn secret_name(v: &Value) -> Option<String> {
    if is_call(v, "secret") {
        arg(v, 0).and_then(Value::as_str).map(str::to_string)
    } else {
        None
    }
}

/// Every `secret(name)` named anywhere inside `v`, in order, deduped; and whether a `secret(open)`
/// is among them.
pub(crate) fn secrets_in(v: &Value, out: &mut Vec<String>, open: &mut bool) {
    match &v.kind {
        ValueKind::Call(c) => {
            if is_call(v, "secret") {
                match c.args.first() {
                    Some(a) if is_open_sentinel(a) => *open = true,
                    Some(a) => {
                        if let Some(s) = a.as_str() {
                            if !out.iter().any(|x| x == s) {
                                out.push(s.to_string());
                            }
                        }
                    }
                    None => {}
                }
                return;
            }
            for a in c.args.iter().chain(c.receiver.iter()) {
                secrets_in(a, out, open);
            }
        }
        ValueKind::Array { items } => items.iter().for_each(|x| secrets_in(x, out, open)),
        ValueKind::Object { props } => props.iter().for_each(|p| secrets_in(&p.value, out, open)),
        _ => {}
    }
}

pub(crate) fn opt<'v>(actor: &Value<'v>, i: usize, key: &str) -> Option<&'v Value<'v>> {
    arg(actor, i).and_then(|o| o.get(key))
}

fn flag(actor: &Value, i: usize, key: &str) -> bool {
    opt(actor, i, key).and_then(Value::as_bool).unwrap_or(false)
}

/// An Effect slot as `carriedEffectOf` reports it: `name`, `path`, `route`, `kind`, `placement`
/// and its kind's fields. Placement (the seed's four): a command with secrets, a push and a
/// file-body http run in the Workspace's `sandbox` Effector; a dispatch with no `target` in the
/// `orchestrator`; an http, an mcp and a targeted dispatch in the `instance` Effector; a command
/// with no secret and a cut in the `harness`. A command's argv is text, `arg(name)` as `<name>`.
pub(crate) fn carried_effect(name: &str, path: &[String], actor: &Value) -> J {
    let mut secrets = Vec::new();
    let mut secret_open = false;
    for a in actor.as_call().map(|c| c.args).unwrap_or(&[]) {
        secrets_in(a, &mut secrets, &mut secret_open);
    }
    // A command's `secrets` option names Held secrets by name, beside any `secret(name)`.
    if let Some(listed) = opt(actor, 1, "secrets").filter(|_| is_call(actor, "command")) {
        for name in string_list(listed) {
            if !secrets.contains(&name) {
                secrets.push(name);
            }
        }
    }
    let mut open: Vec<&str> = Vec::new();
    let base = |kind: &str, placement: &str| json!({ "name": name, "path": path, "route": path, "kind": kind, "placement": placement });
    let mut e = match kit_name(actor).unwrap_or_default() {
        "worktree" => {
            let mut e = base("command", "harness");
            let expect = opt(actor, 0, "expect").and_then(Value::to_json);
            e["argv"] = json!([]);
            e["timeoutMs"] = json!(0);
            e["cut"] = match expect {
                Some(x) => json!({ "expect": x }),
                None => json!({}),
            };
            return e;
        }
        "command" => {
            let argv = arg(actor, 0);
            let text: Vec<String> = match argv.and_then(Value::as_array) {
                Some(items) => items
                    .iter()
                    .map(|x| match argv_part(x) {
                        Some(ArgvPart::Literal(s)) => s,
                        Some(ArgvPart::Arg { arg }) => format!("<{arg}>"),
                        None => "<?>".to_string(),
                    })
                    .collect(),
                None => {
                    open.push("argv");
                    Vec::new()
                }
            };
            let placement = if secrets.is_empty() { "harness" } else { "sandbox" };
            let mut e = base("command", placement);
            e["argv"] = json!(text);
            e["timeoutMs"] = json!(opt(actor, 1, "timeout").and_then(Value::to_json).unwrap_or(json!(0)));
            if !secrets.is_empty() {
                e["secrets"] = json!(secrets);
            }
            if flag(actor, 1, "pin") {
                e["pin"] = json!(true);
            }
            e
        }
        "http" => {
            let file = opt(actor, 0, "file")
                .is_some_and(|f| !matches!(f.kind, ValueKind::Undefined | ValueKind::Bool { value: false }));
            let mut e = base("http", if file { "sandbox" } else { "instance" });
            e["method"] = json!(opt(actor, 0, "method").and_then(Value::as_str).unwrap_or("GET"));
            match opt(actor, 0, "url").and_then(Value::as_str) {
                Some(url) => e["url"] = json!(url),
                None => open.push("url"),
            }
            e["secrets"] = json!(secrets);
            e["idempotent"] = json!(flag(actor, 0, "idempotent"));
            e["timeoutMs"] = json!(opt(actor, 0, "timeout").and_then(Value::to_json).unwrap_or(json!(0)));
            if file {
                e["file"] = json!(true);
            }
            e
        }
        "push" => {
            let mut e = base("push", "sandbox");
            if let Some(slot) = opt(actor, 0, "slot").and_then(Value::as_str) {
                e["slot"] = json!(slot);
            }
            for k in ["sign", "squash", "force", "pin"] {
                e[k] = json!(flag(actor, 0, k));
            }
            e["secrets"] = json!([]);
            e
        }
        "dispatch" => {
            let target = opt(actor, 1, "target");
            let placement = if target.is_some() { "instance" } else { "orchestrator" };
            let mut e = base("dispatch", placement);
            if let Some(w) = arg(actor, 0).and_then(Value::as_str) {
                e["workflow"] = json!(w);
            }
            e["wait"] = json!(flag(actor, 1, "wait"));
            match target {
                Some(t) if is_open_sentinel(t) => open.push("target"),
                Some(t) => {
                    if let Some(url) = t.get("url").and_then(Value::as_str) {
                        e["target"] = json!(url);
                    }
                }
                None => {}
            }
            e["secrets"] = json!(secrets);
            e
        }
        "mcp" => {
            let mut e = base("mcp", "instance");
            e["op"] = json!(opt(actor, 0, "op").and_then(Value::as_str).unwrap_or("call"));
            match opt(actor, 0, "server") {
                Some(s) if is_open_sentinel(s) => open.push("server"),
                Some(s) => {
                    if let Some(s) = s.as_str() {
                        e["server"] = json!(s);
                    }
                }
                None => {}
            }
            match opt(actor, 0, "tool") {
                Some(t) if is_open_sentinel(t) => open.push("tool"),
                Some(t) => {
                    if let Some(t) = t.as_str() {
                        e["tool"] = json!(t);
                    }
                }
                None => {}
            }
            e["secrets"] = json!([]);
            e["idempotent"] = json!(flag(actor, 0, "idempotent"));
            e["timeoutMs"] = json!(opt(actor, 0, "timeout").and_then(Value::to_json).unwrap_or(json!(0)));
            e
        }
        other => base(other, "instance"),
    };
    if secret_open {
        open.push("secret");
    }
    if !open.is_empty() {
        e["open"] = json!(open);
    }
    e
}

/// One argv element: a string, or `arg(name)`.
pub(crate) fn argv_part(v: &Value) -> Option<ArgvPart> {
    if let Some(s) = v.as_str() {
        return Some(ArgvPart::Literal(s.to_string()));
    }
    if is_call(v, "arg") {
        return arg(v, 0).and_then(Value::as_str).map(|a| ArgvPart::Arg { arg: a.to_string() });
    }
    None
}

/// A zod schema as JSON Schema, or `None` where it is not converted.
fn schema(v: Option<&Value>) -> Option<J> {
    crate::zod::to_json_schema(v?).ok()
}

/// Does the input of the Effect `actor` take each of `names` as a key, as
/// `effect_parts(actor)?.input_shape()?.keys()` lists them? `None` where that shape is not known
/// (no Effect, an argv that is not static, a `dispatch` with no `input` schema or one that does not
/// convert). The same answer without the parts written: a zod input (an http's, an mcp's, a
/// dispatch's) is converted into the IR's JSON only, no `serde_json` copy, and its keys are looked
/// up in place; the walk asks this of every `fromPick` (`from-pick-unknown-key`), which writes the
/// parts only for a line.
pub fn effect_input_takes(actor: &Value, names: &[&str]) -> Option<bool> {
    // Where the zod input is, and whether an input absent or not converted is a shape with no
    // keys (http, mcp) or no shape (dispatch), as `input_shape` reads `EffectParts`.
    let (input, absent_has_no_keys) = match kit_name(actor)? {
        "http" | "mcp" => (opt(actor, 0, "input"), true),
        "dispatch" => (opt(actor, 1, "input"), false),
        _ => {
            let keys = effect_parts(actor)?.input_shape()?.keys();
            return Some(names.iter().all(|n| keys.iter().any(|k| k == n)));
        }
    };
    let Some(schema) = input.and_then(|v| crate::zod::to_schema(v).ok()) else {
        return absent_has_no_keys.then_some(names.is_empty());
    };
    // `input_shape`'s keys: the `required` list's strings, then the `properties` keys.
    let ir::Json::Object(schema) = &schema else { return Some(names.is_empty()) };
    let required = match schema.get("required") {
        Some(ir::Json::Array(items)) => items.as_slice(),
        _ => &[],
    };
    let properties = match schema.get("properties") {
        Some(ir::Json::Object(p)) => Some(p),
        _ => None,
    };
    Some(
        names
            .iter()
            .all(|n| required.iter().any(|k| k.as_str() == Some(n)) || properties.is_some_and(|p| p.contains_key(n))),
    )
}

/// An Effect slot's parts as the lend manifest carries them.
pub fn effect_parts(actor: &Value) -> Option<EffectParts> {
    Some(match kit_name(actor)? {
        "command" => EffectParts::Command {
            argv: arg(actor, 0).and_then(Value::as_array).and_then(|items| items.iter().map(argv_part).collect()),
            cut: None,
        },
        "worktree" => {
            let expect = match opt(actor, 0, "expect").and_then(Value::as_str) {
                Some("new") => Some(CutExpect::New),
                Some("existing") => Some(CutExpect::Existing),
                _ => None,
            };
            EffectParts::Command { argv: None, cut: Some(Cut { expect }) }
        }
        "http" => EffectParts::Http {
            method: opt(actor, 0, "method").and_then(Value::as_str).map(str::to_string),
            url: opt(actor, 0, "url").and_then(Value::as_str).map(str::to_string),
            input: schema(opt(actor, 0, "input")),
        },
        "push" => EffectParts::Push { force: flag(actor, 0, "force") },
        "dispatch" => EffectParts::Dispatch {
            workflow: arg(actor, 0).and_then(Value::as_str).map(str::to_string),
            input: schema(opt(actor, 1, "input")),
        },
        "mcp" => EffectParts::Mcp {
            op: Some(opt(actor, 0, "op").and_then(Value::as_str).unwrap_or("call").to_string()),
            server: opt(actor, 0, "server").and_then(Value::as_str).map(str::to_string),
            tool: opt(actor, 0, "tool").and_then(Value::as_str).map(str::to_string),
            input: schema(opt(actor, 0, "input")),
        },
        _ => return None,
    })
}

/// An Open body's declaration literal `{ lends, allows, ceilings }`.
pub fn declaration_of(v: &Value) -> Result<Declaration, String> {
    if v.props().is_none() {
        return Err(format!("the Open body's declaration is {}, not an object", crate::lower::describe(v)));
    }
    let names = |o: Option<&Value>, k: &str| -> Vec<String> {
        o.and_then(|o| o.get(k))
            .and_then(Value::as_array)
            .unwrap_or(&[])
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect()
    };
    let lends = v.get("lends");
    let allows = v.get("allows");
    let ceilings = v.get("ceilings");
    let mut workspace = Vec::new();
    for w in names(allows, "workspace") {
        workspace.push(match w.as_str() {
            "none" => WorkspaceAccess::None,
            "read" => WorkspaceAccess::Read,
            "write" => WorkspaceAccess::Write,
            other => {
                return Err(format!(
                    "`allows.workspace` holds {other:?}; a Workspace access is \"none\", \"read\" or \"write\""
                ))
            }
        });
    }
    let num = |k: &str| ceilings.and_then(|c| c.get(k)).and_then(Value::to_json).and_then(|j| j.as_u64());
    let wall_clock = match ceilings.and_then(|c| c.get("wallClock")) {
        None => None,
        Some(w) if matches!(w.kind, ValueKind::Undefined) => None,
        Some(w) => match w.as_str() {
            Some(t) if kit::lends::duration_ms(t).is_some() => Some(t.to_string()),
            Some(t) => return Err(kit::lends::wall_clock_refusal(&format!("{t:?}"))),
            None => return Err(kit::lends::wall_clock_refusal(&crate::lower::describe(w))),
        },
    };
    Ok(Declaration {
        lends: Lends {
            agents: names(lends, "agents"),
            effects: names(lends, "effects"),
            machines: names(lends, "machines"),
            guards: names(lends, "guards"),
            actions: names(lends, "actions"),
            delays: names(lends, "delays"),
            gate: lends.and_then(|l| l.get("gate")).and_then(Value::as_bool).unwrap_or(false),
            fail: lends.and_then(|l| l.get("fail")).and_then(Value::as_bool).unwrap_or(false),
        },
        allows: Allows { models: names(allows, "models"), workspace },
        ceilings: Ceilings {
            turns: num("turns"),
            wall_clock,
            transitions: num("transitions"),
            fan_out: num("fanOut"),
            size: num("size"),
        },
    })
}

/// The lend manifest of the Open body slot `slot` of the wrapper Machine `machine_value`.
///
/// - `declaration`: the literal `open({ lends, allows, ceilings }, ...)`.
/// - `lent`: the wrapper's own setup parts that `lends` names and that exist now: Agents (their
///   `model`, `instructions`, `workspace`), Effects ([`effect_parts`]), Machines (`{}`), and the
///   names of its `guards`, `actions` and `delays`.
/// - `inputKeys`: the keys of the Open body's run input, where static: the second argument's
///   `input: z.object({...})`, else the keys of the input that the wrapper's invokes of the slot
///   give (when they all agree); absent otherwise.
/// - `repoSlots`: the keys of the enclosing `workspace(body, { repos })`; absent without one.
pub fn lend_manifest(machine_value: &Value, slot: &str) -> Result<LendManifest, String> {
    let parts = machine_parts(machine_value).map_err(|f| f.message)?;
    lend_manifest_of(&parts, &Customized::new(&parts), slot)
}

/// [`lend_manifest`] of a Machine already taken apart, with its `customize()` layers.
pub(crate) fn lend_manifest_of(
    parts: &MachineParts<'_>,
    custom: &Customized<'_, '_>,
    slot: &str,
) -> Result<LendManifest, String> {
    let Some(actor) = parts.actor(slot) else {
        let names: Vec<&str> = parts.setup_entries("actors").into_iter().map(|(n, _)| n).collect();
        return Err(format!("no actor \"{slot}\" in the Machine's setup (actors: {})", base::path::names(&names)));
    };
    if classify_actor(actor) != ActorClass::Open {
        return Err(format!(
            "actor \"{slot}\" is {}, not an Open body (`open({{ lends, allows, ceilings }}, ...)`)",
            crate::lower::describe(actor)
        ));
    }
    let declaration =
        declaration_of(arg(actor, 0).ok_or_else(|| format!("`open()` of slot \"{slot}\" has no declaration"))?)?;
    let mut lent = Lent::default();
    let l = &declaration.lends;
    for name in &l.agents {
        if let Some(a) = custom.actor(name).filter(|a| classify_actor(a) == ActorClass::Agent) {
            let def = agent_definition(&a);
            let s = |k: &str| def.get(k).and_then(J::as_str).map(str::to_string);
            lent.agents.insert(
                name.clone(),
                kit::lends::AgentDef { model: s("model"), instructions: s("instructions"), workspace: s("workspace") },
            );
        }
    }
    for name in &l.effects {
        if let Some(e) = custom.actor(name).and_then(|a| effect_parts(&a)) {
            lent.effects.insert(name.clone(), e);
        }
    }
    for name in &l.machines {
        if parts.actor(name).is_some_and(|a| matches!(classify_actor(a), ActorClass::Machine | ActorClass::Open)) {
            lent.machines.insert(name.clone(), json!({}));
        }
    }
    let keys =
        |field: &str| -> Vec<String> { parts.setup_entries(field).into_iter().map(|(n, _)| n.to_string()).collect() };
    let (guards, actions, delays) = (keys("guards"), keys("actions"), keys("delays"));
    lent.guards = l.guards.iter().filter(|g| guards.contains(g)).cloned().collect();
    lent.actions = l.actions.iter().filter(|g| actions.contains(g)).cloned().collect();
    lent.delays = l.delays.iter().filter(|g| delays.contains(g)).cloned().collect();

    let input_keys = opt(actor, 1, "input").and_then(zod_object_keys).or_else(|| invoke_input_keys(parts, slot));
    let workspace = custom.workspace();
    let repo_slots = workspace
        .as_ref()
        .and_then(|w| w.get("repos"))
        .and_then(Value::props)
        .map(|ps| ps.iter().map(|p| p.key.to_string()).collect());
    Ok(LendManifest { declaration, lent, input_keys, repo_slots })
}

/// A Machine's parts with its `customize()` options layered over them (see the module doc).
///
/// A layered value is made anew (an object spread, a call with an argument replaced): it lives in
/// the `Customized`'s own arena, beside the Machine's values it points into, so what `actors`,
/// `actor` and `workspace` give borrows the `Customized`. Without a `customize()` nothing is made
/// and each is the Machine's own value.
pub(crate) struct Customized<'p, 'v> {
    parts: &'p MachineParts<'v>,
    /// The `customize()` options objects, innermost first.
    layers: Vec<&'v Value<'v>>,
    /// Where the layered values are made: made itself at the first one (a Machine with no
    /// `customize()` makes none).
    arena: std::cell::OnceCell<Arena>,
}

impl<'p, 'v> Customized<'p, 'v> {
    pub(crate) fn new(parts: &'p MachineParts<'v>) -> Self {
        let layers = parts
            .wrappers
            .iter()
            .rev()
            .filter(|w| w.kind == WrapperKind::Customize)
            .filter_map(|w| w.options.filter(|o| o.props().is_some()))
            .collect();
        Customized { parts, layers, arena: std::cell::OnceCell::new() }
    }

    /// The setup actors, in order, each as customized.
    pub(crate) fn actors(&self) -> Vec<(&'v str, Value<'_>)> {
        self.parts.setup_entries("actors").into_iter().map(|(name, a)| (name, self.layered(name, a))).collect()
    }

    /// The setup actor `name`, as customized.
    pub(crate) fn actor(&self, name: &str) -> Option<Value<'_>> {
        self.parts.actor(name).map(|a| self.layered(name, a))
    }

    /// The innermost `workspace()`'s options with the `customize()` `repos` and `resources`
    /// layered over them; `None` without a `workspace()`.
    pub(crate) fn workspace(&self) -> Option<Value<'_>> {
        let mut out: Value<'_> = *self.parts.workspace()?;
        for layer in &self.layers {
            for key in ["repos", "resources"] {
                if let Some(over) = layer.get(key).filter(|o| o.props().is_some()) {
                    let arena = self.arena();
                    let merged = spread(out.get(key), over, arena);
                    out = spread(Some(&out), &object_of(&[(key, merged)], over, arena), arena);
                }
            }
        }
        Some(out)
    }

    fn arena(&self) -> &Arena {
        self.arena.get_or_init(Arena::default)
    }

    fn layered(&self, name: &str, actor: &'v Value<'v>) -> Value<'_> {
        let mut out: Value<'_> = *actor;
        for layer in &self.layers {
            let class = classify_actor(&out);
            let field = match class {
                ActorClass::Agent => "agents",
                ActorClass::Effect(_) => "effects",
                _ => continue,
            };
            let Some(over) = layer.get(field).and_then(|f| f.get(name)).filter(|o| o.props().is_some()) else {
                continue;
            };
            let arena = self.arena();
            out = match kit_name(&out).unwrap_or_default() {
                "command" => {
                    let mut v = out;
                    if let Some(argv) = over.get("argv") {
                        v = with_arg(&v, 0, *argv, arena);
                    }
                    let rest: Vec<Prop> =
                        over.props().unwrap_or(&[]).iter().filter(|p| p.key != "argv").copied().collect();
                    if !rest.is_empty() {
                        let rest = Value::new(ValueKind::Object { props: arena.props(&rest) }, over.loc);
                        let opts = spread(arg(&v, 1), &rest, arena);
                        v = with_arg(&v, 1, opts, arena);
                    }
                    v
                }
                "dispatch" => with_arg(&out, 1, spread(arg(&out, 1), over, arena), arena),
                _ => with_arg(&out, 0, spread(arg(&out, 0), over, arena), arena),
            };
        }
        out
    }
}

/// `{ ...base, ...over }`: a key of `base` keeps its place and takes `over`'s value; `over`'s
/// other keys follow. A `base` that is no object counts as `{}`. Made in `arena`.
fn spread<'a>(base: Option<&Value<'a>>, over: &Value<'a>, arena: &'a Arena) -> Value<'a> {
    let mut props: Vec<Prop> = base.and_then(Value::props).map(<[Prop]>::to_vec).unwrap_or_default();
    for p in over.props().unwrap_or(&[]) {
        match props.iter_mut().find(|q| q.key == p.key) {
            Some(q) => q.value = p.value,
            None => props.push(*p),
        }
    }
    Value::new(ValueKind::Object { props: arena.props(&props) }, base.map_or(over.loc, |b| b.loc))
}

/// An object of the given properties, placed at `at`, made in `arena`.
fn object_of<'a>(props: &[(&'a str, Value<'a>)], at: &Value<'a>, arena: &'a Arena) -> Value<'a> {
    let props: Vec<Prop> = props.iter().map(|&(key, value)| Prop { key, key_loc: at.loc, value }).collect();
    Value::new(ValueKind::Object { props: arena.props(&props) }, at.loc)
}

/// The call `v` with its `i`th argument replaced (missing ones before it are `undefined`), made
/// in `arena`.
fn with_arg<'a>(v: &Value<'a>, i: usize, new: Value<'a>, arena: &'a Arena) -> Value<'a> {
    let Some(call) = v.as_call() else { return *v };
    let mut args = call.args.to_vec();
    while args.len() <= i {
        args.push(Value::new(ValueKind::Undefined, v.loc));
    }
    args[i] = new;
    let call = Call { callee: call.callee, receiver: call.receiver, args: arena.values(&args) };
    Value::new(ValueKind::Call(arena.call(call)), v.loc)
}

/// The keys of the input that every invoke of `slot` in the Machine gives, when they agree.
fn invoke_input_keys(parts: &MachineParts<'_>, slot: &str) -> Option<Vec<String>> {
    // Lowered for a check: its invokes' inputs are there, and no slot's definition is read (an
    // Open body's definition is this manifest: reading it here would go round for ever).
    let lowered = lower_parts_for_check(parts);
    let m = lowered.machine?;
    let mut found: Option<Vec<String>> = None;
    for st in &m.states {
        for inv in st.invokes.iter().filter(|i| i.src == slot) {
            let keys = match inv.input.as_deref()? {
                ir::Expr::Object(fields) => fields.iter().map(|(k, _)| k.to_string()).collect(),
                ir::Expr::Literal(ir::Json::Object(m)) => m.keys().map(|k| k.to_string()).collect(),
                _ => return None,
            };
            match &found {
                Some(f) if *f != keys => return None,
                _ => found = Some(keys),
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;

    /// `effect_input_takes` answers as the keys of `effect_parts(..).input_shape()` do, for every
    /// kind of Effect: an input absent, one that does not convert, one that is no object.
    #[test]
    fn effect_input_takes_agrees_with_the_input_shape() {
        let text = r#"import { z } from "zod";
import { agent, arg, command, dispatch, http, mcp, push, worktree } from "@jr2/orchestrator";
export const actors = {
  note: http({ method: "POST", url: "https://x.example.com", input: z.object({ text: z.string(), level: z.string().optional() }) }),
  bare: http({ method: "POST", url: "https://x.example.com" }),
  odd: http({ method: "POST", url: "https://x.example.com", input: z.object({ text: z.string().transform((s) => s) }) }),
  plain: http({ method: "POST", url: "https://x.example.com", input: z.string() }),
  tool: mcp({ server: "s", tool: "t", input: z.object({ q: z.string() }) }),
  run: dispatch("other", { input: z.object({ ticket: z.string() }) }),
  blind: dispatch("other", {}),
  broken: dispatch("other", { input: z.object({ ticket: z.string().transform((s) => s) }) }),
  test: command(["node", arg("file")]),
  cut: worktree(),
  ship: push(),
  writer: agent({ model: "m", instructions: "i" }),
};
"#;
        let ev = crate::eval::evaluate_text(std::path::Path::new("/virtual/actors.ts"), text);
        let actors = ev.exports.get("actors").and_then(Value::props).expect("the actors");
        let names: [&[&str]; 9] = [
            &[],
            &["text"],
            &["level"],
            &["text", "channel"],
            &["q"],
            &["ticket"],
            &["file", "worktree"],
            &["path", "branch", "detach", "from"],
            &["nope"],
        ];
        let mut answers = BTreeSet::new();
        for p in actors {
            for n in names {
                let keys = effect_parts(&p.value).and_then(|e| e.input_shape()).map(|s| s.keys());
                let want = keys.map(|keys| n.iter().all(|x| keys.iter().any(|k| k == x)));
                let got = effect_input_takes(&p.value, n);
                assert_eq!(got, want, "{} {n:?}", p.key);
                answers.insert(got);
            }
        }
        assert_eq!(answers.len(), 3, "every answer is met: {answers:?}");
    }

    /// A Chart wrapper: an Open body slot `plan` lending the wrapper's own parts, in a
    /// `workspace()` with one Repo Slot.
    fn wrapper() -> Value<'static> {
        let decl = obj(vec![
            (
                "lends",
                obj(vec![
                    ("agents", arr(vec![s("writer")])),
                    (
                        "effects",
                        arr(vec![
                            s("tests"),
                            s("check"),
                            s("cut"),
                            s("post"),
                            s("publish"),
                            s("review"),
                            s("lookup"),
                            s("later"),
                        ]),
                    ),
                    ("machines", arr(vec![s("subtask")])),
                    ("guards", arr(vec![s("green")])),
                    ("actions", arr(vec![s("note")])),
                    ("delays", arr(vec![s("soon")])),
                    ("gate", b(true)),
                    ("fail", b(true)),
                ]),
            ),
            (
                "allows",
                obj(vec![
                    ("models", arr(vec![s("anthropic/claude-haiku-5-5")])),
                    ("workspace", arr(vec![s("none"), s("read"), s("write")])),
                ]),
            ),
            (
                "ceilings",
                obj(vec![
                    ("turns", n(12.0)),
                    ("wallClock", s("30m")),
                    ("transitions", n(500.0)),
                    ("fanOut", n(2.0)),
                    ("size", n(65536.0)),
                ]),
            ),
        ]);
        let subtask = machine(
            obj(vec![]),
            obj(vec![
                ("id", s("subtask")),
                ("initial", s("a")),
                ("states", obj(vec![("a", obj(vec![("type", s("final"))]))])),
            ]),
        );
        let body = machine(
            obj(vec![
                (
                    "actors",
                    obj(vec![
                        (
                            "writer",
                            kit(
                                "agent",
                                vec![obj(vec![
                                    ("model", s("anthropic/claude-haiku-5-5")),
                                    ("instructions", s("You write.")),
                                    ("workspace", s("none")),
                                    (
                                        "mcp",
                                        arr(vec![obj(vec![("server", s("tickets")), ("tools", arr(vec![s("get")]))])]),
                                    ),
                                ])],
                            ),
                        ),
                        ("tests", kit("command", vec![arr(vec![s("npm"), s("test")])])),
                        (
                            "check",
                            kit(
                                "command",
                                vec![
                                    arr(vec![s("node"), s("--test"), kit("arg", vec![s("file")])]),
                                    obj(vec![("secrets", arr(vec![s("npm")]))]),
                                ],
                            ),
                        ),
                        ("cut", kit("worktree", vec![obj(vec![("expect", s("new"))])])),
                        (
                            "post",
                            kit(
                                "http",
                                vec![obj(vec![
                                    ("method", s("POST")),
                                    ("url", s("https://hooks.example.com/notes")),
                                    ("auth", kit("bearer", vec![kit("secret", vec![s("hooks")])])),
                                    ("input", zod("object", vec![obj(vec![("text", zod("string", vec![]))])])),
                                ])],
                            ),
                        ),
                        ("publish", kit("push", vec![obj(vec![("force", b(false))])])),
                        ("review", kit("dispatch", vec![s("review"), obj(vec![])])),
                        ("lookup", kit("mcp", vec![obj(vec![("server", s("tickets")), ("tool", s("get"))])])),
                        ("subtask", subtask),
                        (
                            "plan",
                            kit(
                                "open",
                                vec![
                                    decl,
                                    obj(vec![(
                                        "input",
                                        zod("object", vec![obj(vec![("topic", zod("string", vec![]))])]),
                                    )]),
                                ],
                            ),
                        ),
                        ("fail", kit("fail", vec![])),
                    ]),
                ),
                ("guards", obj(vec![("green", func(None))])),
                ("actions", obj(vec![("note", func(None))])),
                ("delays", obj(vec![("soon", n(1000.0))])),
            ]),
            obj(vec![
                ("id", s("planner")),
                ("initial", s("planning")),
                (
                    "states",
                    obj(vec![
                        (
                            "planning",
                            obj(vec![(
                                "invoke",
                                obj(vec![
                                    ("src", s("plan")),
                                    ("input", func(Some(eobj(vec![("topic", r("context.topic"))])))),
                                    ("onDone", s("done")),
                                ]),
                            )]),
                        ),
                        ("done", obj(vec![("type", s("final"))])),
                        ("failed", obj(vec![("invoke", obj(vec![("src", s("fail"))]))])),
                    ]),
                ),
            ]),
        );
        kit(
            "workspace",
            vec![
                body,
                obj(vec![
                    ("repos", obj(vec![("app", s("https://github.com/you/app.git")), ("config", kit("open", vec![]))])),
                    ("image", s("images/node")),
                    ("resources", obj(vec![("cpu", n(2.0)), ("memory", s("4Gi"))])),
                    ("secrets", arr(vec![s("npm")])),
                ]),
            ],
        )
    }

    #[test]
    fn fix_tests_parts() {
        reset();
        let v = fix_tests();
        let parts = parts_of(&v);
        assert_eq!(parts.failures.len(), 3);
        assert!(parts.composes_sandbox);
        insta::assert_json_snapshot!("fix_tests_parts", json!({ "parts": parts, "pods": workspace_pods_of(&v) }));
    }

    #[test]
    fn notes_parts() {
        reset();
        let v = notes();
        let parts = parts_of(&v);
        assert!(!parts.composes_sandbox);
        assert!(workspace_pods_of(&v).is_empty());
        insta::assert_json_snapshot!("notes_parts", parts);
    }

    #[test]
    fn wrapper_parts_and_pods() {
        reset();
        let v = wrapper();
        insta::assert_json_snapshot!("wrapper_parts", json!({ "parts": parts_of(&v), "pods": workspace_pods_of(&v) }));
    }

    /// A shipped Machine with Open parts, in a `workspace()`, customized twice.
    fn customized() -> Value<'static> {
        let open = || kit("open", vec![]);
        let body = machine(
            obj(vec![(
                "actors",
                obj(vec![
                    ("coder", kit("agent", vec![obj(vec![("model", open()), ("instructions", s("Fix it."))])])),
                    ("tests", kit("command", vec![arr(vec![s("npm"), s("test")])])),
                    ("notify", kit("dispatch", vec![s("notify"), obj(vec![("target", open())])])),
                    ("plan", kit("open", vec![obj(vec![("lends", obj(vec![("agents", arr(vec![s("coder")]))]))])])),
                ]),
            )]),
            obj(vec![
                ("id", s("shipped")),
                ("initial", s("a")),
                ("states", obj(vec![("a", obj(vec![("type", s("final"))]))])),
            ]),
        );
        let shipped = kit(
            "workspace",
            vec![
                body,
                obj(vec![
                    ("repos", obj(vec![("app", open()), ("config", s("https://github.com/you/config.git"))])),
                    ("resources", obj(vec![("cpu", n(1.0)), ("memory", s("2Gi"))])),
                ]),
            ],
        );
        let inner = kit(
            "customize",
            vec![
                shipped,
                obj(vec![
                    ("agents", obj(vec![("coder", obj(vec![("model", s("first/model"))]))])),
                    ("repos", obj(vec![("app", s("https://github.com/you/app.git"))])),
                ]),
            ],
        );
        kit(
            "customize",
            vec![
                inner,
                obj(vec![
                    ("agents", obj(vec![("coder", obj(vec![("model", s("anthropic/claude-haiku-5-5"))]))])),
                    (
                        "effects",
                        obj(vec![
                            (
                                "notify",
                                obj(vec![(
                                    "target",
                                    obj(vec![
                                        ("url", s("https://ops.example.com")),
                                        ("token", kit("secret", vec![s("ops-instance")])),
                                    ]),
                                )]),
                            ),
                            (
                                "tests",
                                obj(vec![
                                    ("argv", arr(vec![s("npm"), s("run"), s("check")])),
                                    ("secrets", arr(vec![s("npm")])),
                                ]),
                            ),
                            // Names no slot: changes nothing.
                            ("nope", obj(vec![("timeout", n(1.0))])),
                        ]),
                    ),
                    ("resources", obj(vec![("memory", s("4Gi"))])),
                ]),
            ],
        )
    }

    #[test]
    fn customize_options_are_layered_over_the_parts() {
        reset();
        let v = customized();
        let parts = parts_of(&v);
        // The outer `customize()` goes over the inner one.
        assert_eq!(parts.agents[0].definition["model"], json!("anthropic/claude-haiku-5-5"));
        assert_eq!(parts.agents[0].definition["instructions"], json!("Fix it."));
        assert_eq!(parts.models, ["anthropic/claude-haiku-5-5"]);
        // The bound target: placed in the Instance Effector, its token a secret, no Open part left.
        let notify = parts.effects.iter().find(|e| e["name"] == "notify").expect("notify");
        assert_eq!(notify["placement"], json!("instance"));
        assert_eq!(notify["target"], json!("https://ops.example.com"));
        assert_eq!(notify["secrets"], json!(["ops-instance"]));
        assert!(parts.open_effects.is_empty(), "{:?}", parts.open_effects);
        // A command's argv and options.
        let tests = parts.effects.iter().find(|e| e["name"] == "tests").expect("tests");
        assert_eq!(tests["argv"], json!(["npm", "run", "check"]));
        assert_eq!(tests["placement"], json!("sandbox"));
        // The Size: the workspace()'s, with the customize()'s layered over it.
        assert_eq!(parts.sizes[0].resources, json!({ "cpu": 1, "memory": "4Gi" }));
        let pods = workspace_pods_of(&v);
        assert_eq!(pods[0].bindings.get("app").map(String::as_str), Some("https://github.com/you/app.git"));
        assert_eq!(pods[0].repos, ["app", "config"]);
        assert_eq!(pods[0].resources, Some(json!({ "cpu": 1, "memory": "4Gi" })));
        // The lend manifest lends the customized Agent.
        let m = lend_manifest(&v, "plan").expect("a manifest");
        assert_eq!(m.lent.agents["coder"].model.as_deref(), Some("anthropic/claude-haiku-5-5"));
        // Without the customize() wrappers, the parts stay open.
        let bare = parts_of(arg(arg(&v, 0).expect("inner"), 0).expect("shipped"));
        assert!(bare.agents[0].definition.get("model").is_none());
        assert_eq!(bare.open_effects.len(), 1);
    }

    #[test]
    fn lend_manifest_of_open_slot() {
        reset();
        let v = wrapper();
        let m = lend_manifest(&v, "plan").expect("a manifest");
        assert_eq!(m.input_keys.as_deref(), Some(&["topic".to_string()][..]));
        assert_eq!(m.repo_slots.as_deref(), Some(&["app".to_string(), "config".to_string()][..]));
        // Declared and not lent now: `later`.
        assert!(!m.lent.effects.contains_key("later"));
        // It reads back as the door's own type (the CONTRACT's shape).
        let text = serde_json::to_value(&m).unwrap();
        let back: LendManifest = serde_json::from_value(text.clone()).unwrap();
        assert_eq!(back, m);
        insta::assert_json_snapshot!("wrapper_lends_plan", text);
        assert!(lend_manifest(&v, "writer").unwrap_err().contains("not an Open body"));
        assert!(lend_manifest(&v, "nope").unwrap_err().contains("no actor \"nope\""));
        assert!(lend_manifest(&s("x"), "plan").is_err());
    }

    /// `ceilings.wallClock` is a duration, or the declaration is refused, saying what it is.
    #[test]
    fn a_wall_clock_that_is_no_duration_is_refused() {
        let decl = |w: Value<'static>| obj(vec![("ceilings", obj(vec![("wallClock", w)]))]);
        assert_eq!(declaration_of(&decl(s("90s"))).expect("a duration").ceilings.wall_clock.as_deref(), Some("90s"));
        let refused = declaration_of(&decl(s("30 parsecs"))).expect_err("no duration");
        assert!(refused.starts_with("`ceilings.wallClock` is \"30 parsecs\", which is no duration"), "{refused}");
        assert!(declaration_of(&decl(n(30.0))).expect_err("a number").contains("which is no duration"));
    }
}
